//! `qiguo-mine-puzzles`: mines puzzles from self-play games (files that `qiguo-selfplay
//! --positions` wrote) as `qiguo puzzles mine` does from saved games (`qiguo_ai::puzzles`):
//! each game reviewed, its positions at stake checked; prints in Markdown how many positions
//! were checked and passed, by theme, with the puzzles' ratings and the time it took, and with
//! `--json FILE` writes the puzzles (what `qiguo puzzles play` reads).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use clap::Parser;
use qiguo_ai::puzzles::{self, PUZZLE_NODES, Puzzle, SCAN_NODES};
use qiguo_ai::review::{self, REVIEW_NODES};
use qiguo_lab::cli;
use qiguo_lab::positions::{self, GameRecord};

/// Mine puzzles from self-play games and count what passed the check.
#[derive(Parser, Debug)]
#[command(name = "qiguo-mine-puzzles", version)]
struct Args {
    /// Files of games (`qiguo-selfplay --positions FILE`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Mine at most this many games (the first of the files).
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u32).range(1..))]
    games: Option<u32>,
    /// Games mined at once, one thread each.
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Write the puzzles here as one JSON array.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

fn refuse(message: &str) -> ExitCode {
    cli::refuse("qiguo-mine-puzzles", message)
}

fn main() -> ExitCode {
    let args: Args = match cli::parse("qiguo-mine-puzzles") {
        Ok(args) => args,
        Err(code) => return code,
    };
    let mut work: Vec<GameRecord> = Vec::new();
    for path in &args.files {
        match positions::read(path) {
            Ok(records) => work.extend(records),
            Err(e) => return refuse(&e.to_string()),
        }
    }
    if let Some(limit) = args.games {
        work.truncate(limit as usize);
    }
    if work.is_empty() {
        return refuse("no games in the files");
    }
    let total = work.len();
    let queue = Mutex::new(work.into_iter());
    // Per game: candidates checked, the puzzles, seconds reviewing and seconds checking.
    let done: Mutex<Vec<(usize, Vec<Puzzle>, f64, f64)>> = Mutex::new(Vec::new());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some(record) = next else { break };
                    let game = match record.game() {
                        Ok(game) => game,
                        Err(e) => {
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                            break;
                        }
                    };
                    let began = Instant::now();
                    let reviewed = review::review(&game, REVIEW_NODES);
                    let reviewing = began.elapsed().as_secs_f64();
                    let began = Instant::now();
                    let (found, mined) = puzzles::mine(&game, &reviewed, SCAN_NODES, PUZZLE_NODES);
                    let checking = began.elapsed().as_secs_f64();
                    let mut all = done.lock().unwrap_or_else(|e| e.into_inner());
                    all.push((mined.candidates, found, reviewing, checking));
                    // Counted as it goes: a run cut short still says what it found.
                    let checked: usize = all.iter().map(|d| d.0).sum();
                    let passed: usize = all.iter().map(|d| d.1.len()).sum();
                    eprintln!(
                        "{} of {total} games mined: {checked} checked, {passed} puzzles",
                        all.len()
                    );
                }
            });
        }
    });
    if let Some(why) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return refuse(&why);
    }
    let done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    let wall = start.elapsed().as_secs_f64();
    let candidates: usize = done.iter().map(|d| d.0).sum();
    let all: Vec<Puzzle> = done.iter().flat_map(|d| d.1.iter().cloned()).collect();
    let reviewing: f64 = done.iter().map(|d| d.2).sum();
    let checking: f64 = done.iter().map(|d| d.3).sum();
    println!(
        "{} games: {candidates} positions at stake checked, {} puzzles ({:.1} %); {:.0} s \
         reviewing and {:.0} s checking ({:.1} s a candidate), {wall:.0} s on {} threads\n",
        done.len(),
        all.len(),
        100.0 * all.len() as f64 / candidates.max(1) as f64,
        reviewing,
        checking,
        checking / candidates.max(1) as f64,
        args.threads
    );
    let mut by_theme: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    for p in &all {
        by_theme.entry(p.theme.name()).or_default().push(p.rating);
    }
    println!("| theme | puzzles | lowest rating | median | highest |");
    println!("|---|---:|---:|---:|---:|");
    for (theme, mut ratings) in by_theme {
        ratings.sort_unstable();
        println!(
            "| {theme} | {} | {} | {} | {} |",
            ratings.len(),
            ratings[0],
            ratings[ratings.len() / 2],
            ratings[ratings.len() - 1]
        );
    }
    if let Some(path) = args.json {
        let text = serde_json::to_string(&all).expect("puzzles serialize");
        if let Err(e) = std::fs::write(&path, text) {
            return refuse(&format!("{}: {e}", path.display()));
        }
    }
    ExitCode::SUCCESS
}
