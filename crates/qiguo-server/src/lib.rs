//! The server of Qiguo's online games, without Bevy: who is let in and how much each may ask
//! ([`admission`]), where games live ([`store`]: players,
//! games, seats, moves and invitations in SQLite or PostgreSQL), the secrets that guard them
//! ([`secret`]), what clients and the server say ([`protocol`], the `qiguo-protocol` crate), the games a running server
//! holds and plays ([`hub`], around each game's pure core, [`live`]), the server on the network ([`server`]), the
//! e-mail to players who are away ([`mail`]), the server's log ([`log`]) and counts ([`metrics`]) and its command line ([`cli`], the `qiguo-server` binary's and
//! `qiguo server`'s).
//!
//! Every move is written in a transaction before it is acknowledged, so a server killed at any
//! moment comes back with every move it ever acknowledged.

// What is public is what the game, the binary and the tests use; everything else is the
// crate's own (an item `pub` inside a private module is a warning, so an error in CI).
#![warn(unreachable_pub)]

pub mod admission;
pub mod cli;
pub mod hub;
mod live;
pub mod log;
pub mod mail;
mod metrics;
mod model;
pub mod page;
pub mod pairing;
pub mod pictures;
pub mod push;
mod rated;
mod reviewing;
pub use qiguo_protocol as protocol;
mod secret;
pub mod server;
pub mod store;

pub use qiguo_protocol::QuickPace;
pub use store::{
    CreatedGame, Failure, GameId, MadeBy, NewPlayer, Pace, PlayerId, SeatPlan, Store, StoreError,
    StoredGame, WhenOverdue,
};

#[cfg(test)]
mod build_script {
    /// What the build script told Cargo, as Cargo keeps it beside `OUT_DIR`.
    fn told() -> String {
        let output = std::path::Path::new(env!("OUT_DIR")).with_file_name("output");
        std::fs::read_to_string(&output).unwrap_or_else(|e| panic!("{}: {e}", output.display()))
    }

    /// A path that does not exist, or a variable the script does not read, would make Cargo
    /// run it again at every build, and rebuild the server, the game and every test after it.
    #[test]
    fn the_build_script_is_run_again_only_for_what_it_reads() {
        let told = told();
        let mut watched = 0;
        for line in told.lines() {
            if let Some(path) = line.strip_prefix("cargo::rerun-if-changed=") {
                assert!(
                    std::path::Path::new(path).exists(),
                    "{path} is watched but does not exist"
                );
                watched += 1;
            }
            if let Some(variable) = line.strip_prefix("cargo::rerun-if-env-changed=") {
                assert_eq!(variable, "QIGUO_POSTGRES_URL", "the one variable it reads");
            }
        }
        assert_eq!(watched, 2, "aiosmtpd and systemd-analyze: {told}");
    }
}
