//! Rules engine for **Qiguo Xiangqi** (七國象棋, the Game of the Seven Kingdoms): seven
//! kingdoms of 17 pieces each and the immovable Emperor on the 361 points of a 19×19 board.
//!
//! Pure Rust with no game-engine dependency. It covers the whole game: points and kingdoms,
//! the ten kinds of piece, both starting setups, move generation under every rule option,
//! captures, beaten kingdoms (threshold, victor, removal or transfer, forfeit of an attacked
//! ally), victory, seats and alliances, 7K FEN, move text and JSON game records.
//!
//! # Layers
//!
//! * [`Setup`] — an unvalidated arrangement (board and kingdom to move), read from [`fen`].
//! * [`Position`] — a validated state under [`Rules`] and [`Seats`]: legal moves,
//!   [`Position::play`] for untrusted moves, [`Position::make`]/[`Position::unmake`] for search,
//!   [`Position::perft`].
//! * [`Game`] — a start position plus the moves played, with undo and redo.
//! * [`Record`] — a game saved as JSON; loading replays and so validates it.
//!
//! ```
//! use qiguo_rules::{notation, Kingdom, Position, Preset, Rules};
//!
//! let mut pos = Position::start(Rules::preset(Preset::Classic));
//! assert_eq!(pos.legal_moves().len(), 96);
//! let report = pos.play(notation::parse_move("e10e5")?)?;
//! assert_eq!(report.mover, Kingdom::Qin);
//! assert_eq!(pos.to_move(), Kingdom::Chu);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Representation
//!
//! The board is a 21×21 padded mailbox (one sentinel point around the 19×19 board) stored in a
//! 512-byte array, so rays stop at the border without bounds arithmetic. Each kingdom keeps a
//! list of its pieces' cells; a Zobrist hash (pieces with their owners, kingdom to move, capture
//! and loss counters) is updated incrementally. A move that only moves or captures is made and
//! unmade incrementally; a capture that beats a kingdom, forfeits an ally or ends the game
//! saves a snapshot to undo from, since such moves are rare.

#![deny(missing_docs)]

mod attacks;
pub mod fen;
mod game;
mod kingdom;
mod level;
mod movegen;
mod moves;
pub mod notation;
mod piece;
mod point;
mod position;
pub mod random;
pub mod record;
mod rules;
mod seats;
mod setup;

pub use game::Game;
pub use kingdom::{Edge, Kingdom, KingdomSet, ParseKingdomError};
pub use level::{Level, ParseLevelError};
pub use moves::Move;
pub use piece::{Piece, PieceKind};
pub use point::{ParsePointError, Point, SIZE};
pub use position::{
    Fallen, IllegalMove, MoveReport, Outcome, Position, PositionError, Standing, Undo, Victory,
};
pub use record::{PlayerInfo, Record, RecordError};
pub use rules::{
    BeatenArmy, CannonScreen, GoalReached, KingdomGoal, KnightMove, ParsePresetError, Preset,
    RangedMove, Rules, RulesError, SetupStyle, VictorRule,
};
pub use seats::{Seating, Seats, SeatsError};
pub use setup::{Board, ELEPHANTCHESS_START_FEN, LEVENTHAL_START_FEN, Setup};
