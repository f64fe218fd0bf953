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

/// Showing a centred dialog within the screen: its contents scroll when they are taller than the
/// room the screen leaves (a phone held sideways, or upright with its keyboard up), and on a
/// small screen the dialog stands above the sheet bar. When the screen changes size (the
/// keyboard rising) while a field of the dialog has the focus, the field is scrolled into view,
/// so that the player sees what they type. Where everything fits, the dialog is as egui shows it.
pub(crate) trait WithinTheScreen {
    /// Shows the window as [`egui::Window::show`] does, its contents scrolled where they do not
    /// fit.
    fn show_within_screen<R>(
        self,
        ctx: &egui::Context,
        contents: impl FnOnce(&mut egui::Ui) -> R,
    ) -> Option<egui::InnerResponse<Option<R>>>;
}

impl WithinTheScreen for egui::Window<'_> {
    fn show_within_screen<R>(
        self,
        ctx: &egui::Context,
        contents: impl FnOnce(&mut egui::Ui) -> R,
    ) -> Option<egui::InnerResponse<Option<R>>> {
        let screen = ctx.content_rect();
        let bar = panel_rect(ctx, SHEET_BAR).map_or(0.0, |bar| screen.max.y - bar.min.y + GAP);
        let room = (screen.height() - bar - DIALOG_CHROME).max(FINGER_TARGET);
        // Never wider than the screen: a row of buttons wraps instead (a phone held upright).
        let window = self.max_width(screen.width() - 2.0 * GAP - DIALOG_SIDES);
        let window = if bar > 0.0 {
            window.anchor(egui::Align2::CENTER_CENTER, [0.0, -bar / 2.0])
        } else {
            window
        };
        window.show(ctx, |ui| {
            take_the_keyboards_focus(ui);
            egui::ScrollArea::vertical()
                .max_height(room)
                .min_scrolled_height(room)
                .show(ui, |ui| {
                    let inner = contents(ui);
                    keep_the_focus_in_view(ui, screen.size());
                    inner
                })
                .inner
        })
    }
}

/// Where egui's memory keeps the pass on which a centred dialog was last shown (any of them).
fn dialog_shown_id() -> egui::Id {
    egui::Id::new("centred dialog shown on pass")
}

/// Where egui's memory keeps a Tab held back from the panels for a dialog ([`hold_tab_for_dialogs`]).
fn held_tab_id() -> egui::Id {
    egui::Id::new("tab held for a dialog")
}

/// The keyboard's way into a dialog, at the start of its contents: a dialog that appears while
/// a widget elsewhere has the focus (the player is using the keyboard: the button that opened
/// it, the move box) takes the focus to its first widget; a Tab pressed while nothing had the
/// focus, held back from the panels, is given here, so that the first Tab reaches the dialog
/// rather than the panels drawn before it. A player using a mouse or a finger, with nothing
/// focused, sees no focus move (and a phone raises no keyboard).
pub(crate) fn take_the_keyboards_focus(ui: &egui::Ui) {
    // A window's first frame measures it, its widgets neither seen nor focusable: it opens on
    // the next.
    if ui.is_sizing_pass() {
        return;
    }
    let pass = ui.ctx().cumulative_pass_nr();
    let shown = ui.id().with("shown on pass");
    let opened = ui.data_mut(|data| {
        let last = data.get_temp::<u64>(shown);
        data.insert_temp(shown, pass);
        data.insert_temp(dialog_shown_id(), pass);
        last.is_none_or(|last| last + 1 < pass)
    });
    let held = ui.data_mut(|data| data.remove_temp::<(u64, egui::FocusDirection)>(held_tab_id()));
    // (egui's memory and its responses are read one after the other: one lock at a time.)
    let focused = ui.memory(|memory| memory.focused());
    let elsewhere = focused.filter(|&id| {
        ui.ctx()
            .read_response(id)
            .is_none_or(|r| r.layer_id != ui.layer_id())
    });
    let moved = ui.memory_mut(|memory| {
        if let Some((at, direction)) = held
            && at == pass
        {
            memory.move_focus(direction);
            true
        } else if opened && let Some(focused) = elsewhere {
            memory.surrender_focus(focused);
            memory.move_focus(egui::FocusDirection::Next);
            true
        } else {
            false
        }
    });
    // The widget that takes the focus is drawn before it knows: drawn again at once.
    if moved {
        ui.ctx().request_repaint();
    }
}

