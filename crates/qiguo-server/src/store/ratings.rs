//! The ratings' rows: each person's rating per pace family, what each rated game did to it, and
//! the one transaction in which a finished rated game's ratings are applied, once.

use qiguo_protocol::RatingFamily;
use qiguo_rating::{Placed, Rating};

use crate::rated::{self, Side, Who};

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

/// What a rated game did to one person's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rerated {
    /// The person.
    pub player: PlayerId,
    /// Their place, from 1.
    pub place: u8,
    /// Their rating and rated games before (`None`: a new player's).
    pub before: Option<(Rating, u32)>,
    /// Their rating and rated games after.
    pub after: (Rating, u32),
}

/// One row of a leaderboard, or a player's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRecord {
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// Their rating and rated games (`None`: no rated game yet).
    pub rating: Option<(Rating, u32)>,
    /// The rated games they left.
    pub left: u32,
}

/// One rated game in a player's history.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingStep {
    /// The game.
    pub game: GameId,
    /// When it was rated.
    pub at_ms: i64,
    /// The player's place and the number of sides.
    pub place: u8,
    /// How many sides were placed.
    pub sides: u8,
    /// The share of the seat's turns the player played.
    pub weight: f64,
    /// Before and after.
    pub before: Rating,
    /// After.
    pub after: Rating,
}

impl Store {
    /// Applies the ratings of finished rated game `id`, once: the places are worked out from the
    /// game ([`rated::sides`]), every person's rating in the game's pace family is read, moved
    /// and written with the game marked rated, in one transaction (on PostgreSQL the game's and
    /// the people's rows are locked, so that two servers never rate a game twice nor lose one
    /// game's change to another's). Nothing happens for a game not rated, not finished or rated
    /// already. Returns what changed.
    pub async fn rate_game(&self, id: &GameId) -> Result<Vec<Rerated>, StoreError> {
        let stored = self.load_game(id).await?;
        let family = RatingFamily::of(&stored.pace);
        let sides = rated::sides(&stored);
        let mut tx = self.pool.begin().await?;
        let lock = if self.postgres { " FOR UPDATE" } else { "" };
        let row = sqlx::query(&format!(
            "SELECT rated, rated_ms, finished_ms FROM games WHERE id = $1{lock}"
        ))
        .bind(&id.0)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::Refused(Refusal::NoGame))?;
        let due = row.try_get::<i64, _>("rated")? == 1
            && row.try_get::<Option<i64>, _>("rated_ms")?.is_none()
            && row.try_get::<Option<i64>, _>("finished_ms")?.is_some();
        if !due || sides.is_empty() {
            return Ok(Vec::new());
        }
        // The people's rows locked in one order, so that two games rated at once never wait
        // on each other in a circle.
        let mut people: Vec<&PlayerId> = sides
            .iter()
            .filter_map(|s| match &s.who {
                Who::Person(p) => Some(p),
                Who::Computer(_) => None,
            })
            .collect();
        people.sort();
        for player in &people {
            lock_player(&mut tx, player, self.postgres).await?;
        }
        let mut before = Vec::with_capacity(sides.len());
        for side in &sides {
            before.push(match &side.who {
                Who::Person(player) => rating_in(&mut tx, player, family).await?,
                Who::Computer(_) => None,
            });
        }
        let placed: Vec<Placed> = sides
            .iter()
            .zip(&before)
            .map(|(side, before)| placed(side, *before))
            .collect();
        let after = qiguo_rating::rate(&placed);
        let now = self.now();
        let mut rerated = Vec::new();
        for ((side, before), after) in sides.iter().zip(&before).zip(&after) {
            let Who::Person(player) = &side.who else {
                continue;
            };
            let old = before.map(|(r, _)| r).unwrap_or_default();
            let games = before.map_or(0, |(_, n)| n) + 1;
            sqlx::query(
                "INSERT INTO ratings (player, family, mu, sigma, games, changed_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player, family) DO UPDATE SET \
                 mu = $3, sigma = $4, games = $5, changed_ms = $6",
            )
            .bind(&player.0)
            .bind(family.name())
            .bind(after.mu)
            .bind(after.sigma)
            .bind(i64::from(games))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_changes (player, game_id, family, place, sides, weight, \
                 mu_before, sigma_before, mu, sigma, at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(&player.0)
            .bind(&id.0)
            .bind(family.name())
            .bind(i64::from(side.place))
            .bind(sides.len() as i64)
            .bind(side.weight)
            .bind(old.mu)
            .bind(old.sigma)
            .bind(after.mu)
            .bind(after.sigma)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            rerated.push(Rerated {
                player: player.clone(),
                place: side.place,
                before: *before,
                after: (*after, games),
            });
        }
        sqlx::query("UPDATE games SET rated_ms = $1 WHERE id = $2")
            .bind(now)
            .bind(&id.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(rerated)
    }

    /// The finished rated games whose ratings are not applied yet (a server stopped between a
    /// game's last move and its rating), in the order they finished, at most `limit`.
    pub async fn unrated_games(&self, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE rated = 1 AND rated_ms IS NULL \
             AND finished_ms IS NOT NULL ORDER BY finished_ms, id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// The leaderboard of `family`: the established ratings by mean, then the provisional ones,
    /// at most `limit`.
    pub async fn leaderboard(
        &self,
        family: RatingFamily,
        limit: u32,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.player, p.name, r.mu, r.sigma, r.games, \
             (SELECT COUNT(*) FROM seat_leaves l WHERE l.player = r.player AND l.rated = 1) \
             AS left_games FROM ratings r \
             JOIN players p ON p.id = r.player WHERE r.family = $1 \
             ORDER BY CASE WHEN r.sigma > $2 THEN 1 ELSE 0 END, r.mu DESC, p.name, r.player \
             LIMIT $3",
        )
        .bind(family.name())
        .bind(qiguo_rating::PROVISIONAL_ABOVE)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingRecord {
                    player: PlayerId(r.try_get("player")?),
                    name: r.try_get("name")?,
                    rating: rating_of(r)?,
                    left: count(r, "left_games")?,
                })
            })
            .collect()
    }

    /// `player`'s rating in `family`.
    pub async fn rating(
        &self,
        player: &PlayerId,
        family: RatingFamily,
    ) -> Result<RatingRecord, StoreError> {
        let row = sqlx::query(
            "SELECT p.id AS player, p.name, r.mu, r.sigma, r.games, \
             (SELECT COUNT(*) FROM seat_leaves l WHERE l.player = p.id AND l.rated = 1) \
             AS left_games FROM players p \
             LEFT JOIN ratings r ON r.player = p.id AND r.family = $2 WHERE p.id = $1",
        )
        .bind(&player.0)
        .bind(family.name())
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::Refused(Refusal::WrongKey))?;
        Ok(RatingRecord {
            player: player.clone(),
            name: row.try_get("name")?,
            rating: rating_of(&row)?,
            left: count(&row, "left_games")?,
        })
    }

    /// The player called `name`, compared folded as names are unique
    /// ([`qiguo_protocol::model::fold_name`]).
    pub async fn player_named(&self, name: &str) -> Result<Option<PlayerId>, StoreError> {
        let row = sqlx::query("SELECT id FROM players WHERE folded = $1")
            .bind(qiguo_protocol::model::fold_name(name))
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(PlayerId(r.try_get("id")?))).transpose()
    }

    /// `player`'s last `limit` rated games in `family`, the newest first.
    pub async fn rating_history(
        &self,
        player: &PlayerId,
        family: RatingFamily,
        limit: u32,
    ) -> Result<Vec<RatingStep>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, at_ms, place, sides, weight, mu_before, sigma_before, mu, sigma \
             FROM rating_changes WHERE player = $1 AND family = $2 \
             ORDER BY at_ms DESC, game_id DESC LIMIT $3",
        )
        .bind(&player.0)
        .bind(family.name())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingStep {
                    game: GameId(r.try_get("game_id")?),
                    at_ms: r.try_get("at_ms")?,
                    place: small(r.try_get("place")?),
                    sides: small(r.try_get("sides")?),
                    weight: r.try_get("weight")?,
                    before: Rating {
                        mu: r.try_get("mu_before")?,
                        sigma: r.try_get("sigma_before")?,
                    },
                    after: Rating {
                        mu: r.try_get("mu")?,
                        sigma: r.try_get("sigma")?,
                    },
                })
            })
            .collect()
    }
}

