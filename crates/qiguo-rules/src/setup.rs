//! An unvalidated arrangement of pieces and the kingdom to move, and the two starting setups.

use crate::{Kingdom, KingdomSet, Piece, Point, SetupStyle, fen};

/// The starting position of the `leventhal` setup (used by `classic`, `wikipedia`, `leventhal`).
pub const LEVENTHAL_START_FEN: &str = "2dNdSdBdQdRdSdN1pNpSpBpQpRpSpN2/3dNdSdCdSdN3pNpSpCpSpN3/4dAdWdA5pApWpA3gN/5dH7pH3gNgS/5dG7pG2gAgSgB/14gGgHgWgCgQ/wN15gAgSgR/wSwN15gNgS/wRwSwA15gN/wQwCwWwHwG14/wBwSwA15bN/wSwN15bNbS/wN15bAbSbB/14bGbHbWbCbQ/5rG7oG2bAbSbR/5rH7oH3bNbS/4rArWrA5oAoWoA3bN/3rNrSrCrSrN3oNoSoCoSoN3/2rNrSrRrQrBrSrN1oNoSoRoQoBoSoN2 w";

/// The starting position of the `elephantchess` setup: Chu and Han have Chancellor and
/// Diplomat swapped.
pub const ELEPHANTCHESS_START_FEN: &str = "2dNdSdBdQdRdSdN1pNpSpBpQpRpSpN2/3dNdSdCdSdN3pNpSpCpSpN3/4dAdWdA5pApWpA3gN/5dH7pH3gNgS/5dG7pG2gAgSgB/14gGgHgWgCgQ/wN15gAgSgR/wSwN15gNgS/wRwSwA15gN/wQwCwWwHwG14/wBwSwA15bN/wSwN15bNbS/wN15bAbSbB/14bGbHbWbCbQ/5rG7oG2bAbSbR/5rH7oH3bNbS/4rArWrA5oAoWoA3bN/3rNrSrCrSrN3oNoSoCoSoN3/2rNrSrBrQrRrSrN1oNoSoBoQoRoSoN2 w";

/// The pieces on the 361 points. The Emperor is not stored: it always stands on `j10`,
/// which must stay empty here.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    cells: [Option<Piece>; 361],
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board { cells: [None; 361] }
    }

    /// The piece on `point`.
    pub fn get(&self, point: Point) -> Option<Piece> {
        self.cells[point.index()]
    }

    /// Puts `piece` on `point` (or clears it), returning what was there.
    pub fn set(&mut self, point: Point, piece: Option<Piece>) -> Option<Piece> {
        std::mem::replace(&mut self.cells[point.index()], piece)
    }

    /// Every piece with its point, in point index order.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        Point::all().filter_map(|p| self.get(p).map(|piece| (p, piece)))
    }

    /// The kingdoms with at least one piece on the board.
    pub fn kingdoms(&self) -> KingdomSet {
        self.pieces().map(|(_, p)| p.kingdom).collect()
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

/// An arrangement of pieces and the kingdom to move, not yet checked against the rules.
/// [`Position::new`](crate::Position::new) validates it.
///
/// ```
/// use qiguo_rules::{Kingdom, Setup, SetupStyle};
/// let setup = Setup::start(SetupStyle::Leventhal);
/// assert_eq!(setup.to_move, Kingdom::Qin);
/// assert_eq!(setup.board.pieces().count(), 7 * 17);
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// The kingdom to move.
    pub to_move: Kingdom,
}

impl Setup {
    /// The starting setup of the given style, all seven armies placed, Qin to move.
    pub fn start(style: SetupStyle) -> Setup {
        let text = match style {
            SetupStyle::Leventhal => LEVENTHAL_START_FEN,
            SetupStyle::Elephantchess => ELEPHANTCHESS_START_FEN,
        };
        fen::parse(text).expect("the built-in start positions are valid 7K FEN")
    }

    /// This setup with the armies of `kingdoms` taken off the board. If the kingdom to move
    /// loses its army, the turn passes to the next kingdom in order that still has pieces.
    pub fn without(mut self, kingdoms: KingdomSet) -> Setup {
        for p in Point::all() {
            if self
                .board
                .get(p)
                .is_some_and(|piece| kingdoms.contains(piece.kingdom))
            {
                self.board.set(p, None);
            }
        }
        let present = self.board.kingdoms();
        let mut k = self.to_move;
        for _ in 0..7 {
            if present.contains(k) {
                self.to_move = k;
                break;
            }
            k = k.next();
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceKind;

    fn army_points(setup: &Setup, k: Kingdom) -> Vec<(Point, PieceKind)> {
        setup
            .board
            .pieces()
            .filter(|(_, p)| p.kingdom == k)
            .map(|(pt, p)| (pt, p.kind))
            .collect()
    }

    #[test]
    fn every_army_is_complete() {
        for style in [SetupStyle::Leventhal, SetupStyle::Elephantchess] {
            let setup = Setup::start(style);
            for k in Kingdom::ALL {
                let army = army_points(&setup, k);
                assert_eq!(army.len(), 17, "{k}");
                for kind in PieceKind::ALL {
                    assert_eq!(
                        army.iter().filter(|(_, pk)| *pk == kind).count(),
                        kind.count() as usize,
                        "{k} {kind}"
                    );
                }
            }
            assert_eq!(setup.board.get(Point::EMPEROR), None);
        }
    }

    #[test]
    fn generals_stand_where_the_rules_say() {
        let setup = Setup::start(SetupStyle::Leventhal);
        for (k, at) in [
            (Kingdom::Qin, "a10"),
            (Kingdom::Chu, "f1"),
            (Kingdom::Han, "n1"),
            (Kingdom::Qi, "s6"),
            (Kingdom::Wei, "s14"),
            (Kingdom::Zhao, "n19"),
            (Kingdom::Yan, "f19"),
        ] {
            let p: Point = at.parse().unwrap();
            assert_eq!(
                setup.board.get(p),
                Some(Piece::new(k, PieceKind::General)),
                "{at}"
            );
        }
    }

    #[test]
    fn elephantchess_swaps_chu_and_han() {
        let lev = Setup::start(SetupStyle::Leventhal);
        let ele = Setup::start(SetupStyle::Elephantchess);
        let at = |s: &Setup, p: &str| s.board.get(p.parse().unwrap()).unwrap().kind;
        assert_eq!(at(&lev, "e1"), PieceKind::Chancellor);
        assert_eq!(at(&ele, "e1"), PieceKind::Diplomat);
        assert_eq!(at(&ele, "g1"), PieceKind::Chancellor);
        assert_eq!(at(&ele, "m1"), PieceKind::Diplomat);
        assert_eq!(at(&ele, "o1"), PieceKind::Chancellor);
        let differ = Point::all()
            .filter(|p| lev.board.get(*p) != ele.board.get(*p))
            .count();
        assert_eq!(differ, 4);
    }

    #[test]
    fn without_moves_the_turn_on() {
        let setup = Setup::start(SetupStyle::Leventhal)
            .without([Kingdom::Qin, Kingdom::Chu].into_iter().collect());
        assert_eq!(setup.to_move, Kingdom::Han);
        assert_eq!(setup.board.pieces().count(), 5 * 17);
    }
}
