//! The desktop's client: a native WebSocket ([`socket`]), signing in with the key ring
//! ([`sign_in`]), and the window's link on a thread of its own ([`link`]).

mod link;
mod socket;

pub use link::{Link, StartError, Starter, Target};
pub use socket::{Client, Trust, WebSocket, connect, connect_in, connect_unsigned};

use qiguo_protocol::client::{ClientError, Welcome};
use qiguo_protocol::keys::Key;

use crate::{KeyStore, KeysError};

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

/// Connects to the server at `url` as the player whose key for it is kept in `keys` (or as a
/// new player called `name`, whose key is then kept there), who reads `language` (`en`, `sv`,
/// `zh`; `None` leaves the server's note as it is).
pub async fn sign_in(
    url: &str,
    name: &str,
    language: Option<&str>,
    trust: &Trust,
    keys: &KeyStore,
) -> Result<(Client, Welcome), SignInError> {
    let identity = keys.load_for_sign_in()?.identity(url, name);
    let (client, welcome) = connect_in(url, identity, language, trust).await?;
    if let Some(key) = &welcome.key {
        let key = Key {
            player: welcome.player.clone(),
            key: key.clone(),
            name: welcome.name.clone(),
        };
        keys.keep(url, key)?;
    }
    Ok((client, welcome))
}
