//! The Game report window: a chart of every kingdom's chances (or material) move by move with
//! marks where kingdoms fell, captures and hints per kingdom, and the turning points, each a
//! click away from its position in review. Opened from the Moves panel and the game-over
//! dialog. The report is computed on a background thread and kept for the position it was
//! made for, so it is made again only when the game has changed.

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use egui_plot::{Legend, Line, MarkerShape, Plot, PlotPoint, PlotPoints, Points, VLine};
use qiguo_ai::review::{GameReview, MistakeKind};

use crate::game::art::palette::Palette;
use crate::game::frames::Redraw;
use crate::game::practice::PracticeCommand;
use crate::game::review::{ReviewShown, Reviewed};
use crate::game::state::{Match, ReviewRequested, Turn};
use crate::game::ui::kit::badge;
use crate::i18n::Tr;
use crate::report::GameReport;
use crate::tr;

/// Whether the report is open, and the report for the game as it stands (or being made).
#[derive(Resource, Default)]
pub(crate) struct ReportWindow {
    /// Shown.
    pub(crate) open: bool,
    /// Show material rather than chances.
    material: bool,
    /// The report, and the turn (game and move count) it was made for.
    made: Option<(Turn, GameReport)>,
    /// The report being made, and its turn.
    making: Option<(Turn, Task<GameReport>)>,
}

/// Keeps the report in step with the game while the window is open: made on a background
/// thread for the turn now, taken in when ready.
pub(super) fn make_reports(
    mut window: ResMut<ReportWindow>,
    the_match: Res<Match>,
    mut redraw: Redraw,
) {
    if !window.open {
        return;
    }
    // A report takes a moment: looked for a few times a second until it comes.
    if window.making.is_some() {
        redraw.within(std::time::Duration::from_millis(100));
    }
    let turn = the_match.turn();
    if let Some((for_turn, task)) = window.making.as_mut()
        && let Some(report) = check_ready(task)
    {
        let made_for = *for_turn;
        window.making = None;
        window.made = Some((made_for, report));
    }
    let fresh = |t: Option<Turn>| t == Some(turn);
    if fresh(window.made.as_ref().map(|(t, _)| *t))
        || fresh(window.making.as_ref().map(|(t, _)| *t))
    {
        return;
    }
    let game = the_match.game().clone();
    let hints = qiguo_rules::Kingdom::ALL.map(|k| the_match.hints_used(k));
    let task = AsyncComputeTaskPool::get().spawn(async move { GameReport::of(&game, hints) });
    window.making = Some((turn, task));
}

fn colour(palette: Palette, kingdom: qiguo_rules::Kingdom) -> Color32 {
    let [r, g, b, _] = palette.style(kingdom).stone;
    // The darkest stones (Yan's black) would vanish on the dark chart: lift them.
    let lift = |c: u8| c.max(90);
    Color32::from_rgb(lift(r), lift(g), lift(b))
}

