//! Move generation on the padded mailbox: rays that stop at the first occupied point (capturing
//! it when capturable), the cannon's screen, the knight's leg and outward diagonal, and the
//! archer and crossbowman's up-to or exact ranges.

use crate::point::{MAILBOX, dir};
use crate::{CannonScreen, Kingdom, KingdomSet, KnightMove, Move, Point, Position, RangedMove};

/// An empty point.
pub(crate) const EMPTY: u8 = 0;
/// The sentinel border around the board.
pub(crate) const OFF: u8 = 0xFF;
/// The Emperor at `j10`.
pub(crate) const EMPEROR: u8 = 0xFE;

pub(crate) const GENERAL: u8 = 1;
const CHANCELLOR: u8 = 2;
const DIPLOMAT: u8 = 3;
const CANNON: u8 = 4;
const GO_BETWEEN: u8 = 5;
const ARCHER: u8 = 6;
const CROSSBOWMAN: u8 = 7;
const DAGGER: u8 = 8;
const SWORDSMAN: u8 = 9;
const KNIGHT: u8 = 10;

/// For each cell code, the mask of kingdoms that may capture what stands there: every kingdom
/// but the owner for a piece, nobody for a go-between, the Emperor, an empty or an off-board cell.
pub(crate) const CAPTURERS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut k = 0;
    while k < 7 {
        let mut kind = 1u8;
        while kind <= 10 {
            if kind != GO_BETWEEN {
                table[(k << 4) | kind as usize] = 0x7F & !(1 << k);
            }
            kind += 1;
        }
        k += 1;
    }
    table
};

/// Receives generated moves.
pub(crate) trait Sink {
    /// One move from `from` to `to`; `capture` tells whether it captures.
    fn push(&mut self, from: usize, to: usize, capture: bool);
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, from: usize, to: usize, _capture: bool) {
        Vec::push(self, Move::from_sq(from, to));
    }
}

/// Counts moves without storing them (perft's last ply).
struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _from: usize, _to: usize, _capture: bool) {
        self.0 += 1;
    }
}

/// Keeps only captures.
struct Captures<'a>(&'a mut Vec<Move>);

impl Sink for Captures<'_> {
    #[inline(always)]
    fn push(&mut self, from: usize, to: usize, capture: bool) {
        if capture {
            self.0.push(Move::from_sq(from, to));
        }
    }
}

#[inline(always)]
fn step(sq: usize, d: isize) -> usize {
    (sq as isize + d) as usize & (MAILBOX - 1)
}

/// Walks from `start` in direction `d` for at most `max` points, adding each empty point and
/// the first occupied one if `kbit` may capture it; `origin` is the moving piece's point.
#[inline(always)]
fn ray<S: Sink>(
    cells: &[u8; MAILBOX],
    origin: usize,
    start: usize,
    d: isize,
    max: u32,
    kbit: u8,
    sink: &mut S,
) {
    let mut sq = start;
    for _ in 0..max {
        sq = step(sq, d);
        let c = cells[sq];
        if c == EMPTY {
            sink.push(origin, sq, false);
        } else {
            if crate::movegen::CAPTURERS[c as usize] & kbit != 0 {
                sink.push(origin, sq, true);
            }
            return;
        }
    }
}

/// Exactly `n` points from `start` in direction `d`, over empty points, onto an empty point or
/// a capturable piece.
#[inline(always)]
fn exactly<S: Sink>(
    cells: &[u8; MAILBOX],
    origin: usize,
    start: usize,
    d: isize,
    n: u32,
    kbit: u8,
    sink: &mut S,
) {
    let mut sq = start;
    for _ in 1..n {
        sq = step(sq, d);
        if cells[sq] != EMPTY {
            return;
        }
    }
    sq = step(sq, d);
    let c = cells[sq];
    if c == EMPTY {
        sink.push(origin, sq, false);
    } else if CAPTURERS[c as usize] & kbit != 0 {
        sink.push(origin, sq, true);
    }
}

