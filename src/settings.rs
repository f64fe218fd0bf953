//! The player's settings, kept between sessions in the platform's config directory.
//!
//! One JSON file, `settings.json`, written atomically (as saved games are) and versioned. A
//! file that is missing gives the defaults; one that cannot be read, is not valid, or was
//! written by a newer version of the game gives the defaults and a message, and is kept aside
//! under another name (`settings.bad-….json`) so that nothing the player chose is lost, but it is
//! never read again. Values out of range are brought into range one by one rather than
//! throwing the whole file away.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use crate::i18n::Language;
use crate::storage::{self, SystemTime, write_atomically};

#[cfg(not(target_arch = "wasm32"))]
pub use crate::storage::CONFIG_DIR_VAR;

/// The settings file's name in the config directory.
pub const SETTINGS_FILE: &str = "settings.json";

/// The version of the settings this game writes; it reads this one and older ones.
pub const SETTINGS_VERSION: u32 = 1;

/// The interface's scale bounds (the player's factor on top of the window's).
pub const UI_SCALE_RANGE: (f32, f32) = (0.6, 2.2);

/// The smallest window kept, in logical pixels.
pub const MIN_WINDOW: (u32, u32) = (640, 480);

/// The largest window kept, in logical pixels (larger values are taken as a corrupt file).
pub const MAX_WINDOW: (u32, u32) = (16_384, 16_384);

/// Longest player name kept, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// The colours of the kingdoms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaletteChoice {
    /// The traditional colours.
    #[default]
    Standard,
    /// Colours kept apart for red-green colour blindness, besides the rim emblems.
    ColourBlind,
}

/// How quickly the computers' moves follow one another on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaceChoice {
    /// A pause before each computer's move and full glides, to follow every move as it is made.
    Calm,
    /// A short pause and quicker glides.
    #[default]
    Brisk,
    /// The computers' moves are shown as fast as they are found (the arrows of the moves since
    /// a person's last turn, and Replay, show what happened).
    Instant,
}

impl PaceChoice {
    /// Every pace, calmest first.
    pub const ALL: [PaceChoice; 3] = [PaceChoice::Calm, PaceChoice::Brisk, PaceChoice::Instant];
}

/// Whether the side panels are open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Panels {
    /// The Kingdoms panel is open (not collapsed).
    pub kingdoms: bool,
    /// The Moves panel is open (not collapsed).
    pub moves: bool,
}

impl Default for Panels {
    fn default() -> Panels {
        Panels {
            kingdoms: true,
            moves: true,
        }
    }
}

/// The choices of the last new game, offered again in the New game dialog.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NewGameChoices {
    /// The rules preset's name (`classic`, `wikipedia`, …); empty for the default.
    pub rules: String,
    /// The seating's name, as the dialog keeps it; empty for the default.
    pub seating: String,
    /// Player names, by player number.
    pub names: Vec<String>,
    /// Who plays, by player number: `person` or a computer level's name.
    pub players: Vec<String>,
}

/// The window as the player left it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowPlacement {
    /// Width in logical pixels.
    pub width: u32,
    /// Height in logical pixels.
    pub height: u32,
    /// The top-left corner on the desktop, in physical pixels, if known.
    pub position: Option<[i32; 2]>,
    /// Fullscreen (F11).
    pub fullscreen: bool,
}

impl Default for WindowPlacement {
    fn default() -> WindowPlacement {
        WindowPlacement {
            width: 1280,
            height: 720,
            position: None,
            fullscreen: false,
        }
    }
}

/// Everything the game remembers about the player's choices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The version of the game's settings that wrote the file.
    pub version: u32,
    /// The camera turns to the kingdom to move after each move.
    pub camera_follows_turn: bool,
    /// A banner names the person whose turn it is when the board passes to them.
    pub hand_off_banner: bool,
    /// Sound volume, 0 to 1.
    pub volume: f32,
    /// Silent, whatever the volume.
    pub muted: bool,
    /// The interface language; `None` follows the system's locale.
    pub language: Option<Language>,
    /// The kingdoms' colours.
    pub palette: PaletteChoice,
    /// The board drawn for contrast: plain pale ground, black grid, outlined stones, and the
    /// interface's text at full strength.
    pub high_contrast: bool,
    /// The stones' characters drawn larger (filling the face inside the rim emblem).
    pub large_characters: bool,
    /// The interface's scale, on top of the one the window's size suits.
    pub ui_scale: f32,
    /// How quickly the computers' moves follow one another.
    pub pace: PaceChoice,
    /// Which panels are open.
    pub panels: Panels,
    /// The last new game's choices.
    pub new_game: NewGameChoices,
    /// The window's size, place and mode.
    pub window: WindowPlacement,
    /// The lessons finished, by id.
    pub lessons_done: Vec<String>,
    /// The puzzle solver: a rating and the puzzles tried.
    pub puzzles: crate::puzzles::Solver,
    /// A choice was made on the welcome card (a file without this field comes from a game
    /// played before the card existed: that player has been welcomed).
    #[serde(default = "already_welcomed")]
    pub welcomed: bool,
}

