//! Playing across machines from the game window. The window either **hosts** — it serves its
//! own `Match` to players' machines, which take the seats left open for them — or **joins**
//! a host (another window or `qiguo server`) and follows the host's game.
//!
//! The host is the authority: its rules system alone plays moves. A request from a joined
//! machine is checked here (seat, turn, move number, size, legality) and handed to the rules
//! system as a [`Mover::Remote`] request; every move the host plays goes out to everyone, and
//! anything else that changes the game (a take-back) sends the whole game again. A joined
//! window sends its person's moves to the host instead of playing them, and plays the host's
//! moves as they come (after the move before has been shown). Connection state lives in the
//! [`Online`] resource, which only this module changes; the game stays in `Match`.

pub(crate) mod ui;

use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon_renet::netcode::{NetcodeClientTransport, NetcodeServerTransport};
use bevy_replicon_renet::{RenetClient, RenetServer, RepliconRenetPlugins};
use qiguo_rules::{Kingdom, Level, Move, PlayerInfo, Record, notation};

use crate::game::AppSystems;
use crate::game::state::{
    Dialog, GameFromHost, Match, MoveApplied, MoveRequested, Mover, Notice, PlayerRenamed,
    PlayersFromHost, Review, SeatAuthority, SeatChangeRequested, SeatHolder, Turn, TurnPhase,
    UndoRequested, turn_refusal,
};
use crate::i18n::Tr;
use crate::net::protocol::{
    Hand, Join, PROTOCOL_VERSION, Play, Played, Refused, Resync, Table, TakeBack, Welcome,
};
use crate::net::seating::{Seating, kingdoms_of};
use crate::net::{RETRY_AFTER, connect_afresh, join_due, listen, messages_plugin, read_token};
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((RepliconPlugins, RepliconRenetPlugins));
    messages_plugin(app, PROTOCOL_VERSION);
    app.init_resource::<Online>()
        .add_message::<HostRequested>()
        .add_message::<JoinRequested>()
        .add_message::<SeatsChosen>()
        .add_message::<LeaveRequested>()
        .add_message::<TakeBackAnswered>()
        .add_observer(client_arrived)
        .add_observer(client_left)
        .add_observer(other_version)
        .add_systems(
            Update,
            (
                start_or_stop,
                (host_joins, host_moves, host_take_backs).run_if(hosting),
                (
                    reconnect.run_if(in_state(ClientState::Disconnected)),
                    send_join.run_if(in_state(ClientState::Connected)),
                    guest_messages,
                    forward_person_requests,
                )
                    .chain()
                    .run_if(joined),
                answer_take_back.run_if(hosting),
                feed_moves,
                publish_seat_authority,
            )
                .chain()
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            (host_broadcast, host_table)
                .chain()
                .run_if(hosting)
                .after(AppSystems::ApplyRules)
                .before(AppSystems::SyncView),
        );
}

/// Whether the window is connected to other machines, and how.
#[derive(Resource, Default, Debug)]
pub enum Online {
    /// A game on this screen only.
    #[default]
    Offline,
    /// This window serves its game to other machines.
    Hosting(Hosting),
    /// This window follows a host's game.
    Joined(Joined),
}

/// A window that hosts.
#[derive(Debug)]
pub struct Hosting {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The seats taken by other machines.
    pub seating: Seating,
    /// The person seats played at this screen, by player number (the others are open).
    pub here: Vec<bool>,
    /// A joined player's request to take moves back, waiting for this screen's answer.
    pub take_back: Option<TakeBackAsk>,
    /// Checked moves from other machines, waiting for the move before to be shown.
    inbox: VecDeque<(Turn, Move)>,
    /// What the other machines know of the game.
    sent: Turn,
    /// The table as last sent.
    table_sent: Option<Table>,
}

/// A joined player asks to take moves back.
#[derive(Debug, Clone, PartialEq)]
pub struct TakeBackAsk {
    /// Their machine.
    client: Entity,
    /// Their name.
    pub name: String,
    /// The number of moves when they asked (the answer applies only then).
    pub ply: usize,
}

