//! The server of Qiguo's online games, without Bevy: who is let in and how much each may ask
//! ([`admission`]), where games live ([`store`]: players,
//! games, seats, moves and invitations in SQLite or PostgreSQL), the secrets that guard them
//! ([`secret`]), what clients and the server say ([`protocol`], the `qiguo-protocol` crate), the games a running server
//! holds and plays ([`hub`], around each game's pure core, [`live`]), the server on the network ([`server`]), a client ([`client`]), the
//! player's keys ([`keys`]), a client on a thread of its own for the window ([`link`]), the
//! e-mail to players who are away ([`mail`]), the server's log ([`log`]) and counts ([`metrics`]) and its command line ([`cli`], the `qiguo-server` binary's and
//! `qiguo server`'s).
//!
//! Every move is written in a transaction before it is acknowledged, so a server killed at any
//! moment comes back with every move it ever acknowledged.

pub mod admission;
pub mod cli;
pub mod client;
pub mod hub;
pub mod keys;
pub mod link;
pub mod live;
pub mod log;
pub mod mail;
pub mod metrics;
pub mod page;
pub use qiguo_protocol as protocol;
pub mod secret;
pub mod server;
pub mod store;

pub use store::{
    CreatedGame, GameId, MadeBy, NewPlayer, Pace, PlayerId, SeatPlan, Store, StoreError,
    StoredGame, WhenOverdue,
};
