//! The game's sounds in a page: files of the bundle (kept by the service worker like the rest)
//! fetched while the game starts rather than carried in the wasm, so that the first board does
//! not wait for them. Each sound's handle is made at once; the sound is added when it arrives.

use std::cell::RefCell;

use bevy::audio::AudioSource;
use bevy::log::debug;
use bevy::prelude::*;

thread_local! {
    /// The sounds arrived and not yet added.
    static ARRIVED: RefCell<Vec<(AssetId<AudioSource>, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
}

/// A handle for the sound `name` (`assets/sounds/NAME.wav`), asked of the page
/// (`qiguo.sound`, web/index.html); the sound itself comes later ([`add_arrived`]).
pub(crate) fn fetched(sources: &mut Assets<AudioSource>, name: &str) -> Handle<AudioSource> {
    let handle = sources.reserve_handle();
    let id = handle.id();
    super::page_bytes("sound", name, move |bytes| {
        ARRIVED.with_borrow_mut(|arrived| arrived.push((id, bytes)));
        super::wake();
    });
    handle
}

/// Adds the sounds that arrived; the page notes how many (`<body data-sounds>`).
pub(crate) fn add_arrived(mut sources: ResMut<Assets<AudioSource>>, mut added: Local<u32>) {
    let arrived = ARRIVED.take();
    if arrived.is_empty() {
        return;
    }
    for (id, bytes) in arrived {
        let sound = AudioSource {
            bytes: bytes.into(),
        };
        match sources.insert(id, sound) {
            Ok(()) => *added += 1,
            Err(e) => debug!("a sound was not added: {e}"),
        }
    }
    super::note_on_body("data-sounds", &added.to_string());
}
