//! A game as a file, in a page: downloaded (the browser saves it where the player chooses)
//! and opened from the player's disk through the browser's file picker. The file's text lands
//! in the import box of *Share…*, whose buttons load it as they load pasted text.

use std::cell::RefCell;

use bevy::log::warn;
use bevy_egui::egui;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Blob, BlobPropertyBag, FileReader, HtmlAnchorElement, HtmlInputElement, Url};

use crate::i18n::Tr;
use crate::tr;

/// The largest file opened, in bytes (a game of thousands of moves is far smaller).
const MAX_FILE_BYTES: f64 = 2.0 * 1024.0 * 1024.0;

/// Why a file was not offered or opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FileError {
    /// The page has no document to add the link or the picker to.
    #[error("the page has no document")]
    NoDocument,
    /// The browser refused (its words).
    #[error("the browser refused: {0}")]
    Refused(String),
    /// The file chosen is larger than [`MAX_FILE_BYTES`].
    #[error("{0} is larger than 2 MB")]
    TooLarge(String),
    /// The file chosen is not text.
    #[error("the file is not text")]
    NotText,
}

impl From<wasm_bindgen::JsValue> for FileError {
    fn from(refusal: wasm_bindgen::JsValue) -> FileError {
        FileError::Refused(format!("{refusal:?}"))
    }
}

thread_local! {
    /// A file's text read and not yet taken, with what it was opened for.
    static OPENED: RefCell<Option<(&'static str, Result<String, FileError>)>> =
        const { RefCell::new(None) };
}

/// The *Share…* dialog's file buttons: the game downloaded as `qiguo-game.txt`, and a file
/// opened into `import_text` (or `error` set when it cannot be read).
pub(crate) fn buttons(
    ui: &mut egui::Ui,
    tr: Tr,
    game_text: &str,
    import_text: &mut String,
    error: &mut Option<String>,
) {
    ui.horizontal(|ui| {
        if ui.button(tr.text("share-download")).clicked()
            && let Err(e) = download("qiguo-game.txt", game_text)
        {
            *error = Some(e.to_string());
        }
        if ui.button(tr.text("share-open-file")).clicked()
            && let Err(e) = open(GAME)
        {
            *error = Some(e.to_string());
        }
    });
    match opened(GAME) {
        Some(Ok(text)) => {
            *import_text = text;
            *error = None;
        }
        Some(Err(why)) => *error = Some(tr!(tr, "share-file-unreadable", why = why.to_string())),
        None => {}
    }
}

/// What a game file is opened for.
const GAME: &str = "game";

/// The text of the file opened for `purpose`, once read (or why it could not be).
pub(crate) fn opened(purpose: &'static str) -> Option<Result<String, FileError>> {
    OPENED.with_borrow_mut(|slot| match slot.take() {
        Some((p, text)) if p == purpose => Some(text),
        other => {
            *slot = other;
            None
        }
    })
}

/// Offers `text` to the player as a file called `name`.
pub(crate) fn download(name: &str, text: &str) -> Result<(), FileError> {
    let parts = js_sys::Array::of1(&text.into());
    let options = BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let anchor: HtmlAnchorElement = new_element("a")?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = Url::revoke_object_url(&url);
    Ok(())
}

/// Opens the browser's file picker; the file chosen is read, for [`opened`]`(purpose)`.
pub(crate) fn open(purpose: &'static str) -> Result<(), FileError> {
    let input: HtmlInputElement = new_element("input")?;
    input.set_type("file");
    input.set_accept(".txt,.json,text/plain,application/json");
    let chosen = input.clone();
    let on_change = Closure::once_into_js(move || {
        let Some(file) = chosen.files().and_then(|files| files.get(0)) else {
            return;
        };
        if file.size() > MAX_FILE_BYTES {
            OPENED.set(Some((purpose, Err(FileError::TooLarge(file.name())))));
            super::wake();
            return;
        }
        let Ok(reader) = FileReader::new() else {
            return;
        };
        let read = reader.clone();
        let on_load = Closure::once_into_js(move || {
            let text = read.result().ok().and_then(|r| r.as_string());
            OPENED.set(Some((purpose, text.ok_or(FileError::NotText))));
            super::wake();
        });
        reader.set_onload(Some(on_load.unchecked_ref()));
        if let Err(e) = reader.read_as_text(&file) {
            warn!("the file could not be read: {e:?}");
        }
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    input.click();
    Ok(())
}

/// A new element of the page, `<tag>`, as the type it is.
fn new_element<T: JsCast>(tag: &str) -> Result<T, FileError> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or(FileError::NoDocument)?;
    document
        .create_element(tag)?
        .dyn_into()
        .map_err(|element| FileError::Refused(format!("<{tag}> is a {element:?}")))
}
