//! The link on the desktop: the link's state driven by Tokio on a thread of its own, for a
//! program that cannot wait (the game window, which draws a frame at a time). Requests go in
//! tagged through a channel; news comes out through another, polled once a frame. The thread
//! can first start a server of the window's own (a LAN evening), given as a [`Starter`].

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::mpsc;

use qiguo_protocol::Ask;
use qiguo_protocol::client::{ANSWER_WITHIN, ClientError, Transport};
use qiguo_protocol::link::News;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::socket::{Trust, WebSocket, open};
use crate::link_state::{LinkState, Who};
use crate::{Backoff, Wake};

/// Why a server the link was to start did not start: the server's own error (the client does
/// not know the server's types).
pub type StartError = Box<dyn std::error::Error + Send + Sync>;

/// Starts a server for the link on the link's own runtime: the server's URL on this machine,
/// and what keeps it running (dropped when the link ends).
pub type Starter = Box<
    dyn FnOnce() -> Pin<
            Box<dyn Future<Output = Result<(String, Box<dyn Any + Send>), StartError>> + Send>,
        > + Send,
>;

/// Where the link goes.
pub enum Target {
    /// A server elsewhere, trusted as `trust` says.
    Remote {
        /// `ws://HOST:PORT` or `wss://HOST:PORT`.
        url: String,
        /// Which servers are trusted.
        trust: Trust,
    },
    /// A server the link starts first ([`News::Serving`] says where, [`News::NotServing`]
    /// why not).
    Own(Starter),
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Remote { url, trust } => f
                .debug_struct("Remote")
                .field("url", url)
                .field("trust", trust)
                .finish(),
            Target::Own(_) => f.write_str("Own"),
        }
    }
}

/// The link: send requests, poll news. Dropping it closes the connection (and stops the own
/// server).
pub struct Link {
    asks: UnboundedSender<(u64, Ask)>,
    news: Mutex<mpsc::Receiver<News>>,
    next_tag: u64,
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link").finish_non_exhaustive()
    }
}

impl Link {
    /// Starts the link's thread: to `target`, as `who`.
    pub fn start(target: Target, who: Who) -> Link {
        Link::start_waking(target, who, None)
    }

    /// As [`start`](Link::start), and calls `wake` (on the link's thread) whenever there is news
    /// to poll: an owner that draws no frames while nothing happens is woken by it.
    pub fn start_waking(target: Target, who: Who, wake: Option<Wake>) -> Link {
        let (asks, asked) = unbounded_channel();
        let (tell, news) = mpsc::channel();
        let tell = Teller { news: tell, wake };
        let spawned = std::thread::Builder::new()
            .name("online link".into())
            .spawn({
                let tell = tell.clone();
                move || match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(run(target, who, asked, tell)),
                    Err(e) => {
                        let why = format!("no runtime for the link: {e}");
                        let _ = tell.send(News::Refused(ClientError::Connection(why)));
                    }
                }
            });
        if let Err(e) = spawned {
            // The link stops before it began (as a refused one does): no thread will retry.
            let why = format!("no thread for the link: {e}");
            let _ = tell.send(News::Refused(ClientError::Connection(why)));
        }
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

/// The owner has dropped the link.
struct Gone;

/// Where the link's news goes: to the owner's channel, the owner woken for each.
#[derive(Clone)]
struct Teller {
    news: mpsc::Sender<News>,
    wake: Option<Wake>,
}

impl Teller {
    fn send(&self, news: News) -> Result<(), mpsc::SendError<News>> {
        self.news.send(news)?;
        if let Some(wake) = &self.wake {
            wake();
        }
        Ok(())
    }
}

/// Passes the state's news on.
fn tell_news(state: &mut LinkState, tell: &Teller) -> Result<(), Gone> {
    for news in state.take_news() {
        tell.send(news).map_err(|_| Gone)?;
    }
    Ok(())
}

async fn run(target: Target, who: Who, mut asked: UnboundedReceiver<(u64, Ask)>, tell: Teller) {
    let (url, trust, _server) = match target {
        Target::Remote { url, trust } => (url, trust, None),
        Target::Own(start) => match start().await {
            Ok((url, server)) => {
                let _ = tell.send(News::Serving { url: url.clone() });
                (url, Trust::default(), Some(server))
            }
            Err(e) => {
                let _ = tell.send(News::NotServing(e.to_string()));
                return;
            }
        },
    };
    let mut state = LinkState::new(url, who, Backoff::seeded_now());
    let _ = connected(&mut state, &trust, &mut asked, &tell).await;
}

/// Connects, and again after every loss, until the link stops or its owner has gone.
async fn connected(
    state: &mut LinkState,
    trust: &Trust,
    asked: &mut UnboundedReceiver<(u64, Ask)>,
    tell: &Teller,
) -> Result<(), Gone> {
    let url = state.url().to_owned();
    loop {
        // Requests made while connecting: queued once signed in before, failed while away.
        let opening = open(&url, trust);
        tokio::pin!(opening);
        let opened = loop {
            tokio::select! {
                opened = &mut opening => break opened,
                request = asked.recv() => {
                    let (tag, ask) = request.ok_or(Gone)?;
                    state.ask(tag, ask);
                    tell_news(state, tell)?;
                }
            }
        };
        let wait = match opened {
            Ok(mut socket) => {
                state.opened();
                let why = converse(state, &mut socket, asked, tell).await?;
                socket.close().await;
                state.lost(why)
            }
            Err(e @ (ClientError::Address(_) | ClientError::Insecure(_) | ClientError::Tls(_))) => {
                state.unreachable(e);
                None
            }
            Err(e) => state.lost(e.to_string()),
        };
        tell_news(state, tell)?;
        let Some(wait) = wait else {
            // Stopped: what is still asked fails at once, until the owner lets go.
            while let Some((tag, ask)) = asked.recv().await {
                state.ask(tag, ask);
                tell_news(state, tell)?;
            }
            return Err(Gone);
        };
        // Away: requests made meanwhile fail at once rather than wait.
        let sleep = tokio::time::sleep(wait);
        tokio::pin!(sleep);
        loop {
            tokio::select! {
                () = &mut sleep => break,
                request = asked.recv() => {
                    let (tag, ask) = request.ok_or(Gone)?;
                    state.ask(tag, ask);
                    tell_news(state, tell)?;
                }
            }
        }
    }
}

/// Passes frames, requests and news on one connection until it is lost (why) or the link stops
/// (`"stopped"`).
async fn converse(
    state: &mut LinkState,
    socket: &mut WebSocket,
    asked: &mut UnboundedReceiver<(u64, Ask)>,
    tell: &Teller,
) -> Result<String, Gone> {
    loop {
        for text in state.take_out() {
            if let Err(e) = socket.send(text).await {
                return Ok(e.to_string());
            }
        }
        tell_news(state, tell)?;
        if state.stopped() {
            return Ok("stopped".to_owned());
        }
        // An answer (or the welcome) is awaited within its time; events as long as they take.
        let within = state.awaits_answer().then_some(ANSWER_WITHIN);
        tokio::select! {
            frame = socket.recv(within) => match frame {
                Ok(text) => state.heard(&text),
                Err(e) => return Ok(e.to_string()),
            },
            request = asked.recv() => {
                let (tag, ask) = request.ok_or(Gone)?;
                state.ask(tag, ask);
            }
        }
    }
}
