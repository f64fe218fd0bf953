//! Hints: for a person to move, the move Hard would play, searched in the background (the
//! window stays live) and shown as an arrow with a short reason in words. A new turn cancels a
//! hint being searched or shown. Each hint shown is counted for the kingdom it was for, in the
//! match (so saves and the game report keep it).

pub(crate) mod view;

use bevy::prelude::*;
use qiguo_ai::chances::FITTED;
use qiguo_ai::{Level, Limits};
use qiguo_rules::{Kingdom, Move, PieceKind, Position};

use crate::game::frames::Waker;
use crate::game::schedule::AppSystems;
use crate::game::search::{Search, Searcher};
use crate::game::state::{HintUsed, Match, Mover, Notice, Turn, TurnGate};
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hint>()
        .add_message::<HintRequested>()
        .add_systems(
            Update,
            (
                start_hints.in_set(AppSystems::RecordInput),
                (cancel_stale_hints, finish_hints)
                    .chain()
                    .after(AppSystems::ApplyRules)
                    .before(AppSystems::SyncView),
            ),
        );
}

/// A person asks for a hint (toolbar, key H).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct HintRequested;

/// Why the hinted move is good, in a few words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintReason {
    /// It takes this kingdom's General.
    TakesGeneral(Kingdom),
    /// It takes a piece of this kingdom.
    Takes(Kingdom, PieceKind),
    /// It moves this piece of the mover's out of attack (or, for the General, covers it).
    Saves(PieceKind),
    /// Nothing is taken or saved at once: it is the best move by the position.
    Position,
}

impl HintReason {
    /// The reason for `mv` in `pos` (before the move).
    pub fn of(pos: &Position, mv: Move) -> HintReason {
        let mover = pos.to_move();
        let (Some(from), Some(to)) = (mv.from(), mv.to()) else {
            return HintReason::Position;
        };
        if let Some(victim) = pos.piece_at(to) {
            return if victim.kind == PieceKind::General {
                HintReason::TakesGeneral(victim.kingdom)
            } else {
                HintReason::Takes(victim.kingdom, victim.kind)
            };
        }
        let Some(piece) = pos.piece_at(from) else {
            return HintReason::Position;
        };
        let foes = pos.enemies(mover);
        let mut after = pos.clone();
        if after.play(mv).is_err() {
            return HintReason::Position;
        }
        let general_safe_after = || {
            !after
                .army(mover)
                .any(|(p, q)| q.kind == PieceKind::General && after.is_attacked(p, foes))
        };
        let general_attacked_now = pos
            .army(mover)
            .any(|(p, q)| q.kind == PieceKind::General && pos.is_attacked(p, foes));
        if general_attacked_now && general_safe_after() {
            return HintReason::Saves(PieceKind::General);
        }
        if pos.is_attacked(from, foes) && !after.is_attacked(to, foes) {
            return HintReason::Saves(piece.kind);
        }
        HintReason::Position
    }

    /// The reason in words, for the interface.
    pub fn text(self, tr: Tr) -> String {
        match self {
            HintReason::TakesGeneral(k) => tr!(tr, "hint-takes-general", kingdom = tr.kingdom(k)),
            HintReason::Takes(k, kind) => tr!(
                tr,
                "hint-takes",
                kingdom = tr.kingdom(k),
                piece = tr.piece_in_text(kind)
            ),
            HintReason::Saves(kind) => tr!(tr, "hint-saves", piece = tr.piece_in_text(kind)),
            HintReason::Position => tr.text("hint-position"),
        }
    }
}

/// A hint found for one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShownHint {
    /// The move Hard would play.
    pub mv: Move,
    /// Why.
    pub reason: HintReason,
    /// The player's chance to win after it, in per cent, by the chances fitted on self-play
    /// games (`qiguo_ai::chances`), as the game report's chart reads a position.
    pub chance: u8,
    /// The turn it is for.
    pub turn: Turn,
}

/// The hint being searched or shown, and the engine that finds hints (its own: the computer
/// players' engine remembers the moves it chose, which a hint must not change).
#[derive(Resource)]
pub struct Hint {
    engine: Searcher,
    search: Option<(Search, Turn)>,
    shown: Option<ShownHint>,
    /// Time per hint (Hard's own unless tests ask for a node budget).
    limits: Limits,
}

impl Default for Hint {
    fn default() -> Hint {
        Hint {
            engine: Searcher::new(qiguo_ai::TableSize::entries_log2(17)),
            search: None,
            shown: None,
            limits: Limits {
                threads: Some(qiguo_ai::available_threads()),
                ..Limits::default()
            },
        }
    }
}

