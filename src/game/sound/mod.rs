//! What the table should hear, decided from the game (and testable without a sound device): a
//! stone set down when a move has been shown, a capture, a kingdom beaten, victory, and a short
//! cue when a person's turn starts. The `sound` feature's player turns cues into sound.

#[cfg(feature = "sound")]
pub(crate) mod player;

use bevy::prelude::*;

use crate::game::awareness::{PersonTurnStarted, assess_turn};
use crate::game::preferences::{KeepSetting, KeptSetting, Preferences};
use crate::game::schedule::AppSystems;
use crate::game::state::{Match, MoveShown};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SoundSettings>()
        .keep_setting::<SoundSettings>()
        .add_message::<SoundCue>()
        .add_message::<ToggleMute>()
        .add_systems(
            Update,
            (
                toggle_mute.in_set(AppSystems::RecordInput),
                cue_moves.in_set(AppSystems::Animate),
                cue_turns.after(assess_turn).in_set(AppSystems::SyncView),
            ),
        );
}

/// A sound the table should hear.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoundCue {
    /// A stone set down on the board.
    Stone,
    /// A stone taken.
    Capture,
    /// A kingdom beaten.
    Beaten,
    /// The game won.
    Victory,
    /// A person's turn has started.
    YourTurn,
}

impl KeptSetting for SoundSettings {
    fn apply(&mut self, prefs: &Preferences) {
        self.volume = prefs.settings.volume;
        self.muted = prefs.settings.muted;
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.volume = self.volume;
        settings.muted = self.muted;
    }
}

/// How loud the game is (kept between sessions).
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct SoundSettings {
    /// Volume from 0 to 1.
    pub volume: f32,
    /// Silent, whatever the volume.
    pub muted: bool,
}

impl Default for SoundSettings {
    fn default() -> SoundSettings {
        SoundSettings {
            volume: 0.7,
            muted: false,
        }
    }
}

impl SoundSettings {
    /// The volume sounds play at now.
    pub fn effective(&self) -> f32 {
        if self.muted {
            0.0
        } else {
            self.volume.clamp(0.0, 1.0)
        }
    }
}

/// Mutes or unmutes (a key or the toolbar).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ToggleMute;

fn toggle_mute(mut toggles: MessageReader<ToggleMute>, mut settings: ResMut<SoundSettings>) {
    if toggles.read().count() % 2 == 1 {
        settings.muted = !settings.muted;
    }
}

/// The cues of a move that has just been shown: the stone set down or the capture, then what
/// fell and the end of the game.
fn cue_moves(
    mut shown: MessageReader<MoveShown>,
    the_match: Res<Match>,
    mut cues: MessageWriter<SoundCue>,
) {
    if shown.read().count() == 0 {
        return;
    }
    let Some(report) = the_match.game().last_report() else {
        return;
    };
    cues.write(if report.captured.is_some() {
        SoundCue::Capture
    } else {
        SoundCue::Stone
    });
    if report.fallen.is_some() {
        cues.write(SoundCue::Beaten);
    }
    if report.outcome.is_some() {
        cues.write(SoundCue::Victory);
    }
}

/// A short cue when a person's turn starts (not the first turn of a game).
fn cue_turns(mut started: MessageReader<PersonTurnStarted>, mut cues: MessageWriter<SoundCue>) {
    for start in started.read() {
        if start.turn.ply > 0 {
            cues.write(SoundCue::YourTurn);
        }
    }
}
