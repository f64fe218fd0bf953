//! The transposition table: search results by position hash, replaced by depth.

use std::sync::atomic::{AtomicU64, Ordering};

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

/// A fixed-size table indexed by the low bits of the key, shared by the threads of one search
/// without locks: each slot holds the entry packed in one word and the key mixed with that
/// word in another, so that a slot torn by two threads writing at once reads as empty rather
/// than as a wrong entry.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

/// Set in every stored word, so that an empty slot (all zero) never matches.
const OCCUPIED: u64 = 1 << 63;

impl Entry {
    /// The entry without its key in one word: score, move, depth, bound.
    fn pack(&self) -> u64 {
        let mv = match self.mv {
            u32::MAX => 0xF_FFFF,
            m if m == u32::MAX - 1 => 0xF_FFFE,
            m => ((m >> 16) << 10) | (m & 0x3FF),
        } as u64;
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        OCCUPIED
            | (self.score as u32 as u64)
            | (mv << 32)
            | ((self.depth as i8 as u8 as u64) << 52)
            | (bound << 60)
    }

    fn unpack(key: u64, word: u64) -> Entry {
        let mv = match (word >> 32) & 0xF_FFFF {
            0xF_FFFF => u32::MAX,
            0xF_FFFE => u32::MAX - 1,
            m => (((m >> 10) as u32) << 16) | (m & 0x3FF) as u32,
        };
        Entry {
            key,
            score: word as u32 as i32,
            mv,
            depth: ((word >> 52) as u8 as i8) as i16,
            bound: match (word >> 60) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// How large a transposition table is: a power of two of entries of
/// [`TableSize::ENTRY_BYTES`] bytes each. Asked for in mebibytes (the largest table that fits)
/// or as a number of entries, never as a bare number that two readers could take differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableSize {
    bits: u32,
}

impl TableSize {
    /// The bytes of one entry (the packed entry and the key mixed with it).
    pub const ENTRY_BYTES: usize = std::mem::size_of::<[AtomicU64; 2]>();

    /// The largest table within `mb` mebibytes (one entry at least).
    pub const fn megabytes(mb: u32) -> TableSize {
        let entries = ((mb as u64) << 20) / TableSize::ENTRY_BYTES as u64;
        TableSize {
            bits: if entries == 0 {
                0
            } else {
                63 - entries.leading_zeros()
            },
        }
    }

    /// A table of 2^`bits` entries (`bits` at most 40).
    pub const fn entries_log2(bits: u32) -> TableSize {
        assert!(bits <= 40, "a transposition table of at most 2^40 entries");
        TableSize { bits }
    }

    /// How many entries it holds.
    pub const fn entries(self) -> usize {
        1 << self.bits
    }

    /// How many bytes it takes.
    pub const fn bytes(self) -> usize {
        self.entries() * TableSize::ENTRY_BYTES
    }
}

impl Table {
    /// A table of `size`.
    pub fn new(size: TableSize) -> Table {
        let size = size.entries();
        Table {
            slots: (0..size)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: size - 1,
        }
    }

    /// How large it is.
    pub fn size(&self) -> TableSize {
        TableSize::entries_log2((self.mask + 1).trailing_zeros())
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [mixed, word] = &self.slots[key as usize & self.mask];
        let word = word.load(Ordering::Relaxed);
        let mixed = mixed.load(Ordering::Relaxed);
        (word & OCCUPIED != 0 && mixed ^ word == key).then(|| Entry::unpack(key, word))
    }

    /// Stores a result, keeping a deeper one for the same key.
    pub fn store(&self, entry: Entry) {
        if let Some(old) = self.probe(entry.key)
            && old.depth > entry.depth
        {
            return;
        }
        let [mixed, word] = &self.slots[entry.key as usize & self.mask];
        let packed = entry.pack();
        word.store(packed, Ordering::Relaxed);
        mixed.store(entry.key ^ packed, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for [mixed, word] in &self.slots {
            mixed.store(0, Ordering::Relaxed);
            word.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::Point;

    #[test]
    fn stores_and_prefers_depth() {
        let t = Table::new(TableSize::entries_log2(4));
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

    #[test]
    fn entries_come_back_as_stored() {
        let t = Table::new(TableSize::entries_log2(6));
        let far = Move::new(Point::new(18, 18).unwrap(), Point::new(0, 17).unwrap());
        for (i, (score, mv, depth, bound)) in [
            (-2_000_000, far.bits(), 64, Bound::Lower),
            (999_998, Move::CONCEDE.bits(), 1, Bound::Upper),
            (0, u32::MAX, -3, Bound::Exact),
            (i32::MIN, Move::PASS.bits(), 127, Bound::Exact),
        ]
        .into_iter()
        .enumerate()
        {
            let key = 0xDEAD_BEEF_0000_0000 + i as u64;
            t.store(Entry {
                key,
                score,
                mv,
                depth,
                bound,
            });
            let e = t.probe(key).expect("stored");
            assert_eq!((e.score, e.mv, e.depth, e.bound), (score, mv, depth, bound));
        }
        assert!(
            t.probe(0).is_none(),
            "an empty slot matches no key, not even 0"
        );
        t.clear();
        assert!(t.probe(0xDEAD_BEEF_0000_0000).is_none());
    }

    #[test]
    fn a_size_in_megabytes_is_the_largest_table_within_them() {
        assert_eq!(TableSize::ENTRY_BYTES, 16);
        assert_eq!(TableSize::megabytes(16).bytes(), 16 << 20);
        assert_eq!(TableSize::megabytes(16).entries(), 1 << 20);
        // Not a power of two: the largest power of two below.
        assert_eq!(TableSize::megabytes(24).bytes(), 16 << 20);
        assert_eq!(TableSize::megabytes(1).entries(), 1 << 16);
        assert_eq!(TableSize::megabytes(0).entries(), 1);
        assert_eq!(TableSize::entries_log2(18).bytes(), 4 << 20);
    }
}
