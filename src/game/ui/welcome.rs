//! The welcome card of the first evening: play now with people (in a page a Qiguo server
//! served), learn the pieces, play against the computer, play together at this screen, or
//! online. It opens on the first launch (after the offer to resume
//! a game, if there is one), stays away once a choice is made, and comes back from the
//! toolbar.

use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_ai::Level;
use qiguo_rules::Kingdom;

use crate::game::lessons::LessonCommand;
use crate::game::lessons::ui::LessonsWindow;
use crate::game::online::OnlineRequested;
use crate::game::online::quick::PlayNow;
use crate::game::online::ui::OnlineForm;
use crate::game::preferences::{KeptSetting, Preferences};
use crate::game::state::{Dialog, NewGameRequested};
use crate::game::ui::dialogs::{NewGameForm, SeatingKind};
use crate::game::widgets::WithinTheScreen;
use crate::i18n::Tr;
use crate::tr;

impl KeptSetting for Welcome {
    fn apply(&mut self, prefs: &Preferences) {
        self.open = prefs.welcome_due;
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.welcomed |= self.chosen;
    }
}

/// Whether the welcome card is shown: asked for, and no other question first.
pub(super) fn card_due(welcome: Res<Welcome>, dialog: Res<State<Dialog>>) -> bool {
    welcome.open && *dialog.get() == Dialog::None
}

/// The welcome card's state.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub(crate) struct Welcome {
    /// Whether the card is shown.
    pub(crate) open: bool,
    /// Whether a choice was made on it (kept in the settings: the card does not open again).
    pub(crate) chosen: bool,
    /// The computers' level for *Play against the computer*.
    pub(crate) level: Level,
    /// Why the name typed for *Play now* cannot be used, once tried.
    name_refused: Option<String>,
}

impl Default for Welcome {
    fn default() -> Welcome {
        Welcome {
            open: false,
            chosen: false,
            level: Level::Easy,
            name_refused: None,
        }
    }
}

/// What the player chose on the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// Play now with people on the server that served the page.
    PlayNow,
    Learn,
    AgainstComputers,
    Together,
    Online,
}

/// The width of the card's choice buttons, in points.
const CHOICE_WIDTH: f32 = 330.0;

/// One of the card's choices: a large button with a line under it saying what it does.
fn choice(ui: &mut egui::Ui, title: String, line: String) -> bool {
    let clicked = ui
        .add_sized(
            [CHOICE_WIDTH, 34.0],
            egui::Button::new(RichText::new(title).size(17.0).strong()),
        )
        .clicked();
    ui.label(RichText::new(line).small().color(Color32::from_gray(185)));
    ui.add_space(8.0);
    clicked
}

