//! *My games* in the *Online…* window: the player's games in progress, those waiting for their
//! move first, each opened on the board.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::GameSummary;

use super::shared::{Online, OnlineCommand};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.add_online_section(SectionOrder::Games, games_section);
}

/// A moment (ms since 1970) in the player's time zone, to the minute.
pub(crate) fn when(tr: Tr, ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| {
            t.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_else(|_| tr.text("online-unknown-time"))
}

/// My games in progress.
fn games_section(
    InMut(ui): InMut<egui::Ui>,
    online: Res<Online>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if online.in_touch() {
        my_games(ui, *tr, &online, &mut commands);
    }
}

fn my_games(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.horizontal(|ui| {
        ui.heading(tr.text("online-my-games"));
        if ui.small_button(tr.text("online-refresh")).clicked() {
            commands.write(OnlineCommand::RefreshGames);
        }
    });
    if online.games.is_empty() {
        ui.label(RichText::new(tr.text("online-no-games")).color(Color32::from_gray(170)));
    } else {
        games_in_progress(ui, tr, online, commands);
    }
}

/// The games in progress, those waiting for the player's move first.
fn games_in_progress(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    egui::ScrollArea::vertical()
        .max_height(180.0)
        .show(ui, |ui| {
            egui::Grid::new("my games")
                .num_columns(5)
                .striped(true)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for heading in [
                        "online-players",
                        "online-to-move",
                        "online-since",
                        "online-deadline",
                        "",
                    ] {
                        ui.label(
                            RichText::new(if heading.is_empty() {
                                String::new()
                            } else {
                                tr.text(heading)
                            })
                            .small()
                            .color(Color32::from_gray(160)),
                        );
                    }
                    ui.end_row();
                    for game in &online.games {
                        game_row(ui, tr, game, online, commands);
                    }
                });
        });
}

/// A game's players in a cell at most `width` wide, all of them on hover.
pub(crate) fn players_cell(ui: &mut egui::Ui, game: &GameSummary, width: f32) {
    let players = game.players.join(", ");
    ui.scope(|ui| {
        ui.set_max_width(width);
        ui.add(egui::Label::new(players.as_str()).truncate())
    })
    .inner
    .on_hover_text(players);
}

fn game_row(
    ui: &mut egui::Ui,
    tr: Tr,
    game: &GameSummary,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    players_cell(ui, game, 250.0);
    let to_move = match game.to_move {
        None => tr.text("online-over"),
        Some(k) if game.your_turn => tr!(tr, "online-your-move", kingdom = tr.kingdom(k)),
        Some(k) => tr.kingdom(k).to_string(),
    };
    let colour = if game.your_turn {
        Color32::from_rgb(255, 215, 120)
    } else {
        Color32::from_gray(210)
    };
    ui.label(RichText::new(to_move).color(colour));
    ui.label(when(tr, game.since_ms));
    ui.label(game.deadline_ms.map(|d| when(tr, d)).unwrap_or_default());
    let on_board = online.table.as_ref().is_some_and(|t| t.id == game.id);
    if on_board {
        ui.label(RichText::new(tr.text("online-on-board")).small());
    } else if ui.button(tr.text("online-open")).clicked() {
        commands.write(OnlineCommand::Open(game.id.clone()));
    }
    ui.end_row();
}
