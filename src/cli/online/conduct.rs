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
        /// Their public name (not `--name`, which is yours).
        #[arg(value_name = "NAME")]
        player: String,
        /// Unblock them instead.
        #[arg(long)]
        unblock: bool,
    },
    /// Report a player to the server's operator, with a reason and the game it is about.
    Report {
        /// Their public name (not `--name`, which is yours).
        #[arg(value_name = "NAME")]
        player: String,
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
            ConductCommand::Block { player, unblock } => {
                let ask = Ask::Block {
                    name: player.clone(),
                    block: !unblock,
                };
                match client.ask(ask).await? {
                    Answer::Done => Ok(json!({ "name": player, "blocked": !unblock })),
                    other => unexpected(other),
                }
            }
            ConductCommand::Report {
                player,
                reason,
                game,
            } => {
                let ask = Ask::Report {
                    name: player.clone(),
                    game: game.clone().map(GameId),
                    reason: reason.clone(),
                };
                match client.ask(ask).await? {
                    Answer::Done => Ok(json!({ "name": player, "reported": true })),
                    other => unexpected(other),
                }
            }
        }
    }
}
