//! Games between computer players, for measuring their strength: `qiguo-selfplay`.
//!
//! The seat measured is the first level of the series (Qin's in the first game; with
//! `rotate` it moves one kingdom further each game). A game still going after `max_plies`
//! moves is capped: it has no winner and counts as a loss for the measured seat. A sequential
//! probability ratio test ([`Sprt`]) can stop a series as soon as the measured seat's win share
//! is clearly above or clearly at the fair share of one in seven.

use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qiguo_ai::SearchParams;
use qiguo_ai::eval::Weights;
use qiguo_ai::net::Net;
use qiguo_ai::{Engine, Level, LevelSearch, Limits, TableSize};
use qiguo_rules::{Game, Kingdom, Position, Rules, Seating, Seats, Victory};
use serde::Serialize;

use crate::positions::{self, GameRecord, PositionsFile};

/// What a computer player may spend on a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Wall-clock time: `movetime` for every level, or each level's own times `scale`.
    Time {
        /// Time per move for every level.
        movetime: Option<Duration>,
        /// Factor on each level's own time, when `movetime` is not given.
        scale: f64,
    },
    /// Positions visited: `Some(n)` for every level, or each level's own ([`Level::nodes`]).
    /// The same games on any machine, under any load.
    Nodes(Option<u64>),
}

impl Budget {
    /// The search limits of `level`.
    pub fn limits(self, level: Level) -> Limits {
        match self {
            Budget::Time { movetime, scale } => Limits {
                movetime: Some(movetime.unwrap_or_else(|| level.movetime().mul_f64(scale))),
                ..Limits::default()
            },
            Budget::Nodes(nodes) => Limits {
                nodes: Some(nodes.unwrap_or_else(|| level.nodes()).max(1)),
                ..Limits::default()
            },
        }
    }

    fn describe(self) -> String {
        match self {
            Budget::Time {
                movetime: Some(d), ..
            } => format!("{} ms per move", d.as_millis()),
            Budget::Time { scale, .. } => format!("each level's time × {scale}"),
            Budget::Nodes(Some(n)) => format!("{n} positions per move"),
            Budget::Nodes(None) => "each level's positions per move".to_owned(),
        }
    }
}

/// How to run a series of games.
#[derive(Clone, Debug)]
pub struct Series {
    /// Number of games.
    pub games: u32,
    /// The rules: game `i` is played under the `i % len`-th (one preset, or several in turn).
    pub rules: Vec<Rules>,
    /// The players at the table, 3 to 7, seated the 1206 text's way ([`Seating::traditional`]:
    /// fewer players each hold more kingdoms): game `i` takes the `(i / presets) % len`-th
    /// count, so that every preset meets every count.
    pub players: Vec<usize>,
    /// The level of each kingdom, in turn order.
    pub levels: [Level; 7],
    /// Shift the levels one seat further for each game, so every kingdom takes every level.
    pub rotate: bool,
    /// Seed of the first game; game `i` uses `seed + i`.
    pub seed: u64,
    /// What each move may cost.
    pub budget: Budget,
    /// Games played at once.
    pub threads: usize,
    /// Threads each search of the measured seat runs on (see [`Engine::set_threads`]): above
    /// one, its games are no longer the same from run to run, and each game wants that many
    /// cores to itself.
    pub measured_threads: usize,
    /// A game still going after this many moves is capped: no winner.
    pub max_plies: usize,
    /// The first this many moves of every game are played by Easy players, whatever the
    /// levels, varied by the game's seed: levels without variety (Medium, Hard) would otherwise
    /// play the same seven games over and over.
    pub opening: usize,
    /// Where finished games are kept, so that a long series stopped half-way goes on from
    /// where it was (`selfplay --log`).
    pub ledger: Option<Arc<Mutex<Ledger>>>,
    /// Where the games played are kept with what the search said before each move
    /// (`selfplay --positions`), and whether writing it has failed.
    pub positions: Option<Arc<Mutex<(PositionsFile, bool)>>>,
    /// The evaluation's weights of the measured seat (`selfplay --measured-eval`).
    pub measured_weights: Weights,
    /// The evaluation's weights of every other seat (`selfplay --eval`).
    pub weights: Weights,
    /// The search's constants of the measured seat (`selfplay --measured-search`).
    pub measured_params: SearchParams,
    /// The search's constants of every other seat (`selfplay --search`).
    pub params: SearchParams,
    /// The network whose correction the measured seat adds to its evaluation
    /// (`selfplay --measured-net`).
    pub measured_net: Option<Arc<Net>>,
    /// The network whose correction every other seat adds (`selfplay --net`).
    pub net: Option<Arc<Net>>,
    /// Every move searched by a fresh engine (the command line's table, no memory of the moves
    /// before) from the position's FEN alone, as `qiguo bestmove` plays (`selfplay --afresh`);
    /// otherwise each kingdom keeps its engine from move to move, as the game's computers do.
    pub afresh: bool,
}

/// A network by its size and a hash (FNV-1a) of its file's bytes.
pub fn describe(net: &Net) -> String {
    let hash = net
        .to_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{} hidden units, FNV-1a {hash:016x}", net.hidden())
}

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The levels that played, by kingdom.
    pub levels: [Level; 7],
    /// The winning kingdom and how it won; `None` for a capped game.
    pub winner: Option<(Kingdom, Victory)>,
    /// Moves played (passes included).
    pub plies: usize,
    /// The kingdom of the measured seat.
    pub measured: Kingdom,
}

impl GameResult {
    /// Whether the measured seat won.
    pub fn measured_won(&self) -> bool {
        self.winner.is_some_and(|(k, _)| k == self.measured)
    }

    /// The level of the winner.
    pub fn winning_level(&self) -> Option<Level> {
        self.winner.map(|(k, _)| self.levels[k.index()])
    }
}

