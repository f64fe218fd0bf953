//! Where online games live: players (a random id, a hashed key, a name), games (their start as
//! a game record, their pace and invitation code), seats (open, invited or a computer, and who
//! took them) and moves, in SQLite (a file, written ahead in WAL mode, every commit on disk) or
//! PostgreSQL — the same queries through sqlx's `Any` driver, the same migrations.
//!
//! Every write is one transaction, committed before the call returns: a move the server
//! acknowledges after [`Store::append_move`] survives the server being killed the next moment.
//! The store keeps what it is given; the rules are checked by its caller, and again by
//! [`Store::load_game`], which replays every stored game through the rules engine.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use qiguo_protocol::{Event, NewGame, Refusal};
pub use qiguo_protocol::{GameId, MadeBy, Pace, PlayerId, SeatPlan, TakeBackView, WhenOverdue};
use qiguo_rules::{Move, Record};
use serde::Serialize;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Executor, Row};

use crate::secret::{self, NoRandomness};

pub use crate::model::{StoredGame, StoredSeat};

mod group;
mod holidays;
pub mod mail;
mod talk;

/// The schema, in order; each applied once, recorded in the database.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "players games moves",
        include_str!("../migrations/0001_players_games_moves.sql"),
    ),
    (
        2,
        "seen and take backs",
        include_str!("../migrations/0002_seen_and_take_backs.sql"),
    ),
    (3, "due", include_str!("../migrations/0003_due.sql")),
    (
        4,
        "take backs",
        include_str!("../migrations/0004_take_backs.sql"),
    ),
    (5, "talk", include_str!("../migrations/0005_talk.sql")),
    (
        6,
        "holidays",
        include_str!("../migrations/0006_holidays.sql"),
    ),
    (7, "mail", include_str!("../migrations/0007_mail.sql")),
];

/// The PostgreSQL channel on which a server says that a game changed (the payload is the
/// server's id, a space, and the game's id), so that the other servers on the database follow.
pub const CHANGES_CHANNEL: &str = "qiguo_changes";

/// The PostgreSQL channel on which a server passes a player's own event (another game waits for
/// them, a rematch) to the other servers, which tell that player's connections there (the
/// payload: the server's id, the player's id and the event's JSON, separated by spaces).
pub const PLAYERS_CHANNEL: &str = "qiguo_players";

/// What the store takes as the time: milliseconds since 1970. The system's clock, unless a test
/// sets its own ([`Store::set_clock`]).
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// A player just made: their id, and the key only they hold (the store keeps its hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPlayer {
    /// The id.
    pub id: PlayerId,
    /// The secret key.
    pub key: String,
}

/// A game just created: its id and invitation code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreatedGame {
    /// The id.
    pub id: GameId,
    /// The invitation code, to be sent to the other players.
    pub code: String,
}

/// Why the store did not do what was asked. Nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be reached or refused the work.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("database schema: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The SQLite file's folder could not be made.
    #[error("cannot make the database's folder {0}: {1}")]
    Folder(String, String),
    /// No secret could be made.
    #[error(transparent)]
    NoRandomness(#[from] NoRandomness),
    /// No such player, or not their key.
    #[error("unknown player or wrong key")]
    WrongKey,
    /// No such game (or no game with that code).
    #[error("no such game")]
    NoGame,
    /// The seat does not exist, is not open, or is taken.
    #[error("seat {0} cannot be taken")]
    SeatNotFree(u8),
    /// The move was not made for the game's current ply (another was stored first).
    #[error("the game has {has} moves, not {expected}")]
    OutOfTurn {
        /// How many moves the game has.
        has: u32,
        /// How many the caller expected.
        expected: u32,
    },
    /// The game is over.
    #[error("the game is over")]
    Finished,
    /// Refused for what it asks (a holiday too long, a day past).
    #[error("{0}")]
    Refused(Refusal),
    /// A stored game does not replay (a damaged database).
    #[error("game {0} cannot be replayed: {1}")]
    Damaged(String, String),
    /// A new game's spec does not fit its record (seats for every player number).
    #[error("{0}")]
    BadSpec(Refusal),
    /// A take-back is already being asked in the game.
    #[error("a take-back is already being asked")]
    TakeBackPending,
    /// No take-back is being asked in the game (or another one is).
    #[error("no take-back is being asked")]
    NoTakeBack,
    /// Another server serves this SQLite file (one file takes one server; several servers
    /// share a PostgreSQL database).
    #[error(
        "{0} is served by another server already: a SQLite file takes one server (several share a PostgreSQL database)"
    )]
    Served(PathBuf),
    /// The transaction holding this change, with others, failed to commit.
    #[error("database: the commit failed: {0}")]
    Commit(String),
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    postgres: bool,
    url: String,
    clock: Clock,
    /// This process's id in [`CHANGES_CHANNEL`]'s payloads.
    server_id: String,
    /// The writer that commits many games' moves in one transaction.
    group: group::GroupCommit,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("postgres", &self.postgres)
            .field("server_id", &self.server_id)
            .finish_non_exhaustive()
    }
}

