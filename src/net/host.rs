//! The host: the one machine that holds the game. It listens on UDP (renet's netcode, through
//! bevy_replicon), lets players' machines join the free person seats, checks every request
//! with the rules engine, plays the computer seats itself, sends every move it applies to
//! everyone, and writes the game record after every move (atomically), so that a host started
//! again on the same record continues the same game.

use std::net::{SocketAddr, UdpSocket};
use std::path::PathBuf;

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::RenetServer;
use bevy_replicon_renet::netcode::{NetcodeServerTransport, ServerAuthentication, ServerConfig};
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, PlayerInfo, Record, notation};
use serde::{Deserialize, Serialize};

use super::protocol::{
    Join, MAX_MOVE_BYTES, MAX_TOKEN_BYTES, NETCODE_PROTOCOL_ID, PROTOCOL_VERSION, Play, Played,
    Refused, Welcome, clean_name, new_token,
};
use super::{NetError, Search, connection_config, messages_plugin, unix_time};

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

/// A person seat taken over the network.
#[derive(Debug, Clone)]
struct Holder {
    /// The token that takes the seat back.
    token: String,
    /// The machine holding it now; `None` while it is gone.
    client: Option<Entity>,
    /// When it left, in seconds of app time (a seat kept from an earlier run of the host
    /// counts from the host's start).
    gone_since: f32,
    /// Whether the stand-in computer is playing the seat.
    stood_in: bool,
}

/// The host's game and who holds each seat. Only the host's systems change it.
#[derive(Resource)]
pub struct Host {
    /// The game.
    pub game: Game,
    /// The players, by player number.
    pub players: Vec<PlayerInfo>,
    holders: Vec<Option<Holder>>,
    record: Option<PathBuf>,
    stand_in: Option<(Level, std::time::Duration)>,
    /// A computer seat's search, off the main thread.
    search: Search,
    /// What happened, one line per event, as printed.
    pub events: Vec<String>,
    /// Frames since the game ended (the last messages are given time to leave).
    ended_for: u32,
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
        let count = config.players.len();
        let holders = (0..count)
            .map(|i| {
                config.tokens.get(i).cloned().flatten().map(|token| Holder {
                    token,
                    client: None,
                    gone_since: 0.0,
                    stood_in: false,
                })
            })
            .collect();
        Host {
            game: config.game,
            players: config.players,
            holders,
            record: config.record,
            stand_in: config.stand_in,
            search: Search::new(),
            events: Vec::new(),
            ended_for: 0,
        }
    }

    fn say(&mut self, line: String) {
        println!("{line}");
        info!("{line}");
        self.events.push(line);
    }

    fn level_of(&self, player: usize) -> Option<Level> {
        self.players
            .get(player)?
            .computer
            .as_deref()
            .and_then(|l| l.parse().ok())
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
        Kingdom::ALL
            .into_iter()
            .filter(|k| self.player_of(*k) == Some(player))
            .collect()
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
            tokens: self
                .holders
                .iter()
                .map(|h| h.as_ref().map(|h| h.token.clone()))
                .collect(),
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
        if join.version != PROTOCOL_VERSION {
            return Err(format!(
                "this host speaks version {PROTOCOL_VERSION} of the game's protocol, the client {}",
                join.version
            ));
        }
        let name = clean_name(&join.name).ok_or("a player needs a name")?;
        // A machine already in takes its seats again (a repeated join).
        let already: Vec<usize> = self.seats_of(client);
        if !already.is_empty() {
            let token = self.holders[already[0]].as_ref().map(|h| h.token.clone());
            return Ok((token.unwrap_or_default(), already));
        }
        if let Some(token) = join.token.as_deref().filter(|t| t.len() <= MAX_TOKEN_BYTES) {
            let seats: Vec<usize> = (0..self.holders.len())
                .filter(|&p| self.holders[p].as_ref().is_some_and(|h| h.token == token))
                .collect();
            if !seats.is_empty() {
                for &p in &seats {
                    if let Some(h) = self.holders[p].as_mut() {
                        h.client = Some(client);
                        h.stood_in = false;
                    }
                }
                return Ok((token.to_owned(), seats));
            }
        }
        if join.seats.is_empty() || join.seats.len() > 7 {
            return Err("ask for one or more kingdoms".into());
        }
        let mut seats = Vec::new();
        for &k in &join.seats {
            let player = self
                .player_of(k)
                .ok_or_else(|| format!("{k} is empty in this game"))?;
            if self.level_of(player).is_some() {
                return Err(format!("{k} is played by the computer"));
            }
            if self.holders[player].is_some() {
                return Err(format!("{k} is already taken"));
            }
            if !seats.contains(&player) {
                seats.push(player);
            }
        }
        let token = new_token();
        for &p in &seats {
            self.holders[p] = Some(Holder {
                token: token.clone(),
                client: Some(client),
                gone_since: 0.0,
                stood_in: false,
            });
            self.players[p].name = name.clone();
        }
        Ok((token, seats))
    }

    /// The stand-in's level for `player`'s seat if its player has been gone long enough
    /// (saying so the first time).
    fn stand_in_for(&mut self, player: usize, now: f32) -> Option<Level> {
        let (level, after) = self.stand_in?;
        let holder = self.holders.get(player)?.as_ref()?;
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
            if let Some(h) = self.holders[player].as_mut() {
                h.stood_in = true;
            }
        }
        Some(level)
    }

    /// The player numbers `client` holds.
    fn seats_of(&self, client: Entity) -> Vec<usize> {
        (0..self.holders.len())
            .filter(|&p| {
                self.holders[p]
                    .as_ref()
                    .is_some_and(|h| h.client == Some(client))
            })
            .collect()
    }

    /// Checks a move request from `client` and plays it, or says why not.
    fn apply(&mut self, client: Entity, play: &Play) -> Result<String, String> {
        if self.game.outcome().is_some() {
            return Err("the game is over".into());
        }
        let k = self.game.position().to_move();
        let player = self
            .player_of(k)
            .ok_or("no one holds the kingdom to move")?;
        if !self.seats_of(client).contains(&player) {
            return Err(format!("{k} is not yours to move"));
        }
        if play.ply as usize != self.game.len() {
            return Err(format!(
                "the move was asked for move {}, but the game is at move {}",
                play.ply + 1,
                self.game.len() + 1
            ));
        }
        if play.mv.len() > MAX_MOVE_BYTES {
            return Err("that is not a move".into());
        }
        let mv = notation::parse_move(&play.mv).map_err(|e| e.to_string())?;
        self.game.play(mv).map_err(|e| e.to_string())?;
        Ok(mv.to_string())
    }
}

