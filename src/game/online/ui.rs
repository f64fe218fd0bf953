//! The *Online…* window: the server (the window's own, for players on this network, or one
//! elsewhere), *My games* (those waiting for your move first), a new online game with the
//! board's rules and seating, joining with a code, watching; the question when someone asks to
//! take moves back; how the Kingdoms panel shows an online game and its seats.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_client::{KeyStore, KeysError};
use qiguo_protocol::lobby::{TABLE_PEOPLE, TABLE_WAIT_MINUTES, TableId, TableSpec, WhenUnfilled};
use qiguo_protocol::{DEFAULT_PORT, GameSummary, MAX_DAYS, MAX_NAME_CHARS, MIN_DAYS, NewGame};
use qiguo_protocol::{Pace, QuickPace, RatingFamily, RatingHistory, SeatPlan, WhenOverdue};
use qiguo_rules::Kingdom;

use crate::game::online::invite::{Invitation, Invited};
use crate::game::online::words::refusal_words;
use crate::game::online::{Online, OnlineCommand, OnlineRequested, Status};
use crate::game::state::Match;
use crate::game::widgets::{UiSystems, WithinTheScreen, centred_dialog};
use crate::i18n::Tr;
use crate::tr;

/// The online windows, drawn in the interface's order.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(super::invite::view_plugin);
    app.init_resource::<OnlineForm>()
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                online_window.run_if(|f: Res<OnlineForm>| f.open),
                take_back_question,
            )
                .chain()
                .in_set(UiSystems::Windows),
        )
        .add_systems(
            Update,
            quick_once_connected.run_if(|f: Res<OnlineForm>| f.quick_once_connected),
        );
}

/// Who plays a seat of a new online game, as chosen in the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SeatChoice {
    Me,
    Open,
    Computer(Level),
}

/// What the *Online…* window holds while open.
#[derive(Resource, Debug, Clone)]
pub(crate) struct OnlineForm {
    /// The window is open.
    pub(crate) open: bool,
    /// The window's own server (else one elsewhere).
    own: bool,
    /// The own server may be reached from other machines on this network.
    lan: bool,
    /// The own server's port, as typed.
    port: String,
    /// The other server's address, as typed.
    url: String,
    /// Plain `ws://` to the other server allowed: the player trusts the network between.
    plain_trusted: bool,
    /// The player's name.
    name: String,
    /// The new game's seats, by player number.
    seats: Vec<SeatChoice>,
    /// By correspondence (else live).
    correspondence: bool,
    /// Days per move.
    days: u8,
    /// An overdue move passes (else a stand-in plays it).
    pass: bool,
    /// A code as typed, and the kingdom to take with it.
    code: String,
    kingdom: Kingdom,
    /// Why the last request could not be made.
    error: Option<String>,
    /// The server of an invitation being followed, while the player chooses their name.
    invited: Option<String>,
    /// Keys pasted (or opened from a file) to import.
    keys_text: String,
    /// What the last export or import of keys came to: done, and the words.
    keys_note: Option<(bool, String)>,
    /// The last day of a holiday, as typed (`YYYY-MM-DD`).
    away_until: String,
    /// The e-mail address being typed (filled from the server's once it said).
    mail_address: Option<String>,
    /// One e-mail a day rather than one a turn.
    mail_digest: bool,
    /// The pace asked for by *Play now*.
    quick_pace: qiguo_protocol::QuickPace,
    /// *Play now* asked before connecting (the welcome card): asked once signed in.
    quick_once_connected: bool,
    /// A new public table, as set in the lobby's form.
    table: TableForm,
}

/// The lobby's form for a new public table.
#[derive(Debug, Clone)]
struct TableForm {
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

impl OnlineForm {
    /// Opens the form for an invitation to a game on `server`, for a first-time visitor to
    /// choose their name (Connect then follows the invitation).
    pub(crate) fn invite(&mut self, server: &str) {
        self.open = true;
        self.own = false;
        self.url = server.to_owned();
        self.invited = Some(server.to_owned());
    }

    /// Whether the form waits for the player's name to follow an invitation to `server`.
    pub(crate) fn is_invited_to(&self, server: &str) -> bool {
        self.open && self.invited.as_deref() == Some(server)
    }

    /// The invitation is followed: the form closes.
    pub(crate) fn invitation_followed(&mut self) {
        if self.invited.take().is_some() {
            self.open = false;
        }
    }

    /// The player's name as typed.
    pub(crate) fn name(&self) -> &str {
        self.name.trim()
    }

    /// The name, to type in.
    pub(crate) fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }

    /// The pace *Play now* asks for, to choose.
    pub(crate) fn quick_pace_mut(&mut self) -> &mut qiguo_protocol::QuickPace {
        &mut self.quick_pace
    }

    /// *Play now* at the chosen pace as soon as the connection being made signs in.
    pub(crate) fn play_now_once_connected(&mut self) {
        self.quick_once_connected = true;
    }
}

/// Asks for *Play now* once signed in, when it was chosen before connecting; forgotten if the
/// server refused the connection.
fn quick_once_connected(
    mut form: ResMut<OnlineForm>,
    online: Res<Online>,
    mut commands: MessageWriter<OnlineCommand>,
) {
    match online.status {
        Status::Connected => {
            form.quick_once_connected = false;
            commands.write(OnlineCommand::Quick(form.quick_pace));
        }
        Status::Refused(_) => form.quick_once_connected = false,
        _ => {}
    }
}

