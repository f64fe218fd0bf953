//! The validated game state: pieces on a padded mailbox with per-kingdom piece lists, the
//! counters the rules need (captures, losses, kingdoms and Generals taken), who is still in the
//! game and who has won; checked and unchecked ways to play a move.

use std::fmt;

use crate::movegen::{EMPEROR, EMPTY, GENERAL, OFF};
use crate::point::MAILBOX;
use crate::{
    BeatenArmy, Kingdom, KingdomGoal, KingdomSet, Move, Piece, Point, Rules, Seats, Setup,
    VictorRule, fen,
};

/// Most pieces one kingdom can own: all seven armies, after every other army was transferred
/// to it.
const MAX_PIECES: usize = 7 * 17;

/// Where a kingdom stands in the game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Standing {
    /// Still playing.
    InGame,
    /// Never in this game: its seat was empty or it had no piece in the starting position.
    Absent,
    /// Beaten: its General was captured or its losses reached the threshold.
    Beaten {
        /// The kingdom credited with beating it (and, by preset, receiving its army).
        victor: Kingdom,
        /// Whether it was beaten by the capture of its General.
        general_captured: bool,
    },
    /// Forfeited because an ally (a kingdom of the same player) attacked it.
    Forfeited {
        /// The ally that attacked it.
        by: Kingdom,
    },
}

/// How a game was won.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Victory {
    /// Captured two Generals (kingdom goal of `classic` and `leventhal`).
    Generals,
    /// Beat two kingdoms (kingdom goal of `wikipedia` and `elephantchess`).
    Kingdoms,
    /// Reached the capture goal.
    Captures,
    /// The last kingdom (or player) left in the game.
    LastKingdom,
    /// The players ended the game early; the most captures won.
    EarlyEnd,
}

impl Victory {
    /// The name used in JSON summaries: `generals`, `kingdoms`, `captures`, `last_kingdom`,
    /// `early_end`.
    pub const fn name(self) -> &'static str {
        match self {
            Victory::Generals => "generals",
            Victory::Kingdoms => "kingdoms",
            Victory::Captures => "captures",
            Victory::LastKingdom => "last_kingdom",
            Victory::EarlyEnd => "early_end",
        }
    }

    /// A sentence fragment for players: "captured two Generals", ….
    pub const fn describe(self) -> &'static str {
        match self {
            Victory::Generals => "captured two Generals",
            Victory::Kingdoms => "beat two kingdoms",
            Victory::Captures => "reached the capture goal",
            Victory::LastKingdom => "is the last left in the game",
            Victory::EarlyEnd => "had the most captures when the game was ended",
        }
    }
}

/// The end of a game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winning kingdom. When a player holds several kingdoms, the one of them that moved
    /// most recently.
    pub winner: Kingdom,
    /// The winning player (see [`Seats`]).
    pub player: u8,
    /// How the game was won.
    pub victory: Victory,
}

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

/// What [`Position::make`] needs to take a move back with [`Position::unmake`].
#[derive(Clone, Debug)]
pub struct Undo {
    mv: Move,
    captured: u8,
    captured_index: u8,
    to_move: Kingdom,
    hash: u64,
    snapshot: Option<Box<Snapshot>>,
}

#[derive(Clone, Debug)]
struct Snapshot {
    cells: [u8; MAILBOX],
    plist: [[u16; MAX_PIECES]; 7],
    plen: [u8; 7],
    pidx: [u8; MAILBOX],
    hash: u64,
    st: State,
}

/// A kingdom that left the game through a move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fallen {
    /// The kingdom.
    pub kingdom: Kingdom,
    /// How it left: [`Standing::Beaten`] or [`Standing::Forfeited`].
    pub standing: Standing,
    /// The pieces it still had on the board just before (the captured piece excluded).
    pub army: Vec<(Point, Piece)>,
    /// The kingdom that received the army, when the preset transfers beaten armies.
    pub transferred_to: Option<Kingdom>,
}

/// Everything that happened in one move, for views and logs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveReport {
    /// The kingdom that moved (or passed).
    pub mover: Kingdom,
    /// The move.
    pub mv: Move,
    /// The piece that moved; `None` for a pass.
    pub piece: Option<Piece>,
    /// The piece captured on the destination, if any.
    pub captured: Option<Piece>,
    /// The kingdom that left the game through this move, if any.
    pub fallen: Option<Fallen>,
    /// The end of the game, if this move ended it.
    pub outcome: Option<Outcome>,
}

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
    Rules(String),
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

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[inline(always)]
fn z_piece(code: u8, sq: usize) -> u64 {
    splitmix(((code as u64) << 16) | sq as u64)
}

