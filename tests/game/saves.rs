//! Saved games on disk: round trips of finished and unfinished games under every preset,
//! refusal of bad files with the game untouched, and atomic writes that survive a crash
//! between writing and renaming.

use qiguo::saves::{FileAction, SaveDir, SaveError, Staged, load_file};
use qiguo_rules::random::SplitMix64;
use qiguo_rules::{Game, PlayerInfo, Preset, Record, Rules, Seating, Seats};

/// A fresh, empty data directory for one test, and the directory itself, removed (with
/// everything in it) when dropped at the end of the test.
fn data_dir(test: &str) -> (SaveDir, qiguo_testkit::TempDir) {
    let dir = qiguo_testkit::TempDir::new(&format!("saves-{test}"));
    (SaveDir::at(dir.path().to_owned()), dir)
}

/// A game of random legal moves: `plies` long, or to its end.
fn random_game(rules: Rules, seats: Seats, seed: u64, plies: usize) -> Game {
    let mut game = Game::start(rules, seats);
    let mut rng = SplitMix64::new(seed);
    while game.len() < plies && game.outcome().is_none() {
        let moves = game.position().legal_moves();
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    game
}

fn record_of(game: &Game) -> Record {
    let mut players = PlayerInfo::defaults(game.position().seats().player_count());
    players[0].name = "Sima Guang".into();
    if players.len() > 1 {
        players[1].computer = Some(qiguo_rules::Level::Hard);
    }
    Record::from_game(game, players)
}

#[test]
fn saves_round_trip_finished_and_unfinished_games_under_every_preset() {
    let (dir, _kept) = data_dir("round-trip");
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        for (j, seating) in [Seating::Seven, Seating::TwoPlayers]
            .into_iter()
            .enumerate()
        {
            let seats = seating.seats().unwrap();
            for plies in [0, 40, usize::MAX] {
                let seed = (i * 100 + j * 10) as u64 + plies.min(99) as u64;
                let game = random_game(Rules::preset(preset), seats, seed, plies);
                let record = record_of(&game);
                let name = format!("{preset} {j} {}", plies.min(999));
                dir.save(&name, &record).unwrap();
                let loaded = dir.load(&name).unwrap();
                assert_eq!(loaded.record, record, "{name}");
                assert_eq!(loaded.game.position().to_fen(), game.position().to_fen());
                assert_eq!(loaded.game.position().hash(), game.position().hash());
                assert_eq!(loaded.game.outcome(), game.outcome(), "{name}");
                assert_eq!(loaded.game.len(), game.len());
                if plies == usize::MAX {
                    assert!(loaded.game.outcome().is_some(), "{name} ends");
                }
            }
        }
    }
    let list = dir.list().unwrap();
    assert_eq!(list.len(), Preset::ALL.len() * 2 * 3);
    let finished = list
        .iter()
        .filter(|e| e.summary.as_ref().unwrap().over)
        .count();
    assert_eq!(finished, Preset::ALL.len() * 2);
    // Newest first; every entry has a date.
    assert!(list.windows(2).all(|w| w[0].modified >= w[1].modified));
    assert!(list.iter().all(|e| e.modified.is_some()));
}

#[test]
fn saves_are_listed_replaced_and_deleted() {
    let (dir, _kept) = data_dir("list");
    assert!(dir.list().unwrap().is_empty(), "no folder yet is no saves");
    let game = random_game(Rules::default(), Seats::seven(), 7, 30);
    dir.save("Evening", &record_of(&game)).unwrap();
    let entry = &dir.list().unwrap()[0];
    assert_eq!(entry.name, "Evening");
    let summary = entry.summary.as_ref().unwrap();
    assert_eq!(summary.preset, "classic");
    assert_eq!(summary.moves, 30);
    assert_eq!(summary.in_play, game.position().alive().len());
    // Saving under the same name replaces it.
    let longer = random_game(Rules::default(), Seats::seven(), 7, 31);
    dir.save(" Evening ", &record_of(&longer)).unwrap();
    let list = dir.list().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].summary.as_ref().unwrap().moves, 31);
    dir.delete("Evening").unwrap();
    assert!(dir.list().unwrap().is_empty());
    assert!(dir.delete("Evening").is_err());
    assert!(dir.save("../escape", &record_of(&game)).is_err());
    assert!(matches!(
        dir.load("nothing here").unwrap_err(),
        SaveError::Io {
            action: FileAction::Read,
            ..
        }
    ));
    assert_eq!(
        dir.save("../escape", &record_of(&game)).unwrap_err(),
        SaveError::LeadingDot
    );
    assert_eq!(
        dir.save("up/escape", &record_of(&game)).unwrap_err(),
        SaveError::BadCharacter("/".into())
    );
}

