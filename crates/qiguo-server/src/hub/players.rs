//! The players room: each signed-in player's own channel of events (your turn, a game of
//! theirs changed elsewhere, their e-mail settings), one for all their connections here. It owns
//! the channels alone; the hub decides what to tell and tells other servers.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

use super::{EVENTS_KEPT, lock};
use crate::protocol::Event;
use crate::store::PlayerId;

/// The players' own channels.
#[derive(Debug, Default)]
pub(super) struct Players {
    channels: Mutex<HashMap<PlayerId, broadcast::Sender<Event>>>,
}

impl Players {
    /// A new connection's end of `player`'s channel (made with the first).
    pub(super) fn subscribe(&self, player: &PlayerId) -> broadcast::Receiver<Event> {
        lock(&self.channels)
            .entry(player.clone())
            .or_insert_with(|| broadcast::channel(EVENTS_KEPT).0)
            .subscribe()
    }

    /// Tells `player`'s connections here `event` (nobody listening is no failure).
    pub(super) fn tell(&self, player: &PlayerId, event: Event) {
        if let Some(channel) = lock(&self.channels).get(player) {
            let _ = channel.send(event);
        }
    }

    /// Whether `player` has a connection here now.
    pub(super) fn signed_in(&self, player: &PlayerId) -> bool {
        lock(&self.channels)
            .get(player)
            .is_some_and(|channel| channel.receiver_count() > 0)
    }

    /// The players with a connection here now.
    pub(super) fn online(&self) -> Vec<PlayerId> {
        lock(&self.channels)
            .iter()
            .filter(|(_, channel)| channel.receiver_count() > 0)
            .map(|(player, _)| player.clone())
            .collect()
    }

    /// Lets go of the channels nobody listens to.
    pub(super) fn let_go_unheard(&self) {
        let mut channels = lock(&self.channels);
        channels.retain(|_, channel| channel.receiver_count() > 0);
        let keep = channels.len() * 2;
        channels.shrink_to(keep);
    }

    /// How many channels are held.
    pub(super) fn held(&self) -> usize {
        lock(&self.channels).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::GameId;

    #[test]
    fn a_player_is_told_on_every_connection_and_let_go_when_none_is_left() {
        let players = Players::default();
        let ann = PlayerId("ann".into());
        let bo = PlayerId("bo".into());
        let stale = |g: &str| Event::Stale {
            game: GameId(g.into()),
        };
        // Nobody listening: told to no one, and nothing held for it.
        players.tell(&ann, stale("g0"));
        assert_eq!(players.held(), 0);
        let mut first = players.subscribe(&ann);
        let mut second = players.subscribe(&ann);
        assert!(players.signed_in(&ann) && !players.signed_in(&bo));
        players.tell(&ann, stale("g1"));
        assert_eq!(first.try_recv().unwrap(), stale("g1"));
        assert_eq!(second.try_recv().unwrap(), stale("g1"));
        assert_eq!(players.online(), vec![ann.clone()]);
        drop((first, second));
        assert!(!players.signed_in(&ann));
        assert_eq!(players.held(), 1);
        players.let_go_unheard();
        assert_eq!(players.held(), 0);
    }
}