/// Before the panels are drawn: a Tab (or Shift+Tab) pressed while nothing has the focus and a
/// centred dialog is showing is held back for the dialog, whose first widget then takes the
/// focus ([`take_the_keyboards_focus`]).
pub(crate) fn hold_tab_for_dialogs(ctx: &egui::Context) {
    let pass = ctx.cumulative_pass_nr();
    let dialog_showing = ctx
        .data(|data| data.get_temp::<u64>(dialog_shown_id()))
        .is_some_and(|shown| shown + 1 >= pass);
    if !dialog_showing || ctx.memory(|memory| memory.focused()).is_some() {
        return;
    }
    let direction = ctx.input(|input| {
        input.events.iter().find_map(|event| match event {
            egui::Event::Key {
                key: egui::Key::Tab,
                pressed: true,
                modifiers,
                ..
            } if !modifiers.any() => Some(egui::FocusDirection::Next),
            egui::Event::Key {
                key: egui::Key::Tab,
                pressed: true,
                modifiers,
                ..
            } if modifiers.shift_only() => Some(egui::FocusDirection::Previous),
            _ => None,
        })
    });
    if let Some(direction) = direction {
        ctx.memory_mut(|memory| memory.move_focus(egui::FocusDirection::None));
        ctx.data_mut(|data| data.insert_temp(held_tab_id(), (pass, direction)));
    }
}

/// Within a dialog's scrolled contents, after they are laid out: when the screen's size is not
/// the one this dialog last saw and the widget with the focus is in this dialog, scrolls it into
/// view.
fn keep_the_focus_in_view(ui: &egui::Ui, screen: egui::Vec2) {
    let seen = ui.id().with("screen seen");
    let before = ui.data_mut(|data| {
        let before = data.get_temp::<egui::Vec2>(seen);
        data.insert_temp(seen, screen);
        before
    });
    if before.is_none_or(|before| before == screen) {
        return;
    }
    let focused = ui.memory(|memory| memory.focused());
    if let Some(field) = focused.and_then(|id| ui.ctx().read_response(id))
        && field.layer_id == ui.layer_id()
    {
        ui.scroll_to_rect(field.rect, None);
    }
}

/// What a widget that took the keyboard's focus is, in words for a screen reader: its label,
/// its kind, and its state (checked or not, chosen or not, its value, what a field holds),
/// from what egui says of it (`WidgetInfo`); `None` for what has nothing to say. Said by the
/// page's document (`web::reader`); in the window, egui gives a screen reader its widgets
/// through AccessKit itself.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn widget_told(info: &egui::WidgetInfo, tr: crate::i18n::Tr) -> Option<String> {
    use egui::WidgetType;
    // A field without a label of its own is named by its hint.
    let label = info
        .label
        .as_deref()
        .or(info.hint_text.as_deref())
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned);
    let kind = match info.typ {
        WidgetType::Button | WidgetType::ColorButton => "reader-kind-button",
        WidgetType::Checkbox => "reader-kind-checkbox",
        WidgetType::RadioButton | WidgetType::SelectableLabel => "reader-kind-option",
        WidgetType::TextEdit => "reader-kind-field",
        WidgetType::Slider | WidgetType::DragValue => "reader-kind-slider",
        WidgetType::ComboBox => "reader-kind-list",
        WidgetType::Link => "reader-kind-link",
        WidgetType::CollapsingHeader => "reader-kind-heading",
        _ => return label,
    };
    let checked = matches!(info.typ, WidgetType::Checkbox)
        .then_some(info.selected)
        .flatten();
    let chosen = !matches!(info.typ, WidgetType::Checkbox) && info.selected == Some(true);
    Some(control_words(
        tr,
        &label.unwrap_or_default(),
        kind,
        Control {
            checked,
            chosen,
            number: info.value,
            text: info.current_text_value.as_deref(),
        },
    ))
}

