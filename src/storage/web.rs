//! The page's storage: the browser's local storage for this origin, one item per path. An item
//! holds its last change (milliseconds since 1970) on its first line and the text below; the
//! game writes only text (JSON). Setting an item replaces it whole, so every write is atomic.
//! The browser may refuse a write (its quota, or storage turned off): that is an error like a
//! full disk's.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::SystemTime;

/// Never produced here: a page writes no temporary files.
pub const TEMP_PREFIX: &str = ".tmp-";

/// The data "directory": where saves, the autosave and the online keys are kept.
pub fn data_dir() -> Option<PathBuf> {
    Some(PathBuf::from("/qiguo/data"))
}

/// The config "directory": where the settings are kept.
pub fn config_dir() -> Option<PathBuf> {
    Some(PathBuf::from("/qiguo/config"))
}

fn storage() -> io::Result<web_sys::Storage> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .ok_or_else(|| io::Error::other("the browser keeps no local storage for this page"))
}

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn refused(e: wasm_bindgen::JsValue) -> io::Error {
    io::Error::other(format!("the browser refused: {e:?}"))
}

/// The item at `path`: its last change and its text.
fn item(path: &Path) -> io::Result<(SystemTime, String)> {
    let raw = storage()?
        .get_item(&key(path))
        .map_err(refused)?
        .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
    let (millis, text) = raw.split_once('\n').unwrap_or(("0", raw.as_str()));
    let millis = millis.parse::<u64>().unwrap_or(0);
    Ok((
        SystemTime::UNIX_EPOCH + Duration::from_millis(millis),
        text.to_owned(),
    ))
}

/// The bytes at `path`.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    item(path).map(|(_, text)| text.into_bytes())
}

/// Whether something is kept at `path`.
pub fn exists(path: &Path) -> bool {
    storage()
        .ok()
        .and_then(|s| s.get_item(&key(path)).ok().flatten())
        .is_some()
}

/// When `path` was last written.
pub fn modified(path: &Path) -> io::Result<SystemTime> {
    item(path).map(|(when, _)| when)
}

/// Removes what is kept at `path`.
pub fn remove(path: &Path) -> io::Result<()> {
    if !exists(path) {
        return Err(io::ErrorKind::NotFound.into());
    }
    storage()?.remove_item(&key(path)).map_err(refused)
}

/// Moves what is kept at `from` to `to` (replacing what was there).
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    let storage = storage()?;
    let raw = storage
        .get_item(&key(from))
        .map_err(refused)?
        .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
    storage.set_item(&key(to), &raw).map_err(refused)?;
    storage.remove_item(&key(from)).map_err(refused)
}

/// The items directly in `dir`, with their last change.
pub fn list(dir: &Path) -> io::Result<Vec<(PathBuf, Option<SystemTime>)>> {
    let storage = storage()?;
    let prefix = format!("{}/", key(dir).trim_end_matches('/'));
    let count = storage.length().map_err(refused)?;
    let mut found = Vec::new();
    for i in 0..count {
        let Some(name) = storage.key(i).map_err(refused)? else {
            continue;
        };
        if let Some(rest) = name.strip_prefix(&prefix)
            && !rest.is_empty()
            && !rest.contains('/')
        {
            let path = PathBuf::from(&name);
            let when = modified(&path).ok();
            found.push((path, when));
        }
    }
    Ok(found)
}

/// Replaces the item at `path` with `bytes` (text) at once.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let text =
        std::str::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    let now = super::millis(SystemTime::now());
    storage()?
        .set_item(&key(path), &format!("{now}\n{text}"))
        .map_err(refused)
}
