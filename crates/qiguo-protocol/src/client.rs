//! A client's side of the conversation, over whatever carries the frames: requests numbered in
//! order, each answer matched to its request, events that arrive while an answer is awaited
//! kept for later. The transport — a native WebSocket, the browser's — is given to it
//! ([`Transport`]); this crate does no I/O of its own.

use std::collections::VecDeque;
use std::future::Future;
use std::time::Duration;

use crate::frames::{Answer, Ask, ClientFrame, Event, Identity, PROTOCOL_VERSION, ServerFrame};
use crate::model::PlayerId;
use crate::refusal::Refusal;

/// How long a client waits to connect, and for each answer.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(30);

/// The largest frame a client reads (a long game's record), in bytes.
pub const MAX_SERVER_FRAME_BYTES: usize = 8 << 20;

/// Why a client could not do what was asked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClientError {
    /// The server's address is not a `ws://` or `wss://` URL.
    #[error("not a server address (ws://HOST:PORT or wss://HOST:PORT): {0}")]
    Address(String),
    /// A plain `ws://` address of another machine: the player's key would cross the network
    /// readable. `wss://`, or the player's word that the network is theirs (`--insecure-lan`).
    #[error(
        "{0} is not encrypted and not on this machine: use wss://, or say --insecure-lan on a network you trust"
    )]
    Insecure(String),
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
    /// The server refused the request: why as a code, and in English.
    #[error("{why}")]
    Refused {
        /// The code, for the client to word in its player's language.
        refusal: Refusal,
        /// The server's English words.
        why: String,
    },
    /// The server said something this client does not understand.
    #[error("the server said something this version of Qiguo does not understand: {0}")]
    Protocol(String),
    /// The extra authority's certificate could not be read.
    #[error("TLS: {0}")]
    Tls(String),
}

impl ClientError {
    /// The refusal, when the server refused.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            ClientError::Refused { refusal, .. } => Some(refusal),
            _ => None,
        }
    }

    /// Whether the connection is gone (lost, closed, timed out, or not understood), so that a
    /// client should connect again, rather than a request refused on a connection that goes on.
    pub fn is_lost(&self) -> bool {
        matches!(
            self,
            ClientError::Connection(_)
                | ClientError::GoingAway(_)
                | ClientError::Timeout
                | ClientError::Protocol(_)
        )
    }
}

/// Whether the `ws://` URL `url` names this machine: `localhost`, or a loopback address.
pub fn is_loopback_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("ws://")
        .or_else(|| url.strip_prefix("wss://"))
        .unwrap_or(url);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// What carries a client's frames: text frames one way and the other. A closed connection is
/// [`ClientError::Connection`], or [`ClientError::GoingAway`] when the server shuts down.
pub trait Transport {
    /// Sends one text frame.
    fn send(&mut self, text: String) -> impl Future<Output = Result<(), ClientError>>;
    /// The next text frame from the server, waiting at most `within` when given
    /// ([`ClientError::Timeout`] after it).
    fn recv(
        &mut self,
        within: Option<Duration>,
    ) -> impl Future<Output = Result<String, ClientError>>;
    /// Closes the connection, as a client leaving.
    fn close(&mut self) -> impl Future<Output = ()>;
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
    /// The server's protocol version: newer than this client's when the server still answers
    /// it but an update waits ([`crate::versions::behind`]).
    pub server_version: u32,
}

/// The numbering of requests and the events kept while answers are awaited.
#[derive(Debug, Default)]
pub struct Conversation {
    next_req: u64,
    events: VecDeque<Event>,
}

/// What a frame from the server was, read against the request awaited.
#[derive(Debug, PartialEq)]
pub enum Heard {
    /// The answer to the request awaited.
    Answer(Answer),
    /// An event, kept for later while an answer is awaited.
    Kept,
    /// An event, when none is awaited.
    Event(Event),
}

impl Conversation {
    /// A conversation whose first request is number 1.
    pub fn new() -> Conversation {
        Conversation {
            next_req: 1,
            events: VecDeque::new(),
        }
    }

    /// The next request, numbered, as the text to send; and its number.
    pub fn request(&mut self, ask: Ask) -> Result<(u64, String), ClientError> {
        let req = self.next_req.max(1);
        self.next_req = req + 1;
        let text = serde_json::to_string(&ClientFrame { req, ask })
            .map_err(|e| ClientError::Protocol(e.to_string()))?;
        Ok((req, text))
    }

    /// Reads a frame from the server while request `awaited` (if any) waits for its answer.
    /// Events of unknown types are dropped here; answers to other requests are a broken
    /// conversation.
    pub fn hear(&mut self, text: &str, awaited: Option<u64>) -> Result<Heard, ClientError> {
        let frame: ServerFrame =
            serde_json::from_str(text).map_err(|e| ClientError::Protocol(e.to_string()))?;
        match (frame, awaited) {
            (ServerFrame::Reply { req, answer }, Some(awaited)) if req == awaited => {
                Ok(Heard::Answer(answer))
            }
            (
                ServerFrame::Refused {
                    req, refusal, why, ..
                },
                awaited,
            ) if req == 0 || Some(req) == awaited => Err(ClientError::Refused { refusal, why }),
            (
                ServerFrame::Event {
                    event: Event::Unknown,
                },
                _,
            ) => Ok(Heard::Kept),
            (ServerFrame::Event { event }, Some(_)) => {
                self.events.push_back(event);
                Ok(Heard::Kept)
            }
            (ServerFrame::Event { event }, None) => Ok(Heard::Event(event)),
            (other, _) => Err(ClientError::Protocol(format!("{other:?}"))),
        }
    }

    /// An event kept while an answer was awaited, if there is one.
    pub fn take_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }
}

