//! Game records: the rules, the seats and players, the start position as 7K FEN and the moves,
//! saved as JSON. A record holds no derived state; loading replays every move, so a record
//! that loads is a legal game.
//!
//! ```
//! use qiguo_rules::{notation, Game, PlayerInfo, Record, Rules};
//! let mut game = Game::start(Rules::default(), Default::default());
//! game.play(notation::parse_move("e10e5").unwrap()).unwrap();
//! let record = Record::from_game(&game, PlayerInfo::defaults(7));
//! let json = record.to_json();
//! let loaded = Record::from_json(&json).unwrap().replay().unwrap();
//! assert_eq!(loaded.position(), game.position());
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Game, Level, Position, Preset, Rules, RulesError, Seats, fen, notation};

/// The value of a record's `format` field.
pub const RECORD_FORMAT: &str = "qiguo-record";

/// The record version this crate writes and reads.
pub const RECORD_VERSION: u32 = 1;

/// A player at the table.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerInfo {
    /// The name shown for the player.
    pub name: String,
    /// For a computer player, its level (written `"medium"`); `None` for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<Level>,
}

impl PlayerInfo {
    /// `count` human players named "Player 1", "Player 2", ….
    pub fn defaults(count: usize) -> Vec<PlayerInfo> {
        (1..=count)
            .map(|i| PlayerInfo {
                name: format!("Player {i}"),
                computer: None,
            })
            .collect()
    }
}

/// A saved game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// The format version, [`RECORD_VERSION`].
    pub version: u32,
    /// The preset the rules come from, if they equal one. If `rules` is missing, the preset's
    /// rules apply; if both are present they must agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// The rule options in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// Which player holds each kingdom, in turn order (`null` for an empty kingdom).
    pub seats: Seats,
    /// The players, indexed by the numbers in `seats`.
    pub players: Vec<PlayerInfo>,
    /// The start position, 7K FEN.
    pub start: String,
    /// The moves, in move text (`f3a8`, `--`).
    pub moves: Vec<String>,
    /// Whether the players ended the game early by agreement.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ended_early: bool,
    /// Hints shown to each kingdom's player, in turn order (Qin first); empty when none was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<u32>,
    /// The numbers (from 0) of the moves that were passes because the move was overdue (online
    /// games by correspondence; see [`Game::pass_overdue`]), each written `--` in `moves`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overdue: Vec<u32>,
}