/// What a settings file that does not say whether its player was welcomed means: yes.
fn already_welcomed() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            version: SETTINGS_VERSION,
            camera_follows_turn: true,
            hand_off_banner: true,
            volume: 0.7,
            muted: false,
            language: None,
            palette: PaletteChoice::Standard,
            high_contrast: false,
            large_characters: false,
            ui_scale: 1.0,
            pace: PaceChoice::default(),
            panels: Panels::default(),
            new_game: NewGameChoices::default(),
            window: WindowPlacement::default(),
            lessons_done: Vec::new(),
            puzzles: crate::puzzles::Solver::default(),
            welcomed: false,
        }
    }
}

impl Settings {
    /// The settings with every value brought into its range: a volume between 0 and 1, a
    /// scale within [`UI_SCALE_RANGE`], a window within [`MIN_WINDOW`] and [`MAX_WINDOW`], at
    /// most seven names of at most [`MAX_NAME_CHARS`] characters.
    pub fn sanitized(mut self) -> Settings {
        self.version = SETTINGS_VERSION;
        self.volume = if self.volume.is_finite() {
            self.volume.clamp(0.0, 1.0)
        } else {
            Settings::default().volume
        };
        self.ui_scale = if self.ui_scale.is_finite() {
            self.ui_scale.clamp(UI_SCALE_RANGE.0, UI_SCALE_RANGE.1)
        } else {
            1.0
        };
        let w = &mut self.window;
        w.width = w.width.clamp(MIN_WINDOW.0, MAX_WINDOW.0);
        w.height = w.height.clamp(MIN_WINDOW.1, MAX_WINDOW.1);
        let ng = &mut self.new_game;
        ng.names.truncate(7);
        for name in &mut ng.names {
            *name = name
                .chars()
                .filter(|c| !c.is_control())
                .take(MAX_NAME_CHARS)
                .collect();
        }
        ng.players.truncate(7);
        self.lessons_done.sort();
        self.lessons_done.dedup();
        self.lessons_done.truncate(100);
        self.puzzles = self.puzzles.sanitized();
        self
    }
}

/// Why the settings file could not be used.
#[derive(Debug)]
pub enum SettingsProblem {
    /// The file could not be read.
    Unreadable(io::Error),
    /// The file is not valid settings.
    Corrupt(serde_json::Error),
    /// The file was written by a newer game.
    Newer(u32),
}

crate::i18n::display_in_english!(SettingsProblem);

/// Settings as loaded, and what went wrong if they are the defaults because of a bad file.
#[derive(Debug)]
pub struct Loaded {
    /// The settings to use.
    pub settings: Settings,
    /// Why the file was not used, and where it was put aside (if moving it worked).
    pub problem: Option<(SettingsProblem, Option<PathBuf>)>,
}

impl SettingsProblem {
    /// The problem in the interface's language (the system's own message stays as it came).
    pub fn text(&self, tr: crate::i18n::Tr) -> String {
        use crate::tr;
        match self {
            SettingsProblem::Unreadable(e) => tr!(tr, "settings-unreadable", why = e.to_string()),
            SettingsProblem::Corrupt(e) => tr!(tr, "settings-damaged", why = e.to_string()),
            SettingsProblem::Newer(v) => tr!(
                tr,
                "settings-newer",
                version = *v,
                supported = SETTINGS_VERSION
            ),
        }
    }
}

