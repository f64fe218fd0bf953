//! The move type: from-point and to-point, or a pass.

use std::fmt;

use crate::Point;

/// A move: a piece goes from one point to another (capturing whatever capturable piece stands
/// there), or the kingdom to move passes because it has no legal move.
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
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    // Padded mailbox indices; both 0 (a sentinel cell) for a pass.
    pub(crate) from: u16,
    pub(crate) to: u16,
}

impl Move {
    /// The pass, written `--`: allowed only when the kingdom to move has no other legal move.
    pub const PASS: Move = Move { from: 0, to: 0 };

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
    /// `u32::MAX` for the pass. [`Move::from_bits`] unpacks it.
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
            _ => u32::MAX,
        }
    }

    /// Unpacks [`Move::bits`]; `None` for bits no move packs to.
    pub fn from_bits(bits: u32) -> Option<Move> {
        if bits == u32::MAX {
            return Some(Move::PASS);
        }
        let from = Point::from_index((bits >> 16) as usize)?;
        let to = Point::from_index((bits & 0xFFFF) as usize)?;
        Some(Move::new(from, to))
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.from == 0
    }

    /// The point the piece leaves, or `None` for a pass.
    pub const fn from(self) -> Option<Point> {
        Point::from_sq(self.from as usize)
    }

    /// The point the piece lands on, or `None` for a pass.
    pub const fn to(self) -> Option<Point> {
        Point::from_sq(self.to as usize)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.to()) {
            (Some(from), Some(to)) => write!(f, "{from}{to}"),
            _ => f.write_str("--"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
