//! The toolbar (new game, views, following the turn) and the status line: whose turn it is,
//! the last move in words, and brief messages when a click or move is refused.

use crate::game::frames::Redraw;
use crate::game::input::touch::Fingers;
use crate::game::widgets::{Sheet, SmallScreen};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_rules::Kingdom;

use crate::game::awareness::handoff::{BANNER_SECONDS, HandOff};
use crate::game::awareness::{Danger, Threats, ToggleThreats};
use crate::game::camera::View;
use crate::game::camera::framing::FreeArea;
use crate::game::camera::{ViewRequested, ViewSettings};
use crate::game::hint::{Hint, HintRequested};
use crate::game::lessons::ui::LessonsWindow;
use crate::game::online::ui::OnlineForm;
use crate::game::preferences::Preferences;
use crate::game::saving::SaveStore;
use crate::game::selection::ClickRefused;
use crate::game::sound::SoundSettings;
use crate::game::state::{Match, MoveRejected, Notice, TurnPhase};
use crate::game::ui::concede::ConcedeForm;
use crate::game::ui::describe::MoveDescription;
use crate::game::ui::dialogs::NewGameForm;
use crate::game::ui::files::FilesForm;
use crate::game::ui::help::RulesWindow;
use crate::game::ui::kit::{badge, board_area};
use crate::game::ui::welcome::Welcome;
use crate::game::widgets::{GAP, panel_rect};
use crate::i18n::Tr;
use crate::tr;

/// A short message shown for a moment (why a click did nothing, a game saved).
#[derive(Resource, Default, Debug, Clone)]
pub(crate) struct Toast {
    /// The message.
    pub(crate) text: String,
    /// When it disappears, in seconds of app time.
    pub(crate) until: f32,
    /// Whether it reports something refused or failed.
    pub(crate) error: bool,
}

impl Toast {
    /// How long the toast still shows at `now` (seconds of app time), if it shows.
    pub(crate) fn left(&self, now: f32) -> Option<std::time::Duration> {
        (now < self.until).then(|| std::time::Duration::from_secs_f32(self.until - now))
    }
}

/// Seconds a message stays.
const TOAST_SECONDS: f32 = 2.8;

/// What the status line says of a move the rules refused (`None` where the refusal shows
/// itself otherwise); the page's document says the same words.
pub(crate) fn rejected_words(rejected: &MoveRejected, tr: Tr) -> Option<String> {
    rejected.reason.is_shown().then(|| {
        tr!(
            tr,
            "toast-move-refused",
            mv = rejected.mv.to_string(),
            reason = rejected.reason.text(tr)
        )
    })
}

pub(super) fn collect_toasts(
    time: Res<Time>,
    mut refused: MessageReader<ClickRefused>,
    mut rejected: MessageReader<MoveRejected>,
    mut notices: MessageReader<Notice>,
    mut told: MessageReader<crate::game::telling::Told>,
    movebox: Res<super::movebox::MoveBox>,
    mut toast: ResMut<Toast>,
    tr: Res<Tr>,
    mut redraw: Redraw,
) {
    let tr = *tr;
    // What a question or the board's cursor is told: under the move box's field while the box
    // is open, else here.
    let told: Vec<String> = told.read().map(|t| t.0.clone()).collect();
    let told = told
        .into_iter()
        .filter(|_| !movebox.open)
        .map(|t| (t, false));
    let reasons = refused
        .read()
        .map(|r| (r.reason.text(tr), true))
        .chain(
            rejected
                .read()
                .filter_map(|r| rejected_words(r, tr))
                .map(|words| (words, true)),
        )
        .chain(notices.read().map(|n| (n.said.text(tr), n.error)))
        .chain(told);
    if let Some((text, error)) = reasons.last() {
        // Failures stay longer: they may name a file to look at.
        let seconds = if error {
            2.0 * TOAST_SECONDS
        } else {
            TOAST_SECONDS
        };
        *toast = Toast {
            text,
            until: time.elapsed_secs() + seconds,
            error,
        };
    }
    // A frame to take it away, asked again by every frame that still shows it: the alarm may
    // ring a little before the frame's clock says the time is up (a browser's timer), and a
    // toast that outlived its frame would stay on a board at rest until the next touch, and go
    // then, moving the board under the finger as the status line shrinks.
    if let Some(left) = toast.left(time.elapsed_secs()) {
        redraw.within(left);
    }
}