/// A control's state, as [`control_words`] says it.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) struct Control<'a> {
    /// A check box's state.
    pub(crate) checked: Option<bool>,
    /// An option or a list's entry that is the one chosen.
    pub(crate) chosen: bool,
    /// A slider's number.
    pub(crate) number: Option<f64>,
    /// What a field holds, or a list shows.
    pub(crate) text: Option<&'a str>,
}

/// A control in words for a screen reader: its name, its kind (`reader-kind-*`) and its state,
/// separated by commas ("High-contrast board, check box, checked"). Shared by what is said as
/// the keyboard reaches a widget and by the windows' text written into the page.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn control_words(tr: crate::i18n::Tr, name: &str, kind: &str, state: Control) -> String {
    let mut words = vec![name.trim().to_owned(), tr.text(kind)];
    match (state.checked, state.chosen) {
        (Some(true), _) => words.push(tr.text("reader-checked")),
        (Some(false), _) => words.push(tr.text("reader-unchecked")),
        (None, true) => words.push(tr.text("reader-chosen")),
        (None, false) => {}
    }
    if let Some(number) = state.number {
        words.push(format!("{}", (number * 100.0).round() / 100.0));
    }
    if let Some(text) = state.text.map(str::trim).filter(|t| !t.is_empty()) {
        words.push(text.to_owned());
    }
    words.retain(|w| !w.is_empty());
    words.join(", ")
}

/// The height of a dialog's title bar and margins, in points.
const DIALOG_CHROME: f32 = 64.0;

/// The width of a dialog's margins and frame on its two sides together, in points.
const DIALOG_SIDES: f32 = 16.0;

/// A screen narrower than this (in points) is a small one: a phone held upright.
pub(crate) const SMALL_WIDTH: f32 = 600.0;
/// A screen lower than this (in points) is a small one: a phone held sideways.
pub(crate) const SMALL_HEIGHT: f32 = 460.0;
/// The least height of a button a finger presses on a small screen (the platforms' 44 points).
pub(crate) const FINGER_TARGET: f32 = 44.0;
/// The id of the bar of sheets along a small screen's bottom.
pub(crate) const SHEET_BAR: &str = "sheet bar";

/// A panel that is a sheet on a small screen, opened from the sheet bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sheet {
    /// The kingdoms' standings.
    Kingdoms,
    /// An online game's table talk.
    Talk,
    /// The move list.
    Moves,
    /// The toolbar's buttons.
    Menu,
}

/// Whether the screen is small (a phone's), and which sheet is open on it. On a small screen
/// the board has the screen: the side panels and the toolbar are sheets that a thumb opens
/// from the bar at the bottom and closes again, one at a time.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub(crate) struct SmallScreen {
    /// The screen is small.
    pub(crate) on: bool,
    /// The sheet open, if any.
    pub(crate) open: Option<Sheet>,
}

impl SmallScreen {
    /// Whether the panel that is `sheet` on a small screen is drawn: always on a large one.
    pub(crate) fn shows(&self, sheet: Sheet) -> bool {
        !self.on || self.open == Some(sheet)
    }

    /// Opens `sheet`, or closes it if it is open.
    pub(crate) fn toggle(&mut self, sheet: Sheet) {
        self.open = if self.open == Some(sheet) {
            None
        } else {
            Some(sheet)
        };
    }

    /// How far above the screen's bottom a sheet stands: over the sheet bar.
    pub(crate) fn sheet_bottom(ctx: &egui::Context) -> f32 {
        let screen = ctx.content_rect();
        panel_rect(ctx, SHEET_BAR).map_or(FINGER_TARGET + 3.0 * GAP, |bar| {
            screen.max.y - bar.min.y + GAP
        })
    }

