//! Which games and players the server holds in memory: only those in use. A game is held
//! while someone follows it, a search runs on it or something is due on it, and let go once
//! none is so; its followers' channel exists while someone listens, and a player's own channel
//! while one of their connections does. A game nobody holds is found again by the database's
//! `due_ms` when its time comes (a correspondence game's computer, an overdue move), or loaded
//! when a player opens it.

use std::collections::HashSet;
use std::sync::Arc;

use super::{Hub, Shared, lock};
use crate::log::note;
use crate::store::{GameId, StoreError};

/// The most games due that one look at the database loads.
pub(super) const DUE_AT_ONCE: u32 = 500;

impl Hub {
    /// Loads the games whose time has come that are not held yet, and starts what is due on
    /// them; a game found not due after all (adjourned, say) gets its time put right in the
    /// database. Returns how many were loaded.
    pub async fn load_due(self: &Arc<Self>) -> Result<usize, StoreError> {
        let now = self.store.now();
        let due = self.store.due_games(now, DUE_AT_ONCE).await?;
        let mut loaded = 0;
        for id in due {
            if lock(&self.games).contains_key(&id) {
                continue;
            }
            let live = match self.load(&id).await {
                Ok(live) => live,
                Err(e) => {
                    note!(self.log, ERROR, "game not loaded", game = id.0, why = e);
                    // Not looked at again until someone opens it.
                    let _ = self.store.set_due(&id, None).await;
                    continue;
                }
            };
            loaded += 1;
            let g = live.lock().await;
            if self.due(&g).is_none() {
                let next = g.game.due_in().map(|d| g.game.moved_ms().saturating_add(d));
                let next = next.filter(|&at| at > now);
                drop(g);
                if let Err(e) = self.store.set_due(&id, next).await {
                    note!(self.log, WARN, "due time not kept", game = id.0, why = e);
                }
            } else {
                drop(g);
                self.wake(&id);
            }
        }
        Ok(loaded)
    }

    /// Lets go of the games nobody uses (no follower, no search, nothing due now, no take-back
    /// being asked) and of the channels nobody listens to. Returns how many games were let go.
    /// The hub's clock calls it (and [`Hub::load_due`]) every [`super::SEEN_EVERY`].
    pub fn let_go(&self) -> usize {
        let held: Vec<(GameId, Shared)> = lock(&self.games)
            .iter()
            .map(|(id, live)| (id.clone(), live.clone()))
            .collect();
        let opened: HashSet<GameId> = self.presence.games_open();
        let mut idle = Vec::new();
        for (id, live) in held {
            // A game busy now is looked at next time.
            let Ok(mut g) = live.try_lock() else {
                continue;
            };
            if !g.followed() {
                g.events = None;
            }
            let unused = !g.followed()
                && !g.thinking
                && g.game.take_back().is_none()
                && self.due(&g).is_none()
                && !opened.contains(&id);
            if unused {
                idle.push(id);
            }
        }
        {
            let mut games = lock(&self.games);
            for id in &idle {
                // Only if nobody took it meanwhile (a follower holds a clone of it).
                if let Some(live) = games.get(id)
                    && Arc::strong_count(live) == 1
                {
                    games.remove(id);
                }
            }
            let keep = games.len() * 2;
            games.shrink_to(keep);
        }
        self.players.let_go_unheard();
        idle.len()
    }

    /// Games and players' channels held now.
    pub fn held(&self) -> (usize, usize) {
        (lock(&self.games).len(), self.players.held())
    }
}
