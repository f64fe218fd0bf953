//! The search's constants ([`SearchParams`]) reach the search: each one changed changes what a
//! search of fixed depth visits, and the hand-set ones are the default (the helpers' share of
//! them is tested beside the engine, in `search.rs`).

use qiguo_ai::{Engine, Level, Limits, SearchParams, TableSize};
use qiguo_rules::{Position, Preset, Rules};
use qiguo_testkit::CROWDED_MIDGAME;

fn midgame() -> Position {
    Position::from_fen(CROWDED_MIDGAME, Rules::preset(Preset::Classic)).unwrap()
}

/// What a search of `depth` iterations with `params` visits from the crowded middle game.
fn visited(params: SearchParams, depth: u32) -> u64 {
    let mut engine = Engine::new(TableSize::entries_log2(16));
    engine.set_params(params);
    let limits = Limits {
        depth: Some(depth),
        nodes: Some(5_000_000),
        ..Limits::default()
    };
    engine
        .search(&midgame(), Level::Hard, &limits, 5)
        .unwrap()
        .nodes
}

#[test]
fn the_hand_set_constants_are_the_default() {
    assert_eq!(SearchParams::default(), SearchParams::HAND);
    assert_eq!(
        *Engine::new(TableSize::entries_log2(10)).params(),
        SearchParams::HAND
    );
    assert_eq!(
        visited(SearchParams::HAND, 3),
        Engine::new(TableSize::entries_log2(16))
            .search(
                &midgame(),
                Level::Hard,
                &Limits {
                    depth: Some(3),
                    nodes: Some(5_000_000),
                    ..Limits::default()
                },
                5,
            )
            .unwrap()
            .nodes
    );
}

/// The crowded middle game thinned out to every kingdom's General, chariots and cannons: few
/// enough moves that a search five iterations deep, where the late replies' reduction shows,
/// stays cheap.
fn thinned() -> Position {
    let (board, rest) = CROWDED_MIDGAME.split_once(' ').unwrap();
    let rows: Vec<String> = board
        .split('/')
        .map(|row| {
            let mut cells: Vec<Option<String>> = Vec::new();
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut n = d;
                    while let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n * 10 + e;
                        chars.next();
                    }
                    cells.extend((0..n).map(|_| None));
                } else {
                    let kind = chars.next().unwrap();
                    let kept = matches!(kind, 'G' | 'R' | 'C');
                    cells.push(kept.then(|| format!("{c}{kind}")));
                }
            }
            let mut out = String::new();
            let mut empty = 0;
            for cell in cells {
                match cell {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        out += &piece;
                    }
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            out
        })
        .collect();
    let fen = format!("{} {rest}", rows.join("/"));
    Position::from_fen(&fen, Rules::preset(Preset::Classic)).unwrap()
}

#[test]
fn each_constant_changes_the_search() {
    let hand = visited(SearchParams::HAND, 3);
    // Captures not followed beyond the depth: fewer positions.
    let no_captures = SearchParams {
        quiescence_depth: 0,
        ..SearchParams::HAND
    };
    assert!(visited(no_captures, 3) < hand);
    // Late replies reduced later, or from a deeper search on only: another search.
    for params in [
        SearchParams {
            lmr_after: 64,
            ..SearchParams::HAND
        },
        SearchParams {
            lmr_depth: 12,
            ..SearchParams::HAND
        },
    ] {
        assert_ne!(visited(params, 3), hand, "{params:?}");
    }
    // How much shallower shows five iterations deep (three end in captures whatever it is):
    // from a thinned position, where that is cheap.
    let deep = |params| {
        let mut engine = Engine::new(TableSize::entries_log2(16));
        engine.set_params(params);
        let limits = Limits {
            depth: Some(5),
            nodes: Some(5_000_000),
            ..Limits::default()
        };
        engine
            .search(&thinned(), Level::Hard, &limits, 5)
            .unwrap()
            .nodes
    };
    let less = SearchParams {
        lmr_reduction: 1,
        ..SearchParams::HAND
    };
    assert_ne!(deep(less), deep(SearchParams::HAND));
}

#[test]
fn the_budget_share_decides_whether_an_iteration_starts() {
    // A node budget and no depth: three iterations deep take 93,000 positions here, five many
    // more. A share near nothing starts the fifth in what is left of 150,000 (and runs out in
    // it); the hand's share does not.
    let spent = |permille| {
        let mut engine = Engine::new(TableSize::entries_log2(16));
        engine.set_params(SearchParams {
            next_iteration_permille: permille,
            ..SearchParams::HAND
        });
        let limits = Limits {
            nodes: Some(150_000),
            ..Limits::default()
        };
        let found = engine.search(&midgame(), Level::Hard, &limits, 5).unwrap();
        (found.depth, found.nodes)
    };
    let (hand, eager) = (spent(400), spent(10));
    assert_eq!(hand.0, 3);
    assert!(hand.1 < 150_000, "{hand:?}");
    assert_eq!(eager, (3, 150_000));
}

#[test]
fn the_repeat_margin_decides_how_much_worse_a_move_may_be_to_leave_a_circle() {
    // The same position three times: with no margin only a move as good as the best may be
    // played instead of it, with a wide one any.
    let moves = |margin| {
        let mut engine = Engine::new(TableSize::entries_log2(16));
        engine.set_params(SearchParams {
            repeat_margin: margin,
            ..SearchParams::HAND
        });
        let pos = Position::start(Rules::default());
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        (0..3)
            .map(|_| engine.search(&pos, Level::Medium, &limits, 7).unwrap())
            .map(|r| (r.best, r.score))
            .collect::<Vec<_>>()
    };
    let narrow = moves(0);
    let wide = moves(2_000);
    for (mv, score) in &narrow[1..] {
        assert!(*mv == narrow[0].0 || *score >= narrow[0].1, "{narrow:?}");
    }
    assert_ne!(wide[1].0, wide[0].0);
    assert_ne!(wide[2].0, wide[0].0);
    assert_ne!(narrow, wide);
}
