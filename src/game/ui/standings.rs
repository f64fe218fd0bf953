//! The turn-order strip along the top and the table of the kingdoms' standings.

use crate::game::widgets::{Sheet, SmallScreen};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText, Stroke};
use qiguo_rules::{Kingdom, KingdomGoal, Position, Standing};

use crate::game::camera::framing::FreeArea;
use crate::game::online::Online;
use crate::game::state::{Match, SeatChangeRequested};
use crate::game::ui::kit::kingdom_style;
use crate::game::ui::kit::{badge, board_area, c32, controller_choice};
use crate::game::widgets::{GAP, column_top, panel_rect};
use crate::i18n::Tr;
use crate::tr;

/// How a kingdom stands, in a few words.
pub(super) fn standing_text(tr: Tr, pos: &Position, kingdom: Kingdom) -> String {
    tr.standing(pos.standing(kingdom))
}

/// The seven kingdoms in turn order: colour, emblem, character and name, the one to move
/// emphasised, those out of the game struck through.
/// It stands centred over the board (the free area), inside the window.
pub(super) fn turn_strip(
    mut contexts: EguiContexts,
    the_match: Res<Match>,
    free: Res<FreeArea>,
    small: Res<SmallScreen>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let pos = the_match.position();
    let screen = ctx.content_rect();
    let half = panel_rect(ctx, "turn strip").map_or(0.0, |r| r.width() / 2.0);
    let centre = board_area(ctx, &free)
        .center()
        .x
        .min(screen.max.x - GAP - half)
        .max(screen.min.x + GAP + half);
    egui::Area::new(egui::Id::new("turn strip"))
        .anchor(egui::Align2::CENTER_TOP, [centre - screen.center().x, GAP])
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            egui::Frame::window(ui.style())
                .inner_margin(6.0)
                .show(ui, |ui| {
                    let chips = |ui: &mut egui::Ui| {
                        ui.horizontal(|ui| {
                            for kingdom in Kingdom::ALL {
                                chip(ui, tr, &the_match, pos, kingdom);
                            }
                        });
                    };
                    // On a small screen the strip is as wide as the screen and slides under
                    // a finger.
                    if small.on {
                        egui::ScrollArea::horizontal()
                            .max_width(SmallScreen::sheet_width(ui.ctx()) - 12.0)
                            .show(ui, chips);
                    } else {
                        chips(ui);
                    }
                });
        });
    Ok(())
}

fn chip(ui: &mut egui::Ui, tr: Tr, the_match: &Match, pos: &Position, kingdom: Kingdom) {
    let to_move = !pos.is_over() && pos.to_move() == kingdom;
    let standing = pos.standing(kingdom);
    let out = standing != Standing::InGame;
    let stroke = if to_move {
        Stroke::new(
            2.5,
            c32(kingdom_style(ui.ctx(), kingdom).stone).gamma_multiply(1.2),
        )
    } else {
        Stroke::new(1.0, Color32::from_white_alpha(24))
    };
    let fill = if to_move {
        Color32::from_white_alpha(26)
    } else {
        Color32::TRANSPARENT
    };
    egui::Frame::new()
        .stroke(stroke)
        .fill(fill)
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(6, 3))
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                badge(ui, kingdom, if to_move { 28.0 } else { 22.0 }, out);
                ui.vertical(|ui| {
                    ui.spacing_mut().item_spacing.y = 0.0;
                    let mut name = RichText::new(tr.kingdom_titled(kingdom));
                    if to_move {
                        name = name.strong().color(Color32::WHITE);
                    }
                    if out {
                        name = name.strikethrough().color(Color32::from_gray(120));
                    }
                    ui.label(name);
                    // A computer shows its level; a person's name is cut short (it is in full
                    // in the tooltip and the standings).
                    let player = the_match.player_name(kingdom).unwrap_or("—");
                    let small = match (standing, the_match.computer(kingdom)) {
                        (Standing::Absent, _) => tr.text("standing-empty"),
                        (_, Some(level)) => tr!(tr, "computer-level", level = tr.level(level)),
                        (_, None) if player.chars().count() > 12 => {
                            format!("{}…", player.chars().take(11).collect::<String>())
                        }
                        (_, None) => player.to_owned(),
                    };
                    ui.label(
                        RichText::new(small)
                            .small()
                            .color(Color32::from_gray(if out { 110 } else { 175 })),
                    );
                });
            });
        })
        .response
        .on_hover_text(tr!(
            tr,
            "chip-hint",
            kingdom = tr.kingdom(kingdom),
            colour = tr.text(&format!("colour-{}", kingdom.colour_name())),
            standing = standing_text(tr, pos, kingdom)
        ));
}

