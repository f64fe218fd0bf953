//! The page's fonts, in two steps so that the first board waits for as few bytes as possible.
//! The wasm holds what the first frames write: egui's Latin faces (Ubuntu Light and Hack, taken
//! from egui's own font crate without its emoji faces) and the core cut of the Chinese font
//! (the characters of the game and its interface, `crate::game::art::textures::KAI_FONT`).
//! Once the board is drawn, the rest is fetched beside it — files of the bundle, kept by the
//! service worker like the rest: the whole Chinese cut (the common characters of both Chinese
//! scripts, for players' names) and egui's two emoji faces (for emoji in names and table talk),
//! each added to the interface's fonts after those it already has.

use std::cell::RefCell;

use bevy::log::info;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::epaint::text::{FontInsert, FontPriority, FontTweak, InsertFontFamily};
use bevy_egui::egui::{FontData, FontDefinitions, FontFamily};

/// The fonts fetched after the board: the page's name for each (`qiguo.font(NAME)` in
/// web/index.html), the interface's name, and how much smaller its glyphs are drawn (egui's
/// own sizes for its emoji faces).
const LATER: [(&str, &str, f32); 3] = [
    ("kai", "qiguo-kai-whole", 1.0),
    ("emoji", "NotoEmoji-Regular", 0.81),
    ("icons", "emoji-icon-font", 0.90),
];

thread_local! {
    /// Fonts that arrived and are not added yet: their index in [`LATER`] and their bytes.
    static ARRIVED: RefCell<Vec<(usize, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
}

/// The fonts of the first frames, given to egui before its first pass (it has none of its own
/// in a page): Ubuntu Light for text and Hack for moves and coordinates, each the other's
/// fallback (Hack draws the arrows and triangles of the move list's buttons).
fn install_first_fonts(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let mut fonts = FontDefinitions::empty();
    for (name, bytes) in [
        ("Ubuntu-Light", epaint_default_fonts::UBUNTU_LIGHT),
        ("Hack", epaint_default_fonts::HACK_REGULAR),
    ] {
        fonts
            .font_data
            .insert(name.to_owned(), FontData::from_static(bytes).into());
    }
    for (family, order) in [
        (FontFamily::Proportional, ["Ubuntu-Light", "Hack"]),
        (FontFamily::Monospace, ["Hack", "Ubuntu-Light"]),
    ] {
        fonts
            .families
            .insert(family, order.map(str::to_owned).to_vec());
    }
    contexts.ctx_mut()?.set_fonts(fonts);
    *done = true;
    Ok(())
}

/// The first fonts given to egui before its first pass, the later ones added as they arrive.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        install_first_fonts
            .after(bevy_egui::EguiPreUpdateSet::InitContexts)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    )
    .add_systems(bevy_egui::EguiPrimaryContextPass, add_later_fonts);
}

/// Asks the page for each later font (`qiguo.font`, web/index.html): called once the board is
/// drawn, so that they do not hold it up.
pub(crate) fn fetch_later_fonts() {
    for (index, (name, _, _)) in LATER.iter().enumerate() {
        super::page_bytes("font", name, move |bytes| {
            ARRIVED.with_borrow_mut(|arrived| arrived.push((index, bytes)));
            super::wake();
        });
    }
}

/// Adds each later font that arrived to the interface's fonts, after those it has: the
/// characters they lack come from it. The page notes the whole Chinese cut (`<body
/// data-whole-font>`) and the emoji (`<body data-emoji-fonts>`, their count).
fn add_later_fonts(mut contexts: EguiContexts, mut emoji: Local<u32>) -> Result {
    let arrived = ARRIVED.take();
    if arrived.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The fonts are used from the next pass: drawn again with them.
    ctx.request_repaint();
    let body = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body());
    for (index, bytes) in arrived {
        let (page_name, name, scale) = LATER[index];
        let size = bytes.len();
        ctx.add_font(FontInsert {
            name: name.to_owned(),
            data: FontData::from_owned(bytes).tweak(FontTweak { scale, ..default() }),
            families: [FontFamily::Proportional, FontFamily::Monospace]
                .into_iter()
                .map(|family| InsertFontFamily {
                    family,
                    priority: FontPriority::Lowest,
                })
                .collect(),
        });
        info!("the font {page_name} arrived ({size} bytes)");
        let Some(body) = body.as_ref() else {
            continue;
        };
        if page_name == "kai" {
            let _ = body.set_attribute("data-whole-font", "ready");
        } else {
            *emoji += 1;
            let _ = body.set_attribute("data-emoji-fonts", &emoji.to_string());
        }
    }
    Ok(())
}
