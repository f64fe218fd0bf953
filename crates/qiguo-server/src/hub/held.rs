//! Which games and players the server holds in memory: only those in use. A game is held
//! while someone follows it, a search runs on it or something is due on it, and let go once
//! none is so; its followers' channel exists while someone listens, and a player's own channel
//! while one of their connections does. A game nobody holds is found again by the database's
//! `due_ms` when its time comes (a correspondence game's computer, an overdue move), or loaded
//! when a player opens it.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use super::{Hub, Shared, lock};
use crate::log::note;
use crate::store::{GameId, StoreError};

/// The most games due that one look at the database loads.
pub(super) const DUE_AT_ONCE: u32 = 500;

/// The games held in memory, by id: the room every request about a game goes through first.
/// A game is taken out only while nothing else holds it.
#[derive(Default)]
pub(super) struct Held {
    games: Mutex<HashMap<GameId, Shared>>,
}

impl Held {
    /// Game `id`, if held.
    pub(super) fn get(&self, id: &GameId) -> Option<Shared> {
        lock(&self.games).get(id).cloned()
    }

    /// Whether game `id` is held.
    pub(super) fn contains(&self, id: &GameId) -> bool {
        lock(&self.games).contains_key(id)
    }

    /// Holds `live` as game `id`, unless that game is held already: the one held is returned.
    pub(super) fn insert(&self, id: GameId, live: Shared) -> Shared {
        lock(&self.games).entry(id).or_insert(live).clone()
    }

    /// Every game held, to look at one by one outside the room's lock.
    pub(super) fn all(&self) -> Vec<(GameId, Shared)> {
        lock(&self.games)
            .iter()
            .map(|(id, live)| (id.clone(), live.clone()))
            .collect()
    }

    /// The ids of the games held.
    pub(super) fn ids(&self) -> Vec<GameId> {
        lock(&self.games).keys().cloned().collect()
    }

    /// How many games are held.
    pub(super) fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// Lets go of the games `idle` that nobody took meanwhile (a follower or a request holds a
    /// clone of its game), and of the room the map kept for more.
    fn let_go(&self, idle: &[GameId]) {
        let mut games = lock(&self.games);
        for id in idle {
            if let Some(live) = games.get(id)
                && Arc::strong_count(live) == 1
            {
                games.remove(id);
            }
        }
        let keep = games.len() * 2;
        games.shrink_to(keep);
    }
}

impl Hub {
    /// Loads the games whose time has come that are not held yet, and starts what is due on
    /// them; a game found not due after all (adjourned, say) gets its time put right in the
    /// database. Returns how many were loaded.
    pub async fn load_due(self: &Arc<Self>) -> Result<usize, StoreError> {
        let now = self.store.now();
        let due = self.store.due_games(now, DUE_AT_ONCE).await?;
        let mut loaded = 0;
        for id in due {
            if self.held.contains(&id) {
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
        let held = self.held.all();
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
        self.held.let_go(&idle);
        self.players.let_go_unheard();
        idle.len()
    }

    /// Games and players' channels held now.
    pub fn held(&self) -> (usize, usize) {
        (self.held.len(), self.players.held())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::Live;
    use crate::live::LiveGame;

    fn game(id: &str) -> Shared {
        let mut stored = crate::hub::tests::stored_before_the_checks();
        stored.id = GameId(id.into());
        Arc::new(tokio::sync::Mutex::new(Live {
            game: LiveGame::from(stored),
            events: None,
            thinking: false,
            talk: 0,
        }))
    }

    #[test]
    fn a_game_is_held_once_and_let_go_only_when_nothing_else_holds_it() {
        let held = Held::default();
        let (a, b) = (GameId("a".into()), GameId("b".into()));
        let first = held.insert(a.clone(), game("a"));
        let again = held.insert(a.clone(), game("a"));
        assert!(Arc::ptr_eq(&first, &again), "the game held is kept");
        drop(again);
        held.insert(b.clone(), game("b"));
        assert_eq!(held.len(), 2);
        let mut ids = held.ids();
        ids.sort_by(|x, y| x.0.cmp(&y.0));
        assert_eq!(ids, vec![a.clone(), b.clone()]);
        // `first` is a request still using game a: only b goes.
        held.let_go(&[a.clone(), b.clone()]);
        assert!(held.contains(&a) && !held.contains(&b));
        assert!(held.get(&b).is_none());
        drop(first);
        held.let_go(std::slice::from_ref(&a));
        assert_eq!(held.len(), 0);
        assert!(held.all().is_empty());
    }
}
