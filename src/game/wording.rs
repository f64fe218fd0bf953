//! How the rules system's refusals are said in the interface's language: the wording of
//! [`BoardRefusal`] and of the rules engine's [`IllegalMove`], from the Fluent messages. The rules
//! system only decides; the status line, the lesson card, the concession question and the
//! notices word its decisions here.

use qiguo_rules::IllegalMove;

use crate::game::keyboard;
use crate::game::state::{BoardRefusal, Said};
use crate::i18n::Tr;
use crate::tr;

crate::i18n::display_in_english!(BoardRefusal);

impl Said {
    /// What it says, in the interface's language.
    pub fn text(&self, tr: Tr) -> String {
        match self {
            Said::Words(words) => words.clone(),
            Said::Message(id) => tr.text(id),
            Said::Refused(refusal) => refusal.text(tr),
        }
    }
}

impl BoardRefusal {
    /// The reason in the interface's language.
    pub fn text(&self, tr: Tr) -> String {
        match self {
            BoardRefusal::Animating => tr.text("refusal-animating"),
            BoardRefusal::GameOver => tr.text("refusal-game-over"),
            BoardRefusal::Reviewing => {
                tr!(tr, "refusal-reviewing", key = keyboard::REVIEW_LIVE.label())
            }
            BoardRefusal::ComputerPlays(k) => tr!(tr, "refusal-computer", kingdom = tr.kingdom(*k)),
            BoardRefusal::DialogOpen => tr.text("refusal-dialog"),
            BoardRefusal::AllyQuestionOpen => tr.text("refusal-ally-question"),
            BoardRefusal::Outdated => tr.text("refusal-outdated"),
            BoardRefusal::RemotePlays(k) => tr!(tr, "refusal-remote", kingdom = tr.kingdom(*k)),
            BoardRefusal::SentToServer => tr.text("refusal-sent-to-server"),
            BoardRefusal::Illegal(e) => illegal_text(tr, e),
            BoardRefusal::NowhereToGo(kind) => {
                tr!(tr, "refusal-nowhere", piece = tr.piece_in_text(*kind))
            }
            BoardRefusal::NotYourStone {
                owner,
                kind,
                to_move,
            } => tr!(
                tr,
                "refusal-not-yours",
                owner = tr.kingdom(*owner),
                piece = tr.piece_in_text(*kind),
                mover = tr.kingdom(*to_move)
            ),
            BoardRefusal::Emperor => tr.text("refusal-emperor"),
            BoardRefusal::PickAStone(k) => tr!(tr, "refusal-pick", kingdom = tr.kingdom(*k)),
            BoardRefusal::Unreadable(text) => tr!(tr, "refusal-unreadable", text = text.as_str()),
            BoardRefusal::ConcedeTyped => tr.text("refusal-concede-typed"),
            BoardRefusal::OffLesson(mv) => tr!(tr, "refusal-off-lesson", mv = mv.to_string()),
            BoardRefusal::LessonDone => tr.text("refusal-lesson-done"),
            BoardRefusal::ExerciseDone => tr.text("refusal-exercise-done"),
        }
    }
}

/// Why a move is not legal, in the interface's language.
pub(crate) fn illegal_text(tr: Tr, e: &IllegalMove) -> String {
    match e {
        IllegalMove::GameOver => tr.text("refusal-game-over"),
        IllegalMove::NoPiece(p) => tr!(tr, "illegal-no-piece", point = p.to_string()),
        IllegalMove::NotYourPiece { piece, to_move } => tr!(
            tr,
            "illegal-not-yours",
            piece = tr.piece_in_text(piece.kind),
            owner = tr.kingdom(piece.kingdom),
            mover = tr.kingdom(*to_move)
        ),
        IllegalMove::Unreachable { piece, mv } => tr!(
            tr,
            "illegal-unreachable",
            owner = tr.kingdom(piece.kingdom),
            piece = tr.piece_in_text(piece.kind),
            mv = mv.to_string()
        ),
        IllegalMove::PassNotAllowed => tr.text("illegal-pass-not-allowed"),
        IllegalMove::MustPass => tr.text("illegal-must-pass"),
    }
}