pub(super) fn report_window(
    mut contexts: EguiContexts,
    mut window: ResMut<ReportWindow>,
    the_match: Res<Match>,
    reviewed: Res<Reviewed>,
    palette: Res<Palette>,
    mut steps: MessageWriter<ReviewRequested>,
    mut practice: MessageWriter<PracticeCommand>,
    mut redraw: Redraw,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    // The review's progress, looked at once a second while it is made.
    if matches!(reviewed.status, ReviewShown::Making { .. }) {
        redraw.within(std::time::Duration::from_secs(1));
    }
    let review = reviewed.done_for(the_match.turn()).cloned();
    let screen = ctx.content_rect();
    let mut open = true;
    let stale = window
        .made
        .as_ref()
        .is_some_and(|(t, _)| *t != the_match.turn());
    let mut material = window.material;
    // The practice asked for: the report gives way to its card.
    let mut practising = false;
    // Opaque: the chart and the table are read, not glanced at over the board.
    let frame = egui::Frame::window(&ctx.global_style()).fill(Color32::from_rgb(28, 24, 20));
    egui::Window::new(tr.text("report-title"))
        .id(egui::Id::new("Game report"))
        .open(&mut open)
        .frame(frame)
        .default_width(680.0)
        // As tall as the screen allows: the chart, the mistakes, the table and the turning
        // points are read one after the other (the window's first frame, before the report is
        // made, would otherwise set its height).
        .default_height((screen.height() - 120.0).clamp(200.0, 720.0))
        .max_width(screen.width() - 16.0)
        .max_height((screen.height() - 40.0).max(200.0))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .show(ctx, |ui| {
            crate::game::widgets::take_the_keyboards_focus(ui);
            // What a person who has just lost wants most, first and outside the scrolling: on a
            // phone's screen the rest is longer than the screen.
            if let Some(review) = &review {
                let questions =
                    crate::game::practice::questions(review, |k| the_match.computer(k).is_none())
                        .len();
                let button = egui::Button::new(
                    RichText::new(tr!(tr, "practice-start", count = questions)).strong(),
                );
                if ui
                    .add_enabled(questions > 0, button)
                    .on_hover_text(tr.text("practice-start-hint"))
                    .on_disabled_hover_text(tr.text("practice-none"))
                    .clicked()
                {
                    practice.write(PracticeCommand::Start);
                    practising = true;
                }
                ui.add_space(4.0);
            }
            // On a phone's screen the report is longer than the screen: it scrolls.
            egui::ScrollArea::vertical()
                .max_height((screen.height() - 120.0).max(160.0))
                .show(ui, |ui| {
                    let Some((_, report)) = &window.made else {
                        ui.label(RichText::new(tr.text("report-making")).italics());
                        return;
                    };
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut material, false, tr.text("report-chances"));
                        ui.radio_value(&mut material, true, tr.text("report-material"));
                        if stale {
                            ui.label(RichText::new(tr.text("report-making")).italics().weak());
                        }
                        if let Some(words) = review_status(&reviewed.status, tr) {
                            ui.label(RichText::new(words).italics().weak());
                        }
                    });
                    // The chances are the review's where it is made (searched, move by move), else the
                    // evaluation's.
                    let reviewed_chances = review.as_ref().filter(|_| !material);
                    let plot = Plot::new("report_chart")
                        .height(220.0)
                        // Top left: the chances start low, and the winner's line ends at the right.
                        .legend(Legend::default().position(egui_plot::Corner::LeftTop))
                        .allow_scroll(false)
                        .x_axis_label(tr.text("report-moves"))
                        .y_axis_label(tr.text(if material {
                            "report-material"
                        } else {
                            "report-chances"
                        }));
                    let smoothed = reviewed_chances.map(|r| by_round(r));
                    let marks = reviewed_chances
                        .zip(smoothed.as_deref())
                        .map_or_else(Vec::new, |(r, s)| mistake_marks(r, s, &the_match));
                    let shown = plot.show(ui, |plot_ui| {
                        for k in &report.kingdoms {
                            let scale = if material { 1.0 } else { 100.0 };
                            let points: PlotPoints = match &smoothed {
                                Some(smoothed) => smoothed
                                    .iter()
                                    .enumerate()
                                    .map(|(ply, c)| [ply as f64, c[k.kingdom.index()] * scale])
                                    .collect(),
                                None => {
                                    let values = if material { &k.material } else { &k.chances };
                                    values
                                        .iter()
                                        .enumerate()
                                        .map(|(ply, v)| [ply as f64, v * scale])
                                        .collect()
                                }
                            };
                            plot_ui.line(
                                Line::new(tr.kingdom(k.kingdom), points)
                                    .color(colour(*palette, k.kingdom))
                                    .width(2.0),
                            );
                        }
                        // The legend names the kingdoms only (the falls' dashes are in their colours,
                        // the marks' kinds under the chart): fourteen entries would cover the chart.
                        for fall in &report.falls {
                            plot_ui.vline(
                                VLine::new("", fall.ply as f64)
                                    .id(egui::Id::new(("fall", fall.kingdom)))
                                    .color(colour(*palette, fall.kingdom).gamma_multiply(0.7))
                                    .style(egui_plot::LineStyle::dashed_loose()),
                            );
                        }
                        for (kind, shape, colour) in MARK_STYLES {
                            let points: PlotPoints = marks
                                .iter()
                                .filter(|m| m.kind == kind)
                                .map(|m| [m.ply as f64, m.chance * 100.0])
                                .collect();
                            if !points.is_empty() {
                                plot_ui.points(
                                    Points::new("", points)
                                        .id(egui::Id::new(("mistakes", kind)))
                                        .shape(shape)
                                        .color(colour)
                                        .filled(true)
                                        .radius(5.0),
                                );
                            }
                        }
                    });
                    // A mark clicked or tapped: its move, in review.
                    if shown.response.clicked()
                        && let Some(at) = shown.response.interact_pointer_pos()
                        && let Some(mark) = marks
                            .iter()
                            .map(|m| {
                                let on_screen = shown.transform.position_from_point(
                                    &PlotPoint::new(m.ply as f64, m.chance * 100.0),
                                );
                                (m, on_screen.distance(at))
                            })
                            .filter(|(_, d)| *d <= MARK_REACH)
                            .min_by(|a, b| a.1.total_cmp(&b.1))
                            .map(|(m, _)| m)
                    {
                        steps.write(ReviewRequested::Ply(mark.ply));
                    }
                    if let Some(review) = reviewed_chances {
                        mistakes_list(ui, review, &marks, tr, &mut steps);
                    }
                    ui.separator();
                    egui::Grid::new("report_table")
                        .num_columns(5)
                        .striped(true)
                        .show(ui, |ui| {
                            for id in [
                                "report-kingdom",
                                "report-took",
                                "report-lost",
                                "report-hints",
                            ] {
                                ui.label(RichText::new(tr.text(id)).small().weak());
                            }
                            ui.label(RichText::new(tr.text("report-standing")).small().weak());
                            ui.end_row();
                            for k in &report.kingdoms {
                                ui.horizontal(|ui| {
                                    badge(ui, k.kingdom, 16.0, false);
                                    ui.label(tr.kingdom(k.kingdom));
                                });
                                ui.label(k.captures.to_string());
                                ui.label(k.losses.to_string());
                                ui.label(k.hints.to_string());
                                ui.label(
                                    RichText::new(crate::game::ui::standings::standing_text(
                                        tr,
                                        the_match.position(),
                                        k.kingdom,
                                    ))
                                    .small(),
                                );
                                ui.end_row();
                            }
                        });
                    // Once reviewed, the turning points are the searched chances' (as the chart
                    // draws them), not the evaluation's.
                    let searched = smoothed.as_ref().map(|series| {
                        let present: Vec<_> = report.kingdoms.iter().map(|k| k.kingdom).collect();
                        crate::report::turning_points(series, the_match.game(), &present)
                    });
                    let turning_points = searched.as_ref().unwrap_or(&report.turning_points);
                    if !turning_points.is_empty() {
                        ui.separator();
                        ui.label(RichText::new(tr.text("report-turning-points")).strong());
                        ui.horizontal_wrapped(|ui| {
                            for t in turning_points {
                                let label = tr!(
                                    tr,
                                    "report-turning-point",
                                    ply = t.ply,
                                    kingdom = tr.kingdom(t.kingdom),
                                    swing = format!("{:+.0}", 100.0 * t.swing)
                                );
                                if ui
                                    .button(label)
                                    .on_hover_text(tr!(
                                        tr,
                                        "report-turning-point-hint",
                                        mover = tr.kingdom(t.mover),
                                        mv = t.mv.as_str()
                                    ))
                                    .clicked()
                                {
                                    steps.write(ReviewRequested::Ply(t.ply));
                                }
                            }
                        });
                    }
                });
        });
    window.material = material;
    window.open = open && !practising;
    Ok(())
}

