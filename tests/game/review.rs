//! The review of a game played at this screen: made in the background once the game is over,
//! with the same code and budget as a server's, its mistakes named; a move taken back makes it
//! another game's.

use std::time::{Duration, Instant};

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::review::{ReviewShown, Reviewed};
use qiguo::game::state::{Match, UndoRequested};
use qiguo_ai::Level;
use qiguo_ai::review::MistakeKind;
use qiguo_rules::{Kingdom, Position, Preset, Rules};

/// Chu (a person, to move) shields its General at a1 with a swordsman from Qin's Chancellor at
/// a5 (Qin, a computer that waits to be told); Qin's General is far away.
pub(crate) fn shielded() -> App {
    let text = format!("18wQ/{}wR18/19/rS18/19/rQ18 r", "19/".repeat(13));
    let start = Position::from_fen(&text, Rules::preset(Preset::Classic)).unwrap();
    let mut levels = vec![None; 7];
    levels[0] = Some(Level::Easy);
    TestApp::new(start).levels(&levels).computers_idle().build()
}

fn status(app: &App) -> ReviewShown {
    app.world().resource::<Reviewed>().status.clone()
}

/// Steps frames until the review is made (it is made on a thread of its own, in real time),
/// within a minute.
pub(crate) fn until_reviewed(app: &mut App) {
    let start = Instant::now();
    while !matches!(status(app), ReviewShown::Done(_)) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the review was not made: {:?}",
            status(app)
        );
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_game_over_here_is_reviewed_and_its_blunder_named() {
    let mut app = shielded();
    // Not while the game goes on.
    request(&mut app, mv("a3b3"));
    app.update();
    settle(&mut app);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(status(&app), ReviewShown::None);
    // Qin takes the General: the game is over, and reviewed.
    computer_request(&mut app, mv("a5a1"));
    app.update();
    settle(&mut app);
    assert!(position(&app).is_over());
    until_reviewed(&mut app);
    let turn = app.world().resource::<Match>().turn();
    let review = app
        .world()
        .resource::<Reviewed>()
        .done_for(turn)
        .cloned()
        .expect("the review of the game as it stands");
    assert_eq!(review.moves.len(), 2);
    let named: Vec<(usize, Kingdom, MistakeKind)> = review
        .mistakes
        .iter()
        .map(|m| (m.ply, m.kingdom, m.kind))
        .collect();
    assert_eq!(
        named,
        [
            (1, Kingdom::Chu, MistakeKind::Blunder),
            (2, Kingdom::Chu, MistakeKind::GeneralTaken)
        ]
    );
    assert_eq!(review.last[Kingdom::Qin.index()], 1.0);
    // The same review as the command line's and a server's.
    let game = app.world().resource::<Match>().game().clone();
    assert_eq!(
        *review,
        qiguo_ai::review::review(&game, qiguo_ai::review::REVIEW_NODES)
    );

    // A move taken back: the game is another, not over, and its review is gone.
    send(&mut app, UndoRequested);
    settle(&mut app);
    for _ in 0..5 {
        app.update();
    }
    assert!(!position(&app).is_over());
    assert_eq!(status(&app), ReviewShown::None);
}
