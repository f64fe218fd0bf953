//! The computers of computers' seats and the stand-ins for absent players: a search in its
//! lane ([`super::searches`]) when a game's turn is due, and the clock that looks every second
//! for games with a move due.

use std::sync::Arc;
use std::time::Duration;

use qiguo_rules::Move;

use super::presence::SEEN_EVERY;
use super::searches::SearchAsk;
use super::{Hub, Shared};
use crate::live::{Due, Mover};
use crate::log::note;
use crate::store::{GameId, PlayerId, StoreError};
use tracing::Instrument;

impl Hub {
    /// A computer of the quick pace takes seat `seat` over from `player` (absent past the grace,
    /// holding it since move `from`), in the database and then here; the followers are told,
    /// and the computer plays on.
    async fn replace_absent(
        self: &Arc<Self>,
        live: &Shared,
        seat: u8,
        player: &PlayerId,
        from: u32,
    ) {
        let Some(_open) = self.hold().await else {
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
            Err(StoreError::SeatNotFree(_)) => {
                // Another server replaced them, or they came back to it: read it again.
                drop(g);
                self.refresh(&id).await;
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
        self.lobby.touch();
        self.wake(&id);
    }

    /// Starts a computer or stand-in on the game's turn if one is due and none is thinking.
    pub(super) fn wake(self: &Arc<Self>, id: &GameId) {
        let hub = self.clone();
        // A span per game's turn: the computer's lines (and the store's) carry the game.
        let span = tracing::info_span!(target: "qiguo_server", "game", game = %id.0);
        let id = id.clone();
        tokio::spawn(
            async move {
                if let Ok(live) = hub.live(&id).await {
                    hub.think(&live).await;
                }
            }
            .instrument(span),
        );
    }

    /// What is due in the game now, unless a search already runs on it.
    pub(super) fn due(&self, live: &super::Live) -> Option<Due> {
        if live.thinking {
            return None;
        }
        live.game.due(self.store.now(), &self.presence(&live.game))
    }

    async fn think(self: &Arc<Self>, live: &Shared) {
        let (job, ply, mover) = {
            let mut g = live.lock().await;
            let (level, mover) = match self.due(&g) {
                None => return,
                Some(Due::Pass) => {
                    let ply = g.game.game().len() as u32;
                    drop(g);
                    let Some(_open) = self.hold().await else {
                        return;
                    };
                    if let Err(e) = self.make(live, Mover::Overdue, ply, Move::PASS).await {
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
                if self.due(&g).is_none() {
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
                attended: g.game.attended(&self.presence(&g.game)),
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
            && let Some(_open) = self.hold().await
            && let Err(e) = self.make(live, mover, ply, mv).await
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

    /// Every second: computers and stand-ins that are due; every [`SEEN_EVERY`]: notes the
    /// players present here, lets go of the games nobody uses and loads those whose time has
    /// come.
    pub(super) async fn clock(hub: std::sync::Weak<Hub>) {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let mut seen_at = tokio::time::Instant::now();
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade() else {
                return;
            };
            // Only games with a move due wake (a game busy elsewhere is looked at next time).
            for (id, live) in hub.held.all() {
                if live.try_lock().is_ok_and(|g| hub.due(&g).is_some()) {
                    hub.wake(&id);
                }
            }
            if seen_at.elapsed() >= SEEN_EVERY {
                seen_at = tokio::time::Instant::now();
                hub.note_seen().await;
                if hub.mail_offered() {
                    hub.note_online().await;
                }
                let gone = hub.let_go();
                if gone > 0 {
                    let (games, players) = hub.held();
                    note!(
                        hub.log,
                        INFO,
                        "games nobody uses let go",
                        gone = gone,
                        games = games,
                        players = players
                    );
                }
                if let Err(e) = hub.load_due().await {
                    note!(hub.log, WARN, "games due not read", why = e);
                }
            }
        }
    }
}
