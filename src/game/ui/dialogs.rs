//! Dialogs: a new game (rules preset, seating, player names), the question before attacking an
//! ally, and the end of the game.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_rules::{Kingdom, PlayerInfo, Position, Preset, Rules, Seating, SeatsError, Standing};

use crate::game::preferences::{KeptSetting, Preferences};
use crate::game::selection::{AllyAttackAnswered, Selection};
use crate::game::state::{Match, NewGameRequested, Review, UndoRequested};
use crate::game::ui::kit::{badge, controller_choice};
use crate::game::widgets::WithinTheScreen;
use crate::i18n::Tr;
use crate::settings::NewGameChoices;
use crate::tr;

/// The seatings offered in the new-game dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SeatingKind {
    /// Seven players.
    Seven,
    /// Six: Qin's player takes one more.
    Six,
    /// Five: Qin's and Chu's players take one more.
    Five,
    /// Four: Qin's, Chu's and Qi's players take one more.
    Four,
    /// Three: Qin's player takes two more, Chu's and Qi's one more.
    Three,
    /// Only the players present, one kingdom each.
    Present,
    /// Savard's two-player game.
    TwoPlayers,
}

impl SeatingKind {
    /// Every seating, in the order the dialog lists them.
    pub(crate) const ALL: [SeatingKind; 7] = [
        SeatingKind::Seven,
        SeatingKind::Six,
        SeatingKind::Five,
        SeatingKind::Four,
        SeatingKind::Three,
        SeatingKind::Present,
        SeatingKind::TwoPlayers,
    ];

    /// A short name for the seating, as the settings keep it.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            SeatingKind::Seven => "seven",
            SeatingKind::Six => "six",
            SeatingKind::Five => "five",
            SeatingKind::Four => "four",
            SeatingKind::Three => "three",
            SeatingKind::Present => "present",
            SeatingKind::TwoPlayers => "two-players",
        }
    }

    fn label(self, tr: Tr) -> String {
        tr.text(&format!("seating-{}", self.key()))
    }
}

impl KeptSetting for NewGameForm {
    fn apply(&mut self, prefs: &Preferences) {
        apply_new_game(&prefs.settings.new_game, self);
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.new_game = new_game_choices(self);
    }
}

/// The last new game's choices put back into the dialog; unknown or missing values keep the
/// dialog's own.
fn apply_new_game(choices: &NewGameChoices, form: &mut NewGameForm) {
    if let Ok(preset) = choices.rules.parse::<Preset>() {
        form.preset = preset;
    }
    if let Some(kind) = SeatingKind::ALL
        .into_iter()
        .find(|k| k.key() == choices.seating)
    {
        form.seating = kind;
    }
    for (slot, name) in form.names.iter_mut().zip(&choices.names) {
        if !name.trim().is_empty() {
            slot.clone_from(name);
        }
    }
    for (slot, player) in form.controllers.iter_mut().zip(&choices.players) {
        if player == "person" {
            *slot = None;
        } else if let Ok(level) = player.parse::<Level>() {
            *slot = Some(level);
        }
    }
}

/// The dialog's choices as they are kept.
fn new_game_choices(form: &NewGameForm) -> NewGameChoices {
    NewGameChoices {
        rules: form.preset.name().to_owned(),
        seating: form.seating.key().to_owned(),
        names: form.names.clone(),
        players: form
            .controllers
            .iter()
            .map(|c| c.map_or("person", Level::name).to_owned())
            .collect(),
    }
}

/// The state of the new-game dialog.
#[derive(Resource, Debug, Clone)]
pub(crate) struct NewGameForm {
    /// Whether the dialog is shown.
    pub(crate) open: bool,
    /// The rules preset.
    pub(crate) preset: Preset,
    /// The seating.
    pub(crate) seating: SeatingKind,
    /// Kingdoms Qin's player adds (the second only with three players).
    pub(crate) qin_takes: [Kingdom; 2],
    /// The kingdom Chu's player adds.
    pub(crate) chu_takes: Kingdom,
    /// The kingdom Qi's player adds.
    pub(crate) qi_takes: Kingdom,
    /// Which kingdoms are held, for "only the players present".
    pub(crate) present: [bool; 7],
    /// Player names by player number.
    pub(crate) names: Vec<String>,
    /// Who plays, by player number: a computer level, or `None` for a person.
    pub(crate) controllers: Vec<Option<Level>>,
}

