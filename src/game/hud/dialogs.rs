//! Dialogs: a new game (rules preset, seating, player names), the question before attacking an
//! ally, and the end of the game.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_rules::{Kingdom, PlayerInfo, Position, Preset, Rules, Seating, SeatsError, Standing};

use super::{badge, controller_choice};
use crate::game::selection::{AllyAttackAnswered, Selection};
use crate::game::state::{Match, NewGameRequested, Review, UndoRequested};

/// The seatings offered in the new-game dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatingKind {
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
    pub const ALL: [SeatingKind; 7] = [
        SeatingKind::Seven,
        SeatingKind::Six,
        SeatingKind::Five,
        SeatingKind::Four,
        SeatingKind::Three,
        SeatingKind::Present,
        SeatingKind::TwoPlayers,
    ];

    /// A short name for the seating, as the settings keep it.
    pub const fn key(self) -> &'static str {
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

    fn label(self) -> &'static str {
        match self {
            SeatingKind::Seven => "7 players, one kingdom each",
            SeatingKind::Six => "6 players (1206: Qin's player takes one more)",
            SeatingKind::Five => "5 players (… and Chu's)",
            SeatingKind::Four => "4 players (… and Qi's)",
            SeatingKind::Three => "3 players (Qin's takes two more)",
            SeatingKind::Present => "Only the players present",
            SeatingKind::TwoPlayers => "2 players (Savard: Chu, Qi, Zhao against Han, Wei, Yan)",
        }
    }
}

/// The state of the new-game dialog.
#[derive(Resource, Debug, Clone)]
pub struct NewGameForm {
    /// Whether the dialog is shown.
    pub open: bool,
    /// The rules preset.
    pub preset: Preset,
    /// The seating.
    pub seating: SeatingKind,
    /// Kingdoms Qin's player adds (the second only with three players).
    pub qin_takes: [Kingdom; 2],
    /// The kingdom Chu's player adds.
    pub chu_takes: Kingdom,
    /// The kingdom Qi's player adds.
    pub qi_takes: Kingdom,
    /// Which kingdoms are held, for "only the players present".
    pub present: [bool; 7],
    /// Player names by player number.
    pub names: Vec<String>,
    /// Who plays, by player number: a computer level, or `None` for a person.
    pub controllers: Vec<Option<Level>>,
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
            names: (1..=7).map(|i| format!("Player {i}")).collect(),
            controllers: vec![None; 7],
        }
    }
}

