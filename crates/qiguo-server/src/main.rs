//! `qiguo-server`: the server of Qiguo's online games on its own, without the game (no Bevy,
//! no window, no sound), for a machine without a display.

use std::process::ExitCode;

/// jemalloc, whose background threads give freed memory back to the system within seconds, so
/// that the server's memory follows its use (after a crowd or a flood) rather than its peak.
#[cfg(all(unix, not(target_env = "musl")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use qiguo_server::cli::{
    ConductCommand, ServerArgs, TalkCommand, TournamentArgs, backup, conduct, puzzles, review, run,
    talk, tournament,
};

/// Serves Qiguo Xiangqi's online games (live and by correspondence) over WebSocket; logs one
/// line per event on standard output; SIGTERM or Ctrl-C shuts it down gracefully, SIGHUP reads
/// the TLS certificate again.
#[derive(Parser, Debug)]
#[command(name = "qiguo-server", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Copies the SQLite database (--db, or the data directory's) to a new file, consistently
    /// while a server runs on it; prints the file's name.
    Backup {
        /// The copy to make (it must not exist).
        to: PathBuf,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Keeps table talk civil on the database (--db, or the data directory's): hides a line,
    /// bars a player from talking.
    Talk {
        #[command(subcommand)]
        what: TalkCommand,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// The players' conduct on the database (--db, or the data directory's): lists the reports
    /// they made of each other, marks one handled, bars a player from play.
    Conduct {
        #[command(subcommand)]
        what: ConductCommand,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Reviews finished games from the database (--db, or the data directory's) and serves no
    /// one: a worker beside the servers, --reviewers games at once; stops on SIGTERM or Ctrl-C.
    Review {
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Prints the puzzles mined from the reviewed games on the database (--db, or the data
    /// directory's), the newest first, as one JSON array: what `qiguo puzzles play FILE` plays.
    Puzzles {
        /// Only this game's.
        #[arg(long, value_name = "ID")]
        game: Option<String>,
        /// At most this many.
        #[arg(long, value_name = "N", default_value_t = 1_000,
              value_parser = clap::value_parser!(u32).range(1..=i64::from(qiguo_server::cli::MAX_PUZZLES_PRINTED)))]
        limit: u32,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Sets a public tournament on the database (--db, or the data directory's): a Swiss by
    /// correspondence or a live arena, once or every --every-days; prints it as JSON. (A club's
    /// own are set by its organisers, `qiguo online tournament create --club`.)
    Tournament {
        #[command(flatten)]
        tournament: TournamentArgs,
        #[command(flatten)]
        server: ServerArgs,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Some(Command::Backup { to, server }) => backup(server, to, "qiguo-server backup"),
        Some(Command::Talk { what, server }) => talk(server, what, "qiguo-server talk"),
        Some(Command::Conduct { what, server }) => conduct(server, what, "qiguo-server conduct"),
        Some(Command::Review { server }) => review(server, "qiguo-server review"),
        Some(Command::Puzzles {
            game,
            limit,
            server,
        }) => puzzles(server, game.as_deref(), *limit, "qiguo-server puzzles"),
        Some(Command::Tournament {
            tournament: t,
            server,
        }) => tournament(server, t, "qiguo-server tournament"),
        None => run(&cli.server, "qiguo-server"),
    }
}