#[allow(clippy::too_many_arguments)]
pub(super) fn welcome_card(
    mut contexts: EguiContexts,
    mut welcome: ResMut<Welcome>,
    mut form: ResMut<NewGameForm>,
    mut network: ResMut<OnlineForm>,
    mut play_now: ResMut<PlayNow>,
    mut lessons_window: ResMut<LessonsWindow>,
    mut lessons: MessageWriter<LessonCommand>,
    mut games: MessageWriter<NewGameRequested>,
    mut requests: MessageWriter<OnlineRequested>,
    tr: Res<Tr>,
) -> Result {
    // The offer to resume the last game comes first.
    let tr = *tr;
    let home = crate::game::online::link::home_server();
    let name_refused = welcome.name_refused.clone();
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut chosen = None;
    // Never taller than the screen: on a phone held sideways the card scrolls.
    crate::game::widgets::centred_dialog("Welcome", tr.text("welcome-title"))
        .open(&mut open)
        .show_within_screen(ctx, |ui| {
            ui.set_max_width(CHOICE_WIDTH + 20.0);
            ui.label(tr.text("welcome-intro"));
            ui.add_space(10.0);
            // A page served by a Qiguo server: people to play with, one click away.
            if home.is_some() {
                if choice(
                    ui,
                    tr.text("welcome-play-now"),
                    tr.text("welcome-play-now-line"),
                ) {
                    chosen = Some(Choice::PlayNow);
                }
                ui.horizontal(|ui| {
                    let label = ui.label(RichText::new(tr.text("join-name")).small());
                    ui.add(
                        egui::TextEdit::singleline(network.name_mut())
                            // Said with the field when the keyboard reaches it.
                            .hint_text(tr.text("join-name"))
                            .char_limit(qiguo_protocol::MAX_NAME_CHARS)
                            .desired_width(160.0),
                    )
                    .labelled_by(label.id);
                });
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(tr.text("welcome-pace")).small());
                    for pace in qiguo_protocol::QuickPace::ALL {
                        ui.selectable_value(
                            play_now.pace_mut(),
                            pace,
                            crate::game::online::quick::pace_words(tr, pace).0,
                        )
                        .on_hover_text(crate::game::online::quick::pace_words(tr, pace).1);
                    }
                });
                if let Some(why) = &name_refused {
                    ui.colored_label(Color32::from_rgb(255, 120, 90), why);
                }
                ui.add_space(10.0);
            }
            if choice(ui, tr.text("welcome-learn"), tr.text("welcome-learn-line")) {
                chosen = Some(Choice::Learn);
            }
            if choice(
                ui,
                tr.text("welcome-computers"),
                tr!(
                    tr,
                    "welcome-computers-line",
                    kingdom = tr.kingdom(Kingdom::Qin)
                ),
            ) {
                chosen = Some(Choice::AgainstComputers);
            }
            ui.horizontal(|ui| {
                ui.label(RichText::new(tr.text("welcome-level")).small());
                for level in [Level::Easy, Level::Medium, Level::Hard] {
                    ui.selectable_value(&mut welcome.level, level, tr.level(level));
                }
            });
            ui.add_space(10.0);
            if choice(
                ui,
                tr.text("welcome-together"),
                tr.text("welcome-together-line"),
            ) {
                chosen = Some(Choice::Together);
            }
            if choice(
                ui,
                tr.text("welcome-online"),
                tr.text("welcome-online-line"),
            ) {
                chosen = Some(Choice::Online);
            }
            ui.add_space(6.0);
            ui.separator();
            ui.label(
                RichText::new(tr.text("welcome-later"))
                    .small()
                    .color(Color32::from_gray(160)),
            );
        });
    if chosen == Some(Choice::PlayNow) {
        match (home, qiguo_protocol::clean_name(network.name())) {
            (Some(url), Ok(name)) => {
                play_now.once_connected();
                requests.write(OnlineRequested::Remote {
                    url,
                    name,
                    insecure_lan: false,
                });
            }
            (_, Err(refusal)) => {
                // The card stays open, saying why.
                welcome.name_refused = Some(match refusal {
                    qiguo_protocol::Refusal::NameEmpty => tr.text("join-need-name"),
                    other => crate::game::online::words::refusal_words(tr, &other, ""),
                });
                return Ok(());
            }
            (None, _) => {}
        }
    }
    if let Some(choice) = chosen {
        match choice {
            Choice::PlayNow => {}
            Choice::Learn => {
                lessons.write(LessonCommand::Open(0));
                lessons_window.open = false;
            }
            Choice::AgainstComputers => {
                form.seating = SeatingKind::Seven;
                form.controllers = (0..7).map(|i| (i > 0).then_some(welcome.level)).collect();
                match form.start(tr) {
                    Ok((start, players)) => {
                        games.write(NewGameRequested::new(start, players));
                    }
                    Err(e) => error!("seven players always make a game: {e}"),
                }
            }
            Choice::Together => form.open = true,
            Choice::Online => network.open = true,
        }
        welcome.open = false;
        welcome.chosen = true;
    } else if !open {
        // Closed without a choice: that is a choice too, not to be asked again.
        welcome.open = false;
        welcome.chosen = true;
    }
    Ok(())
}
