//! The page's document beside the canvas, for a screen reader: what the game announces
//! (`telling::Announced`: every move in words, politely; a person's turn and the end,
//! assertively), the answers to commands (`telling::Told`), what the status line shows for a
//! moment (a refusal and its reason, a notice), whose turn it is and the standings
//! as a status, the moves as a list, and a field that takes moves and commands as the move box
//! does, and each of the game's widgets said as the keyboard reaches it. The canvas itself is an
//! image with a one-line description. The document is hidden from
//! the eye but for its field, which shows while it has the focus; F6 goes between the board and
//! the field (the game keeps Tab for its own windows), Escape in the field back to the board.

use std::cell::RefCell;

use bevy::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use crate::game::selection::typed::MoveTyped;
use crate::game::state::Match;
use crate::game::telling::{Announced, Told};
use crate::game::ui::windows_text::{WindowText, windows_text};
use crate::i18n::Tr;
use crate::tr;

/// Lines a live region keeps (older ones are taken out: a reader has said them).
const KEPT_LINES: u32 = 30;

thread_local! {
    /// What the player typed in the document's field and sent with Enter, for the game to read.
    static TYPED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

pub(super) fn plugin(app: &mut App) {
    // What was typed is taken before the frame's systems, which read it in the same frame.
    app.add_systems(Startup, build_document)
        .add_systems(PreUpdate, take_typed)
        .add_systems(
            Last,
            (
                say_announced,
                say_told,
                say_refused,
                say_focus,
                keep_status,
                keep_move_list,
                keep_windows.in_set(crate::game::frames::AskFrames),
            ),
        );
}

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

fn by_id(id: &str) -> Option<web_sys::Element> {
    document().and_then(|d| d.get_element_by_id(id))
}

/// Builds the document's parts once, in the interface's language, and listens to its field.
fn build_document(tr: Res<Tr>) {
    let Some(doc) = document() else {
        return;
    };
    let tr = *tr;
    if let Some(canvas) = doc.get_element_by_id("qiguo") {
        let _ = canvas.set_attribute("role", "img");
        let _ = canvas.set_attribute("aria-label", &tr.text("reader-canvas"));
    }
    let Some(body) = doc.body() else {
        return;
    };
    let Ok(section) = doc.create_element("section") else {
        return;
    };
    section.set_id("reader");
    let _ = section.set_attribute("aria-label", &tr.text("reader-title"));
    let part = |tag: &str, id: &str, attributes: &[(&str, String)]| {
        let element = doc.create_element(tag).ok()?;
        element.set_id(id);
        for (name, value) in attributes {
            let _ = element.set_attribute(name, value);
        }
        section.append_child(&element).ok()?;
        Some(element)
    };
    let _ = part("label", "readerLabel", &[("for", "readerField".to_owned())])
        .map(|label| label.set_text_content(Some(&tr.text("reader-field"))));
    let field = part(
        "input",
        "readerField",
        &[
            ("type", "text".to_owned()),
            ("autocomplete", "off".to_owned()),
            ("spellcheck", "false".to_owned()),
            ("enterkeyhint", "send".to_owned()),
        ],
    );
    part(
        "div",
        "readerAlert",
        &[
            ("role", "alert".to_owned()),
            ("aria-live", "assertive".to_owned()),
        ],
    );
    part(
        "div",
        "readerSaid",
        &[
            ("role", "log".to_owned()),
            ("aria-live", "polite".to_owned()),
            ("aria-label", tr.text("reader-said")),
        ],
    );
    part(
        "div",
        "readerStatus",
        &[
            ("role", "status".to_owned()),
            ("aria-label", tr.text("reader-status")),
        ],
    );
    // A list cannot take the log's role: the log holds it.
    let moves = part(
        "div",
        "readerMovesLog",
        &[
            ("role", "log".to_owned()),
            ("aria-live", "off".to_owned()),
            ("aria-label", tr.text("reader-moves")),
        ],
    );
    if let Some((log, list)) = moves.zip(doc.create_element("ol").ok()) {
        list.set_id("readerMoves");
        let _ = log.append_child(&list);
    }
    part(
        "div",
        "readerWindows",
        &[
            ("role", "region".to_owned()),
            ("aria-label", tr.text("reader-windows")),
        ],
    );
    let _ = body.append_child(&section);
    if let Some(field) = field.and_then(|f| f.dyn_into::<web_sys::HtmlInputElement>().ok()) {
        let input = field.clone();
        let on_key = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
            move |event: web_sys::KeyboardEvent| {
                // The game's own keys stay in the field.
                event.stop_propagation();
                if event.key() != "Enter" {
                    return;
                }
                event.prevent_default();
                let text = input.value();
                if !text.trim().is_empty() {
                    TYPED.with(|typed| typed.borrow_mut().push(text));
                    crate::browser::wake();
                }
                input.set_value("");
            },
        );
        let _ = field.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref());
        // The listener lives as long as the page.
        on_key.forget();
        // F6 goes between the board and the field (the game keeps Tab for its own windows);
        // Escape in the field gives the keyboard back to the board.
        let on_switch = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
            move |event: web_sys::KeyboardEvent| {
                let in_field = document()
                    .and_then(|d| d.active_element())
                    .is_some_and(|e| e.id() == "readerField");
                let to = match event.key().as_str() {
                    "F6" if in_field => "qiguo",
                    "F6" => "readerField",
                    "Escape" if in_field => "qiguo",
                    _ => return,
                };
                event.prevent_default();
                if let Some(target) =
                    by_id(to).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = target.focus();
                }
            },
        );
        let _ = doc.add_event_listener_with_callback_and_bool(
            "keydown",
            on_switch.as_ref().unchecked_ref(),
            true,
        );
        on_switch.forget();
    }
}

