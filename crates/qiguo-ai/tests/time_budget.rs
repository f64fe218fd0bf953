//! The search keeps to its time budget. Alone in its test binary, so that no other test of the
//! crate competes for the cores; the bound holds on a loaded machine too (a search that ignored
//! its budget would go on to depth 5, seconds at the start). How closely the budget is kept on
//! a quiet machine is measured by the search benchmark, not here.

use std::time::Duration;

use qiguo_ai::{Engine, Level, Limits, TableSize};
use qiguo_rules::{Position, Rules};

#[test]
fn moves_come_within_the_time_budget() {
    let mut engine = Engine::new(TableSize::entries_log2(18));
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
        // Twice the budget and half a second: room for a machine busy with other work, which
        // delays the search's thread between its looks at the clock.
        assert!(
            took <= budget * 2 + Duration::from_millis(500),
            "{budget:?} budget, took {took:?} (depth {}, {} nodes)",
            result.depth,
            result.nodes
        );
        assert!(result.depth >= 1);
        pos.play(result.best).unwrap();
    }
}
