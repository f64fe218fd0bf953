//! Play across machines: a host that holds the game and players' machines that join it, on
//! bevy_replicon over renet (UDP with netcode). See [`protocol`] for what they say,
//! [`host`] for the host and [`guest`] for a player's machine without a window.

pub mod protocol;
pub mod seating;

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::RenetChannelsExt;
use bevy_replicon_renet::netcode::{
    ClientAuthentication, NetcodeClientTransport, NetcodeServerTransport, ServerAuthentication,
    ServerConfig,
};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetClient, RenetServer};

use protocol::{
    Join, NETCODE_PROTOCOL_ID, Play, Played, Refused, Resync, Table, TakeBack, Welcome,
};

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

/// How long a machine trying to reach a host that has gone waits between attempts.
pub(crate) const RETRY_AFTER: Duration = Duration::from_secs(2);

/// How long a machine waits for the host's answer before asking to join again.
pub(crate) const JOIN_RESEND: Duration = Duration::from_secs(1);

/// Whether a join is to be sent now: at once when `pace` is `None` (nothing sent yet, or the
/// connection was made afresh), then every [`JOIN_RESEND`] while unanswered. `pace` is
/// started here when the first join goes out.
pub(crate) fn join_due(pace: &mut Option<Timer>, delta: Duration) -> bool {
    match pace {
        None => {
            *pace = Some(Timer::new(JOIN_RESEND, TimerMode::Repeating));
            true
        }
        Some(timer) => timer.tick(delta).just_finished(),
    }
}

/// renet's connection settings for the channels replicon registered (the same on both sides).
fn connection_config(channels: &RepliconChannels) -> ConnectionConfig {
    ConnectionConfig {
        server_channels_config: channels.server_configs(),
        client_channels_config: channels.client_configs(),
        ..Default::default()
    }
}

/// The time since the Unix epoch, as netcode's transports take it.
fn unix_time() -> Duration {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
}

/// A server listening on `bind`: renet's server and its netcode transport, and the address.
pub(crate) fn listen(
    channels: &RepliconChannels,
    bind: SocketAddr,
) -> Result<(RenetServer, NetcodeServerTransport, SocketAddr), NetError> {
    let socket = UdpSocket::bind(bind).map_err(|e| NetError::Bind(bind, e))?;
    let addr = socket.local_addr().map_err(|e| NetError::Bind(bind, e))?;
    let transport = NetcodeServerTransport::new(
        ServerConfig {
            current_time: unix_time(),
            max_clients: 16,
            protocol_id: NETCODE_PROTOCOL_ID,
            authentication: ServerAuthentication::Unsecure,
            public_addresses: vec![addr],
        },
        socket,
    )
    .map_err(|e| NetError::Transport(e.to_string()))?;
    Ok((
        RenetServer::new(connection_config(channels)),
        transport,
        addr,
    ))
}

/// A client of `host`: renet's client and its netcode transport.
pub(crate) fn connect(
    channels: &RepliconChannels,
    host: SocketAddr,
) -> Result<(RenetClient, NetcodeClientTransport), NetError> {
    let any = SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0));
    let socket = UdpSocket::bind(any).map_err(|e| NetError::Bind(any, e))?;
    let current_time = unix_time();
    let client_id = current_time.as_nanos() as u64 ^ u64::from(std::process::id()) << 32;
    let transport = NetcodeClientTransport::new(
        current_time,
        ClientAuthentication::Unsecure {
            client_id,
            protocol_id: NETCODE_PROTOCOL_ID,
            server_addr: host,
            user_data: None,
        },
        socket,
    )
    .map_err(|e| NetError::Transport(e.to_string()))?;
    Ok((RenetClient::new(connection_config(channels)), transport))
}

/// Connects to `host` with a new client and transport in place of any old ones: removed first,
/// so that the new client counts as added and replicon starts the connection over.
pub(crate) fn connect_afresh(
    commands: &mut Commands,
    channels: &RepliconChannels,
    host: SocketAddr,
) -> Result<(), NetError> {
    let (client, transport) = connect(channels, host)?;
    commands.remove_resource::<RenetClient>();
    commands.remove_resource::<NetcodeClientTransport>();
    commands.insert_resource(client);
    commands.insert_resource(transport);
    Ok(())
}

/// The seat token kept in `file`, if there is one.
pub(crate) fn read_token(file: Option<&std::path::Path>) -> Option<String> {
    let text = std::fs::read_to_string(file?).ok()?;
    Some(text.trim().to_owned()).filter(|t| !t.is_empty())
}

/// The game's messages, registered the same way on host and guests, and the protocol
/// version: replicon checks that both sides agree before a machine is let in.
pub(crate) fn messages_plugin(app: &mut App, version: u32) {
    app.world_mut()
        .resource_mut::<ProtocolHasher>()
        .add_custom(("qiguo", version));
    app.add_client_message::<Join>(Channel::Ordered)
        .add_client_message::<Play>(Channel::Ordered)
        .add_client_message::<TakeBack>(Channel::Ordered)
        .add_server_message::<Welcome>(Channel::Ordered)
        .make_message_independent::<Welcome>()
        .add_server_message::<Refused>(Channel::Ordered)
        .make_message_independent::<Refused>()
        .add_server_message::<Played>(Channel::Ordered)
        .make_message_independent::<Played>()
        .add_server_message::<Table>(Channel::Ordered)
        .make_message_independent::<Table>()
        .add_server_message::<Resync>(Channel::Ordered)
        .make_message_independent::<Resync>();
}
