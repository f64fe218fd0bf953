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

/// Seconds a live game's seat may wait for its player before a stand-in plays: at least.
pub const MIN_WAIT_SECONDS: u32 = 10;

/// Seconds a live game's seat may wait for its player before a stand-in plays: at most.
pub const MAX_WAIT_SECONDS: u32 = 600;

/// The most characters a line of table talk has.
pub const MAX_TALK_CHARS: usize = 500;

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

/// The paces of quick play ("Play now"): a game that starts at once with computers in the other
/// kingdoms, which people who ask later for the same pace take over. Two live, two by
/// correspondence; the computers' level is fixed per pace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuickPace {
    /// Live, a seat waiting 30 s for its person before a stand-in plays: a game in one sitting
    /// (about a minute a round with seven people), against Easy computers that answer at once.
    Brisk,
    /// Live, 3 minutes a move: time to think on a phone or between other things, against
    /// Medium computers.
    Calm,
    /// By correspondence, a day a move, a stand-in for an overdue move (so that one absent
    /// person never holds six up), against Medium computers.
    Daily,
    /// By correspondence, three days a move, a stand-in for an overdue move, against Hard
    /// computers (their time costs nothing at this pace).
    Relaxed,
}

impl QuickPace {
    /// Every quick pace, the quickest first.
    pub const ALL: [QuickPace; 4] = [
        QuickPace::Brisk,
        QuickPace::Calm,
        QuickPace::Daily,
        QuickPace::Relaxed,
    ];

    /// The game's pace.
    pub fn pace(self) -> Pace {
        match self {
            QuickPace::Brisk => Pace::Live { wait_seconds: 30 },
            QuickPace::Calm => Pace::Live { wait_seconds: 180 },
            QuickPace::Daily => Pace::Correspondence {
                days: 1,
                overdue: WhenOverdue::StandIn,
            },
            QuickPace::Relaxed => Pace::Correspondence {
                days: 3,
                overdue: WhenOverdue::StandIn,
            },
        }
    }

    /// The level of the computers in its games.
    pub fn level(self) -> Level {
        match self {
            QuickPace::Brisk => Level::Easy,
            QuickPace::Calm | QuickPace::Daily => Level::Medium,
            QuickPace::Relaxed => Level::Hard,
        }
    }

    /// Its name on the wire and on the command line (`brisk`, `calm`, `daily`, `relaxed`).
    pub fn name(self) -> &'static str {
        match self {
            QuickPace::Brisk => "brisk",
            QuickPace::Calm => "calm",
            QuickPace::Daily => "daily",
            QuickPace::Relaxed => "relaxed",
        }
    }
}

/// The pace families rated apart: a person's skill at a game in one sitting and at a game
/// over weeks are different skills, so each has its own rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingFamily {
    /// Live games ([`Pace::Live`]).
    Live,
    /// Games by correspondence ([`Pace::Correspondence`]).
    Correspondence,
}

impl RatingFamily {
    /// Both families.
    pub const ALL: [RatingFamily; 2] = [RatingFamily::Live, RatingFamily::Correspondence];

    /// The family of games at `pace`.
    pub fn of(pace: &Pace) -> RatingFamily {
        match pace {
            Pace::Live { .. } => RatingFamily::Live,
            Pace::Correspondence { .. } => RatingFamily::Correspondence,
        }
    }

    /// Its name on the wire, in the database and on the command line (`live`,
    /// `correspondence`).
    pub fn name(self) -> &'static str {
        match self {
            RatingFamily::Live => "live",
            RatingFamily::Correspondence => "correspondence",
        }
    }
}

/// A name that is no family of paces.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a family of paces: live or correspondence")]
pub struct NotAFamily(pub String);

impl std::str::FromStr for RatingFamily {
    type Err = NotAFamily;

    fn from_str(text: &str) -> Result<RatingFamily, NotAFamily> {
        RatingFamily::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| NotAFamily(text.to_owned()))
    }
}

/// A rating as shown beside a name: points on a scale where a new player has 1500.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingShown {
    /// The points.
    pub points: i64,
    /// Too few games are known for them to mean much yet (shown with a `?`).
    pub provisional: bool,
    /// Rated games played in the family (0 for a computer, whose rating is fixed).
    pub games: u32,
    /// Rated games the player left (a computer took their kingdom over, absent past the grace),
    /// in every family: their reliability is the share of their rated games they did not leave.
    #[serde(default)]
    pub left: u32,
}

impl RatingShown {
    /// The share of rated games played to the end (not left), in percent; `None` before the
    /// first.
    pub fn reliability(&self) -> Option<u32> {
        let played = self.games.max(self.left);
        (played > 0).then(|| (played - self.left) * 100 / played)
    }
}

