//! `qiguo-spsa`: tunes the search's constants by SPSA on pairs of self-play games (the lab's
//! `spsa`), writing the constants reached after every iteration to a file that `qiguo-selfplay
//! --measured-search` reads; a run stopped half-way goes on from that file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use qiguo_ai::eval::Weights;
use qiguo_ai::{Level, SearchParams};
use qiguo_lab::selfplay::{Budget, Series};
use qiguo_lab::spsa::{COUNT, State, Tuning};
use qiguo_lab::{cli, weights};
use qiguo_rules::{Preset, Rules};

/// Tune the search's constants on self-play games.
#[derive(Parser, Debug)]
#[command(name = "qiguo-spsa", version)]
struct Args {
    /// Iterations to play in all (a pair of games each), counting those already in --out.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iterations: u32,
    /// Rules presets, comma-separated, one per iteration in turn.
    #[arg(
        long = "rules",
        value_name = "PRESET[,…]",
        default_value = "classic",
        value_delimiter = ','
    )]
    presets: Vec<Preset>,
    /// The level whose search is tuned, at every seat: easy, medium or hard.
    #[arg(long, value_name = "L", default_value = "hard")]
    level: Level,
    /// Positions each move may search.
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = clap::value_parser!(u64).range(100..))]
    nodes: u64,
    /// Seed of the run: the draws and the games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// A game still going after this many moves is capped (it counts for neither team).
    #[arg(long, value_name = "N", default_value_t = 1500,
          value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    /// The first N moves of every game played by Easy players, varied by the seed.
    #[arg(long, value_name = "N", default_value_t = 14,
          value_parser = clap::value_parser!(u32).range(0..=300))]
    opening: u32,
    /// The step's scale: one game's result moves a constant by about RATE times its first
    /// nudge in the first iteration.
    #[arg(long, value_name = "RATE", default_value_t = 0.2)]
    rate: f64,
    /// Games played at once: two plays each pair's games side by side.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=2))]
    threads: u32,
    /// Start from the constants in FILE (as this command or `qiguo-selfplay` reads them)
    /// instead of the hand-set ones.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Write the constants reached to FILE after every iteration (with the run's state, from
    /// which a run stopped half-way goes on).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

fn refuse(message: &str) -> ExitCode {
    cli::refuse("qiguo-spsa", message)
}

/// What the run is, as its file keeps it: a run goes on only from a file of the same.
fn settings(args: &Args, start: &SearchParams) -> serde_json::Value {
    serde_json::json!({
        "rules": args.presets.iter().map(|p| p.name()).collect::<Vec<_>>(),
        "level": args.level.name(),
        "nodes": args.nodes,
        "seed": args.seed,
        "max_plies": args.max_plies,
        "opening": args.opening,
        "rate": args.rate,
        "start": start,
    })
}

/// Why an earlier run's file cannot be taken up.
#[derive(Debug, thiserror::Error)]
enum EarlierError {
    /// Its constants are not the search's (or out of their ranges).
    #[error(transparent)]
    Params(#[from] weights::WeightsError),
    /// It cannot be read.
    #[error("{path}: {why}")]
    Read { path: String, why: std::io::Error },
    /// It is not JSON.
    #[error("{path}: {why}")]
    NotJson {
        path: String,
        why: serde_json::Error,
    },
    /// It holds a run of other settings.
    #[error("{path} holds a run of other settings ({settings}); give another --out")]
    OtherSettings { path: String, settings: String },
    /// It holds no run's state, or one of other constants.
    #[error("{path}: no run's state of these constants ({why})")]
    NoState { path: String, why: String },
}

/// The state kept in `path` by an earlier run of the same settings, if any.
fn earlier(path: &Path, settings: &serde_json::Value) -> Result<Option<State>, EarlierError> {
    if !path.exists() {
        return Ok(None);
    }
    weights::read_params(path)?;
    let shown = || path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|why| EarlierError::Read { path: shown(), why })?;
    let file: serde_json::Value =
        serde_json::from_str(&text).map_err(|why| EarlierError::NotJson { path: shown(), why })?;
    let tuned = &file["tuned"];
    if tuned["settings"] != *settings {
        return Err(EarlierError::OtherSettings {
            path: shown(),
            settings: tuned["settings"].to_string(),
        });
    }
    let state: State =
        serde_json::from_value(tuned["state"].clone()).map_err(|e| EarlierError::NoState {
            path: shown(),
            why: e.to_string(),
        })?;
    if state.theta.len() != COUNT {
        return Err(EarlierError::NoState {
            path: shown(),
            why: format!("{} constants, not {COUNT}", state.theta.len()),
        });
    }
    Ok(Some(state))
}

