//! Standings, victories and the end of the game: kingdoms beaten or forfeited, their armies
//! removed or transferred, and the goals of the rules reached.

use super::*;

/// Where a kingdom stands in the game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Standing {
    /// Still playing.
    InGame,
    /// Never in this game: its seat was empty or it had no piece in the starting position.
    Absent,
    /// Beaten: its General was captured or its losses reached the threshold.
    Beaten {
        /// The kingdom credited with beating it (and, by preset, receiving its army).
        victor: Kingdom,
        /// Whether it was beaten by the capture of its General.
        general_captured: bool,
    },
    /// Forfeited because an ally (a kingdom of the same player) attacked it.
    Forfeited {
        /// The ally that attacked it.
        by: Kingdom,
    },
    /// Its player conceded it. It falls without a capture, as at the loss threshold: the
    /// preset's victor rule names the kingdom credited with beating it (and, by preset,
    /// receiving its army), if any kingdom has earned it — one that took its pieces
    /// (`MostOfItsPieces`) or took any piece (`MostCapturesOverall`). Otherwise its army leaves
    /// the board and nobody is credited.
    Conceded {
        /// The kingdom credited with beating it, if any.
        victor: Option<Kingdom>,
    },
}

/// How a game was won.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Victory {
    /// Captured two Generals (kingdom goal of `classic` and `leventhal`).
    Generals,
    /// Beat two kingdoms (kingdom goal of `wikipedia` and `elephantchess`).
    Kingdoms,
    /// Reached the capture goal.
    Captures,
    /// The last kingdom (or player) left in the game.
    LastKingdom,
    /// The players ended the game early; the most captures won.
    EarlyEnd,
    /// A goal was reached and ended the game, and the most captures won, whoever reached it
    /// (`ludii`).
    MostCaptures,
}

impl Victory {
    /// Every way of winning, in the order above.
    ///
    /// ```
    /// use qiguo_rules::Victory;
    ///
    /// let named = Victory::ALL.map(Victory::name);
    /// assert!(named.iter().enumerate().all(|(i, n)| !named[..i].contains(n)));
    /// ```
    pub const ALL: [Victory; 6] = [
        Victory::Generals,
        Victory::Kingdoms,
        Victory::Captures,
        Victory::LastKingdom,
        Victory::EarlyEnd,
        Victory::MostCaptures,
    ];

    /// The name used in JSON summaries: `generals`, `kingdoms`, `captures`, `last_kingdom`,
    /// `early_end`, `most_captures`.
    pub const fn name(self) -> &'static str {
        match self {
            Victory::Generals => "generals",
            Victory::Kingdoms => "kingdoms",
            Victory::Captures => "captures",
            Victory::LastKingdom => "last_kingdom",
            Victory::EarlyEnd => "early_end",
            Victory::MostCaptures => "most_captures",
        }
    }

    /// A sentence fragment for players: "captured two Generals", ….
    pub const fn describe(self) -> &'static str {
        match self {
            Victory::Generals => "captured two Generals",
            Victory::Kingdoms => "beat two kingdoms",
            Victory::Captures => "reached the capture goal",
            Victory::LastKingdom => "is the last left in the game",
            Victory::EarlyEnd => "had the most captures when the game was ended",
            Victory::MostCaptures => "had the most captures when a goal was reached",
        }
    }
}

/// The end of a game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winning kingdom. When a player holds several kingdoms, the one of them that moved
    /// most recently.
    pub winner: Kingdom,
    /// The winning player (see [`Seats`]).
    pub player: u8,
    /// How the game was won.
    pub victory: Victory,
}

impl Position {
    pub(super) fn goal_count(&self, k: usize) -> u32 {
        match self.rules.kingdom_goal {
            KingdomGoal::TwoGenerals => self.st.generals_taken[k] as u32,
            KingdomGoal::TwoKingdoms => self.st.kingdoms_taken[k] as u32,
        }
    }

    #[inline]
    pub(super) fn player_sum(&self, k: usize, f: impl Fn(usize) -> u32) -> u32 {
        let allies = self.allies[k];
        if allies == 1 << k {
            return f(k);
        }
        bits(allies).map(f).sum()
    }

    pub(super) fn single_player_left(&self) -> bool {
        let alive = self.st.alive;
        let first = alive.trailing_zeros() as usize;
        first < 7 && alive & !self.allies[first] == 0
    }

    /// Among the kingdoms in `mask`, the mover if it is one, else the one that moved most
    /// recently (the nearest before the mover in turn order).
    pub(super) fn most_recent(&self, mover: Kingdom, mask: u8) -> Kingdom {
        let mut k = mover;
        for _ in 0..7 {
            if mask & k.bit() != 0 {
                return k;
            }
            k = k.previous();
        }
        mover
    }

    /// Ends the game by agreement: the player with the most captures wins (ties as for victors).
    /// Does nothing if the game is already over. Returns the outcome.
    pub fn end_by_agreement(&mut self) -> Outcome {
        if let Some(o) = self.st.outcome {
            return o;
        }
        let last_mover = self.most_recent(self.st.to_move.previous(), self.st.alive);
        let (_, mask) = self.best_players(|k| self.player_sum(k, |a| self.st.captures[a] as u32));
        let winner = self.most_recent(last_mover, mask);
        let outcome = Outcome {
            winner,
            player: self.player_of(winner),
            victory: Victory::EarlyEnd,
        };
        self.st.outcome = Some(outcome);
        outcome
    }

