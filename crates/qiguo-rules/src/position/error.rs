//! Why a move or a position is refused.

use super::*;
use crate::RulesError;

/// Why a move cannot be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game is over.
    GameOver,
    /// There is no piece on the from-point.
    NoPiece(Point),
    /// The piece on the from-point belongs to another kingdom than the one to move.
    NotYourPiece {
        /// The piece.
        piece: Piece,
        /// The kingdom to move.
        to_move: Kingdom,
    },
    /// The piece cannot go there.
    Unreachable {
        /// The piece.
        piece: Piece,
        /// The move.
        mv: Move,
    },
    /// A pass was played though the kingdom to move has a legal move.
    PassNotAllowed,
    /// The kingdom to move has no legal move and must pass.
    MustPass,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::NoPiece(p) => write!(f, "there is no piece on {p}"),
            IllegalMove::NotYourPiece { piece, to_move } => write!(
                f,
                "the {} on that point belongs to {}, but {} is to move",
                piece.kind, piece.kingdom, to_move
            ),
            IllegalMove::Unreachable { piece, mv } => {
                write!(f, "{}'s {} cannot move {}", piece.kingdom, piece.kind, mv)
            }
            IllegalMove::PassNotAllowed => {
                write!(f, "passing is allowed only without any legal move")
            }
            IllegalMove::MustPass => {
                write!(f, "the kingdom to move has no legal move and must pass")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why a setup is not a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// The FEN text could not be read.
    Fen(fen::FenError),
    /// The rule options are out of range.
    Rules(RulesError),
    /// No kingdom held by a player has a piece on the board.
    NoArmies,
    /// The kingdom to move has no piece (or its seat is empty).
    ToMoveAbsent(Kingdom),
    /// A piece stands on `j10`, the Emperor's point.
    PieceOnEmperor,
    /// A kingdom has more pieces than all seven armies together (119).
    TooManyPieces(Kingdom),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionError::Rules(e) => write!(f, "bad rules: {e}"),
            PositionError::NoArmies => write!(f, "no kingdom in the game has a piece on the board"),
            PositionError::ToMoveAbsent(k) => {
                write!(f, "{k} is to move but has no piece on the board")
            }
            PositionError::PieceOnEmperor => {
                write!(f, "a piece stands on j10, the Emperor's point")
            }
            PositionError::TooManyPieces(k) => write!(
                f,
                "{k} has more than {MAX_PIECES} pieces, more than all seven armies together"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<fen::FenError> for PositionError {
    fn from(e: fen::FenError) -> PositionError {
        PositionError::Fen(e)
    }
}
