//! Reviews: every finished quick, table or rated game reviewed move by move, and any finished
//! game a player asks for. The work is [`crate::reviewing`]'s (the same as a worker's that only
//! reviews); this slice starts this server's reviewers, giving way to its computers, wakes them
//! when a game ends, and answers where a game's review stands.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::core::Core;
use crate::log::Log;
use crate::metrics::Metrics;
use crate::protocol::{Answer, Refusal, ReviewStatus, ReviewView};
use crate::reviewing::{GiveWay, Reviewing, Tell};
use crate::store::reviews::ReviewState;
use crate::store::{GameId, PlayerId, Store};

/// The reviews slice.
pub(crate) struct Reviews {
    store: Store,
    /// This server's reviewers; `None` where it leaves the reviews to workers.
    reviewing: Option<Arc<Reviewing>>,
}

impl Reviews {
    /// Reviews on `store`: `reviewers` games reviewed at once here (none: the workers on the
    /// database review them), at `nodes` positions a position, giving way to `give_way`'s live
    /// searches, counted in `metrics`; woken by each game that `ended`.
    pub(super) fn start(
        core: &Arc<Core>,
        store: Store,
        log: Log,
        metrics: Arc<Metrics>,
        reviewers: usize,
        nodes: u64,
        give_way: Arc<GiveWay>,
        mut ended: mpsc::UnboundedReceiver<GameId>,
    ) -> Reviews {
        let reviewing = (reviewers > 0).then(|| {
            let teller = Arc::downgrade(core);
            let tell: Tell = Arc::new(move |player, event| {
                if let Some(core) = teller.upgrade() {
                    core.tell_player(player, event);
                }
            });
            let reviewing = Reviewing::new(
                store.clone(),
                log,
                nodes,
                Some(give_way),
                tell,
                Some(metrics),
            );
            reviewing.start(reviewers, core.closing());
            let woken = Arc::downgrade(&reviewing);
            tokio::spawn(async move {
                while ended.recv().await.is_some() {
                    let Some(reviewing) = woken.upgrade() else {
                        return;
                    };
                    reviewing.look();
                }
            });
            reviewing
        });
        Reviews { store, reviewing }
    }

    /// `player` asks for finished game `game`'s review: where it stands (done at once if it
    /// was), and the reviewers told to look.
    pub(crate) async fn review(&self, player: &PlayerId, game: GameId) -> Result<Answer, Refusal> {
        let state = self.store.ask_review(&game, player).await?;
        if let Some(reviewing) = &self.reviewing {
            reviewing.look();
        }
        let status = match state {
            ReviewState::NotAsked | ReviewState::Waiting => ReviewStatus::Waiting,
            ReviewState::Done { json, .. } => match serde_json::from_str(&json) {
                Ok(review) => ReviewStatus::Done {
                    review: Box::new(review),
                },
                Err(e) => ReviewStatus::Failed {
                    why: format!("the review kept is unreadable: {e}"),
                },
            },
            ReviewState::Failed(why) => ReviewStatus::Failed { why },
        };
        Ok(Answer::Review(Box::new(ReviewView { game, status })))
    }
}
