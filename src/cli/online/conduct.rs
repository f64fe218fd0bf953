//! `qiguo online` on conduct: block a player, or report one to the operator.

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask, GameId};
use serde_json::json;

use super::{OnlineError, unexpected};

/// The commands of conduct.
#[derive(Subcommand, Debug)]
pub enum ConductCommand {
    /// Block a player by their public name: quick play and tables never seat you together, and
    /// their table talk is hidden from you; --unblock undoes it.
    Block {
        /// Their public name.
        name: String,
        /// Unblock them instead.
        #[arg(long)]
        unblock: bool,
    },
    /// Report a player to the server's operator, with a reason and the game it is about.
    Report {
        /// Their public name.
        name: String,
        /// Why (at most 500 characters).
        #[arg(long)]
        reason: String,
        /// The game's id.
        #[arg(long, value_name = "GAME")]
        game: Option<String>,
    },
}

impl ConductCommand {
    /// Asks the server: the line to print.
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        match self {
            ConductCommand::Block { name, unblock } => {
                let ask = Ask::Block {
                    name: name.clone(),
                    block: !unblock,
                };
                match client.ask(ask).await? {
                    Answer::Done => Ok(json!({ "name": name, "blocked": !unblock })),
                    other => unexpected(other),
                }
            }
            ConductCommand::Report { name, reason, game } => {
                let ask = Ask::Report {
                    name: name.clone(),
                    game: game.clone().map(GameId),
                    reason: reason.clone(),
                };
                match client.ask(ask).await? {
                    Answer::Done => Ok(json!({ "name": name, "reported": true })),
                    other => unexpected(other),
                }
            }
        }
    }
}
