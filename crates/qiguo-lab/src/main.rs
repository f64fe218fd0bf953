//! `qiguo-selfplay`: complete games between computer players, printed as a report (or one line
//! of JSON), optionally stopped by a sequential test and kept in a ledger file.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Parser;
use qiguo_ai::eval::Weights;
use qiguo_ai::net::Net;
use qiguo_ai::{Level, ParseLevelError, SearchParams};
use qiguo_lab::cli;
use qiguo_lab::positions::PositionsFile;
use qiguo_lab::selfplay::{self, Budget, Ledger, Series, Sprt, Summary};
use qiguo_lab::weights::WeightsError;
use qiguo_rules::{Preset, Rules};

/// Play complete games between computer players and print how they went.
#[derive(Parser, Debug)]
#[command(name = "qiguo-selfplay", version)]
struct Args {
    /// Number of games.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii; several,
    /// comma-separated, are played in turn (game i under the i-th, round and round).
    #[arg(
        long = "rules",
        value_name = "PRESET[,…]",
        default_value = "classic",
        value_delimiter = ','
    )]
    presets: Vec<Preset>,
    /// Players at the table, 3 to 7 (fewer hold more kingdoms, the 1206 text's way); several,
    /// comma-separated, are seated in turn, the next once every preset of --rules was played.
    #[arg(long, value_name = "N[,…]", default_value = "7", value_delimiter = ',',
          value_parser = clap::value_parser!(u8).range(3..=7))]
    players: Vec<u8>,
    /// One level for all kingdoms, or seven (Qin … Yan), comma-separated: random, easy,
    /// medium or hard.
    #[arg(long, value_name = "L1,…,L7", default_value = "medium", value_parser = seven_levels)]
    levels: [Level; 7],
    /// Shift the levels one seat further each game, so every kingdom takes every level.
    #[arg(long)]
    rotate: bool,
    /// Seed of the first game.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Time per move for every computer player, in milliseconds (default: each level's).
    #[arg(long, value_name = "MS", conflicts_with_all = ["time_scale", "nodes"])]
    movetime: Option<u64>,
    /// Multiply each level's own time per move by F (keeps the levels' ratios).
    #[arg(long, value_name = "F", conflicts_with = "nodes", value_parser = time_scale)]
    time_scale: Option<f64>,
    /// Budget moves by positions searched instead of time, so results do not depend on the
    /// machine or its load: each level's own budget, or N positions for every level.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "0")]
    nodes: Option<u64>,
    /// Cap games at N moves; a capped game has no winner and counts as a loss for the
    /// measured seat (the first level).
    #[arg(long, value_name = "N", default_value_t = 1500,
          value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    /// Play the first N moves of every game by Easy players (varied by the seed), so that
    /// levels without variety do not repeat the same games.
    #[arg(long, value_name = "N", default_value_t = 14,
          value_parser = clap::value_parser!(u32).range(0..=300))]
    opening: u32,
    /// Print one line of JSON (games, wins per level and per seat, capped games, mean length)
    /// instead of the report.
    #[arg(long)]
    json: bool,
    /// Stop as soon as a sequential test decides whether the measured seat (the first level)
    /// wins clearly more than its fair share (H0 1/7, H1 --sprt-share, alpha = beta = 0.05);
    /// --games is then the most games played (at most 3000).
    #[arg(long)]
    sprt: bool,
    /// The measured seat's win share under the sequential test's H1: 2/7 (twice its fair
    /// share) by default; a share nearer 1/7 tells smaller differences apart in more games
    /// (0.18 decides in about 600, 0.17 in about 1,500).
    #[arg(long, value_name = "P", requires = "sprt", value_parser = share)]
    sprt_share: Option<f64>,
    /// The measured seat evaluates by the weights in FILE (JSON, as `qiguo-fit-eval` writes
    /// them), or `hand` for the hand-set ones (the default).
    #[arg(long, value_name = "FILE|hand", value_parser = weights)]
    measured_eval: Option<Weights>,
    /// Every other seat evaluates by the weights in FILE, or `hand` (the default).
    #[arg(long = "eval", value_name = "FILE|hand", value_parser = weights)]
    others_eval: Option<Weights>,
    /// The measured seat searches by the constants in FILE (JSON, as `qiguo-spsa` writes
    /// them), or `hand` for the hand-set ones (the default).
    #[arg(long, value_name = "FILE|hand", value_parser = params)]
    measured_search: Option<SearchParams>,
    /// The measured seat adds the correction of the network in FILE (as `qiguo-train-net`
    /// writes it) to its evaluation, or `none` (the default).
    #[arg(long, value_name = "FILE|none", value_parser = net)]
    measured_net: Option<NetFile>,
    /// Every other seat adds the correction of the network in FILE, or `none` (the default).
    #[arg(long = "net", value_name = "FILE|none", value_parser = net)]
    others_net: Option<NetFile>,
    /// Search every move with a fresh engine from the position's FEN alone, as `qiguo
    /// bestmove` plays, rather than with each kingdom's engine kept from move to move (seven
    /// players only: a FEN does not tell the seats).
    #[arg(long)]
    afresh: bool,
    /// Every other seat searches by the constants in FILE, or `hand` (the default).
    #[arg(long = "search", value_name = "FILE|hand", value_parser = params)]
    others_search: Option<SearchParams>,
    /// Games played at once (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Search threads of the measured seat (the first level), to measure a search on more
    /// than one core against the others on one (the games then vary from run to run; give
    /// each game its cores with --threads).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    measured_threads: u32,
    /// Keep each finished game in FILE and take the games already there from it, so that a
    /// series stopped half-way goes on where it was (same settings, same build).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Write every game played to FILE with what the search said before each move, for the
    /// lab's fits (`qiguo-fit-chances`); the format is in the lab's `positions` module.
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
}