#[inline(always)]
fn z_turn(k: Kingdom) -> u64 {
    splitmix(0x1_0000_0000 | k as u64)
}

#[inline(always)]
fn z_count(which: u64, k: usize, n: u16) -> u64 {
    splitmix((which << 32) | ((k as u64) << 16) | n as u64)
}

const Z_CAPTURES: u64 = 2;
const Z_LOSSES: u64 = 3;

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

    fn compute_hash(&self) -> u64 {
        let mut h = z_turn(self.st.to_move);
        for k in 0..7 {
            for &sq in &self.plist[k][..self.plen[k] as usize] {
                h ^= z_piece(self.cells[sq as usize], sq as usize);
            }
            h ^= z_count(Z_CAPTURES, k, self.st.captures[k]);
            h ^= z_count(Z_LOSSES, k, self.st.losses[k]);
        }
        h
    }

    // ----- queries -----

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

    fn goal_count(&self, k: usize) -> u32 {
        match self.rules.kingdom_goal {
            KingdomGoal::TwoGenerals => self.st.generals_taken[k] as u32,
            KingdomGoal::TwoKingdoms => self.st.kingdoms_taken[k] as u32,
        }
    }

    #[inline]
    fn player_sum(&self, k: usize, f: impl Fn(usize) -> u32) -> u32 {
        let allies = self.allies[k];
        if allies == 1 << k {
            return f(k);
        }
        bits(allies).map(f).sum()
    }

    fn single_player_left(&self) -> bool {
        let alive = self.st.alive;
        let first = alive.trailing_zeros() as usize;
        first < 7 && alive & !self.allies[first] == 0
    }

    /// Among the kingdoms in `mask`, the mover if it is one, else the one that moved most
    /// recently (the nearest before the mover in turn order).
    fn most_recent(&self, mover: Kingdom, mask: u8) -> Kingdom {
        let mut k = mover;
        for _ in 0..7 {
            if mask & k.bit() != 0 {
                return k;
            }
            k = k.previous();
        }
        mover
    }

    // ----- checked play -----

    /// Whether `mv` is legal for the kingdom to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    pub(crate) fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if mv.is_pass() {
            return if self.count_piece_moves() == 0 {
                Ok(())
            } else {
                Err(IllegalMove::PassNotAllowed)
            };
        }
        let (Some(from), Some(_)) = (mv.from(), mv.to()) else {
            return Err(IllegalMove::PassNotAllowed);
        };
        let Some(piece) = self.piece_at(from) else {
            return Err(IllegalMove::NoPiece(from));
        };
        if piece.kingdom != self.st.to_move {
            return Err(IllegalMove::NotYourPiece {
                piece,
                to_move: self.st.to_move,
            });
        }
        if self.moves_from(from).contains(&mv) {
            Ok(())
        } else {
            Err(IllegalMove::Unreachable { piece, mv })
        }
    }

    /// Plays `mv` after checking that it is legal, and reports what happened. On error the
    /// position is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<MoveReport, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked_with_report(mv).0)
    }

    /// Plays a legal move, returning the report and the undo record.
    pub(crate) fn play_unchecked_with_report(&mut self, mv: Move) -> (MoveReport, Undo) {
        let mover = self.st.to_move;
        let piece = mv.from().and_then(|p| self.piece_at(p));
        let captured = mv.to().and_then(|p| self.piece_at(p));
        let army_before: Option<Vec<(Point, Piece)>> = captured.map(|c| {
            self.army(c.kingdom)
                .filter(|(p, _)| Some(*p) != mv.to())
                .collect()
        });
        let undo = self.make(mv);
        let fallen = captured.and_then(|c| {
            let standing = self.standing(c.kingdom);
            (standing != Standing::InGame).then(|| Fallen {
                kingdom: c.kingdom,
                standing,
                army: army_before.unwrap_or_default(),
                transferred_to: match standing {
                    Standing::Beaten { victor, .. } if self.rules.transfers_armies() => {
                        Some(victor)
                    }
                    _ => None,
                },
            })
        });
        let report = MoveReport {
            mover,
            mv,
            piece,
            captured,
            fallen,
            outcome: self.st.outcome,
        };
        (report, undo)
    }

    /// Ends the game by agreement: the player with the most captures wins (ties as for victors).
    /// Does nothing if the game is already over. Returns the outcome.
    pub fn end_by_agreement(&mut self) -> Outcome {
        if let Some(o) = self.st.outcome {
            return o;
        }
        let last_mover = self.most_recent(self.st.to_move.previous(), self.st.alive);
        let (_, mask) = self.best_players(|k| self.player_sum(k, |a| self.st.captures[a] as u32));
        let winner = self.most_recent(last_mover, mask);
        let outcome = Outcome {
            winner,
            player: self.player_of(winner),
            victory: Victory::EarlyEnd,
        };
        self.st.outcome = Some(outcome);
        outcome
    }

    /// The highest score among kingdoms in the game and the mask of those reaching it.
    fn best_players(&self, score: impl Fn(usize) -> u32) -> (u32, u8) {
        let mut best = 0;
        let mut mask = 0u8;
        for k in bits(self.st.alive) {
            let s = score(k);
            if s > best || mask == 0 {
                best = s;
                mask = 1 << k;
            } else if s == best {
                mask |= 1 << k;
            }
        }
        (best, mask)
    }

    // ----- unchecked make / unmake -----

    /// Plays a move without checking it, returning what [`Position::unmake`] needs.
    ///
    /// The move must be legal ([`Position::legal_moves`] lists exactly those); anything else
    /// leaves the position meaningless (but memory-safe). Use this in search and perft.
    pub fn make(&mut self, mv: Move) -> Undo {
        let mover = self.st.to_move;
        let mut undo = Undo {
            mv,
            captured: EMPTY,
            captured_index: 0,
            to_move: mover,
            hash: self.hash,
            snapshot: None,
        };
        if mv.is_pass() {
            self.advance_turn(mover);
            return undo;
        }
        let from = mv.from as usize;
        let to = mv.to as usize;
        let code = self.cells[from];
        let captured = self.cells[to];
        debug_assert_eq!(kingdom_of(code), mover.index());
        if captured != EMPTY && self.is_decisive(mover.index(), captured) {
            undo.snapshot = Some(Box::new(self.snapshot()));
            self.make_decisive(mover, from, to, code, captured);
            return undo;
        }
        let m = mover.index();
        if captured != EMPTY {
            let v = kingdom_of(captured);
            undo.captured = captured;
            undo.captured_index = self.pidx[to];
            self.remove_from_list(v, to);
            let st = &mut self.st;
            self.hash ^= z_count(Z_CAPTURES, m, st.captures[m])
                ^ z_count(Z_CAPTURES, m, st.captures[m] + 1)
                ^ z_count(Z_LOSSES, v, st.losses[v])
                ^ z_count(Z_LOSSES, v, st.losses[v] + 1)
                ^ z_piece(captured, to);
            st.captures[m] += 1;
            st.losses[v] += 1;
            st.captured_from[m][v] += 1;
        }
        self.move_piece(m, from, to, code);
        self.advance_turn(mover);
        undo
    }

    /// Takes back the move `undo` was made for. Moves must be unmade in reverse order.
    pub fn unmake(&mut self, undo: Undo) {
        if let Some(snap) = undo.snapshot {
            let snap = *snap;
            self.cells = snap.cells;
            self.plist = snap.plist;
            self.plen = snap.plen;
            self.pidx = snap.pidx;
            self.hash = snap.hash;
            self.st = snap.st;
            return;
        }
        self.st.to_move = undo.to_move;
        self.hash = undo.hash;
        if undo.mv.is_pass() {
            return;
        }
        let from = undo.mv.from as usize;
        let to = undo.mv.to as usize;
        let code = self.cells[to];
        let m = kingdom_of(code);
        // Move the piece back.
        let i = self.pidx[to];
        self.plist[m][i as usize] = from as u16;
        self.pidx[from] = i;
        self.cells[from] = code;
        self.cells[to] = undo.captured;
        if undo.captured != EMPTY {
            let v = kingdom_of(undo.captured);
            // Undo the swap-remove exactly, so piece order (and move order) is restored.
            let ci = undo.captured_index as usize;
            let n = self.plen[v] as usize;
            let displaced = self.plist[v][ci];
            self.plist[v][n] = displaced;
            self.pidx[displaced as usize] = n as u8;
            self.plist[v][ci] = to as u16;
            self.pidx[to] = ci as u8;
            self.plen[v] += 1;
            self.st.captures[m] -= 1;
            self.st.losses[v] -= 1;
            self.st.captured_from[m][v] -= 1;
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            cells: self.cells,
            plist: self.plist,
            plen: self.plen,
            pidx: self.pidx,
            hash: self.hash,
            st: self.st,
        }
    }

    #[inline(always)]
    fn move_piece(&mut self, m: usize, from: usize, to: usize, code: u8) {
        let i = self.pidx[from];
        self.plist[m][i as usize] = to as u16;
        self.pidx[to] = i;
        self.cells[from] = EMPTY;
        self.cells[to] = code;
        self.hash ^= z_piece(code, from) ^ z_piece(code, to);
    }

    #[inline(always)]
    fn remove_from_list(&mut self, k: usize, sq: usize) {
        let i = self.pidx[sq] as usize;
        let last = self.plen[k] as usize - 1;
        let moved = self.plist[k][last];
        self.plist[k][i] = moved;
        self.pidx[moved as usize] = i as u8;
        self.plen[k] -= 1;
    }

    #[inline(always)]
    fn advance_turn(&mut self, mover: Kingdom) {
        let mut next = mover.next();
        for _ in 0..7 {
            if self.st.alive & next.bit() != 0 {
                break;
            }
            next = next.next();
        }
        self.hash ^= z_turn(mover) ^ z_turn(next);
        self.st.to_move = next;
    }

    /// Whether capturing `captured` can change more than the counters: forfeit an ally, beat a
    /// kingdom or win the game.
    #[inline(always)]
    fn is_decisive(&self, m: usize, captured: u8) -> bool {
        let v = kingdom_of(captured);
        self.allies[m] & (1 << v) != 0
            || captured & 0x0F == GENERAL
            || self.st.losses[v] as u32 + 1 >= self.rules.beaten_at_losses as u32
            || self.player_sum(m, |k| self.st.captures[k] as u32) + 1
                >= self.rules.capture_goal as u32
    }

    /// Plays a capture with consequences beyond the counters. Not incremental: the snapshot
    /// in the undo record restores everything.
    fn make_decisive(&mut self, mover: Kingdom, from: usize, to: usize, code: u8, captured: u8) {
        let m = mover.index();
        let v = kingdom_of(captured);
        self.remove_from_list(v, to);
        self.cells[to] = EMPTY;
        let i = self.pidx[from];
        self.plist[m][i as usize] = to as u16;
        self.pidx[to] = i;
        self.cells[from] = EMPTY;
        self.cells[to] = code;
        if self.allies[m] & (1 << v) != 0 {
            // Attacking an ally forfeits it, credited to nobody.
            self.clear_army(v);
            self.st.alive &= !(1 << v);
            self.st.standing[v] = Standing::Forfeited { by: mover };
        } else {
            self.st.captures[m] += 1;
            self.st.losses[v] += 1;
            self.st.captured_from[m][v] += 1;
            if captured & 0x0F == GENERAL {
                self.st.generals_taken[m] += 1;
                self.beat(v, m, true);
            } else if self.st.losses[v] >= self.rules.beaten_at_losses as u16 {
                let victor = self.choose_victor(mover, v);
                self.beat(v, victor, false);
            }
        }
        self.check_victory(mover);
        if self.st.outcome.is_none() {
            self.advance_turn(mover);
        }
        self.hash = self.compute_hash();
    }

    fn choose_victor(&self, mover: Kingdom, beaten: usize) -> usize {
        let eligible = self.st.alive & !(1 << beaten) & !self.allies[beaten];
        let mut best = 0;
        let mut mask = 0u8;
        for k in bits(eligible) {
            let s = match self.rules.victor {
                VictorRule::MostOfItsPieces => self.st.captured_from[k][beaten],
                VictorRule::MostCapturesOverall => self.st.captures[k],
            };
            if s > best || mask == 0 {
                best = s;
                mask = 1 << k;
            } else if s == best {
                mask |= 1 << k;
            }
        }
        self.most_recent(mover, mask).index()
    }

    fn clear_army(&mut self, k: usize) {
        for i in 0..self.plen[k] as usize {
            self.cells[self.plist[k][i] as usize] = EMPTY;
        }
        self.plen[k] = 0;
    }

    fn beat(&mut self, beaten: usize, victor: usize, general_captured: bool) {
        self.st.alive &= !(1 << beaten);
        self.st.kingdoms_taken[victor] += 1;
        self.st.standing[beaten] = Standing::Beaten {
            victor: Kingdom::ALL[victor],
            general_captured,
        };
        match self.rules.beaten_army {
            BeatenArmy::Removed => self.clear_army(beaten),
            BeatenArmy::Transferred | BeatenArmy::TransferredAsCaptures => {
                let n = self.plen[beaten] as usize;
                for i in 0..n {
                    let sq = self.plist[beaten][i] as usize;
                    let code = ((victor as u8) << 4) | (self.cells[sq] & 0x0F);
                    self.put(sq, code);
                }
                self.plen[beaten] = 0;
                if self.rules.beaten_army == BeatenArmy::TransferredAsCaptures {
                    self.st.captures[victor] += n as u16;
                }
            }
        }
    }

    /// After a decisive capture: the kingdom goal, then the capture goal, then the last player
    /// left; ties go to the mover's player, else the player that moved most recently.
    fn check_victory(&mut self, mover: Kingdom) {
        let goals: [(Victory, u32, &dyn Fn(usize) -> u32); 2] = [
            (
                match self.rules.kingdom_goal {
                    KingdomGoal::TwoGenerals => Victory::Generals,
                    KingdomGoal::TwoKingdoms => Victory::Kingdoms,
                },
                2,
                &|k| self.player_sum(k, |a| self.goal_count(a)),
            ),
            (Victory::Captures, self.rules.capture_goal as u32, &|k| {
                self.player_sum(k, |a| self.st.captures[a] as u32)
            }),
        ];
        let mut found = None;
        for (victory, goal, score) in goals {
            let (best, mask) = self.best_players(score);
            if mask != 0 && best >= goal {
                found = Some((victory, mask));
                break;
            }
        }
        if found.is_none() && self.single_player_left() {
            found = Some((Victory::LastKingdom, self.st.alive));
        }
        if let Some((victory, mask)) = found {
            let winner = self.most_recent(mover, mask);
            self.st.outcome = Some(Outcome {
                winner,
                player: self.player_of(winner),
                victory,
            });
        }
    }

    /// Number of leaves of the legal-move tree `depth` moves deep. A pass counts as a move; a
    /// finished game has no moves.
    ///
    /// ```
    /// use qiguo_rules::{Position, Rules, Preset};
    /// let mut pos = Position::start(Rules::preset(Preset::Leventhal));
    /// assert_eq!(pos.perft(1), 52);
    /// assert_eq!(pos.perft(2), 2682);
    /// ```
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut buffers = vec![Vec::with_capacity(256); depth as usize];
        self.perft_inner(depth, &mut buffers)
    }

    fn perft_inner(&mut self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.is_over() {
            return 0;
        }
        if depth == 1 {
            return self.count_piece_moves().max(1);
        }
        let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
        self.legal_moves_into(moves);
        let mut total = 0;
        for &mv in moves.iter() {
            let undo = self.make(mv);
            total += self.perft_inner(depth - 1, rest);
            self.unmake(undo);
        }
        total
    }
}

impl PartialEq for Position {
    /// Positions are equal when their pieces, counters, standings, outcome, rules and seats are
    /// (the order of the internal piece lists does not matter).
    fn eq(&self, other: &Position) -> bool {
        self.cells == other.cells
            && self.st == other.st
            && self.rules == other.rules
            && self.seats == other.seats
            && self.hash == other.hash
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("fen", &self.to_fen())
            .field("state", &self.st)
            .field("rules", &self.rules)
            .field("seats", &self.seats)
            .finish()
    }
}

impl fmt::Display for Position {
    /// A text diagram, rank 19 at the top; `+` an empty point, `*` the Emperor, else the piece's
    /// kingdom letter and piece letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..19u8).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..19u8 {
                let p = Point::new(file, rank).expect("in range");
                match self.piece_at(p) {
                    Some(piece) => write!(f, "{piece}")?,
                    None if p == Point::EMPEROR => f.write_str(" *")?,
                    None => f.write_str(" +")?,
                }
            }
            writeln!(f)?;
        }
        f.write_str("   ")?;
        for file in 0..19u8 {
            write!(f, " {}", (b'a' + file) as char)?;
        }
        writeln!(f)?;
        write!(f, "{} to move", self.st.to_move)
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
