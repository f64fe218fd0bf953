//! Property tests over random legal games under every preset and many seatings.

mod common;

use std::collections::BTreeSet;

use common::reference;
use proptest::prelude::*;
use qiguo_rules::random::SplitMix64;
use qiguo_rules::{
    Game, Kingdom, Move, PieceKind, PlayerInfo, Point, Position, Preset, Record, Rules, Seating,
    Seats, Standing,
};

fn seating(i: u8) -> Seating {
    match i % 9 {
        0..=4 => Seating::traditional(3 + (i % 9) as usize).unwrap(),
        5 => Seating::TwoPlayers,
        6 => Seating::Present(vec![Kingdom::Qin, Kingdom::Qi, Kingdom::Zhao]),
        _ => Seating::Seven,
    }
}

/// Picks a move, preferring captures so games reach beaten kingdoms and an end.
fn choose(pos: &Position, rng: &mut SplitMix64) -> Move {
    let moves = pos.legal_moves();
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| pos.is_capture(*m))
        .collect();
    if !captures.is_empty() && !rng.next_u64().is_multiple_of(4) {
        captures[rng.next_u64() as usize % captures.len()]
    } else {
        moves[rng.next_u64() as usize % moves.len()]
    }
}

fn as_text(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// Checks every invariant along one random game; returns the finished (or cut-off) game.
fn check_game(preset: Preset, seats: Seats, seed: u64, max_plies: usize) -> Game {
    let rules = Rules::preset(preset);
    let mut game = Game::start(rules, seats);
    let mut rng = SplitMix64::new(seed);
    let placed = game.position().pieces().count();
    let mut removed = 0usize;
    for ply in 0..max_plies {
        let pos = game.position().clone();
        if pos.is_over() {
            assert!(pos.legal_moves().is_empty());
            break;
        }
        // Generated moves are exactly the rules' moves, and exactly those `play` accepts.
        let moves = pos.legal_moves();
        assert_eq!(
            as_text(&moves),
            reference::legal_moves(&pos),
            "ply {ply}\n{pos}"
        );
        for &mv in &moves {
            assert!(pos.is_legal(mv));
        }
        for _ in 0..20 {
            let from = Point::from_index(rng.next_u64() as usize % 361).unwrap();
            let to = Point::from_index(rng.next_u64() as usize % 361).unwrap();
            let mv = Move::new(from, to);
            assert_eq!(pos.is_legal(mv), moves.contains(&mv), "{mv}");
        }
        assert_eq!(pos.is_legal(Move::PASS), moves == [Move::PASS]);

        // Make then unmake restores everything, hash included.
        let mut scratch = pos.clone();
        for &mv in moves.iter().take(12) {
            let undo = scratch.make(mv);
            scratch.unmake(undo);
            assert_eq!(scratch, pos);
        }

        // FEN round trip (FEN holds pieces and turn, not counters).
        let fen = pos.to_fen();
        let back = Position::new(&qiguo_rules::fen::parse(&fen).unwrap(), rules, seats).unwrap();
        assert_eq!(back.to_fen(), fen);
        assert_eq!(back.to_setup(), pos.to_setup());

        let mv = choose(&pos, &mut rng);
        let report = game.play(mv).unwrap().clone();
        let after = game.position();

        // The Emperor never moves and is never a destination.
        assert_ne!(mv.from(), Some(Point::EMPEROR));
        assert_ne!(mv.to(), Some(Point::EMPEROR));
        assert_eq!(after.piece_at(Point::EMPEROR), None);
        // No go-between is ever captured.
        if let Some(c) = report.captured {
            assert_ne!(c.kind, PieceKind::GoBetween);
            assert_ne!(c.kingdom, report.mover);
        }
        // Piece counts add up: placed = on board + captured (losses) + removed with armies.
        if let Some(fallen) = &report.fallen {
            match fallen.standing {
                // A forfeited ally's captured piece is credited to nobody: not a loss.
                Standing::Forfeited { .. } => removed += fallen.army.len() + 1,
                _ if fallen.transferred_to.is_none() => removed += fallen.army.len(),
                _ => {}
            }
            assert_ne!(after.standing(fallen.kingdom), Standing::InGame);
            assert_eq!(after.army_size(fallen.kingdom), 0);
        }
        let losses: u32 = Kingdom::ALL.iter().map(|k| after.losses(*k)).sum();
        assert_eq!(
            after.pieces().count() + losses as usize + removed,
            placed,
            "ply {ply}"
        );
        // Every piece on the board belongs to a kingdom in the game.
        for (_, piece) in after.pieces() {
            assert!(after.alive().contains(piece.kingdom));
        }
        // The kingdom to move is in the game.
        assert!(after.alive().contains(after.to_move()));
        // The hash is a function of the state.
        assert_eq!(after.hash(), {
            let mut replay = game.start_position().clone();
            for m in game.moves() {
                replay.make(m);
            }
            replay.hash()
        });
        // A record saved mid-game reloads to the identical state.
        if ply % 37 == 5 {
            assert_record_round_trip(&game);
        }
    }
    assert_record_round_trip(&game);
    game
}

fn assert_record_round_trip(game: &Game) {
    let players = PlayerInfo::defaults(game.start_position().seats().player_count());
    let json = Record::from_game(game, players).to_json();
    let loaded = Record::from_json(&json).unwrap().replay().unwrap();
    assert_eq!(loaded.position(), game.position());
    assert_eq!(
        loaded.moves().collect::<Vec<_>>(),
        game.moves().collect::<Vec<_>>()
    );
    assert_eq!(loaded.outcome(), game.outcome());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(preset in 0usize..4, seating_index in 0u8..9, seed in any::<u64>()) {
        let preset = Preset::ALL[preset];
        let seats = seating(seating_index).seats().unwrap();
        check_game(preset, seats, seed, 600);
    }
}

#[test]
fn random_games_end_under_every_preset() {
    for preset in Preset::ALL {
        let mut ended = 0;
        for seed in 0..12 {
            let game = check_game(preset, Seats::seven(), seed, 2000);
            if game.outcome().is_some() {
                ended += 1;
            }
        }
        assert_eq!(ended, 12, "{preset}: every capture-hungry random game ends");
    }
}

/// `is_attacked`, `count_moves_of` and `count_moves_from` agree with generating every
/// attacker's moves.
#[test]
fn attack_and_mobility_queries_agree_with_move_generation() {
    use qiguo_rules::KingdomSet;
    for preset in Preset::ALL {
        let mut game = Game::start(Rules::preset(preset), Seats::seven());
        let mut rng = SplitMix64::new(7 + preset as u64);
        for ply in 0..160 {
            let pos = game.position().clone();
            if pos.is_over() {
                break;
            }
            if ply % 8 == 0 {
                let targets_of = |k: Kingdom| -> Vec<Point> {
                    pos.army(k)
                        .flat_map(|(p, _)| pos.moves_from(p))
                        .filter_map(|m| m.to())
                        .collect()
                };
                for k in Kingdom::ALL {
                    let n: usize = pos.army(k).map(|(p, _)| pos.moves_from(p).len()).sum();
                    assert_eq!(pos.count_moves_of(k), n as u64, "{preset} {k}");
                    for (p, _) in pos.army(k) {
                        assert_eq!(pos.count_moves_from(p), pos.moves_from(p).len() as u64);
                    }
                }
                let sets: Vec<KingdomSet> = vec![
                    KingdomSet::ALL,
                    [Kingdom::Qin].into_iter().collect(),
                    [Kingdom::Chu, Kingdom::Zhao, Kingdom::Yan]
                        .into_iter()
                        .collect(),
                ];
                for set in sets {
                    let targets: Vec<Point> = set.iter().flat_map(targets_of).collect();
                    for p in Point::all() {
                        let attacked = targets.contains(&p) && pos.piece_at(p).is_some();
                        assert_eq!(
                            pos.is_attacked(p, set),
                            attacked,
                            "{preset} ply {ply} {p} by {set:?}\n{pos}"
                        );
                        // The attackers are exactly the pieces with a capture onto the point.
                        let mut expected: Vec<Point> = set
                            .iter()
                            .flat_map(|k| pos.army(k).map(|(from, _)| from).collect::<Vec<_>>())
                            .filter(|&from| {
                                pos.piece_at(p).is_some()
                                    && pos.moves_from(from).iter().any(|m| m.to() == Some(p))
                            })
                            .collect();
                        let mut got = pos.attackers_of(p, set);
                        expected.sort();
                        got.sort();
                        assert_eq!(got, expected, "{preset} ply {ply} {p} by {set:?}\n{pos}");
                    }
                }
            }
            let mv = choose(&pos, &mut rng);
            game.play(mv).unwrap();
        }
    }
}
