//! The lobby: public tables people create and join, the quick games to watch, and the counts of
//! people online, playing and waiting at each pace — one view every client following the lobby
//! is sent again whenever it changes.

use qiguo_rules::{Level, Preset};
use serde::{Deserialize, Serialize};

use crate::model::{GameId, Pace, QuickPace, RatingShown};
use crate::refusal::Refusal;

/// A public table's id (128 random bits in hex).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TableId(pub String);

/// The fewest and most seats of a table that are for people.
pub const TABLE_PEOPLE: std::ops::RangeInclusive<u8> = 2..=7;

/// The shortest and longest a table waits to fill, in minutes (a minute to a week).
pub const TABLE_WAIT_MINUTES: std::ops::RangeInclusive<u32> = 1..=10_080;

/// How many open tables one person may sit at at once.
pub const TABLES_AT_ONCE: u32 = 3;

/// How many open tables, and quick games to watch, the lobby lists at most.
pub const LOBBY_LISTED: usize = 50;

/// What happens to a table that has not filled by its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenUnfilled {
    /// The game starts, computers (of the table's level) in the empty seats.
    Computers,
    /// The table closes; nobody plays.
    Close,
}

/// The ratings (shown points, both ends included) of the people a table takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingRange {
    /// The lowest.
    pub min: i64,
    /// The highest.
    pub max: i64,
}

/// A public table as its creator sets it: the game it starts once its seats for people are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// The rules.
    pub preset: Preset,
    /// The pace.
    pub pace: Pace,
    /// How many of the seven kingdoms are for people ([`TABLE_PEOPLE`]); computers hold the
    /// others from the start.
    pub people: u8,
    /// The computers' level.
    pub level: Level,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// Only people rated within this range may sit down (in the pace's family); `None`: anyone.
    #[serde(default)]
    pub ratings: Option<RatingRange>,
    /// How long the table waits to fill, in minutes ([`TABLE_WAIT_MINUTES`]).
    pub wait_minutes: u32,
    /// What happens if it has not filled by then.
    pub unfilled: WhenUnfilled,
}

impl TableSpec {
    /// Whether the server keeps such a table: the pace's bounds, [`TABLE_PEOPLE`],
    /// [`TABLE_WAIT_MINUTES`], a rating range whose ends are in order, computers that search
    /// (not the random baseline).
    pub fn check(&self) -> Result<(), Refusal> {
        self.pace.check()?;
        if !TABLE_PEOPLE.contains(&self.people) {
            return Err(Refusal::TablePeople {
                people: u32::from(self.people),
                min: u32::from(*TABLE_PEOPLE.start()),
                max: u32::from(*TABLE_PEOPLE.end()),
            });
        }
        if !TABLE_WAIT_MINUTES.contains(&self.wait_minutes) {
            return Err(Refusal::TableWait {
                minutes: self.wait_minutes,
                min: *TABLE_WAIT_MINUTES.start(),
                max: *TABLE_WAIT_MINUTES.end(),
            });
        }
        if let Some(range) = self.ratings
            && range.min > range.max
        {
            return Err(Refusal::RatingRange {
                min: range.min,
                max: range.max,
            });
        }
        if self.level == Level::Random {
            return Err(Refusal::TableLevel);
        }
        Ok(())
    }

    /// Whether a person of `rating` may sit down.
    pub fn takes(&self, rating: i64) -> bool {
        self.ratings
            .is_none_or(|range| (range.min..=range.max).contains(&rating))
    }
}

/// A person sitting at a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablePerson {
    /// Their public name.
    pub name: String,
    /// Their rating in the table's pace family.
    pub rating: RatingShown,
}

/// A public table as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableView {
    /// Its id.
    pub id: TableId,
    /// What it plays.
    pub spec: TableSpec,
    /// Who created it.
    pub host: String,
    /// The people sitting at it, in the order they sat down (the host first): they take the
    /// kingdoms in turn order.
    pub seated: Vec<TablePerson>,
    /// When it stops waiting, in milliseconds since 1970.
    pub fill_by_ms: i64,
    /// The game it started, once full (or at its time, with computers).
    #[serde(default)]
    pub game: Option<GameId>,
    /// The club whose own table it is: shown in the club's view, not the lobby, and only its
    /// members sit at it. `None`: a public table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
}

/// How many people play, and wait, at one quick pace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaceCount {
    /// The pace.
    pub pace: QuickPace,
    /// People holding a kingdom in a quick game of the pace under way.
    pub playing: u32,
    /// People waiting for company: alone among computers in a quick game of the pace, or
    /// sitting at an open table of its pace.
    pub waiting: u32,
}

/// A quick game under way that anyone may watch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchView {
    /// The game.
    pub game: GameId,
    /// Its code, to watch it with ([`crate::Ask::Watch`]).
    pub code: String,
    /// Its pace.
    pub pace: QuickPace,
    /// The people playing it.
    pub people: Vec<String>,
    /// Moves played.
    pub moves: u32,
}

/// The lobby, as every client following it is sent it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyView {
    /// People connected now, on every server of the database.
    pub online: u32,
    /// Per quick pace, the quickest first.
    pub paces: Vec<PaceCount>,
    /// The open tables, the soonest to close first, at most [`LOBBY_LISTED`].
    pub tables: Vec<TableView>,
    /// Quick games with two people or more, the most recently moved first, at most
    /// [`LOBBY_LISTED`].
    pub games: Vec<WatchView>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> TableSpec {
        TableSpec {
            preset: Preset::Classic,
            pace: Pace::Live { wait_seconds: 60 },
            people: 4,
            level: Level::Medium,
            rated: true,
            ratings: Some(RatingRange {
                min: 1200,
                max: 1800,
            }),
            wait_minutes: 30,
            unfilled: WhenUnfilled::Computers,
        }
    }

    #[test]
    fn a_table_is_checked_before_it_is_kept() {
        assert_eq!(spec().check(), Ok(()));
        let table = |f: fn(&mut TableSpec)| {
            let mut t = spec();
            f(&mut t);
            t.check()
        };
        assert!(matches!(
            table(|t| t.people = 1),
            Err(Refusal::TablePeople {
                people: 1,
                min: 2,
                max: 7
            })
        ));
        assert!(matches!(
            table(|t| t.people = 8),
            Err(Refusal::TablePeople { .. })
        ));
        assert!(matches!(
            table(|t| t.wait_minutes = 0),
            Err(Refusal::TableWait { minutes: 0, .. })
        ));
        assert!(matches!(
            table(|t| t.ratings = Some(RatingRange {
                min: 1600,
                max: 1400
            })),
            Err(Refusal::RatingRange {
                min: 1600,
                max: 1400
            })
        ));
        assert!(matches!(
            table(|t| t.level = Level::Random),
            Err(Refusal::TableLevel)
        ));
        assert!(matches!(
            table(|t| t.pace = Pace::Live { wait_seconds: 1 }),
            Err(Refusal::Wait { .. })
        ));
    }

    #[test]
    fn a_rating_range_takes_its_ends_and_no_range_takes_everyone() {
        let t = spec();
        assert!(t.takes(1200) && t.takes(1800) && t.takes(1500));
        assert!(!t.takes(1199) && !t.takes(1801));
        let open = TableSpec {
            ratings: None,
            ..spec()
        };
        assert!(open.takes(0) && open.takes(3000));
    }

    #[test]
    fn a_table_reads_back_as_written() {
        let text = serde_json::to_string(&spec()).unwrap();
        assert_eq!(serde_json::from_str::<TableSpec>(&text).unwrap(), spec());
        assert!(text.contains("\"unfilled\":\"computers\""), "{text}");
    }
}
