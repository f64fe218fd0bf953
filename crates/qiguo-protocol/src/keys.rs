//! The player's keys, one per server: a server knows a player by the id and secret key it gave
//! them on their first visit, so the key ring is what makes a player the same player next time.
//! Where it is kept is the client's business (a file on the desktop, the browser's storage in
//! a page); its JSON shape is the same everywhere, so a ring exported from one can be imported
//! into the other.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Identity, PlayerId};

/// The key ring's name where it is kept (a file in the data directory on the desktop; an
/// item of the browser's storage in a page).
pub const KEYS_FILE: &str = "online-keys.json";

/// Who the player is on one server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Key {
    /// Their id there.
    pub player: PlayerId,
    /// Their secret key there.
    pub key: String,
    /// The name they gave.
    pub name: String,
}

/// The keys, by server address.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyRing {
    /// The keys, by server URL as given (`ws://…`, `wss://…`).
    pub servers: BTreeMap<String, Key>,
}

impl KeyRing {
    /// A ring from its JSON.
    pub fn from_json(text: &str) -> Result<KeyRing, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The ring as JSON (pretty, as kept in a file).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a key ring is always written")
    }

    /// Takes in the keys of `other` (exported elsewhere): its key for a server replaces this
    /// ring's. How many servers' keys were new or changed.
    pub fn merge(&mut self, other: KeyRing) -> usize {
        let mut changed = 0;
        for (server, key) in other.servers {
            if self.servers.get(&server) != Some(&key) {
                self.servers.insert(server, key);
                changed += 1;
            }
        }
        changed
    }

    /// How to sign in to `server`: with the key kept for it, or as a new player called `name`.
    pub fn identity(&self, server: &str, name: &str) -> Identity {
        match self.servers.get(server) {
            Some(key) => Identity::Player {
                id: key.player.clone(),
                key: key.key.clone(),
            },
            None => Identity::New {
                name: name.to_owned(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Key {
        Key {
            player: PlayerId(format!("p-{k}")),
            key: k.to_owned(),
            name: "Ann".to_owned(),
        }
    }

    #[test]
    fn a_ring_exported_and_imported_elsewhere_signs_in_as_the_same_player() {
        let mut desktop = KeyRing::default();
        desktop.servers.insert("wss://a".into(), key("a1"));
        desktop.servers.insert("wss://b".into(), key("b1"));
        let mut page = KeyRing::default();
        page.servers.insert("wss://b".into(), key("b2"));
        page.servers.insert("wss://c".into(), key("c1"));
        let exported = KeyRing::from_json(&desktop.to_json()).unwrap();
        assert_eq!(exported, desktop);
        assert_eq!(page.merge(exported.clone()), 2, "a new, b changed");
        assert_eq!(page.merge(exported), 0, "nothing new the second time");
        assert!(
            matches!(page.identity("wss://b", "x"), Identity::Player { key, .. } if key == "b1")
        );
        assert!(
            matches!(page.identity("wss://c", "x"), Identity::Player { key, .. } if key == "c1")
        );
        assert!(KeyRing::from_json("{\"servers\": 3}").is_err());
    }
}
