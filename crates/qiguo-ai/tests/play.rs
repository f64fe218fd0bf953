//! The computer players choose legal moves in all kinds of positions, take a General left
//! unprotected, and are reproducible for a fixed seed and node budget.

use qiguo_ai::{Engine, Level, LevelSearch, Limits, TableSize};
use qiguo_rules::{Game, Move, PieceKind, Position, Preset, Rules, Seating, Seats, notation};

/// A random legal move, a capture two times in three when there is one.
fn random_move(pos: &Position, rng: &mut qiguo_rules::random::SplitMix64) -> Move {
    let moves = pos.legal_moves();
    let caps: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| pos.is_capture(*m))
        .collect();
    if !caps.is_empty() && rng.below(3) > 0 {
        caps[rng.below(caps.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// Random games under every preset and some seatings, and the positions along them.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let seatings = [
        Seats::seven(),
        Seating::TwoPlayers.seats().unwrap(),
        Seating::traditional(3).unwrap().seats().unwrap(),
    ];
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        for (j, seats) in seatings.iter().enumerate() {
            let mut game = Game::start(Rules::preset(preset), *seats);
            let mut rng = qiguo_rules::random::SplitMix64::new((i * 10 + j) as u64);
            for ply in 0..400 {
                let pos = game.position().clone();
                if pos.is_over() {
                    break;
                }
                if ply % 13 == 3 {
                    out.push(pos.clone());
                }
                game.play(random_move(&pos, &mut rng)).unwrap();
            }
        }
    }
    out
}

#[test]
fn every_level_returns_a_legal_move() {
    let positions = positions();
    assert!(positions.len() > 40, "{}", positions.len());
    let mut engine = Engine::new(TableSize::entries_log2(16));
    for (i, pos) in positions.iter().enumerate() {
        for level in Level::ALL {
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::default()
            };
            let result = engine.search(pos, level, &limits, i as u64).unwrap();
            assert!(
                pos.is_legal(result.best),
                "{level}: {} in\n{pos}",
                result.best
            );
        }
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let pos = Position::from_fen(
        "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR18/19/19/19/19 w",
        Rules::default(),
    )
    .unwrap();
    assert!(pos.is_over());
    assert!(
        Engine::new(TableSize::entries_log2(10))
            .search(&pos, Level::Hard, &Limits::default(), 0)
            .is_none()
    );
}

#[test]
fn an_unprotected_general_is_taken() {
    // Qin's Chancellor on a5 sees Chu's General on e5; Han and Qi are far away. Taking it beats
    // Chu at once, and with Han's General gone too it wins (classic: two Generals).
    let pos = Position::from_fen(
        "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR3rQ6oS7/19/19/12oG1oQ4/5rS4rG3bGbQ3 w",
        Rules::preset(Preset::Classic),
    )
    .unwrap();
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        let mut engine = Engine::new(TableSize::entries_log2(16));
        let limits = Limits {
            nodes: Some(50_000),
            ..Limits::default()
        };
        let result = engine.search(&pos, level, &limits, 3).unwrap();
        assert_eq!(
            result.best,
            notation::parse_move("a5e5").unwrap(),
            "{level}"
        );
    }
}

#[test]
fn a_general_in_danger_is_saved_or_defended() {
    // Chu's Chancellor threatens Qin's General on a10; Qin to move must not leave it there.
    let pos = Position::from_fen(
        "19/19/19/19/19/19/19/19/19/wQ7rR10/19/19/19/19/19/19/19/19/5rQ13 w",
        Rules::preset(Preset::Classic),
    )
    .unwrap();
    let mut engine = Engine::new(TableSize::entries_log2(16));
    let limits = Limits {
        nodes: Some(100_000),
        ..Limits::default()
    };
    let result = engine.search(&pos, Level::Hard, &limits, 1).unwrap();
    let mut after = pos.clone();
    after.play(result.best).unwrap();
    // Whatever Qin did, Chu cannot take its General next.
    for mv in after.legal_moves() {
        let mut next = after.clone();
        next.play(mv).unwrap();
        assert!(
            next.standing(qiguo_rules::Kingdom::Qin) == qiguo_rules::Standing::InGame,
            "after {} Chu takes the General with {mv}",
            result.best
        );
    }
}

