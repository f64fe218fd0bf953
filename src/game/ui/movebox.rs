//! The move box: a move typed as the move list writes it (`c10h15`), with the legal moves that
//! fit what is typed offered below it. `/` or Enter opens it; Enter plays the move typed, or the
//! chosen suggestion; Up and Down choose, Tab completes, Esc closes. The move goes through the same
//! checks and request as a click (see `selection::typed`); it stands above the status line,
//! where a refused move is answered. It also takes commands (`last`, `where Chu`, `attacks k4`,
//! `hint`, … read and answered by `game::telling`): the answer, a [`Told`], is shown under the
//! field; `hint`, `undo` and `concede` do what their buttons do.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_rules::{Move, notation};

use crate::game::keyboard;
use crate::game::selection::typed::{MoveTyped, suggestions};
use crate::game::state::{Match, Turn, TurnPhase};
use crate::game::telling::{self, Told};
use crate::i18n::Tr;
use crate::tr;

/// What the suggestions were made for: the turn, its phase and the text typed.
type FittingKey = (Turn, TurnPhase, String);

/// Suggestions listed at most (the rest are counted).
const SHOWN: usize = 8;

/// The move box's state.
#[derive(Resource, Default, Debug)]
pub(crate) struct MoveBox {
    /// Shown or not.
    pub(crate) open: bool,
    /// What is typed.
    text: String,
    /// The suggestion Enter plays when the text is not a whole move.
    chosen: usize,
    /// The text field takes the keyboard next frame.
    focus: bool,
    /// The answer to the last command, shown under the field until the next.
    answer: Option<String>,
}

/// `/` or Enter opens the box (when no other field has the keyboard), or gives the keyboard
/// back to the open box's field after a click elsewhere took it.
pub(super) fn open_key(input: Res<ButtonInput<KeyCode>>, mut movebox: ResMut<MoveBox>) {
    if !(keyboard::MOVE_BOX.just_pressed(&input) || keyboard::MOVE_BOX_ENTER.just_pressed(&input)) {
        return;
    }
    if !movebox.open {
        movebox.open = true;
        movebox.text.clear();
        movebox.chosen = 0;
    }
    movebox.focus = true;
}

