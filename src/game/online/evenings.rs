//! Club evenings online: the *Online…* window's section lists the evenings of the player's
//! clubs (their time in the player's own time zone), says whether they come, adds one to a
//! calendar (an iCalendar file: downloaded in a page, written to the downloads folder on the
//! desktop), opens the player's game once seated, and lets an organiser set one or call it off.
//! An evening that seats the player is told, notified and put on the board.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_protocol::clubs::ClubRole;
use qiguo_protocol::evenings::{
    EveningId, EveningPlay, EveningSpec, EveningState, EveningView, Seating, calendar_file,
};
use qiguo_protocol::{Answer, Ask, Event, QuickPace};

use super::clubs::OnlineClubs;
use super::my_games::when;
use super::notify::{self, Notifier};
use super::quick::pace_words;
use super::shared::{Answered, Online, OnlineCommand, OnlineSystems, Pending, SignedIn, Told};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineEvenings>()
        .init_resource::<EveningForm>()
        .add_message::<EveningsCommand>()
        .add_systems(
            Update,
            (list_once_signed_in, ask, read_answers, hear_seated)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Evenings, section);
}

/// Something to ask the server about evenings.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum EveningsCommand {
    /// The evenings of the player's clubs.
    List,
    /// Set an evening (an organiser).
    Create(EveningSpec),
    /// Come to an evening, or no longer.
    Come(EveningId, bool),
    /// Call an evening off (an organiser).
    Cancel(EveningId),
}

/// The evenings of the player's clubs, as the server last said.
#[derive(Resource, Debug, Default)]
pub struct OnlineEvenings {
    /// To come and under way, the soonest first.
    pub listed: Vec<EveningView>,
    pending: Pending<()>,
}

/// The form for a new evening, and what became of the last calendar file.
#[derive(Resource, Debug)]
struct EveningForm {
    club: String,
    date: String,
    time: String,
    pace: QuickPace,
    level: Level,
    seating: Seating,
    rated: bool,
    /// The form's time could not be read.
    bad_time: bool,
}

impl Default for EveningForm {
    fn default() -> EveningForm {
        EveningForm {
            club: String::new(),
            date: String::new(),
            time: "20:00".into(),
            pace: QuickPace::Calm,
            level: Level::Medium,
            seating: Seating::ByRating,
            rated: false,
            bad_time: false,
        }
    }
}

/// Signed in (again): the evenings, afresh.
fn list_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut evenings: ResMut<OnlineEvenings>,
    mut online: ResMut<Online>,
) {
    if signed_in.read().last().is_some() {
        evenings.listed.clear();
        evenings
            .pending
            .ask(&mut online, Ask::Evenings { club: None }, ());
    }
}

fn ask(
    mut commands: MessageReader<EveningsCommand>,
    mut evenings: ResMut<OnlineEvenings>,
    mut online: ResMut<Online>,
) {
    for command in commands.read() {
        let ask = match command.clone() {
            EveningsCommand::List => Ask::Evenings { club: None },
            EveningsCommand::Create(spec) => Ask::EveningCreate { spec },
            EveningsCommand::Come(evening, coming) => Ask::EveningCome { evening, coming },
            EveningsCommand::Cancel(evening) => Ask::EveningCancel { evening },
        };
        evenings.pending.ask(&mut online, ask, ());
    }
}

/// An evening answered (kept in the list; seated late, its game opened), or the list.
fn read_answers(
    mut answers: MessageReader<Answered>,
    mut evenings: ResMut<OnlineEvenings>,
    mut online: ResMut<Online>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let answered: Vec<Answer> = evenings
        .pending
        .answers(answers.read(), &mut notices, *tr)
        .into_iter()
        .map(|((), answer)| answer.clone())
        .collect();
    for answer in answered {
        match answer {
            Answer::Evening(view) => {
                let was = evenings.listed.iter().position(|e| e.id == view.id);
                let seated_now = view.your_game.is_some()
                    && was.is_none_or(|i| evenings.listed[i].your_game.is_none());
                if seated_now && let Some(game) = &view.your_game {
                    online.open(game.clone());
                    online.refresh_games();
                }
                match was {
                    Some(i) => evenings.listed[i] = *view,
                    None => {
                        evenings.listed.push(*view);
                        evenings.listed.sort_by_key(|e| e.at_ms);
                    }
                }
            }
            Answer::Evenings { evenings: listed } => evenings.listed = listed,
            _ => {}
        }
    }
}

