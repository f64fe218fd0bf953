//! Tournaments online: the *Online…* window's section lists the tournaments the player may
//! play in (public ones and their clubs'), joins and leaves them, and shows one's page — where
//! it stands, its standings (kept as they change), the player's games in it with a button to
//! open each, its winners — and lets a club's organiser set one. Being seated by a tournament is
//! told, notified and put on the board.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_protocol::clubs::ClubRole;
use qiguo_protocol::tournaments::{
    Standing, TournamentFormat, TournamentListed, TournamentPlay, TournamentSpec, TournamentState,
    TournamentView, halves_text,
};
use qiguo_protocol::{Answer, Ask, Event, QuickPace};

use super::clubs::OnlineClubs;
use super::evenings::{form_time, tomorrow};
use super::my_games::when;
use super::notify::{self, Notifier};
use super::quick::pace_words;
use super::shared::{Answered, Online, OnlineCommand, OnlineSystems, Pending, SignedIn, Told};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineTournaments>()
        .init_resource::<TournamentForm>()
        .add_message::<TournamentsCommand>()
        .add_systems(
            Update,
            (list_once_signed_in, ask, read_answers, hear)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Tournaments, section);
}

/// Something to ask the server about tournaments.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum TournamentsCommand {
    /// The tournaments the player may play in.
    List,
    /// One tournament's page, by its name.
    Show(String),
    /// Join a tournament.
    Join(String),
    /// Leave a tournament.
    Leave(String),
    /// Close the page shown.
    Hide,
    /// Set a club's tournament (an organiser).
    Create(TournamentSpec),
}

/// The tournaments as the server last said, and the one whose page is open.
#[derive(Resource, Debug, Default)]
pub struct OnlineTournaments {
    /// Under way, to come, lately over.
    pub listed: Vec<TournamentListed>,
    /// The page open: a tournament's standings, the player's games.
    pub shown: Option<TournamentView>,
    /// The section is to open itself (a page asked for, or the player seated by a tournament).
    reveal: bool,
    pending: Pending<()>,
}

/// An organiser's form for a new tournament.
#[derive(Resource, Debug)]
struct TournamentForm {
    name: String,
    club: String,
    format: TournamentFormat,
    pace: QuickPace,
    date: String,
    time: String,
    rounds: u8,
    minutes: u32,
    level: Level,
    rated: bool,
    /// The form's time could not be read.
    bad_time: bool,
}

impl Default for TournamentForm {
    fn default() -> TournamentForm {
        TournamentForm {
            name: String::new(),
            club: String::new(),
            format: TournamentFormat::Arena,
            pace: QuickPace::Brisk,
            date: String::new(),
            time: "20:00".into(),
            rounds: 5,
            minutes: 60,
            level: Level::Medium,
            rated: true,
            bad_time: false,
        }
    }
}

/// Signed in (again): the tournaments, afresh.
fn list_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut tournaments: ResMut<OnlineTournaments>,
    mut online: ResMut<Online>,
) {
    if signed_in.read().last().is_some() {
        tournaments.listed.clear();
        let shown = tournaments.shown.as_ref().map(|t| t.name.clone());
        tournaments
            .pending
            .ask(&mut online, Ask::Tournaments { club: None }, ());
        if let Some(name) = shown {
            tournaments
                .pending
                .ask(&mut online, Ask::Tournament { name }, ());
        }
    }
}

fn ask(
    mut commands: MessageReader<TournamentsCommand>,
    mut tournaments: ResMut<OnlineTournaments>,
    mut online: ResMut<Online>,
) {
    for command in commands.read() {
        let ask = match command.clone() {
            TournamentsCommand::List => Ask::Tournaments { club: None },
            TournamentsCommand::Show(name) => {
                tournaments.reveal = true;
                Ask::Tournament { name }
            }
            TournamentsCommand::Join(name) => Ask::TournamentJoin { name },
            TournamentsCommand::Leave(name) => Ask::TournamentLeave { name },
            TournamentsCommand::Create(spec) => Ask::TournamentCreate { spec },
            TournamentsCommand::Hide => {
                tournaments.shown = None;
                continue;
            }
        };
        let list_after = !matches!(
            command,
            TournamentsCommand::List | TournamentsCommand::Show(_)
        );
        tournaments.pending.ask(&mut online, ask, ());
        if list_after {
            // Joined or left: the list's counts change too.
            tournaments
                .pending
                .ask(&mut online, Ask::Tournaments { club: None }, ());
        }
    }
}

