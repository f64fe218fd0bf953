//! The player's settings kept between sessions: read before the window opens, applied to the
//! game's resources at start, gathered back from them as the player changes them and written
//! once the changes settle (and when the game closes). The window's place and F11 live with
//! the app ([`crate::game::app::window`]); the panels' memory and the Settings window with the
//! interface ([`crate::game::ui`]).

use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode};
use qiguo_ai::Level;
use qiguo_rules::Preset;

use crate::game::AppSystems;
use crate::game::app::launch::WindowSize;
use crate::game::art::palette::Palette;
use crate::game::awareness::handoff::HandOff;
use crate::game::camera::ViewSettings;
use crate::game::lessons::LessonsDone;
use crate::game::pace::Pace;
use crate::game::sound::SoundSettings;
use crate::game::state::Notice;
use crate::game::ui::InterfaceZoom;
use crate::game::ui::dialogs::{NewGameForm, SeatingKind};
use crate::game::ui::welcome::Welcome;
use crate::i18n::{Language, Tr, system_language};
use crate::settings::{ConfigDir, NewGameChoices, Settings};
use crate::tr;

/// Seconds after the last change before the settings are written.
const SETTLE_SECONDS: f32 = 1.0;

/// The settings in use, where they are kept, and what the file holds.
#[derive(Resource, Debug)]
pub(crate) struct Preferences {
    /// Where they are kept; `None` for a session that keeps nothing (screenshots, benchmarks,
    /// no home directory).
    dir: Option<ConfigDir>,
    /// The settings as the game uses them now.
    pub(crate) settings: Settings,
    /// What the file holds (or would, for a session that keeps nothing).
    written: Settings,
    /// When the settings last changed, in seconds of app time, if not yet written.
    pub(crate) changed_at: Option<f32>,
    /// What went wrong reading the file, to show once at start.
    message: Option<String>,
    /// Whether the remembered window position has been dealt with.
    pub(crate) placed: bool,
    /// Whether the panels' remembered states have been given to egui.
    pub(crate) panels_applied: bool,
    /// Whether a failed write has been reported (once per session).
    failed: bool,
    /// Whether the Settings window is shown.
    pub(crate) open: bool,
    /// The interface's language at start: asked for on the command line, else the one kept,
    /// else the system's (English if it is none of the game's).
    pub(crate) language: Language,
    /// Whether the welcome card is due: a first launch (no settings yet), opened plainly.
    pub(crate) welcome_due: bool,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences::session_only(None)
    }
}

impl Preferences {
    /// The player's settings from the config directory (the defaults, with a message, if the
    /// file is damaged or from a newer game); `asked` is the language asked for on the command
    /// line.
    pub(crate) fn load(asked: Option<Language>) -> Preferences {
        // (Logged once the game's log is set up: see `apply_settings`.)
        let Some(dir) = ConfigDir::locate() else {
            let language = asked.or_else(system_language).unwrap_or(Language::English);
            return Preferences {
                message: Some(Tr::new(language).text("settings-no-home")),
                ..Preferences::session_only(Some(language))
            };
        };
        let loaded = dir.load();
        if let Some(message) = loaded.message() {
            eprintln!("qiguo: {message}");
        }
        let language = asked
            .or(loaded.settings.language)
            .or_else(system_language)
            .unwrap_or(Language::English);
        let message = loaded.message_in(Tr::new(language));
        Preferences {
            dir: Some(dir),
            welcome_due: !loaded.settings.welcomed,
            settings: loaded.settings.clone(),
            written: loaded.settings,
            message,
            ..Preferences::session_only(Some(language))
        }
    }

    /// The defaults, never written: for screenshots and benchmarks, which must not depend on
    /// or change the player's settings (English unless `language` is asked for).
    pub(crate) fn session_only(language: Option<Language>) -> Preferences {
        Preferences {
            dir: None,
            settings: Settings::default(),
            written: Settings::default(),
            changed_at: None,
            message: None,
            placed: false,
            panels_applied: false,
            failed: false,
            open: false,
            language: language.unwrap_or(Language::English),
            welcome_due: false,
        }
    }

