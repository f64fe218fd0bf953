//! The native client: the protocol crate's [`qiguo_protocol::client::Client`] over a WebSocket
//! (`ws://`, or `wss://` through rustls). `qiguo online` and the window's link connect with it;
//! the server's tests drive servers with it.
//!
//! ```no_run
//! # async fn demo() -> Result<(), qiguo_client::ClientError> {
//! use qiguo_client::{Trust, connect};
//! use qiguo_protocol::{Ask, Identity};
//! let (mut client, me) = connect(
//!     "ws://127.0.0.1:7206",
//!     Identity::New { name: "Ana".into() },
//!     &Trust::default(),
//! )
//! .await?;
//! let games = client.ask(Ask::Games {}).await?;
//! # Ok(()) }
//! ```

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};

use qiguo_protocol::Identity;
use qiguo_protocol::client::{
    ANSWER_WITHIN, ClientError, MAX_SERVER_FRAME_BYTES, Transport, Welcome, is_loopback_url,
};

/// Which servers a client trusts: for `wss://` the usual web authorities and any extra
/// authority's certificate (a PEM file, for a server with a certificate of its own making);
/// plain `ws://` only on this machine (loopback), unless the player says the network is one
/// they trust (a LAN evening at home), since a player's key would cross it readable.
#[derive(Clone, Debug, Default)]
pub struct Trust {
    /// An extra authority's certificate.
    pub extra_ca: Option<PathBuf>,
    /// Plain `ws://` to another machine is allowed (`--insecure-lan`).
    pub insecure_lan: bool,
}

/// A connection to a server over a native WebSocket.
pub type Client = qiguo_protocol::client::Client<WebSocket>;

/// A WebSocket to a server, carrying text frames.
#[derive(Debug)]
pub struct WebSocket(WebSocketStream<MaybeTlsStream<TcpStream>>);

impl Transport for WebSocket {
    async fn send(&mut self, text: String) -> Result<(), ClientError> {
        tokio::time::timeout(ANSWER_WITHIN, self.0.send(Message::Text(text.into())))
            .await
            .map_err(|_| ClientError::Timeout)?
            .map_err(|e| ClientError::Connection(e.to_string()))
    }

    async fn recv(&mut self, within: Option<Duration>) -> Result<String, ClientError> {
        match within {
            Some(within) => tokio::time::timeout(within, self.read_text())
                .await
                .map_err(|_| ClientError::Timeout)?,
            None => self.read_text().await,
        }
    }

    async fn close(&mut self) {
        let _ = self.0.close(None).await;
    }
}

impl WebSocket {
    async fn read_text(&mut self) -> Result<String, ClientError> {
        loop {
            match self.0.next().await {
                Some(Ok(Message::Text(text))) => return Ok(text.as_str().to_owned()),
                Some(Ok(Message::Close(Some(close)))) if close.code == CloseCode::Away => {
                    return Err(ClientError::GoingAway(close.reason.to_string()));
                }
                Some(Ok(Message::Close(_))) | None => {
                    return Err(ClientError::Connection("closed by the server".into()));
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(ClientError::Connection(e.to_string())),
            }
        }
    }
}

fn connector(trust: &Trust) -> Result<Connector, ClientError> {
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = &trust.extra_ca {
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
            .and_then(|certs| certs.collect())
            .map_err(|e| ClientError::Tls(format!("{}: {e}", path.display())))?;
        for cert in certs {
            roots
                .add(cert)
                .map_err(|e| ClientError::Tls(format!("{}: {e}", path.display())))?;
        }
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| ClientError::Tls(e.to_string()))?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(Connector::Rustls(Arc::new(config)))
}

/// Connects to the server at `url` and signs in as `identity`.
pub async fn connect(
    url: &str,
    identity: Identity,
    trust: &Trust,
) -> Result<(Client, Welcome), ClientError> {
    connect_in(url, identity, None, trust).await
}

/// [`connect`], the player reading `language` (`en`, `sv`, `zh`).
pub async fn connect_in(
    url: &str,
    identity: Identity,
    language: Option<&str>,
    trust: &Trust,
) -> Result<(Client, Welcome), ClientError> {
    let mut client = connect_unsigned(url, trust).await?;
    let welcome = client.hello_in(identity, language).await?;
    Ok((client, welcome))
}

/// Connects without saying hello: the server takes nothing but a hello from it (tests speak
/// raw frames on it).
pub async fn connect_unsigned(url: &str, trust: &Trust) -> Result<Client, ClientError> {
    Ok(Client::new(open(url, trust).await?))
}

/// Opens a WebSocket to the server at `url`, as `trust` allows: plain `ws://` to this machine
/// only unless told, `wss://` with the web's authorities and the extra one.
pub(crate) async fn open(url: &str, trust: &Trust) -> Result<WebSocket, ClientError> {
    if !(url.starts_with("ws://") || url.starts_with("wss://")) {
        return Err(ClientError::Address(url.to_owned()));
    }
    if url.starts_with("ws://") && !trust.insecure_lan && !is_loopback_url(url) {
        return Err(ClientError::Insecure(url.to_owned()));
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_SERVER_FRAME_BYTES))
        .max_frame_size(Some(MAX_SERVER_FRAME_BYTES));
    let connect = tokio_tungstenite::connect_async_tls_with_config(
        url,
        Some(config),
        true,
        Some(connector(trust)?),
    );
    let (ws, _) = tokio::time::timeout(ANSWER_WITHIN, connect)
        .await
        .map_err(|_| ClientError::Timeout)?
        .map_err(|e| match e {
            tokio_tungstenite::tungstenite::Error::Url(e) => {
                ClientError::Address(format!("{url}: {e}"))
            }
            e => ClientError::Connection(e.to_string()),
        })?;
    Ok(WebSocket(ws))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn no_plain_connection_to_another_machine_unless_told() {
        // Refused before anything is sent (the address is never reached: TEST-NET-1).
        let plain = connect_unsigned("ws://192.0.2.1:7206", &Trust::default()).await;
        assert!(matches!(plain, Err(ClientError::Insecure(_))), "{plain:?}");
    }
}
