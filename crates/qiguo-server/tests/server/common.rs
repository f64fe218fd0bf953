//! What the server tests share: a server on a loopback port with its log kept, and a player at a
//! table who follows a game's events and plays their own kingdoms.

use std::net::{IpAddr, Ipv4Addr};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use qiguo_client::{Client, ClientError, Trust, Welcome};
use qiguo_rules::{
    Board, Game, Level, Move, Piece, PlayerInfo, Position, Record, Rules, Seats, Setup,
};
use qiguo_server::admission::Limits;
use qiguo_server::log::Log;
use qiguo_server::protocol::{Answer, Ask, Event, GameView, Identity, NewGame};
use qiguo_server::server::{Running, ServerConfig, serve_store};
use qiguo_server::store::Clock;
use qiguo_server::{GameId, MadeBy, Pace, SeatPlan, Store};

/// A server's log lines.
#[derive(Clone, Default)]
pub struct Lines(pub Arc<Mutex<Vec<String>>>);

impl Lines {
    pub fn log(&self) -> Log {
        let lines = self.0.clone();
        Log::tapped(move |level, line| {
            // Shown when a test fails.
            println!("server: {level} {line}");
            lines.lock().unwrap().push(line.to_owned())
        })
    }

    pub fn contains(&self, part: &str) -> bool {
        self.0.lock().unwrap().iter().any(|l| l.contains(part))
    }

    /// How many lines hold every one of `parts`.
    pub fn count_all(&self, parts: &[&str]) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|l| parts.iter().all(|p| l.contains(p)))
            .count()
    }

    pub fn count(&self, part: &str) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains(part))
            .count()
    }
}

/// The longest a test waits for what it expects: time enough for a machine busy with a build
/// beside the tests, and a broken server is still told. A wait returns as soon as the thing
/// waited for is there, so this is never a length of time a test lasts.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(90);

/// Waits until `holds` (looked at every 50 ms), within [`PATIENCE`]; panics saying `what`.
pub async fn eventually(what: &str, mut holds: impl FnMut() -> bool) {
    let waited = tokio::time::timeout(PATIENCE, async {
        while !holds() {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    })
    .await;
    if waited.is_err() {
        panic!("not within {PATIENCE:?}: {what}");
    }
}

/// A listener on a port of 127.0.0.1 of its own, bound once here and handed to what serves on
/// it ([`ServerConfig::listener`]): never let go, so no test running beside can take it.
pub fn loopback_listener() -> Arc<std::net::TcpListener> {
    Arc::new(std::net::TcpListener::bind("127.0.0.1:0").expect("a port on loopback"))
}

/// A SQLite file's URL in `dir`.
pub fn sqlite(dir: &qiguo_testkit::TempDir) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("games.sqlite").display()
    )
}

/// A schema of its own in the PostgreSQL database the tests were built for: its URL. Every
/// test (every call) gets an empty one, so that no test meets another's rows, nor an earlier
/// run's (the servers on one URL share it; NOTIFY channels are the database's, and a server
/// ignores news of games it does not hold).
pub fn postgres() -> String {
    let Some(base) = option_env!("QIGUO_POSTGRES_URL") else {
        panic!("not built with QIGUO_POSTGRES_URL")
    };
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let schema = format!(
        "t{}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    );
    let create = format!("CREATE SCHEMA {schema}");
    // Made on a thread of its own: the callers may be inside a runtime already.
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(async {
                let pool = sqlx::PgPool::connect(base)
                    .await
                    .expect("the test database");
                sqlx::query(&create).execute(&pool).await.expect("a schema");
                pool.close().await;
            })
    })
    .join()
    .expect("the schema made");
    let joiner = if base.contains('?') { '&' } else { '?' };
    format!("{base}{joiner}options=-c%20search_path%3D{schema}")
}

/// Limits for tests whose many players all come from 127.0.0.1, as an operator would raise
/// them for a load test from one machine (the limits' own tests keep the defaults).
pub fn roomy() -> Limits {
    Limits {
        per_address: 100_000,
        per_player: 1_000,
        new_players_per_minute: 1_000_000,
        new_games_per_minute: 1_000_000,
        codes_per_minute: 1_000_000,
        ..Limits::default()
    }
}

/// A server on 127.0.0.1 (any free port) on the database `db`, with `clock` if given.
pub async fn start(db: &str, clock: Option<Clock>, lines: &Lines) -> Running {
    start_limited(db, clock, lines, roomy()).await
}

/// [`start`] with `limits`.
pub async fn start_limited(
    db: &str,
    clock: Option<Clock>,
    lines: &Lines,
    limits: Limits,
) -> Running {
    let mut config = ServerConfig::new(db);
    config.bind = IpAddr::V4(Ipv4Addr::LOCALHOST);
    config.port = 0;
    config.limits = limits;
    serve_on(&config, clock, lines).await
}

