//! The page's searcher: a Web Worker built from the AI crate alone (`crates/qiguo-worker`,
//! started from `worker.js` beside the page), one per [`Searcher`], created on its first
//! search. A search is posted to it as a [`SearchJob`]; its [`SearchDone`] comes back as a
//! message, which the worker's handler files under the job's id for the [`Search`] that waits
//! for it. The worker searches one job after another on its own thread (the page keeps
//! drawing); a search the game has dropped is left to finish there and its answer is thrown
//! away.

use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use bevy::log::{error, warn};
use qiguo_ai::job::{JobError, JudgeDone, JudgeJob, ReviewDone, ReviewJob, SearchDone, SearchJob};
use qiguo_ai::review::GameReview;
use qiguo_ai::{Level, Limits, SearchResult};
use qiguo_rules::{Game, PlayerInfo, Record};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker's script, beside the page (the page's `<base>` is the bundle's root).
const WORKER_SCRIPT: &str = "worker.js";

thread_local! {
    /// The workers, by searcher (created on first use).
    static WORKERS: RefCell<HashMap<u32, Worker>> = RefCell::new(HashMap::new());
    /// Answers arrived and not yet taken, by job id.
    static DONE: RefCell<HashMap<u64, SearchDone>> = RefCell::new(HashMap::new());
    /// Jobs whose searches were dropped: their answers are thrown away on arrival.
    static ABANDONED: RefCell<HashSet<u64>> = RefCell::new(HashSet::new());
    /// Wakes the game when an answer is filed (it draws no frames while it waits).
    static WAKE: RefCell<Option<qiguo_client::Wake>> = const { RefCell::new(None) };
    /// Answers to tasks ([`Posted`]) arrived and not yet taken, by job id: the answer's JSON.
    static ANSWERED: RefCell<HashMap<u64, String>> = RefCell::new(HashMap::new());
}

/// What a worker's answer to a review begins with (and its job, posted to it).
const REVIEW_PREFIX: &str = "review:";
/// What a worker's answer to a judged move begins with (and its job).
const JUDGE_PREFIX: &str = "judge:";

static NEXT_SEARCHER: AtomicU32 = AtomicU32::new(1);
static NEXT_JOB: AtomicU64 = AtomicU64::new(1);

/// One worker, with its engine, for the searches it runs one after another.
#[derive(Clone, Debug)]
pub(crate) struct Searcher {
    id: u32,
}

