//! The store on SQLite files and on PostgreSQL: players and keys, games and invitation codes,
//! seats that answer to one player, moves stored once per turn and replayed on loading, and
//! every acknowledged move still there after the writer is killed with SIGKILL.
//!
//! The PostgreSQL tests need `QIGUO_POSTGRES_URL` when they are built (and run); without it
//! they are ignored. They share its database: every test makes players and games of its own.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use qiguo_rules::{Game, Level, PlayerInfo, Position, Record, Rules};
use qiguo_server::protocol::{NewGame, Refusal};
use qiguo_server::{MadeBy, Pace, SeatPlan, Store, StoreError, WhenOverdue};
use qiguo_testkit::TempDir;

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A seven-player classic game: the creator on Qin, an open seat, five computers.
fn spec() -> NewGame {
    let game = Game::new(Position::start(Rules::default()));
    let start = Record::from_game(&game, PlayerInfo::defaults(7));
    let mut seats = vec![SeatPlan::Creator, SeatPlan::Open];
    seats.extend([SeatPlan::Computer(Level::Easy); 5]);
    NewGame {
        start,
        seats,
        pace: Pace::Correspondence {
            days: 3,
            overdue: WhenOverdue::StandIn,
        },
    }
}

/// A fresh SQLite file's URL in `dir`.
pub(crate) fn sqlite(dir: &TempDir) -> String {
    format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("games.sqlite").display()
    )
}

/// A schema of its own in the tests' PostgreSQL database.
pub(crate) use crate::common::postgres;

#[test]
fn moves_of_many_games_at_once_are_committed_together_each_checked_alone() {
    let dir = TempDir::new("store-group");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = Store::open(&sqlite(&dir)).await.unwrap();
        let ann = store.add_player("Ann").await.unwrap();
        let mut games = Vec::new();
        for _ in 0..40 {
            games.push(store.create_game(&ann.id, &spec()).await.unwrap().id);
        }
        let mv = Position::start(Rules::default()).legal_moves()[0];
        // Forty first moves at once, and for every fourth game a second one for the same turn
        // (only one of the two can be stored), all waiting for the same commits.
        let mut writes = Vec::new();
        for (n, id) in games.iter().enumerate() {
            for _ in 0..if n % 4 == 0 { 2 } else { 1 } {
                let (store, id) = (store.clone(), id.clone());
                writes.push(tokio::spawn(async move {
                    store
                        .append_move(&id, 0, mv, 0, MadeBy::Seat, false, Some(1000), Vec::new())
                        .await
                }));
            }
        }
        let mut stored = 0;
        let mut refused = 0;
        for write in writes {
            match write.await.unwrap() {
                Ok(()) => stored += 1,
                Err(StoreError::Refused(Refusal::MovedOn { has: 1, ply: 0 })) => refused += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!((stored, refused), (40, 10));
        for id in &games {
            let game = store.load_game(id).await.unwrap();
            assert_eq!(game.game.len(), 1);
        }
        // The one refused did not undo the others of its transaction: every game is due.
        assert_eq!(store.due_games(i64::MAX, 100).await.unwrap().len(), 40);
    });
}

#[test]
fn players_games_seats_and_moves_are_kept_in_sqlite() {
    let dir = TempDir::new("store-kept");
    players_games_seats_and_moves_are_kept(&sqlite(&dir));
}

#[test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
fn players_games_seats_and_moves_are_kept_in_postgres() {
    players_games_seats_and_moves_are_kept(&postgres());
}

fn players_games_seats_and_moves_are_kept(url: &str) {
    runtime().block_on(async {
        let store = Store::open(url).await.unwrap();
        let ann = store.add_player("Ann").await.unwrap();
        let bo = store.add_player("趙雲").await.unwrap();
        assert_eq!(store.sign_in(&ann.id, &ann.key).await.unwrap(), "Ann");
        assert!(matches!(
            store.sign_in(&ann.id, &bo.key).await,
            Err(StoreError::Refused(Refusal::WrongKey))
        ));
        let created = store.create_game(&ann.id, &spec()).await.unwrap();
        // The code finds the game, however it is typed; a guessed one finds nothing.
        let typed = created.code.to_lowercase().replace('-', "");
        assert_eq!(store.game_by_code(&typed).await.unwrap(), created.id);
        assert!(matches!(
            store.game_by_code("0000-0000-0000-0000").await,
            Err(StoreError::Refused(Refusal::NoGame))
        ));
        // Bo takes the open seat; nobody takes it again, nor the creator's or a computer's.
        store.take_seat(&created.id, 1, &bo.id).await.unwrap();
        for seat in [0, 1, 2, 9] {
            assert!(matches!(
                store.take_seat(&created.id, seat, &ann.id).await,
                Err(StoreError::Refused(Refusal::SeatTaken { seat: s })) if s == seat
            ));
        }
        // Moves: one per turn, in order.
        let mut game = Game::new(Position::start(Rules::default()));
        for ply in 0..12u32 {
            let mv = game.position().legal_moves()[0];
            store
                .append_move(
                    &created.id,
                    ply,
                    mv,
                    (ply % 7) as u8,
                    MadeBy::Seat,
                    false,
                    None,
                    Vec::new(),
                )
                .await
                .unwrap();
            game.play(mv).unwrap();
            let again = store
                .append_move(
                    &created.id,
                    ply,
                    mv,
                    0,
                    MadeBy::Seat,
                    false,
                    None,
                    Vec::new(),
                )
                .await;
            assert!(
                matches!(again, Err(StoreError::Refused(Refusal::MovedOn { has, ply: expected }))
                if has == ply + 1 && expected == ply)
            );
        }
        store.close().await;
        // Opened again: everything is there, and the game replays to the same position.
        let store = Store::open(url).await.unwrap();
        let stored = store.load_game(&created.id).await.unwrap();
        assert_eq!(stored.game.len(), 12);
        assert_eq!(stored.game.position().to_fen(), game.position().to_fen());
        assert_eq!(stored.seats[0].holder.as_ref(), Some(&ann.id));
        assert_eq!(stored.seats[1].holder.as_ref(), Some(&bo.id));
        assert_eq!(stored.seats[2].plan, SeatPlan::Computer(Level::Easy));
        assert_eq!(stored.seats[2].holder, None);
        assert_eq!(stored.code, created.code);
        assert_eq!(
            store.games_of(&bo.id).await.unwrap(),
            vec![created.id.clone()]
        );
        // A finished game takes no more moves.
        store.finish(&created.id).await.unwrap();
        let mv = game.position().legal_moves()[0];
        assert!(matches!(
            store
                .append_move(
                    &created.id,
                    12,
                    mv,
                    5,
                    MadeBy::Seat,
                    false,
                    None,
                    Vec::new()
                )
                .await,
            Err(StoreError::Refused(Refusal::GameOver))
        ));
    });
}

