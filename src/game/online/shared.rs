//! What every online concern shares: the [`Online`] resource (the link and how it stands, the
//! player's games and the game on the board), the requests and commands that reach it, and the
//! way a concern asks the server and hears its answers ([`Pending`], [`Answered`], [`Told`],
//! [`SignedIn`]).

use std::collections::{HashMap, VecDeque};

use bevy::prelude::*;
use qiguo_protocol::client::ClientError;
use qiguo_protocol::{Answer, Ask, Event, GameSummary, NewGame, SeatView, TakeBackView, TalkLine};
use qiguo_protocol::{GameId, MadeBy};
use qiguo_rules::{Kingdom, Move};

use super::link::Link;
use crate::game::state::{SeatAuthority, SeatHolder};

/// Where the window's online games are, and the game on the board.
#[derive(Resource, Default)]
pub struct Online {
    pub(super) link: Option<Link>,
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
    pub(super) asked: HashMap<u64, Asked>,
    /// Moves the server told of, not yet handed to the rules system: (moves before it, move,
    /// who made it).
    pub(super) inbox: VecDeque<(u32, Move, MadeBy)>,
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
pub(super) enum Asked {
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
    /// A player muted or unmuted: the talk is read again.
    Muted,
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
    pub(super) fn seat_mut(&mut self, player: u8) -> Option<&mut SeatView> {
        self.table.as_mut()?.seats.get_mut(usize::from(player))
    }

    pub(super) fn ask(&mut self, ask: Ask, asked: Asked) {
        if let Some(tag) = self.send(ask) {
            self.asked.insert(tag, asked);
        }
    }

    /// Sends `ask` for a concern: its tag, by which the concern knows its [`Answered`]; `None`
    /// when not connected.
    pub(super) fn send(&mut self, ask: Ask) -> Option<u64> {
        self.link.as_mut().map(|link| link.ask(ask))
    }

    /// Puts game `game`, one of the player's, on the board.
    pub(crate) fn open(&mut self, game: GameId) {
        self.ask(Ask::Open { game }, Asked::Board { watching: false });
    }

    /// Asks for the table talk of the game on the board (who is muted changed, say).
    pub(crate) fn read_talk(&mut self) {
        if let Some(table) = &self.table {
            let ask = Ask::Talk {
                game: table.id.clone(),
                before: None,
            };
            self.ask(ask, Asked::Talk);
        }
    }

    /// Lists the player's games again (their deadlines moved, say).
    pub(crate) fn refresh_games(&mut self) {
        self.ask(Ask::Games {}, Asked::Games);
    }

    /// Whether the window is with a server: signed in, reaching it, or trying again after a
    /// loss (the *Online…* window then shows the server's sections, not the form to connect).
    pub(crate) fn in_touch(&self) -> bool {
        !matches!(self.status, Status::Offline | Status::Refused(_))
    }
}

/// The order of the online systems in a frame: the link's news read and the game's requests
/// sent, then each concern's plugin (which reads what the link's news told).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum OnlineSystems {
    /// The link, the game on the board and its moves.
    Link,
    /// The concerns beside it.
    Concerns,
}

/// An answer to a request a concern asked ([`Pending::ask`]), for that concern's plugin.
#[derive(Message, Clone, Debug)]
pub(crate) struct Answered {
    /// The request's tag.
    pub(crate) tag: u64,
    /// The answer, or why there is none.
    pub(crate) result: Result<Answer, ClientError>,
}

/// An event the server told (the game on the board has taken what is its own), for the
/// concerns' plugins.
#[derive(Message, Clone, Debug)]
pub(crate) struct Told(pub(crate) Event);

/// Signed in to the server, at first or again after a loss: each concern asks what it shows.
#[derive(Message, Clone, Copy, Debug, Default)]
pub(crate) struct SignedIn;

/// The requests a concern asked and waits for, by tag: what each was for.
#[derive(Debug)]
pub(crate) struct Pending<K>(HashMap<u64, K>);

impl<K> Default for Pending<K> {
    fn default() -> Pending<K> {
        Pending(HashMap::new())
    }
}

impl<K> Pending<K> {
    /// Asks the server `ask`, for `kind`; nothing when not connected.
    pub(crate) fn ask(&mut self, online: &mut Online, ask: Ask, kind: K) {
        if let Some(tag) = online.send(ask) {
            self.0.insert(tag, kind);
        }
    }

    /// The answers among `answers` to this concern's requests, each with what it was for; a
    /// request the server did not answer as asked is said in a notice instead.
    pub(crate) fn answers<'a>(
        &mut self,
        answers: impl IntoIterator<Item = &'a Answered>,
        notices: &mut MessageWriter<crate::game::state::Notice>,
        tr: crate::i18n::Tr,
    ) -> Vec<(K, &'a Answer)> {
        let mut answered = Vec::new();
        for answer in answers {
            let Some(kind) = self.0.remove(&answer.tag) else {
                continue;
            };
            match &answer.result {
                Ok(said) => answered.push((kind, said)),
                Err(failure) => {
                    notices.write(super::words::server_says(tr, failure));
                }
            }
        }
        answered
    }
}

/// Asks for the game on the board again (it changed in a way moves alone do not tell).
pub(super) fn reopen(online: &mut Online) {
    if let Some(table) = &online.table {
        let ask = Ask::Open {
            game: table.id.clone(),
        };
        let watching = table.watching;
        online.inbox.clear();
        online.ask(ask, Asked::Board { watching });
    }
}
