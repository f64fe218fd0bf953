//! The Bevy game, one plugin per concern. [`logic_plugins`] hold the game's state and
//! behaviour and run headless (tests drive them with messages); [`view_plugins`] add
//! rendering, picking, the camera and the HUD.

pub mod app;
pub(crate) mod art;
pub mod awareness;
pub(crate) mod board;
pub(crate) mod camera;
pub mod computer;
pub mod frames;
pub mod headless;
pub mod hint;
pub(crate) mod input;
pub(crate) mod keys;
pub mod layout;
pub mod lessons;
pub mod online;
pub mod pace;
pub(crate) mod preferences;
pub mod recap;
pub mod saving;
pub(crate) mod search;
pub mod selection;
pub mod sound;
pub mod state;
pub mod stones;
pub mod telling;
pub(crate) mod tools;
pub(crate) mod ui;
pub(crate) mod widgets;
pub(crate) mod wording;

use bevy::prelude::*;

#[cfg(not(target_arch = "wasm32"))]
pub use app::run;
pub use state::Match;

/// The order of the game's work within a frame, chained once: input becomes requests, the
/// rules system applies them to `Match`, entities follow `Match`, their meshes and materials
/// follow the entities, tweens move them, the HUD shows the result.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Pointer and keyboard input turned into requests.
    RecordInput,
    /// The rules system: the only place `Match` changes.
    ApplyRules,
    /// Entities brought in line with `Match`.
    SyncView,
    /// Meshes, materials and halos brought in line with the entities.
    Present,
    /// Tweens advanced; the turn handed on when a move has been shown.
    Animate,
    /// The interface redrawn from `Match`.
    UpdateHud,
}

/// The game's state and behaviour, without rendering: `Match`, the rules system, board and
/// stone entities, selection, animation and computer players. Needs `StatesPlugin`, a task
/// pool and a `Match` resource.
pub fn logic_plugins(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::RecordInput,
            AppSystems::ApplyRules,
            AppSystems::SyncView,
            AppSystems::Present,
            AppSystems::Animate,
            AppSystems::UpdateHud,
        )
            .chain(),
    );
    // The interface's language: English unless the app has put in the player's (see `run`).
    app.init_resource::<crate::i18n::Tr>();
    app.add_plugins(frames::plugin);
    app.add_plugins((
        state::plugin,
        stones::plugin,
        selection::plugin,
        stones::animation::plugin,
        computer::plugin,
        saving::plugin,
        awareness::plugin,
        awareness::handoff::plugin,
        recap::plugin,
        sound::plugin,
        online::plugin,
        pace::plugin,
        hint::plugin,
        lessons::plugin,
        telling::plugin,
    ));
}

/// Rendering, picking, the camera and the interface, on top of [`logic_plugins`].
pub fn view_plugins(app: &mut App) {
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((
        frames::view_plugin,
        hint::view::plugin,
        lessons::view::plugin,
        lessons::ui::plugin,
        online::ui::plugin,
    ));
    app.add_plugins((
        board::plugin,
        stones::view::plugin,
        selection::markers::plugin,
        awareness::view::plugin,
        recap::view::plugin,
        camera::plugin,
        camera::framing::plugin,
        input::plugin,
        input::history::plugin,
        ui::plugin,
        tools::screenshot::plugin,
        tools::perf::plugin,
        preferences::plugin,
        app::window::plugin,
        art::icon::plugin,
    ));
    #[cfg(feature = "sound")]
    app.add_plugins(sound::player::plugin);
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(tools::offscreen::plugin);
}
