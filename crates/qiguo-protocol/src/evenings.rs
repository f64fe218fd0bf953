//! Club evenings: an organiser of a club sets a time, the club's members say they come, and at
//! that time the people present (who said they come and are connected) are seated at tables of
//! seven — as even as their count allows, by rating or at random as the organiser chose, the
//! kingdoms nobody takes held by computers. A member who comes late takes a computer's kingdom
//! in one of the evening's games, as quick play seats a newcomer, for
//! [`LATECOMERS_WITHIN_MINUTES`] after the start. A client shows the time in its player's own
//! time zone and offers it as a calendar file ([`calendar_file`]).

use serde::{Deserialize, Serialize};

use crate::model::{GameId, QuickPace};
use crate::refusal::Refusal;
use qiguo_rules::{Level, Preset};

/// How far ahead an evening may be set, in days.
pub const EVENING_AHEAD_DAYS: u32 = 180;
/// The most evenings a club has planned (not yet begun) at once.
pub const EVENINGS_PLANNED: u32 = 20;
/// How long after an evening begins a member who comes late is still seated, in minutes.
pub const LATECOMERS_WITHIN_MINUTES: u32 = 120;
/// How long before an evening those who said they come are reminded, in minutes.
pub const REMINDED_BEFORE_MINUTES: u32 = 30;
/// The most evenings a list carries.
pub const EVENINGS_LISTED: usize = 50;

/// An evening's id.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EveningId(pub String);

/// How the people present are put at the evening's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seating {
    /// The strongest together: ordered by their live rating, each table the next few.
    ByRating,
    /// Drawn by lot.
    AtRandom,
}

impl Seating {
    /// Its word on the command line and in the protocol.
    pub fn word(self) -> &'static str {
        match self {
            Seating::ByRating => "by_rating",
            Seating::AtRandom => "at_random",
        }
    }
}

/// What an evening plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EveningPlay {
    /// The rules.
    pub preset: Preset,
    /// The pace: a live one ([`QuickPace::Brisk`] or [`QuickPace::Calm`]).
    pub pace: QuickPace,
    /// The computers' level in the kingdoms nobody takes.
    pub level: Level,
    /// How the people are seated.
    pub seating: Seating,
    /// Whether its games count for the ratings.
    pub rated: bool,
}

/// A new evening, as an organiser asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EveningSpec {
    /// The club's name.
    pub club: String,
    /// When it begins, in milliseconds since 1970.
    pub at_ms: i64,
    /// What it plays.
    pub play: EveningPlay,
}

impl EveningSpec {
    /// Whether a server sets such an evening at `now` (ms since 1970): a time to come and
    /// within [`EVENING_AHEAD_DAYS`], a live pace, computers that search.
    pub fn check(&self, now: i64) -> Result<(), Refusal> {
        if self.at_ms <= now {
            return Err(Refusal::EveningPast);
        }
        if self.at_ms - now > i64::from(EVENING_AHEAD_DAYS) * crate::calendar::DAY_MS {
            return Err(Refusal::EveningTooFar {
                days: EVENING_AHEAD_DAYS,
            });
        }
        if !matches!(self.play.pace.pace(), crate::model::Pace::Live { .. }) {
            return Err(Refusal::EveningNotLive);
        }
        if self.play.level == Level::Random {
            return Err(Refusal::TableLevel);
        }
        Ok(())
    }
}

/// Where an evening stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EveningState {
    /// To come: members say whether they come.
    Planned,
    /// Begun: its tables play, and latecomers are seated.
    Playing,
    /// Over: latecomers are seated no more.
    Over,
    /// Called off by an organiser.
    Cancelled,
}

/// One of an evening's tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EveningTable {
    /// Its game.
    pub game: GameId,
    /// Its game's code, to watch it.
    pub code: String,
    /// The people seated at it, in turn order.
    pub people: Vec<String>,
}

/// An evening as a client sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EveningView {
    /// Its id.
    pub id: EveningId,
    /// The club's name.
    pub club: String,
    /// The organiser who set it.
    pub by: String,
    /// When it begins, in milliseconds since 1970.
    pub at_ms: i64,
    /// What it plays.
    pub play: EveningPlay,
    /// Where it stands.
    pub state: EveningState,
    /// The members who said they come, in the order they said it.
    pub coming: Vec<String>,
    /// Whether the asker said they come.
    pub you_come: bool,
    /// Its tables, once begun.
    #[serde(default)]
    pub tables: Vec<EveningTable>,
    /// The asker's game in it, if they were seated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub your_game: Option<GameId>,
}

/// How many tables, and how many people at each, for `people` people: the fewest tables of at
/// most seven, as even as the count allows (the first tables take one more). Nobody is left
/// without a table; a lone person plays among six computers.
pub fn table_sizes(people: usize) -> Vec<usize> {
    if people == 0 {
        return Vec::new();
    }
    let tables = people.div_ceil(7);
    let (each, more) = (people / tables, people % tables);
    (0..tables).map(|t| each + usize::from(t < more)).collect()
}

