//! Online games from the window, through a Qiguo server: the window's own (started on a thread
//! of its own, its games in the data directory, for a LAN evening) or one elsewhere. The
//! connection is a [`Link`] (a client on its own thread); this module turns what it reports
//! into the game: *My games*, the game on the board, its moves as they come.
//!
//! The server is the authority. A game opened from *My games* (or joined, or watched) is handed
//! to the rules system whole ([`GameFromServer`]); the person's moves on their own kingdoms go to
//! the server instead of being played here, and every move the server tells of (theirs among
//! them) is handed to the rules system as a [`Mover::Remote`] request once the move before has
//! been shown. A take-back (*Take back*) is asked of the other people; an overdue pass, a
//! take-back made or a game that fell behind sends for the whole game again. Connection state
//! lives in the [`Online`] resource, which only this module changes; the game stays in `Match`.

mod notify;
pub(crate) mod ui;
mod words;

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};

use bevy::prelude::*;
use qiguo_rules::{Kingdom, Move, PlayerInfo, notation};
use qiguo_server::link::{Link, News, Target};
use qiguo_server::protocol::{
    Answer, Ask, Event, GameSummary, GameView, NewGame, SeatView, TakeBackView,
};
use qiguo_server::{GameId, MadeBy, SeatPlan};

use crate::game::AppSystems;
use crate::game::online::notify::{Notification, Notifier};
use crate::game::recap::Recap;
use crate::game::state::{
    GameFromServer, Match, MatchReset, MoveRequested, Mover, Notice, PlayersFromServer,
    SeatAuthority, SeatHolder, Turn, TurnGate, UndoRequested,
};
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Online>()
        .init_resource::<Notifier>()
        .add_message::<OnlineRequested>()
        .add_message::<OnlineCommand>()
        .add_systems(
            Update,
            (
                connect_or_leave,
                read_news,
                send_commands,
                forward_person_requests,
                feed_moves,
                publish_seat_authority,
            )
                .chain()
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(Update, recap_on_open.in_set(AppSystems::SyncView));
}

/// Where the window's online games are, and the game on the board.
#[derive(Resource, Default)]
pub struct Online {
    link: Option<Link>,
    /// How the connection stands.
    pub status: Status,
    /// The server's address as players reach it (for the window's own server, this machine's
    /// address on its network).
    pub address: Option<String>,
    /// The window's own server's address on this machine, once it listens.
    pub served: Option<String>,
    /// The player's name on the server.
    pub name: Option<String>,
    /// The player's games, those waiting for their move first.
    pub games: Vec<GameSummary>,
    /// The game on the board.
    pub table: Option<OnlineTable>,
    /// What each request was for, by tag.
    asked: HashMap<u64, Asked>,
    /// Moves the server told of, not yet handed to the rules system: (moves before it, move,
    /// who made it).
    inbox: VecDeque<(u32, Move, MadeBy)>,
}

impl std::fmt::Debug for Online {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Online")
            .field("status", &self.status)
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

/// How the connection to the server stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Status {
    /// Not connected: games are played at this screen only.
    #[default]
    Offline,
    /// Reaching the server.
    Connecting,
    /// Signed in.
    Connected,
    /// The server cannot be reached; trying again.
    Lost(String),
    /// The server will not have this window (or its own server did not start).
    Refused(String),
}

/// The online game on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineTable {
    /// Its id.
    pub id: GameId,
    /// Its invitation code.
    pub code: String,
    /// Its seats, by player number.
    pub seats: Vec<SeatView>,
    /// Whether the window only watches.
    pub watching: bool,
    /// The take-back being asked, if any.
    pub take_back: Option<TakeBackView>,
    /// When the turn is overdue (ms since 1970).
    pub deadline_ms: Option<i64>,
}

impl OnlineTable {
    /// Whether this window's player holds player number `player`.
    pub fn holds(&self, player: u8) -> bool {
        self.seats.get(usize::from(player)).is_some_and(|s| s.yours)
    }
}

/// What a request was for.
#[derive(Clone, Debug, PartialEq)]
enum Asked {
    Games,
    /// A game to put on the board (opened, joined, watched, created, or read again).
    Board {
        watching: bool,
    },
    Created,
    Move,
    TakeBack,
    Other,
}