/// A client over a transport: asks and listens.
#[derive(Debug)]
pub struct Client<T> {
    transport: T,
    conversation: Conversation,
}

impl<T: Transport> Client<T> {
    /// A client on a connection that has said nothing yet.
    pub fn new(transport: T) -> Client<T> {
        Client {
            transport,
            conversation: Conversation::new(),
        }
    }

    /// Says hello as `identity`: who the server says the client is.
    pub async fn hello(&mut self, identity: Identity) -> Result<Welcome, ClientError> {
        self.hello_in(identity, None).await
    }

    /// Says hello as `identity`, reading `language` (`en`, `sv`, `zh`; what the server writes
    /// to the player while they are away is in it): who the server says the client is.
    pub async fn hello_in(
        &mut self,
        identity: Identity,
        language: Option<&str>,
    ) -> Result<Welcome, ClientError> {
        match self
            .ask(Ask::Hello {
                version: PROTOCOL_VERSION,
                identity,
                language: language.map(str::to_owned),
            })
            .await?
        {
            Answer::Welcome {
                player,
                name,
                key,
                version,
            } => Ok(Welcome {
                player,
                name,
                key,
                server_version: version,
            }),
            other => Err(ClientError::Protocol(format!("{other:?}"))),
        }
    }

    /// Sends a request and waits for its answer (each frame within [`ANSWER_WITHIN`]); events
    /// arriving meanwhile are kept for [`Client::next_event`].
    pub async fn ask(&mut self, ask: Ask) -> Result<Answer, ClientError> {
        let (req, text) = self.conversation.request(ask)?;
        self.transport.send(text).await?;
        loop {
            let text = self.transport.recv(Some(ANSWER_WITHIN)).await?;
            if let Heard::Answer(answer) = self.conversation.hear(&text, Some(req))? {
                return Ok(answer);
            }
        }
    }

    /// Sends raw text as a frame (the tests send garbage with it).
    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        self.transport.send(text).await
    }

    /// The next event: one kept while waiting for an answer, or the next to arrive (waiting as
    /// long as it takes).
    pub async fn next_event(&mut self) -> Result<Event, ClientError> {
        if let Some(event) = self.conversation.take_event() {
            return Ok(event);
        }
        loop {
            let text = self.transport.recv(None).await?;
            match self.conversation.hear(&text, None) {
                Ok(Heard::Event(event)) => return Ok(event),
                Ok(_) => {}
                // An answer to no request awaited: nothing to do with it.
                Err(ClientError::Protocol(_)) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// An event kept while an answer was awaited, if there is one (without waiting).
    pub fn take_event(&mut self) -> Option<Event> {
        self.conversation.take_event()
    }

    /// The next frame the server sends, within [`ANSWER_WITHIN`].
    pub async fn read(&mut self) -> Result<ServerFrame, ClientError> {
        let text = self.read_text().await?;
        serde_json::from_str(&text).map_err(|e| ClientError::Protocol(e.to_string()))
    }

    /// The next frame's text as sent, within [`ANSWER_WITHIN`] (for tests and tools that look
    /// at the wire).
    pub async fn read_text(&mut self) -> Result<String, ClientError> {
        self.transport.recv(Some(ANSWER_WITHIN)).await
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        self.transport.close().await;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_this_machine_is_loopback() {
        for url in [
            "ws://127.0.0.1:7206",
            "ws://localhost:7206/",
            "ws://LOCALHOST",
            "ws://[::1]:7206",
            "ws://127.5.6.7:80/join/X",
        ] {
            assert!(is_loopback_url(url), "{url}");
        }
        for url in [
            "ws://192.168.1.5:7206",
            "ws://example.org",
            "ws://localhost.example.org:7206",
            "ws://[2001:db8::1]:7206",
            "ws://127.0.0.1@example.org",
        ] {
            assert!(!is_loopback_url(url), "{url}");
        }
    }

    use super::*;
    use crate::model::GameId;

    #[test]
    fn answers_are_matched_to_their_requests_and_events_kept() {
        let mut conversation = Conversation::new();
        let (req, text) = conversation.request(Ask::Games {}).unwrap();
        assert_eq!(req, 1);
        assert_eq!(text, r#"{"req":1,"ask":{"type":"games"}}"#);
        let stale = r#"{"type":"event","event":{"type":"stale","game":"g"}}"#;
        assert_eq!(conversation.hear(stale, Some(1)).unwrap(), Heard::Kept);
        let later = r#"{"type":"event","event":{"type":"chat","game":"g","text":"hi"}}"#;
        assert_eq!(conversation.hear(later, Some(1)).unwrap(), Heard::Kept);
        let other = r#"{"type":"reply","req":7,"answer":{"type":"done"}}"#;
        assert!(matches!(
            conversation.hear(other, Some(1)),
            Err(ClientError::Protocol(_))
        ));
        let mine = r#"{"type":"reply","req":1,"answer":{"type":"done"}}"#;
        assert_eq!(
            conversation.hear(mine, Some(1)).unwrap(),
            Heard::Answer(Answer::Done)
        );
        // The known event was kept, the unknown one dropped.
        assert_eq!(
            conversation.take_event(),
            Some(Event::Stale {
                game: GameId("g".into())
            })
        );
        assert_eq!(conversation.take_event(), None);
        let (req, _) = conversation.request(Ask::Games {}).unwrap();
        assert_eq!(req, 2);
        let refused = r#"{"type":"refused","req":2,"refusal":{"code":"no_game"},"why":"no such game of yours","closing":false}"#;
        let e = conversation.hear(refused, Some(2)).unwrap_err();
        assert_eq!(e.refusal(), Some(&Refusal::NoGame));
        assert_eq!(e.to_string(), "no such game of yours");
        assert!(!e.is_lost());
    }
}
