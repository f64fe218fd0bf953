//! The game's logic plugins without a window or GPU: clicks go in as messages, time is stepped
//! by hand, and after every step `Match` and the entities must agree.

use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use qiguo::game::selection::{ClickRefused, Marker, MarkerKind, PointClicked, Selection};
use qiguo::game::state::{Match, MoveApplied, MoveRejected, MoveRequested, Review, TurnPhase};
use qiguo::game::stones::{EmperorStone, Stone, StoneIndex, StonePlace};
use qiguo::game::{board::BoardPoint, layout, logic_plugins};
use qiguo_rules::{
    Kingdom, Move, Piece, PieceKind, Point, Position, Preset, Rules, Seats, Standing, Victory, fen,
};

fn app_with(start: Position) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        20,
    )));
    app.insert_resource(Match::new(start));
    logic_plugins(&mut app);
    app.update();
    app
}

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn phase(app: &App) -> TurnPhase {
    *app.world().resource::<State<TurnPhase>>().get()
}

fn position(app: &App) -> Position {
    app.world().resource::<Match>().position().clone()
}

fn click(app: &mut App, point: &str) {
    app.world_mut().write_message(PointClicked(p(point)));
    app.update();
}

/// Steps frames until the move has been shown (at most 10 simulated seconds).
fn settle(app: &mut App) {
    for _ in 0..500 {
        app.update();
        if phase(app) != TurnPhase::Animating {
            app.update();
            return;
        }
    }
    panic!("a move never finished animating");
}

fn messages<M: Message + Clone>(app: &mut App) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().cloned().collect()
}

/// Every piece of `Match` has exactly one stone on its point and nothing else is on the
/// board; stones rest where they belong; trays hold the captures.
fn assert_agree(app: &mut App) {
    // The position shown: the live one, or the one under review.
    let (pos, reports) = {
        let the_match = app.world().resource::<Match>();
        let review = app.world().resource::<Review>();
        let reports: Vec<_> = the_match
            .game()
            .reports()
            .take(review.shown_ply(the_match))
            .cloned()
            .collect();
        (review.shown_position(the_match), reports)
    };
    let index_at: Vec<(Point, Option<Entity>)> = {
        let index = app.world().resource::<StoneIndex>();
        Point::all().map(|pt| (pt, index.at(pt))).collect()
    };
    let mut query = app
        .world_mut()
        .query::<(Entity, &Stone, &StonePlace, &Transform)>();
    let stones: Vec<(Entity, Stone, StonePlace, Transform)> = query
        .iter(app.world())
        .map(|(e, s, pl, t)| (e, *s, *pl, *t))
        .collect();
    for (point, indexed) in index_at {
        let on_point: Vec<_> = stones
            .iter()
            .filter(|(_, _, place, _)| *place == StonePlace::Board(point))
            .collect();
        match pos.piece_at(point) {
            Some(piece) => {
                assert_eq!(on_point.len(), 1, "{point}: one stone for {piece}");
                let (entity, stone, _, transform) = on_point[0];
                assert_eq!(stone.piece, piece, "{point}");
                assert_eq!(indexed, Some(*entity), "{point}: index");
                assert!(
                    transform.translation.distance(layout::stone_rest(point)) < 1e-4,
                    "{point}: stone at {}",
                    transform.translation
                );
            }
            None => {
                assert!(on_point.is_empty(), "{point}: stray stone");
                assert_eq!(indexed, None, "{point}: index");
            }
        }
    }
    for captor in Kingdom::ALL {
        let expected = reports
            .iter()
            .filter(|r| r.mover == captor && r.captured.is_some())
            .filter(|r| {
                !r.fallen.as_ref().is_some_and(|f| {
                    matches!(f.standing, Standing::Forfeited { .. })
                        && Some(f.kingdom) == r.captured.map(|c| c.kingdom)
                })
            })
            .count();
        let in_tray = stones
            .iter()
            .filter(|(_, _, place, _)| matches!(place, StonePlace::Tray { captor: c, .. } if *c == captor))
            .count();
        assert_eq!(in_tray, expected, "{captor}'s tray");
    }
    assert!(
        stones
            .iter()
            .all(|(_, _, place, _)| *place != StonePlace::Leaving),
        "leaving stones are gone once a move has been shown"
    );
    let emperors = app
        .world_mut()
        .query_filtered::<&Transform, With<EmperorStone>>()
        .iter(app.world())
        .count();
    assert_eq!(emperors, 1);
    let points = app
        .world_mut()
        .query::<&BoardPoint>()
        .iter(app.world())
        .count();
    assert_eq!(points, 361);
}

