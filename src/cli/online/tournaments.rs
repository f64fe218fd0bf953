//! `qiguo online tournament …`: a club's tournament set (by an organiser), joined, left, its
//! standings shown (and followed as they change), and the tournaments listed. A tournament is
//! named by its name. Each prints lines for a person to read, or with `--json` the server's
//! answer as one line of JSON (times in ms since 1970 and as RFC 3339 in this machine's zone).

use std::fmt::Write as _;

use clap::{Args, Subcommand};
use qiguo_ai::Level;
use qiguo_client::Client;
use qiguo_protocol::tournaments::{
    Standing, TournamentFormat, TournamentListed, TournamentPlay, TournamentSpec, TournamentState,
    TournamentView, halves_text,
};
use qiguo_protocol::{Answer, Ask, Event, QuickPace};
use qiguo_rules::Preset;
use serde_json::json;

use super::{OnlineError, print_line, unexpected};
use crate::cli::error::ArgError;

/// How a tournament's answer is printed.
#[derive(Args, Debug, Clone, Copy)]
pub struct Output {
    /// Print the server's answer as one line of JSON instead of lines to read.
    #[arg(long)]
    json: bool,
}

/// The commands of tournaments (`qiguo online tournament COMMAND`).
#[derive(Subcommand, Debug)]
pub enum TournamentCommand {
    /// Set a tournament of a club you organise (public ones are the server operator's).
    Create {
        /// Its name (unique on the server).
        name: String,
        /// The club whose own it is.
        #[arg(long, value_name = "CLUB")]
        club: String,
        /// swiss (rounds by correspondence, tables by standing) or arena (live for a while,
        /// seated again as soon as a game ends).
        #[arg(long, value_name = "FORMAT")]
        format: String,
        /// When it starts: an RFC 3339 time such as 2026-12-07T19:00:00+01:00 (not past).
        #[arg(long, value_name = "TIME")]
        starts: String,
        /// Quick play's paces: daily or relaxed for a Swiss (the default daily), brisk or calm
        /// for an arena (the default brisk).
        #[arg(long, value_name = "PACE")]
        pace: Option<QuickPace>,
        /// A Swiss's rounds.
        #[arg(long, value_name = "N", default_value_t = 5)]
        rounds: u8,
        /// An arena's length in minutes.
        #[arg(long, value_name = "MINUTES", default_value_t = 60)]
        minutes: u32,
        /// The most players it takes.
        #[arg(long, value_name = "N", default_value_t = 343)]
        most: u32,
        /// Rules preset: classic, wikipedia, elephantchess, leventhal or ludii.
        #[arg(long = "rules", value_name = "PRESET", default_value = "classic")]
        preset: Preset,
        /// The computers' level in the kingdoms nobody takes: easy, medium or hard.
        #[arg(long, value_name = "LEVEL", default_value = "medium")]
        level: Level,
        /// Its games count for the ratings.
        #[arg(long)]
        rated: bool,
        /// How the answer is printed.
        #[command(flatten)]
        output: Output,
    },
    /// Join a tournament (a club's own, if you are a member).
    Join {
        /// Its name.
        name: String,
        /// How the answer is printed.
        #[command(flatten)]
        output: Output,
    },
    /// Leave a tournament: before it starts you are no longer entered; after, you are seated
    /// no more, a computer taking your kingdom in your game under way (your points kept).
    Leave {
        /// Its name.
        name: String,
        /// How the answer is printed.
        #[command(flatten)]
        output: Output,
    },
    /// A tournament's standings, your games in it and its winners; with --follow, the
    /// standings again each time they change, until it is over.
    Standings {
        /// Its name.
        name: String,
        /// Keep printing the standings as they change.
        #[arg(long)]
        follow: bool,
        /// How the answer is printed.
        #[command(flatten)]
        output: Output,
    },
    /// The tournaments under way, to come and lately over: public ones and your clubs'.
    List {
        /// One club's only.
        #[arg(long, value_name = "CLUB")]
        club: Option<String>,
        /// How the answer is printed.
        #[command(flatten)]
        output: Output,
    },
}

/// `--format` as typed.
fn format(typed: &str) -> Result<TournamentFormat, ArgError> {
    match typed {
        "swiss" => Ok(TournamentFormat::Swiss),
        "arena" => Ok(TournamentFormat::Arena),
        other => Err(ArgError::new(
            format!("--format {other}"),
            "a tournament is a swiss or an arena",
        )),
    }
}

