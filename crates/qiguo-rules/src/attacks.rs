//! Attack queries for players and the interface: which pieces attack a point, and which points
//! an army would be attacked on. Built on move generation, so they agree with the moves.

use crate::movegen::{CAPTURERS, EMPEROR, EMPTY, OFF, Sink};
use crate::{Kingdom, KingdomSet, Piece, PieceKind, Point, Position};

/// Keeps the origins of captures onto one cell.
struct CapturesOnto<'a> {
    to: usize,
    from: &'a mut Vec<usize>,
}

impl Sink for CapturesOnto<'_> {
    #[inline(always)]
    fn push(&mut self, from: usize, to: usize, capture: bool) {
        if capture && to == self.to {
            self.from.push(from);
        }
    }
}

impl Position {
    /// The kingdoms still in the game that are not `kingdom`'s allies (nor `kingdom` itself):
    /// those whose pieces may take its pieces without forfeiting.
    pub fn enemies(&self, kingdom: Kingdom) -> KingdomSet {
        let allies = self.seats().allies(kingdom);
        self.alive()
            .iter()
            .filter(|k| !allies.contains(*k))
            .collect()
    }

    /// The points of the pieces of `attackers` that could capture the piece on `point` if it
    /// were their kingdom's turn, in the order of the kingdoms and their armies. Empty for an
    /// empty point, the Emperor, a go-between, or a piece no attacker may take (its own
    /// kingdom's).
    ///
    /// ```
    /// use qiguo_rules::{Kingdom, KingdomSet, PieceKind, Position, Rules};
    ///
    /// let pos = Position::start(Rules::default());
    /// let qin_general = pos.army(Kingdom::Qin).find(|(_, p)| p.kind == PieceKind::General).unwrap().0;
    /// assert!(pos.attackers_of(qin_general, KingdomSet::ALL).is_empty());
    /// ```
    pub fn attackers_of(&self, point: Point, attackers: KingdomSet) -> Vec<Point> {
        let sq = point.sq();
        let can = CAPTURERS[self.cells[sq] as usize] & attackers.0;
        let mut from = Vec::new();
        for k in Kingdom::ALL {
            if can & (1 << k.index()) != 0 {
                self.gen_kingdom(
                    k,
                    &mut CapturesOnto {
                        to: sq,
                        from: &mut from,
                    },
                );
            }
        }
        from.into_iter().filter_map(Point::from_sq).collect()
    }

    /// The points of `defender`'s pieces that guard `point`: those that could take an enemy
    /// piece standing there (taking back what took there), in the order of the army. The piece
    /// on `point` itself is left out; so is everything for the Emperor's point, where no piece
    /// stands.
    ///
    /// ```
    /// use qiguo_rules::{Kingdom, Position, Rules};
    ///
    /// let pos = Position::start(Rules::default());
    /// // Every stone of Qin's front row is guarded by others of its army, never by itself.
    /// for (point, _) in pos.army(Kingdom::Qin) {
    ///     assert!(!pos.defenders_of(point, Kingdom::Qin).contains(&point));
    /// }
    /// ```
    pub fn defenders_of(&self, point: Point, defender: Kingdom) -> Vec<Point> {
        let sq = point.sq();
        if self.cells[sq] == EMPEROR || self.cells[sq] == OFF {
            return Vec::new();
        }
        // An enemy of `defender` (another kingdom where it has none left) on the point.
        let allies = self.seats().allies(defender);
        let enemy = self
            .enemies(defender)
            .iter()
            .next()
            .or_else(|| {
                Kingdom::ALL
                    .into_iter()
                    .find(|k| !allies.contains(*k) && *k != defender)
            })
            .unwrap_or(defender.next());
        let mut probe = self.clone();
        probe.cells[sq] = Piece {
            kingdom: enemy,
            kind: PieceKind::Swordsman,
        }
        .code();
        let mut only = KingdomSet::EMPTY;
        only.insert(defender);
        probe.attackers_of(point, only)
    }

    /// The points where a piece of `defender` would be attacked by one of `attackers`: those of
    /// its own pieces that can be taken, and every empty point where an attacker could take a
    /// piece of `defender` standing there (a cannon, for instance, only beyond a screen).
    /// Attackers that are `defender`'s allies or `defender` itself are left out.
    pub fn threatened_points(&self, defender: Kingdom, attackers: KingdomSet) -> Vec<Point> {
        let foes: KingdomSet = attackers
            .iter()
            .filter(|k| !self.seats().allies(defender).contains(*k))
            .collect();
        let stand_in = Piece {
            kingdom: defender,
            kind: PieceKind::Swordsman,
        }
        .code();
        let mut probe = self.clone();
        Point::all()
            .filter(|&point| {
                let sq = point.sq();
                match self.cells[sq] {
                    EMPTY => {
                        probe.cells[sq] = stand_in;
                        let attacked = probe.is_attacked(point, foes);
                        probe.cells[sq] = EMPTY;
                        attacked
                    }
                    cell => {
                        Piece::from_code(cell).is_some_and(|p| p.kingdom == defender)
                            && self.is_attacked(point, foes)
                    }
                }
            })
            .collect()
    }
}