    /// The highest score among kingdoms in the game and the mask of those reaching it.
    pub(super) fn best_players(&self, score: impl Fn(usize) -> u32) -> (u32, u8) {
        let mut best = 0;
        let mut mask = 0u8;
        for k in bits(self.st.alive) {
            let s = score(k);
            if s > best || mask == 0 {
                best = s;
                mask = 1 << k;
            } else if s == best {
                mask |= 1 << k;
            }
        }
        (best, mask)
    }

    /// The victor of a kingdom that concedes: as [`Self::choose_victor`], but only a kingdom
    /// that has earned it by the victor rule (none if nobody has).
    pub(super) fn concession_victor(&self, conceding: usize) -> Option<usize> {
        let eligible = self.st.alive & !(1 << conceding) & !self.allies[conceding];
        let earned = bits(eligible).any(|k| match self.rules.victor {
            VictorRule::MostOfItsPieces => self.st.captured_from[k][conceding] > 0,
            VictorRule::MostCapturesOverall => self.st.captures[k] > 0,
        });
        earned.then(|| self.choose_victor(Kingdom::ALL[conceding], conceding))
    }

    /// The kingdom to move concedes (see [`Standing::Conceded`]); then the goals are checked
    /// and the turn passes on.
    pub(super) fn concede(&mut self) {
        let mover = self.st.to_move;
        let c = mover.index();
        let victor = self.concession_victor(c);
        match victor {
            Some(victor) => self.beat(c, victor, false),
            None => {
                self.clear_army(c);
                self.st.alive &= !(1 << c);
            }
        }
        self.st.standing[c] = Standing::Conceded {
            victor: victor.map(|v| Kingdom::ALL[v]),
        };
        self.check_victory(mover);
        if self.st.outcome.is_none() {
            self.advance_turn(mover);
        }
        self.hash = self.compute_hash();
    }

    pub(super) fn choose_victor(&self, mover: Kingdom, beaten: usize) -> usize {
        let eligible = self.st.alive & !(1 << beaten) & !self.allies[beaten];
        let mut best = 0;
        let mut mask = 0u8;
        for k in bits(eligible) {
            let s = match self.rules.victor {
                VictorRule::MostOfItsPieces => self.st.captured_from[k][beaten],
                VictorRule::MostCapturesOverall => self.st.captures[k],
            };
            if s > best || mask == 0 {
                best = s;
                mask = 1 << k;
            } else if s == best {
                mask |= 1 << k;
            }
        }
        self.most_recent(mover, mask).index()
    }

    pub(super) fn clear_army(&mut self, k: usize) {
        for i in 0..self.plen[k] as usize {
            self.cells[self.plist[k][i] as usize] = EMPTY;
        }
        self.plen[k] = 0;
    }

    pub(super) fn beat(&mut self, beaten: usize, victor: usize, general_captured: bool) {
        self.st.alive &= !(1 << beaten);
        self.st.kingdoms_taken[victor] += 1;
        self.st.standing[beaten] = Standing::Beaten {
            victor: Kingdom::ALL[victor],
            general_captured,
        };
        match self.rules.beaten_army {
            BeatenArmy::Removed => self.clear_army(beaten),
            BeatenArmy::Transferred | BeatenArmy::TransferredAsCaptures => {
                let n = self.plen[beaten] as usize;
                for i in 0..n {
                    let sq = self.plist[beaten][i] as usize;
                    let code = ((victor as u8) << 4) | (self.cells[sq] & 0x0F);
                    self.put(sq, code);
                }
                self.plen[beaten] = 0;
                if self.rules.beaten_army == BeatenArmy::TransferredAsCaptures {
                    self.st.captures[victor] += n as u16;
                }
            }
        }
    }

    /// After a decisive capture: the kingdom goal, then the capture goal (which, by the rules,
    /// its reacher wins, or which ends the game for the most captures to win), then the last
    /// player left; ties go to the mover's player, else the player that moved most recently.
    pub(super) fn check_victory(&mut self, mover: Kingdom) {
        let goals: [(Victory, u32, &dyn Fn(usize) -> u32); 2] = [
            (
                match self.rules.kingdom_goal {
                    KingdomGoal::TwoGenerals => Victory::Generals,
                    KingdomGoal::TwoKingdoms => Victory::Kingdoms,
                },
                2,
                &|k| self.player_sum(k, |a| self.goal_count(a)),
            ),
            (Victory::Captures, self.rules.capture_goal as u32, &|k| {
                self.player_sum(k, |a| self.st.captures[a] as u32)
            }),
        ];
        let mut found = None;
        for (victory, goal, score) in goals {
            let (best, mask) = self.best_players(score);
            if mask != 0 && best >= goal {
                found = Some((victory, mask));
                break;
            }
        }
        if found.is_some() && self.rules.goal_reached == GoalReached::MostCapturesWin {
            // The goal ends the game; the most captures win it.
            let (_, mask) =
                self.best_players(|k| self.player_sum(k, |a| self.st.captures[a] as u32));
            found = Some((Victory::MostCaptures, mask));
        }
        if found.is_none() && self.single_player_left() {
            found = Some((Victory::LastKingdom, self.st.alive));
        }
        if let Some((victory, mask)) = found {
            let winner = self.most_recent(mover, mask);
            self.st.outcome = Some(Outcome {
                winner,
                player: self.player_of(winner),
                victory,
            });
        }
    }
}
