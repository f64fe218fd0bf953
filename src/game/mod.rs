//! The Bevy game, one plugin per concern. [`logic_plugins`] hold the game's state and
//! behaviour and run headless (tests drive them with messages); [`view_plugins`] add
//! rendering, picking, the camera and the HUD.

pub mod animation;
pub mod app;
pub mod awareness;
pub mod awareness_view;
pub mod board;
pub mod board_view;
pub mod camera;
pub mod computer;
pub mod cues;
pub mod framing;
pub mod handoff;
pub mod history;
pub mod hud;
pub mod icon;
pub mod input;
pub mod launch;
pub mod layout;
pub mod marker_view;
pub mod online;
pub mod palette;
pub mod perf;
pub mod preferences;
pub mod recap;
pub mod recap_view;
pub mod saving;
pub mod screenshot;
pub mod selection;
#[cfg(feature = "sound")]
pub mod sound;
pub mod state;
pub mod stone_view;
pub mod stones;
pub mod textures;

use bevy::prelude::*;

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
    app.add_plugins((
        state::plugin,
        board::plugin,
        stones::plugin,
        selection::plugin,
        animation::plugin,
        computer::plugin,
        saving::plugin,
        awareness::plugin,
        handoff::plugin,
        recap::plugin,
        cues::plugin,
        online::plugin,
    ));
}

/// Rendering, picking, the camera and the interface, on top of [`logic_plugins`].
pub fn view_plugins(app: &mut App) {
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((
        board_view::plugin,
        stone_view::plugin,
        marker_view::plugin,
        awareness_view::plugin,
        recap_view::plugin,
        camera::plugin,
        framing::plugin,
        input::plugin,
        history::plugin,
        hud::plugin,
        screenshot::plugin,
        perf::plugin,
        preferences::plugin,
        icon::plugin,
    ));
    #[cfg(feature = "sound")]
    app.add_plugins(sound::plugin);
}
