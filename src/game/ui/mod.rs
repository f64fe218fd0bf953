//! The interface, drawn with egui from `Match` every frame: the turn-order strip, the kingdoms'
//! standings, the move list with review, undo and redo, the last move and messages, the
//! toolbar (new game, files, views), and the dialogs (new game, attacking an ally, game over,
//! save, load, import and export, resuming the last game). Its Chinese text uses the shipped kaishu font.

mod concede;
pub(crate) mod describe;
pub(crate) mod dialogs;
mod files;
mod fingers;
mod help;
mod movebox;
pub(crate) mod moves;
mod report;
mod settings;
mod standings;
mod status;
mod tabs;
#[cfg(target_arch = "wasm32")]
pub(crate) use status::rejected_words;
pub(crate) mod welcome;
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) mod windows_text;

use bevy::prelude::*;
use bevy_egui::egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
use bevy_egui::egui::{self, Color32, FontData, FontFamily, Pos2, Stroke};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use qiguo_rules::Kingdom;

use crate::game::art::palette::{EmblemShape, KingdomStyle, Palette};
use crate::game::art::textures::{KAI_FONT, Rgba};
use crate::game::camera::framing::{FreeArea, PanelRects};
use crate::game::preferences::{KeepSetting, KeptSetting, Preferences};
use crate::game::schedule::AppSystems;
use crate::game::widgets::UiSystems;
use crate::game::widgets::{
    FINGER_TARGET, SHEET_BAR, SMALL_HEIGHT, SMALL_WIDTH, Sheet, SmallScreen,
};
pub(crate) use crate::game::widgets::{GAP, centred_dialog, column_top, panel_rect};
use crate::i18n::Tr;