/// A side as the rating reads it: a person at their rating (a new person's if none), a computer
/// at its level's fixed one.
fn placed(side: &Side, before: Option<(Rating, u32)>) -> Placed {
    match side.who {
        Who::Person(_) => Placed {
            rating: before.map(|(r, _)| r).unwrap_or_default(),
            place: side.place,
            weight: side.weight,
            fixed: false,
        },
        Who::Computer(level) => Placed {
            rating: rated::computer_rating(level),
            place: side.place,
            weight: 1.0,
            fixed: true,
        },
    }
}

/// `player`'s rating in `family` within `tx`, if they have one.
async fn rating_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    player: &PlayerId,
    family: RatingFamily,
) -> Result<Option<(Rating, u32)>, StoreError> {
    let row = sqlx::query("SELECT mu, sigma, games FROM ratings WHERE player = $1 AND family = $2")
        .bind(&player.0)
        .bind(family.name())
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|r| rating_of(&r)).transpose().map(Option::flatten)
}

/// The rating in a row's `mu`, `sigma` and `games` columns (all NULL: none).
pub(super) fn rating_of(row: &sqlx::any::AnyRow) -> Result<Option<(Rating, u32)>, StoreError> {
    let mu: Option<f64> = row.try_get("mu")?;
    let sigma: Option<f64> = row.try_get("sigma")?;
    let games: Option<i64> = row.try_get("games")?;
    Ok(match (mu, sigma) {
        (Some(mu), Some(sigma)) => Some((
            Rating { mu, sigma },
            u32::try_from(games.unwrap_or(0)).unwrap_or(u32::MAX),
        )),
        _ => None,
    })
}

/// A small count as stored.
fn small(n: i64) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}
