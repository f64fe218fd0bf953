//! The link in a page: the link's state driven by the browser's WebSocket events (a page has
//! no thread to wait on). The state lives in the page's one thread; the [`Link`] the game
//! holds names it. After a loss the link connects again on a browser timer, as the
//! reconnection policy says.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

use qiguo_protocol::client::ClientError;
use qiguo_protocol::link::News;
use qiguo_protocol::{Ask, Event};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

use crate::link_state::{LinkState, Who};
use crate::{Backoff, Wake};

/// The WebSocket URL of the server that served this page: `wss://HOST` for an `https` page,
/// `ws://HOST` for a plain one.
pub fn page_server() -> Option<String> {
    let location = web_sys::window()?.location();
    let host = location.host().ok()?;
    let scheme = if location.protocol().ok()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    Some(format!("{scheme}://{host}"))
}

/// What a socket handler receives.
type JsEvent = wasm_bindgen::JsValue;

/// One page link: its state, its socket and the socket's handlers (kept alive while it is
/// open), and whom to tell of each event as it is heard.
struct PageLink {
    state: LinkState,
    socket: Option<WebSocket>,
    handlers: Vec<Closure<dyn FnMut(JsEvent)>>,
    heard: fn(&Event),
    /// Called when news is filed, for an owner that does not poll every frame.
    wake: Option<Wake>,
    /// News not yet polled.
    news: Vec<News>,
}

thread_local! {
    static LINKS: RefCell<HashMap<u32, PageLink>> = RefCell::new(HashMap::new());
}

static NEXT_LINK: AtomicU32 = AtomicU32::new(1);

/// The link: send requests, poll news. Dropping it closes the connection.
#[derive(Debug)]
pub struct Link {
    id: u32,
    next_tag: u64,
}

impl Link {
    /// Connects to `url` as `who`. `heard` is told of each event the moment it arrives (a
    /// background tab draws no frames to poll in: the page notifies the player from there).
    pub fn start(url: String, who: Who, heard: fn(&Event)) -> Link {
        Link::start_waking(url, who, heard, None)
    }

    /// As [`start`](Link::start), and calls `wake` whenever there is news to poll.
    pub fn start_waking(url: String, who: Who, heard: fn(&Event), wake: Option<Wake>) -> Link {
        let id = NEXT_LINK.fetch_add(1, Ordering::Relaxed);
        let link = PageLink {
            state: LinkState::new(url, who, Backoff::seeded_now()),
            socket: None,
            handlers: Vec::new(),
            heard,
            wake,
            news: Vec::new(),
        };
        LINKS.with_borrow_mut(|links| links.insert(id, link));
        connect(id);
        Link { id, next_tag: 1 }
    }

    /// Sends a request; its answer comes as [`News::Answer`] with the tag returned.
    pub fn ask(&mut self, ask: Ask) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        with_link(self.id, |link| {
            link.state.ask(tag, ask);
            settle(link);
        });
        tag
    }

    /// Everything the link has to report since the last poll.
    pub fn poll(&self) -> Vec<News> {
        with_link(self.id, |link| std::mem::take(&mut link.news)).unwrap_or_default()
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(mut link) = LINKS.with_borrow_mut(|links| links.remove(&self.id)) {
            close(&mut link);
        }
    }
}

fn with_link<T>(id: u32, f: impl FnOnce(&mut PageLink) -> T) -> Option<T> {
    LINKS.with_borrow_mut(|links| links.get_mut(&id).map(f))
}

/// Sends what the state has to send, files its news (telling of events at once), and closes
/// the socket when the link has stopped.
fn settle(link: &mut PageLink) {
    for text in link.state.take_out() {
        if let Some(socket) = &link.socket
            && let Err(e) = socket.send_with_str(&text)
        {
            tracing::warn!("a frame could not be sent: {e:?}");
        }
    }
    let before = link.news.len();
    for news in link.state.take_news() {
        if let News::Event(event) = &news {
            (link.heard)(event);
        }
        link.news.push(news);
    }
    if link.news.len() > before
        && let Some(wake) = &link.wake
    {
        wake();
    }
    if link.state.stopped() {
        close(link);
    }
}

/// Closes the socket (its handlers removed first, so none runs after it is gone).
fn close(link: &mut PageLink) {
    if let Some(socket) = link.socket.take() {
        socket.set_onopen(None);
        socket.set_onmessage(None);
        socket.set_onclose(None);
        socket.set_onerror(None);
        let _ = socket.close();
    }
    link.handlers.clear();
}

/// Opens the socket of link `id`, its handlers reporting to the link's state.
fn connect(id: u32) {
    let Some(url) = with_link(id, |link| link.state.url().to_owned()) else {
        return;
    };
    let socket = match WebSocket::new(&url) {
        Ok(socket) => socket,
        Err(e) => {
            // Not a WebSocket URL at all: the link stops.
            with_link(id, |link| {
                let e = ClientError::Address(format!("{url} ({e:?})"));
                link.state.unreachable(e);
                settle(link);
            });
            return;
        }
    };
    let on_open = Closure::<dyn FnMut(JsEvent)>::new(move |_| {
        with_link(id, |link| {
            link.state.opened();
            settle(link);
        });
    });
    let on_message = Closure::<dyn FnMut(JsEvent)>::new(move |event: JsEvent| {
        let text = event
            .dyn_into::<MessageEvent>()
            .ok()
            .and_then(|m| m.data().as_string());
        match text {
            Some(text) => {
                with_link(id, |link| {
                    link.state.heard(&text);
                    settle(link);
                });
            }
            None => tracing::warn!("the server sent a frame that is not text"),
        }
    });
    let on_close = Closure::<dyn FnMut(JsEvent)>::new(move |event: JsEvent| {
        let why = match event.dyn_ref::<CloseEvent>() {
            Some(close) if close.code() == 1001 => {
                format!("the server is shutting down: {}", close.reason())
            }
            Some(close) if !close.reason().is_empty() => close.reason(),
            Some(close) => format!("closed ({})", close.code()),
            None => "closed".to_owned(),
        };
        lost(id, why);
    });
    // An error is followed by the close event, which reports it.
    let on_error = Closure::<dyn FnMut(JsEvent)>::new(move |_: JsEvent| {});
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    socket.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    with_link(id, |link| {
        link.socket = Some(socket);
        link.handlers = vec![on_open, on_message, on_close, on_error];
    });
}

/// The connection of link `id` is lost: it connects again after the policy's wait.
fn lost(id: u32, why: String) {
    let wait = with_link(id, |link| {
        close(link);
        let wait = link.state.lost(why);
        settle(link);
        wait
    })
    .flatten();
    let Some(wait) = wait else {
        return;
    };
    let retry = Closure::once_into_js(move || connect(id));
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            retry.unchecked_ref(),
            wait.as_millis().min(i32::MAX as u128) as i32,
        );
    }
}