/// A server as `config` says, on `clock` if given.
pub async fn serve_on(config: &ServerConfig, clock: Option<Clock>, lines: &Lines) -> Running {
    let mut store = Store::open(&config.db).await.unwrap();
    if let Some(clock) = clock {
        store.set_clock(clock);
    }
    serve_store(config, store, None, lines.log()).await.unwrap()
}

/// A clock the test moves by hand, in milliseconds since 1970.
pub fn hand_clock(start: i64) -> (Clock, Arc<Mutex<i64>>) {
    let now = Arc::new(Mutex::new(start));
    let read = now.clone();
    (Arc::new(move || *read.lock().unwrap()), now)
}

/// A new player's client.
pub async fn newcomer(url: &str, name: &str) -> (Client, Welcome) {
    qiguo_client::connect(url, Identity::New { name: name.into() }, &Trust::default())
        .await
        .unwrap()
}

/// A known player's client.
pub async fn returning(url: &str, me: &Welcome) -> Client {
    let identity = Identity::Player {
        id: me.player.clone(),
        key: me.key.clone().expect("a new player's key"),
    };
    qiguo_client::connect(url, identity, &Trust::default())
        .await
        .unwrap()
        .0
}

/// A seven-player classic game: `seats` by player number (Qin first).
pub fn new_game(seats: Vec<SeatPlan>, pace: Pace) -> NewGame {
    let game = Game::new(Position::start(Rules::default()));
    let start = Record::from_game(&game, PlayerInfo::defaults(seats.len()));
    NewGame { start, seats, pace }
}

/// A game at `pace` where only Qin (the creator's) and Chu (the open seat, to move) have
/// pieces: Chu conceding ends it, Qin the last kingdom left.
pub fn endgame(pace: Pace) -> NewGame {
    let mut board = Board::empty();
    for (piece, point) in [("wQ", "a1"), ("wR", "a5"), ("rQ", "s19"), ("rR", "s15")] {
        board.set(point.parse().unwrap(), Piece::from_fen(piece));
    }
    let setup = Setup {
        board,
        to_move: qiguo_rules::Kingdom::Chu,
    };
    let pos = Position::new(&setup, Rules::default(), Seats::seven()).unwrap();
    let start = Record::from_game(&Game::new(pos), PlayerInfo::defaults(7));
    let mut seats = vec![SeatPlan::Creator, SeatPlan::Open];
    seats.extend([SeatPlan::Computer(Level::Random); 5]);
    NewGame { start, seats, pace }
}

/// The creator on Qin, open seats on the next `open` kingdoms, computers of `level` on the rest.
pub fn seats(open: usize, level: Level) -> Vec<SeatPlan> {
    let mut seats = vec![SeatPlan::Creator];
    seats.extend(std::iter::repeat_n(SeatPlan::Open, open));
    seats.extend(std::iter::repeat_n(SeatPlan::Computer(level), 6 - open));
    seats
}

/// Creates a game: its id and code.
pub async fn create(client: &mut Client, game: NewGame) -> (GameId, String) {
    match client.ask(Ask::Create { game }).await.unwrap() {
        Answer::Created { game, code } => (game, code),
        other => panic!("{other:?}"),
    }
}

/// `client` takes the open seat of `kingdom` with `code`: their table.
pub async fn join(mut client: Client, code: &str, kingdom: qiguo_rules::Kingdom) -> Table {
    let joined = client
        .ask(Ask::Join {
            code: code.to_owned(),
            kingdom,
        })
        .await
        .unwrap();
    Table::new(client, joined)
}

/// A player at a game's table: their connection, the game as they have seen it, their seats.
pub struct Table {
    pub client: Client,
    pub id: GameId,
    pub game: Game,
    pub mine: Vec<u8>,
    pub view: GameView,
}

impl Table {
    /// The table of a game just joined, opened or watched.
    pub fn new(client: Client, answer: Answer) -> Table {
        let Answer::Game(view) = answer else {
            panic!("not a game: {answer:?}");
        };
        let game = view.record.replay().unwrap();
        let mine = (0..view.seats.len() as u8)
            .filter(|&i| view.seats[usize::from(i)].yours)
            .collect();
        Table {
            client,
            id: view.id.clone(),
            game,
            mine,
            view: *view,
        }
    }

    pub fn my_turn(&self) -> bool {
        let pos = self.game.position();
        !pos.is_over() && self.mine.contains(&pos.player_of(pos.to_move()))
    }

    /// Applies one event of this game; returns it.
    pub async fn next(&mut self) -> Result<Event, ClientError> {
        let event = self.client.next_event().await?;
        match &event {
            Event::Moved {
                game, ply, mv, by, ..
            } if *game == self.id => {
                assert_eq!(*ply as usize, self.game.len(), "moves arrive in order");
                let mv: Move = qiguo_rules::notation::parse_move(mv).unwrap();
                if *by == MadeBy::OverduePass {
                    self.game.pass_overdue().unwrap();
                } else {
                    self.game.play(mv).unwrap();
                }
            }
            Event::TakenBack { game, ply, .. } if *game == self.id => {
                while self.game.len() > *ply as usize {
                    self.game.undo();
                }
            }
            _ => {}
        }
        Ok(event)
    }

