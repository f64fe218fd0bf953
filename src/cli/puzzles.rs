//! `qiguo puzzles`: puzzles from real games in a terminal. `mine FILE…` reviews saved game
//! records and mines their puzzles (`qiguo_ai::puzzles`), printing them or their JSON (the file
//! `play` reads); `play [FILE]` shows one (the game's own puzzles, or the file's) on a board of
//! text and asks for its move, rating the solver against it on a first try (the solver's rating
//! kept in the game's settings, as the window keeps it).

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use qiguo_ai::puzzles::{self, Mined, PUZZLE_NODES, SCAN_NODES};
use qiguo_ai::review::{REVIEW_NODES, review};
use qiguo_rules::{Point, Position, Record, SIZE, notation};

use crate::puzzles::{self as qiguo_puzzles, Asked, Puzzle, PuzzleError, Solver};
use crate::settings::{ConfigDir, Settings};

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

/// Runs `qiguo puzzles play`: one puzzle (`asked`, else the untried one rated nearest the
/// solver) from `file` or the game's own, its move read from standard input (or `hint`, or an
/// empty line to give up); the solver's rating moved by a first try. Returns the exit code (2
/// for puzzles that cannot be read or a puzzle not among them).
pub fn run_play(file: Option<&Path>, asked: Option<&Asked>, keep: Option<&Path>) -> ExitCode {
    match play(
        file,
        asked,
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

/// Where the solver is kept: a file of its own (`--keep`), or the game's settings.
enum Kept {
    File(PathBuf),
    Settings(ConfigDir, Box<Settings>),
    Nowhere,
}

impl Kept {
    fn open(keep: Option<&Path>) -> (Kept, Solver) {
        if let Some(path) = keep {
            let solver = std::fs::read_to_string(path)
                .ok()
                .and_then(|t| serde_json::from_str::<Solver>(&t).ok())
                .unwrap_or_default()
                .sanitized();
            return (Kept::File(path.to_owned()), solver);
        }
        match ConfigDir::locate() {
            Some(dir) => {
                let settings = dir.load().settings;
                let solver = settings.puzzles.clone();
                (Kept::Settings(dir, Box::new(settings)), solver)
            }
            None => (Kept::Nowhere, Solver::default()),
        }
    }

    fn save(self, solver: Solver) -> Result<(), PlayError> {
        let (path, written) = match self {
            Kept::File(path) => {
                let text = serde_json::to_string(&solver).expect("a solver serializes");
                let written = crate::saves::write_atomically(&path, text.as_bytes());
                (path, written)
            }
            Kept::Settings(dir, mut settings) => {
                settings.puzzles = solver;
                (dir.file(), dir.save(&settings))
            }
            Kept::Nowhere => return Ok(()),
        };
        written.map_err(|why| PlayError::Keep {
            path: path.display().to_string(),
            why,
        })
    }
}

/// Why `qiguo puzzles play` stopped.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The puzzles' file cannot be read.
    #[error("{path}: {why}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        why: std::io::Error,
    },
    /// The puzzles' file holds no puzzles that can be played.
    #[error("{path}: {why}")]
    Puzzles {
        /// The file.
        path: String,
        /// What is wrong with them.
        why: PuzzleError,
    },
    /// No puzzle of the name asked for is among them.
    #[error("no puzzle called {name} in {among}")]
    NoSuchPuzzle {
        /// The name asked for.
        name: String,
        /// Where it was looked for.
        among: String,
    },
    /// There are no puzzles at all.
    #[error("no puzzles in {among}")]
    NoPuzzles {
        /// Where they were looked for.
        among: String,
    },
    /// The puzzle chosen cannot be set up.
    #[error(transparent)]
    Unplayable(#[from] PuzzleError),
    /// The terminal could not be read or written.
    #[error("the terminal: {0}")]
    Terminal(#[from] std::io::Error),
    /// The solver's rating could not be kept.
    #[error("cannot keep the puzzle rating in {path}: {why}")]
    Keep {
        /// The file.
        path: String,
        /// The system's reason.
        why: std::io::Error,
    },
}

/// `play`, reading the answer from `input` and writing to `out`.
pub fn play(
    file: Option<&Path>,
    asked: Option<&Asked>,
    keep: Option<&Path>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), PlayError> {
    let from_file;
    let (all, source): (&[Puzzle], String) = match file {
        Some(file) => {
            let path = || file.display().to_string();
            let text = std::fs::read_to_string(file)
                .map_err(|why| PlayError::Read { path: path(), why })?;
            from_file = qiguo_puzzles::read(&text)
                .map_err(|why| PlayError::Puzzles { path: path(), why })?;
            (&from_file, file.display().to_string())
        }
        None => (qiguo_puzzles::built_in(), "the game's puzzles".to_owned()),
    };
    let (kept, mut solver) = Kept::open(keep);
    let puzzle = match asked {
        Some(asked) => asked
            .find(all, qiguo_puzzles::today())
            .ok_or_else(|| match asked {
                Asked::Named(name) => PlayError::NoSuchPuzzle {
                    name: name.clone(),
                    among: source.clone(),
                },
                Asked::Daily => PlayError::NoPuzzles {
                    among: source.clone(),
                },
            })?,
        None => {
            let untried: Vec<&Puzzle> = all.iter().filter(|p| !solver.has_tried(p)).collect();
            let Some(puzzle) = solver.next(&untried) else {
                let _ = writeln!(out, "no puzzle left to try in {source}");
                return Ok(());
            };
            puzzle
        }
    };
    let pos = qiguo_puzzles::position_of(puzzle)?;
    let write = |out: &mut dyn Write, text: String| out.write_all(text.as_bytes());
    write(
        out,
        format!(
            "{}\nPuzzle {} ({}): {} to move: find the one move (rated {}). Type a move such as f3a8, `hint`, or nothing to give up.\n",
            board_text(&pos),
            puzzle.id(),
            puzzle.rules,
            pos.to_move().title(),
            puzzle.rating,
        ),
    )?;
    let solved = loop {
        write(out, "> ".to_owned())?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
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
            )?;
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
                write(out, format!("{mv} cannot be played: {why}\n"))?;
            }
            Err(e) => write(out, format!("not a move: {e}\n"))?,
        }
    };
    let verdict = if solved {
        format!("Right: {} ({}).", puzzle.solution, puzzle.theme.name())
    } else {
        format!(
            "Not it: the move was {} ({}).",
            puzzle.solution,
            puzzle.theme.name()
        )
    };
    let rated = if solver.has_tried(puzzle) {
        format!(
            "Tried before, so your puzzle rating stays {}.",
            solver.rating().shown()
        )
    } else {
        let (before, after) = solver.first_try(puzzle, solved);
        format!("Your puzzle rating: {} → {}", before.shown(), after.shown())
    };
    write(out, format!("{verdict} {rated}\n"))?;
    kept.save(solver)
}
