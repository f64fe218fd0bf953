//! Puzzles from real games for the window, the page and the terminal: the built-in set (mined
//! from self-play games with `qiguo_ai::puzzles`, kept in `assets/puzzles/`, read and checked
//! once), the day's puzzle (the same for everyone on a day, by UTC), a puzzle by the name its
//! link carries, a lesson's (by its topics), and the solver: a rating that each first try moves
//! (`qiguo_rating::attempt` against the puzzle's rating) and the puzzles tried.

use std::sync::OnceLock;

use qiguo_rating::Rating;
use qiguo_rules::{Game, Position, Preset, Rules};
use serde::{Deserialize, Serialize};

pub use qiguo_ai::puzzles::{Puzzle, Theme, Topic};

/// The built-in puzzles (a JSON array, as `qiguo puzzles mine --json` writes it).
const BUILT_IN: &str = include_str!("../assets/puzzles/classic.json");

/// The most puzzles a solver remembers having tried (the oldest are forgotten first).
pub const MAX_TRIED: usize = 2_000;

/// The longest name of a puzzle taken from a link.
const MAX_ID_CHARS: usize = 32;

/// Why puzzles cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The text is not puzzles as `qiguo puzzles mine --json` writes them.
    #[error("not puzzles as `qiguo puzzles mine --json` writes them: {0}")]
    NotPuzzles(String),
    /// A puzzle (by name) cannot be played: its rules, its position or its move (why).
    #[error("puzzle {0}: {1}")]
    Unplayable(String, String),
}

/// Reads puzzles from `text` and checks each: its rules, its position and its move.
pub fn read(text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let all: Vec<Puzzle> =
        serde_json::from_str(text).map_err(|e| PuzzleError::NotPuzzles(e.to_string()))?;
    for puzzle in &all {
        position_of(puzzle)?;
    }
    Ok(all)
}

/// The built-in puzzles, read once (a set that cannot be read is logged and left empty: the
/// tests keep it readable).
pub fn built_in() -> &'static [Puzzle] {
    static ALL: OnceLock<Vec<Puzzle>> = OnceLock::new();
    ALL.get_or_init(|| {
        read(BUILT_IN).unwrap_or_else(|e| {
            bevy::log::error!("the built-in puzzles: {e}");
            Vec::new()
        })
    })
}

/// The position of `puzzle`, the mover to move.
pub fn position_of(puzzle: &Puzzle) -> Result<Position, PuzzleError> {
    let unplayable = |why: String| PuzzleError::Unplayable(puzzle.id(), why);
    let preset = puzzle
        .rules
        .parse::<Preset>()
        .map_err(|e| unplayable(e.to_string()))?;
    let pos = Position::from_fen(&puzzle.fen, Rules::preset(preset))
        .map_err(|e| unplayable(format!("its position cannot be read: {e}")))?;
    if let Err(e) = pos.clone().play(puzzle.solution) {
        return Err(unplayable(format!(
            "its move {} cannot be played: {e}",
            puzzle.solution
        )));
    }
    Ok(pos)
}

/// The game a puzzle is played in: its position, nothing played yet.
pub fn game_of(puzzle: &Puzzle) -> Result<Game, PuzzleError> {
    position_of(puzzle).map(Game::new)
}

/// The puzzle called `id` in `all`.
pub fn by_id<'a>(all: &'a [Puzzle], id: &str) -> Option<&'a Puzzle> {
    all.iter().find(|p| p.id() == id)
}

/// The day's puzzle in `all` on day `day` (days since 1970-01-01, UTC): spread over the set
/// (a hash of the day, not the set's order, where puzzles of one game lie together).
pub fn daily(all: &[Puzzle], day: u64) -> Option<&Puzzle> {
    all.get(qiguo_ai::puzzles::daily_index(day, all.len()))
}

/// Today, in days since 1970-01-01 (UTC), by this machine's clock (the browser's in a page).
pub fn today() -> u64 {
    crate::storage::SystemTime::now()
        .duration_since(crate::storage::SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400)
}

/// The puzzles of `all` about any of `topics`.
pub fn about<'a>(all: &'a [Puzzle], topics: &[Topic]) -> Vec<&'a Puzzle> {
    all.iter()
        .filter(|p| topics.iter().any(|&t| p.is_about(t)))
        .collect()
}

/// What a puzzle's link or name asks for: `daily`, a puzzle's name, or a link carrying one
/// (`…?puzzle=NAME`, `…#puzzle=NAME`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// The day's puzzle.
    Daily,
    /// The puzzle of this name.
    Named(String),
}