/// Why a record could not be read or replayed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordError {
    /// The text is not JSON, or not a record.
    Json(String),
    /// The `format` field is not [`RECORD_FORMAT`].
    Format(String),
    /// The record was written by a newer version of the game.
    Version(u32),
    /// The rules are missing, out of range, or disagree with the preset.
    Rules(RulesError),
    /// The seats or players do not fit together.
    Seats(String),
    /// The start position is not valid.
    Start(String),
    /// A move cannot be read or is illegal.
    Move {
        /// Index of the move in the record, from 0.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it was refused.
        why: String,
    },
    /// `ended_early` is set but the game was already over.
    EndedEarly,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Json(e) => write!(f, "not a readable game record: {e}"),
            RecordError::Format(found) => write!(
                f,
                "not a Qiguo game record: format is `{found}`, expected `{RECORD_FORMAT}`"
            ),
            RecordError::Version(v) => write!(
                f,
                "the record has version {v}, newer than this game reads (up to {RECORD_VERSION})"
            ),
            RecordError::Rules(e) => write!(f, "bad rules in record: {e}"),
            RecordError::Seats(e) => write!(f, "bad seats in record: {e}"),
            RecordError::Start(e) => write!(f, "bad start position in record: {e}"),
            RecordError::Move { index, text, why } => {
                write!(f, "move {} (`{text}`) in record: {why}", index + 1)
            }
            RecordError::EndedEarly => {
                write!(
                    f,
                    "the record says the game was ended early, but it was already over"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The record of `game` with these players.
    pub fn from_game(game: &Game, players: Vec<PlayerInfo>) -> Record {
        let start = game.start_position();
        let rules = *start.rules();
        Record {
            format: RECORD_FORMAT.to_owned(),
            version: RECORD_VERSION,
            preset: rules.matching_preset(),
            rules: Some(rules),
            seats: *start.seats(),
            players,
            start: start.to_fen(),
            moves: game.moves().map(|m| m.to_string()).collect(),
            ended_early: game.ended_early(),
            hints: Vec::new(),
            overdue: game.overdue_passes().iter().map(|&n| n as u32).collect(),
        }
    }

    /// The hints shown to each kingdom's player, by kingdom index (none where the record does
    /// not say).
    pub fn hints_by_kingdom(&self) -> [u32; 7] {
        let mut out = [0; 7];
        for (slot, n) in out.iter_mut().zip(&self.hints) {
            *slot = *n;
        }
        out
    }

    /// The record as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("records always serialize")
    }

    /// Reads a record from JSON, checking its format and version first so that a file from a
    /// newer game or another program gets a clear message. Does not replay it.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))?;
        let obj = value
            .as_object()
            .ok_or_else(|| RecordError::Json("expected a JSON object".into()))?;
        match obj.get("format").and_then(|f| f.as_str()) {
            Some(RECORD_FORMAT) => {}
            Some(other) => return Err(RecordError::Format(other.to_owned())),
            None => return Err(RecordError::Format("(missing)".into())),
        }
        match obj.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v > RECORD_VERSION as u64 => {
                return Err(RecordError::Version(v.min(u32::MAX as u64) as u32));
            }
            Some(v) if v >= 1 => {}
            _ => {
                return Err(RecordError::Json(
                    "`version` must be a positive integer".into(),
                ));
            }
        }
        serde_json::from_value(value).map_err(|e| RecordError::Json(e.to_string()))
    }

    /// The rules this record is played under.
    pub fn effective_rules(&self) -> Result<Rules, RecordError> {
        let rules = match (self.preset, self.rules) {
            (_, Some(rules)) => {
                if let Some(p) = self.preset
                    && Rules::preset(p) != rules
                {
                    return Err(RecordError::Rules(RulesError::DiffersFromPreset(p)));
                }
                rules
            }
            (Some(p), None) => Rules::preset(p),
            (None, None) => {
                return Err(RecordError::Rules(RulesError::Missing));
            }
        };
        rules.validate().map_err(RecordError::Rules)?;
        Ok(rules)
    }

    /// Replays the record into a game, checking everything: rules, seats against players,
    /// the start position and every move.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let rules = self.effective_rules()?;
        if self.players.len() != self.seats.player_count() {
            return Err(RecordError::Seats(format!(
                "{} players are named but the seats need {}",
                self.players.len(),
                self.seats.player_count()
            )));
        }
        let setup = fen::parse(&self.start).map_err(|e| RecordError::Start(e.to_string()))?;
        let start = Position::new(&setup, rules, self.seats)
            .map_err(|e| RecordError::Start(e.to_string()))?;
        let mut game = Game::new(start);
        if let Some(&index) = self
            .overdue
            .iter()
            .find(|&&n| n as usize >= self.moves.len())
        {
            return Err(RecordError::Move {
                index: index as usize,
                text: String::new(),
                why: "listed as an overdue pass, but the record has no such move".into(),
            });
        }
        let mut index = 0;
        notation::play_list(
            self.moves.iter().map(String::as_str),
            notation::parse_move,
            |mv| {
                let overdue = self.overdue.contains(&index);
                index += 1;
                match (overdue, mv.is_pass()) {
                    (true, true) => game.pass_overdue().map(|_| ()).map_err(|e| e.to_string()),
                    (true, false) => Err("an overdue pass is written --".to_owned()),
                    (false, _) => game.play(mv).map(|_| ()).map_err(|e| e.to_string()),
                }
            },
        )
        .map_err(|e| RecordError::Move {
            index: e.index,
            text: e.text,
            why: e.why,
        })?;
        if self.ended_early && game.end_early().is_none() {
            return Err(RecordError::EndedEarly);
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        let game = Game::start(Rules::default(), Seats::seven());
        Record::from_game(&game, PlayerInfo::defaults(7))
    }

    #[test]
    fn overdue_passes_are_kept_and_replayed() {
        let mut game = Game::start(Rules::default(), Seats::seven());
        game.play(game.position().legal_moves()[0]).unwrap();
        game.pass_overdue().unwrap();
        game.play(game.position().legal_moves()[3]).unwrap();
        let record = Record::from_game(&game, PlayerInfo::defaults(7));
        assert_eq!(record.overdue, vec![1]);
        assert_eq!(record.moves[1], "--");
        let read = Record::from_json(&record.to_json()).unwrap();
        let again = read.replay().unwrap();
        assert_eq!(again.position().to_fen(), game.position().to_fen());
        assert_eq!(again.overdue_passes(), &[1]);
        // Without the list, the pass is illegal (the kingdom had moves); a listed move that is
        // not a pass, or a number past the moves, is refused.
        let mut plain = read.clone();
        plain.overdue.clear();
        assert!(matches!(
            plain.replay(),
            Err(RecordError::Move { index: 1, .. })
        ));
        let mut wrong = read.clone();
        wrong.overdue = vec![2];
        assert!(matches!(
            wrong.replay(),
            Err(RecordError::Move { index: 1, .. })
        ));
        let mut past = read;
        past.overdue = vec![9];
        assert!(matches!(
            past.replay(),
            Err(RecordError::Move { index: 9, .. })
        ));
        // Undone and redone, the pass stays an overdue pass.
        game.undo();
        game.undo();
        assert!(game.overdue_passes().is_empty());
        game.redo();
        assert_eq!(game.overdue_passes(), &[1]);
    }

    #[test]
    fn json_shape() {
        let json = sample().to_json();
        assert!(json.contains("\"format\": \"qiguo-record\""));
        assert!(json.contains("\"preset\": \"classic\""));
        assert!(json.contains("\"beaten_at_losses\": 11"));
    }

    #[test]
    fn records_from_before_the_ludii_options_still_read() {
        // Written before `cannon_screen` and `goal_reached` existed: they read as any screen and
        // the reacher wins, so the record still names its preset.
        let json = sample().to_json();
        assert!(json.contains("\"cannon_screen\": \"any\""));
        assert!(json.contains("\"goal_reached\": \"reacher_wins\""));
        let old = json
            .lines()
            .filter(|l| !l.contains("cannon_screen") && !l.contains("goal_reached"))
            .collect::<Vec<_>>()
            .join("\n")
            .replace("\"setup\": \"leventhal\",", "\"setup\": \"leventhal\"");
        let read = Record::from_json(&old).expect("an old record reads");
        assert_eq!(*read.replay().unwrap().position().rules(), Rules::default());
        // A `ludii` record keeps its options.
        let game = Game::start(Rules::preset(Preset::Ludii), Seats::seven());
        let json = Record::from_game(&game, PlayerInfo::defaults(7)).to_json();
        assert!(json.contains("\"preset\": \"ludii\""));
        assert!(json.contains("\"cannon_screen\": \"own_kingdom\""));
        let read = Record::from_json(&json).unwrap();
        assert_eq!(
            *read.replay().unwrap().position().rules(),
            Rules::preset(Preset::Ludii)
        );
    }

    #[test]
    fn bad_records_are_refused_with_reasons() {
        let good = sample();
        let cases: Vec<(String, &str)> = vec![
            ("".into(), "not a readable"),
            ("[1,2]".into(), "JSON object"),
            (
                "{\"format\":\"pgn\",\"version\":1}".into(),
                "format is `pgn`",
            ),
            ("{\"version\":1}".into(), "(missing)"),
            (
                "{\"format\":\"qiguo-record\",\"version\":7}".into(),
                "version 7, newer",
            ),
            (
                "{\"format\":\"qiguo-record\",\"version\":\"1\"}".into(),
                "positive integer",
            ),
            (good.to_json()[..40].to_string(), "not a readable"),
            (
                good.to_json().replace("\"moves\"", "\"movez\""),
                "not a readable",
            ),
        ];
        for (text, expect) in cases {
            let e = Record::from_json(&text).unwrap_err().to_string();
            assert!(e.contains(expect), "{text:?}: {e}");
        }
    }

    #[test]
    fn hints_are_kept_only_when_some_were_shown() {
        let game = Game::start(Rules::default(), Seats::seven());
        let mut record = Record::from_game(&game, PlayerInfo::defaults(7));
        assert!(
            !record.to_json().contains("hints"),
            "none shown: not written"
        );
        assert_eq!(record.hints_by_kingdom(), [0; 7]);
        record.hints = vec![2, 0, 1];
        let back = Record::from_json(&record.to_json()).unwrap();
        assert_eq!(back.hints_by_kingdom(), [2, 0, 1, 0, 0, 0, 0]);
    }

    #[test]
    fn replay_checks_everything() {
        let mut r = sample();
        r.moves = vec!["e10e5".into(), "e10e6".into()];
        let e = r.replay().unwrap_err();
        assert!(matches!(e, RecordError::Move { index: 1, .. }), "{e}");
        assert!(e.to_string().starts_with("move 2 (`e10e6`)"));

        let mut r = sample();
        r.moves = vec!["e10".into()];
        assert!(matches!(
            r.replay(),
            Err(RecordError::Move { index: 0, .. })
        ));

        let mut r = sample();
        r.players.pop();
        assert!(matches!(r.replay(), Err(RecordError::Seats(_))));

        let mut r = sample();
        r.start = "19 w".into();
        assert!(matches!(r.replay(), Err(RecordError::Start(_))));

        let mut r = sample();
        r.preset = Some(Preset::Leventhal);
        assert!(matches!(r.replay(), Err(RecordError::Rules(_))));

        let mut r = sample();
        r.rules = None;
        r.preset = None;
        assert!(matches!(r.replay(), Err(RecordError::Rules(_))));

        let mut r = sample();
        r.rules = None;
        r.preset = Some(Preset::Leventhal);
        assert_eq!(
            *r.replay().unwrap().position().rules(),
            Rules::preset(Preset::Leventhal)
        );
    }
}
