//! Puzzles from real games: positions of reviewed games where exactly one move keeps or wins
//! something decisive, confirmed by a deeper search that no second move comes close.
//!
//! **Where to look.** A position is a candidate where the review says something was at stake:
//! the mover missed a better move by a mistake's worth or more ([`MISTAKE`]), or its move (the
//! review's best) took a General. Most candidates fail: a move that was missed is seldom the
//! only good one.
//!
//! **The check.** Every legal move of a candidate is looked at briefly ([`SCAN_NODES`] a move,
//! the mover's chance after it read as the review reads one: [`chance_after`]); the review's best
//! and the three best of the rest are then searched deeper ([`PUZZLE_NODES`]). A puzzle is a
//! candidate whose deep best is the review's best, keeps the mover's chance at least
//! [`UNIQUE_BY`] above every other move's, and is decisive: it takes a General, saves the mover's
//! attacked General, takes a piece, or lifts the mover's chance by [`UNIQUE_BY`] over what the
//! position held before it.
//!
//! **Themes** name what the solution does ([`Theme`]); **a rating** guesses how hard it is
//! before anyone has tried it (a rating's scale, 1500 a new person): a quiet move, many moves to
//! choose from, and a solution the brief look did not put first make it harder; taking a General
//! makes it easier. Solvers' results move it (`qiguo_rating::attempt`, in the game and the
//! terminal).

use qiguo_rules::{Game, Kingdom, Move, PieceKind, Position, Preset, Rules};
use serde::{Deserialize, Serialize};

use crate::review::{BLUNDER, GameReview, MISTAKE, REVIEW_NODES, chance_after};

/// Positions searched for each move's brief look.
pub const SCAN_NODES: u64 = 2_000;
/// Positions searched for the deeper check of the best moves: four times a review's.
pub const PUZZLE_NODES: u64 = 4 * REVIEW_NODES;
/// How far above every other move the solution must keep the mover's chance, and what counts
/// as a decisive lift: a blunder's worth.
pub const UNIQUE_BY: f64 = BLUNDER;
/// The brief look's and the check's positions for a game reviewed at `review_nodes` a position:
/// a twenty-fifth and four times as many ([`SCAN_NODES`] and [`PUZZLE_NODES`] at
/// [`REVIEW_NODES`]), so that a server reviewing at another budget mines in proportion.
pub fn budgets(review_nodes: u64) -> (u64, u64) {
    ((review_nodes / 25).max(1), review_nodes.saturating_mul(4))
}

/// Moves searched deeper besides the review's best.
const RIVALS: usize = 3;

/// What a puzzle's solution does, in its JSON name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// A General hunted down: the solution takes it.
    GeneralHunt,
    /// The mover's General is attacked and only the solution saves it.
    GeneralSaved,
    /// The cannon's screen: the solution is a cannon's capture over a screen.
    CannonScreen,
    /// The knight's leg: the solution is a knight's capture (its leg free).
    KnightLeg,
    /// A capture that decides: any other piece's.
    DecisiveCapture,
    /// A quiet move: nothing taken, yet only it keeps the game.
    QuietMove,
}

impl Theme {
    /// All, in order.
    pub const ALL: [Theme; 6] = [
        Theme::GeneralHunt,
        Theme::GeneralSaved,
        Theme::CannonScreen,
        Theme::KnightLeg,
        Theme::DecisiveCapture,
        Theme::QuietMove,
    ];

    /// Its name in JSON (`general-hunt`, …).
    pub fn name(self) -> &'static str {
        match self {
            Theme::GeneralHunt => "general-hunt",
            Theme::GeneralSaved => "general-saved",
            Theme::CannonScreen => "cannon-screen",
            Theme::KnightLeg => "knight-leg",
            Theme::DecisiveCapture => "decisive-capture",
            Theme::QuietMove => "quiet-move",
        }
    }

    /// What `mv` does in `pos`, as a theme.
    pub fn of(pos: &Position, mv: Move) -> Theme {
        let mover = pos.to_move();
        let (Some(from), Some(to)) = (mv.from(), mv.to()) else {
            return Theme::QuietMove;
        };
        let general_attacked = |p: &Position| {
            p.army(mover)
                .any(|(at, q)| q.kind == PieceKind::General && p.is_attacked(at, p.enemies(mover)))
        };
        let moved = pos.piece_at(from).map(|p| p.kind);
        match pos.piece_at(to) {
            Some(victim) if victim.kind == PieceKind::General => Theme::GeneralHunt,
            _ if general_attacked(pos) && {
                let mut after = pos.clone();
                after.play(mv).is_ok() && !general_attacked(&after)
            } =>
            {
                Theme::GeneralSaved
            }
            Some(_) if moved == Some(PieceKind::Cannon) => Theme::CannonScreen,
            Some(_) if moved == Some(PieceKind::Knight) => Theme::KnightLeg,
            Some(_) => Theme::DecisiveCapture,
            None => Theme::QuietMove,
        }
    }
}

