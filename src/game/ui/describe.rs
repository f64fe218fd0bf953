//! One description of a move, read from its report once and shown two ways: as a sentence (the
//! status line, the move list's hover text) and as the move list's compact row.

use qiguo_rules::{Kingdom, MoveReport, Piece, Standing};

use crate::game::stones::view::stone_characters;
use crate::i18n::Tr;
use crate::tr;

/// A kingdom that fell with a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fall {
    /// It was attacked by its ally `by` and forfeits.
    Forfeited {
        /// The kingdom.
        kingdom: Kingdom,
        /// Its ally that attacked it.
        by: Kingdom,
    },
    /// It was beaten and its army goes to `to`.
    Transferred {
        /// The kingdom.
        kingdom: Kingdom,
        /// The kingdom its army now serves.
        to: Kingdom,
    },
    /// It was beaten by `victor` and its army leaves the board.
    Removed {
        /// The kingdom.
        kingdom: Kingdom,
        /// Who beat it.
        victor: Kingdom,
    },
    /// It was conceded before any kingdom earned it: its army leaves, nobody is credited.
    Left {
        /// The kingdom.
        kingdom: Kingdom,
    },
}

/// What a move did, in the terms players read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveDescription {
    /// The kingdom that moved.
    pub(crate) mover: Kingdom,
    /// The piece that moved with its points, `None` for a pass.
    pub(crate) piece: Option<(Piece, String, String)>,
    /// The piece taken.
    pub(crate) captured: Option<Piece>,
    /// The kingdom that fell.
    pub(crate) fall: Option<Fall>,
    /// Whether the move is the mover's concession.
    pub(crate) conceded: bool,
}

impl MoveDescription {
    /// The description of `report`.
    pub(crate) fn of(report: &MoveReport) -> MoveDescription {
        let point = |p: Option<qiguo_rules::Point>| p.map(|p| p.to_string()).unwrap_or_default();
        let fall = report.fallen.as_ref().and_then(|f| match f.standing {
            Standing::Forfeited { by } => Some(Fall::Forfeited {
                kingdom: f.kingdom,
                by,
            }),
            Standing::Beaten { victor, .. }
            | Standing::Conceded {
                victor: Some(victor),
            } => Some(match f.transferred_to {
                Some(to) => Fall::Transferred {
                    kingdom: f.kingdom,
                    to,
                },
                None => Fall::Removed {
                    kingdom: f.kingdom,
                    victor,
                },
            }),
            Standing::Conceded { victor: None } => Some(Fall::Left { kingdom: f.kingdom }),
            _ => None,
        });
        MoveDescription {
            mover: report.mover,
            piece: report
                .piece
                .map(|p| (p, point(report.mv.from()), point(report.mv.to()))),
            captured: report.captured,
            fall,
            conceded: report.mv.is_concession(),
        }
    }

    /// The move as a sentence: "12. Qin 騎 a13–b15, takes Chu's general 將. Chu is beaten; …".
    pub(crate) fn sentence(&self, tr: Tr, ply: usize) -> String {
        let Some((piece, from, to)) = &self.piece else {
            let id = if self.conceded {
                "move-concedes"
            } else {
                "move-passes"
            };
            let mut text = tr!(tr, id, ply = ply, kingdom = tr.kingdom(self.mover));
            if let Some(fall) = self.fall_text(tr) {
                text.push_str(&fall);
            }
            return text;
        };
        let mut text = tr!(
            tr,
            "move-sentence",
            ply = ply,
            kingdom = tr.kingdom(self.mover),
            piece = stone_characters(*piece),
            from = from.as_str(),
            to = to.as_str()
        );
        if let Some(captured) = self.captured {
            text.push_str(&tr!(
                tr,
                "move-takes",
                owner = tr.kingdom(captured.kingdom),
                piece = tr.piece_in_text(captured.kind),
                characters = stone_characters(captured)
            ));
        }
        if let Some(fall) = self.fall_text(tr) {
            text.push_str(&fall);
        }
        text
    }

