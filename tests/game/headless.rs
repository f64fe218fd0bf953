//! The game's logic plugins without a window or GPU: clicks go in as messages, time is stepped
//! by hand, and after every step `Match` and the entities must agree.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::layout;
use qiguo::game::selection::{ClickRefused, MarkerKind, Selection};
use qiguo::game::state::{Match, MoveApplied, MoveRejected, Review, TurnPhase};
use qiguo::game::stones::StoneIndex;
use qiguo_rules::{
    Kingdom, Move, Piece, PieceKind, Position, Preset, Rules, Seats, Standing, Victory, fen,
};

const THREE_KINGDOMS: &str =
    "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR1rQ5oQ10/19/19/12oG6/5rS4rG3bGbQ3 w";

fn start(preset: Preset) -> Position {
    Position::new(
        &fen::parse(THREE_KINGDOMS).unwrap(),
        Rules::preset(preset),
        Seats::seven(),
    )
    .unwrap()
}

#[test]
fn select_move_capture_beat_and_finish_with_removal() {
    let mut app = app_with(start(Preset::Classic));
    assert_agree(&mut app);
    assert_eq!(phase(&app), TurnPhase::AwaitingInput);

    // Select Qin's Chancellor: markers for its moves, a capture marker on Chu's General.
    click(&mut app, "a5");
    let marks = markers(&mut app);
    assert!(marks.contains(&(p("c5"), MarkerKind::Capture)));
    assert!(marks.contains(&(p("a6"), MarkerKind::Move)));
    assert_eq!(marks.len(), position(&app).moves_from(p("a5")).len());

    // Capture Chu's General: Chu is beaten and its army leaves the board.
    click(&mut app, "c5");
    let applied = messages::<MoveApplied>(&mut app);
    assert_eq!(applied.len(), 1);
    assert!(markers(&mut app).is_empty());
    app.update();
    assert_eq!(phase(&app), TurnPhase::Animating);
    settle(&mut app);
    assert_agree(&mut app);
    let pos = position(&app);
    assert!(matches!(
        pos.standing(Kingdom::Chu),
        Standing::Beaten {
            victor: Kingdom::Qin,
            ..
        }
    ));
    assert_eq!(pos.army_size(Kingdom::Chu), 0);
    assert_eq!(
        app.world().resource::<StoneIndex>().tray_len(Kingdom::Qin),
        1
    );

    // The turn skips Chu: Han moves, then Qi.
    assert_eq!(pos.to_move(), Kingdom::Han);
    play(&mut app, "m2", "m3");
    play(&mut app, "o1", "o2");
    assert_eq!(phase(&app), TurnPhase::AwaitingInput);

    // Qin takes Han's General too: two Generals, game over.
    play(&mut app, "c5", "i5");
    let pos = position(&app);
    let outcome = pos.outcome().expect("game over");
    assert_eq!(
        (outcome.winner, outcome.victory),
        (Kingdom::Qin, Victory::Generals)
    );
    assert_eq!(phase(&app), TurnPhase::GameOver);

    // After the end, clicks are refused and change nothing.
    click(&mut app, "o2");
    assert_eq!(messages::<ClickRefused>(&mut app).len(), 1);
    assert_eq!(app.world().resource::<Selection>().selected, None);
    assert_agree(&mut app);
}

#[test]
fn beaten_armies_change_colour_when_transferred() {
    use qiguo::game::pace::PaceChoice;
    use qiguo::game::stones::Look;
    let mut app = TestApp::new(start(Preset::Wikipedia))
        .pace(PaceChoice::Calm)
        .build();
    // At the calm pace, Chu's swordsman on f1 keeps Chu's colour while Qin's chancellor
    // travels to Chu's General, and takes Qin's when it lands (about 0.6 s: lift 0.14 s,
    // travel 0.29 s, then the settle).
    let f1 = app.world().resource::<StoneIndex>().at(p("f1")).unwrap();
    let look = |app: &App| app.world().get::<Look>(f1).unwrap().0.kingdom;
    click(&mut app, "a5");
    click(&mut app, "c5");
    let mut recoloured_at = None;
    for frame in 1..60 {
        app.update();
        if recoloured_at.is_none() && look(&app) == Kingdom::Qin {
            recoloured_at = Some(frame);
        }
    }
    let frame = recoloured_at.expect("recoloured");
    // Frames of 20 ms: the chancellor lands after 0.14 + 0.22 + 0.035 * 2 = 0.43 s.
    assert!((20..=24).contains(&frame), "recoloured at frame {frame}");
    settle(&mut app);
    assert_agree(&mut app);
    let pos = position(&app);
    assert_eq!(
        pos.piece_at(p("f1")),
        Some(Piece::new(Kingdom::Qin, PieceKind::Swordsman))
    );
    assert_eq!(
        pos.piece_at(p("k1")),
        Some(Piece::new(Kingdom::Qin, PieceKind::GoBetween))
    );
    // assert_agree (inside play) checked that the stones on f1 and k1 are Qin's now.
    play(&mut app, "m2", "m3");
    play(&mut app, "o1", "o2");
    // Qin's turn again, and it now owns Chu's former stones too.
    click(&mut app, "f1");
    assert_eq!(app.world().resource::<Selection>().selected, Some(p("f1")));
    click(&mut app, "f1");
    play(&mut app, "c5", "i5");
    let outcome = position(&app).outcome().unwrap();
    assert_eq!(outcome.victory, Victory::Kingdoms);
    assert_eq!(phase(&app), TurnPhase::GameOver);
}

