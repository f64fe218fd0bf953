//! Helpers for building small diagram positions in tests.
#![allow(dead_code)]

pub mod reference;

use qiguo_rules::{
    Board, Kingdom, MoveReport, Piece, Point, Position, Rules, Seats, Setup, notation,
};

/// A setup from `"wR a5, rS c5"` (piece then point) and the letter of the kingdom to move.
pub fn setup(pieces: &str, to_move: char) -> Setup {
    let mut board = Board::empty();
    for item in pieces.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (piece, point) = item.split_once(' ').expect("`wR a5`");
        let piece = Piece::from_fen(piece).unwrap_or_else(|| panic!("bad piece {piece}"));
        let point: Point = point.trim().parse().unwrap();
        assert!(board.set(point, Some(piece)).is_none(), "{point} twice");
    }
    Setup {
        board,
        to_move: Kingdom::from_letter(to_move).unwrap(),
    }
}

/// A position with seven players.
pub fn position(pieces: &str, to_move: char, rules: Rules) -> Position {
    Position::new(&setup(pieces, to_move), rules, Seats::seven()).unwrap()
}

/// The sorted destinations of the piece on `from`, as point names.
pub fn dests(pos: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = pos
        .moves_from(from.parse().unwrap())
        .iter()
        .map(|m| m.to().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// Sorted point names.
pub fn names(points: &str) -> Vec<String> {
    let mut v: Vec<String> = points.split_whitespace().map(str::to_owned).collect();
    v.sort();
    v
}

/// Plays space-separated moves, each of which must be legal.
pub fn play(pos: &mut Position, moves: &str) -> Vec<MoveReport> {
    moves
        .split_whitespace()
        .map(|text| {
            let mv = notation::parse_move(text).unwrap();
            pos.play(mv)
                .unwrap_or_else(|e| panic!("{text}: {e}\n{pos}"))
        })
        .collect()
}