    /// What became of the kingdom that fell, to follow the move in a sentence.
    pub(crate) fn fall_text(&self, tr: Tr) -> Option<String> {
        match self.fall {
            Some(Fall::Forfeited { kingdom, by }) => Some(tr!(
                tr,
                "move-forfeits",
                kingdom = tr.kingdom(kingdom),
                ally = tr.kingdom(by)
            )),
            Some(Fall::Transferred { kingdom, to }) => Some(tr!(
                tr,
                "move-beaten-army-to",
                kingdom = tr.kingdom(kingdom),
                victor = tr.kingdom(to)
            )),
            Some(Fall::Removed { kingdom, victor }) => Some(tr!(
                tr,
                "move-beaten-army-leaves",
                kingdom = tr.kingdom(kingdom),
                victor = tr.kingdom(victor)
            )),
            Some(Fall::Left { kingdom }) => {
                Some(tr!(tr, "move-army-leaves", kingdom = tr.kingdom(kingdom)))
            }
            None => None,
        }
    }

    /// The piece and its points in a few characters ("騎 a13–b15"), `None` for a pass.
    pub(crate) fn short_move(&self) -> Option<String> {
        let (piece, from, to) = self.piece.as_ref()?;
        Some(format!("{} {from}–{to}", stone_characters(*piece)))
    }

    /// The fall in a few characters: "楚 forfeits", "楚 to 秦", "楚 falls" (the UI font has no
    /// arrows).
    pub(crate) fn short_fall(&self, tr: Tr) -> Option<String> {
        Some(match self.fall? {
            Fall::Forfeited { kingdom, .. } => {
                tr!(
                    tr,
                    "fall-short-forfeits",
                    kingdom = kingdom.character().to_string()
                )
            }
            Fall::Transferred { kingdom, to } => tr!(
                tr,
                "fall-short-to",
                kingdom = kingdom.character().to_string(),
                victor = to.character().to_string()
            ),
            Fall::Removed { kingdom, .. } | Fall::Left { kingdom } => {
                tr!(
                    tr,
                    "fall-short-falls",
                    kingdom = kingdom.character().to_string()
                )
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Position, Preset, Rules, Seats, fen, notation};

    #[test]
    fn moves_read_as_sentences_and_rows() {
        let mut pos = Position::start(Rules::default());
        let report = pos.play(notation::parse_move("a13b15").unwrap()).unwrap();
        let d = MoveDescription::of(&report);
        assert_eq!(d.sentence(Tr::default(), 1), "1. Qin 騎 a13–b15");
        assert_eq!(d.short_move().as_deref(), Some("騎 a13–b15"));
        assert_eq!(d.short_fall(Tr::default()), None);
    }

    #[test]
    fn falls_read_the_same_both_ways() {
        let setup = fen::parse(
            "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR1rQ5oQ10/19/19/12oG6/5rS4rG3bGbQ3 w",
        )
        .unwrap();
        for (preset, fall, short) in [
            (Preset::Wikipedia, "its army goes to Qin", "楚 to 秦"),
            (
                Preset::Classic,
                "beaten by Qin; its army leaves",
                "楚 falls",
            ),
        ] {
            let mut pos = Position::new(&setup, Rules::preset(preset), Seats::seven()).unwrap();
            let report = pos.play(notation::parse_move("a5c5").unwrap()).unwrap();
            let d = MoveDescription::of(&report);
            let sentence = d.sentence(Tr::default(), 1);
            assert!(sentence.contains("takes Chu's general"), "{sentence}");
            assert!(sentence.contains(fall), "{sentence}");
            assert_eq!(d.short_fall(Tr::default()).as_deref(), Some(short));
        }
    }

    #[test]
    fn a_concession_reads_as_one() {
        let mut pos = Position::start(Rules::default());
        let report = pos.play(qiguo_rules::Move::CONCEDE).unwrap();
        let d = MoveDescription::of(&report);
        assert_eq!(
            d.sentence(Tr::default(), 1),
            "1. Qin concedes. Its army leaves the board"
        );
        assert_eq!(d.short_move(), None);
        assert_eq!(d.short_fall(Tr::default()).as_deref(), Some("秦 falls"));
    }
}