#[test]
fn bad_save_files_are_refused_with_a_reason() {
    let (dir, _kept) = data_dir("bad");
    let game = random_game(Rules::preset(Preset::Wikipedia), Seats::seven(), 3, 25);
    let good = record_of(&game).to_json();
    let future = good.replace("\"version\": 1", "\"version\": 9");
    let third_move = &record_of(&game).moves[2];
    let edited = good.replacen(&format!("\"{third_move}\""), "\"j10j11\"", 1);
    let cases: [(&str, String, &str); 6] = [
        (
            "truncated",
            good[..good.len() / 2].to_owned(),
            "not a readable game record",
        ),
        (
            "garbage",
            "\u{0}\u{1}PK garbage".to_owned(),
            "not a readable game record",
        ),
        ("empty", String::new(), "not a readable game record"),
        ("future", future, "version 9, newer than this game reads"),
        ("edited", edited, "move 3 (`j10j11`)"),
        (
            "other program",
            r#"{"format": "chess-pgn", "version": 1}"#.to_owned(),
            "not a Qiguo game record",
        ),
    ];
    std::fs::create_dir_all(dir.saves()).unwrap();
    for (name, text, expect) in &cases {
        std::fs::write(dir.saves().join(format!("{name}.json")), text).unwrap();
        let err = dir.load(name).unwrap_err();
        assert!(
            matches!(&err, SaveError::Unreadable { path, .. } if path.ends_with(format!("{name}.json"))),
            "{name}: {err:?}"
        );
        let err = err.to_string();
        assert!(err.contains(expect), "{name}: {err}");
        assert!(
            err.contains(&format!("{name}.json")),
            "{name}: names the file: {err}"
        );
    }
    // The load dialog lists them with the reason rather than hiding them.
    let list = dir.list().unwrap();
    assert_eq!(list.len(), cases.len());
    assert!(list.iter().all(|e| e.summary.is_err()));
}

#[test]
fn a_crash_between_write_and_rename_keeps_the_previous_autosave() {
    let (dir, _kept) = data_dir("crash");
    let before = random_game(Rules::default(), Seats::seven(), 11, 20);
    dir.autosave(&record_of(&before)).unwrap();
    let after = random_game(Rules::default(), Seats::seven(), 11, 21);
    // The new autosave is written and flushed under a temporary name; the process dies before
    // the rename (the staged file is simply never committed).
    let staged = Staged::write(&dir.autosave_path(), record_of(&after).to_json().as_bytes());
    let staged = staged.unwrap();
    std::mem::forget(staged);
    // A write torn half-way (as a crash during the write would leave it) sits beside it too.
    let torn = dir.root().join(".tmp-99999-autosave.json");
    std::fs::write(&torn, &record_of(&after).to_json()[..100]).unwrap();

    let loaded = dir.load_autosave().expect("an autosave").unwrap();
    assert_eq!(loaded.game.len(), 20, "the previous autosave survives");
    assert_eq!(loaded.game.position().to_fen(), before.position().to_fen());
    // Temporary files are never taken for saves.
    std::fs::create_dir_all(dir.saves()).unwrap();
    std::fs::write(dir.saves().join(".tmp-99999-night.json"), "{").unwrap();
    assert!(dir.list().unwrap().is_empty());

    // The next autosave goes through and replaces it whole.
    dir.autosave(&record_of(&after)).unwrap();
    assert_eq!(dir.load_autosave().unwrap().unwrap().game.len(), 21);
    assert!(load_file(&torn).is_err());
}
