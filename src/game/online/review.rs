//! Reviews online: the review of a finished game on the board, asked of its server (which
//! reviews every finished quick, table or rated game, and any a player asks for), and asked again
//! when the server says it is ready; what it says goes to the game's review
//! ([`crate::game::review::Reviewed`]), which the Game report draws.

use bevy::prelude::*;
use qiguo_protocol::{Answer, Ask, Event, GameId, ReviewStatus};

use super::shared::{Answered, Online, OnlineSystems, Pending, SignedIn, Told};
use crate::game::review::{ReviewShown, Reviewed};
use crate::game::state::{Match, Notice, SeatAuthority};
use crate::i18n::Tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineReview>().add_systems(
        Update,
        (ask_when_over, read_answers, ask_again_when_ready)
            .chain()
            .in_set(OnlineSystems::Concerns),
    );
}

/// The requests for reviews asked, and the game asked about last.
#[derive(Resource, Default)]
struct OnlineReview {
    pending: Pending<GameId>,
    asked: Option<GameId>,
}

/// Asks for the review of the game on the board once it is over (once per game, and again
/// after signing in anew).
fn ask_when_over(
    the_match: Res<Match>,
    seats: Res<SeatAuthority>,
    mut signed_in: MessageReader<SignedIn>,
    mut online: ResMut<Online>,
    mut asking: ResMut<OnlineReview>,
    mut reviewed: ResMut<Reviewed>,
) {
    if signed_in.read().last().is_some() {
        asking.asked = None;
    }
    if !seats.follows_server() || !the_match.position().is_over() {
        return;
    }
    let Some(table) = &online.table else {
        return;
    };
    if asking.asked.as_ref() == Some(&table.id) {
        return;
    }
    let game = table.id.clone();
    let turn = the_match.turn();
    asking.asked = Some(game.clone());
    if reviewed.done_for(turn).is_none() {
        reviewed.set(turn, ReviewShown::Waiting);
    }
    let ask = Ask::Review { game: game.clone() };
    asking.pending.ask(&mut online, ask, game);
}

/// Takes in what the server says of the review of the game on the board.
fn read_answers(
    mut answers: MessageReader<Answered>,
    mut asking: ResMut<OnlineReview>,
    online: Res<Online>,
    the_match: Res<Match>,
    mut reviewed: ResMut<Reviewed>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for (game, answer) in asking.pending.answers(answers.read(), &mut notices, *tr) {
        let Answer::Review(view) = answer else {
            continue;
        };
        let on_board = online.table.as_ref().is_some_and(|t| t.id == game);
        if !on_board || view.game != game {
            continue;
        }
        let status = match &view.status {
            ReviewStatus::Waiting => ReviewShown::Waiting,
            ReviewStatus::Done { review } => {
                ReviewShown::Done(std::sync::Arc::new((**review).clone()))
            }
            ReviewStatus::Failed { why } => ReviewShown::Failed(why.clone()),
        };
        reviewed.set(the_match.turn(), status);
    }
}

/// The server says a review is ready: the game on board's is asked for again.
fn ask_again_when_ready(
    mut told: MessageReader<Told>,
    mut online: ResMut<Online>,
    mut asking: ResMut<OnlineReview>,
) {
    for Told(event) in told.read() {
        let Event::ReviewReady { game } = event else {
            continue;
        };
        if online.table.as_ref().is_some_and(|t| t.id == *game) {
            let ask = Ask::Review { game: game.clone() };
            asking.pending.ask(&mut online, ask, game.clone());
        }
    }
}
