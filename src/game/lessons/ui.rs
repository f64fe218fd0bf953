//! The lessons in the interface: *Learn* (the list of lessons, finished ones ticked, and the
//! puzzles: the day's and those for you) and the lesson card beside the board (what to do, the
//! answer to a wrong move, what was learnt, and Retry, Skip, Next lesson, the lesson's puzzles
//! and Leave).

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};

use crate::game::lessons::{LessonCommand, LessonRun, LessonsDone, PuzzlesFor, StepState};
use crate::game::practice::puzzles::{PuzzleSolver, count_about};
use crate::game::state::SeatAuthority;
use crate::game::widgets::{GAP, UiSystems, WithinTheScreen, centred_dialog, column_top};
use crate::i18n::Tr;
use crate::lessons;
use crate::tr;

/// The lessons' windows, drawn in the interface's order.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<LessonsWindow>().add_systems(
        bevy_egui::EguiPrimaryContextPass,
        (
            lesson_card.in_set(UiSystems::Cards),
            lessons_window
                .run_if(|w: Res<LessonsWindow>| w.open)
                .in_set(UiSystems::Windows),
        ),
    );
}

/// Whether the list of lessons is open.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LessonsWindow {
    pub(crate) open: bool,
}

/// The card's width, in points.
const CARD_WIDTH: f32 = 300.0;

const PRAISE: Color32 = Color32::from_rgb(120, 214, 140);
const WRONG: Color32 = Color32::from_rgb(255, 150, 120);

/// *Learn*: every lesson, the finished ones ticked; a click starts one.
pub(crate) fn lessons_window(
    mut contexts: EguiContexts,
    mut window: ResMut<LessonsWindow>,
    run: Res<LessonRun>,
    done: Res<LessonsDone>,
    seats: Res<SeatAuthority>,
    solver: Res<PuzzleSolver>,
    mut commands: MessageWriter<LessonCommand>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let online = seats.follows_server();
    // As wide as a phone held upright leaves room for, at most.
    let width = (ctx.content_rect().width() - 4.0 * GAP).clamp(200.0, 420.0);
    centred_dialog("Lessons", tr.text("lessons-title"))
        .open(&mut open)
        .show_within_screen(ctx, |ui| {
            ui.set_max_width(width);
            if online {
                ui.label(RichText::new(tr.text("online-leave-first")).color(WRONG));
            }
            // The puzzles first: a few lines, where a phone's screen shows them without a scroll.
            ui.label(RichText::new(tr.text("puzzles-title")).strong());
            ui.label(tr!(tr, "puzzles-intro", rating = solver.shown()));
            ui.horizontal_wrapped(|ui| {
                for (id, which) in [
                    ("puzzles-daily", PuzzlesFor::Daily),
                    ("puzzles-for-you", PuzzlesFor::Anyone),
                ] {
                    if ui
                        .add_enabled(!online, egui::Button::new(tr.text(id)))
                        .clicked()
                    {
                        commands.write(LessonCommand::Puzzles(which));
                        window.open = false;
                    }
                }
            });
            ui.separator();
            ui.label(tr.text("lessons-intro"));
            ui.add_space(4.0);
            let current = run.current().map(|(n, _, _)| n);
            egui::Grid::new("lessons_grid")
                .num_columns(2)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for (n, lesson) in lessons::all().iter().enumerate() {
                        let finished = done.0.contains(&lesson.id);
                        let mark = if finished {
                            RichText::new(tr.text("lessons-done")).color(PRAISE).small()
                        } else {
                            RichText::new("")
                        };
                        ui.label(mark);
                        let title = tr!(
                            tr,
                            "lessons-numbered",
                            n = n + 1,
                            title = tr.text(&lesson.title)
                        );
                        let button = egui::Button::new(title).selected(current == Some(n));
                        if ui.add_enabled(!online, button).clicked() {
                            commands.write(LessonCommand::Open(n));
                            window.open = false;
                        }
                        ui.end_row();
                    }
                });
            ui.add_space(4.0);
            ui.label(
                RichText::new(tr!(
                    tr,
                    "lessons-progress",
                    done = done.0.len(),
                    total = lessons::all().len()
                ))
                .small()
                .color(Color32::from_gray(170)),
            );
            if run.is_active() && ui.button(tr.text("lesson-leave")).clicked() {
                commands.write(LessonCommand::Leave);
                window.open = false;
            }
        });
    if !open {
        window.open = false;
    }
    Ok(())
}

