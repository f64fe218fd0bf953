//! The project's own measuring tools, switched on from the command line and never in a
//! player's game: `--bench-frames N` ([`perf`]) and `--screenshot FILE` ([`screenshot`]), in a
//! window or drawn into an image without one (`--offscreen WxH`, [`offscreen`]); a window left
//! playing game after game of computers (`--again`, [`again`]).

pub(crate) mod again;
pub(crate) mod counts;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod offscreen;
pub(crate) mod perf;
pub(crate) mod screenshot;