#[test]
fn searches_are_reproducible_for_a_seed_and_node_budget() {
    let pos = &positions()[5];
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let a = Engine::new(TableSize::entries_log2(16))
            .search(pos, level, &limits, 42)
            .unwrap();
        let b = Engine::new(TableSize::entries_log2(16))
            .search(pos, level, &limits, 42)
            .unwrap();
        assert_eq!(
            (a.best, a.score, a.depth, a.nodes),
            (b.best, b.score, b.depth, b.nodes),
            "{level}"
        );
    }
}

/// A position from a game between Easy players: Wei can take Zhao's General with n17n19, and
/// its own General stays safe. Opponents in the search used to walk their Generals into
/// capture to hand a rival the game, so every move looked lost and Hard played g14f14.
#[test]
fn hard_takes_a_free_general_when_its_own_is_safe() {
    let fen = "3dSdBdQdRgNdG2pS1pQpRpS2gB/3pC2dS5pS1bN2gHgN/1dNbG2dCdA5bWgWpA4/6dN10gS1/4dA8gG5/2oG3gC11gQ/dW11gN4gSgR/wRwS5wN2dH6wGgS/1wS10rWpN5/wQwCpN1wNrCwH12/wBwSpB1wA5bH5rB2/wS2wA13bS1/10oHoN4gNbS1/10oN3pW1bC1bQ/2pG2rN2rG7bBbSbR/3rN3rA8bN1bS/1rN2rA7oAoWoAoS3/3rSrS1rS5oSoC5/rRrQ4rS2rNoNoSoR1oQoS3 g";
    let pos = Position::from_fen(fen, Rules::default()).unwrap();
    let limits = Limits {
        nodes: Some(750_000),
        ..Limits::default()
    };
    let result = Engine::new(TableSize::entries_log2(18))
        .search(&pos, Level::Hard, &limits, 1)
        .unwrap();
    assert_eq!(result.best, notation::parse_move("n17n19").unwrap());
}

/// Whether the kingdom to move could lose a General to an enemy after `mv`.
fn own_general_exposed_after(pos: &Position, mv: Move) -> bool {
    let k = pos.to_move();
    let mut after = pos.clone();
    after.play(mv).unwrap();
    if after.is_over() || !after.alive().contains(k) {
        return false;
    }
    let allies = after.seats().allies(k);
    let foes = after
        .alive()
        .iter()
        .filter(|f| !allies.contains(*f))
        .collect();
    after
        .army(k)
        .any(|(p, piece)| piece.kind == PieceKind::General && after.is_attacked(p, foes))
}

/// The enemy Generals the kingdom to move can take in `pos` with its own Generals safe after,
/// and without ending the game with another player the winner (under `ludii` a second General
/// ends the game, and the most captures win it).
fn free_generals(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&mv| {
            let victim = mv.to().and_then(|to| pos.piece_at(to));
            victim.is_some_and(|v| {
                v.kind == PieceKind::General
                    && pos.player_of(v.kingdom) != pos.player_of(pos.to_move())
            })
        })
        .filter(|&mv| !own_general_exposed_after(pos, mv))
        .filter(|&mv| {
            let mut after = pos.clone();
            after.make(mv);
            after
                .outcome()
                .is_none_or(|o| o.player == pos.player_of(pos.to_move()))
        })
        .collect()
}

/// Positions of random games (captures preferred) under every preset where the kingdom to
/// move can take a free General: at most `per_preset` of each, a few plies apart. Positions
/// where some kingdom is one loss from falling are left out: there any capture of its pieces
/// may end the game first (under `elephantchess` the kingdom with the most captures overall
/// is its victor, so a rival that takes a General in the same round can win by it), and the
/// search rightly weighs that against the General.
fn free_general_positions(per_preset: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let mut found = 0;
        for game_no in 0..40 {
            let mut game = Game::start(Rules::preset(preset), Seats::seven());
            let mut rng = qiguo_rules::random::SplitMix64::new((1000 + i * 100 + game_no) as u64);
            let mut last = 0;
            for ply in 0..600 {
                let pos = game.position().clone();
                if pos.is_over() || found >= per_preset {
                    break;
                }
                let near_falling = pos
                    .alive()
                    .iter()
                    .any(|k| pos.losses(k) + 1 >= u32::from(pos.rules().beaten_at_losses));
                if ply > last + 20 && !near_falling && !free_generals(&pos).is_empty() {
                    out.push(pos.clone());
                    found += 1;
                    last = ply;
                }
                game.play(random_move(&pos, &mut rng)).unwrap();
            }
        }
    }
    out
}