impl Searcher {
    /// A searcher (its worker starts with its first search). The worker's engine has the
    /// desktop's table size; `_table` is kept for the desktop's signature.
    pub(crate) fn new(_table: qiguo_ai::TableSize) -> Searcher {
        Searcher {
            id: NEXT_SEARCHER.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Posts the position `game` has reached to the worker; `done` wakes the game when its
    /// answer arrives.
    pub(crate) fn start(
        &self,
        game: &Game,
        level: Level,
        limits: Limits,
        seed: u64,
        done: qiguo_client::Wake,
    ) -> Search {
        WAKE.set(Some(done.clone()));
        let id = NEXT_JOB.fetch_add(1, Ordering::Relaxed);
        let players = PlayerInfo::defaults(game.start_position().seats().player_count());
        let job = SearchJob {
            id,
            record: Record::from_game(game, players),
            level,
            movetime_ms: limits
                .movetime
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            nodes: limits.nodes,
            seed,
        };
        let posted = WORKERS.with_borrow_mut(|workers| {
            let worker = match workers.entry(self.id) {
                Entry::Occupied(kept) => kept.into_mut(),
                Entry::Vacant(slot) => slot.insert(spawn()?),
            };
            worker.post_message(&job.to_json().into())
        });
        if let Err(why) = posted {
            let why = format!("{why:?}");
            error!("the computer's search could not start: {why}");
            DONE.with_borrow_mut(|done| done.insert(id, SearchDone::failed(id, why)));
            done();
        }
        Search { id, settled: false }
    }
}

/// Starts a worker whose answers are filed in `DONE` (or the browser's reason why not).
fn spawn() -> Result<Worker, wasm_bindgen::JsValue> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(WORKER_SCRIPT, &options)?;
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|event: MessageEvent| {
        let Some(text) = event.data().as_string() else {
            warn!("the search worker sent something that is not text");
            return;
        };
        if let Some(answer) = [REVIEW_PREFIX, JUDGE_PREFIX]
            .iter()
            .find_map(|prefix| text.strip_prefix(prefix))
        {
            /// Every task's answer carries its job's id.
            #[derive(serde::Deserialize)]
            struct Id {
                id: u64,
            }
            match serde_json::from_str::<Id>(answer) {
                Ok(Id { id }) => {
                    ANSWERED.with_borrow_mut(|all| all.insert(id, answer.to_owned()));
                    WAKE.with_borrow(|wake| wake.as_ref().map(|wake| wake()));
                }
                Err(e) => warn!("a worker's answer could not be read: {e}"),
            }
            return;
        }
        match SearchDone::from_json(&text) {
            Ok(done) => {
                if !ABANDONED.with_borrow_mut(|gone| gone.remove(&done.id)) {
                    DONE.with_borrow_mut(|all| all.insert(done.id, done));
                    WAKE.with_borrow(|wake| wake.as_ref().map(|wake| wake()));
                }
            }
            Err(e) => warn!("the search worker's answer could not be read: {e}"),
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the page.
    on_message.forget();
    Ok(worker)
}

/// A search posted to a worker.
#[derive(Debug)]
pub(crate) struct Search {
    id: u64,
    /// The answer has been taken (or the search let go): nothing to throw away later.
    settled: bool,
}

impl Search {
    /// Whether the worker has answered.
    pub(crate) fn is_finished(&self) -> bool {
        DONE.with_borrow(|done| done.contains_key(&self.id))
    }

    /// The search's result once the worker has answered (`None` before, or when it found no
    /// move). A page cannot wait without stopping the frames: ask only when finished.
    pub(crate) fn wait(mut self) -> Option<SearchResult> {
        self.settled = true;
        let done = DONE.with_borrow_mut(|done| done.remove(&self.id))?;
        if let Some(why) = &done.error {
            error!("the computer's search failed: {why}");
        }
        let best = qiguo_rules::notation::parse_move(done.best.as_deref()?).ok()?;
        Some(SearchResult {
            best,
            score: done.score,
            depth: done.depth,
            nodes: done.nodes,
            elapsed: Duration::from_micros(done.elapsed_us),
        })
    }

    /// Stops waiting for this search (the worker finishes it; its answer is dropped).
    pub(crate) fn stop(&mut self) {
        if std::mem::replace(&mut self.settled, true) {
            return;
        }
        let arrived = DONE.with_borrow_mut(|done| done.remove(&self.id)).is_some();
        if !arrived {
            ABANDONED.with_borrow_mut(|gone| gone.insert(self.id));
        }
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A task posted to a worker of its own (the computers' searches keep theirs, and a new game's
/// computers never wait behind it), answered once; the worker is ended when this is dropped.
struct Posted {
    id: u64,
    worker: Worker,
}

impl Posted {
    /// Posts `job` (JSON, for job `id`) after `prefix` to a new worker; `done` wakes the game
    /// when the answer comes. The browser's reason where no worker could be started.
    fn start(
        prefix: &str,
        id: u64,
        job: &str,
        done: qiguo_client::Wake,
    ) -> Result<Posted, wasm_bindgen::JsValue> {
        WAKE.set(Some(done));
        let worker = spawn()?;
        worker.post_message(&format!("{prefix}{job}").into())?;
        Ok(Posted { id, worker })
    }

    /// The answer's JSON, once it has come.
    fn take(&mut self) -> Option<String> {
        ANSWERED.with_borrow_mut(|all| all.remove(&self.id))
    }
}

impl Drop for Posted {
    fn drop(&mut self) {
        self.worker.terminate();
        ANSWERED.with_borrow_mut(|all| all.remove(&self.id));
    }
}

/// A game's review posted to a worker of its own.
pub(crate) struct ReviewPosted(Posted);

impl ReviewPosted {
    /// Posts `game`'s review at `nodes` to a new worker; `done` wakes the game when it comes.
    /// `None` (said in the log) where no worker could be started.
    pub(crate) fn start(game: &Game, nodes: u64, done: qiguo_client::Wake) -> Option<ReviewPosted> {
        let id = NEXT_JOB.fetch_add(1, Ordering::Relaxed);
        let players = PlayerInfo::defaults(game.start_position().seats().player_count());
        let job = ReviewJob {
            id,
            record: Record::from_game(game, players),
            nodes,
        };
        match Posted::start(REVIEW_PREFIX, id, &job.to_json(), done) {
            Ok(posted) => Some(ReviewPosted(posted)),
            Err(why) => {
                error!("the game's review could not start: {why:?}");
                None
            }
        }
    }

    /// The review once the worker has answered (or why there is none).
    pub(crate) fn take(&mut self) -> Option<Result<GameReview, JobError>> {
        Some(ReviewDone::read(&self.0.take()?))
    }
}

/// A move tried in place of a mistake, posted to a worker of its own to be judged.
pub(crate) struct JudgePosted(Posted);

impl JudgePosted {
    /// Posts `mv`, tried in the position `game` has reached, to be judged at `nodes`; `done`
    /// wakes the game when the answer comes. `None` (said in the log) where no worker could be
    /// started.
    pub(crate) fn start(
        game: &Game,
        mv: qiguo_rules::Move,
        nodes: u64,
        done: qiguo_client::Wake,
    ) -> Option<JudgePosted> {
        let id = NEXT_JOB.fetch_add(1, Ordering::Relaxed);
        let players = PlayerInfo::defaults(game.start_position().seats().player_count());
        let job = JudgeJob {
            id,
            record: Record::from_game(game, players),
            mv: mv.to_string(),
            nodes,
        };
        match Posted::start(JUDGE_PREFIX, id, &job.to_json(), done) {
            Ok(posted) => Some(JudgePosted(posted)),
            Err(why) => {
                error!("a move could not be judged: {why:?}");
                None
            }
        }
    }

    /// The mover's chance after the move once the worker has answered (or why there is none).
    pub(crate) fn take(&mut self) -> Option<Result<f64, JobError>> {
        Some(JudgeDone::read(&self.0.take()?))
    }
}
