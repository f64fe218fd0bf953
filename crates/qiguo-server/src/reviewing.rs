//! Reviewing finished games (`qiguo_ai::review`) from the jobs in the database
//! ([`crate::store::reviews`]): a server's own reviewers, and those of a worker that only
//! reviews (`qiguo-server review`, for an operator who adds a machine), work the same way.
//!
//! Each reviewer is a loop that asks for the reviews of games finished since it last looked,
//! claims the job first in line, reviews it on a thread of its own at the lowest priority the
//! system gives, renewing its claim meanwhile, and keeps the review. On a server the reviews
//! give way to the computers of live games ([`GiveWay`]): while a search for a live game waits
//! or runs, and for a moment after (a round's computers search one after another), a review
//! stops the position it is searching and waits, so that a game's computers move as soon with
//! 50 reviews waiting as with none. The puzzles of a reviewed game are mined on the same thread
//! (giving way between positions) and kept in the review's commit. Reviewers look for work when told (a game
//! ended, a player asked) and every [`LOOK_EVERY`] (another server's games, a claim run out).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use qiguo_ai::puzzles::{self, Puzzle};
use qiguo_ai::review::{GameReview, Reviewer};
use qiguo_rules::Game;
use tokio::sync::{Notify, oneshot, watch};

use crate::log::{Log, note};
use crate::metrics::Metrics;
use crate::protocol::Event;
use crate::store::reviews::ReviewJob;
use crate::store::{PlayerId, Store, StoreError};

/// How often a reviewer with nothing to do looks for work nobody told it of.
pub(crate) const LOOK_EVERY: Duration = Duration::from_secs(30);

/// How often a reviewer renews its claim on the job it works on (well within
/// [`crate::store::reviews::REVIEW_CLAIM_FOR`]).
const RENEW_EVERY: Duration = Duration::from_secs(60);

/// How far back a reviewer looks for finished games each time (beyond the last look): games
/// another server finished in a transaction that committed late are still found.
const LOOK_BACK_MS: i64 = 10 * 60 * 1000;

/// How long no live search must have waited or run before a review searches again: a round's
/// computers search one after another with short gaps between them (their moves stored and
/// told), and a review that started in each gap would be stopped again at once, its start's
/// work taken from the server's own.
const QUIET_BEFORE_REVIEWING: Duration = Duration::from_millis(300);

/// The searches of live games under way or waiting, which the reviews give way to: a review
/// searches only while there are none (and have been none for [`QUIET_BEFORE_REVIEWING`]), and
/// the one it is searching stops when one comes.
#[derive(Default)]
pub(crate) struct GiveWay {
    /// Live searches asked for and not done, and when the last was done.
    busy: Mutex<(usize, Option<std::time::Instant>)>,
    idle: Condvar,
    stop: Arc<AtomicBool>,
}

impl GiveWay {
    /// A live search is asked for: reviews stop.
    pub(crate) fn enter(&self) {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        busy.0 += 1;
        self.stop.store(true, Ordering::Release);
    }

    /// A live search is done.
    pub(crate) fn leave(&self) {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        busy.0 = busy.0.saturating_sub(1);
        busy.1 = Some(std::time::Instant::now());
        if busy.0 == 0 {
            self.idle.notify_all();
        }
    }

