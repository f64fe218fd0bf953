//! `qiguo online club …`: clubs made, found, joined and left, their members, their
//! organisers' work (letting people in, removing members, naming organisers, posting news) and
//! whether you are told of their news. Each prints lines for a person to read, or with
//! `--json` the server's answer as one line of JSON.

use std::fmt::Write;

use clap::{Args, Subcommand};
use qiguo_client::Client;
use qiguo_protocol::clubs::{ClubAction, ClubListed, ClubRole, ClubSpec, ClubView};
use qiguo_protocol::{Answer, Ask};
use serde_json::json;

use super::lobby::table_line;
use super::{OnlineError, unexpected};

/// `qiguo online club COMMAND [--json]`.
#[derive(Args, Debug)]
pub struct ClubArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ClubCommand,
    /// Print the server's answer as one line of JSON instead of lines to read.
    #[arg(long, global = true)]
    pub json: bool,
}

impl ClubArgs {
    /// Asks the server and prints its answer.
    pub(super) async fn run(&self, client: &mut Client) -> Result<(), OnlineError> {
        let answer = self.command.ask(client).await?;
        if self.json {
            super::print_line(&self.command.json(&answer));
        } else {
            print!("{}", self.command.text(&answer));
        }
        Ok(())
    }
}

/// What the server answered a club's command.
pub(super) enum ClubAnswer {
    /// One club.
    One(Box<ClubView>),
    /// Clubs listed.
    Many(Vec<ClubListed>),
}

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
    /// Asks the server: its answer.
    async fn ask(&self, client: &mut Client) -> Result<ClubAnswer, OnlineError> {
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
            Answer::Club(view) => Ok(ClubAnswer::One(view)),
            Answer::Clubs { clubs } => Ok(ClubAnswer::Many(clubs)),
            other => unexpected(other),
        }
    }

    /// The answer as one line of JSON.
    fn json(&self, answer: &ClubAnswer) -> serde_json::Value {
        match answer {
            ClubAnswer::Many(clubs) => json!({ "clubs": clubs }),
            ClubAnswer::One(view) => match self {
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
            },
        }
    }

    /// The answer as lines to read.
    fn text(&self, answer: &ClubAnswer) -> String {
        match answer {
            ClubAnswer::Many(clubs) => list_text(clubs),
            ClubAnswer::One(view) => match self {
                ClubCommand::Members { .. } => members_text(view),
                _ => club_text(view),
            },
        }
    }
}

/// How a role reads.
fn role_words(role: ClubRole) -> &'static str {
    match role {
        ClubRole::Owner => "owner",
        ClubRole::Organiser => "organiser",
        ClubRole::Member => "member",
        ClubRole::Asking => "asked to join",
    }
}

/// "N member(s)".
fn members_words(n: u32) -> String {
    format!("{n} member{}", if n == 1 { "" } else { "s" })
}

/// Clubs, one a line: yours first, as the server lists them.
fn list_text(clubs: &[ClubListed]) -> String {
    if clubs.is_empty() {
        return "No clubs.\n".to_owned();
    }
    let mut text = String::new();
    for club in clubs {
        let _ = write!(
            text,
            "{}: {}, {}",
            club.name,
            if club.open { "open" } else { "by request" },
            members_words(club.member_count)
        );
        if let Some(role) = club.you {
            let _ = write!(text, "; you: {}", role_words(role));
        }
        if !club.description.is_empty() {
            let _ = write!(text, " — {}", club.description);
        }
        text.push('\n');
    }
    text
}

/// A club: what it is, your place, its news, its tables and its evenings.
fn club_text(view: &ClubView) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{}: {}, {}.",
        view.name,
        if view.open { "open" } else { "by request" },
        members_words(view.member_count)
    );
    if !view.description.is_empty() {
        let _ = writeln!(text, "{}", view.description);
    }
    match view.you {
        Some(role) => {
            let _ = writeln!(
                text,
                "You: {}; its news {}.",
                role_words(role),
                if view.news_wanted {
                    "told to you"
                } else {
                    "not told to you"
                }
            );
        }
        None => text.push_str("You are not a member.\n"),
    }
    if !view.news.is_empty() {
        text.push_str("News:\n");
        for news in &view.news {
            let _ = writeln!(
                text,
                "  {} {}: {}",
                super::local_time(news.at_ms, false),
                news.by,
                news.text
            );
        }
    }
    if !view.tables.is_empty() {
        text.push_str("Its open tables:\n");
        for table in &view.tables {
            let _ = writeln!(
                text,
                "  {} by {}: {} of {} seated",
                table.id.0,
                table.host,
                table.seated.len(),
                table.spec.people
            );
        }
    }
    if !view.evenings.is_empty() {
        text.push_str("Its evenings:\n");
        for e in &view.evenings {
            let _ = writeln!(
                text,
                "  {} ({}): {}, {} coming{}",
                super::local_time(e.at_ms, false),
                e.id.0,
                super::evenings::state_words(e.state),
                e.coming.len(),
                if e.you_come { ", you among them" } else { "" }
            );
        }
    }
    text
}

/// A club's members, one a line.
fn members_text(view: &ClubView) -> String {
    let mut text = format!("{}: {}\n", view.name, members_words(view.member_count));
    for m in &view.members {
        let _ = write!(text, "  {} ({})", m.name, role_words(m.role));
        if let Some(rating) = &m.rating {
            let _ = write!(text, " {rating}");
        }
        if m.online {
            text.push_str(", online");
        }
        if m.playing.is_some() {
            text.push_str(", playing");
            if let Some(code) = &m.watch {
                let _ = write!(text, " (watch with {code})");
            }
        }
        text.push('\n');
    }
    text
}
