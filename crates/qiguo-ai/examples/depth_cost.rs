//! What a complete search of a given depth costs in positions that occur in play: positions
//! every `EVERY` moves of a few `classic` games between Easy players (each game from its own
//! seed, the same on every machine), each searched afresh to `DEPTH` with Hard's search, capped
//! at `CAP` positions. Prints one line per position and how many of them fit Medium's and Hard's
//! node budgets.
//!
//! `cargo run --release -p qiguo-ai --example depth_cost -- [DEPTH] [GAMES] [EVERY] [CAP]`
//! (defaults: 5, 3, 12 and 20,000,000).

use qiguo_ai::{Engine, Level, LevelSearch, Limits, TableSize};
use qiguo_rules::{Game, Position, Preset, Rules, Seats};

/// Positions every `every` moves of `games` games between Easy players.
fn positions(games: u64, every: usize) -> Vec<Position> {
    let rules = Rules::preset(Preset::Classic);
    let limits = Limits {
        nodes: Some(Level::Easy.nodes()),
        ..Limits::default()
    };
    let mut out = Vec::new();
    for seed in 1..=games {
        let mut game = Game::start(rules, Seats::seven());
        let mut engine = Engine::new(TableSize::entries_log2(16));
        while game.outcome().is_none() && game.len() < 1_000 {
            if game.len() % every == every - 1 {
                out.push(game.position().clone());
            }
            let mv = engine
                .search(
                    game.position(),
                    Level::Easy,
                    &limits,
                    seed * 7919 + game.len() as u64,
                )
                .expect("a game in progress has a move")
                .best;
            game.play(mv).expect("the computer plays legal moves");
        }
    }
    out
}

fn main() {
    let arg = |i: usize, default: u64| -> u64 {
        match std::env::args().nth(i).map(|a| a.parse::<u64>()) {
            None => default,
            Some(Ok(n)) if n > 0 => n,
            Some(_) => {
                eprintln!(
                    "usage: depth_cost [DEPTH] [GAMES] [EVERY] [CAP], each a whole number above 0"
                );
                std::process::exit(2);
            }
        }
    };
    let (depth, games, every, cap) = (arg(1, 5), arg(2, 3), arg(3, 12), arg(4, 20_000_000));
    let positions = positions(games, every as usize);
    println!("{} positions, depth {depth}, cap {cap}", positions.len());
    let (mut total, mut medium, mut hard, mut capped) = (0u64, 0, 0, 0);
    let mut costs = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        let mut engine = Engine::new(TableSize::entries_log2(20));
        let limits = Limits {
            depth: Some(depth as u32),
            nodes: Some(cap),
            ..Limits::default()
        };
        let r = engine.search(pos, Level::Hard, &limits, 1).expect("a move");
        // Complete: the depth reached, or a result settled sooner (a forced win, a lost
        // position) within the cap.
        let complete = r.nodes < cap;
        println!(
            "{i:>3} nodes {:>10} depth {} score {:>8} move {} {:.2}s",
            r.nodes,
            r.depth,
            r.score,
            r.best,
            r.elapsed.as_secs_f64()
        );
        total += r.nodes;
        costs.push(if complete { r.nodes } else { u64::MAX });
        capped += usize::from(!complete);
        medium += usize::from(complete && r.nodes <= Level::Medium.nodes());
        hard += usize::from(complete && r.nodes <= Level::Hard.nodes());
    }
    costs.sort_unstable();
    let median = costs[costs.len() / 2];
    println!(
        "total {total} positions; median {}; within Medium's budget {medium}, Hard's {hard}, \
         cut off by the cap {capped}, of {}",
        if median == u64::MAX {
            "over the cap".to_owned()
        } else {
            median.to_string()
        },
        positions.len()
    );
}