pub(super) fn move_box(
    mut contexts: EguiContexts,
    mut movebox: ResMut<MoveBox>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    mut typed: MessageWriter<MoveTyped>,
    mut told: MessageReader<Told>,
    tr: Res<Tr>,
    mut fitting: Local<Option<(FittingKey, Vec<Move>)>>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    if let Some(Told(words)) = told.read().last() {
        movebox.answer = Some(words.clone());
    }
    // No move contains a slash: the key that opened the box may have typed one.
    if movebox.text.contains('/') {
        movebox.text = movebox.text.replace('/', "");
    }
    // The suggestions change with the turn and the text only: made once for each.
    let key = (the_match.turn(), *phase.get(), movebox.text.clone());
    if fitting.as_ref().is_none_or(|(k, _)| *k != key) {
        let found = if *phase.get() == TurnPhase::AwaitingInput {
            suggestions(the_match.position(), &movebox.text)
        } else {
            Vec::new()
        };
        *fitting = Some((key, found));
    }
    let fitting: &[Move] = fitting.as_ref().map_or(&[], |(_, found)| found);
    movebox.chosen = movebox.chosen.min(fitting.len().saturating_sub(1));
    let mut submit: Option<String> = None;
    let mut close = false;
    egui::Window::new(tr.text("movebox-title"))
        .id(egui::Id::new("move_box"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(10.0, -84.0))
        .show(ctx, |ui| {
            // The arrows choose a suggestion before the text field sees them.
            let (down, up, tab) = ui.input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::Tab),
                )
            });
            if down && movebox.chosen + 1 < fitting.len().min(SHOWN) {
                movebox.chosen += 1;
            }
            if up {
                movebox.chosen = movebox.chosen.saturating_sub(1);
            }
            if tab && let Some(mv) = fitting.get(movebox.chosen) {
                movebox.text = mv.to_string();
                movebox.focus = true;
            }
            let field = ui.add(
                egui::TextEdit::singleline(&mut movebox.text)
                    .hint_text(tr.text("movebox-hint"))
                    .desired_width(220.0)
                    .font(egui::TextStyle::Monospace),
            );
            if movebox.focus {
                field.request_focus();
                movebox.focus = false;
            }
            if field.changed() {
                movebox.chosen = 0;
            }
            let (enter, escape) = ui.input(|i| {
                (
                    i.key_pressed(egui::Key::Enter),
                    i.key_pressed(egui::Key::Escape),
                )
            });
            if escape {
                close = true;
            } else if enter && field.lost_focus() {
                // The whole move typed, else the chosen suggestion.
                let text = movebox.text.trim().to_owned();
                submit = match (
                    notation::parse_move(&text.to_ascii_lowercase()),
                    fitting.get(movebox.chosen),
                ) {
                    (Ok(_), _) => Some(text),
                    (Err(_), Some(mv)) if !text.is_empty() => Some(mv.to_string()),
                    _ => Some(text),
                };
                movebox.focus = true;
            }
            // The answer to the last command, under the field where the eye (or the screen
            // reader's cursor) is.
            if let Some(answer) = &movebox.answer {
                ui.set_max_width(360.0);
                ui.label(RichText::new(answer).strong());
            }
            for (i, mv) in fitting.iter().take(SHOWN).enumerate() {
                let label = RichText::new(mv.to_string()).monospace();
                if ui.selectable_label(i == movebox.chosen, label).clicked() {
                    submit = Some(mv.to_string());
                    movebox.focus = true;
                }
            }
            if fitting.len() > SHOWN {
                ui.label(tr!(tr, "movebox-more", count = fitting.len() - SHOWN));
            } else if fitting.is_empty()
                && !movebox.text.trim().is_empty()
                && telling::read(&movebox.text, tr).is_none()
            {
                ui.label(RichText::new(tr.text("movebox-none")).color(Color32::from_gray(170)));
            }
            ui.label(
                RichText::new(tr.text("movebox-help"))
                    .small()
                    .color(Color32::from_gray(160)),
            );
        });
    if close {
        movebox.open = false;
    }
    if let Some(text) = submit.filter(|t| !t.is_empty()) {
        typed.write(MoveTyped(text));
        movebox.text.clear();
        movebox.chosen = 0;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(app: &mut App, key: KeyCode) {
        let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        input.release_all();
        input.clear();
        input.press(key);
        app.update();
    }

    /// `/` opens the box with the keyboard in its field; after a click elsewhere took the
    /// keyboard, `/` gives it back without losing what was typed.
    #[test]
    fn the_key_opens_the_box_and_gives_its_field_the_keyboard_back() {
        let mut app = App::new();
        app.init_resource::<ButtonInput<KeyCode>>()
            .init_resource::<MoveBox>()
            .add_systems(Update, open_key);
        press(&mut app, KeyCode::Slash);
        let movebox = app.world().resource::<MoveBox>();
        assert!(movebox.open && movebox.focus);

        // The field took the keyboard, something was typed, then a click went elsewhere.
        let mut movebox = app.world_mut().resource_mut::<MoveBox>();
        movebox.focus = false;
        movebox.text = "c10".to_owned();
        press(&mut app, KeyCode::Enter);
        let movebox = app.world().resource::<MoveBox>();
        assert!(movebox.open && movebox.focus, "{movebox:?}");
        assert_eq!(movebox.text, "c10");

        // Other keys leave it be.
        app.world_mut().resource_mut::<MoveBox>().focus = false;
        press(&mut app, KeyCode::KeyM);
        assert!(!app.world().resource::<MoveBox>().focus);
    }
}
