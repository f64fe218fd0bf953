//! Searches one position as the page's worker does, natively, for comparing the page's search
//! with the desktop's (docs/performance.md). The position is the one reached from the classic
//! start by `--after N` moves of Easy computers (seed 1); `--level` searches it (Hard by default,
//! with its own move time); `--threads T` as the desktop's Hard does on its cores (by default
//! one, as in the page). `--job` prints the search job instead (JSON), to post to the page's
//! worker; otherwise the answer is printed (JSON: move, score, depth, nodes, time).
//!
//! ```text
//! cargo run --release -p qiguo-worker --example think -- --after 40 --threads 2
//! ```

use qiguo_ai::job::SearchJob;
use qiguo_ai::{Engine, Level, Limits, TableSize};
use qiguo_rules::{Game, PlayerInfo, Record, Rules, Seats};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut threads, mut after, mut level, mut job_only) = (1, 0, Level::Hard, false);
    while let Some(arg) = args.next() {
        let value = |args: &mut dyn Iterator<Item = String>| args.next().unwrap_or_default();
        match arg.as_str() {
            "--threads" => threads = value(&mut args).parse().unwrap_or(0),
            "--after" => after = value(&mut args).parse().unwrap_or(usize::MAX),
            "--level" => level = value(&mut args).parse().unwrap_or(Level::Random),
            "--job" => job_only = true,
            _ => threads = 0,
        }
    }
    if threads == 0 || after == usize::MAX {
        eprintln!("usage: think [--after N] [--level L] [--threads T] [--job]");
        std::process::exit(2);
    }
    let mut game = Game::start(Rules::default(), Seats::default());
    let mut easy = Engine::new(TableSize::entries_log2(14));
    for n in 0..after {
        let limits = Limits {
            nodes: Some(2_000),
            ..Limits::default()
        };
        match easy.search(game.position(), Level::Easy, &limits, 1 + n as u64) {
            Some(found) if game.play(found.best).is_ok() => {}
            _ => break,
        }
    }
    let job = SearchJob {
        id: 1,
        record: Record::from_game(&game, PlayerInfo::defaults(7)),
        level,
        movetime_ms: None,
        nodes: None,
        seed: 1,
    };
    if job_only {
        println!("{}", job.to_json());
        return;
    }
    let mut engine = Engine::new(TableSize::entries_log2(17));
    engine.set_threads(threads);
    println!("{}", job.run(&mut engine).to_json());
}