pub(crate) use dialogs::NewGameForm;
pub(crate) use files::FilesForm;
pub(crate) use settings::toggled;
pub(crate) use status::Toast;

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((fingers::plugin, tabs::plugin))
        .init_resource::<NewGameForm>()
        .init_resource::<FilesForm>()
        .init_resource::<Toast>()
        .init_resource::<concede::ConcedeForm>()
        .init_resource::<report::ReportWindow>()
        .init_resource::<help::RulesWindow>()
        .init_resource::<movebox::MoveBox>()
        .init_resource::<welcome::Welcome>()
        .init_resource::<InterfaceZoom>()
        .init_resource::<SmallScreen>()
        .init_resource::<Palette>()
        .keep_setting::<NewGameForm>()
        .keep_setting::<welcome::Welcome>()
        .keep_setting::<InterfaceZoom>()
        .keep_setting::<Palette>()
        .add_systems(
            Update,
            (
                status::collect_toasts,
                concede::restore_pace,
                concede::open_when_typed,
                report::make_reports,
                help::rules_key.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
                movebox::open_key
                    .run_if(not(bevy_egui::input::egui_wants_any_keyboard_input))
                    .run_if(crate::game::input::cursor_hidden),
            )
                .in_set(AppSystems::UpdateHud),
        )
        .configure_sets(
            EguiPrimaryContextPass,
            (
                UiSystems::Setup,
                UiSystems::Panels,
                UiSystems::Cards,
                UiSystems::Dialogs,
                UiSystems::Windows,
                UiSystems::Last,
            )
                .chain(),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                (
                    set_up_style,
                    share_palette,
                    contrast,
                    zoom_keys,
                    fit_to_screen,
                    tab_into_dialogs,
                )
                    .chain()
                    .in_set(UiSystems::Setup),
                (
                    sheet_bar,
                    standings::turn_strip,
                    standings::kingdom_table,
                    status::toolbar,
                    moves::move_list,
                    status::status_line,
                    status::hand_off_banner,
                )
                    .chain()
                    .in_set(UiSystems::Panels),
                (
                    help::piece_card,
                    help::rules_window.run_if(|w: Res<help::RulesWindow>| w.open),
                    movebox::move_box.run_if(|m: Res<movebox::MoveBox>| m.open),
                )
                    .chain()
                    .in_set(UiSystems::Cards),
                (
                    dialogs::ally_question,
                    dialogs::game_over,
                    concede::concede_dialog,
                    concede::finish_offer,
                    report::report_window.run_if(|w: Res<report::ReportWindow>| w.open),
                )
                    .chain()
                    .in_set(UiSystems::Dialogs),
                (
                    dialogs::new_game.run_if(|f: Res<NewGameForm>| f.open),
                    files::save_dialog.run_if(|f: Res<FilesForm>| f.save_open),
                    files::load_dialog.run_if(|f: Res<FilesForm>| f.load_open),
                    files::share_dialog.run_if(|f: Res<FilesForm>| f.share_open),
                    files::resume_dialog,
                    welcome::welcome_card.run_if(welcome::card_due),
                )
                    .chain()
                    .in_set(UiSystems::Windows),
                (
                    report_panels,
                    settings::sync_panels,
                    settings::settings_window.run_if(|p: Res<Preferences>| p.open),
                )
                    .chain()
                    .in_set(UiSystems::Last),
            ),
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
    // A click read across two frames lasts a frame's time: on a software renderer a frame can
    // take most of a second, and egui's 0.8 s would turn such clicks into long presses.
    ctx.options_mut(|options| options.input_options.max_click_duration = 2.5);
    ctx.all_styles_mut(|style| {
        style.visuals = egui::Visuals::dark();
        style.visuals.window_fill = Color32::from_rgba_unmultiplied(24, 20, 17, 228);
        style.visuals.panel_fill = Color32::from_rgba_unmultiplied(24, 20, 17, 228);
        style.visuals.window_stroke = Stroke::new(1.0, Color32::from_rgb(92, 72, 48));
        // The keyboard's focus is always seen: a focused widget is drawn as an active one
        // (egui's rule), here with a gold outline; a text field's focus the same.
        style.visuals.widgets.active.bg_stroke = Stroke::new(2.0, FOCUS);
        style.visuals.selection.stroke = Stroke::new(2.0, FOCUS);
        // Words are read, not selected: a selectable label would take a Tab (unseen) on the
        // keyboard's way from button to button. Fields are still selected and copied from.
        style.interaction.selectable_labels = false;
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

/// The lasting panels, by their ids: the turn strip, the toolbar, the Kingdoms and Moves
/// windows, the status line and a lesson's card. The board is framed in the space they leave.
const PANELS: [&str; 7] = [
    "turn strip",
    "toolbar",
    "Kingdoms",
    "Moves",
    "status",
    "lesson card",
    SHEET_BAR,
];

/// The panels that are sheets on a small screen: passing, drawn over the board, not framing it.
const SHEETS: [&str; 3] = ["toolbar", "Kingdoms", "Moves"];

/// Whether the screen is small (see [`SmallScreen`]); on one, buttons are tall enough for a
/// finger. A sheet left open closes when the screen is no longer small.
fn fit_to_screen(mut contexts: EguiContexts, mut small: ResMut<SmallScreen>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let on = screen.width() < SMALL_WIDTH || screen.height() < SMALL_HEIGHT;
    if on == small.on {
        return Ok(());
    }
    small.on = on;
    small.open = None;
    ctx.all_styles_mut(|style| {
        if on {
            style.spacing.interact_size.y = FINGER_TARGET;
            style.spacing.button_padding = egui::vec2(10.0, 8.0);
        } else {
            let plain = egui::style::Spacing::default();
            style.spacing.interact_size = plain.interact_size;
            style.spacing.button_padding = plain.button_padding;
        }
    });
    Ok(())
}

/// The bar along a small screen's bottom: a button for each sheet (the kingdoms, an online
/// game's table talk, the moves, the menu), each opening its sheet or closing it.
fn sheet_bar(
    mut contexts: EguiContexts,
    mut small: ResMut<SmallScreen>,
    online: Res<crate::game::online::Online>,
    tr: Res<Tr>,
) -> Result {
    if !small.on {
        return Ok(());
    }
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut sheets = vec![
        (Sheet::Kingdoms, tr.text("kingdoms-title")),
        (Sheet::Moves, tr.text("moves-title")),
        (Sheet::Menu, tr.text("sheet-menu")),
    ];
    if online.table.is_some() {
        sheets.insert(1, (Sheet::Talk, tr.text("sheet-talk")));
    }
    let width = crate::game::widgets::SmallScreen::sheet_width(ctx);
    egui::Area::new(egui::Id::new(SHEET_BAR))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -GAP])
        .show(ctx, |ui| {
            egui::Frame::window(ui.style())
                .inner_margin(4.0)
                .show(ui, |ui| {
                    ui.set_width(width - 8.0);
                    let each = (width - 8.0) / sheets.len() as f32 - ui.spacing().item_spacing.x;
                    ui.horizontal(|ui| {
                        for (sheet, name) in sheets {
                            let open = small.open == Some(sheet);
                            let button = egui::Button::selectable(open, name)
                                .min_size(egui::vec2(each, FINGER_TARGET));
                            if ui.add(button).clicked() {
                                small.toggle(sheet);
                            }
                        }
                    });
                });
        });
    Ok(())
}

