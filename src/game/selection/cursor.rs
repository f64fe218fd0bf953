//! The board by keyboard: a cursor walked over the 19 × 19 points, each point it reaches told in
//! words ([`Told`]: what stands there, and whether the selected stone can go there), acting on
//! its point as a click does. The keys (in `game::input`) send [`CursorRequested`]; the view
//! draws the cursor as a square, a shape no other mark has.

use bevy::prelude::*;
use qiguo_rules::{Kingdom, Move, Point, Position};

use crate::game::selection::{PointClicked, Selection};
use crate::game::state::Match;
use crate::game::telling::{Told, point_told};
use crate::i18n::Tr;
use crate::tr;

/// Where the board's keyboard cursor stands; `None` while it is hidden.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardCursor {
    /// The point, while the cursor is shown.
    pub at: Option<Point>,
}

/// What a key asks of the board's cursor.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CursorRequested {
    /// Show the cursor (on the selected stone, else the general of the kingdom to move), or
    /// hide it.
    Toggle,
    /// One point along the files (`files`) and the ranks (`ranks`), stopping at the edges.
    Step {
        /// Files to the right (negative: to the left).
        files: i8,
        /// Ranks up (negative: down).
        ranks: i8,
    },
    /// The next (or, not `forward`, the previous) stone of the kingdom whose stone is under
    /// the cursor (the kingdom to move on an empty point), in the order of its army.
    NextStone {
        /// Forward through the army, or back.
        forward: bool,
    },
    /// What a click on the cursor's point does: select a stone, move the selected one.
    Act,
    /// Hide the cursor.
    Hide,
}

/// Carries out the cursor's requests, telling each point reached.
pub(super) fn move_cursor(
    mut requests: MessageReader<CursorRequested>,
    mut cursor: ResMut<BoardCursor>,
    the_match: Res<Match>,
    selection: Res<Selection>,
    tr: Res<Tr>,
    mut clicked: MessageWriter<PointClicked>,
    mut told: MessageWriter<Told>,
) {
    let pos = the_match.position();
    for request in requests.read() {
        let before = cursor.at;
        cursor.at = match (*request, cursor.at) {
            (CursorRequested::Toggle, Some(_)) | (CursorRequested::Hide, _) => None,
            (CursorRequested::Toggle, None) => Some(
                selection
                    .selected
                    .or_else(|| general_of(pos, pos.to_move()))
                    .unwrap_or(Point::EMPEROR),
            ),
            (_, None) => None,
            (CursorRequested::Step { files, ranks }, Some(at)) => Some(stepped(at, files, ranks)),
            (CursorRequested::NextStone { forward }, Some(at)) => {
                Some(next_stone(pos, at, forward))
            }
            (CursorRequested::Act, Some(at)) => {
                clicked.write(PointClicked(at));
                Some(at)
            }
        };
        match cursor.at {
            Some(at) if cursor.at != before || before.is_none() => {
                told.write(Told(told_at(pos, &selection, at, *tr)));
            }
            None if before.is_some() => {
                told.write(Told(tr.text("cursor-hidden")));
            }
            _ => {}
        }
    }
}

/// The point `files` and `ranks` away, held within the board.
fn stepped(at: Point, files: i8, ranks: i8) -> Point {
    let file = (at.file() as i16 + i16::from(files)).clamp(0, 18) as u8;
    let rank = (at.rank() as i16 + i16::from(ranks)).clamp(0, 18) as u8;
    Point::new(file, rank).unwrap_or(at)
}

/// The point of `kingdom`'s general, if it has one on the board.
fn general_of(pos: &Position, kingdom: Kingdom) -> Option<Point> {
    pos.army(kingdom)
        .find(|(_, piece)| piece.kind == qiguo_rules::PieceKind::General)
        .or_else(|| pos.army(kingdom).next())
        .map(|(point, _)| point)
}

/// The next stone of the army of the stone at `at` (the kingdom to move's on an empty point),
/// wrapping round; `at` where there is none.
fn next_stone(pos: &Position, at: Point, forward: bool) -> Point {
    let kingdom = pos.piece_at(at).map_or(pos.to_move(), |p| p.kingdom);
    let army: Vec<Point> = pos.army(kingdom).map(|(point, _)| point).collect();
    if army.is_empty() {
        return at;
    }
    let here = army.iter().position(|&p| p == at);
    let next = match (here, forward) {
        (Some(i), true) => (i + 1) % army.len(),
        (Some(i), false) => (i + army.len() - 1) % army.len(),
        (None, true) => 0,
        (None, false) => army.len() - 1,
    };
    army[next]
}

/// What the cursor's point is told as: what stands there, and whether the selected stone can
/// go there (and take what stands there).
fn told_at(pos: &Position, selection: &Selection, at: Point, tr: Tr) -> String {
    let mut words = point_told(pos, at, tr);
    if let Some(from) = selection.selected
        && from != at
        && pos.is_legal(Move::new(from, at))
    {
        words.push(' ');
        words.push_str(&tr!(tr, "cursor-can-go", point = at.to_string()));
    } else if selection.selected == Some(at) {
        words.push(' ');
        words.push_str(&tr.text("cursor-selected"));
    }
    words
}