#[test]
fn illegal_clicks_and_early_requests_change_nothing() {
    let mut app = app_with(Position::start(Rules::default()));
    let before = position(&app);
    // Another kingdom's stone, an empty point, the Emperor: refused with a cue.
    for point in ["f1", "k3", "j10"] {
        click(&mut app, point);
        let refused = messages::<ClickRefused>(&mut app);
        assert_eq!(refused.len(), 1, "{point}");
        assert_eq!(app.world().resource::<Selection>().selected, None);
    }
    // A selected stone and an unreachable point: the selection is dropped, nothing moves.
    click(&mut app, "e10");
    click(&mut app, "k3");
    assert_eq!(app.world().resource::<Selection>().selected, None);
    assert!(messages::<MoveApplied>(&mut app).is_empty());
    assert_eq!(position(&app), before);
    assert_agree(&mut app);

    // While a move is shown, clicks wait and extra requests are refused.
    click(&mut app, "e10");
    click(&mut app, "e10");
    click(&mut app, "e10");
    click(&mut app, "e5");
    app.update();
    assert_eq!(phase(&app), TurnPhase::Animating);
    click(&mut app, "f3");
    assert_eq!(messages::<ClickRefused>(&mut app).len(), 1);
    request(&mut app, Move::new(p("f3"), p("f4")));
    app.update();
    assert_eq!(messages::<MoveRejected>(&mut app).len(), 1);
    settle(&mut app);
    assert_eq!(app.world().resource::<Match>().game().len(), 1);
    assert_agree(&mut app);
}

#[test]
fn attacking_an_ally_waits_for_confirmation() {
    use qiguo::game::selection::AllyAttackAnswered;
    let setup =
        fen::parse("19/19/19/19/19/19/19/19/19/19/19/19/19/19/rQ18/19/19/19/wR1rS14oQ1 w").unwrap();
    let seats = Seats::new([Some(0), Some(0), Some(1), None, None, None, None]).unwrap();
    let start = Position::new(&setup, Rules::default(), seats).unwrap();
    let mut app = app_with(start);
    click(&mut app, "a1");
    click(&mut app, "c1");
    assert!(
        app.world()
            .resource::<Selection>()
            .pending_ally_attack
            .is_some()
    );
    // Declined: nothing happens.
    app.world_mut()
        .write_message(AllyAttackAnswered { confirmed: false });
    app.update();
    assert_eq!(app.world().resource::<Match>().game().len(), 0);
    assert_eq!(*app.world().resource::<Selection>(), Selection::default());
    // Confirmed: Chu forfeits, its stones leave; no tray stone for Qin.
    click(&mut app, "a1");
    click(&mut app, "c1");
    app.world_mut()
        .write_message(AllyAttackAnswered { confirmed: true });
    app.update();
    settle(&mut app);
    assert_agree(&mut app);
    let pos = position(&app);
    assert_eq!(
        pos.standing(Kingdom::Chu),
        Standing::Forfeited { by: Kingdom::Qin }
    );
    assert_eq!(
        app.world().resource::<StoneIndex>().tray_len(Kingdom::Qin),
        0
    );
    assert_eq!(pos.to_move(), Kingdom::Han);
}

#[test]
fn knights_travel_through_their_leg() {
    let mut app = app_with(Position::start(Rules::default()));
    // Qin's knight on a13 to b15: leg a14, then north-east.
    click(&mut app, "a13");
    click(&mut app, "b15");
    let mut samples = Vec::new();
    for _ in 0..60 {
        app.update();
        let entity = app.world().resource::<StoneIndex>().at(p("b15")).unwrap();
        samples.push(app.world().get::<Transform>(entity).unwrap().translation);
    }
    let leg = layout::stone_rest(p("a14"));
    assert!(
        samples
            .iter()
            .any(|s| (s.x - leg.x).abs() < 0.05 && (s.z - leg.z).abs() < 0.05 && s.y > 0.5),
        "passes above a14"
    );
    settle(&mut app);
    assert_agree(&mut app);
}

#[test]
fn shift_previews_the_moves_of_any_hovered_stone() {
    use qiguo::game::selection::Hover;
    let mut app = app_with(Position::start(Rules::default()));
    app.insert_resource(ButtonInput::<KeyCode>::default());
    click(&mut app, "e10");
    // Hovering another stone shows nothing more until Shift is held.
    app.world_mut().resource_mut::<Hover>().point = Some(p("a13"));
    app.update();
    assert!(
        markers(&mut app)
            .iter()
            .all(|(_, k)| *k == MarkerKind::Move)
    );
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::ShiftLeft);
    app.update();
    let marks = markers(&mut app);
    assert!(
        marks.contains(&(p("b15"), MarkerKind::PreviewMove)),
        "{marks:?}"
    );
    assert!(marks.contains(&(p("e5"), MarkerKind::Move)));
    // Also for another kingdom's stone.
    app.world_mut().resource_mut::<Hover>().point = Some(p("f1"));
    app.update();
    let previews = markers(&mut app)
        .into_iter()
        .filter(|(_, k)| *k == MarkerKind::PreviewMove)
        .count();
    assert_eq!(previews, position(&app).moves_from(p("f1")).len());
}

#[test]
fn a_match_that_starts_finished_starts_in_game_over() {
    let mut game = qiguo_rules::Game::new(start(Preset::Classic));
    for mv in ["a5c5", "m2m3", "o1o2", "c5i5"] {
        game.play(qiguo_rules::notation::parse_move(mv).unwrap())
            .unwrap();
    }
    assert!(game.position().is_over());
    let mut app = TestApp::from_game(game).build();
    app.update();
    assert_eq!(phase(&app), TurnPhase::GameOver);
    assert_agree(&mut app);
    assert_eq!(
        app.world().resource::<StoneIndex>().tray_len(Kingdom::Qin),
        2
    );
}

