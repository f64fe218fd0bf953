//! The `qiguo-server` binary under load, measured from this process (a client outside the
//! server's), on loopback only, each part bounded in connections and seconds:
//!
//! - `floods`: one flood at a time from 127.0.0.2 (silent TCP connections, WebSockets that never
//!   say hello, half-sent headers, new players, code guesses, bad frames) while a person on
//!   127.0.0.1 plays a live game against six computers: the round trip of their moves during
//!   each flood, and the server's resident memory before, at its highest and after.
//! - `crowd [N]`: N signed-in connections (default 10,000), each following a game of its own
//!   against six computers: the server's resident memory with them, and after they leave.
//!
//! - `throughput [CONNECTED PLAYING ROUNDS]`: CONNECTED signed-in players (default 1,000), each
//!   following a game of their own, of which PLAYING (200) play ROUNDS (10) moves at once
//!   against six Random computers: the round trip of their moves, and the moves stored per
//!   second (theirs and the computers'). On SQLite, or on PostgreSQL with
//!   `QIGUO_LOAD_POSTGRES=URL`.
//!
//! - `quick [ASKERS SECONDS WATCHERS PLAYING]`: ASKERS new people (default 2,000) asking for quick
//!   play (brisk) evenly over SECONDS (60), each timed from the request to the answer that seats
//!   them with the game's position; no kingdom may be given twice. Meanwhile WATCHERS (1,000)
//!   follow the lobby (the pushes each gets are counted) and PLAYING (50) people play games of
//!   their own against six Random computers, their moves timed.
//!
//! - `reviews [WAITING ROUNDS]`: a person plays ROUNDS (default 10) rounds of a live game against
//!   six Easy computers on a server that reviews nothing, then on one with one reviewer and
//!   WAITING (50) finished quick games waiting for their reviews (each of 60 moves, then
//!   concessions): each round timed from the person's move to their turn again (the six
//!   computers' searches), and the reviews done meanwhile.
//!
//! - `arena [PEOPLE SECONDS]`: an arena (brisk, Easy computers) set by the operator's command
//!   on the database; PEOPLE (default 700) join it, half on each of two servers on one
//!   PostgreSQL (`QIGUO_LOAD_POSTGRES=URL`; one server on SQLite without it), and for SECONDS
//!   (120) each plays every table they are seated at by conceding on their first turn — their
//!   part over at once, so that they wait for a table again. Timed: each wait from the
//!   concession's answer to the next table; counted: tables, and anyone told of a table while
//!   their last one was not over for them (seated twice).
//!
//! `cargo bench -p qiguo-server --bench load -- floods|crowd [N]|throughput [C P R]|quick [A S W P]|reviews [W R]|arena [P S]`

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use qiguo_client::{Client, Trust};
use qiguo_rules::{Game, Level, PlayerInfo, Position, Record, Rules};
use qiguo_server::protocol::{Answer, Ask, Event, Identity, NewGame};
use qiguo_server::{GameId, MadeBy, Pace, SeatPlan};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The server process, killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(dir: &std::path::Path, args: &[&str]) -> Server {
        // The SQLite file in `dir`, unless `args` name a database.
        let sqlite = format!("sqlite://{}", dir.join("load.sqlite").display());
        let db = if args.contains(&"--db") {
            Vec::new()
        } else {
            vec!["--db", &sqlite]
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
            .args(["--port", "0", "--log", "qiguo_server=info"])
            .args(db)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let url = qiguo_testkit::wait_for_line(
            child.stdout.take().unwrap(),
            std::time::Duration::from_secs(90),
            "the server saying where it listens",
            qiguo_testkit::listening_url,
            |_| {},
        );
        Server { child, url }
    }

    fn addr(&self) -> SocketAddr {
        self.url.trim_start_matches("ws://").parse().unwrap()
    }

    /// Resident memory, in MB.
    fn rss_mb(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn new_game() -> NewGame {
    let game = Game::new(Position::start(Rules::default()));
    let mut seats = vec![SeatPlan::Creator];
    seats.extend([SeatPlan::Computer(Level::Random); 6]);
    NewGame {
        start: Record::from_game(&game, PlayerInfo::defaults(7)),
        seats,
        pace: Pace::Live { wait_seconds: 600 },
    }
}

async fn newcomer(url: &str, name: String) -> Client {
    qiguo_client::connect(url, Identity::New { name }, &Trust::default())
        .await
        .unwrap()
        .0
}

/// A person at a game of their own against six computers.
struct Person {
    client: Client,
    id: GameId,
    game: Game,
}

impl Person {
    async fn sit(url: &str, name: String) -> Person {
        let mut client = newcomer(url, name).await;
        let Answer::Created { game: id, .. } =
            client.ask(Ask::Create { game: new_game() }).await.unwrap()
        else {
            panic!()
        };
        let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await.unwrap() else {
            panic!()
        };
        let game = view.record.replay().unwrap();
        Person { client, id, game }
    }

    /// A new game for the same person's client, once the last is over.
    async fn sit_again(person: Person, n: usize) -> Person {
        let mut client = person.client;
        let Answer::Created { game: id, .. } =
            client.ask(Ask::Create { game: new_game() }).await.unwrap()
        else {
            panic!("game {n}")
        };
        let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await.unwrap() else {
            panic!()
        };
        let game = view.record.replay().unwrap();
        Person { client, id, game }
    }

    /// Plays a move once it is Qin's turn again: the move's round trip, `None` when the game
    /// is over.
    async fn play(&mut self, n: usize) -> Option<Duration> {
        loop {
            let pos = self.game.position();
            if pos.is_over() || pos.player_of(pos.to_move()) == 0 {
                break;
            }
            if let Event::Moved { mv, by, ply, .. } = self.client.next_event().await.unwrap()
                && ply as usize == self.game.len()
            {
                let mv = qiguo_rules::notation::parse_move(&mv).unwrap();
                if by == MadeBy::OverduePass {
                    self.game.pass_overdue().unwrap();
                } else {
                    self.game.play(mv).unwrap();
                }
            }
        }
        if self.game.position().is_over() {
            return None;
        }
        let moves = self.game.position().legal_moves();
        let mv = moves[(n * 13) % moves.len()];
        let start = Instant::now();
        let answer = self
            .client
            .ask(Ask::Move {
                game: self.id.clone(),
                ply: self.game.len() as u32,
                mv: mv.to_string(),
            })
            .await
            .unwrap();
        let trip = start.elapsed();
        assert!(matches!(answer, Answer::Moved { .. }));
        self.game.play(mv).unwrap();
        Some(trip)
    }
}

/// `n` people, each at a game of their own, sat down 100 at a time.
async fn sit_down(url: &str, n: usize, name: &str) -> Vec<Person> {
    let mut people = Vec::with_capacity(n);
    while people.len() < n {
        let batch: Vec<_> = (people.len()..(people.len() + 100).min(n))
            .map(|i| {
                let (url, name) = (url.to_owned(), format!("{name} {i}"));
                tokio::spawn(async move { Person::sit(&url, name).await })
            })
            .collect();
        for task in batch {
            people.push(task.await.unwrap());
        }
    }
    people
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A TCP connection from 127.0.0.2.
async fn stranger(to: SocketAddr) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind("127.0.0.2:0".parse().unwrap()).ok()?;
    tokio::time::timeout(Duration::from_secs(2), socket.connect(to))
        .await
        .ok()?
        .ok()
}

const UPGRADE: &str = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\
    Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
    Sec-WebSocket-Version: 13\r\n\r\n";

/// One kind of flood: runs until `stop`, counting the attempts it made.
async fn flood(kind: &'static str, to: SocketAddr, url: String, stop: Arc<AtomicBool>) -> usize {
    let made = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    // Many at once, each one trying again and again.
    let lanes = match kind {
        "silent TCP connections" | "half-sent headers" => 400,
        _ => 50,
    };
    for lane in 0..lanes {
        let (stop, made, url) = (stop.clone(), made.clone(), url.clone());
        tasks.push(tokio::spawn(async move {
            let mut held = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                made.fetch_add(1, Ordering::Relaxed);
                match kind {
                    "silent TCP connections" => {
                        if let Some(tcp) = stranger(to).await {
                            held.push(tcp);
                        }
                        if held.len() > 4 {
                            held.remove(0);
                        }
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    "half-sent headers" => {
                        if let Some(mut tcp) = stranger(to).await {
                            let _ = tcp.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await;
                            // A byte now and then, never the end of the headers.
                            for _ in 0..20 {
                                if stop.load(Ordering::Relaxed)
                                    || tcp.write_all(b"X").await.is_err()
                                {
                                    break;
                                }
                                tokio::time::sleep(Duration::from_millis(500)).await;
                            }
                        } else {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                    }
                    "WebSockets that say no hello" => {
                        if let Some(mut tcp) = stranger(to).await {
                            let _ = tcp.write_all(UPGRADE.as_bytes()).await;
                            let mut buf = [0u8; 512];
                            let _ = tcp.read(&mut buf).await;
                            held.push(tcp);
                            if held.len() > 2 {
                                held.remove(0);
                            }
                        }
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    "new players" | "code guesses" | "bad frames" => {
                        let Some(tcp) = stranger(to).await else {
                            continue;
                        };
                        let Ok((ws, _)) = tokio_tungstenite::client_async(url.as_str(), tcp).await
                        else {
                            continue;
                        };
                        let mut client = qiguo_protocol_client(ws);
                        let identity = Identity::New {
                            name: format!("Flood {lane}"),
                        };
                        match kind {
                            "new players" => {
                                let _ = client.hello(identity).await;
                            }
                            "code guesses" => {
                                if client.hello(identity).await.is_ok() {
                                    for g in 0..200 {
                                        if stop.load(Ordering::Relaxed) {
                                            break;
                                        }
                                        let code = format!("AAAA-BBBB-CCCC-{g:04}");
                                        if let Err(e) = client.ask(Ask::Watch { code }).await
                                            && e.is_lost()
                                        {
                                            break;
                                        }
                                    }
                                }
                            }
                            _ => {
                                for _ in 0..20 {
                                    if client.send_text("{not json".into()).await.is_err() {
                                        break;
                                    }
                                }
                            }
                        }
                        client.close().await;
                    }
                    _ => unreachable!(),
                }
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    made.load(Ordering::Relaxed)
}

/// The protocol's client over a WebSocket made here (from another source address).
fn qiguo_protocol_client(
    ws: tokio_tungstenite::WebSocketStream<TcpStream>,
) -> qiguo_server::protocol::client::Client<Raw> {
    qiguo_server::protocol::client::Client::new(Raw(ws))
}

/// A WebSocket over a plain TCP stream, carrying text frames.
struct Raw(tokio_tungstenite::WebSocketStream<TcpStream>);

impl qiguo_protocol::client::Transport for Raw {
    async fn send(&mut self, text: String) -> Result<(), qiguo_client::ClientError> {
        use futures_util::SinkExt;
        self.0
            .send(tokio_tungstenite::tungstenite::Message::Text(text.into()))
            .await
            .map_err(|e| qiguo_client::ClientError::Connection(e.to_string()))
    }

    async fn recv(
        &mut self,
        within: Option<Duration>,
    ) -> Result<String, qiguo_client::ClientError> {
        use futures_util::StreamExt;
        use qiguo_client::ClientError;
        let read = async {
            loop {
                match self.0.next().await {
                    Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) => {
                        return Ok(t.as_str().to_owned());
                    }
                    Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) | None => {
                        return Err(ClientError::Connection("closed".into()));
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Err(ClientError::Connection(e.to_string())),
                }
            }
        };
        match within {
            Some(within) => tokio::time::timeout(within, read)
                .await
                .map_err(|_| ClientError::Timeout)?,
            None => read.await,
        }
    }

    async fn close(&mut self) {
        let _ = self.0.close(None).await;
    }
}

async fn floods(dir: PathBuf) {
    let server = Server::start(&dir, &[]);
    let url = server.url.clone();
    let to = server.addr();
    let mut person = Person::sit(&url, "Ann".into()).await;
    let mut n = 0;
    // Warm up: a few rounds, then the memory before any flood.
    for _ in 0..5 {
        person.play(n).await;
        n += 1;
    }
    println!(
        "| flood (10 s, from 127.0.0.2) | attempts | move p50 | move p99 | moves | RSS before | RSS highest | RSS 20 s after |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for kind in [
        "silent TCP connections",
        "WebSockets that say no hello",
        "half-sent headers",
        "new players",
        "code guesses",
        "bad frames",
    ] {
        if person.game.position().is_over() {
            person = Person::sit(&url, format!("Ann {n}")).await;
        }
        let before = server.rss_mb();
        let stop = Arc::new(AtomicBool::new(false));
        let flooding = tokio::spawn(flood(kind, to, url.clone(), stop.clone()));
        let start = Instant::now();
        let mut trips = Vec::new();
        let mut highest = before;
        while start.elapsed() < Duration::from_secs(10) {
            match person.play(n).await {
                Some(trip) => trips.push(trip),
                None => person = Person::sit(&url, format!("Ann {n}")).await,
            }
            n += 1;
            highest = highest.max(server.rss_mb());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        stop.store(true, Ordering::Relaxed);
        let attempts = flooding.await.unwrap();
        // The deadlines close what the flood left (10 s each), then the memory settles.
        let settle = Instant::now();
        while settle.elapsed() < Duration::from_secs(20) {
            highest = highest.max(server.rss_mb());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        trips.sort();
        println!(
            "| {kind} | {attempts} | {:.1} ms | {:.1} ms | {} | {before:.1} MB | {highest:.1} MB | {:.1} MB |",
            ms(percentile(&trips, 0.5)),
            ms(percentile(&trips, 0.99)),
            trips.len(),
            server.rss_mb()
        );
    }
}

async fn crowd(dir: PathBuf, n: usize) {
    let limit = (n + 100).to_string();
    let server = Server::start(
        &dir,
        &[
            "--max-connections",
            &limit,
            "--max-connections-per-address",
            &limit,
            "--new-players-per-minute",
            "1000000",
            "--new-games-per-minute",
            "1000000",
        ],
    );
    let url = server.url.clone();
    let empty = server.rss_mb();
    let start = Instant::now();
    let people = sit_down(&url, n, "Crowd").await;
    let seated = start.elapsed();
    tokio::time::sleep(Duration::from_secs(12)).await;
    let full = server.rss_mb();
    println!(
        "{n} signed-in connections, each following a game of its own against six computers \
         ({:.0} s to sit them down): server RSS {empty:.1} MB empty, {full:.1} MB with them \
         ({:.1} KB a connection and its game)",
        seated.as_secs_f64(),
        (full - empty) * 1024.0 / n as f64
    );
    for person in people {
        person.client.close().await;
    }
    // Their games are let go within the hub's sweep (10 s).
    tokio::time::sleep(Duration::from_secs(25)).await;
    println!("after they left: server RSS {:.1} MB", server.rss_mb());
}

/// `connected` signed-in players of which `playing` play `rounds` moves each at once against six
/// Random computers: the round trip of their moves and the moves stored per second.
async fn throughput(
    dir: PathBuf,
    db: Option<String>,
    connected: usize,
    playing: usize,
    rounds: usize,
) {
    let limit = (connected + 100).to_string();
    let mut args = vec![
        "--max-connections",
        &limit,
        "--max-connections-per-address",
        &limit,
        "--new-players-per-minute",
        "1000000",
        "--new-games-per-minute",
        "1000000",
    ];
    let db_arg;
    if let Some(url) = &db {
        db_arg = url.clone();
        args.extend(["--db", &db_arg]);
    }
    let server = Server::start(&dir, &args);
    let url = server.url.clone();
    // The idle ones: signed in, each following a game of its own.
    let idle = sit_down(&url, connected - playing, "Idle").await;
    let mut people = Vec::new();
    for i in 0..playing {
        people.push(Person::sit(&url, format!("Player {i}")).await);
    }
    let start = Instant::now();
    let tasks: Vec<_> = people
        .into_iter()
        .enumerate()
        .map(|(i, mut person)| {
            tokio::spawn(async move {
                let mut trips = Vec::new();
                for round in 0..rounds {
                    match person.play(i + round).await {
                        Some(trip) => trips.push(trip),
                        None => break,
                    }
                }
                // The computers' answer to the last move, for the count of moves stored.
                let _ = person.play(i + rounds).await;
                (trips, person.game.len())
            })
        })
        .collect();
    let mut trips = Vec::new();
    let mut moves = 0;
    for task in tasks {
        let (t, n) = task.await.unwrap();
        trips.extend(t);
        moves += n;
    }
    let took = start.elapsed();
    trips.sort();
    println!(
        "| {} | {connected} | {playing} | {} | {:.1} ms | {:.1} ms | {:.1} ms | {} | {:.0} |",
        if db.is_some() { "PostgreSQL" } else { "SQLite" },
        trips.len(),
        ms(percentile(&trips, 0.5)),
        ms(percentile(&trips, 0.99)),
        ms(*trips.last().unwrap_or(&Duration::ZERO)),
        moves,
        moves as f64 / took.as_secs_f64()
    );
    drop(idle);
}

/// `askers` new people asking for quick play evenly over `seconds`, while `watchers` follow the
/// lobby and `playing` people play their own games: the seats' and the moves' times, the
/// lobby's pushes.
async fn quick(dir: PathBuf, askers: usize, seconds: u64, watchers: usize, playing: usize) {
    use qiguo_server::QuickPace;
    use std::collections::HashSet;

    let limit = (askers + watchers + playing + 100).to_string();
    let server = Server::start(
        &dir,
        &[
            "--max-connections",
            &limit,
            "--max-connections-per-address",
            &limit,
            "--new-players-per-minute",
            "1000000",
            "--new-games-per-minute",
            "1000000",
        ],
    );
    let url = server.url.clone();
    // The lobby's followers, each counting the views pushed to it.
    let stop = Arc::new(AtomicBool::new(false));
    let pushes = Arc::new(AtomicUsize::new(0));
    let mut following = Vec::new();
    while following.len() < watchers {
        let batch: Vec<_> = (following.len()..(following.len() + 100).min(watchers))
            .map(|i| {
                let url = url.clone();
                tokio::spawn(async move {
                    let mut client = newcomer(&url, format!("Watcher {i}")).await;
                    let answer = client.ask(Ask::Lobby { follow: true }).await.unwrap();
                    assert!(matches!(answer, Answer::Lobby(_)));
                    client
                })
            })
            .collect();
        for task in batch {
            following.push(task.await.unwrap());
        }
    }
    let last_view = Arc::new(std::sync::Mutex::new(None));
    let listeners: Vec<_> = following
        .into_iter()
        .map(|mut client| {
            let (stop, pushes, last_view) = (stop.clone(), pushes.clone(), last_view.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    match tokio::time::timeout(Duration::from_millis(500), client.next_event())
                        .await
                    {
                        Ok(Ok(Event::Lobby(view))) => {
                            pushes.fetch_add(1, Ordering::Relaxed);
                            *last_view.lock().unwrap() = Some(*view);
                        }
                        Ok(Ok(_)) | Err(_) => {}
                        Ok(Err(e)) => panic!("a watcher lost the server: {e}"),
                    }
                }
                client
            })
        })
        .collect();
    // The people playing their own games, moving as often as their computers let them.
    let players = sit_down(&url, playing, "Player").await;
    let movers: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, mut person)| {
            let stop = stop.clone();
            tokio::spawn(async move {
                let mut trips = Vec::new();
                let mut n = i;
                while !stop.load(Ordering::Relaxed) {
                    match person.play(n).await {
                        Some(trip) => trips.push(trip),
                        None => person = Person::sit_again(person, n).await,
                    }
                    n += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                trips
            })
        })
        .collect();
    // The askers, evenly over the time given; each stays connected.
    let pushes_before = pushes.load(Ordering::Relaxed);
    let start = Instant::now();
    let every = Duration::from_secs(seconds) / askers.max(1) as u32;
    let mut asks = Vec::with_capacity(askers);
    for i in 0..askers {
        tokio::time::sleep_until((start + every * i as u32).into()).await;
        let url = url.clone();
        asks.push(tokio::spawn(async move {
            let mut client = newcomer(&url, format!("Newcomer {i}")).await;
            let asked = Instant::now();
            let answer = client
                .ask(Ask::Quick {
                    pace: QuickPace::Brisk,
                })
                .await
                .unwrap();
            let took = asked.elapsed();
            let Answer::Seated {
                kingdom,
                took_over,
                game,
            } = answer
            else {
                panic!("{answer:?}")
            };
            // The position shown is the game's.
            game.record.replay().unwrap();
            (took, game.id, kingdom, took_over.is_some(), client)
        }));
    }
    let mut seats = Vec::with_capacity(askers);
    let mut given = HashSet::new();
    let mut taken_over = 0;
    let mut clients = Vec::new();
    for ask in asks {
        let (took, game, kingdom, over, client) = ask.await.unwrap();
        assert!(given.insert((game, kingdom)), "a kingdom given twice");
        seats.push(took);
        taken_over += usize::from(over);
        clients.push(client);
    }
    let wall = start.elapsed();
    // The lobby settles on the last count.
    tokio::time::sleep(Duration::from_secs(3)).await;
    stop.store(true, Ordering::Relaxed);
    let pushed = pushes.load(Ordering::Relaxed) - pushes_before;
    let mut trips = Vec::new();
    for mover in movers {
        trips.extend(mover.await.unwrap());
    }
    for listener in listeners {
        drop(listener.await.unwrap());
    }
    seats.sort();
    trips.sort();
    let view = last_view.lock().unwrap().clone().unwrap_or_default();
    let brisk = view
        .paces
        .iter()
        .find(|p| p.pace == QuickPace::Brisk)
        .map_or((0, 0), |p| (p.playing, p.waiting));
    println!(
        "{askers} quick asks over {:.1} s ({} took a kingdom over, {} new games; no kingdom \
         twice): seated in p50 {:.1} ms, p99 {:.1} ms, slowest {:.1} ms",
        wall.as_secs_f64(),
        taken_over,
        askers - taken_over,
        ms(percentile(&seats, 0.5)),
        ms(percentile(&seats, 0.99)),
        ms(*seats.last().unwrap_or(&Duration::ZERO))
    );
    println!(
        "meanwhile {playing} people playing their own games: {} moves, p50 {:.1} ms, p99 {:.1} ms, \
         slowest {:.1} ms",
        trips.len(),
        ms(percentile(&trips, 0.5)),
        ms(percentile(&trips, 0.99)),
        ms(*trips.last().unwrap_or(&Duration::ZERO))
    );
    println!(
        "{watchers} lobby followers: {pushed} views pushed ({:.1} each); the last said {} online, \
         brisk {} playing and {} waiting; server RSS {:.1} MB",
        pushed as f64 / watchers.max(1) as f64,
        view.online,
        brisk.0,
        brisk.1,
        server.rss_mb()
    );
    drop(clients);
}

/// Plays `rounds` rounds against six Easy computers on `server` (a new game whenever one is
/// over): each round's time, from the person's move to their turn again.
async fn rounds_against_easy(server: &Server, name: &str, rounds: usize) -> Vec<Duration> {
    let client = newcomer(&server.url, name.into()).await;
    let easy_game = |client: Client| async move {
        let game = Game::new(Position::start(Rules::default()));
        let mut seats = vec![SeatPlan::Creator];
        seats.extend([SeatPlan::Computer(Level::Easy); 6]);
        let spec = NewGame {
            start: Record::from_game(&game, PlayerInfo::defaults(7)),
            seats,
            pace: Pace::Live { wait_seconds: 600 },
        };
        let mut client = client;
        let Answer::Created { game: id, .. } =
            client.ask(Ask::Create { game: spec }).await.unwrap()
        else {
            panic!()
        };
        let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await.unwrap() else {
            panic!()
        };
        Person {
            client,
            id,
            game: view.record.replay().unwrap(),
        }
    };
    let mut person = easy_game(client).await;
    let mut times = Vec::with_capacity(rounds);
    let mut last: Option<Instant> = None;
    let mut n = 0;
    while times.len() < rounds {
        // `play` waits for the person's turn, then moves (its round trip returned): the round
        // is from the last move's answer to this move's sending.
        n += 1;
        let Some(trip) = person.play(n).await else {
            let _ = person
                .client
                .ask(Ask::Close {
                    game: person.id.clone(),
                })
                .await;
            person = easy_game(person.client).await;
            last = None;
            continue;
        };
        let now = Instant::now();
        if let Some(answered) = last {
            times.push(now.duration_since(answered).saturating_sub(trip));
        }
        last = Some(now);
    }
    times
}

async fn reviews(dir: PathBuf, waiting: usize, rounds: usize) {
    use qiguo_server::protocol::QuickPace;
    use qiguo_server::store::reviews::ReviewState;
    let url = format!("sqlite://{}?mode=rwc", dir.join("load.sqlite").display());
    // The games waiting for their reviews, written before any server starts.
    let store = qiguo_server::Store::open(&url).await.unwrap();
    let ann = store.add_player("Ann").await.unwrap().id;
    let mut finished = Vec::new();
    for g in 0..waiting {
        let id = store
            .create_quick_game(&ann, &new_game(), QuickPace::Relaxed)
            .await
            .unwrap()
            .id;
        let mut game = Game::new(Position::start(Rules::default()));
        let mut ply = 0u32;
        while !game.position().is_over() {
            let moves = game.position().legal_moves();
            let mv = if ply < 60 {
                moves[(g * 7 + ply as usize * 13) % moves.len()]
            } else {
                qiguo_rules::Move::CONCEDE
            };
            game.play(mv).unwrap();
            let ends = game.position().is_over();
            store
                .append_move(
                    &id,
                    ply,
                    mv,
                    (ply % 7) as u8,
                    MadeBy::Seat,
                    ends,
                    None,
                    Vec::new(),
                )
                .await
                .unwrap();
            ply += 1;
        }
        finished.push(id);
    }
    let done = |store: qiguo_server::Store, games: Vec<GameId>| async move {
        let mut n = 0;
        for id in &games {
            if matches!(
                store.review_state(id).await.unwrap(),
                ReviewState::Done { .. }
            ) {
                n += 1;
            }
        }
        n
    };
    println!(
        "| reviewers | reviews waiting | rounds timed | p50 | p90 | slowest | reviews done meanwhile |"
    );
    println!("|---|---|---|---|---|---|---|");
    for reviewers in ["0", "1"] {
        let server = Server::start(&dir, &["--db", &url, "--reviewers", reviewers]);
        let name = format!("Player {reviewers}");
        let mut times = rounds_against_easy(&server, &name, rounds).await;
        let reviewed = done(store.clone(), finished.clone()).await;
        times.sort();
        println!(
            "| {reviewers} | {waiting} | {} | {:.0} ms | {:.0} ms | {:.0} ms | {reviewed} |",
            times.len(),
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.9)),
            ms(times.last().copied().unwrap_or_default()),
        );
        drop(server);
    }
    store.close().await;
}

/// The `arena` part: see the module's description.
async fn arena(dir: PathBuf, db: Option<String>, people: usize, seconds: u64) {
    let limit = (people + 100).to_string();
    let mut args = vec![
        "--max-connections",
        &limit,
        "--max-connections-per-address",
        &limit,
        "--new-players-per-minute",
        "1000000",
        "--new-games-per-minute",
        "1000000",
    ];
    let sqlite = format!("sqlite://{}?mode=rwc", dir.join("load.sqlite").display());
    let db_url = db.clone().unwrap_or(sqlite);
    args.extend(["--db", &db_url]);
    let servers: Vec<Server> = if db.is_some() {
        vec![Server::start(&dir, &args), Server::start(&dir, &args)]
    } else {
        vec![Server::start(&dir, &args)]
    };
    // A name of this run's own (a PostgreSQL database may hold earlier runs).
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        % 1_000_000;
    let name = format!("Load Arena {run}");
    // People join over a few seconds each hundred: the arena starts once they all could have.
    let lead = 20 + people as u64 / 20;
    let starts = std::time::SystemTime::now() + Duration::from_secs(lead);
    let starts_ms = starts
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let starts_text = jiff::Timestamp::from_millisecond(starts_ms)
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let made = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
        .args(["tournament", "--db", &db_url, "--name", &name])
        .args(["--format", "arena", "--pace", "brisk", "--minutes", "60"])
        .args(["--level", "easy", "--unrated", "--starts", &starts_text])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let mut clients = Vec::with_capacity(people);
    for i in 0..people {
        let url = &servers[i % servers.len()].url;
        let mut client = newcomer(url, format!("A{run} {i}")).await;
        client
            .ask(Ask::TournamentJoin { name: name.clone() })
            .await
            .unwrap();
        clients.push(client);
    }
    println!(
        "arena: {people} people joined on {} server(s); it starts in {:.0} s",
        servers.len(),
        (starts_ms - qiguo_server::store::now_ms()) as f64 / 1000.0
    );
    let until = tokio::time::Instant::now()
        + Duration::from_millis((starts_ms - qiguo_server::store::now_ms()).max(0) as u64)
        + Duration::from_secs(seconds);
    let twice = Arc::new(AtomicUsize::new(0));
    let tables = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|client| {
            let (twice, tables) = (twice.clone(), tables.clone());
            let name = name.clone();
            tokio::spawn(async move { arena_person(client, name, until, twice, tables).await })
        })
        .collect();
    let mut waits = Vec::new();
    for task in tasks {
        waits.extend(task.await.unwrap());
    }
    waits.sort();
    let rss: Vec<String> = servers
        .iter()
        .map(|s| format!("{:.0} MB", s.rss_mb()))
        .collect();
    println!(
        "arena: {} seatings in {seconds} s of play; waits for a table again: {} timed, p50 \
         {:.0} ms, p99 {:.0} ms, slowest {:.0} ms; seated twice: {}; servers' RSS {}",
        tables.load(Ordering::Relaxed),
        waits.len(),
        ms(percentile(&waits, 0.50)),
        ms(percentile(&waits, 0.99)),
        ms(waits.last().copied().unwrap_or_default()),
        twice.load(Ordering::Relaxed),
        rss.join(", ")
    );
}

/// One person of the `arena` part until `until`: every table they are told of, opened and
/// conceded on their first turn; each wait from a concession's answer to the next table.
async fn arena_person(
    mut client: Client,
    tournament: String,
    until: tokio::time::Instant,
    twice: Arc<AtomicUsize>,
    tables: Arc<AtomicUsize>,
) -> Vec<Duration> {
    let mut waits = Vec::new();
    // The game they play now (its record so far, their seats), and since when they wait.
    let mut playing: Option<(GameId, Game, Vec<u8>)> = None;
    let mut free_since: Option<Instant> = None;
    loop {
        let event = match tokio::time::timeout_at(until, client.next_event()).await {
            Ok(Ok(event)) => event,
            _ => break,
        };
        match event {
            Event::TournamentSeated {
                tournament: t,
                game,
                ..
            } if t == tournament => {
                tables.fetch_add(1, Ordering::Relaxed);
                if playing.is_some() {
                    twice.fetch_add(1, Ordering::Relaxed);
                }
                if let Some(since) = free_since.take() {
                    waits.push(since.elapsed());
                }
                let Ok(Answer::Game(view)) = client.ask(Ask::Open { game: game.clone() }).await
                else {
                    continue;
                };
                let mine: Vec<u8> = (0..view.seats.len() as u8)
                    .filter(|&i| view.seats[usize::from(i)].yours)
                    .collect();
                let Ok(record) = view.record.replay() else {
                    continue;
                };
                playing = Some((game, record, mine));
            }
            Event::Moved { game, mv, by, .. } => {
                let Some((id, record, _)) = &mut playing else {
                    continue;
                };
                if game != *id {
                    continue;
                }
                let Ok(mv) = qiguo_rules::notation::parse_move(&mv) else {
                    continue;
                };
                let _ = if by == MadeBy::OverduePass {
                    record.pass_overdue()
                } else {
                    record.play(mv)
                };
                if record.position().is_over() {
                    // Over with them still in it (the last standing): free once it is scored.
                    let id = id.clone();
                    playing = None;
                    free_since = Some(Instant::now());
                    let _ = client.ask(Ask::Close { game: id }).await;
                }
            }
            _ => {}
        }
        // Their turn: they concede, and their part is over.
        let turn = playing.as_ref().and_then(|(id, record, mine)| {
            let pos = record.position();
            (!pos.is_over() && mine.contains(&pos.player_of(pos.to_move())))
                .then(|| (id.clone(), record.len() as u32))
        });
        if let Some((id, ply)) = turn {
            let conceded = client
                .ask(Ask::Move {
                    game: id.clone(),
                    ply,
                    mv: "concede".into(),
                })
                .await;
            if conceded.is_ok() {
                free_since = Some(Instant::now());
                playing = None;
                let _ = client.ask(Ask::Close { game: id }).await;
            }
        }
    }
    waits
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("server-load");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    match args.first().map(String::as_str) {
        Some("floods") => rt.block_on(floods(dir)),
        Some("crowd") => {
            let n = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(10_000);
            rt.block_on(crowd(dir, n));
        }
        Some("throughput") => {
            let number =
                |i: usize, default| args.get(i).and_then(|n| n.parse().ok()).unwrap_or(default);
            let db = std::env::var("QIGUO_LOAD_POSTGRES").ok();
            println!(
                "| database | connected | playing | moves timed | p50 | p99 | slowest | moves stored | moves stored / s |"
            );
            println!("|---|---|---|---|---|---|---|---|---|");
            rt.block_on(throughput(
                dir,
                db,
                number(1, 1000),
                number(2, 200),
                number(3, 10),
            ));
        }
        Some("quick") => {
            let number =
                |i: usize, default| args.get(i).and_then(|n| n.parse().ok()).unwrap_or(default);
            rt.block_on(quick(
                dir,
                number(1, 2000),
                number(2, 60) as u64,
                number(3, 1000),
                number(4, 50),
            ));
        }
        Some("arena") => {
            let number =
                |i: usize, default| args.get(i).and_then(|n| n.parse().ok()).unwrap_or(default);
            let db = std::env::var("QIGUO_LOAD_POSTGRES").ok();
            rt.block_on(arena(dir, db, number(1, 700), number(2, 120) as u64));
        }
        Some("reviews") => {
            let number =
                |i: usize, default| args.get(i).and_then(|n| n.parse().ok()).unwrap_or(default);
            rt.block_on(reviews(dir, number(1, 50), number(2, 10)));
        }
        _ => eprintln!(
            "cargo bench -p qiguo-server --bench load -- floods | crowd [N] | reviews [W R] | \
             throughput [CONNECTED PLAYING ROUNDS] (QIGUO_LOAD_POSTGRES=URL for PostgreSQL) | \
             quick [ASKERS SECONDS WATCHERS PLAYING] | arena [PEOPLE SECONDS]"
        ),
    }
}
