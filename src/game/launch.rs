//! What the game window starts with: the first game, its players, the view, and the
//! benchmark and screenshot switches. The command line builds a [`Launch`]; the game runs it.

use std::path::PathBuf;

use qiguo_rules::{Game, Kingdom, PlayerInfo};

/// A camera view: from behind a kingdom's edge, or from above.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum View {
    /// From behind the kingdom's home edge.
    Kingdom(Kingdom),
    /// Straight down on the board.
    Top,
}

/// A view's name that is neither a kingdom nor `top`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a view: expected qin, chu, han, qi, wei, zhao, yan or top")]
pub struct ParseViewError(String);

impl std::str::FromStr for View {
    type Err = ParseViewError;

    fn from_str(s: &str) -> Result<View, ParseViewError> {
        if s == "top" {
            return Ok(View::Top);
        }
        s.parse::<Kingdom>()
            .map(View::Kingdom)
            .map_err(|_| ParseViewError(s.to_owned()))
    }
}

/// Everything the game window needs to start, checked.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The first game: its start position (rules inside) and any moves already played.
    pub game: Game,
    /// The players, by player number.
    pub players: Vec<PlayerInfo>,
    /// The view to start with; by default, from behind the kingdom to move.
    pub view: Option<View>,
    /// Where to save a screenshot before exiting.
    pub screenshot: Option<PathBuf>,
    /// How many frames to run for frame-time statistics.
    pub bench_frames: Option<u32>,
    /// Whether to run without a graphics device (benchmarks only).
    pub no_render: bool,
    /// Whether the game was opened plainly (no position, rules or seating asked for), so that
    /// it may offer to resume the last unfinished game.
    pub plain: bool,
}