impl std::fmt::Display for RatingShown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.points)?;
        if self.provisional {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// A name that is no quick pace.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a pace: brisk, calm, daily or relaxed")]
pub struct NotAPace(pub String);

impl std::str::FromStr for QuickPace {
    type Err = NotAPace;

    fn from_str(text: &str) -> Result<QuickPace, NotAPace> {
        QuickPace::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| NotAPace(text.to_owned()))
    }
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

    /// Whether the server can make this game: a pace in bounds, one plan per player, a seat
    /// for at least one person, a start the rules accept that has not begun (no moves, hints
    /// or passes) and is not over, names a player may have, each as [`clean_name`] leaves it.
    pub fn check(&self) -> Result<(), Refusal> {
        self.pace.check()?;
        if self.seats.is_empty() || self.seats.len() != self.start.players.len() {
            return Err(Refusal::SeatPlans {
                plans: self.seats.len() as u32,
                players: self.start.players.len() as u32,
            });
        }
        if self
            .seats
            .iter()
            .all(|plan| matches!(plan, SeatPlan::Computer(_)))
        {
            return Err(Refusal::NoPerson);
        }
        let begun = if !self.start.moves.is_empty() {
            Some("a new game has no moves")
        } else if !self.start.hints.is_empty() || !self.start.overdue.is_empty() {
            Some("a new game has no hints or passes yet")
        } else if self.start.ended_early {
            Some("a new game is not over")
        } else {
            None
        };
        if let Some(why) = begun {
            return Err(Refusal::BadStart { why: why.into() });
        }
        for player in &self.start.players {
            if clean_name(&player.name)? != player.name {
                return Err(Refusal::NameCharacters);
            }
        }
        let game = self
            .start
            .replay()
            .map_err(|e| Refusal::BadStart { why: e.to_string() })?;
        if game.outcome().is_some() {
            return Err(Refusal::BadStart {
                why: "a new game is not over".into(),
            });
        }
        Ok(())
    }

    /// This game with every name in its record as [`clean_name`] leaves it (what a client
    /// should send), checked as [`NewGame::check`] does.
    pub fn cleaned(mut self) -> Result<NewGame, Refusal> {
        for player in &mut self.start.players {
            player.name = clean_name(&player.name)?;
        }
        self.check()?;
        Ok(self)
    }
}

impl Pace {
    /// Whether the pace is one the server keeps: [`MIN_DAYS`] to [`MAX_DAYS`] days per move
    /// by correspondence, a wait of [`MIN_WAIT_SECONDS`] to [`MAX_WAIT_SECONDS`] live.
    pub fn check(&self) -> Result<(), Refusal> {
        match *self {
            Pace::Correspondence { days, .. } if !(MIN_DAYS..=MAX_DAYS).contains(&days) => {
                Err(Refusal::Days {
                    days,
                    min: MIN_DAYS,
                    max: MAX_DAYS,
                })
            }
            Pace::Live { wait_seconds }
                if !(MIN_WAIT_SECONDS..=MAX_WAIT_SECONDS).contains(&wait_seconds) =>
            {
                Err(Refusal::Wait {
                    seconds: wait_seconds,
                    min: MIN_WAIT_SECONDS,
                    max: MAX_WAIT_SECONDS,
                })
            }
            _ => Ok(()),
        }
    }

    /// The nearest pace [`Pace::check`] accepts (for games stored before the bounds).
    pub fn bounded(self) -> Pace {
        match self {
            Pace::Correspondence { days, overdue } => Pace::Correspondence {
                days: days.clamp(MIN_DAYS, MAX_DAYS),
                overdue,
            },
            Pace::Live { wait_seconds } => Pace::Live {
                wait_seconds: wait_seconds.clamp(MIN_WAIT_SECONDS, MAX_WAIT_SECONDS),
            },
        }
    }
}

/// Whether `c` may not stand in a name: a control character (Unicode's Cc), a format character
/// (Cf: the invisible ones, and those that turn text around, such as U+202E), or a line or
/// paragraph separator (Zl, Zp).
pub fn unfit_in_name(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    matches!(
        get_general_category(c),
        G::Control | G::Format | G::LineSeparator | G::ParagraphSeparator
    )
}

