//! Clubs online: the *Online…* window's section lists the player's clubs and finds others,
//! makes one, and shows one club — its members (role, rating, online, playing now), its news —
//! with what the player may do there: join or ask to, leave, be told of its news or not, and as
//! an organiser let people in, remove members, name organisers (the owner) and post news; the
//! club's own tables (made and sat at through the lobby's tables) and when its evenings are.
//! News the server tells is said in a notice, and the club shown is read again.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::clubs::{
    ClubAction, ClubListed, ClubRole, ClubSpec, ClubView, MAX_CLUB_DESCRIPTION_CHARS,
    MAX_CLUB_NAME_CHARS, MAX_CLUB_NEWS_CHARS,
};
use qiguo_protocol::{Answer, Ask, Event};

use super::lobby::{AtTable, OnlineLobby, TableForm, table_form, table_words};
use super::my_games::when;
use super::shared::{Answered, Online, OnlineCommand, OnlineSystems, Pending, SignedIn, Told};
use super::ui::{OnlineSectionApp, SectionOrder};
use crate::game::state::Notice;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineClubs>()
        .init_resource::<ClubsForm>()
        .add_message::<ClubsCommand>()
        .add_systems(
            Update,
            (
                list_once_signed_in,
                ask,
                read_answers,
                hear_news,
                follow_club_tables,
            )
                .chain()
                .in_set(OnlineSystems::Concerns),
        )
        .add_online_section(SectionOrder::Clubs, section);
}

/// Something to ask the server about clubs.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum ClubsCommand {
    /// My clubs, then others (those whose names hold the words).
    Find(Option<String>),
    /// Make a club.
    Create(ClubSpec),
    /// Show a club.
    Show(String),
    /// Join a club (or ask to).
    Join(String),
    /// Leave a club (or take back a request).
    Leave(String),
    /// Be told of a club's news, or not.
    News(String, bool),
    /// An organiser's action on a player of a club.
    Member {
        /// The club.
        club: String,
        /// The player's name.
        player: String,
        /// What to do.
        action: ClubAction,
    },
    /// An organiser posts news.
    Post(String, String),
    /// Watch a member's game (its code).
    Watch(String),
}

/// What the player knows of clubs on the server.
#[derive(Resource, Debug, Default)]
pub struct OnlineClubs {
    /// The player's clubs, then others found.
    pub listed: Vec<ClubListed>,
    /// The club shown.
    pub shown: Option<ClubView>,
    pending: Pending<()>,
}

/// What the section's fields hold.
#[derive(Resource, Debug, Default)]
struct ClubsForm {
    search: String,
    name: String,
    description: String,
    by_request: bool,
    news: String,
    /// A new table for the club shown.
    table: TableForm,
}

/// Signed in (again): the player's clubs, afresh.
fn list_once_signed_in(
    mut signed_in: MessageReader<SignedIn>,
    mut clubs: ResMut<OnlineClubs>,
    mut online: ResMut<Online>,
) {
    if signed_in.read().last().is_some() {
        clubs.shown = None;
        clubs.listed.clear();
        clubs
            .pending
            .ask(&mut online, Ask::Clubs { search: None }, ());
    }
}

fn ask(
    mut commands: MessageReader<ClubsCommand>,
    mut clubs: ResMut<OnlineClubs>,
    mut online: ResMut<Online>,
    mut watch: MessageWriter<OnlineCommand>,
) {
    for command in commands.read() {
        let ask = match command.clone() {
            // Watching is the games' concern: the window's own command.
            ClubsCommand::Watch(code) => {
                watch.write(OnlineCommand::Watch(code));
                continue;
            }
            ClubsCommand::Find(search) => Ask::Clubs { search },
            ClubsCommand::Create(spec) => Ask::ClubCreate { spec },
            ClubsCommand::Show(name) => Ask::Club { name },
            ClubsCommand::Join(name) => Ask::ClubJoin { name },
            ClubsCommand::Leave(name) => Ask::ClubLeave { name },
            ClubsCommand::News(name, wanted) => Ask::ClubNewsWanted { name, wanted },
            ClubsCommand::Member {
                club,
                player,
                action,
            } => Ask::ClubMember {
                name: club,
                player,
                action,
            },
            ClubsCommand::Post(name, text) => Ask::ClubPost { name, text },
        };
        clubs.pending.ask(&mut online, ask, ());
    }
}