pub(super) fn toolbar(
    mut contexts: EguiContexts,
    mut form: ResMut<NewGameForm>,
    mut files: ResMut<FilesForm>,
    mut store: ResMut<SaveStore>,
    mut settings: ResMut<ViewSettings>,
    mut views: MessageWriter<ViewRequested>,
    threats: Res<Threats>,
    mut toggles: MessageWriter<ToggleThreats>,
    mut hand_off: ResMut<HandOff>,
    mut rules: ResMut<RulesWindow>,
    mut sound: ResMut<SoundSettings>,
    mut preferences: ResMut<Preferences>,
    mut network: ResMut<OnlineForm>,
    (hint, mut hints, mut concede, the_match): (
        Res<Hint>,
        MessageWriter<HintRequested>,
        ResMut<ConcedeForm>,
        Res<Match>,
    ),
    (mut lessons_window, mut welcome, mut small): (
        ResMut<LessonsWindow>,
        ResMut<Welcome>,
        ResMut<SmallScreen>,
    ),
    tr: Res<Tr>,
) -> Result {
    if !small.shows(Sheet::Menu) {
        return Ok(());
    }
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    // At the bottom right; on a small screen, the menu's sheet standing on the sheet bar.
    let (anchor, offset) = if small.on {
        (
            egui::Align2::CENTER_BOTTOM,
            [0.0, -SmallScreen::sheet_bottom(ctx)],
        )
    } else {
        (egui::Align2::RIGHT_BOTTOM, [-GAP, -GAP])
    };
    let width = SmallScreen::sheet_width(ctx);
    // Whether a button was pressed (not a box ticked nor the volume slid): on a small screen
    // the sheet then closes, to show the board or the window the button opened.
    let mut chose = false;
    egui::Area::new(egui::Id::new("toolbar"))
        .anchor(anchor, offset)
        .show(ctx, |ui| {
            let frame = if small.on {
                SmallScreen::sheet_frame(ui.style())
            } else {
                egui::Frame::window(ui.style())
            };
            frame.inner_margin(6.0).show(ui, |ui| {
                if small.on {
                    ui.set_width(width - 12.0);
                }
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .button(tr.text("menu-learn"))
                        .on_hover_text(tr.text("menu-learn-hint"))
                        .clicked()
                    {
                        lessons_window.open = !lessons_window.open;
                        chose = true;
                    }
                    if ui.button(tr.text("menu-new-game")).clicked() {
                        form.open = true;
                        chose = true;
                    }
                    let saving = store.dir.is_some();
                    let save = ui
                        .add_enabled(saving, egui::Button::new(tr.text("menu-save")))
                        .on_disabled_hover_text(tr.text("saving-off"));
                    if save.clicked() {
                        store.last_error = None;
                        store.refresh();
                        if files.save_name.is_empty() {
                            let when = crate::saves::format_time(crate::storage::SystemTime::now())
                                .replace(':', "h");
                            files.save_name = tr!(tr, "save-default-name", when = when);
                        }
                        files.save_open = true;
                        chose = true;
                    }
                    let load = ui
                        .add_enabled(saving, egui::Button::new(tr.text("menu-load")))
                        .on_disabled_hover_text(tr.text("saving-off"));
                    if load.clicked() {
                        store.last_error = None;
                        store.refresh();
                        files.load_open = true;
                        chose = true;
                    }
                    if ui
                        .button(tr.text("menu-share"))
                        .on_hover_text(tr.text("menu-share-hint"))
                        .clicked()
                    {
                        store.last_error = None;
                        files.share_open = true;
                        chose = true;
                    }
                    if ui
                        .button(tr.text("menu-rules"))
                        .on_hover_text(tr!(
                            tr,
                            "menu-rules-hint",
                            key = crate::game::keyboard::RULES.label()
                        ))
                        .clicked()
                    {
                        rules.open = !rules.open;
                        chose = true;
                    }
                    if ui
                        .add_enabled(
                            !hint.is_searching(),
                            egui::Button::new(tr.text("menu-hint")),
                        )
                        .on_hover_text(tr!(
                            tr,
                            "menu-hint-hint",
                            key = crate::game::keyboard::HINT.label()
                        ))
                        .clicked()
                    {
                        hints.write(HintRequested);
                        chose = true;
                    }
                    if ui
                        .button(tr.text("menu-concede"))
                        .on_hover_text(tr.text("menu-concede-hint"))
                        .clicked()
                    {
                        concede.open(&the_match);
                        chose = true;
                    }
                    if ui
                        .button(tr.text("menu-settings"))
                        .on_hover_text(tr.text("menu-settings-hint"))
                        .clicked()
                    {
                        preferences.open = !preferences.open;
                        chose = true;
                    }
                });
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(tr.text("view-label")).small());
                    for (i, kingdom) in Kingdom::ALL.into_iter().enumerate() {
                        let response = ui
                            .add(egui::Button::new(
                                RichText::new(kingdom.character().to_string()).size(15.0),
                            ))
                            .on_hover_text(tr!(
                                tr,
                                "view-from-behind",
                                kingdom = tr.kingdom(kingdom),
                                key = crate::game::keyboard::VIEWS[i].label()
                            ));
                        if response.clicked() {
                            views.write(ViewRequested(View::Kingdom(kingdom)));
                            chose = true;
                        }
                    }
                    if ui
                        .button(tr.text("view-top"))
                        .on_hover_text(tr!(
                            tr,
                            "view-top-hint",
                            key = crate::game::keyboard::VIEW_TOP.label()
                        ))
                        .clicked()
                    {
                        views.write(ViewRequested(View::Top));
                        chose = true;
                    }
                });
                ui.horizontal_wrapped(|ui| {
                    ui.checkbox(&mut settings.follow_turn, tr.text("follow-turn"));
                    let mut shown = threats.shown;
                    if ui
                        .checkbox(&mut shown, tr.text("toolbar-threats"))
                        .on_hover_text(tr!(
                            tr,
                            "threats-hint",
                            key = crate::game::keyboard::THREATS.label()
                        ))
                        .changed()
                    {
                        toggles.write(ToggleThreats);
                    }
                    let mut enabled = hand_off.enabled;
                    if ui
                        .checkbox(&mut enabled, tr.text("hand-off"))
                        .on_hover_text(tr.text("hand-off-hint"))
                        .changed()
                    {
                        hand_off.enabled = enabled;
                        hand_off.banner = None;
                    }
                });
                ui.horizontal_wrapped(|ui| {
                    ui.checkbox(&mut sound.muted, tr.text("sound-mute"))
                        .on_hover_text(tr!(
                            tr,
                            "mute-hint",
                            key = crate::game::keyboard::MUTE.label()
                        ));
                    ui.add_enabled(
                        !sound.muted,
                        egui::Slider::new(&mut sound.volume, 0.0..=1.0)
                            .show_value(false)
                            .text(tr.text("sound-volume")),
                    );
                    ui.separator();
                    if ui
                        .button(tr.text("menu-welcome"))
                        .on_hover_text(tr.text("menu-welcome-hint"))
                        .clicked()
                    {
                        welcome.open = true;
                        chose = true;
                    }
                    chose |= crate::game::online::ui::toolbar_button(ui, tr, &mut network);
                });
            });
        });
    if chose && small.on {
        small.open = None;
    }
    Ok(())
}