/// Connect the window to a server (its own, or one elsewhere), or leave it.
#[derive(Message, Clone, Debug)]
pub enum OnlineRequested {
    /// Start the window's own server and connect to it.
    OwnServer {
        /// Whether other machines on the network may reach it (else only this one).
        lan: bool,
        /// The port.
        port: u16,
        /// The player's name.
        name: String,
    },
    /// Connect to a server elsewhere.
    Remote {
        /// `ws://HOST:PORT` or `wss://HOST:PORT`.
        url: String,
        /// The player's name (when the server meets them for the first time).
        name: String,
    },
    /// Disconnect: the board keeps the game as it stands, played here from now on.
    Leave,
}

/// Something to ask the server.
#[derive(Message, Clone, Debug)]
pub enum OnlineCommand {
    /// List my games again.
    RefreshGames,
    /// Put one of my games on the board.
    Open(GameId),
    /// Create a game, and put it on the board.
    Create(NewGame),
    /// Take an open seat with a code, and put the game on the board.
    Join {
        /// The code, as typed.
        code: String,
        /// A kingdom of the seat.
        kingdom: Kingdom,
    },
    /// Watch a game by its code.
    Watch(String),
    /// Agree to (or refuse) the take-back asked in the game on the board.
    AnswerTakeBack(bool),
    /// Take the online game off the board's link: the board keeps it as it stands, played at
    /// this screen from now on (the game goes on on the server without this window).
    LeaveGame,
}

impl Online {
    /// Whether the board's game is an online one (new games and loading wait until it is left).
    pub fn is_online(&self) -> bool {
        self.table.is_some()
    }

    /// Who decides each of `players` seats, as the rules system is to know it: offline,
    /// everything here; with an online game on the board, only the seats this window holds.
    pub(crate) fn authority(&self, players: usize) -> SeatAuthority {
        match &self.table {
            None => SeatAuthority::local(),
            Some(table) => SeatAuthority::guest(
                (0..players)
                    .map(|p| {
                        if !table.watching && table.holds(p as u8) {
                            SeatHolder::Here
                        } else {
                            SeatHolder::Remote
                        }
                    })
                    .collect(),
            ),
        }
    }

    /// The seat of `player` in the game on the board, if there is one.
    fn seat_mut(&mut self, player: u8) -> Option<&mut SeatView> {
        self.table.as_mut()?.seats.get_mut(usize::from(player))
    }

    fn ask(&mut self, ask: Ask, asked: Asked) {
        if let Some(link) = &mut self.link {
            let tag = link.ask(ask);
            self.asked.insert(tag, asked);
        }
    }
}

/// The address other machines reach a server listening on `bind` at: this machine's address on
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

/// Starts the link on request, or lets it go.
fn connect_or_leave(
    mut requests: MessageReader<OnlineRequested>,
    mut online: ResMut<Online>,
    store: Option<Res<crate::game::saving::SaveStore>>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for request in requests.read() {
        // The data directory the game saves in (each test window has its own).
        let dir = match store.as_ref().and_then(|s| s.dir.clone()) {
            Some(dir) => Ok(dir),
            None => crate::saves::SaveDir::locate(),
        };
        let keys = match dir {
            Ok(dir) => dir.root().to_path_buf(),
            Err(e) => {
                notices.write(Notice::error(tr!(tr, "online-failed", why = e.to_string())));
                continue;
            }
        };
        // The own server's lines reach Bevy's log through `tracing`.
        let log = qiguo_server::log::Log::tracing();
        let (target, name) = match request {
            OnlineRequested::Leave => {
                if online.link.is_some() {
                    *online = Online::default();
                    notices.write(Notice::done(tr.text("online-left")));
                }
                continue;
            }
            OnlineRequested::OwnServer { lan, port, name } => {
                let bind = if *lan {
                    IpAddr::V4(Ipv4Addr::UNSPECIFIED)
                } else {
                    IpAddr::V4(Ipv4Addr::LOCALHOST)
                };
                let mut config = qiguo_server::server::ServerConfig::new(
                    qiguo_server::cli::sqlite_url(&keys.join(qiguo_server::cli::SERVER_DB)),
                );
                config.bind = bind;
                config.port = *port;
                // A LAN evening at home: plain WebSocket, said so in the window.
                config.insecure_lan = *lan;
                online.address = Some(format!(
                    "ws://{}",
                    joinable_address(SocketAddr::new(bind, *port))
                ));
                (Target::Own(config), name.clone())
            }
            OnlineRequested::Remote { url, name } => {
                online.address = Some(url.clone());
                (
                    Target::Remote {
                        url: url.clone(),
                        ca: None,
                    },
                    name.clone(),
                )
            }
        };
        let address = online.address.take();
        *online = Online {
            link: Some(Link::start(target, name, keys, log)),
            status: Status::Connecting,
            address,
            ..Online::default()
        };
    }
}

