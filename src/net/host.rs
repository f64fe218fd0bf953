//! The host: the one machine that holds the game. It listens on UDP (renet's netcode, through
//! bevy_replicon), lets players' machines join the free person seats, checks every request
//! with the rules engine, plays the computer seats itself, sends every move it applies to
//! everyone, and writes the game record after every move (atomically), so that a host started
//! again on the same record continues the same game.

use std::net::SocketAddr;
use std::path::PathBuf;

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, PlayerInfo, Record};
use serde::{Deserialize, Serialize};

use super::protocol::{Join, PROTOCOL_VERSION, Play, Played, Refused, Table, TakeBack, Welcome};
use super::seating::{Seating, kingdoms_of};
use super::{NetError, Search, listen, messages_plugin};

/// Everything a host starts from.
#[derive(Debug, Clone)]
pub struct HostConfig {
    /// Where to listen (loopback unless told otherwise).
    pub bind: SocketAddr,
    /// The game: a fresh start, or one read from the record file.
    pub game: Game,
    /// The players, by player number; a player with a computer level is played by the host.
    pub players: Vec<PlayerInfo>,
    /// Where the game is written after every move (and its seat tokens beside it).
    pub record: Option<PathBuf>,
    /// Seat tokens kept from an earlier run of the host, by player number.
    pub tokens: Vec<Option<String>>,
    /// A computer that takes the seat of a player who has gone, at this level, after this
    /// long away, until the player comes back; `None` to wait for them.
    pub stand_in: Option<(Level, std::time::Duration)>,
}

/// The host's game and who holds each seat. Only the host's systems change it.
#[derive(Resource)]
pub struct Host {
    /// The game.
    pub game: Game,
    /// The players, by player number.
    pub players: Vec<PlayerInfo>,
    seating: Seating,
    record: Option<PathBuf>,
    stand_in: Option<(Level, std::time::Duration)>,
    /// A computer seat's search, off the main thread.
    search: Search,
    /// What happened, one line per event, as printed.
    pub events: Vec<String>,
    /// Running once the game has ended: the last messages are given this long to leave.
    closing: Option<Timer>,
    /// The table as last sent to everyone.
    table_sent: Option<Table>,
}

/// The seat tokens, kept beside the record so that a restarted host knows its players.
#[derive(Serialize, Deserialize, Debug, Default)]
struct TokenFile {
    tokens: Vec<Option<String>>,
}

/// The file beside `record` that keeps the seat tokens.
pub fn token_file(record: &std::path::Path) -> PathBuf {
    let mut name = record.file_name().unwrap_or_default().to_os_string();
    name.push(".tokens");
    record.with_file_name(name)
}

/// The seat tokens kept beside `record`, if any.
pub fn read_tokens(record: &std::path::Path) -> Vec<Option<String>> {
    std::fs::read_to_string(token_file(record))
        .ok()
        .and_then(|text| serde_json::from_str::<TokenFile>(&text).ok())
        .map(|f| f.tokens)
        .unwrap_or_default()
}

impl Host {
    fn new(config: HostConfig) -> Host {
        let seating = Seating::new(config.players.len(), &config.tokens);
        Host {
            game: config.game,
            players: config.players,
            seating,
            record: config.record,
            stand_in: config.stand_in,
            search: Search::new(),
            events: Vec::new(),
            closing: None,
            table_sent: None,
        }
    }

    fn say(&mut self, line: String) {
        println!("{line}");
        info!("{line}");
        self.events.push(line);
    }

    fn level_of(&self, player: usize) -> Option<Level> {
        self.players.get(player)?.computer
    }

    /// The player number holding `kingdom`.
    fn player_of(&self, kingdom: Kingdom) -> Option<usize> {
        self.game
            .start_position()
            .seats()
            .player(kingdom)
            .map(usize::from)
    }

    /// The kingdoms of `player`.
    fn kingdoms_of(&self, player: usize) -> Vec<Kingdom> {
        kingdoms_of(self.game.start_position().seats(), player)
    }

    /// Who holds each seat, for the players' machines.
    fn table(&self) -> Table {
        let seats = self.game.start_position().seats();
        let stand_in = self.stand_in.map(|(level, _)| level);
        self.seating
            .table(seats, &self.players, |_| false, stand_in)
    }

    fn record_json(&self) -> String {
        Record::from_game(&self.game, self.players.clone()).to_json()
    }

