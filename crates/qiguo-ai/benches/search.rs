//! Search speed per level: nodes per second and the depth completed, at the start and in a
//! crowded midgame of the `classic` preset — once with the level's time per move (as in the
//! game window) and once with its node budget (as in `qiguo-selfplay --nodes`) — and the time
//! depth 3 takes at the start; then Hard on one thread and on every core (lazy SMP): positions
//! per second of all threads within its time, and the time to complete depth 3; then Hard
//! without a network's correction ([`qiguo_ai::net`]) and with networks of 8, 16 and 32 hidden
//! units (weights drawn at random: the cost does not depend on them), at a node budget. Run with
//! `cargo bench -p qiguo-ai` (`-- network`: the network's part alone).

use std::sync::Arc;
use std::time::Duration;

use qiguo_ai::net::Net;
use qiguo_ai::{Engine, Level, LevelSearch, Limits, SearchResult, TableSize, available_threads};
use qiguo_rules::{Position, Preset, Rules};
use qiguo_testkit::CROWDED_MIDGAME;

/// Searches `pos` afresh (an empty table) at `level` within `limits`.
fn search(pos: &Position, level: Level, limits: Limits) -> SearchResult {
    let mut engine = Engine::new(TableSize::entries_log2(20));
    engine.search(pos, level, &limits, 1).expect("a move")
}

fn row(case: &str, level: &str, budget: &str, r: &SearchResult) {
    let nps = r.nodes as f64 / r.elapsed.as_secs_f64();
    println!(
        "{case:<8} {level:<7} {budget:<12} {:>10} {:>9.3} {:>10.0} {:>6}",
        r.nodes,
        r.elapsed.as_secs_f64(),
        nps,
        r.depth
    );
}

fn main() {
    let rules = Rules::preset(Preset::Classic);
    let cases = [
        ("start", Position::start(rules)),
        (
            "midgame",
            Position::from_fen(CROWDED_MIDGAME, rules).expect("valid FEN"),
        ),
    ];
    if std::env::args().any(|a| a == "network") {
        network(&cases);
        return;
    }
    println!(
        "{:<8} {:<7} {:<12} {:>10} {:>9} {:>10} {:>6}",
        "position", "level", "budget", "nodes", "seconds", "nodes/s", "depth"
    );
    for (case, pos) in &cases {
        for level in [Level::Easy, Level::Medium, Level::Hard] {
            let timed = Limits {
                movetime: Some(level.movetime()),
                ..Limits::default()
            };
            let budget = format!("{} ms", level.movetime().as_millis());
            row(case, level.name(), &budget, &search(pos, level, timed));
            let counted = Limits {
                nodes: Some(level.nodes()),
                ..Limits::default()
            };
            let budget = format!("{}k nodes", level.nodes() / 1000);
            row(case, level.name(), &budget, &search(pos, level, counted));
        }
    }
    println!();
    for run in 1..=3 {
        let limits = Limits {
            depth: Some(3),
            movetime: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let start = &cases[0].1;
        let r = search(start, Level::Hard, limits);
        println!(
            "start, depth 3, run {run}: {} nodes in {:.3} s",
            r.nodes,
            r.elapsed.as_secs_f64()
        );
    }
    println!();
    println!(
        "{:<8} {:<7} {:<12} {:>10} {:>9} {:>10} {:>6}",
        "position", "threads", "budget", "nodes", "seconds", "nodes/s", "depth"
    );
    let most = available_threads().max(2);
    for (case, pos) in &cases {
        for threads in [1, most] {
            let timed = Limits {
                movetime: Some(Level::Hard.movetime()),
                threads: Some(threads),
                ..Limits::default()
            };
            let budget = format!("{} ms", Level::Hard.movetime().as_millis());
            row(
                case,
                &threads.to_string(),
                &budget,
                &search(pos, Level::Hard, timed),
            );
            for _ in 1..=3 {
                let deep = Limits {
                    depth: Some(3),
                    movetime: Some(Duration::from_secs(60)),
                    threads: Some(threads),
                    ..Limits::default()
                };
                row(
                    case,
                    &threads.to_string(),
                    "depth 3",
                    &search(pos, Level::Hard, deep),
                );
            }
        }
    }
    println!();
    network(&cases);
}

/// Hard without a network and with networks of 8, 16 and 32 units (weights drawn at random),
/// at [`NET_NODES`].
fn network(cases: &[(&str, Position)]) {
    println!(
        "{:<8} {:<7} {:<12} {:>10} {:>9} {:>10} {:>6}",
        "position", "network", "budget", "nodes", "seconds", "nodes/s", "depth"
    );
    let choices = [
        ("none", None),
        ("8 units", Some(Arc::new(Net::drawn(8, 7)))),
        ("16 units", Some(Arc::new(Net::drawn(16, 7)))),
        ("32 units", Some(Arc::new(Net::drawn(32, 7)))),
    ];
    // Three rounds, the four alternating, so that a machine's load weighs on each alike.
    for round in 1..=3 {
        for (case, pos) in cases {
            for (name, choice) in &choices {
                let mut engine = Engine::new(TableSize::entries_log2(20));
                engine.set_net(choice.clone());
                let limits = Limits {
                    nodes: Some(NET_NODES),
                    ..Limits::default()
                };
                let r = engine.search(pos, Level::Hard, &limits, 1).expect("a move");
                let budget = format!("{}k, run {round}", NET_NODES / 1000);
                row(case, name, &budget, &r);
            }
        }
    }
}

/// The node budget of the network's runs.
const NET_NODES: u64 = 300_000;