/// An evening began and seated the player: told, notified, the game on the board.
fn hear_seated(
    mut told: MessageReader<Told>,
    mut online: ResMut<Online>,
    mut asked: MessageWriter<EveningsCommand>,
    mut notices: MessageWriter<Notice>,
    mut notifier: ResMut<Notifier>,
    tr: Res<Tr>,
) {
    for Told(event) in told.read() {
        let Event::EveningSeated { club, game, .. } = event else {
            continue;
        };
        let said = tr!(tr, "online-evening-seated", club = club.clone());
        notices.write(Notice::done(said.clone()));
        notifier.your_turn_elsewhere(|| notify::Notification {
            summary: tr!(tr, "online-evening-seated-title", club = club.clone()),
            body: said,
        });
        online.open(game.clone());
        online.refresh_games();
        asked.write(EveningsCommand::List);
    }
}

/// An evening's state as shown.
fn state_text(tr: Tr, state: EveningState) -> String {
    tr.text(match state {
        EveningState::Planned => "online-evening-planned",
        EveningState::Playing => "online-evening-playing",
        EveningState::Over => "online-evening-over",
        EveningState::Cancelled => "online-evening-cancelled",
    })
}

/// The form's date and time, in the player's time zone, as ms since 1970.
pub(super) fn form_time(date: &str, time: &str) -> Option<i64> {
    let civil: jiff::civil::DateTime = format!("{}T{}", date.trim(), time.trim()).parse().ok()?;
    let zoned = civil.to_zoned(jiff::tz::TimeZone::system()).ok()?;
    Some(zoned.timestamp().as_millisecond())
}

/// Tomorrow's date in the player's time zone (the form's first date).
pub(super) fn tomorrow() -> String {
    let now = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::system());
    now.date()
        .tomorrow()
        .map(|d| d.to_string())
        .unwrap_or_default()
}

/// What the section's buttons ask: of the server about evenings, a notice, a game opened.
#[derive(bevy::ecs::system::SystemParam)]
struct Asks<'w> {
    evenings: MessageWriter<'w, EveningsCommand>,
    notices: MessageWriter<'w, Notice>,
    online: MessageWriter<'w, OnlineCommand>,
}

/// The section: the evenings of the player's clubs, and an organiser's form.
fn section(
    InMut(ui): InMut<egui::Ui>,
    evenings: Res<OnlineEvenings>,
    clubs: Res<OnlineClubs>,
    mut form: ResMut<EveningForm>,
    online: Res<Online>,
    mut asks: Asks,
    tr: Res<Tr>,
) {
    // Only for members of a club.
    let member_of = clubs
        .listed
        .iter()
        .filter(|c| c.you.is_some_and(ClubRole::belongs))
        .count();
    if !online.in_touch() || (member_of == 0 && evenings.listed.is_empty()) {
        return;
    }
    let tr = *tr;
    let weak = |text: String| RichText::new(text).small().color(Color32::from_gray(170));
    egui::CollapsingHeader::new(tr!(tr, "online-evenings", count = evenings.listed.len()))
        .id_salt("evenings")
        .default_open(!evenings.listed.is_empty())
        .show(ui, |ui| {
            ui.label(weak(tr.text("online-evenings-intro")));
            if evenings.listed.is_empty() {
                ui.label(weak(tr.text("online-evenings-none")));
            }
            for evening in &evenings.listed {
                ui.separator();
                one(ui, tr, evening, &clubs, &mut asks);
            }
            let organised: Vec<&str> = clubs
                .listed
                .iter()
                .filter(|c| c.you.is_some_and(ClubRole::organises))
                .map(|c| c.name.as_str())
                .collect();
            if !organised.is_empty() {
                ui.separator();
                new_evening(ui, tr, &mut form, &organised, &mut asks.evenings);
            }
        });
}