/// How near a click or a tap must come to a mistake's mark to take it, in points.
const MARK_REACH: f32 = 14.0;

/// How each kind of mark is drawn: its shape and colour.
const MARK_STYLES: [(MistakeKind, MarkerShape, Color32); 5] = [
    (
        MistakeKind::Inaccuracy,
        MarkerShape::Circle,
        Color32::from_rgb(240, 210, 90),
    ),
    (
        MistakeKind::Mistake,
        MarkerShape::Square,
        Color32::from_rgb(245, 150, 60),
    ),
    (
        MistakeKind::Blunder,
        MarkerShape::Diamond,
        Color32::from_rgb(235, 70, 60),
    ),
    (
        MistakeKind::Allowed,
        MarkerShape::Down,
        Color32::from_rgb(200, 120, 230),
    ),
    (
        MistakeKind::GeneralTaken,
        MarkerShape::Cross,
        Color32::from_rgb(230, 230, 230),
    ),
];

/// The words for a kind of mistake.
pub(crate) fn mistake_kind_id(kind: MistakeKind) -> &'static str {
    match kind {
        MistakeKind::Inaccuracy => "review-inaccuracy",
        MistakeKind::Mistake => "review-mistake",
        MistakeKind::Blunder => "review-blunder",
        MistakeKind::Allowed => "review-allowed",
        MistakeKind::GeneralTaken => "review-general-taken",
    }
}

