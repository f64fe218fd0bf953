//! A seeded driver that, between the frames of a headless game with some computer seats, issues
//! whatever a table of impatient players could: clicks on any point, undo and redo, steps
//! through earlier positions, seats handed between people and computers, answers to the ally
//! question, new games, loads of a save, imports of bad text, saves, and requests made for a
//! turn that has passed. After every frame `Match` and the entities must agree, the phase must
//! fit the match and the review, and nothing may panic or log an error.
//!
//! `QIGUO_CHAOS_SEEDS` and `QIGUO_CHAOS_STEPS` change the amount (24 seeds × 4,000 steps by
//! default).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::common::*;
use bevy::log::tracing::{self, Level as LogLevel, Subscriber};
use bevy::log::tracing_subscriber::{self, Layer, layer::Context, prelude::*};
use bevy::prelude::*;
use qiguo::game::pace::PaceChoice;
use qiguo::game::saving::{LoadRequested, SaveRequested};
use qiguo::game::selection::{AllyAttackAnswered, DeselectRequested, PointClicked, Selection};
use qiguo::game::state::{
    BoardRefusal, Match, MatchReset, MoveApplied, MoveRejected, MoveRequested, Mover,
    NewGameRequested, RedoRequested, Review, ReviewRequested, SeatChangeRequested, Turn, TurnPhase,
    UndoRequested,
};
use qiguo_ai::Level;
use qiguo_rules::random::SplitMix64;
use qiguo_rules::{Move, PlayerInfo, Point, Position, Preset, Rules, Seating};

/// Counts the ERROR events logged on the thread it is installed on (one shard's: the game's
/// systems run on the test's thread), keeping the first few texts.
#[derive(Clone, Default)]
struct ErrorCounter {
    count: Arc<AtomicUsize>,
    first: Arc<Mutex<Vec<String>>>,
}

impl<S: Subscriber> Layer<S> for ErrorCounter {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if *event.metadata().level() == LogLevel::ERROR {
            self.count.fetch_add(1, Ordering::SeqCst);
            let mut first = self.first.lock().unwrap();
            if first.len() < 5 {
                first.push(format!("{event:?}"));
            }
        }
    }
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A random controller: a person, or a fast computer.
fn controller(rng: &mut SplitMix64) -> Option<Level> {
    match rng.below(4) {
        0 | 1 => None,
        2 => Some(Level::Random),
        _ => Some(Level::Easy),
    }
}

fn players(rng: &mut SplitMix64, count: usize) -> Vec<PlayerInfo> {
    PlayerInfo::defaults(count)
        .into_iter()
        .map(|p| PlayerInfo {
            computer: controller(rng),
            ..p
        })
        .collect()
}

fn random_start(rng: &mut SplitMix64) -> Position {
    let preset = *rng.pick(&Preset::ALL).unwrap();
    let seating = match rng.below(5) {
        0 => Seating::TwoPlayers,
        1 => Seating::traditional(3).unwrap(),
        2 => Seating::traditional(4).unwrap(),
        _ => Seating::Seven,
    };
    Position::start_with(Rules::preset(preset), seating.seats().unwrap())
}

/// A point to click: a stone of the kingdom to move that can move, a destination of the
/// selected stone, or anywhere.
fn point_to_click(app: &App, rng: &mut SplitMix64) -> Point {
    let the_match = app.world().resource::<Match>();
    let pos = the_match.position();
    let moves = pos.legal_moves();
    let selected = app.world().resource::<Selection>().selected;
    match rng.below(10) {
        0..=3 => {
            if let Some(from) = rng.pick(&moves).and_then(|m| m.from()) {
                return from;
            }
        }
        4..=7 => {
            if let Some(from) = selected {
                let dests: Vec<Point> =
                    pos.moves_from(from).iter().filter_map(|m| m.to()).collect();
                if let Some(to) = rng.pick(&dests) {
                    return *to;
                }
            }
        }
        _ => {}
    }
    Point::from_index(rng.below(361)).unwrap()
}

