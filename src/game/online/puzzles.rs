//! Puzzles online: the puzzles mined from the server's reviewed games, asked for from the
//! *Online…* window's section (the day's, or the next nearest the player's puzzle rating there)
//! and played on the board as the game's own are (`game::practice`); the first try at each is
//! sent to the server, which rates it, and what it says comes back to the card.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::{Answer, Ask, PuzzleWanted};

use super::shared::{Answered, Online, OnlineSystems, Pending, SignedIn};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::practice::puzzles::{
    PuzzleRatedOnServer, PuzzleTriedOnServer, PuzzlesRequested, ServerPuzzle, ServerPuzzleWanted,
};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlinePuzzles>()
        .add_message::<AskServerPuzzle>()
        .add_systems(
            Update,
            (forget_once_signed_in, ask, send_tries, read_answers)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Puzzles, section);
}

/// Ask the server for one of its puzzles.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct AskServerPuzzle(pub PuzzleWanted);

/// The requests asked, and the player's puzzle rating on this server once known.
#[derive(Resource, Debug, Default)]
pub struct OnlinePuzzles {
    /// The player's puzzle rating here, as shown, once a puzzle came.
    pub solver: Option<i64>,
    pending: Pending<()>,
}

/// Signed in (again): the rating known is another session's.
fn forget_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut puzzles: ResMut<OnlinePuzzles>,
) {
    if signed_in.read().last().is_some() {
        puzzles.solver = None;
    }
}

/// Asks for a puzzle: from the section, or the next after a server's puzzle on the board.
fn ask(
    mut asked: MessageReader<AskServerPuzzle>,
    mut next: MessageReader<ServerPuzzleWanted>,
    mut puzzles: ResMut<OnlinePuzzles>,
    mut online: ResMut<Online>,
) {
    let wanted = asked
        .read()
        .map(|AskServerPuzzle(which)| which.clone())
        .chain(next.read().map(|_| PuzzleWanted::Next))
        .collect::<Vec<_>>();
    for which in wanted {
        puzzles.pending.ask(&mut online, Ask::Puzzle { which }, ());
    }
}

/// Sends the first try at a server's puzzle.
fn send_tries(
    mut tried: MessageReader<PuzzleTriedOnServer>,
    mut puzzles: ResMut<OnlinePuzzles>,
    mut online: ResMut<Online>,
) {
    for try_ in tried.read() {
        let ask = Ask::PuzzleTried {
            id: try_.id.clone(),
            solved: try_.solved,
        };
        puzzles.pending.ask(&mut online, ask, ());
    }
}

/// A puzzle come: asked on the board; a try rated: told to the card.
fn read_answers(
    mut answers: MessageReader<Answered>,
    mut puzzles: ResMut<OnlinePuzzles>,
    mut requested: MessageWriter<PuzzlesRequested>,
    mut rated: MessageWriter<PuzzleRatedOnServer>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let mut solver = puzzles.solver;
    for ((), answer) in puzzles.pending.answers(answers.read(), &mut notices, *tr) {
        match answer {
            Answer::Puzzle(view) => {
                solver = Some(view.solver);
                requested.write(PuzzlesRequested {
                    given: Some(ServerPuzzle {
                        puzzle: view.puzzle.clone(),
                        daily: view.daily,
                        solver: view.solver,
                        tried: view.tried,
                    }),
                    ..default()
                });
            }
            Answer::PuzzleRated(done) => {
                solver = Some(done.after);
                rated.write(PuzzleRatedOnServer {
                    id: done.id.clone(),
                    before: done.before,
                    after: done.after,
                });
            }
            _ => {}
        }
    }
    if puzzles.solver != solver {
        puzzles.solver = solver;
    }
}

/// The section: the day's puzzle and the next for you, from this server's games.
fn section(
    InMut(ui): InMut<egui::Ui>,
    puzzles: Res<OnlinePuzzles>,
    online: Res<Online>,
    mut asked: MessageWriter<AskServerPuzzle>,
    tr: Res<Tr>,
) {
    if !online.in_touch() {
        return;
    }
    let tr = *tr;
    egui::CollapsingHeader::new(tr.text("online-puzzles"))
        .id_salt("puzzles")
        .show(ui, |ui| {
            ui.label(
                RichText::new(tr.text("online-puzzles-intro"))
                    .small()
                    .color(Color32::from_gray(170)),
            );
            if let Some(rating) = puzzles.solver {
                ui.label(tr!(tr, "online-puzzles-rating", rating = rating));
            }
            ui.horizontal_wrapped(|ui| {
                if ui.button(tr.text("puzzles-daily")).clicked() {
                    asked.write(AskServerPuzzle(PuzzleWanted::Daily));
                }
                if ui.button(tr.text("puzzles-for-you")).clicked() {
                    asked.write(AskServerPuzzle(PuzzleWanted::Next));
                }
            });
        });
}