impl NewGameForm {
    /// The seating chosen.
    pub fn seating(&self) -> Seating {
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

    /// The start position and players, or why the choices do not make a game.
    pub fn start(&self) -> Result<(Position, Vec<PlayerInfo>), SeatsError> {
        let seats = self.seating().seats()?;
        let players = (0..seats.player_count())
            .map(|i| {
                let name = self.names.get(i).map(|n| n.trim()).unwrap_or("");
                PlayerInfo {
                    name: if name.is_empty() {
                        format!("Player {}", i + 1)
                    } else {
                        name.chars().take(24).collect()
                    },
                    computer: self
                        .controllers
                        .get(i)
                        .copied()
                        .flatten()
                        .map(|l| l.name().to_owned()),
                }
            })
            .collect();
        Ok((
            Position::start_with(Rules::preset(self.preset), seats),
            players,
        ))
    }
}

fn kingdom_choice(ui: &mut egui::Ui, id: &str, label: &str, value: &mut Kingdom) {
    ui.horizontal(|ui| {
        ui.label(label);
        egui::ComboBox::from_id_salt(id)
            .selected_text(format!("{} {}", value.character(), value.title()))
            .show_ui(ui, |ui| {
                for k in Kingdom::ALL {
                    ui.selectable_value(value, k, format!("{} {}", k.character(), k.title()));
                }
            });
    });
}

pub(super) fn new_game(
    mut contexts: EguiContexts,
    mut form: ResMut<NewGameForm>,
    mut requests: MessageWriter<NewGameRequested>,
) -> Result {
    if !form.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut start = None;
    super::centred_dialog("New game")
        .open(&mut open)
        .show(ctx, |ui| {
            let form = &mut *form;
            ui.horizontal(|ui| {
                ui.label("Rules");
                egui::ComboBox::from_id_salt("preset")
                    .selected_text(form.preset.name())
                    .show_ui(ui, |ui| {
                        for p in Preset::ALL {
                            ui.selectable_value(&mut form.preset, p, p.name())
                                .on_hover_text(p.summary());
                        }
                    });
            });
            ui.label(
                RichText::new(form.preset.summary())
                    .small()
                    .color(Color32::from_gray(170)),
            );
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Seating");
                egui::ComboBox::from_id_salt("seating")
                    .selected_text(form.seating.label())
                    .width(360.0)
                    .show_ui(ui, |ui| {
                        for kind in SeatingKind::ALL {
                            ui.selectable_value(&mut form.seating, kind, kind.label());
                        }
                    });
            });
            match form.seating {
                SeatingKind::Six | SeatingKind::Five | SeatingKind::Four | SeatingKind::Three => {
                    kingdom_choice(
                        ui,
                        "qin0",
                        "Qin's player also takes",
                        &mut form.qin_takes[0],
                    );
                    if form.seating == SeatingKind::Three {
                        kingdom_choice(ui, "qin1", "… and", &mut form.qin_takes[1]);
                    }
                    if form.seating != SeatingKind::Six {
                        kingdom_choice(ui, "chu", "Chu's player also takes", &mut form.chu_takes);
                    }
                    if matches!(form.seating, SeatingKind::Four | SeatingKind::Three) {
                        kingdom_choice(ui, "qi", "Qi's player also takes", &mut form.qi_takes);
                    }
                }
                SeatingKind::Present => {
                    ui.horizontal_wrapped(|ui| {
                        for k in Kingdom::ALL {
                            ui.checkbox(
                                &mut form.present[k.index()],
                                format!("{} {}", k.character(), k.title()),
                            );
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
                        let from = form.names.len();
                        form.names
                            .extend((from + 1..=count).map(|i| format!("Player {i}")));
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
                                    .desired_width(180.0)
                                    .char_limit(24),
                            );
                            let current = form.controllers[player];
                            if let Some(choice) =
                                controller_choice(ui, ("new controller", player), current)
                            {
                                form.controllers[player] = choice;
                            }
                            ui.end_row();
                        }
                    });
                    if !seats.empty_kingdoms().is_empty() {
                        let empty: Vec<&str> =
                            seats.empty_kingdoms().iter().map(|k| k.title()).collect();
                        ui.label(
                            RichText::new(format!("Empty (no army): {}", empty.join(", ")))
                                .small()
                                .color(Color32::from_gray(170)),
                        );
                    }
                    ui.add_space(4.0);
                    if ui.button(RichText::new("Start").strong()).clicked() {
                        start = Some(form.start());
                    }
                }
                Err(e) => {
                    ui.label(RichText::new(e.to_string()).color(Color32::from_rgb(255, 130, 110)));
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
) -> Result {
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
            ui.heading(format!("Attack your ally {ally}?"));
        });
        ui.label(format!(
            "{ally} is held by the same player as {}. If you attack it, {ally} forfeits: all its \
             pieces leave the board and nobody is credited (若擊與國，則盡撤去與國之棋).",
            pos.to_move()
        ));
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new("Attack").color(Color32::from_rgb(255, 140, 120)))
                .clicked()
            {
                answers.write(AllyAttackAnswered { confirmed: true });
            }
            if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
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
) -> Result {
    let pos = the_match.position();
    let Some(outcome) = pos.outcome() else {
        *dismissed = false;
        return Ok(());
    };
    if *dismissed || form.open || review.ply.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    super::centred_dialog("Game over")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -40.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                badge(ui, outcome.winner, 40.0, false);
                ui.vertical(|ui| {
                    let player = the_match
                        .players()
                        .get(outcome.player as usize)
                        .map(|p| p.name.as_str())
                        .unwrap_or("—");
                    ui.heading(format!("{} wins", outcome.winner));
                    ui.label(format!("{player} {}.", outcome.victory.describe()));
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
                        ui.label(k.title());
                    });
                    ui.label(format!("{} captures", pos.captures(k)));
                    ui.label(
                        RichText::new(super::standings::standing_text(pos, k))
                            .small()
                            .color(Color32::from_gray(170)),
                    );
                    ui.end_row();
                }
            });
            ui.horizontal(|ui| {
                if ui.button("New game…").clicked() {
                    form.open = true;
                }
                if ui.button("Look at the board").clicked() {
                    *dismissed = true;
                }
                if ui
                    .button("Take back the last move")
                    .on_hover_text("Ctrl+Z")
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
            let (start, players) = form.start().unwrap_or_else(|e| panic!("{kind:?}: {e}"));
            assert_eq!(players.len(), start.seats().player_count(), "{kind:?}");
            assert!(!start.is_over());
        }
        form.seating = SeatingKind::Six;
        form.qin_takes[0] = Kingdom::Qin;
        assert!(form.start().is_err());
        form.seating = SeatingKind::Present;
        form.present = [false; 7];
        assert!(form.start().is_err());
    }

    #[test]
    fn computer_players_are_recorded_with_their_level() {
        let mut form = NewGameForm::default();
        form.controllers[2] = Some(Level::Hard);
        let (_, players) = form.start().unwrap();
        assert_eq!(players[2].computer.as_deref(), Some("hard"));
        assert_eq!(players[1].computer, None);
    }

    #[test]
    fn blank_names_get_defaults() {
        let mut form = NewGameForm::default();
        form.names[1] = "   ".into();
        form.names[2] = "Zhuge Liang".into();
        let (_, players) = form.start().unwrap();
        assert_eq!(players[1].name, "Player 2");
        assert_eq!(players[2].name, "Zhuge Liang");
    }
}
