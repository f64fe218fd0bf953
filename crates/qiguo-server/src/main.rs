//! `qiguo-server`: the server of Qiguo's online games on its own, without the game (no Bevy,
//! no window, no sound), for a machine without a display.

use std::process::ExitCode;

use clap::Parser;
use qiguo_server::cli::{ServerArgs, run};

/// Serves Qiguo Xiangqi's online games (live and by correspondence) over WebSocket; logs one
/// line per event on standard output; SIGTERM or Ctrl-C shuts it down gracefully.
#[derive(Parser, Debug)]
#[command(name = "qiguo-server", version)]
struct Cli {
    #[command(flatten)]
    server: ServerArgs,
}

fn main() -> ExitCode {
    run(&Cli::parse().server, "qiguo-server")
}