/// A name folded for comparison, so that names a reader could take for one another are one:
/// public names are unique on a server as folded. Full-width forms read as their ASCII; a
/// capital I as an l (they look alike), then everything in lower case; Cyrillic and Greek letters
/// that look like Latin ones as those; `0` as `o` and `1` and `|` as `l`; accents (combining
/// marks) dropped; spaces, `_`, `-` and `.` dropped (`Ann Lee` is `annlee`). Folding is not
/// shown anywhere: the name is kept as the player wrote it.
///
/// ```
/// use qiguo_protocol::model::fold_name;
/// assert_eq!(fold_name("Ann"), fold_name("aNN"));
/// assert_eq!(fold_name("Ann"), fold_name("\u{0410}nn")); // a Cyrillic А
/// assert_eq!(fold_name("Ill"), fold_name("lll"));
/// assert_eq!(fold_name("Bo_1"), fold_name("bol"));
/// assert_ne!(fold_name("Ann"), fold_name("Anna"));
/// assert_eq!(fold_name("趙雲"), "趙雲");
/// ```
pub fn fold_name(name: &str) -> String {
    let mut folded = String::with_capacity(name.len());
    for c in name.chars() {
        // Full-width ASCII (U+FF01 to U+FF5E) as ASCII.
        let c = match u32::from(c) {
            n @ 0xFF01..=0xFF5E => char::from_u32(n - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        let c = if c == 'I' { 'l' } else { c };
        for c in c.to_lowercase() {
            let c = match c {
                // Cyrillic.
                'а' => 'a',
                'в' => 'b',
                'е' | 'ё' => 'e',
                'к' => 'k',
                'м' => 'm',
                'н' => 'h',
                'о' => 'o',
                'р' => 'p',
                'с' => 'c',
                'т' => 't',
                'у' => 'y',
                'х' => 'x',
                'і' | 'ї' => 'i',
                'ј' => 'j',
                'ѕ' => 's',
                'ԁ' => 'd',
                'ӏ' => 'l',
                // Greek.
                'α' => 'a',
                'β' => 'b',
                'ε' => 'e',
                'η' => 'n',
                'ι' => 'i',
                'κ' => 'k',
                'ν' => 'v',
                'ο' => 'o',
                'ρ' => 'p',
                'τ' => 't',
                'υ' => 'u',
                'χ' => 'x',
                'ζ' => 'z',
                // Digits and marks.
                '0' => 'o',
                '1' | '|' => 'l',
                c => c,
            };
            let combining = matches!(u32::from(c), 0x0300..=0x036F);
            if !(combining || c.is_whitespace() || matches!(c, '_' | '-' | '.')) {
                folded.push(c);
            }
        }
    }
    folded
}

/// A player's name as the server keeps it: without control, format or separator characters
/// ([`unfit_in_name`]), trimmed, not empty, at most [`MAX_NAME_CHARS`] characters.
pub fn clean_name(name: &str) -> Result<String, Refusal> {
    cleaned(name, MAX_NAME_CHARS, Refusal::NameEmpty, |max| {
        Refusal::NameTooLong { max }
    })
}

/// A line of table talk as the server keeps it: without control, format or separator
/// characters (as a name), trimmed, not empty, at most [`MAX_TALK_CHARS`] characters.
pub fn clean_talk(text: &str) -> Result<String, Refusal> {
    cleaned(text, MAX_TALK_CHARS, Refusal::TalkEmpty, |max| {
        Refusal::TalkTooLong { max }
    })
}

/// `text` without [unfit characters](unfit_in_name), trimmed: refused `empty` when nothing is
/// left, `too_long(max)` when more than `max` characters are.
pub(crate) fn cleaned(
    text: &str,
    max: usize,
    empty: Refusal,
    too_long: impl FnOnce(u32) -> Refusal,
) -> Result<String, Refusal> {
    let text: String = text.chars().filter(|&c| !unfit_in_name(c)).collect();
    let text = text.trim().to_owned();
    if text.is_empty() {
        return Err(empty);
    }
    if text.chars().count() > max {
        return Err(too_long(max as u32));
    }
    Ok(text)
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
        // Format characters (a right-to-left override, a zero-width space, a byte-order mark)
        // and line and paragraph separators go; what they leave is trimmed.
        assert_eq!(clean_name("\u{202E}nnA\u{200B}").unwrap(), "nnA");
        assert_eq!(clean_name("Bo\u{2028}\u{2029} \u{FEFF}").unwrap(), "Bo");
        assert_eq!(
            clean_name("\u{202E}\u{2066}\u{1b}"),
            Err(Refusal::NameEmpty)
        );
        // Letters of every script stay, with the spaces between words.
        assert_eq!(clean_name("秦 王 Zhèng").unwrap(), "秦 王 Zhèng");
        assert!(unfit_in_name('\u{E0001}') && !unfit_in_name('é'));
        assert_eq!(clean_name("\t\n"), Err(Refusal::NameEmpty));
        assert_eq!(clean_name(&"x".repeat(40)).unwrap().len(), 40);
        assert_eq!(
            clean_name(&"x".repeat(41)),
            Err(Refusal::NameTooLong { max: 40 })
        );
    }
}
