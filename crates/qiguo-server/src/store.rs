//! Where online games live: players (a random id, a hashed key, a name), games (their start as
//! a game record, their pace and invitation code), seats (open, invited or a computer, and who
//! took them) and moves, in SQLite (a file, written ahead in WAL mode, every commit on disk) or
//! PostgreSQL — the same queries through sqlx's `Any` driver, the same migrations.
//!
//! Every write is one transaction, committed before the call returns: a move the server
//! acknowledges after [`Store::append_move`] survives the server being killed the next moment.
//! The store keeps what it is given; the rules are checked by its caller, and again by
//! [`Store::load_game`], which replays every stored game through the rules engine.
//!
//! Here the connection, its migrations, the clock and the notices to other servers; one part
//! per concern beside it: `players` (keys and names), `games` (games, seats, moves), `group`
//! (the group commit), `talk`, `holidays`, `mail`, `quick`, `ratings`, `tables` (the lobby),
//! `reviews`, `clubs` and `evenings`.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use qiguo_protocol::{Event, NewGame, QuickPace, RatingFamily, Refusal};
pub use qiguo_protocol::{GameId, MadeBy, Pace, PlayerId, SeatPlan, TakeBackView, WhenOverdue};
use qiguo_rules::{Move, Record};
use serde::Serialize;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Executor, Row};

use crate::secret::{self, NoRandomness};

pub use crate::model::{Leaver, StoredGame, StoredSeat};
pub use clubs::{ClubMemberRow, ClubRow};
pub use conduct::Report;
pub use evenings::{Comer, EveningGame, EveningRow};
use ratings::rating_of;
pub use ratings::{RatingRecord, RatingStep, Rerated};
pub use tables::{QuickCounts, StoredTable, Watchable};
pub use tournaments::{Entrant, Scored, TournamentRow, TournamentTable};

mod clubs;
mod conduct;
mod evenings;
mod games;
mod group;
mod holidays;
pub mod mail;
mod players;
mod push;
mod puzzles;
mod quick;
mod ratings;
pub mod reviews;
mod tables;
mod talk;
mod tournaments;

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
    (8, "quick", include_str!("../migrations/0008_quick.sql")),
    (9, "ratings", include_str!("../migrations/0009_ratings.sql")),
    (10, "lobby", include_str!("../migrations/0010_lobby.sql")),
    (
        11,
        "leavers",
        include_str!("../migrations/0011_leavers.sql"),
    ),
    (
        12,
        "conduct",
        include_str!("../migrations/0012_conduct.sql"),
    ),
    (13, "names", include_str!("../migrations/0013_names.sql")),
    (14, "push", include_str!("../migrations/0014_push.sql")),
    (
        15,
        "reviews",
        include_str!("../migrations/0015_reviews.sql"),
    ),
    (
        16,
        "puzzles",
        include_str!("../migrations/0016_puzzles.sql"),
    ),
    (17, "clubs", include_str!("../migrations/0017_clubs.sql")),
    (
        18,
        "evenings",
        include_str!("../migrations/0018_evenings.sql"),
    ),
    (
        19,
        "tournaments",
        include_str!("../migrations/0019_tournaments.sql"),
    ),
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

/// Why the store did not do what was asked. Nothing was changed. Two kinds, of two types: the
/// request was refused for what it asks (a [`Refusal`] the player is told: a wrong key, no such
/// game, a seat taken, a move for a turn already played), or the database failed (a
/// [`Failure`] the operator reads, and the player is asked to try again).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Refused for what it asks.
    #[error("{0}")]
    Refused(Refusal),
    /// The database failed.
    #[error(transparent)]
    Failed(#[from] Failure),
}

/// How the database failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
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
    /// A stored game does not replay (a damaged database).
    #[error("game {0} cannot be replayed: {1}")]
    Damaged(String, String),
    /// Another server serves this SQLite file (one file takes one server; several servers
    /// share a PostgreSQL database).
    #[error(
        "{0} is served by another server already: a SQLite file takes one server (several share a PostgreSQL database)"
    )]
    Served(PathBuf),
    /// The transaction holding this change, with others, failed to commit, or what it was to
    /// keep could not be made.
    #[error("database: the commit failed: {0}")]
    Commit(String),
    /// A stored row holds what no version of the server writes (a damaged database).
    #[error("database: a row does not read: {0}")]
    Unreadable(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError::Failed(Failure::Database(e))
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError::Failed(Failure::Migrate(e))
    }
}

impl From<NoRandomness> for StoreError {
    fn from(e: NoRandomness) -> StoreError {
        StoreError::Failed(Failure::NoRandomness(e))
    }
}

impl From<Refusal> for StoreError {
    fn from(refusal: Refusal) -> StoreError {
        StoreError::Refused(refusal)
    }
}

impl StoreError {
    /// The database failed with `why` while committing or making what it was to keep.
    pub(crate) fn commit(why: impl Into<String>) -> StoreError {
        StoreError::Failed(Failure::Commit(why.into()))
    }
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
    Failure::Damaged(game.to_owned(), why.to_string()).into()
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
            .map_err(|e| Failure::Folder(folder.display().to_string(), e.to_string()))?;
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
            .map_err(|e| Failure::Folder(path.display().to_string(), e.to_string()))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => Err(Failure::Served(path).into()),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(Failure::Folder(path.display().to_string(), e.to_string()).into())
            }
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
            return Err(Failure::Folder(
                to.display().to_string(),
                "a PostgreSQL database is backed up with pg_dump".into(),
            )
            .into());
        }
        if to.exists() {
            return Err(Failure::Folder(
                to.display().to_string(),
                "already exists: a backup is written to a new file".into(),
            )
            .into());
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
}

/// A count (or a move's number) in `row`'s `column`, as stored (a `BIGINT`): past `u32`, the
/// largest.
fn count(row: &sqlx::any::AnyRow, column: &str) -> Result<u32, StoreError> {
    Ok(u32::try_from(row.try_get::<i64, _>(column)?).unwrap_or(u32::MAX))
}

/// Whether `error` is the database refusing a second row where a unique index allows one.
fn unique_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.is_unique_violation())
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
    .ok_or(StoreError::Refused(Refusal::NoGame))?;
    if row.try_get::<Option<i64>, _>("finished_ms")?.is_some() {
        return Err(StoreError::Refused(Refusal::GameOver));
    }
    count(&row, "moves")
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

    /// A migration file not listed would never be applied (as happened once, silently): every
    /// file of `migrations/` is listed, in the order of its number, with its text.
    #[test]
    fn every_migration_file_is_listed_in_order() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sql"))
            .collect();
        files.sort();
        assert_eq!(files.len(), MIGRATIONS.len(), "{files:?}");
        for (file, (version, _, sql)) in files.iter().zip(MIGRATIONS) {
            let name = file.file_name().unwrap().to_string_lossy();
            assert!(name.starts_with(&format!("{version:04}_")), "{name}");
            assert_eq!(std::fs::read_to_string(file).unwrap(), *sql, "{name}");
        }
    }

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