/// How often the computer's thinking mark moves on (a frame each time: egui's spinner would ask
/// for every frame the computer thinks).
const THINKING_STEP: std::time::Duration = std::time::Duration::from_millis(500);

/// Three dots lit one after another, a step every [`THINKING_STEP`].
fn thinking_mark(ui: &mut egui::Ui, elapsed: std::time::Duration) {
    let step = (elapsed.as_millis() / THINKING_STEP.as_millis()) % 3;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(26.0, 14.0), egui::Sense::hover());
    for dot in 0..3u8 {
        let colour = if u128::from(dot) == step {
            Color32::from_gray(235)
        } else {
            Color32::from_gray(110)
        };
        let centre = rect.left_center() + egui::vec2(4.0 + 9.0 * f32::from(dot), 0.0);
        ui.painter().circle_filled(centre, 3.0, colour);
    }
}

pub(super) fn status_line(
    mut contexts: EguiContexts,
    hint: Res<Hint>,
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    toast: Res<Toast>,
    time: Res<Time>,
    danger: Res<Danger>,
    small: Res<SmallScreen>,
    fingers: Option<Res<Fingers>>,
    tr: Res<Tr>,
    mut redraw: Redraw,
) -> Result {
    let tr = *tr;
    let ctx = contexts.ctx_mut()?;
    let pos = the_match.position();
    // The help speaks of what the player last used: fingers or the mouse and keys.
    let touching = fingers.is_some_and(|f| f.0);
    let game = the_match.game();
    // At the bottom left; on a small screen, over the sheet bar, as wide as the screen.
    let bottom = if small.on {
        SmallScreen::sheet_bottom(ctx)
    } else {
        8.0
    };
    egui::Area::new(egui::Id::new("status"))
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -bottom])
        .show(ctx, |ui| {
            egui::Frame::window(ui.style())
                .inner_margin(8.0)
                .show(ui, |ui| {
                    // Clear of the toolbar at the bottom right, whatever the window's width.
                    let room = if small.on {
                        SmallScreen::sheet_width(ui.ctx()) - 16.0
                    } else {
                        panel_rect(ui.ctx(), "toolbar")
                            .map_or(620.0, |t| t.min.x - 4.0 * GAP)
                            .clamp(240.0, 620.0)
                    };
                    ui.set_max_width(room);
                    if toast.left(time.elapsed_secs()).is_some() {
                        let colour = if toast.error {
                            Color32::from_rgb(255, 150, 120)
                        } else {
                            Color32::from_rgb(150, 230, 160)
                        };
                        ui.label(RichText::new(&toast.text).color(colour));
                    }
                    if hint.is_searching() {
                        ui.label(RichText::new(tr.text("hint-searching")).italics());
                    } else if let Some(shown) = hint.shown() {
                        ui.label(
                            RichText::new(tr!(
                                tr,
                                "hint-shown",
                                mv = shown.mv.to_string(),
                                reason = shown.reason.text(tr),
                                chance = shown.chance
                            ))
                            .strong()
                            .color(Color32::from_rgb(90, 235, 180)),
                        );
                    }
                    if let Some(report) = &danger.report {
                        ui.label(
                            RichText::new(report.sentence(tr))
                                .strong()
                                .color(Color32::from_rgb(255, 110, 90)),
                        );
                    }
                    if let Some(report) = game.last_report() {
                        ui.label(
                            RichText::new(MoveDescription::of(report).sentence(tr, game.len()))
                                .color(Color32::from_gray(200)),
                        );
                    }
                    ui.horizontal_wrapped(|ui| match (phase.get(), pos.outcome()) {
                        (_, Some(outcome)) => {
                            badge(ui, outcome.winner, 20.0, false);
                            ui.label(
                                RichText::new(tr!(
                                    tr,
                                    "status-won",
                                    kingdom = tr.kingdom(outcome.winner),
                                    how = tr.victory(outcome.victory)
                                ))
                                .strong(),
                            );
                        }
                        (TurnPhase::Reviewing, None) => {
                            ui.label(
                                RichText::new(tr!(tr, "status-reviewing", count = game.len()))
                                    .strong()
                                    .color(Color32::from_rgb(150, 200, 255)),
                            );
                            ui.label(
                                RichText::new(tr!(
                                    tr,
                                    "status-reviewing-keys",
                                    back = crate::game::keyboard::REVIEW_BACK.label(),
                                    forward = crate::game::keyboard::REVIEW_FORWARD.label(),
                                    first = crate::game::keyboard::REVIEW_FIRST.label(),
                                    live = crate::game::keyboard::REVIEW_LIVE.label(),
                                    escape = crate::game::keyboard::ESCAPE.label()
                                ))
                                .small()
                                .color(Color32::from_gray(150)),
                            );
                        }
                        (TurnPhase::Animating, None) => {
                            ui.label(RichText::new("…").color(Color32::from_gray(170)));
                        }
                        (TurnPhase::ComputerThinking, None) => {
                            let k = pos.to_move();
                            badge(ui, k, 20.0, false);
                            thinking_mark(ui, time.elapsed());
                            redraw.within(THINKING_STEP);
                            let level =
                                the_match.computer(k).map_or(String::new(), |l| tr.level(l));
                            ui.label(
                                RichText::new(tr!(
                                    tr,
                                    "status-thinking",
                                    ply = game.len() + 1,
                                    kingdom = tr.kingdom(k),
                                    level = level
                                ))
                                .strong(),
                            );
                        }
                        _ => {
                            let k = pos.to_move();
                            badge(ui, k, 20.0, false);
                            let who = the_match.player_name(k).unwrap_or("—");
                            ui.label(
                                RichText::new(tr!(
                                    tr,
                                    "status-to-move",
                                    ply = game.len() + 1,
                                    kingdom = tr.kingdom(k),
                                    player = who
                                ))
                                .strong(),
                            );
                            let help = if touching {
                                tr.text("status-touch")
                            } else {
                                tr!(
                                    tr,
                                    "status-mouse-keys",
                                    preview = crate::game::keyboard::PREVIEW_MODIFIER,
                                    typing = crate::game::keyboard::MOVE_BOX.label(),
                                    cursor = crate::game::keyboard::CURSOR.label()
                                )
                            };
                            ui.label(RichText::new(help).small().color(Color32::from_gray(150)));
                        }
                    });
                });
        });
    Ok(())
}

