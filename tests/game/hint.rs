//! Hints: searched in the background for the person to move, shown with a reason, counted
//! per kingdom (and kept in the record), cancelled by a new turn, refused when no person here
//! may move.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::hint::{Hint, HintReason, HintRequested};
use qiguo::game::state::{Match, Notice, UndoRequested};
use qiguo_ai::Level;
use qiguo_rules::{Kingdom, Position, Preset, Rules};

/// Qin's Chancellor on a5 can take Chu's General on e5.
fn free_general() -> Position {
    Position::from_fen(
        "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR3rQ6oS7/19/19/12oG1oQ4/5rS4rG3bGbQ3 w",
        Rules::preset(Preset::Classic),
    )
    .unwrap()
}

fn hint(app: &App) -> &Hint {
    app.world().resource::<Hint>()
}

#[test]
fn a_hint_is_searched_in_the_background_shown_with_its_reason_and_counted() {
    let mut app = app_with(free_general());
    send(&mut app, HintRequested);
    assert!(hint(&app).is_searching() || hint(&app).shown().is_some());
    run_until(&mut app, 500, "the hint", |app| hint(app).shown().is_some());
    let shown = hint(&app).shown().unwrap();
    assert_eq!(shown.mv, mv("a5e5"));
    assert_eq!(shown.reason, HintReason::TakesGeneral(Kingdom::Chu));
    assert_eq!(shown.turn, app.world().resource::<Match>().turn());
    // With the General taken, Qin's chances are better than the
    // position's by the evaluation alone; not a certainty.
    let before = qiguo_ai::chances::FITTED.player_chances(&free_general(), None)[0];
    assert!(
        f64::from(shown.chance) > 100.0 * before + 1.0 && shown.chance < 100,
        "{} % with the hint, {:.1} % before",
        shown.chance,
        100.0 * before
    );
    app.update();
    let the_match = app.world().resource::<Match>();
    assert_eq!(the_match.hints_used(Kingdom::Qin), 1);
    assert_eq!(the_match.record().hints, vec![1, 0, 0, 0, 0, 0, 0]);
    // Asked again at the same turn: the same hint, not counted twice.
    send(&mut app, HintRequested);
    app.update();
    assert_eq!(hint(&app).shown(), Some(shown));
    let the_match = app.world().resource::<Match>();
    assert_eq!(the_match.hints_used(Kingdom::Qin), 1);
    // The move is played: the hint goes; the count stays, through an undo too.
    play(&mut app, "a5", "e5");
    assert_eq!(hint(&app).shown(), None);
    send(&mut app, UndoRequested);
    let the_match = app.world().resource::<Match>();
    assert_eq!(the_match.hints_used(Kingdom::Qin), 1);
}

#[test]
fn a_new_turn_cancels_a_hint_being_searched() {
    let mut app = app_with(free_general());
    // The person moves in the frame the hint is asked for, before it can be shown: the search
    // is dropped and nothing is counted.
    app.world_mut().write_message(HintRequested);
    request(&mut app, mv("a5b5"));
    settle(&mut app);
    for _ in 0..50 {
        app.update();
    }
    assert!(!hint(&app).is_searching());
    assert_eq!(hint(&app).shown(), None);
    assert_eq!(app.world().resource::<Match>().hints_used(Kingdom::Qin), 0);
}

#[test]
fn no_hint_while_a_computer_is_to_move() {
    let mut app = TestApp::new(free_general())
        .levels(&[Some(Level::Easy)])
        .computers_idle()
        .build();
    send(&mut app, HintRequested);
    let notices = messages::<Notice>(&mut app);
    assert!(
        notices
            .iter()
            .any(|n| n.error && n.said.text(qiguo::i18n::Tr::default()).contains("computer")),
        "{notices:?}"
    );
    assert!(!hint(&app).is_searching());
    assert_eq!(hint(&app).shown(), None);
}
