//! The operator's commands on the database (the servers on it need not stop): a consistent
//! copy of a SQLite database, table talk hidden or a player barred from it, the players'
//! reports listed and handled, a player barred from play, the puzzles mined from reviewed games,
//! a public tournament set (once, or every so many days).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use super::{ServerArgs, fail};
use crate::store::{GameId, PlayerId, StoreError};

/// Why an operator's command on the database did not do what it asked.
#[derive(Debug, thiserror::Error)]
pub enum OperatorError {
    /// The database failed, or refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The copy was not made.
    #[error("backup: {0}")]
    Backup(StoreError),
    /// No player has that id.
    #[error("no player {0}")]
    NoPlayer(String),
    /// The game has no such line of talk.
    #[error("game {0} has no line {1}")]
    NoTalkLine(String, u32),
    /// No report has that id.
    #[error("no report {0}")]
    NoReport(String),
    /// The tournament was refused.
    #[error("tournament: {0}")]
    Tournament(crate::protocol::Refusal),
    /// A start time not written as RFC 3339.
    #[error("--starts {0}: a time is written as RFC 3339, such as 2026-12-07T18:00:00Z")]
    Starts(String),
}

/// Copies the server's SQLite database to `to`, consistently while a server runs on it: exit
/// code 0, 1 when it cannot be copied, 2 for options that name no database.
pub fn backup(args: &ServerArgs, to: &Path, program: &str) -> ExitCode {
    on_the_database(args, program, |store| async move {
        store
            .backup(to)
            .await
            .map(|()| to.display().to_string())
            .map_err(OperatorError::Backup)
    })
}

/// The most puzzles `qiguo-server puzzles` prints.
pub const MAX_PUZZLES_PRINTED: u32 = 100_000;

/// Prints the puzzles mined from the reviewed games (the newest first, at most `limit`; with
/// `game`, that game's) as one JSON array, the form `qiguo puzzles play FILE` reads.
pub fn puzzles(args: &ServerArgs, game: Option<&str>, limit: u32, program: &str) -> ExitCode {
    let game = game.map(|g| GameId(g.to_owned()));
    on_the_database(args, program, |store| async move {
        let found = store
            .puzzles(game.as_ref(), limit.min(MAX_PUZZLES_PRINTED))
            .await?;
        let puzzles: Vec<_> = found.into_iter().map(|(_, puzzle)| puzzle).collect();
        Ok(serde_json::to_string(&puzzles).expect("puzzles serialize"))
    })
}

/// What the operator does to table talk.
#[derive(clap::Subcommand, Debug)]
pub enum TalkCommand {
    /// Hides a line of a game's table talk from every later reading (the players who already
    /// saw it keep it until they open the game again).
    Hide {
        /// The game's id.
        game: String,
        /// The line's number (`n`, as `qiguo online talk` prints it).
        line: u32,
        /// Show it again instead.
        #[arg(long)]
        show: bool,
    },
    /// Bars a player from table talk (they still play and read).
    Bar {
        /// The player's id.
        player: String,
        /// Let them talk again instead.
        #[arg(long)]
        lift: bool,
    },
}

/// Does `command` on the database of `args` (the servers on it need not stop); prints what
/// was done.
pub fn talk(args: &ServerArgs, command: &TalkCommand, program: &str) -> ExitCode {
    on_the_database(args, program, |store| async move {
        match command {
            TalkCommand::Hide { game, line, show } => {
                match store.hide_talk(&GameId(game.clone()), *line, !show).await {
                    Ok(true) if *show => Ok(format!("line {line} of game {game} shown")),
                    Ok(true) => Ok(format!("line {line} of game {game} hidden")),
                    Ok(false) => Err(OperatorError::NoTalkLine(game.clone(), *line)),
                    Err(e) => Err(e.into()),
                }
            }
            TalkCommand::Bar { player, lift } => {
                match store.bar_from_talk(&PlayerId(player.clone()), !lift).await {
                    Ok(true) if *lift => Ok(format!("player {player} may talk again")),
                    Ok(true) => Ok(format!("player {player} barred from table talk")),
                    Ok(false) => Err(OperatorError::NoPlayer(player.clone())),
                    Err(e) => Err(e.into()),
                }
            }
        }
    })
}

/// What the operator does about the players' conduct.
#[derive(clap::Subcommand, Debug)]
pub enum ConductCommand {
    /// Lists the reports players made of each other, the oldest first, a JSON line each: those
    /// not handled yet, or with --all every one.
    Reports {
        /// Every report, the handled ones too.
        #[arg(long)]
        all: bool,
    },
    /// Marks a report handled (it is no longer listed without --all).
    Handled {
        /// The report's id.
        report: String,
    },
    /// Bars a player from play: refused when they sign in (their games go on, their seats
    /// stood in for as for anyone away).
    Bar {
        /// The player's id (as the reports give it).
        player: String,
        /// Let them play again instead.
        #[arg(long)]
        lift: bool,
    },
}

