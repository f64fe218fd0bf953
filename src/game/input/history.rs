//! Keys for going through the game (bound in [`keys`]): Ctrl+Z takes a move back, Ctrl+Y (or
//! Ctrl+Shift+Z) plays it again; the arrow keys, Home and End step through earlier positions,
//! and End or Escape return to the game. The HUD's move list and buttons send the same requests.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

use crate::game::keyboard;
use crate::game::schedule::AppSystems;
use crate::game::state::{RedoRequested, Review, ReviewRequested, UndoRequested};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        history_keys
            .run_if(not(egui_wants_any_keyboard_input))
            .run_if(super::cursor_hidden)
            .in_set(AppSystems::RecordInput),
    );
}

fn history_keys(
    keys: Res<ButtonInput<KeyCode>>,
    review: Res<Review>,
    mut undo: MessageWriter<UndoRequested>,
    mut redo: MessageWriter<RedoRequested>,
    mut steps: MessageWriter<ReviewRequested>,
) {
    if keyboard::UNDO.just_pressed(&keys) {
        undo.write(UndoRequested);
    }
    if keyboard::REDO.just_pressed(&keys) || keyboard::REDO_SHIFT.just_pressed(&keys) {
        redo.write(RedoRequested);
    }
    let step = if keyboard::REVIEW_BACK.just_pressed(&keys) {
        Some(ReviewRequested::Back)
    } else if keyboard::REVIEW_FORWARD.just_pressed(&keys) {
        Some(ReviewRequested::Forward)
    } else if keyboard::REVIEW_FIRST.just_pressed(&keys) {
        Some(ReviewRequested::First)
    } else if keyboard::REVIEW_LIVE.just_pressed(&keys)
        || (review.ply.is_some() && keyboard::ESCAPE.just_pressed(&keys))
    {
        Some(ReviewRequested::Live)
    } else {
        None
    };
    if let Some(step) = step {
        steps.write(step);
    }
}
