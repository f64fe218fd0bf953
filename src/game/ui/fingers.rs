//! A finger on the interface. egui takes a press for a click on the widget that was under the
//! pointer in the frame before; a finger, unlike a mouse, is nowhere until it lands, so a tap
//! was a press on nothing and buttons and text fields never answered it. Here the finger is
//! first shown to egui where it lands, and pressed a frame later (at once, if it lifts in the
//! same frame); the rest is as egui's own reading of touches: the finger is the pointer while it
//! is down, and gone the frame after it lifts (egui takes a release whose pointer is gone in
//! the same frame for a release on nothing). In a page, a text field a finger focused raises
//! the phone's keyboard (egui's text agent) once egui has drawn it focused.

use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
#[cfg(target_arch = "wasm32")]
use bevy_egui::EguiOutput;
use bevy_egui::input::EguiInputEvent;
use bevy_egui::{EguiContextSettings, EguiInputSet, EguiPreUpdateSet, PrimaryEguiContext, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Finger>().add_systems(
        PreUpdate,
        (take_over_touches, fingers_to_egui)
            .chain()
            .in_set(EguiPreUpdateSet::ProcessInput)
            .in_set(EguiInputSet::FocusContext),
    );
    #[cfg(target_arch = "wasm32")]
    app.add_systems(
        PostUpdate,
        keyboard_follows_focus.after(bevy_egui::EguiPostUpdateSet::ProcessOutput),
    );
}

/// In a page, the phone's keyboard is up while a text field has the focus that a finger gave
/// it (egui's text agent focused), and down when no field has it. Decided from what egui drew,
/// after the tap was read: a tap lands and lifts within a frame on a phone.
#[cfg(target_arch = "wasm32")]
fn keyboard_follows_focus(
    contexts: Query<&EguiOutput, With<PrimaryEguiContext>>,
    fingers: Res<crate::game::input::touch::Fingers>,
    mut raised: Local<bool>,
) {
    let Ok(output) = contexts.single() else {
        return;
    };
    let typing = output.platform_output.ime.is_some();
    if typing == *raised || (typing && !fingers.0) || mobile_safari() {
        return;
    }
    *raised = typing;
    bevy_egui::text_agent::update_text_agent(typing);
}

/// The finger egui follows as its pointer: its id, and where a press is still to be given.
#[derive(Resource, Default, Debug)]
struct Finger {
    id: Option<u64>,
    press_due: Option<egui::Pos2>,
    gone_due: bool,
}

/// bevy_egui's own reading of touches is turned off for the page's context: this one reads
/// them.
fn take_over_touches(mut contexts: Query<&mut EguiContextSettings, Added<PrimaryEguiContext>>) {
    for mut settings in &mut contexts {
        settings
            .input_system_settings
            .run_write_window_touch_messages_system = false;
    }
}

fn fingers_to_egui(
    mut touches: MessageReader<TouchInput>,
    contexts: Query<(Entity, &bevy_egui::EguiZoomFactor), With<PrimaryEguiContext>>,
    mut finger: ResMut<Finger>,
    mut events: MessageWriter<EguiInputEvent>,
) {
    let Ok((context, zoom)) = contexts.single() else {
        touches.clear();
        return;
    };
    let mut send = |event| {
        events.write(EguiInputEvent { context, event });
    };
    let press = |pos| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    };
    // The press due from a finger that landed in an earlier frame.
    if let Some(pos) = finger.press_due.take() {
        send(press(pos));
    }
    // A lifted finger leaves the frame after: egui reads a release whose pointer is already
    // gone as a release on nothing, and no click.
    if std::mem::take(&mut finger.gone_due) && finger.id.is_none() {
        send(egui::Event::PointerGone);
    }
    for touch in touches.read() {
        let pos = egui::pos2(
            touch.position.x / zoom.zoom_factor,
            touch.position.y / zoom.zoom_factor,
        );
        if finger.id.is_some_and(|id| id != touch.id) {
            continue;
        }
        match touch.phase {
            TouchPhase::Started => {
                finger.id = Some(touch.id);
                finger.press_due = Some(pos);
                send(egui::Event::PointerMoved(pos));
            }
            TouchPhase::Moved => send(egui::Event::PointerMoved(pos)),
            TouchPhase::Ended => {
                if let Some(at) = finger.press_due.take() {
                    send(press(at));
                }
                send(egui::Event::PointerButton {
                    pos,
                    button: egui::PointerButton::Primary,
                    pressed: false,
                    modifiers: egui::Modifiers::NONE,
                });
                finger.gone_due = true;
                finger.id = None;
            }
            TouchPhase::Canceled => {
                finger.press_due = None;
                finger.id = None;
                send(egui::Event::PointerGone);
            }
        }
    }
}

/// Whether the page runs in Safari on an iPhone or iPad, where the keyboard is raised from the
/// touch's own event by egui's agent instead (the same test as the agent's).
#[cfg(target_arch = "wasm32")]
fn mobile_safari() -> bool {
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .is_some_and(|agent| {
            ["iPhone", "iPad", "iPod"].iter().any(|d| agent.contains(d)) && agent.contains("Safari")
        })
}
