//! The lessons, headless: every lesson played through by clicks with its intended moves and
//! its wrong moves (each answered with the game's refusal and the lesson's word, nothing
//! changed); retry, skip and leave; the game kept aside brought back and never autosaved over.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::lessons::{LessonCommand, LessonMark, LessonRun, LessonsDone, StepState};
use qiguo::game::selection::{AllyAttackAnswered, DeselectRequested};
use qiguo::game::state::{BoardRefusal, Match, NewGameRequested, TurnPhase, UndoRequested};
use qiguo::lessons;
use qiguo_rules::{Game, Position, Rules};

fn run(app: &App) -> &LessonRun {
    app.world().resource::<LessonRun>()
}

fn step_state(app: &App) -> Option<(usize, usize, StepState)> {
    let run = run(app);
    let (n, _, step) = run.current()?;
    Some((n, step, run.state()?))
}

/// The lesson's marks on the board, sorted.
fn marks(app: &mut App) -> Vec<(String, bool)> {
    let mut v: Vec<_> = app
        .world_mut()
        .query::<&LessonMark>()
        .iter(app.world())
        .map(|m| (m.point.to_string(), m.origin))
        .collect();
    v.sort();
    v
}

/// A game with a few moves, to be kept aside while the lessons run.
fn game_in_progress() -> Game {
    let mut game = Game::new(Position::start(Rules::default()));
    for mv in ["e10e5", "f5f6", "n5n6"] {
        game.play(mv.parse_move()).unwrap();
    }
    game
}

trait ParseMove {
    fn parse_move(&self) -> qiguo_rules::Move;
}

impl ParseMove for str {
    fn parse_move(&self) -> qiguo_rules::Move {
        qiguo_rules::notation::parse_move(self).unwrap()
    }
}

#[test]
fn every_lesson_is_played_through_with_its_moves_and_its_wrong_moves_answered() {
    let kept = game_in_progress();
    let mut app = TestApp::from_game(kept.clone()).build();
    let all = lessons::all();
    assert!(all.len() >= 14);
    send(&mut app, LessonCommand::Open(0));
    let mut wrong_answered = 0;
    for (n, lesson) in all.iter().enumerate() {
        for (s, step) in lesson.steps.iter().enumerate() {
            assert_eq!(
                step_state(&app),
                Some((n, s, StepState::Waiting)),
                "{}",
                lesson.id
            );
            assert_eq!(phase(&app), TurnPhase::AwaitingInput, "{} {s}", lesson.id);
            // The board marks the goal's stone and where it goes.
            let (from, to) = step.marks();
            let mut expected: Vec<(String, bool)> = from
                .iter()
                .map(|p| (p.to_string(), true))
                .chain(to.iter().map(|p| (p.to_string(), false)))
                .collect();
            expected.sort();
            assert_eq!(marks(&mut app), expected, "{} step {}", lesson.id, s + 1);
            // Each wrong move is answered in words and changes nothing.
            for (wrong, why) in &step.wrong {
                let before = fen_and_len(&app);
                click(&mut app, &wrong.from().unwrap().to_string());
                click(&mut app, &wrong.to().unwrap().to_string());
                settle(&mut app);
                assert_eq!(
                    fen_and_len(&app),
                    before,
                    "{}: {wrong} changed nothing",
                    lesson.id
                );
                let answer = run(&app).answer().expect("the wrong move answered").clone();
                assert_eq!(answer.why.as_deref(), Some(why.as_str()), "{}", lesson.id);
                assert!(
                    matches!(
                        answer.reason,
                        BoardRefusal::Illegal(_) | BoardRefusal::OffLesson(_)
                    ),
                    "{}: {:?}",
                    lesson.id,
                    answer.reason
                );
                assert!(!answer.reason.text(Default::default()).is_empty());
                send(&mut app, DeselectRequested);
                wrong_answered += 1;
            }
            // The intended move, by clicks (an ally's stone is asked about first).
            let goal = step.goal[0];
            let ally = position(&app).forfeits_ally(goal).is_some();
            click(&mut app, &goal.from().unwrap().to_string());
            click(&mut app, &goal.to().unwrap().to_string());
            if ally {
                assert_eq!(
                    moves(&app),
                    lesson.start_of(s).unwrap().len(),
                    "asked first"
                );
                send(&mut app, AllyAttackAnswered { confirmed: true });
            }
            settle(&mut app);
            assert!(run(&app).answer().is_none(), "{}", lesson.id);
            assert_eq!(
                run(&app).praise(),
                Some(step.done.as_str()),
                "{}",
                lesson.id
            );
            assert_agree(&mut app);
        }
        assert_eq!(
            step_state(&app),
            Some((n, lesson.steps.len() - 1, StepState::Finished)),
            "{}",
            lesson.id
        );
        assert!(marks(&mut app).is_empty(), "no marks once finished");
        assert!(app.world().resource::<LessonsDone>().0.contains(&lesson.id));
        // A finished lesson takes no more moves.
        if phase(&app) == TurnPhase::AwaitingInput {
            let before = fen_and_len(&app);
            let mv = quiet_move(&app);
            click(&mut app, &mv.from().unwrap().to_string());
            click(&mut app, &mv.to().unwrap().to_string());
            settle(&mut app);
            assert_eq!(fen_and_len(&app), before);
            assert_eq!(
                run(&app).answer(),
                None,
                "answers belong to a step under way"
            );
        }
        send(&mut app, LessonCommand::Next);
    }
    assert!(
        wrong_answered >= all.len(),
        "one wrong move or more per lesson"
    );
    // After the last lesson the game kept aside is back, as it was.
    assert!(!run(&app).is_active());
    settle(&mut app);
    let the_match = app.world().resource::<Match>();
    assert_eq!(the_match.game().len(), kept.len());
    assert_eq!(the_match.position().to_fen(), kept.position().to_fen());
    assert_eq!(app.world().resource::<LessonsDone>().0.len(), all.len());
    assert!(marks(&mut app).is_empty());
}

