//! The player's settings kept between sessions: read before the window opens, written once
//! the changes settle (and when the game closes). Each feature keeps its own part: its
//! resource is a [`KeptSetting`], applied from the settings at start and gathered back into
//! them as it changes ([`KeepSetting::keep_setting`] in the feature's plugin). This module
//! knows none of them; the window's place and the panels' memory gather themselves the same way
//! ([`crate::game::app::window`], [`crate::game::ui`]).

use bevy::prelude::*;

use crate::game::frames::Redraw;
use crate::game::schedule::AppSystems;
use crate::game::state::Notice;
use crate::i18n::{Language, Tr, system_language};
use crate::settings::{ConfigDir, Settings};
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

    /// Takes `gathered` as the settings now (brought into range); a change starts the clock
    /// before writing, at `now` seconds of app time.
    pub(crate) fn gathered(&mut self, gathered: Settings, now: f32) {
        let gathered = gathered.sanitized();
        if gathered != self.settings {
            self.settings = gathered;
            self.changed_at.get_or_insert(now);
        }
    }
}

/// A feature's resource kept in the settings: put back from them at start, gathered into them
/// whenever it changes.
pub(crate) trait KeptSetting: Resource<Mutability = bevy::ecs::component::Mutable> {
    /// Takes the kept values (`prefs.settings`, and what the start decided) at start.
    fn apply(&mut self, prefs: &Preferences);
    /// Writes its values into `settings`.
    fn gather(&self, settings: &mut Settings);
}

/// Where the kept settings are applied and gathered, so that writing comes after them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SettingsSystems {
    /// The features' resources gathered into the settings (each frame they changed).
    Gather,
}

/// Registers a feature's [`KeptSetting`]; without [`Preferences`] (the headless tests) its
/// systems do nothing.
pub(crate) trait KeepSetting {
    /// Keeps `T` in the settings.
    fn keep_setting<T: KeptSetting>(&mut self) -> &mut Self;
}

impl KeepSetting for App {
    fn keep_setting<T: KeptSetting>(&mut self) -> &mut Self {
        self.add_systems(
            PostStartup,
            apply_kept::<T>.run_if(resource_exists::<Preferences>.and_then(resource_exists::<T>)),
        )
        .add_systems(
            Update,
            gather_kept::<T>
                .run_if(resource_exists::<Preferences>.and_then(resource_exists::<T>))
                .in_set(SettingsSystems::Gather),
        )
    }
}

fn apply_kept<T: KeptSetting>(prefs: Res<Preferences>, mut kept: ResMut<T>) {
    kept.apply(&prefs);
}

fn gather_kept<T: KeptSetting>(time: Res<Time>, kept: Res<T>, mut prefs: ResMut<Preferences>) {
    if !kept.is_changed() {
        return;
    }
    let mut now = prefs.settings.clone();
    kept.gather(&mut now);
    prefs.gathered(now, time.elapsed_secs());
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Preferences>()
        .configure_sets(Update, SettingsSystems::Gather.after(AppSystems::UpdateHud))
        .add_systems(PostStartup, tell_settings)
        .add_systems(Update, write_settings.after(SettingsSystems::Gather))
        .add_systems(Last, write_on_exit);
}

/// Where the settings live, and what went wrong reading them, once at start.
fn tell_settings(mut prefs: ResMut<Preferences>, mut notices: MessageWriter<Notice>) {
    if let Some(file) = prefs.file() {
        info!("settings live in {}", file.display());
    }
    if let Some(message) = prefs.message.take() {
        warn!("{message}");
        notices.write(Notice::error(message));
    }
}

/// Writes the settings once they have not changed for a second.
fn write_settings(
    time: Res<Time>,
    mut prefs: ResMut<Preferences>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
    mut redraw: Redraw,
) {
    let Some(at) = prefs.changed_at else {
        return;
    };
    let settled = time.elapsed_secs() - at;
    if settled >= SETTLE_SECONDS {
        write(&mut prefs, *tr, Some(&mut notices));
    } else {
        redraw.within(std::time::Duration::from_secs_f32(SETTLE_SECONDS - settled));
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
    use std::time::Duration;

    use bevy::time::TimeUpdateStrategy;

    use super::*;
    use crate::game::lessons::LessonsDone;
    use crate::game::pace::Pace;
    use crate::settings::PaceChoice;

    /// An app with the preferences and two features' kept settings, nothing written to disk.
    fn app(settings: Settings) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
                100,
            )))
            .add_message::<Notice>()
            .init_resource::<Tr>()
            .configure_sets(Update, AppSystems::UpdateHud)
            .add_plugins((crate::game::frames::plugin, plugin))
            .insert_resource(Preferences {
                settings,
                ..Preferences::session_only(None)
            })
            .init_resource::<Pace>()
            .init_resource::<LessonsDone>()
            .keep_setting::<Pace>()
            .keep_setting::<LessonsDone>();
        app
    }

    #[test]
    fn features_take_their_kept_settings_and_give_back_their_changes() {
        let kept = Settings {
            pace: PaceChoice::Calm,
            lessons_done: vec!["knight".into()],
            ..Settings::default()
        };
        let mut app = app(kept.clone());
        app.update();
        assert_eq!(app.world().resource::<Pace>().0, PaceChoice::Calm);
        assert!(app.world().resource::<LessonsDone>().0.contains("knight"));
        // Nothing changed: nothing to write.
        app.update();
        assert_eq!(app.world().resource::<Preferences>().changed_at, None);
        assert_eq!(app.world().resource::<Preferences>().settings, kept);
        // A change is gathered into the settings and written once it has settled.
        app.world_mut().resource_mut::<Pace>().0 = PaceChoice::Instant;
        app.update();
        let prefs = app.world().resource::<Preferences>();
        assert_eq!(prefs.settings.pace, PaceChoice::Instant);
        assert!(prefs.changed_at.is_some());
        assert_ne!(prefs.written, prefs.settings);
        for _ in 0..15 {
            app.update();
        }
        let prefs = app.world().resource::<Preferences>();
        assert_eq!(prefs.changed_at, None);
        assert_eq!(prefs.written, prefs.settings);
        assert_eq!(prefs.written.lessons_done, vec!["knight".to_owned()]);
    }
}
