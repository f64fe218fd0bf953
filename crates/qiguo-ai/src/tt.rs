//! The transposition table: search results by position hash, replaced by depth.

use qiguo_rules::Move;

/// What a stored score means.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this much (the search failed high).
    Lower,
    /// At most this much (the search failed low).
    Upper,
}

/// One stored result.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// The full key, to tell collisions apart.
    pub key: u64,
    /// The score, from the searching player's point of view.
    pub score: i32,
    /// The best move found, packed ([`Move::bits`]).
    pub mv: u32,
    /// The depth searched.
    pub depth: i16,
    /// What the score means.
    pub bound: Bound,
}

impl Entry {
    /// The best move, if one was stored.
    pub fn best_move(&self) -> Option<Move> {
        Move::from_bits(self.mv)
    }
}

/// A fixed-size table indexed by the low bits of the key.
pub struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of 2^`bits` entries.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            entries: vec![None; size],
            mask: size - 1,
        }
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Stores a result, keeping a deeper one for the same key.
    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        if let Some(old) = slot
            && old.key == entry.key
            && old.depth > entry.depth
        {
            return;
        }
        *slot = Some(entry);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_prefers_depth() {
        let mut t = Table::new(4);
        let e = |key, depth, score| Entry {
            key,
            score,
            mv: u32::MAX,
            depth,
            bound: Bound::Exact,
        };
        t.store(e(5, 3, 10));
        assert_eq!(t.probe(5).unwrap().score, 10);
        t.store(e(5, 1, 20));
        assert_eq!(t.probe(5).unwrap().score, 10);
        t.store(e(21, 1, 30)); // same slot, other key: replaces
        assert!(t.probe(5).is_none());
        assert_eq!(t.probe(21).unwrap().score, 30);
        assert_eq!(t.probe(21).unwrap().best_move(), Some(Move::PASS));
    }
}
