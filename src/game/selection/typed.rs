//! Moves typed in the move box, as the move list writes them (`c10h15`; `--` for a pass): read,
//! checked as a click is (whose turn it is, a dialog open, an ally attacked) and requested like
//! a clicked move, so the rules system refuses an illegal one with the same words. Text that
//! begins with a command's word (`where`, `last`, …) is a command instead: passed on to
//! `game::telling` as a [`CommandTyped`].

use bevy::prelude::*;
use qiguo_rules::{Move, Position, notation};

use crate::game::selection::{
    ClickOutcome, ClickRefused, PersonTurn, Selection, carry_out, play_or_ask,
};
use crate::game::state::{BoardRefusal, MoveRequested};
use crate::game::telling::{self, CommandTyped};
use crate::i18n::Tr;

/// A person typed a move in the move box.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct MoveTyped(pub String);

/// The legal moves whose text begins with what is typed (spaces and case ignored), in the
/// move list's writing and in ASCII order: the whole list for nothing typed, a stone's moves for
/// its point.
pub fn suggestions(pos: &Position, typed: &str) -> Vec<Move> {
    let typed = typed.trim().to_ascii_lowercase();
    let mut found: Vec<(String, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| (mv.to_string(), mv))
        .filter(|(text, _)| text.starts_with(&typed))
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.into_iter().map(|(_, mv)| mv).collect()
}

/// What a typed text asks for: a move to request, or why nothing can be.
fn read(text: &str) -> Result<Move, BoardRefusal> {
    let text = text.trim().to_ascii_lowercase();
    match notation::parse_move(&text) {
        Ok(mv) if mv.is_concession() => Err(BoardRefusal::ConcedeTyped),
        Ok(mv) => Ok(mv),
        Err(_) => Err(BoardRefusal::Unreadable(text)),
    }
}

pub(super) fn handle_typed_moves(
    mut typed: MessageReader<MoveTyped>,
    turn: PersonTurn,
    mut selection: ResMut<Selection>,
    mut requests: MessageWriter<MoveRequested>,
    mut refused: MessageWriter<ClickRefused>,
    mut commands: MessageWriter<CommandTyped>,
    tr: Res<Tr>,
) {
    for MoveTyped(text) in typed.read() {
        if let Some(command) = telling::read(text, *tr) {
            commands.write(CommandTyped(command));
            continue;
        }
        let pos = turn.the_match.position();
        let outcome = match turn.refusal(&selection).map_or_else(|| read(text), Err) {
            Err(reason) => ClickOutcome::Refuse(reason),
            Ok(mv) if pos.is_legal(mv) => play_or_ask(pos, mv),
            // An illegal move goes on to the rules system, which refuses it in words.
            Ok(mv) => ClickOutcome::Play(mv),
        };
        carry_out(
            outcome,
            None,
            &turn,
            &mut selection,
            &mut requests,
            &mut refused,
        );
    }
}

#[cfg(test)]
mod tests {
    use qiguo_rules::{Point, Rules};

    use super::*;

    #[test]
    fn suggestions_follow_what_is_typed() {
        let pos = Position::start(Rules::default());
        let all = suggestions(&pos, "");
        assert_eq!(all.len(), pos.legal_moves().len());
        let texts: Vec<String> = all.iter().map(ToString::to_string).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(texts, sorted);
        // A stone's point: that stone's moves, whatever the case and spaces.
        let from: Point = all[0].from().unwrap();
        let of_stone = suggestions(&pos, &format!("  {}", from.to_string().to_uppercase()));
        assert!(!of_stone.is_empty());
        assert!(
            of_stone
                .iter()
                .all(|mv| mv.to_string().starts_with(&from.to_string()))
        );
        assert_eq!(suggestions(&pos, &all[0].to_string()), vec![all[0]]);
        assert!(suggestions(&pos, "zz").is_empty());
    }

    #[test]
    fn typed_text_is_read_as_the_move_list_writes_it() {
        assert_eq!(
            read(" C10H15 "),
            Ok(notation::parse_move("c10h15").unwrap())
        );
        assert_eq!(read("--"), Ok(Move::PASS));
        assert_eq!(read("concede"), Err(BoardRefusal::ConcedeTyped));
        assert_eq!(read("c10"), Err(BoardRefusal::Unreadable("c10".into())));
    }
}
