//! `qiguo online evening …`: a club's evenings set (by an organiser), answered, called off and
//! listed, and one written as a calendar file. Each prints lines for a person to read (times in
//! this machine's time zone), or with `--json` the server's answer as one line of JSON, times in
//! ms since 1970 and as RFC 3339 in this machine's time zone.

use std::fmt::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use qiguo_ai::Level;
use qiguo_client::Client;
use qiguo_protocol::evenings::{
    EveningId, EveningPlay, EveningSpec, EveningState, EveningView, Seating, calendar_file,
};
use qiguo_protocol::{Answer, Ask, QuickPace};
use qiguo_rules::Preset;
use serde_json::json;

use super::{OnlineError, unexpected};
use crate::cli::error::ArgError;

/// `qiguo online evening COMMAND [--json]`.
#[derive(Args, Debug)]
pub struct EveningArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: EveningCommand,
    /// Print the server's answer as one line of JSON instead of lines to read.
    #[arg(long, global = true)]
    pub json: bool,
}

impl EveningArgs {
    /// Asks the server (of URL `server`) and prints its answer.
    pub(super) async fn run(&self, client: &mut Client, server: &str) -> Result<(), OnlineError> {
        let answer = self.command.ask(client, server).await?;
        if self.json {
            super::print_line(&answer.json());
        } else {
            print!("{}", answer.text());
        }
        Ok(())
    }
}

/// What the server answered an evening's command.
pub(super) enum EveningAnswer {
    /// One evening.
    One(Box<EveningView>),
    /// Evenings listed.
    Many(Vec<EveningView>),
    /// An evening written as a calendar file, to this path.
    Written(Box<EveningView>, String),
}

impl EveningAnswer {
    /// The answer as one line of JSON.
    fn json(&self) -> serde_json::Value {
        match self {
            EveningAnswer::One(view) => evening_line(view),
            EveningAnswer::Many(evenings) => json!({
                "evenings": evenings.iter().map(evening_line).collect::<Vec<_>>()
            }),
            EveningAnswer::Written(view, file) => json!({ "evening": view.id, "calendar": file }),
        }
    }

    /// The answer as lines to read.
    fn text(&self) -> String {
        match self {
            EveningAnswer::One(view) => evening_text(view),
            EveningAnswer::Many(evenings) if evenings.is_empty() => {
                "No evenings to come.\n".to_owned()
            }
            EveningAnswer::Many(evenings) => evenings.iter().map(evening_text).collect(),
            EveningAnswer::Written(view, file) => format!(
                "Wrote {file}: {}'s evening at {}.\n",
                view.club,
                super::local_time(view.at_ms, false)
            ),
        }
    }
}

/// How an evening's state reads.
pub(super) fn state_words(state: EveningState) -> &'static str {
    match state {
        EveningState::Planned => "planned",
        EveningState::Playing => "under way",
        EveningState::Over => "over",
        EveningState::Cancelled => "called off",
    }
}

/// An evening: when, whose, how it is played, who comes, its tables.
fn evening_text(view: &EveningView) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} of {} at {} (set by {}): {}; {}, {}, {}{}.",
        view.id.0,
        view.club,
        super::local_time(view.at_ms, false),
        view.by,
        state_words(view.state),
        view.play.pace.name(),
        view.play.preset.name(),
        match view.play.seating {
            Seating::ByRating => "seated by rating",
            Seating::AtRandom => "seated at random",
        },
        if view.play.rated { ", rated" } else { "" }
    );
    let _ = writeln!(
        text,
        "  {} coming{}{}",
        view.coming.len(),
        if view.coming.is_empty() { "" } else { ": " },
        view.coming.join(", ")
    );
    if view.you_come {
        text.push_str("  You come.\n");
    }
    for table in &view.tables {
        let _ = writeln!(text, "  Table {}: {}", table.code, table.people.join(", "));
    }
    text
}

/// The commands of club evenings (`qiguo online evening COMMAND`).
#[derive(Subcommand, Debug)]
pub enum EveningCommand {
    /// Set an evening of a club you organise: at its time the members present are seated at
    /// tables of seven, computers in the kingdoms nobody takes.
    Create {
        /// The club's name.
        #[arg(long, value_name = "CLUB")]
        club: String,
        /// When it begins: an RFC 3339 time such as 2026-12-01T19:30:00+01:00 (not past).
        #[arg(long, value_name = "TIME")]
        at: String,
        /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
        #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
        preset: Preset,
        /// brisk (30 s a move) or calm (3 min): an evening is played live.
        #[arg(long, value_name = "PACE", default_value = "calm")]
        pace: QuickPace,
        /// The computers' level: easy, medium or hard.
        #[arg(long, value_name = "LEVEL", default_value = "medium")]
        level: Level,
        /// How people are seated: by-rating (the strongest together) or at-random.
        #[arg(long, value_name = "HOW", default_value = "by-rating")]
        seating: String,
        /// Its games count for the ratings.
        #[arg(long)]
        rated: bool,
    },
    /// Say you come to an evening (or, with --not, that you no longer do); once it has begun,
    /// coming seats you at once in a computer's kingdom of one of its games.
    Come {
        /// The evening's id.
        evening: String,
        /// You no longer come.
        #[arg(long)]
        not: bool,
    },
    /// Call off an evening not begun (an organiser).
    Cancel {
        /// The evening's id.
        evening: String,
    },
    /// The evenings to come and under way of a club, or of all your clubs.
    List {
        /// The club's name.
        #[arg(long, value_name = "CLUB")]
        club: Option<String>,
    },
    /// Write an evening as a calendar file (iCalendar) to add it to a calendar.
    Calendar {
        /// The evening's id.
        evening: String,
        /// The file to write (such as evening.ics).
        file: PathBuf,
    },
}