/// A pace's name and the line that says what it is.
pub(crate) fn pace_words(tr: Tr, pace: QuickPace) -> (String, String) {
    let (name, hint) = match pace {
        QuickPace::Brisk => ("online-quick-brisk", "online-quick-brisk-hint"),
        QuickPace::Calm => ("online-quick-calm", "online-quick-calm-hint"),
        QuickPace::Daily => ("online-quick-daily", "online-quick-daily-hint"),
        QuickPace::Relaxed => ("online-quick-relaxed", "online-quick-relaxed-hint"),
    };
    (tr.text(name), tr.text(hint))
}

impl Default for OnlineForm {
    fn default() -> OnlineForm {
        OnlineForm {
            open: false,
            own: super::link::CAN_HOST,
            lan: true,
            port: DEFAULT_PORT.to_string(),
            // In a page, the server that served it.
            url: super::link::home_server()
                .unwrap_or_else(|| format!("ws://127.0.0.1:{DEFAULT_PORT}")),
            plain_trusted: false,
            // The login name, to start from.
            name: ["USER", "USERNAME"]
                .iter()
                .find_map(|v| std::env::var(v).ok())
                .and_then(|n| qiguo_protocol::clean_name(&n).ok())
                .unwrap_or_default(),
            seats: Vec::new(),
            correspondence: false,
            days: 3,
            pass: false,
            code: String::new(),
            kingdom: Kingdom::Chu,
            error: None,
            invited: None,
            keys_text: String::new(),
            keys_note: None,
            away_until: String::new(),
            mail_address: None,
            mail_digest: false,
            quick_pace: qiguo_protocol::QuickPace::Brisk,
            quick_once_connected: false,
            table: TableForm::default(),
        }
    }
}

/// The toolbar's *Online…* button; whether it was pressed.
pub(crate) fn toolbar_button(ui: &mut egui::Ui, tr: Tr, form: &mut OnlineForm) -> bool {
    let clicked = ui
        .button(tr.text("menu-online"))
        .on_hover_text(tr.text("menu-online-hint"))
        .clicked();
    if clicked {
        form.open = true;
        form.error = None;
    }
    clicked
}

