//! The validated game state: pieces on a padded mailbox with per-kingdom piece lists, the
//! counters the rules need (captures, losses, kingdoms and Generals taken), who is still in the
//! game and who has won; checked and unchecked ways to play a move.

use std::fmt;

use crate::movegen::{EMPEROR, EMPTY, GENERAL, OFF};
use crate::point::MAILBOX;
use crate::random::splitmix64;
use crate::{
    BeatenArmy, GoalReached, Kingdom, KingdomGoal, KingdomSet, Move, Piece, Point, Rules, Seats,
    Setup, VictorRule, fen,
};

mod display;
mod error;
mod make;
mod outcome;
mod perft;
mod zobrist;

pub use error::{IllegalMove, PositionError};
pub use make::{Fallen, MoveReport, Undo};
pub use outcome::{Outcome, Standing, Victory};
use zobrist::{Z_CAPTURES, Z_LOSSES, z_count, z_piece, z_turn};

/// Most pieces one kingdom can own: all seven armies, after every other army was transferred
/// to it.
const MAX_PIECES: usize = 7 * 17;

/// Counters and standings: everything about the game besides the pieces.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
struct State {
    to_move: Kingdom,
    alive: u8,
    captures: [u16; 7],
    losses: [u16; 7],
    captured_from: [[u16; 7]; 7],
    generals_taken: [u8; 7],
    kingdoms_taken: [u8; 7],
    standing: [Standing; 7],
    outcome: Option<Outcome>,
}

/// A validated position with its rules and seats: the state a game is in.
///
/// Use [`Position::play`] for moves from players or files (it checks legality and reports what
/// happened), and [`Position::make`] / [`Position::unmake`] for search.
///
/// ```
/// use qiguo_rules::{notation, Position, Rules, Preset, Kingdom};
/// let mut pos = Position::start(Rules::preset(Preset::Classic));
/// assert_eq!(pos.to_move(), Kingdom::Qin);
/// assert_eq!(pos.legal_moves().len(), 96);
/// let mv = notation::parse_move("e10e5").unwrap();
/// let report = pos.play(mv).unwrap();
/// assert_eq!(report.captured, None);
/// assert_eq!(pos.to_move(), Kingdom::Chu);
/// ```
#[derive(Clone)]
pub struct Position {
    pub(crate) cells: [u8; MAILBOX],
    plist: [[u16; MAX_PIECES]; 7],
    plen: [u8; 7],
    pidx: [u8; MAILBOX],
    hash: u64,
    st: State,
    pub(crate) rules: Rules,
    seats: Seats,
    allies: [u8; 7],
}

#[inline(always)]
const fn kingdom_of(code: u8) -> usize {
    (code >> 4) as usize
}

fn bits(mask: u8) -> impl Iterator<Item = usize> {
    (0..7).filter(move |i| mask & (1 << i) != 0)
}

impl Position {
    /// Validates `setup` under `rules` with `seats`. The armies of empty kingdoms are left off
    /// the board; kingdoms with no piece are out of the game from the start.
    pub fn new(setup: &Setup, rules: Rules, seats: Seats) -> Result<Position, PositionError> {
        rules.validate().map_err(PositionError::Rules)?;
        let mut pos = Position {
            cells: [OFF; MAILBOX],
            plist: [[0; MAX_PIECES]; 7],
            plen: [0; 7],
            pidx: [0; MAILBOX],
            hash: 0,
            st: State {
                to_move: setup.to_move,
                alive: 0,
                captures: [0; 7],
                losses: [0; 7],
                captured_from: [[0; 7]; 7],
                generals_taken: [0; 7],
                kingdoms_taken: [0; 7],
                standing: [Standing::Absent; 7],
                outcome: None,
            },
            rules,
            seats,
            allies: [0; 7],
        };
        for k in Kingdom::ALL {
            pos.allies[k.index()] = seats.allies(k).0;
        }
        for p in Point::all() {
            pos.cells[p.sq()] = EMPTY;
        }
        pos.cells[Point::EMPEROR.sq()] = EMPEROR;
        for (point, piece) in setup.board.pieces() {
            if point == Point::EMPEROR {
                return Err(PositionError::PieceOnEmperor);
            }
            if seats.player(piece.kingdom).is_none() {
                continue;
            }
            if pos.plen[piece.kingdom.index()] as usize == MAX_PIECES {
                return Err(PositionError::TooManyPieces(piece.kingdom));
            }
            pos.put(point.sq(), piece.code());
        }
        for k in Kingdom::ALL {
            if pos.plen[k.index()] > 0 {
                pos.st.alive |= k.bit();
                pos.st.standing[k.index()] = Standing::InGame;
            }
        }
        if pos.st.alive == 0 {
            return Err(PositionError::NoArmies);
        }
        if pos.st.alive & setup.to_move.bit() == 0 {
            return Err(PositionError::ToMoveAbsent(setup.to_move));
        }
        pos.hash = pos.compute_hash();
        if pos.single_player_left() {
            let winner = pos.st.to_move;
            pos.st.outcome = Some(Outcome {
                winner,
                player: pos.player_of(winner),
                victory: Victory::LastKingdom,
            });
        }
        Ok(pos)
    }

