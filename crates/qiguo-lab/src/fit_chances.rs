//! `qiguo-fit-chances`: fits the players' chances (`qiguo_ai::chances`) to the games of files
//! that `qiguo-selfplay --positions` wrote, and shows how well they match what happened on
//! games kept out of the fit: the weights (to be written into `qiguo-ai`'s `FITTED`), the
//! winners' mean log-likelihood for each model, and a calibration table in ten bins, in
//! Markdown.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use qiguo_ai::chances::{ChanceModel, FITTED, WEIGHTS};
use qiguo_lab::cli;
use qiguo_lab::fit::{self, Bin, Sample};
use qiguo_lab::positions;

/// Fit the players' chances to self-play games and show their calibration.
#[derive(Parser, Debug)]
#[command(name = "qiguo-fit-chances", version)]
struct Args {
    /// Files of positions (`qiguo-selfplay --positions FILE`), of one set of rules.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Keep every N-th game (by its number) out of the fit, to measure the models on.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(2..))]
    hold_out: u32,
    /// Read every K-th position of each game.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    every: u32,
}

fn refuse(message: &str) -> ExitCode {
    cli::refuse("qiguo-fit-chances", message)
}

fn main() -> ExitCode {
    let args: Args = match cli::parse("qiguo-fit-chances") {
        Ok(args) => args,
        Err(code) => return code,
    };
    let mut train: Vec<Sample> = Vec::new();
    let mut test: Vec<Sample> = Vec::new();
    let (mut games, mut won, mut kept_out) = (0, 0, 0);
    let mut rules_seen = None;
    for path in &args.files {
        let records = match positions::read(path) {
            Ok(read) => read,
            Err(e) => return refuse(&e.to_string()),
        };
        for record in records {
            // One model a preset: the goals it reads are the rules'.
            if rules_seen
                .as_ref()
                .is_some_and(|seen| *seen != record.rules)
            {
                return refuse(&format!(
                    "{}, game {}: {} rules, where the games before were {}: fit one preset at a \
                     time",
                    path.display(),
                    record.game,
                    record.rules,
                    rules_seen.unwrap_or_default()
                ));
            }
            rules_seen = Some(record.rules.clone());
            games += 1;
            won += usize::from(record.player.is_some());
            let held = record.game % args.hold_out == 0;
            kept_out += usize::from(held && record.player.is_some());
            let samples = match fit::samples(std::slice::from_ref(&record), args.every as usize) {
                Ok(samples) => samples,
                Err(e) => return refuse(&format!("{}: {e}", path.display())),
            };
            if held { &mut test } else { &mut train }.extend(samples);
        }
    }
    if train.is_empty() || test.is_empty() {
        return refuse("too few games with a winner to fit and to measure (play more)");
    }
    println!(
        "{games} games ({won} won, {} capped); fitted on {} positions of {} games, measured on {} positions of {kept_out} games kept out (every {}th game)\n",
        games - won,
        train.len(),
        won - kept_out,
        test.len(),
        args.hold_out,
    );
    let zero = ChanceModel::from_weights([0.0; WEIGHTS]);
    let evaluation_only =
        ChanceModel::from_weights([1.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.125, 3.75]);
    let without_search = fit::fit(&train, zero, &[1]);
    let with_search = fit::fit(&train, zero, &[]);
    let models = [
        (
            "the evaluation, at 800 centipawns a factor e (before)",
            evaluation_only,
        ),
        ("the evaluation and the turn, fitted", without_search.model),
        (
            "the evaluation, the search and the turn, fitted",
            with_search.model,
        ),
        ("FITTED in qiguo-ai now", FITTED),
    ];
    println!(
        "| model | weights (score, search, turns 1–6, goal, captures) | log-likelihood, held out | calibration error |"
    );
    println!("|---|---|---|---|");
    println!(
        "| every player alike | – | {:.4} | – |",
        fit::uniform_log_likelihood(&test)
    );
    for (name, model) in &models {
        let w: Vec<String> = model.weights().iter().map(|w| format!("{w:.3}")).collect();
        println!(
            "| {name} | {} | {:.4} | {:.4} |",
            w.join(", "),
            fit::mean_log_likelihood(model, &test),
            fit::calibration_error(&fit::calibration(model, &test)),
        );
    }
    println!(
        "\nNewton's steps: {} without the search, {} with it.\n",
        without_search.steps, with_search.steps
    );
    println!(
        "Calibration on the games kept out, the evaluation alone (before) and the fitted model with the search:\n"
    );
    print_bins(
        &fit::calibration(&evaluation_only, &test),
        &fit::calibration(&with_search.model, &test),
    );
    let m = with_search.model;
    println!(
        "\nAs `qiguo-ai`'s constant:\n\npub const FITTED: ChanceModel = ChanceModel {{\n    score: {:.4},\n    search: {:.4},\n    turn: [{}],\n    goal: {:.4},\n    captures: {:.4},\n}};",
        m.score,
        m.search,
        m.turn
            .iter()
            .map(|t| format!("{t:.4}"))
            .collect::<Vec<_>>()
            .join(", "),
        m.goal,
        m.captures,
    );
    ExitCode::SUCCESS
}

fn print_bins(before: &[Bin], after: &[Bin]) {
    println!("| chance given | before: count | given | won | fitted: count | given | won |");
    println!("|---|---|---|---|---|---|---|");
    for (b, a) in before.iter().zip(after) {
        println!(
            "| {:.1}–{:.1} | {} | {:.3} | {:.3} | {} | {:.3} | {:.3} |",
            b.from, b.to, b.count, b.predicted, b.observed, a.count, a.predicted, a.observed
        );
    }
}
