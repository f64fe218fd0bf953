//! The interface, drawn with egui from `Match` every frame: the turn-order strip, the kingdoms'
//! standings, the move list with review, undo and redo, the last move and messages, the
//! toolbar (new game, files, views), and the dialogs (new game, attacking an ally, game over,
//! save, load, import and export, resuming the last game). Its Chinese text uses the shipped kaishu font.

pub mod describe;
mod dialogs;
mod files;
mod help;
mod moves;
mod standings;
mod status;

use bevy::prelude::*;
use bevy_egui::egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
use bevy_egui::egui::{self, Color32, FontData, FontFamily, Pos2, Stroke};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use qiguo_rules::Kingdom;

use super::AppSystems;
use super::palette::{EmblemShape, style};
use super::textures::{KAI_FONT, Rgba};

pub use dialogs::NewGameForm;
pub use files::FilesForm;
pub use status::Toast;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<NewGameForm>()
        .init_resource::<FilesForm>()
        .init_resource::<Toast>()
        .init_resource::<help::RulesWindow>()
        .add_systems(Update, status::collect_toasts.in_set(AppSystems::UpdateHud))
        .add_systems(
            EguiPrimaryContextPass,
            (
                set_up_style,
                zoom_keys,
                standings::turn_strip,
                standings::kingdom_table,
                status::toolbar,
                moves::move_list,
                status::status_line,
                status::hand_off_banner,
                help::piece_card,
                help::rules_window,
                dialogs::ally_question,
                dialogs::game_over,
                dialogs::new_game,
                files::save_dialog,
                files::load_dialog,
                files::share_dialog,
                files::resume_dialog,
            )
                .chain(),
        );
}

/// Installs the kaishu font as a fallback for Chinese characters, and the look, once.
fn set_up_style(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.add_font(FontInsert {
        name: "qiguo-kai".to_owned(),
        data: FontData::from_static(KAI_FONT),
        families: vec![
            InsertFontFamily {
                family: FontFamily::Proportional,
                priority: FontPriority::Lowest,
            },
            InsertFontFamily {
                family: FontFamily::Monospace,
                priority: FontPriority::Lowest,
            },
        ],
    });
    ctx.all_styles_mut(|style| {
        style.visuals = egui::Visuals::dark();
        style.visuals.window_fill = Color32::from_rgba_unmultiplied(24, 20, 17, 228);
        style.visuals.panel_fill = Color32::from_rgba_unmultiplied(24, 20, 17, 228);
        style.visuals.window_stroke = Stroke::new(1.0, Color32::from_rgb(92, 72, 48));
        style.spacing.item_spacing = egui::vec2(6.0, 4.0);
        for (text_style, font) in style.text_styles.iter_mut() {
            font.size = match text_style {
                egui::TextStyle::Heading => 19.0,
                egui::TextStyle::Small => 11.5,
                _ => 14.0,
            };
        }
    });
    *done = true;
    Ok(())
}

/// The interface's size steps and bounds (Ctrl+plus, Ctrl+minus; Ctrl+0 resets).
const ZOOM_STEP: f32 = 1.1;
const ZOOM_RANGE: (f32, f32) = (0.6, 2.2);

/// The interface's zoom factor after `key` with Ctrl held, from `zoom`.
fn zoomed(zoom: f32, key: KeyCode) -> Option<f32> {
    let z = match key {
        KeyCode::Equal | KeyCode::NumpadAdd => zoom * ZOOM_STEP,
        KeyCode::Minus | KeyCode::NumpadSubtract => zoom / ZOOM_STEP,
        KeyCode::Digit0 | KeyCode::Numpad0 => 1.0,
        _ => return None,
    };
    Some(z.clamp(ZOOM_RANGE.0, ZOOM_RANGE.1))
}

