//! The game told as it happens (what the page's live regions say to a screen reader): a round
//! against six computers announced move by move in words, then the person's turn, urgently; a
//! move taken back; the end of a game. And the board by keyboard: a move played with the
//! cursor, each point it reaches told.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::state::{Match, TurnPhase, UndoRequested};
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

/// Qin played by a person here, the six others by Easy computers.
fn qin_against_six_easy() -> TestApp {
    let mut levels = [Some(Level::Easy); 7];
    levels[0] = None;
    TestApp::new(Position::start(Rules::default())).levels(&levels)
}

/// The cursor's step from `at` towards `to`: along the rank first, then along the file.
fn step_towards(
    at: qiguo_rules::Point,
    to: qiguo_rules::Point,
) -> qiguo::game::selection::cursor::CursorRequested {
    let files = (to.file() as i8 - at.file() as i8).signum();
    let ranks = if files == 0 {
        (to.rank() as i8 - at.rank() as i8).signum()
    } else {
        0
    };
    qiguo::game::selection::cursor::CursorRequested::Step { files, ranks }
}

#[test]
fn a_round_against_six_computers_is_told_move_by_move() {
    let mut app = qin_against_six_easy().seed(5).build();
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

/// A move played with the board's cursor alone: shown on Qin's general, walked stone by stone
/// and point by point, each point told in words; Act selects the stone and then moves it, as
/// two clicks do.
#[test]
fn a_move_is_played_with_the_keyboard_cursor() {
    use qiguo::game::selection::Selection;
    use qiguo::game::selection::cursor::{BoardCursor, CursorRequested};
    use qiguo::game::telling::Told;

    let mut app = app_with(Position::start(Rules::default()));
    app.update();
    let cursor = |app: &App| app.world().resource::<BoardCursor>().at;
    let ask = |app: &mut App, request: CursorRequested| {
        send(app, request);
        messages::<Told>(app)
            .into_iter()
            .map(|t| t.0)
            .collect::<Vec<_>>()
    };
    let told = ask(&mut app, CursorRequested::Toggle);
    let general = cursor(&app).expect("the cursor shown");
    assert_eq!(told, [format!("Qin's general on {general}.")]);

    // Through Qin's stones to one with a quiet move.
    let mv = quiet_move(&app);
    let (from, to) = (mv.from().unwrap(), mv.to().unwrap());
    let mut seen = 0;
    while cursor(&app) != Some(from) {
        let told = ask(&mut app, CursorRequested::NextStone { forward: true });
        assert!(told[0].starts_with("Qin's "), "{told:?}");
        seen += 1;
        assert!(seen <= 17, "the cursor never reached {from}");
    }
    let told = ask(&mut app, CursorRequested::Act);
    assert_eq!(app.world().resource::<Selection>().selected, Some(from));
    assert!(
        told.is_empty(),
        "acting leaves the cursor where it is: {told:?}"
    );

    // Point by point to the destination: the last point says the stone can go there.
    let mut told = Vec::new();
    while let Some(at) = cursor(&app).filter(|&at| at != to) {
        told = ask(&mut app, step_towards(at, to));
    }
    assert_eq!(
        told,
        [format!(
            "{to} is empty. The selected stone can go to {to}: Enter moves it there."
        )]
    );
    send(&mut app, CursorRequested::Act);
    settle(&mut app);
    assert_eq!(moves(&app), 1);
    assert_eq!(
        app.world().resource::<Match>().game().moves().next(),
        Some(mv)
    );

    // At the board's edge the cursor stays; Hide hides it.
    for _ in 0..20 {
        send(
            &mut app,
            CursorRequested::Step {
                files: -1,
                ranks: 0,
            },
        );
    }
    assert_eq!(cursor(&app).map(|p| p.file()), Some(0));
    let told = ask(&mut app, CursorRequested::Hide);
    assert_eq!(told, ["The board's cursor is hidden."]);
    assert_eq!(cursor(&app), None);
}

/// A whole game against six Easy computers played by the keyboard's cursor alone, as a person
/// who cannot see the board plays it in the window: each turn the cursor goes through Qin's
/// stones (`]`, after C twice if it stands on another army) to the one to move, Enter, then
/// point by point (the arrows) to where it goes, Enter; every move of every kingdom is announced in words, and the game's end is told. If
/// Qin falls before the end the computers play on to it.
#[test]
fn a_whole_game_is_played_by_keyboard_to_its_end() {
    use qiguo::game::selection::Selection;
    use qiguo::game::selection::cursor::{BoardCursor, CursorRequested};
    use qiguo_rules::{Kingdom, Move};

    let mut app = qin_against_six_easy()
        .pace(qiguo::settings::PaceChoice::Instant)
        .seed(11)
        .build();
    let cursor = |app: &App| app.world().resource::<BoardCursor>().at;
    // The move a person who hears the board chooses: what a short search (a fixed number of
    // positions, the same on any machine) finds, with the player's answers to `attacked` and
    // `moves` in mind. It is never a pass while a stone can move.
    let mut engine = qiguo_ai::Engine::new(qiguo_ai::TableSize::megabytes(4));
    let limits = qiguo_ai::Limits {
        nodes: Some(4_000),
        ..Default::default()
    };
    let mut choose = |pos: &Position, turn: usize| -> Move {
        engine
            .search(pos, Level::Medium, &limits, turn as u64)
            .map(|found| found.best)
            .filter(|m| m.from().is_some())
            .expect("a move for Qin")
    };

    send(&mut app, CursorRequested::Toggle);
    let mut said: Vec<Announced> = Vec::new();
    let mut played_by_keyboard = 0;
    for _ in 0..200_000 {
        app.update();
        said.extend(messages::<Announced>(&mut app));
        match phase(&app) {
            TurnPhase::GameOver => break,
            TurnPhase::AwaitingInput => {}
            _ => continue,
        }
        let pos = position(&app);
        assert_eq!(pos.to_move(), Kingdom::Qin, "only Qin waits for a person");
        let mv = choose(&pos, played_by_keyboard);
        let (from, to) = (mv.from().unwrap(), mv.to().unwrap());
        // Back to Qin's army if the cursor stands elsewhere (C twice: it shows on the General),
        // through the army to the stone; then point by point to its goal.
        if cursor(&app)
            .and_then(|at| pos.piece_at(at))
            .is_none_or(|piece| piece.kingdom != Kingdom::Qin)
        {
            send(&mut app, CursorRequested::Toggle);
            send(&mut app, CursorRequested::Toggle);
        }
        let mut stones = 0;
        while cursor(&app) != Some(from) {
            send(&mut app, CursorRequested::NextStone { forward: true });
            stones += 1;
            assert!(stones <= 17, "the cursor never reached {from}");
        }
        send(&mut app, CursorRequested::Act);
        assert_eq!(app.world().resource::<Selection>().selected, Some(from));
        while let Some(at) = cursor(&app).filter(|&at| at != to) {
            send(&mut app, step_towards(at, to));
        }
        let before = moves(&app);
        send(&mut app, CursorRequested::Act);
        said.extend(messages::<Announced>(&mut app));
        assert_eq!(moves(&app), before + 1, "Enter on {to} played {mv:?}");
        played_by_keyboard += 1;
    }
    assert_eq!(phase(&app), TurnPhase::GameOver, "the game did not end");
    let the_match = app.world().resource::<Match>();
    let plies = the_match.game().len();
    assert!(played_by_keyboard >= 5, "Qin played {played_by_keyboard}");
    // Every move announced, in words and in order; the end told urgently, last.
    let told: Vec<&Announced> = said
        .iter()
        .filter(|a| !a.urgent && a.words.contains(" from "))
        .collect();
    assert_eq!(told.len(), plies, "{plies} moves, {} told", told.len());
    let end = said.iter().rev().find(|a| a.urgent).expect("the end told");
    assert!(
        end.words.contains("wins the game") || end.words.contains("drawn"),
        "{end:?}"
    );
    eprintln!(
        "the game ended after {plies} moves, {played_by_keyboard} of them Qin's by keyboard: {}",
        end.words
    );
}
