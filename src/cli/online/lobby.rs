//! `qiguo online` in the lobby: its counts (followed, if asked), the open public tables, and a
//! table created, sat at or left.

use clap::{Args, Subcommand};
use qiguo_ai::Level;
use qiguo_client::Client;
use qiguo_protocol::lobby::{LobbyView, RatingRange, TableId, TableSpec, TableView, WhenUnfilled};
use qiguo_protocol::{Answer, Ask, Event, Refusal};
use qiguo_rules::Preset;
use serde_json::json;

use super::{OnlineError, parse_pace, print_line, unexpected};
use crate::cli::error::ArgError;

/// The commands of the lobby.
#[derive(Subcommand, Debug)]
pub enum LobbyCommand {
    /// Print the lobby: people online, and playing and waiting at each quick pace; with
    /// --follow, a line again at each change, until stopped.
    Lobby {
        /// Keep printing it as it changes.
        #[arg(long)]
        follow: bool,
    },
    /// List the open public tables, the soonest to close first.
    Tables,
    /// Public tables: create one (and sit at it), sit at one, get up from one.
    Table {
        /// What to do at a table.
        #[command(subcommand)]
        command: TableCommand,
    },
}

/// `qiguo online table …`.
#[derive(Debug, Subcommand)]
pub enum TableCommand {
    /// Create a public table and sit at it; prints the table. Its game starts once every seat
    /// for people is taken (the one who fills it starts it).
    Create(TableArgs),
    /// Sit at an open table; prints the table (with its game, if you filled it).
    Join {
        /// The table's id.
        table: String,
    },
    /// Get up from a table not started yet.
    Leave {
        /// The table's id.
        table: String,
    },
}

/// The table `table create` asks for, as the options give it.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// How many of the seven kingdoms are for people (2 to 7); computers hold the others.
    #[arg(long, value_name = "N", default_value_t = 7)]
    people: u8,
    /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
    #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
    preset: Preset,
    /// live, or Nd for a move every N days (1 to 14).
    #[arg(long, value_name = "PACE", default_value = "live")]
    pace: String,
    /// In a live game, seconds a seat waits for its absent player before a stand-in plays.
    #[arg(long, value_name = "S", default_value_t = 60)]
    wait: u32,
    /// In a game by correspondence, what an overdue move becomes: stand-in or pass.
    #[arg(long, value_name = "WHAT", default_value = "stand-in")]
    overdue: String,
    /// The computers' level: easy, medium or hard.
    #[arg(long, value_name = "LEVEL", default_value = "medium")]
    level: Level,
    /// The game counts for the ratings.
    #[arg(long)]
    rated: bool,
    /// Only people rated MIN to MAX may sit down (such as 1300-1700).
    #[arg(long, value_name = "MIN-MAX")]
    ratings: Option<String>,
    /// Minutes the table waits to fill (1 to 10080, a week).
    #[arg(long, value_name = "MINUTES", default_value_t = 30)]
    fill_within: u32,
    /// If it has not filled by then: computers (take the empty seats) or close.
    #[arg(long, value_name = "WHAT", default_value = "computers")]
    unfilled: String,
    /// A club's own table (you a member): shown in the club, not the lobby; only its members
    /// sit at it.
    #[arg(long, value_name = "CLUB")]
    club: Option<String>,
}

impl LobbyCommand {
    /// Checks what can be checked before anything is sent: the table `table create` asks for.
    pub(super) fn check(&self) -> Result<(), ArgError> {
        match self {
            LobbyCommand::Table {
                command: TableCommand::Create(table),
            } => table.spec().map(drop),
            _ => Ok(()),
        }
    }

    /// Asks the server: the line to print (with `--follow`, a line at each change, for ever).
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        Ok(match self {
            LobbyCommand::Lobby { follow } => {
                let view = match client.ask(Ask::Lobby { follow: *follow }).await? {
                    Answer::Lobby(view) => view,
                    other => unexpected(other)?,
                };
                let counts =
                    |view: &LobbyView| json!({ "online": view.online, "paces": view.paces });
                if *follow {
                    print_line(&counts(&view));
                    loop {
                        if let Event::Lobby(view) = client.next_event().await? {
                            print_line(&counts(&view));
                        }
                    }
                }
                counts(&view)
            }
            LobbyCommand::Tables => match client.ask(Ask::Lobby { follow: false }).await? {
                Answer::Lobby(view) => {
                    let tables: Vec<serde_json::Value> = view
                        .tables
                        .iter()
                        .map(|t| {
                            let mut line = table_line(t);
                            line["spec"] = json!(t.spec);
                            line
                        })
                        .collect();
                    json!({ "tables": tables })
                }
                other => unexpected(other)?,
            },
            LobbyCommand::Table { command } => {
                let ask = match command {
                    TableCommand::Create(table) => Ask::CreateTable {
                        table: table.spec()?,
                        club: table.club.clone(),
                    },
                    TableCommand::Join { table } => Ask::JoinTable {
                        table: TableId(table.clone()),
                    },
                    TableCommand::Leave { table } => Ask::LeaveTable {
                        table: TableId(table.clone()),
                    },
                };
                match client.ask(ask).await? {
                    Answer::Table(view) => table_line(&view),
                    Answer::Done => json!({ "left": true }),
                    other => unexpected(other)?,
                }
            }
        })
    }
}

/// A rating range as `--ratings` gives it: `MIN-MAX`.
fn parse_ratings(text: &str) -> Result<RatingRange, ArgError> {
    let range = text
        .split_once('-')
        .and_then(|(min, max)| Some((min.trim().parse().ok()?, max.trim().parse().ok()?)));
    match range {
        Some((min, max)) => Ok(RatingRange { min, max }),
        None => Err(ArgError::new(
            format!("--ratings {text}"),
            "a rating range is MIN-MAX, such as 1300-1700",
        )),
    }
}

impl TableArgs {
    /// The table these options ask for, checked before anything is sent.
    fn spec(&self) -> Result<TableSpec, ArgError> {
        let unfilled = match self.unfilled.as_str() {
            "computers" => WhenUnfilled::Computers,
            "close" => WhenUnfilled::Close,
            other => {
                return Err(ArgError::new(
                    format!("--unfilled {other}"),
                    "an unfilled table starts with computers, or closes: computers or close",
                ));
            }
        };
        let spec = TableSpec {
            preset: self.preset,
            pace: parse_pace(&self.pace, self.wait, &self.overdue)?,
            people: self.people,
            level: self.level,
            rated: self.rated,
            ratings: self.ratings.as_deref().map(parse_ratings).transpose()?,
            wait_minutes: self.fill_within,
            unfilled,
        };
        spec.check().map_err(|refusal| {
            let option = match refusal {
                Refusal::TablePeople { .. } => "--people",
                Refusal::TableWait { .. } => "--fill-within",
                Refusal::RatingRange { .. } => "--ratings",
                Refusal::TableLevel => "--level",
                Refusal::Wait { .. } => "--wait",
                Refusal::Days { .. } => "--pace",
                _ => "table create",
            };
            ArgError::new(option, refusal.to_string())
        })?;
        Ok(spec)
    }
}

/// A table as a JSON line says it.
pub(super) fn table_line(view: &TableView) -> serde_json::Value {
    json!({
        "table": view.id,
        "host": view.host,
        "seated": view.seated,
        "people": view.spec.people,
        "fill_by_ms": view.fill_by_ms,
        "game": view.game,
        "club": view.club,
    })
}
