//! The lobby's rows: public tables and the people sitting at them, each server's count of people
//! connected, and the counts and lists the lobby shows, read from the games.

use qiguo_protocol::lobby::{TABLES_AT_ONCE, TableId, TableSpec};
use qiguo_protocol::{QuickPace, RatingFamily};
use qiguo_rating::Rating;

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

/// A table as stored, with the people sitting at it in the order they sat down.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTable {
    /// Its id.
    pub id: TableId,
    /// Its host's name.
    pub host: String,
    /// Its settings.
    pub spec: TableSpec,
    /// When it stops waiting.
    pub fill_by_ms: i64,
    /// The people sitting at it: id, name and rating in the table's family.
    pub seated: Vec<(PlayerId, String, Option<(Rating, u32)>)>,
    /// The game it started.
    pub game: Option<GameId>,
    /// The club whose own table it is (its name).
    pub club: Option<String>,
}

/// A table's columns as [`Store::tables_from`] reads them (`t` the table, `p` its host, `c` its
/// club).
const TABLE_COLUMNS: &str = "t.id, p.name AS host, t.spec, t.fill_by_ms, t.game_id, \
     c.name AS club FROM public_tables t JOIN players p ON p.id = t.host \
     LEFT JOIN clubs c ON c.id = t.club";

/// A quick game under way with two people or more, to watch.
#[derive(Clone, Debug, PartialEq)]
pub struct Watchable {
    /// The game.
    pub id: GameId,
    /// Its code.
    pub code: String,
    /// Its pace.
    pub pace: QuickPace,
    /// Its people's names.
    pub people: Vec<String>,
    /// Moves played.
    pub moves: u32,
}

/// Per quick pace: people playing, and people alone among computers.
pub type QuickCounts = Vec<(QuickPace, u32, u32)>;

impl Store {
    /// Creates a table by `host`, who sits at it — public, or club `club`'s own (its id); it
    /// waits until `fill_by_ms`. Refused when the host sits at [`TABLES_AT_ONCE`] open tables
    /// already.
    pub async fn create_table(
        &self,
        host: &PlayerId,
        spec: &TableSpec,
        fill_by_ms: i64,
        club: Option<&str>,
    ) -> Result<TableId, StoreError> {
        spec.check().map_err(StoreError::Refused)?;
        let id = secret::new_id()?;
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        lock_player(&mut tx, host, self.postgres).await?;
        check_tables_of(&mut tx, host).await?;
        sqlx::query(
            "INSERT INTO public_tables (id, host, spec, created_ms, fill_by_ms, club) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(&host.0)
        .bind(to_json(spec))
        .bind(now)
        .bind(fill_by_ms)
        .bind(club)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO table_seats (table_id, player, n, joined_ms) VALUES ($1, $2, 0, $3)",
        )
        .bind(&id)
        .bind(&host.0)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(TableId(id))
    }

    /// Seats `player` at open table `table` (once: sitting again changes nothing): refused
    /// `no_table` when it is not open, `table_full`, or `too_many_tables`. Returns the table.
    pub async fn join_table(
        &self,
        table: &TableId,
        player: &PlayerId,
    ) -> Result<StoredTable, StoreError> {
        let mut tx = self.pool.begin().await?;
        lock_player(&mut tx, player, self.postgres).await?;
        let spec = lock_open_table(&mut tx, table, self.postgres).await?;
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, SUM(CASE WHEN player = $2 THEN 1 ELSE 0 END) AS mine, \
             COALESCE(MAX(n), -1) AS last FROM table_seats WHERE table_id = $1",
        )
        .bind(&table.0)
        .bind(&player.0)
        .fetch_one(&mut *tx)
        .await?;
        let seated: i64 = row.try_get("n")?;
        let mine: Option<i64> = row.try_get("mine")?;
        if mine.unwrap_or(0) == 0 {
            if seated >= i64::from(spec.people) {
                return Err(StoreError::Refused(Refusal::TableFull));
            }
            check_tables_of(&mut tx, player).await?;
            let last: i64 = row.try_get("last")?;
            sqlx::query(
                "INSERT INTO table_seats (table_id, player, n, joined_ms) VALUES ($1, $2, $3, $4)",
            )
            .bind(&table.0)
            .bind(&player.0)
            .bind(last + 1)
            .bind(self.now())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        self.table(table).await
    }