/// A mistake's mark on the chart: after its move, on the line of the kingdom it cost.
struct Mark {
    ply: usize,
    kingdom: qiguo_rules::Kingdom,
    kind: MistakeKind,
    /// The kingdom's chance after the move (from 0 to 1).
    chance: f64,
    loss: f64,
}

/// Each kingdom's chance after each number of moves, averaged over the round about it (seven
/// moves): each position's chances hold what its mover's own search found, which lifts the
/// mover's line at its every turn; over a round each kingdom has had its turn once. The end is
/// the end's (the winner's 1).
fn by_round(review: &GameReview) -> Vec<[f64; 7]> {
    let all: Vec<[f64; 7]> = (0..=review.moves.len())
        .filter_map(|ply| review.chances_after(ply))
        .collect();
    let last = all.len().saturating_sub(1);
    (0..all.len())
        .map(|ply| {
            if ply == last {
                return all[ply];
            }
            let window = &all[ply.saturating_sub(3)..(ply + 4).min(last)];
            let mut mean = [0.0; 7];
            for c in window {
                for (m, v) in mean.iter_mut().zip(c) {
                    *m += v / window.len() as f64;
                }
            }
            mean
        })
        .collect()
}

/// The marks of the mistakes of the people in the game (not the computers'), and of the
/// moves that decided their kingdoms' fate, on the lines as drawn (`smoothed`).
fn mistake_marks(review: &GameReview, smoothed: &[[f64; 7]], the_match: &Match) -> Vec<Mark> {
    review
        .mistakes
        .iter()
        .filter(|m| the_match.computer(m.kingdom).is_none())
        .filter_map(|m| {
            let chance = smoothed.get(m.ply)?[m.kingdom.index()];
            Some(Mark {
                ply: m.ply,
                kingdom: m.kingdom,
                kind: m.kind,
                chance,
                loss: m.loss,
            })
        })
        .collect()
}

/// Where the review stands, in words, unless it is made (or not to be made).
fn review_status(status: &ReviewShown, tr: Tr) -> Option<String> {
    match status {
        ReviewShown::None | ReviewShown::Done(_) => None,
        // A page's review says nothing until it is done.
        ReviewShown::Making { done: 0, .. } => Some(tr.text("review-making-started")),
        ReviewShown::Making { done, of } => Some(tr!(
            tr,
            "review-making",
            percent = (100 * done / (*of).max(1)).min(99)
        )),
        ReviewShown::Waiting => Some(tr.text("review-waiting")),
        ReviewShown::Failed(why) => Some(tr!(tr, "review-failed", why = why.clone())),
    }
}

/// The people's mistakes, worst first within each kingdom, each a button to its move.
fn mistakes_list(
    ui: &mut egui::Ui,
    review: &GameReview,
    marks: &[Mark],
    tr: Tr,
    steps: &mut MessageWriter<ReviewRequested>,
) {
    ui.separator();
    ui.label(RichText::new(tr.text("review-mistakes")).strong());
    if marks.is_empty() {
        ui.label(RichText::new(tr.text("review-no-mistakes")).weak());
        return;
    }
    let mut sorted: Vec<&Mark> = marks.iter().collect();
    sorted.sort_by(|a, b| a.ply.cmp(&b.ply).then(a.kingdom.cmp(&b.kingdom)));
    ui.horizontal_wrapped(|ui| {
        for mark in sorted {
            let Some(mv) = review.moves.get(mark.ply - 1) else {
                continue;
            };
            let label = tr!(
                tr,
                "review-mistake-line",
                ply = mark.ply,
                kingdom = tr.kingdom(mark.kingdom),
                kind = tr.text(mistake_kind_id(mark.kind)),
                loss = format!("{:.0}", 100.0 * mark.loss)
            );
            let hint = if mark.kind.is_own_move() {
                tr!(
                    tr,
                    "review-mistake-hint",
                    played = mv.played.to_string(),
                    best = mv.best.to_string()
                )
            } else {
                tr!(
                    tr,
                    "review-taken-hint",
                    mover = tr.kingdom(mv.mover),
                    played = mv.played.to_string()
                )
            };
            let colour = MARK_STYLES
                .iter()
                .find(|(k, _, _)| *k == mark.kind)
                .map_or(Color32::WHITE, |(_, _, c)| *c);
            if ui
                .button(RichText::new(label).color(colour))
                .on_hover_text(hint)
                .clicked()
            {
                steps.write(ReviewRequested::Ply(mark.ply));
            }
        }
    });
}
