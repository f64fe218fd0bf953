//! The command line: `qiguo` opens the game; `moves`, `perft`, `replay`, `bestmove` and
//! `selfplay` are scripting tools that print plain text and never open a window. [`args`]
//! reads and checks the arguments, [`tools`] runs the tools.

pub mod args;
pub mod tools;

pub use args::{ArgError, Cli, GameArgs, PositionArgs, SeatingArg, Tool, error_line, parse};
pub use tools::{ToolError, run};