/// Why a text names no puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` names no puzzle: expected `daily`, a puzzle's name (twelve letters and digits) or a link with ?puzzle=NAME"
)]
pub struct NotAPuzzle(pub String);

impl std::str::FromStr for Asked {
    type Err = NotAPuzzle;

    fn from_str(text: &str) -> Result<Asked, NotAPuzzle> {
        let text = text.trim();
        let name = text
            .rsplit_once("puzzle=")
            .map_or(text, |(_, after)| after)
            .split(['&', '#', '/'])
            .next()
            .unwrap_or_default();
        let ok = !name.is_empty()
            && name.len() <= MAX_ID_CHARS
            && name.bytes().all(|b| b.is_ascii_alphanumeric());
        if !ok {
            return Err(NotAPuzzle(text.chars().take(200).collect()));
        }
        Ok(if name.eq_ignore_ascii_case("daily") {
            Asked::Daily
        } else {
            Asked::Named(name.to_ascii_lowercase())
        })
    }
}

impl Asked {
    /// The puzzle asked for in `all` on day `day`.
    pub fn find<'a>(&self, all: &'a [Puzzle], day: u64) -> Option<&'a Puzzle> {
        match self {
            Asked::Daily => daily(all, day),
            Asked::Named(id) => by_id(all, id),
        }
    }
}

/// A puzzle's link: the page at `page` (its address without query) with `?puzzle=NAME`.
pub fn link(page: &str, puzzle: &Puzzle) -> String {
    format!(
        "{}?puzzle={}",
        page.split(['?', '#']).next().unwrap_or(page),
        puzzle.id()
    )
}

/// A solver: a rating (a new solver's until the first try) and the puzzles tried, by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Solver {
    /// The rating's mean, on the rating crate's scale (0 until the first try).
    pub mu: f64,
    /// Its uncertainty (0 until the first try).
    pub sigma: f64,
    /// The puzzles tried, by name, the oldest first.
    pub tried: Vec<String>,
}

impl Solver {
    /// The solver's rating (a new person's before the first try).
    pub fn rating(&self) -> Rating {
        if self.sigma > 0.0 && self.sigma.is_finite() && self.mu.is_finite() {
            Rating {
                mu: self.mu,
                sigma: self.sigma,
            }
        } else {
            Rating::default()
        }
    }

    /// Whether `puzzle` was tried.
    pub fn has_tried(&self, puzzle: &Puzzle) -> bool {
        let id = puzzle.id();
        self.tried.contains(&id)
    }

    /// The first try at `puzzle`, `solved` or not: the rating moves (once a puzzle: a puzzle
    /// tried before changes nothing). The rating before and after.
    pub fn first_try(&mut self, puzzle: &Puzzle, solved: bool) -> (Rating, Rating) {
        let before = self.rating();
        if self.has_tried(puzzle) {
            return (before, before);
        }
        let (after, _) = qiguo_rating::attempt(before, Rating::from_shown(puzzle.rating), solved);
        self.mu = after.mu;
        self.sigma = after.sigma;
        self.tried.push(puzzle.id());
        let over = self.tried.len().saturating_sub(MAX_TRIED);
        self.tried.drain(..over);
        (before, after)
    }

