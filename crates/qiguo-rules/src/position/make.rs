//! Playing moves: checked play with a report of what happened, and the incremental
//! make/unmake the search uses.

use super::*;

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
pub(super) struct Snapshot {
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

impl Position {
    /// Whether `mv` is legal for the kingdom to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Whether `mv` is legal for the kingdom to move, or why not: the same answer
    /// [`Position::play`] gives, without playing it.
    ///
    /// ```
    /// use qiguo_rules::{IllegalMove, Position, Rules};
    /// let pos = Position::start(Rules::default());
    /// assert!(pos.check(qiguo_rules::notation::parse_move("e10e5").unwrap()).is_ok());
    /// // Nothing stands on k3.
    /// let empty = qiguo_rules::notation::parse_move("k3k4").unwrap();
    /// assert!(matches!(pos.check(empty), Err(IllegalMove::NoPiece(_))));
    /// ```
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if mv.is_concession() {
            return Ok(());
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
        // The kingdom that may fall: the captured piece's, or the mover's when it concedes.
        let falling = captured
            .map(|c| c.kingdom)
            .or(mv.is_concession().then_some(mover));
        let army_before: Option<Vec<(Point, Piece)>> =
            falling.map(|k| self.army(k).filter(|(p, _)| Some(*p) != mv.to()).collect());
        let undo = self.make(mv);
        let fallen = falling.and_then(|k| {
            let standing = self.standing(k);
            let victor = match standing {
                Standing::Beaten { victor, .. } => Some(victor),
                Standing::Conceded { victor } => victor,
                _ => None,
            };
            (standing != Standing::InGame).then(|| Fallen {
                kingdom: k,
                standing,
                army: army_before.unwrap_or_default(),
                transferred_to: victor.filter(|_| self.rules.transfers_armies()),
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
        if mv.is_concession() {
            undo.snapshot = Some(Box::new(self.snapshot()));
            self.concede();
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

    pub(super) fn snapshot(&self) -> Snapshot {
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
    pub(super) fn move_piece(&mut self, m: usize, from: usize, to: usize, code: u8) {
        let i = self.pidx[from];
        self.plist[m][i as usize] = to as u16;
        self.pidx[to] = i;
        self.cells[from] = EMPTY;
        self.cells[to] = code;
        self.hash ^= z_piece(code, from) ^ z_piece(code, to);
    }

    #[inline(always)]
    pub(super) fn remove_from_list(&mut self, k: usize, sq: usize) {
        let i = self.pidx[sq] as usize;
        let last = self.plen[k] as usize - 1;
        let moved = self.plist[k][last];
        self.plist[k][i] = moved;
        self.pidx[moved as usize] = i as u8;
        self.plen[k] -= 1;
    }

    #[inline(always)]
    pub(super) fn advance_turn(&mut self, mover: Kingdom) {
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
    pub(super) fn is_decisive(&self, m: usize, captured: u8) -> bool {
        let v = kingdom_of(captured);
        self.allies[m] & (1 << v) != 0
            || captured & 0x0F == GENERAL
            || self.st.losses[v] as u32 + 1 >= self.rules.beaten_at_losses as u32
            || self.player_sum(m, |k| self.st.captures[k] as u32) + 1
                >= self.rules.capture_goal as u32
    }

    /// Plays a capture with consequences beyond the counters. Not incremental: the snapshot
    /// in the undo record restores everything.
    pub(super) fn make_decisive(
        &mut self,
        mover: Kingdom,
        from: usize,
        to: usize,
        code: u8,
        captured: u8,
    ) {
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
}
