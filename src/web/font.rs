//! The page's Chinese font in two cuts: the wasm holds the core cut (the characters of the game
//! and its interface, `crate::game::art::textures::KAI_FONT`), so that the first board waits for
//! a tenth of the font; once the board is drawn, the whole cut (the common characters of both
//! Chinese scripts, for players' names) is fetched beside it — a file of the bundle, kept by the
//! service worker like the rest — and added to the interface's fonts after the core cut.

use std::cell::RefCell;

use bevy::log::{debug, info};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
use bevy_egui::egui::{FontData, FontFamily};
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;

use super::BoardShown;

thread_local! {
    /// The whole cut, once it arrived and until it is added.
    static ARRIVED: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// Once the board is drawn, asks the page for the whole cut (`qiguo.wholeFont`, web/index.html).
pub(crate) fn fetch_whole_cut(shown: Res<BoardShown>, mut asked: Local<bool>) {
    if !shown.0 || *asked {
        return;
    }
    *asked = true;
    let Some((qiguo, fetch)) = super::notify::page_helper("wholeFont") else {
        return;
    };
    match fetch.call0(&qiguo) {
        Ok(promise) => {
            let arrived = Closure::once(move |bytes: JsValue| {
                let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
                ARRIVED.set(Some(bytes));
            });
            let failed = Closure::once(move |e: JsValue| {
                debug!("the whole font did not come ({e:?}): names show in the core cut");
            });
            let _ = js_sys::Promise::from(promise).then2(&arrived, &failed);
            // Each runs at most once, once a page.
            arrived.forget();
            failed.forget();
        }
        Err(e) => debug!("the whole font was not asked for ({e:?})"),
    }
}

/// Adds the whole cut to the interface's fonts once it arrived, after the core cut: the
/// characters the core lacks come from it. The page notes it (`<body data-whole-font>`).
pub(crate) fn add_whole_cut(mut contexts: EguiContexts, mut added: Local<bool>) -> Result {
    if *added {
        return Ok(());
    }
    let Some(bytes) = ARRIVED.take() else {
        return Ok(());
    };
    let size = bytes.len();
    contexts.ctx_mut()?.add_font(FontInsert {
        name: "qiguo-kai-whole".to_owned(),
        data: FontData::from_owned(bytes),
        families: [FontFamily::Proportional, FontFamily::Monospace]
            .into_iter()
            .map(|family| InsertFontFamily {
                family,
                priority: FontPriority::Lowest,
            })
            .collect(),
    });
    *added = true;
    info!("the whole Chinese font arrived ({size} bytes)");
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute("data-whole-font", "ready");
    }
    Ok(())
}
