//! The player's keys, one per server, kept in a file of the data directory (`online-keys.json`):
//! a server knows a player by the id and secret key it gave them on their first visit, so the
//! file is what makes a player the same player next time. Written whole to a new file and
//! renamed over the old one, readable by its owner only.

use std::path::{Path, PathBuf};

use crate::client::{Client, ClientError, Trust, Welcome, connect_in};
pub use crate::protocol::keys::{KEYS_FILE, Key, KeyRing};

/// Why the keys could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum KeysError {
    /// The file could not be read or written.
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// The file is not a key ring (it is left as it is).
    #[error("{0} is damaged ({1}); move it away to sign in as a new player")]
    Damaged(PathBuf, serde_json::Error),
}

/// The key ring's file in a directory.
pub trait KeyFile: Sized {
    /// The keys in `dir` (none if there is no file yet).
    fn load(dir: &Path) -> Result<Self, KeysError>;
    /// Writes the keys to `dir`, replacing the file at once, readable by its owner only.
    fn save(&self, dir: &Path) -> Result<(), KeysError>;
}

impl KeyFile for KeyRing {
    fn load(dir: &Path) -> Result<KeyRing, KeysError> {
        let path = dir.join(KEYS_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => KeyRing::from_json(&text).map_err(|e| KeysError::Damaged(path, e)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(KeyRing::default()),
            Err(e) => Err(KeysError::Io(path, e)),
        }
    }

    fn save(&self, dir: &Path) -> Result<(), KeysError> {
        let path = dir.join(KEYS_FILE);
        let io = |e| KeysError::Io(path.clone(), e);
        std::fs::create_dir_all(dir).map_err(io)?;
        let text = self.to_json();
        let tmp = dir.join(format!("{KEYS_FILE}.new"));
        {
            use std::io::Write;
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create(true).truncate(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(0o600);
            }
            let mut file = options.open(&tmp).map_err(io)?;
            file.write_all(text.as_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        std::fs::rename(&tmp, &path).map_err(io)
    }
}

/// Why a player could not be signed in with the key kept for the server.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    /// The server could not be reached, or refused.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The key ring could not be read, or the new key not kept.
    #[error(transparent)]
    Keys(#[from] KeysError),
}

/// Connects to the server at `url` as the player whose key for it is kept in `dir` (or as a
/// new player called `name`, whose key is then kept there), who reads `language` (`en`, `sv`,
/// `zh`; `None` leaves the server's note as it is).
pub async fn sign_in(
    url: &str,
    name: &str,
    language: Option<&str>,
    trust: &Trust,
    dir: &Path,
) -> Result<(Client, Welcome), SignInError> {
    let mut ring = KeyRing::load(dir)?;
    let identity = ring.identity(url, name);
    let (client, welcome) = connect_in(url, identity, language, trust).await?;
    if let Some(key) = &welcome.key {
        ring.servers.insert(
            url.to_owned(),
            Key {
                player: welcome.player.clone(),
                key: key.clone(),
                name: welcome.name.clone(),
            },
        );
        ring.save(dir)?;
    }
    Ok((client, welcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Identity, PlayerId};

    #[test]
    fn keys_are_kept_per_server() {
        let dir = std::env::temp_dir().join(format!("qiguo-keys-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut ring = KeyRing::load(&dir).unwrap();
        assert!(matches!(ring.identity("ws://a", "Ann"), Identity::New { name } if name == "Ann"));
        ring.servers.insert(
            "ws://a".into(),
            Key {
                player: PlayerId("p".into()),
                key: "k".into(),
                name: "Ann".into(),
            },
        );
        ring.save(&dir).unwrap();
        let again = KeyRing::load(&dir).unwrap();
        assert_eq!(again, ring);
        assert!(
            matches!(again.identity("ws://a", "x"), Identity::Player { key, .. } if key == "k")
        );
        assert!(matches!(
            again.identity("ws://b", "x"),
            Identity::New { .. }
        ));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(KEYS_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(dir.join(KEYS_FILE), "{").unwrap();
        assert!(matches!(KeyRing::load(&dir), Err(KeysError::Damaged(..))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
