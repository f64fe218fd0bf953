//! A client of the server: connects (`ws://` or `wss://`), says hello, then asks and listens.
//! Used by `qiguo online` and by the window's *Online…*; the tests drive servers with it.
//!
//! ```no_run
//! # async fn demo() -> Result<(), qiguo_server::client::ClientError> {
//! use qiguo_server::client::{Client, Trust};
//! use qiguo_server::protocol::{Ask, Identity};
//! let (mut client, me) = Client::connect(
//!     "ws://127.0.0.1:7206",
//!     Identity::New { name: "Ana".into() },
//!     &Trust::default(),
//! )
//! .await?;
//! let games = client.ask(Ask::Games {}).await?;
//! # Ok(()) }
//! ```

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};

use crate::protocol::{Answer, Ask, ClientFrame, Event, Identity, PROTOCOL_VERSION, ServerFrame};
use crate::store::PlayerId;

/// How long a client waits to connect, and for each answer.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// The largest frame a client reads (a long game's record), in bytes.
pub const MAX_SERVER_FRAME_BYTES: usize = 8 << 20;

/// Which certificates a `wss://` client trusts: the usual web authorities, and any extra
/// authority's certificate (a PEM file, for a server with a certificate of its own making).
#[derive(Clone, Debug, Default)]
pub struct Trust {
    /// An extra authority's certificate.
    pub extra_ca: Option<PathBuf>,
}

/// Why a client could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server's address is not a `ws://` or `wss://` URL.
    #[error("not a server address (ws://HOST:PORT or wss://HOST:PORT): {0}")]
    Address(String),
    /// The server could not be reached, or the connection broke.
    #[error("the server cannot be reached: {0}")]
    Connection(String),
    /// The server closed the connection because it shuts down (WebSocket code 1001): it may
    /// be back soon, or another server on the same database may serve the game.
    #[error("the server is shutting down: {0}")]
    GoingAway(String),
    /// The server took too long.
    #[error("the server did not answer in time")]
    Timeout,
    /// The server refused the request.
    #[error("{0}")]
    Refused(String),
    /// The server said something this client does not understand.
    #[error("the server said something this version of Qiguo does not understand: {0}")]
    Protocol(String),
    /// The extra authority's certificate could not be read.
    #[error("TLS: {0}")]
    Tls(String),
}

/// Who the server says the client is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Welcome {
    /// The player's id.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// For a new player, their key: keep it (it is never sent again).
    pub key: Option<String>,
}

/// A connection to a server, signed in.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_req: u64,
    events: VecDeque<Event>,
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

impl Client {
    /// Connects to the server at `url` and signs in as `identity`.
    pub async fn connect(
        url: &str,
        identity: Identity,
        trust: &Trust,
    ) -> Result<(Client, Welcome), ClientError> {
        let mut client = Client::connect_unsigned(url, trust).await?;
        match client
            .ask(Ask::Hello {
                version: PROTOCOL_VERSION,
                identity,
            })
            .await?
        {
            Answer::Welcome {
                player, name, key, ..
            } => Ok((client, Welcome { player, name, key })),
            other => Err(ClientError::Protocol(format!("{other:?}"))),
        }
    }

    /// Connects without saying hello: the server takes nothing but [`Ask::Hello`] from it
    /// (tests speak raw frames on it).
    pub async fn connect_unsigned(url: &str, trust: &Trust) -> Result<Client, ClientError> {
        if !(url.starts_with("ws://") || url.starts_with("wss://")) {
            return Err(ClientError::Address(url.to_owned()));
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
        Ok(Client {
            ws,
            next_req: 1,
            events: VecDeque::new(),
        })
    }

    /// Sends a request and waits for its answer; events arriving meanwhile are kept for
    /// [`Client::next_event`].
    pub async fn ask(&mut self, ask: Ask) -> Result<Answer, ClientError> {
        let req = self.next_req;
        self.next_req += 1;
        let text = serde_json::to_string(&ClientFrame { req, ask })
            .map_err(|e| ClientError::Protocol(e.to_string()))?;
        self.send_text(text).await?;
        loop {
            match self.read().await? {
                ServerFrame::Reply { req: r, answer } if r == req => return Ok(answer),
                ServerFrame::Refused { req: r, why, .. } if r == req || r == 0 => {
                    return Err(ClientError::Refused(why));
                }
                ServerFrame::Event { event } => self.events.push_back(event),
                other => return Err(ClientError::Protocol(format!("{other:?}"))),
            }
        }
    }

    /// Sends raw text as a frame (the tests send garbage with it).
    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        tokio::time::timeout(ANSWER_WITHIN, self.ws.send(Message::Text(text.into())))
            .await
            .map_err(|_| ClientError::Timeout)?
            .map_err(|e| ClientError::Connection(e.to_string()))
    }

    /// The next event: one kept while waiting for an answer, or the next to arrive (waiting as
    /// long as it takes).
    pub async fn next_event(&mut self) -> Result<Event, ClientError> {
        if let Some(event) = self.events.pop_front() {
            return Ok(event);
        }
        loop {
            match self.read_frame().await? {
                ServerFrame::Event { event } => return Ok(event),
                ServerFrame::Refused { why, .. } => return Err(ClientError::Refused(why)),
                ServerFrame::Reply { .. } => {}
            }
        }
    }

    /// An event kept while an answer was awaited, if there is one (without waiting).
    pub fn take_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// The next frame the server sends, within [`ANSWER_WITHIN`].
    pub async fn read(&mut self) -> Result<ServerFrame, ClientError> {
        tokio::time::timeout(ANSWER_WITHIN, self.read_frame())
            .await
            .map_err(|_| ClientError::Timeout)?
    }

    async fn read_frame(&mut self) -> Result<ServerFrame, ClientError> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(text))) => {
                    return serde_json::from_str(text.as_str())
                        .map_err(|e| ClientError::Protocol(e.to_string()));
                }
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

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
