//! Saved games on disk: named saves and the autosave, as the rules engine's JSON records, in
//! the user's data directory.
//!
//! Every file is written atomically — to a temporary file in the same directory, flushed to
//! the disk, then renamed over the old one — so a crash or a power cut leaves either the old
//! file or the new one, never a torn one. Loading replays the record, so a corrupt,
//! truncated, future-version or hand-edited file is refused with a message and nothing else
//! changes.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use jiff::tz::TimeZone;

use qiguo_rules::{Game, PlayerInfo, Record};

pub use crate::storage::DATA_DIR_VAR;
#[cfg(not(target_arch = "wasm32"))]
pub use crate::storage::Staged;
pub use crate::storage::write_atomically;
use crate::storage::{self, SystemTime, TEMP_PREFIX};

/// The autosave's file name in the data directory.
const AUTOSAVE: &str = "autosave.json";

/// Longest save name, in characters.
pub const MAX_NAME_CHARS: usize = 60;

/// Why a save could not be named, written, read, listed or deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// There is no home directory to keep saves in.
    NoHome,
    /// Saving was turned off for this session (screenshots, benchmarks, tests).
    Off,
    /// The name is empty.
    EmptyName,
    /// The name is longer than [`MAX_NAME_CHARS`].
    NameTooLong,
    /// The name starts with a dot (a hidden file).
    LeadingDot,
    /// The name holds a character some file systems refuse (shown escaped).
    BadCharacter(String),
    /// The file system refused.
    Io {
        /// What was being done.
        action: FileAction,
        /// The file or folder.
        path: PathBuf,
        /// The system's message.
        why: String,
    },
    /// The file was read but holds no game this version can play (bad JSON, another
    /// program's file, a future format, a move that is not legal).
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why its contents were refused.
        why: String,
    },
}

crate::i18n::display_in_english!(SaveError);

/// What was being done with a file when the file system refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    /// Saving a game under a name.
    Save,
    /// Writing the autosave.
    Autosave,
    /// Deleting a save.
    Delete,
    /// Reading a save or listing the saves.
    Read,
}

impl SaveError {
    /// The error in the interface's language (the system's own message stays as it came).
    pub fn text(&self, tr: crate::i18n::Tr) -> String {
        use crate::tr;
        match self {
            SaveError::NoHome => tr!(tr, "save-error-no-home", variable = DATA_DIR_VAR),
            SaveError::Off => tr.text("save-error-off"),
            SaveError::EmptyName => tr.text("save-error-empty-name"),
            SaveError::NameTooLong => tr!(tr, "save-error-name-too-long", count = MAX_NAME_CHARS),
            SaveError::LeadingDot => tr.text("save-error-leading-dot"),
            SaveError::BadCharacter(c) => {
                tr!(tr, "save-error-bad-character", character = c.as_str())
            }
            SaveError::Io { action, path, why } => {
                let id = match action {
                    FileAction::Save => "save-error-io-save",
                    FileAction::Autosave => "save-error-io-autosave",
                    FileAction::Delete => "save-error-io-delete",
                    FileAction::Read => "save-error-io-read",
                };
                tr!(
                    tr,
                    id,
                    path = path.display().to_string(),
                    why = why.as_str()
                )
            }
            SaveError::Unreadable { path, why } => tr!(
                tr,
                "save-error-unreadable",
                path = path.display().to_string(),
                why = why.as_str()
            ),
        }
    }

    fn io(action: FileAction, path: &Path, e: io::Error) -> SaveError {
        SaveError::Io {
            action,
            path: path.to_owned(),
            why: e.to_string(),
        }
    }
}

/// A game read back from a file: the record as stored and the game it replays to.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The record as read.
    pub record: Record,
    /// The game, every move replayed and checked.
    pub game: Game,
}

impl Loaded {
    /// The players of the record.
    pub fn players(&self) -> Vec<PlayerInfo> {
        self.record.players.clone()
    }
}

