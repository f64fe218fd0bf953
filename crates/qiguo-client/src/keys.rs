//! The player's key ring, one key per server: a server knows a player by the id and secret key
//! it gave them on their first visit, so the ring is what makes a player the same player next
//! time. Kept in one place per device — a file of the data directory on the desktop, readable
//! by its owner only, written whole to a new file and renamed over the old one; an item of the
//! browser's storage in a page, replaced whole — and read, kept, merged, exported and imported
//! only here. Its JSON is the same everywhere, so a ring exported from one device can be
//! imported on another.

use std::path::{Path, PathBuf};

pub use qiguo_protocol::keys::{KEYS_FILE, Key, KeyRing};

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
use browser as place;
#[cfg(not(target_arch = "wasm32"))]
mod file;
#[cfg(not(target_arch = "wasm32"))]
use file as place;

/// Why the keys could not be read, kept or taken in.
#[derive(Debug, thiserror::Error)]
pub enum KeysError {
    /// The ring could not be read or written (a disk's error, or the browser's refusal).
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// The ring kept is not a key ring (it is left as it is).
    #[error("{0} is damaged ({1}); move it away to sign in as a new player")]
    Damaged(PathBuf, serde_json::Error),
    /// The text given to import is not a key ring.
    #[error("{0}")]
    NotKeys(serde_json::Error),
}

/// Where the player's key ring is kept: under a data directory (on the desktop a real one, in
/// a page the prefix of the browser's storage items).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyStore {
    dir: PathBuf,
}

impl KeyStore {
    /// The ring kept in `dir` (as [`KEYS_FILE`]).
    pub fn new(dir: impl Into<PathBuf>) -> KeyStore {
        KeyStore { dir: dir.into() }
    }