impl Default for NewGameForm {
    fn default() -> NewGameForm {
        NewGameForm {
            open: false,
            preset: Preset::Classic,
            seating: SeatingKind::Seven,
            qin_takes: [Kingdom::Han, Kingdom::Wei],
            chu_takes: Kingdom::Zhao,
            qi_takes: Kingdom::Yan,
            present: [true, false, false, true, false, true, false],
            names: vec![String::new(); 7],
            controllers: vec![None; 7],
        }
    }
}

impl NewGameForm {
    /// The seating chosen.
    pub(crate) fn seating(&self) -> Seating {
        match self.seating {
            SeatingKind::Seven => Seating::Seven,
            SeatingKind::Six => Seating::Six {
                qin_takes: self.qin_takes[0],
            },
            SeatingKind::Five => Seating::Five {
                qin_takes: self.qin_takes[0],
                chu_takes: self.chu_takes,
            },
            SeatingKind::Four => Seating::Four {
                qin_takes: self.qin_takes[0],
                chu_takes: self.chu_takes,
                qi_takes: self.qi_takes,
            },
            SeatingKind::Three => Seating::Three {
                qin_takes: self.qin_takes,
                chu_takes: self.chu_takes,
                qi_takes: self.qi_takes,
            },
            SeatingKind::Present => Seating::Present(
                Kingdom::ALL
                    .into_iter()
                    .filter(|k| self.present[k.index()])
                    .collect(),
            ),
            SeatingKind::TwoPlayers => Seating::TwoPlayers,
        }
    }

    /// The start position and players, or why the choices do not make a game. Players left
    /// without a name are called "Player 2" and so on, in `tr`'s language.
    pub(crate) fn start(&self, tr: Tr) -> Result<(Position, Vec<PlayerInfo>), SeatsError> {
        let seats = self.seating().seats()?;
        let players = (0..seats.player_count())
            .map(|i| {
                let name = self.names.get(i).map(|n| n.trim()).unwrap_or("");
                PlayerInfo {
                    name: if name.is_empty() {
                        default_name(tr, i)
                    } else {
                        name.chars().take(24).collect()
                    },
                    computer: self.controllers.get(i).copied().flatten(),
                }
            })
            .collect();
        Ok((
            Position::start_with(Rules::preset(self.preset), seats),
            players,
        ))
    }
}

/// The name of player `index` (from 0) when none is typed: "Player 1", ….
pub(crate) fn default_name(tr: Tr, index: usize) -> String {
    tr!(tr, "player-default-name", number = index + 1)
}

fn kingdom_choice(ui: &mut egui::Ui, tr: Tr, id: &str, label: String, value: &mut Kingdom) {
    ui.horizontal(|ui| {
        ui.label(label);
        egui::ComboBox::from_id_salt(id)
            .selected_text(tr.kingdom_titled(*value))
            .show_ui(ui, |ui| {
                for k in Kingdom::ALL {
                    ui.selectable_value(value, k, tr.kingdom_titled(k));
                }
            });
    });
}

/// Why the form's seating does not make a game, in words (the rules engine's `error` says it
/// in English).
fn seats_error(tr: Tr, form: &NewGameForm, error: &SeatsError) -> String {
    let extras: Vec<(Kingdom, Kingdom)> = match form.seating {
        SeatingKind::Present => return tr.text("seating-error-two-players"),
        SeatingKind::Six => vec![(Kingdom::Qin, form.qin_takes[0])],
        SeatingKind::Five => vec![
            (Kingdom::Qin, form.qin_takes[0]),
            (Kingdom::Chu, form.chu_takes),
        ],
        SeatingKind::Four => vec![
            (Kingdom::Qin, form.qin_takes[0]),
            (Kingdom::Chu, form.chu_takes),
            (Kingdom::Qi, form.qi_takes),
        ],
        SeatingKind::Three => vec![
            (Kingdom::Qin, form.qin_takes[0]),
            (Kingdom::Qin, form.qin_takes[1]),
            (Kingdom::Chu, form.chu_takes),
            (Kingdom::Qi, form.qi_takes),
        ],
        _ => return error.to_string(),
    };
    // The same order as the engine's check: the players' own kingdoms, then each one added.
    let mut taken: Vec<Kingdom> = extras.iter().map(|(base, _)| *base).collect();
    for (base, k) in extras {
        if taken.contains(&k) {
            return tr!(
                tr,
                "seating-error-held",
                kingdom = tr.kingdom(k),
                player = tr.kingdom(base)
            );
        }
        taken.push(k);
    }
    error.to_string()
}

