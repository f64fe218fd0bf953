//! The link's rules, without I/O: what to send when a connection opens, what a frame from the
//! server means, what happens to requests made while signing in, while an answer is awaited
//! and while away, and how long to wait after a loss. The desktop's link drives it from Tokio,
//! the page's from the browser's WebSocket events; both report the same [`News`].

use std::collections::VecDeque;
use std::time::Duration;

use qiguo_protocol::client::{ClientError, Conversation, Heard};
use qiguo_protocol::keys::Key;
use qiguo_protocol::link::News;
use qiguo_protocol::{Answer, Ask, Identity, PROTOCOL_VERSION};

use crate::{Backoff, KeyStore};

/// Who the link signs in as.
#[derive(Clone, Debug)]
pub struct Who {
    /// The name of a new player, when no key for the server is kept.
    pub name: String,
    /// The language the player reads (`en`, `sv`, `zh`), told at hello: what the server
    /// writes to them while they are away is in it.
    pub language: Option<String>,
    /// Where the player's keys are kept.
    pub keys: KeyStore,
    /// A sign-in link's one-time token (a page opened from an e-mailed link): the first hello
    /// signs in by it, on this device.
    pub token: Option<String>,
}

/// One link's state.
#[derive(Debug)]
pub(crate) struct LinkState {
    url: String,
    who: Who,
    conversation: Conversation,
    /// The hello awaiting its welcome.
    hello: Option<u64>,
    /// That hello signs in by a link's token.
    by_link: bool,
    signed_in: bool,
    /// Lost: requests fail at once until the next connection opens.
    away: bool,
    /// The server will not have this client, or the keys cannot be kept: the link has stopped.
    stopped: bool,
    /// Requests not yet sent, by tag.
    queue: VecDeque<(u64, Ask)>,
    /// The request sent and awaiting its answer: its tag and number.
    in_flight: Option<(u64, u64)>,
    news: Vec<News>,
    /// Frames to send, in order.
    out: Vec<String>,
    backoff: Backoff,
}