impl Series {
    /// The rules of game `index`.
    pub fn rules_of(&self, index: u32) -> Rules {
        match self.rules.len() {
            0 => Rules::default(),
            n => self.rules[index as usize % n],
        }
    }

    /// Who holds each kingdom in game `index`.
    pub fn seats_of(&self, index: u32) -> Seats {
        // The counts turn once the presets have all been played: every preset meets every
        // count (with five of each, in 25 games), not always the same one.
        let players = match self.players.len() {
            0 => 7,
            n => self.players[index as usize / self.rules.len().max(1) % n],
        };
        Seating::traditional(players)
            .and_then(|seating| seating.seats().ok())
            .unwrap_or_else(Seats::seven)
    }

    /// The presets' names, comma-separated.
    fn rules_names(&self) -> String {
        self.rules
            .iter()
            .map(Rules::preset_name)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The levels of game `index`.
    pub fn levels_of(&self, index: u32) -> [Level; 7] {
        let mut levels = self.levels;
        if self.rotate {
            levels.rotate_right(index as usize % 7);
        }
        levels
    }

    /// The kingdom of the measured seat in game `index`.
    pub fn measured_of(&self, index: u32) -> Kingdom {
        let shift = if self.rotate { index as usize % 7 } else { 0 };
        Kingdom::ALL[shift]
    }

    fn seed_of(&self, index: u32) -> u64 {
        self.seed.wrapping_add(index as u64).wrapping_mul(1_000_003)
    }

    /// Game `index` after its opening: the first [`Series::opening`] moves, played by Easy
    /// players within Easy's node budget (the same on any machine).
    pub fn opening_of(&self, index: u32) -> Game {
        let mut game = Game::start(self.rules_of(index), self.seats_of(index));
        let mut engine = Engine::new(TableSize::entries_log2(16));
        let limits = Budget::Nodes(None).limits(Level::Easy);
        while game.outcome().is_none() && game.len() < self.opening.min(self.max_plies) {
            // Apart from the seeds of the levels' own moves in the same game.
            let seed = self.seed_of(index) ^ game.len() as u64 ^ 0x0BE7_0000;
            let mv = engine
                .search(game.position(), Level::Easy, &limits, seed)
                .expect("a game in progress has a move")
                .best;
            game.play(mv).expect("the computer plays legal moves");
        }
        game
    }

    /// Plays game `index` to its end, or to the cap.
    pub fn play(&self, index: u32) -> GameResult {
        self.play_recorded(index).0
    }

    /// Plays game `index` to its end, or to the cap, and keeps its moves with what the search
    /// said before each.
    pub fn play_recorded(&self, index: u32) -> (GameResult, GameRecord) {
        let measured = self.measured_of(index);
        self.play_by(index, |kingdom, engine| {
            if kingdom == measured {
                engine.set_threads(self.measured_threads);
                engine.set_weights(self.measured_weights);
                engine.set_params(self.measured_params);
                engine.set_net(self.measured_net.clone());
            } else {
                engine.set_weights(self.weights);
                engine.set_params(self.params);
                engine.set_net(self.net.clone());
            }
        })
    }

    /// Plays game `index` to its end, or to the cap, each kingdom's engine made ready by
    /// `ready` (its weights, constants, threads), and keeps its moves with what the search said
    /// before each.
    pub fn play_by(
        &self,
        index: u32,
        ready: impl Fn(Kingdom, &mut Engine),
    ) -> (GameResult, GameRecord) {
        let levels = self.levels_of(index);
        let mut game = self.opening_of(index);
        let mut searched = vec![None; game.len()];
        let mut engines: Vec<Engine> = (0..7)
            .map(|_| Engine::new(TableSize::entries_log2(16)))
            .collect();
        for (kingdom, engine) in Kingdom::ALL.into_iter().zip(&mut engines) {
            ready(kingdom, engine);
        }
        while game.outcome().is_none() && game.len() < self.max_plies {
            let ply = game.len() as u64;
            let pos = game.position();
            let k = pos.to_move();
            let level = levels[k.index()];
            let limits = self.budget.limits(level);
            let seed = self.seed_of(index) ^ ply;
            let result = if self.afresh {
                let mut engine = Engine::default();
                ready(k, &mut engine);
                // What a FEN tells: the board and who moves (not the captures and losses the
                // rules count, nor the seats); the move found is one of this board's.
                let alone = Position::from_fen(&pos.to_fen(), *pos.rules())
                    .expect("a position's FEN reads back");
                engine.search(&alone, level, &limits, seed)
            } else {
                engines[k.index()].search(pos, level, &limits, seed)
            }
            .expect("a game in progress has a move");
            searched.push(positions::searched(&result));
            game.play(result.best)
                .expect("the computer plays legal moves");
        }
        let record = GameRecord::of(index, &levels, &game, searched);
        let result = GameResult {
            levels,
            winner: game.outcome().map(|o| (o.winner, o.victory)),
            plies: game.len(),
            measured: self.measured_of(index),
        };
        (result, record)
    }

    /// The settings that make a series' games what they are (not how many, nor on how many
    /// threads), as one line of JSON: the first line of its ledger.
    pub fn identity(&self) -> String {
        let mut identity = serde_json::json!({
            "qiguo_selfplay": 1,
            "rules": self.rules_names(),
            "levels": self.levels.iter().map(|l| l.name()).collect::<Vec<_>>(),
            "rotate": self.rotate,
            "seed": self.seed,
            "budget": self.budget.describe(),
            "max_plies": self.max_plies,
            "opening": self.opening,
        });
        if self.measured_threads > 1 {
            identity["measured_threads"] = self.measured_threads.into();
        }
        if self.afresh {
            identity["afresh"] = true.into();
        }
        // The hand-set evaluation, the only one before the fitted weights, is left unsaid.
        if self.measured_weights != Weights::HAND {
            identity["measured_eval"] = serde_json::json!(self.measured_weights);
        }
        if self.weights != Weights::HAND {
            identity["eval"] = serde_json::json!(self.weights);
        }
        // So are the hand-set search constants.
        if self.measured_params != SearchParams::HAND {
            identity["measured_search"] = serde_json::json!(self.measured_params);
        }
        if self.params != SearchParams::HAND {
            identity["search"] = serde_json::json!(self.params);
        }
        // A network by a hash of its file's bytes.
        for (key, net) in [("measured_net", &self.measured_net), ("net", &self.net)] {
            if let Some(net) = net {
                identity[key] = describe(net).into();
            }
        }
        // Seven players, the first series' only seating, is left unsaid: their ledgers go on.
        if self.players.iter().any(|&n| n != 7) {
            identity["players"] = self.players.clone().into();
        }
        identity.to_string()
    }

    /// Game `index` from the ledger, if it was played before.
    fn played(&self, index: u32) -> Option<GameResult> {
        let ledger = self.ledger.as_ref()?;
        let ledger = ledger.lock().expect("no panics while holding the lock");
        let (winner, plies) = *ledger.games.get(&index)?;
        Some(GameResult {
            levels: self.levels_of(index),
            winner,
            plies,
            measured: self.measured_of(index),
        })
    }

    /// Writes game `index` to the ledger, if there is one; a failed write is reported once
    /// and the series goes on.
    fn keep(&self, index: u32, result: &GameResult) {
        if let Some(ledger) = &self.ledger {
            let mut ledger = ledger.lock().expect("no panics while holding the lock");
            if let Err(e) = ledger.record(index, result) {
                if !ledger.failed {
                    eprintln!("selfplay: {e}; games go on without it");
                }
                ledger.failed = true;
            }
        }
    }

    /// Writes a game's moves and searches to the file of positions, if there is one; a failed
    /// write is reported once and the series goes on.
    fn keep_positions(&self, record: &GameRecord) {
        if let Some(file) = &self.positions {
            let mut file = file.lock().expect("no panics while holding the lock");
            if let Err(e) = file.0.write(record) {
                if !file.1 {
                    eprintln!("selfplay: {e}; games go on without it");
                }
                file.1 = true;
            }
        }
    }

    /// Plays games in order, `threads` at a time, until `sprt` reaches a verdict or every game
    /// is played. Returns the games the verdict rests on (those after the deciding one, played
    /// alongside it, are dropped so the result does not depend on the number of threads).
    pub fn run_sequential(
        &self,
        sprt: &Sprt,
        mut progress: impl FnMut(usize, usize, &GameResult) + Send,
    ) -> (Vec<GameResult>, SprtVerdict) {
        let mut results: Vec<GameResult> = Vec::new();
        let batch = self.threads.max(1) as u32;
        let mut start = 0;
        while start < self.games {
            let count = batch.min(self.games - start);
            let played = self.run_range(start, count, &mut |_, _, _| {});
            for result in played {
                progress(results.len() + 1, self.games as usize, &result);
                results.push(result);
                let verdict = sprt.verdict(&results);
                if verdict != SprtVerdict::Continue {
                    return (results, verdict);
                }
            }
            start += count;
        }
        (results, SprtVerdict::Undecided)
    }

    /// Plays every game on `threads` threads, reporting progress as games finish.
    pub fn run(
        &self,
        mut progress: impl FnMut(usize, usize, &GameResult) + Send,
    ) -> Vec<GameResult> {
        self.run_range(0, self.games, &mut progress)
    }

    /// Plays games `first..first + count` on `threads` threads.
    fn run_range(
        &self,
        first: u32,
        count: u32,
        progress: &mut (impl FnMut(usize, usize, &GameResult) + Send),
    ) -> Vec<GameResult> {
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; count as usize]);
        let done = AtomicUsize::new(0);
        let progress = Mutex::new(progress);
        std::thread::scope(|scope| {
            for _ in 0..self.threads.max(1) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count as usize {
                            break;
                        }
                        let index = first + i as u32;
                        let result = self.played(index).unwrap_or_else(|| {
                            let (result, record) = self.play_recorded(index);
                            self.keep(index, &result);
                            self.keep_positions(&record);
                            result
                        });
                        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                        (progress.lock().expect("no panics while holding the lock"))(
                            finished,
                            count as usize,
                            &result,
                        );
                        results.lock().expect("no panics while holding the lock")[i] = Some(result);
                    }
                });
            }
        });
        results
            .into_inner()
            .expect("no panics while holding the lock")
            .into_iter()
            .map(|r| r.expect("every game was played"))
            .collect()
    }
}

