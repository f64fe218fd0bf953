//! Sound (the `sound` feature): plays the cues the game decides on, with sounds made by
//! `tools/make-sounds.py`, embedded in the binary on the desktop and fetched beside the wasm in
//! a page (`crate::browser::sounds`: they do not hold up the first board). Where there is no sound
//! device Bevy's audio logs one warning and the game stays silent.

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

use crate::game::schedule::AppSystems;
use crate::game::sound::{SoundCue, SoundSettings};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_sounds)
        .add_systems(Update, play_cues.in_set(AppSystems::UpdateHud));
    #[cfg(target_arch = "wasm32")]
    app.add_systems(PreUpdate, crate::browser::sounds::add_arrived);
}

/// The sound of `assets/sounds/NAME.wav`: embedded on the desktop.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! sound {
    ($sources:expr, $name:literal) => {
        $sources.add(AudioSource {
            bytes: include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/sounds/",
                $name,
                ".wav"
            ))
            .as_slice()
            .into(),
        })
    };
}

/// The sound of `assets/sounds/NAME.wav`: in a page, fetched (its handle at once, the sound
/// when it arrives; a cue before then plays when it does).
#[cfg(target_arch = "wasm32")]
macro_rules! sound {
    ($sources:expr, $name:literal) => {
        crate::browser::sounds::fetched(&mut $sources, $name)
    };
}

#[derive(Resource)]
struct Sounds {
    stone: Handle<AudioSource>,
    capture: Handle<AudioSource>,
    beaten: Handle<AudioSource>,
    victory: Handle<AudioSource>,
    turn: Handle<AudioSource>,
}

fn load_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    commands.insert_resource(Sounds {
        stone: sound!(sources, "stone"),
        capture: sound!(sources, "capture"),
        beaten: sound!(sources, "beaten"),
        victory: sound!(sources, "victory"),
        turn: sound!(sources, "turn"),
    });
}

fn play_cues(
    mut commands: Commands,
    mut cues: MessageReader<SoundCue>,
    sounds: Res<Sounds>,
    settings: Res<SoundSettings>,
) {
    let volume = settings.effective();
    for cue in cues.read() {
        if volume <= 0.0 {
            continue;
        }
        let source = match cue {
            SoundCue::Stone => &sounds.stone,
            SoundCue::Capture => &sounds.capture,
            SoundCue::Beaten => &sounds.beaten,
            SoundCue::Victory => &sounds.victory,
            SoundCue::YourTurn => &sounds.turn,
        };
        commands.spawn((
            AudioPlayer::new(source.clone()),
            PlaybackSettings::DESPAWN.with_volume(Volume::Linear(volume)),
            Name::new(format!("{cue:?} sound")),
        ));
    }
}