    /// The starting position of `rules` with seven players.
    pub fn start(rules: Rules) -> Position {
        Position::start_with(rules, Seats::seven())
    }

    /// The starting position of `rules` with the given seats: empty kingdoms' armies are not
    /// placed and the first kingdom in the game moves first.
    pub fn start_with(rules: Rules, seats: Seats) -> Position {
        let setup = Setup::start(rules.setup).without(seats.empty_kingdoms());
        Position::new(&setup, rules, seats).expect("a start position with a held kingdom is valid")
    }

    /// Reads a 7K FEN position, seven players, under `rules`.
    ///
    /// ```
    /// use qiguo_rules::{Position, Rules, LEVENTHAL_START_FEN};
    /// let pos = Position::from_fen(LEVENTHAL_START_FEN, Rules::default()).unwrap();
    /// assert_eq!(pos.to_fen(), LEVENTHAL_START_FEN);
    /// assert!(Position::from_fen("19 w", Rules::default()).is_err());
    /// ```
    pub fn from_fen(text: &str, rules: Rules) -> Result<Position, PositionError> {
        Position::new(&fen::parse(text)?, rules, Seats::seven())
    }

    /// The position as 7K FEN. Captures and losses are not part of FEN.
    pub fn to_fen(&self) -> String {
        fen::write_parts(|p| self.piece_at(p), self.st.to_move)
    }

    /// The pieces and the kingdom to move.
    pub fn to_setup(&self) -> Setup {
        let mut board = crate::Board::empty();
        for (p, piece) in self.pieces() {
            board.set(p, Some(piece));
        }
        Setup {
            board,
            to_move: self.st.to_move,
        }
    }

    /// The mailbox cells of kingdom `k`'s pieces.
    #[inline(always)]
    pub(crate) fn plist_of(&self, k: usize) -> &[u16] {
        &self.plist[k][..self.plen[k] as usize]
    }

    fn put(&mut self, sq: usize, code: u8) {
        let k = kingdom_of(code);
        self.cells[sq] = code;
        let n = self.plen[k] as usize;
        self.plist[k][n] = sq as u16;
        self.pidx[sq] = n as u8;
        self.plen[k] += 1;
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Who holds which kingdom.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// The kingdom to move (after the end of the game: the one that would have moved next).
    pub fn to_move(&self) -> Kingdom {
        self.st.to_move
    }

    /// The piece on `point`. The Emperor is not a piece: `j10` reads as `None`.
    pub fn piece_at(&self, point: Point) -> Option<Piece> {
        Piece::from_code(self.cells[point.sq()])
    }

    /// All pieces on the board, kingdom by kingdom.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        Kingdom::ALL.into_iter().flat_map(move |k| self.army(k))
    }