/// Why a ledger could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file keeps the games of a series of other settings.
    #[error("{path} holds another series ({found}); this one is {expected}")]
    OtherSeries {
        /// The file.
        path: PathBuf,
        /// The settings on its first line.
        found: String,
        /// This series' settings.
        expected: String,
    },
    /// A line is not a finished game.
    #[error("{path}, line {line}: not a finished game: {text}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What it holds.
        text: String,
    },
}

/// The games of a series already played, kept in a file: the series' identity on the first
/// line, then one line of JSON per finished game (`{"game":3,"winner":"qin","victory":"generals",
/// "plies":412}`; a capped game has no winner). Games are reproducible from their number, so a
/// series that stopped — a closed terminal, a machine turned off — goes on where it was with
/// the same results. The file must come from the same build of the game: a changed engine
/// would play other games under the same settings.
#[derive(Debug)]
pub struct Ledger {
    path: PathBuf,
    games: BTreeMap<u32, (Option<(Kingdom, Victory)>, usize)>,
    failed: bool,
}

impl Ledger {
    /// Opens the ledger at `path` for `series`, reading the games it holds, or starts it.
    /// Fails, touching nothing, when the file belongs to another series or cannot be read.
    pub fn open(path: &Path, series: &Series) -> Result<Ledger, LedgerError> {
        let read = |source| LedgerError::Read {
            path: path.to_owned(),
            source,
        };
        let identity = series.identity();
        let mut games = BTreeMap::new();
        match std::fs::File::open(path) {
            Ok(file) => {
                let mut lines = std::io::BufReader::new(file).lines();
                let first = lines.next().transpose().map_err(read)?.unwrap_or_default();
                if first.trim() != identity {
                    return Err(LedgerError::OtherSeries {
                        path: path.to_owned(),
                        found: first.trim().to_owned(),
                        expected: identity,
                    });
                }
                for (n, line) in lines.enumerate() {
                    let line = line.map_err(read)?;
                    if line.trim().is_empty() {
                        continue;
                    }
                    let (index, game) = Self::parse(&line).ok_or_else(|| LedgerError::Damaged {
                        path: path.to_owned(),
                        line: n + 2,
                        text: line.clone(),
                    })?;
                    games.insert(index, game);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::write(path, format!("{identity}\n")).map_err(|source| {
                    LedgerError::Write {
                        path: path.to_owned(),
                        source,
                    }
                })?;
            }
            Err(e) => return Err(read(e)),
        }
        Ok(Ledger {
            path: path.to_owned(),
            games,
            failed: false,
        })
    }

    /// How many games the ledger holds.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    fn parse(line: &str) -> Option<(u32, (Option<(Kingdom, Victory)>, usize))> {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        let index = u32::try_from(v["game"].as_u64()?).ok()?;
        let plies = usize::try_from(v["plies"].as_u64()?).ok()?;
        let winner = match (&v["winner"], &v["victory"]) {
            (serde_json::Value::Null, serde_json::Value::Null) => None,
            (serde_json::Value::String(k), serde_json::Value::String(how)) => Some((
                k.parse::<Kingdom>().ok()?,
                Victory::ALL.into_iter().find(|x| x.name() == how)?,
            )),
            _ => return None,
        };
        Some((index, (winner, plies)))
    }