/// A club shown; a list of clubs (after leaving one, the club shown goes).
fn read_answers(
    mut answers: MessageReader<Answered>,
    mut clubs: ResMut<OnlineClubs>,
    mut online: ResMut<Online>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    let answered: Vec<Answer> = clubs
        .pending
        .answers(answers.read(), &mut notices, *tr)
        .into_iter()
        .map(|((), answer)| answer.clone())
        .collect();
    for answer in answered {
        match answer {
            Answer::Club(view) => {
                // The list says the player's place in it as it is now.
                let listed = clubs.listed.iter().any(|c| c.name == view.name);
                if !listed && view.you.is_some() {
                    clubs
                        .pending
                        .ask(&mut online, Ask::Clubs { search: None }, ());
                }
                for c in clubs.listed.iter_mut().filter(|c| c.name == view.name) {
                    c.you = view.you;
                    c.member_count = view.member_count;
                }
                clubs.shown = Some(*view);
            }
            Answer::Clubs { clubs: listed } => {
                if let Some(shown) = &clubs.shown
                    && listed
                        .iter()
                        .any(|c| c.name == shown.name && c.you.is_none())
                    && shown.you.is_some()
                {
                    clubs.shown = None;
                }
                clubs.listed = listed;
            }
            _ => {}
        }
    }
}

/// A club's news told: said, and the club read again if it is shown.
fn hear_news(
    mut told: MessageReader<Told>,
    mut clubs: ResMut<OnlineClubs>,
    mut online: ResMut<Online>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for Told(event) in told.read() {
        let Event::ClubNews(news) = event else {
            continue;
        };
        notices.write(Notice::done(tr!(
            tr,
            "online-club-news",
            club = news.club.clone(),
            by = news.by.clone(),
            text = news.text.clone()
        )));
        if clubs.shown.as_ref().is_some_and(|c| c.name == news.club) {
            let ask = Ask::Club {
                name: news.club.clone(),
            };
            clubs.pending.ask(&mut online, ask, ());
        }
    }
}

/// A table the player sits at for the club shown, missing from its view (just created): the
/// club read again.
fn follow_club_tables(
    lobby: Res<OnlineLobby>,
    mut clubs: ResMut<OnlineClubs>,
    mut online: ResMut<Online>,
) {
    if !lobby.is_changed() {
        return;
    }
    let Some(shown) = &clubs.shown else {
        return;
    };
    let missing = lobby.mine.iter().any(|t| {
        t.club.as_deref() == Some(shown.name.as_str()) && shown.tables.iter().all(|s| s.id != t.id)
    });
    if missing {
        let ask = Ask::Club {
            name: shown.name.clone(),
        };
        clubs.pending.ask(&mut online, ask, ());
    }
}

/// A role as shown.
fn role_text(tr: Tr, role: ClubRole) -> String {
    tr.text(match role {
        ClubRole::Owner => "online-club-owner",
        ClubRole::Organiser => "online-club-organiser",
        ClubRole::Member => "online-club-member",
        ClubRole::Asking => "online-club-asking",
    })
}

/// A club's members and the player's place in it (or how one joins it).
fn club_line(tr: Tr, members: u32, you: Option<ClubRole>, open: bool) -> String {
    let place = you.map_or_else(
        || {
            tr.text(if open {
                "online-club-open"
            } else {
                "online-club-by-request"
            })
        },
        |role| role_text(tr, role),
    );
    tr!(tr, "online-club-line", members = members, place = place)
}

