//! Computer players: when one is to move, its search runs on a thread of its own
//! ([`BackgroundSearch`], as on a server), so the window stays responsive; the move it finds is requested like a person's
//! after a short pause, and animated the same way. Leaving the phase (a new game, the seat handed
//! to a person) stops the search. The request names the turn it was chosen for, so a move that
//! arrives after the game moved on is refused by the rules system.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::prelude::*;
use qiguo_ai::{BackgroundSearch, Engine, Level, Limits, SearchResult};

use crate::game::AppSystems;
use crate::game::state::{Dialog, Match, MoveRequested, Mover, SeatAuthority, Turn, TurnPhase};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ComputerSettings>()
        .init_resource::<Thinking>()
        .init_resource::<SharedEngine>()
        .add_systems(OnEnter(TurnPhase::ComputerThinking), start_thinking)
        .add_systems(OnExit(TurnPhase::ComputerThinking), stop_thinking)
        .add_systems(
            Update,
            play_when_ready
                .run_if(in_state(TurnPhase::ComputerThinking).and_then(in_state(Dialog::None)))
                .in_set(AppSystems::RecordInput),
        );
}

/// How computer players behave in the game.
#[derive(Resource, Clone, Debug)]
pub struct ComputerSettings {
    /// Whether computer players move at all (not while a screenshot is taken).
    pub enabled: bool,
    /// The least time between the start of a computer's turn and its move, so people can follow.
    pub pause: Duration,
    /// Time per move for every level (by default, each level's own).
    pub movetime: Option<Duration>,
    /// Positions searched per move at most, for every level (tests: the same move on every
    /// machine). With a node limit and no time limit, the level's time does not apply.
    pub nodes: Option<u64>,
    /// When the pause is over and the search is not, the frame waits for the search rather
    /// than trying again next frame, so the move comes at the same frame on every run (tests).
    pub wait_for_search: bool,
    /// Seed for the levels' variety; each move adds the move number.
    pub seed: u64,
}

impl Default for ComputerSettings {
    fn default() -> ComputerSettings {
        ComputerSettings {
            enabled: true,
            pause: Duration::from_millis(700),
            movetime: None,
            nodes: None,
            wait_for_search: false,
            seed: 0x5EED,
        }
    }
}

/// The computer players' searcher. One engine serves every computer seat, so its
/// transposition table and history carry over from move to move.
#[derive(Resource, Clone)]
pub(crate) struct SharedEngine(Arc<Mutex<Engine>>);

impl Default for SharedEngine {
    fn default() -> SharedEngine {
        SharedEngine(Arc::new(Mutex::new(Engine::new(17))))
    }
}

/// The search under way, if a computer is thinking.
#[derive(Resource, Default)]
pub(crate) struct Thinking {
    search: Option<BackgroundSearch>,
    result: Option<SearchResult>,
    /// When the turn started (the pause counts from here).
    started: Duration,
    /// The turn the search is for, and the level searching.
    made_for: Option<(Turn, Level)>,
}

fn start_thinking(
    the_match: Res<Match>,
    settings: Res<ComputerSettings>,
    engine: Res<SharedEngine>,
    time: Res<Time>,
    mut thinking: ResMut<Thinking>,
    seats: Res<SeatAuthority>,
) {
    stop(&mut thinking);
    // In a joined game the host plays the computers.
    if !settings.enabled || seats.follows_host() {
        return;
    }
    let pos = the_match.position().clone();
    let Some(level) = the_match.computer(pos.to_move()) else {
        return;
    };
    // Without either limit the search takes the level's own time; a node limit alone is
    // the same search on any machine.
    let limits = Limits {
        movetime: settings.movetime,
        nodes: settings.nodes,
        ..Limits::default()
    };
    let seed = settings.seed.wrapping_add(the_match.game().len() as u64);
    *thinking = Thinking {
        search: Some(BackgroundSearch::start(
            engine.0.clone(),
            pos,
            level,
            limits,
            seed,
        )),
        result: None,
        started: time.elapsed(),
        made_for: Some((the_match.turn(), level)),
    };
}

/// Stops the search under way, if any (dropping it stops it).
fn stop(thinking: &mut Thinking) {
    *thinking = Thinking::default();
}

fn stop_thinking(mut thinking: ResMut<Thinking>) {
    stop(&mut thinking);
}

/// Requests the computer's move once its search is done and the pause is over.
fn play_when_ready(
    time: Res<Time>,
    settings: Res<ComputerSettings>,
    mut thinking: ResMut<Thinking>,
    mut requests: MessageWriter<MoveRequested>,
) {
    let paused = time.elapsed().saturating_sub(thinking.started) < settings.pause;
    let wait = settings.wait_for_search && !paused;
    if let Some(search) = thinking.search.take_if(|s| wait || s.is_finished()) {
        match search.wait() {
            Some(result) => thinking.result = Some(result),
            None => {
                warn!("the computer found no move in a finished game");
                return;
            }
        }
    }
    if paused {
        return;
    }
    if let (Some(result), Some((made_for, level))) = (thinking.result.take(), thinking.made_for) {
        debug!(
            "computer plays {} (depth {}, {} nodes, {:?})",
            result.best, result.depth, result.nodes, result.elapsed
        );
        requests.write(MoveRequested {
            mv: result.best,
            made_for,
            by: Mover::Computer(level),
        });
    }
}
