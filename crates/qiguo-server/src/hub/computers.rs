//! The computers of computers' seats and the stand-ins for absent players: woken by the core
//! when a game's turn may be due, a search in its lane ([`super::searches`]) on the one server
//! that claims the turn ([`super::claims`]), and its move made on the core.

use std::sync::Arc;

use qiguo_rules::Move;
use tokio::sync::mpsc;
use tracing::Instrument;

use super::Shared;
use super::claims::Claims;
use super::core::Core;
use super::searches::{SearchAsk, Searches};
use crate::live::{Due, Mover};
use crate::log::{Log, note};
use crate::protocol::Refusal;
use crate::store::{GameId, PlayerId, Store, StoreError};

/// The computers' slice: their searches and their claims among servers.
pub(crate) struct Computers {
    /// The games they move in.
    core: Arc<Core>,
    store: Store,
    log: Log,
    /// A thread per core, fair between games.
    searches: Searches,
    /// The turns this server claimed among servers on one database.
    claims: Claims,
}

impl Computers {
    /// The computers of `core`'s games, searching on `searches`, claiming turns with `claims`;
    /// they look at each game `wakes` names, on a task of their own, until the hub is gone.
    pub(super) fn start(
        core: Arc<Core>,
        store: Store,
        log: Log,
        searches: Searches,
        claims: Claims,
        mut wakes: mpsc::UnboundedReceiver<GameId>,
    ) -> Arc<Computers> {
        let computers = Arc::new(Computers {
            core,
            store,
            log,
            searches,
            claims,
        });
        let weak = Arc::downgrade(&computers);
        tokio::spawn(async move {
            while let Some(id) = wakes.recv().await {
                let Some(computers) = weak.upgrade() else {
                    return;
                };
                // A span per game's turn: the computer's lines (and the store's) carry the game.
                let span = tracing::info_span!(target: "qiguo_server", "game", game = %id.0);
                tokio::spawn(
                    async move {
                        if let Ok(live) = computers.core.live(&id).await {
                            computers.think(&live).await;
                        }
                    }
                    .instrument(span),
                );
            }
        });
        computers
    }

    /// The computers' searches waiting for a thread.
    pub(super) fn waiting(&self) -> usize {
        self.searches.waiting()
    }

    /// A computer of the quick pace takes seat `seat` over from `player` (absent past the grace,
    /// holding it since move `from`), in the database and then here; the followers are told,
    /// and the computer plays on.
    async fn replace_absent(&self, live: &Shared, seat: u8, player: &PlayerId, from: u32) {
        let Some(_open) = self.core.hold().await else {
            return;
        };
        let mut g = live.lock().await;
        let id = g.game.id.clone();
        let ply = g.game.game().len() as u32;
        let Some(level) = g.game.quick().map(|q| q.level()) else {
            return;
        };
        match self
            .store
            .replace_absent(&id, seat, player, from, ply, level)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Refused(Refusal::SeatTaken { .. })) => {
                // Another server replaced them, or they came back to it: read it again.
                drop(g);
                self.core.refresh(&id).await;
                return;
            }
            Err(e) => {
                note!(
                    self.log,
                    ERROR,
                    "absent player not replaced",
                    game = id.0,
                    why = e
                );
                return;
            }
        }
        if let Some(event) = g.game.replace_absent(seat) {
            g.tell(event);
        }
        note!(
            self.log,
            INFO,
            "absent player replaced",
            game = id.0,
            seat = seat,
            player = player.0,
            ply = ply
        );
        drop(g);
        self.core.touch_lobby();
        self.core.wake(&id);
    }

    async fn think(&self, live: &Shared) {
        let (job, ply, mover) = {
            let mut g = live.lock().await;
            let (level, mover) = match self.core.due(&g) {
                None => return,
                Some(Due::Pass) => {
                    let ply = g.game.game().len() as u32;
                    drop(g);
                    let Some(_open) = self.core.hold().await else {
                        return;
                    };
                    if let Err(e) = self.core.make(live, Mover::Overdue, ply, Move::PASS).await {
                        note!(self.log, ERROR, "an overdue pass not made", why = e);
                    }
                    return;
                }
                Some(Due::Search(level, mover)) => (level, mover),
            };
            // A quick game's person missing past the grace: a computer takes the kingdom over
            // for good, and it is offered to the next newcomer.
            if mover == Mover::StandIn
                && let Some((seat, player, from)) = g.game.replaceable(self.store.now())
            {
                drop(g);
                self.replace_absent(live, seat, &player, from).await;
                return;
            }
            // A player present through another server has no stand-in: their last sighting
            // there is read now, not when the game last changed.
            if self.store.is_postgres() && mover == Mover::StandIn {
                let id = g.game.id.clone();
                match self.store.seen_of(&id).await {
                    Ok(seen) => g.game.set_seen(&seen),
                    Err(e) => note!(self.log, WARN, "presence not read", why = e),
                }
                if self.core.due(&g).is_none() {
                    return;
                }
            }
            let game = g.game.game();
            let seed = g.game.id.0.bytes().fold(game.len() as u64, |h, b| {
                h.wrapping_mul(31).wrapping_add(u64::from(b))
            });
            let job = SearchAsk {
                pos: game.position().clone(),
                level,
                seed,
                attended: g.game.attended(&self.core.present(&g.game)),
            };
            let ply = game.len() as u32;
            g.thinking = true;
            (job, ply, mover)
        };
        // One server a turn: the one that claims it searches; the others hear its move.
        let id = live.lock().await.game.id.clone();
        let Some(claim) = self.claims.claim(&id, ply).await else {
            live.lock().await.thinking = false;
            return;
        };
        let result = self.searches.search(job).await;
        live.lock().await.thinking = false;
        if let Some(mv) = result
            && let Some(_open) = self.core.hold().await
            && let Err(e) = self.core.make(live, mover, ply, mv).await
        {
            note!(
                self.log,
                ERROR,
                "computer's move not made",
                game = id.0,
                why = e
            );
        }
        self.claims.release(claim).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::testing::Bench;
    use crate::protocol::Event;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn woken_the_computers_play_their_turns_until_a_person_is_to_move() {
        let bench = Bench::new("computers").await;
        let ann = bench.player("Ann").await;
        let game = bench.game_after_computers(&ann).await;
        let mut heard = bench.follow(&game).await;
        let mut ann_hears = bench.core.personal(&ann);
        let computers = Computers::start(
            bench.core.clone(),
            bench.store.clone(),
            bench.log.clone(),
            Searches::start(1, Arc::default()),
            Claims::new(bench.store.clone(), bench.log.clone()),
            bench.happenings.wakes,
        );
        // A live game is played while a person has it open; the game's making woke it already,
        // once more changes nothing.
        bench.core.follow(&game, &ann, true);
        bench.core.wake(&game);
        let mut moved = Vec::new();
        while moved.len() < 6 {
            match Bench::next(&mut heard).await {
                Event::Moved { ply, .. } => moved.push(ply),
                // Ann coming is told too.
                Event::Presence { seat: 6, .. } => {}
                other => panic!("not a move: {other:?}"),
            }
        }
        assert_eq!(
            moved,
            [0, 1, 2, 3, 4, 5],
            "each computer's turn once, in turn"
        );
        assert!(
            matches!(Bench::next(&mut ann_hears).await, Event::YourTurn { .. }),
            "the person to move is told"
        );
        assert_eq!(bench.store.load_game(&game).await.unwrap().game.len(), 6);
        assert_eq!(computers.waiting(), 0);
    }
}