mod computers {
    use super::*;
    use qiguo::game::state::SeatChangeRequested;
    use qiguo_ai::Level;

    /// Frames a computer move may take: the pause, the search and the animation.
    const MOVE_FRAMES: usize = 200;

    #[test]
    fn a_computer_moves_then_hands_the_turn_to_a_person() {
        let mut app = TestApp::new(Position::start(Rules::default()))
            .levels(&[Some(Level::Easy)])
            .build();
        app.update();
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        // A person's click while the computer thinks is refused.
        click(&mut app, "f3");
        assert_eq!(messages::<ClickRefused>(&mut app).len(), 1);
        run_until(&mut app, MOVE_FRAMES, "Qin's move", |app| moves(app) == 1);
        settle(&mut app);
        assert_agree(&mut app);
        assert_eq!(position(&app).to_move(), Kingdom::Chu);
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
    }

    #[test]
    fn seats_change_hands_at_any_turn() {
        let mut app = app_with(Position::start(Rules::default()));
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        // Qin's person hands over to the computer: it thinks and moves.
        send(
            &mut app,
            SeatChangeRequested {
                player: 0,
                computer: Some(Level::Medium),
            },
        );
        app.update();
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        run_until(&mut app, MOVE_FRAMES, "Qin's move", |app| moves(app) == 1);
        settle(&mut app);
        // Chu is a person; hand Chu to the computer and take it back before it moves.
        send(
            &mut app,
            SeatChangeRequested {
                player: 1,
                computer: Some(Level::Hard),
            },
        );
        app.update();
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        send(
            &mut app,
            SeatChangeRequested {
                player: 1,
                computer: None,
            },
        );
        app.update();
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        for _ in 0..20 {
            app.update();
        }
        assert_eq!(moves(&app), 1, "the stopped search played nothing");
        // The person plays on: Chu's knight from d2, through its leg d3, to e4.
        play(&mut app, "d2", "e4");
        assert_eq!(moves(&app), 2);
    }

    #[test]
    fn seven_computers_play_on_their_own() {
        let mut app = TestApp::new(Position::start(Rules::default()))
            .levels(&[Some(Level::Easy); 7])
            .build();
        run_until(&mut app, 10 * MOVE_FRAMES, "ten moves", |app| {
            moves(app) == 10
        });
        settle(&mut app);
        assert_agree(&mut app);
        // The computers go on: each move is shown before the next is asked for.
        run_until(&mut app, MOVE_FRAMES, "an eleventh move", |app| {
            moves(app) == 11
        });
    }
}

/// Undo, redo, review, saving and loading, driven by their messages.
mod records {
    use super::*;
    use qiguo::game::saving::{
        LoadRequested, ResumeAnswered, ResumeOffer, SaveRequested, SaveStore,
    };
    use qiguo::game::state::{Notice, RedoRequested, ReviewRequested, UndoRequested};
    use qiguo_ai::Level;
    use qiguo_rules::{Game, PlayerInfo, Record, notation};

    /// The game's messages are written in the language in force when they are made: a
    /// language chosen at run time applies from the next one on.
    #[test]
    fn messages_follow_a_language_switched_at_run_time() {
        use qiguo::i18n::{Language, Tr};
        let mut app = app_with(start(Preset::Classic));
        let mut said = Vec::new();
        for language in [Language::English, Language::Swedish, Language::Chinese] {
            *app.world_mut().resource_mut::<Tr>() = Tr::new(language);
            send(&mut app, UndoRequested);
            let notices = messages::<Notice>(&mut app);
            assert_eq!(notices.len(), 1, "{language}");
            assert!(notices[0].error);
            said.push(notices[0].said.text(Tr::new(language)));
        }
        assert_eq!(
            said,
            [
                "there is nothing to undo",
                "det finns inget att ångra",
                "沒有可悔的棋"
            ]
        );
    }

    #[test]
    fn undo_and_redo_follow_captures_removals_and_the_end() {
        let mut app = app_with(start(Preset::Classic));
        let start_fen = fen_and_len(&app);
        play(&mut app, "a5", "c5"); // Chu's General: Chu beaten, its army removed
        play(&mut app, "m2", "m3");
        play(&mut app, "o1", "o2");
        play(&mut app, "c5", "i5"); // Han's General: Qin wins
        assert_eq!(phase(&app), TurnPhase::GameOver);
        let end = fen_and_len(&app);

        send(&mut app, UndoRequested);
        glide(&mut app);
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        assert_eq!(fen_and_len(&app).1, 3);
        assert!(position(&app).outcome().is_none());
        assert_agree(&mut app);
        for _ in 0..3 {
            send(&mut app, UndoRequested);
        }
        glide(&mut app);
        assert_eq!(fen_and_len(&app), start_fen, "back to the start");
        assert_eq!(position(&app).army_size(Kingdom::Chu), 3);
        assert_agree(&mut app); // Chu's army is back; Qin's tray is empty
        send(&mut app, UndoRequested);
        assert_eq!(fen_and_len(&app), start_fen, "nothing more to undo");

        for _ in 0..4 {
            send(&mut app, RedoRequested);
        }
        glide(&mut app);
        assert_eq!(fen_and_len(&app), end);
        assert_eq!(phase(&app), TurnPhase::GameOver);
        assert_agree(&mut app);

        // A new move after an undo drops the moves taken back.
        send(&mut app, UndoRequested);
        glide(&mut app);
        play(&mut app, "c5", "c6");
        assert!(!app.world().resource::<Match>().game().can_redo());
        assert_agree(&mut app);
    }

