//! `qiguo online puzzle` and `qiguo online puzzle-tried`: a puzzle mined from the server's
//! reviewed games, and a first try at it rated (what a terminal's front end, or a script,
//! needs to play the server's puzzles: `qiguo puzzles play` plays them on a board of text from
//! `qiguo-server puzzles`' file).

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask, PuzzleWanted};
use serde_json::json;

use super::{OnlineError, unexpected};

/// The commands of the server's puzzles.
#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Print a puzzle from the server's games as JSON: the day's (`daily`), the untried one
    /// rated nearest you (`next`, the default), or one by its name.
    Puzzle {
        /// daily, next, or a puzzle's name.
        #[arg(value_name = "WHICH", default_value = "next")]
        which: String,
    },
    /// Tell the server your first try at a puzzle: your puzzle rating and the puzzle's move (a
    /// later try changes nothing); prints both.
    PuzzleTried {
        /// The puzzle's name.
        id: String,
        /// The move played was its solution (without it: missed).
        #[arg(long)]
        solved: bool,
    },
}

impl PuzzlesCommand {
    /// Asks the server: the line to print.
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        let ask = match self {
            PuzzlesCommand::Puzzle { which } => Ask::Puzzle {
                which: match which.as_str() {
                    "daily" => PuzzleWanted::Daily,
                    "next" => PuzzleWanted::Next,
                    id => PuzzleWanted::Named { id: id.to_owned() },
                },
            },
            PuzzlesCommand::PuzzleTried { id, solved } => Ask::PuzzleTried {
                id: id.clone(),
                solved: *solved,
            },
        };
        match client.ask(ask).await? {
            Answer::Puzzle(view) => Ok(json!({
                "id": view.puzzle.id(),
                "puzzle": view.puzzle,
                "game": view.game,
                "daily": view.daily,
                "solver": view.solver,
                "tried": view.tried,
                "tries": view.tries,
                "solved": view.solved,
            })),
            Answer::PuzzleRated(rated) => Ok(serde_json::to_value(rated).unwrap_or_default()),
            other => unexpected(other),
        }
    }
}