    /// Reads events (applying them) until `pick` takes one, within `within`: what it took.
    pub async fn until<T>(
        &mut self,
        within: std::time::Duration,
        what: &str,
        mut pick: impl FnMut(Event) -> Option<T>,
    ) -> T {
        tokio::time::timeout(within, async {
            loop {
                if let Some(taken) = pick(self.next().await.unwrap()) {
                    return taken;
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("not heard within {within:?}: {what}"))
    }

    /// Reads events until the game has `len` moves, within `within`.
    pub async fn catch_up(&mut self, len: usize, within: std::time::Duration, what: &str) {
        tokio::time::timeout(within, async {
            while self.game.len() < len {
                self.next().await.unwrap();
            }
        })
        .await
        .unwrap_or_else(|_| panic!("not caught up within {within:?}: {what}"));
    }

    /// Reads events until this player is to move or the game is over.
    pub async fn wait_turn(&mut self) {
        while !self.my_turn() && !self.game.position().is_over() {
            tokio::time::timeout(std::time::Duration::from_secs(60), self.next())
                .await
                .expect("the game goes on")
                .unwrap();
        }
    }

    /// Plays `mv` (chosen by `pick` among the legal moves) and waits for the server's word.
    pub async fn play(&mut self, pick: impl Fn(&[Move]) -> Move) -> Move {
        let moves = self.game.position().legal_moves();
        let mv = pick(&moves);
        let ply = self.game.len() as u32;
        let answer = self
            .client
            .ask(Ask::Move {
                game: self.id.clone(),
                ply,
                mv: mv.to_string(),
            })
            .await
            .unwrap();
        assert_eq!(answer, Answer::Moved { ply });
        // The move comes back as an event, like everyone else's.
        while self.game.len() <= ply as usize {
            self.next().await.unwrap();
        }
        mv
    }
}

/// The limits raised as an operator raises them for a load test from one machine.
pub const FROM_ONE_MACHINE: &[&str] = &[
    "--max-connections-per-address",
    "100000",
    "--new-players-per-minute",
    "1000000",
    "--new-games-per-minute",
    "1000000",
    "--codes-per-minute",
    "1000000",
];

/// The server binary on the database `db`, any free port on loopback, its limits raised for
/// players all on this machine ([`FROM_ONE_MACHINE`]), with `args` besides.
pub fn server_process(db: &str, args: &[&str]) -> (Child, String, Arc<Mutex<Vec<String>>>) {
    let mut all = FROM_ONE_MACHINE.to_vec();
    all.extend_from_slice(args);
    server_binary(db, &all)
}

/// The server binary on the database `db`, any free port on loopback, with `args` besides:
/// the process, its URL, and the lines of its log so far (read on a thread of their own).
pub fn server_binary(db: &str, args: &[&str]) -> (Child, String, Arc<Mutex<Vec<String>>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
        .args(["--port", "0", "--db", db, "--log", "qiguo_server=info"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Its log read on a thread of its own (so that it never blocks on a full pipe), kept for
    // the test to read; the URL taken from the line saying where it listens, within patience.
    let kept = Arc::new(Mutex::new(Vec::new()));
    let keep = kept.clone();
    let url = qiguo_testkit::wait_for_line(
        child.stdout.take().unwrap(),
        PATIENCE,
        "the server saying where it listens",
        qiguo_testkit::listening_url,
        move |line| {
            println!("server: {line}");
            keep.lock().unwrap().push(line.to_owned());
        },
    );
    (child, url, kept)
}

/// A correspondence game of Ann (Qin) and Bo (Chu) against five computers: Ann's table, Bo
/// seated, the code.
pub async fn game_of_ann_and_bo(url: &str, bo: &mut Client) -> (Table, String) {
    let (ann, _) = newcomer(url, "Ann").await;
    game_of(ann, bo).await
}

/// [`game_of_ann_and_bo`] with Ann's client given.
pub async fn game_of(mut ann: Client, bo: &mut Client) -> (Table, String) {
    let pace = Pace::Correspondence {
        days: 3,
        overdue: qiguo_server::WhenOverdue::StandIn,
    };
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), pace)).await;
    bo.ask(Ask::Join {
        code: code.clone(),
        kingdom: qiguo_rules::Kingdom::Chu,
    })
    .await
    .unwrap();
    let opened = ann.ask(Ask::Open { game: id }).await.unwrap();
    (Table::new(ann, opened), code)
}

/// Bo plays his turn on a connection of his own, and leaves.
pub async fn bo_plays(url: &str, bo: &Welcome, code: &str) {
    let client = returning(url, bo).await;
    let mut table = join(client, code, qiguo_rules::Kingdom::Chu).await;
    table.wait_turn().await;
    table.play(|m| m[0]).await;
}
