//! A client on a thread of its own, for a program that cannot wait (the game window, which
//! draws a frame at a time): requests go in tagged, and whatever the server says comes out as
//! [`News`] to be polled. The thread connects (starting a server of its own first, when asked:
//! the window's server for a LAN evening), signs in with the key kept for that server, and
//! connects again after a lost connection.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

use crate::client::{Client, ClientError, Trust};
use crate::keys::{SignInError, sign_in};
use crate::log::Log;
use crate::protocol::Ask;
pub use crate::protocol::link::News;
use crate::server::{ServerConfig, serve};

/// How long the thread waits before connecting again.
pub const RECONNECT_AFTER: Duration = Duration::from_secs(2);

/// Where the link goes.
#[derive(Clone, Debug)]
pub enum Target {
    /// A server elsewhere: its URL, and an extra authority to trust for `wss://`.
    Remote {
        /// `ws://HOST:PORT` or `wss://HOST:PORT`.
        url: String,
        /// An extra authority's certificate (PEM).
        ca: Option<PathBuf>,
        /// Plain `ws://` to another machine allowed (a network the player trusts).
        insecure_lan: bool,
    },
    /// A server of the link's own, on this thread's runtime.
    Own(Box<ServerConfig>),
}

/// The link: send requests, poll news.
pub struct Link {
    asks: tokio::sync::mpsc::UnboundedSender<(u64, Ask)>,
    news: Mutex<mpsc::Receiver<News>>,
    next_tag: u64,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link").finish_non_exhaustive()
    }
}

impl Link {
    /// Starts the thread: to `target`, as the player whose key for it is kept in `keys_dir`
    /// (or as a new player called `name`, whose key is then kept there), who reads `language`
    /// (`en`, `sv`, `zh`). `log` receives the own server's lines.
    pub fn start(
        target: Target,
        name: String,
        language: Option<String>,
        keys_dir: PathBuf,
        log: Log,
    ) -> Link {
        let (asks, asked) = tokio::sync::mpsc::unbounded_channel();
        let (tell, news) = mpsc::channel();
        std::thread::Builder::new()
            .name("online link".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = tell.send(News::NotServing(e.to_string()));
                        return;
                    }
                };
                rt.block_on(run(target, name, language, keys_dir, log, asked, tell));
            })
            .expect("a thread can be started");
        Link {
            asks,
            news: Mutex::new(news),
            next_tag: 1,
        }
    }

    /// Sends a request; its answer comes as [`News::Answer`] with the tag returned.
    pub fn ask(&mut self, ask: Ask) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        let _ = self.asks.send((tag, ask));
        tag
    }

    /// Everything the link has to report since the last poll.
    pub fn poll(&self) -> Vec<News> {
        let news = self.news.lock().unwrap_or_else(|e| e.into_inner());
        news.try_iter().collect()
    }
}

async fn run(
    target: Target,
    name: String,
    language: Option<String>,
    keys_dir: PathBuf,
    log: Log,
    mut asked: tokio::sync::mpsc::UnboundedReceiver<(u64, Ask)>,
    tell: mpsc::Sender<News>,
) {
    let (url, trust, _server) = match target {
        Target::Remote {
            url,
            ca,
            insecure_lan,
        } => (
            url,
            Trust {
                extra_ca: ca,
                insecure_lan,
            },
            None,
        ),
        Target::Own(config) => match serve(&config, log).await {
            Ok(running) => {
                let url = format!("ws://127.0.0.1:{}", running.addr.port());
                let _ = tell.send(News::Serving { url: url.clone() });
                (url, Trust::default(), Some(running))
            }
            Err(e) => {
                let _ = tell.send(News::NotServing(e.to_string()));
                return;
            }
        },
    };
    loop {
        match sign_in(&url, &name, language.as_deref(), &trust, &keys_dir).await {
            Ok((mut client, welcome)) => {
                let server = welcome.server_version;
                let (player, name) = (welcome.player, welcome.name);
                if tell.send(News::Connected { player, name }).is_err() {
                    return;
                }
                if crate::protocol::versions::behind(server)
                    && tell.send(News::Behind { server }).is_err()
                {
                    return;
                }
                let lost = serve_link(&mut client, &mut asked, &tell).await;
                match lost {
                    None => return, // The window closed the link.
                    Some(why) => {
                        if tell.send(News::Lost(why)).is_err() {
                            return;
                        }
                    }
                }
            }
            Err(SignInError::Client(e @ ClientError::Refused { .. }))
            | Err(SignInError::Client(e @ ClientError::Address(_)))
            | Err(SignInError::Client(e @ ClientError::Insecure(_)))
            | Err(SignInError::Client(e @ ClientError::Tls(_))) => {
                let _ = tell.send(News::Refused(e));
                return;
            }
            Err(SignInError::Keys(e)) => {
                let _ = tell.send(News::NoKeys(e.to_string()));
                return;
            }
            Err(e) => {
                if tell.send(News::Lost(e.to_string())).is_err() {
                    return;
                }
            }
        }
        // Requests made while away fail at once rather than wait.
        tokio::time::sleep(RECONNECT_AFTER).await;
        while let Ok((tag, _)) = asked.try_recv() {
            let result = Err(ClientError::Connection("not connected".to_owned()));
            if tell.send(News::Answer { tag, result }).is_err() {
                return;
            }
        }
    }
}

/// Passes requests and news until the connection is lost (`Some(why)`) or the link's owner
/// has gone (`None`).
async fn serve_link(
    client: &mut Client,
    asked: &mut tokio::sync::mpsc::UnboundedReceiver<(u64, Ask)>,
    tell: &mpsc::Sender<News>,
) -> Option<String> {
    loop {
        tokio::select! {
            request = asked.recv() => {
                let (tag, ask) = request?;
                let result = client.ask(ask).await;
                let lost = match &result {
                    Err(e) if e.is_lost() => Some(e.to_string()),
                    _ => None,
                };
                tell.send(News::Answer { tag, result }).ok()?;
                // Events that arrived while the answer was awaited.
                while let Some(event) = client.take_event() {
                    tell.send(News::Event(event)).ok()?;
                }
                if let Some(why) = lost {
                    return Some(why);
                }
            }
            event = client.next_event() => match event {
                Ok(event) => tell.send(News::Event(event)).ok()?,
                Err(e) => return Some(e.to_string()),
            },
        }
    }
}