/// Where a joined window stands with its host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Reaching the host.
    Connecting,
    /// Connected: the host's table is known; the player chooses kingdoms.
    Choosing,
    /// In the game, holding `Joined::seats`.
    Playing,
    /// The host cannot be reached; trying again.
    Lost,
    /// The host refused this machine (or speaks another version); nothing more happens.
    Refused(String),
}

/// A window that follows a host's game.
#[derive(Debug)]
pub struct Joined {
    /// The host's address.
    pub host: SocketAddr,
    /// The player's name.
    pub name: String,
    /// How things stand with the host.
    pub link: Link,
    /// The host's table, as last sent.
    pub table: Table,
    /// The kingdoms asked for (empty until chosen, unless a kept token rejoins).
    asked: Vec<Kingdom>,
    /// The kingdoms this window holds.
    pub seats: Vec<Kingdom>,
    /// Where the seat token is kept (so that the player can come back).
    token_file: Option<PathBuf>,
    /// Moves from the host not yet shown, by the number of moves before each.
    inbox: VecDeque<(u32, Move)>,
    /// Paces sending the join again while the host has not answered; `None`: send it now.
    join_resend: Option<Timer>,
    /// Paces the attempts to reach a host that has gone.
    retry: Timer,
}

impl Online {
    /// Who decides each of `players` seats, as the rules system is to know it: everything here
    /// offline; on a host, the seats other machines hold are theirs; on a joined window, only
    /// the seats it holds while it plays.
    pub(crate) fn authority(&self, players: usize) -> SeatAuthority {
        let holder = |here: bool| {
            if here {
                SeatHolder::Here
            } else {
                SeatHolder::Remote
            }
        };
        match self {
            Online::Offline => SeatAuthority::local(),
            Online::Hosting(h) => SeatAuthority::host(
                (0..players)
                    .map(|p| holder(h.seating.holder(p).is_none()))
                    .collect(),
            ),
            Online::Joined(j) => SeatAuthority::guest(
                (0..players)
                    .map(|p| {
                        holder(
                            j.link == Link::Playing
                                && j.table.seats.get(p).is_some_and(|s| {
                                    s.kingdoms.iter().any(|k| j.seats.contains(k))
                                }),
                        )
                    })
                    .collect(),
            ),
        }
    }

    /// Whether this window follows a host (its person's moves go to the host).
    pub(crate) fn is_joined(&self) -> bool {
        matches!(self, Online::Joined(_))
    }

    /// Whether this window hosts.
    pub(crate) fn is_hosting(&self) -> bool {
        matches!(self, Online::Hosting(_))
    }

    /// Whether the game is shared with other machines (a new game or a loaded one would
    /// leave them behind).
    pub fn is_online(&self) -> bool {
        !matches!(self, Online::Offline)
    }

    /// How a seat is held, for the Kingdoms panel: `None` offline (the person/computer
    /// choice applies).
    pub fn hand(&self, the_match: &Match, player: u8) -> Option<SeatHand> {
        let p = usize::from(player);
        match self {
            Online::Offline => None,
            Online::Hosting(h) => {
                let Some(holder) = h.seating.holder(p) else {
                    // Unheld: computers and people here keep the ordinary choice; the other
                    // person seats wait for a player.
                    let person = the_match
                        .players()
                        .get(p)
                        .is_some_and(|i| i.computer.is_none());
                    let here = h.here.get(p).copied().unwrap_or(false);
                    return (person && !here).then_some(SeatHand::Open);
                };
                let connected = holder.client.is_some();
                Some(match the_match.players().get(p).and_then(|i| i.computer) {
                    Some(level) => SeatHand::StandIn { level, connected },
                    None => SeatHand::Remote { connected },
                })
            }
            Online::Joined(j) => {
                let seat = j.table.seats.get(p)?;
                Some(if seat.kingdoms.iter().any(|k| j.seats.contains(k)) {
                    SeatHand::Yours
                } else {
                    match &seat.hand {
                        Hand::Open => SeatHand::Open,
                        Hand::AtHost => SeatHand::AtHost,
                        Hand::Remote { connected } => SeatHand::Remote {
                            connected: *connected,
                        },
                        Hand::Computer {
                            level,
                            standing_in: true,
                        } => SeatHand::StandIn {
                            level: *level,
                            connected: false,
                        },
                        Hand::Computer { level, .. } => SeatHand::Computer(*level),
                    }
                })
            }
        }
    }
}

