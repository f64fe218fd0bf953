//! The move list: every move in order, with its kingdom's badge and colour, the piece's
//! character, captures, and beaten kingdoms or armies changing hands. Clicking a move shows
//! the position after it (review); buttons step through the game, take moves back and play
//! them again.

use crate::game::widgets::{Sheet, SmallScreen};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_rules::MoveReport;

use crate::game::recap::{Recap, Replay, ReplayRequested};
use crate::game::state::{Match, RedoRequested, Review, ReviewRequested, TurnPhase, UndoRequested};
use crate::game::stones::view::stone_characters;
use crate::game::ui::describe::MoveDescription;
use crate::game::ui::kit::{badge, text_colour};
use crate::game::ui::report::ReportWindow;
use crate::game::widgets::{GAP, column_top, panel_rect};
use crate::i18n::Tr;
use crate::tr;

/// Height of one row of the list.
const ROW: f32 = 20.0;

/// The colour marking the moves since your last turn.
const RECAP_COLOUR: Color32 = Color32::from_rgb(255, 200, 90);

/// One move in a few characters: piece, from–to, `×` and the piece taken; what fell.
fn move_line(ui: &mut egui::Ui, tr: Tr, report: &MoveReport) {
    let colour = text_colour(ui.ctx(), report.mover);
    let description = MoveDescription::of(report);
    let Some(short) = description.short_move() else {
        let id = if description.conceded {
            "move-list-concedes"
        } else {
            "move-list-passes"
        };
        ui.label(RichText::new(tr.text(id)).italics().color(colour));
        if let Some(note) = description.short_fall(tr) {
            ui.label(RichText::new(note).small().color(colour));
        }
        return;
    };
    ui.label(RichText::new(short).color(colour));
    if let Some(captured) = description.captured {
        ui.label(
            RichText::new(format!("×{}", stone_characters(captured)))
                .strong()
                .color(text_colour(ui.ctx(), captured.kingdom)),
        );
    }
    if let Some(note) = description.short_fall(tr) {
        ui.label(
            RichText::new(note)
                .small()
                .color(Color32::from_rgb(255, 190, 120)),
        );
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn move_list(
    mut contexts: EguiContexts,
    the_match: Res<Match>,
    review: Res<Review>,
    phase: Res<State<TurnPhase>>,
    mut steps: MessageWriter<ReviewRequested>,
    mut undo: MessageWriter<UndoRequested>,
    mut redo: MessageWriter<RedoRequested>,
    mut last_shown: Local<Option<usize>>,
    (recap, replay, mut report): (Res<Recap>, Res<Replay>, ResMut<ReportWindow>),
    mut replays: MessageWriter<ReplayRequested>,
    small: Res<SmallScreen>,
    tr: Res<Tr>,
) -> Result {
    if !small.shows(Sheet::Moves) {
        return Ok(());
    }
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let game = the_match.game();
    let len = game.len();
    let shown = review.shown_ply(&the_match);
    let idle = *phase.get() != TurnPhase::Animating;
    let scroll_to_shown = *last_shown != Some(shown);
    *last_shown = Some(shown);
    let since = recap.current(&the_match);
    // Below the Kingdoms panel (and an online game's table talk), as wide, down to the toolbar.
    let kingdoms = panel_rect(ctx, "Kingdoms");
    let above = panel_rect(ctx, crate::game::online::TALK_PANEL).or(kingdoms);
    let top = above.map_or(column_top(ctx) + 260.0, |r| r.max.y + GAP);
    let bottom = panel_rect(ctx, "toolbar").map_or(ctx.content_rect().max.y, |r| r.min.y - GAP);
    let width = kingdoms.map_or(262.0, |r| r.width()).max(262.0);
    // The list's height: what is left after the buttons and the title bar.
    // On a small screen, a sheet: its list about a third of the screen.
    let list_height = if small.on {
        ctx.content_rect().height() / 3.0
    } else {
        (bottom - top - 120.0).clamp(20.0, 300.0)
    };
    let window = egui::Window::new(tr.text("moves-title"))
        .id(egui::Id::new("Moves"))
        .anchor(egui::Align2::RIGHT_TOP, [-GAP, top])
        .min_width(width)
        .max_width(width)
        .resizable(false)
        .collapsible(true);
    small.place(ctx, window).show(ctx, |ui| {
        ui.horizontal(|ui| {
            let step = |ui: &mut egui::Ui, label: &str, hint: String, enabled: bool| {
                ui.add_enabled(enabled && idle, egui::Button::new(label))
                    .on_hover_text(hint)
                    .clicked()
            };
            if step(ui, "⇤", tr.text("moves-first"), shown > 0) {
                steps.write(ReviewRequested::First);
            }
            if step(
                ui,
                "◀",
                tr!(
                    tr,
                    "moves-back",
                    key = crate::game::keyboard::REVIEW_BACK.label()
                ),
                shown > 0,
            ) {
                steps.write(ReviewRequested::Back);
            }
            if step(
                ui,
                "▶",
                tr!(
                    tr,
                    "moves-forward",
                    key = crate::game::keyboard::REVIEW_FORWARD.label()
                ),
                shown < len,
            ) {
                steps.write(ReviewRequested::Forward);
            }
            if step(ui, "⇥", tr.text("moves-live"), shown < len) {
                steps.write(ReviewRequested::Live);
            }
            ui.separator();
            if step(
                ui,
                &tr.text("moves-undo"),
                tr!(
                    tr,
                    "moves-undo-hint",
                    key = crate::game::keyboard::UNDO.label()
                ),
                len > 0,
            ) {
                undo.write(UndoRequested);
            }
            if step(
                ui,
                &tr.text("moves-redo"),
                tr!(
                    tr,
                    "moves-redo-hint",
                    key = crate::game::keyboard::REDO.label()
                ),
                game.can_redo(),
            ) {
                redo.write(RedoRequested);
            }
            ui.separator();
            if ui
                .button(tr.text("moves-report"))
                .on_hover_text(tr.text("moves-report-hint"))
                .clicked()
            {
                report.open = !report.open;
            }
        });
        if let Some(since) = &since {
            ui.horizontal(|ui| {
                let count = since.len();
                let playing = replay.step.is_some();
                let label = tr.text(if playing {
                    "moves-replaying"
                } else {
                    "moves-replay"
                });
                let enabled =
                    !playing && *phase.get() == TurnPhase::AwaitingInput && review.ply.is_none();
                if ui
                    .add_enabled(enabled, egui::Button::new(label))
                    .on_hover_text(tr!(
                        tr,
                        "moves-replay-hint",
                        key = crate::game::keyboard::REPLAY.label()
                    ))
                    .clicked()
                {
                    replays.write(ReplayRequested);
                }
                ui.label(
                    RichText::new(tr!(tr, "moves-since-your-turn", count = count))
                        .color(RECAP_COLOUR),
                );
            });
        }
        if review.ply.is_some() {
            ui.label(
                RichText::new(tr!(tr, "moves-looking-back", shown = shown, count = len))
                    .color(Color32::from_rgb(150, 200, 255)),
            );
        }
        ui.separator();
        if len == 0 {
            ui.label(RichText::new(tr.text("moves-none")).color(Color32::from_gray(150)));
            return;
        }
        let mut area = egui::ScrollArea::vertical()
            .max_height(list_height)
            .auto_shrink([false, true]);
        if scroll_to_shown {
            let y = (shown.saturating_sub(1) as f32 * (ROW + ui.spacing().item_spacing.y) - 120.0)
                .max(0.0);
            area = area.vertical_scroll_offset(y);
        }
        area.show_rows(ui, ROW, len, |ui, rows| {
            for (i, report) in game.reports().enumerate().skip(rows.start).take(rows.len()) {
                let ply = i + 1;
                let current = ply == shown;
                let response = ui
                    .horizontal(|ui| {
                        ui.set_min_height(ROW);
                        let number = RichText::new(format!("{ply:>4}."))
                            .monospace()
                            .color(Color32::from_gray(if current { 240 } else { 140 }));
                        ui.label(number);
                        badge(ui, report.mover, 15.0, false);
                        move_line(ui, tr, report);
                    })
                    .response;
                if since.as_ref().is_some_and(|r| r.contains(&i)) {
                    // A bar at the left edge: played since your last turn.
                    let rect = response.rect;
                    ui.painter().rect_filled(
                        egui::Rect::from_min_max(
                            rect.left_top() - egui::vec2(4.0, 0.0),
                            rect.left_bottom() - egui::vec2(1.0, 0.0),
                        ),
                        1.0,
                        RECAP_COLOUR,
                    );
                }
                if current {
                    ui.painter().rect_stroke(
                        response.rect.expand(1.0),
                        3.0,
                        egui::Stroke::new(1.0, Color32::from_rgb(150, 200, 255)),
                        egui::StrokeKind::Outside,
                    );
                }
                let response = response
                    .interact(egui::Sense::click())
                    .on_hover_text(MoveDescription::of(report).sentence(tr, ply));
                if response.clicked() && idle {
                    steps.write(ReviewRequested::Ply(ply));
                }
            }
        });
    });
    Ok(())
}
