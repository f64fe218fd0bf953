//! Conceding a kingdom in the game: requested like a move, its army leaves (or changes hands)
//! on the board, the game goes on without it, and it is taken back, replayed and reviewed like
//! a move.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::state::{Match, MoveRequested, ReviewRequested, TurnPhase, UndoRequested};
use qiguo_ai::Level;
use qiguo_rules::{Kingdom, Move, Position, Preset, Rules, Standing};

fn qin_against_six(preset: Preset) -> TestApp {
    let mut levels = vec![Some(Level::Easy); 7];
    levels[0] = None;
    TestApp::new(Position::start(Rules::preset(preset))).levels(&levels)
}

fn concede(app: &mut App) {
    let request = MoveRequested::by_person(app.world().resource::<Match>(), Move::CONCEDE);
    app.world_mut().write_message(request);
    app.update();
    settle(app);
}

#[test]
fn a_person_concedes_and_the_computers_play_on() {
    let mut app = qin_against_six(Preset::Classic).build();
    concede(&mut app);
    let pos = position(&app);
    assert_eq!(
        pos.standing(Kingdom::Qin),
        Standing::Conceded { victor: None }
    );
    assert_eq!(pos.army(Kingdom::Qin).count(), 0);
    // The stones agree: Qin's left the board.
    for _ in 0..100 {
        app.update();
        check_agreement(&mut app, false);
    }
    run_until(&mut app, 2000, "the computers play on", |app| {
        moves(app) >= 4
    });
    let the_match = app.world().resource::<Match>();
    assert!(!the_match.has_person());
    assert_eq!(
        the_match.record().moves.first().map(String::as_str),
        Some("concede")
    );
}

#[test]
fn a_concession_is_taken_back_and_reviewed_like_a_move() {
    let mut app = qin_against_six(Preset::Wikipedia).computers_idle().build();
    let before = position(&app);
    concede(&mut app);
    assert_eq!(moves(&app), 1);
    assert_eq!(phase(&app), TurnPhase::ComputerThinking);
    // Review the start and the concession: the board follows.
    send(&mut app, ReviewRequested::First);
    glide(&mut app);
    assert_agree(&mut app);
    send(&mut app, ReviewRequested::Live);
    glide(&mut app);
    assert_agree(&mut app);
    // Undo: Qin is back, stones and all.
    send(&mut app, UndoRequested);
    glide(&mut app);
    assert_eq!(moves(&app), 0);
    assert_eq!(position(&app), before);
    assert_eq!(phase(&app), TurnPhase::AwaitingInput);
    assert_agree(&mut app);
}