fn main() -> ExitCode {
    let args: Args = match cli::parse("qiguo-spsa") {
        Ok(args) => args,
        Err(code) => return code,
    };
    if !(args.rate > 0.0 && args.rate <= 10.0) {
        return refuse("--rate: give a scale above 0 and at most 10");
    }
    if args.level == Level::Random {
        return refuse("--level: random does not search; give easy, medium or hard");
    }
    let start = match &args.from {
        Some(path) => match weights::read_params(path) {
            Ok(p) => p,
            Err(e) => return refuse(&format!("--from: {e}")),
        },
        None => SearchParams::HAND,
    };
    let settings = settings(&args, &start);
    let mut state = match earlier(&args.out, &settings) {
        Ok(Some(state)) => {
            eprintln!(
                "{} iterations already played, from {}",
                state.iterations,
                args.out.display()
            );
            state
        }
        Ok(None) => State::from(&start),
        Err(e) => return refuse(&format!("--out: {e}")),
    };
    let tuning = Tuning {
        series: Series {
            games: args.iterations,
            rules: args.presets.iter().copied().map(Rules::preset).collect(),
            players: vec![7],
            levels: [args.level; 7],
            rotate: false,
            seed: args.seed,
            budget: Budget::Nodes(Some(args.nodes)),
            threads: args.threads as usize,
            measured_threads: 1,
            max_plies: args.max_plies as usize,
            opening: args.opening as usize,
            ledger: None,
            positions: None,
            measured_weights: Weights::HAND,
            weights: Weights::HAND,
            measured_params: SearchParams::HAND,
            params: SearchParams::HAND,
            measured_net: None,
            net: None,
            afresh: false,
        },
        iterations: args.iterations,
        stability: f64::from(args.iterations) / 10.0,
        rate: args.rate,
    };
    let names: Vec<&str> = SearchParams::RANGES.iter().map(|r| r.0).collect();
    while state.iterations < args.iterations {
        let k = state.iterations;
        let (_, games, next) = tuning.iterate(&state, k);
        state = next;
        let tuned = serde_json::json!({
            "settings": settings,
            "state": state,
            "games": 2 * state.iterations,
            "won": {
                "plus": state.won[0], "minus": state.won[1],
                "standing": state.won[2], "capped": state.won[3],
            },
        });
        if let Err(e) = weights::write_params(&args.out, &state.params(), tuned) {
            return refuse(&format!("--out: {e}"));
        }
        let theta: Vec<String> = names
            .iter()
            .zip(&state.theta)
            .map(|(n, v)| format!("{n} {v:.2}"))
            .collect();
        eprintln!(
            "iteration {}/{}: {} and {} moves; {}",
            k + 1,
            args.iterations,
            games[0].plies,
            games[1].plies,
            theta.join(", ")
        );
    }
    let p = state.params();
    println!("{}", serde_json::to_string(&p).expect("plain numbers"));
    println!(
        "games won: nudged up {}, nudged down {}, standing {}, capped {}",
        state.won[0], state.won[1], state.won[2], state.won[3]
    );
    ExitCode::SUCCESS
}
