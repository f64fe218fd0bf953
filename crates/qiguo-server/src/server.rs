//! The server on the network: WebSocket connections (through TLS when given a certificate),
//! each a signed-in player's session speaking [`crate::protocol`] to the [`Hub`].
//!
//! Plain connections are served only on a loopback address, or on another address when the
//! operator says `insecure_lan`: anywhere else the traffic would be readable, and keys with it.

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;

use crate::page::Page;
use axum::extract::Request;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Extension, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast, mpsc};
use tokio::task::JoinHandle;

use crate::admission::{Admission, FORGET_EVERY, Limit, Limits, Rated, Slot, client_address};
use crate::hub::Hub;
use crate::hub::mail::{LinkAction, LinkPage, Mailing};
use crate::log::{Log, Repeats, escaped};
use crate::protocol::{
    Answer, Ask, ClientFrame, DEFAULT_PORT, Event, Identity, MAX_FRAME_BYTES, PROTOCOL_VERSION,
    ServerFrame,
};
use crate::protocol::{Refusal, refused_in_old_shape, versions};
use crate::store::{GameId, PlayerId, Store, StoreError};

/// The most an HTTP request's head may take in memory (hyper's smallest read buffer).
pub const MAX_HEAD_BYTES: usize = 8 * 1024;

/// A WebSocket's read and write buffers (a frame longer than this is read in several goes).
pub const SOCKET_BUFFER_BYTES: usize = 4 * 1024;

/// Connections refused for a limit that are still told why (with an HTTP 503) at once; beyond
/// them a refused connection is closed without a word.
pub const TOLD_AT_ONCE: usize = 64;

/// How many refusals a session logs one by one; those after are counted and logged as one
/// line when it ends.
pub const REFUSALS_LOGGED: u32 = 5;

/// How long the server waits for a client to take a frame before it gives up on it.
pub const SEND_WITHIN: Duration = Duration::from_secs(30);

/// How many frames in a row that cannot be read close a connection.
pub const BAD_FRAMES_ALLOWED: u32 = 8;

/// How a server is started.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on.
    pub bind: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// A socket already bound and listening (a supervisor's, given as standard input with
    /// `--listen-stdin`, or a test's): served instead of binding `bind` and `port`, so that the
    /// port is never let go between the one who chose it and the server.
    pub listener: Option<Arc<std::net::TcpListener>>,
    /// The database's URL (`sqlite://…` or `postgres://…`).
    pub db: String,
    /// The certificate chain and private key (PEM files) to serve TLS with.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Serve plain WebSockets on an address other than loopback.
    pub insecure_lan: bool,
    /// The limits on connections and requests.
    pub limits: Limits,
    /// Where to serve the metrics (`/metrics`, Prometheus's text format), if anywhere.
    pub metrics: Option<SocketAddr>,
    /// The page's bundle, served beside the WebSocket (`--web DIR`); without it, only the
    /// WebSocket is served.
    pub web: Option<Page>,
    /// Days of holiday a player may take a calendar year (UTC).
    pub holiday_days: u32,
    /// The e-mail it sends to players who are away (`--smtp`); without it, none.
    pub mail: Option<crate::mail::MailConfig>,
}

impl ServerConfig {
    /// Loopback, the default port, this database, no TLS.
    pub fn new(db: impl Into<String>) -> ServerConfig {
        ServerConfig {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: DEFAULT_PORT,
            listener: None,
            db: db.into(),
            tls: None,
            insecure_lan: false,
            limits: Limits::default(),
            metrics: None,
            web: None,
            holiday_days: crate::hub::HOLIDAY_DAYS,
            mail: None,
        }
    }
}

/// Why the server did not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Plain WebSockets asked for on an address others can reach.
    #[error(
        "{0} is not a loopback address: serve it with --tls-cert and --tls-key, or say --insecure-lan to serve it unencrypted"
    )]
    Insecure(IpAddr),
    /// The certificate or key could not be read.
    #[error("TLS: {0}")]
    Tls(String),
    /// The address could not be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    /// The listening socket handed to the server cannot be served.
    #[error("the listening socket given (--listen-stdin) cannot be served: {0}")]
    Given(std::io::Error),
    /// The database could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The mail relay could not be set up.
    #[error("{0}")]
    Mail(String),
}

