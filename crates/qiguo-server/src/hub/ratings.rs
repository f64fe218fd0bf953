//! Ratings: a finished rated game's ratings applied (at once when it ends, and at start for any
//! a stopped server left), the seats of held games showing their people's new ratings, and the
//! leaderboard and a player's history asked for.

use qiguo_protocol::{RATINGS_LISTED, RatingChange, RatingFamily, RatingHistory, RatingRow};
use qiguo_rating::Rating;

use crate::rated;
use crate::store::Rerated;

// The coordinator's own part: the hub's private types and helpers are this part's too.
use super::*;

/// How many rated games left unrated by a stopped server one start rates.
const UNRATED_AT_START: u32 = 10_000;

impl Hub {
    /// `player`'s rating in `family`, as kept (`None`: no rated game yet).
    pub(super) async fn rating_held(
        &self,
        player: &PlayerId,
        family: RatingFamily,
    ) -> Result<Option<(Rating, u32)>, StoreError> {
        Ok(self.store.rating(player, family).await?.rating)
    }

    /// Rates finished game `id` soon, beside the moves (a rating never holds a move up); a server
    /// stopped before it is done rates the game when it starts again ([`Hub::rate_unrated`]).
    pub(super) fn rate_soon(self: &Arc<Self>, id: &GameId) {
        let hub = Arc::downgrade(self);
        let id = id.clone();
        tokio::spawn(async move {
            if let Some(hub) = hub.upgrade() {
                hub.rate(&id).await;
            }
        });
    }

    /// Applies finished game `id`'s ratings, if it is rated and not yet (on any server), and
    /// shows them in the held games of its people. Says what it did, or why not, in the log.
    async fn rate(&self, id: &GameId) {
        let Some(_open) = self.hold().await else {
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
        let family = match self.held.get(id) {
            Some(live) => live.lock().await.game.family(),
            None => match self.store.load_game(id).await {
                Ok(stored) => RatingFamily::of(&stored.pace),
                Err(_) => return,
            },
        };
        for (_, live) in self.held.all() {
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
