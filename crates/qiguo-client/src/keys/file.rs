//! The key ring as a file of the desktop's data directory.

use std::io::{self, Write};
use std::path::Path;

/// The file's text (`None`: no file yet).
pub(super) fn read(path: &Path) -> io::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Replaces the file at once: written whole and synced to a new file readable by its owner
/// only, then renamed over the old one.
pub(super) fn write(dir: &Path, path: &Path, text: &str) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut new_name = path.as_os_str().to_owned();
    new_name.push(".new");
    let new = Path::new(&new_name);
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(new)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
    }
    std::fs::rename(new, path)
}

/// Moves the file aside.
pub(super) fn rename(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::rename(from, to)
}
