//! Searches on more than one thread: Hard shares its search with helpers (lazy SMP), the other
//! levels stay on one thread, a stop ends every thread, and one thread again searches exactly
//! as an engine that never had helpers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use qiguo_ai::{Engine, Level, LevelSearch, Limits};
use qiguo_rules::{PieceKind, Position, Preset, Rules};

/// The crowded midgame of the benchmarks (70 plies in, all seven kingdoms in).
const MIDGAME: &str = "2dNdSdB1dRdSdNpG1pS1pQpR1pN1gN/3dNdS1dSdN4pSpC1pS3/4dA1dA5pApW4gN/4dH3pN9gS/11dG4gAgS1/12pNpH2gWgCgQ/wN11bN3gAgSgR/wWwN12oG3gS/wR1wA6wH8gN/wQdW15bN1/2wS10gN5/wS7gG9bS/wN3wB4rW6bAbSbB/2wN1wGdQ5oW4bWbC1/6rGoN1bG6bAbQbR/15oH1bNbS/4rArCrA5bH1oA3bN/3rNrS1rSrN3oNoSoC5/2rNrSrRrQrBrSrN2oSoRoQoBoSoN2 w";

fn midgame() -> Position {
    Position::from_fen(MIDGAME, Rules::preset(Preset::Classic)).unwrap()
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

#[test]
fn one_thread_again_searches_as_an_engine_that_never_had_helpers() {
    let pos = midgame();
    let mut shared = Engine::new(16);
    shared.set_threads(2);
    assert_eq!(shared.threads(), 2);
    shared.set_threads(1);
    assert_eq!(shared.threads(), 1);
    let a = shared.search(&pos, Level::Hard, &nodes(60_000), 3).unwrap();
    let b = Engine::new(16)
        .search(&pos, Level::Hard, &nodes(60_000), 3)
        .unwrap();
    assert_eq!(
        (a.best, a.score, a.depth, a.nodes),
        (b.best, b.score, b.depth, b.nodes)
    );
}

#[test]
fn levels_that_look_one_move_deep_stay_on_one_thread() {
    let pos = midgame();
    for level in [Level::Easy, Level::Medium] {
        let mut two = Engine::new(16);
        two.set_threads(2);
        let a = two.search(&pos, level, &nodes(level.nodes()), 9).unwrap();
        let b = Engine::new(16)
            .search(&pos, level, &nodes(level.nodes()), 9)
            .unwrap();
        assert_eq!((a.best, a.nodes), (b.best, b.nodes), "{level}");
    }
}

/// The position of `play.rs`'s `hard_takes_a_general_now_rather_than_later`: Yan can take Han's
/// General or Zhao's, safely. Hard on two threads takes one too.
#[test]
fn hard_on_two_threads_takes_the_free_general() {
    let fen = "dG2dSdBdQdR1dNpNpNpSpB1pRpSpNgN1/3dNdSdC1dS5pQgN4/4dA6pSpA1pA1gB1gS/2bG4dA4pW4gA1/dHwN1gG7dN1pG3gS1/11bN5gCgQ/wR10oH2gN1gAgSgR/1wS16gS/1wSwA6gN3oG5/wQwC4pC9gW2/wSwS4dW2dN4bA4/1wN1wA9oW2bNbS1/10rG6bS1/2pHwH3rA1oQ1oN2bNgH1bCbQ/3rQ5oC4oN1bAbSbR/2rNrA2rNwW5oA4bS/3rSrB9oA2rC1/4wG1rS5oS1oSoB3/2rNrSrR2rS1oN1oSoR3oS2 d";
    let pos = Position::from_fen(fen, Rules::preset(Preset::Classic)).unwrap();
    let mut engine = Engine::new(18);
    engine.set_threads(2);
    let result = engine
        .search(&pos, Level::Hard, &nodes(Level::Hard.nodes()), 1)
        .unwrap();
    let taken = result.best.to().and_then(|to| pos.piece_at(to));
    assert!(
        taken.is_some_and(|v| v.kind == PieceKind::General),
        "played {} (score {}, depth {})",
        result.best,
        result.score,
        result.depth
    );
}

#[test]
fn a_stop_ends_every_thread_with_a_move() {
    let pos = midgame();
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        // Unstopped, the search would think for a minute.
        movetime: Some(Duration::from_secs(60)),
        stop: Some(stop.clone()),
        ..Limits::default()
    };
    let mut engine = Engine::new(16);
    engine.set_threads(3);
    let asked = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
        Instant::now()
    });
    let result = engine.search(&pos, Level::Hard, &limits, 1).unwrap();
    let returned = Instant::now();
    let asked = asked.join().unwrap();
    assert!(pos.is_legal(result.best));
    // The search returns only once its helpers have ended. Generous, for a loaded machine: each
    // thread checks its flag every thousand positions or so.
    assert!(returned.duration_since(asked) < Duration::from_secs(30));
}
