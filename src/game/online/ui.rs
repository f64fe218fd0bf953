//! The *Online…* window: the server (the window's own, for players on this network, or one
//! elsewhere), *My games* (those waiting for your move first), a new online game with the
//! board's rules and seating, joining with a code, watching; the question when someone asks to
//! take moves back; how the Kingdoms panel shows an online game and its seats.

use bevy::ecs::system::{SystemId, SystemState};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, RichText};
use qiguo_protocol::DEFAULT_PORT;

use super::shared::{Online, OnlineCommand, OnlineRequested, Status};
use crate::game::widgets::{UiSystems, WithinTheScreen, centred_dialog};
use crate::i18n::Tr;
use crate::tr;

/// The *Online…* window's frame and its server section; each concern adds its own.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineForm>()
        .init_resource::<OnlineSections>()
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            online_window
                .run_if(|f: Res<OnlineForm>| f.open)
                .in_set(UiSystems::Windows),
        )
        .add_online_section(SectionOrder::Server, server_section);
}

/// A section of the *Online…* window: a system that draws into the window's `Ui`.
pub(crate) type Section = SystemId<InMut<'static, egui::Ui>>;

/// Where a section goes in the *Online…* window, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SectionOrder {
    /// Connecting (while offline) and the player's keys.
    Connect,
    /// The server, leaving it, notifications.
    Server,
    /// *Play now*.
    Play,
    /// The lobby and its tables.
    Lobby,
    /// My games in progress.
    Games,
    /// My finished games.
    Finished,
    /// The ratings.
    Ratings,
    /// The server's puzzles.
    Puzzles,
    /// Clubs.
    Clubs,
    /// Club evenings.
    Evenings,
    /// Tournaments.
    Tournaments,
    /// Holidays.
    Holidays,
    /// E-mail.
    Mail,
    /// A new online game.
    NewGame,
    /// Joining or watching with a code.
    Code,
}

/// The sections of the *Online…* window, in their order; each concern's plugin adds its own.
#[derive(Resource, Default)]
pub(crate) struct OnlineSections(Vec<(SectionOrder, Section)>);

/// Adding a section to the *Online…* window.
pub(crate) trait OnlineSectionApp {
    /// Draws `section` in the window at `order`, once a frame while the window is open.
    fn add_online_section<M>(
        &mut self,
        order: SectionOrder,
        section: impl IntoSystem<InMut<'static, egui::Ui>, (), M> + 'static,
    ) -> &mut Self;
}

impl OnlineSectionApp for App {
    fn add_online_section<M>(
        &mut self,
        order: SectionOrder,
        section: impl IntoSystem<InMut<'static, egui::Ui>, (), M> + 'static,
    ) -> &mut Self {
        let id = self.world_mut().register_system(section);
        let mut sections = self.world_mut().get_resource_or_init::<OnlineSections>();
        sections.0.push((order, id));
        sections.0.sort_by_key(|(order, _)| *order);
        self
    }
}

/// What the *Online…* window holds while open.
#[derive(Resource, Debug, Clone)]
pub(crate) struct OnlineForm {
    /// The window is open.
    pub(crate) open: bool,
    /// The window's own server (else one elsewhere).
    pub(super) own: bool,
    /// The own server may be reached from other machines on this network.
    pub(super) lan: bool,
    /// The own server's port, as typed.
    pub(super) port: String,
    /// The other server's address, as typed.
    pub(super) url: String,
    /// Plain `ws://` to the other server allowed: the player trusts the network between.
    pub(super) plain_trusted: bool,
    /// The player's name.
    pub(super) name: String,
    /// Why the last request could not be made.
    pub(super) error: Option<String>,
    /// The server of an invitation being followed, while the player chooses their name.
    pub(super) invited: Option<String>,
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
            error: None,
            invited: None,
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

/// The *Online…* window: its frame, and each section drawn in its order.
pub(super) fn online_window(world: &mut World, contexts: &mut SystemState<EguiContexts>) {
    let ctx = match contexts.get_mut(world) {
        Ok(mut contexts) => match contexts.ctx_mut() {
            Ok(ctx) => ctx.clone(),
            Err(_) => return,
        },
        Err(_) => return,
    };
    let tr = *world.resource::<Tr>();
    let sections: Vec<Section> = world
        .resource::<OnlineSections>()
        .0
        .iter()
        .map(|(_, id)| *id)
        .collect();
    let mut open = true;
    centred_dialog("online", tr.text("online-title"))
        .open(&mut open)
        .default_width(600.0)
        .max_width(640.0)
        // Taller than a small window once connected: it scrolls inside the screen.
        .vscroll(true)
        .show_within_screen(&ctx, |ui| {
            for section in sections {
                if let Err(e) = world.run_system_with(section, ui) {
                    warn!("an Online section was not drawn: {e}");
                }
            }
            if let Some(error) = &world.resource::<OnlineForm>().error {
                ui.colored_label(Color32::from_rgb(255, 120, 90), error);
            }
        });
    if !open {
        world.resource_mut::<OnlineForm>().open = false;
    }
}

/// The server and how the connection stands; leaving the game or the server; notifications.
fn server_section(
    InMut(ui): InMut<egui::Ui>,
    online: Res<Online>,
    mut requests: MessageWriter<OnlineRequested>,
    mut commands: MessageWriter<OnlineCommand>,
    tr: Res<Tr>,
) {
    if !online.in_touch() {
        return;
    }
    let tr = *tr;
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
}

/// The server's address and how the connection stands.
/// The server and how the connection stands, in a line.
pub(crate) fn server_line(ui: &mut egui::Ui, tr: Tr, online: &Online) {
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