/// `--seating` as typed.
fn seating(typed: &str) -> Result<Seating, ArgError> {
    match typed {
        "by-rating" => Ok(Seating::ByRating),
        "at-random" => Ok(Seating::AtRandom),
        other => Err(ArgError::new(
            format!("--seating {other}"),
            "people are seated by-rating or at-random",
        )),
    }
}

/// `--at` as typed: ms since 1970, a time to come.
fn at_ms(typed: &str, now_ms: i64) -> Result<i64, ArgError> {
    let at: jiff::Timestamp = typed.trim().parse().map_err(|_| {
        ArgError::new(
            format!("--at {typed}"),
            "a time is written as RFC 3339, such as 2026-12-01T19:30:00+01:00",
        )
    })?;
    let ms = at.as_millisecond();
    if ms <= now_ms {
        return Err(ArgError::new(
            format!("--at {typed}"),
            "that time has passed: an evening is set in the future",
        ));
    }
    Ok(ms)
}

fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

/// An evening as a line shows it.
fn evening_line(view: &EveningView) -> serde_json::Value {
    let mut line = json!(view);
    line["at"] = json!(super::local_time(view.at_ms, true));
    line
}

impl EveningCommand {
    /// Checks what can be checked before anything is sent.
    pub(super) fn check(&self) -> Result<(), ArgError> {
        if let EveningCommand::Create {
            at, seating: how, ..
        } = self
        {
            at_ms(at, now_ms())?;
            seating(how)?;
        }
        Ok(())
    }

    /// Asks the server: its answer.
    async fn ask(&self, client: &mut Client, server: &str) -> Result<EveningAnswer, OnlineError> {
        let id = |typed: &String| EveningId(typed.trim().to_owned());
        let ask = match self {
            EveningCommand::Create {
                club,
                at,
                preset,
                pace,
                level,
                seating: how,
                rated,
            } => Ask::EveningCreate {
                spec: EveningSpec {
                    club: club.clone(),
                    at_ms: at_ms(at, now_ms())?,
                    play: EveningPlay {
                        preset: *preset,
                        pace: *pace,
                        level: *level,
                        seating: seating(how)?,
                        rated: *rated,
                    },
                },
            },
            EveningCommand::Come { evening, not } => Ask::EveningCome {
                evening: id(evening),
                coming: !not,
            },
            EveningCommand::Cancel { evening } => Ask::EveningCancel {
                evening: id(evening),
            },
            EveningCommand::List { club } => Ask::Evenings { club: club.clone() },
            EveningCommand::Calendar { .. } => Ask::Evenings { club: None },
        };
        match (client.ask(ask).await?, self) {
            (Answer::Evenings { evenings }, EveningCommand::Calendar { evening, file }) => {
                let Some(view) = evenings.iter().find(|e| e.id == id(evening)) else {
                    return Err(OnlineError::NoEvening(evening.clone()));
                };
                let host = host_of(server);
                std::fs::write(file, calendar_file(view, &host, now_ms()))
                    .map_err(|e| OnlineError::Write(file.display().to_string(), e))?;
                Ok(EveningAnswer::Written(
                    Box::new(view.clone()),
                    file.display().to_string(),
                ))
            }
            (Answer::Evenings { evenings }, _) => Ok(EveningAnswer::Many(evenings)),
            (Answer::Evening(view), _) => Ok(EveningAnswer::One(view)),
            (other, _) => unexpected(other),
        }
    }
}

/// The server's host (for a calendar event's id) from its URL.
fn host_of(server: &str) -> String {
    let rest = server.split_once("://").map_or(server, |(_, rest)| rest);
    rest.split(['/', ':']).next().unwrap_or(rest).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_is_rfc_3339_and_to_come() {
        let now = 1_796_126_400_000; // 2026-12-01 12:00 UTC
        assert_eq!(
            at_ms("2026-12-01T19:30:00+01:00", now),
            Ok(1_796_126_400_000 + 7 * 3_600_000 + 30 * 60_000 - 3_600_000)
        );
        assert_eq!(
            at_ms("2026-12-01T18:30:00Z", now),
            at_ms("2026-12-01T19:30:00+01:00", now)
        );
        let past = at_ms("2026-12-01T11:59:00Z", now).unwrap_err();
        assert!(past.why.contains("passed"), "{}", past.why);
        let bad = at_ms("tomorrow at eight", now).unwrap_err();
        assert!(bad.why.contains("RFC 3339"), "{}", bad.why);
        assert!(seating("by-rating").is_ok() && seating("at-random").is_ok());
        assert!(seating("youngest first").is_err());
        assert_eq!(
            host_of("wss://qiguo.example.org:7206/x"),
            "qiguo.example.org"
        );
        assert_eq!(host_of("ws://127.0.0.1:7206"), "127.0.0.1");
    }
}