/// The host as a Bevy app without a window: listening on `config.bind`. Returns the app and
/// the address it listens on (the port chosen by the system if `bind` asked for port 0).
pub fn host_app(config: HostConfig) -> Result<(App, SocketAddr), NetError> {
    let socket = UdpSocket::bind(config.bind).map_err(|e| NetError::Bind(config.bind, e))?;
    let addr = socket
        .local_addr()
        .map_err(|e| NetError::Bind(config.bind, e))?;
    let mut app = super::headless_app();
    messages_plugin(&mut app, PROTOCOL_VERSION);
    let server = RenetServer::new(connection_config(
        app.world().resource::<RepliconChannels>(),
    ));
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
    let mut host = Host::new(config);
    host.say(format!("listening on {addr}"));
    host.save();
    app.insert_resource(server)
        .insert_resource(transport)
        .insert_resource(host)
        .add_observer(client_left)
        .add_systems(
            Update,
            (answer_joins, answer_moves, computer_moves, end_when_over).chain(),
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
                refusals.write(ToClients {
                    targets: SendTargets::Single(join.client_id),
                    message: Refused {
                        reason,
                        fatal: true,
                    },
                });
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
                refusals.write(ToClients {
                    targets: SendTargets::Single(play.client_id),
                    message: Refused {
                        reason,
                        fatal: false,
                    },
                });
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

/// When the game is over: say who won, and stop once the last messages have had time to leave.
fn end_when_over(mut host: ResMut<Host>, mut exit: MessageWriter<AppExit>) {
    let Some(outcome) = host.game.outcome() else {
        return;
    };
    if host.ended_for == 0 {
        let line = format!(
            "game over: {} wins ({}) after {} moves",
            outcome.winner.name(),
            outcome.victory.describe(),
            host.game.len()
        );
        host.say(line);
    }
    host.ended_for += 1;
    if host.ended_for == 120 {
        exit.write(AppExit::Success);
    }
}

/// A machine that leaves keeps its seats for its return.
fn client_left(left: On<Remove, ConnectedClient>, mut host: ResMut<Host>, time: Res<Time>) {
    let seats = host.seats_of(left.entity);
    if seats.is_empty() {
        return;
    }
    let name = host.players[seats[0]].name.clone();
    for p in seats {
        if let Some(h) = host.holders[p].as_mut() {
            h.client = None;
            h.gone_since = time.elapsed_secs();
        }
    }
    host.say(format!("left {name}"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Rules, Seats};

    fn host(remote: usize) -> Host {
        let players = (0..7)
            .map(|i| PlayerInfo {
                name: format!("Player {}", i + 1),
                computer: (i >= remote).then(|| "easy".to_owned()),
            })
            .collect();
        Host::new(HostConfig {
            bind: "127.0.0.1:0".parse().unwrap(),
            game: Game::start(Rules::default(), Seats::seven()),
            players,
            record: None,
            tokens: Vec::new(),
            stand_in: None,
        })
    }

    fn join(name: &str, seats: &[Kingdom], token: Option<&str>) -> Join {
        Join {
            version: PROTOCOL_VERSION,
            name: name.into(),
            seats: seats.to_vec(),
            token: token.map(str::to_owned),
        }
    }

    #[test]
    fn joins_take_free_person_seats_only() {
        let mut host = host(3);
        let a = Entity::from_raw_u32(10).unwrap();
        let b = Entity::from_raw_u32(11).unwrap();
        let (token, seats) = host
            .admit(a, &join(" Anna ", &[Kingdom::Qin], None))
            .unwrap();
        assert_eq!(seats, vec![0]);
        assert_eq!(host.players[0].name, "Anna");
        // The same machine asking again gets the same seats and token.
        assert_eq!(
            host.admit(a, &join("Anna", &[Kingdom::Chu], None)).unwrap(),
            (token.clone(), vec![0])
        );
        let refused = |host: &mut Host, j: Join| host.admit(b, &j).unwrap_err();
        assert!(refused(&mut host, join("Bo", &[Kingdom::Qin], None)).contains("already taken"));
        assert!(refused(&mut host, join("Bo", &[Kingdom::Yan], None)).contains("computer"));
        assert!(refused(&mut host, join("Bo", &[], None)).contains("one or more"));
        assert!(refused(&mut host, join(" \n ", &[Kingdom::Chu], None)).contains("name"));
        let mut old = join("Bo", &[Kingdom::Chu], None);
        old.version = PROTOCOL_VERSION + 1;
        assert!(refused(&mut host, old).contains("version"));
        // A wrong token is no way in; the right one takes Anna's seat back on a new machine.
        assert!(refused(&mut host, join("Bo", &[Kingdom::Qin], Some("0000"))).contains("taken"));
        assert_eq!(
            host.admit(b, &join("Anna", &[], Some(&token))).unwrap().1,
            vec![0]
        );
        assert_eq!(host.seats_of(b), vec![0]);
        assert!(host.seats_of(a).is_empty());
    }

    #[test]
    fn moves_are_checked_against_the_seat_the_turn_and_the_rules() {
        let mut host = host(2);
        let a = Entity::from_raw_u32(10).unwrap();
        let b = Entity::from_raw_u32(11).unwrap();
        host.admit(a, &join("Anna", &[Kingdom::Qin], None)).unwrap();
        host.admit(b, &join("Bo", &[Kingdom::Chu], None)).unwrap();
        let play = |ply: u32, mv: &str| Play {
            ply,
            mv: mv.to_owned(),
        };
        assert!(
            host.apply(b, &play(0, "a13b15"))
                .unwrap_err()
                .contains("not yours")
        );
        assert!(
            host.apply(a, &play(3, "a13b15"))
                .unwrap_err()
                .contains("move 4")
        );
        assert!(host.apply(a, &play(0, "zz")).is_err());
        assert!(host.apply(a, &play(0, "a1a1")).is_err());
        assert!(
            host.apply(a, &play(0, &"x".repeat(1000)))
                .unwrap_err()
                .contains("not a move")
        );
        assert_eq!(host.game.len(), 0, "nothing refused changed the game");
        assert_eq!(host.apply(a, &play(0, "a13b15")).unwrap(), "a13b15");
        assert_eq!(host.game.len(), 1);
    }
}