    /// `player` gets up from open table `table`; a table nobody sits at any more closes.
    /// Returns whether it closed.
    pub async fn leave_table(
        &self,
        table: &TableId,
        player: &PlayerId,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        lock_open_table(&mut tx, table, self.postgres).await?;
        let left = sqlx::query("DELETE FROM table_seats WHERE table_id = $1 AND player = $2")
            .bind(&table.0)
            .bind(&player.0)
            .execute(&mut *tx)
            .await?;
        if left.rows_affected() == 0 {
            return Err(StoreError::Refused(Refusal::NoTable));
        }
        let row = sqlx::query("SELECT COUNT(*) AS n FROM table_seats WHERE table_id = $1")
            .bind(&table.0)
            .fetch_one(&mut *tx)
            .await?;
        let empty = row.try_get::<i64, _>("n")? == 0;
        if empty {
            sqlx::query("UPDATE public_tables SET closed_ms = $1 WHERE id = $2")
                .bind(self.now())
                .bind(&table.0)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(empty)
    }

    /// Starts open table `table`'s game, once (on any server): `game` makes it from the people
    /// sitting at it (in the order they sat down; each is seated in the game as the holder of
    /// the seat of the same number), in the transaction that marks the table started. `None`
    /// when the table is not open any more.
    pub async fn start_table(
        &self,
        table: &TableId,
        game: impl FnOnce(&TableSpec, &[(PlayerId, String)]) -> NewGame,
    ) -> Result<Option<(CreatedGame, Vec<PlayerId>)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let spec = match lock_open_table(&mut tx, table, self.postgres).await {
            Ok(spec) => spec,
            Err(StoreError::Refused(Refusal::NoTable)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let rows = sqlx::query(
            "SELECT ts.player, p.name FROM table_seats ts JOIN players p ON p.id = ts.player \
             WHERE ts.table_id = $1 ORDER BY ts.n",
        )
        .bind(&table.0)
        .fetch_all(&mut *tx)
        .await?;
        let seated: Vec<(PlayerId, String)> = rows
            .iter()
            .map(|r| Ok((PlayerId(r.try_get("player")?), r.try_get("name")?)))
            .collect::<Result<_, StoreError>>()?;
        let Some((host, _)) = seated.first() else {
            return Ok(None);
        };
        let new = game(&spec, &seated);
        let holders: Vec<Option<PlayerId>> = seated.iter().map(|(p, _)| Some(p.clone())).collect();
        let created = self
            .insert_game(&mut tx, host, &new, None, spec.rated, &holders)
            .await?;
        sqlx::query("UPDATE public_tables SET game_id = $1 WHERE id = $2")
            .bind(&created.id.0)
            .bind(&table.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some((
            created,
            seated.into_iter().map(|(p, _)| p).collect(),
        )))
    }

    /// Closes open table `table` unfilled, once: the people who sat at it (none if it was not
    /// open any more).
    pub async fn close_table(&self, table: &TableId) -> Result<Vec<PlayerId>, StoreError> {
        let mut tx = self.pool.begin().await?;
        match lock_open_table(&mut tx, table, self.postgres).await {
            Ok(_) => {}
            Err(StoreError::Refused(Refusal::NoTable)) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        }
        sqlx::query("UPDATE public_tables SET closed_ms = $1 WHERE id = $2")
            .bind(self.now())
            .bind(&table.0)
            .execute(&mut *tx)
            .await?;
        let rows = sqlx::query("SELECT player FROM table_seats WHERE table_id = $1 ORDER BY n")
            .bind(&table.0)
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        rows.iter()
            .map(|r| Ok(PlayerId(r.try_get("player")?)))
            .collect()
    }

    /// Table `table` as stored (open, started or closed).
    pub async fn table(&self, table: &TableId) -> Result<StoredTable, StoreError> {
        let rows = sqlx::query(&format!("SELECT {TABLE_COLUMNS} WHERE t.id = $1"))
            .bind(&table.0)
            .fetch_all(&self.pool)
            .await?;
        let mut tables = self.tables_from(&rows).await?;
        tables.pop().ok_or(StoreError::Refused(Refusal::NoTable))
    }

    /// The open public tables, the soonest to stop waiting first, at most `limit`.
    pub async fn open_tables(&self, limit: u32) -> Result<Vec<StoredTable>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TABLE_COLUMNS} WHERE t.game_id IS NULL AND t.closed_ms IS NULL \
             AND t.club IS NULL ORDER BY t.fill_by_ms, t.id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.tables_from(&rows).await
    }

