//! The browser's services, for a game in a page (wasm32): what the page offers and the desktop
//! does without — its storage of a session, its address (a sign-in link's token, a reload for a
//! newer version), its files, fonts and sounds fetched beside the first board, its
//! notifications and push subscription, its keyboard's text agent, and a Web Worker for the
//! searches. Nothing here knows the game: the game calls these, and the page's shell
//! (`crate::web`) sits above both.
//!
//! A callback of the browser that leaves something for the game calls [`wake`]: the game draws
//! no frames while nothing happens, and the wake it was given asks for one.

pub(crate) mod files;
pub(crate) mod font;
pub(crate) mod notify;
#[cfg(feature = "sound")]
pub(crate) mod sounds;
pub(crate) mod typing;
pub(crate) mod worker;

use std::cell::RefCell;

use bevy::log::debug;
use bevy::prelude::*;
use qiguo_client::Wake;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The services' own systems: the keyboard's text agent and the fonts.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((typing::plugin, font::plugin));
}

thread_local! {
    /// Wakes the game from the browser's callbacks (a key in the document's field, a file read,
    /// a font downloaded), as the game gave it.
    static WAKE: RefCell<Option<Wake>> = const { RefCell::new(None) };
}

/// What [`wake`] calls from now on.
pub(crate) fn wake_with(wake: Wake) {
    WAKE.set(Some(wake));
}

/// Asks the game for a frame, from a browser callback that has left something for it.
pub(crate) fn wake() {
    WAKE.with_borrow(|wake| {
        if let Some(wake) = wake {
            wake();
        }
    });
}

/// The page's own helper `qiguo.NAME` (web/index.html), and the `qiguo` object to call it on.
pub(crate) fn page_helper(name: &str) -> Option<(JsValue, js_sys::Function)> {
    let window = web_sys::window()?;
    let qiguo = js_sys::Reflect::get(&window, &JsValue::from_str("qiguo")).ok()?;
    let helper = js_sys::Reflect::get(&qiguo, &JsValue::from_str(name)).ok()?;
    helper.dyn_into().ok().map(|helper| (qiguo, helper))
}

/// Asks the page for the bytes of a bundle file by name (`qiguo.HELPER(NAME)`, web/index.html,
/// answering a promise of them); `arrived` takes them when they come, at most once. A file
/// that does not come is only logged: the game goes on without it.
pub(crate) fn page_bytes(helper: &str, name: &str, arrived: impl FnOnce(Vec<u8>) + 'static) {
    let Some((qiguo, fetch)) = page_helper(helper) else {
        return;
    };
    match fetch.call1(&qiguo, &JsValue::from_str(name)) {
        Ok(promise) => {
            let arrived = Closure::once(move |bytes: JsValue| {
                arrived(js_sys::Uint8Array::new(&bytes).to_vec());
            });
            let what = format!("{helper} {name}");
            let failed = Closure::once(move |e: JsValue| {
                debug!("the {what} did not come ({e:?})");
            });
            let _ = js_sys::Promise::from(promise).then2(&arrived, &failed);
            // Each runs at most once, once a file.
            arrived.forget();
            failed.forget();
        }
        Err(e) => debug!("the {helper} {name} was not asked for ({e:?})"),
    }
}

/// The one-time token of a sign-in link the page was opened from (`…#signin=TOKEN`, as the
/// server's e-mails write it), taken once: the address bar loses it at once, so that it is
/// neither kept in the history nor shared with the address.
pub(crate) fn signin_token() -> Option<String> {
    let window = web_sys::window()?;
    let location = window.location();
    let hash = location.hash().ok()?;
    let token = hash.strip_prefix("#signin=")?;
    if token.is_empty() || token.len() > 128 || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let token = token.to_owned();
    let path = location.pathname().ok()?;
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&path));
    }
    Some(token)
}

/// Whether the page's address carries a sign-in link's token still (it is taken when the page
/// connects to its server).
pub(crate) fn signin_token_waiting() -> bool {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|hash| hash.len() > "#signin=".len() && hash.starts_with("#signin="))
}

/// The page's address without its query and fragment.
pub(crate) fn page_path() -> Option<String> {
    let href = web_sys::window()?.location().href().ok()?;
    href.split(['?', '#']).next().map(str::to_owned)
}

/// The value of `name` in the page's address's query (`?name=value&…`), decoded; `None` where
/// the address has no such part (or it cannot be decoded).
pub(crate) fn page_query(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(key, _)| *key == name)
        .and_then(|(_, value)| {
            js_sys::decode_uri_component(&value.replace('+', " "))
                .ok()?
                .as_string()
        })
}

/// Reloads the page to take up its server's newer version (`server`), once per version: a
/// page that comes back no newer is not reloaded again. It reloads at `path` where one is given
/// (the game it showed), else where it was; what the browser stores stays. Whether it reloads
/// (not where the session's storage, which remembers the try, cannot be written).
pub(crate) fn reload_for_update(server: u32, path: Option<&str>) -> bool {
    const TRIED: &str = "qiguo-reloaded-for-protocol";
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Some(storage) = window.session_storage().ok().flatten() else {
        return false;
    };
    let version = server.to_string();
    if storage.get_item(TRIED).ok().flatten().as_deref() == Some(version.as_str()) {
        return false;
    }
    if storage.set_item(TRIED, &version).is_err() {
        return false;
    }
    let location = window.location();
    match path {
        Some(path) => location.replace(path).is_ok(),
        None => location.reload().is_ok(),
    }
}

/// Notes `value` on the page's body under `attribute` (`<body data-…>`): what the tests and
/// the measurements in docs/performance.md read of the page.
pub(crate) fn note_on_body(attribute: &str, value: &str) {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute(attribute, value);
    }
}
