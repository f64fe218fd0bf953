//! The command line: `qiguo` opens the game; `moves`, `perft`, `replay` and `bestmove` are
//! scripting tools that print plain text and never open a window (series of games between
//! computer players are the lab's: `qiguo-selfplay`, in `crates/qiguo-lab`). [`args`]
//! reads and checks the arguments, [`tools`] runs the tools.

pub mod args;
pub mod online;
pub mod tools;

pub use args::{ArgError, Cli, GameArgs, PositionArgs, SeatingArg, Tool, error_line, parse};
pub use tools::{ToolError, run};
