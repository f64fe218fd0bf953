//! The key ring as an item of the browser's local storage for the page's origin, named by its
//! path. The item is in the game's storage format (its last change in milliseconds since 1970
//! on the first line, the text below), so rings kept by earlier pages are read as they are.

use std::io;
use std::path::Path;

fn storage() -> io::Result<web_sys::Storage> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .ok_or_else(|| io::Error::other("the browser keeps no local storage for this page"))
}

fn refused(e: wasm_bindgen::JsValue) -> io::Error {
    io::Error::other(format!("the browser refused: {e:?}"))
}

fn name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The item's text (`None`: nothing kept yet).
pub(super) fn read(path: &Path) -> io::Result<Option<String>> {
    let raw = storage()?.get_item(&name(path)).map_err(refused)?;
    Ok(raw.map(|raw| match raw.split_once('\n') {
        Some((_, text)) => text.to_owned(),
        None => raw,
    }))
}

/// Replaces the item whole (the browser's setting of an item is atomic).
pub(super) fn write(_dir: &Path, path: &Path, text: &str) -> io::Result<()> {
    let now = js_sys::Date::now() as u64;
    storage()?
        .set_item(&name(path), &format!("{now}\n{text}"))
        .map_err(refused)
}

/// Moves the item aside.
pub(super) fn rename(from: &Path, to: &Path) -> io::Result<()> {
    let storage = storage()?;
    let raw = storage
        .get_item(&name(from))
        .map_err(refused)?
        .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
    storage.set_item(&name(to), &raw).map_err(refused)?;
    storage.remove_item(&name(from)).map_err(refused)
}