    fn record(&mut self, index: u32, result: &GameResult) -> Result<(), LedgerError> {
        self.games.insert(index, (result.winner, result.plies));
        let line = serde_json::json!({
            "game": index,
            "winner": result.winner.map(|(k, _)| k.name()),
            "victory": result.winner.map(|(_, v)| v.name()),
            "plies": result.plies,
        });
        std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .and_then(|mut f| writeln!(f, "{line}"))
            .map_err(|source| LedgerError::Write {
                path: self.path.clone(),
                source,
            })
    }
}

/// Progress on standard error: a bar on a terminal; otherwise (a log file, a background run)
/// one line per finished game, so that a long series can be followed.
pub fn progress_bar(done: usize, total: usize, game: &GameResult) {
    let mut err = std::io::stderr();
    if !err.is_terminal() {
        let measured = game.levels[game.measured.index()];
        let outcome = match game.winner {
            None => "capped".to_string(),
            Some((k, victory)) => {
                format!("{k} ({}) {}", game.levels[k.index()], victory.describe())
            }
        };
        let _ = writeln!(
            err,
            "game {done}/{total}: {} ({measured}) {}; {outcome}; {} moves",
            game.measured,
            if game.measured_won() { "won" } else { "lost" },
            game.plies
        );
        return;
    }
    let width = 30;
    let filled = done * width / total.max(1);
    let _ = write!(
        err,
        "\r[{}{}] {done}/{total} games",
        "#".repeat(filled),
        "-".repeat(width - filled)
    );
    if done == total {
        let _ = writeln!(err);
    }
    let _ = err.flush();
}

/// The sequential probability ratio test of a series: is the measured seat's win share the
/// fair share `p0` (H0) or clearly above it, `p1` (H1)? Each game is a win or not (a capped
/// game is not); the log-likelihood ratio is compared with Wald's bounds for the error rates
/// `alpha` (accepting H1 when H0 holds) and `beta` (the reverse).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Win share under H0.
    pub p0: f64,
    /// Win share under H1.
    pub p1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtVerdict {
    /// Not decided yet.
    Continue,
    /// H1: the measured seat wins clearly more than its fair share.
    Stronger,
    /// H0: it wins no more than its fair share.
    NotStronger,
    /// Every game was played without a decision.
    Undecided,
}

impl Sprt {
    /// One seat against six: H0 = 1/7, H1 = 2/7, α = β = 0.05.
    pub const ONE_IN_SEVEN: Sprt = Sprt {
        p0: 1.0 / 7.0,
        p1: 2.0 / 7.0,
        alpha: 0.05,
        beta: 0.05,
    };

    /// The log-likelihood ratio of H1 against H0 after `wins` wins in `games` games.
    pub fn llr(&self, wins: usize, games: usize) -> f64 {
        let losses = games - wins;
        wins as f64 * (self.p1 / self.p0).ln()
            + losses as f64 * ((1.0 - self.p1) / (1.0 - self.p0)).ln()
    }

    /// The verdict after `results`, in the order played.
    pub fn verdict(&self, results: &[GameResult]) -> SprtVerdict {
        let wins = results.iter().filter(|r| r.measured_won()).count();
        let llr = self.llr(wins, results.len());
        if llr >= ((1.0 - self.beta) / self.alpha).ln() {
            SprtVerdict::Stronger
        } else if llr <= (self.beta / (1.0 - self.alpha)).ln() {
            SprtVerdict::NotStronger
        } else {
            SprtVerdict::Continue
        }
    }
}

