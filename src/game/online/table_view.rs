//! The online game on the board, as the game's panels show it: the Kingdoms panel's first line
//! (the server, the code or link to invite with), who holds each seat (present, away, a computer
//! standing in) with a seat's menu, and the question when someone asks to take moves back.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::SeatPlan;

use super::conduct::Conduct;
use super::invite::Invitation;
use super::shared::{Online, OnlineCommand};
use super::ui::server_line;
use crate::game::state::Match;
use crate::game::widgets::{UiSystems, WithinTheScreen, centred_dialog};
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        take_back_question
            .in_set(UiSystems::Windows)
            .after(super::ui::online_window),
    );
}

/// The first line of the Kingdoms panel in an online game: the server, the code to invite
/// friends with, and how the connection stands; once the game is `over`, its links to share
/// (the game's page, whose preview shows its board, and its moves as an animated picture).
pub(crate) fn online_summary(ui: &mut egui::Ui, tr: Tr, online: &Online, over: bool) {
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
    // On a server elsewhere (which may serve the page), the links to send: a click copies one.
    let Some(server) = online
        .address
        .as_deref()
        .filter(|_| online.served.is_none())
    else {
        return;
    };
    if !over {
        if let Some(link) = Invitation::link(server, &table.code, false).filter(|_| !table.watching)
        {
            let shown = tr!(tr, "online-link", link = link.clone());
            copied_link(ui, shown, link, tr.text("online-link-hint"));
        }
        return;
    }
    if let Some(page) = Invitation::link(server, &table.code, true) {
        let shown = tr!(tr, "online-share-link", link = page.clone());
        copied_link(ui, shown, page, tr.text("online-share-link-hint"));
    }
    if let Some(moves) = Invitation::moves_link(server, &table.code) {
        let shown = tr!(tr, "online-moves-link", link = moves.clone());
        copied_link(ui, shown, moves, tr.text("online-moves-link-hint"));
    }
}

/// A link shown small, copied when clicked.
fn copied_link(ui: &mut egui::Ui, shown: String, link: String, hint: String) {
    let label = ui
        .add(
            egui::Label::new(
                RichText::new(shown)
                    .small()
                    .color(Color32::from_rgb(150, 200, 255)),
            )
            .sense(egui::Sense::click()),
        )
        .on_hover_text(hint);
    if label.clicked() {
        ui.ctx().copy_text(link);
    }
}

/// The Kingdoms panel's "played by" cell in an online game: who holds the seat. Returns
/// `false` when the game is not online (the ordinary person/computer choice applies).
pub(crate) fn seat_cell(
    ui: &mut egui::Ui,
    tr: Tr,
    online: &Online,
    player: u8,
    conduct: &mut MessageWriter<Conduct>,
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
                    conduct.write(Conduct::Block(name.clone(), true));
                    ui.close();
                }
                if ui.button(tr.text("seat-unblock")).clicked() {
                    conduct.write(Conduct::Block(name.clone(), false));
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
                        conduct.write(Conduct::Report {
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
