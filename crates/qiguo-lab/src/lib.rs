//! The computer players' lab for **Qiguo Xiangqi** (七國象棋): complete games between
//! computer players of chosen levels, played in parallel and judged by a sequential test, for
//! measuring whether a change to the search or the evaluation makes a level stronger.
//!
//! Pure Rust on the rules engine and the computer players, no game engine: the binary
//! `qiguo-selfplay` runs a series from the command line
//! (`cargo run --release -p qiguo-lab -- --games 140 --levels hard,medium --nodes --sprt`).

#![deny(missing_docs)]

pub mod cli;
pub mod eval_fit;
pub mod fit;
pub mod net_train;
pub mod positions;
pub mod selfplay;
pub mod spsa;
pub mod weights;
