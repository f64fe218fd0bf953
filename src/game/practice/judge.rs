//! A move tried in place of a mistake, judged off the thread that draws: the mover's chance
//! after it, searched as the review searched ([`qiguo_ai::review::chance_after`] at
//! [`REVIEW_NODES`], about a tenth of a second on one core). On the desktop a thread of its
//! own; in a page a Web Worker of its own (`crate::browser::worker`). Either way the game is
//! woken when the answer is ready, and a judgement no longer wanted is dropped.

use qiguo_ai::job::JobError;
use qiguo_ai::review::REVIEW_NODES;
use qiguo_rules::{Game, Move};

/// A judgement under way.
pub(crate) struct Judging(room::Room);

impl Judging {
    /// Starts judging `mv` in the position `before` has reached; `wake` wakes the game when the
    /// answer is ready.
    pub(crate) fn start(before: &Game, mv: Move, wake: Option<qiguo_client::Wake>) -> Judging {
        Judging(room::Room::start(before, mv, REVIEW_NODES, wake))
    }

    /// The mover's chance after the move (0 to 1), or why it could not be judged, once ready.
    pub(crate) fn take(&mut self) -> Option<Result<f64, JobError>> {
        self.0.take()
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod room {
    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, TryRecvError, channel};

    use qiguo_ai::job::JobError;
    use qiguo_rules::{Game, Move};

    /// A thread of its own, answering once on a channel (behind a lock only so that a
    /// resource may hold it: it is read through `&mut`).
    pub(super) struct Room(Mutex<Receiver<Result<f64, JobError>>>);

    impl Room {
        pub(super) fn start(
            before: &Game,
            mv: Move,
            nodes: u64,
            wake: Option<qiguo_client::Wake>,
        ) -> Room {
            let (tell, answer) = channel();
            let pos = before.position().clone();
            let started = std::thread::Builder::new()
                .name("judging a move".into())
                .spawn(move || {
                    let judged = qiguo_ai::review::chance_after(&pos, mv, nodes)
                        .ok_or_else(|| JobError::Refused(format!("{mv} cannot be played there")));
                    // Nobody listens once the judgement is no longer wanted.
                    let _ = tell.send(judged);
                    if let Some(wake) = wake {
                        wake();
                    }
                });
            if let Err(e) = started {
                let (tell, answer) = channel();
                bevy::log::warn!("no thread to judge a move on: {e}");
                let _ = tell.send(Err(JobError::NoRoom));
                return Room(Mutex::new(answer));
            }
            Room(Mutex::new(answer))
        }

        pub(super) fn take(&mut self) -> Option<Result<f64, JobError>> {
            let answer = self
                .0
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match answer.try_recv() {
                Ok(judged) => Some(judged),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Err(JobError::Ended)),
            }
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod room {
    use qiguo_ai::job::JobError;
    use qiguo_rules::{Game, Move};

    use crate::browser::worker::JudgePosted;

    /// A worker of its own, or why none could be started.
    pub(super) enum Room {
        Posted(JudgePosted),
        Failed(Option<JobError>),
    }

    impl Room {
        pub(super) fn start(
            before: &Game,
            mv: Move,
            nodes: u64,
            wake: Option<qiguo_client::Wake>,
        ) -> Room {
            let wake = wake.unwrap_or_else(|| std::sync::Arc::new(|| {}));
            match JudgePosted::start(before, mv, nodes, wake) {
                Some(posted) => Room::Posted(posted),
                None => Room::Failed(Some(JobError::NoRoom)),
            }
        }

        pub(super) fn take(&mut self) -> Option<Result<f64, JobError>> {
            match self {
                Room::Posted(posted) => posted.take(),
                Room::Failed(why) => why.take().map(Err),
            }
        }
    }
}