    #[test]
    fn undo_gives_a_transferred_army_back_its_colour() {
        let mut app = app_with(start(Preset::Wikipedia));
        play(&mut app, "a5", "c5");
        assert_eq!(
            position(&app).piece_at(p("f1")).unwrap().kingdom,
            Kingdom::Qin
        );
        send(&mut app, UndoRequested);
        glide(&mut app);
        assert_eq!(
            position(&app).piece_at(p("f1")).unwrap().kingdom,
            Kingdom::Chu
        );
        assert_agree(&mut app);
        send(&mut app, RedoRequested);
        glide(&mut app);
        assert_agree(&mut app);
    }

    #[test]
    fn review_shows_earlier_positions_and_changes_nothing() {
        let mut app = app_with(start(Preset::Classic));
        play(&mut app, "a5", "a6");
        play(&mut app, "f1", "f2");
        play(&mut app, "m2", "m3");
        let live = fen_and_len(&app);

        send(&mut app, ReviewRequested::Ply(1));
        glide(&mut app);
        assert_eq!(phase(&app), TurnPhase::Reviewing);
        assert_eq!(app.world().resource::<Review>().ply, Some(1));
        assert_agree(&mut app); // the stones show the position after move 1
        let index = app.world().resource::<StoneIndex>();
        assert!(index.at(p("a6")).is_some() && index.at(p("f2")).is_none());

        // Clicks and move requests are refused while looking back.
        click(&mut app, "a6");
        assert_eq!(messages::<ClickRefused>(&mut app).len(), 1);
        request(&mut app, mv("a6a7"));
        app.update();
        assert_eq!(fen_and_len(&app), live);

        send(&mut app, ReviewRequested::First);
        glide(&mut app);
        assert_eq!(app.world().resource::<Review>().ply, Some(0));
        assert_agree(&mut app);
        send(&mut app, ReviewRequested::Back);
        assert_eq!(
            app.world().resource::<Review>().ply,
            Some(0),
            "no further back"
        );
        send(&mut app, ReviewRequested::Forward);
        send(&mut app, ReviewRequested::Forward);
        glide(&mut app);
        assert_eq!(app.world().resource::<Review>().ply, Some(2));
        assert_agree(&mut app);
        // Stepping forward onto the last move is the live game again.
        send(&mut app, ReviewRequested::Forward);
        glide(&mut app);
        assert_eq!(app.world().resource::<Review>().ply, None);
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        assert_eq!(fen_and_len(&app), live);
        assert_agree(&mut app);
        play(&mut app, "o1", "o2");
    }

    #[test]
    fn undo_with_computers_goes_back_to_the_last_human_move() {
        let mut app = TestApp::new(Position::start(Rules::default()))
            .levels(&[
                None,
                Some(Level::Easy),
                Some(Level::Easy),
                Some(Level::Easy),
                Some(Level::Easy),
                Some(Level::Easy),
                Some(Level::Easy),
            ])
            .seed(2)
            .build();
        play(&mut app, "e10", "e5");
        run_until(&mut app, 6 * 200, "the computers' round", |app| {
            moves(app) == 7 && phase(app) == TurnPhase::AwaitingInput
        });
        assert_eq!(position(&app).to_move(), Kingdom::Qin);
        let after_round = fen_and_len(&app);

        send(&mut app, UndoRequested);
        assert_eq!(fen_and_len(&app).1, 0, "the six computer moves and Qin's");
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        glide(&mut app);
        assert_agree(&mut app);

        send(&mut app, RedoRequested);
        assert_eq!(fen_and_len(&app), after_round, "to Qin's next turn");
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        glide(&mut app);
        assert_agree(&mut app);
    }

    #[test]
    fn autosave_save_and_load_round_trip_and_bad_files_change_nothing() {
        let dir = data_dir("save-load");
        let mut app = TestApp::new(start(Preset::Classic))
            .saving(&dir, false)
            .build();
        app.update();
        assert!(
            !dir.autosave_path().exists(),
            "nothing to keep before a move"
        );
        play(&mut app, "a5", "a6");
        finish_file_work(&mut app);
        let autosaved = dir.load_autosave().unwrap().unwrap();
        assert_eq!(autosaved.game.len(), 1, "autosaved after the move");

        send(&mut app, SaveRequested("after one".into()));
        assert!(messages::<Notice>(&mut app).iter().all(|n| !n.error));
        let saved = fen_and_len(&app);
        play(&mut app, "f1", "f2");
        finish_file_work(&mut app);
        assert_eq!(dir.load_autosave().unwrap().unwrap().game.len(), 2);

        // The load dialog's list is read off the main thread.
        app.world_mut().resource_mut::<SaveStore>().refresh();
        assert!(app.world().resource::<SaveStore>().listing);
        finish_file_work(&mut app);
        let store = app.world().resource::<SaveStore>();
        assert!(!store.listing);
        let names: Vec<&str> = store.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["after one"]);

        send(&mut app, LoadRequested::Save("after one".into()));
        app.update();
        assert_eq!(fen_and_len(&app), saved);
        assert_agree(&mut app);