/// How a seat is held in a game shared with other machines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatHand {
    /// (Joined) this window's own seat.
    Yours,
    /// (Joined) a person at the host's screen.
    AtHost,
    /// A person on another machine.
    Remote {
        /// Whether their machine is connected.
        connected: bool,
    },
    /// The computer plays for a person on another machine (who may be back).
    StandIn {
        /// The computer's level.
        level: Level,
        /// Whether the person's machine is connected again.
        connected: bool,
    },
    /// (Joined) the computer, at this level.
    Computer(Level),
    /// A person seat free for someone to join.
    Open,
}

/// Host this window's game: listen on `bind`, keep the person seats marked in `here` for this
/// screen and open the others.
#[derive(Message, Clone, Debug)]
pub struct HostRequested {
    /// Where to listen.
    pub bind: SocketAddr,
    /// The person seats played at this screen, by player number.
    pub here: Vec<bool>,
}

/// Join the game at `host` as `name`.
#[derive(Message, Clone, Debug)]
pub struct JoinRequested {
    /// The host's address.
    pub host: SocketAddr,
    /// The player's name.
    pub name: String,
    /// Where the seat token for this host is kept; `None` not to keep it.
    pub token_file: Option<PathBuf>,
}

/// The kingdoms the joining player chose from the host's free seats.
#[derive(Message, Clone, Debug)]
pub struct SeatsChosen(pub Vec<Kingdom>);

/// Stop hosting, or leave the host's game. The board keeps the game as it stands.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LeaveRequested;

/// The host's answer to a joined player's request to take moves back.
#[derive(Message, Clone, Copy, Debug)]
pub struct TakeBackAnswered {
    /// Whether the moves are taken back.
    pub allowed: bool,
}

/// The address other machines reach a host listening on `bind` at: this machine's address on
/// the network it reaches others by (found by routing, no packet sent), else `bind` itself.
pub(crate) fn joinable_address(bind: SocketAddr) -> SocketAddr {
    if !bind.ip().is_unspecified() {
        return bind;
    }
    let routed = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|s| {
            // A documentation address (TEST-NET-1): connecting a UDP socket only picks a route.
            s.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
            s.local_addr()
        })
        .ok()
        .map(|a| a.ip())
        .filter(|ip| !ip.is_unspecified());
    SocketAddr::new(routed.unwrap_or(bind.ip()), bind.port())
}

/// The file that keeps this window's seat token for `host`, in the data directory.
pub(crate) fn token_file_for(host: SocketAddr) -> Option<PathBuf> {
    let dir = crate::saves::SaveDir::locate().ok()?;
    let name = format!("{host}-window").replace([':', '.', '[', ']'], "_");
    Some(dir.root().join("seats").join(format!("{name}.token")))
}

fn hosting(online: Res<Online>) -> bool {
    online.is_hosting()
}

fn joined(online: Res<Online>) -> bool {
    online.is_joined()
}

