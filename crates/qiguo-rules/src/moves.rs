//! The move type: from-point and to-point, a pass, or a concession.

use std::fmt;

use crate::Point;

/// A move: a piece goes from one point to another (capturing whatever capturable piece stands
/// there), the kingdom to move passes because it has no legal move, or it concedes: it leaves
/// the game as [`Standing::Conceded`](crate::Standing::Conceded) says.
///
/// Moves are four bytes and compare by their points. Build one from points, or read one from
/// text with [`Move::parse`](crate::notation).
///
/// ```
/// use qiguo_rules::{Move, Point};
/// let mv = Move::new("f3".parse().unwrap(), "a8".parse().unwrap());
/// assert_eq!(mv.to_string(), "f3a8");
/// assert_eq!(mv.from(), Some("f3".parse::<Point>().unwrap()));
/// assert!(Move::PASS.is_pass());
/// assert_eq!(Move::PASS.to_string(), "--");
/// assert_eq!(Move::CONCEDE.to_string(), "concede");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    // Padded mailbox indices; both 0 (a sentinel cell) for a pass, 0 and 1 for a concession.
    pub(crate) from: u16,
    pub(crate) to: u16,
}

impl Move {
    /// The pass, written `--`: allowed only when the kingdom to move has no other legal move.
    pub const PASS: Move = Move { from: 0, to: 0 };

    /// The concession, written `concede`: the kingdom to move leaves the game. Never listed
    /// among the legal moves (the search does not play it), but legal whenever the game goes on.
    pub const CONCEDE: Move = Move { from: 0, to: 1 };

    /// The move from `from` to `to`.
    pub const fn new(from: Point, to: Point) -> Move {
        Move {
            from: from.sq() as u16,
            to: to.sq() as u16,
        }
    }

    pub(crate) const fn from_sq(from: usize, to: usize) -> Move {
        Move {
            from: from as u16,
            to: to as u16,
        }
    }

    /// The move packed in 32 bits (for tables in search): the from- and to-points' indices,
    /// `u32::MAX` for the pass, `u32::MAX - 1` for the concession. [`Move::from_bits`] unpacks
    /// it.
    ///
    /// ```
    /// use qiguo_rules::{notation, Move};
    /// let mv = notation::parse_move("a13b15").unwrap();
    /// assert_eq!(Move::from_bits(mv.bits()), Some(mv));
    /// assert_eq!(Move::from_bits(Move::PASS.bits()), Some(Move::PASS));
    /// assert_eq!(Move::from_bits(400 << 16), None);
    /// ```
    pub fn bits(self) -> u32 {
        match (self.from(), self.to()) {
            (Some(f), Some(t)) => ((f.index() as u32) << 16) | t.index() as u32,
            _ if self.is_concession() => u32::MAX - 1,
            _ => u32::MAX,
        }
    }

    /// Unpacks [`Move::bits`]; `None` for bits no move packs to.
    pub fn from_bits(bits: u32) -> Option<Move> {
        if bits == u32::MAX {
            return Some(Move::PASS);
        }
        if bits == u32::MAX - 1 {
            return Some(Move::CONCEDE);
        }
        let from = Point::from_index((bits >> 16) as usize)?;
        let to = Point::from_index((bits & 0xFFFF) as usize)?;
        Some(Move::new(from, to))
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.from == 0 && self.to == 0
    }

    /// Whether this is the concession.
    pub const fn is_concession(self) -> bool {
        self.from == 0 && self.to == 1
    }

    /// Whether no piece moves: a pass or a concession.
    pub const fn moves_no_piece(self) -> bool {
        self.from == 0
    }

    /// The point the piece leaves, or `None` for a pass or a concession.
    pub const fn from(self) -> Option<Point> {
        Point::from_sq(self.from as usize)
    }

    /// The point the piece lands on, or `None` for a pass or a concession.
    pub const fn to(self) -> Option<Point> {
        Point::from_sq(self.to as usize)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.to()) {
            (Some(from), Some(to)) => write!(f, "{from}{to}"),
            _ if self.is_concession() => f.write_str("concede"),
            _ => f.write_str("--"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
