//! The server on this machine, on loopback: moves per second and the round trip of a move
//! (sent, checked, committed, answered) with N headless players each playing a game against
//! six computers at once, on SQLite in the target directory (a real disk, every commit synced);
//! and the memory a server holds per idle game it has loaded.
//!
//! `cargo bench -p qiguo-server --bench server [-- PLAYERS ROUNDS IDLE_GAMES]`
//! (defaults 20 players, 10 rounds, 2000 idle games).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use qiguo_client::Trust;
use qiguo_rules::{Game, Kingdom, Level, PlayerInfo, Position, Record, Rules};

/// How long a player waits for the computers' moves before the benchmark fails.
const PATIENCE: Duration = Duration::from_secs(90);
use qiguo_server::protocol::{Answer, Ask, Event, Identity, NewGame};
use qiguo_server::server::{ServerConfig, serve};
use qiguo_server::{MadeBy, Pace, SeatPlan};

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

/// Resident memory of this process, in bytes (Linux).
fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

async fn player(url: String, n: usize, rounds: usize) -> Vec<Duration> {
    let (mut client, _) = qiguo_client::connect(
        &url,
        Identity::New {
            name: format!("Bench {n}"),
        },
        &Trust::default(),
    )
    .await
    .unwrap();
    let Answer::Created { game: id, .. } =
        client.ask(Ask::Create { game: new_game() }).await.unwrap()
    else {
        panic!()
    };
    let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await.unwrap() else {
        panic!()
    };
    let mut game = view.record.replay().unwrap();
    let mut trips = Vec::new();
    // The ply of Qin's last move.
    let mut last_own = 0;
    for round in 0..rounds {
        // Wait for Qin's turn again: the computers' moves, as many as kingdoms remain (a
        // round is seven moves only while all seven stand).
        let qin_plays = |game: &Game| {
            !game.position().is_over() && game.position().alive().contains(Kingdom::Qin)
        };
        while round > 0
            && qin_plays(&game)
            && (game.position().to_move() != Kingdom::Qin || game.len() <= last_own)
        {
            let event = tokio::time::timeout(PATIENCE, client.next_event())
                .await
                .unwrap_or_else(|_| panic!("player {n}: no move within {PATIENCE:?}"));
            match event.unwrap() {
                Event::Moved { mv, by, ply, .. } if ply as usize == game.len() => {
                    let mv = qiguo_rules::notation::parse_move(&mv).unwrap();
                    if by == MadeBy::OverduePass {
                        game.pass_overdue().unwrap();
                    } else {
                        game.play(mv).unwrap();
                    }
                }
                _ => {}
            }
        }
        if !qin_plays(&game) {
            break;
        }
        last_own = game.len();
        let moves = game.position().legal_moves();
        let mv = moves[(round * 13 + n) % moves.len()];
        let start = Instant::now();
        let answer = client
            .ask(Ask::Move {
                game: id.clone(),
                ply: game.len() as u32,
                mv: mv.to_string(),
            })
            .await
            .unwrap();
        trips.push(start.elapsed());
        assert!(matches!(answer, Answer::Moved { .. }));
    }
    trips
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let players = args.first().copied().unwrap_or(20);
    let rounds = args.get(1).copied().unwrap_or(10);
    let idle = args.get(2).copied().unwrap_or(2000);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("server-bench");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("games.sqlite").display());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut config = ServerConfig::new(db.clone());
        config.port = 0;
        // Every player comes from this machine: the limits raised as for a load test.
        config.limits = qiguo_server::admission::Limits {
            per_address: 100_000,
            new_players_per_minute: 1_000_000,
            new_games_per_minute: 1_000_000,
            codes_per_minute: 1_000_000,
            ..Default::default()
        };
        // No subscriber is installed: the server says nothing.
        let quiet = qiguo_server::log::Log::tracing();
        let server = serve(&config, quiet.clone()).await.unwrap();
        let url = server.url();
        let start = Instant::now();
        let tasks: Vec<_> = (0..players)
            .map(|n| tokio::spawn(player(url.clone(), n, rounds)))
            .collect();
        let mut trips = Vec::new();
        for task in tasks {
            trips.extend(task.await.unwrap());
        }
        let wall = start.elapsed();
        trips.sort();
        // Every round is the player's move and six computers' moves, all stored.
        let stored = trips.len() * 7;
        println!(
            "{players} players, {} of their moves ({stored} moves stored with the computers') in {:.2} s: {:.0} moves/s",
            trips.len(),
            wall.as_secs_f64(),
            stored as f64 / wall.as_secs_f64()
        );
        println!(
            "round trip of a player's move: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            percentile(&trips, 0.5).as_secs_f64() * 1e3,
            percentile(&trips, 0.99).as_secs_f64() * 1e3,
            trips.last().unwrap().as_secs_f64() * 1e3
        );
        server.stop();
        drop(server);

        // Idle games: made through the store, then loaded by a fresh server.
        let store = qiguo_server::Store::open(&db).await.unwrap();
        let owner = store.add_player("Owner").await.unwrap();
        let spec = qiguo_server::protocol::NewGame {
            start: new_game().start,
            seats: new_game().seats.iter().map(|_| SeatPlan::Open).collect(),
            pace: Pace::Correspondence {
                days: 14,
                overdue: qiguo_server::WhenOverdue::StandIn,
            },
        };
        for _ in 0..idle {
            store.create_game(&owner.id, &spec).await.unwrap();
        }
        store.close().await;
        let before = rss();
        let loading = Instant::now();
        let server = serve(&config, quiet).await.unwrap();
        let loaded = loading.elapsed();
        let after = rss();
        println!(
            "{idle} idle games (plus {players} played) loaded in {:.2} s; resident memory grew {:.1} MiB: {:.1} KiB per game",
            loaded.as_secs_f64(),
            (after.saturating_sub(before)) as f64 / 1048576.0,
            (after.saturating_sub(before)) as f64 / 1024.0 / (idle + players) as f64
        );
        drop(server);
    });
}