/// A running server.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Whether it speaks TLS (`wss://`).
    pub tls: bool,
    /// Its games.
    pub hub: Arc<Hub>,
    accept: JoinHandle<()>,
    slots: Arc<Semaphore>,
    max_connections: usize,
    /// The SQLite file's claim, held while the server runs.
    _claim: Option<std::fs::File>,
    /// The TLS acceptor new connections are given, and the files it is read from.
    tls_now: Tls,
    tls_files: Option<(PathBuf, PathBuf)>,
    /// Where the metrics are served.
    pub metrics: Option<SocketAddr>,
}

/// The TLS acceptor of new connections, replaced when the certificate is read again.
type Tls = Arc<std::sync::RwLock<Option<tokio_rustls::TlsAcceptor>>>;

impl Running {
    /// The URL clients connect to.
    pub fn url(&self) -> String {
        format!("{}://{}", if self.tls { "wss" } else { "ws" }, self.addr)
    }

    /// Reads the certificate and key again (renewed, say): new connections are served with
    /// them, those open go on. On failure the ones read before stay.
    pub fn reload_tls(&self) -> Result<(), ServeError> {
        let Some((cert, key)) = &self.tls_files else {
            return Ok(());
        };
        let acceptor = tls_acceptor(cert, key)?;
        *self
            .tls_now
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(acceptor);
        Ok(())
    }

    /// Connections open now (each counted until its session ends).
    pub fn connections(&self) -> usize {
        self.max_connections - self.slots.available_permits()
    }

    /// Stops taking connections (those open end when the runtime does).
    pub fn stop(&self) {
        self.accept.abort();
    }

