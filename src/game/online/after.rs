//! After the game, online: the player's finished games, a page at a time — who played, who won
//! and how, when it ended — read when the *Online…* window's section is first opened (or on a
//! [`ReadFinished`] message) and again with *My games*; each opened on the board (its report
//! and record there) or offered as a rematch.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::{Answer, Ask, GameSummary};

use super::my_games::{players_cell, when};
use super::shared::{Answered, Online, OnlineCommand, OnlineSystems, Pending, SignedIn};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineFinished>()
        .add_message::<ReadFinished>()
        .add_systems(
            Update,
            (forget_once_signed_in, ask, read_answers)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Finished, section);
}

/// Read a page (from 0) of the player's finished games.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadFinished(pub u32);

/// The page of finished games last read.
#[derive(Resource, Debug, Default)]
pub struct OnlineFinished {
    /// The games, the page, whether more follow; once read.
    pub page: Option<(Vec<GameSummary>, u32, bool)>,
    /// The requests asked.
    pending: Pending<()>,
}

/// Signed in (again): what was read is another session's.
fn forget_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut finished: ResMut<OnlineFinished>,
) {
    if signed_in.read().last().is_some() {
        finished.page = None;
    }
}

/// A page asked for; the page shown read again when *My games* is.
fn ask(
    mut asked: MessageReader<ReadFinished>,
    mut commands: MessageReader<OnlineCommand>,
    mut finished: ResMut<OnlineFinished>,
    mut online: ResMut<Online>,
) {
    let again = commands
        .read()
        .any(|c| matches!(c, OnlineCommand::RefreshGames))
        .then(|| finished.page.as_ref().map(|(_, page, _)| *page))
        .flatten();
    for page in asked.read().map(|ReadFinished(page)| *page).chain(again) {
        finished
            .pending
            .ask(&mut online, Ask::Finished { page }, ());
    }
}

fn read_answers(
    mut answers: MessageReader<Answered>,
    mut finished: ResMut<OnlineFinished>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for ((), answer) in finished.pending.answers(answers.read(), &mut notices, *tr) {
        if let Answer::Finished { games, page, more } = answer {
            finished.page = Some((games.clone(), *page, *more));
        }
    }
}

/// The finished games, a page at a time (read when the section is opened): who played, who
/// won and how, when it ended; opened on the board (its report and record there), or played
/// again.
fn section(
    InMut(ui): InMut<egui::Ui>,
    finished: Res<OnlineFinished>,
    online: Res<Online>,
    mut read: MessageWriter<ReadFinished>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if !online.in_touch() {
        return;
    }
    let tr = *tr;
    let shown = egui::CollapsingHeader::new(tr.text("online-finished"))
        .id_salt("finished games")
        .show(ui, |ui| {
            let Some((games, page, more)) = &finished.page else {
                ui.label(RichText::new(tr.text("online-reading")).color(Color32::from_gray(170)));
                return;
            };
            if games.is_empty() {
                ui.label(
                    RichText::new(tr.text("online-no-finished")).color(Color32::from_gray(170)),
                );
            }
            egui::Grid::new("finished games")
                .num_columns(4)
                .striped(true)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for game in games {
                        players_cell(ui, game, 220.0);
                        let victory = game.victory.as_deref().and_then(|code| {
                            qiguo_rules::Victory::ALL
                                .into_iter()
                                .find(|v| v.name() == code)
                        });
                        let result = match (game.winner, victory) {
                            (Some(k), Some(v)) => tr!(
                                tr,
                                "online-won",
                                kingdom = tr.kingdom(k),
                                how = tr.victory(v)
                            ),
                            _ => tr.text("online-over"),
                        };
                        ui.label(result);
                        ui.label(when(tr, game.since_ms));
                        ui.horizontal(|ui| {
                            if ui.small_button(tr.text("online-open")).clicked() {
                                commands.write(OnlineCommand::Open(game.id.clone()));
                            }
                            if ui
                                .small_button(tr.text("online-rematch"))
                                .on_hover_text(tr.text("online-rematch-hint"))
                                .clicked()
                            {
                                commands.write(OnlineCommand::Rematch(game.id.clone()));
                            }
                        });
                        ui.end_row();
                    }
                });
            ui.horizontal(|ui| {
                if *page > 0 && ui.small_button("◀").clicked() {
                    read.write(ReadFinished(page - 1));
                }
                if *page > 0 || *more {
                    ui.label(tr!(tr, "online-page", page = page + 1));
                }
                if *more && ui.small_button("▶").clicked() {
                    read.write(ReadFinished(page + 1));
                }
            });
        });
    // Read when first opened.
    if shown.header_response.clicked() && finished.page.is_none() {
        read.write(ReadFinished(0));
    }
}
