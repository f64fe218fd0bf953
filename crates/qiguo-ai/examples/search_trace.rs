//! A fingerprint of Hard's node-limited search, to show that a change meant only to make it
//! faster leaves every result as it was: for a fixed set of positions (every 50 moves of a game
//! between Easy players under each preset, and the benchmarks' crowded `classic` midgame), each
//! searched afresh with `NODES` positions, prints the move, its score, the depth completed, the
//! positions visited and the time. Run it before and after the change and compare all but the
//! last column.
//!
//! `cargo run --release -p qiguo-ai --example search_trace -- [NODES] [THREADS]` (defaults
//! 2,000,000 and 1; 0 positions: Hard's time per move instead). With more threads the node budget is the first thread's, the positions
//! shown are all threads', and the results vary from run to run.

use std::time::Instant;

use qiguo_ai::{Engine, Level, Limits, TableSize};
use qiguo_rules::random::SplitMix64;
use qiguo_rules::{Position, Preset, Rules};
use qiguo_testkit::CROWDED_MIDGAME;

/// Positions every 50 moves of a 200-move game between Easy players under each preset.
fn positions() -> Vec<Position> {
    let mut easy = Engine::new(TableSize::entries_log2(16));
    let limits = Limits {
        nodes: Some(5000),
        ..Limits::default()
    };
    let mut out = Vec::new();
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let mut pos = Position::start(Rules::preset(preset));
        let mut rng = SplitMix64::new(77 + i as u64);
        for ply in 1..=200 {
            let Some(found) = easy.search(&pos, Level::Easy, &limits, rng.next_u64()) else {
                break;
            };
            pos.make(found.best);
            if ply % 50 == 0 {
                out.push(pos.clone());
            }
        }
    }
    out.push(
        Position::from_fen(CROWDED_MIDGAME, Rules::preset(Preset::Classic)).expect("valid FEN"),
    );
    out
}

/// Argument `n` as a whole number, or `default`; exits with a message if it is not one.
fn number(n: usize, name: &str, default: u64) -> u64 {
    match std::env::args().nth(n) {
        None => default,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("{name} must be a whole number, not {text:?}");
            std::process::exit(2);
        }),
    }
}

fn main() {
    let nodes = number(1, "NODES", 2_000_000);
    let threads = number(2, "THREADS", 1) as usize;
    // 0: Hard's own time per move instead.
    let limits = Limits {
        nodes: (nodes > 0).then_some(nodes),
        ..Limits::default()
    };
    let all = Instant::now();
    let mut engine = Engine::new(TableSize::entries_log2(20));
    engine.set_threads(threads);
    for (i, pos) in positions().iter().enumerate() {
        engine.clear();
        let Some(r) = engine.search(pos, Level::Hard, &limits, 1) else {
            println!("{i:2} game over");
            continue;
        };
        println!(
            "{i:2} {} {} d{} n{} {:.2}s",
            r.best,
            r.score,
            r.depth,
            r.nodes,
            r.elapsed.as_secs_f64()
        );
    }
    eprintln!("total {:.1} s", all.elapsed().as_secs_f64());
}