fn when(tr: Tr, ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| {
            t.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_else(|_| tr.text("online-unknown-time"))
}

/// The *Online…* window.
#[allow(clippy::too_many_arguments)]
pub(crate) fn online_window(
    mut contexts: EguiContexts,
    mut form: ResMut<OnlineForm>,
    online: Res<Online>,
    the_match: Res<Match>,
    mut requests: MessageWriter<OnlineRequested>,
    mut commands: MessageWriter<OnlineCommand>,
    mut invited: ResMut<Invited>,
    store: Option<Res<crate::game::saving::SaveStore>>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    centred_dialog("online", tr.text("online-title"))
        .open(&mut open)
        .default_width(600.0)
        .max_width(640.0)
        // Taller than a small window once connected: it scrolls inside the screen.
        .vscroll(true)
        .show_within_screen(ctx, |ui| {
            match &online.status {
                Status::Offline | Status::Refused(_) => {
                    connect_form(ui, tr, &mut form, &online, &mut requests, &mut invited);
                    let dir = store.as_ref().and_then(|s| s.dir.clone());
                    keys_section(ui, tr, &mut form, dir);
                }
                _ => {
                    server_line(ui, tr, &online);
                    ui.horizontal(|ui| {
                        if online.table.is_some()
                            && ui
                                .button(tr.text("online-leave-game"))
                                .on_hover_text(tr.text("online-leave-game-hint"))
                                .clicked()
                        {
                            commands.write(OnlineCommand::LeaveGame);
                        }
                        if ui.button(tr.text("online-disconnect")).clicked() {
                            requests.write(OnlineRequested::Leave);
                        }
                        // In a page: the browser asks once, on this click.
                        if super::notify::can_ask()
                            && ui
                                .button(tr.text("online-notify-ask"))
                                .on_hover_text(tr.text("online-notify-ask-hint"))
                                .clicked()
                        {
                            super::notify::ask();
                        }
                    });
                    ui.separator();
                    quick_form(ui, tr, &mut form, &mut commands);
                    lobby_section(ui, tr, &mut form, &online, &mut commands);
                    ui.separator();
                    my_games(ui, tr, &online, &mut commands);
                    holidays(ui, tr, &mut form, &online, &mut commands);
                    mail(ui, tr, &mut form, &online, &mut commands);
                    ui.separator();
                    new_game_form(ui, tr, &mut form, &the_match, &mut commands);
                    ui.separator();
                    code_form(ui, tr, &mut form, &mut commands);
                }
            }
            if let Some(error) = &form.error {
                ui.colored_label(Color32::from_rgb(255, 120, 90), error);
            }
        });
    if !open {
        form.open = false;
    }
    Ok(())
}

fn connect_form(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    online: &Online,
    requests: &mut MessageWriter<OnlineRequested>,
    invited: &mut Invited,
) {
    if let Status::Refused(why) = &online.status {
        ui.colored_label(
            Color32::from_rgb(255, 120, 90),
            tr!(tr, "online-refused", why = why.clone()),
        );
    }
    ui.label(tr.text(if super::link::CAN_HOST {
        "online-intro"
    } else {
        "online-intro-page"
    }));
    if super::link::CAN_HOST {
        ui.radio_value(&mut form.own, true, tr.text("online-own-server"));
    }
    if form.own {
        ui.indent("own", |ui| {
            ui.horizontal(|ui| {
                ui.label(tr.text("online-port"));
                ui.add(egui::TextEdit::singleline(&mut form.port).desired_width(70.0));
            });
            ui.checkbox(&mut form.lan, tr.text("online-lan"));
            if form.lan {
                ui.label(
                    RichText::new(tr.text("online-lan-plain"))
                        .small()
                        .color(Color32::from_gray(170)),
                );
            }
        });
    }
    if super::link::CAN_HOST {
        ui.radio_value(&mut form.own, false, tr.text("online-other-server"));
    }
    if !form.own {
        ui.indent("remote", |ui| {
            ui.add(egui::TextEdit::singleline(&mut form.url).desired_width(320.0));
            // A key crosses a plain connection readable: only where the player says so.
            let url = form.url.trim();
            if url.starts_with("ws://") && !qiguo_protocol::client::is_loopback_url(url) {
                ui.checkbox(&mut form.plain_trusted, tr.text("online-plain-trusted"));
            }
        });
    }
    if form.invited.is_some() {
        ui.label(RichText::new(tr.text("online-invited")).strong());
    }
    let mut entered = false;
    ui.horizontal(|ui| {
        ui.label(tr.text("join-name"));
        let field = ui.add(
            egui::TextEdit::singleline(&mut form.name)
                .char_limit(MAX_NAME_CHARS)
                .desired_width(200.0),
        );
        // An invited visitor types their name straight away; Enter connects.
        if form.invited.is_some() && form.name.is_empty() && !field.has_focus() {
            field.request_focus();
        }
        entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    });
    if ui.button(tr.text("join-connect")).clicked() || entered {
        let name = form.name.trim().to_owned();
        if name.is_empty() {
            form.error = Some(tr.text("join-need-name"));
            return;
        }
        if form.own {
            match form.port.trim().parse::<u16>() {
                Ok(port) => {
                    form.error = None;
                    requests.write(OnlineRequested::OwnServer {
                        lan: form.lan,
                        port,
                        name,
                    });
                }
                Err(_) => form.error = Some(tr.text("host-bad-port")),
            }
        } else {
            let url = form.url.trim().to_owned();
            if let Ok(invitation) = Invitation::parse(&url)
                && !url.starts_with("ws")
            {
                // An invitation link pasted: its server, then its game.
                form.error = None;
                form.url = invitation.server.clone();
                form.invited = Some(invitation.server.clone());
                requests.write(OnlineRequested::Remote {
                    url: invitation.server.clone(),
                    name,
                    insecure_lan: form.plain_trusted,
                });
                invited.follow(invitation);
            } else if url.starts_with("ws://") || url.starts_with("wss://") {
                form.error = None;
                requests.write(OnlineRequested::Remote {
                    url,
                    name,
                    insecure_lan: form.plain_trusted,
                });
            } else {
                form.error = Some(tr.text("online-bad-url"));
            }
        }
    }
}

/// The player's keys, exported to use elsewhere (another browser, the desktop window) and
/// imported from there, so that a cleared browser loses nothing.
fn keys_section(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    dir: Option<crate::saves::SaveDir>,
) {
    let Some(dir) = dir.or_else(|| crate::saves::SaveDir::locate().ok()) else {
        return;
    };
    let dir = dir.root().to_path_buf();
    egui::CollapsingHeader::new(tr.text("keys-title"))
        .id_salt("online keys")
        .show(ui, |ui| {
            ui.label(
                RichText::new(tr.text("keys-line"))
                    .small()
                    .color(Color32::from_gray(170)),
            );
            ui.horizontal(|ui| {
                if ui.button(tr.text("keys-copy")).clicked() {
                    form.keys_note = Some(match KeyStore::new(&dir).export() {
                        Ok((text, count)) => {
                            ui.ctx().copy_text(text);
                            (true, tr!(tr, "keys-copied", count = count))
                        }
                        Err(why) => (false, tr!(tr, "keys-unreadable", why = why.to_string())),
                    });
                }
                #[cfg(target_arch = "wasm32")]
                {
                    if ui.button(tr.text("share-download")).clicked() {
                        let done = KeyStore::new(&dir)
                            .export()
                            .map_err(|e| e.to_string())
                            .and_then(|(text, _)| {
                                crate::web::files::download("qiguo-keys.json", &text)
                            });
                        if let Err(why) = done {
                            form.keys_note = Some((false, tr!(tr, "keys-unreadable", why = why)));
                        }
                    }
                    if ui.button(tr.text("share-open-file")).clicked()
                        && let Err(why) = crate::web::files::open("keys")
                    {
                        form.keys_note = Some((false, tr!(tr, "keys-unreadable", why = why)));
                    }
                    match crate::web::files::opened("keys") {
                        Some(Ok(text)) => form.keys_text = text,
                        Some(Err(why)) => {
                            form.keys_note = Some((false, tr!(tr, "keys-unreadable", why = why)));
                        }
                        None => {}
                    }
                }
            });
            ui.add(
                egui::TextEdit::multiline(&mut form.keys_text)
                    .font(egui::TextStyle::Monospace)
                    .desired_rows(3)
                    .desired_width(f32::INFINITY)
                    .hint_text(tr.text("keys-paste-hint")),
            );
            let has_text = !form.keys_text.trim().is_empty();
            if ui
                .add_enabled(has_text, egui::Button::new(tr.text("keys-import")))
                .clicked()
            {
                form.keys_note = Some(import_keys(tr, &dir, &form.keys_text));
                if form.keys_note.as_ref().is_some_and(|(done, _)| *done) {
                    form.keys_text.clear();
                }
            }
            if let Some((done, words)) = &form.keys_note {
                let colour = if *done {
                    Color32::from_rgb(150, 230, 160)
                } else {
                    Color32::from_rgb(255, 120, 90)
                };
                ui.colored_label(colour, words);
            }
        });
}

/// Takes in keys exported elsewhere (their JSON): what came of it, for the player.
fn import_keys(tr: Tr, dir: &std::path::Path, text: &str) -> (bool, String) {
    match KeyStore::new(dir).import(text) {
        Ok(changed) => (true, tr!(tr, "keys-imported", count = changed)),
        Err(KeysError::NotKeys(e)) => (false, tr!(tr, "keys-not-keys", why = e.to_string())),
        Err(why) => (false, tr!(tr, "keys-unreadable", why = why.to_string())),
    }
}

/// The server's address and how the connection stands.
fn server_line(ui: &mut egui::Ui, tr: Tr, online: &Online) {
    let address = online.address.clone().unwrap_or_default();
    let (state, colour) = match &online.status {
        Status::Connected => (
            tr!(
                tr,
                "online-connected-as",
                name = online.name.clone().unwrap_or_default()
            ),
            Color32::from_rgb(150, 210, 255),
        ),
        Status::Connecting => (tr.text("online-connecting"), Color32::from_gray(200)),
        Status::Lost(_) => (tr.text("online-lost"), Color32::from_rgb(255, 170, 110)),
        Status::Refused(why) => (
            tr!(tr, "online-refused", why = why.clone()),
            Color32::from_rgb(255, 120, 90),
        ),
        Status::Offline => return,
    };
    ui.label(
        RichText::new(tr!(tr, "online-server", address = address) + " · " + &state).color(colour),
    );
}

fn my_games(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.horizontal(|ui| {
        ui.heading(tr.text("online-my-games"));
        if ui.small_button(tr.text("online-refresh")).clicked() {
            commands.write(OnlineCommand::RefreshGames);
        }
    });
    if online.games.is_empty() {
        ui.label(RichText::new(tr.text("online-no-games")).color(Color32::from_gray(170)));
    } else {
        games_in_progress(ui, tr, online, commands);
    }
    finished_games(ui, tr, online, commands);
    ratings(ui, tr, online, commands);
}

/// The player's rating in a pace family, its history drawn where there is room, and the
/// family's leaderboard; read when first opened.
fn ratings(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    let shown = egui::CollapsingHeader::new(tr.text("online-ratings"))
        .id_salt("ratings")
        .show(ui, |ui| {
            let Some((family, board, me)) = &online.ratings else {
                ui.label(RichText::new(tr.text("online-reading")).color(Color32::from_gray(170)));
                return;
            };
            ui.horizontal(|ui| {
                for (choice, key) in [
                    (RatingFamily::Live, "online-ratings-live"),
                    (
                        RatingFamily::Correspondence,
                        "online-ratings-correspondence",
                    ),
                ] {
                    if ui
                        .selectable_label(*family == choice, tr.text(key))
                        .clicked()
                        && *family != choice
                    {
                        commands.write(OnlineCommand::Ratings(choice));
                    }
                }
            });
            ui.label(
                RichText::new(tr!(
                    tr,
                    "online-ratings-yours",
                    rating = me.rating.to_string(),
                    games = me.rating.games
                ))
                .strong(),
            );
            if me.rating.provisional {
                ui.label(
                    RichText::new(tr.text("online-ratings-provisional"))
                        .small()
                        .color(Color32::from_gray(170)),
                );
            }
            rating_plot(ui, me);
            if let Some(last) = me.changes.first() {
                ui.label(
                    RichText::new(tr!(
                        tr,
                        "online-ratings-last",
                        place = last.place,
                        sides = last.sides,
                        change = format!("{:+}", last.change)
                    ))
                    .small(),
                );
            }
            if board.is_empty() {
                ui.label(
                    RichText::new(tr.text("online-ratings-none")).color(Color32::from_gray(170)),
                );
                return;
            }
            egui::Grid::new("leaderboard")
                .num_columns(3)
                .striped(true)
                .spacing([12.0, 2.0])
                .show(ui, |ui| {
                    for row in board {
                        ui.label(row.place.to_string());
                        let name = RichText::new(&row.name);
                        ui.label(if row.name == me.name {
                            name.strong()
                        } else {
                            name
                        });
                        ui.label(row.rating.to_string());
                        ui.end_row();
                    }
                });
        });
    if shown.header_response.clicked() && online.ratings.is_none() {
        commands.write(OnlineCommand::Ratings(RatingFamily::Live));
    }
}

/// The player's rating after each of their last rated games, the oldest on the left, as a line
/// (drawn once there are two games).
fn rating_plot(ui: &mut egui::Ui, me: &RatingHistory) {
    let points: Vec<i64> = me.changes.iter().rev().map(|c| c.points).collect();
    if points.len() < 2 {
        return;
    }
    let (low, high) = (
        *points.iter().min().unwrap_or(&0) as f32,
        *points.iter().max().unwrap_or(&0) as f32,
    );
    let span = (high - low).max(50.0);
    let width = ui.available_width().min(360.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 60.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_stroke(
        rect,
        2.0,
        egui::Stroke::new(1.0, Color32::from_gray(90)),
        egui::StrokeKind::Inside,
    );
    let step = rect.width() / (points.len() - 1) as f32;
    let line: Vec<egui::Pos2> = points
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let y = rect.bottom() - 6.0 - (p as f32 - low) / span * (rect.height() - 12.0);
            egui::pos2(rect.left() + i as f32 * step, y)
        })
        .collect();
    painter.add(egui::Shape::line(
        line,
        egui::Stroke::new(2.0, Color32::from_rgb(150, 210, 255)),
    ));
    response.on_hover_text(format!("{} – {}", low as i64, high as i64));
}

