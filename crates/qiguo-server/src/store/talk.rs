//! Table talk in the database: each game's lines, numbered from 0; whose lines each player
//! muted; the lines the operator hid and the players barred from talking.

use std::collections::HashSet;

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{GameId, PlayerId, Store, StoreError, count};
use crate::protocol::Refusal;
use crate::protocol::TalkLine;

/// The columns a line is read from, its writer's name with them.
const LINE: &str = "SELECT t.n, t.seat, p.name, t.text, t.said_ms, t.author \
                    FROM talk t JOIN players p ON p.id = t.author";

fn line(row: &AnyRow) -> Result<TalkLine, StoreError> {
    Ok(TalkLine {
        n: count(row, "n")?,
        seat: u8::try_from(row.try_get::<i64, _>("seat")?).unwrap_or(u8::MAX),
        name: row.try_get("name")?,
        text: row.try_get("text")?,
        said_ms: row.try_get("said_ms")?,
        author: Some(PlayerId(row.try_get("author")?)),
    })
}

impl Store {
    /// Keeps `text`, written by `author` from `seat`, as the next line of `game`'s talk.
    pub async fn say(
        &self,
        game: &GameId,
        seat: u8,
        author: &PlayerId,
        text: &str,
    ) -> Result<TalkLine, StoreError> {
        let said_ms = self.now();
        // Two servers numbering a line at once: the second tries the next number.
        let mut tries = 0;
        let n: i64 = loop {
            let mut tx = self.pool.begin().await?;
            let inserted = sqlx::query(
                "INSERT INTO talk (game_id, n, seat, author, text, said_ms) \
                 SELECT $1, COALESCE(MAX(n) + 1, 0), $2, $3, $4, $5 FROM talk WHERE game_id = $1 \
                 RETURNING n",
            )
            .bind(&game.0)
            .bind(i64::from(seat))
            .bind(&author.0)
            .bind(text)
            .bind(said_ms)
            .fetch_one(&mut *tx)
            .await;
            match inserted {
                Ok(row) => {
                    let n = row.try_get("n")?;
                    self.notify_change(&mut tx, game).await?;
                    tx.commit().await?;
                    break n;
                }
                Err(sqlx::Error::Database(e))
                    if e.kind() == sqlx::error::ErrorKind::UniqueViolation && tries < 3 =>
                {
                    tries += 1;
                }
                Err(e) => return Err(e.into()),
            }
        };
        Ok(TalkLine {
            n: u32::try_from(n).unwrap_or(u32::MAX),
            seat,
            name: self.player_name(author).await?,
            text: text.to_owned(),
            said_ms,
            author: Some(author.clone()),
        })
    }

    /// The last `count` lines of `game`'s talk numbered below `before` (all when `None`),
    /// oldest first: without the hidden ones, nor those of players `reader` muted.
    pub async fn talk(
        &self,
        game: &GameId,
        before: Option<u32>,
        count: u32,
        reader: &PlayerId,
    ) -> Result<Vec<TalkLine>, StoreError> {
        let rows = sqlx::query(&format!(
            "{LINE} WHERE t.game_id = $1 AND t.n < $2 AND t.hidden = 0 \
             AND NOT EXISTS (SELECT 1 FROM mutes m WHERE m.player = $3 AND m.muted = t.author) \
             ORDER BY t.n DESC LIMIT $4"
        ))
        .bind(&game.0)
        .bind(before.map_or(i64::MAX, i64::from))
        .bind(&reader.0)
        .bind(i64::from(count))
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows.iter().map(line).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// The lines of `game`'s talk numbered `from` on, oldest first (hidden ones left out): what
    /// another server added.
    pub async fn talk_from(&self, game: &GameId, from: u32) -> Result<Vec<TalkLine>, StoreError> {
        let rows = sqlx::query(&format!(
            "{LINE} WHERE t.game_id = $1 AND t.n >= $2 AND t.hidden = 0 ORDER BY t.n"
        ))
        .bind(&game.0)
        .bind(i64::from(from))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(line).collect()
    }

    /// How many lines `game`'s talk has (hidden ones counted).
    pub async fn talk_lines(&self, game: &GameId) -> Result<u32, StoreError> {
        let row =
            sqlx::query("SELECT COALESCE(MAX(n) + 1, 0) AS lines FROM talk WHERE game_id = $1")
                .bind(&game.0)
                .fetch_one(&self.pool)
                .await?;
        count(&row, "lines")
    }

    /// Whether the operator barred `player` from table talk.
    pub async fn talk_barred(&self, player: &PlayerId) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT talk_barred FROM players WHERE id = $1")
            .bind(&player.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::Refused(Refusal::WrongKey))?;
        Ok(row.try_get::<i64, _>("talk_barred")? != 0)
    }

    /// Bars `player` from table talk (`barred`) or lets them talk again; `false` when there
    /// is no such player.
    pub async fn bar_from_talk(&self, player: &PlayerId, barred: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE players SET talk_barred = $1 WHERE id = $2")
            .bind(i64::from(barred))
            .bind(&player.0)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Hides line `n` of `game`'s talk from every later reading (`hidden`), or shows it
    /// again; `false` when there is no such line.
    pub async fn hide_talk(&self, game: &GameId, n: u32, hidden: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE talk SET hidden = $1 WHERE game_id = $2 AND n = $3")
            .bind(i64::from(hidden))
            .bind(&game.0)
            .bind(i64::from(n))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `player` mutes `muted` (`on`), or unmutes them.
    pub async fn mute(
        &self,
        player: &PlayerId,
        muted: &PlayerId,
        on: bool,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM mutes WHERE player = $1 AND muted = $2")
            .bind(&player.0)
            .bind(&muted.0)
            .execute(&mut *tx)
            .await?;
        if on {
            sqlx::query("INSERT INTO mutes (player, muted) VALUES ($1, $2)")
                .bind(&player.0)
                .bind(&muted.0)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The players `player` muted.
    pub async fn muted_by(&self, player: &PlayerId) -> Result<HashSet<PlayerId>, StoreError> {
        let rows = sqlx::query("SELECT muted FROM mutes WHERE player = $1")
            .bind(&player.0)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok(PlayerId(r.try_get("muted")?)))
            .collect()
    }
}
