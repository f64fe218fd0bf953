//! A search on a thread of its own, so that whatever asked for it — a game window drawing its
//! frames, a server serving its connections — goes on meanwhile: start it, look once in a
//! while whether it has finished, wait for it, or stop it. The game and the server run their
//! computer players' searches this way.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use qiguo_ai::{BackgroundSearch, Engine, Level, Limits, TableSize};
//! use qiguo_rules::{Position, Rules};
//!
//! let engine = Arc::new(Mutex::new(Engine::new(TableSize::entries_log2(16))));
//! let pos = Position::start(Rules::default());
//! let limits = Limits { nodes: Some(2_000), ..Limits::default() };
//! let search = BackgroundSearch::start(engine, pos.clone(), Level::Hard, limits, 1);
//! let result = search.wait().unwrap();
//! assert!(pos.is_legal(result.best));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use qiguo_rules::Position;

use crate::{Engine, Level, Limits, SearchResult};

/// A search running on its own thread. Dropping it stops the search (its thread ends shortly
/// after, on its own).
#[derive(Debug)]
pub struct BackgroundSearch {
    stop: Arc<AtomicBool>,
    /// Set once the result is ready, before `then` is called (the thread itself ends a moment
    /// later).
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<Option<SearchResult>>>,
}

impl BackgroundSearch {
    /// Starts searching `pos` at `level` within `limits` with `engine` (shared, so that its
    /// transposition table carries over from move to move; a search still stopping holds it
    /// until it notices, shortly). The search can also be stopped through `limits.stop`.
    pub fn start(
        engine: Arc<Mutex<Engine>>,
        pos: Position,
        level: Level,
        limits: Limits,
        seed: u64,
    ) -> BackgroundSearch {
        BackgroundSearch::start_then(engine, pos, level, limits, seed, || {})
    }

    /// As [`start`](BackgroundSearch::start), and calls `then` on the search's thread once its
    /// result is ready (to wake whatever waits for it, rather than have it look again and again).
    pub fn start_then(
        engine: Arc<Mutex<Engine>>,
        pos: Position,
        level: Level,
        mut limits: Limits,
        seed: u64,
        then: impl FnOnce() + Send + 'static,
    ) -> BackgroundSearch {
        let stop = limits
            .stop
            .get_or_insert_with(|| Arc::new(AtomicBool::new(false)))
            .clone();
        let done = Arc::new(AtomicBool::new(false));
        let finished = done.clone();
        let thread = std::thread::Builder::new()
            .name("qiguo-search".to_owned())
            .spawn(move || {
                let result = {
                    let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
                    engine.search(&pos, level, &limits, seed)
                };
                finished.store(true, Ordering::Release);
                then();
                result
            })
            .ok();
        BackgroundSearch { stop, done, thread }
    }

    /// Whether the search has finished (its result is ready to be taken).
    pub fn is_finished(&self) -> bool {
        self.thread
            .as_ref()
            .is_none_or(|t| t.is_finished() || self.done.load(Ordering::Acquire))
    }

    /// The result once the search has finished, without waiting: `None` while it runs, then
    /// `Some` once (a finished game, a thread that could not start or a failed search give
    /// `Some(None)`); `None` again after that.
    pub fn poll(&mut self) -> Option<Option<SearchResult>> {
        if !self.is_finished() {
            return None;
        }
        Some(self.thread.take()?.join().ok().flatten())
    }

    /// Waits for the search to finish and gives its result.
    pub fn wait(mut self) -> Option<SearchResult> {
        self.thread.take()?.join().ok().flatten()
    }

    /// Asks the search to stop at once; it still ends with the best move found so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Drop for BackgroundSearch {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use qiguo_rules::Rules;

    use super::*;

    fn engine() -> Arc<Mutex<Engine>> {
        Arc::new(Mutex::new(Engine::new(crate::TableSize::entries_log2(12))))
    }

    #[test]
    fn a_polled_search_gives_its_move_once() {
        let pos = Position::start(Rules::default());
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let mut search = BackgroundSearch::start(engine(), pos.clone(), Level::Hard, limits, 7);
        let result = loop {
            if let Some(result) = search.poll() {
                break result;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        assert!(pos.is_legal(result.expect("a move").best));
        assert!(search.poll().is_none(), "the result is given once");
    }

    #[test]
    fn the_same_search_in_the_background_finds_the_same_move() {
        let pos = Position::start(Rules::default());
        let limits = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let here = Engine::new(crate::TableSize::entries_log2(12))
            .search(&pos, Level::Medium, &limits, 3)
            .unwrap();
        let there = BackgroundSearch::start(engine(), pos, Level::Medium, limits, 3)
            .wait()
            .unwrap();
        assert_eq!(here.best, there.best);
        assert_eq!(here.nodes, there.nodes);
    }

    #[test]
    fn a_stopped_search_ends_at_once_with_a_move() {
        let pos = Position::start(Rules::default());
        // Unstopped, the search would think for a minute.
        let limits = Limits {
            movetime: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let search = BackgroundSearch::start(engine(), pos.clone(), Level::Hard, limits, 1);
        let asked = Instant::now();
        search.stop();
        let result = search.wait().expect("a move");
        assert!(pos.is_legal(result.best));
        // Generous, for a loaded machine: the search checks its flag every few thousand
        // positions.
        assert!(asked.elapsed() < Duration::from_secs(30));
    }
}