fn markers(app: &mut App) -> Vec<(Point, MarkerKind)> {
    let mut v: Vec<_> = app
        .world_mut()
        .query::<&Marker>()
        .iter(app.world())
        .map(|m| (m.point, m.kind))
        .collect();
    v.sort_by_key(|(pt, _)| *pt);
    v
}

/// Play `from`→`to` by clicking, and show it.
fn play(app: &mut App, from: &str, to: &str) {
    click(app, from);
    assert_eq!(
        app.world().resource::<Selection>().selected,
        Some(p(from)),
        "{from} selected"
    );
    click(app, to);
    settle(app);
    assert_agree(app);
}

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
    let mut app = app_with(start(Preset::Wikipedia));
    play(&mut app, "a5", "c5");
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
    app.world_mut()
        .write_message(MoveRequested(Move::new(p("f3"), p("f4"))));
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
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(Match::from_game(game, qiguo_rules::PlayerInfo::defaults(7)));
    logic_plugins(&mut app);
    app.update();
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
    use qiguo::game::computer::ComputerSettings;
    use qiguo::game::state::SeatChangeRequested;
    use qiguo_ai::Level;
    use qiguo_rules::PlayerInfo;

    fn app_with_players(start: Position, levels: [Option<Level>; 7]) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            20,
        )));
        let players = levels
            .iter()
            .enumerate()
            .map(|(i, l)| PlayerInfo {
                name: format!("P{i}"),
                computer: l.map(|l| l.name().to_owned()),
            })
            .collect();
        app.insert_resource(Match::with_players(start, players));
        app.insert_resource(ComputerSettings {
            enabled: true,
            pause: Duration::from_millis(60),
            movetime: Some(Duration::from_millis(40)),
            seed: 1,
        });
        logic_plugins(&mut app);
        app.update();
        app
    }

    fn moves(app: &App) -> usize {
        app.world().resource::<Match>().game().len()
    }

    /// Steps frames (the search runs in real time on another thread) until `done`.
    fn run_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
        let started = std::time::Instant::now();
        while !done(app) {
            assert!(
                started.elapsed().as_secs() < 20,
                "timed out waiting for {what}"
            );
            app.update();
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_computer_moves_then_hands_the_turn_to_a_person() {
        let mut levels = [None; 7];
        levels[0] = Some(Level::Easy);
        let mut app = app_with_players(Position::start(Rules::default()), levels);
        app.update();
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        // A person's click while the computer thinks is refused.
        click(&mut app, "f3");
        assert_eq!(messages::<ClickRefused>(&mut app).len(), 1);
        run_until(&mut app, "Qin's move", |app| moves(app) == 1);
        settle(&mut app);
        assert_agree(&mut app);
        assert_eq!(position(&app).to_move(), Kingdom::Chu);
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
    }

    #[test]
    fn seats_change_hands_at_any_turn() {
        let mut app = app_with_players(Position::start(Rules::default()), [None; 7]);
        assert_eq!(phase(&app), TurnPhase::AwaitingInput);
        // Qin's person hands over to the computer: it thinks and moves.
        app.world_mut().write_message(SeatChangeRequested {
            player: 0,
            computer: Some(Level::Medium),
        });
        app.update();
        app.update();
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        run_until(&mut app, "Qin's move", |app| moves(app) == 1);
        settle(&mut app);
        // Chu is a person; hand Chu to the computer and take it back before it moves.
        app.world_mut().write_message(SeatChangeRequested {
            player: 1,
            computer: Some(Level::Hard),
        });
        app.update();
        app.update();
        assert_eq!(phase(&app), TurnPhase::ComputerThinking);
        app.world_mut().write_message(SeatChangeRequested {
            player: 1,
            computer: None,
        });
        app.update();
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
        let mut app = app_with_players(Position::start(Rules::default()), [Some(Level::Easy); 7]);
        run_until(&mut app, "ten moves", |app| moves(app) >= 10);
        settle(&mut app);
        let before = moves(&app);
        assert_agree(&mut app);
        assert!(before >= 10);
    }
}

