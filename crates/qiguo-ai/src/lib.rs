//! Computer players for **Qiguo Xiangqi** (七國象棋): a search built for seven kingdoms.
//!
//! Pure Rust on top of `qiguo-rules`, with no game-engine dependency. The search is Best-Reply
//! Search in its improved form, BRS+ (see [`search`]), with iterative deepening under a time or
//! node budget, alpha-beta, a transposition table, move ordering and a quiescence search over
//! captures. The evaluation ([`eval`]) scores each player's kingdoms and progress and compares
//! it with the sum of the other players'; it follows every rule option and alliances (attacking an
//! ally costs the ally's whole army, so it is chosen only when worth it).
//!
//! ```
//! use qiguo_ai::{Engine, Level, Limits, TableSize};
//! use qiguo_rules::{Position, Rules};
//!
//! let pos = Position::start(Rules::default());
//! let mut engine = Engine::new(TableSize::entries_log2(16));
//! let limits = Limits { nodes: Some(2_000), ..Limits::default() };
//! let result = engine.search(&pos, Level::Hard, &limits, 1).unwrap();
//! assert!(pos.is_legal(result.best));
//! ```

#![deny(missing_docs)]

// Threads: not in a page, where a Web Worker runs the search instead.
#[cfg(not(target_arch = "wasm32"))]
mod background;
pub mod chances;
pub mod eval;
pub mod job;
mod level;
pub mod net;
pub mod params;
pub mod puzzles;
pub mod review;
pub mod search;
mod tt;

#[cfg(not(target_arch = "wasm32"))]
pub use background::BackgroundSearch;
pub use level::LevelSearch;
pub use params::SearchParams;
pub use qiguo_rules::{Level, ParseLevelError};
pub use search::{Engine, Limits, SearchResult, WIN, available_threads};
pub use tt::TableSize;