/// A tournament's page (shown), or the list.
fn read_answers(
    mut answers: MessageReader<Answered>,
    mut tournaments: ResMut<OnlineTournaments>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let answered: Vec<Answer> = tournaments
        .pending
        .answers(answers.read(), &mut notices, *tr)
        .into_iter()
        .map(|((), answer)| answer.clone())
        .collect();
    for answer in answered {
        match answer {
            Answer::Tournament(view) => tournaments.shown = Some(*view),
            Answer::Tournaments {
                tournaments: listed,
            } => tournaments.listed = listed,
            _ => {}
        }
    }
}

/// Seated by a tournament (told, notified, the game on the board, its page shown); standings
/// changed (the page shown read again, the list's state kept).
fn hear(
    mut told: MessageReader<Told>,
    mut online: ResMut<Online>,
    tournaments: Res<OnlineTournaments>,
    mut asked: MessageWriter<TournamentsCommand>,
    mut notices: MessageWriter<Notice>,
    mut notifier: ResMut<Notifier>,
    tr: Res<Tr>,
) {
    let mut again = None;
    for Told(event) in told.read() {
        match event {
            Event::TournamentSeated {
                tournament, game, ..
            } => {
                let said = tr!(tr, "online-tournament-seated", name = tournament.clone());
                notices.write(Notice::done(said.clone()));
                notifier.your_turn_elsewhere(|| notify::Notification {
                    summary: tr!(
                        tr,
                        "online-tournament-seated-title",
                        name = tournament.clone()
                    ),
                    body: said,
                });
                online.open(game.clone());
                online.refresh_games();
                // Its page, with the new table among the player's games.
                again = Some(tournament.clone());
            }
            Event::Standings(news) => {
                let shown = tournaments.shown.as_ref().map(|t| &t.name);
                if shown == Some(&news.tournament) {
                    again = Some(news.tournament.clone());
                }
            }
            _ => {}
        }
    }
    if let Some(name) = again {
        asked.write(TournamentsCommand::Show(name));
        asked.write(TournamentsCommand::List);
    }
}

/// A tournament's state as shown.
fn state_text(tr: Tr, state: TournamentState) -> String {
    tr.text(match state {
        TournamentState::Entering => "online-tournament-entering",
        TournamentState::Playing => "online-tournament-playing",
        TournamentState::Over => "online-tournament-over",
    })
}

/// A format and pace as shown.
fn play_text(tr: Tr, format: TournamentFormat, pace: qiguo_protocol::QuickPace) -> String {
    tr!(
        tr,
        "online-tournament-play",
        format = tr.text(match format {
            TournamentFormat::Swiss => "online-tournament-swiss",
            TournamentFormat::Arena => "online-tournament-arena",
        }),
        pace = pace_words(tr, pace).0
    )
}

/// The section: the tournaments, and the page of the one shown.
fn section(
    InMut(ui): InMut<egui::Ui>,
    mut tournaments: ResMut<OnlineTournaments>,
    clubs: Res<OnlineClubs>,
    mut form: ResMut<TournamentForm>,
    online: Res<Online>,
    mut asked: MessageWriter<TournamentsCommand>,
    mut opened: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if !online.in_touch() {
        return;
    }
    let tr = *tr;
    let weak = |text: String| RichText::new(text).small().color(Color32::from_gray(170));
    let reveal = std::mem::take(&mut tournaments.reveal);
    let tournaments = &*tournaments;
    egui::CollapsingHeader::new(tr!(
        tr,
        "online-tournaments",
        count = tournaments.listed.len()
    ))
    .id_salt("tournaments")
    .default_open(tournaments.shown.is_some())
    .open(reveal.then_some(true))
    .show(ui, |ui| {
        ui.label(weak(tr.text("online-tournaments-intro")));
        if tournaments.listed.is_empty() {
            ui.label(weak(tr.text("online-tournaments-none")));
        }
        for t in &tournaments.listed {
            ui.separator();
            listed(ui, tr, t, tournaments.shown.as_ref(), &mut asked);
        }
        if let Some(view) = &tournaments.shown {
            ui.separator();
            page(ui, tr, view, &mut asked, &mut opened);
        }
        let organised: Vec<&str> = clubs
            .listed
            .iter()
            .filter(|c| c.you.is_some_and(ClubRole::organises))
            .map(|c| c.name.as_str())
            .collect();
        if !organised.is_empty() {
            ui.separator();
            new_tournament(ui, tr, &mut form, &organised, &mut asked);
        }
    });
}