#[test]
fn special_lesson_outcomes_follow_the_rules() {
    let mut app = TestApp::new(Position::start(Rules::default())).build();
    let find = |id: &str| lessons::index_of(id).unwrap();
    // A kingdom's fall: classic removes the army, wikipedia hands it to the victor.
    send(&mut app, LessonCommand::Open(find("fall")));
    // (The move is checked as it lands: once shown, the next step takes the board.)
    click(&mut app, "c5");
    click(&mut app, "c12");
    let pos = position(&app);
    assert_eq!(pos.army_size(qiguo_rules::Kingdom::Chu), 0);
    assert_eq!(
        pos.army_size(qiguo_rules::Kingdom::Qin),
        2,
        "classic: removed"
    );
    settle(&mut app);
    assert_eq!(
        position(&app).army_size(qiguo_rules::Kingdom::Chu),
        3,
        "step 2"
    );
    click(&mut app, "c5");
    click(&mut app, "c12");
    let pos = position(&app);
    assert_eq!(pos.army_size(qiguo_rules::Kingdom::Chu), 0);
    assert_eq!(
        pos.army_size(qiguo_rules::Kingdom::Qin),
        4,
        "wikipedia: two more"
    );
    settle(&mut app);
    assert_eq!(run(&app).state(), Some(StepState::Finished));
    // Winning: the second General ends the game, and no game-over question is left open.
    send(&mut app, LessonCommand::Open(find("winning")));
    assert_eq!(moves(&app), 3, "the prelude is in the move list");
    play(&mut app, "c12", "h12");
    assert_eq!(phase(&app), TurnPhase::GameOver);
    let outcome = position(&app).outcome().unwrap();
    assert_eq!(outcome.winner, qiguo_rules::Kingdom::Qin);
    assert_eq!(run(&app).state(), Some(StepState::Finished));
}