    /// Shuts the server down gracefully: stops taking connections, lets the moves being
    /// committed finish and begins no other, closes every connection with a going-away frame,
    /// waits for them to end (at most `within`) and closes the database.
    pub async fn shutdown(&self, within: Duration) {
        self.accept.abort();
        self.hub.close().await;
        let all = u32::try_from(self.max_connections).unwrap_or(u32::MAX);
        match tokio::time::timeout(within, self.slots.acquire_many(all)).await {
            Ok(_) => self.hub.log().info("every connection closed"),
            Err(_) => {
                let open = self.max_connections - self.slots.available_permits();
                self.hub.log().warn(&format!(
                    "{open} connections still open after {} s; closed with the process",
                    within.as_secs()
                ));
            }
        }
        self.hub.close_store().await;
        self.hub.log().info("stopped");
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

fn tls_acceptor(cert: &PathBuf, key: &PathBuf) -> Result<tokio_rustls::TlsAcceptor, ServeError> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect())
        .map_err(|e| ServeError::Tls(format!("{}: {e}", cert.display())))?;
    if certs.is_empty() {
        return Err(ServeError::Tls(format!(
            "{}: no certificate",
            cert.display()
        )));
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .map_err(|e| ServeError::Tls(format!("{}: {e}", key.display())))?;
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| ServeError::Tls(e.to_string()))?
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .map_err(|e| ServeError::Tls(e.to_string()))?;
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

/// Opens the database, loads its games and starts serving. Must be called within a Tokio
/// runtime; the server runs on it until [`Running::stop`] or the runtime ends.
pub async fn serve(config: &ServerConfig, log: Log) -> Result<Running, ServeError> {
    let bind = match &config.listener {
        Some(listener) => listener.local_addr().map_err(ServeError::Given)?.ip(),
        None => config.bind,
    };
    if config.tls.is_none() && !bind.is_loopback() && !config.insecure_lan {
        return Err(ServeError::Insecure(bind));
    }
    let tls = match &config.tls {
        Some((cert, key)) => Some(tls_acceptor(cert, key)?),
        None => None,
    };
    let store = Store::open(&config.db).await?;
    let mut running = serve_store(config, store, tls, log).await?;
    running.tls_files = config.tls.clone();
    Ok(running)
}

/// [`serve`] on a store already open (tests set its clock).
pub async fn serve_store(
    config: &ServerConfig,
    store: Store,
    tls: Option<tokio_rustls::TlsAcceptor>,
    log: Log,
) -> Result<Running, ServeError> {
    // One server a SQLite file: a second is refused before it listens.
    let claim = store.claim()?;
    let want = SocketAddr::new(config.bind, config.port);
    let listener = match &config.listener {
        Some(given) => given
            .try_clone()
            .and_then(|l| {
                l.set_nonblocking(true)?;
                TcpListener::from_std(l)
            })
            .map_err(ServeError::Given)?,
        None => TcpListener::bind(want)
            .await
            .map_err(|e| ServeError::Bind(want, e))?,
    };
    let addr = listener
        .local_addr()
        .map_err(|e| ServeError::Bind(want, e))?;
    let mailing = match &config.mail {
        Some(mail) => Some(Mailing::new(mail.clone()).map_err(ServeError::Mail)?),
        None => None,
    };
    let hub = Hub::start(
        store,
        log,
        config.limits.games_per_player,
        config.holiday_days,
        mailing,
    )
    .await?;
    let secure = tls.is_some();
    hub.log().info(&format!(
        "listening on {}://{addr} (protocol {PROTOCOL_VERSION})",
        if secure { "wss" } else { "ws" }
    ));
    let mut router = Router::new()
        .route("/", get(upgrade))
        .route("/healthz", get(healthz));
    match &config.mail {
        Some(mail) => {
            hub.log().info(&format!(
                "e-mail: sent through {}:{} ({}) from {}, linking to {}",
                mail.smtp.host,
                mail.smtp.port,
                match mail.smtp.security {
                    crate::mail::Security::StartTls => "STARTTLS",
                    crate::mail::Security::Implicit => "TLS",
                    crate::mail::Security::Plain => "unencrypted, on this machine",
                },
                mail.from,
                mail.public_url
            ));
            router = router.route(
                "/mail/{action}/{token}",
                get(mail_link_asked).post(mail_link_followed),
            );
        }
        None => hub
            .log()
            .info("e-mail: none sent (no --smtp); players are told so"),
    }
    if let Some(page) = &config.web {
        hub.log()
            .info(&format!("serving the page from {}", page.dir().display()));
        router = router.fallback(page_file).layer(Extension(page.clone()));
    }
    let router = router.with_state(hub.clone());
    let admission = Arc::new(Admission::new(config.limits.clone()));
    let slots = Arc::new(Semaphore::new(config.limits.connections));
    let metrics = match config.metrics {
        Some(at) => {
            Some(serve_metrics(at, hub.clone(), slots.clone(), config.limits.connections).await?)
        }
        None => None,
    };
    let tls_now: Tls = Arc::new(std::sync::RwLock::new(tls));
    let accept = tokio::spawn(accept_loop(
        listener,
        router,
        tls_now.clone(),
        slots.clone(),
        admission.clone(),
        hub.clone(),
    ));
    tokio::spawn(forget_idle(Arc::downgrade(&admission)));
    Ok(Running {
        addr,
        tls: secure,
        hub,
        accept,
        slots,
        max_connections: config.limits.connections,
        _claim: claim,
        tls_now,
        tls_files: None,
        metrics,
    })
}

/// Serves the metrics at `at` (`/metrics`, Prometheus's text format), on a listener of its own
/// so that the operator can keep it off the public network; returns where it listens.
async fn serve_metrics(
    at: SocketAddr,
    hub: Arc<Hub>,
    slots: Arc<Semaphore>,
    max: usize,
) -> Result<SocketAddr, ServeError> {
    let listener = TcpListener::bind(at)
        .await
        .map_err(|e| ServeError::Bind(at, e))?;
    let addr = listener.local_addr().map_err(|e| ServeError::Bind(at, e))?;
    let router = Router::new().route(
        "/metrics",
        get(move || {
            let text = hub.render_metrics(max - slots.available_permits());
            async move { ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text) }
        }),
    );
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    Ok(addr)
}

/// `/healthz`: 200 while the server serves and its database answers, 503 with why otherwise.
async fn healthz(State(hub): State<Arc<Hub>>) -> Response {
    match hub.healthy().await {
        Ok(()) => (
            StatusCode::OK,
            [(header::CACHE_CONTROL, "no-store")],
            "ok\n",
        )
            .into_response(),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CACHE_CONTROL, "no-store")],
            format!("{why}\n"),
        )
            .into_response(),
    }
}

/// `/mail/ACTION/TOKEN` asked for (a GET, as mail scanners make): a page saying what the link
/// does, with a button that does it.
async fn mail_link_asked(
    State(hub): State<Arc<Hub>>,
    Path((action, token)): Path<(String, String)>,
) -> Response {
    mail_link(&hub, &action, &token, false).await
}

/// `/mail/ACTION/TOKEN` followed (a POST: the page's button, or a mail program's one click of
/// RFC 8058): done.
async fn mail_link_followed(
    State(hub): State<Arc<Hub>>,
    Path((action, token)): Path<(String, String)>,
) -> Response {
    mail_link(&hub, &action, &token, true).await
}

