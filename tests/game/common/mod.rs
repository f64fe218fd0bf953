//! The headless test app (the game's logic plugins without a window or GPU, time stepped by
//! hand) and what tests do with it: clicks and requests go in as messages, and after every step
//! `Match` and the entities must agree.

#![allow(dead_code)] // each test file uses its own part of this

use std::collections::HashMap;
use std::time::Duration;

use bevy::prelude::*;
use qiguo::game::layout;
use qiguo::game::saving::FileTasks;
use qiguo::game::selection::{Marker, MarkerKind, PointClicked, Selection};
use qiguo::game::state::{Match, MoveRequested, Mover, Review, TurnPhase};
use qiguo::game::stones::{EmperorStone, Look, Stone, StoneIndex, StonePlace};
use qiguo::saves::SaveDir;
use qiguo_rules::{Kingdom, Move, Point, Position, Standing, notation};

pub use qiguo::game::headless::Headless as TestApp;

/// An app with people at every seat, from `start`.
pub fn app_with(start: Position) -> App {
    TestApp::new(start).build()
}

pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

pub fn mv(s: &str) -> Move {
    notation::parse_move(s).unwrap()
}

pub fn phase(app: &App) -> TurnPhase {
    *app.world().resource::<State<TurnPhase>>().get()
}

pub fn position(app: &App) -> Position {
    app.world().resource::<Match>().position().clone()
}

pub fn moves(app: &App) -> usize {
    app.world().resource::<Match>().game().len()
}

pub fn fen_and_len(app: &App) -> (String, usize) {
    let the_match = app.world().resource::<Match>();
    (the_match.position().to_fen(), the_match.game().len())
}

/// Writes a message and runs a frame.
pub fn send<M: Message>(app: &mut App, message: M) {
    app.world_mut().write_message(message);
    app.update();
}

pub fn click(app: &mut App, point: &str) {
    send(app, PointClicked(p(point)));
}

/// The first legal move of the kingdom to move that takes nothing.
pub fn quiet_move(app: &App) -> Move {
    let pos = position(app);
    pos.legal_moves()
        .into_iter()
        .find(|m| !pos.is_capture(*m))
        .expect("a quiet move")
}

/// A person's request for `mv` at the current turn (not yet run).
pub fn request(app: &mut App, mv: Move) {
    let request = MoveRequested::by_person(app.world().resource::<Match>(), mv);
    app.world_mut().write_message(request);
}

/// A computer's request for `mv` at the current turn (not yet run), by the level holding the
/// kingdom to move.
pub fn computer_request(app: &mut App, mv: Move) -> MoveRequested {
    let the_match = app.world().resource::<Match>();
    let level = the_match
        .computer(the_match.position().to_move())
        .expect("a computer to move");
    let request = MoveRequested {
        mv,
        made_for: the_match.turn(),
        by: Mover::Computer(level),
    };
    app.world_mut().write_message(request);
    request
}

/// Steps frames until the move has been shown (at most 10 simulated seconds).
pub fn settle(app: &mut App) {
    for _ in 0..500 {
        app.update();
        if phase(app) != TurnPhase::Animating {
            app.update();
            return;
        }
    }
    panic!("a move never finished animating");
}

/// Steps a simulated second and a half: every glide has landed.
pub fn glide(app: &mut App) {
    for _ in 0..75 {
        app.update();
    }
}

/// Steps frames until `done`, failing after `frames` frames.
pub fn run_until(app: &mut App, frames: usize, what: &str, done: impl Fn(&App) -> bool) {
    for _ in 0..frames {
        if done(app) {
            return;
        }
        app.update();
    }
    assert!(done(app), "{what} did not happen within {frames} frames");
}

pub fn messages<M: Message + Clone>(app: &mut App) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().cloned().collect()
}

/// Every piece of the position shown has exactly one stone on its point and nothing else is on
/// the board; the index agrees; trays hold the captures. With `settled`, stones also rest where
/// they belong and no stone is leaving; otherwise stones may be on their way.
pub fn check_agreement(app: &mut App, settled: bool) {
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
    let mut on_board: HashMap<Point, Vec<(Entity, Stone, Transform)>> = HashMap::new();
    for (entity, stone, place, transform) in &stones {
        if let StonePlace::Board(point) = place {
            on_board
                .entry(*point)
                .or_default()
                .push((*entity, *stone, *transform));
        }
    }
    for (point, indexed) in index_at {
        let on_point = on_board.get(&point).map_or(&[][..], Vec::as_slice);
        match pos.piece_at(point) {
            Some(piece) => {
                assert_eq!(on_point.len(), 1, "{point}: one stone for {piece}");
                let (entity, stone, transform) = on_point[0];
                assert_eq!(stone.piece, piece, "{point}");
                assert_eq!(indexed, Some(entity), "{point}: index");
                if settled {
                    assert!(
                        transform.translation.distance(layout::stone_rest(point)) < 1e-4,
                        "{point}: stone at {}",
                        transform.translation
                    );
                }
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
    if settled {
        assert!(
            stones
                .iter()
                .all(|(_, _, place, _)| *place != StonePlace::Leaving),
            "leaving stones are gone once a move has been shown"
        );
        for (entity, stone, _, _) in &stones {
            let look = app.world().get::<Look>(*entity).map(|l| l.0);
            assert_eq!(
                look,
                Some(stone.piece),
                "a settled stone looks like its piece"
            );
        }
    }
    let emperors = app
        .world_mut()
        .query_filtered::<&Transform, With<EmperorStone>>()
        .iter(app.world())
        .count();
    assert_eq!(emperors, 1);
}

/// `Match` and the entities agree, and every stone rests where it belongs.
pub fn assert_agree(app: &mut App) {
    check_agreement(app, true);
}

pub fn markers(app: &mut App) -> Vec<(Point, MarkerKind)> {
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
pub fn play(app: &mut App, from: &str, to: &str) {
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

/// Steps frames until the file work on the IO task pool (autosaves, listing the saves) is
/// done: at most 500 frames, a millisecond apart.
pub fn finish_file_work(app: &mut App) {
    for _ in 0..500 {
        app.update();
        if app.world().resource::<FileTasks>().is_idle() {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("file work never finished");
}

/// A fresh data directory for one test, removed with everything in it when dropped; used as
/// the [`SaveDir`] it derefs to.
pub struct DataDir {
    saves: SaveDir,
    _dir: qiguo_testkit::TempDir,
}

impl std::ops::Deref for DataDir {
    type Target = SaveDir;

    fn deref(&self) -> &SaveDir {
        &self.saves
    }
}

/// A fresh data directory for one test.
pub fn data_dir(test: &str) -> DataDir {
    let dir = qiguo_testkit::TempDir::new(&format!("headless-{test}"));
    DataDir {
        saves: SaveDir::at(dir.path().to_owned()),
        _dir: dir,
    }
}

/// An app finished and cleaned up, as `App::run` would, for stepping by hand.
pub fn started(mut app: App) -> App {
    app.finish();
    app.cleanup();
    app
}

/// Steps every app (a host and the machines connected to it) until `done`, at most `limit` of
/// wall time.
pub fn run_apps_until(apps: &mut [&mut App], limit: Duration, done: impl Fn(&[&mut App]) -> bool) {
    let start = std::time::Instant::now();
    while !done(apps) {
        assert!(start.elapsed() < limit, "not done within {limit:?}");
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
