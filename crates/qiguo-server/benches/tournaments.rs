//! Tournaments at scale, on this machine: a Swiss round of 343 players (49 tables) paired —
//! the pure pairing alone over seven rounds of random places (its time and how many meetings
//! repeat an earlier one), then a server on SQLite in the target directory beginning a round of
//! 343 players connected on loopback (from the clock passing its start to the last of them told
//! their table: the standings read, the tables paired, 49 games written in one commit, everyone
//! told).
//!
//! `cargo bench -p qiguo-server --bench tournaments [-- PLAYERS ROUNDS]` (defaults 343, 7).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use qiguo_client::{Client, Trust};
use qiguo_server::pairing::{pair, swiss_tables};
use qiguo_server::protocol::clubs::ClubSpec;
use qiguo_server::protocol::tournaments::{TournamentFormat, TournamentPlay, TournamentSpec};
use qiguo_server::protocol::{Ask, Event, Identity};
use qiguo_server::server::{ServerConfig, serve_store};
use qiguo_server::{QuickPace, Store};

/// How long the bench waits for the server before it fails.
const PATIENCE: Duration = Duration::from_secs(300);

/// A small xorshift, the same places each run.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The pairing alone: `n` players, `rounds` rounds of random places. Prints each round's time.
fn pairing(n: u32, rounds: u32) {
    let mut points = vec![0u32; n as usize];
    let mut met: HashMap<(u32, u32), u32> = HashMap::new();
    let mut draw = Draw(0x5eed);
    let (mut meetings, mut repeats) = (0u32, 0u32);
    let mut slowest = Duration::ZERO;
    for round in 1..=rounds {
        let mut order: Vec<u32> = (0..n).collect();
        order.sort_by_key(|&p| (std::cmp::Reverse(points[p as usize]), p));
        let start = Instant::now();
        let tables = swiss_tables(&order, &met);
        let took = start.elapsed();
        slowest = slowest.max(took);
        for table in &tables {
            for (i, a) in table.iter().enumerate() {
                for b in &table[i + 1..] {
                    let count = met.entry(pair(a, b)).or_default();
                    meetings += 1;
                    repeats += u32::from(*count > 0);
                    *count += 1;
                }
            }
            let mut seats = table.clone();
            for i in (1..seats.len()).rev() {
                let j = (draw.next() % (i as u64 + 1)) as usize;
                seats.swap(i, j);
            }
            for (place, &p) in seats.iter().enumerate() {
                points[p as usize] += 2 * (6 - place as u32);
            }
        }
        println!(
            "pairing: round {round}: {} tables paired in {:.3} ms",
            tables.len(),
            took.as_secs_f64() * 1000.0
        );
    }
    println!(
        "pairing: slowest round {:.3} ms; {repeats} of {meetings} meetings ({:.2} %) repeat an \
         earlier one",
        slowest.as_secs_f64() * 1000.0,
        f64::from(repeats) * 100.0 / f64::from(meetings)
    );
}

/// A server beginning a Swiss round of `n` players connected on loopback: the time from the
/// clock passing its start to the last told their table.
async fn round_begun(n: usize) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tournaments-bench");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("games.sqlite").display());
    let start_ms = qiguo_server::store::now_ms() + 3_600_000;
    let now = Arc::new(Mutex::new(start_ms - 60_000));
    let read = now.clone();
    let mut store = Store::open(&db).await.unwrap();
    store.set_clock(Arc::new(move || *read.lock().unwrap()));
    let mut config = ServerConfig::new(db.clone());
    config.port = 0;
    config.limits = qiguo_server::admission::Limits {
        per_address: 100_000,
        new_players_per_minute: 1_000_000,
        new_games_per_minute: 1_000_000,
        codes_per_minute: 1_000_000,
        ..Default::default()
    };
    let server = serve_store(&config, store, None, qiguo_server::log::Log::tracing())
        .await
        .unwrap();
    let url = server.url();
    let connect = |name: String| {
        let url = url.clone();
        async move {
            qiguo_client::connect(&url, Identity::New { name }, &Trust::default())
                .await
                .unwrap()
                .0
        }
    };
    let mut owner = connect("Organiser".into()).await;
    owner
        .ask(Ask::ClubCreate {
            spec: ClubSpec {
                name: "Bench Hall".into(),
                description: String::new(),
                open: true,
            },
        })
        .await
        .unwrap();
    owner
        .ask(Ask::TournamentCreate {
            spec: TournamentSpec {
                name: "Bench Swiss".into(),
                format: TournamentFormat::Swiss,
                play: TournamentPlay {
                    preset: qiguo_rules::Preset::Classic,
                    pace: QuickPace::Daily,
                    level: qiguo_rules::Level::Easy,
                    rated: true,
                },
                starts_ms: start_ms,
                rounds: 7,
                minutes: 0,
                most: n as u32,
                club: Some("Bench Hall".into()),
            },
        })
        .await
        .unwrap();
    let joining = Instant::now();
    let mut players: Vec<Client> = Vec::with_capacity(n);
    for i in 0..n {
        let mut client = connect(format!("Player {i}")).await;
        client
            .ask(Ask::ClubJoin {
                name: "Bench Hall".into(),
            })
            .await
            .unwrap();
        client
            .ask(Ask::TournamentJoin {
                name: "Bench Swiss".into(),
            })
            .await
            .unwrap();
        players.push(client);
    }
    println!(
        "server: {n} players joined in {:.1} s",
        joining.elapsed().as_secs_f64()
    );
    let begun = Instant::now();
    *now.lock().unwrap() = start_ms;
    let mut waits = Vec::with_capacity(n);
    for client in players.iter_mut() {
        tokio::time::timeout(PATIENCE, async {
            loop {
                if let Event::TournamentSeated { .. } = client.next_event().await.unwrap() {
                    return;
                }
            }
        })
        .await
        .expect("told its table");
        waits.push(begun.elapsed());
    }
    let last = waits.iter().max().copied().unwrap_or_default();
    println!(
        "server: a round of {n} players ({} tables) begun and everyone told within {:.3} s \
         of its start (the keeper looks once a second)",
        n.div_ceil(7),
        last.as_secs_f64()
    );
    server.shutdown(Duration::from_secs(10)).await;
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let players = args.first().copied().unwrap_or(343);
    let rounds = args.get(1).copied().unwrap_or(7);
    pairing(players as u32, rounds as u32);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(round_begun(players));
}
