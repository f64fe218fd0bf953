//! Search speed: nodes per second and the depth reached in one second, at the start and in a
//! crowded midgame, for the `classic` preset. Run with `cargo bench -p qiguo-ai`.

use std::time::Duration;

use qiguo_ai::{Engine, Level, Limits};
use qiguo_rules::{Position, Preset, Rules};

/// The crowded midgame of the rules crate's benchmarks (70 plies in, all seven kingdoms in).
const MIDGAME: &str = "2dNdSdB1dRdSdNpG1pS1pQpR1pN1gN/3dNdS1dSdN4pSpC1pS3/4dA1dA5pApW4gN/4dH3pN9gS/11dG4gAgS1/12pNpH2gWgCgQ/wN11bN3gAgSgR/wWwN12oG3gS/wR1wA6wH8gN/wQdW15bN1/2wS10gN5/wS7gG9bS/wN3wB4rW6bAbSbB/2wN1wGdQ5oW4bWbC1/6rGoN1bG6bAbQbR/15oH1bNbS/4rArCrA5bH1oA3bN/3rNrS1rSrN3oNoSoC5/2rNrSrRrQrBrSrN2oSoRoQoBoSoN2 w";

fn main() {
    let rules = Rules::preset(Preset::Classic);
    let cases = [
        ("start", Position::start(rules)),
        (
            "midgame",
            Position::from_fen(MIDGAME, rules).expect("valid FEN"),
        ),
    ];
    println!(
        "{:<8} {:>5} {:>12} {:>12} {:>8}",
        "position", "run", "nodes", "nodes/s", "depth"
    );
    for (name, pos) in &cases {
        for run in 1..=3 {
            let mut engine = Engine::new(20);
            let limits = Limits {
                movetime: Some(Duration::from_secs(1)),
                ..Limits::default()
            };
            let r = engine
                .search(pos, Level::Hard, &limits, run)
                .expect("a move");
            let nps = r.nodes as f64 / r.elapsed.as_secs_f64();
            println!(
                "{name:<8} {run:>5} {:>12} {:>12.0} {:>8}",
                r.nodes, nps, r.depth
            );
        }
    }
}
