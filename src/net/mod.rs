//! Play across machines: a host that holds the game and players' machines that join it, on
//! bevy_replicon over renet (UDP with netcode). See [`protocol`] for what they say,
//! [`host`] for the host and [`guest`] for a player's machine without a window.

pub mod guest;
pub mod host;
pub mod protocol;
pub mod seating;

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{
    ClientAuthentication, NetcodeClientTransport, NetcodeServerTransport, ServerAuthentication,
    ServerConfig,
};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetChannelsExt, RepliconRenetPlugins};
use bevy_replicon_renet::{RenetClient, RenetServer};
use qiguo_ai::{BackgroundSearch, Engine, Level, LevelSearch, Limits};
use qiguo_rules::{Move, Position};

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

/// A computer's search on a thread of its own, so that the machine keeps serving its
/// connection meanwhile; by node budget, so the same move on any machine.
struct Search {
    engine: Arc<Mutex<Engine>>,
    /// The search under way, and the move number it is for.
    running: Option<(u32, BackgroundSearch)>,
}

impl Search {
    fn new() -> Search {
        Search {
            engine: Arc::new(Mutex::new(Engine::new(16))),
            running: None,
        }
    }

    /// Whether a search is under way (or finished and not yet taken).
    fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// Starts searching `pos`, move number `ply`, at `level`.
    fn start(&mut self, pos: &Position, level: Level, ply: u32, salt: u64) {
        let limits = Limits {
            nodes: Some(level.nodes()),
            ..Limits::default()
        };
        let search = BackgroundSearch::start(
            self.engine.clone(),
            pos.clone(),
            level,
            limits,
            u64::from(ply) ^ salt,
        );
        self.running = Some((ply, search));
    }

    /// The move found and the move number it was for, once the search has finished.
    fn take_ready(&mut self) -> Option<(u32, Option<Move>)> {
        let (ply, search) = self.running.as_mut()?;
        let found = search.poll()?;
        let ply = *ply;
        self.running = None;
        Some((ply, found.map(|r| r.best)))
    }
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