    /// The width of a sheet: the screen's, less the margins.
    pub(crate) fn sheet_width(ctx: &egui::Context) -> f32 {
        ctx.content_rect().width() - 2.0 * GAP
    }

    /// A sheet's frame: a window's, but opaque, for a sheet stands over the status line (whose
    /// words would show through a window's translucent fill).
    pub(crate) fn sheet_frame(style: &egui::Style) -> egui::Frame {
        egui::Frame::window(style).fill(style.visuals.window_fill.to_opaque())
    }

    /// A panel's window as a sheet on a small screen (the whole width, standing on the sheet
    /// bar, at most three fifths of the screen high, not folded, opaque); as it is on a large
    /// one.
    pub(crate) fn place<'a>(
        &self,
        ctx: &egui::Context,
        window: egui::Window<'a>,
    ) -> egui::Window<'a> {
        if !self.on {
            return window;
        }
        let width = SmallScreen::sheet_width(ctx);
        window
            .anchor(
                egui::Align2::CENTER_BOTTOM,
                [0.0, -SmallScreen::sheet_bottom(ctx)],
            )
            .min_width(width)
            .max_width(width)
            .max_height(ctx.content_rect().height() * 0.6)
            .collapsible(false)
            .frame(SmallScreen::sheet_frame(&ctx.global_style()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sheet bar along the bottom of a small `screen`, as the interface draws it.
    fn sheet_bar(ctx: &egui::Context, screen: egui::Vec2) {
        if screen.x < SMALL_WIDTH || screen.y < SMALL_HEIGHT {
            egui::Area::new(egui::Id::new(SHEET_BAR))
                .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -GAP])
                .show(ctx, |ui| {
                    ui.allocate_space(egui::vec2(screen.x - 2.0 * GAP, FINGER_TARGET));
                });
        }
    }

    /// The rectangle of a dialog of forty lines, and of the sheet bar, on a `screen` of points,
    /// shown `within` the screen or as egui shows it.
    fn tall_dialog(screen: egui::Vec2, within: bool) -> (egui::Rect, Option<egui::Rect>) {
        let ctx = egui::Context::default();
        let input = || egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, screen)),
            ..Default::default()
        };
        // Windows are measured in their first frames; the third is laid out as it stays.
        for _ in 0..3 {
            let mut output = ctx.run_ui(input(), |ui| {
                let ctx = ui.ctx().clone();
                sheet_bar(&ctx, screen);
                let window = centred_dialog("tall", "A tall dialog".into());
                let lines = |ui: &mut egui::Ui| {
                    for i in 0..40 {
                        ui.label(format!("line {i}"));
                    }
                };
                if within {
                    window.show_within_screen(&ctx, lines);
                } else {
                    window.show(&ctx, lines);
                }
            });
            // No painter takes the font atlas here.
            output.textures_delta.clear();
        }
        let dialog = panel_rect(&ctx, "tall").expect("drawn");
        (dialog, panel_rect(&ctx, SHEET_BAR))
    }

    #[test]
    fn a_tall_dialog_fits_a_short_screen_above_the_sheet_bar() {
        let sideways = egui::vec2(844.0, 390.0);
        let (dialog, bar) = tall_dialog(sideways, true);
        let bar = bar.expect("a short screen has the sheet bar");
        assert!(dialog.min.y >= 0.0, "{dialog:?} runs off the top");
        assert!(
            dialog.max.y <= bar.min.y,
            "{dialog:?} stands over the sheet bar {bar:?}"
        );
        // The same dialog as egui shows it is taller than the screen (or the test shows nothing).
        let (plain, _) = tall_dialog(sideways, false);
        assert!(plain.height() > sideways.y, "{plain:?}");
    }

    #[test]
    fn a_dialog_on_a_tall_screen_is_shown_whole() {
        let tall = egui::vec2(1280.0, 1400.0);
        let (within, _) = tall_dialog(tall, true);
        let (plain, _) = tall_dialog(tall, false);
        assert_eq!(within, plain);
        assert!(within.height() > 600.0, "{within:?}");
    }

    /// Six frames of a dialog with a text field between twenty-four lines and two more, shown
    /// within a `screen` of points over a sheet bar; the field has the focus. Returns the
    /// dialog's rectangle, the field's and the sheet bar's.
    fn dialog_with_a_field(ctx: &egui::Context, screen: egui::Vec2) -> [egui::Rect; 3] {
        let field = egui::Id::new("the name");
        for _ in 0..6 {
            // A second a frame, so that a scroll's animation ends by the next frame. An anchored
            // window is placed by its size in the frame before: it stands still by the fourth.
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, screen)),
                time: Some(ctx.input(|i| i.time) + 1.0),
                ..Default::default()
            };
            let mut output = ctx.run_ui(input, |ui| {
                let ctx = ui.ctx().clone();
                sheet_bar(&ctx, screen);
                centred_dialog("form", "A form".into()).show_within_screen(&ctx, |ui| {
                    for i in 0..24 {
                        ui.label(format!("line {i}"));
                    }
                    let mut name = String::from("Ada");
                    let response = ui.add(egui::TextEdit::singleline(&mut name).id(field));
                    if ctx.input(|i| i.time) < 1.5 {
                        response.request_focus();
                    }
                    for i in 0..2 {
                        ui.label(format!("after {i}"));
                    }
                });
            });
            output.textures_delta.clear();
        }
        let field = ctx.read_response(field).expect("the field is drawn").rect;
        let area = |id: &str| panel_rect(ctx, id).expect("drawn");
        [area("form"), field, area(SHEET_BAR)]
    }

    #[test]
    fn the_field_being_typed_in_stays_in_view_when_the_keyboard_rises() {
        let ctx = egui::Context::default();
        // A phone upright: the form fits whole, with no scrolling.
        let [dialog, field, _] = dialog_with_a_field(&ctx, egui::vec2(390.0, 844.0));
        assert!(
            dialog.max.y < 844.0 && field.max.y < dialog.max.y,
            "{dialog:?} {field:?}"
        );
        // The keyboard takes the screen's lower part: the form is lower than the form, and the
        // field (below twenty-four lines) would be cut off were it not scrolled to.
        let [dialog, field, bar] = dialog_with_a_field(&ctx, egui::vec2(390.0, 500.0));
        assert!(dialog.min.y >= 0.0, "{dialog:?} runs off the top");
        assert!(
            dialog.max.y <= bar.min.y,
            "{dialog:?} over the sheet bar {bar:?}"
        );
        assert!(
            field.min.y >= dialog.min.y && field.max.y <= dialog.max.y,
            "the field {field:?} is outside the dialog {dialog:?}"
        );
        assert!(ctx.memory(|m| m.has_focus(egui::Id::new("the name"))));
    }

    /// A frame of a panel's button, then (if `dialog`) a centred dialog with two buttons, with
    /// `keys` pressed; returns the focused widget's id after it.
    fn frame_with_keys(
        ctx: &egui::Context,
        dialog: bool,
        keys: &[(egui::Key, egui::Modifiers)],
    ) -> Option<egui::Id> {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            events: keys
                .iter()
                .map(|&(key, modifiers)| egui::Event::Key {
                    key,
                    physical_key: None,
                    pressed: true,
                    repeat: false,
                    modifiers,
                })
                .collect(),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            let ctx = ui.ctx().clone();
            hold_tab_for_dialogs(&ctx);
            egui::Area::new(egui::Id::new("toolbar")).show(&ctx, |ui| {
                ui.add(egui::Button::new("Settings").sense(egui::Sense::click()))
                    .on_hover_text("panel");
                ui.push_id("panel button", |ui| ui.button("Learn"));
            });
            if dialog {
                centred_dialog("card", "A card".into()).show_within_screen(&ctx, |ui| {
                    ui.label("Some words first.");
                    ui.push_id("first", |ui| ui.button("Play"));
                    ui.push_id("second", |ui| ui.button("Learn"));
                });
            }
        });
        output.textures_delta.clear();
        ctx.memory(|memory| memory.focused())
    }

    /// The id egui gives a button pushed under `id` in the dialog's contents (found by focusing
    /// it through the frames: the first focused widget inside the card).
    fn in_dialog(ctx: &egui::Context, focused: Option<egui::Id>) -> bool {
        focused
            .and_then(|id| ctx.read_response(id))
            .is_some_and(|r| r.layer_id.id == egui::Id::new("card"))
    }

    /// With a dialog on the screen and nothing focused, the first Tab goes to the dialog's
    /// first widget (not to the panels drawn before it); the next to its second; a dialog that
    /// opens while a panel's widget has the focus takes it; with nothing focused (a mouse or a
    /// finger) a dialog's opening moves no focus.
    #[test]
    fn the_keyboard_reaches_a_dialog_first() {
        let tab = (egui::Key::Tab, egui::Modifiers::NONE);
        let ctx = egui::Context::default();
        for _ in 0..2 {
            assert_eq!(frame_with_keys(&ctx, true, &[]), None);
        }
        let first = frame_with_keys(&ctx, true, &[tab]);
        assert!(in_dialog(&ctx, first), "the first Tab went to {first:?}");
        let second = frame_with_keys(&ctx, true, &[tab]);
        assert!(in_dialog(&ctx, second) && second != first, "{second:?}");

        // Without the dialog, a Tab goes to the panel.
        let ctx = egui::Context::default();
        frame_with_keys(&ctx, false, &[]);
        let panel = frame_with_keys(&ctx, false, &[tab]);
        assert!(panel.is_some() && !in_dialog(&ctx, panel));
        // The dialog opens: measured in its first frame (the panel's button keeps the focus),
        // seen in the next, where it takes the focus.
        assert_eq!(frame_with_keys(&ctx, true, &[]), panel);
        let opened = frame_with_keys(&ctx, true, &[]);
        assert!(in_dialog(&ctx, opened), "{opened:?}");

        // Nothing focused: the dialog opens and nothing takes the focus.
        let ctx = egui::Context::default();
        frame_with_keys(&ctx, false, &[]);
        for _ in 0..3 {
            assert_eq!(frame_with_keys(&ctx, true, &[]), None);
        }
    }

    /// What a focused widget is, in words: a button by its label, a check box with its state,
    /// a slider with its value, a field with what it holds; a label says only itself.
    #[test]
    fn a_focused_widget_is_told_in_words() {
        use egui::{WidgetInfo, WidgetType};
        let tr = crate::i18n::Tr::default();
        let button = WidgetInfo::labeled(WidgetType::Button, true, "Concede Qin");
        assert_eq!(
            widget_told(&button, tr).as_deref(),
            Some("Concede Qin, button")
        );
        let checked = WidgetInfo::selected(WidgetType::Checkbox, true, true, "High-contrast board");
        assert_eq!(
            widget_told(&checked, tr).as_deref(),
            Some("High-contrast board, check box, checked")
        );
        let mut slider = WidgetInfo::new(WidgetType::Slider);
        slider.value = Some(0.7);
        slider.label = Some("Volume".into());
        assert_eq!(
            widget_told(&slider, tr).as_deref(),
            Some("Volume, slider, 0.7")
        );
        let field = WidgetInfo::text_edit(true, "", "Lin", "Your name");
        assert_eq!(
            widget_told(&field, tr).as_deref(),
            Some("Your name, field, Lin")
        );
        let label = WidgetInfo::labeled(WidgetType::Label, true, "Some words");
        assert_eq!(widget_told(&label, tr).as_deref(), Some("Some words"));
    }
}
