//! Who has a game open: the connections of each player following each game on this server,
//! told to the game's followers when a player comes or goes, and noted in the database every
//! [`SEEN_EVERY`] so that other servers on it count them present for [`PRESENT_FOR`].

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use super::lock;
use crate::store::{GameId, PlayerId};

/// How long after a player was last seen with a game open they count as absent (servers note
/// the players they serve every [`SEEN_EVERY`]).
pub const PRESENT_FOR: Duration = Duration::from_secs(30);

/// How often a server notes in the database which players have their games open.
pub const SEEN_EVERY: Duration = Duration::from_secs(10);

/// The presence room: how many connections of each player follow each game on this server.
/// It owns that count alone; the hub tells the followers and notes it in the database.
#[derive(Debug, Default)]
pub(super) struct Presence {
    open: Mutex<HashMap<(GameId, PlayerId), usize>>,
}

impl Presence {
    /// One more (`true`) or one fewer connection of `player` follows `game`: whether that made
    /// the player come (their first connection) or go (their last).
    pub(super) fn follow(&self, game: &GameId, player: &PlayerId, on: bool) -> bool {
        let mut open = lock(&self.open);
        let key = (game.clone(), player.clone());
        let count = open.entry(key.clone()).or_insert(0);
        if on {
            *count += 1;
            *count == 1
        } else {
            let was = *count;
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&key);
            }
            was == 1
        }
    }

    /// Whether `player` has `game` open on this server.
    pub(super) fn here(&self, game: &GameId, player: &PlayerId) -> bool {
        lock(&self.open).contains_key(&(game.clone(), player.clone()))
    }

    /// Every game and player with the game open here.
    pub(super) fn everyone(&self) -> Vec<(GameId, PlayerId)> {
        lock(&self.open).keys().cloned().collect()
    }

    /// The games someone has open here.
    pub(super) fn games_open(&self) -> HashSet<GameId> {
        lock(&self.open)
            .keys()
            .map(|(game, _)| game.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_comes_with_the_first_connection_and_goes_with_the_last() {
        let presence = Presence::default();
        let (game, other) = (GameId("g".into()), GameId("h".into()));
        let ann = PlayerId("ann".into());
        assert!(
            presence.follow(&game, &ann, true),
            "the first connection: she comes"
        );
        assert!(!presence.follow(&game, &ann, true), "a second: nothing new");
        assert!(presence.here(&game, &ann));
        assert!(!presence.here(&other, &ann));
        assert!(
            !presence.follow(&game, &ann, false),
            "one of two closed: still here"
        );
        assert!(
            presence.follow(&game, &ann, false),
            "the last closed: she goes"
        );
        assert!(!presence.here(&game, &ann));
        assert!(presence.games_open().is_empty());
        // A close never seen opened changes nothing (and never underflows).
        assert!(!presence.follow(&other, &ann, false));
        assert!(presence.everyone().is_empty());
    }
}