/// A series' result in numbers, printed by `--json` as one line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Wins by level name (capped games are nobody's).
    pub wins_by_level: std::collections::BTreeMap<&'static str, usize>,
    /// Wins by kingdom, Qin to Yan.
    pub wins_by_seat: [usize; 7],
    /// Wins of the measured seat.
    pub measured_wins: usize,
    /// Games capped at the move limit.
    pub capped: usize,
    /// Mean game length in moves.
    pub mean_length: f64,
    /// The sequential test's verdict, when one was run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtVerdict>,
}

impl Summary {
    /// The numbers of `results`.
    pub fn of(results: &[GameResult], sprt: Option<SprtVerdict>) -> Summary {
        let mut wins_by_level = std::collections::BTreeMap::new();
        let mut wins_by_seat = [0; 7];
        for r in results {
            if let (Some((k, _)), Some(level)) = (r.winner, r.winning_level()) {
                *wins_by_level.entry(level.name()).or_insert(0) += 1;
                wins_by_seat[k.index()] += 1;
            }
        }
        Summary {
            games: results.len(),
            wins_by_level,
            wins_by_seat,
            measured_wins: results.iter().filter(|r| r.measured_won()).count(),
            capped: results.iter().filter(|r| r.winner.is_none()).count(),
            mean_length: results.iter().map(|r| r.plies).sum::<usize>() as f64
                / results.len().max(1) as f64,
            sprt,
        }
    }

    /// One line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("summaries serialize")
    }
}

/// The summary printed after a series: the measured seat, wins by level and by kingdom,
/// victory types, capped games, lengths, and the sequential test's verdict if one ran.
pub fn report(
    series: &Series,
    results: &[GameResult],
    sprt: Option<(Sprt, SprtVerdict)>,
) -> String {
    let n = results.len().max(1) as f64;
    let mut out = String::new();
    let level_names: Vec<&str> = series.levels.iter().map(|l| l.name()).collect();
    out.push_str(&format!(
        "games: {} · rules {} · levels {}{}{} · seed {} · {} · opening {} moves by Easy · capped at {} moves\n",
        results.len(),
        series.rules_names(),
        level_names.join(","),
        if series.rotate { " (rotating)" } else { "" },
        if series.measured_threads > 1 {
            format!(" · measured seat on {} threads", series.measured_threads)
        } else {
            String::new()
        },
        series.seed,
        series.budget.describe(),
        series.opening,
        series.max_plies
    ));
    let summary = Summary::of(results, sprt.map(|(_, verdict)| verdict));
    out.push_str(&format!(
        "measured seat ({}): {} wins  {:.1}%  (fair share 14.3%)\n",
        series.levels[0].name(),
        summary.measured_wins,
        100.0 * summary.measured_wins as f64 / n
    ));
    out.push_str("wins by level (share of games; seats per game; share if equal):\n");
    for level in Level::ALL {
        let seats: usize = results
            .iter()
            .map(|r| r.levels.iter().filter(|l| **l == level).count())
            .sum();
        if seats == 0 {
            continue;
        }
        let wins = summary
            .wins_by_level
            .get(level.name())
            .copied()
            .unwrap_or(0);
        let per_game = seats as f64 / n;
        out.push_str(&format!(
            "  {:<7} {:>4} wins  {:>5.1}%  ({:.1} seats/game; equal share {:.1}%)\n",
            level.name(),
            wins,
            100.0 * wins as f64 / n,
            per_game,
            100.0 * per_game / 7.0
        ));
    }
    out.push_str("wins by kingdom:");
    for k in Kingdom::ALL {
        out.push_str(&format!(
            " {} {}",
            k.name(),
            summary.wins_by_seat[k.index()]
        ));
    }
    out.push('\n');
    out.push_str("victories:");
    for v in Victory::ALL {
        let count = results
            .iter()
            .filter(|r| r.winner.is_some_and(|(_, won)| won == v))
            .count();
        if count > 0 {
            out.push_str(&format!(" {} {}", v.name(), count));
        }
    }
    out.push('\n');
    out.push_str(&format!(
        "capped (no winner, a loss for the measured seat): {}\n",
        summary.capped
    ));
    let lengths: Vec<usize> = results.iter().map(|r| r.plies).collect();
    out.push_str(&format!(
        "length: mean {:.1} moves, min {}, max {}\n",
        summary.mean_length,
        lengths.iter().min().unwrap_or(&0),
        lengths.iter().max().unwrap_or(&0)
    ));
    if let Some((test, verdict)) = sprt {
        out.push_str(&sprt_line(&test, verdict));
    }
    out
}