impl Position {
    /// Generates the moves of the piece on mailbox cell `from` into `sink`.
    #[inline(always)]
    fn gen_piece<S: Sink>(&self, from: usize, sink: &mut S) {
        let cells = &self.cells;
        let code = cells[from];
        let kbit = 1u8 << (code >> 4);
        match code & 0x0F {
            GENERAL => {
                for d in dir::ALL {
                    ray(cells, from, from, d, 18, kbit, sink);
                }
            }
            CHANCELLOR => {
                for d in dir::ORTHOGONAL {
                    ray(cells, from, from, d, 18, kbit, sink);
                }
            }
            DIPLOMAT => {
                for d in dir::DIAGONAL {
                    ray(cells, from, from, d, 18, kbit, sink);
                }
            }
            CANNON => {
                for d in dir::ORTHOGONAL {
                    let mut sq = from;
                    let mut c;
                    loop {
                        sq = step(sq, d);
                        c = cells[sq];
                        if c != EMPTY {
                            break;
                        }
                        sink.push(from, sq, false);
                    }
                    if c == OFF {
                        continue;
                    }
                    // `sq` is the screen: any piece or the Emperor, or (by the rules) only a
                    // piece of the cannon's own kingdom.
                    if self.rules.cannon_screen == CannonScreen::OwnKingdom && c >> 4 != code >> 4 {
                        continue;
                    }
                    loop {
                        sq = step(sq, d);
                        c = cells[sq];
                        if c != EMPTY {
                            break;
                        }
                    }
                    if CAPTURERS[c as usize] & kbit != 0 {
                        sink.push(from, sq, true);
                    }
                }
            }
            GO_BETWEEN => {
                for d in dir::ALL {
                    ray(cells, from, from, d, 18, 0, sink);
                }
            }
            kind @ (ARCHER | CROSSBOWMAN) => {
                let range = if kind == ARCHER { 4 } else { 5 };
                match self.rules.ranged {
                    RangedMove::UpTo => {
                        for d in dir::ALL {
                            ray(cells, from, from, d, range, kbit, sink);
                        }
                    }
                    RangedMove::Exactly => {
                        for d in dir::ALL {
                            exactly(cells, from, from, d, range, kbit, sink);
                        }
                    }
                }
            }
            DAGGER => {
                for d in dir::DIAGONAL {
                    ray(cells, from, from, d, 1, kbit, sink);
                }
            }
            SWORDSMAN => {
                for d in dir::ORTHOGONAL {
                    ray(cells, from, from, d, 1, kbit, sink);
                }
            }
            KNIGHT => {
                for (leg_d, diagonals) in dir::KNIGHT {
                    let leg = step(from, leg_d);
                    if cells[leg] != EMPTY {
                        continue;
                    }
                    for d in diagonals {
                        match self.rules.knight {
                            KnightMove::UpToThree => ray(cells, from, leg, d, 3, kbit, sink),
                            KnightMove::ExactlyThree => exactly(cells, from, leg, d, 3, kbit, sink),
                        }
                    }
                }
            }
            _ => {}
        }
    }

    #[inline(always)]
    pub(crate) fn gen_kingdom<S: Sink>(&self, k: Kingdom, sink: &mut S) {
        let k = k.index();
        let list = &self.plist_of(k);
        for &sq in list.iter() {
            self.gen_piece(sq as usize, sink);
        }
    }

