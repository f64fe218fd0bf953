//! Conceding a kingdom: a confirmation that says what becomes of its army under the rules in
//! force, then the concession is requested like a move (and can be taken back like one). When
//! no person is left in a game that still goes on, an offer: let the computers finish at the
//! instant pace, or start a new game.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::RichText;
use qiguo_rules::Move;

use crate::game::pace::{Pace, PaceChoice};
use crate::game::state::{Match, MatchReset, MoveRequested, Mover, Turn, TurnGate, TurnPhase};
use crate::game::ui::describe::MoveDescription;
use crate::game::ui::dialogs::NewGameForm;
use crate::game::widgets::WithinTheScreen;
use crate::i18n::Tr;
use crate::tr;

/// The concession being confirmed, and the offer once no person is left.
#[derive(Resource, Default, Debug)]
pub(crate) struct ConcedeForm {
    /// The turn the confirmation was opened at (it closes when the turn goes).
    pub(crate) asking: Option<Turn>,
    /// The game (by generation) whose end-without-people offer was answered.
    answered: Option<u64>,
    /// The pace the player had chosen before letting the computers finish at once.
    pace_before: Option<PaceChoice>,
}

impl ConcedeForm {
    /// Opens the confirmation for the turn now.
    pub(crate) fn open(&mut self, the_match: &Match) {
        self.asking = Some(the_match.turn());
    }
}

/// `concede` typed in the move box (or its key) opens the confirmation, as the button does,
/// and says in words what it asks, for a player who does not see it.
pub(super) fn open_when_typed(
    mut asked: MessageReader<crate::game::telling::ConcedeAsked>,
    mut form: ResMut<ConcedeForm>,
    the_match: Res<Match>,
    mut told: MessageWriter<crate::game::telling::Told>,
    tr: Res<Tr>,
) {
    if asked.read().count() > 0 {
        form.open(&the_match);
        let tr = *tr;
        let kingdom = the_match.position().to_move();
        let (consequence, ends) = concession(&the_match, tr);
        let mut words = vec![tr!(tr, "concede-title", kingdom = tr.kingdom(kingdom))];
        words.extend(consequence);
        words.extend(ends);
        words.push(tr!(
            tr,
            "concede-keys",
            confirm = tr!(tr, "concede-confirm", kingdom = tr.kingdom(kingdom)),
            cancel = tr.text("dialog-cancel")
        ));
        told.write(crate::game::telling::Told(words.join(" ")));
    }
}

/// What conceding now would do, from the rules themselves: the move's sentence, and the end
/// it brings, if it does.
fn concession(the_match: &Match, tr: Tr) -> (Option<String>, Option<String>) {
    let mut after = the_match.position().clone();
    let consequence = after
        .play(Move::CONCEDE)
        .ok()
        .map(|report| MoveDescription::of(&report).sentence(tr, the_match.game().len() + 1));
    let ends = after.outcome().map(|outcome| {
        tr!(
            tr,
            "concede-ends",
            kingdom = tr.kingdom(outcome.winner),
            how = tr.victory(outcome.victory)
        )
    });
    (consequence, ends)
}

/// The confirmation: who concedes, what becomes of its army, and the buttons.
#[allow(clippy::too_many_arguments)]
pub(super) fn concede_dialog(
    mut contexts: EguiContexts,
    mut form: ResMut<ConcedeForm>,
    the_match: Res<Match>,
    gate: TurnGate,
    mut requests: MessageWriter<MoveRequested>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let Some(turn) = form.asking else {
        return Ok(());
    };
    if turn != the_match.turn() {
        form.asking = None;
        return Ok(());
    }
    let pos = the_match.position();
    let kingdom = pos.to_move();
    let refusal = gate.refusal(&the_match, Mover::Person);
    let (consequence, ends) = concession(&the_match, tr);
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    crate::game::widgets::centred_dialog(
        "Concede",
        tr!(tr, "concede-title", kingdom = tr.kingdom(kingdom)),
    )
    .open(&mut open)
    .show_within_screen(ctx, |ui| {
        ui.set_max_width(420.0);
        if let Some(refusal) = &refusal {
            ui.label(refusal.text(tr));
            if ui.button(tr.text("dialog-cancel")).clicked() {
                form.asking = None;
            }
            return;
        }
        ui.label(tr.text("concede-explain"));
        if let Some(text) = &consequence {
            ui.label(RichText::new(text).strong());
        }
        if let Some(ends) = &ends {
            ui.label(ends);
        }
        ui.label(
            RichText::new(tr!(
                tr,
                "concede-undo",
                key = crate::game::keyboard::UNDO.label()
            ))
            .small()
            .weak(),
        );
        ui.horizontal(|ui| {
            if ui
                .button(
                    RichText::new(tr!(tr, "concede-confirm", kingdom = tr.kingdom(kingdom)))
                        .strong(),
                )
                .clicked()
            {
                requests.write(MoveRequested::by_person(&the_match, Move::CONCEDE));
                form.asking = None;
            }
            if ui.button(tr.text("dialog-cancel")).clicked() {
                form.asking = None;
            }
        });
    });
    if !open {
        form.asking = None;
    }
    Ok(())
}

/// Once every person's kingdom is out of a game that goes on, offers to let the computers
/// finish at the instant pace or to start a new game (once per game).
#[allow(clippy::too_many_arguments)]
pub(super) fn finish_offer(
    mut contexts: EguiContexts,
    mut form: ResMut<ConcedeForm>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    mut pace: ResMut<Pace>,
    mut new_game: ResMut<NewGameForm>,
    mut told: MessageWriter<crate::game::telling::Told>,
    mut told_for: Local<Option<u64>>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let generation = the_match.turn().generation;
    let had_people = the_match.players().iter().any(|p| p.computer.is_none());
    if !had_people
        || the_match.has_person()
        || the_match.position().is_over()
        || *phase.get() == TurnPhase::Reviewing
        || form.answered == Some(generation)
    {
        return Ok(());
    }
    // Said once in words too, for a player who does not see the offer.
    if *told_for != Some(generation) {
        *told_for = Some(generation);
        told.write(crate::game::telling::Told(format!(
            "{} {} {}",
            tr.text("finish-title"),
            tr.text("finish-explain"),
            tr!(
                tr,
                "finish-keys",
                instant = tr.text("finish-instant"),
                watch = tr.text("finish-watch"),
                new = tr.text("menu-new-game")
            )
        )));
    }
    let ctx = contexts.ctx_mut()?;
    crate::game::widgets::centred_dialog("No person left", tr.text("finish-title"))
        .show_within_screen(ctx, |ui| {
            ui.label(tr.text("finish-explain"));
            ui.horizontal(|ui| {
                if ui
                    .button(RichText::new(tr.text("finish-instant")).strong())
                    .clicked()
                {
                    if pace.0 != PaceChoice::Instant {
                        form.pace_before = Some(pace.0);
                        pace.0 = PaceChoice::Instant;
                    }
                    form.answered = Some(generation);
                }
                if ui.button(tr.text("finish-watch")).clicked() {
                    form.answered = Some(generation);
                }
                if ui.button(tr.text("menu-new-game")).clicked() {
                    new_game.open = true;
                    form.answered = Some(generation);
                }
            });
        });
    Ok(())
}

/// A new game goes back to the pace the player had chosen.
pub(super) fn restore_pace(
    mut resets: MessageReader<MatchReset>,
    mut form: ResMut<ConcedeForm>,
    mut pace: ResMut<Pace>,
) {
    if resets.read().count() > 0
        && let Some(before) = form.pace_before.take()
    {
        pace.0 = before;
    }
}