pub(super) fn new_game(
    mut contexts: EguiContexts,
    mut form: ResMut<NewGameForm>,
    mut requests: MessageWriter<NewGameRequested>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut start = None;
    crate::game::widgets::centred_dialog("New game", tr.text("new-game-title"))
        .open(&mut open)
        .show_within_screen(ctx, |ui| {
            let form = &mut *form;
            ui.horizontal(|ui| {
                ui.label(tr.text("new-game-rules"));
                egui::ComboBox::from_id_salt("preset")
                    .selected_text(form.preset.name())
                    .show_ui(ui, |ui| {
                        for p in Preset::ALL {
                            ui.selectable_value(&mut form.preset, p, p.name())
                                .on_hover_text(tr.preset_summary(p));
                        }
                    });
            });
            ui.label(
                RichText::new(tr.preset_summary(form.preset))
                    .small()
                    .color(Color32::from_gray(170)),
            );
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(tr.text("new-game-seating"));
                egui::ComboBox::from_id_salt("seating")
                    .selected_text(form.seating.label(tr))
                    .width(360.0)
                    .show_ui(ui, |ui| {
                        for kind in SeatingKind::ALL {
                            ui.selectable_value(&mut form.seating, kind, kind.label(tr));
                        }
                    });
            });
            match form.seating {
                SeatingKind::Six | SeatingKind::Five | SeatingKind::Four | SeatingKind::Three => {
                    let also = |k: Kingdom| tr!(tr, "new-game-also-takes", kingdom = tr.kingdom(k));
                    kingdom_choice(ui, tr, "qin0", also(Kingdom::Qin), &mut form.qin_takes[0]);
                    if form.seating == SeatingKind::Three {
                        let and = tr.text("new-game-and");
                        kingdom_choice(ui, tr, "qin1", and, &mut form.qin_takes[1]);
                    }
                    if form.seating != SeatingKind::Six {
                        kingdom_choice(ui, tr, "chu", also(Kingdom::Chu), &mut form.chu_takes);
                    }
                    if matches!(form.seating, SeatingKind::Four | SeatingKind::Three) {
                        kingdom_choice(ui, tr, "qi", also(Kingdom::Qi), &mut form.qi_takes);
                    }
                }
                SeatingKind::Present => {
                    ui.horizontal_wrapped(|ui| {
                        for k in Kingdom::ALL {
                            ui.checkbox(&mut form.present[k.index()], tr.kingdom_titled(k));
                        }
                    });
                }
                _ => {}
            }
            ui.separator();
            match form.seating().seats() {
                Ok(seats) => {
                    let count = seats.player_count();
                    if form.names.len() < count {
                        form.names.resize(count, String::new());
                    }
                    if form.controllers.len() < count {
                        form.controllers.resize(count, None);
                    }
                    egui::Grid::new("names").num_columns(3).show(ui, |ui| {
                        for player in 0..count {
                            ui.horizontal(|ui| {
                                for k in seats.kingdoms_of(player as u8).iter() {
                                    badge(ui, k, 18.0, false);
                                }
                            });
                            ui.add(
                                egui::TextEdit::singleline(&mut form.names[player])
                                    .hint_text(default_name(tr, player))
                                    .desired_width(180.0)
                                    .char_limit(24),
                            );
                            let current = form.controllers[player];
                            if let Some(choice) =
                                controller_choice(ui, tr, ("new controller", player), current)
                            {
                                form.controllers[player] = choice;
                            }
                            ui.end_row();
                        }
                    });
                    if !seats.empty_kingdoms().is_empty() {
                        let empty: Vec<String> = seats
                            .empty_kingdoms()
                            .iter()
                            .map(|k| tr.kingdom(k))
                            .collect();
                        ui.label(
                            RichText::new(tr!(tr, "new-game-empty", kingdoms = tr.list(&empty)))
                                .small()
                                .color(Color32::from_gray(170)),
                        );
                    }
                    ui.add_space(4.0);
                    if ui
                        .button(RichText::new(tr.text("new-game-start")).strong())
                        .clicked()
                    {
                        start = Some(form.start(tr));
                    }
                }
                Err(e) => {
                    ui.label(
                        RichText::new(seats_error(tr, form, &e))
                            .color(Color32::from_rgb(255, 130, 110)),
                    );
                }
            }
        });
    match start {
        Some(Ok((start, players))) => {
            requests.write(NewGameRequested::new(start, players));
            form.open = false;
        }
        Some(Err(e)) => warn!("new game refused: {e}"),
        None => form.open = open,
    }
    Ok(())
}

