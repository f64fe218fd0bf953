//! The computers' searches, fair between games: a few threads of their own (one per core),
//! run at the lowest priority the system gives so that the network's threads answer moves
//! meanwhile, taking waiting searches in four lanes:
//!
//! 1. quick searches (every level but Hard) of games where a person is present,
//! 2. quick searches of the others,
//! 3. Hard searches of games where a person is present,
//! 4. Hard searches of the others,
//!
//! each lane first come, first served. A game asks for one search at a time and asks again
//! after its move is made, at the back of its lane: the games take turns. Hard searches
//! occupy at most all threads but one (one thread, on one core), so that a quick search waits
//! behind no Hard search where there are two cores or more, and behind at most the one running
//! where there is one. A search is bounded by its level's nodes. The games' reviews give way to
//! every search, from when it is asked for until it is done ([`GiveWay`]).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use qiguo_ai::{Engine, LevelSearch, Limits, TableSize};
use qiguo_rules::{Level, Move, Position};
use tokio::sync::oneshot;

use crate::reviewing::GiveWay;

/// The transposition table of one search: 16 MiB.
const TABLE: TableSize = TableSize::megabytes(16);

/// An engine with its table of [`TABLE`].
fn engine() -> Engine {
    Engine::new(TABLE)
}

thread_local! {
    /// Each search thread's engine, kept from one search to the next, so that its table is
    /// made once per thread (16 MiB each) and not once per move.
    static ENGINE: std::cell::RefCell<Engine> = std::cell::RefCell::new(engine());
}

/// What a search is asked for.
#[derive(Clone, Debug)]
pub(crate) struct SearchAsk {
    /// The position.
    pub pos: Position,
    /// The level to play at.
    pub level: Level,
    /// The seed of the level's choices.
    pub seed: u64,
    /// A person holding a seat in the game is present.
    pub attended: bool,
}

type Work = Box<dyn FnOnce() -> Option<Move> + Send>;

struct Job {
    work: Work,
    hard: bool,
    answer: oneshot::Sender<Option<Move>>,
}

#[derive(Default)]
struct Queue {
    /// The lanes, in the order they are served.
    lanes: [VecDeque<Job>; 4],
    hard_running: usize,
    hard_cap: usize,
    closed: bool,
}

impl Queue {
    fn lane(hard: bool, attended: bool) -> usize {
        usize::from(hard) * 2 + usize::from(!attended)
    }

    /// The next job a free thread may run.
    fn take(&mut self) -> Option<Job> {
        for lane in 0..4 {
            let hard = lane >= 2;
            if hard && self.hard_running >= self.hard_cap {
                continue;
            }
            if let Some(job) = self.lanes[lane].pop_front() {
                if hard {
                    self.hard_running += 1;
                }
                return Some(job);
            }
        }
        None
    }

    fn waiting(&self) -> usize {
        self.lanes.iter().map(VecDeque::len).sum()
    }
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// The reviews, told of each search from when it is asked for until it is done.
    give_way: Arc<GiveWay>,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The search threads and their lanes; the threads end when this is dropped.
pub(crate) struct Searches {
    shared: Arc<Shared>,
}

impl Searches {
    /// `threads` search threads (at least one), which the reviews give way to (`give_way`).
    pub(crate) fn start(threads: usize, give_way: Arc<GiveWay>) -> Searches {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                hard_cap: (threads - 1).max(1),
                ..Queue::default()
            }),
            ready: Condvar::new(),
            give_way,
        });
        for n in 0..threads {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("qiguo-search-{n}"))
                .spawn(move || work(&shared));
            if let Err(e) = spawned {
                tracing::error!(target: "qiguo_server", "a search thread not started: {e}");
            }
        }
        Searches { shared }
    }

    /// The best move in `ask`'s position at its level, searched when its turn in the lanes
    /// comes; `None` if there is none (or the searches stopped).
    pub(crate) async fn search(&self, ask: SearchAsk) -> Option<Move> {
        let SearchAsk {
            pos,
            level,
            seed,
            attended,
        } = ask;
        let work: Work = Box::new(move || {
            let limits = Limits {
                nodes: Some(level.nodes()),
                threads: Some(1),
                ..Limits::default()
            };
            ENGINE
                .with_borrow_mut(|engine| engine.search(&pos, level, &limits, seed).map(|r| r.best))
        });
        self.run(work, level == Level::Hard, attended).await
    }

    /// Runs `work` in its lane.
    async fn run(&self, work: Work, hard: bool, attended: bool) -> Option<Move> {
        let (answer, answered) = oneshot::channel();
        {
            let mut queue = self.shared.lock();
            if queue.closed {
                return None;
            }
            queue.lanes[Queue::lane(hard, attended)].push_back(Job { work, hard, answer });
            self.shared.give_way.enter();
        }
        self.shared.ready.notify_one();
        answered.await.ok().flatten()
    }

    /// Searches waiting for a thread.
    pub(crate) fn waiting(&self) -> usize {
        self.shared.lock().waiting()
    }
}

