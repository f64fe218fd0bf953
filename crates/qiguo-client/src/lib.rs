//! The client of Qiguo's online games, for every front end: the game window, the page and
//! `qiguo online` talk to a server through this crate alone.
//!
//! - [`KeyStore`]: the player's key ring (one key per server), kept in a file of the data
//!   directory on the desktop and in the browser's storage in a page; read, kept, merged,
//!   exported and imported in one place.
//! - [`Backoff`]: when to connect again after a lost connection — the same policy for the
//!   window, the page and `qiguo online`.
//! - [`Link`]: the conversation for a program that cannot wait (a window drawing a frame at a
//!   time): requests go in tagged, answers and events come out as [`News`] to poll. Its rules
//!   (the hello with the key ring, a new player's key kept, requests queued while signing in
//!   and failed at once while away, the events that came while an answer was awaited passed
//!   on after it) are one state machine without I/O, driven by Tokio on the desktop and by the
//!   browser's WebSocket events in a page.
//! - On the desktop also the plain async [`Client`] over a native WebSocket (`ws://`, or
//!   `wss://` through rustls) with [`connect`] and [`sign_in`], for `qiguo online` and the
//!   server's tests.
//!
//! The protocol's types are the `qiguo-protocol` crate's.

mod backoff;
mod keys;
mod link_state;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(target_arch = "wasm32")]
mod web;

pub use backoff::Backoff;
pub use keys::{KeyStore, KeysError};
pub use link_state::Who;
pub use qiguo_protocol::client::{ClientError, Welcome};
pub use qiguo_protocol::link::News;

/// What a link calls when it has news to poll, to wake an owner that does not look every frame.
pub type Wake = std::sync::Arc<dyn Fn() + Send + Sync>;

#[cfg(not(target_arch = "wasm32"))]
pub use native::{
    Client, Link, SignInError, StartError, Starter, Target, Trust, WebSocket, connect, connect_in,
    connect_unsigned, sign_in,
};
#[cfg(target_arch = "wasm32")]
pub use web::{Link, page_server};