        // Bad files and text: a message, and the game goes on untouched.
        std::fs::write(dir.saves().join("torn.json"), "{\"format\": \"qiguo-rec").unwrap();
        let before = fen_and_len(&app);
        for request in [
            LoadRequested::Save("torn".into()),
            LoadRequested::Save("missing".into()),
            LoadRequested::Fen("19/19 w".into()),
            LoadRequested::GameText("e10e5\n".into()),
        ] {
            app.world_mut().write_message(request.clone());
            app.update();
            let notices = messages::<Notice>(&mut app);
            assert!(
                notices.len() == 1 && notices[0].error,
                "{request:?}: {notices:?}"
            );
            app.update();
            assert_eq!(fen_and_len(&app), before, "{request:?}");
            assert!(app.world().resource::<SaveStore>().last_error.is_some());
        }
        assert_agree(&mut app);

        // A game pasted as text replaces the match.
        let mut game = Game::start(Rules::default(), Seats::seven());
        game.play(notation::parse_move("e10e5").unwrap()).unwrap();
        let text = qiguo::game_text::game_text(&game);
        send(&mut app, LoadRequested::GameText(text));
        app.update();
        assert_eq!(fen_and_len(&app), (game.position().to_fen(), 1));
        assert_agree(&mut app);
    }

    #[test]
    fn autosaves_written_in_the_background_end_with_the_newest() {
        let dir = data_dir("autosave-order");
        let mut app = TestApp::new(start(Preset::Classic))
            .saving(&dir, false)
            .build();
        // Moves, undos and redos in quick succession: many autosaves under way at once.
        play(&mut app, "a5", "a6");
        play(&mut app, "f1", "f2");
        for _ in 0..5 {
            send(&mut app, UndoRequested);
            send(&mut app, RedoRequested);
        }
        send(&mut app, UndoRequested);
        finish_file_work(&mut app);
        let on_disk = dir.load_autosave().unwrap().unwrap();
        assert_eq!(on_disk.game.len(), 1, "the last change wins");
        assert_eq!(on_disk.game.position().to_fen(), position(&app).to_fen());
    }

    #[test]
    fn an_unfinished_game_is_offered_for_resuming() {
        let dir = data_dir("resume");
        let mut game = Game::start(Rules::default(), Seats::seven());
        for m in ["e10e5", "f5f6"] {
            game.play(notation::parse_move(m).unwrap()).unwrap();
        }
        dir.autosave(&Record::from_game(&game, PlayerInfo::defaults(7)))
            .unwrap();
        let mut app = TestApp::new(Position::start(Rules::default()))
            .saving(&dir, true)
            .build();
        app.update();
        assert!(app.world().resource::<ResumeOffer>().offer.is_some());
        assert_eq!(
            fen_and_len(&app).1,
            0,
            "nothing is loaded before the answer"
        );
        assert_eq!(dir.load_autosave().unwrap().unwrap().game.len(), 2, "kept");
        send(&mut app, ResumeAnswered(true));
        app.update();
        assert!(app.world().resource::<ResumeOffer>().offer.is_none());
        assert_eq!(fen_and_len(&app), (game.position().to_fen(), 2));
        assert_agree(&mut app);
        // The resumed game is autosaved again (in the background); let that finish first.
        finish_file_work(&mut app);

        // An unreadable autosave is put aside with a message, and no offer is made.
        std::fs::write(dir.autosave_path(), "garbage").unwrap();
        let mut app = TestApp::new(Position::start(Rules::default()))
            .saving(&dir, true)
            .build();
        app.update();
        assert!(app.world().resource::<ResumeOffer>().offer.is_none());
        assert!(dir.root().join("autosave-unreadable.json").exists());
        assert!(app.world().resource::<SaveStore>().last_error.is_some());
    }
}

/// Requests that arrive in the same frame as something that makes them stale. Each of these
/// failed before requests named the turn they were made for.
mod stale {
    use super::*;
    use qiguo::game::state::{
        BoardRefusal, NewGameRequested, RedoRequested, ReviewRequested, SeatChangeRequested,
        UndoRequested,
    };
    use qiguo_ai::Level;
    use qiguo_rules::PlayerInfo;

    /// Qin a person, Chu a computer that never moves on its own (its search is off), so that
    /// the test writes the computer's request itself, in the frame it chooses.
    fn app_with_chu_computer() -> App {
        TestApp::new(Position::start(Rules::default()))
            .levels(&[None, Some(Level::Easy)])
            .computers_idle()
            .build()
    }

    fn refusals(app: &mut App) -> Vec<BoardRefusal> {
        messages::<MoveRejected>(app)
            .into_iter()
            .map(|r| r.reason)
            .collect()
    }

    #[test]
    fn a_computer_move_in_the_frame_of_a_review_step_is_refused() {
        let mut app = app_with_chu_computer();
        play(&mut app, "e10", "e5");
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        app.world_mut().write_message(ReviewRequested::Back);
        computer_request(&mut app, mv("f5f6"));
        app.update();
        assert_eq!(refusals(&mut app), [BoardRefusal::Reviewing]);
        settle(&mut app);
        assert_eq!(moves(&app), 1, "the move waits for the review to end");
        assert_eq!(phase(&app), TurnPhase::Reviewing);
        check_agreement(&mut app, false);
    }

    #[test]
    fn a_computer_move_in_the_frame_of_an_undo_is_refused_quietly() {
        let mut app = app_with_chu_computer();
        play(&mut app, "e10", "e5");
        app.world_mut().write_message(UndoRequested);
        computer_request(&mut app, mv("f5f6"));
        app.update();
        let refused = refusals(&mut app);
        assert_eq!(refused, [BoardRefusal::Outdated]);
        assert!(!refused[0].is_shown(), "no refusal reaches the person");
        assert_eq!(moves(&app), 0);
        settle(&mut app);
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
    }

