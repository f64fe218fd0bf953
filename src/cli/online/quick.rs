//! `qiguo online quick`: play now, a seat at once at a quick pace.

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask, QuickPace};
use serde_json::json;

use super::{OnlineError, unexpected};

/// The command of quick play.
#[derive(Subcommand, Debug)]
pub enum QuickCommand {
    /// Play now: a seat at once in a game of PACE with computers in the other kingdoms — a
    /// computer's kingdom taken over in a game under way, or a new game; prints the game, the
    /// kingdom and what was taken over.
    Quick {
        /// brisk (live, 30 s a move), calm (live, 3 min), daily (a day a move) or relaxed
        /// (three days).
        #[arg(long, value_name = "PACE", default_value = "brisk")]
        pace: QuickPace,
    },
}

impl QuickCommand {
    /// Asks the server: the line to print.
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        let QuickCommand::Quick { pace } = self;
        match client.ask(Ask::Quick { pace: *pace }).await? {
            Answer::Seated {
                kingdom,
                took_over,
                game,
            } => {
                let seat = game.seats.iter().position(|s| s.yours);
                Ok(json!({
                    "game": game.id,
                    "pace": pace.name(),
                    "seat": seat,
                    "kingdom": kingdom,
                    "moves": game.record.moves.len(),
                    "took_over": took_over,
                }))
            }
            other => unexpected(other),
        }
    }
}
