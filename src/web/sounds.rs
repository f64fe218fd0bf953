//! The game's sounds in a page: files of the bundle (kept by the service worker like the rest)
//! fetched while the game starts rather than carried in the wasm, so that the first board does
//! not wait for them. Each sound's handle is made at once; the sound is added when it arrives.

use std::cell::RefCell;

use bevy::audio::AudioSource;
use bevy::log::debug;
use bevy::prelude::*;
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;

thread_local! {
    /// The sounds arrived and not yet added.
    static ARRIVED: RefCell<Vec<(AssetId<AudioSource>, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
}

/// A handle for the sound `name` (`assets/sounds/NAME.wav`), asked of the page
/// (`qiguo.sound`, web/index.html); the sound itself comes later ([`add_arrived`]).
pub(crate) fn fetched(sources: &mut Assets<AudioSource>, name: &str) -> Handle<AudioSource> {
    let handle = sources.reserve_handle();
    let id = handle.id();
    let Some((qiguo, fetch)) = super::notify::page_helper("sound") else {
        return handle;
    };
    match fetch.call1(&qiguo, &JsValue::from_str(name)) {
        Ok(promise) => {
            let arrived = Closure::once(move |bytes: JsValue| {
                let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
                ARRIVED.with_borrow_mut(|arrived| arrived.push((id, bytes)));
            });
            let name = name.to_owned();
            let failed = Closure::once(move |e: JsValue| {
                debug!("the sound {name} did not come ({e:?}): it stays silent");
            });
            let _ = js_sys::Promise::from(promise).then2(&arrived, &failed);
            // Each runs at most once, once a sound.
            arrived.forget();
            failed.forget();
        }
        Err(e) => debug!("the sound {name} was not asked for ({e:?})"),
    }
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
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute("data-sounds", &added.to_string());
    }
}
