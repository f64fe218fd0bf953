//! The browser's notifications: asked for once, on the player's click (browsers allow the
//! question only then), and shown when another of the player's games waits for their move.
//! Browsers need a secure context for them (https, or loopback): a plain LAN page goes without,
//! and nothing is shown.

use bevy::log::debug;
use web_sys::{Notification, NotificationOptions, NotificationPermission};

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

/// Shows a notification with `title` and `body`, if allowed.
pub(crate) fn show(title: &str, body: &str) {
    if !allowed() {
        return;
    }
    let options = NotificationOptions::new();
    options.set_body(body);
    options.set_tag("qiguo: your move");
    if let Err(e) = Notification::new_with_options(title, &options) {
        debug!("no notification ({e:?}): {title}");
    }
}