/// What the load dialog shows of one save.
#[derive(Clone, Debug)]
pub struct SaveEntry {
    /// The save's name (its file name without `.json`).
    pub name: String,
    /// When it was last written.
    pub modified: Option<SystemTime>,
    /// The game's summary, or why the file cannot be loaded.
    pub summary: Result<SaveSummary, SaveError>,
}

/// A saved game in brief.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveSummary {
    /// The preset's name, or `custom`.
    pub preset: String,
    /// Moves played.
    pub moves: usize,
    /// Kingdoms still in play.
    pub in_play: usize,
    /// Whether the game has ended.
    pub over: bool,
}

impl SaveSummary {
    /// The summary of a game.
    pub fn of(game: &Game) -> SaveSummary {
        let start = game.start_position();
        SaveSummary {
            preset: start.rules().preset_name().to_owned(),
            moves: game.len(),
            in_play: game.position().alive().len(),
            over: game.outcome().is_some(),
        }
    }
}

/// The directory that holds the autosave and the `saves/` folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveDir {
    root: PathBuf,
}

impl SaveDir {
    /// The data directory ([`storage::data_dir`]): on the desktop `$QIGUO_DATA_DIR` if set,
    /// else the platform's (on Linux `$XDG_DATA_HOME/qiguo`, usually `~/.local/share/qiguo`);
    /// in a page, the browser's storage.
    pub fn locate() -> Result<SaveDir, SaveError> {
        storage::data_dir()
            .map(SaveDir::at)
            .ok_or(SaveError::NoHome)
    }

    /// A data directory at `root`.
    pub fn at(root: impl Into<PathBuf>) -> SaveDir {
        SaveDir { root: root.into() }
    }

    /// The directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder of named saves.
    pub fn saves(&self) -> PathBuf {
        self.root.join("saves")
    }

    /// The autosave file.
    pub fn autosave_path(&self) -> PathBuf {
        self.root.join(AUTOSAVE)
    }

    /// The file of the save called `name` (checked as [`check_name`] does).
    pub fn save_path(&self, name: &str) -> Result<PathBuf, SaveError> {
        let name = check_name(name)?;
        Ok(self.saves().join(format!("{name}.json")))
    }

    /// Saves `record` under `name`, replacing a save of that name.
    pub fn save(&self, name: &str, record: &Record) -> Result<PathBuf, SaveError> {
        let path = self.save_path(name)?;
        write_atomically(&path, record.to_json().as_bytes())
            .map_err(|e| SaveError::io(FileAction::Save, &path, e))?;
        Ok(path)
    }

    /// Loads the save called `name`.
    pub fn load(&self, name: &str) -> Result<Loaded, SaveError> {
        load_file(&self.save_path(name)?)
    }

    /// Deletes the save called `name`.
    pub fn delete(&self, name: &str) -> Result<(), SaveError> {
        let path = self.save_path(name)?;
        storage::remove(&path).map_err(|e| SaveError::io(FileAction::Delete, &path, e))
    }

    /// The named saves, newest first. Files that cannot be loaded are listed with the reason.
    pub fn list(&self) -> Result<Vec<SaveEntry>, SaveError> {
        let dir = self.saves();
        let entries = storage::list(&dir).map_err(|e| SaveError::io(FileAction::Read, &dir, e))?;
        let mut saves: Vec<SaveEntry> = entries
            .into_iter()
            .filter_map(|(path, modified)| {
                let name = path.file_stem()?.to_str()?.to_owned();
                let is_save = path.extension() == Some(OsStr::new("json"))
                    && !name.starts_with(TEMP_PREFIX)
                    && check_name(&name).is_ok();
                is_save.then(|| SaveEntry {
                    modified,
                    summary: load_file(&path).map(|l| SaveSummary::of(&l.game)),
                    name,
                })
            })
            .collect();
        saves.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
        Ok(saves)
    }

