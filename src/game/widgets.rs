//! What every egui window of the game shares, beneath the interface and the features that draw
//! windows of their own (lessons, online games): the order of the interface's drawing
//! ([`UiSystems`], which each feature joins with its windows), and the helpers for placing a
//! window among the panels.

use bevy::prelude::*;
use bevy_egui::egui;

/// The interface's drawing order in `EguiPrimaryContextPass`: panels first (they take room),
/// then cards over the board, then dialogs, then windows, then what reads back where they are.
/// Chained by the interface's plugin; a feature puts each of its windows in one.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum UiSystems {
    /// The look, fonts, palette and size, once per frame.
    Setup,
    /// The turn strip, the side panels, the toolbar and the status line.
    Panels,
    /// Cards over the board: the piece card, the rules, the move box, the lesson's card.
    Cards,
    /// Questions and reports about the game: the ally question, the game over, conceding.
    Dialogs,
    /// Windows opened from the toolbar: new game, files, welcome, lessons, online, settings.
    Windows,
    /// After everything is drawn: where the panels ended up, for the board's framing.
    Last,
}

/// The layout: the turn strip along the top, over the board; down the right side the Kingdoms
/// panel, the Moves panel and at the bottom the toolbar; the status line at the bottom left.
/// The board is framed in what is left.
pub(crate) const GAP: f32 = 8.0;

/// Where a panel was drawn last frame, in points (the panels are stacked from these).
/// A panel no longer drawn (a lesson's card once the lesson is left) has none.
pub(crate) fn panel_rect(ctx: &egui::Context, id: &str) -> Option<egui::Rect> {
    let id = egui::Id::new(id);
    ctx.memory(|memory| {
        let areas = memory.areas();
        let shown = [
            egui::Order::Middle,
            egui::Order::Foreground,
            egui::Order::Background,
        ]
        .into_iter()
        .any(|order| areas.is_visible(&egui::LayerId::new(order, id)));
        shown.then(|| memory.area_rect(id)).flatten()
    })
}

/// Where the right-hand column starts: below the turn strip.
pub(crate) fn column_top(ctx: &egui::Context) -> f32 {
    panel_rect(ctx, "turn strip").map_or(72.0, |r| r.max.y + GAP)
}

/// A window fixed in the middle of the screen, for forms and questions.
/// `id` keeps it the same window whatever language its title is in.
pub(crate) fn centred_dialog<'open>(id: &str, title: String) -> egui::Window<'open> {
    egui::Window::new(title)
        .id(egui::Id::new(id))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .resizable(false)
        .collapsible(false)
        // At once: a question must not wait for a fade (a slow machine draws few frames).
        .fade_in(false)
}