/// Captures, losses and how far each kingdom is from being beaten and from winning.
pub(super) fn kingdom_table(
    mut contexts: EguiContexts,
    the_match: Res<Match>,
    mut seats: MessageWriter<SeatChangeRequested>,
    online: Res<Online>,
    mut conduct: MessageWriter<crate::game::online::conduct::Conduct>,
    small: Res<SmallScreen>,
    tr: Res<Tr>,
) -> Result {
    if !small.shows(Sheet::Kingdoms) {
        return Ok(());
    }
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let pos = the_match.position();
    let rules = pos.rules();
    let generals = rules.kingdom_goal == KingdomGoal::TwoGenerals;
    let window = egui::Window::new(tr.text("kingdoms-title"))
        .id(egui::Id::new("Kingdoms"))
        .anchor(egui::Align2::RIGHT_TOP, [-GAP, column_top(ctx)])
        .resizable(false)
        .movable(false)
        .collapsible(true);
    small.place(ctx, window).show(ctx, |ui| {
        // The phone's sheet has two columns, so the table scrolls only downwards.
        egui::ScrollArea::vertical().show(ui, |ui| {
            let preset = rules
                .matching_preset()
                .map_or_else(|| tr.text("preset-custom"), |p| p.name().to_owned());
            ui.label(
                RichText::new(tr!(
                    tr,
                    if generals {
                        "kingdoms-summary-generals"
                    } else {
                        "kingdoms-summary-kingdoms"
                    },
                    preset = preset,
                    losses = rules.beaten_at_losses,
                    captures = rules.capture_goal
                ))
                .small()
                .color(Color32::from_gray(170)),
            );
            crate::game::online::table_view::online_summary(
                ui,
                tr,
                &online,
                the_match.position().is_over(),
            );
            ui.add_space(2.0);
            // A phone's sheet has no room for six columns: two, the numbers under the name.
            let columns: &[&str] = if small.on {
                &["kingdoms-kingdom", "kingdoms-played-by"]
            } else {
                &[
                    "kingdoms-kingdom",
                    "kingdoms-played-by",
                    "kingdoms-took",
                    "kingdoms-lost",
                    "kingdoms-left",
                    "kingdoms-goal",
                ]
            };
            egui::Grid::new("standings")
                .num_columns(columns.len())
                .striped(true)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for heading in columns {
                        let heading = tr.text(heading);
                        ui.label(
                            RichText::new(heading)
                                .small()
                                .color(Color32::from_gray(160)),
                        );
                    }
                    ui.end_row();
                    for kingdom in Kingdom::ALL {
                        let standing = pos.standing(kingdom);
                        if standing == Standing::Absent {
                            continue;
                        }
                        let out = standing != Standing::InGame;
                        let name = |ui: &mut egui::Ui| {
                            ui.horizontal(|ui| {
                                badge(ui, kingdom, 18.0, out);
                                let mut name = RichText::new(tr.kingdom(kingdom));
                                if out {
                                    name = name.strikethrough().color(Color32::from_gray(120));
                                }
                                ui.label(name)
                                    .on_hover_text(the_match.player_name(kingdom).unwrap_or("—"));
                            });
                        };
                        if small.on {
                            ui.vertical(|ui| {
                                name(ui);
                                ui.label(
                                    RichText::new(numbers_line(tr, pos, kingdom))
                                        .small()
                                        .color(Color32::from_gray(170)),
                                );
                            });
                        } else {
                            name(ui);
                        }
                        match pos.seats().player(kingdom) {
                            Some(player)
                                if !out
                                    && crate::game::online::table_view::seat_cell(
                                        ui,
                                        tr,
                                        &online,
                                        player,
                                        &mut conduct,
                                    ) => {}
                            Some(player) if !out => {
                                let current = the_match.computer(kingdom);
                                if let Some(computer) =
                                    controller_choice(ui, tr, ("controller", kingdom), current)
                                {
                                    seats.write(SeatChangeRequested { player, computer });
                                }
                            }
                            _ => {
                                ui.label("");
                            }
                        }
                        if small.on {
                            ui.end_row();
                            continue;
                        }
                        ui.label(pos.captures(kingdom).to_string());
                        ui.label(format!("{}", pos.losses(kingdom)));
                        if out {
                            ui.label(
                                RichText::new(standing_text(tr, pos, kingdom))
                                    .small()
                                    .color(Color32::from_gray(140)),
                            );
                            ui.label("");
                        } else {
                            let left =
                                (rules.beaten_at_losses as u32).saturating_sub(pos.losses(kingdom));
                            let warn = if left <= 2 {
                                Color32::from_rgb(255, 120, 90)
                            } else {
                                Color32::from_gray(220)
                            };
                            ui.label(RichText::new(format!("{left}")).color(warn))
                                .on_hover_text(tr!(
                                    tr,
                                    "kingdoms-left-hint",
                                    kingdom = tr.kingdom(kingdom),
                                    count = left
                                ));
                            ui.label(goal_progress(pos, kingdom)).on_hover_text(tr!(
                                tr,
                                if generals {
                                    "kingdoms-goal-hint-generals"
                                } else {
                                    "kingdoms-goal-hint-kingdoms"
                                },
                                captures = rules.capture_goal
                            ));
                        }
                        ui.end_row();
                    }
                });
        });
    });
    Ok(())
}

/// A kingdom's progress to the win: kingdoms (or Generals) out of two, captures out of the goal.
fn goal_progress(pos: &Position, kingdom: Kingdom) -> String {
    format!(
        "{}/2 · {}/{}",
        pos.kingdom_goal_progress(kingdom),
        pos.player_captures(kingdom),
        pos.rules().capture_goal
    )
}

/// The table's numbers of a kingdom in one line, for a phone's narrow sheet: what it took and
/// lost, and how many losses it has left and its goal (or how it went out).
fn numbers_line(tr: Tr, pos: &Position, kingdom: Kingdom) -> String {
    let took = format!("{} {}", tr.text("kingdoms-took"), pos.captures(kingdom));
    let lost = format!("{} {}", tr.text("kingdoms-lost"), pos.losses(kingdom));
    if pos.standing(kingdom) != Standing::InGame {
        return format!("{took} · {lost} · {}", standing_text(tr, pos, kingdom));
    }
    let left = (pos.rules().beaten_at_losses as u32).saturating_sub(pos.losses(kingdom));
    format!(
        "{took} · {lost} · {} {left} · {} {}",
        tr.text("kingdoms-left"),
        tr.text("kingdoms-goal"),
        goal_progress(pos, kingdom)
    )
}