/// A puzzle: a position, its one move, what it is about and how hard it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The position, the mover to move (7K FEN).
    pub fen: String,
    /// The rules it is played under (a preset's name).
    pub rules: String,
    /// The one move, as `qiguo moves` writes it.
    #[serde(with = "crate::review::move_text")]
    pub solution: Move,
    /// What the solution does.
    pub theme: Theme,
    /// How hard it is thought to be, on a rating's scale (1500 a new person).
    pub rating: i64,
    /// The kingdom to move.
    pub mover: Kingdom,
    /// The move of the game it comes from (the position is before it).
    pub ply: usize,
    /// The mover's chance after the solution, by the deeper search.
    pub chance: f64,
    /// The mover's chance after the best other move, by the deeper search.
    pub second: f64,
}

impl Puzzle {
    /// Its name in a link (`?puzzle=…`) and in a solver's list of puzzles tried: twelve
    /// lowercase hexadecimal digits of a hash (FNV-1a) of its position and its move, the same
    /// wherever it is mined.
    pub fn id(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in format!("{} {}", self.fen, self.solution).bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{:012x}", hash >> 16)
    }

    /// The kind of the stone the solution moves (`None` where the position cannot be read).
    pub fn piece(&self) -> Option<PieceKind> {
        let rules = Rules::preset(self.rules.parse::<Preset>().ok()?);
        let pos = Position::from_fen(&self.fen, rules).ok()?;
        Some(pos.piece_at(self.solution.from()?)?.kind)
    }

    /// Whether it is about `topic`: its theme, or the kind of the stone its solution moves.
    pub fn is_about(&self, topic: Topic) -> bool {
        match topic {
            Topic::Theme(theme) => self.theme == theme,
            Topic::Piece(kind) => self.piece() == Some(kind),
        }
    }
}

/// The day's puzzle's place among `count` puzzles on day `day` (days since 1970-01-01, UTC):
/// a hash of the day (splitmix64's finaliser), so that consecutive days do not walk through one
/// game's puzzles, which lie together. The game's own set and a server's choose by it.
pub fn daily_index(day: u64, count: usize) -> usize {
    let mut z = day.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    usize::try_from(z % count.max(1) as u64).unwrap_or(0)
}

/// A piece's name as a topic (and as its lesson is named): `general`, `go-between`, `dagger`, ….
pub fn piece_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "general",
        PieceKind::Chancellor => "chancellor",
        PieceKind::Diplomat => "diplomat",
        PieceKind::Cannon => "cannon",
        PieceKind::GoBetween => "go-between",
        PieceKind::Archer => "archer",
        PieceKind::Crossbowman => "crossbowman",
        PieceKind::Dagger => "dagger",
        PieceKind::Swordsman => "swordsman",
        PieceKind::Knight => "knight",
    }
}

/// What a set of puzzles can be chosen by (a lesson offers the puzzles of its topics).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// What the solution does.
    Theme(Theme),
    /// The kind of stone the solution moves.
    Piece(PieceKind),
}

/// A word that names neither a puzzle's theme nor a piece (the word).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTopic(pub String);

impl std::fmt::Display for UnknownTopic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is neither a puzzle's theme nor a piece", self.0)
    }
}

impl std::error::Error for UnknownTopic {}

impl std::str::FromStr for Topic {
    type Err = UnknownTopic;

    /// A theme's name (`cannon-screen`) or a piece's (`cannon`).
    fn from_str(text: &str) -> Result<Topic, UnknownTopic> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == text)
            .map(Topic::Theme)
            .or_else(|| {
                PieceKind::ALL
                    .into_iter()
                    .find(|&k| piece_name(k) == text)
                    .map(Topic::Piece)
            })
            .ok_or_else(|| UnknownTopic(text.to_owned()))
    }
}

/// How a game's mining went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mined {
    /// Positions where something was at stake, checked.
    pub candidates: usize,
    /// Of them, puzzles: one move, far ahead of the next.
    pub puzzles: usize,
}