/// One random thing a player (or a late computer) does.
fn act(app: &mut App, rng: &mut SplitMix64, past: &mut Vec<(Turn, Move)>) {
    let roll = rng.below(100);
    if roll < 45 {
        let point = point_to_click(app, rng);
        app.world_mut().write_message(PointClicked(point));
        return;
    }
    let world = app.world_mut();
    match roll {
        45..=47 => {
            world.write_message(UndoRequested);
        }
        48..=50 => {
            world.write_message(RedoRequested);
        }
        51..=60 => {
            let len = world.resource::<Match>().game().len();
            let step = match rng.below(8) {
                0 => ReviewRequested::Back,
                1 => ReviewRequested::Forward,
                2 => ReviewRequested::First,
                3 => ReviewRequested::Ply(rng.below(len + 2)),
                _ => ReviewRequested::Live,
            };
            world.write_message(step);
        }
        61..=66 => {
            let count = world.resource::<Match>().players().len();
            let request = SeatChangeRequested {
                player: rng.below(count) as u8,
                computer: controller(rng),
            };
            world.write_message(request);
        }
        67..=69 => {
            world.write_message(AllyAttackAnswered {
                confirmed: rng.chance(50),
            });
        }
        70 if rng.chance(25) => {
            let start = random_start(rng);
            let players = players(rng, start.seats().player_count());
            world.write_message(NewGameRequested::new(start, players));
        }
        71 if rng.chance(40) => {
            world.write_message(LoadRequested::Save("chaos".into()));
        }
        73 => {
            let bad = match rng.below(3) {
                0 => LoadRequested::Fen("19/19 w".into()),
                1 => LoadRequested::GameText("e10e5\nzz\n".into()),
                _ => LoadRequested::Save("no such save".into()),
            };
            world.write_message(bad);
        }
        74 => {
            world.write_message(SaveRequested("chaos".into()));
        }
        75..=78 => {
            // A request made for some turn, perhaps long gone, by someone.
            let the_match = world.resource::<Match>();
            let now = (
                the_match.turn(),
                rng.pick(&the_match.position().legal_moves()).copied(),
            );
            if let (turn, Some(mv)) = now {
                past.push((turn, mv));
            }
            if let Some(&(made_for, mv)) = rng.pick(past) {
                let by = if rng.chance(50) {
                    Mover::Person
                } else {
                    Mover::Computer(if rng.chance(50) {
                        Level::Random
                    } else {
                        Level::Easy
                    })
                };
                world.write_message(MoveRequested { mv, made_for, by });
            }
            if past.len() > 64 {
                past.remove(0);
            }
        }
        79..=80 => {
            world.write_message(DeselectRequested);
        }
        _ => {}
    }
}

/// The phase the app is in or is about to enter.
fn effective_phase(app: &App) -> TurnPhase {
    match app.world().resource::<NextState<TurnPhase>>() {
        NextState::Pending(next) | NextState::PendingIfNeq(next) => *next,
        NextState::Unchanged => phase(app),
    }
}

/// The phase fits the match and the review.
fn check_phase(app: &App, context: &str) {
    let phase = effective_phase(app);
    let review = app.world().resource::<Review>();
    let the_match = app.world().resource::<Match>();
    assert_eq!(
        review.ply.is_some(),
        phase == TurnPhase::Reviewing,
        "{context}: review {:?} in {phase:?}",
        review.ply
    );
    let over = the_match.position().is_over();
    match phase {
        TurnPhase::GameOver => assert!(over, "{context}: GameOver in a game not over"),
        TurnPhase::AwaitingInput => assert!(
            !over && !the_match.computer_to_move(),
            "{context}: awaiting a person's input, but over={over} or a computer to move"
        ),
        TurnPhase::ComputerThinking => assert!(
            the_match.computer_to_move(),
            "{context}: a computer thinks but a person is to move"
        ),
        TurnPhase::Animating | TurnPhase::Reviewing => {}
    }
    if let Some(ply) = review.ply {
        assert!(
            ply < the_match.game().len(),
            "{context}: reviewing {ply} of {}",
            the_match.game().len()
        );
    }
}

