//! The messages that ask the rules system for a change and report what it did: moves, undo
//! and redo, review, new games, seats, hints, and the notices for the players.

use bevy::prelude::*;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, Move, MoveReport, PlayerInfo, Position};

use super::{BoardRefusal, Match, Turn};

/// A request to take back the last move (back to the last move a person made).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct UndoRequested;

/// A request to play again the moves last taken back.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct RedoRequested;

/// A request to look at an earlier position, or to go back to the game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewRequested {
    /// The position after this many moves.
    Ply(usize),
    /// The start.
    First,
    /// One move back from the position shown.
    Back,
    /// One move forward from the position shown.
    Forward,
    /// The live position: leave the review.
    Live,
}

/// The board should move to a different position of the same game (undo, redo, review): the
/// stones glide there instead of being rebuilt.
#[derive(Message, Clone, Copy, Debug, Default)]
pub(crate) struct ShownPositionChanged;

/// What a notice says: words already in the player's language, one of the interface's
/// messages, or a refusal; the interface words the last two (`game::wording`), so that the
/// rules system decides without wording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// Words already in the player's language.
    Words(String),
    /// The interface's message of this id.
    Message(&'static str),
    /// A refusal.
    Refused(BoardRefusal),
}

/// A message for the players (a refused file, a failed save), shown briefly and logged.
#[derive(Message, Clone, Debug)]
pub struct Notice {
    /// What it says.
    pub said: Said,
    /// Whether something went wrong (rather than just done).
    pub error: bool,
}

impl Notice {
    /// Something went wrong, in these words; nothing changed.
    pub fn error(text: impl Into<String>) -> Notice {
        Notice {
            said: Said::Words(text.into()),
            error: true,
        }
    }

    /// Something went wrong, as the interface's message `id` says; nothing changed.
    pub fn error_message(id: &'static str) -> Notice {
        Notice {
            said: Said::Message(id),
            error: true,
        }
    }

    /// A request was refused; nothing changed.
    pub fn refused(refusal: BoardRefusal) -> Notice {
        Notice {
            said: Said::Refused(refusal),
            error: true,
        }
    }

    /// Something was done.
    pub fn done(text: impl Into<String>) -> Notice {
        Notice {
            said: Said::Words(text.into()),
            error: false,
        }
    }
}

/// Who asks for a move: the person at the board, or the computer player of the kingdom to
/// move at some level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// A person, by clicking.
    Person,
    /// A computer player of this level.
    Computer(Level),
    /// The server of the online game on the board, which has played the move already (this
    /// window's people's moves among them).
    Remote,
}

/// A request to play a move for the kingdom to move, made for one turn by one mover. The rules
/// system checks that the request still fits the match before playing it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRequested {
    /// The move.
    pub mv: Move,
    /// The turn it was chosen at.
    pub made_for: Turn,
    /// Who chose it.
    pub by: Mover,
}

impl MoveRequested {
    /// A person's request to play `mv` now, in `the_match`.
    pub fn by_person(the_match: &Match, mv: Move) -> MoveRequested {
        MoveRequested {
            mv,
            made_for: the_match.turn(),
            by: Mover::Person,
        }
    }
}

/// The last move has been shown (its stones have landed): the turn can go on.
#[derive(Message, Clone, Copy, Debug, Default)]
pub(crate) struct MoveShown;

/// A move was played: what it did, and how many moves the game now has.
#[derive(Message, Clone, Debug)]
pub struct MoveApplied {
    /// Everything the move did.
    pub report: MoveReport,
    /// Number of moves played, this one included.
    pub ply: usize,
    /// Who asked for it.
    pub by: Mover,
}

/// A move request was refused; nothing changed.
#[derive(Message, Clone, Debug)]
pub struct MoveRejected {
    /// The move.
    pub mv: Move,
    /// Why.
    pub reason: BoardRefusal,
}

/// A request to replace the match with a new one: a new game, or a loaded or imported one.
#[derive(Message, Clone, Debug)]
pub struct NewGameRequested {
    /// The game: its start (rules and seats inside) and any moves already played.
    pub game: Game,
    /// The players, one per player number.
    pub players: Vec<PlayerInfo>,
    /// Hints already shown to each kingdom's player (a loaded game), by kingdom index.
    pub hints: [u32; 7],
}

impl From<crate::saves::Loaded> for NewGameRequested {
    /// A request to play on from a loaded game, hints counted as the record has them.
    fn from(loaded: crate::saves::Loaded) -> NewGameRequested {
        NewGameRequested {
            players: loaded.players(),
            hints: loaded.record.hints_by_kingdom(),
            game: loaded.game,
        }
    }
}

impl NewGameRequested {
    /// A new game from `start`.
    pub fn new(start: Position, players: Vec<PlayerInfo>) -> NewGameRequested {
        NewGameRequested {
            game: Game::new(start),
            players,
            hints: [0; 7],
        }
    }
}

/// A hint was shown to the player of `kingdom` at `turn`: counted in the match.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HintUsed {
    /// The kingdom to move, whose player asked.
    pub kingdom: Kingdom,
    /// The turn it was for (a hint for a turn gone is not counted).
    pub turn: Turn,
}

/// A request to hand a player's kingdoms to a person or to the computer.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatChangeRequested {
    /// The player (see the seats).
    pub player: u8,
    /// The computer's level, or `None` for a person.
    pub computer: Option<Level>,
}

/// From the server of the online game on the board: the whole game (on opening it, or again
/// after moves were taken back), replacing the match.
#[derive(Message, Clone, Debug)]
pub(crate) struct GameFromServer {
    /// The game.
    pub game: Game,
    /// The players, as the server has them.
    pub players: Vec<PlayerInfo>,
}

/// From the server of the online game on the board: the players' names and computers now.
#[derive(Message, Clone, Debug, PartialEq)]
pub(crate) struct PlayersFromServer(pub Vec<PlayerInfo>);

/// The match was replaced as a whole: views rebuild from it rather than animate.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct MatchReset;
