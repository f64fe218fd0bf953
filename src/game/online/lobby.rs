//! The lobby online: people online, playing and waiting at each pace; the open public tables
//! (sat at, got up from, a new one created), and the quick games to watch — followed once
//! signed in, kept current by the server, drawn as a section of the *Online…* window. A table
//! this player fills starts its game, put on the board; one that starts or closes meanwhile is
//! told.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_protocol::lobby::{
    LobbyView, TABLE_PEOPLE, TABLE_WAIT_MINUTES, TableId, TableSpec, TableView, WhenUnfilled,
};
use qiguo_protocol::{Answer, Ask, Event, Pace, QuickPace};

use super::notify::{self, Notifier};
use super::quick::pace_words;
use super::shared::{Answered, Online, OnlineCommand, OnlineSystems, Pending, SignedIn, Told};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineLobby>()
        .add_message::<AtTable>()
        .add_systems(
            Update,
            (follow_once_signed_in, ask, read_answers, read_events)
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Lobby, section);
}

/// At a public table: create one (and sit at it), sit at one, get up from one.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum AtTable {
    /// Create a table and sit at it: a public one, or a club's own (its name).
    Create(TableSpec, Option<String>),
    /// Sit at an open table.
    Join(TableId),
    /// Get up from a table.
    Leave(TableId),
}

/// The lobby as the server last sent it, the tables this player sits at, and the form for a new
/// one.
#[derive(Resource, Debug, Default)]
pub struct OnlineLobby {
    /// The lobby (followed while connected).
    pub view: Option<LobbyView>,
    /// The open tables the player sits at, as the server answered.
    pub mine: Vec<TableView>,
    /// A new public table, as set in the form.
    form: TableForm,
    /// The requests asked: the table each leaves, or `None` (the lobby, a table sat at).
    pending: Pending<Option<TableId>>,
}

/// Follows the lobby once signed in (again): the server sends it as it changes.
fn follow_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut lobby: ResMut<OnlineLobby>,
    mut online: ResMut<Online>,
) {
    if signed_in.read().last().is_some() {
        lobby.view = None;
        lobby.mine.clear();
        lobby
            .pending
            .ask(&mut online, Ask::Lobby { follow: true }, None);
    }
}

fn ask(
    mut asked: MessageReader<AtTable>,
    mut lobby: ResMut<OnlineLobby>,
    mut online: ResMut<Online>,
) {
    for at in asked.read() {
        let (ask, leaves) = match at.clone() {
            AtTable::Create(table, club) => (Ask::CreateTable { table, club }, None),
            AtTable::Join(table) => (Ask::JoinTable { table }, None),
            AtTable::Leave(table) => (
                Ask::LeaveTable {
                    table: table.clone(),
                },
                Some(table),
            ),
        };
        lobby.pending.ask(&mut online, ask, leaves);
    }
}

fn read_answers(
    mut answers: MessageReader<Answered>,
    mut lobby: ResMut<OnlineLobby>,
    mut online: ResMut<Online>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for (leaves, answer) in lobby.pending.answers(answers.read(), &mut notices, *tr) {
        match (answer, leaves) {
            (Answer::Lobby(view), _) => lobby.view = Some((**view).clone()),
            (Answer::Table(view), _) => {
                lobby.mine.retain(|t| t.id != view.id);
                match &view.game {
                    // Filled by this player: the game is opened (the others are told).
                    Some(game) => online.open(game.clone()),
                    None => {
                        notices.write(Notice::done(tr!(
                            tr,
                            "lobby-seated",
                            seated = view.seated.len(),
                            people = view.spec.people
                        )));
                        lobby.mine.push((**view).clone());
                    }
                }
            }
            (_, Some(left)) => lobby.mine.retain(|t| t.id != left),
            (_, None) => {}
        }
    }
}

