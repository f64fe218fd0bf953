//! The review of a finished game: each move searched, each kingdom's chance before it, the
//! engine's best move, and the mistakes (`qiguo_ai::review`, the same code as the server's). A
//! game played at this screen (hot seat, against computers) is reviewed here, in the background,
//! once it is over; a game followed from a server is reviewed there, and its review asked for
//! (`crate::game::online`'s review concern writes it here). The Game report draws it: each
//! kingdom's chance as a line with the mistakes marked, and the people's mistakes listed, each a
//! click from its move ([`crate::game::ui`]'s report window reads [`Reviewed`]).

use std::sync::Arc;

use bevy::prelude::*;
use qiguo_ai::review::GameReview;

use crate::game::frames::Waker;
use crate::game::state::{Match, SeatAuthority, Turn};
use crate::game::tools::screenshot::hold_while;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Reviewed>()
        .add_systems(Update, (forget_another_game, review_here).chain());
    // A game over is in its review (`--report` shows it): being made, a picture waits for it.
    hold_while::<Reviewed>(app, "review", |r| {
        matches!(r.status, ReviewShown::Making { .. })
    });
}

/// The review of the game on the board, and the turn (game and move count) it is for.
#[derive(Resource, Default)]
pub struct Reviewed {
    /// The turn the review is for: a new game, or a move taken back, makes it another's.
    pub(crate) turn: Option<Turn>,
    /// Where it stands.
    pub status: ReviewShown,
    /// The review being made here.
    job: Option<local::LocalReview>,
    /// The games on the board are not to be reviewed (*Learn from your mistakes* asks its
    /// questions there): kept across games.
    pub(crate) held: bool,
}

/// Where the review of the game on the board stands.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ReviewShown {
    /// None: the game is not over, or not reviewed here or by its server.
    #[default]
    None,
    /// Being made here: positions searched, of about how many.
    Making {
        /// Searched.
        done: usize,
        /// In all (the game's moves and one).
        of: usize,
    },
    /// Asked of the game's server, which says when it is ready.
    Waiting,
    /// Made.
    Done(Arc<GameReview>),
    /// The server could not make it: why (in English, as it said).
    Failed(String),
}

impl Reviewed {
    /// The review, if it is made, for the game as it stands (`turn`).
    pub fn done_for(&self, turn: Turn) -> Option<&Arc<GameReview>> {
        match &self.status {
            ReviewShown::Done(review) if self.turn == Some(turn) => Some(review),
            _ => None,
        }
    }

    /// Sets where the review of the game as it stands (`turn`) stands: as its server says, or
    /// made before (a reviewed game brought back).
    pub(crate) fn set(&mut self, turn: Turn, status: ReviewShown) {
        self.job = None;
        self.turn = Some(turn);
        self.status = status;
    }
}

/// A new game, or another turn of this one (a move taken back): its review is another's.
fn forget_another_game(the_match: Res<Match>, mut reviewed: ResMut<Reviewed>) {
    let turn = the_match.turn();
    if reviewed.turn.is_some_and(|t| t != turn) {
        *reviewed = Reviewed {
            held: reviewed.held,
            ..Reviewed::default()
        };
    }
}

/// A game played at this screen that is over: reviewed here in the background, its progress
/// noted and its review taken in when done.
fn review_here(
    the_match: Res<Match>,
    seats: Res<SeatAuthority>,
    waker: Option<Res<Waker>>,
    mut reviewed: ResMut<Reviewed>,
) {
    let turn = the_match.turn();
    if let Some(job) = &mut reviewed.job {
        let (done, of) = job.progress();
        match job.take() {
            Some(Ok(review)) => {
                reviewed.job = None;
                reviewed.status = ReviewShown::Done(Arc::new(review));
            }
            Some(Err(why)) => {
                reviewed.job = None;
                reviewed.status = ReviewShown::Failed(why.to_string());
            }
            None => {
                if reviewed.status != (ReviewShown::Making { done, of }) {
                    reviewed.status = ReviewShown::Making { done, of };
                }
            }
        }
        return;
    }
    let game = the_match.game();
    // A game of computers alone (a window left playing them) names no one's mistakes.
    if reviewed.turn == Some(turn)
        || reviewed.held
        || seats.follows_server()
        || !game.position().is_over()
        || game.is_empty()
        || the_match.players().iter().all(|p| p.computer.is_some())
    {
        return;
    }
    let wake = waker.map(|w| w.as_fn());
    match local::LocalReview::start(game, wake) {
        Some(job) => {
            reviewed.status = ReviewShown::Making {
                done: 0,
                of: game.len() + 1,
            };
            reviewed.job = Some(job);
        }
        None => reviewed.status = ReviewShown::None,
    }
    reviewed.turn = Some(turn);
}