/// Starts hosting or joining on request, and stops on request.
#[allow(clippy::too_many_arguments)]
fn start_or_stop(
    mut hosts: MessageReader<HostRequested>,
    mut joins: MessageReader<JoinRequested>,
    mut leaves: MessageReader<LeaveRequested>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    channels: Res<RepliconChannels>,
    mut notices: MessageWriter<Notice>,
    mut commands: Commands,
    tr: Res<Tr>,
) {
    if leaves.read().count() > 0 && online.is_online() {
        commands.remove_resource::<RenetServer>();
        commands.remove_resource::<NetcodeServerTransport>();
        commands.remove_resource::<RenetClient>();
        commands.remove_resource::<NetcodeClientTransport>();
        // Leaving a host's game, the game goes on here from where it stands: the rules system
        // takes the turn up again when the seat authority says so (see `publish_seat_authority`).
        let id = if online.is_hosting() {
            "online-stopped-hosting"
        } else {
            "online-left"
        };
        *online = Online::Offline;
        notices.write(Notice::done(tr.text(id)));
    }
    if let Some(request) = hosts.read().last() {
        if online.is_online() {
            notices.write(Notice::error(tr.text("online-already")));
        } else {
            match listen(&channels, request.bind) {
                Ok((server, transport, addr)) => {
                    commands.insert_resource(server);
                    commands.insert_resource(transport);
                    let count = the_match.players().len();
                    let mut here = request.here.clone();
                    here.resize(count, false);
                    *online = Online::Hosting(Hosting {
                        addr,
                        seating: Seating::new(count, &[]),
                        here,
                        take_back: None,
                        inbox: VecDeque::new(),
                        sent: the_match.turn(),
                        table_sent: None,
                    });
                    info!("hosting on {addr}");
                    notices.write(Notice::done(tr!(
                        tr,
                        "online-hosting",
                        address = joinable_address(addr).to_string()
                    )));
                }
                Err(e) => {
                    notices.write(Notice::error(tr!(tr, "online-failed", why = e.to_string())));
                }
            }
        }
    }
    if let Some(request) = joins.read().last() {
        if online.is_online() {
            notices.write(Notice::error(tr.text("online-already")));
            return;
        }
        match connect_afresh(&mut commands, &channels, request.host) {
            Ok(()) => {
                if let Some(dir) = request.token_file.as_ref().and_then(|f| f.parent()) {
                    let _ = std::fs::create_dir_all(dir);
                }
                *online = Online::Joined(Joined {
                    host: request.host,
                    name: request.name.clone(),
                    link: Link::Connecting,
                    table: Table::default(),
                    asked: Vec::new(),
                    seats: Vec::new(),
                    token_file: request.token_file.clone(),
                    inbox: VecDeque::new(),
                    join_resend: None,
                    retry: Timer::new(RETRY_AFTER, TimerMode::Repeating),
                });
                info!("joining {}", request.host);
            }
            Err(e) => {
                notices.write(Notice::error(tr!(tr, "online-failed", why = e.to_string())));
            }
        }
    }
}

// --- Hosting ---------------------------------------------------------------------------------

/// A machine that has just arrived is shown the table, so that it can choose free seats.
fn client_arrived(
    arrived: On<Add, AuthorizedClient>,
    online: Res<Online>,
    the_match: Res<Match>,
    mut tables: MessageWriter<ToClients<Table>>,
) {
    if let Online::Hosting(h) = &*online {
        tables.write(ToClients {
            targets: SendTargets::Single(ClientId::Client(arrived.entity)),
            message: table_of(h, &the_match),
        });
    }
}

/// A machine that leaves keeps its seats for its return; the players here are told.
fn client_left(
    left: On<Remove, ConnectedClient>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    time: Res<Time>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let Online::Hosting(h) = &mut *online else {
        return;
    };
    let seats = h.seating.leave(left.entity, time.elapsed_secs());
    if let Some(&first) = seats.first() {
        let name = the_match.players()[first].name.clone();
        info!("{name} has left");
        notices.write(Notice::error(tr!(tr, "online-player-left", name = name)));
    }
}

fn table_of(h: &Hosting, the_match: &Match) -> Table {
    let seats = the_match.game().start_position().seats();
    h.seating.table(
        seats,
        the_match.players(),
        |p| h.here.get(p).copied().unwrap_or(false),
        None,
    )
}

