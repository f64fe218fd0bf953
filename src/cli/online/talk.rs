//! `qiguo online` on table talk: say a line, read the talk, mute a player.

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask, GameId};
use qiguo_rules::Kingdom;
use serde_json::json;

use super::{OnlineError, game_view, print_line, seat_of, unexpected};

/// The commands of table talk.
#[derive(Subcommand, Debug)]
pub enum TalkCommand {
    /// Write to everyone at the table of one of your games; prints the line's number.
    Say {
        /// The game's id.
        game: String,
        /// What to say (at most 500 characters).
        text: String,
    },
    /// Print the table talk of one of your games, a JSON line each, oldest first (the last
    /// 100 lines, or those before line --before).
    Talk {
        /// The game's id.
        game: String,
        /// Only lines numbered below this one (to read further back).
        #[arg(long, value_name = "N")]
        before: Option<u32>,
    },
    /// Stop reading the table talk of the player of a kingdom in one of your games (in every
    /// game), or with --unmute read it again.
    Mute {
        /// The game's id.
        game: String,
        /// A kingdom of that player's seat.
        kingdom: Kingdom,
        /// Read them again.
        #[arg(long)]
        unmute: bool,
    },
}

impl TalkCommand {
    /// Asks the server: the line to print (`None` when the lines were printed already, one
    /// each).
    pub(super) async fn run(
        &self,
        client: &mut Client,
    ) -> Result<Option<serde_json::Value>, OnlineError> {
        Ok(Some(match self {
            TalkCommand::Say { game, text } => {
                let id = GameId(game.clone());
                let ask = Ask::Say {
                    game: id.clone(),
                    text: text.clone(),
                };
                match client.ask(ask).await? {
                    Answer::Said { n } => json!({ "game": id, "n": n }),
                    other => unexpected(other)?,
                }
            }
            TalkCommand::Talk { game, before } => {
                let ask = Ask::Talk {
                    game: GameId(game.clone()),
                    before: *before,
                };
                match client.ask(ask).await? {
                    Answer::Talk { lines, .. } => {
                        for line in lines {
                            print_line(&json!(line));
                        }
                        return Ok(None);
                    }
                    other => unexpected(other)?,
                }
            }
            TalkCommand::Mute {
                game,
                kingdom,
                unmute,
            } => {
                let id = GameId(game.clone());
                let view = game_view(client.ask(Ask::Open { game: id.clone() }).await?)?;
                let seat = seat_of(&view, *kingdom)?;
                let mute = !unmute;
                let ask = Ask::Mute {
                    game: id.clone(),
                    seat,
                    mute,
                };
                client.ask(ask).await?;
                json!({ "game": id, "seat": seat, "kingdom": kingdom, "muted": mute })
            }
        }))
    }
}
