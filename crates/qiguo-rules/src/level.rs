//! Computer players' levels, as game records name them. How each level searches is the
//! computer players' business (`qiguo-ai`); the rules crate only names them, so that a record
//! says which seats computers play and at what level.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How strongly a computer player plays. In a record it is written by its [`name`](Level::name)
/// (`"medium"`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Any legal move, uniformly at random (a baseline for measuring the others).
    Random,
    /// Looks at its own move and the captures that follow, and often picks a move that is
    /// merely good.
    Easy,
    /// Looks at its own move and the captures that follow, and plays the best.
    #[default]
    Medium,
    /// Looks at its own move, the most dangerous reply and its next move, and deeper as its
    /// time allows; plays its best move.
    Hard,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Hard];

    /// The level's name: `random`, `easy`, `medium`, `hard`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a level's name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level `{}`: expected random, easy, medium or hard",
            self.0
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseLevelError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for l in Level::ALL {
            assert_eq!(l.name().parse::<Level>(), Ok(l));
            assert_eq!(l.to_string(), l.name());
        }
        assert!("grandmaster".parse::<Level>().is_err());
    }

    #[test]
    fn a_level_is_written_by_its_name() {
        assert_eq!(serde_json::to_string(&Level::Hard).unwrap(), "\"hard\"");
        assert_eq!(
            serde_json::from_str::<Level>("\"easy\"").unwrap(),
            Level::Easy
        );
        assert!(serde_json::from_str::<Level>("\"genius\"").is_err());
    }
}
