//! The canonical game state and the rules system, the only system that changes it: the match
//! and its turn ([`game_match`]), the messages that request and report changes ([`messages`]),
//! why a request is refused ([`refusal`]; worded by the interface, `game::wording`), the rules
//! systems ([`rules`]) and who decides each seat ([`seats`]).

use bevy::prelude::*;

mod game_match;
mod messages;
mod refusal;
mod rules;
mod seats;

pub use game_match::{Dialog, Match, Review, Turn, TurnPhase};
pub use messages::*;
pub use refusal::BoardRefusal;
pub(crate) use refusal::TurnGate;
use rules::*;
pub use seats::{SeatAuthority, SeatHolder};

use crate::game::schedule::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<TurnPhase>()
        .init_state::<Dialog>()
        .add_message::<MoveRequested>()
        .add_systems(
            Last,
            crate::game::frames::one_more_frame_when_written::<MoveRequested>
                .in_set(crate::game::frames::AskFrames),
        )
        .add_message::<MoveApplied>()
        .add_message::<MoveRejected>()
        .add_message::<MoveShown>()
        .add_message::<NewGameRequested>()
        .add_message::<HintUsed>()
        .add_message::<MatchReset>()
        .add_message::<SeatChangeRequested>()
        .add_message::<GameFromServer>()
        .add_message::<PlayersFromServer>()
        .add_message::<UndoRequested>()
        .add_message::<RedoRequested>()
        .add_message::<ReviewRequested>()
        .add_message::<ShownPositionChanged>()
        .add_message::<Notice>()
        .init_resource::<Review>()
        .init_resource::<SeatAuthority>()
        .add_systems(Startup, phase_from_match)
        .add_systems(Last, log_the_turns_steps)
        .add_systems(
            Update,
            (
                start_new_games,
                change_seats,
                undo_and_redo,
                review,
                apply_move_requests,
                count_hints,
                follow_seat_authority,
                // Last: the next phase follows the match as the other requests left it.
                hand_on_turn,
            )
                .chain()
                .in_set(AppSystems::ApplyRules),
        );
}

/// Each step of a turn, logged at debug level (`RUST_LOG=qiguo=debug`, a page's
/// `?log=qiguo=debug`): where a turn that does not move on stopped.
fn log_the_turns_steps(
    mut steps: MessageReader<StateTransitionEvent<TurnPhase>>,
    the_match: Res<Match>,
) {
    for step in steps.read() {
        debug!(
            "move {}: {:?} → {:?}",
            the_match.game().len() + 1,
            step.exited,
            step.entered
        );
    }
}
