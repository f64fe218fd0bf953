//! Servers on one PostgreSQL agree: two real servers on one database serve the same game, each
//! turn searched and stored by one of them; a take-back asked on one is agreed on the other; a
//! stand-in never plays for a player present on the other server; and a change made while a
//! server's listener was cut reaches its players once it listens again.
//!
//! These tests need `QIGUO_POSTGRES_URL` when they are built (and run); without it they are
//! ignored.

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::*;
use qiguo_rules::{Kingdom, Level};
use qiguo_server::Pace;
use qiguo_server::Store;
use qiguo_server::hub::listener_name;
use qiguo_server::protocol::{Ask, Event};
use qiguo_server::server::Running;
use qiguo_server::store::Clock;
use qiguo_server::{GameId, MadeBy};
use sqlx::postgres::PgConnectOptions;

const LIVE: Pace = Pace::Live { wait_seconds: 600 };

/// Ann on server `a` creates a live game of `pace` with one open seat (Chu) and Random
/// computers; Bo joins it through server `b`. Their tables, Ann's first.
async fn ann_and_bo(a: &str, b: &str, pace: Pace) -> (Table, Table) {
    let (mut ann, _) = newcomer(a, "Ann").await;
    let (bo, _) = newcomer(b, "Bo").await;
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), pace)).await;
    let opened = ann.ask(Ask::Open { game: id }).await.unwrap();
    (Table::new(ann, opened), join(bo, &code, Kingdom::Chu).await)
}

/// Two servers on the database `db` (with `clock`, if given), each with its log.
async fn two_servers(db: &str, clock: Option<Clock>) -> (Running, Lines, Running, Lines) {
    let (lines_a, lines_b) = (Lines::default(), Lines::default());
    let a = start(db, clock.clone(), &lines_a).await;
    let b = start(db, clock, &lines_b).await;
    (a, lines_a, b, lines_b)
}