/// The lobby as it changes, and the tables this player sits at started or closed.
fn read_events(
    mut told: MessageReader<Told>,
    mut lobby: ResMut<OnlineLobby>,
    mut online: ResMut<Online>,
    mut notices: MessageWriter<Notice>,
    mut notifier: ResMut<Notifier>,
    tr: Res<Tr>,
) {
    for Told(event) in told.read() {
        match event {
            Event::Lobby(view) => {
                let lobby = &mut *lobby;
                for mine in &mut lobby.mine {
                    if let Some(table) = view.tables.iter().find(|t| t.id == mine.id) {
                        *mine = table.clone();
                    }
                }
                lobby.view = Some((**view).clone());
            }
            Event::TableStarted { table, game } => {
                lobby.mine.retain(|t| t.id != *table);
                notices.write(Notice::done(tr.text("lobby-started")));
                notifier.your_turn_elsewhere(|| notify::Notification {
                    summary: tr.text("lobby-started-title"),
                    body: tr.text("lobby-started"),
                });
                online.open(game.clone());
                online.refresh_games();
            }
            Event::TableClosed { table } => {
                lobby.mine.retain(|t| t.id != *table);
                notices.write(Notice::done(tr.text("lobby-closed")));
            }
            _ => {}
        }
    }
}

/// The lobby: people online, playing and waiting at each pace; the open tables (to sit at, or
/// get up from), a form for a new one, and the quick games to watch. Kept current by the server.
fn section(
    InMut(ui): InMut<egui::Ui>,
    mut state: ResMut<OnlineLobby>,
    online: Res<Online>,
    mut tables: MessageWriter<AtTable>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    let tr = *tr;
    let state = &mut *state;
    let Some(lobby) = state.view.as_ref().filter(|_| online.in_touch()) else {
        return;
    };
    let grey = Color32::from_gray(170);
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr.text("lobby-title")).strong());
        ui.label(RichText::new(tr!(tr, "lobby-online", online = lobby.online)).color(grey));
        for count in &lobby.paces {
            ui.label(
                RichText::new(tr!(
                    tr,
                    "lobby-pace-count",
                    pace = pace_words(tr, count.pace).0,
                    playing = count.playing,
                    waiting = count.waiting
                ))
                .small()
                .color(grey),
            );
        }
    });
    let mine = |id: &TableId| state.mine.iter().any(|t| t.id == *id);
    egui::CollapsingHeader::new(tr!(tr, "lobby-tables", count = lobby.tables.len()))
        .id_salt("lobby tables")
        .default_open(!lobby.tables.is_empty())
        .show(ui, |ui| {
            if lobby.tables.is_empty() {
                ui.label(RichText::new(tr.text("lobby-no-tables")).color(grey));
            }
            egui::Grid::new("open tables")
                .num_columns(4)
                .striped(true)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for table in &lobby.tables {
                        let people: Vec<String> = table
                            .seated
                            .iter()
                            .map(|p| format!("{} {}", p.name, p.rating))
                            .collect();
                        ui.label(people.join(", "));
                        ui.label(tr!(
                            tr,
                            "lobby-table-seats",
                            seated = table.seated.len(),
                            people = table.spec.people
                        ));
                        ui.label(
                            RichText::new(table_words(tr, &table.spec))
                                .small()
                                .color(grey),
                        );
                        if mine(&table.id) {
                            if ui.small_button(tr.text("lobby-leave")).clicked() {
                                tables.write(AtTable::Leave(table.id.clone()));
                            }
                        } else if ui.small_button(tr.text("lobby-sit")).clicked() {
                            tables.write(AtTable::Join(table.id.clone()));
                        }
                        ui.end_row();
                    }
                });
            ui.add_space(4.0);
            table_form(ui, tr, &mut state.form, &mut tables, None);
        });
    if !lobby.games.is_empty() {
        egui::CollapsingHeader::new(tr!(tr, "lobby-games", count = lobby.games.len()))
            .id_salt("lobby games")
            .show(ui, |ui| {
                egui::Grid::new("games to watch")
                    .num_columns(3)
                    .striped(true)
                    .spacing([10.0, 4.0])
                    .show(ui, |ui| {
                        for game in &lobby.games {
                            ui.label(game.people.join(", "));
                            ui.label(
                                RichText::new(tr!(
                                    tr,
                                    "lobby-game-line",
                                    pace = pace_words(tr, game.pace).0,
                                    moves = game.moves
                                ))
                                .small()
                                .color(grey),
                            );
                            if ui.small_button(tr.text("lobby-watch")).clicked() {
                                commands.write(OnlineCommand::Watch(game.code.clone()));
                            }
                            ui.end_row();
                        }
                    });
            });
    }
    ui.separator();
}

