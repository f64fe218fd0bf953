//! A player's machine without a window: it joins a host (or rejoins with the token it keeps),
//! replays the record the host sends (checked by the rules engine), follows the host's moves,
//! and plays its own seats as a computer of the level asked for.

use std::net::SocketAddr;
use std::path::PathBuf;

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, Record, notation};

use super::protocol::{Join, Play, Played, Refused, Resync, Welcome};
use super::{
    NetError, RETRY_AFTER, Search, connect, connect_afresh, join_due, messages_plugin, read_token,
};

/// Everything a guest starts from.
#[derive(Debug, Clone)]
pub struct GuestConfig {
    /// The host's address.
    pub host: SocketAddr,
    /// The kingdoms to take.
    pub seats: Vec<Kingdom>,
    /// The level its seats play at.
    pub level: Level,
    /// The player's name.
    pub name: String,
    /// Where the seat token is kept between runs (a rejoin takes the same seats back).
    pub token_file: Option<PathBuf>,
    /// The protocol version spoken: [`PROTOCOL_VERSION`](super::protocol::PROTOCOL_VERSION)
    /// (another only to test refusals).
    pub version: u32,
}

/// How a guest's game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuestEnd {
    /// The game is over.
    GameOver,
    /// The host refused this machine.
    Refused(String),
    /// The host's record or moves did not replay.
    Desync(String),
}

/// The guest's copy of the game, following the host's.
#[derive(Resource)]
pub struct Guest {
    config: GuestConfig,
    /// The game as the host sent it; `None` until welcomed.
    pub game: Option<Game>,
    /// The kingdoms this machine holds.
    pub seats: Vec<Kingdom>,
    /// The move asked for and not yet applied by the host, by the move number it was for.
    pending: Option<u32>,
    /// The search for this machine's move, off the main thread.
    search: Search,
    /// Paces sending the join again while the host has not answered; `None`: send it now.
    join_resend: Option<Timer>,
    /// How the game ended for this machine, once it has.
    pub end: Option<GuestEnd>,
    /// Paces the attempts to reach a host that has gone.
    retry: Timer,
}

/// A host that has gone (stopped, restarted, out of reach) is tried again every two seconds;
/// once back, the machine rejoins with its token and receives the whole game again.
fn reconnect(
    mut guest: ResMut<Guest>,
    channels: Res<RepliconChannels>,
    time: Res<Time>,
    mut commands: Commands,
) {
    if guest.end.is_some() {
        return;
    }
    if !guest.retry.tick(time.delta()).just_finished() {
        return;
    }
    match connect_afresh(&mut commands, &channels, guest.config.host) {
        Ok(()) => {
            guest.say(format!("connecting again to {}", guest.config.host));
            guest.game = None;
            guest.pending = None;
            guest.join_resend = None;
        }
        Err(e) => warn!("{e}"),
    }
}

impl Guest {
    fn say(&self, line: String) {
        println!("{line}");
        info!("{line}");
    }

    fn finish(&mut self, end: GuestEnd) {
        if self.end.is_none() {
            self.say(match &end {
                GuestEnd::GameOver => "game over".to_owned(),
                GuestEnd::Refused(why) => format!("refused: {why}"),
                GuestEnd::Desync(why) => format!("out of step with the host: {why}"),
            });
            self.end = Some(end);
        }
    }
}

/// A guest as a Bevy app without a window, connecting to `config.host`.
pub fn guest_app(config: GuestConfig) -> Result<App, NetError> {
    let mut app = super::headless_app();
    messages_plugin(&mut app, config.version);
    let (client, transport) = connect(app.world().resource::<RepliconChannels>(), config.host)?;
    app.insert_resource(client)
        .insert_resource(transport)
        .insert_resource(Guest {
            config,
            game: None,
            seats: Vec::new(),
            pending: None,
            search: Search::new(),
            join_resend: None,
            end: None,
            retry: Timer::new(RETRY_AFTER, TimerMode::Repeating),
        })
        .add_observer(other_version)
        .add_systems(
            Update,
            (
                reconnect.run_if(in_state(ClientState::Disconnected)),
                send_join.run_if(in_state(ClientState::Connected)),
                take_welcome,
                take_refusals,
                take_resyncs,
                follow_moves,
                play_own_seats.run_if(in_state(ClientState::Connected)),
                stop_at_the_end,
            )
                .chain(),
        );
    Ok(app)
}

/// Asks to join once connected, and again every second until the host answers.
fn send_join(mut guest: ResMut<Guest>, time: Res<Time>, mut joins: MessageWriter<Join>) {
    if guest.game.is_some() || guest.end.is_some() {
        return;
    }
    if join_due(&mut guest.join_resend, time.delta()) {
        let token = read_token(guest.config.token_file.as_deref());
        joins.write(Join {
            name: guest.config.name.clone(),
            seats: guest.config.seats.clone(),
            token,
        });
    }
}