/// An organiser's form for a new tournament of their club.
fn new_tournament(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut TournamentForm,
    organised: &[&str],
    asked: &mut MessageWriter<TournamentsCommand>,
) {
    if !organised.contains(&form.club.as_str()) {
        form.club = organised[0].to_owned();
    }
    if form.date.is_empty() {
        form.date = tomorrow();
    }
    ui.label(RichText::new(tr.text("online-tournament-new")).strong());
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut form.name)
                .hint_text(tr.text("online-tournament-name-hint"))
                .desired_width(160.0)
                .char_limit(qiguo_protocol::tournaments::MAX_TOURNAMENT_NAME_CHARS),
        );
        egui::ComboBox::from_id_salt("tournament club")
            .selected_text(form.club.clone())
            .show_ui(ui, |ui| {
                for club in organised {
                    ui.selectable_value(&mut form.club, (*club).to_owned(), *club);
                }
            });
    });
    ui.horizontal_wrapped(|ui| {
        for (format, pace) in [
            (TournamentFormat::Arena, QuickPace::Brisk),
            (TournamentFormat::Swiss, QuickPace::Daily),
        ] {
            let word = tr.text(match format {
                TournamentFormat::Swiss => "online-tournament-swiss",
                TournamentFormat::Arena => "online-tournament-arena",
            });
            if ui.radio(form.format == format, word).clicked() && form.format != format {
                form.format = format;
                form.pace = pace;
            }
        }
        let paces = match form.format {
            TournamentFormat::Arena => [QuickPace::Brisk, QuickPace::Calm],
            TournamentFormat::Swiss => [QuickPace::Daily, QuickPace::Relaxed],
        };
        egui::ComboBox::from_id_salt("tournament pace")
            .selected_text(pace_words(tr, form.pace).0)
            .show_ui(ui, |ui| {
                for pace in paces {
                    ui.selectable_value(&mut form.pace, pace, pace_words(tr, pace).0);
                }
            });
        match form.format {
            TournamentFormat::Swiss => ui.add(
                egui::DragValue::new(&mut form.rounds)
                    .range(1..=qiguo_protocol::tournaments::MAX_ROUNDS)
                    .suffix(format!(" {}", tr.text("online-tournament-rounds-unit"))),
            ),
            TournamentFormat::Arena => ui.add(
                egui::DragValue::new(&mut form.minutes)
                    .range(15..=720)
                    .speed(5)
                    .suffix(format!(" {}", tr.text("online-tournament-minutes-unit"))),
            ),
        };
    });
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut form.date)
                .hint_text(tr.text("online-evening-date-hint"))
                .desired_width(96.0)
                .char_limit(10),
        );
        ui.add(
            egui::TextEdit::singleline(&mut form.time)
                .hint_text(tr.text("online-evening-time-hint"))
                .desired_width(52.0)
                .char_limit(5),
        );
        egui::ComboBox::from_id_salt("tournament level")
            .selected_text(tr.level(form.level))
            .show_ui(ui, |ui| {
                for level in [Level::Easy, Level::Medium, Level::Hard] {
                    ui.selectable_value(&mut form.level, level, tr.level(level));
                }
            });
        ui.checkbox(&mut form.rated, tr.text("lobby-rated"));
    });
    if form.bad_time {
        ui.colored_label(
            Color32::from_rgb(230, 140, 110),
            tr.text("online-evening-bad-time"),
        );
    }
    if ui.button(tr.text("online-tournament-set")).clicked() {
        match form_time(&form.date, &form.time) {
            Some(starts_ms) => {
                form.bad_time = false;
                asked.write(TournamentsCommand::Create(TournamentSpec {
                    name: form.name.clone(),
                    format: form.format,
                    play: TournamentPlay {
                        preset: qiguo_rules::Preset::Classic,
                        pace: form.pace,
                        level: form.level,
                        rated: form.rated,
                    },
                    starts_ms,
                    rounds: form.rounds,
                    minutes: form.minutes,
                    most: qiguo_protocol::tournaments::TOURNAMENT_PLAYERS.1,
                    club: Some(form.club.clone()),
                }));
            }
            None => form.bad_time = true,
        }
    }
}

/// One tournament in the list: its name, what it plays, when, how full; join, leave, show.
fn listed(
    ui: &mut egui::Ui,
    tr: Tr,
    t: &TournamentListed,
    shown: Option<&TournamentView>,
    asked: &mut MessageWriter<TournamentsCommand>,
) {
    let weak = |text: String| RichText::new(text).small().color(Color32::from_gray(170));
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&t.name).strong());
        if let Some(club) = &t.club {
            ui.label(weak(club.clone()));
        }
        ui.label(weak(state_text(tr, t.state)));
    });
    ui.label(weak(tr!(
        tr,
        "online-tournament-listed",
        play = play_text(tr, t.format, t.pace),
        starts = when(tr, t.starts_ms),
        players = t.players,
        most = t.most
    )));
    ui.horizontal_wrapped(|ui| {
        let open = shown.is_some_and(|v| v.name == t.name);
        if open {
            if ui.button(tr.text("online-tournament-hide")).clicked() {
                asked.write(TournamentsCommand::Hide);
            }
        } else if ui.button(tr.text("online-tournament-show")).clicked() {
            asked.write(TournamentsCommand::Show(t.name.clone()));
        }
        if t.state != TournamentState::Over {
            if t.joined {
                if ui.button(tr.text("online-tournament-leave")).clicked() {
                    asked.write(TournamentsCommand::Leave(t.name.clone()));
                }
            } else if t.players < t.most && ui.button(tr.text("online-tournament-join")).clicked() {
                asked.write(TournamentsCommand::Join(t.name.clone()));
            }
        }
    });
}