    #[test]
    fn a_computer_move_in_the_frame_its_seat_goes_to_a_person_is_refused() {
        let mut app = app_with_chu_computer();
        play(&mut app, "e10", "e5");
        app.world_mut().write_message(SeatChangeRequested {
            player: 1,
            computer: None,
        });
        computer_request(&mut app, mv("f5f6"));
        app.update();
        assert_eq!(refusals(&mut app), [BoardRefusal::Outdated]);
        settle(&mut app);
        assert_eq!(moves(&app), 1, "the person plays Chu's move");
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        // Its search, chosen for the computer, is refused a frame later too.
        computer_request_as(&mut app, mv("f5f6"), Level::Easy);
        app.update();
        assert_eq!(refusals(&mut app), [BoardRefusal::Outdated]);
        assert_eq!(moves(&app), 1);
    }

    #[test]
    fn a_move_in_the_frame_of_a_new_game_is_refused() {
        let mut app = app_with_chu_computer();
        play(&mut app, "e10", "e5");
        let mut players = PlayerInfo::defaults(7);
        players[0].computer = Some(Level::Easy);
        // Made for the old game, and legal in the new one too.
        let stale = computer_request_as(&mut app, mv("e10e5"), Level::Easy);
        app.world_mut().write_message(NewGameRequested::new(
            Position::start(Rules::default()),
            players,
        ));
        app.update();
        assert_eq!(moves(&app), 0, "the new game starts untouched");
        // A frame later, the same request is still for the old game.
        send(&mut app, stale);
        assert_eq!(refusals(&mut app), [BoardRefusal::Outdated]);
        assert_eq!(moves(&app), 0);
    }

    #[test]
    fn a_person_move_after_an_undo_in_the_same_frame_is_refused() {
        let mut app = app_with(Position::start(Rules::default()));
        play(&mut app, "e10", "e5");
        play(&mut app, "f5", "f6");
        // Han's move, chosen before the undo of Chu's, arrives with it.
        request(&mut app, mv("m2m3"));
        app.world_mut().write_message(UndoRequested);
        app.update();
        assert_eq!(refusals(&mut app), [BoardRefusal::Outdated]);
        assert_eq!(moves(&app), 1);
        glide(&mut app);
        assert_agree(&mut app);
    }

    /// A computer's request for `mv` at the current turn by `level`, whoever holds the kingdom.
    fn computer_request_as(
        app: &mut App,
        mv: Move,
        level: Level,
    ) -> qiguo::game::state::MoveRequested {
        let request = qiguo::game::state::MoveRequested {
            mv,
            made_for: app.world().resource::<Match>().turn(),
            by: qiguo::game::state::Mover::Computer(level),
        };
        app.world_mut().write_message(request);
        request
    }

    /// Whether `Match` changed in the last frame, as Bevy's change detection sees it.
    #[derive(Resource, Default)]
    struct MatchChanged(bool);

    fn record_changes(the_match: Res<Match>, mut changed: ResMut<MatchChanged>) {
        changed.0 = the_match.is_changed();
    }

    #[test]
    fn refused_and_empty_requests_leave_match_unchanged() {
        let mut app = app_with_chu_computer();
        app.init_resource::<MatchChanged>();
        app.add_systems(PostUpdate, record_changes);
        // The first run of a system sees everything as changed.
        app.update();
        app.update();
        let changed = |app: &App| app.world().resource::<MatchChanged>().0;
        assert!(!changed(&app));
        // Nothing to undo or redo, a seat given to whom already holds it, an illegal move.
        send(&mut app, UndoRequested);
        assert!(!changed(&app), "undo with nothing to undo");
        send(&mut app, RedoRequested);
        assert!(!changed(&app), "redo with nothing to redo");
        send(
            &mut app,
            SeatChangeRequested {
                player: 0,
                computer: None,
            },
        );
        assert!(!changed(&app), "seat unchanged");
        request(&mut app, mv("f5f6"));
        app.update();
        assert!(matches!(refusals(&mut app)[..], [BoardRefusal::Illegal(_)]));
        assert!(!changed(&app), "illegal move");
        // A real move does change it.
        click(&mut app, "e10");
        click(&mut app, "e5");
        assert!(changed(&app));
    }
}

/// The danger warning and the threat shading follow the turn.
mod awareness {
    use super::*;
    use qiguo::game::awareness::{Danger, Threats, ToggleThreats};
    use qiguo_ai::Level;

    /// Qin's General on f1, attacked by Chu's Chancellor on a1 (along the first rank) and by
    /// Han's cannon on f7 (over Chu's swordsman on f4); Chu has no General.
    const ATTACKED: &str = "19/19/19/19/19/19/19/19/19/19/19/19/5oC13/19/19/5rS13/19/19/rR4wQ13 w";

    fn attacked() -> Position {
        Position::new(
            &fen::parse(ATTACKED).unwrap(),
            Rules::default(),
            Seats::seven(),
        )
        .unwrap()
    }

    fn danger(app: &App) -> Option<String> {
        app.world()
            .resource::<Danger>()
            .report
            .as_ref()
            .map(|r| r.sentence(qiguo::i18n::Tr::default()))
    }

