//! The server of Qiguo's online games, without Bevy: where games live ([`store`]: players,
//! games, seats, moves and invitations in SQLite or PostgreSQL) and the secrets that guard them
//! ([`secret`]: players' keys, invitation codes).
//!
//! Every move is written in a transaction before it is acknowledged, so a server killed at any
//! moment comes back with every move it ever acknowledged.

pub mod secret;
pub mod store;

pub use store::{
    CreatedGame, GameId, GameSpec, NewPlayer, Pace, PlayerId, SeatPlan, Store, StoreError,
    StoredGame, WhenOverdue,
};
