//! The browser's notifications: asked for once, on the player's click (browsers allow the
//! question only then), and shown when one of the player's games waits for their move while
//! they look elsewhere: another game than the one on the board, or any game while the tab is
//! hidden. Browsers stop drawing frames in a background tab, so the notification is raised
//! where the server's message arrives ([`heard`], called by the socket's handler in
//! `web::link`), with words kept ready by a frame's system ([`keep_words`]): the interface's
//! language and the names at each game's table. Browsers need a secure context for
//! notifications (https, or loopback): a plain LAN page goes without, and nothing is shown.

use std::cell::RefCell;
use std::collections::HashMap;

use bevy::log::debug;
use bevy::prelude::*;
use qiguo_protocol::{Event, GameId, SeatPlan};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Notification, NotificationOptions, NotificationPermission};

use crate::game::online::Online;
use crate::game::online::notify::your_turn;
use crate::i18n::Tr;
use crate::tr;

/// Whether the browser may show notifications for this page.
pub(crate) fn allowed() -> bool {
    Notification::permission() == NotificationPermission::Granted
}

/// Whether the player can still be asked (not yet asked, and the page can have them).
pub(crate) fn askable() -> bool {
    web_sys::window().is_some_and(|w| w.is_secure_context())
        && Notification::permission() == NotificationPermission::Default
}

/// Asks the player whether the page may notify them (call from a click's handling).
pub(crate) fn ask() {
    if let Err(e) = Notification::request_permission() {
        debug!("notifications could not be asked for: {e:?}");
    }
}

/// What the socket's handler needs to word a notification without a frame.
#[derive(Default)]
struct Words {
    tr: Tr,
    /// The online game on the board.
    board: Option<GameId>,
    /// The players at each of the player's games, as the notification names them.
    players: HashMap<GameId, String>,
}

thread_local! {
    static WORDS: RefCell<Words> = RefCell::new(Words::default());
}

/// Keeps the words ready for [`heard`]: the language, the game on the board and the players of
/// the player's games, whenever they change.
pub(crate) fn keep_words(online: Res<Online>, tr: Res<Tr>) {
    if !online.is_changed() && !tr.is_changed() {
        return;
    }
    let tr = *tr;
    let mut players: HashMap<GameId, String> = online
        .games
        .iter()
        .map(|g| (g.id.clone(), g.players.join(", ")))
        .collect();
    // The game on the board as its seats stand now (the list of games is read only now and
    // then: a game joined since is not in it yet).
    if let Some(table) = &online.table {
        let names: Vec<String> = table
            .seats
            .iter()
            .map(|seat| match (&seat.name, seat.plan) {
                (Some(name), _) => name.clone(),
                (None, SeatPlan::Computer(level)) => {
                    tr!(tr, "computer-level", level = tr.level(level))
                }
                (None, _) => tr.text("seat-open"),
            })
            .collect();
        players.insert(table.id.clone(), names.join(", "));
    }
    WORDS.set(Words {
        tr,
        board: online.table.as_ref().map(|t| t.id.clone()),
        players,
    });
}

/// An event just arrived from the server: a turn of the player's that they are not looking at
/// is told through a notification (if the player allowed them).
pub(crate) fn heard(event: &Event) {
    let Event::YourTurn { game, kingdom } = event else {
        return;
    };
    let hidden = web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden());
    let words = WORDS.with_borrow(|words| {
        let on_board = words.board.as_ref() == Some(game);
        (hidden || !on_board).then(|| {
            let players = words.players.get(game).map_or("", String::as_str);
            your_turn(words.tr, *kingdom, players)
        })
    });
    if let Some(words) = words {
        show(&words.summary, &words.body);
    }
}

/// Shows a notification with `title` and `body`, if allowed; a click on it brings the page's
/// tab forward.
fn show(title: &str, body: &str) {
    if !allowed() {
        return;
    }
    let options = NotificationOptions::new();
    options.set_body(body);
    options.set_tag("qiguo: your move");
    match Notification::new_with_options(title, &options) {
        Ok(shown) => {
            let on_click = Closure::once_into_js(move || {
                if let Some(window) = web_sys::window() {
                    let _ = window.focus();
                }
            });
            shown.set_onclick(Some(on_click.unchecked_ref()));
        }
        Err(e) => debug!("no notification ({e:?}): {title}"),
    }
}
