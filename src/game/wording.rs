//! How the rules system's refusals are said in the interface's language: the wording of
//! [`Refusal`] and of the rules engine's [`IllegalMove`], from the Fluent messages. The rules
//! system only decides; the status line, the lesson card, the concession question and the
//! notices word its decisions here.

use qiguo_rules::IllegalMove;

use crate::game::keys;
use crate::game::state::{Refusal, Said};
use crate::i18n::Tr;
use crate::tr;

crate::i18n::display_in_english!(Refusal);

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

impl Refusal {
    /// The reason in the interface's language.
    pub fn text(&self, tr: Tr) -> String {
        match self {
            Refusal::Animating => tr.text("refusal-animating"),
            Refusal::GameOver => tr.text("refusal-game-over"),
            Refusal::Reviewing => tr!(tr, "refusal-reviewing", key = keys::REVIEW_LIVE.label()),
            Refusal::ComputerPlays(k) => tr!(tr, "refusal-computer", kingdom = tr.kingdom(*k)),
            Refusal::DialogOpen => tr.text("refusal-dialog"),
            Refusal::AllyQuestionOpen => tr.text("refusal-ally-question"),
            Refusal::Outdated => tr.text("refusal-outdated"),
            Refusal::RemotePlays(k) => tr!(tr, "refusal-remote", kingdom = tr.kingdom(*k)),
            Refusal::SentToServer => tr.text("refusal-sent-to-server"),
            Refusal::Illegal(e) => illegal_text(tr, e),
            Refusal::NowhereToGo(kind) => {
                tr!(tr, "refusal-nowhere", piece = tr.piece_in_text(*kind))
            }
            Refusal::NotYourStone {
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
            Refusal::Emperor => tr.text("refusal-emperor"),
            Refusal::PickAStone(k) => tr!(tr, "refusal-pick", kingdom = tr.kingdom(*k)),
            Refusal::Unreadable(text) => tr!(tr, "refusal-unreadable", text = text.as_str()),
            Refusal::ConcedeTyped => tr.text("refusal-concede-typed"),
            Refusal::OffLesson(mv) => tr!(tr, "refusal-off-lesson", mv = mv.to_string()),
            Refusal::LessonDone => tr.text("refusal-lesson-done"),
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