/// Lets machines into the open seats (or back into theirs, with their token).
#[allow(clippy::too_many_arguments)]
fn host_joins(
    mut joins: MessageReader<FromClient<Join>>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut welcomes: MessageWriter<ToClients<Welcome>>,
    mut refusals: MessageWriter<ToClients<Refused>>,
    mut renames: MessageWriter<PlayerRenamed>,
    mut seat_changes: MessageWriter<SeatChangeRequested>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let Online::Hosting(h) = &mut *online else {
        return;
    };
    for join in joins.read() {
        let ClientId::Client(client) = join.client_id else {
            continue;
        };
        let seats = *the_match.game().start_position().seats();
        let mut players = the_match.players().to_vec();
        let here = h.here.clone();
        let admitted = h
            .seating
            .admit(client, &join.message, &seats, &mut players, |p| {
                if here.get(p).copied().unwrap_or(false) {
                    Err("is played at the host's screen".to_owned())
                } else {
                    Ok(())
                }
            });
        match admitted {
            Ok((token, taken)) => {
                let kingdoms: Vec<Kingdom> =
                    taken.iter().flat_map(|&p| kingdoms_of(&seats, p)).collect();
                let name = players[taken[0]].name.clone();
                for &p in &taken {
                    if players[p].name != the_match.players()[p].name {
                        renames.write(PlayerRenamed {
                            player: p as u8,
                            name: players[p].name.clone(),
                        });
                    }
                    // Back: the computer that stood in hands the seat back.
                    if players[p].computer.is_some() {
                        players[p].computer = None;
                        seat_changes.write(SeatChangeRequested {
                            player: p as u8,
                            computer: None,
                        });
                    }
                }
                let list = tr.list(&kingdoms.iter().map(|k| tr.kingdom(*k)).collect::<Vec<_>>());
                info!("{name} joined as {list}");
                notices.write(Notice::done(tr!(
                    tr,
                    "online-player-joined",
                    name = name,
                    kingdoms = list
                )));
                let record = Record::from_game(the_match.game(), players).to_json();
                welcomes.write(ToClients {
                    targets: SendTargets::Single(join.client_id),
                    message: Welcome {
                        token,
                        seats: kingdoms,
                        record,
                    },
                });
            }
            Err(reason) => {
                info!("refused a join: {reason}");
                refusals.write(Refused::to(join.client_id, reason, true));
            }
        }
    }
}

/// Checks moves from other machines and queues the good ones for the rules system.
fn host_moves(
    mut plays: MessageReader<FromClient<Play>>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut refusals: MessageWriter<ToClients<Refused>>,
) {
    let Online::Hosting(h) = &mut *online else {
        return;
    };
    for play in plays.read() {
        let ClientId::Client(client) = play.client_id else {
            continue;
        };
        match h
            .seating
            .check_play(client, &play.message, the_match.game())
        {
            Ok(mv) if h.inbox.is_empty() => h.inbox.push_back((the_match.turn(), mv)),
            Ok(_) => {}
            Err(reason) => {
                info!("refused a move: {reason}");
                refusals.write(Refused::to(play.client_id, reason, false));
            }
        }
    }
}

/// A joined player's request to take moves back waits for this screen's answer.
fn host_take_backs(
    mut asks: MessageReader<FromClient<TakeBack>>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut refusals: MessageWriter<ToClients<Refused>>,
) {
    let Online::Hosting(h) = &mut *online else {
        return;
    };
    for ask in asks.read() {
        let ClientId::Client(client) = ask.client_id else {
            continue;
        };
        let seats = h.seating.seats_of(client);
        let refusal = if seats.is_empty() {
            Some("only a player in the game can ask to take moves back")
        } else if ask.message.ply as usize != the_match.game().len() {
            Some("the game moved on before the host could answer")
        } else if the_match.game().is_empty() {
            Some("there is no move to take back")
        } else if h.take_back.is_some() {
            Some("the host is answering another request")
        } else {
            None
        };
        match refusal {
            Some(reason) => {
                refusals.write(Refused::to(ask.client_id, reason, false));
            }
            None => {
                h.take_back = Some(TakeBackAsk {
                    client,
                    name: the_match.players()[seats[0]].name.clone(),
                    ply: the_match.game().len(),
                });
            }
        }
    }
}

