//! The scripting tools: `moves`, `perft`, `replay`, `report` and `bestmove` print plain text
//! (or JSON) and never open a window; `icon` writes the game's icon as a PNG.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use qiguo_ai::{Engine, Limits};
use qiguo_rules::notation::MoveListError;
use qiguo_rules::{Kingdom, Move, Position, Record, notation};
use serde::Serialize;

use super::args::{Tool, move_texts};
use super::error::ArgError;

/// Why a tool could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// An option cannot be used as given.
    #[error(transparent)]
    Arg(#[from] ArgError),
    /// A move to replay cannot be read or played.
    #[error(transparent)]
    Moves(#[from] MoveListError),
    /// The position has no move to choose.
    #[error("the game is over: there is no move")]
    GameOver,
    /// A file could not be written.
    #[error("cannot write {path}: {why}")]
    Write {
        /// The file.
        path: String,
        /// The system's reason.
        why: String,
    },
}

/// Runs `tool`, returning what it prints.
pub fn run(tool: &Tool) -> Result<String, ToolError> {
    match tool {
        Tool::Moves(args) => {
            let pos = args.position()?;
            let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
            moves.sort();
            Ok(moves.iter().fold(String::new(), |mut out, m| {
                out.push_str(m);
                out.push('\n');
                out
            }))
        }
        Tool::Perft { depth, position } => {
            let mut pos = position.position()?;
            Ok(format!("{}\n", pos.perft(*depth)))
        }
        Tool::Replay {
            position,
            record,
            zero_based,
            moves,
        } => {
            let mut pos = match record {
                Some(path) => load_record(path)?,
                None => position.position()?,
            };
            let read = if *zero_based {
                notation::parse_move_zero_based
            } else {
                notation::parse_move
            };
            notation::play_list(move_texts(moves), read, |mv| pos.play(mv).map(|_| ()))?;
            let mut out = pos.to_fen();
            out.push('\n');
            let summary = serde_json::to_string(&Summary::of(&pos)).expect("summaries serialize");
            let _ = writeln!(out, "{summary}");
            Ok(out)
        }
        Tool::Report { record, json } => {
            let report = crate::report::GameReport::of_record(&read_record(record)?)
                .map_err(|e| ArgError::new(format!("--record {}", record.display()), e))?;
            Ok(if *json {
                let mut line = serde_json::to_string(&report).expect("reports serialize");
                line.push('\n');
                line
            } else {
                report.text()
            })
        }
        Tool::Review {
            record,
            json,
            nodes,
        } => {
            let option = || record.display().to_string();
            let text = std::fs::read_to_string(record).map_err(|e| ArgError::new(option(), e))?;
            let game = Record::from_json(&text)
                .and_then(|r| r.replay())
                .map_err(|e| ArgError::new(option(), e))?;
            let reviewed = qiguo_ai::review::review(&game, *nodes);
            Ok(if *json {
                let mut line = serde_json::to_string(&reviewed).expect("reviews serialize");
                line.push('\n');
                line
            } else {
                review_text(&reviewed)
            })
        }
        Tool::Puzzles {
            command: crate::cli::args::PuzzlesCommand::Mine { records, json },
        } => crate::cli::puzzles::mine(records, *json),
        // It asks and waits for an answer: `main` runs it itself.
        Tool::Puzzles { .. } => Err(ToolError::Arg(ArgError::new(
            "puzzles play",
            "a puzzle is played from the command line, not as a tool",
        ))),
        Tool::Bestmove {
            position,
            movetime,
            level,
            seed,
        } => {
            let pos = position.position()?;
            let limits = Limits {
                movetime: movetime.map(Duration::from_millis),
                threads: Some(qiguo_ai::available_threads()),
                ..Limits::default()
            };
            let result = Engine::default()
                .search(&pos, *level, &limits, *seed)
                .ok_or(ToolError::GameOver)?;
            Ok(format!("{}\n", result.best))
        }
        // They run until their game ends and print as it goes: `main` runs them itself.
        #[cfg(feature = "host")]
        Tool::Server(_) => Err(ToolError::Arg(ArgError::new(
            "server",
            "the server runs from the command line, not as a tool",
        ))),
        Tool::Online(_) => Err(ToolError::Arg(ArgError::new(
            "online",
            "the client runs from the command line, not as a tool",
        ))),
        Tool::Icon { size, path } => {
            crate::saves::write_atomically(path, &crate::game::art::icon::icon_png(*size))
                .map_err(|e| ToolError::Write {
                    path: path.display().to_string(),
                    why: e.to_string(),
                })?;
            Ok(format!(
                "{}: the icon, {size}x{size} pixels\n",
                path.display()
            ))
        }
    }
}

/// A review in words: each kingdom's mistakes, and the chances at the end.
fn review_text(reviewed: &qiguo_ai::review::GameReview) -> String {
    let mut out = String::new();
    let percent = |c: f64| format!("{:.0} %", c * 100.0);
    let _ = writeln!(
        out,
        "{} moves reviewed at {} positions a move",
        reviewed.moves.len(),
        reviewed.nodes
    );
    if reviewed.mistakes.is_empty() {
        let _ = writeln!(out, "no mistakes");
    }
    for mistake in &reviewed.mistakes {
        let Some(mv) = reviewed.moves.get(mistake.ply - 1) else {
            continue;
        };
        let _ = if mistake.kind.is_own_move() {
            writeln!(
                out,
                "move {}: {} played {}, {}: {} → {} (best {}: {})",
                mistake.ply,
                mistake.kingdom.title(),
                mv.played,
                mistake.kind.name(),
                percent(mv.best_chance),
                percent(mv.played_chance),
                mv.best,
                percent(mv.best_chance),
            )
        } else {
            writeln!(
                out,
                "move {}: {} took {}'s General with {} ({} lost)",
                mistake.ply,
                mv.mover.title(),
                mistake.kingdom.title(),
                mv.played,
                percent(mistake.loss),
            )
        };
    }
    let at_end: Vec<String> = Kingdom::ALL
        .into_iter()
        .filter(|k| reviewed.last[k.index()] > 0.0)
        .map(|k| format!("{} {}", k.title(), percent(reviewed.last[k.index()])))
        .collect();
    let _ = writeln!(out, "at the end: {}", at_end.join(", "));
    out
}

/// The record saved at `path`, read but not replayed.
fn read_record(path: &Path) -> Result<Record, ArgError> {
    let option = || format!("--record {}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| ArgError::new(option(), e))?;
    Record::from_json(&text).map_err(|e| ArgError::new(option(), e))
}

/// The current position of the game saved in the record at `path`.
fn load_record(path: &Path) -> Result<Position, ArgError> {
    let game = read_record(path)?
        .replay()
        .map_err(|e| ArgError::new(format!("--record {}", path.display()), e))?;
    Ok(game.position().clone())
}

/// The JSON summary `replay` prints.
#[derive(Serialize)]
struct Summary {
    winner: Option<Kingdom>,
    victory: Option<&'static str>,
    alive: Vec<Kingdom>,
    captures: Captures,
}

/// Captures per kingdom, in turn order.
#[derive(Serialize)]
struct Captures {
    qin: u32,
    chu: u32,
    han: u32,
    qi: u32,
    wei: u32,
    zhao: u32,
    yan: u32,
}

impl Summary {
    fn of(pos: &Position) -> Summary {
        let c = |k| pos.captures(k);
        Summary {
            winner: pos.outcome().map(|o| o.winner),
            victory: pos.outcome().map(|o| o.victory.name()),
            alive: pos.alive().iter().collect(),
            captures: Captures {
                qin: c(Kingdom::Qin),
                chu: c(Kingdom::Chu),
                han: c(Kingdom::Han),
                qi: c(Kingdom::Qi),
                wei: c(Kingdom::Wei),
                zhao: c(Kingdom::Zhao),
                yan: c(Kingdom::Yan),
            },
        }
    }
}
