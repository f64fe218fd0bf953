//! The page's link to its server: the browser's WebSocket, driven by its events (a page has no
//! thread to wait on). It says hello with the key kept for the server in the browser's storage
//! (or as a new player, whose key is then kept there), sends the window's requests one at a
//! time in order, files answers and events as [`News`] for the frame to poll (a turn of the
//! player's is notified at once, as a background tab draws no frames), and connects
//! again two seconds after a lost connection. Requests made while away fail at once, as on the
//! desktop. The state lives in the page's one thread; the [`Link`] the game holds names it.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use bevy::log::{info, warn};
use qiguo_protocol::client::{ClientError, Conversation, Heard};
use qiguo_protocol::keys::{KEYS_FILE, Key, KeyRing};
use qiguo_protocol::link::News;
use qiguo_protocol::{Answer, Ask, Identity, PROTOCOL_VERSION};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, Event, MessageEvent, WebSocket};

/// How long the link waits before connecting again, in milliseconds (the desktop's
/// `RECONNECT_AFTER`).
const RECONNECT_AFTER_MS: i32 = 2_000;

/// The WebSocket URL of the server that served this page: `wss://HOST` for an `https` page,
/// `ws://HOST` for a plain one.
pub(crate) fn page_server() -> Option<String> {
    let location = web_sys::window()?.location();
    let host = location.host().ok()?;
    let scheme = if location.protocol().ok()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    Some(format!("{scheme}://{host}"))
}

/// One link's state.
struct State {
    url: String,
    name: String,
    /// The language the player reads, told at hello.
    language: Option<String>,
    /// The one-time token of the e-mailed link this page was opened from, for the first hello
    /// to the page's own server (it signs the player in on this device).
    token: Option<String>,
    keys: PathBuf,
    socket: Option<WebSocket>,
    /// The socket's handlers, kept alive while it is open.
    handlers: Vec<Closure<dyn FnMut(JsEvent)>>,
    talk: Conversation,
    /// The hello awaiting its welcome.
    hello: Option<u64>,
    /// That hello signs in by a link's token.
    by_link: bool,
    signed_in: bool,
    /// A reconnection is due: requests fail at once meanwhile.
    away: bool,
    /// Requests not yet sent, by tag.
    queue: VecDeque<(u64, Ask)>,
    /// The request sent and awaiting its answer: its tag and number.
    in_flight: Option<(u64, u64)>,
    news: Vec<News>,
}

/// What a socket handler receives.
type JsEvent = wasm_bindgen::JsValue;

thread_local! {
    static LINKS: RefCell<HashMap<u32, State>> = RefCell::new(HashMap::new());
}

static NEXT_LINK: AtomicU32 = AtomicU32::new(1);

/// The link: send requests, poll news. Dropping it closes the connection.
#[derive(Debug)]
pub(crate) struct Link {
    id: u32,
    next_tag: u64,
}

impl Link {
    /// Connects to `url` as the player whose key for it is kept under `keys` (or as a new
    /// player called `name`), who reads `language`. To the page's own server, a sign-in link's
    /// token in the page's address signs the player in first ([`crate::web::signin_token`]).
    pub(crate) fn start(
        url: String,
        name: String,
        language: Option<String>,
        keys: PathBuf,
    ) -> Link {
        let id = NEXT_LINK.fetch_add(1, Ordering::Relaxed);
        let token = (page_server().as_ref() == Some(&url))
            .then(crate::web::signin_token)
            .flatten();
        let state = State {
            url,
            name,
            language,
            token,
            keys,
            socket: None,
            handlers: Vec::new(),
            talk: Conversation::new(),
            hello: None,
            by_link: false,
            signed_in: false,
            away: false,
            queue: VecDeque::new(),
            in_flight: None,
            news: Vec::new(),
        };
        LINKS.with_borrow_mut(|links| links.insert(id, state));
        connect(id);
        Link { id, next_tag: 1 }
    }

    /// Sends a request; its answer comes as [`News::Answer`] with the tag returned.
    pub(crate) fn ask(&mut self, ask: Ask) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        with_state(self.id, |state| {
            if state.away {
                let result = Err(ClientError::Connection("not connected".to_owned()));
                state.news.push(News::Answer { tag, result });
            } else {
                state.queue.push_back((tag, ask));
                pump(state);
            }
        });
        tag
    }

    /// Everything the link has to report since the last poll.
    pub(crate) fn poll(&self) -> Vec<News> {
        with_state(self.id, |state| std::mem::take(&mut state.news)).unwrap_or_default()
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Some(mut state) = LINKS.with_borrow_mut(|links| links.remove(&self.id)) {
            close(&mut state);
        }
    }
}