/// Undo, redo, review, saving and loading, driven by their messages.
mod records {
    use super::*;
    use qiguo::game::saving::{
        LoadRequested, ResumeAnswered, ResumeOffer, SaveRequested, SaveStore,
    };
    use qiguo::game::state::{Notice, RedoRequested, ReviewRequested, UndoRequested};
    use qiguo::saves::SaveDir;
    use qiguo_rules::{Game, PlayerInfo, Record, notation};

    fn send<M: Message>(app: &mut App, message: M) {
        app.world_mut().write_message(message);
        app.update();
    }

    /// Steps a simulated second and a half: every glide has landed.
    fn glide(app: &mut App) {
        for _ in 0..75 {
            app.update();
        }
    }

    fn fen_and_len(app: &App) -> (String, usize) {
        let the_match = app.world().resource::<Match>();
        (the_match.position().to_fen(), the_match.game().len())
    }

    fn data_dir(test: &str) -> SaveDir {
        let root =
            std::env::temp_dir().join(format!("qiguo-headless-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        SaveDir::at(root)
    }

    fn app_saving(start: Position, dir: &SaveDir, offer_resume: bool) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            20,
        )));
        app.insert_resource(Match::new(start));
        let mut store = SaveStore::at(dir.clone());
        store.offer_resume = offer_resume;
        app.insert_resource(store);
        logic_plugins(&mut app);
        app.update();
        app
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
        send(
            &mut app,
            MoveRequested(notation::parse_move("a6a7").unwrap()),
        );
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
        use qiguo::game::computer::ComputerSettings;
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            20,
        )));
        let mut players = PlayerInfo::defaults(7);
        for p in &mut players[1..] {
            p.computer = Some("easy".into());
        }
        let start = Position::start(Rules::default());
        app.insert_resource(Match::with_players(start, players));
        app.insert_resource(ComputerSettings {
            enabled: true,
            pause: Duration::from_millis(40),
            movetime: Some(Duration::from_millis(30)),
            seed: 2,
        });
        logic_plugins(&mut app);
        app.update();
        play(&mut app, "e10", "e5");
        let started = std::time::Instant::now();
        while fen_and_len(&app).1 < 7 || phase(&app) != TurnPhase::AwaitingInput {
            assert!(
                started.elapsed().as_secs() < 30,
                "the computers never finished"
            );
            app.update();
            std::thread::sleep(Duration::from_millis(2));
        }
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
        let mut app = app_saving(start(Preset::Classic), &dir, false);
        app.update();
        assert!(
            !dir.autosave_path().exists(),
            "nothing to keep before a move"
        );
        play(&mut app, "a5", "a6");
        let autosaved = dir.load_autosave().unwrap().unwrap();
        assert_eq!(autosaved.game.len(), 1, "autosaved after the move");

        send(&mut app, SaveRequested("after one".into()));
        assert!(messages::<Notice>(&mut app).iter().all(|n| !n.error));
        let saved = fen_and_len(&app);
        play(&mut app, "f1", "f2");
        assert_eq!(dir.load_autosave().unwrap().unwrap().game.len(), 2);

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
    fn an_unfinished_game_is_offered_for_resuming() {
        let dir = data_dir("resume");
        let mut game = Game::start(Rules::default(), Seats::seven());
        for m in ["e10e5", "f5f6"] {
            game.play(notation::parse_move(m).unwrap()).unwrap();
        }
        dir.autosave(&Record::from_game(&game, PlayerInfo::defaults(7)))
            .unwrap();
        let mut app = app_saving(Position::start(Rules::default()), &dir, true);
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

        // An unreadable autosave is put aside with a message, and no offer is made.
        std::fs::write(dir.autosave_path(), "garbage").unwrap();
        let mut app = app_saving(Position::start(Rules::default()), &dir, true);
        app.update();
        assert!(app.world().resource::<ResumeOffer>().offer.is_none());
        assert!(dir.root().join("autosave-unreadable.json").exists());
        assert!(app.world().resource::<SaveStore>().last_error.is_some());
    }
}
