//! `qiguo online email`: the address the server tells you at when it is your move.

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask};
use serde_json::json;

use super::{OnlineError, unexpected};

/// The command of e-mail.
#[derive(Subcommand, Debug)]
pub enum MailCommand {
    /// Give the server your e-mail address, to be told when it is your move while you are away
    /// (a link to confirm it is sent there first), change --digest, or --remove it; without
    /// either, print what the server has.
    Email {
        /// The address.
        #[arg(value_name = "ADDRESS", conflicts_with = "remove")]
        address: Option<String>,
        /// One e-mail a day listing the games waiting for you, rather than one a turn.
        #[arg(long, requires = "address")]
        digest: bool,
        /// Remove your address: no more e-mail.
        #[arg(long)]
        remove: bool,
    },
}

impl MailCommand {
    /// Asks the server: the line to print.
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        let MailCommand::Email {
            address,
            digest,
            remove,
        } = self;
        let ask = match (address, remove) {
            (Some(address), _) => Ask::SetMail {
                address: Some(address.clone()),
                digest: *digest,
            },
            (None, true) => Ask::SetMail {
                address: None,
                digest: false,
            },
            (None, false) => Ask::Mail {},
        };
        match client.ask(ask).await? {
            Answer::Mail(mail) => Ok(json!(mail)),
            other => unexpected(other),
        }
    }
}
