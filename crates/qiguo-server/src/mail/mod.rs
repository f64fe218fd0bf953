//! E-mail to players who are away: the relay the server is given (`--smtp`), the e-mails it
//! writes ([`compose`], in the player's language from [`texts`]) and how a sending went.
//!
//! What is sent and when is the hub's ([`crate::hub`]): a move of a correspondence game writes
//! its e-mails into the database's outbox in the move's own transaction, and a task of every
//! server sends what is due there, so that sending never delays a move and nothing is lost in a
//! restart.

pub mod compose;
pub mod texts;

use std::net::IpAddr;
use std::str::FromStr;
use std::time::Duration;

use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// The environment variable holding the relay's password.
pub const PASSWORD_VAR: &str = "QIGUO_SMTP_PASSWORD";

/// How long one conversation with the relay may take before it counts as failed (and is tried
/// again later).
pub const RELAY_TIMEOUT: Duration = Duration::from_secs(30);

/// How a connection to the relay is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// `smtp://` to another machine: plain at first, then TLS through STARTTLS, required.
    StartTls,
    /// `smtps://`: TLS from the first byte.
    Implicit,
    /// `smtp://` to a relay on this machine (a loopback address or `localhost`): unencrypted,
    /// as nothing leaves the machine.
    Plain,
}

/// The relay, as `--smtp` names it: `smtp://[USER@]HOST[:PORT]` (STARTTLS; unencrypted only to
/// loopback) or `smtps://[USER@]HOST[:PORT]` (implicit TLS). Never a password: that comes from
/// [`PASSWORD_VAR`] or a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmtpUrl {
    /// How the connection is protected.
    pub security: Security,
    /// The relay's host name or address.
    pub host: String,
    /// Its port (587 for STARTTLS and plain, 465 for implicit TLS unless given).
    pub port: u16,
    /// The user to sign in as, if any.
    pub user: Option<String>,
}

/// Why `--smtp` was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SmtpUrlError {
    /// Neither `smtp://` nor `smtps://`.
    #[error(
        "--smtp {0}: write smtp://[USER@]HOST[:PORT] (STARTTLS) or smtps://[USER@]HOST[:PORT] (TLS)"
    )]
    Scheme(String),
    /// A password in the URL, where every process list shows it.
    #[error(
        "--smtp: no password in the URL (it would show in the process list): put it in {PASSWORD_VAR} or a file named by --smtp-password-file"
    )]
    Password,
    /// No host, a bad port, or more after the host.
    #[error("--smtp {0}: {1}")]
    Malformed(String, &'static str),
}

impl FromStr for SmtpUrl {
    type Err = SmtpUrlError;

    fn from_str(url: &str) -> Result<SmtpUrl, SmtpUrlError> {
        let bad = |why| SmtpUrlError::Malformed(url.to_owned(), why);
        let (implicit, rest) = if let Some(rest) = url.strip_prefix("smtps://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("smtp://") {
            (false, rest)
        } else {
            return Err(SmtpUrlError::Scheme(url.to_owned()));
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest.contains(['/', '?', '#']) {
            return Err(bad("nothing may follow the host and port"));
        }
        let (user, place) = match rest.rsplit_once('@') {
            Some((user, place)) => {
                if user.contains(':') {
                    return Err(SmtpUrlError::Password);
                }
                let user = percent_decoded(user).ok_or_else(|| bad("the user is not UTF-8"))?;
                if user.is_empty() {
                    return Err(bad("an empty user"));
                }
                (Some(user), place)
            }
            None => (None, rest),
        };
        let (host, port) = if let Some(v6) = place.strip_prefix('[') {
            let (host, after) = v6.split_once(']').ok_or_else(|| bad("an unclosed ["))?;
            match after {
                "" => (host, None),
                _ => (
                    host,
                    Some(after.strip_prefix(':').ok_or_else(|| bad("a bad port"))?),
                ),
            }
        } else {
            match place.split_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (place, None),
            }
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let port = match port {
            Some(port) => port.parse().map_err(|_| bad("a bad port"))?,
            None if implicit => 465,
            None => 587,
        };
        let loopback = host.eq_ignore_ascii_case("localhost")
            || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
        let security = match (implicit, loopback) {
            (true, _) => Security::Implicit,
            (false, true) => Security::Plain,
            (false, false) => Security::StartTls,
        };
        Ok(SmtpUrl {
            security,
            host: host.to_owned(),
            port,
            user,
        })
    }
}

/// `%XX` escapes replaced by their bytes; `None` if the result is not UTF-8.
fn percent_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text
                .get(i + 1..i + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// How often and how patiently the server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MailTiming {
    /// How often the outbox is looked at.
    pub every: Duration,
    /// How long after a failed try the first retry comes; each further one waits twice as
    /// long, up to [`MAX_RETRY_AFTER`].
    pub retry_after: Duration,
    /// How long after a turn begins its *your move* e-mail is written (a player who comes
    /// meanwhile is told on their connection, and mailed nothing).
    pub turn_after: Duration,
}

/// The longest wait between two tries of one e-mail.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);

/// How many times an e-mail is tried before it is given up (with [`MAX_RETRY_AFTER`], about a
/// day of a relay down).
pub const MAX_ATTEMPTS: u32 = 30;

impl Default for MailTiming {
    fn default() -> MailTiming {
        MailTiming {
            every: Duration::from_secs(5),
            retry_after: Duration::from_secs(60),
            turn_after: Duration::from_secs(60),
        }
    }
}

impl MailTiming {
    /// How long to wait after the `attempts`-th failed try.
    pub fn backoff(&self, attempts: u32) -> Duration {
        let doubled = self
            .retry_after
            .saturating_mul(1u32 << attempts.saturating_sub(1).min(20));
        doubled.min(MAX_RETRY_AFTER.max(self.retry_after))
    }
}

/// The server's e-mail: the relay, who writes, and where links point.
#[derive(Clone, Debug)]
pub struct MailConfig {
    /// The relay.
    pub smtp: SmtpUrl,
    /// The relay's password, when it takes one.
    pub password: Option<String>,
    /// The sender, `Name <address>` or an address.
    pub from: lettre::message::Mailbox,
    /// The server's public address, `https://HOST[:PORT]` (no trailing slash): the e-mails'
    /// links point there.
    pub public_url: String,
    /// How often and how patiently.
    pub timing: MailTiming,
}

/// Why a public URL was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--public-url {0}: write the address players reach the server at, https://HOST[:PORT]")]
pub struct PublicUrlError(pub String);

/// A public URL as taken: `http(s)://HOST[:PORT]`, its trailing slash dropped.
pub fn public_url(url: &str) -> Result<String, PublicUrlError> {
    let trimmed = url.trim().trim_end_matches('/');
    let rest = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', '@', ' ']) => {
            Ok(trimmed.to_owned())
        }
        _ => Err(PublicUrlError(url.to_owned())),
    }
}