/// The free area (where the board is framed) in points: banners and the turn strip centre on it.
fn board_area(ctx: &egui::Context, free: &FreeArea) -> egui::Rect {
    let scale = ctx.pixels_per_point();
    egui::Rect::from_min_max(
        egui::pos2(free.rect.min.x / scale, free.rect.min.y / scale),
        egui::pos2(free.rect.max.x / scale, free.rect.max.y / scale),
    )
}

/// Tells the framing where the panels are, in physical pixels.
fn report_panels(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelRects>,
    small: Res<SmallScreen>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let scale = ctx.pixels_per_point();
    let rects: Vec<Rect> = PANELS
        .iter()
        .filter(|id| !(small.on && SHEETS.contains(id)))
        .filter_map(|id| panel_rect(ctx, id))
        .map(|r| Rect::from_corners(Vec2::new(r.min.x, r.min.y), Vec2::new(r.max.x, r.max.y)))
        .map(|r| Rect::from_corners(r.min * scale, r.max * scale))
        .collect();
    if panels.0 != rects {
        panels.0 = rects;
    }
    Ok(())
}

/// The interface's size steps and bounds (Ctrl+plus, Ctrl+minus; Ctrl+0 resets).
const ZOOM_STEP: f32 = 1.1;
const ZOOM_RANGE: (f32, f32) = (0.6, 2.2);

/// The interface's zoom factor after `key` with Ctrl held, from `zoom`.
fn zoomed(zoom: f32, key: KeyCode) -> Option<f32> {
    use crate::game::keys::{ZOOM_IN, ZOOM_OUT, ZOOM_RESET};
    // The keypad's keys do the same as the bound ones.
    let z = match key {
        k if k == ZOOM_IN.code || k == KeyCode::NumpadAdd => zoom * ZOOM_STEP,
        k if k == ZOOM_OUT.code || k == KeyCode::NumpadSubtract => zoom / ZOOM_STEP,
        k if k == ZOOM_RESET.code || k == KeyCode::Numpad0 => 1.0,
        _ => return None,
    };
    Some(z.clamp(ZOOM_RANGE.0, ZOOM_RANGE.1))
}

impl KeptSetting for InterfaceZoom {
    fn apply(&mut self, prefs: &Preferences) {
        self.chosen = prefs.settings.ui_scale;
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.ui_scale = self.chosen;
    }
}

/// The interface's size as the player chose it (Ctrl+plus, Ctrl+minus, Ctrl+0), on top of the
/// size the window suits.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub(crate) struct InterfaceZoom {
    /// The player's factor (1 unless changed).
    pub(crate) chosen: f32,
}

impl Default for InterfaceZoom {
    fn default() -> InterfaceZoom {
        InterfaceZoom { chosen: 1.0 }
    }
}

/// The interface's size for a window of `width`×`height` logical pixels: 1 up to 1280×720,
/// growing more slowly than the window beyond (1.28 at 1920×1080, 1.52 at 2560×1440), so text
/// stays legible on large windows without crowding the board.
fn window_zoom(width: f32, height: f32) -> f32 {
    (width / 1280.0)
        .min(height / 720.0)
        .max(1.0)
        .powf(0.6)
        .min(1.6)
}

/// Ctrl+plus and Ctrl+minus make the interface larger or smaller, Ctrl+0 resets it; the board is
/// not affected. The size also follows the window's (or the image's, with `--offscreen`).
fn zoom_keys(
    mut contexts: EguiContexts,
    keys: Res<ButtonInput<KeyCode>>,
    cameras: Query<&Camera, With<Camera3d>>,
    mut zoom: ResMut<InterfaceZoom>,
) -> Result {
    if crate::game::keys::command_held(&keys) {
        for key in keys.get_just_pressed() {
            if let Some(chosen) = zoomed(zoom.chosen, *key) {
                zoom.chosen = chosen;
            }
        }
    }
    let base = cameras
        .iter()
        .next()
        .and_then(Camera::logical_target_size)
        .map_or(1.0, |size| window_zoom(size.x, size.y));
    let ctx = contexts.ctx_mut()?;
    let wanted = zoom.chosen * base;
    if (ctx.zoom_factor() - wanted).abs() > 1e-4 {
        ctx.set_zoom_factor(wanted);
    }
    Ok(())
}

