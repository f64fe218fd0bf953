//! `qiguo-server`: the server of Qiguo's online games on its own, without the game (no Bevy,
//! no window, no sound), for a machine without a display.

use std::process::ExitCode;

/// jemalloc, whose background threads give freed memory back to the system within seconds, so
/// that the server's memory follows its use (after a crowd or a flood) rather than its peak.
#[cfg(all(unix, not(target_env = "musl")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