/// The card of the lesson under way, at the left of the board.
pub(crate) fn lesson_card(
    mut contexts: EguiContexts,
    run: Res<LessonRun>,
    mut window: ResMut<LessonsWindow>,
    mut commands: MessageWriter<LessonCommand>,
    mut offered: Local<Option<(usize, usize)>>,
    tr: Res<Tr>,
) -> Result {
    let Some((n, lesson, step_index)) = run.current() else {
        return Ok(());
    };
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let step = &lesson.steps[step_index];
    let state = run.state().unwrap_or(StepState::Waiting);
    let last_lesson = n + 1 == lessons::all().len();
    egui::Area::new(egui::Id::new("lesson card"))
        .anchor(egui::Align2::LEFT_TOP, [GAP, column_top(ctx)])
        .show(ctx, |ui| {
            egui::Frame::window(ui.style())
                .inner_margin(10.0)
                .show(ui, |ui| {
                    ui.set_width(CARD_WIDTH);
                    ui.label(
                        RichText::new(tr!(
                            tr,
                            "lesson-heading",
                            n = n + 1,
                            total = lessons::all().len()
                        ))
                        .small()
                        .color(Color32::from_gray(170)),
                    );
                    ui.heading(tr.text(&lesson.title));
                    if lesson.steps.len() > 1 {
                        ui.label(
                            RichText::new(tr!(
                                tr,
                                "lesson-step",
                                n = step_index + 1,
                                total = lesson.steps.len()
                            ))
                            .small(),
                        );
                    }
                    ui.separator();
                    if let Some(praise) = run.praise() {
                        ui.label(RichText::new(tr.text(praise)).color(PRAISE));
                        ui.add_space(6.0);
                    }
                    match state {
                        StepState::Waiting => {
                            ui.label(tr.text(&step.text));
                            if let Some(answer) = run.answer() {
                                ui.add_space(6.0);
                                ui.label(RichText::new(answer.reason.text(tr)).color(WRONG));
                                if let Some(why) = &answer.why {
                                    ui.label(RichText::new(tr.text(why)).color(WRONG));
                                }
                            }
                        }
                        StepState::Done => {}
                        StepState::Finished => {
                            ui.label(RichText::new(tr.text("lesson-finished")).strong());
                        }
                    }
                    ui.add_space(8.0);
                    ui.horizontal_wrapped(|ui| {
                        if state == StepState::Finished {
                            let next = if last_lesson {
                                tr.text("lesson-all-done")
                            } else {
                                tr.text("lesson-next")
                            };
                            if ui.button(RichText::new(next).strong()).clicked() {
                                commands.write(LessonCommand::Next);
                            }
                            // Counted once a lesson (it reads every puzzle's position), not
                            // every frame the card is drawn.
                            if offered.is_none_or(|(counted, _)| counted != n) {
                                *offered = Some((n, count_about(&lesson.puzzles)));
                            }
                            let offered = offered.map_or(0, |(_, count)| count);
                            if offered > 0
                                && ui
                                    .button(tr!(tr, "lesson-puzzles", count = offered))
                                    .clicked()
                            {
                                commands.write(LessonCommand::Puzzles(PuzzlesFor::Lesson(n)));
                            }
                        } else {
                            if ui
                                .button(tr.text("lesson-retry"))
                                .on_hover_text(tr.text("lesson-retry-hint"))
                                .clicked()
                            {
                                commands.write(LessonCommand::Retry);
                            }
                            if ui
                                .button(tr.text("lesson-skip"))
                                .on_hover_text(tr.text("lesson-skip-hint"))
                                .clicked()
                            {
                                commands.write(LessonCommand::Skip);
                            }
                        }
                        if ui.button(tr.text("lesson-list")).clicked() {
                            window.open = true;
                        }
                        if ui
                            .button(tr.text("lesson-leave"))
                            .on_hover_text(tr.text("lesson-leave-hint"))
                            .clicked()
                        {
                            commands.write(LessonCommand::Leave);
                        }
                    });
                });
        });
    Ok(())
}
