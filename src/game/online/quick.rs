//! *Play now* from the *Online…* window (and the welcome card): a pace, and a seat at once in a
//! quick game of it — a computer's kingdom taken over, or a new game against computers; asked
//! once signed in when chosen before connecting.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::QuickPace;

use super::shared::{Online, OnlineCommand, Status};
use super::ui::{OnlineForm, OnlineSectionApp, SectionOrder};
use crate::i18n::Tr;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        quick_once_connected.run_if(|f: Res<OnlineForm>| f.quick_once_connected),
    )
    .add_online_section(SectionOrder::Play, play_section);
}

/// Asks for *Play now* once signed in, when it was chosen before connecting; forgotten if the
/// server refused the connection.
fn quick_once_connected(
    mut form: ResMut<OnlineForm>,
    online: Res<Online>,
    mut commands: MessageWriter<OnlineCommand>,
) {
    match online.status {
        Status::Connected => {
            form.quick_once_connected = false;
            commands.write(OnlineCommand::Quick(form.quick_pace));
        }
        Status::Refused(_) => form.quick_once_connected = false,
        _ => {}
    }
}

/// A pace's name and the line that says what it is.
pub(crate) fn pace_words(tr: Tr, pace: QuickPace) -> (String, String) {
    let (name, hint) = match pace {
        QuickPace::Brisk => ("online-quick-brisk", "online-quick-brisk-hint"),
        QuickPace::Calm => ("online-quick-calm", "online-quick-calm-hint"),
        QuickPace::Daily => ("online-quick-daily", "online-quick-daily-hint"),
        QuickPace::Relaxed => ("online-quick-relaxed", "online-quick-relaxed-hint"),
    };
    (tr.text(name), tr.text(hint))
}

/// *Play now*.
fn play_section(
    InMut(ui): InMut<egui::Ui>,
    online: Res<Online>,
    mut form: ResMut<OnlineForm>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if online.in_touch() {
        quick_form(ui, *tr, &mut form, &mut commands);
    }
}

/// *Play now*: a pace, and a seat at once in a quick game of it (a computer's kingdom taken
/// over, or a new game against computers).
fn quick_form(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.heading(tr.text("online-quick"));
    ui.label(
        RichText::new(tr.text("online-quick-intro"))
            .small()
            .color(Color32::from_gray(170)),
    );
    ui.horizontal_wrapped(|ui| {
        for pace in QuickPace::ALL {
            let (label, hint) = pace_words(tr, pace);
            ui.radio_value(&mut form.quick_pace, pace, label)
                .on_hover_text(hint);
        }
        if ui
            .button(RichText::new(tr.text("online-quick-play")).strong())
            .clicked()
        {
            commands.write(OnlineCommand::Quick(form.quick_pace));
        }
    });
}
