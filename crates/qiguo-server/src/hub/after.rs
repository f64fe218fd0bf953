//! After the game: the finished games of a player, a page at a time, and rematches.

use std::sync::Arc;

use super::core::Core;
use super::shown_name;
use crate::log::{Log, escaped, note};
use crate::protocol::{Answer, Event, FINISHED_PER_PAGE, GameSummary, Refusal};
use crate::store::{GameId, PlayerId, Store};

/// The slice of what comes after a game.
pub(crate) struct After {
    /// The games held, and the making of a new one.
    core: Arc<Core>,
    store: Store,
    log: Log,
}

impl After {
    /// Finished games read from `store`; rematches made in `core`.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log) -> After {
        After { core, store, log }
    }

    /// Page `page` of `player`'s finished games, the newest first (read from the database,
    /// none of them held).
    pub(crate) async fn finished(&self, player: &PlayerId, page: u32) -> Result<Answer, Refusal> {
        let skip = page.saturating_mul(FINISHED_PER_PAGE);
        // One more than a page says whether another follows.
        let mut ids = self
            .store
            .finished_games_of(player, skip, FINISHED_PER_PAGE + 1)
            .await?;
        let more = ids.len() as u32 > FINISHED_PER_PAGE;
        ids.truncate(FINISHED_PER_PAGE as usize);
        let mut games: Vec<GameSummary> = Vec::with_capacity(ids.len());
        for id in ids {
            let game = self.core.read_unheld(&id).await?;
            games.push(game.summary(player, &self.core.present(&game)));
        }
        Ok(Answer::Finished { games, page, more })
    }

    /// `player` offers the other people of finished game `id` a rematch: the same start,
    /// seats and pace, each person seated where they were (one who has as many games in
    /// progress as allowed finds their seat open, to take with the code).
    pub(crate) async fn rematch(&self, player: &PlayerId, id: &GameId) -> Result<Answer, Refusal> {
        let live = self.core.game_of_yours(id).await?;
        let (new, others) = {
            let g = live.lock().await;
            let new = g.game.rematch(player)?;
            let others: Vec<(u8, PlayerId)> = g
                .game
                .seats()
                .iter()
                .enumerate()
                .filter_map(|(seat, s)| Some((seat as u8, s.holder.clone()?)))
                .filter(|(_, holder)| holder != player)
                .collect();
            (new, others)
        };
        let Answer::Created { game, code } = self.core.create(player, new).await? else {
            return Err(Refusal::TryAgain);
        };
        let rematch = self.core.live(&game).await?;
        let by = self.store.player_name(player).await?;
        for (seat, other) in others {
            if self.core.room_for_a_game(&other).await.is_err() {
                continue;
            }
            let name = shown_name(&self.store.take_seat(&game, seat, &other).await?);
            {
                let mut g = rematch.lock().await;
                let rating = self.core.rating_held(&other, g.game.family()).await?;
                let seated = g.game.seat(seat, &other, &name, rating);
                g.tell(seated);
            }
            self.core.tell_player(
                &other,
                Event::Rematch {
                    game: id.clone(),
                    rematch: game.clone(),
                    by: by.clone(),
                },
            );
        }
        note!(
            self.log,
            INFO,
            "rematch offered",
            game = game.0,
            of = id.0,
            by = player.0,
            name = escaped(&by)
        );
        self.core.wake(&game);
        Ok(Answer::Created { game, code })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::testing::Bench;
    use crate::store::SeatPlan;

    #[tokio::test]
    async fn finished_games_are_listed_and_a_rematch_asks_for_a_game_over() {
        let bench = Bench::new("after").await;
        let after = After::new(bench.core.clone(), bench.store.clone(), bench.log.clone());
        let ann = bench.player("Ann").await;
        let game = bench.game(&ann, SeatPlan::Open).await;
        assert_eq!(
            after.finished(&ann, 0).await,
            Ok(Answer::Finished {
                games: Vec::new(),
                page: 0,
                more: false
            }),
            "a game under way is not finished"
        );
        assert!(
            after.rematch(&ann, &game).await.is_err(),
            "no rematch of a game under way"
        );
        let bob = bench.player("Bob").await;
        assert_eq!(
            after.rematch(&bob, &game).await,
            Err(Refusal::NoGame),
            "nor of someone else's"
        );
        bench.store.finish(&game).await.unwrap();
        let Answer::Finished { games, more, .. } = after.finished(&ann, 0).await.unwrap() else {
            panic!("not the finished games");
        };
        assert_eq!((games.len(), more), (1, false));
        assert_eq!(games[0].id, game);
    }
}