/// Where the interface finds the palette in egui's memory: [`share_palette`] puts it there
/// each frame, so every painter of a kingdom's colour uses the one in force.
fn palette_id() -> egui::Id {
    egui::Id::new("qiguo-palette")
}

/// The palette in force, for the interface.
fn share_palette(mut contexts: EguiContexts, palette: Res<Palette>) -> Result {
    let ctx = contexts.ctx_mut()?;
    ctx.data_mut(|d| d.insert_temp(palette_id(), *palette));
    Ok(())
}

/// A Tab pressed while nothing has the focus goes to the dialog on the screen, if there is one
/// ([`crate::game::widgets::hold_tab_for_dialogs`]).
fn tab_into_dialogs(mut contexts: EguiContexts) -> Result {
    crate::game::widgets::hold_tab_for_dialogs(contexts.ctx_mut()?);
    Ok(())
}

/// The outline of the widget that has the keyboard's focus.
const FOCUS: Color32 = Color32::from_rgb(255, 196, 40);

/// The interface for high contrast (a setting of the palette): text at full white, windows
/// opaque black with a white edge; put back when it is turned off. Set when it changes and on
/// the first frame (after the look is set up).
fn contrast(
    mut contexts: EguiContexts,
    palette: Res<Palette>,
    mut set: Local<Option<bool>>,
) -> Result {
    if *set == Some(palette.high_contrast) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let high = palette.high_contrast;
    ctx.all_styles_mut(|style| {
        let v = &mut style.visuals;
        if high {
            v.override_text_color = Some(Color32::WHITE);
            v.window_fill = Color32::BLACK;
            v.panel_fill = Color32::BLACK;
            v.window_stroke = Stroke::new(2.0, Color32::WHITE);
            v.widgets.noninteractive.fg_stroke.color = Color32::WHITE;
            v.widgets.inactive.bg_stroke = Stroke::new(1.0, Color32::from_gray(200));
        } else {
            let plain = egui::Visuals::dark();
            v.override_text_color = None;
            v.window_fill = Color32::from_rgba_unmultiplied(24, 20, 17, 228);
            v.panel_fill = Color32::from_rgba_unmultiplied(24, 20, 17, 228);
            v.window_stroke = Stroke::new(1.0, Color32::from_rgb(92, 72, 48));
            v.widgets.noninteractive.fg_stroke = plain.widgets.noninteractive.fg_stroke;
            v.widgets.inactive.bg_stroke = plain.widgets.inactive.bg_stroke;
        }
    });
    *set = Some(high);
    Ok(())
}

/// How `kingdom` looks in the palette in force.
pub(super) fn kingdom_style(ctx: &egui::Context, kingdom: Kingdom) -> KingdomStyle {
    ctx.data(|d| d.get_temp::<Palette>(palette_id()))
        .unwrap_or_default()
        .style(kingdom)
}

/// egui's colour for an sRGB byte colour.
fn c32(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3])
}

/// Paints a kingdom's badge: a stone of its colour with its rim emblem and its character.
fn paint_badge(painter: &egui::Painter, centre: Pos2, radius: f32, kingdom: Kingdom, dim: bool) {
    let s = kingdom_style(painter.ctx(), kingdom);
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
    tr: Tr,
    id: impl std::hash::Hash + std::fmt::Debug,
    current: Option<qiguo_ai::Level>,
) -> Option<Option<qiguo_ai::Level>> {
    use qiguo_ai::Level;
    let label = |c: Option<Level>| c.map_or_else(|| tr.text("player-person"), |l| tr.level(l));
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
pub(crate) fn badge(
    ui: &mut egui::Ui,
    kingdom: Kingdom,
    diameter: f32,
    dim: bool,
) -> egui::Response {
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

    #[test]
    fn large_windows_get_a_larger_interface() {
        assert_eq!(window_zoom(1024.0, 768.0), 1.0);
        assert_eq!(window_zoom(1280.0, 720.0), 1.0);
        assert!((window_zoom(1920.0, 1080.0) - 1.275).abs() < 0.01);
        assert!((window_zoom(2560.0, 1440.0) - 1.516).abs() < 0.01);
        // A wide but short window is sized by its height.
        assert_eq!(window_zoom(3000.0, 700.0), 1.0);
        assert_eq!(window_zoom(7680.0, 4320.0), 1.6);
    }
}
