//! A new online game from the *Online…* window, with the board's rules and seating (who plays
//! each seat, and its pace), and joining an open seat or watching with a game's code.

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_protocol::{MAX_DAYS, MIN_DAYS, NewGame, Pace, SeatPlan, WhenOverdue};
use qiguo_rules::Kingdom;

use super::shared::{Online, OnlineCommand};
use super::ui::{OnlineForm, OnlineSectionApp, SectionOrder};
use super::words::refusal_words;
use crate::game::state::Match;
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<NewOnlineGame>()
        .add_online_section(SectionOrder::NewGame, new_game_section)
        .add_online_section(SectionOrder::Code, code_section);
}

/// The new online game as chosen in the window, and the code to join or watch with.
#[derive(Resource, Debug, Clone)]
struct NewOnlineGame {
    /// The seats, by player number.
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
}

impl Default for NewOnlineGame {
    fn default() -> NewOnlineGame {
        NewOnlineGame {
            seats: Vec::new(),
            correspondence: false,
            days: 3,
            pass: false,
            code: String::new(),
            kingdom: Kingdom::Chu,
        }
    }
}

/// Who plays a seat of a new online game, as chosen in the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeatChoice {
    Me,
    Open,
    Computer(Level),
}

/// A new online game with the board's rules and seating.
fn new_game_section(
    InMut(ui): InMut<egui::Ui>,
    online: Res<Online>,
    mut form: ResMut<OnlineForm>,
    mut game: ResMut<NewOnlineGame>,
    the_match: Res<Match>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if online.in_touch() {
        ui.separator();
        new_game_form(ui, *tr, &mut form, &mut game, &the_match, &mut commands);
        ui.separator();
    }
}

/// Joining or watching with a code.
fn code_section(
    InMut(ui): InMut<egui::Ui>,
    online: Res<Online>,
    mut game: ResMut<NewOnlineGame>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if online.in_touch() {
        code_form(ui, *tr, &mut game, &mut commands);
    }
}

fn level_label(tr: Tr, choice: SeatChoice) -> String {
    match choice {
        SeatChoice::Me => tr.text("online-seat-me"),
        SeatChoice::Open => tr.text("seat-open"),
        SeatChoice::Computer(l) => tr!(tr, "computer-level", level = tr.level(l)),
    }
}

/// A new online game with the board's rules and seating: who plays each seat, and its pace.
fn new_game_form(
    ui: &mut egui::Ui,
    tr: Tr,
    form: &mut OnlineForm,
    game: &mut NewOnlineGame,
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
    if game.seats.len() != count {
        game.seats = (0..count)
            .map(|p| match p {
                0 => SeatChoice::Me,
                1 => SeatChoice::Open,
                _ => SeatChoice::Computer(Level::Medium),
            })
            .collect();
    }
    // Two seats a row (one where the window is narrow, a phone held upright): the kingdoms of
    // the seat, and who plays it.
    let per_row = if ui.available_width() >= 2.0 * (SEAT_COMBO_WIDTH + 70.0) {
        2
    } else {
        1
    };
    egui::Grid::new("online new seats")
        .num_columns(2 * per_row)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            for (player, choice) in game.seats.iter_mut().enumerate() {
                let kingdoms: Vec<String> = seats
                    .kingdoms_of(player as u8)
                    .iter()
                    .map(|k| tr.kingdom(k).to_string())
                    .collect();
                ui.label(kingdoms.join("+"));
                egui::ComboBox::from_id_salt(("online new seat", player))
                    .selected_text(level_label(tr, *choice))
                    .width(SEAT_COMBO_WIDTH)
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
                if player % per_row == per_row - 1 {
                    ui.end_row();
                }
            }
        });
    ui.horizontal(|ui| {
        ui.radio_value(&mut game.correspondence, false, tr.text("online-live"));
        ui.radio_value(
            &mut game.correspondence,
            true,
            tr.text("online-correspondence"),
        );
        if game.correspondence {
            ui.add(
                egui::Slider::new(&mut game.days, MIN_DAYS..=MAX_DAYS)
                    .suffix(tr.text("online-days")),
            );
            ui.checkbox(&mut game.pass, tr.text("online-overdue-pass"));
        }
    });
    if ui.button(tr.text("online-create")).clicked() {
        let fresh = qiguo_rules::Game::new(the_match.game().start_position().clone());
        let plans: Vec<SeatPlan> = game
            .seats
            .iter()
            .map(|c| match c {
                SeatChoice::Me => SeatPlan::Creator,
                SeatChoice::Open => SeatPlan::Open,
                SeatChoice::Computer(l) => SeatPlan::Computer(*l),
            })
            .collect();
        let pace = if game.correspondence {
            Pace::Correspondence {
                days: game.days,
                overdue: if game.pass {
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
/// The width of a seat's choice in the new game's form.
const SEAT_COMBO_WIDTH: f32 = 150.0;

fn code_form(
    ui: &mut egui::Ui,
    tr: Tr,
    game: &mut NewOnlineGame,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    ui.heading(tr.text("online-with-code"));
    // Wrapped: on a phone held upright the buttons go under the code.
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut game.code)
                .hint_text("K7QM-3XTD-9WFB-2HZR")
                .desired_width(190.0_f32.min(ui.available_width())),
        );
        egui::ComboBox::from_id_salt("online join kingdom")
            .selected_text(tr.kingdom(game.kingdom))
            .width(90.0)
            .show_ui(ui, |ui| {
                for k in Kingdom::ALL {
                    ui.selectable_value(&mut game.kingdom, k, tr.kingdom(k));
                }
            });
        if ui.button(tr.text("online-join")).clicked() {
            commands.write(OnlineCommand::Join {
                code: game.code.trim().to_owned(),
                kingdom: game.kingdom,
            });
        }
        if ui.button(tr.text("online-watch")).clicked() {
            commands.write(OnlineCommand::Watch(game.code.trim().to_owned()));
        }
    });
}