fn take_welcome(mut welcomes: MessageReader<Welcome>, mut guest: ResMut<Guest>) {
    for welcome in welcomes.read() {
        let game = Record::from_json(&welcome.record)
            .map_err(|e| e.to_string())
            .and_then(|r| r.replay().map_err(|e| e.to_string()));
        match game {
            Ok(game) => {
                if let Some(file) = &guest.config.token_file
                    && let Err(e) = crate::saves::write_atomically(file, welcome.token.as_bytes())
                {
                    warn!(
                        "the seat token could not be kept in {}: {e}",
                        file.display()
                    );
                }
                let names: Vec<&str> = welcome.seats.iter().map(|k| k.name()).collect();
                guest.say(format!(
                    "joined as {} at move {}",
                    names.join(","),
                    game.len() + 1
                ));
                guest.seats = welcome.seats.clone();
                guest.pending = None;
                guest.game = Some(game);
            }
            Err(why) => guest.finish(GuestEnd::Desync(why)),
        }
    }
}

/// Moves taken back on the host: the whole game again.
fn take_resyncs(mut resyncs: MessageReader<Resync>, mut guest: ResMut<Guest>) {
    for resync in resyncs.read() {
        match Record::from_json(&resync.record).and_then(|r| r.replay()) {
            Ok(game) => {
                guest.say(format!("{} (at move {})", resync.reason, game.len() + 1));
                guest.pending = None;
                guest.game = Some(game);
            }
            Err(e) => {
                // Asked for again with a rejoin, as for a move that does not fit.
                warn!("the game sent again does not replay ({e}): asking for it again");
                guest.game = None;
                guest.join_resend = None;
            }
        }
    }
}

/// The host runs another version of the game: it says so and lets the machine go.
fn other_version(_: On<ProtocolMismatch>, mut guest: ResMut<Guest>) {
    guest.finish(GuestEnd::Refused(
        "the host runs another version of the game".to_owned(),
    ));
}

fn take_refusals(mut refusals: MessageReader<Refused>, mut guest: ResMut<Guest>) {
    for refused in refusals.read() {
        if refused.fatal {
            guest.finish(GuestEnd::Refused(refused.reason.clone()));
        } else {
            warn!("the host refused a move: {}", refused.reason);
            guest.pending = None;
        }
    }
}

/// Plays the host's moves on the copy; a move that does not fit means the copy is out of step,
/// and the machine asks for the whole game again (a rejoin).
fn follow_moves(mut played: MessageReader<Played>, mut guest: ResMut<Guest>) {
    for p in played.read() {
        let Some(game) = guest.game.as_mut() else {
            continue;
        };
        if (p.ply as usize) < game.len() {
            continue;
        }
        let fits = p.ply as usize == game.len()
            && notation::parse_move(&p.mv)
                .ok()
                .is_some_and(|mv| game.play(mv).is_ok());
        if !fits {
            warn!(
                "move {} ({}) does not fit: asking for the game again",
                p.ply + 1,
                p.mv
            );
            guest.game = None;
            guest.join_resend = None;
            continue;
        }
        if guest.pending.is_some_and(|ply| ply <= p.ply) {
            guest.pending = None;
        }
    }
}

/// Asks for a move when one of this machine's kingdoms is to move.
fn play_own_seats(mut guest: ResMut<Guest>, mut plays: MessageWriter<Play>) {
    let guest = &mut *guest;
    let Some(game) = guest.game.as_ref() else {
        return;
    };
    if game.outcome().is_some() || guest.pending.is_some() {
        return;
    }
    let pos = game.position();
    if !guest.seats.contains(&pos.to_move()) {
        return;
    }
    let ply = game.len() as u32;
    if !guest.search.busy() {
        guest
            .search
            .start(pos, guest.config.level, ply, 0x6775_6573);
    } else if let Some((for_ply, Some(mv))) = guest.search.take_ready()
        && for_ply == ply
    {
        plays.write(Play {
            ply,
            mv: mv.to_string(),
        });
        guest.pending = Some(ply);
    }
}

fn stop_at_the_end(mut guest: ResMut<Guest>, mut exit: MessageWriter<AppExit>) {
    if guest.end.is_none() && guest.game.as_ref().is_some_and(|g| g.outcome().is_some()) {
        guest.finish(GuestEnd::GameOver);
    }
    match guest.end {
        Some(GuestEnd::GameOver) => {
            exit.write(AppExit::Success);
        }
        Some(_) => {
            exit.write(AppExit::from_code(1));
        }
        None => {}
    }
}