fn run_seed(seed: u64, steps: usize) {
    let mut rng = SplitMix64::new(seed);
    let dir = data_dir(&format!("chaos-{seed}"));
    let start = random_start(&mut rng);
    let players = players(&mut rng, start.seats().player_count());
    let levels: Vec<Option<Level>> = players.iter().map(|p| p.computer).collect();
    // Every pace: the next computer's search starts while the move before is shown, and at
    // the instant pace the computers' moves land in the frame they are played.
    let pace = PaceChoice::ALL[seed as usize % PaceChoice::ALL.len()];
    let mut app = TestApp::new(start)
        .levels(&levels)
        .saving(&dir, false)
        .seed(seed)
        .pace(pace)
        .build();
    send(&mut app, SaveRequested("chaos".into()));
    let mut past = Vec::new();
    let (mut applied, mut refused, mut outdated, mut games, mut reviewing) = (0, 0, 0, 0, 0);
    let (mut captures, mut fallen) = (0, 0);
    for step in 0..steps {
        act(&mut app, &mut rng, &mut past);
        // Mostly a frame or two between requests; now and then long enough for a move to be
        // shown and the game to go on.
        let frames = if rng.chance(30) {
            10 + rng.below(40)
        } else {
            1 + rng.below(2)
        };
        for frame in 0..frames {
            app.update();
            let context = format!("seed {seed}, step {step}, frame {frame}");
            check_phase(&app, &context);
            check_agreement(&mut app, false);
            for shown in messages::<MoveApplied>(&mut app) {
                applied += 1;
                captures += usize::from(shown.report.captured.is_some());
                fallen += usize::from(shown.report.fallen.is_some());
            }
            for rejected in messages::<MoveRejected>(&mut app) {
                refused += 1;
                outdated += usize::from(rejected.reason == BoardRefusal::Outdated);
            }
            games += messages::<MatchReset>(&mut app).len();
            reviewing += usize::from(phase(&app) == TurnPhase::Reviewing);
        }
    }
    eprintln!(
        "seed {seed} ({pace:?}): {applied} moves played ({captures} captures, {fallen} kingdoms fallen), \
         {refused} requests refused ({outdated} outdated), {games} games started or loaded, \
         {reviewing} frames of review"
    );
    // Let everything land, then the strict check: stones at rest, none leaving.
    send(&mut app, ReviewRequested::Live);
    app.world_mut()
        .resource_mut::<qiguo::game::computer::ComputerSettings>()
        .enabled = false;
    for _ in 0..200 {
        app.update();
    }
    check_phase(&app, &format!("seed {seed}, the end"));
    if phase(&app) != TurnPhase::Animating {
        assert_agree(&mut app);
    }
    assert!(applied > 0, "seed {seed}: no move was ever played");
    assert!(outdated > 0, "seed {seed}: no outdated request was tried");
    let _ = std::fs::remove_dir_all(dir.root());
}

/// Runs every `of`-th seed from `first`: the seeds are shared among four tests, which the test
/// harness runs in parallel.
fn run_share(first: u64, of: u64) {
    // This shard's own count: the shards run at once, and one's error is not another's.
    let errors = ErrorCounter::default();
    let _counting =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(errors.clone()));
    let seeds = env_or("QIGUO_CHAOS_SEEDS", 24) as u64;
    let steps = env_or("QIGUO_CHAOS_STEPS", 4_000);
    for seed in (first..=seeds).step_by(of as usize) {
        run_seed(seed, steps);
        assert_eq!(
            errors.count.load(Ordering::SeqCst),
            0,
            "seed {seed}: errors logged: {:?}",
            errors.first.lock().unwrap()
        );
    }
}

#[test]
fn random_requests_between_frames_keep_the_game_consistent_1() {
    run_share(1, 4);
}

#[test]
fn random_requests_between_frames_keep_the_game_consistent_2() {
    run_share(2, 4);
}

#[test]
fn random_requests_between_frames_keep_the_game_consistent_3() {
    run_share(3, 4);
}

#[test]
fn random_requests_between_frames_keep_the_game_consistent_4() {
    run_share(4, 4);
}
