//! The server's command line, shared by the standalone `qiguo-server` binary and the game's
//! `qiguo server`: its options, the log it writes (text or JSON lines through `tracing`), and
//! a run that serves until SIGTERM or Ctrl-C and then shuts down gracefully.

use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};

mod operator;
mod worker;

pub use operator::{
    ConductCommand, MAX_PUZZLES_PRINTED, OperatorError, TalkCommand, TournamentArgs, backup,
    conduct, puzzles, talk, tournament,
};
pub use worker::review;

use crate::admission::Limits;
use crate::log::Log;
use crate::log::note;
use crate::mail::{MailConfig, MailTiming, PASSWORD_VAR, SmtpUrl};
use crate::protocol::DEFAULT_PORT;
use crate::server::{ServerConfig, serve};

/// The server's database file in the data directory, unless `--db` says otherwise.
pub const SERVER_DB: &str = "server.sqlite";

/// The environment variable naming the data directory (the game's saves use the same).
pub const DATA_DIR_VAR: &str = "QIGUO_DATA_DIR";

/// How long a graceful shutdown waits for connections to close before the process ends anyway.
pub const SHUTDOWN_WITHIN: Duration = Duration::from_secs(10);

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One line of text per event: time, level, message.
    #[default]
    Text,
    /// One JSON object per line (time, level, target, message), for a log collector.
    Json,
}