/// One evening: when, which club, who comes; the player's choices.
fn one(ui: &mut egui::Ui, tr: Tr, evening: &EveningView, clubs: &OnlineClubs, asks: &mut Asks) {
    let weak = |text: String| RichText::new(text).small().color(Color32::from_gray(170));
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&evening.club).strong());
        ui.label(when(tr, evening.at_ms));
        ui.label(weak(state_text(tr, evening.state)));
    });
    ui.label(weak(tr!(
        tr,
        "online-evening-play",
        pace = pace_words(tr, evening.play.pace).0,
        level = tr.level(evening.play.level),
        seating = tr.text(match evening.play.seating {
            Seating::ByRating => "online-evening-by-rating",
            Seating::AtRandom => "online-evening-at-random",
        })
    )));
    if !evening.coming.is_empty() {
        ui.label(weak(tr!(
            tr,
            "online-evening-coming",
            count = evening.coming.len(),
            names = evening.coming.join(", ")
        )));
    }
    let open = matches!(evening.state, EveningState::Planned | EveningState::Playing);
    ui.horizontal_wrapped(|ui| {
        if let Some(game) = &evening.your_game {
            if ui.button(tr.text("online-evening-open")).clicked() {
                asks.online.write(OnlineCommand::Open(game.clone()));
            }
        } else if open {
            let (label, coming) = match (evening.you_come, evening.state) {
                (_, EveningState::Playing) => ("online-evening-come-late", true),
                (false, _) => ("online-evening-come", true),
                (true, _) => ("online-evening-not", false),
            };
            if ui.button(tr.text(label)).clicked() {
                asks.evenings
                    .write(EveningsCommand::Come(evening.id.clone(), coming));
            }
        }
        if evening.state == EveningState::Planned {
            if ui.button(tr.text("online-evening-calendar")).clicked() {
                let text = calendar_file(evening, "qiguo", jiff::Timestamp::now().as_millisecond());
                let name = format!("qiguo-evening-{}.ics", evening.id.0);
                asks.notices.write(match calendar::offer(&name, &text) {
                    Ok(place) => {
                        Notice::done(tr!(tr, "online-evening-calendar-saved", file = place))
                    }
                    Err(why) => Notice::error(tr!(
                        tr,
                        "online-evening-calendar-failed",
                        why = why.to_string()
                    )),
                });
            }
            let organises = clubs
                .listed
                .iter()
                .any(|c| c.name == evening.club && c.you.is_some_and(ClubRole::organises));
            if organises && ui.button(tr.text("online-evening-cancel")).clicked() {
                asks.evenings
                    .write(EveningsCommand::Cancel(evening.id.clone()));
            }
        }
    });
    for (n, table) in evening.tables.iter().enumerate() {
        ui.horizontal_wrapped(|ui| {
            ui.label(weak(tr!(
                tr,
                "online-evening-table",
                n = n + 1,
                people = table.people.join(", ")
            )));
            if evening.state == EveningState::Playing
                && evening.your_game.as_ref() != Some(&table.game)
                && ui.small_button(tr.text("lobby-watch")).clicked()
            {
                asks.online.write(OnlineCommand::Watch(table.code.clone()));
            }
        });
    }
}

