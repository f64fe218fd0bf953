//! `qiguo-fit-eval`: fits every weight of the evaluation at once to the games of files that
//! `qiguo-selfplay --positions` wrote (the lab's `eval_fit`), and shows the winners' mean
//! log-likelihood on games kept out of the fit before and after, each weight before and after,
//! and writes the weights found to a file that `qiguo-selfplay --measured-eval` reads.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use qiguo_ai::eval::Weights;
use qiguo_lab::eval_fit::{self, EVAL_PARAMETERS};
use qiguo_lab::{cli, positions, weights};

/// Fit the evaluation's weights to self-play games.
#[derive(Parser, Debug)]
#[command(name = "qiguo-fit-eval", version)]
struct Args {
    /// Files of positions (`qiguo-selfplay --positions FILE`); presets and seatings may mix.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Keep one game in N out of the fit (by a hash of its number), to measure on.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(2..))]
    hold_out: u32,
    /// Read every K-th position of each game.
    #[arg(long, value_name = "K", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..))]
    every: u32,
    /// Leave out positions where the search's value and the evaluation differ by more than CP
    /// centipawns (a capture in flight).
    #[arg(long, value_name = "CP", default_value_t = 300,
          value_parser = clap::value_parser!(i32).range(0..))]
    quiet: i32,
    /// How strongly the evaluation's weights are pulled towards where they started: the mean
    /// log-likelihood loses P times the square of each one's distance, in units of its size
    /// (100 centipawns for a piece, 1,000 for the per-mille weights).
    #[arg(long, value_name = "P", default_value_t = 1e-4)]
    prior: f64,
    /// Steps of the fit.
    #[arg(long, value_name = "N", default_value_t = 400,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    steps: u32,
    /// Threads of the fit (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Start from the weights in FILE instead of the hand-set ones.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Write the weights found to FILE (for `qiguo-selfplay --measured-eval FILE`).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

fn refuse(message: &str) -> ExitCode {
    cli::refuse("qiguo-fit-eval", message)
}

fn main() -> ExitCode {
    let args: Args = match cli::parse("qiguo-fit-eval") {
        Ok(args) => args,
        Err(code) => return code,
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let start_weights = match &args.from {
        Some(path) => match weights::read(path) {
            Ok(w) => w,
            Err(e) => return refuse(&e.to_string()),
        },
        None => Weights::HAND,
    };
    let read = |record: &positions::GameRecord| {
        eval_fit::samples(
            std::slice::from_ref(record),
            args.every as usize,
            args.quiet,
        )
    };
    let positions::Split {
        fitted: train,
        held_out: test,
        games,
        won,
        kept_out,
    } = match positions::read_split(&args.files, args.hold_out, read) {
        Ok(split) => split,
        Err(e) => return refuse(&e.to_string()),
    };
    if train.is_empty() || test.is_empty() {
        return refuse("too few games with a winner to fit and to measure (play more)");
    }
    println!(
        "{games} games ({won} won); fitted on {} positions of {} games, measured on {} positions of {kept_out} games kept out (one game in {}; one position in {} read, within {} centipawns of the search)\n",
        train.len(),
        won - kept_out,
        test.len(),
        args.hold_out,
        args.every,
        args.quiet,
    );
    let steps = args.steps as usize;
    let start = eval_fit::parameters_of(&start_weights);
    let began = std::time::Instant::now();
    // Before: the evaluation as it is, its chances' scale and turns fitted to it (the review's
    // model was fitted with the progress apart).
    let before = eval_fit::fit(&train, start, |i| i >= EVAL_PARAMETERS, 0.0, steps, threads);
    // After: everything at once.
    let after = eval_fit::fit(
        &train,
        before.parameters,
        |_| true,
        args.prior,
        steps,
        threads,
    );
    let seconds = began.elapsed().as_secs_f64();
    let found = eval_fit::weights_of(&after.parameters);
    // The weights as the engine will use them: whole centipawns.
    let mut rounded = after.parameters;
    rounded[..EVAL_PARAMETERS].copy_from_slice(&eval_fit::parameters_of(&found)[..EVAL_PARAMETERS]);
    let uniform = test
        .iter()
        .map(|s| -(s.players_in_game() as f64).ln())
        .sum::<f64>()
        / test.len() as f64;
    let measured = [
        ("every player alike", None),
        (
            "the evaluation's weights before (scale and turns fitted)",
            Some(before.parameters),
        ),
        ("every weight fitted", Some(after.parameters)),
        ("every weight fitted, in whole centipawns", Some(rounded)),
    ];
    println!("| model | log-likelihood, fitted on | held out |");
    println!("|---|---|---|");
    for (name, p) in measured {
        match p {
            None => println!("| {name} | – | {uniform:.4} |"),
            Some(p) => println!(
                "| {name} | {:.4} | {:.4} |",
                eval_fit::mean_log_likelihood(&p, &train),
                eval_fit::mean_log_likelihood(&p, &test)
            ),
        }
    }
    println!("\n{steps} steps each, {seconds:.1} s on {threads} threads.\n");
    println!("| weight | before | fitted |");
    println!("|---|---|---|");
    for (i, name) in eval_fit::parameter_names().iter().enumerate() {
        println!(
            "| {name} | {:.4} | {:.4} |",
            before.parameters[i], after.parameters[i]
        );
    }
    if let Some(path) = &args.out {
        let fit = serde_json::json!({
            "files": args.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
            "games": games,
            "positions_fitted": train.len(),
            "positions_held_out": test.len(),
            "prior": args.prior,
            "steps": steps,
            "held_out_before": eval_fit::mean_log_likelihood(&before.parameters, &test),
            "held_out_after": eval_fit::mean_log_likelihood(&rounded, &test),
            "chances_scales_3_to_7_players": after.parameters[EVAL_PARAMETERS..EVAL_PARAMETERS + 5].to_vec(),
            "turns": after.parameters[EVAL_PARAMETERS + 5..].to_vec(),
        });
        if let Err(e) = weights::write(path, &found, fit) {
            return refuse(&e.to_string());
        }
        println!("\nThe weights found: {}", path.display());
    }
    println!("\nAs `qiguo-ai`'s constant:\n\n{found:#?}");
    ExitCode::SUCCESS
}