/// Options of the server.
#[derive(Args, Debug, Clone)]
pub struct ServerArgs {
    /// The address to listen on: loopback unless told otherwise (0.0.0.0 for every network,
    /// which needs TLS or --insecure-lan).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The TCP port to listen on.
    #[arg(long, value_name = "P", default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Serve on the listening socket given as standard input instead of binding --bind and
    /// --port: systemd's StandardInput=socket, inetd's wait mode, or a test that keeps its port.
    #[arg(long, conflicts_with_all = ["bind", "port"])]
    pub listen_stdin: bool,
    /// The database: `sqlite://FILE` (created, with its folder, if missing) or
    /// `postgres://USER@HOST/DB`. By default server.sqlite in the data directory
    /// (QIGUO_DATA_DIR, or the platform's data directory for qiguo).
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
    /// The certificate chain (PEM) to serve TLS (wss://) with.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Serve unencrypted on an address other than loopback (a home network you trust).
    #[arg(long)]
    pub insecure_lan: bool,
    /// Connections served at once, in all; more are told the server is full (HTTP 503).
    #[arg(long, value_name = "N", default_value_t = 4096,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Connections served at once from one address (IPv6: one /64); raise it for a load test
    /// from one machine.
    #[arg(long, value_name = "N", default_value_t = 32,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections_per_address: u32,
    /// Connections one signed-in player may have open at once.
    #[arg(long, value_name = "N", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_connections_per_player: u32,
    /// Unfinished games one player may hold a seat in.
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_games_per_player: u32,
    /// Days of holiday a player may take a calendar year (UTC): days away stop their
    /// correspondence clocks.
    #[arg(long, value_name = "DAYS", default_value_t = crate::hub::HOLIDAY_DAYS,
          value_parser = clap::value_parser!(u32).range(0..=366))]
    pub holiday_days: u32,
    /// New players one address may make a minute.
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub new_players_per_minute: u32,
    /// New games one address may create a minute.
    #[arg(long, value_name = "N", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub new_games_per_minute: u32,
    /// Invitation codes one address may look up a minute (joining or watching).
    #[arg(long, value_name = "N", default_value_t = 60,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub codes_per_minute: u32,
    /// Lines of table talk one player may write a minute.
    #[arg(long, value_name = "N", default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub talk_per_minute: u32,
    /// A reverse proxy in front of the server whose X-Forwarded-For names the client (and
    /// whose connections are counted by that client); repeat for several. Nobody else's
    /// X-Forwarded-For is believed.
    #[arg(long, value_name = "ADDR")]
    pub trusted_proxy: Vec<IpAddr>,
    /// Seconds a client has for each step before it is signed in: the TLS handshake, each
    /// HTTP request's headers, the hello.
    #[arg(long, value_name = "S", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=300))]
    pub hello_within: u64,
    /// Seconds a signed-in session may be silent before it is pinged; silent for twice as
    /// long, it is closed.
    #[arg(long, value_name = "S", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub ping_after: u64,
    /// Serve the metrics (Prometheus's text format, at /metrics) on this address, e.g.
    /// 127.0.0.1:9206: keep it off the public network.
    #[arg(long, value_name = "ADDR:PORT")]
    pub metrics: Option<std::net::SocketAddr>,
    /// Serve the browser's game from this bundle (made by tools/build-web) on the same port:
    /// `/` for the page, `/join/CODE` and `/watch/CODE` for invitations.
    #[arg(long, value_name = "DIR")]
    pub web: Option<PathBuf>,
    /// E-mail players who are away through this relay: smtp://[USER@]HOST[:PORT] (STARTTLS,
    /// port 587; unencrypted only to a relay on this machine) or smtps://[USER@]HOST[:PORT]
    /// (TLS, port 465). The password comes from QIGUO_SMTP_PASSWORD or --smtp-password-file,
    /// never the command line. Without it the server sends no e-mail, and says so.
    #[arg(long, value_name = "URL", requires_all = ["public_url", "mail_from"])]
    pub smtp: Option<String>,
    /// A file holding the relay's password (its first line).
    #[arg(long, value_name = "FILE", requires = "smtp")]
    pub smtp_password_file: Option<PathBuf>,
    /// Who the e-mails are from: an address, or `Name <address>`.
    #[arg(long, value_name = "ADDRESS", requires = "smtp")]
    pub mail_from: Option<String>,
    /// The address players reach this server at, https://HOST[:PORT]: the e-mails' links
    /// point there, and the links a game's page gives for its picture (without it, the host
    /// the page was asked for by).
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Push notifications to players' devices (Web Push), telling the push services how to reach
    /// the operator: mailto:ADDRESS or https://PAGE. The server's key pair is made at the first
    /// start and kept in the database. Pages can subscribe only where the page is served over
    /// https (or on this machine). Without it the server pushes nothing.
    #[arg(long, value_name = "CONTACT")]
    pub push: Option<String>,
    /// A push service posted to, by host name (its subdomains too); repeat it for more. Without
    /// it, the browsers' own: fcm.googleapis.com, push.services.mozilla.com, push.apple.com and
    /// notify.windows.com. Endpoints elsewhere are refused.
    #[arg(long, value_name = "HOST", requires = "push")]
    pub push_service: Vec<String>,
    /// Seconds between two looks at the outbox (e-mails and notifications).
    #[arg(long, value_name = "S", default_value_t = 5,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub mail_every: u64,
    /// Seconds after a correspondence turn begins that its e-mail and notification are written
    /// (a player who comes meanwhile is told on their connection, and sent nothing).
    #[arg(long, value_name = "S", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub mail_turn_after: u64,
    /// Seconds before an e-mail the relay (or a notification a push service) did not take is
    /// tried again; each further try waits twice as long, at most an hour.
    #[arg(long, value_name = "S", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub mail_retry_after: u64,
    /// Finished games reviewed at once (every finished quick, table or rated game, and those
    /// players ask for), each on one thread at the lowest priority that gives way to the
    /// computers' searches; 0 leaves them to workers on the same database (`qiguo-server
    /// review`).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(0..=64))]
    pub reviewers: u32,
    /// Positions a review searches for each move of a game (the reviews' strength and cost: a
    /// small machine may give fewer, a big one more).
    #[arg(long, value_name = "N", default_value_t = qiguo_ai::review::REVIEW_NODES,
          value_parser = clap::value_parser!(u64).range(1_000..=10_000_000))]
    pub review_nodes: u64,
    /// Which lines to log: error, warn, info, debug or trace, or a `tracing` filter such as
    /// `qiguo_server=debug,sqlx=warn`.
    #[arg(long, value_name = "FILTER", default_value = "info", env = "QIGUO_LOG")]
    pub log: String,
    /// How to write the log: text or json (one object per line).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub log_format: LogFormat,
}