impl Loaded {
    /// The message for a toast, in the interface's language, if the file was not used.
    pub fn message_in(&self, tr: crate::i18n::Tr) -> Option<String> {
        use crate::tr;
        self.problem.as_ref().map(|(problem, kept)| match kept {
            Some(path) => tr!(
                tr,
                "settings-reset-kept",
                problem = problem.text(tr),
                path = path.display().to_string()
            ),
            None => tr!(tr, "settings-reset", problem = problem.text(tr)),
        })
    }

    /// One line for the log, if the file was not used.
    pub fn message(&self) -> Option<String> {
        self.problem.as_ref().map(|(problem, kept)| match kept {
            Some(path) => format!(
                "Settings reset to the defaults: {problem}. The old file was kept as {}.",
                path.display()
            ),
            None => format!("Settings reset to the defaults: {problem}."),
        })
    }
}

/// The directory that holds the settings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigDir {
    root: PathBuf,
}

impl ConfigDir {
    /// The config directory: `$QIGUO_CONFIG_DIR` if set, else the platform's (on Linux
    /// `$XDG_CONFIG_HOME/qiguo`, usually `~/.config/qiguo`); `None` without a home directory.
    pub fn locate() -> Option<ConfigDir> {
        storage::config_dir().map(ConfigDir::at)
    }

    /// A config directory at `root`.
    pub fn at(root: impl Into<PathBuf>) -> ConfigDir {
        ConfigDir { root: root.into() }
    }

    /// The settings file.
    pub fn file(&self) -> PathBuf {
        self.root.join(SETTINGS_FILE)
    }

    /// Reads the settings: the defaults if there is no file yet; the defaults and a problem
    /// (the file moved aside) if it cannot be used. Never fails.
    pub fn load(&self) -> Loaded {
        let path = self.file();
        let problem = match storage::read(&path) {
            Ok(bytes) => match parse(&bytes) {
                Ok(settings) => {
                    return Loaded {
                        settings,
                        problem: None,
                    };
                }
                Err(problem) => problem,
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Loaded {
                    settings: Settings::default(),
                    problem: None,
                };
            }
            Err(e) => SettingsProblem::Unreadable(e),
        };
        let kept = self.put_aside(&path);
        Loaded {
            settings: Settings::default(),
            problem: Some((problem, kept)),
        }
    }

    /// Writes the settings atomically: a crash leaves the old file or the new, never a mix.
    pub fn save(&self, settings: &Settings) -> io::Result<()> {
        let mut json = serde_json::to_vec_pretty(settings).map_err(io::Error::other)?;
        json.push(b'\n');
        write_atomically(&self.file(), &json)
    }

    /// Moves a bad settings file out of the way under a name with the time, so it is kept for
    /// the player but not read again.
    fn put_aside(&self, path: &Path) -> Option<PathBuf> {
        let secs = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut aside = self.root.join(format!("settings.bad-{secs}.json"));
        let mut n = 1;
        while storage::exists(&aside) {
            aside = self.root.join(format!("settings.bad-{secs}-{n}.json"));
            n += 1;
        }
        storage::rename(path, &aside).ok().map(|()| aside)
    }
}

