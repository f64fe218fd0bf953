//! The search keeps to its time budget (within 10%). Alone in its test binary, so that no
//! other test competes for the cores while it is timed.

use std::time::Duration;

use qiguo_ai::{Engine, Level, Limits};
use qiguo_rules::{Position, Rules};

#[test]
fn moves_come_within_the_time_budget() {
    let mut engine = Engine::new(18);
    let mut pos = Position::start(Rules::default());
    for budget_ms in [150u64, 400, 250, 400, 150, 400] {
        let budget = Duration::from_millis(budget_ms);
        let limits = Limits {
            movetime: Some(budget),
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let result = engine.search(&pos, Level::Hard, &limits, 0).unwrap();
        let took = started.elapsed();
        assert!(
            took <= budget + budget / 10,
            "{budget:?} budget, took {took:?} (depth {}, {} nodes)",
            result.depth,
            result.nodes
        );
        assert!(result.depth >= 1);
        pos.play(result.best).unwrap();
    }
}
