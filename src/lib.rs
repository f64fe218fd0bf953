//! Qiguo Xiangqi (七國象棋), the Game of the Seven Kingdoms, as a 3D hot-seat board game.
//!
//! The rules live in the `qiguo-rules` crate; this crate is the game around them: the command
//! line ([`cli`]) and the Bevy app ([`game`]), built from one plugin per concern.

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod game;
pub mod game_text;
pub mod i18n;
pub mod lessons;
pub mod report;
pub mod saves;
pub mod settings;
pub mod storage;
#[cfg(target_arch = "wasm32")]
pub mod web;