/// Wherever the kingdom to move can take an enemy General and keep its own Generals safe,
/// Hard (with its whole budget, as measured by work) takes a General.
#[test]
fn hard_takes_free_generals_in_generated_positions() {
    let positions = free_general_positions(6);
    assert!(
        positions.len() >= 20,
        "only {} positions with a free General",
        positions.len()
    );
    let mut engine = Engine::new(TableSize::entries_log2(18));
    for pos in positions {
        let free = free_generals(&pos);
        let limits = Limits {
            nodes: Some(Level::Hard.nodes()),
            ..Limits::default()
        };
        engine.clear();
        let best = engine.search(&pos, Level::Hard, &limits, 7).unwrap().best;
        let takes_general = best
            .to()
            .and_then(|to| pos.piece_at(to))
            .is_some_and(|v| v.kind == PieceKind::General);
        assert!(
            takes_general,
            "played {best}, not one of {free:?}, under {:?} in\n{}",
            pos.rules().matching_preset(),
            pos.to_fen()
        );
    }
}

/// A position met again (the game going round in circles, as deterministic players do in
/// endings) gets a near-best move not played from it before; `clear` forgets them.
#[test]
fn a_position_met_again_gets_another_near_best_move() {
    let pos = Position::start(Rules::default());
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let mut engine = Engine::new(TableSize::entries_log2(16));
    let first = engine.search(&pos, Level::Medium, &limits, 7).unwrap();
    let second = engine.search(&pos, Level::Medium, &limits, 7).unwrap();
    let third = engine.search(&pos, Level::Medium, &limits, 7).unwrap();
    assert_ne!(first.best, second.best);
    assert_ne!(third.best, first.best);
    assert_ne!(third.best, second.best);
    for later in [&second, &third] {
        assert!(
            later.score >= first.score - 80,
            "{} scores {} against {}",
            later.best,
            later.score,
            first.score
        );
    }
    engine.clear();
    let again = engine.search(&pos, Level::Medium, &limits, 7).unwrap();
    assert_eq!(again.best, first.best, "a cleared engine starts afresh");
}

/// Yan can take Han's General (g9j6) or Zhao's (f18n18), and no kingdom can take Yan's General
/// after either. Three plies deep, one opponent answers and the other General "is still there"
/// on Yan's next move; in a real round both kingdoms move theirs away, so Hard must take one
/// now rather than play a quiet move first (it used to play a15a13).
#[test]
fn hard_takes_a_general_now_rather_than_later() {
    takes_a_free_general(1);
}

/// The same on two threads (lazy SMP): the helper's deeper iterations do not talk it out of it.
#[test]
fn hard_on_two_threads_takes_the_free_general() {
    takes_a_free_general(2);
}

fn takes_a_free_general(threads: usize) {
    let fen = "dG2dSdBdQdR1dNpNpNpSpB1pRpSpNgN1/3dNdSdC1dS5pQgN4/4dA6pSpA1pA1gB1gS/2bG4dA4pW4gA1/dHwN1gG7dN1pG3gS1/11bN5gCgQ/wR10oH2gN1gAgSgR/1wS16gS/1wSwA6gN3oG5/wQwC4pC9gW2/wSwS4dW2dN4bA4/1wN1wA9oW2bNbS1/10rG6bS1/2pHwH3rA1oQ1oN2bNgH1bCbQ/3rQ5oC4oN1bAbSbR/2rNrA2rNwW5oA4bS/3rSrB9oA2rC1/4wG1rS5oS1oSoB3/2rNrSrR2rS1oN1oSoR3oS2 d";
    let pos = Position::from_fen(fen, Rules::preset(Preset::Classic)).unwrap();
    let limits = Limits {
        nodes: Some(Level::Hard.nodes()),
        threads: Some(threads),
        ..Limits::default()
    };
    let result = Engine::new(TableSize::entries_log2(18))
        .search(&pos, Level::Hard, &limits, 1)
        .unwrap();
    let taken = result.best.to().and_then(|to| pos.piece_at(to));
    assert!(
        taken.is_some_and(|v| v.kind == PieceKind::General),
        "played {} (score {}, depth {}) on {threads} threads",
        result.best,
        result.score,
        result.depth
    );
}
