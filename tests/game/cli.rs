//! The `qiguo` command-line tools, run as a real process: output formats, exit codes and
//! one-line errors for bad input.

use std::process::{Command, Output};

fn qiguo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiguo"))
        .args(args)
        .output()
        .expect("the qiguo binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Each command fails with one line on standard error, starting `qiguo: ` and containing the
/// expected words, and prints nothing on standard output.
fn assert_refused(cases: &[(&[&str], &str)]) {
    for (args, expect) in cases {
        let out = qiguo(args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: printed {}", stdout(&out));
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("qiguo: "), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn moves_are_listed_in_ascii_order() {
    let out = qiguo(&["moves"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 96);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"e10e5"));
    let out = qiguo(&["moves", "--rules", "leventhal"]);
    assert_eq!(stdout(&out).lines().count(), 52);
}

#[test]
fn perft_prints_one_integer() {
    let out = qiguo(&["perft", "--depth", "2"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "9045\n");
    let out = qiguo(&["perft", "--depth", "2", "--rules", "leventhal"]);
    assert_eq!(stdout(&out), "2682\n");
    let out = qiguo(&["perft", "--depth", "0"]);
    assert_eq!(stdout(&out), "1\n");
}

#[test]
fn replay_prints_the_fen_and_a_json_summary() {
    let out = qiguo(&["replay", "e10e5", "f1f2"]);
    assert!(!out.status.success());
    let out = qiguo(&["replay", "e10e5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].ends_with(" r"));
    assert_eq!(
        lines[1],
        r#"{"winner":null,"victory":null,"alive":["qin","chu","han","qi","wei","zhao","yan"],"captures":{"qin":0,"chu":0,"han":0,"qi":0,"wei":0,"zhao":0,"yan":0}}"#
    );
}

#[test]
fn replay_of_a_whole_elephantchess_game_names_the_winner() {
    let games: serde_json::Value = serde_json::from_str(include_str!(
        "../../crates/qiguo-rules/tests/data/elephantchess-games.json"
    ))
    .unwrap();
    let game = &games["entries"][0];
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mut args = vec!["replay", "--rules", "elephantchess", "--zero-based"];
    args.extend(&moves);
    let out = qiguo(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().nth(1).unwrap()).unwrap();
    assert_eq!(summary["winner"], "zhao"); // PURPLE
    assert_eq!(summary["victory"], "captures");
    assert_eq!(
        summary["alive"],
        serde_json::json!(["qin", "chu", "han", "zhao", "yan"])
    );
    assert!(summary["captures"]["zhao"].as_u64().unwrap() >= 30);
}

#[test]
fn a_pass_is_written_with_two_dashes() {
    // Chu's General is boxed in by Qin's go-betweens: Chu must pass.
    let fen = "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/wGwG17/rQwG17 r";
    let out = qiguo(&["moves", "--fen", fen]);
    assert_eq!(stdout(&out), "--\n");
    let out = qiguo(&["replay", "--fen", fen, "--", "a2a3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("19/"));
    let out = qiguo(&["replay", "--fen", fen, "a1a2"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bad_input_gets_one_line_and_a_nonzero_exit() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["moves", "--fen", "19 w"],
            "--fen: bad FEN: expected 19 ranks",
        ),
        (&["moves", "--fen", "garbage"], "--fen: bad FEN"),
        (
            &["moves", "--rules", "chess"],
            "unknown rules preset `chess`",
        ),
        (&["perft"], "--depth"),
        (&["perft", "--depth", "x"], "invalid value 'x'"),
        (&["perft", "--depth", "-3"], "-3"),
        (&["replay", "e10e5", "zz"], "move 2 (`zz`)"),
        (
            &["replay", "e10e5", "e10e6"],
            "move 2 (`e10e6`): there is no piece on e10",
        ),
        (
            &["replay", "f1f2"],
            "move 1 (`f1f2`): the General on that point belongs to Chu",
        ),
        (
            &["replay", "--"],
            "move 1 (`--`): passing is allowed only without any legal move",
        ),
        (&["fly"], "unrecognized subcommand 'fly'"),
    ];
    assert_refused(cases);
}

#[test]
fn replay_continues_a_saved_record() {
    use qiguo_rules::{Game, PlayerInfo, Record, Rules, Seats, notation};
    let dir = qiguo_testkit::TempDir::new("cli-replay");
    let mut game = Game::start(Rules::default(), Seats::seven());
    game.play(notation::parse_move("e10e5").unwrap()).unwrap();
    let good = dir.join("good.json");
    std::fs::write(
        &good,
        Record::from_game(&game, PlayerInfo::defaults(7)).to_json(),
    )
    .unwrap();
    let out = qiguo(&["replay", "--record", good.to_str().unwrap(), "f5f6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = qiguo(&["replay", "e10e5", "f5f6"]);
    assert_eq!(stdout(&out), stdout(&expected));

    let cases: Vec<(&str, String, &str)> = vec![
        (
            "truncated.json",
            std::fs::read_to_string(&good).unwrap()[..60].to_string(),
            "not a readable game record",
        ),
        (
            "garbage.json",
            "\u{0}\u{1}binary".into(),
            "not a readable game record",
        ),
        (
            "future.json",
            std::fs::read_to_string(&good)
                .unwrap()
                .replace("\"version\": 1", "\"version\": 9"),
            "version 9, newer",
        ),
        (
            "illegal.json",
            std::fs::read_to_string(&good)
                .unwrap()
                .replace("e10e5", "e10e4x"),
            "move 1 (`e10e4x`) in record",
        ),
    ];
    for (name, text, expect) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = qiguo(&["replay", "--record", path.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(expect), "{name}: {err}");
    }
    let out = qiguo(&[
        "replay",
        "--record",
        dir.join("missing.json").to_str().unwrap(),
    ]);
    assert!(stderr(&out).contains("missing.json"), "{}", stderr(&out));
    let out = qiguo(&[
        "replay",
        "--record",
        good.to_str().unwrap(),
        "--rules",
        "leventhal",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn report_tells_how_a_saved_game_went_in_text_and_json() {
    use qiguo_rules::{Game, PlayerInfo, Record, Rules, Seats, notation};
    let dir = qiguo_testkit::TempDir::new("cli-report");
    let mut game = Game::start(Rules::default(), Seats::seven());
    for mv in ["e10e5", "concede"] {
        game.play(notation::parse_move(mv).unwrap()).unwrap();
    }
    let mut record = Record::from_game(&game, PlayerInfo::defaults(7));
    record.hints = vec![3];
    let path = dir.join("game.json");
    std::fs::write(&path, record.to_json()).unwrap();
    let out = qiguo(&["report", "--record", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("2 moves\n"), "{text}");
    assert!(
        text.contains("move    2: Chu falls; its army leaves"),
        "{text}"
    );
    assert!(text.contains("conceded"), "{text}");

    let out = qiguo(&["report", "--record", path.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["moves"], 2);
    let kingdoms = json["kingdoms"].as_array().unwrap();
    assert_eq!(kingdoms.len(), 7);
    assert_eq!(kingdoms[0]["hints"], 3);
    assert_eq!(kingdoms[1]["chances"].as_array().unwrap().len(), 3);
    assert_eq!(kingdoms[1]["chances"][2], 0.0);

    std::fs::write(dir.join("bad.json"), "{ not json").unwrap();
    let out = qiguo(&["report", "--record", dir.join("bad.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bad.json"), "{}", stderr(&out));
}

#[test]
fn review_names_a_general_given_away_in_text_and_json() {
    use qiguo_rules::{Game, PieceKind, PlayerInfo, Position, Preset, Record, Rules};
    let dir = qiguo_testkit::TempDir::new("cli-review");
    // Chu (to move) shields its General at a1 with a swordsman from Qin's Chancellor at a5,
    // steps it aside, and Qin takes the General.
    let text = format!("18wQ/{}wR18/19/rS18/19/rQ18 r", "19/".repeat(13));
    let start = Position::from_fen(&text, Rules::preset(Preset::Classic)).unwrap();
    let mut game = Game::new(start);
    for mv in ["a3b3", "a5a1"] {
        game.play(qiguo_rules::notation::parse_move(mv).unwrap())
            .unwrap();
    }
    assert!(
        game.position_at(1)
            .piece_at("a1".parse().unwrap())
            .is_some_and(|p| p.kind == PieceKind::General)
    );
    let path = dir.join("game.json");
    let record = Record::from_game(&game, PlayerInfo::defaults(7));
    std::fs::write(&path, record.to_json()).unwrap();
    let file = path.to_str().unwrap();

    let out = qiguo(&["review", file, "--json", "--nodes", "5000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    for m in moves {
        let chances: f64 = m["chances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_f64().unwrap())
            .sum();
        assert!((chances - 1.0).abs() < 1e-3, "{m}");
    }
    assert_eq!(moves[0]["ply"], 1);
    assert_eq!(moves[0]["mover"], "chu");
    assert_ne!(moves[0]["best"], "a3b3");
    let mistakes: Vec<(i64, &str, &str)> = json["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["ply"].as_i64().unwrap(),
                m["kingdom"].as_str().unwrap(),
                m["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        mistakes,
        [(1, "chu", "blunder"), (2, "chu", "general-taken")]
    );

    let out = qiguo(&["review", file, "--nodes", "5000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("move 1: Chu played a3b3, blunder"), "{text}");
    assert!(
        text.contains("move 2: Qin took Chu's General with a5a1"),
        "{text}"
    );
    assert!(text.contains("at the end: Qin 100 %"), "{text}");

    std::fs::write(dir.join("bad.json"), "{ not json").unwrap();
    let out = qiguo(&["review", dir.join("bad.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bad.json"), "{}", stderr(&out));
    let out = qiguo(&["review", file, "--nodes", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `qiguo puzzles …` with `input` on its standard input.
fn qiguo_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiguo"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the qiguo binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn puzzles_are_mined_from_a_saved_game_and_played_in_the_terminal() {
    use qiguo_rules::{Game, PlayerInfo, Position, Preset, Record, Rules};
    let dir = qiguo_testkit::TempDir::new("cli-puzzles");
    // Chu's General stands open on a1 to Qin's Chancellor on a5: Qin takes it.
    let text = format!("18wQ/{}wR18/19/19/19/rQ18 w", "19/".repeat(13));
    let start = Position::from_fen(&text, Rules::preset(Preset::Classic)).unwrap();
    let mut game = Game::new(start);
    game.play(qiguo_rules::notation::parse_move("a5a1").unwrap())
        .unwrap();
    let path = dir.join("game.json");
    std::fs::write(
        &path,
        Record::from_game(&game, PlayerInfo::defaults(7)).to_json(),
    )
    .unwrap();
    let file = path.to_str().unwrap();

    let out = qiguo(&["puzzles", "mine", file, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let all = json.as_array().unwrap();
    assert_eq!(all.len(), 1, "{json}");
    assert_eq!(all[0]["solution"], "a5a1");
    assert_eq!(all[0]["theme"], "general-hunt");
    assert_eq!(all[0]["fen"], game.position_at(0).to_fen());
    assert!(all[0]["rating"].as_i64().unwrap() > 0);
    let out = qiguo(&["puzzles", "mine", file]);
    assert!(
        stdout(&out).contains("move 1, Qin to move: a5a1 (general-hunt"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("1 games: 1 positions at stake checked, 1 puzzles"));
    let puzzles = dir.join("puzzles.json");
    std::fs::write(
        &puzzles,
        stdout(&qiguo(&["puzzles", "mine", file, "--json"])),
    )
    .unwrap();
    let puzzles = puzzles.to_str().unwrap();
    let keep = dir.join("solver.json");
    let keep = keep.to_str().unwrap();

    // A word that is not a move, a move that cannot be played, the hint, then the move.
    let out = qiguo_with_input(
        &["puzzles", "play", puzzles, "--keep", keep],
        "nonsense\nj10j11\nhint\na5a1\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stdout(&out);
    assert!(said.contains("Qin to move: find the one move"), "{said}");
    assert!(said.contains("not a move"), "{said}");
    assert!(said.contains("j10j11 cannot be played"), "{said}");
    assert!(said.contains("the stone to move stands on a5"), "{said}");
    assert!(
        said.contains("Right: a5a1 (general-hunt). Your puzzle rating: 1500 →"),
        "{said}"
    );
    let solver: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(keep).unwrap()).unwrap();
    assert!(solver["mu"].as_f64().unwrap() > 25.0, "{solver}");
    // Tried: none left but the day's, which a wrong answer misses.
    let out = qiguo_with_input(&["puzzles", "play", puzzles, "--keep", keep], "a5b5\n");
    assert!(
        stdout(&out).contains("no puzzle left to try"),
        "{}",
        stdout(&out)
    );
    let out = qiguo_with_input(
        &["puzzles", "play", puzzles, "--keep", keep, "--daily"],
        "a5b5\n",
    );
    assert!(
        stdout(&out).contains("Not it: the move was a5a1"),
        "{}",
        stdout(&out)
    );

    // The game's own puzzles: one by its name (or its link); a name that is none is refused.
    let own = &qiguo::puzzles::built_in()[0];
    let link = format!("https://qiguo.example/?puzzle={}", own.id());
    let out = qiguo_with_input(
        &["puzzles", "play", "--name", &link, "--keep", keep],
        &format!("{}\n", own.solution),
    );
    let said = stdout(&out);
    assert!(
        said.contains(&format!("Puzzle {} (classic)", own.id())),
        "{said}"
    );
    assert!(said.contains(&format!("Right: {}", own.solution)), "{said}");
    let out = qiguo_with_input(
        &["puzzles", "play", "--name", &own.id(), "--keep", keep],
        "\n",
    );
    assert!(
        stdout(&out).contains("Tried before, so your puzzle rating stays"),
        "{}",
        stdout(&out)
    );
    let out = qiguo_with_input(
        &["puzzles", "play", "--name", "0123456789ab", "--keep", keep],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no puzzle called 0123456789ab in the game's puzzles"),
        "{}",
        stderr(&out)
    );
    let out = qiguo(&["puzzles", "play", "--name", "<script>"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("names no puzzle"), "{}", stderr(&out));

    // A file that is not puzzles is refused, and nothing is kept.
    let out = qiguo_with_input(&["puzzles", "play", file, "--keep", keep], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not puzzles"), "{}", stderr(&out));
    let out = qiguo(&["puzzles", "mine"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn help_and_version_succeed() {
    let out = qiguo(&["--help"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("perft"));
    let out = qiguo(&["--version"]);
    assert!(stdout(&out).starts_with("qiguo "));
}

#[test]
fn bestmove_prints_one_legal_move() {
    for args in [
        &["bestmove", "--movetime", "150"][..],
        &["bestmove", "--level", "easy", "--rules", "leventhal"][..],
        &["bestmove", "--level", "random", "--seed", "9"][..],
    ] {
        let out = qiguo(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        let mut moves_args = vec!["moves"];
        if let Some(i) = args.iter().position(|a| *a == "--rules") {
            moves_args.extend_from_slice(&args[i..i + 2]);
        }
        let legal = stdout(&qiguo(&moves_args));
        assert!(
            legal.lines().any(|m| m == text.trim_end()),
            "{args:?}: {text} is not among the legal moves"
        );
    }
}

#[test]
fn bestmove_takes_a_general_left_unprotected() {
    // Qin's Chancellor on a5 sees Chu's General on e5.
    let fen = "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR3rQ6oS7/19/19/12oG1oQ4/5rS4rG3bGbQ3 w";
    for level in ["easy", "medium", "hard"] {
        let out = qiguo(&[
            "bestmove",
            "--fen",
            fen,
            "--level",
            level,
            "--movetime",
            "300",
        ]);
        assert!(out.status.success(), "{level}: {}", stderr(&out));
        assert_eq!(stdout(&out), "a5e5\n", "{level}");
    }
}

#[test]
fn computer_tools_refuse_bad_arguments() {
    let over = "19/19/19/19/19/19/19/19/19/9E9/19/19/19/19/19/19/19/19/19 w";
    let cases: &[(&[&str], &str)] = &[
        (&["bestmove", "--level", "genius"], "genius"),
        (&["bestmove", "--movetime", "soon"], "invalid value 'soon'"),
        (&["bestmove", "--fen", over], "--fen"),
        // Series of games are the lab's (qiguo-selfplay) now.
        (&["selfplay", "--games", "3"], "selfplay"),
    ];
    assert_refused(cases);
}

#[test]
fn icon_writes_a_png_of_the_size_asked() {
    let dir = qiguo_testkit::TempDir::new("icon");
    let path = dir.join("qiguo.png");
    let out = qiguo(&["icon", "--size", "48", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("48x48"));
    let png = std::fs::read(&path).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // Width and height in the IHDR chunk.
    assert_eq!(&png[16..24], &[0, 0, 0, 48, 0, 0, 0, 48]);
    // Under a file, not a folder: nothing can be written there.
    let missing = path.join("qiguo.png");
    assert_refused(&[
        (&["icon", "--size", "8", "x.png"], "16..=1024"),
        (&["icon", missing.to_str().unwrap()], "cannot write"),
    ]);
}
