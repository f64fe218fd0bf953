//! The Settings window: everything kept between sessions that is not chosen elsewhere
//! (language, pace, camera, hand-off banner, sound, interface size, colours, fullscreen), and the
//! memory of which panels are folded.

use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode};
use bevy_egui::{EguiContexts, egui};

use crate::game::art::palette::{Palette, PaletteChoice};
use crate::game::awareness::handoff::HandOff;
use crate::game::camera::ViewSettings;
use crate::game::pace::{Pace, PaceChoice};
use crate::game::preferences::Preferences;
use crate::game::sound::SoundSettings;
use crate::game::ui::zoom::InterfaceZoom;
use crate::i18n::{Language, Tr};
use crate::settings::{Panels, UI_SCALE_RANGE};
use crate::tr;

/// The other of windowed and borderless fullscreen.
pub(crate) fn toggled(mode: WindowMode) -> WindowMode {
    match mode {
        WindowMode::Windowed => WindowMode::BorderlessFullscreen(MonitorSelection::Current),
        _ => WindowMode::Windowed,
    }
}

/// The ids of the collapsible panels' state in egui's memory.
const PANELS: [&str; 2] = ["Kingdoms", "Moves"];

/// The panels' open or collapsed states: given to egui once, then read back from it.
pub(super) fn sync_panels(
    time: Res<Time>,
    mut contexts: EguiContexts,
    mut prefs: ResMut<Preferences>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let state = |name: &str| {
        egui::collapsing_header::CollapsingState::load_with_default_open(
            ctx,
            egui::Id::new(name).with("collapsing"),
            true,
        )
    };
    if !prefs.panels_applied {
        prefs.panels_applied = true;
        let panels = prefs.settings.panels.clone();
        for (name, open) in PANELS.into_iter().zip([panels.kingdoms, panels.moves]) {
            let mut s = state(name);
            s.set_open(open);
            s.store(ctx);
        }
        return Ok(());
    }
    let now = Panels {
        kingdoms: state(PANELS[0]).is_open(),
        moves: state(PANELS[1]).is_open(),
    };
    if now != prefs.settings.panels {
        prefs.settings.panels = now;
        prefs.changed_at.get_or_insert(time.elapsed_secs());
    }
    Ok(())
}

