//! Playing strengths and what they mean for the search.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How strongly a computer player plays.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Level {
    /// Any legal move, uniformly at random (a baseline for measuring the others).
    Random,
    /// Looks at its own move and the captures that follow, and often picks a move that is
    /// merely good (within nine points of the best).
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

    /// The level's name for players.
    pub const fn title(self) -> &'static str {
        match self {
            Level::Random => "Random",
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Hard => "Hard",
        }
    }

    /// How long a move may take by default.
    pub const fn movetime(self) -> Duration {
        match self {
            Level::Random => Duration::ZERO,
            Level::Easy => Duration::from_millis(200),
            Level::Medium => Duration::from_millis(300),
            Level::Hard => Duration::from_millis(1500),
        }
    }

    /// How many positions a move may visit when strength is measured by work rather than by
    /// time (`qiguo selfplay --nodes`), so that results do not depend on the machine or its
    /// load. The build machine searches about 500,000 positions a second.
    pub const fn nodes(self) -> u64 {
        match self {
            Level::Random => 0,
            Level::Easy => 100_000,
            Level::Medium => 100_000,
            Level::Hard => 2_000_000,
        }
    }

    /// The deepest iteration searched (full moves of the player, and best replies).
    pub const fn max_depth(self) -> u32 {
        match self {
            Level::Random => 0,
            Level::Easy => 1,
            Level::Medium => 1,
            Level::Hard => 64,
        }
    }

    /// Root moves scoring within this many centipawns of the best may be chosen at random.
    pub const fn tolerance(self) -> i32 {
        match self {
            Level::Random => i32::MAX,
            Level::Easy => 900,
            Level::Medium => 0,
            Level::Hard => 0,
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
    fn names_round_trip_and_strength_grows() {
        for l in Level::ALL {
            assert_eq!(l.name().parse::<Level>(), Ok(l));
        }
        assert!("grandmaster".parse::<Level>().is_err());
        assert!(Level::Easy.tolerance() > Level::Medium.tolerance());
        assert!(Level::Medium.max_depth() < Level::Hard.max_depth());
        assert!(Level::Medium.movetime() < Level::Hard.movetime());
        assert!(Level::Medium.nodes() < Level::Hard.nodes());
    }
}