pub(super) fn ally_question(
    mut contexts: EguiContexts,
    selection: Res<Selection>,
    the_match: Res<Match>,
    mut answers: MessageWriter<AllyAttackAnswered>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let Some(mv) = selection.pending_ally_attack.map(|r| r.mv) else {
        return Ok(());
    };
    let pos = the_match.position();
    let Some(ally) = pos.forfeits_ally(mv) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Modal::new(egui::Id::new("ally question")).show(ctx, |ui| {
        ui.set_max_width(380.0);
        ui.horizontal(|ui| {
            badge(ui, ally, 28.0, false);
            ui.heading(tr!(tr, "ally-title", ally = tr.kingdom(ally)));
        });
        ui.label(tr!(
            tr,
            "ally-question",
            ally = tr.kingdom(ally),
            mover = tr.kingdom(pos.to_move())
        ));
        ui.horizontal(|ui| {
            if ui
                .button(
                    RichText::new(tr.text("ally-attack")).color(Color32::from_rgb(255, 140, 120)),
                )
                .clicked()
            {
                answers.write(AllyAttackAnswered { confirmed: true });
            }
            if ui.button(tr.text("dialog-cancel")).clicked()
                || ui.input(|i| i.key_pressed(egui::Key::Escape))
            {
                answers.write(AllyAttackAnswered { confirmed: false });
            }
        });
    });
    Ok(())
}

