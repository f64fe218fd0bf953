//! The link to a server, through the client crate on every platform: on the desktop on a
//! thread of its own, which can also start the window's own server first (with the `host`
//! feature); in a page on the browser's WebSocket, with no server of its own (a page cannot
//! listen). Both report the same [`News`](qiguo_client::News). The player's keys are the client
//! crate's [`KeyStore`].

use std::path::PathBuf;

use qiguo_client::{KeyStore, Who};

pub(crate) use qiguo_client::Link;

/// Whether this program can run a server of its own (the desktop window built with the `host`
/// feature can; a page cannot).
pub(crate) const CAN_HOST: bool = cfg!(all(feature = "host", not(target_arch = "wasm32")));

/// The server this program came from, if any: in a page, the page's own origin (as a WebSocket
/// URL); on the desktop, none.
pub(crate) fn home_server() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    return qiguo_client::page_server();
    #[cfg(not(target_arch = "wasm32"))]
    return None;
}

/// Whether this program was opened from a sign-in link to `server` (a game link the server
/// e-mailed, opened in a page): the player is then signed in by it, not asked for a name.
pub(crate) fn signs_in_by_link(server: &str) -> bool {
    #[cfg(target_arch = "wasm32")]
    return qiguo_client::page_server().as_deref() == Some(server)
        && crate::browser::signin_token_waiting();
    #[cfg(not(target_arch = "wasm32"))]
    return {
        let _ = server;
        false
    };
}

/// Who the link signs in as: the player whose key for the server is kept in `keys` (or a new
/// player called `name`), who reads `language` (`en`, `sv`, `zh`). In a page opened from a
/// sign-in link to `url`, its token signs the player in on this device first.
fn who(url: &str, name: String, language: &str, keys: PathBuf) -> Who {
    #[cfg(target_arch = "wasm32")]
    let token = (qiguo_client::page_server().as_deref() == Some(url))
        .then(crate::browser::signin_token)
        .flatten();
    #[cfg(not(target_arch = "wasm32"))]
    let token = {
        let _ = url;
        None
    };
    Who {
        name,
        language: Some(language.to_owned()),
        keys: KeyStore::new(keys),
        token,
    }
}

/// A link to the server at `url`, as [`who`] says; `insecure_lan`: plain `ws://` to another
/// machine allowed (on the desktop; a page's browser decides what its page may reach). `wake`
/// is called when there is news (the game draws no frames while nothing happens).
pub(crate) fn remote(
    url: &str,
    name: String,
    language: &str,
    keys: PathBuf,
    insecure_lan: bool,
    wake: qiguo_client::Wake,
) -> Link {
    let who = who(url, name, language, keys);
    #[cfg(target_arch = "wasm32")]
    return {
        let _ = insecure_lan;
        Link::start_waking(
            url.to_owned(),
            who,
            crate::game::online::notify::page::heard,
            Some(wake),
        )
    };
    #[cfg(not(target_arch = "wasm32"))]
    return Link::start_waking(
        qiguo_client::Target::Remote {
            url: url.to_owned(),
            trust: qiguo_client::Trust {
                extra_ca: None,
                insecure_lan,
            },
        },
        who,
        Some(wake),
    );
}

/// A link to a server of the window's own, listening on `port` of this machine (or of every
/// network it is on, for a LAN evening): the link, and the address others reach it at. The
/// server keeps its games in the data directory `keys` beside the player's keys.
#[cfg(all(feature = "host", not(target_arch = "wasm32")))]
pub(crate) fn own_server(
    lan: bool,
    port: u16,
    name: String,
    language: &str,
    keys: PathBuf,
    wake: qiguo_client::Wake,
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
    let address = format!("ws://{}", joinable_address(SocketAddr::new(bind, port)));
    let start: qiguo_client::Starter = Box::new(move || {
        Box::pin(async move {
            // The own server's lines reach Bevy's log through `tracing`.
            let log = qiguo_server::log::Log::tracing();
            let running = qiguo_server::server::serve(&config, log).await?;
            let url = format!("ws://127.0.0.1:{}", running.addr.port());
            Ok((url, Box::new(running) as Box<dyn std::any::Any + Send>))
        })
    });
    let who = who("", name, language, keys);
    let link = Link::start_waking(qiguo_client::Target::Own(start), who, Some(wake));
    (link, address)
}

/// The address other machines reach a server listening on `bind` at: this machine's address on
/// the network it reaches others by (found by routing, no packet sent), else `bind` itself.
#[cfg(all(feature = "host", not(target_arch = "wasm32")))]
fn joinable_address(bind: std::net::SocketAddr) -> std::net::SocketAddr {
    if !bind.ip().is_unspecified() {
        return bind;
    }
    let routed = std::net::UdpSocket::bind((std::net::Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|s| {
            // A documentation address (TEST-NET-1): connecting a UDP socket only picks a route.
            s.connect((std::net::Ipv4Addr::new(192, 0, 2, 1), 9))?;
            s.local_addr()
        })
        .ok()
        .map(|a| a.ip())
        .filter(|ip| !ip.is_unspecified());
    std::net::SocketAddr::new(routed.unwrap_or(bind.ip()), bind.port())
}
