//! Notifications: while the game is open, the player is told when another of their online
//! games waits for their move (the game on the board says so itself) — by the desktop in the
//! window ([`desktop`]), by the browser in a page ([`page`], which also keeps the device
//! subscribed to the server's pushed notifications).

#[cfg(not(target_arch = "wasm32"))]
mod desktop;
#[cfg(target_arch = "wasm32")]
pub(crate) mod page;

use bevy::prelude::*;
use qiguo_rules::Kingdom;

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use desktop::Notifier;
#[cfg(target_arch = "wasm32")]
pub(crate) use page::Notifier;

use crate::i18n::Tr;
use crate::tr;

/// The notifications' resource, and in a page the systems that keep its words ready and the
/// device subscribed.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Notifier>();
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(page::plugin);
}

/// One notification: a title and a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Notification {
    /// The title.
    pub summary: String,
    /// The line under it.
    pub body: String,
}

/// Whether the player can be asked to allow notifications: in a page, where the browser has not
/// asked yet (the desktop needs no leave).
pub(crate) fn can_ask() -> bool {
    #[cfg(target_arch = "wasm32")]
    return crate::browser::notify::askable();
    #[cfg(not(target_arch = "wasm32"))]
    return false;
}

/// Asks the browser's leave to notify (from a click: browsers allow the question only then).
pub(crate) fn ask() {
    #[cfg(target_arch = "wasm32")]
    crate::browser::notify::ask();
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
