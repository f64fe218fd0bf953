//! `qiguo online ratings`: a pace family's leaderboard, and a player's rating there.

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask, RatingFamily};
use serde_json::json;

use super::{OnlineError, unexpected};

/// The command of the ratings.
#[derive(Subcommand, Debug)]
pub enum RatingsCommand {
    /// Print a pace family's leaderboard (the best established ratings first, then the
    /// provisional ones) and your rating and rated games there, or another player's.
    Ratings {
        /// live or correspondence.
        #[arg(long, value_name = "FAMILY", default_value = "live")]
        family: RatingFamily,
        /// The player to show instead of you, by public name.
        #[arg(long, value_name = "NAME")]
        of: Option<String>,
    },
}

impl RatingsCommand {
    /// Asks the server: the line to print.
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        let RatingsCommand::Ratings { family, of } = self;
        let ask = Ask::Ratings {
            family: *family,
            of: of.clone(),
        };
        match client.ask(ask).await? {
            Answer::Ratings {
                family,
                board,
                player,
            } => Ok(json!({ "family": family, "board": board, "player": player })),
            other => unexpected(other),
        }
    }
}
