//! Typing after a tap. When a finger lifts on a text field, the interface focuses a hidden
//! `<input>` (egui's text agent, `#egui_text_agent`) so that the phone raises its keyboard. What
//! is typed then reaches that input, not the canvas: the agent turns its text into egui's only
//! where the browser says it is a phone, and its keys (Enter, the arrows, Tab…) never. On a
//! tablet that says it is a desktop, a touch screen laptop, or a phone's keyboard pressing
//! Enter, the name an invited player types or the line for table talk was lost.
//!
//! This room listens to the agent itself: its text where the agent does not already pass it
//! on, and the keys that edit and submit (Enter, Tab, Escape, the arrows, Home, End, Delete,
//! and Backspace where the agent does not). They are handed to egui's input for the page's
//! context before egui reads its input.

use std::sync::Mutex;

use bevy::prelude::*;
use bevy_egui::input::EguiInputEvent;
use bevy_egui::{EguiPreUpdateSet, PrimaryEguiContext, egui};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// The id egui's text agent has in the page.
const AGENT_ID: &str = "egui_text_agent";

/// Events read from the agent between frames, for the next one.
static TYPED: Mutex<Vec<egui::Event>> = Mutex::new(Vec::new());

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Last, listen_to_the_agent.run_if(run_once_agent_is_there))
        .add_systems(
            PreUpdate,
            hand_typed_to_egui
                .in_set(EguiPreUpdateSet::ProcessInput)
                .in_set(bevy_egui::EguiInputSet::ReadBevyMessages),
        );
}

/// Until the agent is found and listened to.
fn run_once_agent_is_there(mut listening: Local<bool>) -> bool {
    if *listening {
        return false;
    }
    *listening = agent().is_some();
    *listening
}

fn agent() -> Option<web_sys::HtmlInputElement> {
    web_sys::window()?
        .document()?
        .get_element_by_id(AGENT_ID)?
        .dyn_into()
        .ok()
}

/// Whether egui's agent already passes text and Backspace on: where the browser's name says
/// it is a phone or tablet (the agent's own test).
fn agent_passes_text() -> bool {
    const MOBILE: [&str; 6] = ["Android", "iPhone", "iPad", "iPod", "webOS", "BlackBerry"];
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .is_some_and(|agent| MOBILE.iter().any(|m| agent.contains(m)))
}

fn queue(event: egui::Event) {
    if let Ok(mut typed) = TYPED.lock() {
        typed.push(event);
    }
    super::wake();
}

/// Adds the agent's listeners (once; they live as long as the page).
fn listen_to_the_agent() {
    let Some(input) = agent() else { return };
    let passes_text = agent_passes_text();
    if !passes_text {
        let source = input.clone();
        let on_input =
            Closure::<dyn FnMut(web_sys::InputEvent)>::new(move |event: web_sys::InputEvent| {
                let text = source.value();
                if !text.is_empty() && !event.is_composing() {
                    source.set_value("");
                    queue(egui::Event::Text(text));
                }
            });
        if input
            .add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref())
            .is_ok()
        {
            on_input.forget();
        }
    }
    for (name, pressed) in [("keydown", true), ("keyup", false)] {
        let on_key = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
            move |event: web_sys::KeyboardEvent| {
                if event.is_composing() {
                    return;
                }
                let Some(key) = editing_key(&event.key(), passes_text) else {
                    return;
                };
                // Tab would move the browser's focus out of the page's game.
                if key == egui::Key::Tab {
                    event.prevent_default();
                }
                queue(egui::Event::Key {
                    key,
                    physical_key: None,
                    pressed,
                    repeat: pressed && event.repeat(),
                    modifiers: egui::Modifiers {
                        alt: event.alt_key(),
                        ctrl: event.ctrl_key(),
                        shift: event.shift_key(),
                        mac_cmd: event.meta_key(),
                        command: event.ctrl_key() || event.meta_key(),
                    },
                });
            },
        );
        if input
            .add_event_listener_with_callback(name, on_key.as_ref().unchecked_ref())
            .is_ok()
        {
            on_key.forget();
        }
    }
    debug!("listening to the text agent (it passes text itself: {passes_text})");
}

/// The egui key of a browser's key name that edits or submits a field; Backspace only where
/// the agent does not pass it already.
fn editing_key(name: &str, agent_passes_backspace: bool) -> Option<egui::Key> {
    use egui::Key;
    Some(match name {
        "Enter" => Key::Enter,
        "Tab" => Key::Tab,
        "Escape" => Key::Escape,
        "ArrowLeft" => Key::ArrowLeft,
        "ArrowRight" => Key::ArrowRight,
        "ArrowUp" => Key::ArrowUp,
        "ArrowDown" => Key::ArrowDown,
        "Home" => Key::Home,
        "End" => Key::End,
        "Delete" => Key::Delete,
        "Backspace" if !agent_passes_backspace => Key::Backspace,
        _ => return None,
    })
}

/// The events typed into the agent since the last frame, given to the page's context.
fn hand_typed_to_egui(
    contexts: Query<Entity, With<PrimaryEguiContext>>,
    mut events: MessageWriter<EguiInputEvent>,
) {
    let typed = match TYPED.lock() {
        Ok(mut typed) if !typed.is_empty() => std::mem::take(&mut *typed),
        _ => return,
    };
    let Ok(context) = contexts.single() else {
        return;
    };
    for event in typed {
        events.write(EguiInputEvent { context, event });
    }
}