fn with_state<T>(id: u32, f: impl FnOnce(&mut State) -> T) -> Option<T> {
    LINKS.with_borrow_mut(|links| links.get_mut(&id).map(f))
}

/// Closes the socket (its handlers removed first, so none runs after it is gone).
fn close(state: &mut State) {
    if let Some(socket) = state.socket.take() {
        socket.set_onopen(None);
        socket.set_onmessage(None);
        socket.set_onclose(None);
        socket.set_onerror(None);
        let _ = socket.close();
    }
    state.handlers.clear();
}

/// Opens the socket of link `id`, its handlers reporting to the link's state.
fn connect(id: u32) {
    let Some(url) = with_state(id, |state| state.url.clone()) else {
        return;
    };
    let socket = match WebSocket::new(&url) {
        Ok(socket) => socket,
        Err(e) => {
            // Not a WebSocket URL at all: the link stops.
            let refused = News::Refused(ClientError::Address(format!("{url} ({e:?})")));
            with_state(id, |state| state.news.push(refused));
            return;
        }
    };
    let on_open = Closure::<dyn FnMut(JsEvent)>::new(move |_| {
        with_state(id, say_hello);
    });
    let on_message = Closure::<dyn FnMut(JsEvent)>::new(move |event: JsEvent| {
        let text = event
            .dyn_into::<MessageEvent>()
            .ok()
            .and_then(|m| m.data().as_string());
        match text {
            Some(text) => {
                with_state(id, |state| hear(state, &text));
            }
            None => warn!("the server sent a frame that is not text"),
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
    let on_error = Closure::<dyn FnMut(JsEvent)>::new(move |event: JsEvent| {
        // An error is followed by the close event, which reports it.
        let _ = event.dyn_ref::<Event>();
    });
    socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    socket.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    with_state(id, |state| {
        state.socket = Some(socket);
        state.handlers = vec![on_open, on_message, on_close, on_error];
        state.away = false;
    });
}

/// The player's keys kept in the browser's storage under `dir` (none yet: an empty ring).
pub(crate) fn load_keys(dir: &Path) -> Result<KeyRing, String> {
    match crate::storage::read(&dir.join(KEYS_FILE)) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|e| e.to_string())
            .and_then(|text| KeyRing::from_json(&text).map_err(|e| e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(KeyRing::default()),
        Err(e) => Err(e.to_string()),
    }
}

/// Keeps `ring` as the player's keys in the browser's storage under `dir`.
pub(crate) fn save_keys(dir: &Path, ring: &KeyRing) -> Result<(), String> {
    crate::storage::write_atomically(&dir.join(KEYS_FILE), ring.to_json().as_bytes())
        .map_err(|e| e.to_string())
}

/// The link's key ring (empty if none yet, or unreadable: then the player signs in as new,
/// and the damaged ring is kept aside).
fn key_ring(state: &State) -> KeyRing {
    load_keys(&state.keys).unwrap_or_else(|why| {
        warn!("the online keys are damaged ({why}); kept aside as {KEYS_FILE}.damaged");
        let _ = crate::storage::rename(
            &state.keys.join(KEYS_FILE),
            &state.keys.join(format!("{KEYS_FILE}.damaged")),
        );
        KeyRing::default()
    })
}

fn say_hello(state: &mut State) {
    let identity = match state.token.take() {
        Some(token) => Identity::Link { token },
        None => key_ring(state).identity(&state.url, &state.name),
    };
    let signing_in_by_link = matches!(identity, Identity::Link { .. });
    state.by_link = signing_in_by_link;
    match state.talk.request(Ask::Hello {
        version: PROTOCOL_VERSION,
        identity,
        language: state.language.clone(),
    }) {
        Ok((req, text)) => {
            state.hello = Some(req);
            send(state, &text);
        }
        Err(e) => state.news.push(News::Refused(e)),
    }
}

fn send(state: &mut State, text: &str) {
    if let Some(socket) = &state.socket
        && let Err(e) = socket.send_with_str(text)
    {
        warn!("a frame could not be sent: {e:?}");
    }
}

/// Sends the next request when none awaits its answer.
fn pump(state: &mut State) {
    if !state.signed_in || state.in_flight.is_some() {
        return;
    }
    let Some((tag, ask)) = state.queue.pop_front() else {
        return;
    };
    match state.talk.request(ask) {
        Ok((req, text)) => {
            state.in_flight = Some((tag, req));
            send(state, &text);
        }
        Err(e) => state.news.push(News::Answer {
            tag,
            result: Err(e),
        }),
    }
}

/// A frame from the server, read against the request awaited.
fn hear(state: &mut State, text: &str) {
    if let Some(req) = state.hello {
        match state.talk.hear(text, Some(req)) {
            Ok(Heard::Answer(Answer::Welcome {
                player,
                name,
                key,
                version,
            })) => {
                state.hello = None;
                state.signed_in = true;
                if let Some(key) = key {
                    keep_key(state, &player, &key, &name);
                }
                info!("signed in to {} as {name}", state.url);
                state.news.push(News::Connected { player, name });
                if qiguo_protocol::versions::behind(version) {
                    state.news.push(News::Behind { server: version });
                }
                pump(state);
            }
            Ok(Heard::Answer(other)) => {
                let e = ClientError::Protocol(format!("{other:?}"));
                state.news.push(News::Refused(e));
                close(state);
            }
            Ok(_) => {}
            Err(e)
                if state.by_link
                    && (key_ring(state).servers.contains_key(&state.url)
                        || !state.name.trim().is_empty()) =>
            {
                // A link used already or out of date: the server closes the connection, and
                // the link connects again as the player kept here (or as the name given).
                warn!("the sign-in link was not taken ({e}); signing in as before");
                state.hello = None;
            }
            Err(e) if state.by_link => {
                // Nobody to sign in as on this device: the page says why in its own words and
                // asks for a name to join under, never a hello without one.
                warn!("the sign-in link was not taken ({e}); nobody kept here to sign in as");
                state.news.push(News::Refused(e));
                close(state);
            }
            Err(e) => {
                // Refused (a wrong key, another version) or not a server that speaks Qiguo:
                // the link stops.
                state.news.push(News::Refused(e));
                close(state);
            }
        }
        return;
    }
    match state.in_flight {
        Some((tag, req)) => match state.talk.hear(text, Some(req)) {
            Ok(Heard::Answer(answer)) => {
                answered(state, tag, Ok(answer));
            }
            Ok(_) => {}
            Err(e) => answered(state, tag, Err(e)),
        },
        None => match state.talk.hear(text, None) {
            Ok(Heard::Event(event)) => {
                crate::web::notify::heard(&event);
                state.news.push(News::Event(event));
            }
            Ok(_) => {}
            Err(e) => warn!("a frame from the server was set aside: {e}"),
        },
    }
}

fn answered(state: &mut State, tag: u64, result: Result<Answer, ClientError>) {
    state.in_flight = None;
    state.news.push(News::Answer { tag, result });
    // Events that arrived while the answer was awaited.
    while let Some(event) = state.talk.take_event() {
        crate::web::notify::heard(&event);
        state.news.push(News::Event(event));
    }
    pump(state);
}

/// Keeps a new player's key for this server in the browser's storage.
fn keep_key(state: &State, player: &qiguo_protocol::PlayerId, key: &str, name: &str) {
    let mut ring = key_ring(state);
    ring.servers.insert(
        state.url.clone(),
        Key {
            player: player.clone(),
            key: key.to_owned(),
            name: name.to_owned(),
        },
    );
    if let Err(e) = save_keys(&state.keys, &ring) {
        warn!("the new player's key could not be kept ({e}): next visit signs in as new");
    }
}

/// The connection of link `id` is lost: requests waiting fail, and it connects again soon.
fn lost(id: u32, why: String) {
    let again = with_state(id, |state| {
        close(state);
        state.hello = None;
        state.signed_in = false;
        state.talk = Conversation::new();
        let waiting = state
            .in_flight
            .take()
            .map(|(tag, _)| tag)
            .into_iter()
            .chain(state.queue.drain(..).map(|(tag, _)| tag))
            .collect::<Vec<_>>();
        for tag in waiting {
            let result = Err(ClientError::Connection(why.clone()));
            state.news.push(News::Answer { tag, result });
        }
        state.news.push(News::Lost(why));
        state.away = true;
        true
    });
    if again != Some(true) {
        return;
    }
    let retry = Closure::once_into_js(move || connect(id));
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            retry.unchecked_ref(),
            RECONNECT_AFTER_MS,
        );
    }
}