/// The sequential test's line of a report: its hypotheses as run and its verdict.
fn sprt_line(test: &Sprt, verdict: SprtVerdict) -> String {
    let text = match verdict {
        SprtVerdict::Stronger => format!(
            "stronger: the measured seat wins about {:.1} % or more",
            test.p1 * 100.0
        ),
        SprtVerdict::NotStronger => format!(
            "not stronger: the measured seat wins about {:.1} % or less",
            test.p0 * 100.0
        ),
        SprtVerdict::Undecided | SprtVerdict::Continue => {
            "undecided: every game was played without a decision".to_owned()
        }
    };
    format!(
        "sequential test (H0 {:.1} %, H1 {:.1} %, alpha {}, beta {}): {text}\n",
        test.p0 * 100.0,
        test.p1 * 100.0,
        test.alpha,
        test.beta
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequential_line_names_the_hypotheses_as_run() {
        let test = Sprt {
            p1: 0.18,
            ..Sprt::ONE_IN_SEVEN
        };
        assert_eq!(
            sprt_line(&test, SprtVerdict::NotStronger),
            "sequential test (H0 14.3 %, H1 18.0 %, alpha 0.05, beta 0.05): not stronger: \
             the measured seat wins about 14.3 % or less\n"
        );
        assert!(
            sprt_line(&Sprt::ONE_IN_SEVEN, SprtVerdict::Stronger)
                .contains("H1 28.6 %, alpha 0.05, beta 0.05): stronger: the measured seat wins about 28.6 % or more")
        );
    }
    use qiguo_rules::{PieceKind, Preset};

    fn series(games: u32, levels: [Level; 7]) -> Series {
        Series {
            games,
            rules: vec![Rules::preset(Preset::Classic)],
            players: vec![7],
            levels,
            rotate: true,
            seed: 5,
            budget: Budget::Nodes(None),
            threads: 2,
            measured_threads: 1,
            max_plies: 1500,
            opening: 0,
            ledger: None,
            positions: None,
            measured_weights: Weights::HAND,
            measured_net: None,
            net: None,
            afresh: false,
            weights: Weights::HAND,
            measured_params: SearchParams::HAND,
            params: SearchParams::HAND,
        }
    }

    #[test]
    fn random_games_finish_and_are_reproducible() {
        let s = series(4, [Level::Random; 7]);
        let a = s.run(|_, _, _| {});
        let b = s.run(|_, _, _| {});
        assert_eq!(a, b);
        assert!(a.iter().all(|r| r.plies > 0));
        let text = report(&s, &a, None);
        assert!(text.contains("games: 4"));
        assert!(text.contains("random"));
        let summary = Summary::of(&a, None);
        assert_eq!(summary.games, 4);
        assert_eq!(
            summary.wins_by_seat.iter().sum::<usize>() + summary.capped,
            4
        );
        let json: serde_json::Value = serde_json::from_str(&summary.to_json()).unwrap();
        assert_eq!(json["games"], 4);
        assert!(json["wins_by_level"].is_object());
        assert!(!summary.to_json().contains('\n'));
    }

    /// Played afresh (a fresh engine a move, from the position's FEN), a series is as
    /// reproducible as played with engines kept, and its games are others; its ledger says so,
    /// and names a network by its hash.
    #[test]
    fn games_played_afresh_are_reproducible_and_their_own() {
        let mut levels = [Level::Medium; 7];
        levels[0] = Level::Hard;
        let mut kept = series(2, levels);
        kept.budget = Budget::Nodes(Some(1_500));
        kept.opening = 14;
        kept.max_plies = 120;
        let mut afresh = kept.clone();
        afresh.afresh = true;
        let a = afresh.run(|_, _, _| {});
        assert_eq!(a, afresh.run(|_, _, _| {}));
        let moves = |s: &Series| {
            (0..2)
                .map(|i| s.play_recorded(i).1.moves)
                .collect::<Vec<_>>()
        };
        assert_ne!(moves(&kept), moves(&afresh));
        let identity: serde_json::Value = serde_json::from_str(&afresh.identity()).unwrap();
        assert_eq!(identity["afresh"], true);
        assert!(identity.get("measured_net").is_none());
        let net = Arc::new(Net::drawn(4, 9));
        afresh.measured_net = Some(net.clone());
        let identity: serde_json::Value = serde_json::from_str(&afresh.identity()).unwrap();
        assert_eq!(identity["measured_net"], describe(&net));
        assert!(identity.get("net").is_none());
    }

    /// A game written to a file of positions reads back whole: its moves play again to its
    /// end, the search's values stand before the moves searched, and the places follow who
    /// left the game when.
    #[test]
    fn games_kept_with_their_searches_read_back_and_play_again() {
        let dir = qiguo_testkit::TempDir::new("lab-positions");
        let path = dir.join("positions.jsonl");
        let mut s = series(2, [Level::Random; 7]);
        // Game 0 to its end by random players; game 1 capped after six moves of Easy's.
        let (won, won_record) = s.play_recorded(0);
        s.levels = [Level::Easy; 7];
        s.budget = Budget::Nodes(Some(20_000));
        s.max_plies = 6;
        let (capped, capped_record) = s.play_recorded(1);
        assert!(won.winner.is_some() && capped.winner.is_none());
        s.positions = Some(Arc::new(Mutex::new((
            PositionsFile::create(&path, &s.identity()).unwrap(),
            false,
        ))));
        s.keep_positions(&won_record);
        s.keep_positions(&capped_record);
        let games = positions::read(&path).unwrap();
        assert_eq!(games, [won_record.clone(), capped_record.clone()]);
        assert_eq!(games[0].rules, "classic");
        assert_eq!(games[0].seats, Seats::seven());

        let replayed = games[0].positions().unwrap();
        assert_eq!(replayed.len(), won.plies + 1);
        let end = replayed.last().unwrap().0.outcome().unwrap();
        assert_eq!(Some(end.winner), won.winner.map(|(k, _)| k));
        assert!(
            games[0].searched.iter().all(Option::is_none),
            "random moves are not searched"
        );
        let places = games[0].places.unwrap();
        assert_eq!(places[end.winner.index()], 1);
        assert_eq!(places.iter().filter(|p| **p == 1).count(), 1);
        let last_out = (0..7)
            .filter(|&k| k != end.winner.index())
            .max_by_key(|&k| games[0].out[k].unwrap_or(usize::MAX))
            .unwrap();
        assert_eq!(places[last_out], 2, "{places:?} {:?}", games[0].out);

        assert_eq!(games[1].searched.len(), 6);
        assert!(games[1].searched[0].is_some(), "{:?}", games[1].searched);
        assert_eq!(games[1].places, None);
        assert_eq!(games[1].positions().unwrap().len(), 7);

        // A file of another format, or a damaged game, is refused with its name.
        std::fs::write(&path, "{\"qiguo_positions\": 99}\n").unwrap();
        let refused = positions::read(&path).unwrap_err().to_string();
        assert!(
            refused.contains("positions.jsonl") && refused.contains("format 2"),
            "{refused}"
        );
        let mut bad = games[1].clone();
        bad.moves[3] = "a1a1".into();
        assert!(matches!(
            bad.positions(),
            Err(positions::ReplayError::Move { ply: 4, .. })
        ));
        bad.rules = "chess".into();
        assert!(matches!(
            bad.game(),
            Err(positions::ReplayError::Rules { .. })
        ));
    }

    /// Several presets are played in turn, each game's record naming its own, and each plays
    /// again under it; the series' identity names them all.
    #[test]
    fn presets_are_played_in_turn_and_kept_with_each_game() {
        let mut s = series(4, [Level::Random; 7]);
        s.rules = vec![
            Rules::preset(Preset::Classic),
            Rules::preset(Preset::Wikipedia),
        ];
        s.max_plies = 40;
        for index in 0..4 {
            let (_, record) = s.play_recorded(index);
            let name = if index % 2 == 0 {
                "classic"
            } else {
                "wikipedia"
            };
            assert_eq!(record.rules, name);
            assert_eq!(record.rules().unwrap(), s.rules_of(index));
            assert_eq!(record.game().unwrap().len(), record.moves.len());
        }
        assert!(
            s.identity().contains("\"rules\":\"classic,wikipedia\""),
            "{}",
            s.identity()
        );
        assert!(!s.identity().contains("players"), "{}", s.identity());
    }

    /// Tables of several sizes are seated in turn, the 1206 text's way; each game's record
    /// keeps its seats and plays again under them, and its places name one winner.
    #[test]
    fn seatings_are_played_in_turn_and_kept_with_each_game() {
        let mut s = series(3, [Level::Random; 7]);
        s.players = vec![7, 5, 3];
        // With two presets the counts turn every second game: each preset meets each.
        let mut two = s.clone();
        two.rules = vec![
            Rules::preset(Preset::Classic),
            Rules::preset(Preset::Wikipedia),
        ];
        let met: Vec<(Rules, usize)> = (0..6)
            .map(|i| (two.rules_of(i), two.seats_of(i).player_count()))
            .collect();
        for preset in &two.rules {
            for players in [7, 5, 3] {
                assert!(met.contains(&(*preset, players)), "{met:?}");
            }
        }
        for (index, players) in [(0, 7), (1, 5), (2, 3)] {
            let seats = s.seats_of(index);
            assert_eq!(seats.player_count(), players);
            let (result, record) = s.play_recorded(index);
            assert_eq!(record.seats, seats);
            let game = record.game().unwrap();
            assert_eq!(*game.start_position().seats(), seats);
            assert_eq!(game.len(), result.plies);
            if let Some(places) = record.places {
                assert_eq!(places.iter().filter(|&&p| p == 1).count(), 1, "{places:?}");
            }
        }
        assert!(
            s.identity().contains("\"players\":[7,5,3]"),
            "{}",
            s.identity()
        );
    }

    /// Medium plays without variety: without an opening the games of one seat repeat, with
    /// one they differ (and are still reproducible).
    #[test]
    fn openings_vary_the_games() {
        let mut s = series(8, [Level::Medium; 7]);
        let start = Game::start(s.rules_of(0), Seats::seven()).position().hash();
        assert_eq!(s.opening_of(0).position().hash(), start);
        s.opening = 14;
        let (a, b) = (s.opening_of(0), s.opening_of(7));
        assert_eq!(a.len(), 14);
        assert_ne!(a.position().hash(), b.position().hash());
        assert_eq!(a.position().hash(), s.opening_of(0).position().hash());
        assert_eq!(
            s.measured_of(0),
            s.measured_of(7),
            "the same seat, another game"
        );
    }

    /// The measured seat may evaluate by other weights than the rest: its games change, and
    /// so does the series' identity (a ledger of the hand-set weights is not taken for it).
    #[test]
    fn the_measured_seat_plays_by_its_own_weights() {
        let mut s = series(1, [Level::Medium; 7]);
        s.budget = Budget::Nodes(Some(300));
        s.max_plies = 40;
        let hand = s.play_recorded(0).1;
        let identity = s.identity();
        assert!(!identity.contains("measured_eval"), "{identity}");
        // A measured seat that thinks cannons worthless and mobility everything.
        let mut odd = Weights::HAND;
        odd.opening[PieceKind::Cannon as usize - 1] = 0;
        odd.ending[PieceKind::Cannon as usize - 1] = 0;
        odd.mobility = 60;
        s.measured_weights = odd;
        let other = s.play_recorded(0).1;
        assert_ne!(hand.moves, other.moves);
        // Qin, the measured seat, plays otherwise; the others play as before until it does.
        let first_difference = hand
            .moves
            .iter()
            .zip(&other.moves)
            .position(|(a, b)| a != b)
            .expect("the games differ");
        assert_eq!(first_difference % 7, 0, "Qin's move differs first");
        assert!(s.identity().contains("measured_eval"), "{}", s.identity());
    }

    /// The measured seat may search by other constants than the rest (Hard, whose search
    /// they shape): its moves change, and so does the series' identity.
    #[test]
    fn the_measured_seat_searches_by_its_own_constants() {
        let mut s = series(1, [Level::Hard; 7]);
        s.budget = Budget::Nodes(Some(1_500));
        s.max_plies = 28;
        let hand = s.play_recorded(0).1;
        assert!(!s.identity().contains("search"), "{}", s.identity());
        // A measured seat that follows no capture beyond its depth.
        s.measured_params = SearchParams {
            quiescence_depth: 0,
            ..SearchParams::HAND
        };
        let other = s.play_recorded(0).1;
        let first_difference = hand
            .moves
            .iter()
            .zip(&other.moves)
            .position(|(a, b)| a != b)
            .expect("the games differ");
        assert_eq!(first_difference % 7, 0, "Qin's move differs first");
        assert!(s.identity().contains("measured_search"), "{}", s.identity());
        assert!(!s.identity().contains("\"search\""), "{}", s.identity());
    }

    #[test]
    fn capped_games_have_no_winner_and_count_against_the_measured_seat() {
        let mut s = series(2, [Level::Random; 7]);
        s.max_plies = 5;
        let results = s.run(|_, _, _| {});
        assert!(results.iter().all(|r| r.winner.is_none() && r.plies == 5));
        assert_eq!(Summary::of(&results, None).capped, 2);
        assert!(results.iter().all(|r| !r.measured_won()));
        assert!(
            report(&s, &results, None)
                .contains("capped (no winner, a loss for the measured seat): 2")
        );
    }

    fn game(measured_won: bool) -> GameResult {
        GameResult {
            levels: [Level::Random; 7],
            winner: Some((
                if measured_won {
                    Kingdom::Qin
                } else {
                    Kingdom::Chu
                },
                Victory::Generals,
            )),
            plies: 100,
            measured: Kingdom::Qin,
        }
    }

    #[test]
    fn the_sequential_test_stops_on_either_bound() {
        let sprt = Sprt::ONE_IN_SEVEN;
        // ln 19 = 2.944; a win adds ln 2 = 0.693, a loss ln(5/6) = -0.182.
        let losses: Vec<GameResult> = (0..16).map(|_| game(false)).collect();
        assert_eq!(sprt.verdict(&losses), SprtVerdict::Continue);
        let losses: Vec<GameResult> = (0..17).map(|_| game(false)).collect();
        assert_eq!(sprt.verdict(&losses), SprtVerdict::NotStronger);
        let wins: Vec<GameResult> = (0..5).map(|_| game(true)).collect();
        assert_eq!(sprt.verdict(&wins[..4]), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&wins), SprtVerdict::Stronger);
        // The fair share itself drifts towards H0: 1 win in 7, over and over.
        let fair: Vec<GameResult> = (0..140).map(|i| game(i % 7 == 0)).collect();
        let first_verdict = (1..=140)
            .map(|n| sprt.verdict(&fair[..n]))
            .find(|v| *v != SprtVerdict::Continue);
        assert_eq!(first_verdict, Some(SprtVerdict::NotStronger));
    }

    #[test]
    fn a_sequential_series_rests_on_the_games_in_order() {
        let mut levels = [Level::Random; 7];
        levels[0] = Level::Easy;
        let mut s = series(14, levels);
        s.budget = Budget::Nodes(Some(2_000));
        let (one, v1) = Series {
            threads: 1,
            ..s.clone()
        }
        .run_sequential(&Sprt::ONE_IN_SEVEN, |_, _, _| {});
        let (two, v2) =
            Series { threads: 2, ..s }.run_sequential(&Sprt::ONE_IN_SEVEN, |_, _, _| {});
        assert_eq!(one, two, "the same games whatever the threads");
        assert_eq!(v1, v2);
    }

    /// A series with a ledger plays the games it lacks, takes the others from the file (a
    /// doctored length shows they are read, not played again), and extends it; a ledger of
    /// other settings or with a damaged line is refused.
    #[test]
    fn a_ledger_keeps_finished_games_for_the_next_run() {
        let dir = qiguo_testkit::TempDir::new("ledger");
        let path = dir.join("series.log");
        let s = series(3, [Level::Random; 7]);
        let with_ledger = |s: &Series| Series {
            ledger: Some(Arc::new(Mutex::new(Ledger::open(&path, s).unwrap()))),
            ..s.clone()
        };
        let played = s.run(|_, _, _| {});
        assert_eq!(with_ledger(&s).run(|_, _, _| {}), played);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next(), Some(s.identity().as_str()));
        assert_eq!(text.lines().count(), 4);

        let doctored: Vec<String> = text
            .lines()
            .map(
                |line| match serde_json::from_str::<serde_json::Value>(line) {
                    Ok(mut v) if v["game"] == 1 => {
                        v["plies"] = 7.into();
                        v.to_string()
                    }
                    _ => line.to_owned(),
                },
            )
            .collect();
        std::fs::write(&path, doctored.join("\n") + "\n").unwrap();
        let longer = Series {
            games: 5,
            ..s.clone()
        };
        let again = with_ledger(&longer).run(|_, _, _| {});
        assert_eq!(again[1].plies, 7, "game 1 read from the ledger");
        assert_eq!(again[0], played[0]);
        assert_eq!(again[4], longer.play(4));
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 6);

        let other = Series {
            seed: 6,
            ..s.clone()
        };
        let refused = Ledger::open(&path, &other).unwrap_err();
        assert!(
            matches!(refused, LedgerError::OtherSeries { .. }),
            "{refused}"
        );
        assert!(refused.to_string().contains("another series"), "{refused}");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        writeln!(
            file,
            "{{\"game\":9,\"winner\":\"nobody\",\"victory\":null,\"plies\":3}}"
        )
        .unwrap();
        let damaged = Ledger::open(&path, &s).unwrap_err();
        assert!(
            matches!(damaged, LedgerError::Damaged { line: 7, .. }),
            "{damaged}"
        );
    }

    #[test]
    fn levels_rotate_through_the_seats() {
        let mut levels = [Level::Random; 7];
        levels[0] = Level::Hard;
        let s = series(7, levels);
        for i in 0..7 {
            let l = s.levels_of(i);
            assert_eq!(l[i as usize], Level::Hard);
            assert_eq!(l.iter().filter(|x| **x == Level::Hard).count(), 1);
        }
    }
}