    /// Waits until no live search has waited or run for [`QUIET_BEFORE_REVIEWING`] (or
    /// `cancelled`), then lets reviews search.
    fn wait(&self, cancelled: &AtomicBool) {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        while !cancelled.load(Ordering::Acquire) {
            let quiet_for = busy.1.map_or(QUIET_BEFORE_REVIEWING, |t| t.elapsed());
            let wait = if busy.0 > 0 {
                Duration::from_millis(500)
            } else if quiet_for < QUIET_BEFORE_REVIEWING {
                QUIET_BEFORE_REVIEWING - quiet_for
            } else {
                break;
            };
            busy = self
                .idle
                .wait_timeout(busy, wait)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        self.stop.store(false, Ordering::Release);
    }
}

/// Mines the puzzles of `game`, reviewed as `review` at `nodes` (`qiguo_ai::puzzles`, at the
/// budgets in proportion to the review's), giving way to live searches between positions; `None`
/// if `cancelled` first.
fn mine_here(
    game: &Game,
    review: &GameReview,
    nodes: u64,
    give_way: Option<&GiveWay>,
    cancelled: &AtomicBool,
) -> Option<Vec<Puzzle>> {
    let (scan, deep) = puzzles::budgets(nodes);
    let mut found = Vec::new();
    for ply in puzzles::candidates(game, review) {
        if cancelled.load(Ordering::Acquire) {
            return None;
        }
        if let Some(give_way) = give_way {
            give_way.wait(cancelled);
        }
        found.extend(puzzles::check(game, review, ply, scan, deep));
    }
    Some(found)
}

/// Reviews `game` at `nodes` on this thread, giving way to live searches (`give_way`); `None`
/// if `cancelled` first.
fn review_here(
    game: &Game,
    nodes: u64,
    give_way: Option<&GiveWay>,
    cancelled: &AtomicBool,
) -> Option<GameReview> {
    let mut reviewer = Reviewer::new(game, nodes);
    if let Some(give_way) = give_way {
        reviewer = reviewer.stopped_by(give_way.stop.clone());
    }
    while !reviewer.is_done() {
        if cancelled.load(Ordering::Acquire) {
            return None;
        }
        if let Some(give_way) = give_way {
            give_way.wait(cancelled);
        }
        reviewer.step();
    }
    Some(reviewer.finish())
}

/// How a reviewer tells a player that a review is ready: a server on the player's
/// connections (here and through the others on PostgreSQL), a worker through the servers.
pub(crate) type Tell = Arc<dyn Fn(&PlayerId, Event) + Send + Sync>;

/// The reviewers of one server or worker.
pub(crate) struct Reviewing {
    store: Store,
    log: Log,
    nodes: u64,
    give_way: Option<Arc<GiveWay>>,
    wake: Notify,
    /// When finished games were last looked for (0: never, so the first look finds them all).
    looked_ms: Mutex<i64>,
    /// Tells a review's players it is ready.
    tell: Tell,
    /// A server's counts (a worker keeps none).
    metrics: Option<Arc<Metrics>>,
}

impl Reviewing {
    /// Reviewers on `store` at `nodes` positions a position, giving way to the live searches
    /// of `give_way` (a server's) if any, telling each review's people and whoever asked for
    /// it by `tell` once it is kept.
    pub(crate) fn new(
        store: Store,
        log: Log,
        nodes: u64,
        give_way: Option<Arc<GiveWay>>,
        tell: Tell,
        metrics: Option<Arc<Metrics>>,
    ) -> Arc<Reviewing> {
        Arc::new(Reviewing {
            store,
            log,
            nodes,
            give_way,
            wake: Notify::new(),
            looked_ms: Mutex::new(0),
            tell,
            metrics,
        })
    }

    /// Starts `reviewers` loops, which stop when `closing` turns true (a review under way is
    /// left, and its claim given back); their tasks.
    pub(crate) fn start(
        self: &Arc<Self>,
        reviewers: usize,
        closing: watch::Receiver<bool>,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        (0..reviewers)
            .map(|_| tokio::spawn(self.clone().work(closing.clone())))
            .collect()
    }

    /// Counts a job's end (see [`Metrics::review`]).
    fn count(&self, outcome: &'static str) {
        if let Some(metrics) = &self.metrics {
            metrics.review(outcome);
        }
    }

    /// There may be work: a game ended, a player asked.
    pub(crate) fn look(&self) {
        self.wake.notify_waiters();
        self.wake.notify_one();
    }

    /// One reviewer: claims and reviews jobs until `closing`.
    async fn work(self: Arc<Self>, mut closing: watch::Receiver<bool>) {
        loop {
            if *closing.borrow() {
                return;
            }
            match self.next_job().await {
                Ok(Some(job)) => self.review(job, &mut closing).await,
                Ok(None) => {
                    tokio::select! {
                        () = self.wake.notified() => {}
                        () = tokio::time::sleep(LOOK_EVERY) => {}
                        _ = closing.changed() => {}
                    }
                }
                Err(e) => {
                    note!(self.log, ERROR, "reviews not read", error = e);
                    tokio::select! {
                        () = tokio::time::sleep(LOOK_EVERY) => {}
                        _ = closing.changed() => {}
                    }
                }
            }
        }
    }

    /// Asks for the reviews of the games finished since the last look, then claims the job
    /// first in line.
    async fn next_job(&self) -> Result<Option<ReviewJob>, StoreError> {
        let now = self.store.now();
        let since = {
            let mut looked = self
                .looked_ms
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let since = if *looked == 0 {
                0
            } else {
                *looked - LOOK_BACK_MS
            };
            *looked = now;
            since
        };
        let asked = self.store.ask_reviews_since(since).await?;
        if asked > 0 {
            note!(self.log, INFO, "finished games to review", games = asked);
        }
        self.store.claim_review(self.store.server_id()).await
    }

