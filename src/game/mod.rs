//! The Bevy game, one plugin per concern. [`logic_plugins`] hold the game's state and
//! behaviour and run headless (tests drive them with messages); [`view_plugins`] add
//! rendering, picking, the camera and the HUD.

pub mod app;
pub(crate) mod art;
pub mod awareness;
pub(crate) mod board;
pub(crate) mod camera;
pub mod computer;
pub mod frames;
pub mod headless;
pub mod hint;
pub(crate) mod input;
pub(crate) mod keyboard;
pub mod layout;
pub mod lessons;
pub mod online;
pub mod pace;
pub mod practice;
pub(crate) mod preferences;
pub mod recap;
pub mod review;
pub mod saving;
pub mod schedule;
pub(crate) mod search;
pub mod selection;
pub mod sound;
pub mod state;
pub mod stones;
pub mod telling;
pub(crate) mod tools;
pub(crate) mod ui;
pub(crate) mod widgets;
pub(crate) mod wording;

pub use app::plugins::{logic_plugins, view_plugins};
#[cfg(not(target_arch = "wasm32"))]
pub use app::run;
pub use schedule::AppSystems;
pub use state::Match;