/// The games in progress, those waiting for the player's move first.
fn games_in_progress(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    egui::ScrollArea::vertical()
        .max_height(180.0)
        .show(ui, |ui| {
            egui::Grid::new("my games")
                .num_columns(5)
                .striped(true)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for heading in [
                        "online-players",
                        "online-to-move",
                        "online-since",
                        "online-deadline",
                        "",
                    ] {
                        ui.label(
                            RichText::new(if heading.is_empty() {
                                String::new()
                            } else {
                                tr.text(heading)
                            })
                            .small()
                            .color(Color32::from_gray(160)),
                        );
                    }
                    ui.end_row();
                    for game in &online.games {
                        game_row(ui, tr, game, online, commands);
                    }
                });
        });
}

/// The player's holidays: away until a day (their correspondence clocks stop), or back; the
/// days of this year's allowance taken.
fn holidays(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    let Some(holidays) = &online.holidays else {
        return;
    };
    if form.away_until.is_empty() {
        // A week from today (UTC), to start from.
        let today = qiguo_protocol::calendar::day_of(jiff::Timestamp::now().as_millisecond());
        form.away_until = qiguo_protocol::calendar::date_text(today + 7);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr.text("online-holidays")).strong())
            .on_hover_text(tr.text("online-holidays-hint"));
        if let Some(until) = &holidays.away_until {
            ui.label(
                RichText::new(tr!(tr, "online-away-until", date = until.clone()))
                    .color(Color32::from_rgb(255, 215, 120)),
            );
            if ui.button(tr.text("online-back")).clicked() {
                commands.write(OnlineCommand::Away(None));
            }
        }
        ui.add(
            egui::TextEdit::singleline(&mut form.away_until)
                .desired_width(86.0)
                .char_limit(10)
                .hint_text("YYYY-MM-DD"),
        );
        let go = if holidays.away_until.is_some() {
            "online-away-change"
        } else {
            "online-away-go"
        };
        if ui
            .button(tr.text(go))
            .on_hover_text(tr.text("online-holidays-hint"))
            .clicked()
        {
            commands.write(OnlineCommand::Away(Some(form.away_until.trim().to_owned())));
        }
    });
    ui.label(
        RichText::new(tr!(
            tr,
            "online-holidays-used",
            used = holidays.used,
            allowance = holidays.allowance,
            year = holidays.year
        ))
        .small()
        .color(Color32::from_gray(170)),
    );
}