/// The system's time in milliseconds since 1970.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// How a move's maker is kept in the database (the `stand_in` column).
fn made_by_code(by: MadeBy) -> i64 {
    match by {
        MadeBy::Seat => 0,
        MadeBy::StandIn => 1,
        MadeBy::OverduePass => 2,
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("the store's own types serialize")
}

fn damaged(game: &str, why: impl std::fmt::Display) -> StoreError {
    StoreError::Damaged(game.to_owned(), why.to_string())
}

/// A SQLite URL that creates its file when missing (`mode=rwc`, unless the URL gives a mode
/// of its own, such as `mode=ro` to only read), the file's folder made first.
fn sqlite_created(url: &str) -> Result<String, StoreError> {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path.is_empty() || path.starts_with(':') {
        return Ok(url.to_owned()); // In memory.
    }
    if let Some(folder) = Path::new(path)
        .parent()
        .filter(|f| !f.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder)
            .map_err(|e| StoreError::Folder(folder.display().to_string(), e.to_string()))?;
    }
    if query.split('&').any(|q| q.starts_with("mode=")) {
        return Ok(url.to_owned());
    }
    let joiner = if query.is_empty() { '?' } else { '&' };
    Ok(format!("{url}{joiner}mode=rwc"))
}

impl Store {
    /// Opens the database at `url` (`sqlite://PATH`, created if missing, or
    /// `postgres://USER@HOST/DB`) and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite {
            sqlite_created(url)?
        } else {
            url.to_owned()
        };
        let url = url.as_str();
        let options = AnyConnectOptions::from_str(url)?;
        let pool = AnyPoolOptions::new()
            // One SQLite file takes one writer at a time: one connection keeps writes in
            // order without "database is locked"; PostgreSQL gets a few.
            .max_connections(if sqlite { 1 } else { 8 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // Written ahead, every commit synced: an acknowledged move is on disk.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = FULL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        let server_id = secret::new_id()?;
        let kind = if sqlite {
            group::Kind::Sqlite
        } else {
            group::Kind::Postgres(server_id.clone())
        };
        let store = Store {
            group: group::GroupCommit::start(pool.clone(), kind),
            pool,
            postgres: !sqlite,
            url: url.to_owned(),
            clock: Arc::new(now_ms),
            server_id,
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let migrations = MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    false,
                )
            })
            .collect();
        let migrator = Migrator {
            migrations: Cow::Owned(migrations),
            ..Migrator::DEFAULT
        };
        migrator.run(&self.pool).await?;
        Ok(())
    }

    /// Whether the database is PostgreSQL (several servers may share it).
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    /// The SQLite file the store keeps, if it keeps one (not PostgreSQL, not in memory).
    pub fn sqlite_file(&self) -> Option<PathBuf> {
        if self.postgres {
            return None;
        }
        let rest = self
            .url
            .trim_start_matches("sqlite:")
            .trim_start_matches("//");
        let path = rest.split_once('?').map_or(rest, |(path, _)| path);
        (!path.is_empty() && !path.starts_with(':')).then(|| PathBuf::from(path))
    }

    /// Claims the SQLite file for one server: an advisory lock on the file (SQLite's own locks
    /// are of another kind, so readers and a backup go on) held until the claim is dropped.
    /// `None` on PostgreSQL or in memory, where nothing is to be claimed; refused when another
    /// server holds the file.
    pub fn claim(&self) -> Result<Option<std::fs::File>, StoreError> {
        let Some(path) = self.sqlite_file() else {
            return Ok(None);
        };
        let file = std::fs::File::open(&path)
            .map_err(|e| StoreError::Folder(path.display().to_string(), e.to_string()))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Served(path)),
            Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Folder(
                path.display().to_string(),
                e.to_string(),
            )),
        }
    }

    /// The URL the store was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// This server's id in the change notices ([`CHANGES_CHANNEL`]).
    pub fn server_id(&self) -> &str {
        &self.server_id
    }

    /// Uses `clock` for the time from now on (tests move it forward by days).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The time by the store's clock, in milliseconds since 1970.
    pub fn now(&self) -> i64 {
        (self.clock)()
    }

    /// Tells the other servers on a PostgreSQL database that `game` changed, when `tx` commits.
    async fn notify_change(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        game: &GameId,
    ) -> Result<(), StoreError> {
        if self.postgres {
            notify(tx, &self.server_id, game).await?;
        }
        Ok(())
    }

    /// Passes `event` for `player` to the other servers on a PostgreSQL database, for that
    /// player's connections there; nothing on SQLite, whose one server knows.
    pub async fn tell_player(&self, player: &PlayerId, event: &Event) -> Result<(), StoreError> {
        if !self.postgres {
            return Ok(());
        }
        // An event is plain data: it always reads as JSON.
        let Ok(json) = serde_json::to_string(event) else {
            return Ok(());
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(PLAYERS_CHANNEL)
            .bind(format!("{} {} {json}", self.server_id, player.0))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Tells the other servers on a PostgreSQL database that `games` changed (their players'
    /// holidays); nothing on SQLite, whose one server knows.
    pub async fn announce(&self, games: &[GameId]) -> Result<(), StoreError> {
        if !self.postgres || games.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        for game in games {
            notify(&mut tx, &self.server_id, game).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Copies the SQLite database to `to`, consistently while a server writes it (SQLite's
    /// `VACUUM INTO`, a read transaction of its own); `to` must not exist. Refused on
    /// PostgreSQL, whose own tools back it up (`pg_dump`).
    pub async fn backup(&self, to: &Path) -> Result<(), StoreError> {
        if self.postgres {
            return Err(StoreError::Folder(
                to.display().to_string(),
                "a PostgreSQL database is backed up with pg_dump".into(),
            ));
        }
        if to.exists() {
            return Err(StoreError::Folder(
                to.display().to_string(),
                "already exists: a backup is written to a new file".into(),
            ));
        }
        let target = to.display().to_string().replace('\'', "''");
        sqlx::query(&format!("VACUUM INTO '{target}'"))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Closes the database, waiting for work under way.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// A new player called `name`: their id and key.
    pub async fn add_player(&self, name: &str) -> Result<NewPlayer, StoreError> {
        let id = secret::new_id()?;
        let key = secret::new_key()?;
        sqlx::query("INSERT INTO players (id, key_hash, name, created_ms) VALUES ($1, $2, $3, $4)")
            .bind(&id)
            .bind(secret::key_hash(&key))
            .bind(name)
            .bind(self.now())
            .execute(&self.pool)
            .await?;
        Ok(NewPlayer {
            id: PlayerId(id),
            key,
        })
    }

    /// The name of the player with this id and key; [`StoreError::WrongKey`] otherwise.
    pub async fn sign_in(&self, id: &PlayerId, key: &str) -> Result<String, StoreError> {
        let row = sqlx::query("SELECT key_hash, name FROM players WHERE id = $1")
            .bind(&id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::WrongKey)?;
        let stored: String = row.try_get("key_hash")?;
        // Both are hashes of the same length: comparing them tells nothing about the key.
        // Beside the first key, a player may have one for each device a link signed in.
        if stored != secret::key_hash(key) && !self.other_key(id, key).await? {
            return Err(StoreError::WrongKey);
        }
        Ok(row.try_get("name")?)
    }

    /// Creates a game by `creator` (who takes the seats planned for the creator).
    pub async fn create_game(
        &self,
        creator: &PlayerId,
        spec: &NewGame,
    ) -> Result<CreatedGame, StoreError> {
        spec.check().map_err(StoreError::BadSpec)?;
        let id = secret::new_id()?;
        let code = secret::new_code()?;
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, code, creator, record, pace, created_ms, moved_ms, due_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&id)
        .bind(&code)
        .bind(&creator.0)
        .bind(spec.start.to_json())
        .bind(to_json(&spec.pace))
        .bind(now)
        .bind(now)
        // Looked at by whichever server does not hold it (the one creating it does).
        .bind(matches!(spec.pace, Pace::Correspondence { .. }).then_some(now))
        .execute(&mut *tx)
        .await?;
        for (seat, plan) in spec.seats.iter().enumerate() {
            let holder = (*plan == SeatPlan::Creator).then_some(creator.0.as_str());
            sqlx::query("INSERT INTO seats (game_id, seat, plan, holder) VALUES ($1, $2, $3, $4)")
                .bind(&id)
                .bind(seat as i64)
                .bind(to_json(plan))
                .bind(holder)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(CreatedGame {
            id: GameId(id),
            code,
        })
    }

    /// The game whose invitation code is `code` (as typed: see [`secret::normalize_code`]).
    pub async fn game_by_code(&self, code: &str) -> Result<GameId, StoreError> {
        let code = secret::normalize_code(code).ok_or(StoreError::NoGame)?;
        let row = sqlx::query("SELECT id FROM games WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::NoGame)?;
        Ok(GameId(row.try_get("id")?))
    }

    /// Gives open seat `seat` of `game` to `player`, once: a seat taken answers only to them.
    /// Returns the name the seat is then shown with, read in the same transaction.
    pub async fn take_seat(
        &self,
        game: &GameId,
        seat: u8,
        player: &PlayerId,
    ) -> Result<String, StoreError> {
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query(
            "UPDATE seats SET holder = $1, seen_ms = $2 WHERE game_id = $3 AND seat = $4 \
             AND holder IS NULL AND plan = $5",
        )
        .bind(&player.0)
        .bind(self.now())
        .bind(&game.0)
        .bind(i64::from(seat))
        .bind(to_json(&SeatPlan::Open))
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            return Err(StoreError::SeatNotFree(seat));
        }
        let name: String = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(&player.0)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::WrongKey)?
            .try_get("name")?;
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(name)
    }

    /// How many unfinished games `player` holds a seat in.
    pub async fn games_in_progress(&self, player: &PlayerId) -> Result<u32, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(DISTINCT g.id) AS n FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.finished_ms IS NULL",
        )
        .bind(&player.0)
        .fetch_one(&self.pool)
        .await?;
        Ok(u32::try_from(row.try_get::<i64, _>("n")?).unwrap_or(u32::MAX))
    }

    /// Writes `game`'s start record and pace again (a game stored before today's checks, put
    /// right when loaded).
    pub async fn rewrite_start(
        &self,
        game: &GameId,
        record: &Record,
        pace: Pace,
    ) -> Result<(), StoreError> {
        let mut start = record.clone();
        start.moves.clear();
        start.overdue.clear();
        sqlx::query("UPDATE games SET record = $1, pace = $2 WHERE id = $3")
            .bind(start.to_json())
            .bind(to_json(&pace))
            .bind(&game.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Notes that `player` has `game` open now (on every seat they hold in it).
    pub async fn seen(&self, game: &GameId, player: &PlayerId) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET seen_ms = $1 WHERE game_id = $2 AND holder = $3")
            .bind(self.now())
            .bind(&game.0)
            .bind(&player.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Keeps `asked` as the take-back being asked in `game`, for every server: a new one only
    /// where none is asked and the game has `has` moves ([`StoreError::TakeBackPending`],
    /// [`StoreError::OutOfTurn`]), or more agreement with the one asked (`new: false`).
    pub async fn keep_take_back(
        &self,
        game: &GameId,
        asked: &TakeBackView,
        has: u32,
        new: bool,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_at(game, has).await?;
        let agreed = to_json(&asked.agreed);
        let done = if new {
            sqlx::query(
                "INSERT INTO take_backs (game_id, by_seat, ply, agreed) \
                 SELECT $1, $2, $3, $4 WHERE NOT EXISTS \
                 (SELECT 1 FROM take_backs WHERE game_id = $1)",
            )
            .bind(&game.0)
            .bind(i64::from(asked.by))
            .bind(i64::from(asked.ply))
            .bind(agreed)
            .execute(&mut *tx)
            .await?
        } else {
            sqlx::query("UPDATE take_backs SET agreed = $1 WHERE game_id = $2 AND ply = $3")
                .bind(agreed)
                .bind(&game.0)
                .bind(i64::from(asked.ply))
                .execute(&mut *tx)
                .await?
        };
        if done.rows_affected() != 1 {
            return Err(if new {
                StoreError::TakeBackPending
            } else {
                StoreError::NoTakeBack
            });
        }
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets the take-back asked in `game` (refused).
    pub async fn drop_take_back(&self, game: &GameId) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM take_backs WHERE game_id = $1")
            .bind(&game.0)
            .execute(&mut *tx)
            .await?;
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// When each seat's player was last seen with `game` open, by any server, by seat.
    pub async fn seen_of(&self, game: &GameId) -> Result<Vec<Option<i64>>, StoreError> {
        let rows = sqlx::query("SELECT seen_ms FROM seats WHERE game_id = $1 ORDER BY seat")
            .bind(&game.0)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<Option<i64>, _>("seen_ms")?))
            .collect()
    }

    /// The name of the player `id`.
    pub async fn player_name(&self, id: &PlayerId) -> Result<String, StoreError> {
        let row = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(&id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::WrongKey)?;
        Ok(row.try_get("name")?)
    }

    /// Every game not yet finished.
    pub async fn unfinished_games(&self) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE finished_ms IS NULL ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// Takes back the moves of `game` from number `ply` (from 0) on, if it has exactly `has`
    /// moves (so that a take-back agreed for one moment never removes a move made since);
    /// `due_in`: when the game is due after it ([`crate::live::LiveGame::due_in`]).
    pub async fn take_back(
        &self,
        game: &GameId,
        ply: u32,
        has: u32,
        due_in: Option<i64>,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_at(game, has).await?;
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(&game.0)
            .bind(i64::from(ply))
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM take_backs WHERE game_id = $1")
            .bind(&game.0)
            .execute(&mut *tx)
            .await?;
        self.commit_change(tx, game, self.now(), due_in).await
    }

    /// Commits a change of `game`'s moves: the turn began at `now`, is due `due_in` after it,
    /// and the other servers are told.
    async fn commit_change(
        &self,
        mut tx: sqlx::Transaction<'_, sqlx::Any>,
        game: &GameId,
        now: i64,
        due_in: Option<i64>,
    ) -> Result<(), StoreError> {
        let server = self.postgres.then_some(self.server_id.as_str());
        note_change(&mut tx, game, now, due_in, server).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A transaction on `game`, begun only if the game has exactly `has` moves and is not over
    /// (its row locked on PostgreSQL until the transaction ends; see [`count_moves`]).
    async fn begin_at(
        &self,
        game: &GameId,
        has: u32,
    ) -> Result<sqlx::Transaction<'_, sqlx::Any>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let count = count_moves(&mut tx, game, self.postgres).await?;
        if count != has {
            return Err(StoreError::OutOfTurn {
                has: count,
                expected: has,
            });
        }
        Ok(tx)
    }

    /// Stores move number `ply` (from 0) of `game`, made for `seat` (by its player, by a
    /// stand-in computer, or an overdue pass), and returns once it is committed; `ends`: the
    /// move ends the game, which is marked finished in the same transaction; `due_in`: when
    /// the game is due after it ([`crate::live::LiveGame::due_in`]); `mail`: the e-mails it
    /// writes, kept with it for those of their players who gave a confirmed address. Refused
    /// unless the game
    /// has exactly `ply` moves: two writers can never both store a move for one turn.
    pub async fn append_move(
        &self,
        game: &GameId,
        ply: u32,
        mv: Move,
        seat: u8,
        by: MadeBy,
        ends: bool,
        due_in: Option<i64>,
        mail: Vec<mail::MailNote>,
    ) -> Result<(), StoreError> {
        let write = MoveWrite {
            game: game.clone(),
            ply,
            mv,
            seat,
            by,
            ends,
            due_in,
            now: self.now(),
            mail,
        };
        // With the other moves waiting, in one transaction (see `group`).
        self.group.write(write).await
    }

    /// Unfinished games whose time to be acted on has come (`due_ms` at or before `now`), the
    /// longest waiting first, at most `limit`.
    pub async fn due_games(&self, now: i64, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE due_ms <= $1 AND finished_ms IS NULL \
             ORDER BY due_ms LIMIT $2",
        )
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// Sets when `game` is next due (a game looked at and found not due yet, or resting).
    pub async fn set_due(&self, game: &GameId, due_ms: Option<i64>) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET due_ms = $1 WHERE id = $2")
            .bind(due_ms)
            .bind(&game.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Marks `game` finished: it takes no more moves.
    pub async fn finish(&self, game: &GameId) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET finished_ms = $1, due_ms = NULL WHERE id = $2")
            .bind(self.now())
            .bind(&game.0)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::NoGame)
        }
    }

    /// A stored game with its moves, replayed through the rules engine.
    pub async fn load_game(&self, id: &GameId) -> Result<StoredGame, StoreError> {
        let row = sqlx::query(
            "SELECT code, creator, record, pace, moved_ms, finished_ms FROM games WHERE id = $1",
        )
        .bind(&id.0)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NoGame)?;
        let mut record = Record::from_json(&row.try_get::<String, _>("record")?)
            .map_err(|e| damaged(&id.0, e))?;
        let pace: Pace = serde_json::from_str(&row.try_get::<String, _>("pace")?)
            .map_err(|e| damaged(&id.0, e))?;
        let moves =
            sqlx::query("SELECT ply, mv, stand_in FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(&id.0)
                .fetch_all(&self.pool)
                .await?;
        record.moves = Vec::with_capacity(moves.len());
        let mut stand_ins = Vec::new();
        let mut overdue = Vec::new();
        for (n, mv) in moves.iter().enumerate() {
            if mv.try_get::<i64, _>("ply")? != n as i64 {
                return Err(damaged(&id.0, format!("move {n} is missing")));
            }
            record.moves.push(mv.try_get("mv")?);
            match mv.try_get::<i64, _>("stand_in")? {
                0 => {}
                1 => stand_ins.push(n as u32),
                _ => overdue.push(n as u32),
            }
        }
        record.overdue = overdue;
        let game = record.replay().map_err(|e| damaged(&id.0, e))?;
        let seat_rows = sqlx::query(
            "SELECT s.plan, s.holder, s.seen_ms, p.name FROM seats s \
                 LEFT JOIN players p ON p.id = s.holder WHERE s.game_id = $1 ORDER BY s.seat",
        )
        .bind(&id.0)
        .fetch_all(&self.pool)
        .await?;
        let mut seats = Vec::with_capacity(seat_rows.len());
        for seat in &seat_rows {
            seats.push(StoredSeat {
                plan: serde_json::from_str(&seat.try_get::<String, _>("plan")?)
                    .map_err(|e| damaged(&id.0, e))?,
                holder: seat.try_get::<Option<String>, _>("holder")?.map(PlayerId),
                name: seat.try_get("name")?,
                seen_ms: seat.try_get("seen_ms")?,
                holidays: Vec::new(),
            });
        }
        let moved_ms: i64 = row.try_get("moved_ms")?;
        if let Pace::Correspondence { .. } = pace {
            self.read_holidays(id, moved_ms, &mut seats).await?;
        }
        let take_back =
            sqlx::query("SELECT by_seat, ply, agreed FROM take_backs WHERE game_id = $1")
                .bind(&id.0)
                .fetch_optional(&self.pool)
                .await?
                .map(|r| -> Result<TakeBackView, StoreError> {
                    Ok(TakeBackView {
                        by: u8::try_from(r.try_get::<i64, _>("by_seat")?).unwrap_or(u8::MAX),
                        ply: u32::try_from(r.try_get::<i64, _>("ply")?).unwrap_or(u32::MAX),
                        agreed: serde_json::from_str(&r.try_get::<String, _>("agreed")?)
                            .map_err(|e| damaged(&id.0, e))?,
                    })
                })
                .transpose()?;
        Ok(StoredGame {
            take_back,
            id: id.clone(),
            code: row.try_get("code")?,
            creator: PlayerId(row.try_get("creator")?),
            record,
            game,
            seats,
            pace,
            moved_ms,
            finished: row.try_get::<Option<i64>, _>("finished_ms")?.is_some(),
            stand_ins,
        })
    }

    /// The unfinished games in which `player` holds a seat, most recently moved first.
    pub async fn games_of(&self, player: &PlayerId) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.id, g.moved_ms FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.finished_ms IS NULL ORDER BY g.moved_ms DESC, g.id",
        )
        .bind(&player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// The finished games in which `player` held a seat, the newest first: `count` of them
    /// after the first `skip`.
    pub async fn finished_games_of(
        &self,
        player: &PlayerId,
        skip: u32,
        count: u32,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.id, g.finished_ms FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.finished_ms IS NOT NULL \
             ORDER BY g.finished_ms DESC, g.id DESC LIMIT $2 OFFSET $3",
        )
        .bind(&player.0)
        .bind(i64::from(count))
        .bind(i64::from(skip))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }
}

/// A move to store: [`Store::append_move`]'s request, at `now`.
#[derive(Clone, Debug)]
pub(crate) struct MoveWrite {
    game: GameId,
    ply: u32,
    mv: Move,
    seat: u8,
    by: MadeBy,
    ends: bool,
    due_in: Option<i64>,
    now: i64,
    /// The e-mails it writes into the outbox (to players with a confirmed address).
    mail: Vec<mail::MailNote>,
}

/// How many moves `game` has, within `tx`; refused if it is over. On PostgreSQL (`lock`) the
/// game's row is locked until `tx` ends (`FOR UPDATE`), so that two servers changing its moves
/// take turns and the second counts what the first stored; SQLite's one connection writes one
/// transaction at a time, and a second server is refused the file.
async fn count_moves(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &GameId,
    lock: bool,
) -> Result<u32, StoreError> {
    // One statement: the row lock and the count in one query on PostgreSQL too.
    let lock = if lock { " FOR UPDATE OF g" } else { "" };
    let row = sqlx::query(&format!(
        "SELECT g.finished_ms, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS moves \
         FROM games g WHERE g.id = $1{lock}"
    ))
    .bind(&game.0)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(StoreError::NoGame)?;
    if row.try_get::<Option<i64>, _>("finished_ms")?.is_some() {
        return Err(StoreError::Finished);
    }
    Ok(u32::try_from(row.try_get::<i64, _>("moves")?).unwrap_or(u32::MAX))
}

/// Notes within `tx` that `game`'s turn began at `now` and is due `due_in` after it; on
/// PostgreSQL (`server`: this server's id), the other servers are told when `tx` commits.
async fn note_change(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &GameId,
    now: i64,
    due_in: Option<i64>,
    server: Option<&str>,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE games SET moved_ms = $1, due_ms = $2 WHERE id = $3")
        .bind(now)
        .bind(due_in.map(|d| now.saturating_add(d)))
        .bind(&game.0)
        .execute(&mut **tx)
        .await?;
    if let Some(server) = server {
        notify(tx, server, game).await?;
    }
    Ok(())
}

/// Within `tx`, on PostgreSQL (`lock`), holds `player`'s row until `tx` ends, so that one change
/// of theirs (holidays, e-mail address) is made at a time, whichever server makes it.
async fn lock_player(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    player: &PlayerId,
    lock: bool,
) -> Result<(), StoreError> {
    if lock {
        sqlx::query("SELECT id FROM players WHERE id = $1 FOR UPDATE")
            .bind(&player.0)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// `NOTIFY`s the other servers on PostgreSQL, when `tx` commits, that `game` changed.
async fn notify(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    server: &str,
    game: &GameId,
) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANGES_CHANNEL)
        .bind(format!("{server} {}", game.0))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sqlite_file_and_its_folder_are_made_when_missing() {
        let dir = std::env::temp_dir().join(format!("qiguo-store-url-{}", std::process::id()));
        let file = dir.join("a").join("games.db");
        let url = format!("sqlite://{}", file.display());
        assert_eq!(sqlite_created(&url).unwrap(), format!("{url}?mode=rwc"));
        assert!(dir.join("a").is_dir());
        // A mode given is kept (the folder is still made); other options are kept too.
        let read_only = format!("sqlite://{}?mode=ro", dir.join("b/x.db").display());
        assert_eq!(sqlite_created(&read_only).unwrap(), read_only);
        assert!(dir.join("b").is_dir());
        let cached = format!("sqlite://{}?cache=shared", file.display());
        assert_eq!(
            sqlite_created(&cached).unwrap(),
            format!("{cached}&mode=rwc")
        );
        assert_eq!(
            sqlite_created("sqlite::memory:").unwrap(),
            "sqlite::memory:"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