    /// Reviews `job`'s game and keeps the review; gives the claim back if `closing` first.
    async fn review(&self, job: ReviewJob, closing: &mut watch::Receiver<bool>) {
        let worker = self.store.server_id().to_owned();
        let (game, mut people) = match self.store.load_game(&job.game).await {
            Ok(stored) => {
                let people: Vec<PlayerId> =
                    stored.seats.into_iter().filter_map(|s| s.holder).collect();
                (stored.game, people)
            }
            Err(e) => {
                note!(
                    self.log,
                    WARN,
                    "game not reviewed",
                    game = job.game.0,
                    error = e
                );
                if let Err(e) = self
                    .store
                    .review_failed(&job.game, &worker, &e.to_string())
                    .await
                {
                    note!(
                        self.log,
                        ERROR,
                        "review not given up",
                        game = job.game.0,
                        error = e
                    );
                }
                return;
            }
        };
        let moves = game.len();
        let cancelled = Arc::new(AtomicBool::new(false));
        let (answer, mut answered) = oneshot::channel();
        let (nodes, give_way, stop) = (self.nodes, self.give_way.clone(), cancelled.clone());
        let started = std::time::Instant::now();
        let spawned = std::thread::Builder::new()
            .name("qiguo-review".into())
            .spawn(move || {
                // The lowest priority of the ordinary scheduling (niceness 19 on Linux).
                if let Err(e) = thread_priority::set_current_thread_priority(
                    thread_priority::ThreadPriority::Min,
                ) {
                    tracing::warn!(target: "qiguo_server", "a review thread's priority not lowered: {e:?}");
                }
                let give_way = give_way.as_deref();
                let done = review_here(&game, nodes, give_way, &stop).and_then(|review| {
                    let found = mine_here(&game, &review, nodes, give_way, &stop)?;
                    Some((review, found))
                });
                let _ = answer.send(done);
            });
        if let Err(e) = spawned {
            note!(self.log, ERROR, "review thread not started", error = e);
            let _ = self.store.give_review_back(&job.game, &worker).await;
            return;
        }
        let done = loop {
            tokio::select! {
                done = &mut answered => break done.ok().flatten(),
                () = tokio::time::sleep(RENEW_EVERY) => {
                    match self.store.renew_review(&job.game, &worker).await {
                        Ok(true) => {}
                        Ok(false) => {
                            cancelled.store(true, Ordering::Release);
                            note!(self.log, WARN, "review claim lost", game = job.game.0);
                            self.count("lost");
                            return;
                        }
                        Err(e) => note!(self.log, WARN, "review claim not renewed", game = job.game.0, error = e),
                    }
                }
                _ = closing.changed() => {
                    cancelled.store(true, Ordering::Release);
                    self.count("given_back");
                    if let Err(e) = self.store.give_review_back(&job.game, &worker).await {
                        note!(self.log, WARN, "review claim not given back", game = job.game.0, error = e);
                    }
                    return;
                }
            }
        };
        let Some((review, found)) = done else {
            return;
        };
        let json = match serde_json::to_string(&review) {
            Ok(json) => json,
            Err(e) => {
                note!(
                    self.log,
                    ERROR,
                    "review not written",
                    game = job.game.0,
                    error = e
                );
                return;
            }
        };
        people.extend(job.asked_by);
        people.sort_by(|a, b| a.0.cmp(&b.0));
        people.dedup();
        match self
            .store
            .review_done(&job.game, &worker, self.nodes, &json, &found, &people)
            .await
        {
            Ok(true) => {
                self.count("kept");
                note!(
                    self.log,
                    INFO,
                    "game reviewed",
                    game = job.game.0,
                    moves = moves,
                    nodes = self.nodes,
                    mistakes = review.mistakes.len(),
                    puzzles = found.len(),
                    ms = started.elapsed().as_millis()
                );
                for player in &people {
                    (self.tell)(
                        player,
                        Event::ReviewReady {
                            game: job.game.clone(),
                        },
                    );
                }
            }
            Ok(false) => {
                self.count("lost");
                note!(self.log, WARN, "review done by another", game = job.game.0);
            }
            Err(e) => note!(
                self.log,
                ERROR,
                "review not kept",
                game = job.game.0,
                error = e
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_waits_while_a_live_search_runs() {
        let mut game = Game::start(qiguo_rules::Rules::default(), qiguo_rules::Seats::seven());
        for _ in 0..2 {
            let mv = game.position().legal_moves()[0];
            game.play(mv).unwrap();
        }
        let give_way = Arc::new(GiveWay::default());
        give_way.enter();
        let cancelled = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let (g, c) = (give_way.clone(), cancelled.clone());
        let game2 = game.clone();
        std::thread::spawn(move || {
            let _ = tx.send(review_here(&game2, 1_000, Some(&g), &c));
        });
        // Nothing comes while the live search runs (it never ends here: the review waits).
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        give_way.leave();
        let review = rx.recv().unwrap().expect("reviewed once the way is free");
        assert_eq!(review, qiguo_ai::review::review(&game, 1_000));
    }

    #[test]
    fn a_cancelled_review_ends_without_a_review() {
        let game = Game::start(qiguo_rules::Rules::default(), qiguo_rules::Seats::seven());
        let cancelled = AtomicBool::new(true);
        assert_eq!(review_here(&game, 1_000, None, &cancelled), None);
    }
}
