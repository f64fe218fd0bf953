//! `qiguo puzzles`: puzzles from real games in a terminal. `mine FILE…` reviews saved game
//! records and mines their puzzles (`qiguo_ai::puzzles`), printing them or their JSON (the file
//! `play` reads); `play FILE` shows one on a board of text and asks for its move, rating the
//! solver against it (the solver's rating kept beside the saved games).

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use qiguo_ai::puzzles::{self, Mined, PUZZLE_NODES, Puzzle, SCAN_NODES};
use qiguo_ai::review::{REVIEW_NODES, review};
use qiguo_rating::Rating;
use qiguo_rules::{Point, Position, Preset, Record, Rules, SIZE, notation};
use serde::{Deserialize, Serialize};

use crate::cli::{ArgError, ToolError};

/// Reviews each record in `records` and mines its puzzles: one JSON array of them with `json`,
/// else a line each and how many candidates passed the check.
pub fn mine(records: &[PathBuf], json: bool) -> Result<String, ToolError> {
    let mut all = Vec::new();
    let mut text = String::new();
    let mut total = Mined::default();
    for path in records {
        let option = || path.display().to_string();
        let read = std::fs::read_to_string(path).map_err(|e| ArgError::new(option(), e))?;
        let game = Record::from_json(&read)
            .and_then(|r| r.replay())
            .map_err(|e| ArgError::new(option(), e))?;
        let reviewed = review(&game, REVIEW_NODES);
        let (found, mined) = puzzles::mine(&game, &reviewed, SCAN_NODES, PUZZLE_NODES);
        total.candidates += mined.candidates;
        total.puzzles += mined.puzzles;
        for p in &found {
            let _ = writeln!(
                text,
                "{}: move {}, {} to move: {} ({}, rated {}; {:.0} % against {:.0} % for the next best)",
                path.display(),
                p.ply,
                p.mover.title(),
                p.solution,
                p.theme.name(),
                p.rating,
                100.0 * p.chance,
                100.0 * p.second
            );
        }
        all.extend(found);
    }
    if json {
        let mut line = serde_json::to_string(&all).expect("puzzles serialize");
        line.push('\n');
        return Ok(line);
    }
    let _ = writeln!(
        text,
        "{} games: {} positions at stake checked, {} puzzles",
        records.len(),
        total.candidates,
        total.puzzles
    );
    Ok(text)
}

/// What the terminal keeps of its solver: a rating and the puzzles tried (their positions and
/// moves), beside the saved games.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Solver {
    mu: f64,
    sigma: f64,
    tried: Vec<String>,
}

impl Solver {
    fn rating(&self) -> Rating {
        if self.sigma > 0.0 {
            Rating {
                mu: self.mu,
                sigma: self.sigma,
            }
        } else {
            Rating::default()
        }
    }
}

/// A puzzle's name among those tried: its position and move.
fn key(puzzle: &Puzzle) -> String {
    format!("{} {}", puzzle.fen, puzzle.solution)
}

/// The puzzle to play from `all`: the day's (the same for everyone on a day) with `daily`; else
/// the untried one rated nearest the solver.
fn choose<'a>(all: &'a [Puzzle], solver: &Solver, daily: bool, day: u64) -> Option<&'a Puzzle> {
    if daily {
        return all.get(usize::try_from(day % all.len().max(1) as u64).ok()?);
    }
    let shown = solver.rating().shown();
    all.iter()
        .filter(|p| !solver.tried.contains(&key(p)))
        .min_by_key(|p| (p.rating - shown).abs())
}

