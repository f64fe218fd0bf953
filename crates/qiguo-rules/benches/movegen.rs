//! Move generation and perft benchmarks: one kingdom's moves at the start and in a crowded
//! midgame, and perft(4) of `classic` from the start (72,156,795 leaves).

use std::hint::black_box;

use qiguo_rules::{Move, Position, Preset, Rules};
// A crowded midgame: 70 plies into a `classic` game from a seeded random walk that prefers
// captures; all seven kingdoms in, 16 pieces captured, 136 legal moves for Qin, 10 captures.
use qiguo_testkit::CROWDED_MIDGAME;

fn main() {
    divan::main();
}

fn classic() -> Rules {
    Rules::preset(Preset::Classic)
}

/// Generates the legal moves of the kingdom to move.
fn generate(pos: &Position, buf: &mut Vec<Move>) -> usize {
    pos.legal_moves_into(buf);
    buf.len()
}

#[divan::bench]
fn movegen_start(bencher: divan::Bencher) {
    let pos = Position::start(classic());
    let mut buf = Vec::with_capacity(256);
    bencher.bench_local(|| generate(black_box(&pos), &mut buf));
}

#[divan::bench]
fn movegen_midgame(bencher: divan::Bencher) {
    let pos = midgame();
    let mut buf = Vec::with_capacity(256);
    bencher.bench_local(|| generate(black_box(&pos), &mut buf));
}

#[divan::bench]
fn make_unmake_midgame(bencher: divan::Bencher) {
    let mut pos = midgame();
    let moves = pos.legal_moves();
    bencher.bench_local(|| {
        for &mv in &moves {
            let undo = pos.make(black_box(mv));
            pos.unmake(undo);
        }
    });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn perft4_classic_start(bencher: divan::Bencher) {
    let mut pos = Position::start(classic());
    bencher.bench_local(|| {
        let n = pos.perft(black_box(4));
        assert_eq!(n, 72_156_795);
        n
    });
}

fn midgame() -> Position {
    Position::from_fen(CROWDED_MIDGAME, classic()).expect("valid midgame FEN")
}
