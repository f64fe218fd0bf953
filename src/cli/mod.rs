//! The command line: `qiguo` opens the game; `moves`, `perft`, `replay` and `bestmove` are
//! scripting tools that print plain text and never open a window (series of games between
//! computer players are the lab's: `qiguo-selfplay`, in `crates/qiguo-lab`). [`args`]
//! reads and checks the arguments (refusing through [`ArgError`]), [`tools`] runs the tools.

pub mod args;
mod error;
pub mod online;
pub mod puzzles;
pub mod tools;

pub use args::{Cli, GameArgs, PositionArgs, PuzzlesCommand, SeatingArg, Tool, error_line, parse};
pub use error::ArgError;
pub use tools::{ToolError, run};