/// The player's e-mail: an address to be told at when it is their move and they are away
/// (confirmed through a link sent there), one e-mail a turn or a daily digest; removed at any
/// time. A server that sends no e-mail says so.
fn mail(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    let Some(mail) = &online.mail else {
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr.text("online-mail")).strong())
            .on_hover_text(tr.text("online-mail-hint"));
        if !mail.offered {
            ui.label(
                RichText::new(tr.text("online-mail-not-offered")).color(Color32::from_gray(170)),
            );
            return;
        }
        let typed = form.mail_address.get_or_insert_with(|| {
            form.mail_digest = mail.digest;
            mail.address.clone().unwrap_or_default()
        });
        ui.add(
            egui::TextEdit::singleline(typed)
                .desired_width(190.0)
                .char_limit(254)
                .hint_text(tr.text("online-mail-address")),
        );
        ui.checkbox(&mut form.mail_digest, tr.text("online-mail-digest"))
            .on_hover_text(tr.text("online-mail-digest-hint"));
        let typed = typed.trim().to_owned();
        let changed =
            mail.address.as_deref() != Some(typed.as_str()) || mail.digest != form.mail_digest;
        if ui
            .add_enabled(
                !typed.is_empty() && changed,
                egui::Button::new(tr.text("online-mail-save")),
            )
            .clicked()
        {
            commands.write(OnlineCommand::SetMail {
                address: Some(typed),
                digest: form.mail_digest,
            });
        }
        if mail.address.is_some() && ui.button(tr.text("online-mail-remove")).clicked() {
            form.mail_address = Some(String::new());
            commands.write(OnlineCommand::SetMail {
                address: None,
                digest: false,
            });
        }
    });
    if let Some(address) = &mail.address {
        let (text, color) = if mail.confirmed {
            (
                tr!(tr, "online-mail-confirmed-line", address = address.clone()),
                Color32::from_rgb(150, 210, 140),
            )
        } else {
            (
                tr!(tr, "online-mail-unconfirmed", address = address.clone()),
                Color32::from_rgb(255, 215, 120),
            )
        };
        ui.label(RichText::new(text).small().color(color));
    }
}

