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

/// The game's messages, registered the same way on host and guests (replicon checks that
/// both sides agree before a machine is let in).
fn messages_plugin(app: &mut App) {
    app.add_client_message::<Join>(Channel::Ordered)
        .add_client_message::<Play>(Channel::Ordered)
        .add_server_message::<Welcome>(Channel::Ordered)
        .make_message_independent::<Welcome>()
        .add_server_message::<Refused>(Channel::Ordered)
        .make_message_independent::<Refused>()
        .add_server_message::<Played>(Channel::Ordered)
        .make_message_independent::<Played>();
}
