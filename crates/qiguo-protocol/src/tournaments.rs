//! Tournaments of tables: something to play for. Two formats, public (the server's operator
//! sets them, once or every so many days) or a club's own (set by its organisers):
//!
//! - **Swiss by tables** ([`TournamentFormat::Swiss`]), by correspondence: a number of rounds;
//!   each round seats every player still in at tables of seven by standing — the leaders at the
//!   first table — avoiding opponents met before; computers hold the kingdoms nobody takes, so
//!   nobody sits a round out (no byes). A round ends when its games have ended or at its
//!   deadline ([`round_days`]), when the games still going end as by agreement (the most
//!   captures wins; the others standing share the next place).
//! - **Arena** ([`TournamentFormat::Arena`]), live: for [`TournamentSpec::minutes`] from its
//!   start, a player whose part in a game is over (their kingdoms fallen or conceded, or the
//!   game ended) is seated again as soon as a table can start: seven waiting, or one waiting
//!   [`ARENA_WAIT_SECONDS`], with computers in the empty kingdoms.
//!
//! **Points by place**, in halves ([`Standing::points`]): in each game a person gets two for each
//! other kingdom's seat they finished ahead of, one for each they tied with — six points to the
//! winner of a full table, none to the first to fall, the table's points always the same in
//! sum. A person who leaves keeps the points of their place when they left (a computer plays on
//! in their seat). **Streak** (arena): after two good games in a row (points of at least
//! [`GOOD_GAME_HALVES`], a top three of seven, with at least [`STREAK_MOVES`] moves of their
//! own), each further good game counts double. **Tie-breaks**: points, then first places, then
//! the points of the people met (each meeting once), then the earlier to join.

use serde::{Deserialize, Serialize};

use crate::model::{GameId, Pace, QuickPace, cleaned};
use crate::refusal::Refusal;
use qiguo_rules::{Level, Preset};

/// The most characters of a tournament's name.
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 40;
/// How far ahead a tournament may be set to start, in days.
pub const TOURNAMENT_AHEAD_DAYS: u32 = 180;
/// The most rounds of a Swiss.
pub const MAX_ROUNDS: u8 = 15;
/// The shortest and longest arena, in minutes.
pub const ARENA_MINUTES: (u32, u32) = (15, 720);
/// The fewest and most players a tournament may be set to take.
pub const TOURNAMENT_PLAYERS: (u32, u32) = (2, 1000);
/// How long a person of an arena waits at most for six others before computers fill their
/// table, in seconds.
pub const ARENA_WAIT_SECONDS: u32 = 20;
/// A game's points (halves) that make it good for a streak: ahead of four of six others.
pub const GOOD_GAME_HALVES: u32 = 8;
/// The moves of their own a person makes in a game for it to count towards a streak.
pub const STREAK_MOVES: u32 = 10;
/// The most standings a tournament's view carries (the asker's own besides).
pub const STANDINGS_LISTED: usize = 100;
/// The standings an event of changed standings carries (the person's own besides).
pub const STANDINGS_TOLD: usize = 10;
/// The most tournaments a list carries.
pub const TOURNAMENTS_LISTED: usize = 50;

/// How many days a Swiss round of `pace` lasts at most: time for a game of seven at that pace
/// (about thirty moves each, most made within the day) before its deadline ends it.
pub fn round_days(pace: QuickPace) -> u32 {
    match pace {
        QuickPace::Relaxed => 42,
        _ => 14,
    }
}

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentFormat {
    /// Rounds by correspondence, tables by standing.
    Swiss,
    /// A window of live play, seated again at once.
    Arena,
}

impl TournamentFormat {
    /// Its word on the command line and in the protocol.
    pub fn word(self) -> &'static str {
        match self {
            TournamentFormat::Swiss => "swiss",
            TournamentFormat::Arena => "arena",
        }
    }
}

/// What a tournament plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentPlay {
    /// The rules.
    pub preset: Preset,
    /// The pace: by correspondence for a Swiss, live for an arena.
    pub pace: QuickPace,
    /// The computers' level in the kingdoms nobody takes.
    pub level: Level,
    /// Whether its games count for the ratings.
    pub rated: bool,
}

/// A new tournament, as an organiser (or the operator) sets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSpec {
    /// Its name, unique on the server (compared folded, as players' names are).
    pub name: String,
    /// Swiss or arena.
    pub format: TournamentFormat,
    /// What it plays.
    pub play: TournamentPlay,
    /// When it starts, in milliseconds since 1970.
    pub starts_ms: i64,
    /// A Swiss's rounds (an arena: 0).
    #[serde(default)]
    pub rounds: u8,
    /// An arena's length in minutes (a Swiss: 0).
    #[serde(default)]
    pub minutes: u32,
    /// The most players it takes.
    pub most: u32,
    /// The club whose own it is; `None`: public (the operator's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
}

