//! Perft: counting the leaves of the move tree, to check the move generator.

use super::*;

impl Position {
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

    pub(super) fn perft_inner(&mut self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
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
