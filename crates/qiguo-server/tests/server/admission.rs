//! The server's limits, tried from outside its process as a flood would: the `qiguo-server`
//! binary on loopback with small limits, and connections from this test (some from 127.0.0.2,
//! another address of the loopback network, standing for a stranger). Each test is bounded in
//! connections and seconds and stops by itself.

use std::net::SocketAddr;
use std::process::Child;
use std::time::Duration;

use crate::common::*;
use qiguo_client::{ClientError, Trust};
use qiguo_rules::Level;
use qiguo_server::Pace;
use qiguo_server::protocol::{Answer, Ask, Identity, Refusal};
use qiguo_testkit::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const LIVE: Pace = Pace::Live { wait_seconds: 600 };

/// A server process, killed when dropped.
struct Server {
    child: Child,
    url: String,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Server {
    fn start(dir: &TempDir, args: &[&str]) -> Server {
        let (child, url, log) = server_binary(&sqlite(dir), args);
        Server { child, url, log }
    }

    fn addr(&self) -> SocketAddr {
        self.url.trim_start_matches("ws://").parse().unwrap()
    }

    fn said(&self, part: &str) -> usize {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains(part))
            .count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP connection to `to` from 127.0.0.2 (a stranger's address on the loopback network).
async fn from_stranger(to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    socket.connect(to).await.unwrap()
}

/// The head of what the server answers on `tcp` (through its blank line), with whatever
/// came with it; within [`PATIENCE`].
async fn head(tcp: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let read = tokio::time::timeout(PATIENCE, async {
        while !got.windows(4).any(|w| w == b"\r\n\r\n") {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "no answer within {PATIENCE:?}");
    String::from_utf8_lossy(&got).into_owned()
}

/// Everything the server sends on `tcp` until it closes it, which it must within
/// [`PATIENCE`].
async fn until_closed(tcp: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(PATIENCE, async {
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    let got = String::from_utf8_lossy(&got).into_owned();
    assert!(closed.is_ok(), "not closed within {PATIENCE:?}: {got}");
    got
}

/// A WebSocket upgrade's request, with an `X-Forwarded-For` if given.
fn upgrade_request(forwarded_for: Option<&str>) -> String {
    let mut request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\
        Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
        Sec-WebSocket-Version: 13\r\n"
        .to_owned();
    if let Some(ip) = forwarded_for {
        request.push_str(&format!("X-Forwarded-For: {ip}\r\n"));
    }
    request.push_str("\r\n");
    request
}

/// A person plays a move against six computers and it is answered.
async fn a_person_plays(url: &str, name: &str) {
    let (mut client, _) = newcomer(url, name).await;
    let (id, _) = create(&mut client, new_game(seats(0, Level::Random), LIVE)).await;
    let opened = client.ask(Ask::Open { game: id }).await.unwrap();
    let mut table = Table::new(client, opened);
    table.play(|moves| moves[0]).await;
    table.wait_turn().await;
    assert_eq!(table.game.len(), 7, "the person's move and six computers'");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_one_address_leaves_room_for_everyone_else() {
    let dir = TempDir::new("admission-flood");
    let server = Server::start(
        &dir,
        &[
            "--max-connections",
            "40",
            "--max-connections-per-address",
            "8",
            "--hello-within",
            "2",
        ],
    );
    let to = server.addr();
    // A stranger opens 60 WebSockets and never says hello: 8 are upgraded, the others are
    // told why.
    let mut opened = Vec::new();
    for _ in 0..60 {
        let mut tcp = from_stranger(to).await;
        tcp.write_all(upgrade_request(None).as_bytes())
            .await
            .unwrap();
        opened.push(tcp);
    }
    let mut refused = 0;
    let mut held = Vec::new();
    for mut tcp in opened {
        let said = head(&mut tcp).await;
        if said.starts_with("HTTP/1.1 503") {
            assert!(
                said.contains("too many connections from your address"),
                "{said}"
            );
            assert!(
                said.to_ascii_lowercase().contains("retry-after: 60"),
                "{said}"
            );
            until_closed(&mut tcp).await;
            refused += 1;
        } else {
            assert!(said.starts_with("HTTP/1.1 101"), "{said}");
            held.push(tcp);
        }
    }
    assert_eq!((held.len(), refused), (8, 52));
    // Meanwhile a person (127.0.0.1) is served as if nothing happened.
    a_person_plays(&server.url, "Ann").await;
    // The sessions that said no hello are closed by its deadline (2 s here), and the room
    // is given back.
    for tcp in &mut held {
        until_closed(tcp).await;
    }
    // The room is given back once the server has seen them closed (a moment after they are).
    let started = tokio::time::Instant::now();
    loop {
        let mut again = from_stranger(to).await;
        again
            .write_all(upgrade_request(None).as_bytes())
            .await
            .unwrap();
        let said = head(&mut again).await;
        if said.starts_with("HTTP/1.1 101") {
            break;
        }
        assert!(started.elapsed() < PATIENCE, "no room again: {said}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The flood is in the log as a few lines and a count, not one line a connection.
    assert!(server.said("too many connections from your address") <= 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_says_so_and_a_silent_connection_is_closed() {
    let dir = TempDir::new("admission-full");
    let server = Server::start(&dir, &["--max-connections", "3", "--hello-within", "1"]);
    let to = server.addr();
    // Two connections that say nothing, one that sends half a request's headers.
    let mut quiet = Vec::new();
    for _ in 0..3 {
        quiet.push(TcpStream::connect(to).await.unwrap());
    }
    quiet[2]
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut one_more = TcpStream::connect(to).await.unwrap();
    one_more
        .write_all(upgrade_request(None).as_bytes())
        .await
        .unwrap();
    let said = until_closed(&mut one_more).await;
    assert!(said.starts_with("HTTP/1.1 503"), "{said}");
    assert!(said.contains("the server is full"), "{said}");
    // They are closed by the deadline on their first request's headers...
    for tcp in &mut quiet {
        until_closed(tcp).await;
    }
    // ...and a person gets in; the server says it is healthy.
    a_person_plays(&server.url, "Bo").await;
    let mut health = TcpStream::connect(to).await.unwrap();
    health
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let said = until_closed(&mut health).await;
    assert!(said.starts_with("HTTP/1.1 200"), "{said}");
    assert!(said.ends_with("ok\n"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rates_and_caps_are_refused_with_their_reasons() {
    let dir = TempDir::new("admission-rates");
    let server = Server::start(
        &dir,
        &[
            "--new-players-per-minute",
            "3",
            "--max-connections-per-player",
            "2",
            "--max-games-per-player",
            "2",
            "--codes-per-minute",
            "4",
        ],
    );
    let url = &server.url;
    // New players: three a minute from one address; the fourth is told when to come back.
    let (mut ann, me) = newcomer(url, "Ann").await;
    newcomer(url, "Bo").await;
    newcomer(url, "Cy").await;
    let fourth =
        qiguo_client::connect(url, Identity::New { name: "Di".into() }, &Trust::default()).await;
    match fourth.map(|_| ()).unwrap_err() {
        ClientError::Refused {
            refusal: Refusal::SlowDown { seconds },
            ..
        } => assert!((1..=60).contains(&seconds)),
        other => panic!("{other:?}"),
    }
    // Ann's connections: two at once.
    let second = returning(url, &me).await;
    let identity = Identity::Player {
        id: me.player.clone(),
        key: me.key.clone().unwrap(),
    };
    let third = qiguo_client::connect(url, identity.clone(), &Trust::default()).await;
    assert!(matches!(
        third.map(|_| ()).unwrap_err().refusal(),
        Some(Refusal::TooManyConnections { max: 2 })
    ));
    second.close().await;
    // Given back as soon as the server has seen the close.
    let started = tokio::time::Instant::now();
    loop {
        match qiguo_client::connect(url, identity.clone(), &Trust::default()).await {
            Ok(_) => break,
            Err(e) => assert!(
                started.elapsed() < PATIENCE,
                "a closed connection gives its place back: {e}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Games in progress: two; a third is refused.
    let (_, code) = create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
    create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
    let third_game = ann
        .ask(Ask::Create {
            game: new_game(seats(0, Level::Random), LIVE),
        })
        .await;
    assert_eq!(
        third_game.unwrap_err().refusal(),
        Some(&Refusal::TooManyGames { max: 2 })
    );
    // Invitation codes: four a minute from one address, right or wrong.
    assert!(matches!(
        ann.ask(Ask::Watch { code: code.clone() }).await,
        Ok(Answer::Game(_))
    ));
    for guess in [
        "AAAA-BBBB-CCCC-DDDD",
        "AAAA-BBBB-CCCC-DDDE",
        "AAAA-BBBB-CCCC-DDDF",
    ] {
        let refused = ann
            .ask(Ask::Watch { code: guess.into() })
            .await
            .unwrap_err();
        assert_eq!(refused.refusal(), Some(&Refusal::NoCode));
    }
    let fifth = ann.ask(Ask::Watch { code }).await.unwrap_err();
    assert!(matches!(fifth.refusal(), Some(Refusal::SlowDown { .. })));
    // Refused, and still connected.
    assert!(matches!(
        ann.ask(Ask::Games {}).await,
        Ok(Answer::Games { .. })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_session_is_pinged_and_closed_when_it_does_not_answer() {
    let dir = TempDir::new("admission-idle");
    let server = Server::start(&dir, &["--ping-after", "2"]);
    let url = &server.url;
    let (mut awake, _) = newcomer(url, "Awake").await;
    // A client that never reads does not answer pings either: pinged after two silent
    // seconds, closed after two more.
    let (asleep, _) = newcomer(url, "Asleep").await;
    // The awake one only waits for news meanwhile: reading, it answers the server's pings.
    tokio::select! {
        news = awake.next_event() => panic!("no news, and not closed: {news:?}"),
        () = eventually("the silent one closed", || {
            server.said("answered nothing, not even a ping; closed") == 1
        }) => {}
    }
    assert!(matches!(
        awake.ask(Ask::Games {}).await,
        Ok(Answer::Games { .. })
    ));
    assert_eq!(server.said("answered nothing, not even a ping; closed"), 1);
    drop(asleep);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_named_proxy_says_who_the_client_is() {
    let dir = TempDir::new("admission-proxy");
    let server = Server::start(
        &dir,
        &[
            "--max-connections-per-address",
            "2",
            "--trusted-proxy",
            "127.0.0.1",
        ],
    );
    let to = server.addr();
    let upgrade = |tcp: TcpStream, forwarded: Option<&'static str>| async move {
        let mut tcp = tcp;
        tcp.write_all(upgrade_request(forwarded).as_bytes())
            .await
            .unwrap();
        let said = head(&mut tcp).await;
        (said, tcp)
    };
    // Through the proxy (127.0.0.1): counted by the client it names.
    let mut open = Vec::new();
    for _ in 0..2 {
        let (said, tcp) = upgrade(TcpStream::connect(to).await.unwrap(), Some("203.0.113.7")).await;
        assert!(said.starts_with("HTTP/1.1 101"), "{said}");
        open.push(tcp);
    }
    let (said, _) = upgrade(TcpStream::connect(to).await.unwrap(), Some("203.0.113.7")).await;
    assert!(said.starts_with("HTTP/1.1 503"), "{said}");
    assert!(said.contains("too many connections from your address"));
    let (said, tcp) = upgrade(
        TcpStream::connect(to).await.unwrap(),
        Some("1.2.3.4, 203.0.113.8"),
    )
    .await;
    assert!(said.starts_with("HTTP/1.1 101"), "another client: {said}");
    open.push(tcp);
    // The proxy that names nobody is refused.
    let (said, _) = upgrade(TcpStream::connect(to).await.unwrap(), None).await;
    assert!(said.contains("did not say who the client is"), "{said}");
    // Anyone else's header is not believed: 127.0.0.2 is counted as itself.
    for n in 0..3 {
        let (said, tcp) = upgrade(from_stranger(to).await, Some("198.51.100.1")).await;
        if n < 2 {
            assert!(said.starts_with("HTTP/1.1 101"), "{said}");
            open.push(tcp);
        } else {
            assert!(said.starts_with("HTTP/1.1 503"), "{said}");
        }
    }
}
