//! Keys for going through the game: Ctrl+Z takes a move back, Ctrl+Y (or Ctrl+Shift+Z) plays
//! it again; the arrow keys, Home and End step through earlier positions, and End or Escape
//! return to the game. The HUD's move list and buttons send the same requests.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

use super::AppSystems;
use super::state::{RedoRequested, Review, ReviewRequested, UndoRequested};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        history_keys
            .run_if(not(egui_wants_any_keyboard_input))
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
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl {
        if keys.just_pressed(KeyCode::KeyZ) {
            if shift {
                redo.write(RedoRequested);
            } else {
                undo.write(UndoRequested);
            }
        } else if keys.just_pressed(KeyCode::KeyY) {
            redo.write(RedoRequested);
        }
        return;
    }
    let step = if keys.just_pressed(KeyCode::ArrowLeft) {
        Some(ReviewRequested::Back)
    } else if keys.just_pressed(KeyCode::ArrowRight) {
        Some(ReviewRequested::Forward)
    } else if keys.just_pressed(KeyCode::Home) {
        Some(ReviewRequested::First)
    } else if keys.just_pressed(KeyCode::End)
        || (review.ply.is_some() && keys.just_pressed(KeyCode::Escape))
    {
        Some(ReviewRequested::Live)
    } else {
        None
    };
    if let Some(step) = step {
        steps.write(step);
    }
}
