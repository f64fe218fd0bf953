//! Property-based fuzzing of the rules engine's two readers of untrusted text, FEN and game
//! records: from arbitrary bytes, and from valid texts with bytes flipped, inserted and
//! removed, each reader answers with a value or an error, never a panic; whatever reads as a
//! record replays or is refused, again without a panic, and what reads is written back the same.

use proptest::prelude::*;
use qiguo_rules::random::SplitMix64;
use qiguo_rules::{Game, PlayerInfo, Position, Preset, Record, Rules, Seating, Seats, fen};
use qiguo_testkit::mutate;

/// Valid starts to mutate: the start of every preset, with seven and with three players.
fn fens() -> Vec<String> {
    let mut fens = Vec::new();
    for preset in Preset::ALL {
        for seats in [
            Seats::seven(),
            Seating::traditional(3).unwrap().seats().unwrap(),
        ] {
            fens.push(
                Game::start(Rules::preset(preset), seats)
                    .position()
                    .to_fen(),
            );
        }
    }
    fens
}

/// Valid records to mutate: a few random games of every preset, as JSON.
fn records() -> Vec<String> {
    let mut rng = SplitMix64::new(40);
    let mut records = Vec::new();
    for preset in Preset::ALL {
        let mut game = Game::start(Rules::preset(preset), Seats::seven());
        for _ in 0..(rng.next_u64() % 30) {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.position().is_over() {
                break;
            }
            game.play(moves[rng.next_u64() as usize % moves.len()])
                .unwrap();
        }
        let players = (0..7)
            .map(|i| PlayerInfo {
                name: format!("Player {i}"),
                computer: None,
            })
            .collect();
        records.push(Record::from_game(&game, players).to_json());
    }
    records
}

fn read_fen(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if fen::parse(&text).is_ok() {
        // What reads as a setup makes a position or an error, never a panic; a position is
        // written back as FEN that reads as the same position.
        for preset in [Preset::Classic, Preset::Ludii] {
            if let Ok(pos) = Position::from_fen(&text, Rules::preset(preset)) {
                let again = Position::from_fen(&pos.to_fen(), Rules::preset(preset)).unwrap();
                assert_eq!(again.to_fen(), pos.to_fen());
                let _ = pos.legal_moves();
            }
        }
    }
}

fn read_record(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(record) = Record::from_json(&text)
        && let Ok(game) = record.replay()
    {
        // A record that replays is written back and reads as the same game.
        let again = Record::from_json(&record.to_json())
            .unwrap()
            .replay()
            .unwrap();
        assert_eq!(again.position().to_fen(), game.position().to_fen());
        assert_eq!(again.len(), game.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn fen_from_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        read_fen(&bytes);
    }

    #[test]
    fn fen_from_mutated_starts(
        which in 0usize..10,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let fens = fens();
        read_fen(&mutate(&fens[which % fens.len()], &edits));
    }

    #[test]
    fn record_from_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        read_record(&bytes);
    }

    #[test]
    fn record_from_mutated_games(
        which in 0usize..5,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let records = records();
        read_record(&mutate(&records[which % records.len()], &edits));
    }
}
