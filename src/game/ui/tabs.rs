//! One Tab a frame. egui moves the keyboard's focus once a frame, however many Tabs the frame
//! brings (its memory keeps one direction), and a key pressed after a Tab in the same frame acts
//! on the widget the focus left. Where frames are slow (a software renderer, a busy phone, a
//! page in a background tab) a player who presses Tab twice, or Tab then Enter, quickly would
//! lose a step or press the wrong button — and one who cannot see the screen would not know. So
//! what comes after a Tab in a frame's input waits for the next frame, in its order.

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::{EguiInput, EguiPreUpdateSet, PrimaryEguiContext};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        one_tab_a_frame
            .after(EguiPreUpdateSet::ProcessInput)
            .before(EguiPreUpdateSet::BeginPass),
    );
}

/// The most events held back for the next frames (a Tab held down on a very slow screen repeats
/// faster than the frames take them: beyond this they are let go, as a key's repeat is).
const WAITING_AT_MOST: usize = 64;

/// Whether `event` moves egui's focus: Tab pressed (with Shift or not).
fn moves_focus(event: &egui::Event) -> bool {
    matches!(
        event,
        egui::Event::Key {
            key: egui::Key::Tab,
            pressed: true,
            ..
        }
    )
}

/// Splits a frame's events after its first Tab: the events this frame takes, and those that
/// wait for the next.
pub(crate) fn split_after_tab(
    mut events: Vec<egui::Event>,
) -> (Vec<egui::Event>, Vec<egui::Event>) {
    match events.iter().position(moves_focus) {
        Some(tab) => {
            let later = events.split_off(tab + 1);
            (events, later)
        }
        None => (events, Vec::new()),
    }
}

/// The events held back from the last frame go first into this one; what follows its first Tab
/// is held back again.
fn one_tab_a_frame(
    mut inputs: Query<&mut EguiInput, With<PrimaryEguiContext>>,
    mut waiting: Local<Vec<egui::Event>>,
    mut redraw: crate::game::frames::Redraw,
) {
    let Ok(mut input) = inputs.single_mut() else {
        return;
    };
    let mut events = std::mem::take(&mut *waiting);
    events.append(&mut input.events);
    let (now, mut later) = split_after_tab(events);
    later.truncate(WAITING_AT_MOST);
    input.events = now;
    if !later.is_empty() {
        // What waits needs the next frame (the game draws none unless asked).
        redraw.now();
    }
    *waiting = later;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(key: egui::Key, modifiers: egui::Modifiers) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers,
        }
    }

    /// A frame of three buttons with `events`; the buttons pressed are added to `pressed`.
    fn frame(ctx: &egui::Context, events: Vec<egui::Event>, pressed: &mut Vec<usize>) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            events,
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            for i in 0..3 {
                if ui.button(format!("Button {i}")).clicked() {
                    pressed.push(i);
                }
            }
        });
        output.textures_delta.clear();
    }

    /// Two Tabs and Enter arriving in one slow frame: egui alone moves the focus once and the
    /// Enter lands on the first button; split a Tab a frame, the focus moves twice and Enter
    /// presses the second button, as the player meant.
    #[test]
    fn tabs_in_one_frame_each_move_the_focus() {
        let tab = || key(egui::Key::Tab, egui::Modifiers::NONE);
        let enter = || key(egui::Key::Enter, egui::Modifiers::NONE);
        let burst = || vec![tab(), tab(), enter()];

        // As egui takes them, all in one frame.
        let ctx = egui::Context::default();
        let mut pressed = Vec::new();
        frame(&ctx, Vec::new(), &mut pressed);
        frame(&ctx, burst(), &mut pressed);
        for _ in 0..3 {
            frame(&ctx, Vec::new(), &mut pressed);
        }
        assert_ne!(
            pressed,
            vec![1],
            "egui alone gets it right: the test shows nothing"
        );

        // A Tab a frame.
        let ctx = egui::Context::default();
        let mut pressed = Vec::new();
        frame(&ctx, Vec::new(), &mut pressed);
        let mut waiting = burst();
        let mut frames = 0;
        while !waiting.is_empty() {
            let (now, later) = split_after_tab(waiting);
            frame(&ctx, now, &mut pressed);
            waiting = later;
            frames += 1;
        }
        frame(&ctx, Vec::new(), &mut pressed);
        assert_eq!(frames, 3, "Tab, Tab, then Enter");
        assert_eq!(pressed, vec![1], "Enter pressed the second button");
    }

    #[test]
    fn what_follows_the_first_tab_waits_in_order() {
        let a = egui::Event::Text("a".into());
        let shift_tab = key(egui::Key::Tab, egui::Modifiers::SHIFT);
        let b = egui::Event::Text("b".into());
        let (now, later) = split_after_tab(vec![a.clone(), shift_tab.clone(), b.clone()]);
        assert_eq!(now, vec![a.clone(), shift_tab]);
        assert_eq!(later, vec![b]);
        // No Tab: everything at once.
        let (now, later) = split_after_tab(vec![a.clone()]);
        assert_eq!((now, later), (vec![a], Vec::new()));
    }
}
