//! Moves typed in the move box: a whole game played without the mouse, and typed text that is
//! not a move, or not legal, or not this person's turn, refused in words with nothing changed.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::hint::HintRequested;
use qiguo::game::selection::ClickRefused;
use qiguo::game::selection::typed::{MoveTyped, suggestions};
use qiguo::game::state::{BoardRefusal, Match, MoveRejected, TurnPhase, UndoRequested};
use qiguo::game::telling::{ConcedeAsked, Told};
use qiguo_rules::random::SplitMix64;
use qiguo_rules::{Position, Preset, Rules};

fn typed(app: &mut App, text: &str) {
    app.world_mut().write_message(MoveTyped(text.to_owned()));
}

/// Seven people play a whole game by typing: each move is chosen among the box's suggestions
/// (what a person sees after typing a stone's point), captures first, and typed in full.
#[test]
fn a_whole_game_is_played_by_typed_moves() {
    for preset in [Preset::Classic, Preset::Wikipedia] {
        let mut app = TestApp::new(Position::start(Rules::preset(preset))).build();
        let mut rng = SplitMix64::new(11);
        let mut plies = 0;
        while phase(&app) != TurnPhase::GameOver {
            assert_eq!(phase(&app), TurnPhase::AwaitingInput, "{preset}");
            let pos = position(&app);
            let every = suggestions(&pos, "");
            let captures: Vec<_> = every.iter().filter(|m| pos.is_capture(**m)).collect();
            let mv = if !captures.is_empty() && rng.below(4) > 0 {
                *captures[rng.below(captures.len())]
            } else {
                every[rng.below(every.len())]
            };
            // Typing the stone's point lists its moves; the whole move is then typed (in capitals,
            // as a person might).
            let from = mv.from().map(|p| p.to_string()).unwrap_or_default();
            assert!(suggestions(&pos, &from).contains(&mv));
            typed(&mut app, &mv.to_string().to_uppercase());
            app.update();
            settle(&mut app);
            plies += 1;
            assert_eq!(moves(&app), plies, "{preset}: {mv} was played");
            assert!(plies < 1500, "{preset}: the game ends");
        }
        assert!(app.world().resource::<Match>().game().outcome().is_some());
    }
}

#[test]
fn text_that_is_not_a_legal_move_changes_nothing_and_says_why() {
    let mut app = TestApp::new(Position::start(Rules::default())).build();
    let before = fen_and_len(&app);
    // Not a move at all.
    typed(&mut app, "c10");
    app.update();
    let refused = messages::<ClickRefused>(&mut app);
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].reason, BoardRefusal::Unreadable("c10".into()));
    assert!(
        refused[0]
            .reason
            .text(Default::default())
            .contains("c10h15")
    );
    // A concession goes through its own question, as its button does.
    typed(&mut app, "concede");
    app.update();
    assert!(messages::<ClickRefused>(&mut app).is_empty());
    assert_eq!(messages::<ConcedeAsked>(&mut app), [ConcedeAsked]);
    // A move the rules do not allow: refused by the rules system, in its words.
    typed(&mut app, "a1a2");
    app.update();
    let rejected = messages::<MoveRejected>(&mut app);
    assert_eq!(rejected.len(), 1);
    assert!(matches!(rejected[0].reason, BoardRefusal::Illegal(_)));
    settle(&mut app);
    assert_eq!(fen_and_len(&app), before);
}

#[test]
fn a_typed_move_waits_for_the_persons_turn() {
    // Qin is a computer (idle): Chu's person cannot type Qin's move.
    let mut levels = vec![None; 7];
    levels[0] = Some(qiguo_ai::Level::Easy);
    let mut app = TestApp::new(Position::start(Rules::default()))
        .levels(&levels)
        .computers_idle()
        .build();
    let before = fen_and_len(&app);
    let mv = suggestions(&position(&app), "")[0];
    typed(&mut app, &mv.to_string());
    app.update();
    let refused = messages::<ClickRefused>(&mut app);
    assert!(matches!(refused[0].reason, BoardRefusal::ComputerPlays(_)));
    settle(&mut app);
    assert_eq!(fen_and_len(&app), before);
}

/// Commands typed in the move box are answered in words (and change nothing); `hint` and
/// `undo` ask for what their buttons do; a command missing its point says how to type it.
#[test]
fn typed_commands_are_answered_in_words() {
    let mut app = TestApp::new(Position::start(Rules::default())).build();
    let before = fen_and_len(&app);
    let ask = |app: &mut App, text: &str| {
        typed(app, text);
        app.update();
        let told = messages::<Told>(app);
        assert_eq!(told.len(), 1, "{text}: {told:?}");
        told[0].0.clone()
    };
    assert_eq!(
        ask(&mut app, "what j10"),
        "j10: the Emperor, who never moves and is never taken."
    );
    assert!(ask(&mut app, "where Qin").starts_with("Qin has 17 pieces: "));
    assert!(ask(&mut app, "attacks").contains("attacks k4"));
    assert_eq!(ask(&mut app, "last"), "No move has been made yet.");
    assert!(messages::<ClickRefused>(&mut app).is_empty());
    assert_eq!(fen_and_len(&app), before);

    // After a move, `last` tells it, and `undo` asks for it to be taken back.
    let mv = quiet_move(&app);
    typed(&mut app, &mv.to_string());
    app.update();
    settle(&mut app);
    assert!(ask(&mut app, "last 1").starts_with("The last move: 1. Qin's "));
    typed(&mut app, "undo");
    app.update();
    assert_eq!(messages::<UndoRequested>(&mut app).len(), 1);
    typed(&mut app, "hint");
    app.update();
    assert_eq!(messages::<HintRequested>(&mut app).len(), 1);
}