/// The data directory: `QIGUO_DATA_DIR` if set, else the platform's data directory for qiguo.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(DATA_DIR_VAR).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "qiguo").map(|dirs| dirs.data_dir().to_owned())
}

/// The URL of the SQLite database `file` (the store makes it, and its folder, if missing).
pub fn sqlite_url(file: &Path) -> String {
    format!("sqlite://{}", file.display())
}

/// Why the options make no server: each says the option and what to write instead.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--db` is neither SQLite nor PostgreSQL.
    #[error("--db {0}: a database is sqlite://FILE or postgres://USER@HOST/DB")]
    Database(String),
    /// No `--db`, and no home directory to keep the database in.
    #[error("--db: no home directory to keep the database in; set {DATA_DIR_VAR}")]
    NoHome,
    /// `--listen-stdin` without a listening socket as standard input.
    #[error("--listen-stdin: {0}")]
    Stdin(String),
    /// `--web` names no page bundle.
    #[error(transparent)]
    Page(#[from] crate::page::NotABundle),
    /// `--push` names no way to reach the operator.
    #[error(transparent)]
    Contact(#[from] crate::push::ContactError),
    /// `--push-service` is no host name.
    #[error("--push-service {0}: write a push service's host name, such as fcm.googleapis.com")]
    PushService(String),
    /// `--smtp` is no relay's URL.
    #[error(transparent)]
    Smtp(#[from] crate::mail::SmtpUrlError),
    /// `--smtp-password-file` could not be read.
    #[error("--smtp-password-file {0}: {1}")]
    PasswordFile(String, std::io::Error),
    /// The relay's password came both ways.
    #[error(
        "the relay's password is given twice: in {PASSWORD_VAR} and --smtp-password-file; keep one"
    )]
    PasswordTwice,
    /// The relay's user came without a password.
    #[error(
        "--smtp: the relay's user {0} needs a password: set {PASSWORD_VAR} or --smtp-password-file"
    )]
    NoPassword(String),
    /// `--mail-from` is no address.
    #[error("--mail-from {0}: not an address ({1})")]
    MailFrom(String, String),
    /// `--public-url` is no https address.
    #[error(transparent)]
    PublicUrl(#[from] crate::mail::PublicUrlError),
    /// `--log` is no filter.
    #[error("--log {0}: {1}")]
    LogFilter(String, String),
    /// The log could not be installed.
    #[error("cannot start the log: {0}")]
    Log(String),
}

impl ServerArgs {
    /// The server's configuration, or why the options cannot make one.
    pub fn config(&self) -> Result<ServerConfig, ConfigError> {
        let db = match &self.db {
            Some(url) if url.starts_with("sqlite:") || url.starts_with("postgres") => url.clone(),
            Some(url) => return Err(ConfigError::Database(url.clone())),
            None => {
                let dir = data_dir().ok_or(ConfigError::NoHome)?;
                sqlite_url(&dir.join(SERVER_DB))
            }
        };
        let mut config = ServerConfig::new(db);
        config.bind = self.bind;
        config.port = self.port;
        if self.listen_stdin {
            config.listener = Some(std::sync::Arc::new(listener_on_stdin()?));
        }
        config.tls = self.tls_cert.clone().zip(self.tls_key.clone());
        config.insecure_lan = self.insecure_lan;
        config.limits = Limits {
            connections: self.max_connections as usize,
            per_address: self.max_connections_per_address as usize,
            per_player: self.max_connections_per_player as usize,
            games_per_player: self.max_games_per_player,
            new_players_per_minute: self.new_players_per_minute,
            new_games_per_minute: self.new_games_per_minute,
            codes_per_minute: self.codes_per_minute,
            talk_per_minute: self.talk_per_minute,
            trusted_proxies: self.trusted_proxy.clone(),
            hello_within: Duration::from_secs(self.hello_within),
            ping_after: Duration::from_secs(self.ping_after),
        };
        config.metrics = self.metrics;
        config.holiday_days = self.holiday_days;
        config.reviewers = self.reviewers as usize;
        config.review_nodes = self.review_nodes;
        if let Some(dir) = &self.web {
            config.web = Some(crate::page::Page::at(dir)?);
        }
        config.mail = self.mail_config()?;
        config.public_url = match &self.public_url {
            Some(url) => Some(crate::mail::public_url(url)?),
            None => None,
        };
        config.push = self.push_config()?;
        Ok(config)
    }

