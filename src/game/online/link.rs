//! The link to a server, by platform: on the desktop a client on a thread of its own, which can
//! also start the window's own server first (`qiguo_server::link`); in a page, the browser's
//! WebSocket (`crate::web::link`), and no server of its own (a page cannot listen). Both report
//! the same [`News`](qiguo_protocol::link::News).

use std::path::{Path, PathBuf};

use qiguo_protocol::keys::KeyRing;

#[cfg(target_arch = "wasm32")]
pub(crate) use crate::web::link::Link;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use qiguo_server::link::Link;

/// Whether this platform can run a server of its own (the desktop window can; a page cannot).
pub(crate) const CAN_HOST: bool = cfg!(not(target_arch = "wasm32"));

/// The server this program came from, if any: in a page, the page's own origin (as a WebSocket
/// URL); on the desktop, none.
pub(crate) fn home_server() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    return crate::web::link::page_server();
    #[cfg(not(target_arch = "wasm32"))]
    return None;
}

/// Whether this program was opened from a sign-in link to `server` (a game link the server
/// e-mailed, opened in a page): the player is then signed in by it, not asked for a name.
pub(crate) fn signs_in_by_link(server: &str) -> bool {
    #[cfg(target_arch = "wasm32")]
    return crate::web::link::page_server().as_deref() == Some(server)
        && crate::web::signin_token_waiting();
    #[cfg(not(target_arch = "wasm32"))]
    return {
        let _ = server;
        false
    };
}

/// The player's keys kept in the data directory `dir` (none yet: an empty ring).
pub(crate) fn load_keys(dir: &Path) -> Result<KeyRing, String> {
    #[cfg(target_arch = "wasm32")]
    return crate::web::link::load_keys(dir);
    #[cfg(not(target_arch = "wasm32"))]
    return <KeyRing as qiguo_server::keys::KeyFile>::load(dir).map_err(|e| e.to_string());
}

/// Keeps `ring` as the player's keys in `dir` (on the desktop, readable by its owner only).
pub(crate) fn save_keys(dir: &Path, ring: &KeyRing) -> Result<(), String> {
    #[cfg(target_arch = "wasm32")]
    return crate::web::link::save_keys(dir, ring);
    #[cfg(not(target_arch = "wasm32"))]
    return qiguo_server::keys::KeyFile::save(ring, dir).map_err(|e| e.to_string());
}

/// A link to the server at `url`, as the player whose key for it is kept in `keys` (or a new
/// player called `name`), who reads `language` (`en`, `sv`, `zh`); `insecure_lan`: plain
/// `ws://` to another machine allowed (on the desktop; a page's browser decides what its page
/// may reach).
pub(crate) fn remote(
    url: &str,
    name: String,
    language: &str,
    keys: PathBuf,
    insecure_lan: bool,
) -> Link {
    let language = Some(language.to_owned());
    #[cfg(target_arch = "wasm32")]
    return {
        let _ = insecure_lan;
        Link::start(url.to_owned(), name, language, keys)
    };
    #[cfg(not(target_arch = "wasm32"))]
    return Link::start(
        qiguo_server::link::Target::Remote {
            url: url.to_owned(),
            ca: None,
            insecure_lan,
        },
        name,
        language,
        keys,
        qiguo_server::log::Log::tracing(),
    );
}

/// A link to a server of the window's own, listening on `port` of this machine (or of every
/// network it is on, for a LAN evening): the link, and the address others reach it at.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn own_server(
    lan: bool,
    port: u16,
    name: String,
    language: &str,
    keys: PathBuf,
) -> (Link, String) {
    use std::net::{IpAddr, Ipv4Addr, SocketAddr};
    let bind = if lan {
        IpAddr::V4(Ipv4Addr::UNSPECIFIED)
    } else {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    };
    let mut config = qiguo_server::server::ServerConfig::new(qiguo_server::cli::sqlite_url(
        &keys.join(qiguo_server::cli::SERVER_DB),
    ));
    config.bind = bind;
    config.port = port;
    // A LAN evening at home: plain WebSocket, said so in the window.
    config.insecure_lan = lan;
    let address = format!(
        "ws://{}",
        super::connection::joinable_address(SocketAddr::new(bind, port))
    );
    // The own server's lines reach Bevy's log through `tracing`.
    let log = qiguo_server::log::Log::tracing();
    let link = Link::start(
        qiguo_server::link::Target::Own(Box::new(config)),
        name,
        Some(language.to_owned()),
        keys,
        log,
    );
    (link, address)
}