/// What a table plays, in a line: its pace, computers, rated or not.
pub(super) fn table_words(tr: Tr, spec: &TableSpec) -> String {
    let pace = QuickPace::ALL
        .into_iter()
        .find(|p| p.pace() == spec.pace)
        .map(|p| pace_words(tr, p).0)
        .unwrap_or_else(|| match spec.pace {
            Pace::Live { wait_seconds } => tr!(tr, "lobby-live", seconds = wait_seconds),
            Pace::Correspondence { days, .. } => tr!(tr, "lobby-days", days = days),
        });
    tr!(
        tr,
        "lobby-table-line",
        pace = pace,
        level = tr.level(spec.level),
        rated = if spec.rated {
            tr.text("lobby-rated")
        } else {
            tr.text("lobby-unrated")
        }
    )
}

/// The form for a new table: public, or the own table of the club called `club`.
pub(super) fn table_form(
    ui: &mut egui::Ui,
    tr: Tr,
    table: &mut TableForm,
    tables: &mut MessageWriter<AtTable>,
    club: Option<&str>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(tr.text(if club.is_some() {
            "lobby-new-club-table"
        } else {
            "lobby-new-table"
        }));
        ui.add(
            egui::DragValue::new(&mut table.people)
                .range(TABLE_PEOPLE)
                .suffix(tr.text("lobby-people-suffix")),
        );
        egui::ComboBox::from_id_salt(("table pace", club))
            .selected_text(pace_words(tr, table.pace).0)
            .show_ui(ui, |ui| {
                for pace in QuickPace::ALL {
                    ui.selectable_value(&mut table.pace, pace, pace_words(tr, pace).0);
                }
            });
        egui::ComboBox::from_id_salt(("table level", club))
            .selected_text(tr.level(table.level))
            .show_ui(ui, |ui| {
                for level in [Level::Easy, Level::Medium, Level::Hard] {
                    ui.selectable_value(&mut table.level, level, tr.level(level));
                }
            });
        ui.checkbox(&mut table.rated, tr.text("lobby-rated"));
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(tr.text("lobby-fill-within"));
        ui.add(
            egui::DragValue::new(&mut table.minutes)
                .range(TABLE_WAIT_MINUTES)
                .suffix(tr.text("lobby-minutes-suffix")),
        );
        ui.radio_value(&mut table.close, false, tr.text("lobby-unfilled-computers"));
        ui.radio_value(&mut table.close, true, tr.text("lobby-unfilled-close"));
        if ui.button(tr.text("lobby-create")).clicked() {
            let spec = TableSpec {
                preset: qiguo_rules::Preset::Classic,
                pace: table.pace.pace(),
                people: table.people,
                level: table.level,
                rated: table.rated,
                ratings: None,
                wait_minutes: table.minutes,
                unfilled: if table.close {
                    WhenUnfilled::Close
                } else {
                    WhenUnfilled::Computers
                },
            };
            tables.write(AtTable::Create(spec, club.map(str::to_owned)));
        }
    });
}

/// The form for a new table.
#[derive(Debug, Clone)]
pub(super) struct TableForm {
    /// Seats for people.
    people: u8,
    /// The pace, among the quick paces.
    pace: QuickPace,
    /// The computers' level.
    level: Level,
    /// Counts for the ratings.
    rated: bool,
    /// Minutes to fill.
    minutes: u32,
    /// Unfilled by then: close (else computers take the empty seats).
    close: bool,
}

impl Default for TableForm {
    fn default() -> TableForm {
        TableForm {
            people: 4,
            pace: QuickPace::Calm,
            level: Level::Medium,
            rated: true,
            minutes: 30,
            close: false,
        }
    }
}
