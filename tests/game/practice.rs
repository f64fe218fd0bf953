//! *Learn from your mistakes*, headless: a reviewed game's blunder asked again; the mistake
//! played again is missed and taken back, another move judged as the review judges it, a move
//! taken back asks again, the hint, the solution played out, the end, and the reviewed game
//! brought back with its review (not made again). Puzzles through the same machinery: by name,
//! a miss and its rating, the solution, the next nearest untried, a hint counted as a miss, and
//! a lesson's puzzles, after which the game before the lesson comes back.

use std::time::{Duration, Instant};

use crate::common::*;
use crate::review::{shielded, until_reviewed};
use bevy::prelude::*;
use qiguo::game::lessons::{LessonCommand, LessonRun, PuzzlesFor};
use qiguo::game::practice::puzzles::{
    PuzzleRatedOnServer, PuzzleSolver, PuzzleTriedOnServer, PuzzlesRequested, ServerPuzzle,
    ServerPuzzleWanted,
};
use qiguo::game::practice::{Practice, PracticeCommand, Step, exercises};
use qiguo::game::review::{ReviewShown, Reviewed};
use qiguo::game::selection::{ClickRefused, Guide};
use qiguo::game::state::{BoardRefusal, Match, NewGameRequested, UndoRequested};
use qiguo::game::telling::Announced;
use qiguo::puzzles::built_in;
use qiguo_ai::review::{GOOD_ENOUGH, MistakeKind, REVIEW_NODES, chance_after};
use qiguo_rules::{Game, Kingdom, PlayerInfo, Position, Rules, Seats};

fn practice(app: &App) -> &Practice {
    app.world().resource::<Practice>()
}

