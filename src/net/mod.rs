//! Play across machines: a host that holds the game and players' machines that join it, on
//! bevy_replicon over renet (UDP with netcode). See [`protocol`] for what they say,
//! [`host`] for the host and [`guest`] for a player's machine without a window.

pub mod guest;
pub mod host;
pub mod protocol;

use std::net::SocketAddr;
use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::RepliconRenetPlugins;

use protocol::{Join, Play, Played, Refused, Welcome};

/// Why networking could not start.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The address could not be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    /// renet's transport refused to start.
    #[error("the network transport did not start: {0}")]
    Transport(String),
}

/// Frames per second of a headless host or guest: messages are read and sent once a frame.
const FRAME: Duration = Duration::from_millis(1000 / 60);

/// A Bevy app without a window or renderer, ready for replicon and renet: time, states and a
/// loop at 60 frames a second.
fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(FRAME)),
        StatesPlugin,
        RepliconPlugins,
        RepliconRenetPlugins,
    ));
    app
}

/// The game's messages, registered the same way on host and guests, and the protocol
/// version: replicon checks that both sides agree before a machine is let in.
fn messages_plugin(app: &mut App, version: u32) {
    app.world_mut()
        .resource_mut::<ProtocolHasher>()
        .add_custom(("qiguo", version));
    app.add_client_message::<Join>(Channel::Ordered)
        .add_client_message::<Play>(Channel::Ordered)
        .add_server_message::<Welcome>(Channel::Ordered)
        .make_message_independent::<Welcome>()
        .add_server_message::<Refused>(Channel::Ordered)
        .make_message_independent::<Refused>()
        .add_server_message::<Played>(Channel::Ordered)
        .make_message_independent::<Played>();
}

/// `qiguo server`: hosts the game until it ends (exit code 0), printing one line per event.
pub fn run_host(config: host::HostConfig) -> std::process::ExitCode {
    match host::host_app(config) {
        Ok((mut app, _)) => exit_code(app.run()),
        Err(e) => {
            eprintln!("qiguo: {e}");
            std::process::ExitCode::from(1)
        }
    }
}

/// `qiguo client`: joins (or rejoins, with the seat token kept in the data directory) and
/// plays its seat until the game ends.
pub fn run_guest(args: &crate::cli::args::ClientArgs) -> std::process::ExitCode {
    // One token per host and seat, so that several clients on one machine keep theirs apart.
    let token_file = crate::saves::SaveDir::locate().ok().map(|dir| {
        let name =
            format!("{}-{}", args.connect, args.seat.name()).replace([':', '.', '[', ']'], "_");
        dir.root().join("seats").join(format!("{name}.token"))
    });
    if let Some(dir) = token_file.as_ref().and_then(|f| f.parent()) {
        let _ = std::fs::create_dir_all(dir);
    }
    let config = guest::GuestConfig {
        version: protocol::PROTOCOL_VERSION,
        host: args.connect,
        seats: vec![args.seat],
        level: args.level,
        name: args.name.clone(),
        token_file,
    };
    match guest::guest_app(config) {
        Ok(mut app) => exit_code(app.run()),
        Err(e) => {
            eprintln!("qiguo: {e}");
            std::process::ExitCode::from(1)
        }
    }
}

fn exit_code(exit: AppExit) -> std::process::ExitCode {
    match exit {
        AppExit::Success => std::process::ExitCode::SUCCESS,
        AppExit::Error(code) => std::process::ExitCode::from(code.get()),
    }
}