impl Hint {
    /// Hints searched within `limits` instead of Hard's own time (tests: the same hint on any
    /// machine).
    pub fn with_limits(limits: Limits) -> Hint {
        Hint {
            limits,
            ..Hint::default()
        }
    }

    /// Whether a hint is being searched.
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// The hint shown, if any.
    pub fn shown(&self) -> Option<ShownHint> {
        self.shown
    }
}

/// Starts a hint for the person to move; refused with the reason the board would give a click
/// when no person here may move now.
#[allow(clippy::too_many_arguments)]
fn start_hints(
    mut requests: MessageReader<HintRequested>,
    the_match: Res<Match>,
    gate: TurnGate,
    mut hint: ResMut<Hint>,
    mut notices: MessageWriter<Notice>,
    waker: Res<Waker>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let turn = the_match.turn();
    if hint.search.as_ref().is_some_and(|(_, t)| *t == turn)
        || hint.shown.is_some_and(|h| h.turn == turn)
    {
        return; // already on its way, or shown
    }
    if let Some(refusal) = gate.refusal(&the_match, Mover::Person) {
        notices.write(Notice::refused(refusal));
        return;
    }
    let search = hint.engine.start(
        the_match.game(),
        Level::Hard,
        hint.limits.clone(),
        turn.ply as u64,
        waker.as_fn(),
    );
    info!("looking for a hint for {}", the_match.position().to_move());
    hint.search = Some((search, turn));
    hint.shown = None;
}

/// A hint whose turn is gone (a move played, taken back, a new game) is dropped, searched or
/// shown.
fn cancel_stale_hints(the_match: Res<Match>, mut hint: ResMut<Hint>) {
    let turn = the_match.turn();
    if hint.search.as_ref().is_some_and(|(_, t)| *t != turn) {
        hint.search = None; // dropping the search stops it
    }
    if hint.shown.is_some_and(|h| h.turn != turn) {
        hint.shown = None;
    }
}

/// A finished search becomes the hint shown, counted for the kingdom to move.
fn finish_hints(the_match: Res<Match>, mut hint: ResMut<Hint>, mut used: MessageWriter<HintUsed>) {
    if !hint.search.as_ref().is_some_and(|(s, _)| s.is_finished()) {
        return;
    }
    let Some((search, turn)) = hint.search.take() else {
        return;
    };
    let Some(result) = search.wait() else {
        return; // a finished game: no move to hint
    };
    let pos = the_match.position();
    info!(
        "hint for {}: {} (depth {}, {} positions)",
        pos.to_move(),
        result.best,
        result.depth,
        result.nodes
    );
    // The chance after the move, as the game report's chart reads a position: the model was
    // fitted on quick searches, and Hard's deeper value would be read beyond what it learned.
    let player = pos.player_of(pos.to_move()) as usize;
    let mut after = pos.clone();
    let chance = match after.play(result.best) {
        Ok(_) => FITTED.player_chances(&after, None)[player],
        Err(_) => FITTED.player_chances(pos, None)[player],
    };
    hint.shown = Some(ShownHint {
        mv: result.best,
        reason: HintReason::of(pos, result.best),
        chance: (chance * 100.0).round().clamp(0.0, 100.0) as u8,
        turn,
    });
    used.write(HintUsed {
        kingdom: pos.to_move(),
        turn,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Rules, notation};

    fn reason(fen: &str, mv: &str) -> HintReason {
        let pos = Position::from_fen(fen, Rules::default()).unwrap();
        HintReason::of(&pos, notation::parse_move(mv).unwrap())
    }

    #[test]
    fn reasons_name_what_the_move_takes_or_saves() {
        // Qin's Chancellor on a5, Chu's General on e5, Chu's knight on a9.
        let fen = "19/19/19/19/19/19/19/19/19/19/rN18/19/19/19/wR3rQ14/19/19/19/wQ18 w";
        assert_eq!(reason(fen, "a5e5"), HintReason::TakesGeneral(Kingdom::Chu));
        // Chu's General attacks both a5 (along the rank) and Qin's General on a1 (diagonally):
        // a5b5 stays in its line and saves neither.
        assert_eq!(reason(fen, "a5b5"), HintReason::Position);
        // Taking Chu's knight on a9 leaves a5, out of the General's line.
        assert_eq!(
            reason(fen, "a5a9"),
            HintReason::Takes(Kingdom::Chu, PieceKind::Knight)
        );
        // Chu's chancellor attacks Qin's General on a1 along the file: moving it saves it.
        let threatened = "17rQ1/19/19/19/19/19/19/19/19/19/rR18/19/19/19/19/19/19/19/wQ18 w";
        assert_eq!(
            reason(threatened, "a1b1"),
            HintReason::Saves(PieceKind::General)
        );
    }
}