/// The section: my clubs and others found, a club shown, a new club.
fn section(
    InMut(ui): InMut<egui::Ui>,
    clubs: Res<OnlineClubs>,
    mut form: ResMut<ClubsForm>,
    online: Res<Online>,
    lobby: Res<OnlineLobby>,
    mut asked: MessageWriter<ClubsCommand>,
    mut tables: MessageWriter<AtTable>,
    tr: Res<Tr>,
) {
    if !online.in_touch() {
        return;
    }
    let tr = *tr;
    let weak = |text: String| RichText::new(text).small().color(Color32::from_gray(170));
    egui::CollapsingHeader::new(tr.text("online-clubs"))
        .id_salt("clubs")
        .show(ui, |ui| {
            ui.label(weak(tr.text("online-clubs-intro")));
            for c in &clubs.listed {
                ui.horizontal_wrapped(|ui| {
                    if ui.button(&c.name).clicked() {
                        asked.write(ClubsCommand::Show(c.name.clone()));
                    }
                    ui.label(weak(club_line(tr, c.member_count, c.you, c.open)));
                });
            }
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut form.search)
                        .hint_text(tr.text("online-clubs-search"))
                        .desired_width(160.0)
                        .char_limit(MAX_CLUB_NAME_CHARS),
                );
                if ui.button(tr.text("online-clubs-find")).clicked() {
                    let words = form.search.trim().to_owned();
                    asked.write(ClubsCommand::Find((!words.is_empty()).then_some(words)));
                }
            });
            if let Some(club) = &clubs.shown {
                ui.separator();
                shown(ui, club, &mut form, &mut asked, tr);
                if club.you.is_some_and(ClubRole::belongs) {
                    club_tables(ui, club, &mut form, &lobby, &mut tables, tr);
                }
            }
            ui.separator();
            ui.label(RichText::new(tr.text("online-club-new")).strong());
            ui.add(
                egui::TextEdit::singleline(&mut form.name)
                    .hint_text(tr.text("online-club-name"))
                    .char_limit(MAX_CLUB_NAME_CHARS),
            );
            ui.add(
                egui::TextEdit::multiline(&mut form.description)
                    .hint_text(tr.text("online-club-description"))
                    .desired_rows(2)
                    .char_limit(MAX_CLUB_DESCRIPTION_CHARS),
            );
            ui.checkbox(
                &mut form.by_request,
                tr.text("online-club-by-request-choice"),
            );
            if ui.button(tr.text("online-club-create")).clicked() {
                asked.write(ClubsCommand::Create(ClubSpec {
                    name: form.name.clone(),
                    description: form.description.clone(),
                    open: !form.by_request,
                }));
            }
        });
}