/// Why `--levels` or `--time-scale` cannot be used as given.
#[derive(Debug, thiserror::Error)]
enum ArgError {
    /// A level's name is unknown.
    #[error(transparent)]
    Level(#[from] ParseLevelError),
    /// Neither one level nor seven.
    #[error("give one level or seven (Qin … Yan), not {0}")]
    LevelCount(usize),
    /// Not a number above 0 and at most 100.
    #[error("give a factor above 0 and at most 100")]
    Scale,
    /// Not a share above 1/7 and below 1.
    #[error("give a share above 1/7 (0.143) and below 1")]
    Share,
    /// A file of weights or constants that cannot be read.
    #[error("{0}")]
    Weights(#[from] WeightsError),
}

/// A win share above the fair 1/7 and below 1.
fn share(text: &str) -> Result<f64, ArgError> {
    match text.parse::<f64>() {
        Ok(p) if p > 1.0 / 7.0 && p < 1.0 => Ok(p),
        _ => Err(ArgError::Share),
    }
}

/// The weights in a file, or the hand-set ones.
fn weights(text: &str) -> Result<Weights, ArgError> {
    if text == "hand" {
        return Ok(Weights::HAND);
    }
    Ok(qiguo_lab::weights::read(std::path::Path::new(text))?)
}

/// A network in a file.
fn net(text: &str) -> Result<NetFile, ArgError> {
    if text == "none" {
        return Ok(NetFile(None));
    }
    Ok(NetFile(Some(Arc::new(qiguo_lab::weights::read_net(
        std::path::Path::new(text),
    )?))))
}

/// A network named on the command line, or none (`none`).
#[derive(Clone, Debug)]
struct NetFile(Option<Arc<Net>>);

/// The search's constants in a file, or the hand-set ones.
fn params(text: &str) -> Result<SearchParams, ArgError> {
    if text == "hand" {
        return Ok(SearchParams::HAND);
    }
    Ok(qiguo_lab::weights::read_params(std::path::Path::new(text))?)
}

/// One level for all seven kingdoms, or seven.
fn seven_levels(text: &str) -> Result<[Level; 7], ArgError> {
    let levels = text
        .split(',')
        .map(|l| l.trim().parse::<Level>())
        .collect::<Result<Vec<_>, _>>()?;
    match levels[..] {
        [one] => Ok([one; 7]),
        _ => <[Level; 7]>::try_from(levels.as_slice())
            .map_err(|_| ArgError::LevelCount(levels.len())),
    }
}

/// A factor above 0 and at most 100.
fn time_scale(text: &str) -> Result<f64, ArgError> {
    match text.parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 100.0 => Ok(f),
        _ => Err(ArgError::Scale),
    }
}

fn refuse(message: &str) -> ExitCode {
    cli::refuse("qiguo-selfplay", message)
}

fn main() -> ExitCode {
    let args: Args = match cli::parse("qiguo-selfplay") {
        Ok(args) => args,
        Err(code) => return code,
    };
    if args.sprt && args.games > 3000 {
        return refuse("--games: a sequential test plays at most 3000 games");
    }
    if args.afresh && args.players.iter().any(|&n| n != 7) {
        return refuse("--afresh: seven players only (a FEN does not tell the seats)");
    }
    let budget = match args.nodes {
        Some(0) => Budget::Nodes(None),
        Some(n) => Budget::Nodes(Some(n)),
        None => Budget::Time {
            movetime: args.movetime.map(Duration::from_millis),
            scale: args.time_scale.unwrap_or(1.0),
        },
    };
    let mut series = Series {
        games: args.games,
        rules: args.presets.iter().copied().map(Rules::preset).collect(),
        players: args.players.iter().map(|&n| usize::from(n)).collect(),
        levels: args.levels,
        rotate: args.rotate,
        seed: args.seed,
        budget,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        ),
        measured_threads: args.measured_threads as usize,
        max_plies: args.max_plies as usize,
        opening: args.opening as usize,
        ledger: None,
        positions: None,
        measured_weights: args.measured_eval.unwrap_or(Weights::HAND),
        weights: args.others_eval.unwrap_or(Weights::HAND),
        measured_params: args.measured_search.unwrap_or(SearchParams::HAND),
        params: args.others_search.unwrap_or(SearchParams::HAND),
        measured_net: args.measured_net.and_then(|n| n.0),
        net: args.others_net.and_then(|n| n.0),
        afresh: args.afresh,
    };
    if let Some(path) = &args.log {
        match Ledger::open(path, &series) {
            Ok(ledger) => {
                if !ledger.is_empty() {
                    eprintln!(
                        "{} games already played, from {}",
                        ledger.len(),
                        path.display()
                    );
                }
                series.ledger = Some(Arc::new(Mutex::new(ledger)));
            }
            Err(e) => return refuse(&format!("--log: {e}")),
        }
    }
    if let Some(path) = &args.positions {
        match PositionsFile::create(path, &series.identity()) {
            Ok(file) => series.positions = Some(Arc::new(Mutex::new((file, false)))),
            Err(e) => return refuse(&format!("--positions: {e}")),
        }
    }
    let (results, verdict) = if args.sprt {
        let sprt = Sprt {
            p1: args.sprt_share.unwrap_or(Sprt::ONE_IN_SEVEN.p1),
            ..Sprt::ONE_IN_SEVEN
        };
        let (results, verdict) = series.run_sequential(&sprt, selfplay::progress_bar);
        (results, Some((sprt, verdict)))
    } else {
        (series.run(selfplay::progress_bar), None)
    };
    if args.json {
        println!(
            "{}",
            Summary::of(&results, verdict.map(|(_, v)| v)).to_json()
        );
    } else {
        print!("{}", selfplay::report(&series, &results, verdict));
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option reads, and a bad network file is refused with its reason.
    #[test]
    fn the_options_read() {
        let dir = qiguo_testkit::TempDir::new("selfplay-args");
        let file = dir.join("net.qgnn");
        std::fs::write(&file, Net::drawn(2, 1).to_bytes()).unwrap();
        let file = file.to_str().unwrap();
        let args = Args::try_parse_from([
            "qiguo-selfplay",
            "--games",
            "2",
            "--levels",
            "hard",
            "--nodes",
            "100",
            "--measured-net",
            file,
            "--net",
            "none",
            "--measured-eval",
            "hand",
            "--search",
            "hand",
            "--afresh",
        ])
        .expect("the options read");
        assert_eq!(
            args.measured_net.and_then(|n| n.0).map(|n| n.hidden()),
            Some(2)
        );
        assert!(args.others_net.is_some_and(|n| n.0.is_none()));
        assert!(args.afresh);
        let bad = dir.join("bad.qgnn");
        std::fs::write(&bad, b"QGNX").unwrap();
        let refused = Args::try_parse_from([
            "qiguo-selfplay",
            "--games",
            "1",
            "--net",
            bad.to_str().unwrap(),
        ])
        .expect_err("not a network");
        assert!(
            refused.to_string().contains("not a network file"),
            "{refused}"
        );
    }
}