    /// Club `club`'s own open tables (by its id), the soonest to stop waiting first, at most
    /// `limit`.
    pub async fn club_tables(
        &self,
        club: &str,
        limit: u32,
    ) -> Result<Vec<StoredTable>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TABLE_COLUMNS} WHERE t.club = $1 AND t.game_id IS NULL \
             AND t.closed_ms IS NULL ORDER BY t.fill_by_ms, t.id LIMIT $2"
        ))
        .bind(club)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        self.tables_from(&rows).await
    }

    /// The open tables whose time to fill ran out by `now`, at most `limit`.
    pub async fn tables_due(&self, now: i64, limit: u32) -> Result<Vec<TableId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM public_tables WHERE game_id IS NULL AND closed_ms IS NULL \
             AND fill_by_ms <= $1 ORDER BY fill_by_ms LIMIT $2",
        )
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(TableId(r.try_get("id")?))).collect()
    }

    /// The tables of `rows` ([`TABLE_COLUMNS`]), each with its people.
    async fn tables_from(
        &self,
        rows: &[sqlx::any::AnyRow],
    ) -> Result<Vec<StoredTable>, StoreError> {
        let mut tables = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.try_get("id")?;
            let spec: TableSpec = serde_json::from_str(&row.try_get::<String, _>("spec")?)
                .map_err(|e| damaged(&id, e))?;
            let seated = sqlx::query(
                "SELECT ts.player, p.name, r.mu, r.sigma, r.games FROM table_seats ts \
                 JOIN players p ON p.id = ts.player \
                 LEFT JOIN ratings r ON r.player = ts.player AND r.family = $2 \
                 WHERE ts.table_id = $1 ORDER BY ts.n",
            )
            .bind(&id)
            .bind(RatingFamily::of(&spec.pace).name())
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| {
                Ok((
                    PlayerId(r.try_get("player")?),
                    r.try_get("name")?,
                    rating_of(r)?,
                ))
            })
            .collect::<Result<_, StoreError>>()?;
            tables.push(StoredTable {
                id: TableId(id),
                host: row.try_get("host")?,
                spec,
                fill_by_ms: row.try_get("fill_by_ms")?,
                seated,
                game: row.try_get::<Option<String>, _>("game_id")?.map(GameId),
                club: row.try_get("club")?,
            });
        }
        Ok(tables)
    }

    /// Notes this server's count of people connected, and returns the sum over the servers of
    /// the database heard from within `fresh_ms`.
    pub async fn count_online(&self, online: u32, fresh_ms: i64) -> Result<u32, StoreError> {
        let now = self.now();
        sqlx::query(
            "INSERT INTO server_online (server, online, seen_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (server) DO UPDATE SET online = $2, seen_ms = $3",
        )
        .bind(self.server_id())
        .bind(i64::from(online))
        .bind(now)
        .execute(&self.pool)
        .await?;
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(online), 0) AS BIGINT) AS n FROM server_online \
             WHERE seen_ms >= $1",
        )
        .bind(now - fresh_ms)
        .fetch_one(&self.pool)
        .await?;
        count(&row, "n")
    }

    /// Per quick pace: the people holding a seat in its games under way, and those alone among
    /// computers in one.
    pub async fn quick_counts(&self) -> Result<QuickCounts, StoreError> {
        let rows = sqlx::query(
            "SELECT g.quick, COUNT(*) AS people, \
             SUM(CASE WHEN (SELECT COUNT(*) FROM seats o WHERE o.game_id = g.id \
             AND o.holder IS NOT NULL) = 1 THEN 1 ELSE 0 END) AS alone \
             FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE g.quick IS NOT NULL AND g.finished_ms IS NULL AND s.holder IS NOT NULL \
             GROUP BY g.quick",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut counts: QuickCounts = QuickPace::ALL.iter().map(|&p| (p, 0, 0)).collect();
        for row in rows {
            let pace: String = row.try_get("quick")?;
            if let Some(of_pace) = counts.iter_mut().find(|(p, ..)| p.name() == pace) {
                of_pace.1 = count(&row, "people")?;
                of_pace.2 = u32::try_from(row.try_get::<Option<i64>, _>("alone")?.unwrap_or(0))
                    .unwrap_or(u32::MAX);
            }
        }
        Ok(counts)
    }

    /// The quick games under way with two people or more, the most recently moved first, at
    /// most `limit`.
    pub async fn watchable_games(&self, limit: u32) -> Result<Vec<Watchable>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.code, g.quick, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
             AS moves FROM games g WHERE g.quick IS NOT NULL AND g.finished_ms IS NULL \
             AND (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id AND s.holder IS NOT NULL) \
             >= 2 ORDER BY g.moved_ms DESC, g.id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.try_get("id")?;
            let pace: String = row.try_get("quick")?;
            let Ok(pace) = pace.parse::<QuickPace>() else {
                continue;
            };
            let people = sqlx::query(
                "SELECT p.name FROM seats s JOIN players p ON p.id = s.holder \
                 WHERE s.game_id = $1 ORDER BY s.seat",
            )
            .bind(&id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.try_get("name"))
            .collect::<Result<_, _>>()?;
            games.push(Watchable {
                id: GameId(id),
                code: row.try_get("code")?,
                pace,
                people,
                moves: count(&row, "moves")?,
            });
        }
        Ok(games)
    }
}