    /// The untried puzzle of `choice` rated nearest the solver (the nearest of all when every
    /// one was tried).
    pub fn next<'a>(&self, choice: &[&'a Puzzle]) -> Option<&'a Puzzle> {
        let shown = self.rating().shown();
        let nearest = |p: &&&Puzzle| (p.rating - shown).abs();
        choice
            .iter()
            .filter(|p| !self.has_tried(p))
            .min_by_key(nearest)
            .or_else(|| choice.iter().min_by_key(nearest))
            .copied()
    }

    /// Brought into range: a rating that is not a number is forgotten, the list bounded.
    pub fn sanitized(mut self) -> Solver {
        if !(self.mu.is_finite() && self.sigma.is_finite() && self.sigma >= 0.0) {
            self.mu = 0.0;
            self.sigma = 0.0;
        }
        self.tried
            .retain(|id| id.len() <= MAX_ID_CHARS && id.bytes().all(|b| b.is_ascii_alphanumeric()));
        let over = self.tried.len().saturating_sub(MAX_TRIED);
        self.tried.drain(..over);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn the_built_in_puzzles_read_each_with_its_own_name_and_a_move_that_plays() {
        let all = read(BUILT_IN).expect("the built-in puzzles read");
        assert!(all.len() >= 100, "{} puzzles", all.len());
        assert_eq!(built_in().len(), all.len());
        let names: BTreeSet<String> = all.iter().map(Puzzle::id).collect();
        assert_eq!(names.len(), all.len(), "each puzzle its own name");
        for puzzle in &all {
            assert_eq!(by_id(&all, &puzzle.id()), Some(puzzle));
            let game = game_of(puzzle).unwrap();
            assert_eq!(game.position().to_move(), puzzle.mover, "{}", puzzle.id());
            assert!(game.position().is_legal(puzzle.solution));
        }
    }

    #[test]
    fn a_puzzle_that_does_not_play_is_refused_by_name() {
        let mut all = read(BUILT_IN).unwrap();
        all.truncate(1);
        let mut broken = all[0].clone();
        broken.solution = qiguo_rules::notation::parse_move("s19s18").unwrap();
        let text = serde_json::to_string(&[broken.clone()]).unwrap();
        let err = read(&text).unwrap_err();
        assert!(
            matches!(&err, PuzzleError::Unplayable(id, why)
                if *id == broken.id() && why.contains("s19s18 cannot be played")),
            "{err}"
        );
        assert!(matches!(
            read("[{\"fen\": 3}]"),
            Err(PuzzleError::NotPuzzles(_))
        ));
    }

    #[test]
    fn the_days_puzzle_is_one_a_day_and_spread_over_the_set() {
        let all = built_in();
        assert_eq!(daily(all, 20_000), daily(all, 20_000));
        let days: BTreeSet<String> = (20_000..20_030)
            .filter_map(|d| daily(all, d).map(Puzzle::id))
            .collect();
        assert!(days.len() >= 20, "thirty days, {} puzzles", days.len());
        assert_eq!(daily(&[], 5), None);
        assert!(today() > 20_000, "the clock reads a day after 2024");
    }

    #[test]
    fn a_link_or_a_name_asks_for_a_puzzle_and_anything_else_is_refused() {
        let one = &built_in()[0];
        let id = one.id();
        let link = link("https://qiguo.example/?lang=sv", one);
        assert_eq!(link, format!("https://qiguo.example/?puzzle={id}"));
        for text in [
            id.clone(),
            id.to_uppercase(),
            link.clone(),
            format!("#puzzle={id}"),
        ] {
            let asked: Asked = text.parse().unwrap();
            assert_eq!(asked, Asked::Named(id.clone()), "{text}");
            assert_eq!(asked.find(built_in(), 0), Some(one));
        }
        assert_eq!("daily".parse::<Asked>(), Ok(Asked::Daily));
        assert_eq!(
            "?puzzle=daily"
                .parse::<Asked>()
                .unwrap()
                .find(built_in(), 7),
            daily(built_in(), 7)
        );
        for bad in ["", "puzzle=", "ab cd", "<script>", &"a".repeat(40)] {
            assert!(bad.parse::<Asked>().is_err(), "{bad:?}");
        }
        assert_eq!(
            Asked::Named("000000000000".into()).find(built_in(), 0),
            None
        );
    }

    #[test]
    fn a_first_try_moves_the_rating_once_and_the_next_is_untried_and_near() {
        let all: Vec<&Puzzle> = built_in().iter().collect();
        let mut solver = Solver::default();
        let first = solver.next(&all).unwrap();
        assert!((first.rating - 1500).abs() <= 100, "{}", first.rating);
        let (before, after) = solver.first_try(first, true);
        assert!(after.shown() > before.shown());
        assert_eq!(
            solver.first_try(first, false),
            (after, after),
            "tried already"
        );
        let second = solver.next(&all).unwrap();
        assert_ne!(second.id(), first.id());
        let (_, lower) = solver.first_try(second, false);
        assert!(lower.shown() < after.shown());
        // A solver from a damaged file starts again; the list stays bounded.
        let damaged = Solver {
            mu: f64::NAN,
            sigma: 1.0,
            tried: vec!["x y".into(); 3]
                .into_iter()
                .chain(std::iter::repeat_n("abc".to_string(), MAX_TRIED + 5))
                .collect(),
        }
        .sanitized();
        assert_eq!(damaged.rating(), Rating::default());
        assert_eq!(damaged.tried.len(), MAX_TRIED);
    }

    #[test]
    fn topics_choose_a_lessons_puzzles() {
        let cannon: Topic = "cannon".parse().unwrap();
        let hunt = Topic::Theme(Theme::GeneralHunt);
        let cannons = about(built_in(), &[cannon]);
        assert!(!cannons.is_empty());
        assert!(
            cannons
                .iter()
                .all(|p| p.piece() == Some(qiguo_rules::PieceKind::Cannon))
        );
        let both = about(built_in(), &[cannon, hunt]);
        assert!(both.len() > cannons.len());
        assert!(both.iter().all(|p| p.is_about(cannon) || p.is_about(hunt)));
    }
}
