//! What each level means for the search: its time, its node budget, how deep it looks and how
//! much variety it allows. The levels themselves are named by the rules crate
//! ([`qiguo_rules::Level`]), since game records name them.

use std::time::Duration;

use qiguo_rules::Level;

/// A level's search budget and style.
pub trait LevelSearch {
    /// How long a move may take by default.
    fn movetime(self) -> Duration;
    /// How many positions a move may visit when strength is measured by work rather than by
    /// time (`qiguo-selfplay --nodes`), so that results do not depend on the machine or its
    /// load.
    fn nodes(self) -> u64;
    /// The deepest iteration searched (full moves of the player, and best replies).
    fn max_depth(self) -> u32;
    /// Root moves scoring within this many centipawns of the best may be chosen at random.
    fn tolerance(self) -> i32;
}

impl LevelSearch for Level {
    fn movetime(self) -> Duration {
        match self {
            Level::Random => Duration::ZERO,
            Level::Easy => Duration::from_millis(200),
            Level::Medium => Duration::from_millis(300),
            Level::Hard => Duration::from_millis(1500),
        }
    }

    fn nodes(self) -> u64 {
        match self {
            Level::Random => 0,
            Level::Easy => 100_000,
            Level::Medium => 100_000,
            Level::Hard => 2_000_000,
        }
    }

    fn max_depth(self) -> u32 {
        match self {
            Level::Random => 0,
            Level::Easy => 1,
            Level::Medium => 1,
            Level::Hard => 64,
        }
    }

    fn tolerance(self) -> i32 {
        match self {
            Level::Random => i32::MAX,
            Level::Easy => 900,
            Level::Medium => 0,
            Level::Hard => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strength_grows_with_the_level() {
        assert!(Level::Easy.tolerance() > Level::Medium.tolerance());
        assert!(Level::Medium.max_depth() < Level::Hard.max_depth());
        assert!(Level::Medium.movetime() < Level::Hard.movetime());
        assert!(Level::Medium.nodes() < Level::Hard.nodes());
    }
}