/// What was typed in the document's field, sent on as the move box sends it.
fn take_typed(mut typed: MessageWriter<MoveTyped>) {
    for text in TYPED.with(|t| std::mem::take(&mut *t.borrow_mut())) {
        typed.write(MoveTyped(text));
    }
}

/// Adds a line to a live region, taking out the oldest beyond [`KEPT_LINES`].
fn add_line(region: &str, words: &str) {
    let (Some(doc), Some(region)) = (document(), by_id(region)) else {
        return;
    };
    let Ok(line) = doc.create_element("p") else {
        return;
    };
    line.set_text_content(Some(words));
    let _ = region.append_child(&line);
    while region.child_element_count() > KEPT_LINES {
        if let Some(first) = region.first_element_child() {
            first.remove();
        }
    }
}

fn say_announced(mut announced: MessageReader<Announced>) {
    for Announced { words, urgent } in announced.read() {
        if *urgent {
            // An alert is said when its text changes: the whole text is replaced, and the same
            // words again (a new game's first turn) differ by a trailing no-break space.
            if let Some(alert) = by_id("readerAlert") {
                let now = alert.text_content().unwrap_or_default();
                let words = if now == *words {
                    format!("{words}\u{a0}")
                } else {
                    words.clone()
                };
                alert.set_text_content(Some(&words));
            }
        } else {
            add_line("readerSaid", words);
        }
    }
}

fn say_told(mut told: MessageReader<Told>) {
    for Told(words) in told.read() {
        add_line("readerSaid", words);
    }
}

/// What the status line shows for a moment, said too: a move or a click refused (and why), a
/// notice (saved, an error).
fn say_refused(
    mut refused: MessageReader<crate::game::selection::ClickRefused>,
    mut rejected: MessageReader<crate::game::state::MoveRejected>,
    mut notices: MessageReader<crate::game::state::Notice>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    for r in refused.read() {
        add_line("readerSaid", &r.reason.text(tr));
    }
    for words in rejected
        .read()
        .filter_map(|r| crate::game::ui::status::rejected_words(r, tr))
    {
        add_line("readerSaid", &words);
    }
    for n in notices.read() {
        add_line("readerSaid", &n.said.text(tr));
    }
}

/// The game's windows by keyboard, said: each widget that takes egui's focus (Tab in the
/// canvas) is said politely, by its label, kind and state, from what egui reports of it.
fn say_focus(mut outputs: Query<&mut bevy_egui::EguiOutput>, tr: Res<Tr>) {
    for mut output in &mut outputs {
        for event in std::mem::take(&mut output.platform_output.events) {
            if let bevy_egui::egui::output::OutputEvent::FocusGained(info) = event
                && let Some(words) = crate::game::widgets::widget_told(&info, *tr)
            {
                add_line("readerSaid", &words);
            }
        }
    }
}

/// How often the windows' text is read again from egui while the page runs: egui builds its
/// AccessKit tree only on the frame after this (a tree every frame would cost every frame).
const WINDOWS_READ_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// What [`keep_windows`] last wrote, and when it asks egui for the tree again.
struct WindowsShown {
    every: Timer,
    shown: Option<Vec<WindowText>>,
    /// The tree was asked for: it comes this frame (which asks for nothing more by itself).
    reading: bool,
    /// Something may have changed the windows since the last read (a key, a click, a tap, a
    /// move, a window still filling in): they are read again when the timer comes round.
    stirred: bool,
}

impl Default for WindowsShown {
    fn default() -> WindowsShown {
        WindowsShown {
            every: Timer::new(WINDOWS_READ_EVERY, TimerMode::Repeating),
            shown: None,
            reading: false,
            stirred: true,
        }
    }
}

