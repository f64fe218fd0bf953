//! Searches on more than one thread: Hard shares its search with helpers (lazy SMP), the other
//! levels stay on one thread (Hard on two threads taking a free General is in `play.rs`), a stop
//! ends every thread, and one thread again searches exactly
//! as an engine that never had helpers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use qiguo_ai::{Engine, Level, LevelSearch, Limits, TableSize};
use qiguo_rules::{Position, Preset, Rules};
use qiguo_testkit::CROWDED_MIDGAME;

fn midgame() -> Position {
    Position::from_fen(CROWDED_MIDGAME, Rules::preset(Preset::Classic)).unwrap()
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
    let mut shared = Engine::new(TableSize::entries_log2(16));
    shared.set_threads(2);
    assert_eq!(shared.threads(), 2);
    shared.set_threads(1);
    assert_eq!(shared.threads(), 1);
    let a = shared.search(&pos, Level::Hard, &nodes(60_000), 3).unwrap();
    let b = Engine::new(TableSize::entries_log2(16))
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
        let mut two = Engine::new(TableSize::entries_log2(16));
        two.set_threads(2);
        let a = two.search(&pos, level, &nodes(level.nodes()), 9).unwrap();
        let b = Engine::new(TableSize::entries_log2(16))
            .search(&pos, level, &nodes(level.nodes()), 9)
            .unwrap();
        assert_eq!((a.best, a.nodes), (b.best, b.nodes), "{level}");
    }
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
    let mut engine = Engine::new(TableSize::entries_log2(16));
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
