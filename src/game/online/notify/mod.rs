//! Notifications: while the game is open, the player is told when another of their online
//! games waits for their move (the game on the board says so itself) — by the desktop in the
//! window ([`desktop`]), by the browser in a page ([`page`], which also keeps the device
//! subscribed to the server's pushed notifications).

#[cfg(not(target_arch = "wasm32"))]
mod desktop;
#[cfg(target_arch = "wasm32")]
pub(crate) mod page;

use std::collections::HashMap;

use bevy::prelude::*;
use qiguo_protocol::GameId;
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

/// The turns told so far: each game's last, by its ply. The server tells a waiting turn again
/// when the player signs in (one told while the connection was down is not lost), and a move
/// and a sign-in that cross tell it twice: the player hears of each turn once.
#[derive(Debug, Default)]
pub(crate) struct TurnsTold(HashMap<GameId, u32>);

impl TurnsTold {
    /// Notes turn `ply` of `game`: whether it is news (not told before).
    pub(crate) fn first(&mut self, game: &GameId, ply: u32) -> bool {
        self.0.insert(game.clone(), ply) != Some(ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_turn_is_news_once() {
        let mut told = TurnsTold::default();
        let (g, h) = (GameId("g".into()), GameId("h".into()));
        assert!(told.first(&g, 7));
        assert!(!told.first(&g, 7), "told again at sign-in");
        assert!(told.first(&h, 7), "another game's turn");
        assert!(told.first(&g, 14), "the next round's turn");
        assert!(!told.first(&g, 14));
        // A turn taken back and come again is news again.
        assert!(told.first(&g, 7));
    }
}