impl TournamentSpec {
    /// The spec as a server sets it at `now` (ms since 1970): its name cleaned, a start to come
    /// within [`TOURNAMENT_AHEAD_DAYS`], a Swiss by correspondence of 1 to [`MAX_ROUNDS`]
    /// rounds, an arena live of [`ARENA_MINUTES`], [`TOURNAMENT_PLAYERS`], computers that search.
    pub fn cleaned(&self, now: i64) -> Result<TournamentSpec, Refusal> {
        let name = clean_tournament_name(&self.name)?;
        if self.starts_ms <= now {
            return Err(Refusal::TournamentPast);
        }
        if self.starts_ms - now > i64::from(TOURNAMENT_AHEAD_DAYS) * crate::calendar::DAY_MS {
            return Err(Refusal::TournamentTooFar {
                days: TOURNAMENT_AHEAD_DAYS,
            });
        }
        let live = matches!(self.play.pace.pace(), Pace::Live { .. });
        match self.format {
            TournamentFormat::Swiss if live => return Err(Refusal::TournamentPace),
            TournamentFormat::Arena if !live => return Err(Refusal::TournamentPace),
            TournamentFormat::Swiss if !(1..=MAX_ROUNDS).contains(&self.rounds) => {
                return Err(Refusal::TournamentRounds { max: MAX_ROUNDS });
            }
            TournamentFormat::Arena
                if !(ARENA_MINUTES.0..=ARENA_MINUTES.1).contains(&self.minutes) =>
            {
                return Err(Refusal::ArenaMinutes {
                    min: ARENA_MINUTES.0,
                    max: ARENA_MINUTES.1,
                });
            }
            _ => {}
        }
        if !(TOURNAMENT_PLAYERS.0..=TOURNAMENT_PLAYERS.1).contains(&self.most) {
            return Err(Refusal::TournamentPlayers {
                min: TOURNAMENT_PLAYERS.0,
                max: TOURNAMENT_PLAYERS.1,
            });
        }
        if self.play.level == Level::Random {
            return Err(Refusal::TableLevel);
        }
        let (rounds, minutes) = match self.format {
            TournamentFormat::Swiss => (self.rounds, 0),
            TournamentFormat::Arena => (0, self.minutes),
        };
        Ok(TournamentSpec {
            name,
            rounds,
            minutes,
            ..self.clone()
        })
    }
}

/// A tournament's name as the server keeps it and looks it up: trimmed, without control,
/// format or separator characters, not empty, at most [`MAX_TOURNAMENT_NAME_CHARS`].
pub fn clean_tournament_name(name: &str) -> Result<String, Refusal> {
    let max = MAX_TOURNAMENT_NAME_CHARS as u32;
    cleaned(
        name,
        MAX_TOURNAMENT_NAME_CHARS,
        Refusal::TournamentName { max },
        |max| Refusal::TournamentName { max },
    )
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentState {
    /// To start: players join.
    Entering,
    /// Under way (a Swiss's round is [`TournamentView::round`]).
    Playing,
    /// Over: its standings are final.
    Over,
}

/// One line of a tournament's standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// The place, from 1 (the tie-breaks decide between equal points).
    pub place: u32,
    /// The player's name.
    pub name: String,
    /// Points, in halves (`13` is six and a half).
    pub points: u32,
    /// Games scored.
    pub games: u32,
    /// First places.
    pub firsts: u32,
    /// The points of the people met, in halves (the third tie-break).
    pub met: u32,
    /// Good games in a row now (an arena's streak).
    #[serde(default)]
    pub streak: u32,
    /// Left the tournament: plays no more of it.
    #[serde(default)]
    pub left: bool,
}

impl Standing {
    /// The points as shown: `6½`-style text without a fraction character (`6.5`).
    pub fn points_text(&self) -> String {
        halves_text(self.points)
    }
}

/// Points in halves as shown: `6` or `6.5`.
pub fn halves_text(halves: u32) -> String {
    if halves.is_multiple_of(2) {
        format!("{}", halves / 2)
    } else {
        format!("{}.5", halves / 2)
    }
}

/// One of a player's games in a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentGame {
    /// The game.
    pub game: GameId,
    /// Its code, to watch it.
    pub code: String,
    /// Its round (an arena: its number among the player's games).
    pub round: u32,
    /// The player's place, once it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<u8>,
    /// The points it gave, in halves, once it ended (doubled by a streak).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

