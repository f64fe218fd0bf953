//! Comparing and printing positions.

use super::*;

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