/// The candidates of a reviewed game: the plies (1-based) where the mover missed a mistake's
/// worth, or took a General with the review's best.
pub fn candidates(game: &Game, review: &GameReview) -> Vec<usize> {
    review
        .moves
        .iter()
        .filter(|m| {
            let missed = m.best != m.played && m.loss() >= MISTAKE;
            let took_general = m.best == m.played && {
                let pos = game.position_at(m.ply - 1);
                m.played
                    .to()
                    .and_then(|to| pos.piece_at(to))
                    .is_some_and(|p| p.kind == PieceKind::General)
            };
            missed || took_general
        })
        .map(|m| m.ply)
        .collect()
}

/// The puzzle in the position before move `ply` of `game` (reviewed as `review`), if it is
/// one; `scan` and `deep` the positions searched for the brief look and the check.
pub fn check(game: &Game, review: &GameReview, ply: usize, scan: u64, deep: u64) -> Option<Puzzle> {
    let reviewed = review.moves.get(ply.checked_sub(1)?)?;
    let pos = game.position_at(ply - 1);
    let mover = pos.to_move();
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from().is_some())
        .collect();
    if moves.len() < 2 || !moves.contains(&reviewed.best) {
        return None;
    }
    // The brief look: each move's chance, best first.
    let mut looked: Vec<(Move, f64)> = moves
        .iter()
        .filter_map(|&m| Some((m, chance_after(&pos, m, scan)?)))
        .collect();
    looked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let rank = looked.iter().position(|&(m, _)| m == reviewed.best)?;
    // The check: the review's best and its nearest rivals, deeper.
    let mut deeper: Vec<(Move, f64)> = std::iter::once(reviewed.best)
        .chain(
            looked
                .iter()
                .map(|&(m, _)| m)
                .filter(|&m| m != reviewed.best)
                .take(RIVALS),
        )
        .filter_map(|m| Some((m, chance_after(&pos, m, deep)?)))
        .collect();
    deeper.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (solution, chance) = *deeper.first()?;
    let second = deeper.get(1).map_or(0.0, |&(_, c)| c);
    let before = reviewed.chances[mover.index()] * held(&pos, mover);
    let theme = Theme::of(&pos, solution);
    let decisive = theme != Theme::QuietMove || chance - before >= UNIQUE_BY;
    if solution != reviewed.best || chance - second < UNIQUE_BY || !decisive {
        return None;
    }
    Some(Puzzle {
        fen: pos.to_fen(),
        rules: pos.rules().preset_name().to_owned(),
        solution,
        theme,
        rating: first_rating(theme, moves.len(), rank),
        mover,
        ply,
        chance,
        second,
    })
}

/// The kingdoms a player holds in `pos`: a review's chances share a player's among them, a
/// puzzle reads the player's.
fn held(pos: &Position, kingdom: Kingdom) -> f64 {
    let player = pos.player_of(kingdom);
    let count = pos
        .alive()
        .iter()
        .filter(|&k| pos.player_of(k) == player)
        .count();
    count.max(1) as f64
}

/// A puzzle's rating before anyone has tried it: 1500, less for taking a General, more for a
/// quiet move, for many moves to choose from (a hundred for each doubling past twenty) and for a
/// solution the brief look did not put first (sixty a place, five places at most).
pub fn first_rating(theme: Theme, moves: usize, rank: usize) -> i64 {
    let theme_part = match theme {
        Theme::GeneralHunt => -250.0,
        Theme::GeneralSaved => -100.0,
        Theme::DecisiveCapture | Theme::CannonScreen | Theme::KnightLeg => 0.0,
        Theme::QuietMove => 150.0,
    };
    let choice = 100.0 * (moves.max(1) as f64 / 20.0).log2().max(0.0);
    let hidden = 60.0 * rank.min(5) as f64;
    (1500.0 + theme_part + choice + hidden)
        .round()
        .clamp(800.0, 2600.0) as i64
}