/// The finished games, a page at a time (read when the section is opened): who played, who
/// won and how, when it ended; opened on the board (its report and record there), or played
/// again.
fn finished_games(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    let shown = egui::CollapsingHeader::new(tr.text("online-finished"))
        .id_salt("finished games")
        .show(ui, |ui| {
            let Some((games, page, more)) = &online.finished else {
                ui.label(RichText::new(tr.text("online-reading")).color(Color32::from_gray(170)));
                return;
            };
            if games.is_empty() {
                ui.label(
                    RichText::new(tr.text("online-no-finished")).color(Color32::from_gray(170)),
                );
            }
            egui::Grid::new("finished games")
                .num_columns(4)
                .striped(true)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for game in games {
                        players_cell(ui, game, 220.0);
                        let victory = game.victory.as_deref().and_then(|code| {
                            qiguo_rules::Victory::ALL
                                .into_iter()
                                .find(|v| v.name() == code)
                        });
                        let result = match (game.winner, victory) {
                            (Some(k), Some(v)) => tr!(
                                tr,
                                "online-won",
                                kingdom = tr.kingdom(k),
                                how = tr.victory(v)
                            ),
                            _ => tr.text("online-over"),
                        };
                        ui.label(result);
                        ui.label(when(tr, game.since_ms));
                        ui.horizontal(|ui| {
                            if ui.small_button(tr.text("online-open")).clicked() {
                                commands.write(OnlineCommand::Open(game.id.clone()));
                            }
                            if ui
                                .small_button(tr.text("online-rematch"))
                                .on_hover_text(tr.text("online-rematch-hint"))
                                .clicked()
                            {
                                commands.write(OnlineCommand::Rematch(game.id.clone()));
                            }
                        });
                        ui.end_row();
                    }
                });
            ui.horizontal(|ui| {
                if *page > 0 && ui.small_button("◀").clicked() {
                    commands.write(OnlineCommand::Finished(page - 1));
                }
                if *page > 0 || *more {
                    ui.label(tr!(tr, "online-page", page = page + 1));
                }
                if *more && ui.small_button("▶").clicked() {
                    commands.write(OnlineCommand::Finished(page + 1));
                }
            });
        });
    // Read when first opened.
    if shown.header_response.clicked() && online.finished.is_none() {
        commands.write(OnlineCommand::Finished(0));
    }
}

/// A game's players in a cell at most `width` wide, all of them on hover.
fn players_cell(ui: &mut egui::Ui, game: &GameSummary, width: f32) {
    let players = game.players.join(", ");
    ui.scope(|ui| {
        ui.set_max_width(width);
        ui.add(egui::Label::new(players.as_str()).truncate())
    })
    .inner
    .on_hover_text(players);
}

fn game_row(
    ui: &mut egui::Ui,
    tr: Tr,
    game: &GameSummary,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    players_cell(ui, game, 250.0);
    let to_move = match game.to_move {
        None => tr.text("online-over"),
        Some(k) if game.your_turn => tr!(tr, "online-your-move", kingdom = tr.kingdom(k)),
        Some(k) => tr.kingdom(k).to_string(),
    };
    let colour = if game.your_turn {
        Color32::from_rgb(255, 215, 120)
    } else {
        Color32::from_gray(210)
    };
    ui.label(RichText::new(to_move).color(colour));
    ui.label(when(tr, game.since_ms));
    ui.label(game.deadline_ms.map(|d| when(tr, d)).unwrap_or_default());
    let on_board = online.table.as_ref().is_some_and(|t| t.id == game.id);
    if on_board {
        ui.label(RichText::new(tr.text("online-on-board")).small());
    } else if ui.button(tr.text("online-open")).clicked() {
        commands.write(OnlineCommand::Open(game.id.clone()));
    }
    ui.end_row();
}

fn level_label(tr: Tr, choice: SeatChoice) -> String {
    match choice {
        SeatChoice::Me => tr.text("online-seat-me"),
        SeatChoice::Open => tr.text("seat-open"),
        SeatChoice::Computer(l) => tr!(tr, "computer-level", level = tr.level(l)),
    }
}

/// *Play now*: a pace, and a seat at once in a quick game of it (a computer's kingdom taken
/// over, or a new game against computers).
fn quick_form(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.heading(tr.text("online-quick"));
    ui.label(
        RichText::new(tr.text("online-quick-intro"))
            .small()
            .color(Color32::from_gray(170)),
    );
    ui.horizontal_wrapped(|ui| {
        for pace in QuickPace::ALL {
            let (label, hint) = pace_words(tr, pace);
            ui.radio_value(&mut form.quick_pace, pace, label)
                .on_hover_text(hint);
        }
        if ui
            .button(RichText::new(tr.text("online-quick-play")).strong())
            .clicked()
        {
            commands.write(OnlineCommand::Quick(form.quick_pace));
        }
    });
}

/// The lobby: people online, playing and waiting at each pace; the open tables (to sit at, or
/// get up from), a form for a new one, and the quick games to watch. Kept current by the server.
fn lobby_section(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    online: &Online,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    let Some(lobby) = &online.lobby else {
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
    let mine = |id: &TableId| online.my_tables.iter().any(|t| t.id == *id);
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
                                commands.write(OnlineCommand::LeaveTable(table.id.clone()));
                            }
                        } else if ui.small_button(tr.text("lobby-sit")).clicked() {
                            commands.write(OnlineCommand::JoinTable(table.id.clone()));
                        }
                        ui.end_row();
                    }
                });
            ui.add_space(4.0);
            table_form(ui, tr, &mut form.table, commands);
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
}

