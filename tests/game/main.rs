//! The game's tests, in one binary so that Bevy is linked once: a module per concern, sharing
//! the headless test app in [`common`].

mod common;

mod chaos;
mod cli;
mod concede;
mod frames;
mod headless;
mod hint;
mod lessons;
mod online;
mod online_cli;
mod pace;
mod practice;
mod review;
mod saves;
mod screenshot;
mod telling;
mod typed;
