//! The Bevy game, one plugin per concern. [`logic_plugins`] hold the game's state and
//! behaviour and run headless (tests drive them with messages); [`view_plugins`] add
//! rendering, picking, the camera and the HUD.

pub mod animation;
pub mod board;
pub mod board_view;
pub mod camera;
pub mod computer;
pub mod history;
pub mod hud;
pub mod input;
pub mod layout;
pub mod marker_view;
pub mod palette;
pub mod perf;
pub mod saving;
pub mod screenshot;
pub mod selection;
pub mod state;
pub mod stone_view;
pub mod stones;
pub mod textures;

use std::process::ExitCode;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy::render::settings::{RenderCreation, WgpuSettings};

use crate::cli::Launch;
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
    app.add_plugins((
        state::plugin,
        board::plugin,
        stones::plugin,
        selection::plugin,
        animation::plugin,
        computer::plugin,
        saving::plugin,
    ));
}

/// Rendering, picking, the camera and the interface, on top of [`logic_plugins`].
pub fn view_plugins(app: &mut App) {
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((
        board_view::plugin,
        stone_view::plugin,
        marker_view::plugin,
        camera::plugin,
        input::plugin,
        history::plugin,
        hud::plugin,
        screenshot::plugin,
        perf::plugin,
    ));
}

/// Opens the game window and runs until it is closed (or the screenshot is saved).
pub fn run(launch: Launch) -> ExitCode {
    let _ = perf::PROCESS_START.set(std::time::Instant::now());
    if let Err(message) = check_display() {
        eprintln!("qiguo: {message}");
        return ExitCode::from(1);
    }
    // A failure deep in the engine ends the game with one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown failure".to_owned());
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("qiguo: the game stopped after an internal error: {what}{at}");
    }));
    let mut app = App::new();
    // A failed command (say, on an entity despawned the same frame) is logged, not fatal.
    app.set_error_handler(bevy::ecs::error::warn);
    let mut plugins = DefaultPlugins.build();
    if launch.bench_frames.is_some() {
        // Timing the main world alone: the render world runs after it rather than alongside.
        plugins = plugins.disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>();
    }
    app.add_plugins(
        plugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Qiguo — 七國象棋".into(),
                    resolution: (1280, 720).into(),
                    ..default()
                }),
                ..default()
            })
            .set(bevy::render::RenderPlugin {
                // For a screenshot, draw nothing until every pipeline is ready.
                synchronous_pipeline_compilation: launch.screenshot.is_some(),
                // `--no-render` (benchmarks only): every system but no graphics device.
                render_creation: RenderCreation::Automatic(Box::new(WgpuSettings {
                    backends: if launch.no_render {
                        None
                    } else {
                        WgpuSettings::default().backends
                    },
                    ..default()
                })),
                ..default()
            }),
    );
    app.insert_resource(Match::from_game(
        launch.game.clone(),
        launch.players.clone(),
    ));

    app.insert_resource(camera::ViewSettings {
        initial: launch.view,
        ..default()
    });
    if let Some(path) = launch.screenshot.clone() {
        app.insert_resource(screenshot::ScreenshotRequest { path });
        // The picture shows the position asked for: computer players wait.
        app.insert_resource(computer::ComputerSettings {
            enabled: false,
            ..default()
        });
    }
    if let Some(frames) = launch.bench_frames {
        app.insert_resource(perf::BenchFrames { frames });
    }
    // Screenshots and benchmarks leave the player's saves alone.
    if launch.screenshot.is_none() && launch.bench_frames.is_none() {
        match crate::saves::SaveDir::locate() {
            Ok(dir) => {
                info!("saved games live in {}", dir.root().display());
                let mut store = saving::SaveStore::at(dir);
                store.offer_resume = launch.plain;
                app.insert_resource(store);
            }
            Err(e) => warn!("games will not be saved: {e}"),
        }
    }
    logic_plugins(&mut app);
    view_plugins(&mut app);
    run_main_world_on_one_thread(&mut app);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Runs every main-world schedule with the single-threaded executor.
///
/// The game's systems are many and small; dispatching each to the task pool costs more than
/// running it (on two cores, the multi-threaded executor measured 2.5 ms of CPU per frame, the
/// single-threaded one 1.3 ms). The render world, asset loading and background tasks keep their
/// own threads.
fn run_main_world_on_one_thread(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}

/// On Linux and the BSDs the window needs an X11 (or XWayland) display.
fn check_display() -> Result<(), String> {
    if cfg!(all(unix, not(target_os = "macos"))) && std::env::var_os("DISPLAY").is_none() {
        return Err(
            "no X11 display: the game needs a desktop session (DISPLAY is not set); \
             the tools moves, perft and replay work without one"
                .to_owned(),
        );
    }
    Ok(())
}