/// What the server said: answers to the window's requests, and events.
fn read_news(
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut games: MessageWriter<GameFromServer>,
    mut players: MessageWriter<PlayersFromServer>,
    mut notices: MessageWriter<Notice>,
    mut notifier: ResMut<Notifier>,
    tr: Res<Tr>,
) {
    let Some(link) = &online.link else {
        return;
    };
    let news = link.poll();
    if news.is_empty() {
        return;
    }
    let online = &mut *online;
    for item in news {
        match item {
            News::Serving { url } => {
                info!("the window's server listens on {url}");
                online.served = Some(url);
            }
            News::NotServing(why) => {
                online.status = Status::Refused(why.clone());
                notices.write(Notice::error(tr!(tr, "online-failed", why = why)));
            }
            News::Connected { name, .. } => {
                online.status = Status::Connected;
                online.name = Some(name);
                online.ask(Ask::Games {}, Asked::Games);
                // Back after a lost connection: the game on the board is read again.
                reopen(online);
            }
            News::Lost(why) => online.status = Status::Lost(why),
            News::Refused(failure) => {
                let why = words::failure_words(*tr, &failure);
                online.status = Status::Refused(why.clone());
                notices.write(Notice::error(tr!(tr, "online-refused", why = why)));
            }
            News::NoKeys(why) => {
                online.status = Status::Refused(why.clone());
                notices.write(Notice::error(tr!(tr, "online-failed", why = why)));
            }
            News::Answer { tag, result } => {
                let asked = online.asked.remove(&tag).unwrap_or(Asked::Other);
                match (asked, result) {
                    (Asked::Games, Ok(Answer::Games { games })) => online.games = games,
                    (Asked::Board { watching }, Ok(Answer::Game(view))) => {
                        put_on_board(online, &view, watching, &mut games, &mut notices, &tr);
                    }
                    (Asked::Created, Ok(Answer::Created { game, code })) => {
                        notices.write(Notice::done(tr!(tr, "online-created", code = code)));
                        online.ask(Ask::Open { game }, Asked::Board { watching: false });
                        online.ask(Ask::Games {}, Asked::Games);
                    }
                    (Asked::TakeBack, Ok(_)) => {
                        notices.write(Notice::done(tr.text("online-take-back-asked")));
                    }
                    (_, Ok(_)) => {}
                    (Asked::Move, Err(failure)) => {
                        // The move did not count: the game is read again, so the board agrees.
                        let why = words::failure_words(*tr, &failure);
                        notices.write(Notice::error(tr!(tr, "online-server-says", why = why)));
                        reopen(online);
                    }
                    (_, Err(failure)) => {
                        let why = words::failure_words(*tr, &failure);
                        notices.write(Notice::error(tr!(tr, "online-server-says", why = why)));
                    }
                }
            }
            News::Event(event) => on_event(
                online,
                event,
                &the_match,
                &mut players,
                &mut notices,
                &mut notifier,
                &tr,
            ),
        }
    }
}

/// The game the server sent goes on the board, whole.
fn put_on_board(
    online: &mut Online,
    view: &GameView,
    watching: bool,
    games: &mut MessageWriter<GameFromServer>,
    notices: &mut MessageWriter<Notice>,
    tr: &Tr,
) {
    match view.record.replay() {
        Ok(game) => {
            games.write(GameFromServer {
                game,
                players: players_of(view),
            });
            online.inbox.clear();
            online.table = Some(OnlineTable {
                id: view.id.clone(),
                code: view.code.clone(),
                seats: view.seats.clone(),
                watching,
                take_back: view.take_back.clone(),
                deadline_ms: view.deadline_ms,
            });
        }
        Err(e) => {
            notices.write(Notice::error(tr!(
                tr,
                "online-server-says",
                why = e.to_string()
            )));
        }
    }
}