/// What a table plays, in a line: its pace, computers, rated or not.
fn table_words(tr: Tr, spec: &TableSpec) -> String {
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

/// The form for a new public table.
fn table_form(
    ui: &mut egui::Ui,
    tr: Tr,
    table: &mut TableForm,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(tr.text("lobby-new-table"));
        ui.add(
            egui::DragValue::new(&mut table.people)
                .range(TABLE_PEOPLE)
                .suffix(tr.text("lobby-people-suffix")),
        );
        egui::ComboBox::from_id_salt("table pace")
            .selected_text(pace_words(tr, table.pace).0)
            .show_ui(ui, |ui| {
                for pace in QuickPace::ALL {
                    ui.selectable_value(&mut table.pace, pace, pace_words(tr, pace).0);
                }
            });
        egui::ComboBox::from_id_salt("table level")
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
            commands.write(OnlineCommand::CreateTable(TableSpec {
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
            }));
        }
    });
}

/// A new online game with the board's rules and seating: who plays each seat, and its pace.
fn new_game_form(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    the_match: &Match,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.heading(tr.text("online-new-game"));
    ui.label(
        RichText::new(tr.text("online-new-game-intro"))
            .small()
            .color(Color32::from_gray(170)),
    );
    let start = the_match.game().start_position();
    let seats = *start.seats();
    let count = seats.player_count();
    if form.seats.len() != count {
        form.seats = (0..count)
            .map(|p| match p {
                0 => SeatChoice::Me,
                1 => SeatChoice::Open,
                _ => SeatChoice::Computer(Level::Medium),
            })
            .collect();
    }
    // Two seats a row: the kingdoms of the seat, and who plays it.
    egui::Grid::new("online new seats")
        .num_columns(4)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            for (player, choice) in form.seats.iter_mut().enumerate() {
                let kingdoms: Vec<String> = seats
                    .kingdoms_of(player as u8)
                    .iter()
                    .map(|k| tr.kingdom(k).to_string())
                    .collect();
                ui.label(kingdoms.join("+"));
                egui::ComboBox::from_id_salt(("online new seat", player))
                    .selected_text(level_label(tr, *choice))
                    .width(150.0)
                    .show_ui(ui, |ui| {
                        for option in [
                            SeatChoice::Me,
                            SeatChoice::Open,
                            SeatChoice::Computer(Level::Easy),
                            SeatChoice::Computer(Level::Medium),
                            SeatChoice::Computer(Level::Hard),
                        ] {
                            ui.selectable_value(choice, option, level_label(tr, option));
                        }
                    });
                if player % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    ui.horizontal(|ui| {
        ui.radio_value(&mut form.correspondence, false, tr.text("online-live"));
        ui.radio_value(
            &mut form.correspondence,
            true,
            tr.text("online-correspondence"),
        );
        if form.correspondence {
            ui.add(
                egui::Slider::new(&mut form.days, MIN_DAYS..=MAX_DAYS)
                    .suffix(tr.text("online-days")),
            );
            ui.checkbox(&mut form.pass, tr.text("online-overdue-pass"));
        }
    });
    if ui.button(tr.text("online-create")).clicked() {
        let game = the_match.game();
        let fresh = qiguo_rules::Game::new(game.start_position().clone());
        let plans: Vec<SeatPlan> = form
            .seats
            .iter()
            .map(|c| match c {
                SeatChoice::Me => SeatPlan::Creator,
                SeatChoice::Open => SeatPlan::Open,
                SeatChoice::Computer(l) => SeatPlan::Computer(*l),
            })
            .collect();
        let pace = if form.correspondence {
            Pace::Correspondence {
                days: form.days,
                overdue: if form.pass {
                    WhenOverdue::Pass
                } else {
                    WhenOverdue::StandIn
                },
            }
        } else {
            Pace::Live { wait_seconds: 60 }
        };
        let built = NewGame::build(&fresh, plans, pace, |p, plan| match plan {
            SeatPlan::Creator => form.name.trim().to_owned(),
            SeatPlan::Open => tr!(tr, "player-default-name", number = (p + 1).to_string()),
            SeatPlan::Computer(level) => tr!(tr, "computer-level", level = tr.level(level)),
        });
        match built {
            Ok(game) => {
                form.error = None;
                commands.write(OnlineCommand::Create(game));
            }
            Err(refusal) => form.error = Some(refusal_words(tr, &refusal, &refusal.to_string())),
        }
    }
}

/// Joining an open seat, or watching, with a game's code.
fn code_form(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.heading(tr.text("online-with-code"));
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut form.code)
                .hint_text("K7QM-3XTD-9WFB-2HZR")
                .desired_width(190.0),
        );
        egui::ComboBox::from_id_salt("online join kingdom")
            .selected_text(tr.kingdom(form.kingdom))
            .width(90.0)
            .show_ui(ui, |ui| {
                for k in Kingdom::ALL {
                    ui.selectable_value(&mut form.kingdom, k, tr.kingdom(k));
                }
            });
        if ui.button(tr.text("online-join")).clicked() {
            commands.write(OnlineCommand::Join {
                code: form.code.trim().to_owned(),
                kingdom: form.kingdom,
            });
        }
        if ui.button(tr.text("online-watch")).clicked() {
            commands.write(OnlineCommand::Watch(form.code.trim().to_owned()));
        }
    });
}