/// This screen's answer: the moves are taken back (and everyone gets the game again), or the
/// player is told no.
fn answer_take_back(
    mut answers: MessageReader<TakeBackAnswered>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut undo: MessageWriter<UndoRequested>,
    mut refusals: MessageWriter<ToClients<Refused>>,
) {
    let Online::Hosting(h) = &mut *online else {
        return;
    };
    let Some(answer) = answers.read().last() else {
        return;
    };
    let Some(ask) = h.take_back.take() else {
        return;
    };
    let reason = if !answer.allowed {
        "the host did not agree to take moves back"
    } else if ask.ply != the_match.game().len() {
        "the game moved on before the host agreed"
    } else {
        undo.write(UndoRequested);
        return;
    };
    refusals.write(Refused::to(ClientId::Client(ask.client), reason, false));
}

/// Every move the rules system played goes to every machine; anything else that changed the
/// game (moves taken back or played again) sends the whole game.
fn host_broadcast(
    mut applied: MessageReader<MoveApplied>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut played: MessageWriter<ToClients<Played>>,
    mut resyncs: MessageWriter<ToClients<Resync>>,
) {
    let Online::Hosting(h) = &mut *online else {
        return;
    };
    for move_applied in applied.read() {
        if move_applied.ply == h.sent.ply + 1 && h.sent.generation == the_match.turn().generation {
            played.write(ToClients {
                targets: SendTargets::All,
                message: Played {
                    ply: h.sent.ply as u32,
                    mv: move_applied.report.mv.to_string(),
                },
            });
            h.sent.ply += 1;
        }
    }
    if h.sent != the_match.turn() {
        h.sent = the_match.turn();
        h.inbox.clear();
        resyncs.write(ToClients {
            targets: SendTargets::All,
            message: Resync {
                record: the_match.record().to_json(),
                reason: "the host took moves back".to_owned(),
            },
        });
    }
}

/// Everyone is told when a seat changes hands.
fn host_table(
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut tables: MessageWriter<ToClients<Table>>,
) {
    let Online::Hosting(h) = &mut *online else {
        return;
    };
    let table = table_of(h, &the_match);
    if h.table_sent.as_ref() != Some(&table) {
        h.table_sent = Some(table.clone());
        tables.write(ToClients {
            targets: SendTargets::All,
            message: table,
        });
    }
}

// --- Joined ----------------------------------------------------------------------------------

/// A host that has gone is tried again every two seconds; back, the window rejoins with its
/// token and receives the whole game again.
fn reconnect(
    mut online: ResMut<Online>,
    channels: Res<RepliconChannels>,
    time: Res<Time>,
    mut commands: Commands,
) {
    let Online::Joined(j) = &mut *online else {
        return;
    };
    if matches!(j.link, Link::Refused(_)) {
        return;
    }
    if j.link == Link::Playing {
        j.link = Link::Lost;
    }
    if !j.retry.tick(time.delta()).just_finished() {
        return;
    }
    match connect_afresh(&mut commands, &channels, j.host) {
        Ok(()) => j.join_resend = None,
        Err(e) => warn!("{e}"),
    }
}