    /// The directory the ring is kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self) -> PathBuf {
        self.dir.join(KEYS_FILE)
    }

    /// The keys kept (none yet: an empty ring).
    pub fn load(&self) -> Result<KeyRing, KeysError> {
        let path = self.path();
        match place::read(&path) {
            Ok(Some(text)) => KeyRing::from_json(&text).map_err(|e| KeysError::Damaged(path, e)),
            Ok(None) => Ok(KeyRing::default()),
            Err(e) => Err(KeysError::Io(path, e)),
        }
    }

    /// Keeps `ring` in place of the keys kept, at once.
    pub fn save(&self, ring: &KeyRing) -> Result<(), KeysError> {
        let path = self.path();
        place::write(&self.dir, &path, &ring.to_json()).map_err(|e| KeysError::Io(path, e))
    }

    /// Whether a key for `server` is kept (then the server knows the player already).
    pub fn knows(&self, server: &str) -> bool {
        self.load()
            .is_ok_and(|ring| ring.servers.contains_key(server))
    }

    /// Keeps `key` as the player's key for `server` beside the others.
    pub fn keep(&self, server: &str, key: Key) -> Result<(), KeysError> {
        let mut ring = self.load()?;
        ring.servers.insert(server.to_owned(), key);
        self.save(&ring)
    }

    /// The ring as text to carry to another device (its JSON), and how many keys it holds.
    pub fn export(&self) -> Result<(String, usize), KeysError> {
        let ring = self.load()?;
        Ok((ring.to_json(), ring.servers.len()))
    }

    /// Takes in a ring exported elsewhere (`text`, its JSON): its key for a server replaces
    /// the one kept here. How many servers' keys were new or changed; nothing is changed when
    /// the text is not a ring ([`KeysError::NotKeys`]) or the ring here cannot be read.
    pub fn import(&self, text: &str) -> Result<usize, KeysError> {
        let imported = KeyRing::from_json(text.trim()).map_err(KeysError::NotKeys)?;
        let mut ring = self.load()?;
        let changed = ring.merge(imported);
        if changed > 0 {
            self.save(&ring)?;
        }
        Ok(changed)
    }

    /// The keys kept for signing in: a damaged ring is set aside (renamed, with `.damaged`
    /// after its name, for the player to mend or import later) and the player signs in as
    /// new, rather than never again; a ring that cannot be read at all is an error.
    pub(crate) fn load_for_sign_in(&self) -> Result<KeyRing, KeysError> {
        match self.load() {
            Err(KeysError::Damaged(path, why)) => {
                let aside = self.dir.join(format!("{KEYS_FILE}.damaged"));
                tracing::warn!(
                    keys = %path.display(),
                    aside = %aside.display(),
                    "the online keys are damaged ({why}); set aside, signing in as a new player"
                );
                place::rename(&path, &aside).map_err(|e| KeysError::Io(path, e))?;
                Ok(KeyRing::default())
            }
            other => other,
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use qiguo_protocol::{Identity, PlayerId};
    use qiguo_testkit::TempDir;

    fn key(k: &str) -> Key {
        Key {
            player: PlayerId(format!("p-{k}")),
            key: k.to_owned(),
            name: "Ann".to_owned(),
        }
    }

    #[test]
    fn keys_are_kept_per_server_readable_by_their_owner_only() {
        let dir = TempDir::new("client-keys");
        let store = KeyStore::new(dir.join("data"));
        let ring = store.load().unwrap();
        assert!(matches!(ring.identity("ws://a", "Ann"), Identity::New { name } if name == "Ann"));
        assert!(!store.knows("ws://a"));
        store.keep("ws://a", key("k")).unwrap();
        assert!(store.knows("ws://a"));
        let again = store.load().unwrap();
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
            let mode = std::fs::metadata(dir.join("data").join(KEYS_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_ring_exported_here_is_imported_there() {
        let dir = TempDir::new("client-keys-carry");
        let desktop = KeyStore::new(dir.join("desktop"));
        desktop.keep("wss://a", key("a1")).unwrap();
        desktop.keep("wss://b", key("b1")).unwrap();
        let laptop = KeyStore::new(dir.join("laptop"));
        laptop.keep("wss://b", key("b2")).unwrap();
        laptop.keep("wss://c", key("c1")).unwrap();
        let (text, count) = desktop.export().unwrap();
        assert_eq!(count, 2);
        assert_eq!(laptop.import(&text).unwrap(), 2, "a new, b changed");
        assert_eq!(
            laptop.import(&text).unwrap(),
            0,
            "nothing new the second time"
        );
        let ring = laptop.load().unwrap();
        assert_eq!(ring.servers.len(), 3);
        assert_eq!(ring.servers["wss://b"].key, "b1");
        // Not a ring: nothing changes.
        let before = std::fs::read(dir.join("laptop").join(KEYS_FILE)).unwrap();
        assert!(matches!(
            laptop.import("{\"servers\": 3}"),
            Err(KeysError::NotKeys(_))
        ));
        assert_eq!(
            std::fs::read(dir.join("laptop").join(KEYS_FILE)).unwrap(),
            before
        );
    }

    #[test]
    fn a_damaged_ring_is_reported_and_set_aside_only_to_sign_in() {
        let dir = TempDir::new("client-keys-damaged");
        let store = KeyStore::new(dir.path());
        std::fs::write(dir.join(KEYS_FILE), "{").unwrap();
        assert!(matches!(store.load(), Err(KeysError::Damaged(..))));
        assert!(matches!(store.export(), Err(KeysError::Damaged(..))));
        assert!(matches!(
            store.import("{\"servers\": {}}"),
            Err(KeysError::Damaged(..))
        ));
        assert_eq!(std::fs::read_to_string(dir.join(KEYS_FILE)).unwrap(), "{");
        assert_eq!(store.load_for_sign_in().unwrap(), KeyRing::default());
        assert!(!dir.join(KEYS_FILE).exists());
        let aside = dir.join(format!("{KEYS_FILE}.damaged"));
        assert_eq!(std::fs::read_to_string(aside).unwrap(), "{");
    }
}
