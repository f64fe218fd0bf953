//! The practice's card beside the board: which mistake of how many (or the puzzle's theme and
//! rating, and the solver's), the question, the answer to the move tried, and Hint, Show the
//! solution, Next mistake (or puzzle), a puzzle's link to copy, and Back to the game. On a narrow
//! screen (a phone held upright) it lies along the bottom, above the status line, the width of
//! the screen; elsewhere at the left, as a lesson's card. Every button takes the keyboard's
//! focus (Tab, then Enter or Space), and everything the card says is also said to a screen
//! reader as it happens (`super`'s announcements).

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};

use crate::game::practice::puzzles::{PuzzleLinks, PuzzleSolver};
use crate::game::practice::{
    Practice, PracticeCommand, Step, heading, judged_words, question_words, rating_words,
    solution_words,
};
use crate::game::widgets::{GAP, UiSystems, column_top, panel_rect};
use crate::i18n::Tr;
use crate::tr;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        practice_card.in_set(UiSystems::Cards),
    );
}

/// The card's id: the board is framed in the space the panels leave, this one among them.
pub(crate) const CARD: &str = "practice card";

/// The card's width, in points, where the screen is wide enough.
const CARD_WIDTH: f32 = 300.0;
/// Narrower screens than this (in points) have the card along the bottom.
const NARROW: f32 = 640.0;

const FOUND: Color32 = Color32::from_rgb(120, 214, 140);
const MISSED: Color32 = Color32::from_rgb(255, 150, 120);

#[allow(clippy::too_many_arguments)]
fn practice_card(
    mut contexts: EguiContexts,
    practice: Res<Practice>,
    solver: Res<PuzzleSolver>,
    links: Res<PuzzleLinks>,
    mut commands: MessageWriter<PracticeCommand>,
    mut copied: Local<Option<String>>,
    tr: Res<Tr>,
) -> Result {
    let Some((exercise, n, total)) = practice.current() else {
        return Ok(());
    };
    let Some(step) = practice.step() else {
        return Ok(());
    };
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let narrow = screen.width() < NARROW;
    let area = egui::Area::new(egui::Id::new(CARD));
    let (area, width) = if narrow {
        let bottom = panel_rect(ctx, "status").map_or(screen.max.y, |r| r.min.y) - GAP;
        (
            area.anchor(egui::Align2::LEFT_BOTTOM, [GAP, bottom - screen.max.y]),
            screen.width() - 2.0 * GAP - 20.0,
        )
    } else {
        (
            area.anchor(egui::Align2::LEFT_TOP, [GAP, column_top(ctx)]),
            CARD_WIDTH,
        )
    };
    area.show(ctx, |ui| {
        egui::Frame::window(ui.style())
            .inner_margin(10.0)
            .show(ui, |ui| {
                ui.set_width(width);
                let puzzle = exercise.puzzle();
                ui.label(
                    RichText::new(heading(exercise, n, total, tr))
                        .small()
                        .color(Color32::from_gray(170)),
                );
                if puzzle.is_some() {
                    ui.label(
                        RichText::new(tr!(
                            tr,
                            "puzzle-your-rating",
                            rating = practice.server_solver().unwrap_or_else(|| solver.shown())
                        ))
                        .small()
                        .color(Color32::from_gray(170)),
                    );
                }
                if step == Step::Finished {
                    let (found, _) = practice.score();
                    let words = if puzzle.is_some() {
                        tr!(tr, "puzzle-finished", found = found, total = total)
                    } else {
                        tr!(tr, "practice-finished", found = found, total = total)
                    };
                    ui.label(RichText::new(words).strong());
                } else {
                    ui.label(question_words(exercise, tr));
                }
                match step {
                    Step::Asking => {
                        if let Some((mv, chance)) = practice.missed()
                            && let Some(words) =
                                judged_words(Step::Missed(mv, chance), exercise, tr)
                        {
                            ui.add_space(4.0);
                            ui.label(RichText::new(words).color(MISSED));
                        }
                        if practice.hinted()
                            && let Some(from) = exercise.best.from()
                            && let Some(piece) = exercise.before.position().piece_at(from)
                        {
                            ui.add_space(4.0);
                            ui.label(RichText::new(tr!(
                                tr,
                                "practice-hint-text",
                                piece = tr.piece_in_text(piece.kind),
                                point = from.to_string()
                            )));
                        }
                    }
                    Step::Judging(mv) => {
                        ui.add_space(4.0);
                        ui.label(
                            RichText::new(tr!(tr, "practice-judging", mv = mv.to_string()))
                                .italics(),
                        );
                    }
                    Step::Found(..) | Step::Missed(..) => {
                        if let Some(words) = judged_words(step, exercise, tr) {
                            let colour = if matches!(step, Step::Found(..)) {
                                FOUND
                            } else {
                                MISSED
                            };
                            ui.add_space(4.0);
                            ui.label(RichText::new(words).color(colour));
                        }
                    }
                    Step::Solved => {
                        ui.add_space(4.0);
                        ui.label(solution_words(exercise, tr));
                    }
                    Step::Finished => {}
                }
                if let Some(rated) = practice.rated().filter(|_| step != Step::Finished) {
                    ui.add_space(4.0);
                    ui.label(RichText::new(rating_words(rated, tr)).small());
                }
                ui.add_space(8.0);
                ui.horizontal_wrapped(|ui| {
                    let asks = practice.asks();
                    match step {
                        Step::Asking | Step::Judging(_) | Step::Missed(..) => {
                            if ui
                                .add_enabled(asks, egui::Button::new(tr.text("practice-hint")))
                                .clicked()
                            {
                                commands.write(PracticeCommand::Hint);
                            }
                            if ui
                                .add_enabled(asks, egui::Button::new(tr.text("practice-solution")))
                                .clicked()
                            {
                                commands.write(PracticeCommand::Solution);
                            }
                        }
                        Step::Found(..) | Step::Solved => {
                            let next = match (practice.more(), puzzle.is_some()) {
                                (true, true) => tr.text("puzzle-next"),
                                (true, false) => tr.text("practice-next"),
                                (false, _) => tr.text("practice-finish"),
                            };
                            let button = ui.button(RichText::new(next).strong());
                            // The way on takes the keyboard's focus as it comes.
                            if practice.is_changed() {
                                button.request_focus();
                            }
                            if button.clicked() {
                                commands.write(PracticeCommand::Next);
                            }
                        }
                        Step::Finished => {}
                    }
                    if let Some(puzzle) = puzzle.filter(|_| step != Step::Finished) {
                        let id = puzzle.id();
                        let (label, hint) = if links.page.is_some() {
                            ("puzzle-copy-link", "puzzle-copy-link-hint")
                        } else {
                            ("puzzle-copy-name", "puzzle-copy-name-hint")
                        };
                        let label = if copied.as_deref() == Some(id.as_str()) {
                            tr.text("puzzle-copied")
                        } else {
                            tr.text(label)
                        };
                        if ui
                            .button(label)
                            .on_hover_text(tr!(tr, hint, name = id.clone()))
                            .clicked()
                        {
                            ui.ctx().copy_text(links.share(puzzle));
                            *copied = Some(id);
                        }
                    }
                    if ui.button(tr.text("practice-leave")).clicked() {
                        commands.write(PracticeCommand::Leave);
                    }
                });
            });
    });
    Ok(())
}
