//! Random ids, players' keys and invitation codes, from the operating system's random source,
//! and the hash a key is kept as.

use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest, Sha256};

/// Why no secret could be made: the system has no random source (an unusual sandbox). Nothing
/// guessable is made instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the system's random source is not available")]
pub struct NoRandomness;

pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], NoRandomness> {
    let mut bytes = [0u8; N];
    SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|_| NoRandomness)?;
    Ok(bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh id (a player's or a game's): 128 random bits in hex.
pub(crate) fn new_id() -> Result<String, NoRandomness> {
    Ok(hex(&random_bytes::<16>()?))
}

/// A fresh player's key: 256 random bits in hex. Only its [`key_hash`] is stored.
pub(crate) fn new_key() -> Result<String, NoRandomness> {
    Ok(hex(&random_bytes::<32>()?))
}

/// What a key is kept as: its SHA-256, in hex. (A key is random, not a password: a plain hash
/// is enough to make a stolen database useless for signing in.)
pub(crate) fn key_hash(key: &str) -> String {
    hex(&Sha256::digest(key.as_bytes()))
}

/// The letters of invitation codes (Crockford's base 32): no I, L, O or U, so that a code read
/// aloud or copied by hand comes through; O typed is read as 0, I and L as 1.
const CODE_LETTERS: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_GROUPS: usize = 4;
const CODE_GROUP_LEN: usize = 4;

/// A fresh invitation code, `7KQM-2XWD-…`: 16 letters of 5 bits, 80 random bits in all.
pub(crate) fn new_code() -> Result<String, NoRandomness> {
    let bytes = random_bytes::<{ CODE_GROUPS * CODE_GROUP_LEN }>()?;
    let letters: Vec<char> = bytes
        .iter()
        .map(|b| CODE_LETTERS[usize::from(b & 31)] as char)
        .collect();
    Ok(grouped(&letters))
}

/// Code letters in dash-separated groups: `7KQM-2XWD-…`.
fn grouped(letters: &[char]) -> String {
    letters
        .chunks(CODE_GROUP_LEN)
        .map(|group| group.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// A code as typed, in the form it is stored: capitals, O read as 0 and I or L as 1, dashes
/// where they go; `None` if it cannot be a code.
pub(crate) fn normalize_code(typed: &str) -> Option<String> {
    let letters: Vec<char> = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    let ok = letters.len() == CODE_GROUPS * CODE_GROUP_LEN
        && letters.iter().all(|c| CODE_LETTERS.contains(&(*c as u8)));
    ok.then(|| grouped(&letters))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_and_of_their_size() {
        let (a, b) = (new_id().unwrap(), new_id().unwrap());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert_eq!(new_key().unwrap().len(), 64);
        assert_eq!(key_hash("k").len(), 64);
        assert_ne!(key_hash("k"), key_hash("l"));
    }

    #[test]
    fn codes_read_back_however_they_are_typed() {
        let code = new_code().unwrap();
        assert_eq!(code.len(), 19);
        assert_eq!(normalize_code(&code).as_deref(), Some(code.as_str()));
        let typed = code.to_lowercase().replace('-', " ");
        assert_eq!(normalize_code(&typed).as_deref(), Some(code.as_str()));
        assert_eq!(normalize_code("7KQM-2XWD"), None, "too short");
        assert_eq!(
            normalize_code("oooo-iiii-llll-2222").as_deref(),
            Some("0000-1111-1111-2222")
        );
        assert_eq!(
            normalize_code("UUUU-1111-1111-2222"),
            None,
            "not code letters"
        );
    }
}