    /// Writes the record and the tokens (atomically each).
    fn save(&mut self) {
        let Some(path) = self.record.clone() else {
            return;
        };
        let tokens = TokenFile {
            tokens: self.seating.tokens(),
        };
        let written = crate::saves::write_atomically(&path, self.record_json().as_bytes())
            .and_then(|()| {
                let text = serde_json::to_string(&tokens).unwrap_or_default();
                crate::saves::write_atomically(&token_file(&path), text.as_bytes())
            });
        if let Err(e) = written {
            self.say(format!(
                "error: the game could not be written to {}: {e}",
                path.display()
            ));
        }
    }

    /// Decides a join: the seats given, or why not.
    fn admit(&mut self, client: Entity, join: &Join) -> Result<(String, Vec<usize>), String> {
        let seats = *self.game.start_position().seats();
        self.seating
            .admit(client, join, &seats, &mut self.players, |_| Ok(()))
    }

    /// The stand-in's level for `player`'s seat if its player has been gone long enough
    /// (saying so the first time).
    fn stand_in_for(&mut self, player: usize, now: f32) -> Option<Level> {
        let (level, after) = self.stand_in?;
        let holder = self.seating.holder(player)?;
        if holder.client.is_some() || now - holder.gone_since < after.as_secs_f32() {
            return None;
        }
        if !holder.stood_in {
            let kingdoms: Vec<&str> = self.kingdoms_of(player).iter().map(|k| k.name()).collect();
            let line = format!(
                "{} played by the computer ({}) while {} is away",
                kingdoms.join(","),
                level.name(),
                self.players[player].name
            );
            self.say(line);
            if let Some(h) = self.seating.holder_mut(player) {
                h.stood_in = true;
            }
        }
        Some(level)
    }

    /// Checks a move request from `client` and plays it, or says why not.
    fn apply(&mut self, client: Entity, play: &Play) -> Result<String, String> {
        let mv = self.seating.check_play(client, play, &self.game)?;
        self.game.play(mv).map_err(|e| e.to_string())?;
        Ok(mv.to_string())
    }
}

/// The host as a Bevy app without a window: listening on `config.bind`. Returns the app and
/// the address it listens on (the port chosen by the system if `bind` asked for port 0).
pub fn host_app(config: HostConfig) -> Result<(App, SocketAddr), NetError> {
    let mut app = super::headless_app();
    messages_plugin(&mut app, PROTOCOL_VERSION);
    let (server, transport, addr) =
        listen(app.world().resource::<RepliconChannels>(), config.bind)?;
    let mut host = Host::new(config);
    host.say(format!("listening on {addr}"));
    host.save();
    app.insert_resource(server)
        .insert_resource(transport)
        .insert_resource(host)
        .add_observer(client_left)
        .add_observer(client_arrived)
        .add_systems(
            Update,
            (
                answer_joins,
                answer_moves,
                refuse_take_backs,
                computer_moves,
                send_table,
                end_when_over,
            )
                .chain(),
        );
    Ok((app, addr))
}

fn answer_joins(
    mut joins: MessageReader<FromClient<Join>>,
    mut host: ResMut<Host>,
    mut welcomes: MessageWriter<ToClients<Welcome>>,
    mut refusals: MessageWriter<ToClients<Refused>>,
) {
    for join in joins.read() {
        let ClientId::Client(client) = join.client_id else {
            continue;
        };
        match host.admit(client, &join.message) {
            Ok((token, seats)) => {
                let kingdoms: Vec<Kingdom> =
                    seats.iter().flat_map(|&p| host.kingdoms_of(p)).collect();
                let names: Vec<&str> = kingdoms.iter().map(|k| k.name()).collect();
                let line = format!(
                    "joined {} as {}",
                    host.players[seats[0]].name,
                    names.join(",")
                );
                host.say(line);
                host.save();
                welcomes.write(ToClients {
                    targets: SendTargets::Single(join.client_id),
                    message: Welcome {
                        token,
                        seats: kingdoms,
                        record: host.record_json(),
                    },
                });
            }
            Err(reason) => {
                host.say(format!("refused a join: {reason}"));
                refusals.write(Refused::to(join.client_id, reason, true));
            }
        }
    }
}