/// An evening as a calendar file (iCalendar, RFC 5545) of one event of two hours, its time in
/// UTC (a calendar shows it in its own time zone), its unique id made of the evening's and the
/// server's (`host`). Lines end in CRLF; text is escaped as the format asks.
pub fn calendar_file(evening: &EveningView, host: &str, stamp_ms: i64) -> String {
    let escape = |text: &str| {
        text.chars()
            .map(|c| match c {
                '\\' => "\\\\".to_owned(),
                ';' => "\\;".to_owned(),
                ',' => "\\,".to_owned(),
                '\n' => "\\n".to_owned(),
                c if c.is_control() => String::new(),
                c => c.to_string(),
            })
            .collect::<String>()
    };
    let end = evening.at_ms + i64::from(LATECOMERS_WITHIN_MINUTES) * 60_000;
    let lines = [
        "BEGIN:VCALENDAR".to_owned(),
        "VERSION:2.0".to_owned(),
        "PRODID:-//Qiguo//Club evening//EN".to_owned(),
        "BEGIN:VEVENT".to_owned(),
        format!("UID:{}@{}", evening.id.0, escape(host)),
        format!("DTSTAMP:{}", utc_text(stamp_ms)),
        format!("DTSTART:{}", utc_text(evening.at_ms)),
        format!("DTEND:{}", utc_text(end)),
        format!("SUMMARY:{}", escape(&format!("{}: Qiguo", evening.club))),
        format!(
            "DESCRIPTION:{}",
            escape(&format!(
                "Tables of seven at {} ({:?}, {}).",
                host,
                evening.play.pace,
                evening.play.seating.word()
            ))
        ),
        "END:VEVENT".to_owned(),
        "END:VCALENDAR".to_owned(),
    ];
    let mut text = String::new();
    for line in lines {
        text.push_str(&fold(&line));
        text.push_str("\r\n");
    }
    text
}

/// A moment written as iCalendar's UTC date-time (`20261201T190000Z`).
fn utc_text(ms: i64) -> String {
    let day = crate::calendar::day_of(ms);
    let (y, m, d) = crate::calendar::civil(day);
    let seconds = (ms - crate::calendar::start_of(day)) / 1000;
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// A content line folded at 75 octets (RFC 5545 §3.1), never inside a character.
fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3);
    let mut width = 0;
    for c in line.chars() {
        if width + c.len_utf8() > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_as_even_as_the_count_allows() {
        assert_eq!(table_sizes(0), Vec::<usize>::new());
        assert_eq!(table_sizes(1), vec![1]);
        assert_eq!(table_sizes(7), vec![7]);
        assert_eq!(table_sizes(8), vec![4, 4]);
        assert_eq!(table_sizes(13), vec![7, 6]);
        assert_eq!(table_sizes(15), vec![5, 5, 5]);
        assert_eq!(table_sizes(22), vec![6, 6, 5, 5]);
        for people in 1..400 {
            let sizes = table_sizes(people);
            assert_eq!(sizes.iter().sum::<usize>(), people);
            assert_eq!(sizes.len(), people.div_ceil(7));
            let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(max - min <= 1 && *max <= 7, "{people}: {sizes:?}");
        }
    }

    fn play() -> EveningPlay {
        EveningPlay {
            preset: Preset::Classic,
            pace: QuickPace::Calm,
            level: Level::Medium,
            seating: Seating::ByRating,
            rated: true,
        }
    }

    #[test]
    fn an_evening_is_to_come_within_half_a_year_and_live() {
        let now = 1_800_000_000_000;
        let spec = |at_ms, play| EveningSpec {
            club: "Jade Hall".into(),
            at_ms,
            play,
        };
        assert_eq!(spec(now + 60_000, play()).check(now), Ok(()));
        assert_eq!(spec(now, play()).check(now), Err(Refusal::EveningPast));
        assert_eq!(spec(now - 1, play()).check(now), Err(Refusal::EveningPast));
        assert_eq!(
            spec(now + 181 * crate::calendar::DAY_MS, play()).check(now),
            Err(Refusal::EveningTooFar { days: 180 })
        );
        let daily = EveningPlay {
            pace: QuickPace::Daily,
            ..play()
        };
        assert_eq!(
            spec(now + 60_000, daily).check(now),
            Err(Refusal::EveningNotLive)
        );
        let random = EveningPlay {
            level: Level::Random,
            ..play()
        };
        assert_eq!(
            spec(now + 60_000, random).check(now),
            Err(Refusal::TableLevel)
        );
    }

    #[test]
    fn an_evening_is_a_calendar_event_in_utc() {
        // 2026-12-01 19:30 UTC.
        let at_ms = 1_796_153_400_000;
        let evening = EveningView {
            id: EveningId("ev1".into()),
            club: "Jade Hall; Tuesdays, at eight".into(),
            by: "Ann".into(),
            at_ms,
            play: play(),
            state: EveningState::Planned,
            coming: vec![],
            you_come: true,
            tables: vec![],
            your_game: None,
        };
        let text = calendar_file(&evening, "qiguo.example.org", at_ms - 86_400_000);
        assert!(
            text.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"),
            "{text}"
        );
        assert!(text.ends_with("END:VEVENT\r\nEND:VCALENDAR\r\n"));
        assert!(text.contains("\r\nDTSTART:20261201T193000Z\r\n"), "{text}");
        assert!(text.contains("\r\nDTEND:20261201T213000Z\r\n"));
        assert!(text.contains("\r\nDTSTAMP:20261130T193000Z\r\n"));
        assert!(text.contains("UID:ev1@qiguo.example.org\r\n"));
        assert!(text.contains("SUMMARY:Jade Hall\\; Tuesdays\\, at eight: Qiguo\r\n"));
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{line}");
        }
        let long = EveningView {
            club: "棋".repeat(40),
            ..evening
        };
        let text = calendar_file(&long, "qiguo.example.org", at_ms);
        let unfolded = text.replace("\r\n ", "");
        assert!(unfolded.contains(&format!("SUMMARY:{}: Qiguo", "棋".repeat(40))));
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{line}");
        }
    }
}
