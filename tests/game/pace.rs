//! The pace of the game: a computer's search starts as soon as the move before it is decided,
//! the quicker paces show a round of computers in less time, and at every pace a search whose
//! turn is gone never plays.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::computer::Thinking;
use qiguo::game::pace::PaceChoice;
use qiguo::game::state::{
    Match, MoveApplied, Mover, SeatChangeRequested, TurnPhase, UndoRequested,
};
use qiguo_ai::Level;
use qiguo_rules::{Position, Preset, Rules};

/// Qin a person, the six others computers of Medium.
fn one_against_six(pace: PaceChoice) -> App {
    let mut levels = vec![Some(Level::Medium); 7];
    levels[0] = None;
    TestApp::new(Position::start(Rules::preset(Preset::Classic)))
        .levels(&levels)
        .pace(pace)
        .build()
}

fn turn(app: &App) -> qiguo::game::state::Turn {
    app.world().resource::<Match>().turn()
}

#[test]
fn the_next_computer_thinks_while_the_move_before_is_shown() {
    for pace in [PaceChoice::Calm, PaceChoice::Brisk] {
        let mut app = one_against_six(pace);
        let mv = quiet_move(&app);
        request(&mut app, mv);
        // The move is played in this frame; the board shows it from the next.
        app.update();
        app.update();
        assert_eq!(phase(&app), TurnPhase::Animating, "{pace:?}");
        assert_eq!(
            app.world().resource::<Thinking>().searching_for(),
            Some(turn(&app)),
            "{pace:?}: Chu's search started with Qin's move still gliding"
        );
    }
}

/// Frames from Qin's move until Qin is to move again.
fn round_frames(pace: PaceChoice) -> usize {
    let mut app = one_against_six(pace);
    let mv = quiet_move(&app);
    request(&mut app, mv);
    for frame in 1..2000 {
        app.update();
        if moves(&app) == 7 && phase(&app) == TurnPhase::AwaitingInput {
            assert_agree(&mut app);
            return frame;
        }
    }
    panic!("{pace:?}: the round never ended");
}

#[test]
fn quicker_paces_show_a_round_in_less_time() {
    let frames = PaceChoice::ALL.map(round_frames);
    eprintln!("frames of 20 ms for a round (calm, brisk, instant): {frames:?}");
    assert!(frames[0] > frames[1] && frames[1] > frames[2], "{frames:?}");
    // Calm: a 0.7 s pause before each of six moves.
    assert!(frames[0] >= 6 * 35, "{frames:?}");
    // Instant: Qin's own glide, then the six moves as fast as they are found (a frame or two
    // each: the search is waited for).
    assert!(frames[2] <= 30 + 6 * 3, "{frames:?}");
}

#[test]
fn a_seat_handed_to_a_person_during_the_glide_gets_no_computer_move() {
    for pace in PaceChoice::ALL {
        let mut app = one_against_six(pace);
        let mv = quiet_move(&app);
        request(&mut app, mv);
        app.update();
        assert!(app.world().resource::<Thinking>().searching_for().is_some());
        // Chu (player 1) is handed to a person while Qin's stone is still on its way.
        send(
            &mut app,
            SeatChangeRequested {
                player: 1,
                computer: None,
            },
        );
        let mut computer_moves = 0;
        for _ in 0..200 {
            app.update();
            computer_moves += messages::<MoveApplied>(&mut app)
                .iter()
                .filter(|m| matches!(m.by, Mover::Computer(_)))
                .count();
        }
        assert_eq!(computer_moves, 0, "{pace:?}");
        assert_eq!(moves(&app), 1, "{pace:?}");
        assert_eq!(phase(&app), TurnPhase::AwaitingInput, "{pace:?}");
        assert_eq!(app.world().resource::<Thinking>().searching_for(), None);
    }
}

#[test]
fn a_move_taken_back_during_the_search_is_searched_again() {
    for pace in PaceChoice::ALL {
        let mut app = one_against_six(pace);
        let mv = quiet_move(&app);
        request(&mut app, mv);
        settle(&mut app);
        // A computer is thinking (at the instant pace, where the tests' searches are done in a
        // frame, the round is over); the person takes the round back and plays again: the
        // computers' moves that follow are searched for the new turns.
        run_until(&mut app, 500, "a computer moved", |app| moves(app) >= 2);
        settle(&mut app);
        if pace == PaceChoice::Instant {
            run_until(&mut app, 500, "the round ended", |app| {
                phase(app) == TurnPhase::AwaitingInput
            });
        } else {
            assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        }
        send(&mut app, UndoRequested);
        assert_eq!(moves(&app), 0, "{pace:?}");
        let again = quiet_move(&app);
        request(&mut app, again);
        for _ in 0..400 {
            app.update();
            check_agreement(&mut app, false);
        }
        assert!(moves(&app) >= 2, "{pace:?}: the computers went on");
        let first = app.world().resource::<Match>().game().moves().next();
        assert_eq!(first, Some(again), "{pace:?}: the new first move stands");
    }
}
