//! The game told as it happens (what the page's live regions say to a screen reader): a round
//! against six computers announced move by move in words, then the person's turn, urgently; a
//! move taken back; the end of a game.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::state::{TurnPhase, UndoRequested};
use qiguo::game::telling::Announced;
use qiguo_ai::Level;
use qiguo_rules::{Position, Rules, fen};

/// Runs frames until `done`, keeping every announcement made meanwhile.
fn announced_until(
    app: &mut App,
    frames: usize,
    what: &str,
    done: impl Fn(&App) -> bool,
) -> Vec<Announced> {
    let mut said = Vec::new();
    for _ in 0..frames {
        app.update();
        said.extend(messages::<Announced>(app));
        if done(app) {
            return said;
        }
    }
    panic!("{what} did not happen within {frames} frames; said {said:?}");
}

#[test]
fn a_round_against_six_computers_is_told_move_by_move() {
    let mut levels = [Some(Level::Easy); 7];
    levels[0] = None;
    let mut app = TestApp::new(Position::start(Rules::default()))
        .levels(&levels)
        .seed(5)
        .build();
    let said = announced_until(&mut app, 5, "the start", |app| {
        phase(app) == TurnPhase::AwaitingInput
    });
    let words: Vec<&str> = said.iter().map(|a| a.words.as_str()).collect();
    assert!(words.contains(&"Your move, Qin: move 1."), "{words:?}");

    // Qin's move, by two clicks, then the computers' six.
    let mut said = Vec::new();
    for point in ["e10", "e5"] {
        click(&mut app, point);
        said.extend(messages::<Announced>(&mut app));
    }
    said.extend(announced_until(
        &mut app,
        7 * 200,
        "the computers' round",
        |app| moves(app) == 7 && phase(app) == TurnPhase::AwaitingInput,
    ));
    // Seven moves, in the order played, each in words and not urgent; then Qin's turn, urgent.
    let told: Vec<&Announced> = said.iter().filter(|a| !a.urgent).collect();
    assert_eq!(told.len(), 7, "{said:?}");
    let movers = ["Qin", "Chu", "Han", "Qi", "Wei", "Zhao", "Yan"];
    for (announced, mover) in told.iter().zip(movers) {
        assert!(
            announced.words.starts_with(&format!("{mover}'s ")),
            "{mover}: {announced:?}"
        );
        assert!(announced.words.contains(" from "), "{announced:?}");
    }
    assert!(told[0].words.starts_with("Qin's "), "{:?}", told[0]);
    assert!(told[0].words.contains("from e10 to e5"), "{:?}", told[0]);
    assert_eq!(
        said.last(),
        Some(&Announced {
            words: "Your move, Qin: move 8.".into(),
            urgent: true
        })
    );

    // Taken back to Qin's move.
    send(&mut app, UndoRequested);
    let said = messages::<Announced>(&mut app);
    assert_eq!(said[0].words, "Taken back: move 1 is to be played again.");
    assert_eq!(said.last().map(|a| a.urgent), Some(true));
}

#[test]
fn the_end_is_told_urgently() {
    // Qin's chancellor takes Chu's general, the only other piece on the board: Qin is the last
    // kingdom left, and the game ends.
    let setup =
        fen::parse("19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR1rQ16/19/19/19/19 w").unwrap();
    let start = Position::new(&setup, Rules::default(), qiguo_rules::Seats::seven()).unwrap();
    let mut app = app_with(start);
    app.update();
    let mut said = Vec::new();
    for point in ["a5", "c5"] {
        click(&mut app, point);
        said.extend(messages::<Announced>(&mut app));
    }
    said.extend(announced_until(&mut app, 500, "the end", |app| {
        phase(app) == TurnPhase::GameOver
    }));
    let end = said
        .iter()
        .find(|a| a.urgent)
        .unwrap_or_else(|| panic!("the end announced: {said:?}"));
    assert!(end.words.starts_with("Qin "), "{end:?}");
    assert!(end.words.ends_with("and wins the game."), "{end:?}");
    assert!(
        said.iter().any(|a| !a.urgent
            && a.words
                .starts_with("Qin's chancellor from a5 takes Chu's general on c5")),
        "{said:?}"
    );
}