    /// Writes the autosave.
    pub fn autosave(&self, record: &Record) -> Result<(), SaveError> {
        let path = self.autosave_path();
        write_atomically(&path, record.to_json().as_bytes())
            .map_err(|e| SaveError::io(FileAction::Autosave, &path, e))
    }

    /// The autosave, if there is one: the game, or why it cannot be loaded.
    pub fn load_autosave(&self) -> Option<Result<Loaded, SaveError>> {
        let path = self.autosave_path();
        storage::exists(&path).then(|| load_file(&path))
    }
}

/// Checks a save name: not empty, at most [`MAX_NAME_CHARS`] characters, no path separators
/// or characters that some file systems refuse, not starting with a dot. Returns it trimmed.
pub fn check_name(name: &str) -> Result<&str, SaveError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(SaveError::EmptyName);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(SaveError::NameTooLong);
    }
    if name.starts_with('.') {
        return Err(SaveError::LeadingDot);
    }
    if let Some(c) = name
        .chars()
        .find(|c| c.is_control() || r#"/\:*?"<>|"#.contains(*c))
    {
        return Err(SaveError::BadCharacter(c.escape_default().to_string()));
    }
    Ok(name)
}

/// Reads and replays the record in `path`.
pub fn load_file(path: &Path) -> Result<Loaded, SaveError> {
    let text = storage::read(path)
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
        })
        .map_err(|e| SaveError::io(FileAction::Read, path, e))?;
    let unreadable = |why: String| SaveError::Unreadable {
        path: path.to_owned(),
        why,
    };
    let record = Record::from_json(&text).map_err(|e| unreadable(e.to_string()))?;
    let game = record.replay().map_err(|e| unreadable(e.to_string()))?;
    Ok(Loaded { record, game })
}

/// A time as `YYYY-MM-DD HH:MM` in the player's time zone (the system's; UTC if it has none).
pub fn format_time(time: SystemTime) -> String {
    format_time_in(time, &TimeZone::system())
}

/// A time as `YYYY-MM-DD HH:MM` in time zone `zone`.
pub fn format_time_in(time: SystemTime, zone: &TimeZone) -> String {
    // Times beyond jiff's range (years -9999 to 9999) cannot come from a file system.
    Timestamp::from_millisecond(storage::millis(time))
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .to_zoned(zone.clone())
        .strftime("%Y-%m-%d %H:%M")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("  Friday night  "), Ok("Friday night"));
        assert_eq!(check_name("七國 1206"), Ok("七國 1206"));
        for bad in ["", "   ", ".hidden", "a/b", "a\\b", "what?", "tab\there"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_name(&"x".repeat(MAX_NAME_CHARS + 1)).is_err());
    }

    #[test]
    fn times_are_written_as_dates() {
        let utc = TimeZone::UTC;
        assert_eq!(
            format_time_in(SystemTime::UNIX_EPOCH, &utc),
            "1970-01-01 00:00"
        );
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_338_000);
        assert_eq!(format_time_in(t, &utc), "2026-11-22 09:00");
        let leap = SystemTime::UNIX_EPOCH + Duration::from_secs(951_825_600);
        assert_eq!(format_time_in(leap, &utc), "2000-02-29 12:00");
    }

    /// Save times are shown in the player's zone, daylight saving time included: fixed and
    /// rule-based zones need no zone database, so the test runs anywhere.
    #[test]
    fn times_are_written_in_the_zone_given() {
        // The zone's rules are jiff's business; ours is to write the local date and time.
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_338_000); // 09:00 UTC
        let taipei = TimeZone::fixed(jiff::tz::offset(8));
        assert_eq!(format_time_in(t, &taipei), "2026-11-22 17:00");
        let new_york = TimeZone::fixed(jiff::tz::offset(-5));
        assert_eq!(format_time_in(t, &new_york), "2026-11-22 04:00");
        // Near midnight the date follows the zone too.
        let late = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_388_400); // 23:00 UTC
        assert_eq!(format_time_in(late, &taipei), "2026-11-23 07:00");
    }
}