    /// The outbox's timing the options ask for.
    fn timing(&self) -> MailTiming {
        MailTiming {
            every: Duration::from_secs(self.mail_every),
            retry_after: Duration::from_secs(self.mail_retry_after),
            turn_after: Duration::from_secs(self.mail_turn_after),
        }
    }

    /// The notifications the options ask for (none without `--push`).
    fn push_config(&self) -> Result<Option<crate::push::PushConfig>, ConfigError> {
        let Some(given) = &self.push else {
            return Ok(None);
        };
        let contact = crate::push::contact(given)?;
        let mut services = Vec::new();
        for host in &self.push_service {
            let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
            if host.is_empty()
                || host.contains(['/', ':', '@', ' '])
                || host.parse::<std::net::IpAddr>().is_ok()
            {
                return Err(ConfigError::PushService(host));
            }
            services.push(host);
        }
        if services.is_empty() {
            services = crate::push::PUSH_SERVICES
                .iter()
                .map(|s| (*s).to_owned())
                .collect();
        }
        Ok(Some(crate::push::PushConfig {
            contact,
            services,
            plain_http_loopback: false,
            timing: self.timing(),
        }))
    }

    /// The e-mail the options ask for (none without `--smtp`).
    fn mail_config(&self) -> Result<Option<MailConfig>, ConfigError> {
        let Some(url) = &self.smtp else {
            return Ok(None);
        };
        let smtp: SmtpUrl = url.parse()?;
        let from_file = match &self.smtp_password_file {
            Some(file) => {
                let text = std::fs::read_to_string(file)
                    .map_err(|e| ConfigError::PasswordFile(file.display().to_string(), e))?;
                Some(text.lines().next().unwrap_or("").to_owned())
            }
            None => None,
        };
        let from_env = std::env::var(PASSWORD_VAR).ok().filter(|p| !p.is_empty());
        let password = match (from_file, from_env) {
            (Some(_), Some(_)) => return Err(ConfigError::PasswordTwice),
            (file, env) => file.or(env),
        };
        if let Some(user) = &smtp.user
            && password.is_none()
        {
            return Err(ConfigError::NoPassword(user.clone()));
        }
        let from = self.mail_from.as_deref().unwrap_or_default();
        let from = from.parse().map_err(|e: lettre::address::AddressError| {
            ConfigError::MailFrom(from.to_owned(), e.to_string())
        })?;
        let public = crate::mail::public_url(self.public_url.as_deref().unwrap_or_default())?;
        Ok(Some(MailConfig {
            smtp,
            password,
            from,
            public_url: public,
            timing: self.timing(),
        }))
    }

    /// Installs the process's log subscriber as the options say.
    fn install_log(&self) -> Result<(), ConfigError> {
        let filter = tracing_subscriber::EnvFilter::try_new(&self.log)
            .map_err(|e| ConfigError::LogFilter(self.log.clone(), e.to_string()))?;
        let builder = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stdout);
        let installed = match self.log_format {
            LogFormat::Text => builder.with_ansi(false).try_init(),
            LogFormat::Json => builder.json().flatten_event(true).try_init(),
        };
        installed.map_err(|e| ConfigError::Log(e.to_string()))
    }
}

/// The listening TCP socket that standard input is (Unix only).
#[cfg(unix)]
fn listener_on_stdin() -> Result<std::net::TcpListener, ConfigError> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| ConfigError::Stdin(e.to_string()))?;
    let listener = std::net::TcpListener::from(fd);
    match listener.local_addr() {
        Ok(_) => Ok(listener),
        Err(e) => Err(ConfigError::Stdin(format!(
            "standard input is not a listening TCP socket ({e})"
        ))),
    }
}

