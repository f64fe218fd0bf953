//! `qiguo online`, a client without a window for scripts and tests: every command prints one
//! JSON line (`tournament …` lines to read, or one JSON line with `--json`); `play` one per move
//! it makes. The player's key for each server is kept in the data
//! directory. It speaks through the client crate, as the window and the page do. (`qiguo
//! server` is the server crate's command line, `qiguo_server::cli`.)
//!
//! A module per concern, as the server's slices: [`games`], [`quick`], [`lobby`] (and public
//! tables), [`conduct`], [`ratings`], [`puzzles`], [`clubs`], [`evenings`], [`tournaments`], [`holidays`], [`mail`], [`talk`]
//! and [`play`]; each owns its commands (a `Subcommand` flattened into [`Command`], or under a
//! word of its own: `club …`, `evening …`, `tournament …`), checks their arguments and asks the server. Here: the options, signing in, and the dispatcher.

mod clubs;
mod conduct;
mod evenings;
mod games;
mod holidays;
mod lobby;
mod mail;
mod play;
mod puzzles;
mod quick;
mod ratings;
mod talk;
mod tournaments;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use qiguo_client::{Client, ClientError, KeyStore, KeysError, SignInError, Trust, sign_in};
use qiguo_protocol::{Answer, GameView, MAX_DAYS, MIN_DAYS, Pace, WhenOverdue};
use qiguo_rules::Kingdom;

pub use self::clubs::{ClubArgs, ClubCommand};
pub use self::conduct::ConductCommand;
pub use self::evenings::{EveningArgs, EveningCommand};
pub use self::games::{CreateArgs, GamesCommand};
pub use self::holidays::HolidaysCommand;
pub use self::lobby::{LobbyCommand, TableArgs, TableCommand};
pub use self::mail::MailCommand;
pub use self::play::PlayCommand;
pub use self::puzzles::PuzzlesCommand;
pub use self::quick::QuickCommand;
pub use self::ratings::RatingsCommand;
pub use self::talk::TalkCommand;
pub use self::tournaments::TournamentCommand;
use super::error::ArgError;
use crate::saves::SaveDir;

/// Options of `qiguo online`.
#[derive(Args, Debug)]
pub struct OnlineArgs {
    /// The server: ws://HOST:PORT, or wss://HOST:PORT for one with TLS.
    #[arg(
        long,
        value_name = "URL",
        default_value = "ws://127.0.0.1:7206",
        global = true
    )]
    pub server: String,
    /// Also trust this authority's certificate (PEM) for wss:// (a server's own certificate).
    #[arg(long, value_name = "FILE", global = true)]
    pub ca: Option<PathBuf>,
    /// Connect by plain ws:// to another machine (a home network you trust): your key then
    /// crosses it unencrypted. Without it, ws:// is for this machine only.
    #[arg(long, global = true)]
    pub insecure_lan: bool,
    /// Your name, when this server meets you for the first time.
    #[arg(long, value_name = "N", default_value = "Player", global = true)]
    pub name: String,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl OnlineArgs {
    /// Whom the client trusts, as the options say.
    fn trust(&self) -> Trust {
        Trust {
            extra_ca: self.ca.clone(),
            insecure_lan: self.insecure_lan,
        }
    }
}

/// The commands of `qiguo online`, each concern's own.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Games: create, join, list, rematch, move, show.
    #[command(flatten)]
    Games(GamesCommand),
    /// Play now.
    #[command(flatten)]
    Quick(QuickCommand),
    /// The lobby and public tables.
    #[command(flatten)]
    Lobby(LobbyCommand),
    /// Blocks and reports.
    #[command(flatten)]
    Conduct(ConductCommand),
    /// The leaderboards.
    #[command(flatten)]
    Ratings(RatingsCommand),
    /// The server's puzzles.
    #[command(flatten)]
    Puzzles(PuzzlesCommand),
    /// Clubs: make, find, join and leave them; their members, organisers and news.
    Club(ClubArgs),
    /// Club evenings: set, answered, called off, listed, and added to a calendar.
    Evening(EveningArgs),
    /// Tournaments: set (a club's, by an organiser), joined, left, their standings followed.
    #[command(subcommand)]
    Tournament(TournamentCommand),
    /// Holidays.
    #[command(flatten)]
    Holidays(HolidaysCommand),
    /// E-mail.
    #[command(flatten)]
    Mail(MailCommand),
    /// Table talk.
    #[command(flatten)]
    Talk(TalkCommand),
    /// A seat played by a computer.
    #[command(flatten)]
    Play(PlayCommand),
}