/// Asks to join (or rejoin with the kept token) once connected, again every second until
/// the host answers. Without a token, only once kingdoms are chosen.
fn send_join(
    mut online: ResMut<Online>,
    mut chosen: MessageReader<SeatsChosen>,
    time: Res<Time>,
    mut joins: MessageWriter<Join>,
) {
    let Online::Joined(j) = &mut *online else {
        return;
    };
    if let Some(SeatsChosen(kingdoms)) = chosen.read().last() {
        j.asked = kingdoms.clone();
        j.join_resend = None;
    }
    if matches!(j.link, Link::Playing | Link::Refused(_)) {
        return;
    }
    let token = read_token(j.token_file.as_deref());
    if token.is_none() && j.asked.is_empty() {
        return;
    }
    if join_due(&mut j.join_resend, time.delta()) {
        joins.write(Join {
            name: j.name.clone(),
            seats: j.asked.clone(),
            token,
        });
    }
}

/// What the host says: the table, the game (on joining, or again after a take-back), its
/// moves and its refusals.
#[allow(clippy::too_many_arguments)]
fn guest_messages(
    mut tables: MessageReader<Table>,
    mut welcomes: MessageReader<Welcome>,
    mut resyncs: MessageReader<Resync>,
    mut played: MessageReader<Played>,
    mut refusals: MessageReader<Refused>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut games: MessageWriter<GameFromHost>,
    mut players_out: MessageWriter<PlayersFromHost>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let Online::Joined(j) = &mut *online else {
        return;
    };
    for table in tables.read() {
        j.table = table.clone();
        if j.link == Link::Connecting {
            j.link = Link::Choosing;
        }
        // Names and computers as the host has them now.
        let players = players_of(&j.table, the_match.players());
        if j.link == Link::Playing && players != the_match.players() {
            players_out.write(PlayersFromHost(players));
        }
    }
    let mut game_sent = |record: &str, players_of_host: bool| match Record::from_json(record)
        .and_then(|r| r.replay())
    {
        Ok(game) => {
            let players = if players_of_host {
                Record::from_json(record)
                    .map(|r| r.players)
                    .unwrap_or_default()
            } else {
                the_match.players().to_vec()
            };
            games.write(GameFromHost { game, players });
            true
        }
        Err(e) => {
            warn!("the host's game does not replay: {e}");
            false
        }
    };
    for welcome in welcomes.read() {
        if game_sent(&welcome.record, true) {
            if let Some(file) = &j.token_file
                && let Err(e) = crate::saves::write_atomically(file, welcome.token.as_bytes())
            {
                warn!(
                    "the seat token could not be kept in {}: {e}",
                    file.display()
                );
            }
            j.seats = welcome.seats.clone();
            j.link = Link::Playing;
            j.inbox.clear();
            let list = tr.list(&j.seats.iter().map(|k| tr.kingdom(*k)).collect::<Vec<_>>());
            notices.write(Notice::done(tr!(tr, "online-joined", kingdoms = list)));
        } else {
            j.link = Link::Refused(tr.text("online-out-of-step"));
        }
    }
    for resync in resyncs.read() {
        if j.link == Link::Playing {
            j.inbox.clear();
            if game_sent(&resync.record, false) {
                notices.write(Notice::done(tr.text("online-taken-back")));
            } else {
                // Asked for again with a rejoin.
                j.link = Link::Connecting;
                j.join_resend = None;
            }
        }
    }
    for p in played.read() {
        if j.link != Link::Playing {
            continue;
        }
        match notation::parse_move(&p.mv) {
            Ok(mv) => j.inbox.push_back((p.ply, mv)),
            Err(_) => {
                j.link = Link::Connecting;
                j.join_resend = None;
            }
        }
    }
    for refused in refusals.read() {
        if refused.fatal {
            j.link = Link::Refused(refused.reason.clone());
            notices.write(Notice::error(tr!(
                tr,
                "online-refused",
                why = refused.reason.clone()
            )));
        } else {
            notices.write(Notice::error(tr!(
                tr,
                "online-host-says",
                why = refused.reason.clone()
            )));
        }
    }
}

/// The players as the host's table has them: names and computers (levels by name).
fn players_of(table: &Table, current: &[PlayerInfo]) -> Vec<PlayerInfo> {
    current
        .iter()
        .enumerate()
        .map(|(p, info)| match table.seats.get(p) {
            Some(seat) => PlayerInfo {
                name: seat.name.clone(),
                computer: match &seat.hand {
                    Hand::Computer { level, .. } => Some(*level),
                    _ => None,
                },
            },
            None => info.clone(),
        })
        .collect()
}

