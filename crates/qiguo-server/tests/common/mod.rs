//! What the server tests share: a server on a loopback port with its log kept, and a player at a
//! table who follows a game's events and plays their own kingdoms.

#![allow(dead_code)]

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};

use qiguo_rules::{Game, Level, Move, PlayerInfo, Position, Record, Rules};
use qiguo_server::client::{Client, ClientError, Trust, Welcome};
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

    pub fn count(&self, part: &str) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains(part))
            .count()
    }
}

/// A SQLite file's URL in `dir`.
pub fn sqlite(dir: &qiguo_testkit::TempDir) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("games.sqlite").display()
    )
}

/// The PostgreSQL database the tests were built for.
pub fn postgres() -> String {
    match option_env!("QIGUO_POSTGRES_URL") {
        Some(url) => url.to_owned(),
        None => panic!("not built with QIGUO_POSTGRES_URL"),
    }
}

/// A server on 127.0.0.1 (any free port) on the database `db`, with `clock` if given.
pub async fn start(db: &str, clock: Option<Clock>, lines: &Lines) -> Running {
    let mut config = ServerConfig::new(db);
    config.bind = IpAddr::V4(Ipv4Addr::LOCALHOST);
    config.port = 0;
    let mut store = Store::open(db).await.unwrap();
    if let Some(clock) = clock {
        store.set_clock(clock);
    }
    serve_store(&config, store, None, lines.log())
        .await
        .unwrap()
}

/// A clock the test moves by hand, in milliseconds since 1970.
pub fn hand_clock(start: i64) -> (Clock, Arc<Mutex<i64>>) {
    let now = Arc::new(Mutex::new(start));
    let read = now.clone();
    (Arc::new(move || *read.lock().unwrap()), now)
}

/// A new player's client.
pub async fn newcomer(url: &str, name: &str) -> (Client, Welcome) {
    qiguo_server::client::connect(url, Identity::New { name: name.into() }, &Trust::default())
        .await
        .unwrap()
}

/// A known player's client.
pub async fn returning(url: &str, me: &Welcome) -> Client {
    let identity = Identity::Player {
        id: me.player.clone(),
        key: me.key.clone().expect("a new player's key"),
    };
    qiguo_server::client::connect(url, identity, &Trust::default())
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