impl LinkState {
    pub(crate) fn new(url: String, who: Who, backoff: Backoff) -> LinkState {
        LinkState {
            url,
            who,
            conversation: Conversation::new(),
            hello: None,
            by_link: false,
            signed_in: false,
            away: false,
            stopped: false,
            queue: VecDeque::new(),
            in_flight: None,
            news: Vec::new(),
            out: Vec::new(),
            backoff,
        }
    }

    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The link has stopped: no connection is made again.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// A frame of the server's is awaited (a welcome or an answer).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn awaits_answer(&self) -> bool {
        self.hello.is_some() || self.in_flight.is_some()
    }

    /// What the link has to report since it was last asked.
    pub(crate) fn take_news(&mut self) -> Vec<News> {
        std::mem::take(&mut self.news)
    }

    /// The frames to send now, in order.
    pub(crate) fn take_out(&mut self) -> Vec<String> {
        std::mem::take(&mut self.out)
    }

    /// A request of the owner's, tagged `tag`: sent when signed in and nothing else awaits its
    /// answer, queued until then; failed at once while away or stopped.
    pub(crate) fn ask(&mut self, tag: u64, ask: Ask) {
        if self.away || self.stopped {
            let why = if self.stopped {
                "the link has stopped"
            } else {
                "not connected"
            };
            let result = Err(ClientError::Connection(why.to_owned()));
            self.news.push(News::Answer { tag, result });
        } else {
            self.queue.push_back((tag, ask));
            self.pump();
        }
    }

    /// A connection is open: say hello as the player kept for the server (or by the sign-in
    /// link's token, or as a new player).
    pub(crate) fn opened(&mut self) {
        self.away = false;
        let identity = match self.who.token.take() {
            Some(token) => Identity::Link { token },
            None => match self.who.keys.load_for_sign_in() {
                Ok(ring) => ring.identity(&self.url, &self.who.name),
                Err(e) => return self.stop(News::NoKeys(e.to_string())),
            },
        };
        self.by_link = matches!(identity, Identity::Link { .. });
        match self.conversation.request(Ask::Hello {
            version: PROTOCOL_VERSION,
            identity,
            language: self.who.language.clone(),
        }) {
            Ok((req, text)) => {
                self.hello = Some(req);
                self.out.push(text);
            }
            Err(e) => self.stop(News::Refused(e)),
        }
    }

    /// The server will not be reached at all (not a server's address, plain `ws://` to another
    /// machine, a certificate not trusted): the link stops.
    pub(crate) fn unreachable(&mut self, e: ClientError) {
        self.stop(News::Refused(e));
    }

    fn stop(&mut self, news: News) {
        self.news.push(news);
        self.stopped = true;
        self.signed_in = false;
        self.hello = None;
        self.fail_waiting("the link has stopped");
    }

    /// A frame from the server, read against the request awaited.
    pub(crate) fn heard(&mut self, text: &str) {
        if let Some(req) = self.hello {
            return self.heard_at_hello(req, text);
        }
        if tracing::enabled!(tracing::Level::DEBUG) {
            tracing::debug!(server = %self.url, in_flight = ?self.in_flight.map(|(_, req)| req), "link heard {}", kind(text));
        }
        match self.in_flight {
            Some((tag, req)) => match self.conversation.hear(text, Some(req)) {
                Ok(Heard::Answer(answer)) => self.answered(tag, Ok(answer)),
                Ok(Heard::Kept) => {
                    tracing::debug!(server = %self.url, req, "link keeps an event until its answer")
                }
                Ok(Heard::Event(_)) => {}
                Err(e) => self.answered(tag, Err(e)),
            },
            None => match self.conversation.hear(text, None) {
                Ok(Heard::Event(event)) => self.news.push(News::Event(event)),
                Ok(_) => {}
                Err(e) => tracing::warn!(server = %self.url, "a frame was set aside: {e}"),
            },
        }
    }

    fn heard_at_hello(&mut self, req: u64, text: &str) {
        match self.conversation.hear(text, Some(req)) {
            Ok(Heard::Answer(Answer::Welcome {
                player,
                name,
                key,
                version,
            })) => {
                self.hello = None;
                if let Some(key) = key {
                    let key = Key {
                        player: player.clone(),
                        key,
                        name: name.clone(),
                    };
                    if let Err(e) = self.who.keys.keep(&self.url, key) {
                        // Playing on would make a player the server forgets at the next visit.
                        return self.stop(News::NoKeys(e.to_string()));
                    }
                }
                tracing::info!(server = %self.url, player = %player.0, "signed in");
                self.signed_in = true;
                self.backoff.reset();
                self.news.push(News::Connected { player, name });
                if qiguo_protocol::versions::behind(version) {
                    self.news.push(News::Behind { server: version });
                }
                // Events that came before the welcome (the server listens for the player's
                // own events as it signs them in): told now, not held until some answer.
                while let Some(event) = self.conversation.take_event() {
                    self.news.push(News::Event(event));
                }
                self.pump();
            }
            Ok(Heard::Answer(other)) => {
                self.stop(News::Refused(ClientError::Protocol(format!("{other:?}"))));
            }
            Ok(_) => {}
            Err(e)
                if self.by_link
                    && (self.who.keys.knows(&self.url) || !self.who.name.trim().is_empty()) =>
            {
                // A link used already or out of date: the server closes the connection, and the
                // link connects again as the player kept here (or as the name given).
                tracing::warn!(server = %self.url, "the sign-in link was not taken ({e}); signing in as before");
                self.hello = None;
            }
            Err(e) => {
                // Refused (a wrong key, another version; a sign-in link not taken with nobody
                // to sign in as here, which the page words itself), or no server that speaks
                // Qiguo: the link stops.
                self.stop(News::Refused(e));
            }
        }
    }

    fn answered(&mut self, tag: u64, result: Result<Answer, ClientError>) {
        self.in_flight = None;
        self.news.push(News::Answer { tag, result });
        // Events that arrived while the answer was awaited.
        while let Some(event) = self.conversation.take_event() {
            self.news.push(News::Event(event));
        }
        self.pump();
    }

    /// Sends the next request when signed in and none awaits its answer.
    fn pump(&mut self) {
        if !self.signed_in || self.in_flight.is_some() {
            return;
        }
        let Some((tag, ask)) = self.queue.pop_front() else {
            return;
        };
        match self.conversation.request(ask) {
            Ok((req, text)) => {
                if tracing::enabled!(tracing::Level::DEBUG) {
                    tracing::debug!(server = %self.url, req, "link asks {}", kind(&text));
                }
                self.in_flight = Some((tag, req));
                self.out.push(text);
            }
            Err(e) => self.answered(tag, Err(e)),
        }
    }

    fn fail_waiting(&mut self, why: &str) {
        let waiting = self
            .in_flight
            .take()
            .map(|(tag, _)| tag)
            .into_iter()
            .chain(self.queue.drain(..).map(|(tag, _)| tag))
            .collect::<Vec<_>>();
        for tag in waiting {
            let result = Err(ClientError::Connection(why.to_owned()));
            self.news.push(News::Answer { tag, result });
        }
    }

    /// The connection is lost (or could not be made): the requests waiting fail, and so will
    /// those made until the next connection opens. How long to wait before connecting again
    /// (`None`: the link has stopped).
    pub(crate) fn lost(&mut self, why: String) -> Option<Duration> {
        if self.stopped {
            return None;
        }
        self.hello = None;
        self.signed_in = false;
        self.conversation = Conversation::new();
        self.out.clear();
        self.fail_waiting(&why);
        let wait = self.backoff.next_wait();
        tracing::info!(server = %self.url, wait_ms = wait.as_millis() as u64, "connection lost: {why}");
        self.news.push(News::Lost(why));
        self.away = true;
        Some(wait)
    }
}