/// The position as a board of text, the top rank first: each stone its kingdom's letter and its
/// piece's (`wG`), an empty point `·`, the Emperor `EE`; then what the letters stand for.
pub fn board_text(pos: &Position) -> String {
    let mut out = String::new();
    let files: String = (0..SIZE)
        .map(|f| format!(" {}", char::from(b'a' + f)))
        .collect();
    let _ = writeln!(out, "    {files}");
    for rank in (0..SIZE).rev() {
        let _ = write!(out, "{:>3} ", rank + 1);
        for file in 0..SIZE {
            let cell = match Point::new(file, rank) {
                Some(p) if p == Point::EMPEROR => "EE".to_owned(),
                Some(p) => pos.piece_at(p).map_or_else(
                    || " ·".to_owned(),
                    |piece| format!("{}{}", piece.kingdom.letter(), piece.kind.letter()),
                ),
                None => "  ".to_owned(),
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    // What the letters stand for: the kingdoms present, then the pieces.
    let kingdoms: Vec<String> = qiguo_rules::Kingdom::ALL
        .into_iter()
        .filter(|&k| pos.army(k).next().is_some())
        .map(|k| format!("{} {}", k.letter(), k.title()))
        .collect();
    let pieces: Vec<String> = qiguo_rules::PieceKind::ALL
        .into_iter()
        .map(|kind| format!("{} {}", kind.letter(), kind.name()))
        .collect();
    let _ = writeln!(out, "{}; {}", kingdoms.join(", "), pieces.join(", "));
    out
}

/// Runs `qiguo puzzles play`: one puzzle from `file`, its move read from standard input (or
/// `hint`, or an empty line to give up); the solver's rating and the puzzle's moved by the
/// result. Returns the exit code (2 for a file that cannot be read).
pub fn run_play(file: &Path, daily: bool, keep: Option<&Path>) -> ExitCode {
    match play(
        file,
        daily,
        keep,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout(),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("qiguo: {why}");
            ExitCode::from(2)
        }
    }
}

/// Where the solver is kept: `keep`, else beside the saved games.
fn solver_path(keep: Option<&Path>) -> Option<PathBuf> {
    match keep {
        Some(path) => Some(path.to_owned()),
        None => crate::saves::SaveDir::locate()
            .ok()
            .map(|dir| dir.root().join("puzzle-solver.json")),
    }
}

/// `play`, reading the answer from `input` and writing to `out`.
pub fn play(
    file: &Path,
    daily: bool,
    keep: Option<&Path>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let all: Vec<Puzzle> = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not puzzles as `qiguo puzzles mine --json` writes them: {e}",
            file.display()
        )
    })?;
    let kept = solver_path(keep);
    let mut solver: Solver = kept
        .as_deref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let day = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let Some(puzzle) = choose(&all, &solver, daily, day) else {
        let _ = writeln!(out, "no puzzle left to try in {}", file.display());
        return Ok(());
    };
    let rules = puzzle
        .rules
        .parse::<Preset>()
        .map(Rules::preset)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let pos = Position::from_fen(&puzzle.fen, rules).map_err(|e| {
        format!(
            "{}: a puzzle's position cannot be read: {e}",
            file.display()
        )
    })?;
    let write = |out: &mut dyn Write, text: String| out.write_all(text.as_bytes());
    let io = |e: std::io::Error| e.to_string();
    write(
        out,
        format!(
            "{}\n{} to move: find the one move (rated {}). Type a move such as f3a8, `hint`, or nothing to give up.\n",
            board_text(&pos),
            pos.to_move().title(),
            puzzle.rating,
        ),
    )
    .map_err(io)?;
    let solved = loop {
        write(out, "> ".to_owned()).map_err(io)?;
        out.flush().map_err(io)?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(io)? == 0 {
            break false;
        }
        let line = line.trim();
        if line.is_empty() {
            break false;
        }
        if line.eq_ignore_ascii_case("hint") {
            let from = puzzle
                .solution
                .from()
                .map_or_else(String::new, |p| p.to_string());
            write(
                out,
                format!(
                    "the stone to move stands on {from} ({})\n",
                    puzzle.theme.name()
                ),
            )
            .map_err(io)?;
            continue;
        }
        match notation::parse_move(line) {
            Ok(mv) if mv == puzzle.solution => break true,
            Ok(mv) if pos.is_legal(mv) => break false,
            Ok(mv) => {
                let why = pos
                    .clone()
                    .play(mv)
                    .err()
                    .map_or_else(String::new, |e| e.to_string());
                write(out, format!("{mv} cannot be played: {why}\n")).map_err(io)?;
            }
            Err(e) => write(out, format!("not a move: {e}\n")).map_err(io)?,
        }
    };
    let before = solver.rating();
    let (after, _) = qiguo_rating::attempt(before, Rating::from_shown(puzzle.rating), solved);
    let verdict = if solved {
        format!("Right: {} ({}).", puzzle.solution, puzzle.theme.name())
    } else {
        format!(
            "Not it: the move was {} ({}).",
            puzzle.solution,
            puzzle.theme.name()
        )
    };
    write(
        out,
        format!(
            "{verdict} Your puzzle rating: {} → {}\n",
            before.shown(),
            after.shown()
        ),
    )
    .map_err(io)?;
    solver.mu = after.mu;
    solver.sigma = after.sigma;
    solver.tried.push(key(puzzle));
    if let Some(path) = kept {
        let text = serde_json::to_string(&solver).expect("a solver serializes");
        crate::saves::write_atomically(&path, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
