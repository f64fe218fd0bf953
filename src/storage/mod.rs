//! Where the game keeps what it writes — saved games, the autosave, settings, the online keys:
//! files in the platform's directories on the desktop, the browser's local storage in a page.
//! Both are reached by path, with the same few operations, so the saves and settings above are
//! written once. Every write replaces the whole of what it names at once: a reader (and a
//! restart after a crash) sees the old contents or the new, never a mixture.

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(not(target_arch = "wasm32"))]
pub use native::*;
#[cfg(target_arch = "wasm32")]
pub use web::*;

/// The wall clock's time, as the storage reports a file's last change (`std::time` on the
/// desktop; the browser's clock in a page, where `std::time::SystemTime::now` panics).
pub use web_time::SystemTime;

/// The environment variable that moves the desktop's data directory (for tests, or portable
/// installs).
pub const DATA_DIR_VAR: &str = "QIGUO_DATA_DIR";

/// A time as milliseconds since 1970 (before that: 0).
pub fn millis(time: SystemTime) -> i64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