async fn mail_link(hub: &Arc<Hub>, action: &str, token: &str, act: bool) -> Response {
    let Some(action) = LinkAction::from_path(action) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let page = hub.link_page(action, token, act).await;
    let status = if page.ok {
        StatusCode::OK
    } else {
        StatusCode::GONE
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            // The token is in the address: sent to nobody else.
            (header::REFERRER_POLICY, "no-referrer"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
            ),
        ],
        link_page_html(&page),
    )
        .into_response()
}

/// A link's page: its title, what it says and (asked) a button posting to the same address.
fn link_page_html(page: &LinkPage) -> String {
    let button = page
        .button
        .as_ref()
        .map(|b| {
            format!(
                "<form method=\"post\"><button type=\"submit\">{}</button></form>",
                html_escaped(b)
            )
        })
        .unwrap_or_default();
    format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title>\
         <style>body{{font-family:sans-serif;max-width:36em;margin:3em auto;padding:0 1em;\
         background:#f4efe4;color:#2b2118}}button{{font-size:1.1em;padding:.5em 1.5em}}</style>\
         </head><body><h1>{title}</h1><p>{text}</p>{button}</body></html>\n",
        lang = page.language.html_tag(),
        title = html_escaped(&page.title),
        text = html_escaped(&page.text),
    )
}

/// `text` with HTML's special characters escaped.
fn html_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Now and then: the rate limits forget the addresses that have not asked lately.
async fn forget_idle(admission: std::sync::Weak<Admission>) {
    let mut every = tokio::time::interval(FORGET_EVERY);
    loop {
        every.tick().await;
        match admission.upgrade() {
            Some(admission) => admission.forget_idle(),
            None => return,
        }
    }
}

/// A connection: its peer, for the log, and its places among the connections served at once
/// (in all, and from its address unless it comes through a trusted proxy), held by the
/// connection and then by its session, so that a session counts until it ends.
#[derive(Clone, Debug)]
struct Conn {
    peer: SocketAddr,
    slot: Arc<OwnedSemaphorePermit>,
    address: Option<Arc<Slot>>,
    admission: Arc<Admission>,
}

/// Why a connection is refused, told in an HTTP 503 with the reason, whatever it asks.
#[derive(Clone, Copy, Debug)]
struct Refused(Limit);

async fn accept_loop(
    listener: TcpListener,
    router: Router,
    tls_now: Tls,
    slots: Arc<Semaphore>,
    admission: Arc<Admission>,
    hub: Arc<Hub>,
) {
    let telling = Arc::new(Semaphore::new(TOLD_AT_ONCE));
    let refusing = Router::new().fallback(refused);
    let mut turned_away = Repeats::new("connections turned away");
    loop {
        let (tcp, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, most likely: wait for some to be given back.
                hub.log().warn(&format!("accept failed: {e}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let tls = tls_now
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let admitted = match slots.clone().try_acquire_owned() {
            Err(_) => Err(Limit::Connections),
            Ok(slot) if admission.counts_at_accept(peer.ip()) => admission
                .address_slot(peer.ip())
                .map(|address| (slot, Some(Arc::new(address)))),
            Ok(slot) => Ok((slot, None)),
        };
        let service = match admitted {
            Ok((slot, address)) => router.clone().layer(Extension(Conn {
                peer,
                slot: Arc::new(slot),
                address,
                admission: admission.clone(),
            })),
            Err(limit) => {
                hub.metrics().turned_away(limit.name());
                turned_away.note(hub.log(), &format!("{peer}: {}", limit.reason()));
                // Told why while few are being told; beyond that, closed at once.
                let Ok(telling) = telling.clone().try_acquire_owned() else {
                    continue;
                };
                let tls = tls.clone();
                let hub = hub.clone();
                let service = refusing.clone().layer(Extension(Refused(limit)));
                let within = admission.limits().hello_within;
                tokio::spawn(async move {
                    serve_connection(tcp, peer, tls, service, within, &hub).await;
                    drop(telling);
                });
                continue;
            }
        };
        let tls = tls.clone();
        let hub = hub.clone();
        let within = admission.limits().hello_within;
        tokio::spawn(async move { serve_connection(tcp, peer, tls, service, within, &hub).await });
    }
}

/// Serves one TCP connection's HTTP (through TLS if given), with a deadline (`within`) on the
/// handshake and on every request's headers, and small read buffers.
async fn serve_connection(
    tcp: tokio::net::TcpStream,
    peer: SocketAddr,
    tls: Option<tokio_rustls::TlsAcceptor>,
    service: Router,
    within: Duration,
    hub: &Hub,
) {
    // HTTP/1 only: no reading ahead to tell the version, which would wait without a deadline.
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(within)
        .max_buf_size(MAX_HEAD_BYTES);
    let service = TowerToHyperService::new(service);
    let served = match tls {
        Some(tls) => match tokio::time::timeout(within, tls.accept(tcp)).await {
            Ok(Ok(stream)) => {
                builder
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades()
                    .await
            }
            Ok(Err(e)) => {
                hub.log()
                    .info(&format!("{peer}: TLS handshake failed: {e}"));
                Ok(())
            }
            Err(_) => {
                hub.log().info(&format!("{peer}: TLS handshake too slow"));
                Ok(())
            }
        },
        None => {
            builder
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades()
                .await
        }
    };
    if let Err(e) = served {
        hub.log().info(&format!("{peer}: connection ended: {e}"));
    }
}

/// The answer to every request on a connection refused for a limit.
async fn refused(Extension(Refused(limit)): Extension<Refused>) -> Response {
    unavailable(limit)
}

fn unavailable(limit: Limit) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::RETRY_AFTER, "60"),
            (header::CONNECTION, "close"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        format!("{}\n", limit.reason()),
    )
        .into_response()
}

/// `/`: the protocol for a WebSocket upgrade; otherwise the page, when one is served.
async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Extension(conn): Extension<Conn>,
    page: Option<Extension<Page>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    request: Request,
) -> Response {
    let ws = match (ws, page) {
        (Ok(ws), _) => ws,
        (Err(_), Some(Extension(page))) => return page.serve(request).await,
        (Err(rejection), None) => return rejection.into_response(),
    };
    let Conn {
        peer,
        slot,
        address,
        admission,
    } = conn;
    // Behind a trusted proxy, the client it names is counted now.
    let forwarded = request
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    let Some(client) = client_address(peer.ip(), forwarded, &admission.limits().trusted_proxies)
    else {
        hub.log()
            .info(&format!("{peer}: {}", Limit::NoClientAddress.reason()));
        return unavailable(Limit::NoClientAddress);
    };
    let address = match address {
        Some(address) => address,
        None => match admission.address_slot(client) {
            Ok(address) => Arc::new(address),
            Err(limit) => {
                hub.metrics().turned_away(limit.name());
                hub.log()
                    .info(&format!("{client} (through {peer}): {}", limit.reason()));
                return unavailable(limit);
            }
        },
    };
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .read_buffer_size(SOCKET_BUFFER_BYTES)
        .write_buffer_size(SOCKET_BUFFER_BYTES)
        .max_write_buffer_size(2 * MAX_FRAME_BYTES)
        .on_upgrade(move |socket| async move {
            let peer = SocketAddr::new(client, peer.port());
            Session::run(hub, admission, peer, socket).await;
            drop((slot, address));
        })
}

/// Any other path: a file of the page's bundle.
async fn page_file(Extension(page): Extension<Page>, request: Request) -> Response {
    page.serve(request).await
}

/// One client's connection.
struct Session {
    hub: Arc<Hub>,
    admission: Arc<Admission>,
    peer: SocketAddr,
    socket: WebSocket,
    player: Option<(PlayerId, String)>,
    /// The player's place among their connections, held while signed in.
    player_slot: Option<Slot>,
    /// The refusals written to the log, and those only counted.
    refusals: Repeats,
    outbox: mpsc::Sender<ServerFrame>,
    /// The games followed, each with the task passing on its events and whether the player
    /// counts as present in it.
    following: HashMap<GameId, (JoinHandle<()>, bool)>,
    personal: Option<JoinHandle<()>>,
    bad_frames: u32,
    /// The players whose table talk this player muted: their lines are not passed on.
    muted: Muted,
    /// The protocol version the client said hello in: frames go to it in that version's shape.
    version: u32,
}

/// Players muted by a session's player, shared with the tasks passing on its games' events.
type Muted = Arc<std::sync::RwLock<HashSet<PlayerId>>>;

/// What to do with the connection after a frame.
enum Next {
    Go,
    Close,
}

impl Session {
    async fn run(hub: Arc<Hub>, admission: Arc<Admission>, peer: SocketAddr, socket: WebSocket) {
        let (outbox, mut out) = mpsc::channel(256);
        let mut session = Session {
            hub,
            admission,
            peer,
            socket,
            player: None,
            player_slot: None,
            refusals: Repeats::writing("refusals", REFUSALS_LOGGED),
            outbox,
            following: HashMap::new(),
            personal: None,
            bad_frames: 0,
            muted: Muted::default(),
            version: PROTOCOL_VERSION,
        };
        let limits = session.admission.limits();
        let (hello_within, ping_after) = (limits.hello_within, limits.ping_after);
        let hello_by = tokio::time::Instant::now() + hello_within;
        let mut closing = session.hub.closing();
        // Heard from last; pinged when silent for `ping_after`, closed when silent for twice.
        let mut heard = tokio::time::Instant::now();
        let mut pinged = false;
        loop {
            if *closing.borrow_and_update() {
                session.going_away().await;
                break;
            }
            let quiet_until = heard + if pinged { 2 * ping_after } else { ping_after };
            let next = tokio::select! {
                frame = session.socket.recv() => {
                    heard = tokio::time::Instant::now();
                    pinged = false;
                    match frame {
                    Some(Ok(Message::Text(text))) => session.read(text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => {
                        session.refuse_frame("frames are JSON text".into()).await
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Next::Go,
                    Some(Ok(Message::Close(_))) | None => Next::Close,
                    Some(Err(e)) => {
                        session.log(&format!("connection lost: {e}"));
                        Next::Close
                    }
                }},
                Some(frame) = out.recv() => session.send(frame).await,
                () = tokio::time::sleep_until(hello_by), if session.player.is_none() => {
                    session.log("said no hello in time");
                    Next::Close
                }
                () = tokio::time::sleep_until(quiet_until), if session.player.is_some() => {
                    if pinged {
                        session.log("answered nothing, not even a ping; closed");
                        session.close_idle().await;
                        Next::Close
                    } else {
                        pinged = true;
                        session.ping().await
                    }
                }
                _ = closing.changed() => Next::Go,
            };
            if let Next::Close = next {
                break;
            }
        }
        session.end();
    }

    fn who(&self) -> String {
        match &self.player {
            Some((id, _)) => format!("{} {}", self.peer, id.0),
            None => self.peer.to_string(),
        }
    }

    fn log(&self, line: &str) {
        self.hub.log().info(&format!("{}: {line}", self.who()));
    }

    /// Closes the connection because the server shuts down (WebSocket code 1001, going away);
    /// the client may connect again to another server or later.
    async fn going_away(&mut self) {
        let close = Message::Close(Some(CloseFrame {
            code: close_code::AWAY,
            reason: "the server is shutting down".into(),
        }));
        let _ = tokio::time::timeout(Duration::from_secs(2), self.socket.send(close)).await;
        self.log("closed: the server is shutting down");
    }

    /// Asks a silent client to show it is there (browsers and tungstenite answer by themselves).
    async fn ping(&mut self) -> Next {
        let ping = Message::Ping(Default::default());
        match tokio::time::timeout(SEND_WITHIN, self.socket.send(ping)).await {
            Ok(Ok(())) => Next::Go,
            _ => Next::Close,
        }
    }

    /// Closes a session that answered nothing (WebSocket code 1001: it may connect again).
    async fn close_idle(&mut self) {
        let close = Message::Close(Some(CloseFrame {
            code: close_code::AWAY,
            reason: "idle: nothing heard, not even an answer to a ping".into(),
        }));
        let _ = tokio::time::timeout(Duration::from_secs(2), self.socket.send(close)).await;
    }

    async fn send(&mut self, frame: ServerFrame) -> Next {
        // In the shape of the client's version; nothing of what it does not know.
        let Some(text) = versions::frame_for(self.version, &frame) else {
            return Next::Go;
        };
        match tokio::time::timeout(SEND_WITHIN, self.socket.send(Message::Text(text.into()))).await
        {
            Ok(Ok(())) => Next::Go,
            Ok(Err(_)) => Next::Close,
            Err(_) => {
                self.log("does not read what it is sent; closed");
                Next::Close
            }
        }
    }

    async fn refuse(&mut self, req: u64, refusal: Refusal, closing: bool) -> Next {
        // What a refusal says may hold what the client sent: escaped, and counted in floods.
        self.hub.metrics().refused(&refusal);
        let line = format!("{}: refused: {}", self.who(), escaped(&refusal.to_string()));
        self.refusals.note(self.hub.log(), &line);
        let sent = self.send(ServerFrame::refused(req, refusal, closing)).await;
        if closing { Next::Close } else { sent }
    }

    async fn refuse_frame(&mut self, why: String) -> Next {
        self.bad_frames += 1;
        let closing = self.bad_frames > BAD_FRAMES_ALLOWED || self.player.is_none();
        self.refuse(0, Refusal::BadFrame { why }, closing).await
    }

    /// Refuses a client of another protocol version and closes: in the shape of a refusal its
    /// version reads (versions before 3 know no refusal codes).
    async fn refuse_version(&mut self, req: u64, client: u64) -> Next {
        let refusal = Refusal::Version {
            server: PROTOCOL_VERSION,
            client,
        };
        if client >= 3 {
            return self.refuse(req, refusal, true).await;
        }
        self.log(&format!("refused: {}", escaped(&refusal.to_string())));
        let text = refused_in_old_shape(req, &refusal.to_string(), true);
        let _ =
            tokio::time::timeout(SEND_WITHIN, self.socket.send(Message::Text(text.into()))).await;
        Next::Close
    }

    async fn read(&mut self, text: &str) -> Next {
        let frame: ClientFrame = match serde_json::from_str(text) {
            Ok(frame) => frame,
            Err(e) => {
                // A client of another version says hello differently: tell it so.
                if let Some(version) = hello_version(text)
                    && !u32::try_from(version).is_ok_and(versions::served)
                {
                    return self.refuse_version(0, version).await;
                }
                return self.refuse_frame(e.to_string()).await;
            }
        };
        self.bad_frames = 0;
        let req = frame.req;
        let answer = match (&self.player, frame.ask) {
            (
                None,
                Ask::Hello {
                    version,
                    identity,
                    language,
                },
            ) => {
                if !versions::served(version) {
                    return self.refuse_version(req, u64::from(version)).await;
                }
                self.version = version;
                if let Identity::New { .. } = identity
                    && let Err(e) = self.admission.rate(Rated::NewPlayer, self.peer.ip())
                {
                    return self.refuse(req, e, true).await;
                }
                match self.hub.sign_in(&identity).await {
                    Ok((id, name, key)) => {
                        match self.admission.player_slot(&id) {
                            Ok(slot) => self.player_slot = Some(slot),
                            Err(e) => return self.refuse(req, e, true).await,
                        }
                        self.log(&format!(
                            "signed in as {} ({}), protocol {version}",
                            id.0,
                            escaped(&name)
                        ));
                        self.hub.metrics().session(true);
                        self.player = Some((id.clone(), name.clone()));
                        *write(&self.muted) = self.hub.muted_by(&id).await;
                        if let Some(language) = &language {
                            self.hub.note_language(&id, language).await;
                        }
                        self.listen_personal(&id);
                        Ok(Answer::Welcome {
                            version: PROTOCOL_VERSION,
                            player: id,
                            name,
                            key,
                        })
                    }
                    Err(e) => return self.refuse(req, e, true).await,
                }
            }
            (None, _) => {
                return self.refuse(req, Refusal::HelloFirst, true).await;
            }
            (Some(_), Ask::Hello { .. }) => Err(Refusal::AlreadySignedIn),
            (Some((player, _)), ask) => {
                let player = player.clone();
                let hub = self.hub.clone();
                // Held while the answer commits; a shutdown waits for it.
                let Some(_open) = hub.hold().await else {
                    return self.refuse(req, Refusal::ShuttingDown, true).await;
                };
                self.answer(&player, ask).await
            }
        };
        match answer {
            Ok(answer) => self.send(ServerFrame::Reply { req, answer }).await,
            Err(e) => self.refuse(req, e, false).await,
        }
    }

    async fn answer(&mut self, player: &PlayerId, ask: Ask) -> Result<Answer, Refusal> {
        let hub = self.hub.clone();
        let rated = match &ask {
            Ask::Create { .. } | Ask::Rematch { .. } => Some(Rated::NewGame),
            Ask::Join { .. } | Ask::Watch { .. } => Some(Rated::Code),
            _ => None,
        };
        if let Some(kind) = rated {
            self.admission.rate(kind, self.peer.ip())?;
        }
        if let Ask::Say { .. } = ask {
            self.admission.rate_talk(player)?;
        }
        match ask {
            Ask::Hello { .. } => Err(Refusal::AlreadySignedIn),
            Ask::Create { game } => hub.create(player, game).await,
            Ask::Join { code, kingdom } => {
                let (view, events) = hub.join(player, &code, kingdom).await?;
                self.follow(&view.id, events, true);
                Ok(Answer::Game(Box::new(view)))
            }
            Ask::Open { game } => {
                let (view, events) = hub.open(player, &game).await?;
                self.follow(&view.id, events, true);
                Ok(Answer::Game(Box::new(view)))
            }
            Ask::Watch { code } => {
                let (view, events) = hub.watch(player, &code).await?;
                self.follow(&view.id, events, false);
                Ok(Answer::Game(Box::new(view)))
            }
            Ask::Close { game } => {
                self.unfollow(&game);
                Ok(Answer::Done)
            }
            Ask::Games {} => Ok(Answer::Games {
                games: hub.games(player).await?,
            }),
            Ask::Finished { page } => hub.finished(player, page).await,
            Ask::Rematch { game } => hub.rematch(player, &game).await,
            Ask::Move { game, ply, mv } => {
                let ply = hub.play(player, &game, ply, &mv).await?;
                Ok(Answer::Moved { ply })
            }
            Ask::TakeBack { game, ply } => hub.ask_take_back(player, &game, ply).await,
            Ask::AnswerTakeBack { game, agree } => hub.answer_take_back(player, &game, agree).await,
            Ask::Say { game, text } => hub.say(player, &game, &text).await,
            Ask::Away { until } => hub.away(player, until.as_deref()).await,
            Ask::Holidays {} => hub.holidays(player).await,
            Ask::Mail {} => Ok(Answer::Mail(hub.mail_view(player).await?)),
            Ask::SetMail { address, digest } => {
                hub.set_mail(player, address.as_deref(), digest).await
            }
            Ask::Talk { game, before } => {
                let follows = self.following.contains_key(&game);
                hub.talk(player, &game, before, follows).await
            }
            Ask::Mute { game, seat, mute } => {
                let follows = self.following.contains_key(&game);
                let muted = hub.mute(player, &game, seat, mute, follows).await?;
                let mut set = write(&self.muted);
                if mute {
                    set.insert(muted);
                } else {
                    set.remove(&muted);
                }
                Ok(Answer::Done)
            }
        }
    }

    /// Passes a game's events to the client from now on; `present` when the hub counts the
    /// player as having it open (joined or opened, not watched).
    fn follow(&mut self, game: &GameId, events: broadcast::Receiver<Event>, present: bool) {
        self.unfollow(game);
        let task = tokio::spawn(forward(
            game.clone(),
            events,
            self.outbox.clone(),
            self.muted.clone(),
        ));
        self.following.insert(game.clone(), (task, present));
    }

    fn unfollow(&mut self, game: &GameId) {
        if let Some((task, present)) = self.following.remove(game) {
            task.abort();
            if present && let Some((player, _)) = &self.player {
                self.hub.follow(game, player, false);
            }
        }
    }

    fn listen_personal(&mut self, player: &PlayerId) {
        let mut events = self.hub.personal(player);
        let outbox = self.outbox.clone();
        self.personal = Some(tokio::spawn(async move {
            loop {
                match events.recv().await {
                    Ok(event) => {
                        if outbox.send(ServerFrame::Event { event }).await.is_err() {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        }));
    }

    fn end(mut self) {
        let games: Vec<GameId> = self.following.keys().cloned().collect();
        for game in games {
            self.unfollow(&game);
        }
        if let Some(task) = self.personal.take() {
            task.abort();
        }
        self.refusals.flush(self.hub.log());
        if self.player.is_some() {
            self.hub.metrics().session(false);
        }
        self.log("left");
    }
}

/// The set of muted players, to read or change (one a panic left behind is as good as any).
fn write(muted: &Muted) -> std::sync::RwLockWriteGuard<'_, HashSet<PlayerId>> {
    muted
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Passes a game's events to a session's outbox, but for the table talk of players it
/// `muted`; a follower that fell behind is told to read the game afresh.
async fn forward(
    game: GameId,
    mut events: broadcast::Receiver<Event>,
    outbox: mpsc::Sender<ServerFrame>,
    muted: Muted,
) {
    loop {
        let event = match events.recv().await {
            Ok(Event::Said { line, .. })
                if line.author.as_ref().is_some_and(|author| {
                    muted
                        .read()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .contains(author)
                }) =>
            {
                continue;
            }
            Ok(event) => event,
            Err(broadcast::error::RecvError::Lagged(_)) => Event::Stale { game: game.clone() },
            Err(broadcast::error::RecvError::Closed) => return,
        };
        if outbox.send(ServerFrame::Event { event }).await.is_err() {
            return;
        }
    }
}

/// The version in a hello that does not read as this version's hello.
fn hello_version(text: &str) -> Option<u64> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let ask = value.get("ask")?;
    (ask.get("type")?.as_str()? == "hello").then_some(())?;
    ask.get("version")?.as_u64()
}
