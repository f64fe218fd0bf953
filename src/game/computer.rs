//! Computer players: when one is to move, its search runs on a thread of its own
//! ([`BackgroundSearch`], as on a server), so the window stays responsive. It starts as soon as
//! the move before is decided, while that move is still being shown; the move it finds is
//! requested like a person's once the board is ready for it and the pace's pause is over, and
//! animated the same way. A search whose turn is gone (a move taken back, a new game, the seat
//! handed to a person) is stopped. The request names the turn it was chosen for, so a move
//! that arrives after the game moved on is refused by the rules system.

use std::time::Duration;

use bevy::prelude::*;
use qiguo_ai::{Level, Limits, SearchResult};

use crate::game::frames::{Redraw, Waker};
use crate::game::pace::Pace;
use crate::game::schedule::AppSystems;
use crate::game::search::{Search, Searcher};
use crate::game::state::{Dialog, Match, MoveRequested, Mover, SeatAuthority, Turn, TurnPhase};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ComputerSettings>()
        .init_resource::<Thinking>()
        .init_resource::<SharedEngine>()
        .add_systems(OnEnter(TurnPhase::ComputerThinking), start_the_pause)
        .add_systems(
            Update,
            (
                play_when_ready
                    .run_if(in_state(TurnPhase::ComputerThinking).and_then(in_state(Dialog::None)))
                    .in_set(AppSystems::RecordInput),
                // After the rules system: a move just decided starts the next search at once.
                think_ahead
                    .after(AppSystems::ApplyRules)
                    .before(AppSystems::SyncView),
            ),
        );
}

/// How computer players behave in the game.
#[derive(Resource, Clone, Debug)]
pub struct ComputerSettings {
    /// Whether computer players move at all (not while a screenshot is taken).
    pub enabled: bool,
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
    /// Threads a search runs on (Hard shares its search between them; the other levels use
    /// one): by default one per core. Above one, the same search may find another move from
    /// one run to the next.
    pub threads: usize,
}

impl Default for ComputerSettings {
    fn default() -> ComputerSettings {
        ComputerSettings {
            enabled: true,
            movetime: None,
            nodes: None,
            wait_for_search: false,
            seed: 0x5EED,
            threads: qiguo_ai::available_threads(),
        }
    }
}

/// The computer players' searcher. One engine serves every computer seat, so its
/// transposition table and history carry over from move to move.
#[derive(Resource, Clone)]
pub(crate) struct SharedEngine(Searcher);

impl Default for SharedEngine {
    fn default() -> SharedEngine {
        SharedEngine(Searcher::new(qiguo_ai::TableSize::entries_log2(17)))
    }
}

/// The search under way, if a computer is thinking.
#[derive(Resource, Default)]
pub struct Thinking {
    search: Option<Search>,
    result: Option<SearchResult>,
    /// When the board became ready for the move (the pause counts from here).
    ready_at: Duration,
    /// The turn the search is for, and the level searching.
    made_for: Option<(Turn, Level)>,
    /// The time spent by the searches whose moves were played, in all.
    searched: Duration,
}

impl Thinking {
    /// The turn a computer's search is under way (or done) for, if any.
    pub fn searching_for(&self) -> Option<Turn> {
        self.made_for.map(|(turn, _)| turn)
    }

    /// The time spent by the searches whose moves were played, in all (for benchmarks).
    pub fn searched(&self) -> Duration {
        self.searched
    }
}

/// The turn a computer should be thinking about now, and its level: a computer is to move in
/// a game this window plays, and the board is showing the move before or waiting for this one.
fn wanted_search(
    the_match: &Match,
    phase: TurnPhase,
    settings: &ComputerSettings,
    seats: &SeatAuthority,
) -> Option<(Turn, Level)> {
    // In a joined game the host plays the computers.
    if !settings.enabled || seats.follows_server() || the_match.position().is_over() {
        return None;
    }
    if !matches!(
        phase,
        TurnPhase::Animating | TurnPhase::ComputerThinking | TurnPhase::Reviewing
    ) {
        return None;
    }
    let level = the_match.computer(the_match.position().to_move())?;
    Some((the_match.turn(), level))
}

/// Keeps the search in line with the match: started for a computer to move as soon as the
/// move before is decided (while it is still being shown), stopped when its turn is gone.
fn think_ahead(
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    next_phase: Res<NextState<TurnPhase>>,
    settings: Res<ComputerSettings>,
    engine: Res<SharedEngine>,
    mut thinking: ResMut<Thinking>,
    seats: Res<SeatAuthority>,
    waker: Res<Waker>,
) {
    // The phase the rules system has just asked for, if any, is the one that counts.
    let phase = match *next_phase {
        NextState::Pending(p) | NextState::PendingIfNeq(p) => p,
        NextState::Unchanged => *phase.get(),
    };
    let wanted = wanted_search(&the_match, phase, &settings, &seats);
    if thinking.made_for == wanted {
        return;
    }
    let (ready_at, searched) = (thinking.ready_at, thinking.searched);
    *thinking = Thinking {
        searched,
        ..Thinking::default()
    };
    let Some((turn, level)) = wanted else {
        return;
    };
    // Without either limit the search takes the level's own time; a node limit alone is
    // the same search on any machine.
    let limits = Limits {
        movetime: settings.movetime,
        nodes: settings.nodes,
        threads: Some(settings.threads),
        ..Limits::default()
    };
    let seed = settings.seed.wrapping_add(the_match.game().len() as u64);
    debug!(
        "the computer ({level:?}) searches move {}",
        the_match.game().len() + 1
    );
    *thinking = Thinking {
        search: Some(
            engine
                .0
                .start(the_match.game(), level, limits, seed, waker.as_fn()),
        ),
        result: None,
        ready_at,
        made_for: Some((turn, level)),
        searched,
    };
}

/// The board is ready for the computer's move: the pace's pause starts.
fn start_the_pause(time: Res<Time>, mut thinking: ResMut<Thinking>) {
    thinking.ready_at = time.elapsed();
}

/// Requests the computer's move once its search is done and the pause is over.
fn play_when_ready(
    time: Res<Time>,
    settings: Res<ComputerSettings>,
    pace: Res<Pace>,
    the_match: Res<Match>,
    mut thinking: ResMut<Thinking>,
    mut requests: MessageWriter<MoveRequested>,
    mut redraw: Redraw,
) {
    if thinking
        .made_for
        .is_none_or(|(turn, _)| turn != the_match.turn())
    {
        return; // the search for this turn starts after the rules system, this frame
    }
    let waited = time.elapsed().saturating_sub(thinking.ready_at);
    let paused = waited < pace.pause();
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
        // A frame when the pause is over (the search wakes the game when it is done).
        debug!("the computer's pause: {:?} more", pace.pause() - waited);
        redraw.within(pace.pause() - waited);
        return;
    }
    if let (Some(result), Some((made_for, level))) = (thinking.result.take(), thinking.made_for) {
        debug!(
            "computer plays {} (depth {}, {} nodes, {:?})",
            result.best, result.depth, result.nodes, result.elapsed
        );
        thinking.searched += result.elapsed;
        requests.write(MoveRequested {
            mv: result.best,
            made_for,
            by: Mover::Computer(level),
        });
    }
}
