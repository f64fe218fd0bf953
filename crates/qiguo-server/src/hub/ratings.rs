//! Ratings: a finished rated game's ratings applied (at once when it ends, and at start for any
//! a stopped server left), the seats of held games showing their people's new ratings, and the
//! leaderboard and a player's history asked for. The slice hears of each game that ends from the
//! core's channel.

use std::sync::Arc;

use qiguo_protocol::{RATINGS_LISTED, RatingChange, RatingFamily, RatingHistory, RatingRow};
use tokio::sync::mpsc;

use super::core::Core;
use super::shown_name;
use crate::log::{Log, note};
use crate::protocol::{Answer, Refusal, clean_name};
use crate::rated;
use crate::store::{GameId, PlayerId, Rerated, Store, StoreError};

/// How many rated games left unrated by a stopped server one start rates.
const UNRATED_AT_START: u32 = 10_000;

/// The ratings slice.
pub(crate) struct Ratings {
    /// The games held, whose seats show their people's ratings, and the leave to change the
    /// database.
    core: Arc<Core>,
    store: Store,
    log: Log,
}

impl Ratings {
    /// Ratings on `store`, shown in the games `core` holds.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log) -> Ratings {
        Ratings { core, store, log }
    }

    /// Rates the games a stopped server left unrated, then each game as it ends (`ended`), on
    /// a task of its own that stops with the hub.
    pub(super) fn start(self: &Arc<Self>, mut ended: mpsc::UnboundedReceiver<GameId>) {
        let ratings = Arc::downgrade(self);
        tokio::spawn(async move {
            if let Some(r) = ratings.upgrade() {
                match r.rate_unrated().await {
                    Ok(0) => {}
                    Ok(games) => note!(r.log, INFO, "games left unrated, rated", games = games),
                    Err(e) => note!(r.log, ERROR, "games left unrated not read", error = e),
                }
            }
            while let Some(id) = ended.recv().await {
                let Some(r) = ratings.upgrade() else { return };
                r.rate(&id).await;
            }
        });
    }

    /// Applies finished game `id`'s ratings, if it is rated and not yet (on any server), and
    /// shows them in the held games of its people. Says what it did, or why not, in the log.
    async fn rate(&self, id: &GameId) {
        let Some(_open) = self.core.hold().await else {
            return;
        };
        match self.store.rate_game(id).await {
            Ok(rerated) => {
                for change in &rerated {
                    let before = change.before.map(|(r, _)| r).unwrap_or_default();
                    note!(
                        self.log,
                        INFO,
                        "rated",
                        game = id.0,
                        player = change.player.0,
                        place = change.place,
                        before = before.shown(),
                        after = change.after.0.shown()
                    );
                }
                if !rerated.is_empty() {
                    self.show_ratings(id, &rerated).await;
                }
            }
            Err(e) => note!(self.log, ERROR, "game not rated", game = id.0, error = e),
        }
    }

    /// The rated games a stopped server left unrated, rated now in the order they finished.
    pub(super) async fn rate_unrated(&self) -> Result<usize, StoreError> {
        let games = self.store.unrated_games(UNRATED_AT_START).await?;
        for id in &games {
            self.rate(id).await;
        }
        Ok(games.len())
    }

    /// The held games of the people of game `id` (the family's) show their new ratings.
    async fn show_ratings(&self, id: &GameId, rerated: &[Rerated]) {
        let family = match self.core.held.get(id) {
            Some(live) => live.lock().await.game.family(),
            None => match self.store.load_game(id).await {
                Ok(stored) => RatingFamily::of(&stored.pace),
                Err(_) => return,
            },
        };
        for (_, live) in self.core.held.all() {
            let mut g = live.lock().await;
            if g.game.family() != family {
                continue;
            }
            for change in rerated {
                g.game.set_rating(&change.player, change.after);
            }
        }
    }

    /// The leaderboard of `family` and the rating and history of the player called `of` (the
    /// asker when `None`).
    pub(crate) async fn ratings(
        &self,
        asker: &PlayerId,
        family: RatingFamily,
        of: Option<&str>,
    ) -> Result<Answer, Refusal> {
        let player = match of {
            None => asker.clone(),
            Some(name) => {
                let name = clean_name(name)?;
                self.store
                    .player_named(&name)
                    .await?
                    .ok_or(Refusal::NoPlayerNamed { name })?
            }
        };
        let listed = RATINGS_LISTED as u32;
        let board = self
            .store
            .leaderboard(family, listed)
            .await?
            .into_iter()
            .enumerate()
            .map(|(i, row)| RatingRow {
                place: i as u32 + 1,
                name: shown_name(&row.name),
                rating: rated::shown_left(row.rating, row.left),
            })
            .collect();
        let record = self.store.rating(&player, family).await?;
        let changes = self
            .store
            .rating_history(&player, family, listed)
            .await?
            .into_iter()
            .map(|step| RatingChange {
                game: step.game,
                at_ms: step.at_ms,
                place: step.place,
                sides: step.sides,
                share: (step.weight.clamp(0.0, 1.0) * 100.0).round() as u8,
                points: step.after.shown(),
                change: step.after.shown() - step.before.shown(),
            })
            .collect();
        Ok(Answer::Ratings {
            family,
            board,
            player: RatingHistory {
                name: shown_name(&record.name),
                rating: rated::shown_left(record.rating, record.left),
                changes,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::testing::Bench;

    #[tokio::test]
    async fn the_ratings_of_a_player_named_and_of_nobody() {
        let bench = Bench::new("ratings").await;
        let ratings = Ratings::new(bench.core.clone(), bench.store.clone(), bench.log.clone());
        let ann = bench.player("Ann").await;
        bench.player("Bob").await;
        let Answer::Ratings {
            family,
            board,
            player,
        } = ratings
            .ratings(&ann, RatingFamily::Live, Some("bob"))
            .await
            .unwrap()
        else {
            panic!("not the ratings");
        };
        assert_eq!(family, RatingFamily::Live);
        assert!(board.is_empty(), "nobody rated yet");
        assert_eq!(player.name, "Bob");
        assert!(player.changes.is_empty());
        assert_eq!(
            ratings.ratings(&ann, RatingFamily::Live, Some("Cy")).await,
            Err(Refusal::NoPlayerNamed { name: "Cy".into() })
        );
        assert_eq!(ratings.rate_unrated().await.unwrap(), 0);
    }
}
