//! A deliberately plain move generator written straight from the rules, on file/rank
//! coordinates with no padding, tables or piece lists. Slow; used only to check the real one.

use std::collections::BTreeSet;

use qiguo_rules::{
    CannonScreen, Kingdom, KnightMove, Piece, PieceKind, Point, Position, RangedMove,
};

#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Off,
    Emperor,
    Empty,
    Piece(Piece),
}

fn cell(pos: &Position, f: i32, r: i32) -> Cell {
    if !(0..19).contains(&f) || !(0..19).contains(&r) {
        return Cell::Off;
    }
    let p = Point::new(f as u8, r as u8).unwrap();
    if p == Point::EMPEROR {
        return Cell::Emperor;
    }
    match pos.piece_at(p) {
        Some(piece) => Cell::Piece(piece),
        None => Cell::Empty,
    }
}

fn capturable(mover: Kingdom, c: Cell) -> bool {
    matches!(c, Cell::Piece(p) if p.kingdom != mover && p.kind != PieceKind::GoBetween)
}

const ORTH: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// All destinations of the piece on (f, r).
pub fn destinations(pos: &Position, f: i32, r: i32) -> Vec<(i32, i32)> {
    let Cell::Piece(piece) = cell(pos, f, r) else {
        return vec![];
    };
    let me = piece.kingdom;
    let rules = pos.rules();
    let mut out = vec![];
    // Up to `max` points from (sf, sr) along (df, dr), stopping at the first occupied point.
    let up_to =
        |out: &mut Vec<(i32, i32)>, sf: i32, sr: i32, df: i32, dr: i32, max: i32, cap: bool| {
            for i in 1..=max {
                let (x, y) = (sf + df * i, sr + dr * i);
                match cell(pos, x, y) {
                    Cell::Empty => out.push((x, y)),
                    c => {
                        if cap && capturable(me, c) {
                            out.push((x, y));
                        }
                        break;
                    }
                }
            }
        };
    let exactly = |out: &mut Vec<(i32, i32)>, sf: i32, sr: i32, df: i32, dr: i32, n: i32| {
        if (1..n).all(|i| cell(pos, sf + df * i, sr + dr * i) == Cell::Empty) {
            let (x, y) = (sf + df * n, sr + dr * n);
            let c = cell(pos, x, y);
            if c == Cell::Empty || capturable(me, c) {
                out.push((x, y));
            }
        }
    };
    let all: Vec<(i32, i32)> = ORTH.iter().chain(DIAG.iter()).copied().collect();
    match piece.kind {
        PieceKind::General => all
            .iter()
            .for_each(|&(a, b)| up_to(&mut out, f, r, a, b, 18, true)),
        PieceKind::Chancellor => ORTH
            .iter()
            .for_each(|&(a, b)| up_to(&mut out, f, r, a, b, 18, true)),
        PieceKind::Diplomat => DIAG
            .iter()
            .for_each(|&(a, b)| up_to(&mut out, f, r, a, b, 18, true)),
        PieceKind::GoBetween => all
            .iter()
            .for_each(|&(a, b)| up_to(&mut out, f, r, a, b, 18, false)),
        PieceKind::Dagger => DIAG
            .iter()
            .for_each(|&(a, b)| up_to(&mut out, f, r, a, b, 1, true)),
        PieceKind::Swordsman => ORTH
            .iter()
            .for_each(|&(a, b)| up_to(&mut out, f, r, a, b, 1, true)),
        PieceKind::Archer | PieceKind::Crossbowman => {
            let n = if piece.kind == PieceKind::Archer {
                4
            } else {
                5
            };
            for &(a, b) in &all {
                match rules.ranged {
                    RangedMove::UpTo => up_to(&mut out, f, r, a, b, n, true),
                    RangedMove::Exactly => exactly(&mut out, f, r, a, b, n),
                }
            }
        }
        PieceKind::Cannon => {
            for &(a, b) in &ORTH {
                let mut i = 1;
                while cell(pos, f + a * i, r + b * i) == Cell::Empty {
                    out.push((f + a * i, r + b * i));
                    i += 1;
                }
                let screen = cell(pos, f + a * i, r + b * i);
                if screen == Cell::Off {
                    continue;
                }
                let own = matches!(screen, Cell::Piece(p) if p.kingdom == me);
                if rules.cannon_screen == CannonScreen::OwnKingdom && !own {
                    continue;
                }
                i += 1; // past the screen
                while cell(pos, f + a * i, r + b * i) == Cell::Empty {
                    i += 1;
                }
                if capturable(me, cell(pos, f + a * i, r + b * i)) {
                    out.push((f + a * i, r + b * i));
                }
            }
        }
        PieceKind::Knight => {
            for &(a, b) in &ORTH {
                let (lf, lr) = (f + a, r + b);
                if cell(pos, lf, lr) != Cell::Empty {
                    continue;
                }
                // Outward diagonals keep the leg's direction and add either perpendicular.
                let turns = if a == 0 {
                    [(-1, b), (1, b)]
                } else {
                    [(a, -1), (a, 1)]
                };
                for (da, db) in turns {
                    match rules.knight {
                        KnightMove::UpToThree => up_to(&mut out, lf, lr, da, db, 3, true),
                        KnightMove::ExactlyThree => exactly(&mut out, lf, lr, da, db, 3),
                    }
                }
            }
        }
    }
    out
}

/// The legal moves of the position as text, by the plain generator.
pub fn legal_moves(pos: &Position) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    if pos.is_over() {
        return set;
    }
    for f in 0..19 {
        for r in 0..19 {
            if let Cell::Piece(p) = cell(pos, f, r)
                && p.kingdom == pos.to_move()
            {
                let from = Point::new(f as u8, r as u8).unwrap();
                for (x, y) in destinations(pos, f, r) {
                    set.insert(format!("{from}{}", Point::new(x as u8, y as u8).unwrap()));
                }
            }
        }
    }
    if set.is_empty() {
        set.insert("--".to_string());
    }
    set
}
