//! Computer players: when one is to move, its search runs on Bevy's async compute pool, off the
//! main thread, so the window stays responsive; the move it finds is requested like a person's
//! after a short pause, and animated the same way. Leaving the phase (a new game, the seat handed
//! to a person) stops the search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use qiguo_ai::{Engine, Level, Limits, SearchResult};
use qiguo_rules::Kingdom;

use super::AppSystems;
use super::state::{Match, MoveRequested, TurnPhase};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ComputerSettings>()
        .init_resource::<Thinking>()
        .add_systems(OnEnter(TurnPhase::ComputerThinking), start_thinking)
        .add_systems(OnExit(TurnPhase::ComputerThinking), stop_thinking)
        .add_systems(
            Update,
            play_when_ready
                .run_if(in_state(TurnPhase::ComputerThinking))
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
    /// Seed for the levels' variety; each move adds the move number.
    pub seed: u64,
}

impl Default for ComputerSettings {
    fn default() -> ComputerSettings {
        ComputerSettings {
            enabled: true,
            pause: Duration::from_millis(700),
            movetime: None,
            seed: 0x5EED,
        }
    }
}

/// The search under way, if a computer is thinking.
#[derive(Resource, Default)]
pub struct Thinking {
    task: Option<Task<Option<SearchResult>>>,
    stop: Option<Arc<AtomicBool>>,
    result: Option<SearchResult>,
    started: f32,
    /// The kingdom thinking, and at which level.
    pub who: Option<(Kingdom, Level)>,
}

fn start_thinking(
    the_match: Res<Match>,
    settings: Res<ComputerSettings>,
    time: Res<Time>,
    mut thinking: ResMut<Thinking>,
) {
    stop(&mut thinking);
    if !settings.enabled {
        return;
    }
    let pos = the_match.position().clone();
    let kingdom = pos.to_move();
    let Some(level) = the_match.computer(kingdom) else {
        return;
    };
    let stop_flag = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        movetime: Some(settings.movetime.unwrap_or(level.movetime())),
        stop: Some(stop_flag.clone()),
        ..Limits::default()
    };
    let seed = settings.seed.wrapping_add(the_match.game().len() as u64);
    let task = AsyncComputeTaskPool::get()
        .spawn(async move { Engine::new(17).search(&pos, level, &limits, seed) });
    *thinking = Thinking {
        task: Some(task),
        stop: Some(stop_flag),
        result: None,
        started: time.elapsed_secs(),
        who: Some((kingdom, level)),
    };
}

fn stop(thinking: &mut Thinking) {
    if let Some(flag) = &thinking.stop {
        flag.store(true, Ordering::Relaxed);
    }
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
    if let Some(task) = thinking.task.as_mut()
        && let Some(result) = check_ready(task)
    {
        thinking.task = None;
        match result {
            Some(result) => thinking.result = Some(result),
            None => {
                warn!("the computer found no move in a finished game");
                return;
            }
        }
    }
    if time.elapsed_secs() - thinking.started < settings.pause.as_secs_f32() {
        return;
    }
    if let Some(result) = thinking.result.take() {
        debug!(
            "computer plays {} (depth {}, {} nodes, {:?})",
            result.best, result.depth, result.nodes, result.elapsed
        );
        requests.write(MoveRequested(result.best));
    }
}