/// One club: what it is, the player's place and choices, its members, its news.
fn shown(
    ui: &mut egui::Ui,
    club: &ClubView,
    form: &mut ClubsForm,
    asked: &mut MessageWriter<ClubsCommand>,
    tr: Tr,
) {
    let name = club.name.clone();
    ui.heading(&club.name);
    if !club.description.is_empty() {
        ui.label(&club.description);
    }
    let organises = club.you.is_some_and(ClubRole::organises);
    ui.horizontal_wrapped(|ui| {
        ui.label(club_line(tr, club.member_count, club.you, club.open));
        match club.you {
            None => {
                let join = if club.open {
                    "online-club-join"
                } else {
                    "online-club-ask"
                };
                if ui.button(tr.text(join)).clicked() {
                    asked.write(ClubsCommand::Join(name.clone()));
                }
            }
            Some(ClubRole::Owner) => {}
            Some(_) => {
                if ui.button(tr.text("online-club-leave")).clicked() {
                    asked.write(ClubsCommand::Leave(name.clone()));
                }
            }
        }
        if club.you.is_some_and(ClubRole::belongs) {
            let mut wanted = club.news_wanted;
            if ui
                .checkbox(&mut wanted, tr.text("online-club-news-wanted"))
                .changed()
            {
                asked.write(ClubsCommand::News(name.clone(), wanted));
            }
        }
    });
    // A member a line, wrapped where the screen is narrow (a phone held upright).
    for m in &club.members {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&m.name).strong());
            ui.label(RichText::new(role_text(tr, m.role)).small());
            if let Some(rating) = &m.rating {
                ui.label(RichText::new(rating.points.to_string()).small());
            }
            if m.online {
                ui.label(
                    RichText::new(tr.text("online-club-online"))
                        .small()
                        .color(Color32::from_rgb(130, 210, 130)),
                );
            }
            if m.playing.is_some() {
                ui.label(RichText::new(tr.text("online-club-playing")).small());
            }
            if let Some(code) = &m.watch
                && ui.small_button(tr.text("lobby-watch")).clicked()
            {
                asked.write(ClubsCommand::Watch(code.clone()));
            }
            let mut act = |ui: &mut egui::Ui, id: &str, action: ClubAction| {
                if ui.small_button(tr.text(id)).clicked() {
                    asked.write(ClubsCommand::Member {
                        club: name.clone(),
                        player: m.name.clone(),
                        action,
                    });
                }
            };
            if organises && m.role == ClubRole::Asking {
                act(ui, "online-club-let-in", ClubAction::Accept);
            }
            let may_remove = match m.role {
                ClubRole::Owner => false,
                ClubRole::Organiser => club.you == Some(ClubRole::Owner),
                ClubRole::Member | ClubRole::Asking => organises,
            };
            if may_remove {
                act(ui, "online-club-remove", ClubAction::Remove);
            }
            if club.you == Some(ClubRole::Owner) {
                match m.role {
                    ClubRole::Member => {
                        act(ui, "online-club-make-organiser", ClubAction::Organiser);
                    }
                    ClubRole::Organiser => act(ui, "online-club-make-member", ClubAction::Member),
                    _ => {}
                }
            }
        });
    }
    if organises {
        ui.horizontal_wrapped(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut form.news)
                    .hint_text(tr.text("online-club-news-hint"))
                    .char_limit(MAX_CLUB_NEWS_CHARS),
            );
            if ui.button(tr.text("online-club-post")).clicked() && !form.news.trim().is_empty() {
                asked.write(ClubsCommand::Post(
                    name.clone(),
                    std::mem::take(&mut form.news),
                ));
            }
        });
    }
    for news in &club.news {
        ui.label(
            RichText::new(tr!(
                tr,
                "online-club-news-line",
                by = news.by.clone(),
                text = news.text.clone()
            ))
            .small(),
        );
    }
}

/// The club's own open tables (sat at, got up from) and a form for a new one; its evenings in a
/// line (the *Club evenings* section has them in full).
fn club_tables(
    ui: &mut egui::Ui,
    club: &ClubView,
    form: &mut ClubsForm,
    lobby: &OnlineLobby,
    tables: &mut MessageWriter<AtTable>,
    tr: Tr,
) {
    let weak = |text: String| RichText::new(text).small().color(Color32::from_gray(170));
    if !club.evenings.is_empty() {
        let list: Vec<String> = club.evenings.iter().map(|e| when(tr, e.at_ms)).collect();
        ui.label(weak(tr!(
            tr,
            "online-club-evenings",
            list = list.join(", ")
        )));
    }
    egui::CollapsingHeader::new(tr.text("online-club-tables"))
        .id_salt(("club tables", &club.name))
        .default_open(!club.tables.is_empty())
        .show(ui, |ui| {
            for table in &club.tables {
                ui.horizontal_wrapped(|ui| {
                    let people: Vec<String> = table
                        .seated
                        .iter()
                        .map(|p| format!("{} {}", p.name, p.rating))
                        .collect();
                    ui.label(people.join(", "));
                    ui.label(weak(tr!(
                        tr,
                        "lobby-table-seats",
                        seated = table.seated.len(),
                        people = table.spec.people
                    )));
                    ui.label(weak(table_words(tr, &table.spec)));
                    if lobby.mine.iter().any(|t| t.id == table.id) {
                        if ui.small_button(tr.text("lobby-leave")).clicked() {
                            tables.write(AtTable::Leave(table.id.clone()));
                        }
                    } else if ui.small_button(tr.text("lobby-sit")).clicked() {
                        tables.write(AtTable::Join(table.id.clone()));
                    }
                });
            }
            table_form(ui, tr, &mut form.table, tables, Some(&club.name));
        });
}
