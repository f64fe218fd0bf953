//! `qiguo-selfplay` run as a real process: its report, its JSON line, the sequential test,
//! the ledger file, and one-line refusals of bad arguments; `qiguo-spsa` likewise, its file
//! of constants read back and its run taken up again.

use std::process::{Command, Output};

fn selfplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiguo-selfplay"))
        .args(args)
        .output()
        .expect("the qiguo-selfplay binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[test]
fn selfplay_reports_wins_victories_and_lengths() {
    let args = [
        "--games",
        "3",
        "--levels",
        "random",
        "--seed",
        "4",
        "--threads",
        "2",
    ];
    let out = selfplay(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("games: 3 · rules classic"), "{text}");
    let by_kingdom = text
        .lines()
        .find_map(|l| l.strip_prefix("wins by kingdom: "))
        .expect("a line of wins by kingdom");
    let wins: u32 = by_kingdom
        .split_whitespace()
        .skip(1)
        .step_by(2)
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert_eq!(wins, 3, "{text}");
    assert!(text.contains("victories: "), "{text}");
    assert!(text.contains("length: mean "), "{text}");
    // Random movers with a seed play the same games however many threads run them.
    let again = selfplay(&[
        "--games",
        "3",
        "--levels",
        "random",
        "--seed",
        "4",
        "--threads",
        "1",
    ]);
    assert_eq!(stdout(&again), text);
}

/// A series kept with `--log` goes on where it stopped; a file of other settings is refused
/// and left as it was.
#[test]
fn selfplay_log_goes_on_where_the_series_stopped() {
    let dir = qiguo_testkit::TempDir::new("cli-log");
    let log = dir.join("series.log");
    let log_arg = log.to_str().unwrap();
    let run = |games: &str, seed: &str| {
        selfplay(&[
            "--games", games, "--levels", "random", "--seed", seed, "--json", "--log", log_arg,
        ])
    };
    let first = run("3", "1");
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 4);
    let more = run("5", "1");
    assert!(more.status.success(), "{}", stderr(&more));
    assert!(
        stderr(&more).contains("3 games already played"),
        "{}",
        stderr(&more)
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&more)).unwrap();
    assert_eq!(json["games"], 5);
    let kept = std::fs::read_to_string(&log).unwrap();
    assert_eq!(kept.lines().count(), 6);
    // The same five games as a series without a file.
    let plain = selfplay(&[
        "--games", "5", "--levels", "random", "--seed", "1", "--json",
    ]);
    assert_eq!(stdout(&plain), stdout(&more));
    let other = run("3", "2");
    assert!(!other.status.success());
    assert!(stderr(&other).contains("--log"), "{}", stderr(&other));
    assert!(
        stderr(&other).contains("another series"),
        "{}",
        stderr(&other)
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), kept);
}

