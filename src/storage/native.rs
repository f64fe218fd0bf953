//! The desktop's storage: files, in the platform's data and config directories (or the ones
//! named by `QIGUO_DATA_DIR` and `QIGUO_CONFIG_DIR`).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{DATA_DIR_VAR, SystemTime};

/// The environment variable that moves the config directory (for tests, or portable installs).
pub const CONFIG_DIR_VAR: &str = "QIGUO_CONFIG_DIR";

/// Temporary files being written start with this, and are never listed.
pub const TEMP_PREFIX: &str = ".tmp-";

/// The data directory: `$QIGUO_DATA_DIR` if set, else the platform's (on Linux
/// `$XDG_DATA_HOME/qiguo`, usually `~/.local/share/qiguo`); `None` without a home directory.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(DATA_DIR_VAR).filter(|d| !d.is_empty()) {
        return Some(dir.into());
    }
    directories::ProjectDirs::from("", "", "qiguo").map(|dirs| dirs.data_dir().to_owned())
}

/// The config directory: `$QIGUO_CONFIG_DIR` if set, else the platform's (on Linux
/// `$XDG_CONFIG_HOME/qiguo`, usually `~/.config/qiguo`); `None` without a home directory.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CONFIG_DIR_VAR).filter(|d| !d.is_empty()) {
        return Some(dir.into());
    }
    directories::ProjectDirs::from("", "", "qiguo").map(|dirs| dirs.config_dir().to_owned())
}

/// The bytes at `path`.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    fs::read(path)
}

/// Whether something is kept at `path`.
pub fn exists(path: &Path) -> bool {
    path.exists()
}

/// When `path` was last written.
pub fn modified(path: &Path) -> io::Result<SystemTime> {
    fs::metadata(path)?.modified()
}

/// Removes what is kept at `path`.
pub fn remove(path: &Path) -> io::Result<()> {
    fs::remove_file(path)
}

/// Moves what is kept at `from` to `to` (replacing what was there).
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    fs::rename(from, to)
}

/// The files directly in `dir` (none if it does not exist), with their last change where
/// known; files being written are left out.
pub fn list(dir: &Path) -> io::Result<Vec<(PathBuf, Option<SystemTime>)>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    Ok(entries
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX))
        .map(|entry| {
            let modified = entry.metadata().and_then(|m| m.modified()).ok();
            (entry.path(), modified)
        })
        .collect())
}

/// A file written and flushed under a temporary name, not yet in place.
#[derive(Debug)]
pub struct Staged {
    temp: PathBuf,
    target: PathBuf,
}

impl Staged {
    /// Writes `bytes` to a temporary file beside `target` and flushes it to the disk.
    pub fn write(target: &Path, bytes: &[u8]) -> io::Result<Staged> {
        let dir = parent(target);
        fs::create_dir_all(dir)?;
        let file_name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
        let temp = dir.join(format!(
            "{TEMP_PREFIX}{}-{}",
            std::process::id(),
            file_name.to_string_lossy()
        ));
        let mut file = File::create(&temp)?;
        let written = file.write_all(bytes).and_then(|()| file.sync_all());
        if let Err(e) = written {
            let _ = fs::remove_file(&temp);
            return Err(e);
        }
        Ok(Staged {
            temp,
            target: target.to_owned(),
        })
    }

    /// Renames the temporary file over the target, then flushes the directory so the rename
    /// itself survives a power cut.
    pub fn commit(self) -> io::Result<()> {
        fs::rename(&self.temp, &self.target)?;
        #[cfg(unix)]
        File::open(parent(&self.target))?.sync_all()?;
        Ok(())
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Replaces the file at `path` with `bytes` atomically — to a temporary file in the same
/// directory, flushed to the disk, then renamed over the old one — so a crash or a power cut
/// leaves either the old file or the new one, never a torn one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    Staged::write(path, bytes)?.commit()
}