/// `--starts` as typed: ms since 1970, a time to come.
fn starts_ms(typed: &str, now_ms: i64) -> Result<i64, ArgError> {
    let at: jiff::Timestamp = typed.trim().parse().map_err(|_| {
        ArgError::new(
            format!("--starts {typed}"),
            "a time is written as RFC 3339, such as 2026-12-07T19:00:00+01:00",
        )
    })?;
    let ms = at.as_millisecond();
    if ms <= now_ms {
        return Err(ArgError::new(
            format!("--starts {typed}"),
            "that time has passed: a tournament starts in the future",
        ));
    }
    Ok(ms)
}

fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

impl TournamentCommand {
    /// Checks what can be checked before anything is sent.
    pub(super) fn check(&self) -> Result<(), ArgError> {
        if let TournamentCommand::Create {
            format: kind,
            starts,
            ..
        } = self
        {
            format(kind)?;
            starts_ms(starts, now_ms())?;
        }
        Ok(())
    }

    fn output(&self) -> Output {
        match self {
            TournamentCommand::Create { output, .. }
            | TournamentCommand::Join { output, .. }
            | TournamentCommand::Leave { output, .. }
            | TournamentCommand::Standings { output, .. }
            | TournamentCommand::List { output, .. } => *output,
        }
    }

