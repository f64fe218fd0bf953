//! A game's clock: who counts as present, when the player to move is due (their deadline, a
//! correspondence turn's length stopped by holidays), when a stand-in plays or a kingdom
//! passes, and when a game rests (adjourned) because nobody comes.

use qiguo_protocol::{Pace, SeatPlan, WhenOverdue, calendar};

use super::{ADJOURN_AFTER_ROUNDS, DAY_MS, Due, LiveGame, Mover, STAND_IN_LEVEL, SeatsPresent};
use crate::model::StoredSeat;

impl LiveGame {
    /// Whether the player of `seat` counts as present.
    pub(super) fn present(&self, seat: u8, present: SeatsPresent) -> bool {
        match self.seats.get(usize::from(seat)) {
            Some(StoredSeat {
                plan: SeatPlan::Computer(_),
                ..
            }) => true,
            Some(StoredSeat {
                holder: Some(_), ..
            }) => present.get(usize::from(seat)).copied().unwrap_or(false),
            _ => false,
        }
    }

    /// When a stand-in plays (or the kingdom passes) if the player to move does not, ms since
    /// 1970: `None` when a computer is to move, the player is present in a live game, the
    /// game is adjourned or over. A player stood in for on their last turn too is stood in for
    /// at once in a live game.
    pub(crate) fn deadline(&self, present: SeatsPresent) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        let seat = self.seat_to_move();
        if let SeatPlan::Computer(_) = self.seats.get(usize::from(seat))?.plan {
            return None;
        }
        match self.pace {
            Pace::Correspondence { .. } if self.adjourned(present) => None,
            Pace::Correspondence { days, .. } => Some(clock_runs_out(
                self.moved_ms,
                i64::from(days) * DAY_MS,
                &self.seats.get(usize::from(seat))?.holidays,
            )),
            Pace::Live { wait_seconds } => {
                if self.present(seat, present) {
                    return None;
                }
                if self.adjourned(present) {
                    return None;
                }
                let stood_in_last = self.away.get(usize::from(seat)).is_some_and(|&n| n > 0);
                Some(if stood_in_last {
                    self.moved_ms
                } else {
                    self.moved_ms + i64::from(wait_seconds) * 1000
                })
            }
        }
    }

    /// How long after the turn began the server is to act on the game by itself, nobody
    /// being there: at once for a correspondence game's computer, when the days are up for a
    /// correspondence game's person; `None` for a live game (it goes on only while a person is
    /// there, and the server that serves them holds it), an adjourned or finished one. The
    /// database keeps it (`due_ms`), so that a game nobody follows need not be held.
    pub(crate) fn due_in(&self) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        self.due_in_state(self.seat_to_move(), &self.away, self.moved_ms)
    }

    /// [`LiveGame::due_in`] for a turn of `to_move` beginning at `start`, `away` counting the
    /// turns not played by their seats.
    pub(super) fn due_in_state(&self, to_move: u8, away: &[u32], start: i64) -> Option<i64> {
        let Pace::Correspondence { days, .. } = self.pace else {
            return None;
        };
        if self.everyone_away(away) {
            return None;
        }
        let seat = self.seats.get(usize::from(to_move))?;
        match seat.plan {
            SeatPlan::Computer(_) => Some(0),
            _ => Some(clock_runs_out(start, i64::from(days) * DAY_MS, &seat.holidays) - start),
        }
    }

    /// The last day (`YYYY-MM-DD`) of the holiday the player of `seat` is on at `now_ms`.
    pub(crate) fn away_until(&self, seat: u8, now_ms: i64) -> Option<String> {
        let seat = self.seats.get(usize::from(seat))?;
        seat.holidays
            .iter()
            .find(|&&(_, back)| back > now_ms)
            .map(|&(_, back)| calendar::date_text(calendar::day_of(back) - 1))
    }

    /// Whether every person's seat was stood in for or passed on its last
    /// [`ADJOURN_AFTER_ROUNDS`] turns, by the turns `away` counts.
    pub(super) fn everyone_away(&self, away: &[u32]) -> bool {
        self.seats
            .iter()
            .zip(away)
            .filter(|(s, _)| !matches!(s.plan, SeatPlan::Computer(_)))
            .all(|(_, &away)| away >= ADJOURN_AFTER_ROUNDS)
    }

    /// Whether a person holding a seat is present.
    pub(crate) fn attended(&self, present: SeatsPresent) -> bool {
        self.seats
            .iter()
            .enumerate()
            .any(|(i, s)| s.holder.is_some() && present.get(i).copied().unwrap_or(false))
    }

    /// Whether the game rests, nobody being there for it, until a person holding a seat comes
    /// back (a policy of the server: the rules are not changed, nothing is stored). A live game
    /// rests while no person holding a seat is present; a correspondence game once every
    /// person's seat was stood in for or passed on its last [`ADJOURN_AFTER_ROUNDS`] turns, and
    /// nobody holding a seat is present.
    pub(crate) fn adjourned(&self, present: SeatsPresent) -> bool {
        if self.attended(present) {
            return false;
        }
        match self.pace {
            Pace::Live { .. } => true,
            Pace::Correspondence { .. } => self.everyone_away(&self.away),
        }
    }

    /// What is due on the turn at `now_ms`: the computer of a computer's seat, or (its
    /// deadline passed) a stand-in or an overdue pass; `None` when nothing is, or the game is
    /// [adjourned](LiveGame::adjourned).
    pub(crate) fn due(&self, now_ms: i64, present: SeatsPresent) -> Option<Due> {
        if self.is_over() || self.adjourned(present) {
            return None;
        }
        match self.seats.get(usize::from(self.seat_to_move()))?.plan {
            SeatPlan::Computer(level) => Some(Due::Search(level, Mover::Computer)),
            _ => {
                let due = self.deadline(present)?;
                if due > now_ms {
                    return None;
                }
                match self.pace {
                    Pace::Correspondence {
                        overdue: WhenOverdue::Pass,
                        ..
                    } => Some(Due::Pass),
                    _ => Some(Due::Search(STAND_IN_LEVEL, Mover::StandIn)),
                }
            }
        }
    }
}

/// When a clock that runs `run` ms from `start` runs out, stopped while its player is away:
/// `holidays` are moments away and back, in order.
pub(super) fn clock_runs_out(start: i64, run: i64, holidays: &[(i64, i64)]) -> i64 {
    let (mut at, mut left) = (start, run);
    for &(gone, back) in holidays {
        if back <= at {
            continue;
        }
        let gone = gone.max(at);
        if gone - at >= left {
            break;
        }
        left -= gone - at;
        at = back;
    }
    at.saturating_add(left)
}
