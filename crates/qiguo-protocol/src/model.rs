//! The things of an online game that clients and servers name alike: players' and games' ids,
//! who plays each seat, a game's pace, who made a move, and a new game with its one check.

use qiguo_rules::{Game, Level, PlayerInfo, Record};
use serde::{Deserialize, Serialize};

use crate::refusal::Refusal;

/// The longest player name the server keeps, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// Days per move a correspondence game may have: at least.
pub const MIN_DAYS: u8 = 1;

/// Days per move a correspondence game may have: at most.
pub const MAX_DAYS: u8 = 14;

/// A player's id (128 random bits in hex).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub String);

/// A game's id (128 random bits in hex).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GameId(pub String);

/// Who plays a seat of a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatPlan {
    /// Whoever comes with the game's invitation code.
    Open,
    /// The game's creator.
    Creator,
    /// A computer of this level, played by the server.
    Computer(Level),
}

/// What happens when a correspondence move is overdue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenOverdue {
    /// A stand-in computer plays the move.
    StandIn,
    /// The kingdom passes its turn.
    Pass,
}

/// Who made a stored move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MadeBy {
    /// The seat's own player: its person, or the computer of a computer's seat.
    Seat,
    /// A stand-in computer, for a person who was away.
    StandIn,
    /// Nobody: the move was overdue and the kingdom passed ([`qiguo_rules::Game::pass_overdue`]).
    OverduePass,
}

/// How fast a game goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// Everyone at once: a seat waits this many seconds for its player, then a stand-in plays.
    Live {
        /// The wait, in seconds.
        wait_seconds: u32,
    },
    /// A move every so many days.
    Correspondence {
        /// Days per move, 1 to 14.
        days: u8,
        /// What an overdue move becomes.
        overdue: WhenOverdue,
    },
}

/// A new game: its start, who plays each seat, and its pace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The start: rules, seats, players' names, start position; no moves.
    pub start: Record,
    /// Who plays each player number of the record.
    pub seats: Vec<SeatPlan>,
    /// The pace.
    pub pace: Pace,
}

impl NewGame {
    /// A game from `start` (a game with no moves: [`Game::start`] under some rules and
    /// seating, or a position of the player's), played as `plans` say (one per player, in seat
    /// order) at `pace`; `name` gives each seat's name in the record (the creator's own name for
    /// [`SeatPlan::Creator`], a placeholder for the others). Checked as [`NewGame::check`] does.
    pub fn build(
        start: &Game,
        plans: Vec<SeatPlan>,
        pace: Pace,
        name: impl Fn(usize, SeatPlan) -> String,
    ) -> Result<NewGame, Refusal> {
        let players = start.position().seats().player_count();
        if plans.len() != players {
            return Err(Refusal::SeatPlans {
                plans: plans.len() as u32,
                players: players as u32,
            });
        }
        let players = plans
            .iter()
            .enumerate()
            .map(|(i, &plan)| PlayerInfo {
                name: name(i, plan),
                computer: match plan {
                    SeatPlan::Computer(level) => Some(level),
                    SeatPlan::Open | SeatPlan::Creator => None,
                },
            })
            .collect();
        let game = NewGame {
            start: Record::from_game(start, players),
            seats: plans,
            pace,
        };
        game.check()?;
        Ok(game)
    }

    /// Whether the server can make this game: a pace in bounds, one plan per player, no moves,
    /// a start the rules accept, names a player may have.
    pub fn check(&self) -> Result<(), Refusal> {
        self.pace.check()?;
        if self.seats.is_empty() || self.seats.len() != self.start.players.len() {
            return Err(Refusal::SeatPlans {
                plans: self.seats.len() as u32,
                players: self.start.players.len() as u32,
            });
        }
        if !self.start.moves.is_empty() {
            return Err(Refusal::BadStart {
                why: "a new game has no moves".into(),
            });
        }
        for player in &self.start.players {
            clean_name(&player.name)?;
        }
        self.start
            .replay()
            .map_err(|e| Refusal::BadStart { why: e.to_string() })?;
        Ok(())
    }
}

impl Pace {
    /// Whether the pace is one the server keeps: 1 to 14 days per move by correspondence.
    pub fn check(&self) -> Result<(), Refusal> {
        match *self {
            Pace::Correspondence { days, .. } if !(MIN_DAYS..=MAX_DAYS).contains(&days) => {
                Err(Refusal::Days {
                    days,
                    min: MIN_DAYS,
                    max: MAX_DAYS,
                })
            }
            _ => Ok(()),
        }
    }
}

/// A player's name as the server keeps it: trimmed, without control characters, not empty,
/// at most [`MAX_NAME_CHARS`] characters.
pub fn clean_name(name: &str) -> Result<String, Refusal> {
    let name: String = name.trim().chars().filter(|c| !c.is_control()).collect();
    if name.is_empty() {
        return Err(Refusal::NameEmpty);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Refusal::NameTooLong {
            max: MAX_NAME_CHARS as u32,
        });
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use qiguo_rules::{Preset, Rules, Seats};

    use super::*;

    fn plans(n: usize) -> Vec<SeatPlan> {
        let mut plans = vec![SeatPlan::Computer(Level::Random); n];
        plans[0] = SeatPlan::Creator;
        plans
    }

    #[test]
    fn a_new_game_is_built_and_checked_once() {
        let live = Pace::Live { wait_seconds: 60 };
        let start = Game::start(Rules::preset(Preset::Classic), Seats::seven());
        let game = NewGame::build(&start, plans(7), live, |i, _| format!("P{i}")).unwrap();
        assert_eq!(game.start.players.len(), 7);
        assert_eq!(game.start.players[3].computer, Some(Level::Random));
        assert_eq!(
            NewGame::build(&start, plans(6), live, |i, _| format!("P{i}")),
            Err(Refusal::SeatPlans {
                plans: 6,
                players: 7
            })
        );
        let slow = Pace::Correspondence {
            days: 15,
            overdue: WhenOverdue::Pass,
        };
        assert_eq!(
            NewGame::build(&start, plans(7), slow, |i, _| format!("P{i}")),
            Err(Refusal::Days {
                days: 15,
                min: 1,
                max: 14
            })
        );
        let unnamed = NewGame::build(&start, plans(7), live, |_, _| " ".into());
        assert_eq!(unnamed, Err(Refusal::NameEmpty));
        let mut moved = game.clone();
        moved.start.moves.push("f3a8".into());
        assert!(matches!(moved.check(), Err(Refusal::BadStart { .. })));
    }

    #[test]
    fn names_are_trimmed_cleaned_and_bounded() {
        assert_eq!(clean_name("  Ann\u{7}  ").unwrap(), "Ann");
        assert_eq!(clean_name("\t\n"), Err(Refusal::NameEmpty));
        assert_eq!(clean_name(&"x".repeat(40)).unwrap().len(), 40);
        assert_eq!(
            clean_name(&"x".repeat(41)),
            Err(Refusal::NameTooLong { max: 40 })
        );
    }
}