    #[test]
    fn a_person_is_warned_of_an_attacked_general_until_it_is_safe() {
        let mut app = app_with(attacked());
        app.update();
        assert_eq!(
            danger(&app).as_deref(),
            Some("Your General on f1 is attacked by Chu's chancellor on a1 and Han's cannon on f7")
        );
        let report = app.world().resource::<Danger>().report.clone().unwrap();
        let mut attackers: Vec<_> = report.attackers().collect();
        attackers.sort();
        assert_eq!(attackers, vec![p("a1"), p("f7")]);
        // The General steps out of both lines: the warning goes with the turn.
        play(&mut app, "f1", "g2");
        assert_eq!(moves(&app), 1);
        assert_eq!(danger(&app), None);
        assert_agree(&mut app);
    }

    #[test]
    fn no_warning_while_a_computer_moves() {
        let mut app = TestApp::new(attacked())
            .levels(&[Some(Level::Easy)])
            .computers_idle()
            .build();
        app.update();
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        assert_eq!(danger(&app), None);
    }

    #[test]
    fn threat_shading_shows_what_the_rules_say_and_toggles() {
        let mut app = app_with(attacked());
        app.update();
        assert!(app.world().resource::<Threats>().points.is_empty());
        send(&mut app, ToggleThreats);
        app.update();
        let threats = app.world().resource::<Threats>().clone();
        assert!(threats.shown);
        // Exactly the rules engine's points, split into empty points and Qin's stones.
        let pos = position(&app);
        let foes = pos.alive().iter().filter(|k| *k != Kingdom::Qin).collect();
        let mut expected = pos.threatened_points(Kingdom::Qin, foes);
        let mut got: Vec<_> = threats
            .points
            .iter()
            .chain(&threats.takeable)
            .copied()
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected);
        assert_eq!(threats.takeable, vec![p("f1")], "the General can be taken");
        for point in ["b1", "e1", "f2", "f3", "a2"] {
            assert!(threats.points.contains(&p(point)), "{point}");
        }
        assert!(
            !threats.points.contains(&p("f6")),
            "between the cannon and its screen"
        );
        assert!(!threats.points.contains(&p("g2")));
        assert!(
            !threats.points.contains(&p("g1")),
            "the General shields it from the Chancellor"
        );
        // After Qin's move it is Chu's turn: the shading follows the mover.
        play(&mut app, "f1", "g2");
        let threats = app.world().resource::<Threats>().clone();
        let pos = position(&app);
        assert_eq!(pos.to_move(), Kingdom::Chu);
        assert!(
            threats
                .takeable
                .iter()
                .all(|t| pos.piece_at(*t).unwrap().kingdom == Kingdom::Chu)
        );
        // Off again: nothing shaded.
        send(&mut app, ToggleThreats);
        app.update();
        let threats = app.world().resource::<Threats>();
        assert!(!threats.shown && threats.points.is_empty() && threats.takeable.is_empty());
    }
}

/// The hand-off banner: only when the board passes to another person.
mod hand_off {
    use super::*;
    use qiguo::game::awareness::handoff::HandOff;
    use qiguo_ai::Level;

    /// The person to move plays their first quiet move, and it is shown.
    fn play_any(app: &mut App) {
        let before = moves(app);
        let mv = quiet_move(app);
        request(app, mv);
        app.update();
        settle(app);
        assert_eq!(moves(app), before + 1, "{mv} played");
    }

    fn banner(app: &App) -> Option<String> {
        app.world()
            .resource::<HandOff>()
            .banner
            .as_ref()
            .map(|b| b.text(qiguo::i18n::Tr::default()))
    }

    #[test]
    fn the_board_passes_between_people_and_computers_do_not_count() {
        // Qin and Han are people, Chu a computer: after Qin's move and Chu's, Han's player
        // takes the board.
        let mut app = TestApp::new(Position::start(Rules::default()))
            .levels(&[None, Some(Level::Easy), None])
            .build();
        app.update();
        assert_eq!(
            banner(&app),
            None,
            "nobody had the board before the first turn"
        );
        play_any(&mut app);
        run_until(&mut app, 300, "Chu's move", |app| {
            moves(app) == 2 && phase(app) == TurnPhase::AwaitingInput
        });
        assert_eq!(position(&app).to_move(), Kingdom::Han);
        assert_eq!(
            banner(&app).as_deref(),
            Some("韓 Han — Player 3, your move")
        );
    }

    #[test]
    fn taking_a_move_back_hands_the_board_back() {
        let mut app = app_with(Position::start(Rules::default()));
        app.update();
        play_any(&mut app);
        assert_eq!(
            banner(&app).as_deref(),
            Some("楚 Chu — Player 2, your move")
        );
        app.world_mut()
            .write_message(qiguo::game::state::UndoRequested);
        app.update();
        settle(&mut app);
        assert_eq!(moves(&app), 0);
        assert_eq!(
            banner(&app).as_deref(),
            Some("秦 Qin — Player 1, your move")
        );
    }

    #[test]
    fn no_banner_for_the_same_person_or_when_turned_off() {
        // Six players: Qin's player also holds Chu, the next kingdom.
        let seats = qiguo_rules::Seating::Six {
            qin_takes: Kingdom::Chu,
        }
        .seats()
        .unwrap();
        let start = Position::start_with(Rules::default(), seats);
        let mut app = app_with(start.clone());
        app.update();
        let first = position(&app).to_move();
        let mut last_player = position(&app).seats().player(first);
        for _ in 0..4 {
            play_any(&mut app);
            let pos = position(&app);
            let player = pos.seats().player(pos.to_move());
            assert_eq!(
                banner(&app).is_some(),
                player != last_player,
                "banner only when the player changes: {player:?} after {last_player:?}"
            );
            last_player = player;
        }
        // Turned off: no banner, even between two people.
        let mut app = app_with(Position::start(Rules::default()));
        app.world_mut().resource_mut::<HandOff>().enabled = false;
        app.update();
        play_any(&mut app);
        assert_eq!(banner(&app), None);
    }
}

