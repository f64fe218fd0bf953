//! Desktop notifications: while the window is open, the desktop says when another of the
//! player's online games waits for their move (the game on the board says so itself). In a
//! page, the browser's notifications (`crate::web::notify`).
//!
//! Notifications are shown by a thread of their own, so that a slow or absent notification
//! service never holds up a frame; where there is none (no D-Bus session, a server without a
//! desktop), showing fails and the failure is only logged. At most a few wait their turn: more
//! are dropped rather than queued without bound.

#[cfg(not(target_arch = "wasm32"))]
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

use bevy::prelude::*;
use qiguo_rules::Kingdom;

use crate::i18n::Tr;
use crate::tr;

/// Notifications waiting for the thread at most; more are dropped.
#[cfg(not(target_arch = "wasm32"))]
const WAITING: usize = 4;

/// One notification: a title and a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Notification {
    /// The title.
    pub summary: String,
    /// The line under it.
    pub body: String,
}

/// Sends notifications to the desktop from a thread of its own, started on first use.
#[derive(Resource, Default)]
pub(crate) struct Notifier {
    #[cfg(not(target_arch = "wasm32"))]
    sender: Option<SyncSender<Notification>>,
    /// The thread could not be started: nothing more is tried.
    #[cfg(not(target_arch = "wasm32"))]
    broken: bool,
}

/// Whether the player can be asked to allow notifications: in a page, where the browser has not
/// asked yet (the desktop needs no leave).
pub(crate) fn can_ask() -> bool {
    #[cfg(target_arch = "wasm32")]
    return crate::web::notify::askable();
    #[cfg(not(target_arch = "wasm32"))]
    return false;
}

/// Asks the browser's leave to notify (from a click: browsers allow the question only then).
pub(crate) fn ask() {
    #[cfg(target_arch = "wasm32")]
    crate::web::notify::ask();
}

/// The words of "another of your games waits for your move": the kingdom to move, and the
/// game's players.
pub(crate) fn your_turn(tr: Tr, kingdom: Kingdom, players: &str) -> Notification {
    Notification {
        summary: tr.text("online-notify-title"),
        body: tr!(
            tr,
            "online-notify-body",
            kingdom = tr.kingdom(kingdom),
            players = players
        ),
    }
}

#[cfg(target_arch = "wasm32")]
impl Notifier {
    /// Another game waits for the player's move. In a page the link has said so already, where
    /// the server's message arrived (`crate::web::notify::heard`): a tab in the background
    /// draws no frames, so no frame's system could. Nothing more to do here.
    pub(crate) fn your_turn_elsewhere(&mut self, _words: impl FnOnce() -> Notification) {}
}

#[cfg(not(target_arch = "wasm32"))]
impl Notifier {
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
