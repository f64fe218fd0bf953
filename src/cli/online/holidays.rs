//! `qiguo online` on holidays: go away until a day, come back, or see the days taken.

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask};
use serde_json::json;

use super::{OnlineError, unexpected};

/// The commands of holidays.
#[derive(Subcommand, Debug)]
pub enum HolidaysCommand {
    /// Go on holiday until DATE (YYYY-MM-DD, UTC, today or later; your correspondence clocks
    /// stop meanwhile), change the last day of the holiday you are on, or with --back come
    /// back today; prints your holidays.
    Away {
        /// The last day away.
        #[arg(value_name = "DATE", required_unless_present = "back")]
        until: Option<String>,
        /// Back today.
        #[arg(long, conflicts_with = "until")]
        back: bool,
    },
    /// Print your holidays: the day you are away until, and this year's days taken.
    Holidays,
}

impl HolidaysCommand {
    /// Asks the server: the line to print.
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        let ask = match self {
            HolidaysCommand::Away { until, .. } => Ask::Away {
                until: until.clone(),
            },
            HolidaysCommand::Holidays => Ask::Holidays {},
        };
        match client.ask(ask).await? {
            Answer::Holidays(holidays) => Ok(json!(holidays)),
            other => unexpected(other),
        }
    }
}