/// The first line of the Kingdoms panel in an online game: the server, the code to invite
/// friends with, and how the connection stands.
pub(crate) fn online_summary(ui: &mut egui::Ui, tr: Tr, online: &Online) {
    let Some(table) = &online.table else {
        return;
    };
    server_line(ui, tr, online);
    let line = if table.watching {
        tr.text("online-watching")
    } else {
        tr!(tr, "online-code", code = table.code.clone())
    };
    ui.label(RichText::new(line).small().color(Color32::from_gray(200)))
        .on_hover_text(tr.text("online-code-hint"));
    // On a server elsewhere (which may serve the page), the link to send: a click copies it.
    let link = online
        .address
        .as_deref()
        .filter(|_| !table.watching && online.served.is_none())
        .and_then(|server| Invitation::link(server, &table.code, false));
    if let Some(link) = link {
        let shown = ui
            .add(
                egui::Label::new(
                    RichText::new(tr!(tr, "online-link", link = link.clone()))
                        .small()
                        .color(Color32::from_rgb(150, 200, 255)),
                )
                .sense(egui::Sense::click()),
            )
            .on_hover_text(tr.text("online-link-hint"));
        if shown.clicked() {
            ui.ctx().copy_text(link);
        }
    }
}

/// The Kingdoms panel's "played by" cell in an online game: who holds the seat. Returns
/// `false` when the game is not online (the ordinary person/computer choice applies).
pub(crate) fn seat_cell(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    player: u8,
    commands: &mut MessageWriter<OnlineCommand>,
) -> bool {
    let Some(table) = &online.table else {
        return false;
    };
    let Some(seat) = table.seats.get(usize::from(player)) else {
        return false;
    };
    let name = seat.name.clone().unwrap_or_default();
    let (text, colour) = match seat.plan {
        SeatPlan::Computer(l) => (
            tr!(tr, "computer-level", level = tr.level(l)),
            Color32::from_gray(210),
        ),
        _ if seat.yours => (
            tr!(tr, "seat-yours", name = name),
            Color32::from_rgb(150, 210, 255),
        ),
        _ if seat.name.is_none() => (tr.text("seat-open"), Color32::from_gray(170)),
        _ if seat.present => (tr!(tr, "seat-remote", name = name), Color32::from_gray(210)),
        _ => (
            tr!(tr, "seat-gone", name = name),
            Color32::from_rgb(255, 170, 110),
        ),
    };
    let text = match &seat.away_until {
        Some(date) => tr!(tr, "seat-away", seat = text, date = date.clone()),
        None => text,
    };
    // The rating beside the name: a person's in the game's pace family, a computer's fixed one.
    let text = match &seat.rating {
        Some(rating) => format!("{text} · {rating}"),
        None => text,
    };
    // Reliability, once they have left a rated game: the share they played to the end.
    let text = match seat
        .rating
        .as_ref()
        .filter(|r| r.left > 0)
        .and_then(|r| r.reliability())
    {
        Some(percent) => tr!(tr, "seat-reliability", seat = text, percent = percent),
        None => text,
    };
    let label = ui.label(RichText::new(text).small().color(colour));
    // Another person's seat: block or report them from here (a right click).
    if let (Some(name), false, false) = (
        &seat.name,
        seat.yours,
        matches!(seat.plan, SeatPlan::Computer(_)),
    ) {
        label
            .on_hover_text(tr.text("seat-conduct-hint"))
            .context_menu(|ui| {
                if ui.button(tr.text("seat-block")).clicked() {
                    commands.write(OnlineCommand::Block(name.clone(), true));
                    ui.close();
                }
                if ui.button(tr.text("seat-unblock")).clicked() {
                    commands.write(OnlineCommand::Block(name.clone(), false));
                    ui.close();
                }
                ui.separator();
                ui.label(RichText::new(tr.text("seat-report")).strong());
                for reason in [
                    "seat-report-leaves",
                    "seat-report-talk",
                    "seat-report-unfair",
                ] {
                    if ui.button(tr.text(reason)).clicked() {
                        commands.write(OnlineCommand::Report {
                            name: name.clone(),
                            game: table.id.clone(),
                            reason: tr.text(reason),
                        });
                        ui.close();
                    }
                }
            });
    }
    true
}

/// When another person asks to take moves back: agree or refuse.
pub(crate) fn take_back_question(
    mut contexts: EguiContexts,
    online: Res<Online>,
    the_match: Res<Match>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) -> Result {
    let Some(table) = &online.table else {
        return Ok(());
    };
    let Some(take_back) = &table.take_back else {
        return Ok(());
    };
    let mine: Vec<u8> = (0..table.seats.len() as u8)
        .filter(|&p| table.holds(p))
        .collect();
    if table.watching || mine.is_empty() || mine.iter().all(|p| take_back.agreed.contains(p)) {
        return Ok(());
    }
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let name = the_match
        .players()
        .get(usize::from(take_back.by))
        .map(|p| p.name.clone())
        .unwrap_or_default();
    centred_dialog("online take back", tr.text("take-back-title")).show_within_screen(ctx, |ui| {
        ui.label(tr!(
            tr,
            "online-take-back-question",
            name = name,
            ply = (take_back.ply + 1).to_string()
        ));
        ui.horizontal(|ui| {
            if ui.button(tr.text("take-back-allow")).clicked() {
                commands.write(OnlineCommand::AnswerTakeBack(true));
            }
            if ui.button(tr.text("take-back-refuse")).clicked() {
                commands.write(OnlineCommand::AnswerTakeBack(false));
            }
        });
    });
    Ok(())
}
