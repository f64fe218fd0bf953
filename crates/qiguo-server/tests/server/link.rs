//! The client crate's link (on a thread of its own, as the window uses it) against this server:
//! its own server started, a game created, opened and moved in, a second player joining through
//! another link (the first told when he comes and goes), the player's key kept for the next
//! time, and the link coming back after its server was stopped and started again.

use std::time::{Duration, Instant};

use crate::common::*;
use qiguo_client::{KeyStore, Link, News, Target, Trust, Who};
use qiguo_rules::{Kingdom, Level};
use qiguo_server::Pace;
use qiguo_server::log::Log;
use qiguo_server::protocol::{Answer, Ask, Event};
use qiguo_server::server::{ServerConfig, serve};
use qiguo_testkit::TempDir;

/// Takes from `link`'s news (those already polled in `kept` first) the first that `pick`
/// finds, keeping the others.
fn wait_for<T>(link: &Link, kept: &mut Vec<News>, mut pick: impl FnMut(&News) -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        kept.extend(link.poll());
        if let Some(i) = kept.iter().position(|n| pick(n).is_some()) {
            return pick(&kept.remove(i)).unwrap();
        }
        assert!(start.elapsed() < PATIENCE, "waited for news: {kept:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The link's own server, as the window starts it.
fn own(config: ServerConfig, log: Log) -> Target {
    Target::Own(Box::new(move || {
        Box::pin(async move {
            let running = serve(&config, log).await.map_err(|e| e.to_string())?;
            let url = format!("ws://127.0.0.1:{}", running.addr.port());
            Ok((url, Box::new(running) as Box<dyn std::any::Any + Send>))
        })
    }))
}

fn who(name: &str, language: Option<&str>, keys: std::path::PathBuf) -> Who {
    Who {
        name: name.into(),
        language: language.map(str::to_owned),
        keys: KeyStore::new(keys),
        token: None,
    }
}

fn answer(link: &Link, kept: &mut Vec<News>, tag: u64) -> Answer {
    wait_for(link, kept, |n| match n {
        News::Answer { tag: t, result } if *t == tag => Some(result.clone().unwrap()),
        _ => None,
    })
}

#[test]
fn a_window_link_serves_plays_and_is_joined() {
    let dir = TempDir::new("link");
    // Shown if the test fails.
    let quiet = Log::tapped(|level, line| println!("server: {level} {line}"));
    let mut config = ServerConfig::new(sqlite(&dir));
    config.port = 0;
    let mut ann = Link::start(own(config, quiet), who("Ann", Some("sv"), dir.join("ann")));
    let mut seen = Vec::new();
    let url = wait_for(&ann, &mut seen, |n| match n {
        News::Serving { url } => Some(url.clone()),
        _ => None,
    });
    wait_for(&ann, &mut seen, |n| {
        matches!(n, News::Connected { .. }).then_some(())
    });
    let tag = ann.ask(Ask::Create {
        game: new_game(seats(1, Level::Random), Pace::Live { wait_seconds: 600 }),
    });
    let Answer::Created { game, code } = answer(&ann, &mut seen, tag) else {
        panic!()
    };
    let tag = ann.ask(Ask::Open { game: game.clone() });
    assert!(matches!(answer(&ann, &mut seen, tag), Answer::Game(_)));
    let tag = ann.ask(Ask::Move {
        game: game.clone(),
        ply: 0,
        mv: "e10e5".into(),
    });
    assert_eq!(answer(&ann, &mut seen, tag), Answer::Moved { ply: 0 });
    wait_for(&ann, &mut seen, |n| {
        matches!(n, News::Event(Event::Moved { ply: 0, .. })).then_some(())
    });
    // Bo joins through a link of his own to Ann's server; Ann hears of it.
    let remote = Target::Remote {
        url: url.clone(),
        trust: Trust::default(),
    };
    let mut bo = Link::start(remote, who("Bo", None, dir.join("bo")));
    let mut bo_seen = Vec::new();
    wait_for(&bo, &mut bo_seen, |n| {
        matches!(n, News::Connected { .. }).then_some(())
    });
    let tag = bo.ask(Ask::Join {
        code,
        kingdom: Kingdom::Chu,
    });
    let Answer::Game(view) = answer(&bo, &mut bo_seen, tag) else {
        panic!()
    };
    assert_eq!(view.record.moves, vec!["e10e5".to_owned()]);
    wait_for(&ann, &mut seen, |n| {
        matches!(n, News::Event(Event::Seated { seat: 1, .. })).then_some(())
    });
    // Ann hears that Bo has the game open, and that he closed it.
    let presence = |n: &News| match n {
        News::Event(Event::Presence {
            seat: 1, present, ..
        }) => Some(*present),
        _ => None,
    };
    assert!(wait_for(&ann, &mut seen, presence));
    let tag = bo.ask(Ask::Close { game: game.clone() });
    assert_eq!(answer(&bo, &mut bo_seen, tag), Answer::Done);
    assert!(!wait_for(&ann, &mut seen, presence));
    // Bo's key is kept for Ann's server.
    let keys = KeyStore::new(dir.join("bo")).load().unwrap();
    assert_eq!(keys.servers[&url].name, "Bo");
}

/// A link to a server of a newer protocol version, which still answers this one, reports that
/// an update waits ([`News::Behind`]) after signing in. The server here is a stand-in that
/// welcomes in the next version's words.
#[test]
fn a_link_is_told_when_its_server_is_newer() {
    use futures_util::{SinkExt, StreamExt};
    use qiguo_server::protocol::PROTOCOL_VERSION;
    use tokio_tungstenite::tungstenite::Message;

    let dir = TempDir::new("link-behind");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let newer = tokio::runtime::Runtime::new().unwrap();
    newer.spawn(async move {
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        let (tcp, _) = listener.accept().await.unwrap();
        let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
        let Some(Ok(Message::Text(hello))) = ws.next().await else {
            panic!("a hello")
        };
        let hello: serde_json::Value = serde_json::from_str(&hello).unwrap();
        assert_eq!(hello["ask"]["version"], PROTOCOL_VERSION);
        let welcome = serde_json::json!({
            "type": "reply",
            "req": hello["req"],
            "answer": {"type": "welcome", "version": PROTOCOL_VERSION + 1,
                       "player": "p1", "name": "Ann", "key": "k1"},
        });
        ws.send(Message::text(welcome.to_string())).await.unwrap();
        // Open until the test ends.
        while let Some(Ok(_)) = ws.next().await {}
    });
    let remote = Target::Remote {
        url,
        trust: Trust::default(),
    };
    let link = Link::start(remote, who("Ann", None, dir.join("ann")));
    let mut seen = Vec::new();
    wait_for(&link, &mut seen, |n| {
        matches!(n, News::Connected { .. }).then_some(())
    });
    let server = wait_for(&link, &mut seen, |n| match n {
        News::Behind { server } => Some(*server),
        _ => None,
    });
    assert_eq!(server, PROTOCOL_VERSION + 1);
}

/// The server goes away and comes back on the same listener: the link says it lost the
/// connection, fails a request made meanwhile at once, connects again by the reconnection
/// policy and signs in as the same player with the key it kept.
#[test]
fn a_link_comes_back_after_its_server_restarts() {
    let dir = TempDir::new("link-restart");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let lines = Lines::default();
    let listener = loopback_listener();
    let mut config = ServerConfig::new(sqlite(&dir));
    config.listener = Some(listener.clone());
    let first = rt.block_on(serve_on(&config, None, &lines));
    let remote = Target::Remote {
        url: first.url(),
        trust: Trust::default(),
    };
    let mut link = Link::start(remote, who("Cy", None, dir.join("cy")));
    let mut seen = Vec::new();
    let connected = |n: &News| match n {
        News::Connected { player, .. } => Some(player.clone()),
        _ => None,
    };
    let player = wait_for(&link, &mut seen, connected);
    rt.block_on(first.shutdown(PATIENCE));
    drop(first);
    wait_for(&link, &mut seen, |n| {
        matches!(n, News::Lost(_)).then_some(())
    });
    // Away: failed at once, not kept waiting for the server.
    let tag = link.ask(Ask::Games {});
    let failed = wait_for(&link, &mut seen, |n| match n {
        News::Answer { tag: t, result } if *t == tag => Some(result.is_err()),
        _ => None,
    });
    assert!(failed, "a request made while away fails");
    let _second = rt.block_on(serve_on(&config, None, &lines));
    assert_eq!(wait_for(&link, &mut seen, connected), player);
    let tag = link.ask(Ask::Games {});
    assert!(matches!(
        answer(&link, &mut seen, tag),
        Answer::Games { .. }
    ));
}
