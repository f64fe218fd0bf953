//! Conduct's rows: blocks between players, the reports players make for the operator, and the
//! players the operator barred from play.

use std::collections::HashSet;

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

/// A report, as the operator reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Its id.
    pub id: String,
    /// Who reported, by id and name.
    pub by: PlayerId,
    /// Their name.
    pub by_name: String,
    /// Who was reported.
    pub about: PlayerId,
    /// Their name.
    pub about_name: String,
    /// The game it is about, if one was named.
    pub game: Option<GameId>,
    /// The reporter's words.
    pub reason: String,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
    /// When the operator marked it handled.
    pub handled_ms: Option<i64>,
}

impl Store {
    /// `player` blocks `blocked` (`on`), or no more: never seated together by quick play or a
    /// table, and (as a mute) their table talk hidden from `player`.
    pub async fn block(
        &self,
        player: &PlayerId,
        blocked: &PlayerId,
        on: bool,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for table in ["blocks", "mutes"] {
            let column = if table == "blocks" {
                "blocked"
            } else {
                "muted"
            };
            sqlx::query(&format!(
                "DELETE FROM {table} WHERE player = $1 AND {column} = $2"
            ))
            .bind(&player.0)
            .bind(&blocked.0)
            .execute(&mut *tx)
            .await?;
        }
        if on {
            sqlx::query("INSERT INTO blocks (player, blocked, at_ms) VALUES ($1, $2, $3)")
                .bind(&player.0)
                .bind(&blocked.0)
                .bind(self.now())
                .execute(&mut *tx)
                .await?;
            sqlx::query("INSERT INTO mutes (player, muted) VALUES ($1, $2)")
                .bind(&player.0)
                .bind(&blocked.0)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The players `player` blocked or who blocked them: never seated with them.
    pub async fn kept_apart(&self, player: &PlayerId) -> Result<HashSet<PlayerId>, StoreError> {
        let rows = sqlx::query(
            "SELECT blocked AS other FROM blocks WHERE player = $1 \
             UNION SELECT player AS other FROM blocks WHERE blocked = $1",
        )
        .bind(&player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(PlayerId(r.try_get("other")?)))
            .collect()
    }

    /// `by` reports `about` (in `game`, if named) with `reason`, for the operator: its id.
    pub async fn report(
        &self,
        by: &PlayerId,
        about: &PlayerId,
        game: Option<&GameId>,
        reason: &str,
    ) -> Result<String, StoreError> {
        let id = secret::new_id()?;
        sqlx::query(
            "INSERT INTO reports (id, by_player, about, game_id, reason, at_ms) \
             VALUES ($1, $2, $3, (SELECT id FROM games WHERE id = $4), $5, $6)",
        )
        .bind(&id)
        .bind(&by.0)
        .bind(&about.0)
        .bind(game.map(|g| g.0.as_str()))
        .bind(reason)
        .bind(self.now())
        .execute(&self.pool)
        .await?;
        Ok(id)
    }

    /// The reports, the oldest first: those not handled yet, or (`all`) every one.
    pub async fn reports(&self, all: bool) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.id, r.by_player, b.name AS by_name, r.about, a.name AS about_name, \
             r.game_id, r.reason, r.at_ms, r.handled_ms FROM reports r \
             JOIN players b ON b.id = r.by_player JOIN players a ON a.id = r.about \
             WHERE $1 = 1 OR r.handled_ms IS NULL ORDER BY r.at_ms, r.id",
        )
        .bind(i64::from(all))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Report {
                    id: r.try_get("id")?,
                    by: PlayerId(r.try_get("by_player")?),
                    by_name: r.try_get("by_name")?,
                    about: PlayerId(r.try_get("about")?),
                    about_name: r.try_get("about_name")?,
                    game: r.try_get::<Option<String>, _>("game_id")?.map(GameId),
                    reason: r.try_get("reason")?,
                    at_ms: r.try_get("at_ms")?,
                    handled_ms: r.try_get("handled_ms")?,
                })
            })
            .collect()
    }

    /// Marks report `id` handled: `false` when there is no such report.
    pub async fn report_handled(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE reports SET handled_ms = $1 WHERE id = $2")
            .bind(self.now())
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Bars `player` from play (`barred`: refused at sign-in) or lets them play again; `false`
    /// when there is no such player.
    pub async fn bar_from_play(&self, player: &PlayerId, barred: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE players SET play_barred = $1 WHERE id = $2")
            .bind(i64::from(barred))
            .bind(&player.0)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether the operator barred `player` from play.
    pub async fn play_barred(&self, player: &PlayerId) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT play_barred FROM players WHERE id = $1")
            .bind(&player.0)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => Ok(row.try_get::<i64, _>("play_barred")? != 0),
            None => Ok(false),
        }
    }
}
