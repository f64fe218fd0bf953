//! Zobrist hashing: a key per piece on a point, per kingdom to move and per counter value,
//! from SplitMix64 of fixed inputs, so the hash is the same on every machine.

use super::*;

#[inline(always)]
pub(super) fn z_piece(code: u8, sq: usize) -> u64 {
    splitmix64(((code as u64) << 16) | sq as u64)
}

#[inline(always)]
pub(super) fn z_turn(k: Kingdom) -> u64 {
    splitmix64(0x1_0000_0000 | k as u64)
}

#[inline(always)]
pub(super) fn z_count(which: u64, k: usize, n: u16) -> u64 {
    splitmix64((which << 32) | ((k as u64) << 16) | n as u64)
}

pub(super) const Z_CAPTURES: u64 = 2;

pub(super) const Z_LOSSES: u64 = 3;

impl Position {
    pub(super) fn compute_hash(&self) -> u64 {
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
}