/// How a try to send went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendError {
    /// The relay is down, slow, or refused for now (a 4xx reply): try again later.
    Transient(String),
    /// The relay refused for good (a 5xx reply: no such mailbox, say): give up.
    Permanent(String),
}

/// The connection to the relay, made once and shared by the sending task.
#[derive(Clone)]
pub struct Relay {
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

/// Why the relay could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("--smtp: {0}")]
pub struct RelayError(#[from] lettre::transport::smtp::Error);

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Relay")
    }
}

impl Relay {
    /// The relay of `config` (no connection is made until the first e-mail).
    pub fn new(config: &MailConfig) -> Result<Relay, RelayError> {
        let smtp = &config.smtp;
        let builder = match smtp.security {
            Security::Implicit => AsyncSmtpTransport::<Tokio1Executor>::relay(&smtp.host)?,
            Security::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&smtp.host)?,
            Security::Plain => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host),
        };
        let mut builder = builder.port(smtp.port).timeout(Some(RELAY_TIMEOUT));
        if let Some(user) = &smtp.user {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                config.password.clone().unwrap_or_default(),
            ));
        }
        Ok(Relay {
            transport: builder.build(),
        })
    }

    /// Sends one e-mail.
    pub async fn send(&self, message: Message) -> Result<(), SendError> {
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() => Err(SendError::Permanent(e.to_string())),
            Err(e) => Err(SendError::Transient(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relays_are_read_with_their_protection() {
        let url: SmtpUrl = "smtp://game%40example.org@mail.example.org"
            .parse()
            .unwrap();
        assert_eq!(
            url,
            SmtpUrl {
                security: Security::StartTls,
                host: "mail.example.org".into(),
                port: 587,
                user: Some("game@example.org".into()),
            }
        );
        let url: SmtpUrl = "smtps://mail.example.org:2465/".parse().unwrap();
        assert_eq!(
            (url.security, url.port, url.user),
            (Security::Implicit, 2465, None)
        );
        for local in [
            "smtp://127.0.0.1:2525",
            "smtp://localhost",
            "smtp://[::1]:25",
        ] {
            let url: SmtpUrl = local.parse().unwrap();
            assert_eq!(url.security, Security::Plain, "{local}");
        }
        assert_eq!("smtp://[::1]:25".parse::<SmtpUrl>().unwrap().host, "::1");
        assert_eq!(
            "smtp://u:secret@mail.example.org".parse::<SmtpUrl>(),
            Err(SmtpUrlError::Password)
        );
        for bad in [
            "mail.example.org",
            "http://x",
            "smtp://",
            "smtp://h:x",
            "smtp://h/p",
            "smtp://@h",
        ] {
            assert!(bad.parse::<SmtpUrl>().is_err(), "{bad}");
        }
        // A password never appears in what a refusal says.
        let said = "smtp://u:hunter2@h"
            .parse::<SmtpUrl>()
            .unwrap_err()
            .to_string();
        assert!(!said.contains("hunter2"), "{said}");
    }

    #[test]
    fn public_urls_and_backoff() {
        assert_eq!(
            public_url("https://qiguo.example/").unwrap(),
            "https://qiguo.example"
        );
        assert_eq!(
            public_url("http://127.0.0.1:7206").unwrap(),
            "http://127.0.0.1:7206"
        );
        for bad in ["qiguo.example", "https://", "https://a/b", "ftp://a"] {
            assert!(public_url(bad).is_err(), "{bad}");
        }
        let timing = MailTiming::default();
        assert_eq!(timing.backoff(1), Duration::from_secs(60));
        assert_eq!(timing.backoff(2), Duration::from_secs(120));
        assert_eq!(timing.backoff(7), MAX_RETRY_AFTER);
        assert_eq!(timing.backoff(MAX_ATTEMPTS), MAX_RETRY_AFTER);
    }
}
