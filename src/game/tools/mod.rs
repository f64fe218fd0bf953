//! The project's own measuring tools, switched on from the command line and never in a
//! player's game: `--bench-frames N` ([`perf`]) and `--screenshot FILE` ([`screenshot`]).

pub(crate) mod perf;
pub(crate) mod screenshot;