impl Drop for Searches {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

/// A search thread: below the network's priority, it runs jobs until the searches stop.
fn work(shared: &Shared) {
    // The lowest priority of the ordinary scheduling (niceness 19 on Linux): searches take
    // the cores the network leaves.
    if let Err(e) =
        thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min)
    {
        tracing::warn!(target: "qiguo_server", "a search thread's priority not lowered: {e:?}");
    }
    loop {
        let job = {
            let mut queue = shared.lock();
            loop {
                if queue.closed {
                    return;
                }
                if let Some(job) = queue.take() {
                    break job;
                }
                queue = shared
                    .ready
                    .wait(queue)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        let best = (job.work)();
        shared.give_way.leave();
        if job.hard {
            shared.lock().hard_running -= 1;
            // A Hard job waiting may start now.
            shared.ready.notify_all();
        }
        let _ = job.answer.send(best);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_computer_searches_with_a_table_of_sixteen_mebibytes() {
        // Once a bare 16 read as 2^16 entries of 16 bytes: 1 MiB.
        assert_eq!(super::engine().table_size().bytes(), 16 * 1024 * 1024);
    }

    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    /// Work that notes its name when it runs, after `gate` opens if given.
    fn noting(
        name: &'static str,
        ran: mpsc::Sender<&'static str>,
        gate: Option<mpsc::Receiver<()>>,
    ) -> Work {
        Box::new(move || {
            if let Some(gate) = gate {
                let _ = gate.recv();
            }
            let _ = ran.send(name);
            None
        })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn quick_searches_and_present_people_go_first_each_lane_in_turn() {
        let searches = Arc::new(Searches::start(1, Arc::default()));
        let (ran, order) = mpsc::channel();
        let (open, gate) = mpsc::channel::<()>();
        let (started, has_started) = mpsc::channel();
        // The one thread is busy; then searches of every kind wait.
        let busy = tokio::spawn({
            let s = searches.clone();
            let ran = ran.clone();
            let work: Work = Box::new(move || {
                started.send(()).unwrap();
                let _ = gate.recv();
                ran.send("busy").unwrap();
                None
            });
            async move { s.run(work, false, true).await }
        });
        has_started.recv_timeout(Duration::from_secs(10)).unwrap();
        let mut waiting = Vec::new();
        for (name, hard, attended) in [
            ("hard, nobody", true, false),
            ("hard, present", true, true),
            ("quick, nobody 1", false, false),
            ("quick, present", false, true),
            ("quick, nobody 2", false, false),
        ] {
            let s = searches.clone();
            let work = noting(name, ran.clone(), None);
            waiting.push(tokio::spawn(
                async move { s.run(work, hard, attended).await },
            ));
            while searches.waiting() < waiting.len() {
                tokio::task::yield_now().await;
            }
        }
        open.send(()).unwrap();
        busy.await.unwrap();
        for w in waiting {
            w.await.unwrap();
        }
        let ran: Vec<_> = order.try_iter().collect();
        assert_eq!(
            ran,
            [
                "busy",
                "quick, present",
                "quick, nobody 1",
                "quick, nobody 2",
                "hard, present",
                "hard, nobody"
            ]
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn hard_searches_leave_a_thread_to_the_quick_ones() {
        let searches = Arc::new(Searches::start(2, Arc::default()));
        let (ran, order) = mpsc::channel();
        let (open, gate) = mpsc::channel();
        // A Hard search runs (held at its gate); a second Hard one waits although a thread is
        // free, and a quick one takes that thread at once.
        let first = tokio::spawn({
            let s = searches.clone();
            let work = noting("hard 1", ran.clone(), Some(gate));
            async move { s.run(work, true, true).await }
        });
        while searches.shared.lock().hard_running == 0 {
            tokio::task::yield_now().await;
        }
        let second = tokio::spawn({
            let s = searches.clone();
            let work = noting("hard 2", ran.clone(), None);
            async move { s.run(work, true, true).await }
        });
        while searches.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        let quick = searches
            .run(noting("quick", ran.clone(), None), false, false)
            .await;
        assert_eq!(quick, None);
        assert_eq!(order.try_iter().collect::<Vec<_>>(), ["quick"]);
        assert_eq!(searches.waiting(), 1, "the second Hard search still waits");
        open.send(()).unwrap();
        first.await.unwrap();
        second.await.unwrap();
        assert_eq!(order.try_iter().collect::<Vec<_>>(), ["hard 1", "hard 2"]);
    }

    #[tokio::test]
    async fn a_search_finds_a_legal_move() {
        let searches = Searches::start(1, Arc::default());
        let pos = Position::start(qiguo_rules::Rules::default());
        let best = searches
            .search(SearchAsk {
                pos: pos.clone(),
                level: Level::Random,
                seed: 7,
                attended: true,
            })
            .await
            .expect("a move");
        assert!(pos.legal_moves().contains(&best));
    }
}