impl Command {
    /// Checks the arguments before anything is sent, for the player called `name`.
    fn check(&self, name: &str) -> Result<(), ArgError> {
        match self {
            Command::Games(games) => games.check(name),
            Command::Lobby(lobby) => lobby.check(),
            Command::Evening(evening) => evening.command.check(),
            Command::Tournament(tournament) => tournament.check(),
            _ => Ok(()),
        }
    }
}

fn fail(message: &str, code: u8) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "qiguo: {message}");
    ExitCode::from(code)
}

pub(super) fn print_line(value: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{value}");
    let _ = out.flush();
}

/// `qiguo online …`: exit code 0 once done, 2 for arguments that ask for nothing the server
/// could do, 1 for anything else; the failure is one line on standard error.
pub fn run_online(args: &OnlineArgs) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail(&OnlineError::Runtime(e).to_string(), 1),
    };
    match rt.block_on(online(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ OnlineError::Arg(_)) => fail(&e.to_string(), 2),
        Err(e) => fail(&e.to_string(), 1),
    }
}

/// Why `qiguo online` did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum OnlineError {
    /// An option that cannot be used as given (nothing was sent).
    #[error(transparent)]
    Arg(#[from] ArgError),
    /// The client's runtime did not start.
    #[error("cannot start: {0}")]
    Runtime(std::io::Error),
    /// No data directory to keep the player's keys in.
    #[error("{0}")]
    Saves(crate::saves::SaveError),
    /// The player's keys could not be read or kept.
    #[error(transparent)]
    Keys(#[from] KeysError),
    /// The server could not be reached, or refused (a refusal said with its code).
    #[error("{}", client_words(.0))]
    Client(#[from] ClientError),
    /// The server answered with something this request does not expect.
    #[error("the server answered {0:?}")]
    Unexpected(Box<Answer>),
    /// The kingdom named has no seat in the game.
    #[error("{0} has no player in this game")]
    NoSeat(Kingdom),
    /// The server's record of the game does not replay.
    #[error("the server's record does not replay: {0}")]
    Record(#[from] qiguo_rules::RecordError),
    /// The answer could not be written as JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// No evening of that id among the client's clubs' evenings to come.
    #[error("no evening {0} among your clubs' evenings to come")]
    NoEvening(String),
    /// A file could not be written.
    #[error("cannot write {0}: {1}")]
    Write(String, std::io::Error),
}

impl From<SignInError> for OnlineError {
    fn from(e: SignInError) -> OnlineError {
        match e {
            SignInError::Client(e) => OnlineError::Client(e),
            SignInError::Keys(e) => OnlineError::Keys(e),
        }
    }
}

/// A client's failure in one line: a refusal as its code and the server's English words.
pub(super) fn client_words(e: &ClientError) -> String {
    match e {
        ClientError::Refused { refusal, why } => {
            let code = serde_json::to_value(refusal)
                .ok()
                .and_then(|v| v["code"].as_str().map(str::to_owned))
                .unwrap_or_default();
            format!("refused ({code}): {why}")
        }
        other => other.to_string(),
    }
}

/// Connects to the server as the player whose key is kept for it (or as a new player, whose
/// key is then kept).
async fn connect(server: &str, name: &str, trust: Trust) -> Result<Client, OnlineError> {
    let dir = SaveDir::locate().map_err(OnlineError::Saves)?;
    let keys = KeyStore::new(dir.root());
    let (client, welcome) = sign_in(server, name, None, &trust, &keys).await?;
    {
        {
            // Answered still, for a while: said once on standard error, beside the JSON.
            if qiguo_protocol::versions::behind(welcome.server_version) {
                eprintln!(
                    "qiguo: this server speaks protocol version {} and this qiguo {}: it still \
                     answers, but update qiguo before it stops",
                    welcome.server_version,
                    qiguo_protocol::PROTOCOL_VERSION
                );
            }
        }
    }
    Ok(client)
}

/// `qiguo online …`: the arguments checked, then the command's concern asks the server and
/// says what it answered.
async fn online(args: &OnlineArgs) -> Result<(), OnlineError> {
    // Arguments are checked before anything is sent.
    args.command.check(&args.name)?;
    if let Command::Play(play) = &args.command {
        return play.run(args).await;
    }
    let mut client = connect(&args.server, &args.name, args.trust()).await?;
    let line = match &args.command {
        Command::Games(games) => Some(games.run(&mut client, &args.name).await?),
        Command::Quick(quick) => Some(quick.run(&mut client).await?),
        Command::Lobby(lobby) => Some(lobby.run(&mut client).await?),
        Command::Conduct(conduct) => Some(conduct.run(&mut client).await?),
        Command::Ratings(ratings) => Some(ratings.run(&mut client).await?),
        Command::Puzzles(puzzles) => Some(puzzles.run(&mut client).await?),
        Command::Club(club) => {
            club.run(&mut client).await?;
            None
        }
        Command::Evening(evening) => {
            evening.run(&mut client, &args.server).await?;
            None
        }
        Command::Tournament(tournament) => {
            tournament.run(&mut client).await?;
            None
        }
        Command::Holidays(holidays) => Some(holidays.run(&mut client).await?),
        Command::Mail(mail) => Some(mail.run(&mut client).await?),
        Command::Talk(talk) => talk.run(&mut client).await?,
        Command::Play(_) => unreachable!("played on connections of its own, above"),
    };
    if let Some(line) = line {
        print_line(&line);
    }
    client.close().await;
    Ok(())
}

/// A moment in this machine's time zone: to the minute for people (`2026-12-01 19:30`), or
/// as RFC 3339 when `rfc` (for scripts).
pub(super) fn local_time(ms: i64, rfc: bool) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| {
            let zoned = t.to_zoned(jiff::tz::TimeZone::system());
            let form = if rfc {
                "%Y-%m-%dT%H:%M:%S%:z"
            } else {
                "%Y-%m-%d %H:%M"
            };
            zoned.strftime(form).to_string()
        })
        .unwrap_or_default()
}

pub(super) fn unexpected<T>(answer: Answer) -> Result<T, OnlineError> {
    Err(OnlineError::Unexpected(Box::new(answer)))
}

/// The player number of `kingdom`'s seat in the game of `view`.
pub(super) fn seat_of(view: &GameView, kingdom: Kingdom) -> Result<u8, OnlineError> {
    let game = view.record.replay()?;
    game.start_position()
        .seats()
        .player(kingdom)
        .ok_or(OnlineError::NoSeat(kingdom))
}

pub(super) fn game_view(answer: Answer) -> Result<GameView, OnlineError> {
    match answer {
        Answer::Game(view) => Ok(*view),
        other => unexpected(other),
    }
}

/// A pace as `--pace`, `--wait` and `--overdue` give it: `live`, or `Nd` for N days a move.
pub(super) fn parse_pace(pace: &str, wait: u32, overdue: &str) -> Result<Pace, ArgError> {
    let overdue = match overdue {
        "stand-in" => WhenOverdue::StandIn,
        "pass" => WhenOverdue::Pass,
        other => {
            return Err(ArgError::new(
                format!("--overdue {other}"),
                "an overdue move is stand-in or pass",
            ));
        }
    };
    Ok(match pace {
        "live" => Pace::Live { wait_seconds: wait },
        days => {
            let n = days
                .strip_suffix('d')
                .and_then(|n| n.parse::<u8>().ok())
                .ok_or_else(|| {
                    ArgError::new(
                        format!("--pace {days}"),
                        format!("a pace is live, or {MIN_DAYS}d to {MAX_DAYS}d (days per move)"),
                    )
                })?;
            Pace::Correspondence { days: n, overdue }
        }
    })
}
