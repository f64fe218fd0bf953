//! The table talk of the online game on the board: a panel in the right-hand column, between the
//! Kingdoms and the Moves. The people holding seats write to everyone at the table; watchers
//! read. A writer's name, clicked, mutes them for this player (in every game), or unmutes them.

use crate::game::widgets::{Sheet, SmallScreen};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::MAX_TALK_CHARS;

use super::shared::{Online, OnlineCommand};
use crate::game::ui::kit::text_colour;
use crate::game::widgets::{GAP, UiSystems, panel_rect};
use crate::i18n::Tr;
use crate::tr;

/// The table talk panel's id (the Moves panel goes below it).
pub(crate) const TALK_PANEL: &str = "Table talk";

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TalkForm>().add_systems(
        bevy_egui::EguiPrimaryContextPass,
        talk_panel.in_set(UiSystems::Panels),
    );
}

/// The room below the Kingdoms panel, down to the toolbar, from which the panel starts
/// unfolded (it and the Moves panel below it fit), in points.
const ROOM_TO_UNFOLD: f32 = 280.0;

/// The line being written.
#[derive(Resource, Default, Debug)]
struct TalkForm {
    text: String,
}

fn talk_panel(
    mut contexts: EguiContexts,
    online: Res<Online>,
    mut form: ResMut<TalkForm>,
    mut commands: MessageWriter<OnlineCommand>,
    small: Res<SmallScreen>,
    tr: Res<Tr>,
) -> Result {
    let Some(table) = &online.table else {
        return Ok(());
    };
    let tr = *tr;
    if !small.shows(Sheet::Talk) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // On a small screen a sheet, standing on the sheet bar; else below the Kingdoms panel.
    let above = if small.on {
        Some(egui::Rect::from_min_size(
            egui::pos2(0.0, 0.0),
            egui::vec2(SmallScreen::sheet_width(ctx), 0.0),
        ))
    } else {
        panel_rect(ctx, "Kingdoms")
    };
    let Some(above) = above else {
        // Placed once the Kingdoms panel is.
        return Ok(());
    };
    let width = above.width().max(262.0);
    let bottom = panel_rect(ctx, "toolbar").map_or(ctx.content_rect().max.y, |r| r.min.y);
    let room = bottom - above.max.y;
    let writes = !table.watching && table.seats.iter().any(|s| s.yours);
    let title = if table.talk.is_empty() {
        tr.text("talk-title")
    } else {
        tr!(tr, "talk-title-lines", count = table.talk.len())
    };
    let window = egui::Window::new(title)
        .id(egui::Id::new(TALK_PANEL))
        .anchor(egui::Align2::RIGHT_TOP, [-GAP, above.max.y + GAP])
        .min_width(width)
        .max_width(width)
        .resizable(false)
        .collapsible(true)
        // Open where the column has room for it and the Moves below; folded on a short
        // screen (its title still counts the lines), unfolded by a click.
        .default_open(room >= ROOM_TO_UNFOLD);
    small.place(ctx, window).show(ctx, |ui| {
        egui::ScrollArea::vertical()
            .max_height(96.0)
            .auto_shrink([false, true])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if table.talk.is_empty() {
                    ui.label(
                        RichText::new(tr.text("talk-empty"))
                            .small()
                            .color(Color32::from_gray(160)),
                    );
                }
                for line in &table.talk {
                    let kingdom = table.record_seats.kingdoms_of(line.seat).iter().next();
                    let colour =
                        kingdom.map_or(Color32::from_gray(210), |k| text_colour(ui.ctx(), k));
                    ui.horizontal_wrapped(|ui| {
                        ui.spacing_mut().item_spacing.x = 4.0;
                        let mine = table.holds(line.seat);
                        let name = ui.add(
                            egui::Label::new(
                                RichText::new(format!("{}:", line.name))
                                    .strong()
                                    .color(colour),
                            )
                            .sense(if mine {
                                egui::Sense::hover()
                            } else {
                                egui::Sense::click()
                            }),
                        );
                        if !mine
                            && name
                                .on_hover_text(tr!(tr, "talk-mute", name = line.name.clone()))
                                .clicked()
                        {
                            commands.write(OnlineCommand::Mute {
                                seat: line.seat,
                                mute: true,
                            });
                        }
                        ui.label(&line.text);
                    });
                }
            });
        for &seat in &table.muted {
            let name = table
                .seats
                .get(usize::from(seat))
                .and_then(|s| s.name.clone())
                .unwrap_or_default();
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(tr!(tr, "talk-muted", name = name.clone()))
                        .small()
                        .color(Color32::from_gray(160)),
                );
                if ui.small_button(tr.text("talk-unmute")).clicked() {
                    commands.write(OnlineCommand::Mute { seat, mute: false });
                }
            });
        }
        if !writes {
            ui.label(
                RichText::new(tr.text("talk-watching"))
                    .small()
                    .color(Color32::from_gray(160)),
            );
            return;
        }
        ui.horizontal(|ui| {
            let edit = ui.add(
                egui::TextEdit::singleline(&mut form.text)
                    .char_limit(MAX_TALK_CHARS)
                    .hint_text(tr.text("talk-hint"))
                    .desired_width(width - 64.0),
            );
            let entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let said = ui.button(tr.text("talk-say")).clicked();
            if (entered || said) && !form.text.trim().is_empty() {
                commands.write(OnlineCommand::Say(form.text.trim().to_owned()));
                form.text.clear();
                edit.request_focus();
            }
        });
    });
    Ok(())
}
