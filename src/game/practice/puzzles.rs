//! Puzzles on the board, through the practice's machinery: a puzzle is a question whose one
//! move is its solution (any other is missed at once, nothing to judge), asked from the Learn
//! window (the day's puzzle, puzzles for you), a lesson's card (its topics' puzzles), a
//! puzzle's link (a page's `?puzzle=NAME`) or the command line (`--puzzle NAME|daily`). The
//! first try at each puzzle — the first move, or a hint or the solution asked before one —
//! moves the solver's puzzle rating (kept in the settings: [`PuzzleSolver`]); the next puzzle
//! is the untried one of the set rated nearest the solver. A puzzle from a server's games
//! (`game::online::puzzles` asks for it) is rated there: its first try goes to the server
//! ([`PuzzleTriedOnServer`]), and what the server says comes back ([`PuzzleRatedOnServer`]).

use bevy::prelude::*;
use qiguo_rating::Rating;

use crate::game::preferences::{KeepSetting, KeptSetting, Preferences};
use crate::game::state::NewGameRequested;
use crate::puzzles::{self, Asked, Puzzle, Solver, Topic};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PuzzleSolver>()
        .keep_setting::<PuzzleSolver>()
        .init_resource::<PuzzleLinks>()
        .add_message::<PuzzlesRequested>()
        .add_message::<PuzzleTriedOnServer>()
        .add_message::<PuzzleRatedOnServer>()
        .add_message::<ServerPuzzleWanted>();
}

/// Puzzles asked for: the practice starts them (the Learn window, a lesson's card, a link, the
/// command line).
#[derive(Message, Clone, Debug, Default)]
pub struct PuzzlesRequested {
    /// The first puzzle: the day's or one by name; else the solver's next of `topics`.
    pub first: Option<Asked>,
    /// What the puzzles after it are about (any, where empty).
    pub topics: Vec<Topic>,
    /// The game to bring back on leaving, where the board shows something else (a lesson's
    /// step): else the board's game is.
    pub aside: Option<NewGameRequested>,
    /// A puzzle a server sent, rated there (instead of `first` and `topics`).
    pub given: Option<ServerPuzzle>,
}

/// A puzzle from a server's games.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerPuzzle {
    /// The puzzle, its rating the server's now.
    pub puzzle: Puzzle,
    /// It is the server's puzzle of the day.
    pub daily: bool,
    /// The player's puzzle rating on that server, as shown.
    pub solver: i64,
    /// The player tried it before (a try changes no rating).
    pub tried: bool,
}

/// The first try at a server's puzzle, for the server to rate (`game::online::puzzles` sends
/// it).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PuzzleTriedOnServer {
    /// The puzzle's name.
    pub id: String,
    /// Its first move was the solution.
    pub solved: bool,
}

/// What the server made of a first try: the player's puzzle rating there before and after.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRatedOnServer {
    /// The puzzle's name.
    pub id: String,
    /// Before, as shown.
    pub before: i64,
    /// After (the same for a puzzle tried before).
    pub after: i64,
}

/// Another of the server's puzzles is wanted (*Next puzzle* on one of its puzzles).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerPuzzleWanted;

/// The solver's puzzle rating and the puzzles tried (kept in the settings).
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct PuzzleSolver(pub Solver);

impl PuzzleSolver {
    /// The rating, as shown.
    pub fn shown(&self) -> i64 {
        self.0.rating().shown()
    }
}

impl KeptSetting for PuzzleSolver {
    fn apply(&mut self, prefs: &Preferences) {
        self.0 = prefs.settings.puzzles.clone();
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.puzzles = self.0.clone();
    }
}

/// Where a puzzle's link points: the page's own address in a page (set by the page's shell);
/// in the window, nowhere (a puzzle is shared by its name, which `--puzzle`, a page's
/// `?puzzle=` and `qiguo puzzles play --name` take).
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct PuzzleLinks {
    /// The page's address, without query or fragment.
    pub page: Option<String>,
}

impl PuzzleLinks {
    /// What is copied to share `puzzle`: its link, or its name.
    pub fn share(&self, puzzle: &Puzzle) -> String {
        match &self.page {
            Some(page) => puzzles::link(page, puzzle),
            None => puzzle.id(),
        }
    }
}

/// A puzzle asked for at launch (`--puzzle`, a page's `?puzzle=`): asked once the game is up;
/// a screenshot waits for it.
#[derive(Resource, Debug, Clone)]
pub struct PuzzleAtLaunch(pub Asked);

/// Asks for the puzzle wanted at launch, once.
pub(super) fn ask_at_launch(
    mut commands: Commands,
    wanted: Option<Res<PuzzleAtLaunch>>,
    mut out: MessageWriter<PuzzlesRequested>,
) {
    if let Some(wanted) = wanted {
        out.write(PuzzlesRequested {
            first: Some(wanted.0.clone()),
            ..default()
        });
        commands.remove_resource::<PuzzleAtLaunch>();
    }
}

/// The first puzzle of a request, on day `day`, for `solver`: the one asked for, else the
/// solver's next among `pool`; `Err` is what was asked for where it is not there.
pub(super) fn first_of<'a, 'b>(
    asked: Option<&'b Asked>,
    pool: &[&'a Puzzle],
    solver: &Solver,
    day: u64,
) -> Result<Option<&'a Puzzle>, &'b Asked> {
    match asked {
        Some(asked) => asked.find(puzzles::built_in(), day).map(Some).ok_or(asked),
        None => Ok(solver.next(pool)),
    }
}

/// The built-in puzzles about `topics` (all of them where none is named).
pub(super) fn pool(topics: &[Topic]) -> Vec<&'static Puzzle> {
    if topics.is_empty() {
        puzzles::built_in().iter().collect()
    } else {
        puzzles::about(puzzles::built_in(), topics)
    }
}

/// How many built-in puzzles are about `topics` (a lesson's card offers them when there are).
pub fn count_about(topics: &[Topic]) -> usize {
    if topics.is_empty() {
        0
    } else {
        pool(topics).len()
    }
}

/// The shown ratings before and after a first try.
pub(super) fn shown(ratings: (Rating, Rating)) -> (i64, i64) {
    (ratings.0.shown(), ratings.1.shown())
}