/// Steps frames until the practice asks for a move (in real time: a move is judged on a thread
/// of its own), within a minute.
fn until_asked(app: &mut App) {
    let start = Instant::now();
    while !practice(app).asks() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the question was not asked: {:?}",
            practice(app).step()
        );
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Steps frames until the move tried is judged, found or missed, within a minute.
fn until_judged(app: &mut App) -> Step {
    let start = Instant::now();
    loop {
        let step = practice(app).step();
        match step {
            Some(Step::Found(..)) => return step.unwrap(),
            Some(Step::Asking) if practice(app).missed().is_some() => return step.unwrap(),
            _ => {}
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the move was not judged: {step:?}"
        );
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_blunder_is_asked_again_judged_hinted_solved_and_the_game_comes_back() {
    let mut app = shielded();
    request(&mut app, mv("a3b3"));
    app.update();
    settle(&mut app);
    computer_request(&mut app, mv("a5a1"));
    app.update();
    settle(&mut app);
    until_reviewed(&mut app);
    let reviewed_turn = app.world().resource::<Match>().turn();
    let review = app
        .world()
        .resource::<Reviewed>()
        .done_for(reviewed_turn)
        .cloned()
        .unwrap();
    let blunder = review.moves[0].clone();
    assert_eq!(review.mistakes[0].kind, MistakeKind::Blunder);

    // Only the people's mistakes and blunders are asked: not a computer's, nor an inaccuracy.
    let game = app.world().resource::<Match>().game().clone();
    assert_eq!(exercises(&review, &game, |_| true).len(), 1);
    assert!(exercises(&review, &game, |k| k != Kingdom::Chu).is_empty());
    let mut slight = (*review).clone();
    slight.moves[0].played_chance = slight.moves[0].best_chance - 0.04;
    slight.mistakes[0].kind = MistakeKind::Inaccuracy;
    assert!(exercises(&slight, &game, |_| true).is_empty());

    // The question: the position before the blunder, Chu (a person) to move; every player a
    // person, so that nobody answers.
    send(&mut app, PracticeCommand::Start);
    until_asked(&mut app);
    let (exercise, n, total) = practice(&app)
        .current()
        .map(|(e, n, t)| (e.clone(), n, t))
        .unwrap();
    assert_eq!((n, total), (0, 1));
    assert_eq!((exercise.ply, exercise.kingdom), (1, Kingdom::Chu));
    assert_eq!(
        (exercise.played(), exercise.best),
        (Some(blunder.played), blunder.best)
    );
    assert_eq!(moves(&app), 0);
    assert!(
        app.world()
            .resource::<Match>()
            .players()
            .iter()
            .all(|p| p.computer.is_none())
    );

    // The blunder again: missed, said with its chance at once, and taken back — the question
    // asked again without the board's turn told over the miss (its urgent words would cut the
    // miss off in a reader) nor a new game announced.
    request(&mut app, blunder.played);
    let mut said = Vec::new();
    let start = Instant::now();
    while !(practice(&app).asks() && practice(&app).missed().is_some()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the miss was not asked again: {:?}",
            practice(&app).step()
        );
        app.update();
        said.extend(messages::<Announced>(&mut app));
        std::thread::sleep(Duration::from_millis(5));
    }
    for _ in 0..10 {
        app.update();
        said.extend(messages::<Announced>(&mut app));
    }
    let urgent: Vec<&str> = said
        .iter()
        .filter(|a| a.urgent)
        .map(|a| a.words.as_str())
        .collect();
    assert_eq!(urgent.len(), 1, "{said:?}");
    assert!(
        urgent[0].starts_with(&format!("{} keeps ", blunder.played)),
        "{said:?}"
    );
    assert!(
        !said.iter().any(|a| a.words.contains("new game")),
        "{said:?}"
    );
    assert_eq!(
        practice(&app).missed(),
        Some((blunder.played, Some(blunder.played_chance)))
    );
    assert_eq!(moves(&app), 0, "the move that fell short is taken back");

    // Another move: judged as the review judges a move, against the best within the margin.
    let start = position(&app);
    let other = start
        .legal_moves()
        .into_iter()
        .find(|&m| m != blunder.best && m != blunder.played)
        .unwrap();
    let expected = chance_after(&start, other, REVIEW_NODES).unwrap();
    request(&mut app, other);
    app.update();
    settle(&mut app);
    let found = match until_judged(&mut app) {
        Step::Found(m, chance) => {
            assert_eq!((m, chance), (other, expected));
            assert!(expected >= blunder.best_chance - GOOD_ENOUGH);
            // A move taken back asks the question again.
            send(&mut app, UndoRequested);
            settle(&mut app);
            until_asked(&mut app);
            1
        }
        _ => {
            assert_eq!(practice(&app).missed(), Some((other, Some(expected))));
            assert!(expected < blunder.best_chance - GOOD_ENOUGH);
            0
        }
    };
    assert_eq!(moves(&app), 0);

    // The hint marks the stone; the solution plays the best out.
    send(&mut app, PracticeCommand::Hint);
    assert!(practice(&app).hinted());
    send(&mut app, PracticeCommand::Solution);
    settle(&mut app);
    assert_eq!(practice(&app).step(), Some(Step::Solved));
    let the_match = app.world().resource::<Match>();
    assert_eq!(the_match.game().moves().collect::<Vec<_>>(), [blunder.best]);
    // Nobody answers it, and the board takes no other move.
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(moves(&app), 1);
    let another = quiet_move(&app);
    let mut refused = Vec::new();
    for point in [another.from(), another.to()] {
        click(&mut app, &point.unwrap().to_string());
        refused.extend(
            messages::<ClickRefused>(&mut app)
                .into_iter()
                .map(|r| r.reason),
        );
    }
    settle(&mut app);
    assert_eq!(moves(&app), 1);
    assert!(refused.contains(&BoardRefusal::ExerciseDone), "{refused:?}");

    // The end: found one of one if the other move was good enough (a question answered stays
    // answered), none if only the solution was; then back to the reviewed game,
    // whose review comes back with it.
    send(&mut app, PracticeCommand::Next);
    assert_eq!(practice(&app).step(), Some(Step::Finished));
    assert_eq!(practice(&app).score(), (found, 1));
    send(&mut app, PracticeCommand::Leave);
    for _ in 0..5 {
        app.update();
    }
    assert!(!practice(&app).is_active());
    let the_match = app.world().resource::<Match>();
    assert_eq!(the_match.game().len(), 2);
    let turn = the_match.turn();
    assert!(
        turn != reviewed_turn,
        "the game came back as a new one on the board"
    );
    let reviewed = app.world().resource::<Reviewed>();
    assert_eq!(reviewed.done_for(turn), Some(&review));
    assert!(matches!(reviewed.status, ReviewShown::Done(_)));
}

#[test]
fn another_game_on_the_board_ends_the_practice_and_frees_the_board() {
    let mut app = shielded();
    request(&mut app, mv("a3b3"));
    app.update();
    settle(&mut app);
    computer_request(&mut app, mv("a5a1"));
    app.update();
    settle(&mut app);
    until_reviewed(&mut app);
    send(&mut app, PracticeCommand::Start);
    until_asked(&mut app);
    assert!(app.world().resource::<Guide>().active);

    // A new game (as the New game dialog asks): the practice ends, that game stays, and the
    // board takes any legal move again.
    let fresh = Game::start(Rules::default(), Seats::default());
    send(
        &mut app,
        NewGameRequested {
            game: fresh.clone(),
            players: PlayerInfo::defaults(7),
            hints: [0; 7],
        },
    );
    for _ in 0..3 {
        app.update();
    }
    assert!(!practice(&app).is_active());
    assert_eq!(practice(&app).step(), None);
    assert_eq!(position(&app).to_fen(), fresh.position().to_fen());
    assert_eq!(*app.world().resource::<Guide>(), Guide::default());
    let first = quiet_move(&app);
    play(
        &mut app,
        &first.from().unwrap().to_string(),
        &first.to().unwrap().to_string(),
    );
    assert_eq!(moves(&app), 1);
}

/// People in every seat, one move played: a game the puzzles set aside and bring back.
fn a_game_begun() -> App {
    let mut app = app_with(Position::start(Rules::default()));
    let first_move = quiet_move(&app);
    request(&mut app, first_move);
    app.update();
    settle(&mut app);
    app
}

/// The solver's rating and the puzzles it tried.
fn solver(app: &App) -> qiguo::puzzles::Solver {
    app.world().resource::<PuzzleSolver>().0.clone()
}

#[test]
fn puzzles_are_asked_by_name_rated_on_the_first_try_and_followed_by_the_nearest() {
    let mut app = a_game_begun();
    let before_puzzles = fen_and_len(&app);

    // A puzzle by its name (as a link names it): its position, its mover to move, all people.
    let puzzle = &built_in()[3];
    send(
        &mut app,
        PuzzlesRequested {
            first: Some(
                format!("https://qiguo.example/?puzzle={}", puzzle.id())
                    .parse()
                    .unwrap(),
            ),
            ..Default::default()
        },
    );
    settle(&mut app);
    until_asked(&mut app);
    let (exercise, _, _) = practice(&app).current().unwrap();
    assert_eq!(exercise.puzzle().map(|p| p.id()), Some(puzzle.id()));
    assert_eq!(position(&app).to_fen(), puzzle.fen);
    assert_eq!(position(&app).to_move(), puzzle.mover);
    assert!(
        app.world()
            .resource::<Match>()
            .players()
            .iter()
            .all(|p| p.computer.is_none())
    );
    assert_eq!(solver(&app).tried, Vec::<String>::new());

    // A wrong move: missed at once (nothing to judge), the rating down, the move taken back.
    let wrong = position(&app)
        .legal_moves()
        .into_iter()
        .find(|&m| m != puzzle.solution && m.from().is_some())
        .unwrap();
    request(&mut app, wrong);
    app.update();
    settle(&mut app);
    until_asked(&mut app);
    assert_eq!(practice(&app).missed(), Some((wrong, None)));
    let (before, after) = practice(&app).rated().unwrap();
    assert_eq!(before, 1500);
    assert!(after < before, "{before} → {after}");
    assert_eq!(solver(&app).tried, [puzzle.id()]);
    assert_eq!(position(&app).to_fen(), puzzle.fen);

    // The solution, found on the second try: right, but the rating stays as the first try left it.
    request(&mut app, puzzle.solution);
    app.update();
    settle(&mut app);
    assert!(matches!(practice(&app).step(), Some(Step::Found(m, _)) if m == puzzle.solution));
    assert_eq!(practice(&app).rated(), Some((before, after)));
    assert_eq!(solver(&app).rating().shown(), after);

    // The next: the untried puzzle rated nearest the solver now.
    assert!(practice(&app).more());
    let nearest = solver(&app)
        .next(
            &built_in()
                .iter()
                .filter(|p| p.id() != puzzle.id())
                .collect::<Vec<_>>(),
        )
        .unwrap()
        .id();
    send(&mut app, PracticeCommand::Next);
    settle(&mut app);
    until_asked(&mut app);
    let (next, n, _) = practice(&app).current().unwrap();
    assert_eq!(
        (next.puzzle().map(|p| p.id()), n),
        (Some(nearest.clone()), 1)
    );
    assert_eq!(practice(&app).rated(), None);
    // A hint before any move counts as a miss.
    send(&mut app, PracticeCommand::Hint);
    assert!(practice(&app).hinted());
    let (_, lower) = practice(&app).rated().unwrap();
    assert!(lower < after, "{after} → {lower}");
    assert_eq!(solver(&app).tried, [puzzle.id(), nearest]);

    // Back to the game that was on the board.
    send(&mut app, PracticeCommand::Leave);
    for _ in 0..5 {
        app.update();
    }
    assert!(!practice(&app).is_active());
    assert_eq!(fen_and_len(&app), before_puzzles);

    // A name that is no puzzle's changes nothing.
    send(
        &mut app,
        PuzzlesRequested {
            first: Some("0123456789ab".parse().unwrap()),
            ..Default::default()
        },
    );
    settle(&mut app);
    assert!(!practice(&app).is_active());
    assert_eq!(fen_and_len(&app), before_puzzles);
}

#[test]
fn a_finished_lessons_puzzles_are_its_pieces_and_the_game_before_the_lesson_comes_back() {
    let mut app = a_game_begun();
    let before_lesson = fen_and_len(&app);
    let cannon = qiguo::lessons::index_of("cannon").unwrap();
    send(&mut app, LessonCommand::Open(cannon));
    settle(&mut app);
    assert!(app.world().resource::<LessonRun>().is_active());
    send(&mut app, LessonCommand::Puzzles(PuzzlesFor::Lesson(cannon)));
    settle(&mut app);
    until_asked(&mut app);
    assert!(!app.world().resource::<LessonRun>().is_active());
    let (exercise, _, _) = practice(&app).current().unwrap();
    let asked = exercise.puzzle().unwrap();
    assert_eq!(asked.piece(), Some(qiguo_rules::PieceKind::Cannon));
    // The daily puzzle, asked while one is on the board, keeps the game to come back to.
    send(&mut app, LessonCommand::Puzzles(PuzzlesFor::Daily));
    settle(&mut app);
    until_asked(&mut app);
    let (daily, _, _) = practice(&app).current().unwrap();
    assert_eq!(
        daily.puzzle().map(|p| p.id()),
        qiguo::puzzles::daily(built_in(), qiguo::puzzles::today()).map(|p| p.id())
    );
    send(&mut app, PracticeCommand::Leave);
    for _ in 0..5 {
        app.update();
    }
    assert!(!practice(&app).is_active());
    assert_eq!(fen_and_len(&app), before_lesson);
}

/// What the practice sent towards a server, kept (messages last two frames; a test steps many).
#[derive(Resource, Default)]
struct ToServer {
    tried: Vec<PuzzleTriedOnServer>,
    wanted: usize,
}

fn keep_what_goes_to_the_server(
    mut tried: MessageReader<PuzzleTriedOnServer>,
    mut wanted: MessageReader<ServerPuzzleWanted>,
    mut kept: ResMut<ToServer>,
) {
    kept.tried.extend(tried.read().cloned());
    kept.wanted += wanted.read().count();
}

#[test]
fn a_servers_puzzle_is_rated_by_the_server_and_its_next_asked_of_it() {
    let mut app = app_with(Position::start(Rules::default()));
    app.init_resource::<ToServer>()
        .add_systems(Update, keep_what_goes_to_the_server);
    let puzzle = built_in()[5].clone();
    send(
        &mut app,
        PuzzlesRequested {
            given: Some(ServerPuzzle {
                puzzle: puzzle.clone(),
                daily: true,
                solver: 1620,
                tried: false,
            }),
            ..Default::default()
        },
    );
    settle(&mut app);
    until_asked(&mut app);
    let (exercise, _, _) = practice(&app).current().unwrap();
    assert!(exercise.from_server());
    assert_eq!(position(&app).to_fen(), puzzle.fen);
    assert_eq!(practice(&app).server_solver(), Some(1620));

    // The solution: found; the try goes to the server, the rating here untouched.
    request(&mut app, puzzle.solution);
    app.update();
    settle(&mut app);
    assert!(matches!(practice(&app).step(), Some(Step::Found(..))));
    let sent = &app.world().resource::<ToServer>().tried;
    assert_eq!(
        sent,
        &[PuzzleTriedOnServer {
            id: puzzle.id(),
            solved: true
        }]
    );
    assert_eq!(practice(&app).rated(), None, "the server has not said yet");
    assert_eq!(solver(&app), qiguo::puzzles::Solver::default());

    // The server's word: shown, and the rating there kept for the card.
    send(
        &mut app,
        PuzzleRatedOnServer {
            id: puzzle.id(),
            before: 1620,
            after: 1655,
        },
    );
    assert_eq!(practice(&app).rated(), Some((1620, 1655)));
    assert_eq!(practice(&app).server_solver(), Some(1655));
    // Another puzzle's word changes nothing.
    send(
        &mut app,
        PuzzleRatedOnServer {
            id: "0123456789ab".into(),
            before: 1,
            after: 2,
        },
    );
    assert_eq!(practice(&app).rated(), Some((1620, 1655)));

    // The next is the server's to send: asked of it, the puzzle staying until it comes.
    assert!(practice(&app).more());
    send(&mut app, PracticeCommand::Next);
    app.update();
    assert_eq!(app.world().resource::<ToServer>().wanted, 1);
    let still = practice(&app).current().unwrap().0.puzzle().map(|p| p.id());
    assert_eq!(still, Some(puzzle.id()));
    assert_eq!(
        app.world().resource::<ToServer>().tried.len(),
        1,
        "one try sent"
    );
}
