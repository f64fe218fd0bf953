//! The dialogs for files and sharing: save under a name, load or delete a save, copy the
//! position or the whole game as text and paste one in, and the offer to resume the last
//! unfinished game at start.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};

use crate::game::saving::{
    DeleteRequested, LoadRequested, ResumeAnswered, ResumeOffer, SaveRequested, SaveStore,
};
use crate::game::state::{Match, Review};
use crate::game::widgets::WithinTheScreen;
use crate::game_text;
use crate::i18n::Tr;
use crate::saves::{self, format_time};
use crate::tr;

/// Which file dialog is open, and what has been typed into it.
#[derive(Resource, Default, Debug)]
pub(crate) struct FilesForm {
    /// The save dialog is open.
    pub(crate) save_open: bool,
    /// The name typed for the save.
    pub(crate) save_name: String,
    /// The load dialog is open.
    pub(crate) load_open: bool,
    /// A save waiting for confirmation of its deletion.
    pub(crate) confirm_delete: Option<String>,
    /// The import/export dialog is open.
    pub(crate) share_open: bool,
    /// Text pasted to import: a FEN or a game.
    pub(crate) import_text: String,
    /// Why a file could not be downloaded or opened (in a page).
    pub(crate) file_error: Option<String>,
}

const ERROR: Color32 = Color32::from_rgb(255, 130, 110);
const MUTED: Color32 = Color32::from_gray(160);

fn error_line(ui: &mut egui::Ui, store: &SaveStore) {
    if let Some(e) = &store.last_error {
        ui.add(egui::Label::new(RichText::new(e).color(ERROR)).wrap());
    }
}

pub(super) fn save_dialog(
    mut contexts: EguiContexts,
    mut form: ResMut<FilesForm>,
    store: Res<SaveStore>,
    mut requests: MessageWriter<SaveRequested>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    crate::game::widgets::centred_dialog("Save game", tr.text("save-title"))
        .open(&mut open)
        .show_within_screen(ctx, |ui| {
            ui.set_width(380.0);
            if store.dir.is_none() {
                ui.label(RichText::new(tr.text("save-error-off")).color(ERROR));
                return;
            }
            let existing: Vec<&str> = store.entries.iter().map(|e| e.name.as_str()).collect();
            ui.horizontal(|ui| {
                ui.label(tr.text("save-name"));
                let edit = ui.add(
                    egui::TextEdit::singleline(&mut form.save_name)
                        .desired_width(260.0)
                        .char_limit(saves::MAX_NAME_CHARS),
                );
                edit.request_focus();
            });
            let check = saves::check_name(&form.save_name).map(str::to_owned);
            match &check {
                Ok(name) if existing.contains(&name.as_str()) => {
                    ui.label(RichText::new(tr.text("save-replaces")).color(MUTED));
                }
                Ok(_) => {}
                Err(e) if form.save_name.is_empty() => {
                    ui.label(RichText::new(e.text(tr)).color(MUTED));
                }
                Err(e) => {
                    ui.label(RichText::new(e.text(tr)).color(ERROR));
                }
            }
            error_line(ui, &store);
            let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
            let clicked = ui
                .add_enabled(
                    check.is_ok(),
                    egui::Button::new(RichText::new(tr.text("save-button")).strong()),
                )
                .clicked();
            if let Ok(name) = check
                && (clicked || enter)
            {
                requests.write(SaveRequested(name));
                form.save_open = false;
            }
        });
    if !open {
        form.save_open = false;
    }
    Ok(())
}

pub(super) fn load_dialog(
    mut contexts: EguiContexts,
    mut form: ResMut<FilesForm>,
    store: Res<SaveStore>,
    mut loads: MessageWriter<LoadRequested>,
    mut deletes: MessageWriter<DeleteRequested>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    crate::game::widgets::centred_dialog("Load game", tr.text("load-title"))
        .open(&mut open)
        .show_within_screen(ctx, |ui| {
            ui.set_width(560.0);
            if let Some(dir) = &store.dir {
                ui.label(
                    RichText::new(tr!(
                        tr,
                        "load-folder",
                        path = dir.saves().display().to_string()
                    ))
                    .small()
                    .color(MUTED),
                );
            }
            if store.listing {
                ui.horizontal(|ui| {
                    ui.add(egui::Spinner::new().size(14.0));
                    ui.label(tr.text("load-reading"));
                });
            } else if store.entries.is_empty() {
                ui.label(tr.text("load-none"));
            }
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    for entry in &store.entries {
                        save_row(ui, tr, entry, &mut form, &mut loads, &mut deletes);
                    }
                });
            error_line(ui, &store);
        });
    if !open {
        form.load_open = false;
        form.confirm_delete = None;
    }
    Ok(())
}

