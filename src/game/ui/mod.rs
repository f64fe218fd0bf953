//! The interface, drawn with egui from `Match` every frame: the turn-order strip, the kingdoms'
//! standings, the move list with review, undo and redo, the last move and messages, the
//! toolbar (new game, files, views), and the dialogs (new game, attacking an ally, game over,
//! save, load, import and export, resuming the last game). Its Chinese text uses the shipped kaishu font.

mod concede;
pub(crate) mod describe;
pub(crate) mod dialogs;
pub(crate) mod files;
mod fingers;
mod help;
pub(crate) mod kit;
mod movebox;
pub(crate) mod moves;
pub(crate) mod report;
pub(crate) mod settings;
mod standings;
pub(crate) mod status;
mod tabs;
pub(crate) mod welcome;
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) mod windows_text;
pub(crate) mod zoom;

use bevy::prelude::*;
use bevy_egui::egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
use bevy_egui::egui::{self, Color32, FontData, FontFamily, Stroke};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use crate::game::art::palette::Palette;
use crate::game::art::textures::KAI_FONT;
use crate::game::camera::framing::PanelRects;
use crate::game::preferences::{KeepSetting, Preferences};
use crate::game::schedule::AppSystems;
use crate::game::widgets::UiSystems;
use crate::game::widgets::{
    FINGER_TARGET, SHEET_BAR, SMALL_HEIGHT, SMALL_WIDTH, Sheet, SmallScreen,
};
use crate::game::widgets::{GAP, panel_rect};
use crate::i18n::Tr;

use kit::{PANELS, palette_id};
use zoom::{InterfaceZoom, zoom_keys};

use dialogs::NewGameForm;
use files::FilesForm;
use status::Toast;

/// Opens the Game report (`--report`).
pub(crate) fn open_report(app: &mut App) {
    app.world_mut().resource_mut::<report::ReportWindow>().open = true;
}

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