/// The text of the game's open windows (rules, settings, the report, a dialog), written into
/// the document under their titles so that a reader can read them line by line; a window that
/// opens is said by its title. The moves and the move box are left out: the document tells
/// them already.
fn keep_windows(
    mut contexts: Query<(&mut bevy_egui::EguiContext, &mut bevy_egui::EguiOutput)>,
    time: Res<Time<Real>>,
    tr: Res<Tr>,
    mut state: Local<WindowsShown>,
    (keys, buttons, touches): (
        Res<ButtonInput<KeyCode>>,
        Res<ButtonInput<MouseButton>>,
        Res<Touches>,
    ),
    the_match: Res<Match>,
    mut redraw: crate::game::frames::Redraw,
) {
    // The game draws no frames at rest: the windows are read again only after something may
    // have changed them (a frame at rest, or the one that brings a tree, changes nothing), a
    // frame asked for when the timer comes round; after a read, the frame that brings the
    // tree.
    let reading = std::mem::take(&mut state.reading);
    let due = state.every.tick(time.delta()).just_finished();
    if reading {
        state.every.reset();
    }
    let pressed = keys.get_just_pressed().next().is_some()
        || buttons.get_just_pressed().next().is_some()
        || touches.any_just_pressed();
    if pressed || the_match.is_changed() {
        state.stirred = true;
    }
    let ask_again = !reading && ((state.stirred && due) || tr.is_changed());
    if state.stirred && !ask_again {
        redraw.within(state.every.remaining());
    }
    if ask_again {
        state.reading = true;
        state.stirred = false;
        redraw.now();
    }
    let tr = *tr;
    for (mut context, mut output) in &mut contexts {
        let ctx = context.get_mut();
        if let Some(tree) = output.platform_output.accesskit_update.take() {
            ctx.disable_accesskit();
            let left_out = [tr.text("moves-title"), tr.text("movebox-title")];
            let windows = windows_text(&tree, &left_out, tr);
            if state.shown.as_ref() != Some(&windows) {
                if let Some(before) = &state.shown {
                    for window in windows
                        .iter()
                        .filter(|w| !before.iter().any(|b| b.title == w.title))
                    {
                        add_line(
                            "readerSaid",
                            &tr!(tr, "reader-window-open", title = window.title.clone()),
                        );
                    }
                }
                write_windows(&windows);
                state.shown = Some(windows);
                // A window opening may still be filling in.
                state.stirred = true;
            }
        }
        if ask_again {
            ctx.enable_accesskit();
        }
    }
}

/// The windows' text in the document: a heading for each window, a paragraph for each line.
fn write_windows(windows: &[WindowText]) {
    let (Some(doc), Some(region)) = (document(), by_id("readerWindows")) else {
        return;
    };
    region.set_text_content(None);
    for window in windows {
        let Ok(part) = doc.create_element("section") else {
            return;
        };
        let _ = part.set_attribute("aria-label", &window.title);
        if let Ok(heading) = doc.create_element("h2") {
            heading.set_text_content(Some(&window.title));
            let _ = part.append_child(&heading);
        }
        for line in &window.lines {
            if let Ok(paragraph) = doc.create_element("p") {
                paragraph.set_text_content(Some(line));
                let _ = part.append_child(&paragraph);
            }
        }
        let _ = region.append_child(&part);
    }
}

/// Whose turn it is and how the kingdoms stand, worded again when the game changes.
fn keep_status(the_match: Res<Match>, tr: Res<Tr>, mut shown: Local<String>) {
    if !(the_match.is_changed() || tr.is_changed()) {
        return;
    }
    let words =
        crate::game::telling::status_words(the_match.position(), the_match.game().len(), *tr);
    if *shown == words {
        return;
    }
    if let Some(status) = by_id("readerStatus") {
        status.set_text_content(Some(&words));
    }
    *shown = words;
}

/// The moves as a list, one item a move in words; redone whole when moves are taken back or
/// another game comes.
fn keep_move_list(the_match: Res<Match>, tr: Res<Tr>, mut listed: Local<(u64, usize)>) {
    let turn = the_match.turn();
    if (turn.generation, turn.ply) == *listed && !tr.is_changed() {
        return;
    }
    let (Some(doc), Some(list)) = (document(), by_id("readerMoves")) else {
        return;
    };
    let game = the_match.game();
    let from = if turn.generation == listed.0 && turn.ply >= listed.1 && !tr.is_changed() {
        listed.1
    } else {
        list.set_text_content(None);
        0
    };
    for words in crate::game::telling::told_moves(game, from, *tr) {
        let Ok(item) = doc.create_element("li") else {
            return;
        };
        item.set_text_content(Some(&words));
        let _ = list.append_child(&item);
    }
    *listed = (turn.generation, turn.ply);
}