/// No socket comes as standard input on this platform.
#[cfg(not(unix))]
fn listener_on_stdin() -> Result<std::net::TcpListener, ConfigError> {
    Err(ConfigError::Stdin("only on Unix".to_owned()))
}

pub(crate) fn fail(program: &str, message: &str, code: u8) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "{program}: {message}");
    ExitCode::from(code)
}

/// Serves as `args` say until SIGTERM or Ctrl-C, then shuts down gracefully: no new
/// connections, the moves being committed finish, every connection is closed with a
/// going-away frame, the database is closed. Exit code 0 after a shutdown, 1 when the server
/// cannot start, 2 for options that make no server; these failures are one line on standard
/// error, after `program`'s name.
pub fn run(args: &ServerArgs, program: &str) -> ExitCode {
    let (config, rt) = match start_up(args, program) {
        Ok(started) => started,
        Err(code) => return code,
    };
    rt.block_on(async {
        let running = match serve(&config, Log::tracing()).await {
            Ok(running) => running,
            Err(e) => return fail(program, &e.to_string(), 1),
        };
        // Before the first connections come (a server that cannot start says only why).
        raise_open_files(config.limits.connections);
        if let Some(at) = running.metrics {
            note!(
                running.hub.log(),
                INFO,
                "metrics served",
                url = format!("http://{at}/metrics")
            );
        }
        let mut signals = Signals::new();
        let signal = loop {
            match signals.next().await {
                // A renewed certificate: read again, for the connections to come.
                "SIGHUP" => match running.reload_tls() {
                    Ok(()) => note!(
                        running.hub.log(),
                        INFO,
                        "SIGHUP: the certificate and key read again"
                    ),
                    Err(e) => note!(
                        running.hub.log(),
                        ERROR,
                        "SIGHUP: the certificate read before is kept",
                        why = e
                    ),
                },
                other => break other,
            }
        };
        note!(running.hub.log(), INFO, "shutting down", signal = signal);
        running.shutdown(SHUTDOWN_WITHIN).await;
        ExitCode::SUCCESS
    })
}

/// What a long-running command (the server, the review worker) starts with: the configuration
/// `args` make, the log installed, a runtime; or, said on standard error, why not (exit code 2
/// for options that make no configuration, 1 when the runtime cannot start).
fn start_up(
    args: &ServerArgs,
    program: &str,
) -> Result<(ServerConfig, tokio::runtime::Runtime), ExitCode> {
    let config = args
        .config()
        .map_err(|e| fail(program, &e.to_string(), 2))?;
    args.install_log()
        .map_err(|e| fail(program, &e.to_string(), 2))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| fail(program, &format!("cannot start: {e}"), 1))?;
    Ok((config, rt))
}

/// Raises the process's open-file limit to its hard limit (each connection is a file), and
/// warns when even that is below what the connections allowed need (with room for the
/// database and the page's files).
fn raise_open_files(connections: usize) {
    let want = connections as u64 + 256;
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) if limit < want => tracing::warn!(
            target: "qiguo_server",
            "the open-file limit is {limit}, below the {want} that --max-connections {connections} needs: \
             raise it (LimitNOFILE= in the service, ulimit -n) or lower --max-connections"
        ),
        Ok(limit) => tracing::info!(target: "qiguo_server", "open-file limit {limit}"),
        Err(e) => tracing::warn!(target: "qiguo_server", "the open-file limit not raised: {e}"),
    }
}

/// The signals the server answers: SIGTERM and Ctrl-C (SIGINT) shut it down, SIGHUP reads the
/// TLS certificate again.
struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hup: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn new() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Signals {
                term: signal(SignalKind::terminate()).ok(),
                hup: signal(SignalKind::hangup()).ok(),
            }
        }
        #[cfg(not(unix))]
        Signals {}
    }

    /// The next signal's name.
    async fn next(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            async fn recv(signal: &mut Option<tokio::signal::unix::Signal>) {
                match signal {
                    Some(signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending().await,
                }
            }
            tokio::select! {
                () = recv(&mut self.term) => "SIGTERM",
                () = recv(&mut self.hup) => "SIGHUP",
                _ = tokio::signal::ctrl_c() => "SIGINT",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}