/// The host runs another version of the game: the window says so and stops trying.
fn other_version(_: On<ProtocolMismatch>, mut online: ResMut<Online>, tr: Res<Tr>) {
    if let Online::Joined(j) = &mut *online {
        j.link = Link::Refused(tr.text("online-other-version"));
    }
}

/// A person's move (and a take-back) goes to the host instead of being played here; the
/// rules system leaves it alone, and the host's answer comes back as its move.
fn forward_person_requests(
    mut requests: MessageReader<MoveRequested>,
    mut undos: MessageReader<UndoRequested>,
    online: Res<Online>,
    the_match: Res<Match>,
    mut plays: MessageWriter<Play>,
    mut take_backs: MessageWriter<TakeBack>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let Online::Joined(j) = &*online else {
        return;
    };
    for request in requests.read() {
        if request.by == Mover::Person && j.link == Link::Playing {
            plays.write(Play {
                ply: request.made_for.ply as u32,
                mv: request.mv.to_string(),
            });
        }
    }
    if undos.read().count() > 0 {
        if j.link == Link::Playing {
            take_backs.write(TakeBack {
                ply: the_match.game().len() as u32,
            });
            notices.write(Notice::done(tr.text("online-take-back-asked")));
        } else {
            notices.write(Notice::error(tr.text("online-not-in-game")));
        }
    }
}

/// Hands the next move from another machine to the rules system once the turn can take it
/// (the move before has been shown, no one is looking back, no question is open).
fn feed_moves(
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    dialog: Res<State<Dialog>>,
    review: Res<Review>,
    mut requests: MessageWriter<MoveRequested>,
) {
    let turn = the_match.turn();
    let ready = |online: &Online| {
        let seats = online.authority(the_match.players().len());
        let player = the_match
            .position()
            .player_of(the_match.position().to_move());
        turn_refusal(
            &the_match,
            *phase.get(),
            &review,
            *dialog.get(),
            Mover::Remote,
            &seats,
        )
        .is_none()
            && seats.takes_remote_moves(player)
    };
    let next = match &*online {
        Online::Hosting(h) => h.inbox.front().map(|&(made_for, mv)| (made_for, mv)),
        Online::Joined(j) => j.inbox.front().map(|&(ply, mv)| {
            (
                Turn {
                    generation: turn.generation,
                    ply: ply as usize,
                },
                mv,
            )
        }),
        Online::Offline => None,
    };
    let Some((made_for, mv)) = next else {
        return;
    };
    if made_for.ply < turn.ply || made_for.generation != turn.generation {
        // Outdated (a take-back, a move already in the game): dropped.
        pop(&mut online);
        return;
    }
    if made_for.ply > turn.ply {
        // A move missed: the joined window asks for the whole game again.
        if let Online::Joined(j) = &mut *online {
            warn!("a move from the host was missed: asking for the game again");
            j.inbox.clear();
            j.link = Link::Connecting;
            j.join_resend = None;
        }
        return;
    }
    if ready(&online) {
        pop(&mut online);
        requests.write(MoveRequested {
            mv,
            made_for: turn,
            by: Mover::Remote,
        });
    }
}

/// Tells the rules system who decides each seat now (it knows nothing of networking).
fn publish_seat_authority(
    online: Res<Online>,
    the_match: Res<Match>,
    mut authority: ResMut<SeatAuthority>,
) {
    if online.is_changed() || the_match.is_changed() {
        authority.set_if_neq(online.authority(the_match.players().len()));
    }
}

fn pop(online: &mut Online) {
    match online {
        Online::Hosting(h) => {
            h.inbox.pop_front();
        }
        Online::Joined(j) => {
            j.inbox.pop_front();
        }
        Online::Offline => {}
    }
}