    /// Asks the server and prints what it answered (with --follow, each change until the
    /// tournament is over).
    pub(super) async fn run(&self, client: &mut Client) -> Result<(), OnlineError> {
        let ask = match self {
            TournamentCommand::Create {
                name,
                club,
                format: kind,
                starts,
                pace,
                rounds,
                minutes,
                most,
                preset,
                level,
                rated,
                ..
            } => {
                let format = format(kind)?;
                let pace = pace.unwrap_or(match format {
                    TournamentFormat::Swiss => QuickPace::Daily,
                    TournamentFormat::Arena => QuickPace::Brisk,
                });
                Ask::TournamentCreate {
                    spec: TournamentSpec {
                        name: name.clone(),
                        format,
                        play: TournamentPlay {
                            preset: *preset,
                            pace,
                            level: *level,
                            rated: *rated,
                        },
                        starts_ms: starts_ms(starts, now_ms())?,
                        rounds: *rounds,
                        minutes: *minutes,
                        most: *most,
                        club: Some(club.clone()),
                    },
                }
            }
            TournamentCommand::Join { name, .. } => Ask::TournamentJoin { name: name.clone() },
            TournamentCommand::Leave { name, .. } => Ask::TournamentLeave { name: name.clone() },
            TournamentCommand::Standings { name, .. } => Ask::Tournament { name: name.clone() },
            TournamentCommand::List { club, .. } => Ask::Tournaments { club: club.clone() },
        };
        let json = self.output().json;
        let view = match client.ask(ask).await? {
            Answer::Tournaments { tournaments } => {
                if json {
                    print_line(&json!({ "tournaments": tournaments }));
                } else {
                    print!("{}", list_text(&tournaments));
                }
                return Ok(());
            }
            Answer::Tournament(view) => *view,
            other => return unexpected(other),
        };
        self.print(&view, json);
        let TournamentCommand::Standings {
            name, follow: true, ..
        } = self
        else {
            return Ok(());
        };
        let mut state = view.state;
        while state != TournamentState::Over {
            match client.next_event().await? {
                Event::Standings(news) if news.tournament == view.name => {
                    state = news.state;
                    // The whole view again: the news carries the leaders only.
                    match client.ask(Ask::Tournament { name: name.clone() }).await? {
                        Answer::Tournament(view) => self.print(&view, json),
                        other => return unexpected(other),
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn print(&self, view: &TournamentView, json: bool) {
        if json {
            let mut line = json!(view);
            line["starts"] = json!(super::local_time(view.starts_ms, true));
            if let Some(ends) = view.ends_ms {
                line["ends"] = json!(super::local_time(ends, true));
            }
            print_line(&line);
        } else {
            print!("{}", view_text(view));
        }
    }
}

/// A format's and a pace's words.
fn play_words(format: TournamentFormat, pace: QuickPace) -> String {
    let pace = match pace {
        QuickPace::Brisk => "brisk",
        QuickPace::Calm => "calm",
        QuickPace::Daily => "daily",
        QuickPace::Relaxed => "relaxed",
    };
    format!("{}, {pace}", format.word())
}

fn state_words(state: TournamentState) -> &'static str {
    match state {
        TournamentState::Entering => "to start",
        TournamentState::Playing => "under way",
        TournamentState::Over => "over",
    }
}

/// Tournaments as lines to read.
fn list_text(tournaments: &[TournamentListed]) -> String {
    if tournaments.is_empty() {
        return "No tournaments.\n".to_owned();
    }
    let mut text = String::new();
    for t in tournaments {
        let _ = writeln!(
            text,
            "{}{} — {}; {}; starts {}; {} of {} players{}",
            t.name,
            t.club
                .as_ref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default(),
            play_words(t.format, t.pace),
            state_words(t.state),
            super::local_time(t.starts_ms, false),
            t.players,
            t.most,
            if t.joined { "; you are in it" } else { "" }
        );
    }
    text
}

/// One line of the standings.
fn standing_line(s: &Standing) -> String {
    let mut line = format!(
        "{:>4}  {:<24} {:>6}  {} game{}, {} first{}",
        s.place,
        s.name,
        halves_text(s.points),
        s.games,
        if s.games == 1 { "" } else { "s" },
        s.firsts,
        if s.firsts == 1 { "" } else { "s" },
    );
    if s.streak >= 2 {
        let _ = write!(line, ", on a streak of {}", s.streak);
    }
    if s.left {
        line.push_str(", left");
    }
    line
}

/// A tournament as lines to read: what it is, where it stands, its standings, your games.
fn view_text(view: &TournamentView) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{}{} — {}; {}",
        view.name,
        view.club
            .as_ref()
            .map(|c| format!(" ({c})"))
            .unwrap_or_default(),
        play_words(view.format, view.play.pace),
        state_words(view.state)
    );
    let _ = match view.format {
        TournamentFormat::Swiss => writeln!(
            text,
            "Starts {}; round {} of {}; {} of {} players.",
            super::local_time(view.starts_ms, false),
            view.round,
            view.rounds,
            view.players,
            view.most
        ),
        TournamentFormat::Arena => writeln!(
            text,
            "Starts {}; {} minutes; {} of {} players.",
            super::local_time(view.starts_ms, false),
            view.minutes,
            view.players,
            view.most
        ),
    };
    if let Some(ends) = view.ends_ms {
        let _ = writeln!(text, "Ends {}.", super::local_time(ends, false));
    }
    if !view.winners.is_empty() {
        let _ = writeln!(text, "Won by {}.", view.winners.join(", "));
    }
    if !view.standings.is_empty() {
        let _ = writeln!(text, "\nPlace Player                   Points");
        for s in &view.standings {
            let _ = writeln!(text, "{}", standing_line(s));
        }
    }
    if let Some(you) = &view.you
        && !view.standings.iter().any(|s| s.name == you.name)
    {
        let _ = writeln!(text, " …\n{}", standing_line(you));
    }
    if !view.your_games.is_empty() {
        let _ = writeln!(text, "\nYour games:");
        for g in &view.your_games {
            let result = match (g.place, g.points) {
                (Some(place), Some(points)) => {
                    format!("place {place}, {} points", halves_text(points))
                }
                _ => "under way".to_owned(),
            };
            let _ = writeln!(text, "  game {} (code {}): {result}", g.round, g.code);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_is_rfc_3339_and_to_come_and_a_format_one_of_two() {
        let now = 1_796_126_400_000; // 2026-12-01 12:00 UTC
        assert_eq!(
            starts_ms("2026-12-01T18:30:00Z", now),
            Ok(now + 6 * 3_600_000 + 30 * 60_000)
        );
        assert!(
            starts_ms("2026-12-01T11:00:00Z", now)
                .unwrap_err()
                .why
                .contains("passed")
        );
        assert!(
            starts_ms("next week", now)
                .unwrap_err()
                .why
                .contains("RFC 3339")
        );
        assert_eq!(format("swiss"), Ok(TournamentFormat::Swiss));
        assert_eq!(format("arena"), Ok(TournamentFormat::Arena));
        assert!(format("knockout").is_err());
    }

    #[test]
    fn standings_read_as_a_table() {
        let line = standing_line(&Standing {
            place: 2,
            name: "Ann".into(),
            points: 13,
            games: 3,
            firsts: 1,
            met: 40,
            streak: 3,
            left: false,
        });
        assert!(line.contains("Ann"), "{line}");
        assert!(line.contains("6.5"), "{line}");
        assert!(
            line.contains("3 games, 1 first, on a streak of 3"),
            "{line}"
        );
    }
}