/// A tournament's page: where it stands, the standings, the player's games, the winners.
fn page(
    ui: &mut egui::Ui,
    tr: Tr,
    view: &TournamentView,
    asked: &mut MessageWriter<TournamentsCommand>,
    opened: &mut MessageWriter<OnlineCommand>,
) {
    let weak = |text: String| RichText::new(text).small().color(Color32::from_gray(170));
    ui.label(RichText::new(&view.name).heading());
    let progress = match view.format {
        TournamentFormat::Swiss => tr!(
            tr,
            "online-tournament-round",
            round = view.round,
            rounds = view.rounds
        ),
        TournamentFormat::Arena => tr!(tr, "online-tournament-minutes", minutes = view.minutes),
    };
    ui.label(weak(format!(
        "{} · {} · {}",
        play_text(tr, view.format, view.play.pace),
        progress,
        state_text(tr, view.state)
    )));
    if let Some(ends) = view.ends_ms {
        ui.label(weak(tr!(
            tr,
            "online-tournament-ends",
            when = when(tr, ends)
        )));
    }
    if !view.winners.is_empty() {
        ui.label(
            RichText::new(tr!(
                tr,
                "online-tournament-winners",
                names = view.winners.join(", ")
            ))
            .strong()
            .color(Color32::from_rgb(230, 190, 90)),
        );
    }
    if view.standings.is_empty() {
        ui.label(weak(tr.text("online-tournament-nobody")));
    } else {
        // Rows of text, not of buttons: as tall as a line (a phone's touch size is for buttons).
        let line = ui.text_style_height(&egui::TextStyle::Body);
        egui::Grid::new(("standings", &view.name))
            .striped(true)
            .num_columns(5)
            .min_row_height(line)
            .show(ui, |ui| {
                for head in [
                    "online-tournament-place",
                    "online-tournament-player",
                    "online-tournament-points",
                    "online-tournament-games",
                    "online-tournament-firsts",
                ] {
                    ui.label(weak(tr.text(head)));
                }
                ui.end_row();
                for s in &view.standings {
                    row(
                        ui,
                        tr,
                        s,
                        view.you.as_ref().is_some_and(|y| y.name == s.name),
                    );
                }
                if let Some(you) = &view.you
                    && !view.standings.iter().any(|s| s.name == you.name)
                {
                    row(ui, tr, you, true);
                }
            });
        ui.label(weak(tr.text("online-tournament-tie-breaks")));
    }
    if !view.your_games.is_empty() {
        ui.label(RichText::new(tr.text("online-tournament-your-games")).strong());
        for g in &view.your_games {
            ui.horizontal_wrapped(|ui| {
                let result = match (g.place, g.points) {
                    (Some(place), Some(points)) => tr!(
                        tr,
                        "online-tournament-result",
                        place = place,
                        points = halves_text(points)
                    ),
                    _ => tr.text("online-tournament-under-way"),
                };
                ui.label(tr!(
                    tr,
                    "online-tournament-game",
                    n = g.round,
                    result = result
                ));
                if ui.small_button(tr.text("online-evening-open")).clicked() {
                    opened.write(OnlineCommand::Open(g.game.clone()));
                }
            });
        }
    }
    if ui.small_button(tr.text("online-tournament-hide")).clicked() {
        asked.write(TournamentsCommand::Hide);
    }
}

/// One line of the standings (the player's own in bold).
fn row(ui: &mut egui::Ui, tr: Tr, s: &Standing, yours: bool) {
    let text = |t: String| {
        let rich = RichText::new(t);
        if yours { rich.strong() } else { rich }
    };
    ui.label(text(s.place.to_string()));
    let mut name = s.name.clone();
    if s.left {
        name = tr!(tr, "online-tournament-left", name = name);
    } else if s.streak >= 2 {
        name = tr!(
            tr,
            "online-tournament-streak",
            name = name,
            streak = s.streak
        );
    }
    ui.label(text(name));
    ui.label(text(halves_text(s.points)));
    ui.label(text(s.games.to_string()));
    ui.label(text(s.firsts.to_string()));
    ui.end_row();
}
