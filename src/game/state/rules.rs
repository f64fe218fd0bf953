//! The rules systems, in the frame's order: new games, seats, undo and redo, review, moves,
//! hints, the seats' authority, and the turn handed on. Only these change [`Match`].

use bevy::prelude::*;

use super::*;

pub(super) fn phase_after(the_match: &Match) -> TurnPhase {
    if the_match.position().is_over() {
        TurnPhase::GameOver
    } else if the_match.computer_to_move() {
        TurnPhase::ComputerThinking
    } else {
        TurnPhase::AwaitingInput
    }
}

/// The first phase follows the match: finished, a computer to move, or a person.
pub(super) fn phase_from_match(
    the_match: Res<Match>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    let phase = phase_after(&the_match);
    if phase != TurnPhase::AwaitingInput {
        next_phase.set(phase);
    }
}

/// Hands players' kingdoms to people or computers; the turn follows at once if the kingdom to
/// move changed hands (a computer starts thinking, or stops and leaves it to the person).
#[allow(clippy::too_many_arguments)]
pub(super) fn change_seats(
    mut requests: MessageReader<SeatChangeRequested>,
    mut from_server: MessageReader<PlayersFromServer>,
    mut the_match: ResMut<Match>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    seats: Res<SeatAuthority>,
    mut notices: MessageWriter<Notice>,
) {
    let mut changed = false;
    if let Some(PlayersFromServer(players)) = from_server.read().last()
        && seats.follows_server()
        && players.len() == the_match.players.len()
        && *players != the_match.players
    {
        the_match.players = players.clone();
        changed = true;
    }
    for request in requests.read() {
        if seats.follows_server() {
            notices.write(Notice::error_message("online-server-decides"));
            continue;
        }
        let computer = request.computer;
        let seat = request.player as usize;
        if the_match
            .players
            .get(seat)
            .is_some_and(|p| p.computer != computer)
        {
            the_match.players[seat].computer = computer;
            changed = true;
        }
    }
    if changed
        && matches!(
            phase.get(),
            TurnPhase::AwaitingInput | TurnPhase::ComputerThinking
        )
    {
        next_phase.set(phase_after(&the_match));
    }
}

/// Replaces the match on request.
#[allow(clippy::too_many_arguments)]
pub(super) fn start_new_games(
    mut requests: MessageReader<NewGameRequested>,
    mut from_server: MessageReader<GameFromServer>,
    mut the_match: ResMut<Match>,
    mut review: ResMut<Review>,
    mut reset: MessageWriter<MatchReset>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    seats: Res<SeatAuthority>,
    mut notices: MessageWriter<Notice>,
) {
    let local = requests.read().last();
    let served = from_server.read().last();
    let (game, players, hints) = match (local, served) {
        (_, Some(sent)) if seats.follows_server() => (&sent.game, &sent.players, [0; 7]),
        (Some(_), _) if seats.follows_server() => {
            notices.write(Notice::error_message("online-leave-first"));
            return;
        }
        (Some(request), _) => (&request.game, &request.players, request.hints),
        _ => return,
    };
    let generation = the_match.generation + 1;
    *the_match = Match {
        generation,
        hints,
        ..Match::from_game(game.clone(), players.clone())
    };
    *review = Review::default();
    reset.write(MatchReset);
    next_phase.set(phase_after(&the_match));
}

/// Takes moves back and plays them again. Refused while a move is being shown.
#[allow(clippy::too_many_arguments)]
pub(super) fn undo_and_redo(
    mut undo: MessageReader<UndoRequested>,
    mut redo: MessageReader<RedoRequested>,
    mut the_match: ResMut<Match>,
    mut review: ResMut<Review>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut shown: MessageWriter<ShownPositionChanged>,
    mut notices: MessageWriter<Notice>,
    seats: Res<SeatAuthority>,
) {
    let undos = undo.read().count();
    let redos = redo.read().count();
    if undos + redos == 0 {
        return;
    }
    if seats.follows_server() {
        // A take-back is asked of the server by the online code; only the server plays moves
        // again.
        if redos > 0 {
            notices.write(Notice::error_message("online-server-decides"));
        }
        return;
    }
    if *phase.get() == TurnPhase::Animating {
        notices.write(Notice::refused(BoardRefusal::Animating));
        return;
    }
    let mut changed = 0;
    let unmarked = the_match.bypass_change_detection();
    for _ in 0..undos {
        changed += unmarked.undo_to_person();
    }
    for _ in 0..redos {
        changed += unmarked.redo_to_person();
    }
    if changed == 0 {
        let id = if undos > 0 {
            "nothing-to-undo"
        } else {
            "nothing-to-redo"
        };
        notices.write(Notice::error_message(id));
        return;
    }
    the_match.set_changed();
    *review = Review::default();
    shown.write(ShownPositionChanged);
    // `set`, not `set_if_neq`: a computer to move again re-enters ComputerThinking.
    next_phase.set(phase_after(&the_match));
}

