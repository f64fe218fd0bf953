//! `qiguo online` on games: create one, join one by its code, list yours, move, show one, and
//! offer a rematch.

use clap::{Args, Subcommand};
use qiguo_ai::Level;
use qiguo_client::Client;
use qiguo_protocol::{Answer, Ask, GameId, NewGame, Refusal, SeatPlan};
use qiguo_rules::{Game, Kingdom, Preset, Rules};
use serde_json::json;

use super::{OnlineError, game_view, parse_pace, unexpected};
use crate::cli::args::SeatingArg;
use crate::cli::error::ArgError;

/// The commands on games.
#[derive(Subcommand, Debug)]
pub enum GamesCommand {
    /// Create a game; prints its id and invitation code.
    Create(CreateArgs),
    /// Take an open seat with a game's invitation code.
    Join {
        /// The invitation code.
        code: String,
        /// A kingdom of the seat to take.
        #[arg(long, value_name = "KINGDOM")]
        seat: Kingdom,
    },
    /// List your games in progress, those waiting for your move first; with --finished, your
    /// finished games, the newest first, 20 a page.
    Games {
        /// The finished games instead.
        #[arg(long)]
        finished: bool,
        /// Which page of them (from 0).
        #[arg(long, value_name = "N", default_value_t = 0, requires = "finished")]
        page: u32,
    },
    /// Offer the players of a finished game of yours a rematch: the same start, seats and
    /// pace; prints the new game's id and invitation code.
    Rematch {
        /// The finished game's id.
        game: String,
    },
    /// Make a move in one of your games.
    Move {
        /// The game's id.
        game: String,
        /// The move, such as f3a8.
        #[arg(value_name = "MOVE")]
        mv: String,
    },
    /// Print one of your games, its record included.
    Show {
        /// The game's id.
        game: String,
    },
}

/// The game `create` asks for, as the options give it.
#[derive(Args, Debug)]
pub struct CreateArgs {
    /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
    #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
    preset: Preset,
    /// Who holds the kingdoms, as for the game window (seven players by default).
    #[arg(long, value_name = "SEATING")]
    seating: Option<SeatingArg>,
    /// Who plays each player's seat, in seat order: me, open (anyone with the code), or a
    /// computer level (random, easy, medium, hard).
    #[arg(long, value_name = "S1,…")]
    seats: String,
    /// live, or Nd for a move every N days (1 to 14).
    #[arg(long, value_name = "PACE", default_value = "live")]
    pace: String,
    /// In a live game, seconds a seat waits for its absent player before a stand-in plays
    /// (10 to 600).
    #[arg(long, value_name = "S", default_value_t = 60)]
    wait: u32,
    /// In a game by correspondence, what an overdue move becomes: stand-in or pass.
    #[arg(long, value_name = "WHAT", default_value = "stand-in")]
    overdue: String,
}

impl GamesCommand {
    /// Checks what can be checked before anything is sent: the game `create` asks for, made
    /// by the player called `name`.
    pub(super) fn check(&self, name: &str) -> Result<(), ArgError> {
        match self {
            GamesCommand::Create(create) => create.new_game(name).map(drop),
            _ => Ok(()),
        }
    }

    /// Asks the server, as the player called `name`: the line to print.
    pub(super) async fn run(
        &self,
        client: &mut Client,
        name: &str,
    ) -> Result<serde_json::Value, OnlineError> {
        Ok(match self {
            GamesCommand::Create(create) => {
                let game = create.new_game(name)?;
                match client.ask(Ask::Create { game }).await? {
                    Answer::Created { game, code } => json!({ "game": game, "code": code }),
                    other => unexpected(other)?,
                }
            }
            GamesCommand::Join { code, seat } => {
                let ask = Ask::Join {
                    code: code.clone(),
                    kingdom: *seat,
                };
                let view = game_view(client.ask(ask).await?)?;
                let number = view.seats.iter().position(|s| s.yours);
                json!({
                    "game": view.id,
                    "seat": number,
                    "kingdom": seat,
                    "moves": view.record.moves.len()
                })
            }
            GamesCommand::Games {
                finished: false, ..
            } => match client.ask(Ask::Games {}).await? {
                Answer::Games { games } => json!({ "games": games }),
                other => unexpected(other)?,
            },
            GamesCommand::Games {
                finished: true,
                page,
            } => match client.ask(Ask::Finished { page: *page }).await? {
                Answer::Finished { games, page, more } => {
                    json!({ "games": games, "page": page, "more": more })
                }
                other => unexpected(other)?,
            },
            GamesCommand::Rematch { game } => {
                let ask = Ask::Rematch {
                    game: GameId(game.clone()),
                };
                match client.ask(ask).await? {
                    Answer::Created { game, code } => json!({ "game": game, "code": code }),
                    other => unexpected(other)?,
                }
            }
            GamesCommand::Move { game, mv } => {
                let id = GameId(game.clone());
                let view = game_view(client.ask(Ask::Open { game: id.clone() }).await?)?;
                let ply = view.record.moves.len() as u32;
                let ask = Ask::Move {
                    game: id.clone(),
                    ply,
                    mv: mv.clone(),
                };
                match client.ask(ask).await? {
                    Answer::Moved { ply } => json!({ "game": id, "ply": ply, "move": mv }),
                    other => unexpected(other)?,
                }
            }
            GamesCommand::Show { game } => {
                let ask = Ask::Open {
                    game: GameId(game.clone()),
                };
                let view = game_view(client.ask(ask).await?)?;
                serde_json::to_value(&view)?
            }
        })
    }
}

impl CreateArgs {
    /// The game these options ask for, made by the player called `name`.
    fn new_game(&self, name: &str) -> Result<NewGame, ArgError> {
        let rules = Rules::preset(self.preset);
        let table = match &self.seating {
            Some(SeatingArg(seating)) => {
                seating.seats().map_err(|e| ArgError::new("--seating", e))?
            }
            None => qiguo_rules::Seats::seven(),
        };
        let count = table.player_count();
        let plans = self
            .seats
            .split(',')
            .map(|s| match s.trim() {
                "me" => Ok(SeatPlan::Creator),
                "open" => Ok(SeatPlan::Open),
                other => other
                    .parse::<Level>()
                    .map(SeatPlan::Computer)
                    .map_err(|e| ArgError::new("--seats", format!("{e} (or me, or open)"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if plans.len() != count {
            return Err(ArgError::new(
                "--seats",
                format!(
                    "give one seat per player ({count}), in seat order, not {}",
                    plans.len()
                ),
            ));
        }
        let pace = parse_pace(&self.pace, self.wait, &self.overdue)?;
        NewGame::build(
            &Game::start(rules, table),
            plans,
            pace,
            |i, plan| match plan {
                SeatPlan::Creator => name.to_owned(),
                SeatPlan::Open => format!("Player {}", i + 1),
                SeatPlan::Computer(_) => format!("Computer {}", i + 1),
            },
        )
        .map_err(|refusal| {
            let option = match refusal {
                Refusal::Days { .. } => format!("--pace {}", self.pace),
                Refusal::SeatPlans { .. } => "--seats".to_owned(),
                Refusal::NameEmpty | Refusal::NameTooLong { .. } => "--name".to_owned(),
                _ => "create".to_owned(),
            };
            ArgError::new(option, refusal.to_string())
        })
    }
}