/// Does `command` on the database of `args` (the servers on it need not stop); prints what
/// was done, or the reports.
pub fn conduct(args: &ServerArgs, command: &ConductCommand, program: &str) -> ExitCode {
    on_the_database(args, program, |store| async move {
        match command {
            ConductCommand::Reports { all } => {
                let reports = store.reports(*all).await?;
                let lines: Vec<String> = reports
                    .iter()
                    .filter_map(|r| serde_json::to_string(r).ok())
                    .collect();
                Ok(match lines.is_empty() {
                    true => "no reports".to_owned(),
                    false => lines.join("\n"),
                })
            }
            ConductCommand::Handled { report } => match store.report_handled(report).await {
                Ok(true) => Ok(format!("report {report} handled")),
                Ok(false) => Err(OperatorError::NoReport(report.clone())),
                Err(e) => Err(e.into()),
            },
            ConductCommand::Bar { player, lift } => {
                match store.bar_from_play(&PlayerId(player.clone()), !lift).await {
                    Ok(true) if *lift => Ok(format!("player {player} may play again")),
                    Ok(true) => Ok(format!("player {player} barred from play")),
                    Ok(false) => Err(OperatorError::NoPlayer(player.clone())),
                    Err(e) => Err(e.into()),
                }
            }
        }
    })
}

/// A public tournament, as the operator sets it (`qiguo-server tournament`).
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// Its name (unique on the server; a series' later ones add their date).
    #[arg(long)]
    pub name: String,
    /// swiss (rounds by correspondence) or arena (live, seated again at once).
    #[arg(long, value_name = "FORMAT")]
    pub format: String,
    /// When it starts: an RFC 3339 time such as 2026-12-07T18:00:00Z.
    #[arg(long, value_name = "TIME")]
    pub starts: String,
    /// Quick play's paces: brisk or calm for an arena, daily or relaxed for a Swiss.
    #[arg(long, value_name = "PACE")]
    pub pace: qiguo_protocol::QuickPace,
    /// A Swiss's rounds.
    #[arg(long, default_value_t = 5)]
    pub rounds: u8,
    /// An arena's length in minutes.
    #[arg(long, default_value_t = 60)]
    pub minutes: u32,
    /// The most players it takes.
    #[arg(long, default_value_t = 1000)]
    pub most: u32,
    /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
    #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
    pub preset: qiguo_rules::Preset,
    /// The computers' level in the kingdoms nobody takes: easy, medium or hard.
    #[arg(long, value_name = "LEVEL", default_value = "medium")]
    pub level: qiguo_rules::Level,
    /// Its games do not count for the ratings.
    #[arg(long)]
    pub unrated: bool,
    /// Set the next one this many days after each starts (a weekly series: 7).
    #[arg(long, value_name = "DAYS")]
    pub every_days: Option<u32>,
}

/// Sets the public tournament `args` on the database of `server`; prints it as JSON.
pub fn tournament(server: &ServerArgs, args: &TournamentArgs, program: &str) -> ExitCode {
    use qiguo_protocol::tournaments::{TournamentFormat, TournamentPlay, TournamentSpec};
    on_the_database(server, program, |store| async move {
        let format = match args.format.as_str() {
            "swiss" => TournamentFormat::Swiss,
            "arena" => TournamentFormat::Arena,
            _ => {
                return Err(OperatorError::Tournament(
                    crate::protocol::Refusal::TournamentPace,
                ));
            }
        };
        let starts: jiff::Timestamp = args
            .starts
            .trim()
            .parse()
            .map_err(|_| OperatorError::Starts(args.starts.clone()))?;
        let spec = TournamentSpec {
            name: args.name.clone(),
            format,
            play: TournamentPlay {
                preset: args.preset,
                pace: args.pace,
                level: args.level,
                rated: !args.unrated,
            },
            starts_ms: starts.as_millisecond(),
            rounds: args.rounds,
            minutes: args.minutes,
            most: args.most,
            club: None,
        }
        .cleaned(store.now())
        .map_err(OperatorError::Tournament)?;
        let every = args.every_days.filter(|&d| d > 0);
        let t = match store.create_tournament(&spec, None, None, every).await {
            Err(crate::store::StoreError::Refused(refusal)) => {
                return Err(OperatorError::Tournament(refusal));
            }
            other => other?,
        };
        Ok(serde_json::json!({
            "id": t.id,
            "name": t.name,
            "format": t.format.word(),
            "starts_ms": t.starts_ms,
            "every_days": t.repeat_days,
        })
        .to_string())
    })
}

/// Opens the database of `args`, runs `work` on it and closes it: its words on standard
/// output and success, or on standard error and failure.
fn on_the_database<'a, F, W>(args: &ServerArgs, program: &str, work: W) -> ExitCode
where
    W: FnOnce(crate::store::Store) -> F + 'a,
    F: Future<Output = Result<String, OperatorError>> + 'a,
{
    let config = match args.config() {
        Ok(config) => config,
        Err(e) => return fail(program, &e.to_string(), 2),
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail(program, &format!("cannot start: {e}"), 1),
    };
    rt.block_on(async {
        let store = match crate::store::Store::open(&config.db).await {
            Ok(store) => store,
            Err(e) => return fail(program, &e.to_string(), 1),
        };
        let done = work(store.clone()).await;
        store.close().await;
        match done {
            Ok(said) => {
                let _ = writeln!(std::io::stdout(), "{said}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(program, &e.to_string(), 1),
        }
    })
}