/// Moves the review through the game's positions, and back to the game.
pub(super) fn review(
    mut requests: MessageReader<ReviewRequested>,
    the_match: Res<Match>,
    mut review: ResMut<Review>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut shown: MessageWriter<ShownPositionChanged>,
    mut notices: MessageWriter<Notice>,
) {
    let Some(&request) = requests.read().last() else {
        return;
    };
    if *phase.get() == TurnPhase::Animating {
        notices.write(Notice::refused(BoardRefusal::Animating));
        return;
    }
    let len = the_match.game().len();
    let at = review.shown_ply(&the_match);
    let target = match request {
        ReviewRequested::Ply(n) => n.min(len),
        ReviewRequested::First => 0,
        ReviewRequested::Back => at.saturating_sub(1),
        ReviewRequested::Forward => (at + 1).min(len),
        ReviewRequested::Live => len,
    };
    let new = Review {
        ply: (target < len).then_some(target),
    };
    if new == *review {
        return;
    }
    *review = new;
    shown.write(ShownPositionChanged);
    next_phase.set(if new.ply.is_some() {
        TurnPhase::Reviewing
    } else {
        phase_after(&the_match)
    });
}

/// Checks move requests against `Match` and plays the legal one. A request is refused unless it
/// was made for this turn, by whoever now holds the kingdom to move, while the turn awaits it,
/// and `Match` has not changed earlier in this frame; one move at most is taken per frame.
/// Refusals change nothing (`Match` is not even marked changed).
pub(super) fn apply_move_requests(
    mut requests: MessageReader<MoveRequested>,
    mut the_match: ResMut<Match>,
    gate: TurnGate,
    mut applied: MessageWriter<MoveApplied>,
    mut rejected: MessageWriter<MoveRejected>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    // A change by another rules system this frame (a seat, an undo, a new game) outdates
    // every request made before it.
    let mut taken = the_match.is_changed();
    for request in requests.read() {
        let refusal = if taken || request.made_for != the_match.turn() {
            Some(BoardRefusal::Outdated)
        } else if gate.seats().follows_server() && request.by == Mover::Person {
            Some(BoardRefusal::SentToServer)
        } else {
            gate.refusal(&the_match, request.by)
        };
        if let Some(reason) = refusal {
            debug!("move {} refused: {reason}", request.mv);
            rejected.write(MoveRejected {
                mv: request.mv,
                reason,
            });
            continue;
        }
        match the_match.bypass_change_detection().game.play(request.mv) {
            Ok(report) => {
                let report = report.clone();
                the_match.set_changed();
                taken = true;
                applied.write(MoveApplied {
                    report,
                    ply: the_match.game.len(),
                    by: request.by,
                });
                next_phase.set(TurnPhase::Animating);
            }
            Err(e) => {
                rejected.write(MoveRejected {
                    mv: request.mv,
                    reason: BoardRefusal::Illegal(e),
                });
            }
        }
    }
}

/// Counts the hints shown, each for the turn it was found at. The count is not a change of
/// the game: it does not outdate the move requests of the next frame.
pub(super) fn count_hints(mut used: MessageReader<HintUsed>, mut the_match: ResMut<Match>) {
    for hint in used.read() {
        if hint.turn == the_match.turn() {
            the_match.bypass_change_detection().hints[hint.kingdom.index()] += 1;
        }
    }
}

/// When this machine stops following a server, the turn is taken up again here: a computer to
/// move starts thinking (the server played the computers until now), or a person may move. The
/// match itself is unchanged: the same game, the same stones.
pub(super) fn follow_seat_authority(
    seats: Res<SeatAuthority>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut followed_server: Local<bool>,
) {
    let follows = seats.follows_server();
    if std::mem::replace(&mut *followed_server, follows)
        && !follows
        && matches!(
            phase.get(),
            TurnPhase::AwaitingInput | TurnPhase::ComputerThinking
        )
    {
        // `set`, not `set_if_neq`: a computer to move re-enters ComputerThinking.
        next_phase.set(phase_after(&the_match));
    }
}

/// Hands the turn on once a move has been shown: to a person, a computer, or the end.
pub(super) fn hand_on_turn(
    mut shown: MessageReader<MoveShown>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    if shown.read().count() > 0 && *phase.get() == TurnPhase::Animating {
        // `set`, not `set_if_neq`: a computer moving again after a computer re-enters
        // ComputerThinking, which starts its search.
        next_phase.set(phase_after(&the_match));
    }
}