/// Settings from the file's bytes: refused if not valid or from a newer version; missing
/// fields take their defaults and values out of range are brought into range.
pub fn parse(bytes: &[u8]) -> Result<Settings, SettingsProblem> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(SettingsProblem::Corrupt)?;
    let version = value
        .get("version")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    if version > SETTINGS_VERSION as u64 {
        return Err(SettingsProblem::Newer(version.min(u32::MAX as u64) as u32));
    }
    let settings: Settings = serde_json::from_value(value).map_err(SettingsProblem::Corrupt)?;
    Ok(settings.sanitized())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn temp_dir(name: &str) -> ConfigDir {
        ConfigDir::at(qiguo_testkit::TempDir::new(&format!("settings-{name}")).keep())
    }

    fn changed() -> Settings {
        Settings {
            camera_follows_turn: false,
            hand_off_banner: false,
            volume: 0.25,
            muted: true,
            language: Some(Language::Chinese),
            palette: PaletteChoice::ColourBlind,
            ui_scale: 1.3,
            pace: PaceChoice::Instant,
            panels: Panels {
                kingdoms: false,
                moves: true,
            },
            new_game: NewGameChoices {
                rules: "wikipedia".into(),
                seating: "five".into(),
                names: vec!["趙雲".into(), "Åsa".into()],
                players: vec!["person".into(), "hard".into()],
            },
            window: WindowPlacement {
                width: 1600,
                height: 900,
                position: Some([-1200, 40]),
                fullscreen: true,
            },
            lessons_done: vec!["cannon".into(), "knight".into()],
            welcomed: true,
            ..Settings::default()
        }
    }

    #[test]
    fn settings_round_trip() {
        let dir = temp_dir("round-trip");
        let loaded = dir.load();
        assert_eq!(
            loaded.settings,
            Settings::default(),
            "no file yet: defaults"
        );
        assert!(loaded.message().is_none(), "a first run is not a problem");
        assert!(!loaded.settings.welcomed, "a first run is welcomed");
        dir.save(&changed()).unwrap();
        let loaded = dir.load();
        assert!(loaded.problem.is_none());
        assert_eq!(loaded.settings, changed());
        // Saving again replaces the file.
        let mut again = changed();
        again.volume = 1.0;
        dir.save(&again).unwrap();
        assert_eq!(dir.load().settings, again);
        let _ = fs::remove_dir_all(&dir.root);
    }

    #[test]
    fn corrupt_settings_give_defaults_and_are_kept_aside() {
        let dir = temp_dir("corrupt");
        for bad in [
            &b"{ \"volume\": 0.5, "[..],
            b"\xff\xfe not json",
            b"[1, 2, 3]",
            b"{\"volume\": \"loud\"}",
        ] {
            fs::create_dir_all(&dir.root).unwrap();
            fs::write(dir.file(), bad).unwrap();
            let loaded = dir.load();
            assert_eq!(loaded.settings, Settings::default());
            let message = loaded.message().expect("a message");
            assert!(message.contains("damaged"), "{message}");
            let (_, kept) = loaded.problem.as_ref().unwrap();
            let kept = kept.as_ref().expect("the file kept aside");
            assert_eq!(fs::read(kept).unwrap(), bad, "kept as it was");
            assert!(!dir.file().exists(), "not read again");
            // The next start is quiet.
            assert!(dir.load().problem.is_none());
        }
        let _ = fs::remove_dir_all(&dir.root);
    }

    #[test]
    fn newer_settings_are_not_used() {
        let dir = temp_dir("newer");
        fs::create_dir_all(&dir.root).unwrap();
        let newer = format!(
            "{{\"version\": {}, \"volume\": 0.1, \"hologram\": true}}",
            SETTINGS_VERSION + 1
        );
        fs::write(dir.file(), &newer).unwrap();
        let loaded = dir.load();
        assert_eq!(loaded.settings, Settings::default());
        assert!(loaded.message().unwrap().contains("newer version"));
        let kept = loaded.problem.unwrap().1.unwrap();
        assert_eq!(fs::read_to_string(kept).unwrap(), newer);
        let _ = fs::remove_dir_all(&dir.root);
    }

    #[test]
    fn missing_fields_take_defaults_and_values_are_brought_into_range() {
        let s = parse(b"{\"version\": 1, \"muted\": true}").unwrap();
        assert!(s.muted);
        assert!(
            s.welcomed,
            "a file from before the welcome card: no welcome"
        );
        assert!(s.lessons_done.is_empty());
        assert_eq!(s.volume, Settings::default().volume);
        let s = parse(
            br#"{"volume": 7.5, "ui_scale": 0.01, "window": {"width": 10, "height": 99999},
                 "new_game": {"names": ["a","b","c","d","e","f","g","h"]}, "extra": 1}"#,
        )
        .unwrap();
        assert_eq!(s.volume, 1.0);
        assert_eq!(s.ui_scale, UI_SCALE_RANGE.0);
        assert_eq!(
            (s.window.width, s.window.height),
            (MIN_WINDOW.0, MAX_WINDOW.1)
        );
        assert_eq!(s.new_game.names.len(), 7);
        assert_eq!(s.version, SETTINGS_VERSION);
    }

    #[test]
    fn languages_follow_the_locale() {
        assert_eq!(
            Language::from_locale("sv_SE.UTF-8"),
            Some(Language::Swedish)
        );
        assert_eq!(Language::from_locale("zh-Hant-TW"), Some(Language::Chinese));
        assert_eq!(Language::from_locale("zh_CN"), Some(Language::Chinese));
        assert_eq!(Language::from_locale("en-GB"), Some(Language::English));
        assert_eq!(Language::from_locale("de_DE"), None);
        assert_eq!(Language::from_locale(""), None);
    }
}
