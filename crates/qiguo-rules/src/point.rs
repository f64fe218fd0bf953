//! Points of the 19×19 board, their names (`a1`…`s19`) and the padded mailbox geometry.

use std::fmt;
use std::str::FromStr;

/// Number of files and of ranks on the board.
pub const SIZE: u8 = 19;

/// Width of the padded mailbox: the board plus a one-point sentinel border on each side.
pub(crate) const PAD_W: usize = SIZE as usize + 2;

/// Length of the padded mailbox array. A power of two, so that `index & (MAILBOX - 1)` is
/// always in bounds and the compiler can drop bounds checks in the move generator.
pub(crate) const MAILBOX: usize = 512;

/// A point of the board: one of the 361 intersections, `a1` (south-west corner) to `s19`
/// (north-east corner).
///
/// ```
/// use qiguo_rules::Point;
/// let p: Point = "j10".parse().unwrap();
/// assert_eq!((p.file(), p.rank()), (9, 9));
/// assert_eq!(p, Point::EMPEROR);
/// assert_eq!(p.to_string(), "j10");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The centre point `j10`, the Emperor's seat.
    pub const EMPEROR: Point = Point(9 * SIZE as u16 + 9);

    /// The point at `file` (0 = `a`, west) and `rank` (0 = rank 1, south), if both are below 19.
    pub const fn new(file: u8, rank: u8) -> Option<Point> {
        if file < SIZE && rank < SIZE {
            Some(Point(rank as u16 * SIZE as u16 + file as u16))
        } else {
            None
        }
    }

    /// The point with the given index `rank * 19 + file`, if below 361.
    pub const fn from_index(index: usize) -> Option<Point> {
        if index < (SIZE as usize * SIZE as usize) {
            Some(Point(index as u16))
        } else {
            None
        }
    }

    /// Index of the point, `rank * 19 + file`, in `0..361`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 (`a`, west) to 18 (`s`, east).
    pub const fn file(self) -> u8 {
        (self.0 % SIZE as u16) as u8
    }

    /// Rank, 0 (rank 1, south) to 18 (rank 19, north).
    pub const fn rank(self) -> u8 {
        (self.0 / SIZE as u16) as u8
    }

    /// All 361 points in index order (rank 1 west to east, then rank 2, …).
    pub fn all() -> impl Iterator<Item = Point> {
        (0..SIZE as u16 * SIZE as u16).map(Point)
    }

    /// The point's index in the padded mailbox.
    pub(crate) const fn sq(self) -> usize {
        (self.rank() as usize + 1) * PAD_W + self.file() as usize + 1
    }

    /// The board point at a padded mailbox index, or `None` for a sentinel cell.
    pub(crate) const fn from_sq(sq: usize) -> Option<Point> {
        let row = sq / PAD_W;
        let col = sq % PAD_W;
        if row >= 1 && row <= SIZE as usize && col >= 1 && col <= SIZE as usize {
            Point::new((col - 1) as u8, (row - 1) as u8)
        } else {
            None
        }
    }

    /// Parses a point written with 0-based ranks (`e9` is `e10`), as elephantchess.io writes them.
    pub fn parse_zero_based(text: &str) -> Result<Point, ParsePointError> {
        parse_point(text, 0)
    }
}

/// Why a point's name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePointError {
    text: String,
}

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a point: expected a file a–s and a rank 1–19, like `j10`",
            self.text
        )
    }
}

impl std::error::Error for ParsePointError {}

fn parse_point(text: &str, first_rank: u32) -> Result<Point, ParsePointError> {
    let err = || ParsePointError {
        text: text.to_owned(),
    };
    let mut chars = text.chars();
    let file = chars.next().ok_or_else(err)?;
    if !file.is_ascii_lowercase() || file > 's' {
        return Err(err());
    }
    let digits = chars.as_str();
    if digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || digits.starts_with('0') && digits.len() > 1
    {
        return Err(err());
    }
    let rank: u32 = digits.parse().map_err(|_| err())?;
    if rank < first_rank || rank >= first_rank + SIZE as u32 {
        return Err(err());
    }
    Point::new(file as u8 - b'a', (rank - first_rank) as u8).ok_or_else(err)
}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(text: &str) -> Result<Point, ParsePointError> {
        parse_point(text, 1)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Mailbox offsets of the eight directions.
pub(crate) mod dir {
    use super::PAD_W;
    const W: isize = PAD_W as isize;
    pub const N: isize = W;
    pub const S: isize = -W;
    pub const E: isize = 1;
    pub const WEST: isize = -1;
    pub const NE: isize = W + 1;
    pub const NW: isize = W - 1;
    pub const SE: isize = -W + 1;
    pub const SW: isize = -W - 1;
    pub const ORTHOGONAL: [isize; 4] = [N, E, S, WEST];
    pub const DIAGONAL: [isize; 4] = [NE, SE, SW, NW];
    pub const ALL: [isize; 8] = [N, NE, E, SE, S, SW, WEST, NW];
    /// For each orthogonal leg of the knight, the two diagonals that turn outward from it.
    pub const KNIGHT: [(isize, [isize; 2]); 4] = [
        (N, [NW, NE]),
        (E, [NE, SE]),
        (S, [SE, SW]),
        (WEST, [SW, NW]),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>().unwrap(), p);
            assert_eq!(Point::from_sq(p.sq()), Some(p));
        }
        assert_eq!("a1".parse::<Point>().unwrap(), Point::new(0, 0).unwrap());
        assert_eq!("s19".parse::<Point>().unwrap(), Point::new(18, 18).unwrap());
    }

    #[test]
    fn bad_names() {
        for bad in [
            "", "a", "a0", "a20", "t1", "A1", "a01", "a1x", "1a", "a-1", "é1",
        ] {
            assert!(bad.parse::<Point>().is_err(), "{bad}");
        }
    }

    #[test]
    fn zero_based() {
        assert_eq!(
            Point::parse_zero_based("e9").unwrap(),
            "e10".parse().unwrap()
        );
        assert_eq!(
            Point::parse_zero_based("a0").unwrap(),
            "a1".parse().unwrap()
        );
        assert!(Point::parse_zero_based("a19").is_err());
    }

    #[test]
    fn sentinels_are_not_points() {
        assert_eq!(Point::from_sq(0), None);
        assert_eq!(Point::from_sq(PAD_W), None);
        assert_eq!(Point::from_sq(20 * PAD_W + 5), None);
        const { assert!(PAD_W * PAD_W <= MAILBOX) };
    }
}
