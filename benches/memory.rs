//! Memory over a long game (`cargo bench --bench memory -- [MINUTES] [LEVEL]`): the game window
//! played by seven computers (Medium unless told) at the quickest pace (*Instant*) under Xvfb
//! and Mesa's software
//! Vulkan driver, its resident memory (`VmRSS`) and the moves played sampled every
//! [`SAMPLE`], for MINUTES minutes (60 unless told). Whatever grows with time, frames or
//! moves — a mark spawned each turn and never despawned, a mesh or texture added and never
//! dropped, a log kept — shows as memory that keeps rising after the first minutes. Figures and
//! machine in `docs/performance.md`.
//!
//! A game of seven Easy computers lasted 521 moves, 31 minutes here (2026-11-29), one of seven
//! Medium computers 220 moves, 12 minutes: the window plays game after game (`--again`), each
//! new one replacing the board as a player's *New game* does, and the bench counts them.
//!
//! The window gets a settings file of its own (the pace) and its own data directory (the
//! autosave), and no sound device. Needs the release binary (`cargo build --release`), `Xvfb`
//! and `mesa-vulkan-drivers`; without them it says so and fails.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use qiguo_testkit::{Xvfb, lavapipe_icd};

/// How often the memory is read.
const SAMPLE: Duration = Duration::from_secs(30);

/// The window's size: small, so that a software renderer's frames keep up with the moves.
const WINDOW: &str = "800x600";

fn main() {
    let minutes: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(60);
    let level = std::env::args()
        .skip(1)
        .find(|a| ["easy", "medium", "hard"].contains(&a.as_str()))
        .unwrap_or_else(|| "medium".to_owned());
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    let game = target.join("release/qiguo");
    if !game.is_file() {
        eprintln!("no game at {}: run cargo build --release", game.display());
        std::process::exit(2);
    }
    let Some(icd) = lavapipe_icd() else {
        eprintln!("no lavapipe: apt-get install mesa-vulkan-drivers");
        std::process::exit(2);
    };
    let home = std::env::temp_dir().join(format!("qiguo-memory-{}", std::process::id()));
    let config = home.join("config/qiguo");
    std::fs::create_dir_all(&config).expect("a configuration directory");
    std::fs::write(
        config.join("settings.json"),
        r#"{"version": 1, "pace": "instant", "welcomed": true}"#,
    )
    .expect("the settings are written");
    let xvfb = Xvfb::start();
    let mut child = Command::new(&game)
        .args(["--levels", &level, "--again", "--window", WINDOW])
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("VK_ICD_FILENAMES", icd)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_RUNTIME_DIR", &home)
        .env(
            "RUST_LOG",
            "warn,qiguo::game::computer=debug,qiguo::game::tools=info",
        )
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the game starts");
    // The moves searched and the games begun so far, from the log, and the log's last lines.
    let moves = Arc::new(AtomicU64::new(0));
    let games = Arc::new(AtomicU64::new(1));
    let last = Arc::new(Mutex::new(Vec::<String>::new()));
    let stderr = child.stderr.take().expect("the game's log");
    {
        let (moves, games, last) = (moves.clone(), games.clone(), last.clone());
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if line.contains("searches move ") {
                    moves.fetch_add(1, Ordering::Relaxed);
                }
                if line.contains("another begins") {
                    games.fetch_add(1, Ordering::Relaxed);
                }
                if let Ok(mut last) = last.lock() {
                    last.push(line);
                    let excess = last.len().saturating_sub(5);
                    last.drain(..excess);
                }
            }
        });
    }
    println!(
        "the window ({WINDOW}, Xvfb and lavapipe), seven {level} computers at the Instant pace, \
         game after game, for {minutes} minutes:"
    );
    println!("  minute  resident memory  moves played (in all)  game");
    let start = Instant::now();
    let mut samples = Vec::new();
    while start.elapsed() < Duration::from_secs(minutes * 60) {
        std::thread::sleep(SAMPLE);
        let played = moves.load(Ordering::Relaxed);
        let game_now = games.load(Ordering::Relaxed);
        if let Ok(Some(status)) = child.try_wait() {
            let log = last.lock().map(|l| l.join("\n")).unwrap_or_default();
            eprintln!(
                "the game ended ({status}) after {:?}:\n{log}",
                start.elapsed()
            );
            std::process::exit(1);
        }
        let Some(kib) = resident_kib(child.id()) else {
            continue;
        };
        let minute = start.elapsed().as_secs_f64() / 60.0;
        println!(
            "  {minute:>6.1}  {:>11.1} MiB  {played:>21}  {game_now:>4}",
            kib as f64 / 1024.0
        );
        samples.push((minute, kib, played));
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&home);
    summarise(&samples);
}

/// The resident memory at five minutes and at the end, and the highest.
fn summarise(samples: &[(f64, u64, u64)]) {
    let at_five = samples.iter().find(|s| s.0 >= 5.0).or(samples.first());
    let (Some(five), Some(end)) = (at_five, samples.last()) else {
        println!("no sample taken");
        return;
    };
    let most = samples.iter().map(|s| s.1).max().unwrap_or(0);
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "after {:.1} min: {:.1} MiB ({} moves); after {:.1} min: {:.1} MiB ({} moves), {:+.1} MiB; the most: {:.1} MiB",
        five.0,
        mib(five.1),
        five.2,
        end.0,
        mib(end.1),
        end.2,
        mib(end.1) - mib(five.1),
        mib(most)
    );
}

/// A process's resident memory in KiB (`VmRSS` in `/proc/PID/status`).
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}
