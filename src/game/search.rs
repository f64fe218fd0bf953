//! The searches of the computer players and of hints, off the thread that draws. A
//! [`Searcher`] keeps one engine, so its transposition table carries over from move to move;
//! [`Searcher::start`] gives a [`Search`] to look at once a frame: `is_finished`, then `wait`
//! for its result; dropping it (or `stop`) abandons it. On the desktop the search runs on a
//! thread of its own ([`qiguo_ai::BackgroundSearch`]); in a page, in a Web Worker built from the
//! AI crate alone (`crate::browser::worker`), which answers when its search is done (a search the
//! game no longer wants is left to finish there, and its answer dropped). Either way the game
//! is woken when a result is ready: it draws no frames while it waits.

#[cfg(target_arch = "wasm32")]
pub(crate) use crate::browser::worker::{Search, Searcher};
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use native::{Search, Searcher};

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::sync::{Arc, Mutex};

    use qiguo_ai::{BackgroundSearch, Engine, Level, Limits, TableSize};
    use qiguo_rules::Game;

    /// A search on a thread of its own.
    pub(crate) type Search = BackgroundSearch;

    /// One engine, shared by the searches it runs one after another.
    #[derive(Clone)]
    pub(crate) struct Searcher(Arc<Mutex<Engine>>);

    impl Searcher {
        /// A searcher with a transposition table of `table`.
        pub(crate) fn new(table: TableSize) -> Searcher {
            Searcher(Arc::new(Mutex::new(Engine::new(table))))
        }

        /// Starts searching the position `game` has reached; `done` wakes the game when
        /// the result is ready.
        pub(crate) fn start(
            &self,
            game: &Game,
            level: Level,
            limits: Limits,
            seed: u64,
            done: qiguo_client::Wake,
        ) -> Search {
            BackgroundSearch::start_then(
                self.0.clone(),
                game.position().clone(),
                level,
                limits,
                seed,
                move || done(),
            )
        }
    }
}
