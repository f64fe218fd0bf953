//! `qiguo-train-net`: trains the learned correction to the evaluation ([`qiguo_ai::net`]) on
//! the games of files that `qiguo-selfplay --positions` wrote (the lab's `net_train`), shows
//! the winners' mean log-likelihood on games kept out before and after, epoch by epoch, and
//! writes the network that predicted them best to a file that `qiguo-selfplay --measured-net`
//! reads.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use qiguo_ai::eval::Weights;
use qiguo_ai::net::MAX_HIDDEN;
use qiguo_lab::eval_fit::{self, EVAL_PARAMETERS, EvalSample};
use qiguo_lab::net_train::{self, Trainer};
use qiguo_lab::{cli, positions};

/// Train a network's correction to the evaluation on self-play games.
#[derive(Parser, Debug)]
#[command(name = "qiguo-train-net", version)]
struct Args {
    /// Files of positions (`qiguo-selfplay --positions FILE`); presets and seatings may mix.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Keep one game in N out of the training (by a hash of its number), to measure on.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(2..))]
    hold_out: u32,
    /// Read every K-th position of each game.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    every: u32,
    /// Leave out positions where the search's value and the evaluation differ by more than CP
    /// centipawns (a capture in flight).
    #[arg(long, value_name = "CP", default_value_t = 300,
          value_parser = clap::value_parser!(i32).range(0..))]
    quiet: i32,
    /// Hidden units.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=MAX_HIDDEN as i64))]
    hidden: u32,
    /// Passes over the positions.
    #[arg(long, value_name = "N", default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    epochs: u32,
    /// Positions in a step.
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..))]
    batch: u32,
    /// Adam's learning rate.
    #[arg(long, value_name = "R", default_value_t = 0.001)]
    rate: f32,
    /// Weight decay: each step, every weight shrinks by D times the learning rate (a weight
    /// the games do not hold up goes back to 0).
    #[arg(long, value_name = "D", default_value_t = 0.0)]
    decay: f32,
    /// Seed of the first weights and of the order of positions.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Threads of the training (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Write the network to FILE (for `qiguo-selfplay --measured-net FILE`).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

fn refuse(message: &str) -> ExitCode {
    cli::refuse("qiguo-train-net", message)
}

fn main() -> ExitCode {
    let args: Args = match cli::parse("qiguo-train-net") {
        Ok(args) => args,
        Err(code) => return code,
    };
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return refuse("--rate: a positive number");
    }
    if !(args.decay.is_finite() && args.decay >= 0.0 && args.rate * args.decay < 1.0) {
        return refuse("--decay: a number from 0, below 1 / --rate");
    }
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let read = |record: &positions::GameRecord| {
        net_train::samples(
            std::slice::from_ref(record),
            args.every as usize,
            args.quiet,
        )
    };
    let positions::Split {
        fitted: mut train,
        held_out: mut test,
        games,
        won,
        kept_out,
    } = match positions::read_split(&args.files, args.hold_out, read) {
        Ok(split) => split,
        Err(e) => return refuse(&e.to_string()),
    };
    if train.is_empty() || test.is_empty() {
        return refuse("too few games with a winner to train and to measure (play more)");
    }
    println!(
        "{games} games ({won} won); trained on {} positions of {} games, measured on {} positions of {kept_out} games kept out (one game in {}; one position in {} read, within {} centipawns of the search)\n",
        train.len(),
        won - kept_out,
        test.len(),
        args.hold_out,
        args.every,
        args.quiet,
    );
    let began = std::time::Instant::now();
    // The hand-set evaluation with its chances' scales and turns fitted: the starting point,
    // and the measure to beat.
    let evals: Vec<EvalSample> = train.iter().map(|s| s.eval().clone()).collect();
    let start = eval_fit::parameters_of(&Weights::HAND);
    let chances = eval_fit::fit(&evals, start, |i| i >= EVAL_PARAMETERS, 0.0, 200, threads);
    drop(evals);
    for s in train.iter_mut().chain(test.iter_mut()) {
        s.score_by(&chances.parameters);
    }
    let mut trainer = Trainer::new(args.hidden as usize, chances.parameters, args.seed);
    let before = (
        trainer.mean_log_likelihood(&train, threads),
        trainer.mean_log_likelihood(&test, threads),
    );
    println!(
        "| epoch | log-likelihood, trained on | held out | seconds |\n|---|---|---|---|\n| the hand-set evaluation | {:.4} | {:.4} | {:.0} |",
        before.0,
        before.1,
        began.elapsed().as_secs_f64()
    );
    let mut best = (before.1, trainer.clone(), 0);
    for epoch in 1..=args.epochs {
        trainer.epoch(
            &train,
            args.batch as usize,
            (args.rate, args.decay),
            threads,
            args.seed ^ u64::from(epoch) << 32,
        );
        let (seen, held) = (
            trainer.mean_log_likelihood(&train, threads),
            trainer.mean_log_likelihood(&test, threads),
        );
        println!(
            "| {epoch} | {seen:.4} | {held:.4} | {:.0} |",
            began.elapsed().as_secs_f64()
        );
        if held > best.0 {
            best = (held, trainer.clone(), epoch);
        }
    }
    let (held, trainer, epoch) = best;
    println!(
        "\nKept: epoch {epoch}, held out {held:.4} (the hand-set evaluation: {:.4}); {} hidden units, {} weights.",
        before.1,
        args.hidden,
        trainer.to_net().to_bytes().len() / 2
    );
    if let Some(path) = &args.out {
        if let Err(e) = std::fs::write(path, trainer.to_net().to_bytes()) {
            return refuse(&format!("{}: {e}", path.display()));
        }
        println!("The network: {}", path.display());
    }
    ExitCode::SUCCESS
}