pub(super) fn game_over(
    mut contexts: EguiContexts,
    the_match: Res<Match>,
    review: Res<Review>,
    mut form: ResMut<NewGameForm>,
    mut undo: MessageWriter<UndoRequested>,
    mut dismissed: Local<bool>,
    mut report: ResMut<crate::game::ui::report::ReportWindow>,
    lesson: Res<crate::game::lessons::LessonRun>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let pos = the_match.position();
    // A lesson's card says how its game ended.
    if lesson.is_active() {
        return Ok(());
    }
    let Some(outcome) = pos.outcome() else {
        *dismissed = false;
        return Ok(());
    };
    if *dismissed || form.open || review.ply.is_some() || report.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    crate::game::widgets::centred_dialog("Game over", tr.text("game-over-title"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -40.0])
        .show_within_screen(ctx, |ui| {
            ui.horizontal(|ui| {
                badge(ui, outcome.winner, 40.0, false);
                ui.vertical(|ui| {
                    let player = the_match
                        .players()
                        .get(outcome.player as usize)
                        .map_or_else(|| tr.text("player-unnamed"), |p| p.name.clone());
                    ui.heading(tr!(
                        tr,
                        "game-over-wins",
                        kingdom = tr.kingdom(outcome.winner)
                    ));
                    ui.label(tr!(
                        tr,
                        "game-over-how",
                        player = player,
                        how = tr.victory(outcome.victory)
                    ));
                });
            });
            ui.separator();
            egui::Grid::new("final").num_columns(3).show(ui, |ui| {
                for k in Kingdom::ALL {
                    let standing = pos.standing(k);
                    if standing == Standing::Absent {
                        continue;
                    }
                    ui.horizontal(|ui| {
                        badge(ui, k, 16.0, standing != Standing::InGame);
                        ui.label(tr.kingdom(k));
                    });
                    ui.label(tr!(tr, "game-over-captures", count = pos.captures(k)));
                    ui.label(
                        RichText::new(crate::game::ui::standings::standing_text(tr, pos, k))
                            .small()
                            .color(Color32::from_gray(170)),
                    );
                    ui.end_row();
                }
            });
            ui.horizontal_wrapped(|ui| {
                if ui.button(tr.text("menu-new-game")).clicked() {
                    form.open = true;
                }
                if ui.button(tr.text("game-over-report")).clicked() {
                    report.open = true;
                }
                if ui.button(tr.text("game-over-look")).clicked() {
                    *dismissed = true;
                }
                if ui
                    .button(tr.text("game-over-take-back"))
                    .on_hover_text(crate::game::keyboard::UNDO.label())
                    .clicked()
                {
                    undo.write(UndoRequested);
                }
            });
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seating_choice_starts_a_game() {
        let mut form = NewGameForm::default();
        for kind in SeatingKind::ALL {
            form.seating = kind;
            let (start, players) = form
                .start(Tr::default())
                .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            assert_eq!(players.len(), start.seats().player_count(), "{kind:?}");
            assert!(!start.is_over());
        }
        let tr = Tr::default();
        form.seating = SeatingKind::Six;
        form.qin_takes[0] = Kingdom::Qin;
        let e = form.start(tr).unwrap_err();
        assert_eq!(
            seats_error(tr, &form, &e),
            "Qin is already held: Qin's player cannot take it"
        );
        form.seating = SeatingKind::Three;
        form.qin_takes = [Kingdom::Han, Kingdom::Wei];
        form.qi_takes = Kingdom::Han;
        let e = form.start(tr).unwrap_err();
        assert_eq!(
            seats_error(tr, &form, &e),
            "Han is already held: Qi's player cannot take it"
        );
        form.seating = SeatingKind::Present;
        form.present = [false; 7];
        let e = form.start(tr).unwrap_err();
        assert_eq!(
            seats_error(tr, &form, &e),
            "A game needs at least two players"
        );
    }

    #[test]
    fn computer_players_are_recorded_with_their_level() {
        let mut form = NewGameForm::default();
        form.controllers[2] = Some(Level::Hard);
        let (_, players) = form.start(Tr::default()).unwrap();
        assert_eq!(players[2].computer, Some(Level::Hard));
        assert_eq!(players[1].computer, None);
    }

    #[test]
    fn blank_names_get_defaults() {
        let mut form = NewGameForm::default();
        form.names[1] = "   ".into();
        form.names[2] = "Zhuge Liang".into();
        let (_, players) = form.start(Tr::default()).unwrap();
        assert_eq!(players[1].name, "Player 2");
        assert_eq!(players[2].name, "Zhuge Liang");
    }

    #[test]
    fn new_game_choices_round_trip_through_the_dialog() {
        let mut form = NewGameForm {
            preset: Preset::Wikipedia,
            seating: SeatingKind::Five,
            ..NewGameForm::default()
        };
        form.names[2] = "趙雲".into();
        form.controllers[1] = Some(Level::Hard);
        let kept = new_game_choices(&form);
        let mut back = NewGameForm::default();
        apply_new_game(&kept, &mut back);
        assert_eq!(back.preset, Preset::Wikipedia);
        assert_eq!(back.seating, SeatingKind::Five);
        assert_eq!(back.names, form.names);
        assert_eq!(back.controllers, form.controllers);
    }

    #[test]
    fn unknown_choices_keep_the_dialogs_own() {
        let choices = NewGameChoices {
            rules: "chess".into(),
            seating: "nine".into(),
            names: vec!["".into(), "Bo".into()],
            players: vec!["grandmaster".into(), "easy".into()],
        };
        let mut form = NewGameForm::default();
        apply_new_game(&choices, &mut form);
        let fresh = NewGameForm::default();
        assert_eq!(form.preset, fresh.preset);
        assert_eq!(form.seating, fresh.seating);
        assert_eq!(form.names[0], fresh.names[0]);
        assert_eq!(form.names[1], "Bo");
        assert_eq!(form.controllers[0], None);
        assert_eq!(form.controllers[1], Some(Level::Easy));
    }
}
