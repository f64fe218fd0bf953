//! *Play now* from the *Online…* window (and the welcome card): a pace, and a seat at once in a
//! quick game of it — a computer's kingdom taken over, or a new game against computers; asked
//! once signed in when chosen before connecting.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::QuickPace;

use super::shared::{Online, OnlineCommand, Status};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::i18n::Tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlayNow>()
        .add_systems(
            Update,
            quick_once_connected.run_if(|p: Res<PlayNow>| p.once_connected),
        )
        .add_online_section(SectionOrder::Play, play_section);
}

/// The pace *Play now* asks for, and whether it waits for the connection being made.
#[derive(Resource, Debug, Clone)]
pub(crate) struct PlayNow {
    /// The pace asked for.
    pace: QuickPace,
    /// Chosen before connecting (the welcome card): asked once signed in.
    once_connected: bool,
}

impl Default for PlayNow {
    fn default() -> PlayNow {
        PlayNow {
            pace: QuickPace::Brisk,
            once_connected: false,
        }
    }
}

impl PlayNow {
    /// The pace, to choose.
    pub(crate) fn pace_mut(&mut self) -> &mut QuickPace {
        &mut self.pace
    }

    /// *Play now* at the chosen pace as soon as the connection being made signs in.
    pub(crate) fn once_connected(&mut self) {
        self.once_connected = true;
    }
}

/// Asks for *Play now* once signed in, when it was chosen before connecting; forgotten if the
/// server refused the connection.
fn quick_once_connected(
    mut play: ResMut<PlayNow>,
    online: Res<Online>,
    mut commands: MessageWriter<OnlineCommand>,
) {
    match online.status {
        Status::Connected => {
            play.once_connected = false;
            commands.write(OnlineCommand::Quick(play.pace));
        }
        Status::Refused(_) => play.once_connected = false,
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
    mut play: ResMut<PlayNow>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if online.in_touch() {
        quick_form(ui, *tr, &mut play, &mut commands);
    }
}

/// *Play now*: a pace, and a seat at once in a quick game of it (a computer's kingdom taken
/// over, or a new game against computers).
fn quick_form(
    ui: &mut egui::Ui,
    tr: Tr,
    play: &mut PlayNow,
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
            ui.radio_value(&mut play.pace, pace, label)
                .on_hover_text(hint);
        }
        if ui
            .button(RichText::new(tr.text("online-quick-play")).strong())
            .clicked()
        {
            commands.write(OnlineCommand::Quick(play.pace));
        }
    });
}