/// Waits (at most `within`) until `lines` holds a line with `part`.
async fn logs(lines: &Lines, part: &str, within: Duration) {
    tokio::time::timeout(within, async {
        while !lines.contains(part) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the server logs {part:?}"));
}

/// Every event `table` hears for `within`.
async fn heard(table: &mut Table, within: Duration) -> Vec<Event> {
    let mut events = Vec::new();
    let _ = tokio::time::timeout(within, async {
        loop {
            events.push(table.next().await.unwrap());
        }
    })
    .await;
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn two_servers_on_one_postgres_serve_the_same_game() {
    let db = postgres();
    let (a, lines_a, b, lines_b) = two_servers(&db, None).await;
    // Ann on server A creates the game; Bo joins it through server B.
    let (mut ann, mut bo) = ann_and_bo(&a.url(), &b.url(), LIVE).await;
    let id = ann.id.clone();
    for round in 0..3 {
        ann.wait_turn().await;
        ann.play(|m| m[round % m.len()]).await;
        bo.wait_turn().await;
        bo.play(|m| m[(round + 3) % m.len()]).await;
    }
    ann.wait_turn().await;
    bo.catch_up(ann.game.len(), PATIENCE, "Ann's moves").await;
    assert_eq!(ann.game.len(), 21);
    assert_eq!(ann.game.position().to_fen(), bo.game.position().to_fen());
    // One game in the database, as both saw it: no turn was stored twice.
    let store = Store::open(&db).await.unwrap();
    let stored = store.load_game(&id).await.unwrap();
    assert_eq!(stored.game.len(), 21);
    assert_eq!(
        stored.game.position().to_fen(),
        ann.game.position().to_fen()
    );
    assert!(lines_b.contains("listening"));
    // Each computer's move was searched and stored by one server only: 15 computers' moves,
    // none refused for another server's.
    // (The servers serve every game of the database: other tests' games are theirs too.)
    let computers =
        lines_a.count_all(&[&id.0, "by=computer"]) + lines_b.count_all(&[&id.0, "by=computer"]);
    assert_eq!(computers, 15);
    assert!(!lines_a.contains("move not made") && !lines_b.contains("move not made"));
}

/// A take-back asked through one server is seen, agreed and made through the other: it is
/// kept in the database, not in one server's memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn a_take_back_is_asked_on_one_server_and_agreed_on_another() {
    let db = postgres();
    let (a, _, b, _) = two_servers(&db, None).await;
    let (mut ann, mut bo) = ann_and_bo(&a.url(), &b.url(), LIVE).await;
    let id = ann.id.clone();
    ann.play(|m| m[0]).await;
    bo.wait_turn().await;
    ann.client
        .ask(Ask::TakeBack {
            game: id.clone(),
            ply: 0,
        })
        .await
        .unwrap();
    // Bo hears of it through server B, and agrees there.
    let asked = bo
        .until(PATIENCE, "the take-back on server B", |e| match e {
            Event::TakeBackAsked { take_back, .. } => Some(take_back),
            _ => None,
        })
        .await;
    assert_eq!((asked.by, asked.ply), (0, 0));
    bo.client
        .ask(Ask::AnswerTakeBack {
            game: id.clone(),
            agree: true,
        })
        .await
        .unwrap();
    // Ann, on server A, sees her move taken back.
    let ply = ann
        .until(PATIENCE, "the take-back made on server B", |e| match e {
            Event::TakenBack { ply, .. } => Some(ply),
            _ => None,
        })
        .await;
    assert_eq!(ply, 0);
    let store = Store::open(&db).await.unwrap();
    let stored = store.load_game(&id).await.unwrap();
    assert_eq!(stored.game.len(), 0);
    assert_eq!(stored.take_back, None);
}

/// When each seat was last seen in `game`, as the database says.
async fn seen(store: &Store, game: &GameId) -> Vec<Option<i64>> {
    store.seen_of(game).await.unwrap()
}

/// Moves the hand clock `by` ms on, then waits until the servers have noted both people
/// (seats 0 and 1) as seen at the new time: sightings in the database stay fresh while the
/// clock jumps, as they do while time passes.
async fn jump(now: &Mutex<i64>, by: i64, store: &Store, game: &GameId) {
    let at = {
        let mut now = now.lock().unwrap();
        *now += by;
        *now
    };
    tokio::time::timeout(PATIENCE, async {
        loop {
            let seen = seen(store, game).await;
            if seen[0] == Some(at) && seen[1] == Some(at) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("both servers note their players every ten seconds");
}

/// A stand-in does not play for a player who has the game open on the other server, even on
/// the server that last read the game when that player had not been seen for long; once they
/// have gone, a stand-in does play for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn no_stand_in_plays_for_a_player_present_on_the_other_server() {
    let db = postgres();
    // One hand clock for both servers: the waits pass when the test says so.
    let (clock, now) = hand_clock(1_800_000_000_000);
    let (a, lines_a, b, lines_b) = two_servers(&db, Some(clock)).await;
    let pace = Pace::Live { wait_seconds: 10 };
    let (mut ann, mut bo) = ann_and_bo(&a.url(), &b.url(), pace).await;
    let id = ann.id.clone();
    let store = Store::open(&db).await.unwrap();
    // Both noted present, then 40 s pass in two steps of 20 (each within the 30 s a sighting
    // counts). Server A read the game when Bo joined, before he was first noted: in what it
    // holds he has not been seen for 40 s.
    jump(&now, 0, &store, &id).await;
    jump(&now, 20_000, &store, &id).await;
    jump(&now, 20_000, &store, &id).await;
    ann.play(|m| m[0]).await;
    bo.wait_turn().await;
    let turn = bo.game.len();
    // Bo's ten seconds are up, and five more: he still has the game open on server B.
    *now.lock().unwrap() += 15_000;
    let events = heard(&mut bo, Duration::from_secs(4)).await;
    assert_eq!(bo.game.len(), turn, "nobody moved for Bo: {events:?}");
    // (The servers serve every game of the database: other tests' games are theirs too.)
    let stood_in = format!("move game={} ply={} ", id.0, turn + 1);
    for lines in [&lines_a, &lines_b] {
        assert_eq!(lines.count_all(&[&stood_in, "by=stand-in"]), 0);
    }
    bo.play(|m| m[1]).await;
    // Bo leaves. On his next turn, once 40 s have passed since he was last seen, a stand-in
    // plays for him (Ann, present on server A, keeps the game going).
    drop(bo);
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    let his = ann.game.len() as u32;
    *now.lock().unwrap() += 40_000;
    let by = ann
        .until(PATIENCE, "a move for the gone player", |e| match e {
            Event::Moved { ply, by, .. } if ply == his => Some(by),
            _ => None,
        })
        .await;
    assert_eq!(by, MadeBy::StandIn);
}

/// Where a proxy forwards: PostgreSQL's socket file or address.
enum Upstream {
    Unix(std::path::PathBuf),
    Tcp(String),
}

/// A TCP proxy to the database that the test can cut (every connection through it closed,
/// new ones refused) and mend: a network between a server and PostgreSQL that fails.
struct Proxy {
    /// The database's URL through the proxy.
    url: String,
    down: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Proxy {
    /// A proxy on 127.0.0.1 to the database at `db` (its user and database kept; a password,
    /// if it needs one, comes from `PGPASSWORD`).
    async fn to(db: &str) -> Proxy {
        let options = PgConnectOptions::from_str(db).unwrap();
        let upstream = match options.get_socket() {
            Some(dir) => Upstream::Unix(dir.join(format!(".s.PGSQL.{}", options.get_port()))),
            None => Upstream::Tcp(format!("{}:{}", options.get_host(), options.get_port())),
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        // The test's schema kept (the URL's `options`).
        let schema = db
            .split(['?', '&'])
            .find(|part| part.starts_with("options="))
            .map_or(String::new(), |part| format!("?{part}"));
        let url = format!(
            "postgres://{}@{}/{}{schema}",
            options.get_username(),
            listener.local_addr().unwrap(),
            options.get_database().unwrap_or(options.get_username())
        );
        let down = Arc::new(AtomicBool::new(false));
        let open = Arc::new(Mutex::new(Vec::new()));
        let (is_down, opened) = (down.clone(), open.clone());
        let upstream = Arc::new(upstream);
        tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    return;
                };
                if is_down.load(Ordering::SeqCst) {
                    continue; // dropped: the connection is refused
                }
                let upstream = upstream.clone();
                let task = tokio::spawn(async move {
                    let _ = match &*upstream {
                        Upstream::Unix(path) => {
                            let Ok(mut up) = tokio::net::UnixStream::connect(path).await else {
                                return;
                            };
                            tokio::io::copy_bidirectional(&mut client, &mut up).await
                        }
                        Upstream::Tcp(addr) => {
                            let Ok(mut up) = tokio::net::TcpStream::connect(addr).await else {
                                return;
                            };
                            tokio::io::copy_bidirectional(&mut client, &mut up).await
                        }
                    };
                });
                opened.lock().unwrap().push(task.abort_handle());
            }
        });
        Proxy { url, down, open }
    }

    /// Closes every connection through the proxy and refuses new ones until mended.
    fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for task in self.open.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    fn mend(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

/// A move made while one server cannot reach the database (its listener among its
/// connections) reaches that server's players once it can: it reads every game it holds again
/// when it listens again. Afterwards it serves moves as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn a_change_made_while_the_listener_is_cut_reaches_the_players() {
    let db = postgres();
    let proxy = Proxy::to(&db).await;
    let (lines_a, lines_b) = (Lines::default(), Lines::default());
    let a = start(&db, None, &lines_a).await;
    let b = start(&proxy.url, None, &lines_b).await;
    let (mut ann, mut bo) = ann_and_bo(&a.url(), &b.url(), LIVE).await;
    ann.play(|m| m[0]).await;
    bo.wait_turn().await;
    bo.play(|m| m[0]).await;
    ann.wait_turn().await;
    // Server B loses the database; its listener says so.
    logs(&lines_b, &listener_name(b.hub.server_id()), PATIENCE).await;
    proxy.cut();
    logs(&lines_b, "lost the other servers", PATIENCE).await;
    // Ann moves on server A: its notice is not heard on B.
    ann.play(|m| m[0]).await;
    let turn = ann.game.len();
    let events = heard(&mut bo, Duration::from_secs(3)).await;
    assert!(bo.game.len() < turn, "not heard while cut: {events:?}");
    assert!(!lines_b.contains("listening for other servers again"));
    proxy.mend();
    bo.catch_up(turn, PATIENCE, "Ann's move, once B listens again")
        .await;
    assert!(lines_b.contains("games held read again"));
    assert_eq!(bo.game.position().to_fen(), ann.game.position().to_fen());
    // Server B stores moves again, and server A hears them.
    bo.wait_turn().await;
    bo.play(|m| m[0]).await;
    let turn = bo.game.len();
    ann.catch_up(turn, PATIENCE, "Bo's move through server A")
        .await;
}

/// Table talk written through one server is heard through the other, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn table_talk_crosses_servers() {
    let db = postgres();
    let (a, _, b, _) = two_servers(&db, None).await;
    let (mut ann, mut bo) = ann_and_bo(&a.url(), &b.url(), LIVE).await;
    let id = ann.id.clone();
    for (on_a, text) in [(true, "From A"), (false, "From B"), (true, "A again")] {
        let table = if on_a { &mut ann } else { &mut bo };
        let said = table
            .client
            .ask(Ask::Say {
                game: id.clone(),
                text: text.into(),
            })
            .await
            .unwrap();
        assert!(matches!(said, qiguo_server::protocol::Answer::Said { .. }));
    }
    for table in [&mut ann, &mut bo] {
        let mut heard = Vec::new();
        table
            .until(PATIENCE, "three lines", |e| {
                if let Event::Said { line, .. } = e {
                    heard.push((line.n, line.text));
                }
                (heard.len() == 3).then_some(())
            })
            .await;
        assert_eq!(
            heard,
            [
                (0, "From A".into()),
                (1, "From B".into()),
                (2, "A again".into())
            ]
        );
    }
}

/// A holiday taken through one server reaches the table through the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn a_holiday_taken_on_one_server_is_told_on_the_other() {
    let db = postgres();
    let (a, _, b, _) = two_servers(&db, None).await;
    let pace = Pace::Correspondence {
        days: 3,
        overdue: qiguo_server::WhenOverdue::StandIn,
    };
    let (mut ann, mut bo) = ann_and_bo(&a.url(), &b.url(), pace).await;
    let today = qiguo_server::protocol::calendar::day_of(qiguo_server::store::now_ms());
    let until = qiguo_server::protocol::calendar::date_text(today + 2);
    bo.client
        .ask(Ask::Away {
            until: Some(until.clone()),
        })
        .await
        .unwrap();
    let told = ann
        .until(PATIENCE, "the holiday on server A", |e| match e {
            Event::Away { seat, until, .. } => Some((seat, until)),
            _ => None,
        })
        .await;
    assert_eq!(told, (1, Some(until)));
}

/// A player's own events reach them on whichever server they are connected to: Bo, signed in
/// on server B without the game open there, is told on B (once) that it waits for his move,
/// made so by Ann's move on server A.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn your_turn_reaches_a_player_on_the_other_server() {
    let db = postgres();
    let (a, _, b, _) = two_servers(&db, None).await;
    let (mut ann, _) = newcomer(&a.url(), "Ann").await;
    let (bo_on_a, me) = newcomer(&a.url(), "Bo").await;
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), LIVE)).await;
    let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let mut ann = Table::new(ann, opened);
    // Bo takes his seat through server A and leaves it; he is signed in on server B.
    let bo_table = join(bo_on_a, &code, Kingdom::Chu).await;
    bo_table.client.close().await;
    let mut bo = returning(&b.url(), &me).await;
    ann.play(|m| m[0]).await;
    // Told once: the first within the test's patience, and no second in the seconds after.
    let mut told = Vec::new();
    let mut within = PATIENCE;
    while let Ok(event) = tokio::time::timeout(within, bo.next_event()).await {
        if let Event::YourTurn {
            game,
            kingdom,
            again: false,
            ..
        } = event.unwrap()
        {
            told.push((game, kingdom));
            within = Duration::from_secs(3);
        }
    }
    assert_eq!(told, [(id, Kingdom::Chu)]);
}
