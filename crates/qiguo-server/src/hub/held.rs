//! Which games and players the server holds in memory: only those in use. A game is held
//! while someone follows it, a search runs on it or something is due on it, and let go once
//! none is so; its followers' channel exists while someone listens, and a player's own channel
//! while one of their connections does. A game nobody holds is found again by the database's
//! `due_ms` when its time comes (a correspondence game's computer, an overdue move), or loaded
//! when a player opens it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{Shared, lock};
use crate::store::GameId;

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
    pub(super) fn let_go(&self, idle: &[GameId]) {
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