/// One save in the load dialog: name, date and game on the left; Load and Delete on the right.
fn save_row(
    ui: &mut egui::Ui,
    tr: Tr,
    entry: &saves::SaveEntry,
    form: &mut FilesForm,
    loads: &mut MessageWriter<LoadRequested>,
    deletes: &mut MessageWriter<DeleteRequested>,
) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            ui.vertical(|ui| {
                ui.label(RichText::new(&entry.name).strong());
                let when = entry
                    .modified
                    .map(|t| format!("{} · ", format_time(t)))
                    .unwrap_or_default();
                match &entry.summary {
                    Ok(s) => {
                        let state = if s.over {
                            tr.text("load-finished")
                        } else {
                            tr!(tr, "load-in-play", count = s.in_play)
                        };
                        let text = tr!(
                            tr,
                            "load-summary",
                            when = when,
                            preset = s.preset.as_str(),
                            moves = tr!(tr, "moves-count", count = s.moves),
                            state = state
                        );
                        ui.label(RichText::new(text).small().color(MUTED));
                    }
                    Err(e) => {
                        ui.label(
                            RichText::new(tr!(tr, "load-unreadable", when = when))
                                .small()
                                .color(ERROR),
                        )
                        .on_hover_text(e.to_string());
                    }
                }
            });
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if form.confirm_delete.as_deref() == Some(entry.name.as_str()) {
                    if ui.button(tr.text("load-keep")).clicked() {
                        form.confirm_delete = None;
                    }
                    if ui
                        .button(RichText::new(tr.text("load-delete-it")).color(ERROR))
                        .clicked()
                    {
                        deletes.write(DeleteRequested(entry.name.clone()));
                        form.confirm_delete = None;
                    }
                } else {
                    if ui.button(tr.text("load-delete")).clicked() {
                        form.confirm_delete = Some(entry.name.clone());
                    }
                    let load = ui.add_enabled(
                        entry.summary.is_ok(),
                        egui::Button::new(RichText::new(tr.text("load-button")).strong()),
                    );
                    if load.clicked() {
                        loads.write(LoadRequested::Save(entry.name.clone()));
                        form.load_open = false;
                    }
                }
            });
        });
    });
}

pub(super) fn share_dialog(
    mut contexts: EguiContexts,
    mut form: ResMut<FilesForm>,
    the_match: Res<Match>,
    review: Res<Review>,
    store: Res<SaveStore>,
    mut loads: MessageWriter<LoadRequested>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    crate::game::widgets::centred_dialog("Import and export", tr.text("share-title"))
        .open(&mut open)
        .show_within_screen(ctx, |ui| {
            ui.set_width(560.0);
            ui.label(RichText::new(tr.text("share-export")).strong());
            // The position on the board: while looking back, the one under review.
            let fen = game_text::position_text(&review.shown_position(&the_match));
            ui.horizontal(|ui| {
                if ui
                    .button(tr.text("share-copy-position"))
                    .on_hover_text(tr.text("share-copy-position-hint"))
                    .clicked()
                {
                    ui.ctx().copy_text(fen.clone());
                }
                if ui.button(tr.text("share-copy-game")).clicked() {
                    ui.ctx().copy_text(game_text::game_text(the_match.game()));
                }
            });
            // In a page: the game as a file, downloaded or opened.
            #[cfg(target_arch = "wasm32")]
            {
                let form = &mut *form;
                crate::browser::files::buttons(
                    ui,
                    tr,
                    &game_text::game_text(the_match.game()),
                    &mut form.import_text,
                    &mut form.file_error,
                );
            }
            let mut shown = fen;
            ui.add(
                egui::TextEdit::multiline(&mut shown)
                    .font(egui::TextStyle::Monospace)
                    .desired_rows(2)
                    .desired_width(f32::INFINITY)
                    .interactive(false),
            );
            ui.separator();
            ui.label(RichText::new(tr.text("share-import")).strong());
            ui.label(
                RichText::new(tr.text("share-import-hint"))
                    .small()
                    .color(MUTED),
            );
            ui.add(
                egui::TextEdit::multiline(&mut form.import_text)
                    .font(egui::TextStyle::Monospace)
                    .desired_rows(5)
                    .desired_width(f32::INFINITY)
                    .hint_text(tr!(
                        tr,
                        "share-paste-hint",
                        key = crate::game::keyboard::PASTE.label()
                    )),
            );
            ui.horizontal(|ui| {
                let has_text = !form.import_text.trim().is_empty();
                if ui
                    .add_enabled(has_text, egui::Button::new(tr.text("share-start-position")))
                    .clicked()
                {
                    loads.write(LoadRequested::Fen(form.import_text.clone()));
                }
                if ui
                    .add_enabled(has_text, egui::Button::new(tr.text("share-load-game")))
                    .clicked()
                {
                    loads.write(LoadRequested::GameText(form.import_text.clone()));
                }
            });
            error_line(ui, &store);
            if let Some(e) = &form.file_error {
                ui.colored_label(ERROR, e);
            }
        });
    if !open {
        form.share_open = false;
    }
    Ok(())
}

pub(super) fn resume_dialog(
    mut contexts: EguiContexts,
    offer: Res<ResumeOffer>,
    mut answers: MessageWriter<ResumeAnswered>,
    tr: Res<Tr>,
) -> Result {
    let tr = *tr;
    let Some((loaded, when)) = &offer.offer else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    crate::game::widgets::centred_dialog("Welcome back", tr.text("resume-title"))
        .show_within_screen(ctx, |ui| {
            ui.set_width(380.0);
            let summary = saves::SaveSummary::of(&loaded.game);
            let names: Vec<&str> = loaded
                .record
                .players
                .iter()
                .map(|p| p.name.as_str())
                .collect();
            ui.label(tr.text("resume-unfinished"));
            ui.label(
                RichText::new(tr!(
                    tr,
                    "resume-summary",
                    preset = summary.preset.as_str(),
                    moves = tr!(tr, "moves-count", count = summary.moves),
                    state = tr!(tr, "load-in-play", count = summary.in_play)
                ))
                .strong(),
            );
            ui.label(RichText::new(names.join(", ")).color(MUTED));
            if let Some(when) = when {
                ui.label(
                    RichText::new(tr!(tr, "resume-saved", when = format_time(*when)))
                        .small()
                        .color(MUTED),
                );
            }
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui
                    .button(RichText::new(tr.text("resume-button")).strong())
                    .clicked()
                {
                    answers.write(ResumeAnswered(true));
                }
                if ui.button(tr.text("resume-afresh")).clicked() {
                    answers.write(ResumeAnswered(false));
                }
            });
        });
    Ok(())
}
