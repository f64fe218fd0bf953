//! Games between computer players, for measuring their strength: `qiguo selfplay`.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use qiguo_ai::{Engine, Level, Limits};
use qiguo_rules::{Game, Kingdom, Rules, Seats, Victory};

/// How to run a series of games.
#[derive(Clone, Debug)]
pub struct Series {
    /// Number of games.
    pub games: u32,
    /// The rules.
    pub rules: Rules,
    /// The level of each kingdom, in turn order.
    pub levels: [Level; 7],
    /// Shift the levels one seat further for each game, so every kingdom takes every level.
    pub rotate: bool,
    /// Seed of the first game; game `i` uses `seed + i`.
    pub seed: u64,
    /// Time per move for every computer player (by default, each level's own).
    pub movetime: Option<Duration>,
    /// Factor on each level's own time per move, when `movetime` is not given.
    pub time_scale: f64,
    /// Games played at once.
    pub threads: usize,
    /// A game still going after this many moves is ended by agreement (most captures wins).
    pub max_plies: usize,
}

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The levels that played, by kingdom.
    pub levels: [Level; 7],
    /// The winning kingdom.
    pub winner: Kingdom,
    /// How it won.
    pub victory: Victory,
    /// Moves played (passes included).
    pub plies: usize,
}

impl Series {
    /// The levels of game `index`.
    pub fn levels_of(&self, index: u32) -> [Level; 7] {
        let mut levels = self.levels;
        if self.rotate {
            levels.rotate_right(index as usize % 7);
        }
        levels
    }

    /// Plays game `index` to its end.
    pub fn play(&self, index: u32) -> GameResult {
        let levels = self.levels_of(index);
        let seed = self.seed.wrapping_add(index as u64);
        let mut game = Game::start(self.rules, Seats::seven());
        let mut engines: Vec<Engine> = (0..7).map(|_| Engine::new(16)).collect();
        let mut ply = 0u64;
        while game.outcome().is_none() {
            if game.len() >= self.max_plies {
                game.end_early();
                break;
            }
            let pos = game.position();
            let k = pos.to_move();
            let level = levels[k.index()];
            let limits = Limits {
                movetime: Some(
                    self.movetime
                        .unwrap_or_else(|| level.movetime().mul_f64(self.time_scale)),
                ),
                ..Limits::default()
            };
            let mv = engines[k.index()]
                .search(pos, level, &limits, seed.wrapping_mul(1_000_003) ^ ply)
                .expect("a game in progress has a move")
                .best;
            game.play(mv).expect("the computer plays legal moves");
            ply += 1;
        }
        let outcome = game.outcome().expect("the game ended");
        GameResult {
            levels,
            winner: outcome.winner,
            victory: outcome.victory,
            plies: game.len(),
        }
    }

    /// Plays every game on `threads` threads, reporting progress as games finish.
    pub fn run(&self, mut progress: impl FnMut(usize, usize) + Send) -> Vec<GameResult> {
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; self.games as usize]);
        let done = AtomicUsize::new(0);
        let progress = Mutex::new(&mut progress);
        std::thread::scope(|scope| {
            for _ in 0..self.threads.max(1) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= self.games as usize {
                            break;
                        }
                        let result = self.play(i as u32);
                        results.lock().expect("no panics while holding the lock")[i] = Some(result);
                        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                        (progress.lock().expect("no panics while holding the lock"))(
                            finished,
                            self.games as usize,
                        );
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

/// A progress bar on standard error, when it is a terminal.
pub fn progress_bar(done: usize, total: usize) {
    let mut err = std::io::stderr();
    if !err.is_terminal() {
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

/// The summary printed after a series: wins by level and by kingdom, victory types, lengths.
pub fn report(series: &Series, results: &[GameResult]) -> String {
    let n = results.len().max(1) as f64;
    let mut out = String::new();
    let level_names: Vec<&str> = series.levels.iter().map(|l| l.name()).collect();
    out.push_str(&format!(
        "games: {} · rules {} · levels {}{} · seed {} · movetime {}\n",
        results.len(),
        series.rules.preset_name(),
        level_names.join(","),
        if series.rotate { " (rotating)" } else { "" },
        series.seed,
        series.movetime.map_or(
            format!("each level's × {}", series.time_scale),
            |d| format!("{} ms", d.as_millis())
        )
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
        let wins = results
            .iter()
            .filter(|r| r.levels[r.winner.index()] == level)
            .count();
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
        let wins = results.iter().filter(|r| r.winner == k).count();
        out.push_str(&format!(" {} {}", k.name(), wins));
    }
    out.push('\n');
    out.push_str("victories:");
    for v in [
        Victory::Generals,
        Victory::Kingdoms,
        Victory::Captures,
        Victory::LastKingdom,
        Victory::EarlyEnd,
    ] {
        let count = results.iter().filter(|r| r.victory == v).count();
        if count > 0 {
            out.push_str(&format!(" {} {}", v.name(), count));
        }
    }
    out.push('\n');
    let lengths: Vec<usize> = results.iter().map(|r| r.plies).collect();
    let mean = lengths.iter().sum::<usize>() as f64 / n;
    out.push_str(&format!(
        "length: mean {mean:.1} moves, min {}, max {}\n",
        lengths.iter().min().unwrap_or(&0),
        lengths.iter().max().unwrap_or(&0)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::Preset;

    fn series(games: u32, levels: [Level; 7]) -> Series {
        Series {
            games,
            rules: Rules::preset(Preset::Classic),
            levels,
            rotate: true,
            seed: 5,
            movetime: None,
            time_scale: 1.0,
            threads: 2,
            max_plies: 3000,
        }
    }

    #[test]
    fn random_games_finish_and_are_reproducible() {
        let s = series(4, [Level::Random; 7]);
        let a = s.run(|_, _| {});
        let b = s.run(|_, _| {});
        assert_eq!(a, b);
        assert!(a.iter().all(|r| r.plies > 0));
        let text = report(&s, &a);
        assert!(text.contains("games: 4"));
        assert!(text.contains("random"));
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
