//! Ratings online: a pace family's leaderboard and the player's rating and history in it, read
//! when the *Online…* window's section is first opened (or on a [`ReadRatings`] message).

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::{Answer, Ask, RatingFamily, RatingHistory, RatingRow};

use super::shared::{Answered, Online, OnlineSystems, Pending, SignedIn};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineRatings>()
        .add_message::<ReadRatings>()
        .add_systems(
            Update,
            (forget_once_signed_in, ask, read_answers)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Ratings, section);
}

/// Read a pace family's leaderboard, and the player's rating and history in it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadRatings(pub RatingFamily);

/// The ratings last read.
#[derive(Resource, Debug, Default)]
pub struct OnlineRatings {
    /// A pace family's leaderboard and the player's own history there, once read.
    pub read: Option<(RatingFamily, Vec<RatingRow>, RatingHistory)>,
    /// The requests asked.
    pending: Pending<()>,
}

/// Signed in (again): what was read is another session's.
fn forget_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut ratings: ResMut<OnlineRatings>,
) {
    if signed_in.read().last().is_some() {
        ratings.read = None;
    }
}

fn ask(
    mut asked: MessageReader<ReadRatings>,
    mut ratings: ResMut<OnlineRatings>,
    mut online: ResMut<Online>,
) {
    for ReadRatings(family) in asked.read() {
        let ask = Ask::Ratings {
            family: *family,
            of: None,
        };
        ratings.pending.ask(&mut online, ask, ());
    }
}

fn read_answers(
    mut answers: MessageReader<Answered>,
    mut ratings: ResMut<OnlineRatings>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for ((), answer) in ratings.pending.answers(answers.read(), &mut notices, *tr) {
        if let Answer::Ratings {
            family,
            board,
            player,
        } = answer
        {
            ratings.read = Some((*family, board.clone(), player.clone()));
        }
    }
}

/// The section: the player's rating in a pace family, its history drawn where there is room,
/// and the family's leaderboard; read when first opened.
fn section(
    InMut(ui): InMut<egui::Ui>,
    ratings: Res<OnlineRatings>,
    online: Res<Online>,
    mut read: MessageWriter<ReadRatings>,
    tr: Res<Tr>,
) {
    if !online.in_touch() {
        return;
    }
    let tr = *tr;
    let shown = egui::CollapsingHeader::new(tr.text("online-ratings"))
        .id_salt("ratings")
        .show(ui, |ui| {
            let Some((family, board, me)) = &ratings.read else {
                ui.label(RichText::new(tr.text("online-reading")).color(Color32::from_gray(170)));
                return;
            };
            ui.horizontal(|ui| {
                for (choice, key) in [
                    (RatingFamily::Live, "online-ratings-live"),
                    (
                        RatingFamily::Correspondence,
                        "online-ratings-correspondence",
                    ),
                ] {
                    if ui
                        .selectable_label(*family == choice, tr.text(key))
                        .clicked()
                        && *family != choice
                    {
                        read.write(ReadRatings(choice));
                    }
                }
            });
            ui.label(
                RichText::new(tr!(
                    tr,
                    "online-ratings-yours",
                    rating = me.rating.to_string(),
                    games = me.rating.games
                ))
                .strong(),
            );
            if me.rating.provisional {
                ui.label(
                    RichText::new(tr.text("online-ratings-provisional"))
                        .small()
                        .color(Color32::from_gray(170)),
                );
            }
            rating_plot(ui, me);
            if let Some(last) = me.changes.first() {
                ui.label(
                    RichText::new(tr!(
                        tr,
                        "online-ratings-last",
                        place = last.place,
                        sides = last.sides,
                        change = format!("{:+}", last.change)
                    ))
                    .small(),
                );
            }
            if board.is_empty() {
                ui.label(
                    RichText::new(tr.text("online-ratings-none")).color(Color32::from_gray(170)),
                );
                return;
            }
            egui::Grid::new("leaderboard")
                .num_columns(3)
                .striped(true)
                .spacing([12.0, 2.0])
                .show(ui, |ui| {
                    for row in board {
                        ui.label(row.place.to_string());
                        let name = RichText::new(&row.name);
                        ui.label(if row.name == me.name {
                            name.strong()
                        } else {
                            name
                        });
                        ui.label(row.rating.to_string());
                        ui.end_row();
                    }
                });
        });
    if shown.header_response.clicked() && ratings.read.is_none() {
        read.write(ReadRatings(RatingFamily::Live));
    }
}

/// The player's rating after each of their last rated games, the oldest on the left, as a line
/// (drawn once there are two games).
fn rating_plot(ui: &mut egui::Ui, me: &RatingHistory) {
    let points: Vec<i64> = me.changes.iter().rev().map(|c| c.points).collect();
    if points.len() < 2 {
        return;
    }
    let (low, high) = (
        *points.iter().min().unwrap_or(&0) as f32,
        *points.iter().max().unwrap_or(&0) as f32,
    );
    let span = (high - low).max(50.0);
    let width = ui.available_width().min(360.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 60.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_stroke(
        rect,
        2.0,
        egui::Stroke::new(1.0, Color32::from_gray(90)),
        egui::StrokeKind::Inside,
    );
    let step = rect.width() / (points.len() - 1) as f32;
    let line: Vec<egui::Pos2> = points
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let y = rect.bottom() - 6.0 - (p as f32 - low) / span * (rect.height() - 12.0);
            egui::pos2(rect.left() + i as f32 * step, y)
        })
        .collect();
    painter.add(egui::Shape::line(
        line,
        egui::Stroke::new(2.0, Color32::from_rgb(150, 210, 255)),
    ));
    response.on_hover_text(format!("{} – {}", low as i64, high as i64));
}
