//! The browser's notifications and push subscription. Browsers allow the question whether a
//! page may notify only on a click ([`ask`]), and need a secure context (https, or loopback):
//! a plain LAN page goes without, and nothing is shown.
//!
//! Notifications go through the page's service worker (`web/sw.js`, through `qiguo.notify` in
//! `web/index.html`): Android's Chrome refuses `new Notification`. A push subscription is made
//! (or found) for the server's key through `qiguo.subscribe`.

use bevy::log::{debug, info, warn};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Notification, NotificationOptions, NotificationPermission};

use super::page_helper;

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

/// Whether the page's tab is hidden (in the background, or the browser minimised).
pub(crate) fn hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

/// Shows a notification with `title` and `body`, tagged `tag` (a newer one with the same tag
/// replaces it), if allowed: through the service worker where the page has one (a click
/// brings the page forward), else the page's own.
pub(crate) fn show(title: &str, body: &str, tag: &str) {
    if !allowed() {
        info!("notifications are not allowed: none shown");
        return;
    }
    if let Some((qiguo, notify)) = page_helper("notify") {
        let note = js_sys::Object::new();
        for (key, value) in [("title", title), ("body", body), ("tag", tag), ("url", "/")] {
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
    options.set_tag(tag);
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
pub(crate) fn pushable() -> bool {
    page_helper("pushable")
        .and_then(|(qiguo, pushable)| pushable.call0(&qiguo).ok())
        .is_some_and(|yes| yes.is_truthy())
}

/// A push subscription as the browser gives it (`PushSubscription.toJSON()`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub(crate) struct Subscription {
    /// Where the push service takes messages for this device.
    pub endpoint: String,
    /// The device's keys for the messages' encryption.
    pub keys: SubscriptionKeys,
}

/// A subscription's keys (RFC 8291): the device's public key and the shared secret.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub(crate) struct SubscriptionKeys {
    /// The device's public key (P-256, base64url).
    pub p256dh: String,
    /// The authentication secret (base64url).
    pub auth: String,
}

/// Why the browser gave no push subscription.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SubscribeError {
    /// The browser refused (the player withdrew the leave, the push service is out of reach).
    #[error("the browser refused: {0}")]
    Refused(String),
    /// The page's helper answered with something other than the subscription's JSON.
    #[error("the subscription is not read: {0}")]
    Unread(String),
}

/// Makes (or finds) this device's push subscription for the server's `key`; `answered` takes
/// it, or why there is none, once the browser answers (then the game is woken). Whether it
/// was asked (not where the page has no helper for it).
pub(crate) fn subscribe(
    key: &str,
    answered: impl FnOnce(Result<Subscription, SubscribeError>) + 'static,
) -> bool {
    let Some((qiguo, subscribe)) = page_helper("subscribe") else {
        return false;
    };
    match subscribe.call1(&qiguo, &JsValue::from_str(key)) {
        Ok(promise) => {
            let answered = std::rc::Rc::new(std::cell::Cell::new(Some(answered)));
            let on_refusal = answered.clone();
            let made = Closure::once(move |json: JsValue| {
                let subscription = json
                    .as_string()
                    .ok_or_else(|| SubscribeError::Unread(format!("{json:?}")))
                    .and_then(|text| {
                        serde_json::from_str(&text)
                            .map_err(|e| SubscribeError::Unread(e.to_string()))
                    });
                if let Some(answered) = answered.take() {
                    answered(subscription);
                }
                super::wake();
            });
            let refused = Closure::once(move |e: JsValue| {
                if let Some(answered) = on_refusal.take() {
                    answered(Err(SubscribeError::Refused(format!("{e:?}"))));
                }
                super::wake();
            });
            let _ = js_sys::Promise::from(promise).then2(&made, &refused);
            // Each runs at most once, once a subscription asked.
            made.forget();
            refused.forget();
            true
        }
        Err(e) => {
            debug!("no push subscription: {e:?}");
            false
        }
    }
}