#[test]
fn retry_skip_and_leave_bring_back_what_they_should() {
    let dir = data_dir("lessons-autosave");
    let kept = game_in_progress();
    let mut app = TestApp::from_game(kept.clone()).saving(&dir, false).build();
    // A move in the game is autosaved.
    let mv = quiet_move(&app);
    request(&mut app, mv);
    app.update();
    settle(&mut app);
    finish_file_work(&mut app);
    let saved = dir.load_autosave().unwrap().unwrap().game.len();
    assert_eq!(saved, kept.len() + 1);
    let generation_before = app.world().resource::<Match>().turn().generation;
    let game_before = fen_and_len(&app);

    // The general's lesson: skip to its second step (which goes on from the first one's board).
    send(&mut app, LessonCommand::Open(0));
    assert_eq!(
        position(&app).to_fen(),
        lessons::all()[0].start_of(0).unwrap().position().to_fen()
    );
    send(&mut app, LessonCommand::Skip);
    assert_eq!(step_state(&app), Some((0, 1, StepState::Waiting)));
    let second = lessons::all()[0].start_of(1).unwrap();
    assert_eq!(position(&app).to_fen(), second.position().to_fen());
    // A wrong move, then Retry: the answer is gone, the board as the step started.
    click(&mut app, "g14");
    click(&mut app, "g19");
    assert!(run(&app).answer().is_some());
    send(&mut app, LessonCommand::Retry);
    assert!(run(&app).answer().is_none());
    assert_eq!(position(&app).to_fen(), second.position().to_fen());
    // Lesson moves are not autosaved.
    play(&mut app, "g14", "g18");
    finish_file_work(&mut app);
    assert_eq!(dir.load_autosave().unwrap().unwrap().game.len(), saved);
    // Skipping past a lesson's last step starts the next lesson.
    send(&mut app, LessonCommand::Open(1));
    send(&mut app, LessonCommand::Skip);
    assert_eq!(step_state(&app), Some((2, 0, StepState::Waiting)));
    assert!(
        !app.world()
            .resource::<LessonsDone>()
            .0
            .contains("chancellor"),
        "skipped, not done"
    );
    // Leave: the game is back as it was, in a new generation (its stones rebuilt).
    send(&mut app, LessonCommand::Leave);
    settle(&mut app);
    assert!(!run(&app).is_active());
    assert_eq!(fen_and_len(&app), game_before);
    assert!(app.world().resource::<Match>().turn().generation > generation_before);
    assert!(marks(&mut app).is_empty());
    assert_eq!(phase(&app), TurnPhase::AwaitingInput);
    assert_agree(&mut app);
    // Commands without a lesson do nothing.
    send(&mut app, LessonCommand::Retry);
    send(&mut app, LessonCommand::Next);
    assert_eq!(fen_and_len(&app), game_before);
}

#[test]
fn a_move_taken_back_starts_the_step_again_and_another_game_ends_the_lesson() {
    let kept = game_in_progress();
    let mut app = TestApp::from_game(kept.clone()).build();
    let find = |id: &str| lessons::index_of(id).unwrap();
    // The winning lesson starts after three moves; undo takes back the prelude's last move,
    // and the lesson answers by setting its step out again.
    send(&mut app, LessonCommand::Open(find("winning")));
    let start = fen_and_len(&app);
    assert_eq!(start.1, 3);
    send(&mut app, UndoRequested);
    settle(&mut app);
    assert_eq!(fen_and_len(&app), start, "the step set out again");
    assert_eq!(run(&app).state(), Some(StepState::Waiting));
    assert!(run(&app).is_active());
    // The learner's move, taken back once shown: the step is there again to be played.
    play(&mut app, "c12", "h12");
    assert_eq!(run(&app).state(), Some(StepState::Finished));
    send(&mut app, UndoRequested);
    settle(&mut app);
    assert_eq!(fen_and_len(&app), start);
    assert_eq!(run(&app).state(), Some(StepState::Waiting));
    assert_eq!(run(&app).praise(), None);
    // A new game started from the dialog ends the lesson; that game stays.
    let fresh = Position::start(Rules::default());
    send(
        &mut app,
        NewGameRequested::new(fresh.clone(), qiguo_rules::PlayerInfo::defaults(7)),
    );
    settle(&mut app);
    assert!(!run(&app).is_active());
    assert_eq!(fen_and_len(&app), (fresh.to_fen(), 0));
    assert!(marks(&mut app).is_empty());
    // And every move is the game's again.
    let mv = quiet_move(&app);
    click(&mut app, &mv.from().unwrap().to_string());
    click(&mut app, &mv.to().unwrap().to_string());
    settle(&mut app);
    assert_eq!(moves(&app), 1);
}