/// A review made on a thread of its own, at the review's node budget; stopped when dropped.
#[cfg(not(target_arch = "wasm32"))]
mod local {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex, PoisonError};

    use qiguo_ai::job::JobError;
    use qiguo_ai::review::{GameReview, REVIEW_NODES, Reviewer};
    use qiguo_rules::Game;

    pub(super) struct LocalReview {
        done: Arc<AtomicUsize>,
        of: usize,
        stop: Arc<AtomicBool>,
        made: Arc<Mutex<Option<GameReview>>>,
    }

    impl LocalReview {
        /// Starts reviewing `game`; `wake` wakes the game when it is done. `None` if no thread
        /// could be started.
        pub(super) fn start(game: &Game, wake: Option<qiguo_client::Wake>) -> Option<LocalReview> {
            let done = Arc::new(AtomicUsize::new(0));
            let stop = Arc::new(AtomicBool::new(false));
            let made = Arc::new(Mutex::new(None));
            let (d, s, m, game) = (done.clone(), stop.clone(), made.clone(), game.clone());
            let of = game.len() + 1;
            std::thread::Builder::new()
                .name("game review".into())
                .spawn(move || {
                    let mut reviewer = Reviewer::new(&game, REVIEW_NODES);
                    while reviewer.step() {
                        if s.load(Ordering::Acquire) {
                            return;
                        }
                        d.store(reviewer.progress().0, Ordering::Release);
                    }
                    *m.lock().unwrap_or_else(PoisonError::into_inner) = Some(reviewer.finish());
                    if let Some(wake) = wake {
                        wake();
                    }
                })
                .ok()?;
            Some(LocalReview {
                done,
                of,
                stop,
                made,
            })
        }

        /// Positions searched so far, and in all.
        pub(super) fn progress(&self) -> (usize, usize) {
            (self.done.load(Ordering::Acquire), self.of)
        }

        /// The review, once made.
        pub(super) fn take(&mut self) -> Option<Result<GameReview, JobError>> {
            self.made
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take()
                .map(Ok)
        }
    }

    impl Drop for LocalReview {
        fn drop(&mut self) {
            self.stop.store(true, Ordering::Release);
        }
    }
}

/// In a page, the review runs in a Web Worker of its own (`crate::browser::worker`), so that
/// the page keeps drawing; it says nothing of its progress until it is done.
#[cfg(target_arch = "wasm32")]
mod local {
    use qiguo_ai::job::JobError;
    use qiguo_ai::review::{GameReview, REVIEW_NODES};
    use qiguo_rules::Game;

    use crate::browser::worker::ReviewPosted;

    pub(super) struct LocalReview {
        posted: ReviewPosted,
        of: usize,
    }

    impl LocalReview {
        pub(super) fn start(game: &Game, wake: Option<qiguo_client::Wake>) -> Option<LocalReview> {
            let wake = wake.unwrap_or_else(|| std::sync::Arc::new(|| {}));
            let posted = ReviewPosted::start(game, REVIEW_NODES, wake)?;
            Some(LocalReview {
                posted,
                of: game.len() + 1,
            })
        }

        /// Nothing searched is told until the end.
        pub(super) fn progress(&self) -> (usize, usize) {
            (0, self.of)
        }

        pub(super) fn take(&mut self) -> Option<Result<GameReview, JobError>> {
            self.posted.take()
        }
    }
}
