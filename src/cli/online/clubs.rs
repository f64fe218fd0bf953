//! `qiguo online club …`: clubs made, found, joined and left, their members, their
//! organisers' work (letting people in, removing members, naming organisers, posting news) and
//! whether you are told of their news. Each prints the server's answer as one line of JSON.

use clap::Subcommand;
use qiguo_client::Client;
use qiguo_protocol::clubs::{ClubAction, ClubSpec};
use qiguo_protocol::{Answer, Ask};
use serde_json::json;

use super::lobby::table_line;
use super::{OnlineError, unexpected};

/// The commands of clubs (`qiguo online club COMMAND`).
#[derive(Subcommand, Debug)]
pub enum ClubCommand {
    /// Make a club, owned by you: open to anyone, or --by-request.
    Create {
        /// Its name (unique on the server, compared as players' names are).
        #[arg(value_name = "CLUB")]
        club: String,
        /// What it is, for those who find it.
        #[arg(long, default_value = "")]
        description: String,
        /// An organiser lets each member in (else anyone joins at once).
        #[arg(long)]
        by_request: bool,
    },
    /// Join an open club, or ask to join one by request.
    Join {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
    },
    /// Leave a club, or take back your request to join it.
    Leave {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
    },
    /// A club: its description, your place in it, its latest news, its own open tables and its
    /// evenings.
    Show {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
    },
    /// A club's members: their roles, ratings, who is online and the game each plays now.
    Members {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
    },
    /// Your clubs, then others (those whose names hold --search).
    List {
        /// Part of a club's name.
        #[arg(long)]
        search: Option<String>,
    },
    /// Let someone who asked into your club (an organiser).
    Accept {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
        /// Their public name.
        player: String,
    },
    /// Remove a member, or turn away one who asked (an organiser; an organiser only by the
    /// owner).
    Remove {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
        /// Their public name.
        player: String,
    },
    /// Make a member an organiser, or with --undo a member again (the owner).
    Organiser {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
        /// Their public name.
        player: String,
        /// Make them a member again.
        #[arg(long)]
        undo: bool,
    },
    /// Post a line of the club's news: its members who want it are told (an organiser).
    Post {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
        /// The words.
        text: String,
    },
    /// Whether you are told of a club's news: --on or --off.
    News {
        /// The club's name.
        #[arg(value_name = "CLUB")]
        club: String,
        /// Stop telling you.
        #[arg(long, conflicts_with = "on")]
        off: bool,
        /// Tell you again.
        #[arg(long)]
        on: bool,
    },
}

impl ClubCommand {
    /// Asks the server: the line to print.
    pub(super) async fn run(&self, client: &mut Client) -> Result<serde_json::Value, OnlineError> {
        let ask = match self {
            ClubCommand::Create {
                club,
                description,
                by_request,
            } => Ask::ClubCreate {
                spec: ClubSpec {
                    name: club.clone(),
                    description: description.clone(),
                    open: !by_request,
                },
            },
            ClubCommand::Join { club } => Ask::ClubJoin { name: club.clone() },
            ClubCommand::Leave { club } => Ask::ClubLeave { name: club.clone() },
            ClubCommand::Show { club } | ClubCommand::Members { club } => {
                Ask::Club { name: club.clone() }
            }
            ClubCommand::List { search } => Ask::Clubs {
                search: search.clone(),
            },
            ClubCommand::Accept { club, player } => Ask::ClubMember {
                name: club.clone(),
                player: player.clone(),
                action: ClubAction::Accept,
            },
            ClubCommand::Remove { club, player } => Ask::ClubMember {
                name: club.clone(),
                player: player.clone(),
                action: ClubAction::Remove,
            },
            ClubCommand::Organiser { club, player, undo } => Ask::ClubMember {
                name: club.clone(),
                player: player.clone(),
                action: if *undo {
                    ClubAction::Member
                } else {
                    ClubAction::Organiser
                },
            },
            ClubCommand::Post { club, text } => Ask::ClubPost {
                name: club.clone(),
                text: text.clone(),
            },
            ClubCommand::News { club, off, .. } => Ask::ClubNewsWanted {
                name: club.clone(),
                wanted: !off,
            },
        };
        match client.ask(ask).await? {
            Answer::Club(view) => Ok(match self {
                ClubCommand::Members { .. } => json!({
                    "name": view.name,
                    "member_count": view.member_count,
                    "members": view.members,
                }),
                _ => json!({
                    "name": view.name,
                    "description": view.description,
                    "open": view.open,
                    "you": view.you,
                    "member_count": view.member_count,
                    "news": view.news,
                    "news_wanted": view.news_wanted,
                    "tables": view.tables.iter().map(table_line).collect::<Vec<_>>(),
                    "evenings": view.evenings.iter().map(|e| json!({
                        "evening": e.id,
                        "at_ms": e.at_ms,
                        "state": e.state,
                        "coming": e.coming.len(),
                        "you_come": e.you_come,
                    })).collect::<Vec<_>>(),
                }),
            }),
            Answer::Clubs { clubs } => Ok(json!({ "clubs": clubs })),
            other => unexpected(other),
        }
    }
}