fn answer_moves(
    mut plays: MessageReader<FromClient<Play>>,
    mut host: ResMut<Host>,
    mut played: MessageWriter<ToClients<Played>>,
    mut refusals: MessageWriter<ToClients<Refused>>,
) {
    for play in plays.read() {
        let ClientId::Client(client) = play.client_id else {
            continue;
        };
        let ply = host.game.len() as u32;
        match host.apply(client, &play.message) {
            Ok(mv) => announce(&mut host, &mut played, ply, mv),
            Err(reason) => {
                host.say(format!("refused a move: {reason}"));
                refusals.write(Refused::to(play.client_id, reason, false));
            }
        }
    }
}

/// Tells everyone about a move the host has played, writes the game, and says so.
fn announce(host: &mut Host, played: &mut MessageWriter<ToClients<Played>>, ply: u32, mv: String) {
    let k = host.game.position_at(ply as usize).to_move();
    host.say(format!("move {} {} {mv}", ply + 1, k.name()));
    host.save();
    played.write(ToClients {
        targets: SendTargets::All,
        message: Played { ply, mv },
    });
}

/// The computer seats play as soon as it is their turn (by node budget: the same move on any
/// machine). The search runs on the async compute pool, so the host keeps answering the
/// players' machines meanwhile.
fn computer_moves(
    mut host: ResMut<Host>,
    mut played: MessageWriter<ToClients<Played>>,
    time: Res<Time>,
) {
    if host.game.outcome().is_some() {
        return;
    }
    if host.search.busy() {
        if let Some((ply, Some(mv))) = host.search.take_ready()
            && ply as usize == host.game.len()
            && host.game.play(mv).is_ok()
        {
            announce(&mut host, &mut played, ply, mv.to_string());
        }
        return;
    }
    let k = host.game.position().to_move();
    let Some(player) = host.player_of(k) else {
        return;
    };
    let Some(level) = host
        .level_of(player)
        .or_else(|| host.stand_in_for(player, time.elapsed_secs()))
    else {
        return;
    };
    let host = &mut *host;
    let ply = host.game.len() as u32;
    host.search.start(host.game.position(), level, ply, 0x5147);
}

/// How long a finished game's host stays up for its last messages to leave.
const CLOSING_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// When the game is over: say who won, and stop once the last messages have had time to leave.
fn end_when_over(mut host: ResMut<Host>, time: Res<Time>, mut exit: MessageWriter<AppExit>) {
    let Some(outcome) = host.game.outcome() else {
        return;
    };
    if host.closing.is_none() {
        let line = format!(
            "game over: {} wins ({}) after {} moves",
            outcome.winner.name(),
            outcome.victory.describe(),
            host.game.len()
        );
        host.say(line);
        host.closing = Some(Timer::new(CLOSING_TIME, TimerMode::Once));
    }
    if let Some(closing) = host.closing.as_mut()
        && closing.tick(time.delta()).just_finished()
    {
        exit.write(AppExit::Success);
    }
}

/// A machine that leaves keeps its seats for its return.
fn client_left(left: On<Remove, ConnectedClient>, mut host: ResMut<Host>, time: Res<Time>) {
    let seats = host.seating.leave(left.entity, time.elapsed_secs());
    if let Some(&first) = seats.first() {
        let name = host.players[first].name.clone();
        host.say(format!("left {name}"));
        host.table_sent = None;
    }
}

/// A machine that has just arrived is shown the table, so that it can choose free seats.
fn client_arrived(
    arrived: On<Add, AuthorizedClient>,
    host: Res<Host>,
    mut tables: MessageWriter<ToClients<Table>>,
) {
    tables.write(ToClients {
        targets: SendTargets::Single(ClientId::Client(arrived.entity)),
        message: host.table(),
    });
}

/// Everyone is told when a seat changes hands (a join, a leave, a stand-in).
fn send_table(mut host: ResMut<Host>, mut tables: MessageWriter<ToClients<Table>>) {
    let table = host.table();
    if host.table_sent.as_ref() != Some(&table) {
        host.table_sent = Some(table.clone());
        tables.write(ToClients {
            targets: SendTargets::All,
            message: table,
        });
    }
}

/// Without a person at the host, no one can agree to take moves back.
fn refuse_take_backs(
    mut asks: MessageReader<FromClient<TakeBack>>,
    mut host: ResMut<Host>,
    mut refusals: MessageWriter<ToClients<Refused>>,
) {
    for ask in asks.read() {
        host.say("refused a take-back: this host takes no moves back".to_owned());
        refusals.write(Refused::to(
            ask.client_id,
            "this host takes no moves back (it has no player to agree)",
            false,
        ));
    }
}