/// An organiser's form for a new evening.
fn new_evening(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut EveningForm,
    organised: &[&str],
    asked: &mut MessageWriter<EveningsCommand>,
) {
    if !organised.contains(&form.club.as_str()) {
        form.club = organised[0].to_owned();
    }
    if form.date.is_empty() {
        form.date = tomorrow();
    }
    ui.label(RichText::new(tr.text("online-evening-new")).strong());
    ui.horizontal_wrapped(|ui| {
        egui::ComboBox::from_id_salt("evening club")
            .selected_text(form.club.clone())
            .show_ui(ui, |ui| {
                for club in organised {
                    ui.selectable_value(&mut form.club, (*club).to_owned(), *club);
                }
            });
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
    });
    ui.horizontal_wrapped(|ui| {
        egui::ComboBox::from_id_salt("evening pace")
            .selected_text(pace_words(tr, form.pace).0)
            .show_ui(ui, |ui| {
                for pace in [QuickPace::Brisk, QuickPace::Calm] {
                    ui.selectable_value(&mut form.pace, pace, pace_words(tr, pace).0);
                }
            });
        egui::ComboBox::from_id_salt("evening level")
            .selected_text(tr.level(form.level))
            .show_ui(ui, |ui| {
                for level in [Level::Easy, Level::Medium, Level::Hard] {
                    ui.selectable_value(&mut form.level, level, tr.level(level));
                }
            });
        ui.radio_value(
            &mut form.seating,
            Seating::ByRating,
            tr.text("online-evening-by-rating"),
        );
        ui.radio_value(
            &mut form.seating,
            Seating::AtRandom,
            tr.text("online-evening-at-random"),
        );
        ui.checkbox(&mut form.rated, tr.text("lobby-rated"));
    });
    if form.bad_time {
        ui.colored_label(
            Color32::from_rgb(230, 140, 110),
            tr.text("online-evening-bad-time"),
        );
    }
    if ui.button(tr.text("online-evening-set")).clicked() {
        match form_time(&form.date, &form.time) {
            Some(at_ms) => {
                form.bad_time = false;
                asked.write(EveningsCommand::Create(EveningSpec {
                    club: form.club.clone(),
                    at_ms,
                    play: EveningPlay {
                        preset: qiguo_rules::Preset::Classic,
                        pace: form.pace,
                        level: form.level,
                        seating: form.seating,
                        rated: form.rated,
                    },
                }));
            }
            None => form.bad_time = true,
        }
    }
}

/// A calendar file offered to the player: where it went, or why not.
mod calendar {
    /// Why a calendar file was not offered.
    #[derive(Debug, thiserror::Error)]
    pub(super) enum NotOffered {
        /// The page could not hand it to the browser.
        #[cfg(target_arch = "wasm32")]
        #[error(transparent)]
        Download(#[from] crate::browser::files::FileError),
        /// There is no home folder to write it in.
        #[cfg(not(target_arch = "wasm32"))]
        #[error("no home folder")]
        NoHome,
        /// It could not be written.
        #[cfg(not(target_arch = "wasm32"))]
        #[error("{path}: {why}")]
        Write {
            /// The file.
            path: String,
            /// The system's reason.
            why: std::io::Error,
        },
    }

    /// In a page: downloaded (the browser says where).
    #[cfg(target_arch = "wasm32")]
    pub(super) fn offer(name: &str, text: &str) -> Result<String, NotOffered> {
        crate::browser::files::download(name, text)?;
        Ok(name.to_owned())
    }

    /// On the desktop: written to the downloads folder (else the home folder).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn offer(name: &str, text: &str) -> Result<String, NotOffered> {
        let dirs = directories::UserDirs::new().ok_or(NotOffered::NoHome)?;
        let folder = dirs
            .download_dir()
            .unwrap_or_else(|| dirs.home_dir())
            .to_path_buf();
        let path = folder.join(name);
        std::fs::write(&path, text).map_err(|why| NotOffered::Write {
            path: path.display().to_string(),
            why,
        })?;
        Ok(path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_time_is_read_in_the_players_zone() {
        // Dates built from numbers: the messages' check reads dashed words as message ids.
        let date = |y: u32, m: u32, d: u32| format!("{y:04}-{m:02}-{d:02}");
        let at = form_time(&date(2026, 12, 1), "19:30").unwrap();
        let back = jiff::Timestamp::from_millisecond(at)
            .unwrap()
            .to_zoned(jiff::tz::TimeZone::system());
        assert_eq!(
            back.strftime("%Y-%m-%d %H:%M").to_string(),
            format!("{} 19:30", date(2026, 12, 1))
        );
        assert_eq!(
            form_time(&format!(" {} ", date(2026, 12, 1)), " 19:30 "),
            Some(at)
        );
        assert_eq!(form_time(&date(2026, 13, 1), "19:30"), None);
        assert_eq!(form_time("tomorrow", "8"), None);
        assert_eq!(form_time(&date(2026, 12, 1), "25:00"), None);
        assert_eq!(tomorrow().len(), 10);
    }
}
