//! The desktop's notifications. They are shown by a thread of their own, so that a slow or
//! absent notification service never holds up a frame; where there is none (no D-Bus session,
//! a server without a desktop), showing fails and the failure is only logged. At most a few
//! wait their turn: more are dropped rather than queued without bound.

use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

use bevy::prelude::*;

use super::{Notification, TurnsTold};

/// Notifications waiting for the thread at most; more are dropped.
const WAITING: usize = 4;

/// Sends notifications to the desktop from a thread of its own, started on first use.
#[derive(Resource, Default)]
pub(crate) struct Notifier {
    sender: Option<SyncSender<Notification>>,
    /// The thread could not be started: nothing more is tried.
    broken: bool,
    /// The turns told: each once.
    told: TurnsTold,
}

impl Notifier {
    /// Notes turn `ply` of `game`: whether it is news (see [`TurnsTold`]).
    pub(crate) fn first(&mut self, game: &qiguo_protocol::GameId, ply: u32) -> bool {
        self.told.first(game, ply)
    }

    /// Another game waits for the player's move: the desktop says so.
    pub(crate) fn your_turn_elsewhere(&mut self, words: impl FnOnce() -> Notification) {
        self.show(words());
    }

    /// Shows `notification` on the desktop if it can; never blocks, never fails.
    fn show(&mut self, notification: Notification) {
        if self.broken {
            return;
        }
        if self.sender.is_none() {
            let (sender, receiver) = sync_channel::<Notification>(WAITING);
            let started = std::thread::Builder::new()
                .name("desktop notifications".into())
                .spawn(move || {
                    for n in receiver {
                        let shown = notify_rust::Notification::new()
                            .appname("Qiguo")
                            .summary(&n.summary)
                            .body(&n.body)
                            .show();
                        if let Err(e) = shown {
                            debug!("no desktop notification ({e}): {}", n.summary);
                        }
                    }
                });
            match started {
                Ok(_) => self.sender = Some(sender),
                Err(e) => {
                    debug!("no desktop notifications: {e}");
                    self.broken = true;
                    return;
                }
            }
        }
        if let Some(sender) = &self.sender {
            match sender.try_send(notification) {
                Ok(()) => {}
                Err(TrySendError::Full(n)) => debug!("notification dropped: {}", n.summary),
                Err(TrySendError::Disconnected(_)) => self.broken = true,
            }
        }
    }
}