/// What kind of frame `text` is, for the log (never what it carries: a hello holds a key): its
/// `type`, and its request's or event's.
fn kind(text: &str) -> String {
    let Ok(frame) = serde_json::from_str::<serde_json::Value>(text) else {
        return "a frame not read".to_owned();
    };
    let inner = ["ask", "answer", "event"]
        .iter()
        .find_map(|part| frame.get(part)?.get("type")?.as_str());
    let outer = frame.get("type").and_then(|t| t.as_str());
    let req = frame.get("req").and_then(|r| r.as_u64());
    [outer, inner]
        .into_iter()
        .flatten()
        .map(str::to_owned)
        .chain(req.map(|req| format!("#{req}")))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use qiguo_protocol::{Event, GameId, PlayerId};
    use qiguo_testkit::TempDir;

    fn state(dir: &TempDir, token: Option<&str>) -> LinkState {
        let who = Who {
            name: "Ann".into(),
            language: Some("sv".into()),
            keys: KeyStore::new(dir.join("keys")),
            token: token.map(str::to_owned),
        };
        LinkState::new("ws://127.0.0.1:7206".into(), who, Backoff::new(1))
    }

    /// The frame sent, as JSON.
    fn sent(state: &mut LinkState) -> Vec<serde_json::Value> {
        state
            .take_out()
            .iter()
            .map(|text| serde_json::from_str(text).unwrap())
            .collect()
    }

    fn reply(req: &serde_json::Value, answer: serde_json::Value) -> String {
        serde_json::json!({"type": "reply", "req": req, "answer": answer}).to_string()
    }

    fn welcome(req: &serde_json::Value, key: Option<&str>) -> String {
        reply(
            req,
            serde_json::json!({"type": "welcome", "version": PROTOCOL_VERSION,
                               "player": "p1", "name": "Ann", "key": key}),
        )
    }

    fn stale(game: &str) -> String {
        serde_json::json!({"type": "event", "event": {"type": "stale", "game": game}}).to_string()
    }

    #[test]
    fn requests_wait_for_the_welcome_then_go_one_at_a_time_and_events_follow_answers() {
        let dir = TempDir::new("link-state-order");
        let mut link = state(&dir, None);
        link.ask(1, Ask::Games {});
        assert!(
            link.take_out().is_empty(),
            "nothing before the connection opens"
        );
        link.opened();
        let hello = sent(&mut link);
        assert_eq!(hello.len(), 1, "the hello alone: {hello:?}");
        assert_eq!(hello[0]["ask"]["type"], "hello");
        assert_eq!(hello[0]["ask"]["identity"]["name"], "Ann");
        assert_eq!(hello[0]["ask"]["language"], "sv");
        link.ask(2, Ask::Games {});
        link.heard(&welcome(&hello[0]["req"], Some("secret")));
        // The new player's key is kept.
        assert_eq!(
            link.who.keys.load().unwrap().servers["ws://127.0.0.1:7206"].key,
            "secret"
        );
        let first = sent(&mut link);
        assert_eq!(first.len(), 1, "one request at a time: {first:?}");
        // An event while the answer is awaited comes after the answer.
        link.heard(&stale("g1"));
        link.heard(&reply(
            &first[0]["req"],
            serde_json::json!({"type": "done"}),
        ));
        let second = sent(&mut link);
        assert_eq!(second.len(), 1);
        assert_ne!(second[0]["req"], first[0]["req"]);
        link.heard(&reply(
            &second[0]["req"],
            serde_json::json!({"type": "done"}),
        ));
        link.heard(&stale("g2"));
        let news = link.take_news();
        let connected = News::Connected {
            player: PlayerId("p1".into()),
            name: "Ann".into(),
        };
        let done = |tag| News::Answer {
            tag,
            result: Ok(Answer::Done),
        };
        let event = |g: &str| {
            News::Event(Event::Stale {
                game: GameId(g.into()),
            })
        };
        assert_eq!(
            news,
            vec![connected, done(1), event("g1"), done(2), event("g2")]
        );
    }

    /// An event that the server sent before its welcome is told with the welcome, though no
    /// request follows it (a page at rest asks nothing more).
    #[test]
    fn an_event_before_the_welcome_is_told_with_it() {
        let dir = TempDir::new("link-state-early-event");
        let mut link = state(&dir, None);
        link.opened();
        let hello = sent(&mut link);
        link.heard(&stale("g0"));
        link.heard(&welcome(&hello[0]["req"], None));
        assert!(link.take_out().is_empty(), "nothing asked");
        let news = link.take_news();
        assert_eq!(
            news,
            vec![
                News::Connected {
                    player: PlayerId("p1".into()),
                    name: "Ann".into(),
                },
                News::Event(Event::Stale {
                    game: GameId("g0".into()),
                }),
            ]
        );
    }

    /// The log names a frame by its kinds, never by what it carries (a hello's key).
    #[test]
    fn a_frame_is_logged_by_its_kind_alone() {
        let dir = TempDir::new("link-state-kind");
        let mut link = state(&dir, Some("secret-token"));
        link.opened();
        let hello = link.take_out().remove(0);
        assert!(hello.contains("secret-token"), "{hello}");
        assert_eq!(kind(&hello), "hello #1");
        assert_eq!(kind(&stale("g0")), "event stale");
        assert_eq!(
            kind(&reply(
                &serde_json::json!(3),
                serde_json::json!({"type": "done"})
            )),
            "reply done #3"
        );
        assert_eq!(kind("not json"), "a frame not read");
    }

    #[test]
    fn requests_fail_while_away_and_the_kept_key_signs_in_again() {
        let dir = TempDir::new("link-state-away");
        let mut link = state(&dir, None);
        link.opened();
        let hello = sent(&mut link);
        link.heard(&welcome(&hello[0]["req"], Some("secret")));
        link.ask(1, Ask::Games {});
        link.ask(2, Ask::Games {});
        link.take_news();
        let wait = link.lost("closed by the server".into()).unwrap();
        assert!(wait <= Backoff::FIRST, "{wait:?}");
        link.ask(3, Ask::Games {});
        let news = link.take_news();
        let failed: Vec<u64> = news
            .iter()
            .filter_map(|n| match n {
                News::Answer {
                    tag,
                    result: Err(_),
                } => Some(*tag),
                _ => None,
            })
            .collect();
        assert_eq!(failed, vec![1, 2, 3], "{news:?}");
        assert!(news.contains(&News::Lost("closed by the server".into())));
        // Lost again before signing in: the wait grows.
        link.opened();
        link.take_out();
        let longer = link.lost("refused".into()).unwrap();
        assert!(longer > Backoff::FIRST / 2 * 2 - Duration::from_millis(1));
        link.opened();
        let again = sent(&mut link);
        assert_eq!(again[0]["ask"]["identity"]["key"], "secret");
        assert_eq!(again[0]["req"], 1, "a new connection numbers from 1");
        link.heard(&welcome(&again[0]["req"], None));
        // Signed in: the next loss waits a second at most again.
        assert!(link.lost("gone".into()).unwrap() <= Backoff::FIRST);
    }

    #[test]
    fn a_refused_hello_stops_the_link_and_later_requests_fail() {
        let dir = TempDir::new("link-state-refused");
        let mut link = state(&dir, None);
        link.ask(1, Ask::Games {});
        link.opened();
        let hello = sent(&mut link);
        let refused = serde_json::json!({"type": "refused", "req": hello[0]["req"],
            "refusal": {"code": "version", "server": 9, "client": 5}, "why": "too old", "closing": true});
        link.heard(&refused.to_string());
        assert!(link.stopped());
        link.ask(2, Ask::Games {});
        let news = link.take_news();
        assert!(
            matches!(&news[0], News::Refused(e) if e.to_string() == "too old"),
            "{news:?}"
        );
        assert!(matches!(
            news[1],
            News::Answer {
                tag: 1,
                result: Err(_)
            }
        ));
        assert!(matches!(
            news[2],
            News::Answer {
                tag: 2,
                result: Err(_)
            }
        ));
        assert_eq!(link.lost("closed".into()), None, "no connection again");
    }

    #[test]
    fn a_sign_in_link_not_taken_falls_back_to_the_name_given() {
        let dir = TempDir::new("link-state-token");
        let mut link = state(&dir, Some("tok"));
        link.opened();
        let hello = sent(&mut link);
        assert_eq!(hello[0]["ask"]["identity"]["token"], "tok");
        let refused = serde_json::json!({"type": "refused", "req": hello[0]["req"],
            "refusal": {"code": "link_expired"}, "why": "used", "closing": true});
        link.heard(&refused.to_string());
        assert!(!link.stopped());
        assert!(link.lost("closed".into()).is_some());
        link.opened();
        let again = sent(&mut link);
        assert_eq!(again[0]["ask"]["identity"]["name"], "Ann");
        // With no name and nobody kept, the link stops and the page asks for a name.
        let mut nameless = state(&dir, Some("tok"));
        nameless.who.name.clear();
        nameless.who.keys = KeyStore::new(dir.join("nobody"));
        nameless.opened();
        let hello = sent(&mut nameless);
        let refused = serde_json::json!({"type": "refused", "req": hello[0]["req"],
            "refusal": {"code": "link_expired"}, "why": "used", "closing": true});
        nameless.heard(&refused.to_string());
        assert!(nameless.stopped());
    }
}
