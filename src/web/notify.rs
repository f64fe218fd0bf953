//! The browser's notifications: asked for once, on the player's click (browsers allow the
//! question only then), and shown when one of the player's games waits for their move while
//! they look elsewhere: another game than the one on the board, or any game while the tab is
//! hidden. Browsers stop drawing frames in a background tab, so the notification is raised
//! where the server's message arrives ([`heard`], called by the socket's handler in
//! `web::link`), with words kept ready by a frame's system ([`keep_words`]): the interface's
//! language and the names at each game's table. Browsers need a secure context for
//! notifications (https, or loopback): a plain LAN page goes without, and nothing is shown.
//!
//! Notifications go through the page's service worker (`web/sw.js`, through `qiguo.notify` in
//! `web/index.html`): Android's Chrome refuses `new Notification`. Where the server pushes
//! notifications (Web Push) and the player allowed them, the page also subscribes this device
//! ([`keep_subscribed`]), so that *your move* reaches it while no page is open.

use std::cell::RefCell;
use std::collections::HashMap;

use bevy::log::debug;
use bevy::prelude::*;
use qiguo_protocol::{Event, GameId, SeatPlan};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Notification, NotificationOptions, NotificationPermission};

use crate::game::online::notify::your_turn;
use crate::game::online::{Online, OnlineCommand};
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
    match words {
        Some(words) => {
            info!(hidden, "your move elsewhere: a notification");
            show(&words.summary, &words.body);
        }
        None => debug!("your move on the board: no notification"),
    }
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

/// Shows a notification with `title` and `body`, if allowed: through the service worker where
/// the page has one (a click brings the page forward), else the page's own.
fn show(title: &str, body: &str) {
    if !allowed() {
        info!("notifications are not allowed: none shown");
        return;
    }
    if let Some((qiguo, notify)) = page_helper("notify") {
        let note = js_sys::Object::new();
        for (key, value) in [
            ("title", title),
            ("body", body),
            ("tag", "qiguo: your move"),
            ("url", "/"),
        ] {
            let _ = js_sys::Reflect::set(&note, &JsValue::from_str(key), &JsValue::from_str(value));
        }
        match notify.call1(&qiguo, &note) {
            Ok(shown) => {
                let failed = Closure::once(move |e: JsValue| warn!("no notification ({e:?})"));
                let _ = js_sys::Promise::from(shown).catch(&failed);
                failed.forget();
            }
            Err(e) => warn!("no notification ({e:?}): {title}"),
        }
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
        Err(e) => warn!("no notification ({e:?}): {title}"),
    }
}

/// Whether this browser takes pushed notifications (a service worker and a push manager, in a
/// secure context).
fn pushable() -> bool {
    page_helper("pushable")
        .and_then(|(qiguo, pushable)| pushable.call0(&qiguo).ok())
        .is_some_and(|yes| yes.is_truthy())
}

thread_local! {
    /// The browser's answer to the last subscription asked: its JSON, or why not.
    static SUBSCRIBED: RefCell<Option<Result<String, String>>> = const { RefCell::new(None) };
}

/// A push subscription as the browser gives it (`PushSubscription.toJSON()`).
#[derive(serde::Deserialize)]
struct BrowserSubscription {
    endpoint: String,
    keys: BrowserKeys,
}

#[derive(serde::Deserialize)]
struct BrowserKeys {
    p256dh: String,
    auth: String,
}

/// Keeps this device subscribed to the server's notifications while the player allows them:
/// once the server has said it pushes (and with which key), the browser's subscription for
/// that key is made (or found) and given to the server, once a key.
pub(crate) fn keep_subscribed(
    online: Res<Online>,
    time: Res<Time>,
    mut commands: MessageWriter<OnlineCommand>,
    mut subscribed_for: Local<Option<String>>,
    mut look_again: Local<Option<Timer>>,
) {
    let Some(key) = online
        .push
        .as_ref()
        .filter(|push| push.offered)
        .and_then(|push| push.key.as_deref())
    else {
        return;
    };
    if subscribed_for.as_deref() == Some(key) {
        match SUBSCRIBED.take() {
            Some(Ok(json)) => match serde_json::from_str::<BrowserSubscription>(&json) {
                Ok(device) => {
                    commands.write(OnlineCommand::Subscribe {
                        endpoint: device.endpoint,
                        p256dh: device.keys.p256dh,
                        auth: device.keys.auth,
                    });
                }
                Err(e) => debug!("the browser's push subscription is not read: {e}"),
            },
            Some(Err(why)) => debug!("no push subscription: {why}"),
            None => {}
        }
        return;
    }
    // Whether the player allowed notifications is asked of the browser once a second, not
    // every frame (they allow them with a click in *Online…*, or in the browser's settings).
    let timer = look_again.get_or_insert_with(|| Timer::from_seconds(1.0, TimerMode::Repeating));
    if !timer.tick(time.delta()).just_finished() && !online.is_changed() {
        return;
    }
    if !allowed() || !pushable() {
        return;
    }
    let Some((qiguo, subscribe)) = page_helper("subscribe") else {
        return;
    };
    *subscribed_for = Some(key.to_owned());
    match subscribe.call1(&qiguo, &JsValue::from_str(key)) {
        Ok(promise) => {
            let made = Closure::once(move |json: JsValue| {
                SUBSCRIBED.set(Some(json.as_string().ok_or_else(|| "no JSON".to_owned())));
                super::wake();
            });
            let refused = Closure::once(move |e: JsValue| {
                SUBSCRIBED.set(Some(Err(format!("{e:?}"))));
                super::wake();
            });
            let _ = js_sys::Promise::from(promise).then2(&made, &refused);
            // Each runs at most once, once a connection's key.
            made.forget();
            refused.forget();
        }
        Err(e) => debug!("no push subscription: {e:?}"),
    }
}