/// The hand-off banner over the board, a little above its middle, fading out.
pub(super) fn hand_off_banner(
    mut contexts: EguiContexts,
    hand_off: Res<HandOff>,
    time: Res<Time>,
    free: Res<FreeArea>,
    tr: Res<Tr>,
    mut redraw: Redraw,
) -> Result {
    let Some(banner) = &hand_off.banner else {
        return Ok(());
    };
    let age = time.elapsed_secs() - banner.since;
    if !(0.0..BANNER_SECONDS).contains(&age) {
        return Ok(());
    }
    // Frames while it shows and fades.
    redraw.now();
    // Full strength, then fading over the last half second.
    let strength = ((BANNER_SECONDS - age) / 0.5).clamp(0.0, 1.0);
    let alpha = |a: f32| (a * strength * 255.0) as u8;
    let ctx = contexts.ctx_mut()?;
    let board = board_area(ctx, &free);
    let offset =
        board.center() - ctx.content_rect().center() - egui::vec2(0.0, board.height() / 5.0);
    egui::Area::new(egui::Id::new("hand-off"))
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_CENTER, offset)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(Color32::from_black_alpha(alpha(0.78)))
                .corner_radius(10.0)
                .inner_margin(egui::Margin::symmetric(28, 14))
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        badge(ui, banner.kingdom, 34.0, strength < 0.5);
                        ui.add_space(8.0);
                        ui.label(
                            RichText::new(banner.text(*tr))
                                .size(28.0)
                                .strong()
                                .color(Color32::from_white_alpha(alpha(1.0))),
                        );
                    });
                });
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::frames::FramesAsked;
    use std::time::Duration;

    /// A frame that comes while a toast still shows (an alarm that rang a little early) asks
    /// for the frame that takes it away; once it is gone, nothing is asked.
    #[test]
    fn a_toast_asks_for_its_end_until_it_is_gone() {
        let mut app = App::new();
        app.add_plugins(crate::game::frames::plugin)
            .init_resource::<Time>()
            .init_resource::<Time<bevy::time::Real>>()
            .init_resource::<Toast>()
            .insert_resource(super::super::movebox::MoveBox::default())
            .insert_resource(Tr::new(crate::settings::Language::English))
            .add_message::<ClickRefused>()
            .add_message::<MoveRejected>()
            .add_message::<Notice>()
            .add_message::<crate::game::telling::Told>()
            .add_systems(Update, collect_toasts);
        let later = |app: &App| app.world().resource::<FramesAsked>().later;
        app.update();
        assert_eq!(later(&app), 0, "no toast, no frame asked for");
        app.world_mut().write_message(Notice {
            said: crate::game::state::Said::Words("The game is saved.".into()),
            error: false,
        });
        app.update();
        assert_eq!(later(&app), 1, "a frame for the toast's end");
        // The alarm rings a millisecond early: the toast still shows, and asks again.
        app.world_mut()
            .resource_mut::<Time>()
            .advance_by(Duration::from_secs_f32(TOAST_SECONDS - 0.001));
        app.update();
        assert_eq!(later(&app), 2, "the rest of the wait asked for");
        app.world_mut()
            .resource_mut::<Time>()
            .advance_by(Duration::from_millis(2));
        app.update();
        app.update();
        assert_eq!(later(&app), 2, "nothing asked once the toast is gone");
    }

    #[test]
    fn messages_start_with_a_capital() {
        // The toasts show messages as they are written: every refusal starts as a sentence
        // does (or with a kingdom's name) in every language with capitals.
        for language in [
            crate::settings::Language::English,
            crate::settings::Language::Swedish,
        ] {
            let tr = crate::i18n::Tr::new(language);
            use crate::game::state::BoardRefusal;
            for reason in [
                BoardRefusal::Animating,
                BoardRefusal::GameOver,
                BoardRefusal::Reviewing,
                BoardRefusal::Emperor,
            ] {
                let text = reason.text(tr);
                assert!(text.starts_with(char::is_uppercase), "{text}");
            }
        }
    }
}
