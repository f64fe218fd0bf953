//! `qiguo-review-games`: reviews self-play games (files that `qiguo-selfplay --positions`
//! wrote) as the server reviews finished games (`qiguo_ai::review`), and prints what the
//! thresholds of a mistake are chosen on and what a review costs, in Markdown: positions
//! searched a second on one core at the node budget, and the losses of the moves of each level
//! (their quantiles and the share of moves each threshold names).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use clap::Parser;
use qiguo_ai::review::{self, BLUNDER, INACCURACY, MISTAKE, REVIEW_NODES};
use qiguo_lab::cli;
use qiguo_lab::positions::{self, GameRecord};

/// Review self-play games and show the losses of their moves by level.
#[derive(Parser, Debug)]
#[command(name = "qiguo-review-games", version)]
struct Args {
    /// Files of games (`qiguo-selfplay --positions FILE`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Positions searched for each position of a game.
    #[arg(long, value_name = "N", default_value_t = REVIEW_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Review at most this many games (the first of the files).
    #[arg(long, value_name = "G", value_parser = clap::value_parser!(u32).range(1..))]
    games: Option<u32>,
    /// Also list the N moves that lost most, with what the review said of them.
    #[arg(long, value_name = "N", default_value_t = 0)]
    worst: usize,
    /// Games reviewed at once, one thread each.
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
}

fn refuse(message: &str) -> ExitCode {
    cli::refuse("qiguo-review-games", message)
}

/// What the review of one game found: each move's level and loss, the positions searched and
/// the seconds they took.
struct Reviewed {
    losses: Vec<(String, f64)>,
    /// The game's number, and its moves as reviewed.
    game: u32,
    moves: Vec<review::MoveReview>,
    positions: usize,
    seconds: f64,
}

fn main() -> ExitCode {
    let args: Args = match cli::parse("qiguo-review-games") {
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
    let done: Mutex<Vec<Reviewed>> = Mutex::new(Vec::new());
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
                    let reviewed = review::review(&game, args.nodes);
                    let seconds = began.elapsed().as_secs_f64();
                    let losses = reviewed
                        .moves
                        .iter()
                        .map(|m| {
                            let level = record
                                .levels
                                .get(m.mover.index())
                                .cloned()
                                .unwrap_or_default();
                            (level, m.loss())
                        })
                        .collect();
                    let mut all = done.lock().unwrap_or_else(|e| e.into_inner());
                    all.push(Reviewed {
                        losses,
                        game: record.game,
                        positions: reviewed.moves.len() + 1,
                        moves: reviewed.moves,
                        seconds,
                    });
                    eprintln!("{} of {total} games reviewed", all.len());
                }
            });
        }
    });
    if let Some(why) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return refuse(&why);
    }
    let done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    let wall = start.elapsed().as_secs_f64();
    let positions: usize = done.iter().map(|r| r.positions).sum();
    let busy: f64 = done.iter().map(|r| r.seconds).sum();
    println!(
        "{} games, {positions} positions at {} nodes: {:.1} positions a second on one core \
         ({busy:.0} s of searching, {wall:.0} s on {} threads); a game of 400 moves in {:.0} s\n",
        done.len(),
        args.nodes,
        positions as f64 / busy,
        args.threads,
        400.0 * busy / positions as f64,
    );
    let mut levels: Vec<String> = done
        .iter()
        .flat_map(|r| r.losses.iter().map(|(l, _)| l.clone()))
        .collect();
    levels.sort();
    levels.dedup();
    println!(
        "| level | moves | mean loss | median | 90 % | 99 % | ≥ {INACCURACY} | ≥ {MISTAKE} | ≥ {BLUNDER} |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for level in levels {
        let mut losses: Vec<f64> = done
            .iter()
            .flat_map(|r| r.losses.iter())
            .filter(|(l, _)| *l == level)
            .map(|(_, loss)| *loss)
            .collect();
        losses.sort_by(f64::total_cmp);
        let n = losses.len();
        let quantile = |q: f64| losses[((n - 1) as f64 * q).round() as usize];
        let share = |t: f64| 100.0 * losses.iter().filter(|&&l| l >= t).count() as f64 / n as f64;
        println!(
            "| {level} | {n} | {:.4} | {:.4} | {:.4} | {:.4} | {:.1} % | {:.1} % | {:.1} % |",
            losses.iter().sum::<f64>() / n as f64,
            quantile(0.5),
            quantile(0.9),
            quantile(0.99),
            share(INACCURACY),
            share(MISTAKE),
            share(BLUNDER),
        );
    }
    if args.worst > 0 {
        let mut worst: Vec<(u32, &review::MoveReview)> = done
            .iter()
            .flat_map(|r| r.moves.iter().map(move |m| (r.game, m)))
            .collect();
        worst.sort_by(|a, b| b.1.loss().total_cmp(&a.1.loss()));
        println!(
            "\n| game | ply | mover | played | best | best's chance | played's chance | loss |"
        );
        println!("|---:|---:|---|---|---|---:|---:|---:|");
        for (game, m) in worst.into_iter().take(args.worst) {
            println!(
                "| {game} | {} | {} | {} | {} | {:.3} | {:.3} | {:.3} |",
                m.ply,
                m.mover.title(),
                m.played,
                m.best,
                m.best_chance,
                m.played_chance,
                m.loss()
            );
        }
    }
    ExitCode::SUCCESS
}