/// The Settings window: everything kept between sessions that is not chosen elsewhere.
pub(super) fn settings_window(
    mut contexts: EguiContexts,
    mut prefs: ResMut<Preferences>,
    mut view: ResMut<ViewSettings>,
    mut hand_off: ResMut<HandOff>,
    mut sound: ResMut<SoundSettings>,
    mut zoom: ResMut<InterfaceZoom>,
    mut palette: ResMut<Palette>,
    mut pace: ResMut<Pace>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    mut tr: ResMut<Tr>,
    time: Res<Time>,
) -> Result {
    let words = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let file = prefs.file();
    egui::Window::new(words.text("settings-title"))
        .id(egui::Id::new("Settings"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .resizable(false)
        .collapsible(false)
        .open(&mut open)
        .show(ctx, |ui| {
            crate::game::widgets::take_the_keyboards_focus(ui);
            egui::Grid::new("settings-grid")
                .num_columns(2)
                .spacing([16.0, 8.0])
                .show(ui, |ui| {
                    ui.label(words.text("settings-language"));
                    ui.horizontal(|ui| {
                        let mut language = tr.language();
                        for option in Language::ALL {
                            ui.radio_value(&mut language, option, option.native_name());
                        }
                        if language != tr.language() {
                            *tr = Tr::new(language);
                            prefs.settings.language = Some(language);
                            prefs.changed_at.get_or_insert(time.elapsed_secs());
                        }
                    });
                    ui.end_row();
                    ui.label(words.text("settings-pace"));
                    ui.horizontal(|ui| {
                        let mut choice = pace.0;
                        for (option, id, hint) in [
                            (PaceChoice::Calm, "pace-calm", "pace-calm-hint"),
                            (PaceChoice::Brisk, "pace-brisk", "pace-brisk-hint"),
                            (PaceChoice::Instant, "pace-instant", "pace-instant-hint"),
                        ] {
                            ui.radio_value(&mut choice, option, words.text(id))
                                .on_hover_text(words.text(hint));
                        }
                        pace.set_if_neq(Pace(choice));
                    });
                    ui.end_row();
                    ui.label(words.text("settings-camera"));
                    ui.checkbox(&mut view.follow_turn, words.text("follow-turn"));
                    ui.end_row();
                    ui.label(words.text("settings-people"));
                    let mut banner = hand_off.enabled;
                    if ui
                        .checkbox(&mut banner, words.text("settings-hand-off"))
                        .changed()
                    {
                        hand_off.enabled = banner;
                        hand_off.banner = None;
                    }
                    ui.end_row();
                    ui.label(words.text("settings-sound"));
                    ui.horizontal(|ui| {
                        ui.checkbox(&mut sound.muted, words.text("sound-mute"));
                        ui.add_enabled(
                            !sound.muted,
                            egui::Slider::new(&mut sound.volume, 0.0..=1.0)
                                .text(words.text("sound-volume")),
                        );
                    });
                    ui.end_row();
                    ui.label(words.text("settings-size"));
                    ui.horizontal(|ui| {
                        ui.add(
                            egui::Slider::new(
                                &mut zoom.chosen,
                                UI_SCALE_RANGE.0..=UI_SCALE_RANGE.1,
                            )
                            .fixed_decimals(2),
                        );
                        if ui
                            .button(words.text("settings-reset-size"))
                            .on_hover_text(crate::game::keyboard::ZOOM_RESET.label())
                            .clicked()
                        {
                            zoom.chosen = 1.0;
                        }
                    });
                    ui.end_row();
                    ui.label(words.text("settings-colours"));
                    ui.horizontal(|ui| {
                        let mut choice = palette.colours;
                        ui.radio_value(
                            &mut choice,
                            PaletteChoice::Standard,
                            words.text("settings-traditional"),
                        );
                        ui.radio_value(
                            &mut choice,
                            PaletteChoice::ColourBlind,
                            words.text("settings-colour-blind"),
                        )
                        .on_hover_text(words.text("settings-colour-blind-hint"));
                        if choice != palette.colours {
                            palette.colours = choice;
                        }
                    });
                    ui.end_row();
                    ui.label(words.text("settings-seeing"));
                    ui.vertical(|ui| {
                        let mut high = palette.high_contrast;
                        ui.checkbox(&mut high, words.text("settings-high-contrast"))
                            .on_hover_text(words.text("settings-high-contrast-hint"));
                        let mut large = palette.large_characters;
                        ui.checkbox(&mut large, words.text("settings-large-characters"));
                        if (high, large) != (palette.high_contrast, palette.large_characters) {
                            palette.high_contrast = high;
                            palette.large_characters = large;
                        }
                    });
                    ui.end_row();
                    ui.label(words.text("settings-window"));
                    if let Ok(mut window) = windows.single_mut() {
                        let mut full = !matches!(window.mode, WindowMode::Windowed);
                        if ui
                            .checkbox(
                                &mut full,
                                tr!(
                                    words,
                                    "settings-fullscreen",
                                    key = crate::game::keyboard::FULLSCREEN.label()
                                ),
                            )
                            .changed()
                        {
                            window.mode = toggled(window.mode);
                        }
                    }
                    ui.end_row();
                });
            ui.separator();
            let kept = match &file {
                Some(path) => tr!(words, "settings-kept-in", path = path.display().to_string()),
                None => words.text("settings-not-kept"),
            };
            ui.label(egui::RichText::new(kept).small().weak());
        });
    prefs.open = open;
    Ok(())
}