/// The moves since a person's last turn, and their replay.
mod recap {
    use super::*;
    use qiguo::game::recap::{Recap, Replay, ReplayRequested};
    use qiguo_ai::Level;

    fn recap(app: &App) -> Option<std::ops::Range<usize>> {
        let the_match = app.world().resource::<Match>();
        app.world().resource::<Recap>().current(the_match)
    }

    fn shown(app: &App) -> usize {
        let the_match = app.world().resource::<Match>();
        app.world().resource::<Review>().shown_ply(the_match)
    }

    /// Qin is a person and the six others are computers: after Qin's move and theirs, Qin's
    /// recap holds the six computer moves, and a replay shows them one by one.
    #[test]
    fn the_moves_since_your_last_turn_with_computers_between_and_their_replay() {
        let mut levels = vec![None];
        levels.extend([Some(Level::Easy); 6]);
        let mut app = TestApp::new(Position::start(Rules::default()))
            .levels(&levels)
            .build();
        app.update();
        assert_eq!(recap(&app), None, "nothing happened before the first turn");
        let mv = quiet_move(&app);
        request(&mut app, mv);
        app.update();
        settle(&mut app);
        run_until(&mut app, 2000, "the six computers' moves", |app| {
            moves(app) == 7 && phase(app) == TurnPhase::AwaitingInput
        });
        assert_eq!(position(&app).to_move(), Kingdom::Qin);
        assert_eq!(recap(&app), Some(1..7));

        // The replay: the position before the first of them, then each in turn, then live.
        send(&mut app, ReplayRequested);
        app.update();
        assert_eq!(shown(&app), 1);
        assert_eq!(phase(&app), TurnPhase::Reviewing);
        let mut seen = vec![shown(&app)];
        for _ in 0..600 {
            app.update();
            if seen.last() != Some(&shown(&app)) {
                seen.push(shown(&app));
            }
            if app.world().resource::<Replay>().step.is_none() {
                break;
            }
        }
        assert_eq!(seen, vec![1, 2, 3, 4, 5, 6, 7]);
        app.update();
        assert_eq!(
            app.world().resource::<Review>().ply,
            None,
            "back to the game"
        );
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        assert_eq!(moves(&app), 7, "a replay changes nothing");
        glide(&mut app);
        assert_agree(&mut app);
        assert_eq!(recap(&app), Some(1..7), "still shown after the replay");
    }

    #[test]
    fn a_key_during_the_replay_stops_it_and_people_see_moves_since_their_own_turn() {
        let mut app = app_with(Position::start(Rules::default()));
        app.update();
        for _ in 0..3 {
            let mv = quiet_move(&app);
            request(&mut app, mv);
            app.update();
            settle(&mut app);
        }
        // Qi, to move after Qin, Chu and Han, never moved: everything since the start.
        assert_eq!(position(&app).to_move(), Kingdom::Qi);
        assert_eq!(recap(&app), Some(0..3));
        send(&mut app, ReplayRequested);
        app.update();
        assert_eq!(shown(&app), 0);
        // The player steps to the end themselves: the replay stops there.
        send(&mut app, qiguo::game::state::ReviewRequested::Live);
        app.update();
        app.update();
        assert!(app.world().resource::<Replay>().step.is_none());
        assert_eq!(app.world().resource::<Review>().ply, None);
        for _ in 0..200 {
            app.update();
        }
        assert_eq!(
            app.world().resource::<Review>().ply,
            None,
            "no step after stopping"
        );
    }
}

/// The sounds the table should hear, decided without a sound device.
mod cues {
    use super::*;
    use qiguo::game::sound::{SoundCue, SoundSettings, ToggleMute};

    /// Every cue since the last call (messages live two frames: read them each frame).
    fn step_collecting(app: &mut App, frames: usize) -> Vec<SoundCue> {
        let mut all = Vec::new();
        for _ in 0..frames {
            app.update();
            all.extend(messages::<SoundCue>(app));
        }
        all
    }

    #[test]
    fn a_capture_that_beats_a_kingdom_sounds_then_the_next_person_hears_their_turn() {
        let mut app = app_with(start(Preset::Classic));
        app.update();
        assert_eq!(
            step_collecting(&mut app, 2),
            vec![],
            "no cue for the first turn"
        );
        // Qin's Chancellor takes Chu's General: the capture, the fall, then Han's turn.
        click(&mut app, "a5");
        app.update();
        click(&mut app, "c5");
        let cues = step_collecting(&mut app, 400);
        assert_eq!(
            cues,
            vec![SoundCue::Capture, SoundCue::Beaten, SoundCue::YourTurn]
        );
        // A quiet move: the stone, then the next turn's cue.
        let mv = quiet_move(&app);
        request(&mut app, mv);
        let cues = step_collecting(&mut app, 400);
        assert_eq!(cues, vec![SoundCue::Stone, SoundCue::YourTurn]);
    }

    #[test]
    fn muting_silences_whatever_the_volume() {
        let mut app = app_with(start(Preset::Classic));
        app.update();
        assert!(app.world().resource::<SoundSettings>().effective() > 0.0);
        send(&mut app, ToggleMute);
        app.update();
        assert_eq!(app.world().resource::<SoundSettings>().effective(), 0.0);
        send(&mut app, ToggleMute);
        app.update();
        assert!(!app.world().resource::<SoundSettings>().muted);
    }
}