/// A tournament as a client sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentView {
    /// Its name.
    pub name: String,
    /// Swiss or arena.
    pub format: TournamentFormat,
    /// What it plays.
    pub play: TournamentPlay,
    /// When it starts, in milliseconds since 1970.
    pub starts_ms: i64,
    /// A Swiss's rounds.
    pub rounds: u8,
    /// An arena's length in minutes.
    pub minutes: u32,
    /// The most players it takes.
    pub most: u32,
    /// The club whose own it is (`None`: public).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// Where it stands.
    pub state: TournamentState,
    /// A Swiss's round under way (0 before the first).
    pub round: u8,
    /// When the round under way (a Swiss) or the play (an arena) ends, ms since 1970.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_ms: Option<i64>,
    /// How many joined (and have not left).
    pub players: u32,
    /// The standings, the leader first, at most [`STANDINGS_LISTED`].
    pub standings: Vec<Standing>,
    /// The asker's own line, when they joined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Standing>,
    /// The asker's games in it, the latest first.
    #[serde(default)]
    pub your_games: Vec<TournamentGame>,
    /// Once over: the winners (those sharing the first place).
    #[serde(default)]
    pub winners: Vec<String>,
}

/// A tournament in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentListed {
    /// Its name.
    pub name: String,
    /// Swiss or arena.
    pub format: TournamentFormat,
    /// Its pace.
    pub pace: QuickPace,
    /// When it starts, ms since 1970.
    pub starts_ms: i64,
    /// Where it stands.
    pub state: TournamentState,
    /// How many joined.
    pub players: u32,
    /// The most it takes.
    pub most: u32,
    /// The club whose own it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// Whether the asker joined.
    pub joined: bool,
}

/// A tournament's standings changed (a game of it was scored, a round began, it ended): told
/// to its players, at most once a second.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingsNews {
    /// The tournament's name.
    pub tournament: String,
    /// Where it stands now.
    pub state: TournamentState,
    /// A Swiss's round.
    pub round: u8,
    /// The leaders, at most [`STANDINGS_TOLD`].
    pub leaders: Vec<Standing>,
    /// The player's own line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Standing>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn swiss() -> TournamentSpec {
        TournamentSpec {
            name: "  Autumn Swiss ".into(),
            format: TournamentFormat::Swiss,
            play: TournamentPlay {
                preset: Preset::Classic,
                pace: QuickPace::Daily,
                level: Level::Medium,
                rated: true,
            },
            starts_ms: NOW + 60_000,
            rounds: 5,
            minutes: 30,
            most: 343,
            club: None,
        }
    }

    #[test]
    fn a_swiss_is_by_correspondence_and_an_arena_live() {
        let cleaned = swiss().cleaned(NOW).unwrap();
        assert_eq!(cleaned.name, "Autumn Swiss");
        assert_eq!(
            (cleaned.rounds, cleaned.minutes),
            (5, 0),
            "a Swiss has no minutes"
        );
        let live = |mut spec: TournamentSpec| {
            spec.play.pace = QuickPace::Brisk;
            spec
        };
        assert_eq!(live(swiss()).cleaned(NOW), Err(Refusal::TournamentPace));
        let arena = TournamentSpec {
            format: TournamentFormat::Arena,
            ..live(swiss())
        };
        let cleaned = arena.cleaned(NOW).unwrap();
        assert_eq!((cleaned.rounds, cleaned.minutes), (0, 30));
        assert_eq!(
            TournamentSpec {
                format: TournamentFormat::Arena,
                ..swiss()
            }
            .cleaned(NOW),
            Err(Refusal::TournamentPace)
        );
        assert_eq!(
            TournamentSpec {
                minutes: 5,
                ..arena.clone()
            }
            .cleaned(NOW),
            Err(Refusal::ArenaMinutes { min: 15, max: 720 })
        );
    }

    #[test]
    fn bad_tournaments_are_refused() {
        let with = |f: fn(&mut TournamentSpec)| {
            let mut spec = swiss();
            f(&mut spec);
            spec.cleaned(NOW)
        };
        assert_eq!(with(|s| s.starts_ms = NOW), Err(Refusal::TournamentPast));
        assert_eq!(
            with(|s| s.starts_ms = NOW + 181 * crate::calendar::DAY_MS),
            Err(Refusal::TournamentTooFar { days: 180 })
        );
        assert_eq!(
            with(|s| s.rounds = 0),
            Err(Refusal::TournamentRounds { max: 15 })
        );
        assert_eq!(
            with(|s| s.rounds = 16),
            Err(Refusal::TournamentRounds { max: 15 })
        );
        assert_eq!(
            with(|s| s.most = 1),
            Err(Refusal::TournamentPlayers { min: 2, max: 1000 })
        );
        assert_eq!(
            with(|s| s.name = " \u{200b} ".into()),
            Err(Refusal::TournamentName { max: 40 })
        );
        assert_eq!(
            with(|s| s.name = "x".repeat(41)),
            Err(Refusal::TournamentName { max: 40 })
        );
        assert_eq!(
            with(|s| s.play.level = Level::Random),
            Err(Refusal::TableLevel)
        );
    }

    #[test]
    fn points_are_shown_in_halves() {
        assert_eq!(halves_text(12), "6");
        assert_eq!(halves_text(13), "6.5");
        assert_eq!(halves_text(0), "0");
    }
}