    /// Where the settings are kept, if they are.
    pub(crate) fn file(&self) -> Option<std::path::PathBuf> {
        self.dir.as_ref().map(ConfigDir::file)
    }

    /// The game window as the player left it, or at `size` if the command line asks for one.
    pub(crate) fn primary_window(&self, size: Option<WindowSize>) -> Window {
        let w = &self.settings.window;
        let (width, height) = size.map_or((w.width, w.height), |s| (s.width, s.height));
        Window {
            title: "Qiguo — 七國象棋".into(),
            resolution: (width, height).into(),
            mode: if w.fullscreen && size.is_none() {
                WindowMode::BorderlessFullscreen(MonitorSelection::Current)
            } else {
                WindowMode::Windowed
            },
            ..default()
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Preferences>()
        .add_systems(PostStartup, apply_settings)
        .add_systems(
            Update,
            (gather_settings, write_settings)
                .chain()
                .after(AppSystems::UpdateHud),
        )
        .add_systems(Last, write_on_exit);
}

/// The remembered settings given to the game's resources, once at start.
fn apply_settings(
    mut prefs: ResMut<Preferences>,
    mut view: ResMut<ViewSettings>,
    mut hand_off: ResMut<HandOff>,
    mut sound: ResMut<SoundSettings>,
    mut zoom: ResMut<InterfaceZoom>,
    mut form: ResMut<NewGameForm>,
    mut palette: ResMut<Palette>,
    mut pace: ResMut<Pace>,
    mut notices: MessageWriter<Notice>,
    (mut lessons_done, mut welcome): (ResMut<LessonsDone>, ResMut<Welcome>),
) {
    let s = &prefs.settings;
    lessons_done.0 = s.lessons_done.iter().cloned().collect();
    welcome.open = prefs.welcome_due;
    palette.set_if_neq(Palette(s.palette));
    pace.set_if_neq(Pace(s.pace));
    view.follow_turn = s.camera_follows_turn;
    hand_off.enabled = s.hand_off_banner;
    sound.volume = s.volume;
    sound.muted = s.muted;
    zoom.chosen = s.ui_scale;
    apply_new_game(&s.new_game, &mut form);
    if let Some(file) = prefs.file() {
        info!("settings live in {}", file.display());
    }
    if let Some(message) = prefs.message.take() {
        warn!("{message}");
        notices.write(Notice::error(message));
    }
}

/// The last new game's choices put back into the dialog; unknown or missing values keep the
/// dialog's own.
fn apply_new_game(choices: &NewGameChoices, form: &mut NewGameForm) {
    if let Ok(preset) = choices.rules.parse::<Preset>() {
        form.preset = preset;
    }
    if let Some(kind) = SeatingKind::ALL
        .into_iter()
        .find(|k| k.key() == choices.seating)
    {
        form.seating = kind;
    }
    for (slot, name) in form.names.iter_mut().zip(&choices.names) {
        if !name.trim().is_empty() {
            slot.clone_from(name);
        }
    }
    for (slot, player) in form.controllers.iter_mut().zip(&choices.players) {
        if player == "person" {
            *slot = None;
        } else if let Ok(level) = player.parse::<Level>() {
            *slot = Some(level);
        }
    }
}

/// The dialog's choices as they are kept.
fn new_game_choices(form: &NewGameForm) -> NewGameChoices {
    NewGameChoices {
        rules: form.preset.name().to_owned(),
        seating: form.seating.key().to_owned(),
        names: form.names.clone(),
        players: form
            .controllers
            .iter()
            .map(|c| c.map_or("person", Level::name).to_owned())
            .collect(),
    }
}

/// The settings as the game's resources and the window have them now; a change starts the
/// clock before writing.
fn gather_settings(
    time: Res<Time>,
    mut prefs: ResMut<Preferences>,
    view: Res<ViewSettings>,
    hand_off: Res<HandOff>,
    sound: Res<SoundSettings>,
    zoom: Res<InterfaceZoom>,
    form: Res<NewGameForm>,
    palette: Res<Palette>,
    pace: Res<Pace>,
    windows: Query<&Window, With<PrimaryWindow>>,
    (lessons_done, welcome): (Res<LessonsDone>, Res<Welcome>),
) {
    let mut now = Settings {
        palette: palette.0,
        pace: pace.0,
        camera_follows_turn: view.follow_turn,
        hand_off_banner: hand_off.enabled,
        volume: sound.volume,
        muted: sound.muted,
        ui_scale: zoom.chosen,
        new_game: new_game_choices(&form),
        lessons_done: lessons_done.0.iter().cloned().collect(),
        welcomed: prefs.settings.welcomed || welcome.chosen,
        ..prefs.settings.clone()
    };
    if let Ok(window) = windows.single() {
        now.window = crate::game::app::window::placement(window, &prefs.settings.window);
    }
    let now = now.sanitized();
    if now != prefs.settings {
        prefs.settings = now;
        prefs.changed_at.get_or_insert(time.elapsed_secs());
    }
}

/// Writes the settings once they have not changed for a second.
fn write_settings(
    time: Res<Time>,
    mut prefs: ResMut<Preferences>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let Some(at) = prefs.changed_at else {
        return;
    };
    if time.elapsed_secs() - at >= SETTLE_SECONDS {
        write(&mut prefs, *tr, Some(&mut notices));
    }
}

/// The last changes are written as the game closes.
fn write_on_exit(mut exits: MessageReader<AppExit>, mut prefs: ResMut<Preferences>, tr: Res<Tr>) {
    if exits.read().count() > 0 && prefs.settings != prefs.written {
        write(&mut prefs, *tr, None);
    }
}

fn write(prefs: &mut Preferences, tr: Tr, notices: Option<&mut MessageWriter<Notice>>) {
    prefs.changed_at = None;
    if prefs.settings == prefs.written {
        return;
    }
    let Some(dir) = &prefs.dir else {
        prefs.written = prefs.settings.clone();
        return;
    };
    match dir.save(&prefs.settings) {
        Ok(()) => prefs.written = prefs.settings.clone(),
        Err(e) => {
            warn!(
                "settings could not be saved to {}: {e}",
                dir.file().display()
            );
            let message = tr!(
                tr,
                "settings-not-saved",
                path = dir.file().display().to_string(),
                why = e.to_string()
            );
            if !prefs.failed {
                prefs.failed = true;
                if let Some(notices) = notices {
                    notices.write(Notice::error(message));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_game_choices_round_trip_through_the_dialog() {
        let mut form = NewGameForm {
            preset: Preset::Wikipedia,
            seating: SeatingKind::Five,
            ..NewGameForm::default()
        };
        form.names[2] = "趙雲".into();
        form.controllers[1] = Some(Level::Hard);
        let kept = new_game_choices(&form);
        let mut back = NewGameForm::default();
        apply_new_game(&kept, &mut back);
        assert_eq!(back.preset, Preset::Wikipedia);
        assert_eq!(back.seating, SeatingKind::Five);
        assert_eq!(back.names, form.names);
        assert_eq!(back.controllers, form.controllers);
    }

    #[test]
    fn unknown_choices_keep_the_dialogs_own() {
        let choices = NewGameChoices {
            rules: "chess".into(),
            seating: "nine".into(),
            names: vec!["".into(), "Bo".into()],
            players: vec!["grandmaster".into(), "easy".into()],
        };
        let mut form = NewGameForm::default();
        apply_new_game(&choices, &mut form);
        let fresh = NewGameForm::default();
        assert_eq!(form.preset, fresh.preset);
        assert_eq!(form.seating, fresh.seating);
        assert_eq!(form.names[0], fresh.names[0]);
        assert_eq!(form.names[1], "Bo");
        assert_eq!(form.controllers[0], None);
        assert_eq!(form.controllers[1], Some(Level::Easy));
    }
}