    /// The pieces owned by `kingdom`.
    pub fn army(&self, kingdom: Kingdom) -> impl Iterator<Item = (Point, Piece)> + '_ {
        let k = kingdom.index();
        self.plist[k][..self.plen[k] as usize]
            .iter()
            .map(move |&sq| {
                let sq = sq as usize;
                (
                    Point::from_sq(sq).expect("piece lists hold board points"),
                    Piece::from_code(self.cells[sq]).expect("piece lists point at pieces"),
                )
            })
    }

    /// How many pieces `kingdom` owns on the board.
    pub fn army_size(&self, kingdom: Kingdom) -> usize {
        self.plen[kingdom.index()] as usize
    }

    /// The kingdoms still in the game.
    pub fn alive(&self) -> KingdomSet {
        KingdomSet(self.st.alive)
    }

    /// Where `kingdom` stands.
    pub fn standing(&self, kingdom: Kingdom) -> Standing {
        self.st.standing[kingdom.index()]
    }

    /// Pieces captured by `kingdom` (under `elephantchess`, transferred pieces included).
    pub fn captures(&self, kingdom: Kingdom) -> u32 {
        self.st.captures[kingdom.index()] as u32
    }

    /// Pieces of `kingdom` captured by others.
    pub fn losses(&self, kingdom: Kingdom) -> u32 {
        self.st.losses[kingdom.index()] as u32
    }

    /// Pieces owned by `victim` at the time that `captor` captured.
    pub fn captured_from(&self, captor: Kingdom, victim: Kingdom) -> u32 {
        self.st.captured_from[captor.index()][victim.index()] as u32
    }

    /// Generals captured by `kingdom`.
    pub fn generals_taken(&self, kingdom: Kingdom) -> u32 {
        self.st.generals_taken[kingdom.index()] as u32
    }

    /// Kingdoms `kingdom` is credited with beating.
    pub fn kingdoms_taken(&self, kingdom: Kingdom) -> u32 {
        self.st.kingdoms_taken[kingdom.index()] as u32
    }

    /// Progress of `kingdom`'s player towards the kingdom goal (Generals or kingdoms taken by all
    /// its kingdoms), out of 2.
    pub fn kingdom_goal_progress(&self, kingdom: Kingdom) -> u32 {
        self.player_sum(kingdom.index(), |k| self.goal_count(k))
    }

    /// Captures by all of `kingdom`'s player's kingdoms, the count the capture goal is checked on.
    pub fn player_captures(&self, kingdom: Kingdom) -> u32 {
        self.player_sum(kingdom.index(), |k| self.st.captures[k] as u32)
    }

    /// The end of the game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.st.outcome
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.st.outcome.is_some()
    }

    /// Zobrist hash of the pieces (owners included), the kingdom to move, and the capture and
    /// loss counters.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The player holding `kingdom` (0 when the kingdom is empty, which never happens for a
    /// kingdom in the game).
    pub fn player_of(&self, kingdom: Kingdom) -> u8 {
        self.seats.player(kingdom).unwrap_or(0)
    }

    /// The kingdom whose piece the move would capture, if capturing it forfeits an ally of the
    /// mover. The game asks for confirmation before such a move.
    pub fn forfeits_ally(&self, mv: Move) -> Option<Kingdom> {
        if mv.is_pass() {
            return None;
        }
        let mover = self.cells[mv.from as usize];
        let target = self.cells[mv.to as usize];
        let pm = Piece::from_code(mover)?;
        let pt = Piece::from_code(target)?;
        (pm.kingdom != pt.kingdom && self.allies[pm.kingdom.index()] & pt.kingdom.bit() != 0)
            .then_some(pt.kingdom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Preset, Seating};

    #[test]
    fn hash_is_incremental() {
        let mut pos = Position::start(Rules::default());
        let start_hash = pos.hash();
        let mut undos = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..40 {
            pos.legal_moves_into(&mut moves);
            // A deterministic walk preferring captures.
            let mv = moves
                .iter()
                .copied()
                .find(|m| pos.cells[m.to as usize] != EMPTY)
                .unwrap_or(moves[moves.len() / 2]);
            undos.push(pos.make(mv));
            assert_eq!(pos.hash(), pos.compute_hash());
        }
        while let Some(u) = undos.pop() {
            pos.unmake(u);
        }
        assert_eq!(pos.hash(), start_hash);
        assert_eq!(pos, Position::start(Rules::default()));
    }

    #[test]
    fn impossible_setups_are_refused() {
        let crowded = format!("{} w", vec!["wS".repeat(19); 19].join("/"));
        // The Emperor's point is in the middle rank: FEN refuses it first.
        assert!(Position::from_fen(&crowded, Rules::default()).is_err());
        let mut setup = crate::Setup {
            board: crate::Board::empty(),
            to_move: Kingdom::Qin,
        };
        for p in Point::all().filter(|p| *p != Point::EMPEROR) {
            setup.board.set(
                p,
                Some(Piece::new(Kingdom::Qin, crate::PieceKind::Swordsman)),
            );
        }
        assert_eq!(
            Position::new(&setup, Rules::default(), Seats::seven()),
            Err(PositionError::TooManyPieces(Kingdom::Qin))
        );
        setup.board = crate::Board::empty();
        setup.board.set(
            Point::EMPEROR,
            Some(Piece::new(Kingdom::Chu, crate::PieceKind::General)),
        );
        assert_eq!(
            Position::new(&setup, Rules::default(), Seats::seven()),
            Err(PositionError::PieceOnEmperor)
        );
        // 119 pieces is fine.
        let fen = format!(
            "{} w",
            (0..19)
                .map(|r| if r < 6 {
                    "wS".repeat(19)
                } else if r == 6 {
                    format!("{}14", "wS".repeat(5))
                } else {
                    "19".to_string()
                })
                .collect::<Vec<_>>()
                .join("/")
        );
        let pos = Position::from_fen(&fen, Rules::default()).unwrap();
        assert_eq!(pos.army_size(Kingdom::Qin), 119);
        assert_eq!(pos.outcome().map(|o| o.victory), Some(Victory::LastKingdom));
    }

    #[test]
    fn empty_seats_leave_armies_off() {
        let seats = Seating::TwoPlayers.seats().unwrap();
        let pos = Position::start_with(Rules::preset(Preset::Classic), seats);
        assert_eq!(pos.to_move(), Kingdom::Chu);
        assert_eq!(pos.standing(Kingdom::Qin), Standing::Absent);
        assert_eq!(pos.army_size(Kingdom::Qin), 0);
        assert_eq!(pos.alive().len(), 6);
    }
}
