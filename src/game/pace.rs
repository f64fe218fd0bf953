//! The pace of the game (a setting): how long the board waits before a computer's move and how
//! quickly the stones glide. Whatever the pace, a computer's search starts as soon as the move
//! before it is decided (see [`crate::game::computer`]); the pace only decides how the moves are
//! shown.

use std::time::Duration;

use bevy::prelude::*;

use crate::game::preferences::{KeepSetting, KeptSetting, Preferences};
use crate::game::state::Mover;
pub use crate::settings::PaceChoice;

/// The pace in use.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pace(pub PaceChoice);

impl KeptSetting for Pace {
    fn apply(&mut self, prefs: &Preferences) {
        self.0 = prefs.settings.pace;
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.pace = self.0;
    }
}

impl Pace {
    /// The least time between the end of one move's glide and a computer's next move.
    pub fn pause(self) -> Duration {
        match self.0 {
            PaceChoice::Calm => Duration::from_millis(700),
            PaceChoice::Brisk => Duration::from_millis(100),
            PaceChoice::Instant => Duration::ZERO,
        }
    }

    /// How long the glides of a move by `by` take, as a share of their full length (0: the
    /// stones are put in place at once).
    pub fn glide_share(self, by: Mover) -> f32 {
        match (self.0, by) {
            (PaceChoice::Calm, _) => 1.0,
            (PaceChoice::Instant, Mover::Computer(_)) => 0.0,
            (PaceChoice::Brisk | PaceChoice::Instant, _) => 0.35,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Pace>().keep_setting::<Pace>();
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::Level;

    #[test]
    fn quicker_paces_wait_less_and_glide_faster() {
        let computer = Mover::Computer(Level::Medium);
        let paces = PaceChoice::ALL.map(Pace);
        for pair in paces.windows(2) {
            assert!(pair[0].pause() > pair[1].pause());
            assert!(pair[0].glide_share(computer) > pair[1].glide_share(computer));
        }
        // A person's own move still glides at the quickest pace.
        assert!(Pace(PaceChoice::Instant).glide_share(Mover::Person) > 0.0);
    }
}