    /// The legal moves of the kingdom to move: its piece moves, or the pass when it has none;
    /// nothing once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.legal_moves_into(&mut moves);
        moves
    }

    /// [`Position::legal_moves`] into a buffer (cleared first), to avoid allocating in search.
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.is_over() {
            return;
        }
        self.gen_kingdom(self.to_move(), moves);
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    /// The capturing moves of the kingdom to move (empty once the game is over), into a buffer
    /// (cleared first). For quiescence search.
    pub fn capture_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if !self.is_over() {
            self.gen_kingdom(self.to_move(), &mut Captures(moves));
        }
    }

    /// Number of piece moves of the kingdom to move (not counting a pass), without storing them.
    pub fn count_piece_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.gen_kingdom(self.to_move(), &mut counter);
        counter.0
    }

    /// The moves the piece on `point` could make if it were its kingdom's turn (empty for an
    /// empty point or the Emperor). The view uses this to show any stone's moves.
    pub fn moves_from(&self, point: Point) -> Vec<Move> {
        let mut moves = Vec::new();
        let sq = point.sq();
        if crate::Piece::from_code(self.cells[sq]).is_some() {
            self.gen_piece(sq, &mut moves);
        }
        moves
    }

    /// Number of piece moves `kingdom` would have if it were its turn (mobility).
    pub fn count_moves_of(&self, kingdom: Kingdom) -> u64 {
        let mut counter = Counter(0);
        self.gen_kingdom(kingdom, &mut counter);
        counter.0
    }

    /// Number of moves the piece on `point` could make if it were its kingdom's turn (0 for an
    /// empty point or the Emperor): [`Position::moves_from`] without storing them.
    pub fn count_moves_from(&self, point: Point) -> u64 {
        let sq = point.sq();
        if crate::Piece::from_code(self.cells[sq]).is_none() {
            return 0;
        }
        let mut counter = Counter(0);
        self.gen_piece(sq, &mut counter);
        counter.0
    }

    /// Whether a piece of one of `attackers` could capture whatever stands on `point` if it
    /// were that kingdom's turn. Cheaper than generating the attackers' moves: it looks outward
    /// from the point. An empty point, the Emperor and a go-between are never attacked.
    pub fn is_attacked(&self, point: Point, attackers: KingdomSet) -> bool {
        let sq = point.sq();
        let target = self.cells[sq];
        // Only what some attacker may capture can be attacked.
        let can = CAPTURERS[target as usize] & attackers.0;
        if can == 0 {
            return false;
        }
        let cells = &self.cells;
        let is = |c: u8, kinds: &[u8]| {
            c != EMPTY
                && c != OFF
                && c != EMPEROR
                && can & (1 << (c >> 4)) != 0
                && kinds.contains(&(c & 0x0F))
        };
        let ranged = self.rules.ranged;
        // Rays: the first piece met in each direction.
        for (i, d) in dir::ALL.into_iter().enumerate() {
            let orthogonal = i % 2 == 0;
            let mut at = sq;
            let mut dist = 0u32;
            loop {
                at = step(at, d);
                dist += 1;
                let c = cells[at];
                if c == EMPTY {
                    continue;
                }
                let slider: &[u8] = if orthogonal {
                    &[GENERAL, CHANCELLOR]
                } else {
                    &[GENERAL, DIPLOMAT]
                };
                if is(c, slider) {
                    return true;
                }
                let stepper: &[u8] = if orthogonal { &[SWORDSMAN] } else { &[DAGGER] };
                if dist == 1 && is(c, stepper) {
                    return true;
                }
                let in_range = |n: u32| match ranged {
                    RangedMove::UpTo => dist <= n,
                    RangedMove::Exactly => dist == n,
                };
                if is(c, &[ARCHER]) && in_range(4) || is(c, &[CROSSBOWMAN]) && in_range(5) {
                    return true;
                }
                // A cannon captures over exactly one screen: this piece is the screen.
                if orthogonal && c != OFF {
                    let mut beyond = at;
                    loop {
                        beyond = step(beyond, d);
                        let b = cells[beyond];
                        if b == EMPTY {
                            continue;
                        }
                        if is(b, &[CANNON])
                            && (self.rules.cannon_screen == CannonScreen::Any || c >> 4 == b >> 4)
                        {
                            return true;
                        }
                        break;
                    }
                }
                break;
            }
        }
        // Knights: a knight reaches `point` along an outward diagonal from its leg.
        for (leg_d, diagonals) in dir::KNIGHT {
            for d in diagonals {
                // Walk back from the point along the diagonal towards the leg.
                let mut at = sq;
                for n in 1..=3 {
                    at = step(at, -d);
                    let leg = at;
                    let knight = step(leg, -leg_d);
                    let exact_ok = self.rules.knight == KnightMove::UpToThree || n == 3;
                    if exact_ok && cells[leg] == EMPTY && is(cells[knight], &[KNIGHT]) {
                        return true;
                    }
                    if cells[at] != EMPTY {
                        break;
                    }
                }
            }
        }
        false
    }

    /// Whether the move captures (its destination holds a piece).
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_pass() && crate::Piece::from_code(self.cells[mv.to as usize]).is_some()
    }
}
