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
//!
//! Its rooms: the connection (the link, requests sent, news read), the events the server tells,
//! the table (the game on the board and its moves both ways), the notifications, the window and
//! the words for the server's refusals.

mod connection;
mod events;
pub mod invite;
pub(crate) mod link;
pub(crate) mod notify;
mod table;
mod talk;
pub(crate) mod ui;

pub(crate) use talk::TALK_PANEL;
pub(crate) mod words;

use connection::{connect_or_leave, read_news, send_commands};
use events::on_event;
use table::{
    feed_moves, forward_person_requests, publish_seat_authority, put_on_board, recap_on_open,
};

use std::collections::{HashMap, VecDeque};

use bevy::prelude::*;
use link::Link;
use qiguo_protocol::lobby::{LobbyView, TableId, TableSpec, TableView};
use qiguo_protocol::{
    Ask, GameSummary, Holidays, MailView, NewGame, RatingFamily, RatingHistory, RatingRow,
    SeatView, TakeBackView, TalkLine,
};
use qiguo_protocol::{GameId, MadeBy};
use qiguo_rules::{Kingdom, Move};

use crate::game::AppSystems;
use crate::game::online::notify::Notifier;
use crate::game::state::{SeatAuthority, SeatHolder};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Online>()
        .init_resource::<Notifier>()
        .add_plugins((invite::plugin, talk::plugin))
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
    /// The player's holidays, once the server said.
    pub holidays: Option<Holidays>,
    /// The player's e-mail as the server has it, once it said.
    pub mail: Option<MailView>,
    /// Notifications to the player's devices, as the server has them, once it said.
    pub push: Option<qiguo_protocol::PushView>,
    /// The page of finished games last read: the games, the page, whether more follow.
    pub finished: Option<(Vec<GameSummary>, u32, bool)>,
    /// The ratings last read: a pace family's leaderboard and the player's own history there.
    pub ratings: Option<(RatingFamily, Vec<RatingRow>, RatingHistory)>,
    /// The lobby, as the server last sent it (followed while connected).
    pub lobby: Option<LobbyView>,
    /// The open tables the player sits at (by id), as the server answered.
    pub my_tables: Vec<TableView>,
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
    /// Who holds the kingdoms (the record's seats).
    pub record_seats: qiguo_rules::Seats,
    /// Its table talk as read and told, oldest first.
    pub talk: Vec<TalkLine>,
    /// The seats whose players this player muted.
    pub muted: Vec<u8>,
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
    /// Play now: a seat in a quick game, put on the board.
    Quick,
    Move,
    TakeBack,
    /// The table talk of the game on the board.
    Talk,
    /// The player's holidays: asked, or `changed` (the deadlines of their games moved).
    Holidays {
        changed: bool,
    },
    /// A player muted or unmuted: the talk is read again.
    Muted,
    /// A page of finished games.
    Finished,
    /// A leaderboard and the player's rating.
    Ratings,
    /// The lobby.
    Lobby,
    /// A table created or joined.
    Table,
    /// A table left.
    TableLeft(TableId),
    /// A player blocked or unblocked: the talk is read again.
    Blocked(bool),
    /// A report made.
    Reported,
    /// The player's e-mail: asked, or `changed` (given, removed).
    Mail {
        changed: bool,
    },
    /// Notifications to the player's devices: asked, subscribed or unsubscribed.
    Push,
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
        /// Plain `ws://` to another machine allowed: the player said the network is theirs.
        insecure_lan: bool,
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
    /// Play now at a pace: a seat at once in a quick game, put on the board.
    Quick(qiguo_protocol::QuickPace),
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
    /// Write a line at the table of the game on the board.
    Say(String),
    /// Mute (or unmute) the player of a seat of the game on the board.
    Mute {
        /// The seat.
        seat: u8,
        /// Mute, or unmute.
        mute: bool,
    },
    /// Go on holiday until a day (`YYYY-MM-DD`), or (`None`) be back.
    Away(Option<String>),
    /// Give the server an e-mail address (with a daily digest or not), or (`None`) remove it.
    SetMail {
        /// The address as typed, or `None`.
        address: Option<String>,
        /// One e-mail a day rather than one a turn.
        digest: bool,
    },
    /// Notify this device (a page's push subscription: endpoint, key, secret).
    Subscribe {
        /// The push service's URL for the device.
        endpoint: String,
        /// The device's P-256 key, base64url.
        p256dh: String,
        /// The device's secret, base64url.
        auth: String,
    },
    /// Notify the device of this endpoint no more.
    Unsubscribe(String),
    /// Read a page of my finished games.
    Finished(u32),
    /// Read a pace family's leaderboard and my rating and history in it.
    Ratings(RatingFamily),
    /// Block (or, `false`, unblock) the player of this name.
    Block(String, bool),
    /// Report the player of this name to the server's operator.
    Report {
        /// Their name.
        name: String,
        /// The game it is about.
        game: GameId,
        /// Why.
        reason: String,
    },
    /// Create a public table and sit at it.
    CreateTable(TableSpec),
    /// Sit at an open table.
    JoinTable(TableId),
    /// Get up from a table.
    LeaveTable(TableId),
    /// Offer the players of a finished game a rematch, and put it on the board.
    Rematch(GameId),
    /// Take the online game off the board's link: the board keeps it as it stands, played at
    /// this screen from now on (the game goes on on the server without this window).
    LeaveGame,
}

impl Online {
    /// Whether the board's game is an online one (new games and loading wait until it is left).
    pub fn is_online(&self) -> bool {
        self.table.is_some()
    }

    /// Whether this window plays `kingdom` of the online game on the board (`pos` its
    /// position): it holds the kingdom's seat and is not only watching. False offline.
    pub(crate) fn plays(&self, pos: &qiguo_rules::Position, kingdom: qiguo_rules::Kingdom) -> bool {
        self.table.as_ref().is_some_and(|table| {
            !table.watching
                && pos
                    .seats()
                    .player(kingdom)
                    .is_some_and(|player| table.holds(player))
        })
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

/// Asks for the table talk of the game on the board.
fn read_talk(online: &mut Online) {
    if let Some(table) = &online.table {
        let ask = Ask::Talk {
            game: table.id.clone(),
            before: None,
        };
        online.ask(ask, Asked::Talk);
    }
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