/// Within `tx`, table `table`'s settings if it is open (on PostgreSQL, `lock`, its row locked
/// until `tx` ends); refused `no_table` otherwise.
async fn lock_open_table(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table: &TableId,
    lock: bool,
) -> Result<TableSpec, StoreError> {
    let lock = if lock { " FOR UPDATE" } else { "" };
    let row = sqlx::query(&format!(
        "SELECT spec FROM public_tables WHERE id = $1 AND game_id IS NULL \
         AND closed_ms IS NULL{lock}"
    ))
    .bind(&table.0)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(StoreError::Refused(Refusal::NoTable))?;
    serde_json::from_str(&row.try_get::<String, _>("spec")?).map_err(|e| damaged(&table.0, e))
}

/// Within `tx`, refused `too_many_tables` when `player` sits at [`TABLES_AT_ONCE`] open tables.
async fn check_tables_of(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    player: &PlayerId,
) -> Result<(), StoreError> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM table_seats ts JOIN public_tables t ON t.id = ts.table_id \
         WHERE ts.player = $1 AND t.game_id IS NULL AND t.closed_ms IS NULL",
    )
    .bind(&player.0)
    .fetch_one(&mut **tx)
    .await?;
    if row.try_get::<i64, _>("n")? >= i64::from(TABLES_AT_ONCE) {
        return Err(StoreError::Refused(Refusal::TooManyTables {
            max: TABLES_AT_ONCE,
        }));
    }
    Ok(())
}