/// The players as the server has them: the names of who took each seat.
fn players_of(view: &GameView) -> Vec<PlayerInfo> {
    view.record
        .players
        .iter()
        .zip(&view.seats)
        .map(|(info, seat)| PlayerInfo {
            name: seat.name.clone().unwrap_or_else(|| info.name.clone()),
            computer: match seat.plan {
                SeatPlan::Computer(level) => Some(level),
                _ => None,
            },
        })
        .collect()
}

/// Asks for the game on the board again (it changed in a way moves alone do not tell).
fn reopen(online: &mut Online) {
    if let Some(table) = &online.table {
        let ask = Ask::Open {
            game: table.id.clone(),
        };
        let watching = table.watching;
        online.inbox.clear();
        online.ask(ask, Asked::Board { watching });
    }
}

fn on_event(
    online: &mut Online,
    event: Event,
    the_match: &Match,
    players: &mut MessageWriter<PlayersFromServer>,
    notices: &mut MessageWriter<Notice>,
    notifier: &mut Notifier,
    tr: &Tr,
) {
    let on_board = |game: &GameId| online.table.as_ref().is_some_and(|t| t.id == *game);
    match event {
        Event::Moved {
            game,
            ply,
            mv,
            by,
            deadline_ms,
            ..
        } if on_board(&game) => {
            if let Some(table) = &mut online.table {
                table.deadline_ms = deadline_ms;
                table.take_back = None;
            }
            match (by, notation::parse_move(&mv)) {
                (MadeBy::OverduePass, _) | (_, Err(_)) => reopen(online),
                (by, Ok(mv)) => online.inbox.push_back((ply, mv, by)),
            }
        }
        Event::Seated { game, seat, name } if on_board(&game) => {
            if let Some(s) = online.seat_mut(seat) {
                s.name = Some(name.clone());
                let mut named = the_match.players().to_vec();
                if let Some(p) = named.get_mut(usize::from(seat)) {
                    p.name = name.clone();
                    players.write(PlayersFromServer(named));
                }
            }
            notices.write(Notice::done(tr!(tr, "online-seated", name = name)));
        }
        Event::Presence {
            game,
            seat,
            present,
        } if on_board(&game) => {
            if let Some(s) = online.seat_mut(seat) {
                s.present = present;
            }
        }
        Event::TakeBackAsked { game, take_back } if on_board(&game) => {
            if let Some(table) = &mut online.table {
                table.take_back = Some(take_back);
            }
        }
        Event::TakeBackRefused { game } if on_board(&game) => {
            if let Some(table) = &mut online.table
                && table.take_back.take().is_some()
            {
                notices.write(Notice::error(tr.text("online-take-back-refused")));
            }
        }
        Event::TakenBack { game, .. } | Event::Stale { game } if on_board(&game) => {
            if let Some(table) = &mut online.table {
                table.take_back = None;
            }
            reopen(online);
        }
        Event::YourTurn { game, kingdom } => {
            if !on_board(&game) {
                notices.write(Notice::done(tr.text("online-your-turn-elsewhere")));
                let players = online
                    .games
                    .iter()
                    .find(|g| g.id == game)
                    .map(|g| g.players.join(", "))
                    .unwrap_or_default();
                notifier.show(Notification {
                    summary: tr.text("online-notify-title"),
                    body: tr!(
                        tr,
                        "online-notify-body",
                        kingdom = tr.kingdom(kingdom),
                        players = players
                    ),
                });
            }
            online.ask(Ask::Games {}, Asked::Games);
        }
        _ => {}
    }
}

