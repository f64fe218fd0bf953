//! Who has a game open: the connections of each player following each game on this server,
//! told to the game's followers when a player comes or goes, and noted in the database every
//! [`SEEN_EVERY`] so that other servers on it count them present for [`PRESENT_FOR`].

use std::sync::Arc;
use std::time::Duration;

use super::{Hub, lock};
use crate::live::LiveGame;
use crate::log::note;
use crate::protocol::Event;
use crate::store::{GameId, PlayerId, StoredSeat};

/// How long after a player was last seen with a game open they count as absent (servers note
/// the players they serve every [`SEEN_EVERY`]).
pub const PRESENT_FOR: Duration = Duration::from_secs(30);

/// How often a server notes in the database which players have their games open.
pub const SEEN_EVERY: Duration = Duration::from_secs(10);

impl Hub {
    /// Notes that one more (`true`) or one fewer connection of `player` follows `game`. When
    /// that makes the player come (their first connection) or go (their last), the game's
    /// followers are told, once the game is free (a caller may hold it).
    pub(crate) fn follow(self: &Arc<Self>, game: &GameId, player: &PlayerId, on: bool) {
        let changed = {
            let mut present = lock(&self.present);
            let key = (game.clone(), player.clone());
            let count = present.entry(key.clone()).or_insert(0);
            if on {
                *count += 1;
                *count == 1
            } else {
                let was = *count;
                *count = count.saturating_sub(1);
                if *count == 0 {
                    present.remove(&key);
                }
                was == 1
            }
        };
        if changed {
            let (hub, game, player) = (self.clone(), game.clone(), player.clone());
            tokio::spawn(async move { hub.tell_presence(&game, &player).await });
        }
    }

    /// Tells the followers of `game` whether `player` has it open here now, for each of their
    /// seats (as it is when told: a quick close and open tells twice the same).
    async fn tell_presence(&self, game: &GameId, player: &PlayerId) {
        let live = lock(&self.games).get(game).cloned();
        let Some(live) = live else {
            return;
        };
        let g = live.lock().await;
        let present = self.here(game, player);
        for seat in g.game.seats_of(player) {
            g.tell(Event::Presence {
                game: game.clone(),
                seat,
                present,
            });
        }
    }

    /// Whether `player` has `game` open on this server.
    fn here(&self, game: &GameId, player: &PlayerId) -> bool {
        lock(&self.present).contains_key(&(game.clone(), player.clone()))
    }

    /// Who counts as present in `game`, by seat: its holder has it open here, or was seen with
    /// it open on another server within [`PRESENT_FOR`].
    pub(super) fn presence(&self, game: &LiveGame) -> Vec<bool> {
        self.presence_in(&game.id, game.seats())
    }

    /// [`Hub::presence`] from a game's id and seats.
    pub(super) fn presence_in(&self, game: &GameId, seats: &[StoredSeat]) -> Vec<bool> {
        let now = self.store.now();
        seats
            .iter()
            .map(|s| {
                s.holder
                    .as_ref()
                    .is_some_and(|holder| self.here(game, holder))
                    || s.seen_ms
                        .is_some_and(|seen| now - seen < PRESENT_FOR.as_millis() as i64)
            })
            .collect()
    }

    /// Notes in the database the players who have games open here.
    pub(super) async fn note_seen(&self) {
        let present: Vec<(GameId, PlayerId)> = lock(&self.present).keys().cloned().collect();
        for (game, player) in present {
            if let Err(e) = self.store.seen(&game, &player).await {
                note!(self.log, WARN, "presence not noted", why = e);
            }
        }
    }
}