#[test]
fn a_spec_that_does_not_fit_its_record_is_refused() {
    let dir = TempDir::new("store-spec");
    runtime().block_on(async {
        let store = Store::open(&sqlite(&dir)).await.unwrap();
        let ann = store.add_player("Ann").await.unwrap();
        let mut bad = spec();
        bad.seats.pop();
        assert!(matches!(
            store.create_game(&ann.id, &bad).await,
            Err(StoreError::Refused(_))
        ));
        let mut moved = spec();
        moved.start.moves.push("e10e5".into());
        assert!(matches!(
            store.create_game(&ann.id, &moved).await,
            Err(StoreError::Refused(_))
        ));
        assert!(store.games_of(&ann.id).await.unwrap().is_empty());
    });
}

/// The child of the kill tests: creates a game in the database whose URL is in
/// `QIGUO_STORE_CHILD` and stores moves as fast as it can, printing each one's number once it
/// is committed, until killed. Not a test of its own: ignored, and run (with `--ignored`) only
/// by its parent, which gives it the database.
#[test]
#[ignore = "the child process of every_acknowledged_move_survives_a_kill_*, run only by them"]
fn store_child_writes_moves_until_killed() {
    let url = std::env::var("QIGUO_STORE_CHILD")
        .expect("run only by the kill tests, which set QIGUO_STORE_CHILD");
    runtime().block_on(async {
        let store = Store::open(&url).await.unwrap();
        let ann = store.add_player("Ann").await.unwrap();
        let created = store.create_game(&ann.id, &spec()).await.unwrap();
        println!("game {}", created.id.0);
        let mut game = Game::new(Position::start(Rules::default()));
        for ply in 0.. {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.position().is_over() {
                break;
            }
            let mv = moves[ply as usize % moves.len()];
            store
                .append_move(
                    &created.id,
                    ply,
                    mv,
                    0,
                    MadeBy::Seat,
                    false,
                    None,
                    Vec::new(),
                )
                .await
                .unwrap();
            game.play(mv).unwrap();
            println!("acked {ply}");
        }
        println!("done");
    });
}

#[test]
fn every_acknowledged_move_survives_a_kill_in_sqlite() {
    let dir = TempDir::new("store-kill");
    every_acknowledged_move_survives_a_kill(&sqlite(&dir));
}

#[test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
fn every_acknowledged_move_survives_a_kill_in_postgres() {
    every_acknowledged_move_survives_a_kill(&postgres());
}

fn every_acknowledged_move_survives_a_kill(url: &str) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "store::store_child_writes_moves_until_killed",
            "--ignored",
            "--nocapture",
        ])
        .env("QIGUO_STORE_CHILD", url)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut game_id = None;
    let mut acked = None;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some(id) = line.strip_prefix("game ") {
            game_id = Some(id.to_owned());
        } else if let Some(n) = line.strip_prefix("acked ") {
            let n: u32 = n.parse().unwrap();
            acked = Some(n);
            if n >= 40 {
                break;
            }
        }
    }
    // SIGKILL, in the middle of the writes that follow.
    child.kill().unwrap();
    child.wait().unwrap();
    let acked = acked.expect("moves were acknowledged");
    let id = qiguo_server::GameId(game_id.expect("a game was made"));
    runtime().block_on(async {
        let store = Store::open(url).await.unwrap();
        let stored = store.load_game(&id).await.unwrap();
        eprintln!(
            "killed after {} moves acknowledged: {} stored",
            acked + 1,
            stored.game.len()
        );
        assert!(
            stored.game.len() as u32 > acked,
            "{} moves stored, {} acknowledged",
            stored.game.len(),
            acked + 1
        );
    });
}