/// The window's requests, asked of the server.
fn send_commands(mut commands: MessageReader<OnlineCommand>, mut online: ResMut<Online>) {
    for command in commands.read() {
        match command.clone() {
            OnlineCommand::RefreshGames => online.ask(Ask::Games {}, Asked::Games),
            OnlineCommand::Open(game) => {
                online.ask(Ask::Open { game }, Asked::Board { watching: false })
            }
            OnlineCommand::Create(game) => online.ask(Ask::Create { game }, Asked::Created),
            OnlineCommand::Join { code, kingdom } => {
                online.ask(
                    Ask::Join { code, kingdom },
                    Asked::Board { watching: false },
                );
            }
            OnlineCommand::Watch(code) => {
                online.ask(Ask::Watch { code }, Asked::Board { watching: true })
            }
            OnlineCommand::LeaveGame => {
                if let Some(table) = online.table.take() {
                    online.inbox.clear();
                    online.ask(Ask::Close { game: table.id }, Asked::Other);
                }
            }
            OnlineCommand::AnswerTakeBack(agree) => {
                let Some(table) = &mut online.table else {
                    continue;
                };
                table.take_back = None;
                let ask = Ask::AnswerTakeBack {
                    game: table.id.clone(),
                    agree,
                };
                online.ask(ask, Asked::Other);
            }
        }
    }
}

/// A person's move goes to the server instead of being played here, and a take-back is asked
/// of the other people; the rules system leaves both alone (the seat authority says so), and
/// the server's answer comes back as moves.
fn forward_person_requests(
    mut requests: MessageReader<MoveRequested>,
    mut undos: MessageReader<UndoRequested>,
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    if requests.is_empty() && undos.is_empty() {
        return;
    }
    let Some(table) = online.table.clone() else {
        requests.clear();
        undos.clear();
        return;
    };
    for request in requests.read() {
        if request.by == Mover::Person {
            let ask = Ask::Move {
                game: table.id.clone(),
                ply: request.made_for.ply as u32,
                mv: request.mv.to_string(),
            };
            online.ask(ask, Asked::Move);
        }
    }
    if undos.read().count() > 0 {
        // The last move one of this window's kingdoms made, and everything after it.
        let game = the_match.game();
        let last_own = game
            .reports()
            .enumerate()
            .filter(|(n, r)| table.holds(game.position_at(*n).player_of(r.mover)))
            .map(|(n, _)| n)
            .last();
        match last_own {
            Some(ply) if !table.watching => {
                let ask = Ask::TakeBack {
                    game: table.id.clone(),
                    ply: ply as u32,
                };
                online.ask(ask, Asked::TakeBack);
            }
            _ => {
                notices.write(Notice::error(tr.text("online-nothing-to-take-back")));
            }
        }
    }
}

/// Hands the next move from the server to the rules system once the turn can take it (the
/// move before has been shown, no one is looking back, no question is open).
fn feed_moves(
    mut online: ResMut<Online>,
    the_match: Res<Match>,
    gate: TurnGate,
    mut requests: MessageWriter<MoveRequested>,
) {
    let turn = the_match.turn();
    let Some(&(ply, mv, by)) = online.inbox.front() else {
        return;
    };
    let ply = ply as usize;
    if ply < turn.ply {
        // Already in the game (it was read whole since).
        online.inbox.pop_front();
        return;
    }
    if ply > turn.ply {
        warn!("a move from the server was missed: reading the game again");
        reopen(&mut online);
        return;
    }
    let seats = online.authority(the_match.players().len());
    let ready = gate
        .refusal_under(&the_match, Mover::Remote, &seats)
        .is_none();
    if ready {
        online.inbox.pop_front();
        // A seat's own move: its player has the game open now, whatever they had before.
        let mover = the_match
            .position()
            .player_of(the_match.position().to_move());
        if by == MadeBy::Seat
            && let Some(seat) = online.seat_mut(mover)
        {
            seat.present = true;
        }
        requests.write(MoveRequested {
            mv,
            made_for: Turn {
                generation: turn.generation,
                ply,
            },
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

/// An online game put on the board (opened, joined, or read again) shows what happened since
/// this window's player last moved: the recap's arrows and marks, until the next move. (When
/// the game waits for them, their turn's own recap says the same.)
fn recap_on_open(
    mut resets: MessageReader<MatchReset>,
    online: Res<Online>,
    the_match: Res<Match>,
    mut recap: ResMut<Recap>,
) {
    if resets.read().count() == 0 {
        return;
    }
    let Some(table) = online.table.as_ref().filter(|t| !t.watching) else {
        return;
    };
    let game = the_match.game();
    let since = (0..table.seats.len() as u8)
        .filter(|&p| table.holds(p))
        .map(|p| Recap::since_last_turn(game, p).start)
        .max();
    if let Some(start) = since {
        recap.set_if_neq(Recap {
            turn: Some(the_match.turn()),
            moves: start..game.len(),
        });
    }
}
