//! Perft goldens from `data/perft.txt`.

use qiguo_rules::{Position, Preset, Rules};

#[test]
fn perft_goldens() {
    let text = include_str!("data/perft.txt");
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(4, ' ');
        let preset: Preset = parts.next().unwrap().parse().unwrap();
        let depth: u32 = parts.next().unwrap().parse().unwrap();
        let expected: u64 = parts.next().unwrap().parse().unwrap();
        if cfg!(debug_assertions) && depth >= 4 {
            continue;
        }
        let rules = Rules::preset(preset);
        let mut pos = match parts.next() {
            Some(fen) => Position::from_fen(fen, rules).unwrap(),
            None => Position::start(rules),
        };
        assert_eq!(pos.perft(depth), expected, "line {}: {line}", n + 1);
        checked += 1;
    }
    assert!(checked >= 6);
}

mod common;

/// Perft by cloning and the checked `play`, with the plain reference generator: shares neither
/// the fast generator nor make/unmake with `Position::perft`.
fn reference_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = common::reference::legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|text| {
            let mut next = pos.clone();
            next.play(qiguo_rules::notation::parse_move(text).unwrap())
                .unwrap();
            reference_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn goldens_from_other_positions_agree_with_the_reference() {
    let text = include_str!("data/perft.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut parts = line.splitn(4, ' ');
        let preset: Preset = parts.next().unwrap().parse().unwrap();
        let depth: u32 = parts.next().unwrap().parse().unwrap();
        let expected: u64 = parts.next().unwrap().parse().unwrap();
        let fen = parts.next();
        // Depth 2 everywhere; depth 3 from the FEN positions when optimised.
        if !(depth == 2 || depth == 3 && fen.is_some() && !cfg!(debug_assertions)) {
            continue;
        }
        let rules = Rules::preset(preset);
        let pos = match fen {
            Some(fen) => Position::from_fen(fen, rules).unwrap(),
            None => Position::start(rules),
        };
        assert_eq!(reference_perft(&pos, depth), expected, "{line}");
        checked += 1;
    }
    assert!(checked >= 6);
}