/// Ctrl+plus and Ctrl+minus make the interface larger or smaller, Ctrl+0 resets it; the board is
/// not affected.
fn zoom_keys(mut contexts: EguiContexts, keys: Res<ButtonInput<KeyCode>>) -> Result {
    if !keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    for key in keys.get_just_pressed() {
        if let Some(zoom) = zoomed(ctx.zoom_factor(), *key) {
            ctx.set_zoom_factor(zoom);
        }
    }
    Ok(())
}

/// A window fixed in the middle of the screen, for forms and questions.
fn centred_dialog<'open>(title: &str) -> egui::Window<'open> {
    egui::Window::new(title)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .resizable(false)
        .collapsible(false)
}

/// egui's colour for an sRGB byte colour.
fn c32(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// Paints a kingdom's badge: a stone of its colour with its rim emblem and its character.
fn paint_badge(painter: &egui::Painter, centre: Pos2, radius: f32, kingdom: Kingdom, dim: bool) {
    let s = style(kingdom);
    let (stone, ink) = if dim {
        (
            c32(s.stone).gamma_multiply(0.45),
            c32(s.ink).gamma_multiply(0.45),
        )
    } else {
        (c32(s.stone), c32(s.ink))
    };
    painter.circle_filled(centre, radius, stone);
    painter.circle_stroke(
        centre,
        radius,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
    );
    let at = |p: [f32; 2]| centre + egui::vec2(p[0], p[1]) * radius;
    for shape in s.emblem.shapes() {
        match shape {
            EmblemShape::Disc { at: p, r } => {
                painter.circle_filled(at(p), r * radius, ink);
            }
            EmblemShape::Ring { r, width } => {
                painter.circle_stroke(centre, r * radius, Stroke::new(width * radius, ink));
            }
            EmblemShape::Segment { a, b, width } => {
                painter.line_segment([at(a), at(b)], Stroke::new(width * radius, ink));
            }
            EmblemShape::Diamond { at: p, size } => {
                let c = at(p);
                let d = size * radius;
                painter.add(egui::Shape::convex_polygon(
                    vec![
                        c + egui::vec2(0.0, -d),
                        c + egui::vec2(d, 0.0),
                        c + egui::vec2(0.0, d),
                        c + egui::vec2(-d, 0.0),
                    ],
                    ink,
                    Stroke::NONE,
                ));
            }
        }
    }
    painter.text(
        centre,
        egui::Align2::CENTER_CENTER,
        kingdom.character(),
        egui::FontId::proportional(radius * 1.05),
        ink,
    );
}

/// A choice between a person and the computer levels; returns the new choice if changed.
fn controller_choice(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    current: Option<qiguo_ai::Level>,
) -> Option<Option<qiguo_ai::Level>> {
    use qiguo_ai::Level;
    let label = |c: Option<Level>| c.map_or("Person", |l| l.title());
    let mut choice = current;
    egui::ComboBox::from_id_salt(id)
        .selected_text(label(current))
        .width(78.0)
        .show_ui(ui, |ui| {
            for option in [
                None,
                Some(Level::Easy),
                Some(Level::Medium),
                Some(Level::Hard),
            ] {
                ui.selectable_value(&mut choice, option, label(option));
            }
        });
    (choice != current).then_some(choice)
}

/// A badge as a widget of the given diameter.
fn badge(ui: &mut egui::Ui, kingdom: Kingdom, diameter: f32, dim: bool) -> egui::Response {
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(diameter, diameter), egui::Sense::hover());
    paint_badge(ui.painter(), rect.center(), diameter / 2.0, kingdom, dim);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interface_zooms_in_steps_within_bounds() {
        assert_eq!(zoomed(1.0, KeyCode::Equal), Some(1.1));
        assert_eq!(zoomed(1.1, KeyCode::Minus), Some(1.0));
        assert_eq!(zoomed(1.7, KeyCode::Digit0), Some(1.0));
        assert_eq!(zoomed(2.2, KeyCode::NumpadAdd), Some(2.2));
        assert_eq!(zoomed(0.6, KeyCode::Minus), Some(0.6));
        assert_eq!(zoomed(1.0, KeyCode::KeyA), None);
    }
}