#[test]
fn selfplay_prints_json_and_stops_on_a_sequential_verdict() {
    // Easy against six random movers, by positions searched: it wins clearly more than one
    // game in seven, and the test stops long before 60 games.
    let args = [
        "--games",
        "60",
        "--levels",
        "easy,random,random,random,random,random,random",
        "--rotate",
        "--nodes",
        "2000",
        "--sprt",
        "--json",
        "--threads",
        "2",
    ];
    let out = selfplay(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["sprt"], "stronger", "{text}");
    let games = json["games"].as_u64().unwrap();
    assert!((5..60).contains(&games), "{text}");
    assert_eq!(
        json["measured_wins"], json["wins_by_level"]["easy"],
        "{text}"
    );
    let seats: u64 = json["wins_by_seat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(seats + json["capped"].as_u64().unwrap(), games, "{text}");
    // Standard error (not a terminal here) follows the series game by game, in order.
    let progress = stderr(&out);
    let lines: Vec<&str> = progress
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(lines.len() as u64, games, "{progress}");
    assert!(lines[0].starts_with("game 1/60: Qin (easy) "), "{progress}");
    assert!(lines[1].starts_with("game 2/60: Chu (easy) "), "{progress}");
    // The same verdict on the same games with one thread.
    let mut one = args;
    *one.last_mut().unwrap() = "1";
    assert_eq!(stdout(&selfplay(&one)), text);
    // A cap of a few moves: every game capped, none won.
    let capped = selfplay(&[
        "--games",
        "3",
        "--levels",
        "random",
        "--max-plies",
        "4",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&capped)).unwrap();
    assert_eq!(json["capped"], 3);
    assert_eq!(json["mean_length"], 4.0);
}

#[test]
fn bad_arguments_are_refused_in_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--games", "0"], "--games"),
        (
            &["--games", "2", "--levels", "hard,easy"],
            "give one level or seven",
        ),
        (&["--games", "2", "--time-scale", "0"], "--time-scale"),
        (
            &["--games", "2", "--movetime", "5", "--time-scale", "2"],
            "cannot be used with",
        ),
        (
            &["--games", "4000", "--sprt"],
            "a sequential test plays at most 3000 games",
        ),
        (
            &["--games", "20", "--sprt", "--sprt-share", "0.1"],
            "give a share above 1/7",
        ),
        (
            &[
                "--games",
                "2",
                "--measured-eval",
                "/nonexistent/weights.json",
            ],
            "/nonexistent/weights.json",
        ),
        (
            &["--games", "2", "--nodes", "5", "--movetime", "5"],
            "cannot be used with",
        ),
        (
            &["--games", "2", "--search", "/nonexistent/constants.json"],
            "/nonexistent/constants.json",
        ),
    ];
    for (args, expect) in cases {
        let out = selfplay(args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: printed {}", stdout(&out));
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("qiguo-selfplay: "), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

fn spsa(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiguo-spsa"))
        .args(args)
        .output()
        .expect("the qiguo-spsa binary runs")
}

/// A short tuning run: its file of constants after each iteration, which `qiguo-selfplay`
/// reads, a run taken up again from it, and one of other settings refused.
#[test]
fn spsa_writes_its_constants_and_goes_on_from_them() {
    let dir = qiguo_testkit::TempDir::new("qiguo-spsa");
    let out = dir.path().join("tuned.json");
    let out_arg = out.to_str().unwrap();
    let run = |iterations: &str, seed: &str| {
        spsa(&[
            "--iterations",
            iterations,
            "--level",
            "easy",
            "--nodes",
            "200",
            "--max-plies",
            "24",
            "--seed",
            seed,
            "--out",
            out_arg,
        ])
    };
    let first = run("1", "3");
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("iteration 1/1: 24 and 24 moves"),
        "{}",
        stderr(&first)
    );
    // Both games capped at 24 moves: counted for neither team.
    assert!(
        stdout(&first).contains("nudged up 0, nudged down 0, standing 0, capped 2"),
        "{}",
        stdout(&first)
    );
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file["qiguo_search_params"], 1);
    assert_eq!(file["tuned"]["state"]["iterations"], 1);
    assert_eq!(file["params"]["quiescence_depth"], 6, "{file}");
    // The file is one selfplay reads.
    let played = selfplay(&[
        "--games",
        "1",
        "--levels",
        "random",
        "--max-plies",
        "10",
        "--search",
        out_arg,
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    // Taken up again: one more iteration, not two.
    let second = run("2", "3");
    assert!(second.status.success(), "{}", stderr(&second));
    let said = stderr(&second);
    assert!(said.contains("1 iterations already played"), "{said}");
    assert!(
        said.contains("iteration 2/2") && !said.contains("iteration 1/2"),
        "{said}"
    );
    // Another seed is another run: refused, the file kept.
    let other = run("3", "4");
    assert!(!other.status.success());
    let err = stderr(&other);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a run of other settings"), "{err}");
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(kept["tuned"]["state"]["iterations"], 2);
    // Bad arguments, in one line.
    for (args, expect) in [
        (vec!["--iterations", "0", "--out", out_arg], "--iterations"),
        (
            vec!["--iterations", "2", "--level", "random", "--out", out_arg],
            "random does not search",
        ),
        (
            vec!["--iterations", "2", "--rate", "0", "--out", out_arg],
            "--rate",
        ),
        (
            vec![
                "--iterations",
                "2",
                "--from",
                "/nonexistent/c.json",
                "--out",
                out_arg,
            ],
            "/nonexistent/c.json",
        ),
    ] {
        let refused = spsa(&args);
        let err = stderr(&refused);
        assert!(!refused.status.success(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("qiguo-spsa: ") && err.contains(expect),
            "{args:?}: {err}"
        );
    }
}
