//! The server on the network: WebSocket connections (through TLS when given a certificate),
//! each a signed-in player's session speaking [`crate::protocol`] to the [`Hub`]. Here its
//! configuration, start and shutdown; the HTTP side (accept loop, upgrade, health, metrics,
//! the e-mail links' pages, the page's files) in `http`, one client's session in `session`.
//!
//! Plain connections are served only on a loopback address, or on another address when the
//! operator says `insecure_lan`: anywhere else the traffic would be readable, and keys with it.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;

use crate::log::note;
use crate::page::Page;
use axum::extract::Extension;
use axum::routing::get;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use crate::admission::{Admission, Limits};
use crate::hub::Hub;
use crate::hub::mail::Mailing;
use crate::log::Log;
use crate::protocol::{DEFAULT_PORT, PROTOCOL_VERSION};
use crate::store::{Store, StoreError};

mod http;
mod session;

use http::{
    accept_loop, forget_idle, game_animation, game_card, healthz, mail_link_asked,
    mail_link_followed, page_file, serve_metrics, standings_page, upgrade,
};

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
    /// The notifications it pushes to players' devices (`--push`); without it, none.
    pub push: Option<crate::push::PushConfig>,
    /// Where players reach the server, `https://HOST[:PORT]` (`--public-url`): the links in
    /// e-mails and those a game's page gives for its picture. Without it, a page's links name
    /// the host it was asked for by.
    pub public_url: Option<String>,
    /// Finished games reviewed at once here, each on a thread of the lowest priority that gives
    /// way to the computers' searches; 0 leaves the reviews to workers on the same database
    /// (`qiguo-server review`).
    pub reviewers: usize,
    /// Positions each review searches a move (`--review-nodes`).
    pub review_nodes: u64,
}

impl ServerConfig {
    /// Loopback, the default port, this database, no TLS, no reviewers (the command line's
    /// default is one).
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
            push: None,
            public_url: None,
            reviewers: 0,
            review_nodes: qiguo_ai::review::REVIEW_NODES,
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
    /// The certificate or key file could not be read.
    #[error("TLS: {}: {}", .0.display(), .1)]
    TlsFile(PathBuf, rustls::pki_types::pem::Error),
    /// The certificate file holds no certificate.
    #[error("TLS: {}: no certificate", .0.display())]
    NoCertificate(PathBuf),
    /// The certificate and key make no TLS configuration.
    #[error("TLS: {0}")]
    Tls(rustls::Error),
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
    #[error(transparent)]
    Mail(#[from] crate::mail::RelayError),
    /// Web Push could not be set up.
    #[error("push: {0}")]
    Push(rustls::Error),
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
            Ok(_) => note!(self.hub.log(), INFO, "every connection closed"),
            Err(_) => {
                let open = self.max_connections - self.slots.available_permits();
                note!(
                    self.hub.log(),
                    WARN,
                    "connections still open at the deadline; closed with the process",
                    open = open,
                    after_s = within.as_secs()
                );
            }
        }
        self.hub.close_store().await;
        note!(self.hub.log(), INFO, "stopped");
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
        .map_err(|e| ServeError::TlsFile(cert.clone(), e))?;
    if certs.is_empty() {
        return Err(ServeError::NoCertificate(cert.clone()));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| ServeError::TlsFile(key.clone(), e))?;
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(ServeError::Tls)?
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .map_err(ServeError::Tls)?;
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
    let pusher = match &config.push {
        Some(push) => Some(
            crate::push::Pusher::new(push.clone(), store.push_key().await?)
                .map_err(ServeError::Push)?,
        ),
        None => None,
    };
    let pictures = Arc::new(crate::pictures::Pictures::new(
        store.clone(),
        config.public_url.clone(),
        tls.is_some(),
    ));
    let hub = Hub::start(
        store,
        log,
        config.limits.games_per_player,
        config.holiday_days,
        mailing,
        pusher,
        config.reviewers,
        config.review_nodes,
    )
    .await?;
    let secure = tls.is_some();
    note!(
        hub.log(),
        INFO,
        "listening",
        url = format!("{}://{addr}", if secure { "wss" } else { "ws" }),
        protocol = PROTOCOL_VERSION
    );
    let mut router = Router::new()
        .route("/", get(upgrade))
        .route("/healthz", get(healthz))
        .route("/tournaments/{name}", get(standings_page))
        .route("/games/{code}/card.png", get(game_card))
        .route("/games/{code}/moves.gif", get(game_animation));
    match &config.mail {
        Some(mail) => {
            note!(
                hub.log(),
                INFO,
                "e-mail: sent through a relay",
                relay = format!("{}:{}", mail.smtp.host, mail.smtp.port),
                security = match mail.smtp.security {
                    crate::mail::Security::StartTls => "STARTTLS",
                    crate::mail::Security::Implicit => "TLS",
                    crate::mail::Security::Plain => "unencrypted, on this machine",
                },
                from = mail.from,
                links = mail.public_url
            );
            router = router.route(
                "/mail/{action}/{token}",
                get(mail_link_asked).post(mail_link_followed),
            );
        }
        None => note!(
            hub.log(),
            INFO,
            "e-mail: none sent (no --smtp); players are told so"
        ),
    }
    if let Some(page) = &config.web {
        note!(
            hub.log(),
            INFO,
            "serving the page",
            from = page.dir().display()
        );
        router = router.fallback(page_file).layer(Extension(page.clone()));
    }
    let router = router.layer(Extension(pictures));
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
