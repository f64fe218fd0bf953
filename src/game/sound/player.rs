//! Sound (the `sound` feature): plays the cues the game decides on, with sounds made by
//! `tools/make-sounds.py` and embedded in the binary. Where there is no sound device Bevy's
//! audio logs one warning and the game stays silent.

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

use crate::game::AppSystems;
use crate::game::sound::{SoundCue, SoundSettings};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_sounds)
        .add_systems(Update, play_cues.in_set(AppSystems::UpdateHud));
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
    let mut add = |bytes: &'static [u8]| {
        sources.add(AudioSource {
            bytes: bytes.into(),
        })
    };
    commands.insert_resource(Sounds {
        stone: add(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/sounds/stone.wav"
        ))),
        capture: add(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/sounds/capture.wav"
        ))),
        beaten: add(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/sounds/beaten.wav"
        ))),
        victory: add(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/sounds/victory.wav"
        ))),
        turn: add(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/sounds/turn.wav"
        ))),
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
