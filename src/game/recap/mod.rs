//! What happened since your last turn: when a person's turn starts, the moves played since
//! that player's previous turn (computers' included) are kept as a [`Recap`], drawn on the
//! board and marked in the move list; a replay steps the review through them in order and
//! returns to the live position.

pub(crate) mod view;

use std::ops::Range;

use bevy::prelude::*;
use qiguo_rules::{Game, Position};

use crate::game::awareness::{PersonTurnStarted, assess_turn};
use crate::game::frames::Redraw;
use crate::game::schedule::AppSystems;
use crate::game::state::{Match, Review, ReviewRequested, Turn, TurnPhase};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Recap>()
        .init_resource::<Replay>()
        .add_message::<ReplayRequested>()
        .add_systems(
            Update,
            (
                // A replay starting this frame is first stepped next frame, once the review
                // has gone to its first position.
                (step_replay, start_replays)
                    .chain()
                    .in_set(AppSystems::RecordInput),
                note_recap.after(assess_turn).in_set(AppSystems::SyncView),
            ),
        );
}

/// Seconds each replayed move stays before the next.
pub(crate) const REPLAY_STEP_SECONDS: f32 = 0.9;

/// The moves since the last turn of the person now to move.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Recap {
    /// The turn it was made for; it is shown only at that turn.
    pub turn: Option<Turn>,
    /// The moves, as indices into the game's moves (move `i` leads to the position after
    /// `i + 1` moves).
    pub moves: Range<usize>,
}

impl Recap {
    /// The moves of `game` played since `player` last had a turn: back from the end to the
    /// last move made by one of the player's kingdoms (held at the time of the current
    /// position), or to the start.
    pub(crate) fn since_last_turn(game: &Game, player: u8) -> Range<usize> {
        let pos: &Position = game.position();
        let start = game
            .reports()
            .enumerate()
            .filter(|(_, r)| pos.player_of(r.mover) == player)
            .last()
            .map_or(0, |(i, _)| i + 1);
        start..game.len()
    }

    /// The moves to show now: those of the current turn's recap, if it is for this turn.
    pub fn current(&self, the_match: &Match) -> Option<Range<usize>> {
        (self.turn == Some(the_match.turn()) && !self.moves.is_empty()).then(|| self.moves.clone())
    }
}

fn note_recap(
    mut started: MessageReader<PersonTurnStarted>,
    the_match: Res<Match>,
    mut recap: ResMut<Recap>,
) {
    for start in started.read() {
        recap.set_if_neq(Recap {
            turn: Some(start.turn),
            moves: Recap::since_last_turn(the_match.game(), start.player),
        });
    }
}

/// Asks for the moves since the last turn to be played again on the board.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ReplayRequested;

/// A replay under way.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Replay {
    /// The next position to show (moves played), the last, and the time left before it.
    pub step: Option<ReplayStep>,
}

/// Where a replay is.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayStep {
    /// The position shown last (moves played).
    pub shown: usize,
    /// The live position's move count, where the replay ends.
    pub end: usize,
    /// Seconds until the next move is shown.
    pub wait: f32,
}

/// Starts a replay: the review goes to the position before the first move of the recap.
fn start_replays(
    mut requests: MessageReader<ReplayRequested>,
    the_match: Res<Match>,
    recap: Res<Recap>,
    phase: Res<State<TurnPhase>>,
    review: Res<Review>,
    mut replay: ResMut<Replay>,
    mut steps: MessageWriter<ReviewRequested>,
) {
    if requests.read().count() == 0 || replay.step.is_some() {
        return;
    }
    let Some(moves) = recap.current(&the_match) else {
        return;
    };
    if *phase.get() != TurnPhase::AwaitingInput || review.ply.is_some() {
        return;
    }
    steps.write(ReviewRequested::Ply(moves.start));
    replay.step = Some(ReplayStep {
        shown: moves.start,
        end: moves.end,
        wait: REPLAY_STEP_SECONDS,
    });
}

/// Shows the next move of a replay when its time comes, and ends at the live position. Any
/// other change of the review (a key, the move list) or of the match stops it.
fn step_replay(
    time: Res<Time>,
    the_match: Res<Match>,
    review: Res<Review>,
    mut replay: ResMut<Replay>,
    mut steps: MessageWriter<ReviewRequested>,
    mut redraw: Redraw,
) {
    let Some(step) = replay.step.as_mut() else {
        return;
    };
    if review.shown_ply(&the_match) != step.shown || the_match.game().len() != step.end {
        replay.step = None;
        return;
    }
    step.wait -= time.delta_secs();
    if step.wait > 0.0 {
        redraw.within(std::time::Duration::from_secs_f32(step.wait));
        return;
    }
    step.shown += 1;
    step.wait = REPLAY_STEP_SECONDS;
    if step.shown >= step.end {
        steps.write(ReviewRequested::Live);
        replay.step = None;
    } else {
        steps.write(ReviewRequested::Ply(step.shown));
    }
}