/// Mines `game`, reviewed as `review`: its puzzles, and how many candidates were checked.
pub fn mine(game: &Game, review: &GameReview, scan: u64, deep: u64) -> (Vec<Puzzle>, Mined) {
    let plies = candidates(game, review);
    let puzzles: Vec<Puzzle> = plies
        .iter()
        .filter_map(|&ply| check(game, review, ply, scan, deep))
        .collect();
    let mined = Mined {
        candidates: plies.len(),
        puzzles: puzzles.len(),
    };
    (puzzles, mined)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::review;
    use qiguo_rules::notation::parse_move;

    /// Chu (to move) has given its General away: Qin's Chancellor on a5 faces it on a1.
    fn open_file() -> Game {
        let text = format!("18wQ/{}wR18/19/19/19/rQ18 w", "19/".repeat(13));
        Game::new(Position::from_fen(&text, Rules::preset(Preset::Classic)).unwrap())
    }

    #[test]
    fn the_one_move_that_takes_a_general_is_a_puzzle_and_reads_back() {
        let mut game = open_file();
        let take = parse_move("a5a1").unwrap();
        assert!(game.position().is_legal(take));
        game.play(take).unwrap();
        let reviewed = review(&game, 5_000);
        assert_eq!(candidates(&game, &reviewed), [1]);
        let (puzzles, mined) = mine(&game, &reviewed, 500, 5_000);
        assert_eq!(
            mined,
            Mined {
                candidates: 1,
                puzzles: 1
            }
        );
        let puzzle = &puzzles[0];
        assert_eq!(puzzle.solution, take);
        assert_eq!(puzzle.theme, Theme::GeneralHunt);
        assert_eq!(puzzle.mover, Kingdom::Qin);
        assert!(puzzle.chance - puzzle.second >= UNIQUE_BY, "{puzzle:?}");
        assert!(
            puzzle.rating < 1500,
            "taking a General is easier: {}",
            puzzle.rating
        );
        let pos = Position::from_fen(&puzzle.fen, Rules::preset(Preset::Classic)).unwrap();
        assert_eq!(pos.to_fen(), game.position_at(0).to_fen());
        let text = serde_json::to_string(&puzzles).unwrap();
        assert!(text.contains("\"solution\":\"a5a1\""), "{text}");
        assert!(text.contains("\"theme\":\"general-hunt\""), "{text}");
        assert_eq!(serde_json::from_str::<Vec<Puzzle>>(&text).unwrap(), puzzles);
        // Its name, its stone and its topics.
        let id = puzzle.id();
        assert_eq!(id.len(), 12);
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        let mut other = puzzle.clone();
        other.solution = parse_move("a5b5").unwrap();
        assert_ne!(other.id(), id);
        assert_eq!(puzzle.piece(), Some(PieceKind::Chancellor));
        assert!(puzzle.is_about("chancellor".parse().unwrap()));
        assert!(puzzle.is_about("general-hunt".parse().unwrap()));
        assert!(!puzzle.is_about("cannon".parse().unwrap()));
        assert_eq!(
            "castle".parse::<Topic>(),
            Err(UnknownTopic("castle".to_owned()))
        );
        assert_eq!(
            UnknownTopic("castle".to_owned()).to_string(),
            "`castle` is neither a puzzle's theme nor a piece"
        );
    }

    #[test]
    fn an_opening_has_no_puzzle_and_a_position_with_rivals_fails_the_check() {
        let mut game = Game::start(Rules::default(), qiguo_rules::Seats::default());
        for i in 0..8 {
            let moves = game.position().legal_moves();
            game.play(moves[(i * 5) % moves.len()]).unwrap();
        }
        let reviewed = review(&game, 2_000);
        let (puzzles, mined) = mine(&game, &reviewed, 300, 2_000);
        assert_eq!(mined.puzzles, puzzles.len());
        assert!(puzzles.is_empty(), "{puzzles:?}");
        // Every ply, candidate or not: the opening's moves are never one of a kind.
        for ply in 1..=game.len() {
            assert_eq!(check(&game, &reviewed, ply, 300, 2_000), None, "ply {ply}");
        }
    }

    #[test]
    fn the_days_place_is_spread_over_the_set() {
        let days: std::collections::BTreeSet<usize> =
            (20_000..20_030).map(|d| daily_index(d, 100)).collect();
        assert!(days.len() >= 20, "{days:?}");
        assert!(days.iter().all(|&i| i < 100));
        assert_eq!(daily_index(5, 0), 0);
    }

    #[test]
    fn the_budgets_follow_the_reviews() {
        assert_eq!(budgets(REVIEW_NODES), (SCAN_NODES, PUZZLE_NODES));
        assert_eq!(budgets(500), (20, 2_000));
    }

    #[test]
    fn themes_and_first_ratings_follow_what_the_move_does() {
        let game = open_file();
        let pos = game.position();
        assert_eq!(
            Theme::of(pos, parse_move("a5a1").unwrap()),
            Theme::GeneralHunt
        );
        assert_eq!(
            Theme::of(pos, parse_move("a5b5").unwrap()),
            Theme::QuietMove
        );
        assert!(first_rating(Theme::QuietMove, 80, 3) > first_rating(Theme::QuietMove, 20, 0));
        assert_eq!(first_rating(Theme::DecisiveCapture, 20, 0), 1500);
        assert_eq!(first_rating(Theme::DecisiveCapture, 40, 0), 1600);
        for theme in Theme::ALL {
            let name = serde_json::to_string(&theme).unwrap();
            assert_eq!(name, format!("\"{}\"", theme.name()));
        }
    }
}
