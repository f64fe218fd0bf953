//! Why the rules system refuses a click or a move request, and whether a mover may move now:
//! [`BoardRefusal`], [`turn_refusal`] and the [`TurnGate`] systems ask it through.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use qiguo_rules::{IllegalMove, Kingdom, Move, PieceKind};

use super::{Dialog, Match, Mover, Review, SeatAuthority, TurnPhase};

/// Why a click or a move request did nothing. Every reason the board gives lives here; the
/// interface words it (`BoardRefusal::text`, in `game::wording`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardRefusal {
    /// A move is still being shown.
    Animating,
    /// The game has ended.
    GameOver,
    /// Players are looking at an earlier position.
    Reviewing,
    /// The kingdom to move is played by the computer.
    ComputerPlays(Kingdom),
    /// A dialog waits for an answer (see [`Dialog`]).
    DialogOpen,
    /// The move attacks an ally and waits for the player to confirm it.
    AllyQuestionOpen,
    /// The request was made for another turn, another game or another player of the kingdom
    /// (the match changed since). Nobody did anything wrong: it is not shown to the players.
    Outdated,
    /// The move is not legal in the position.
    Illegal(IllegalMove),
    /// The clicked stone of the kingdom to move cannot move.
    NowhereToGo(PieceKind),
    /// The clicked stone belongs to another kingdom.
    NotYourStone {
        /// The stone's kingdom.
        owner: Kingdom,
        /// The stone's piece.
        kind: PieceKind,
        /// The kingdom to move.
        to_move: Kingdom,
    },
    /// The kingdom to move is played on another machine.
    RemotePlays(Kingdom),
    /// In an online game the server plays the moves: the request went there. Not shown (the
    /// server's answer is).
    SentToServer,
    /// The Emperor's point was clicked.
    Emperor,
    /// An empty point was clicked with no stone selected.
    PickAStone(Kingdom),
    /// The move box's text is not a move (as typed, lowercased).
    Unreadable(String),
    /// `concede` was typed: conceding goes through its own question.
    ConcedeTyped,
    /// In a lesson: a legal move, but not what the step asks for.
    OffLesson(Move),
    /// In a lesson: the step is done; the lesson goes on, or is over.
    LessonDone,
    /// In *Learn from your mistakes*: the question is answered (or being judged); the card
    /// says what comes next.
    ExerciseDone,
}

impl BoardRefusal {
    /// Whether players should be told (an outdated request is nobody's mistake).
    pub fn is_shown(&self) -> bool {
        !matches!(self, BoardRefusal::Outdated | BoardRefusal::SentToServer)
    }
}

/// Whether `by` may ask for a move now, or why not. The same answer holds for a person's
/// clicks: only legality and the freshness of a request are checked later, when it is applied.
fn turn_refusal(
    the_match: &Match,
    phase: TurnPhase,
    review: &Review,
    dialog: Dialog,
    by: Mover,
    seats: &SeatAuthority,
) -> Option<BoardRefusal> {
    let k = the_match.position().to_move();
    let refusal = if phase == TurnPhase::Animating {
        BoardRefusal::Animating
    } else if phase == TurnPhase::GameOver || the_match.position().is_over() {
        BoardRefusal::GameOver
    } else if phase == TurnPhase::Reviewing || review.ply.is_some() {
        BoardRefusal::Reviewing
    } else if dialog != Dialog::None {
        BoardRefusal::DialogOpen
    } else {
        let player = the_match.position().player_of(k);
        match (by, the_match.computer(k)) {
            (Mover::Person, Some(_)) => BoardRefusal::ComputerPlays(k),
            (Mover::Person, None) if !seats.plays_here(player) => BoardRefusal::RemotePlays(k),
            (Mover::Computer(level), held) if held != Some(level) => BoardRefusal::Outdated,
            (Mover::Remote, _) if !seats.follows_server() => BoardRefusal::Outdated,
            _ => return None,
        }
    };
    Some(refusal)
}

/// Everything [`turn_refusal`] reads but the match, for the systems that ask whether a mover may
/// move now: one system parameter instead of four resources each.
#[derive(SystemParam)]
pub(crate) struct TurnGate<'w> {
    phase: Res<'w, State<TurnPhase>>,
    dialog: Res<'w, State<Dialog>>,
    review: Res<'w, Review>,
    seats: Res<'w, SeatAuthority>,
}

impl TurnGate<'_> {
    /// Why `by` may not move now in `the_match`, if it may not.
    pub(crate) fn refusal(&self, the_match: &Match, by: Mover) -> Option<BoardRefusal> {
        self.refusal_under(the_match, by, &self.seats)
    }

    /// As [`TurnGate::refusal`], with these seats instead of the board's.
    pub(crate) fn refusal_under(
        &self,
        the_match: &Match,
        by: Mover,
        seats: &SeatAuthority,
    ) -> Option<BoardRefusal> {
        turn_refusal(
            the_match,
            *self.phase.get(),
            &self.review,
            *self.dialog.get(),
            by,
            seats,
        )
    }

    /// The seats: who decides each.
    pub(crate) fn seats(&self) -> &SeatAuthority {
        &self.seats
    }

    /// The turn's phase.
    pub(crate) fn phase(&self) -> TurnPhase {
        *self.phase.get()
    }
}
