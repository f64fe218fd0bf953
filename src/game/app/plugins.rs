//! The game's plugins, in two groups: what runs headless and what draws.

use bevy::prelude::*;

use crate::game::{
    art, awareness, board, camera, computer, frames, hint, input, lessons, online, pace, practice,
    preferences, recap, review, saving, schedule, selection, sound, state, stones, telling, tools,
    ui,
};

/// The game's state and behaviour, without rendering: `Match`, the rules system, board and
/// stone entities, selection, animation and computer players. Needs `StatesPlugin`, a task
/// pool and a `Match` resource.
pub fn logic_plugins(app: &mut App) {
    app.add_plugins(schedule::plugin);
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
    app.add_plugins((review::plugin, practice::plugin));
}

/// Rendering, picking, the camera and the interface, on top of [`logic_plugins`].
pub fn view_plugins(app: &mut App) {
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((
        frames::view_plugin,
        hint::view::plugin,
        lessons::view::plugin,
        lessons::ui::plugin,
        practice::view::plugin,
        practice::ui::plugin,
        online::view_plugin,
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
        super::window::plugin,
        art::icon::plugin,
    ));
    #[cfg(feature = "sound")]
    app.add_plugins(sound::player::plugin);
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(tools::offscreen::plugin);
}
