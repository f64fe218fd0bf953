//! Starting the game: the checks before a window opens (a display), a one-line report of an
//! internal failure instead of a backtrace, Bevy's plugins and window, the save directory, the
//! game's plugins and the executor the main world runs on.

pub mod launch;
pub(crate) mod plugins;
pub(crate) mod window;

#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy::render::settings::{RenderCreation, WgpuSettings};
use qiguo_rules::PlayerInfo;

use crate::game::app::launch::Launch;
use crate::game::app::plugins::{logic_plugins, view_plugins};
use crate::game::preferences::Preferences;
use crate::game::state::Match;
#[cfg(not(target_arch = "wasm32"))]
use crate::game::tools::offscreen;
use crate::game::tools::{perf, screenshot};
use crate::game::{camera, computer, saving};

/// Opens the game window and runs until it is closed (or the screenshot is saved).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(launch: Launch) -> ExitCode {
    let _ = perf::PROCESS_START.set(bevy::platform::time::Instant::now());
    if launch.offscreen.is_none()
        && let Err(message) = check_display()
    {
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
    match game_app(launch).run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// The game's app, ready to run: Bevy's plugins and the window (on the desktop as the player
/// left it; in a page, the page's canvas), the player's preferences and saves, the first game,
/// and the game's plugins.
pub fn game_app(launch: Launch) -> App {
    // Screenshots and benchmarks neither depend on the player's settings nor change them.
    let mut preferences = if launch.screenshot.is_none() && launch.bench_frames.is_none() {
        Preferences::load(launch.language)
    } else {
        Preferences::session_only(launch.language)
    };
    // A game asked for on the command line is what the player chose: no welcome card.
    preferences.welcome_due &= launch.plain;
    let mut app = App::new();
    // A failed command (say, on an entity despawned the same frame) is logged, not fatal.
    app.set_error_handler(bevy::ecs::error::warn);
    let plugins = DefaultPlugins.build();
    // More of the log where it was asked for (a page's `?log=qiguo=debug`).
    let plugins = match &launch.log {
        Some(more) => plugins.set(bevy::log::LogPlugin {
            filter: format!("{},{more}", bevy::log::DEFAULT_FILTER),
            ..default()
        }),
        None => plugins,
    };
    // Timing the main world alone: the render world runs after it rather than alongside (a
    // page has no render thread to begin with).
    #[cfg(not(target_arch = "wasm32"))]
    let plugins = match launch.bench_frames {
        Some(_) => plugins.disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>(),
        None => plugins,
    };
    let plugins = plugins.set(WindowPlugin {
        primary_window: Some(window::primary_window(&preferences, launch.window)),
        ..default()
    });
    // `--offscreen`: no window at all; the camera draws into an image.
    #[cfg(not(target_arch = "wasm32"))]
    let plugins = match launch.offscreen {
        Some(_) => offscreen::without_window(plugins),
        None => plugins,
    };
    app.add_plugins(plugins.set(bevy::render::RenderPlugin {
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
    }));
    // The palette is needed when the stones and board are first drawn (at start-up).
    app.insert_resource(crate::game::art::palette::Palette::of(
        &preferences.settings,
    ));
    let tr = crate::i18n::Tr::new(preferences.language);
    app.insert_resource(tr);
    app.insert_resource(preferences);
    // The players are named in the interface's language: "Player 1", "玩家 1", ….
    let players = launch
        .levels
        .iter()
        .enumerate()
        .map(|(i, level)| PlayerInfo {
            name: crate::game::ui::dialogs::default_name(tr, i),
            computer: *level,
        })
        .collect();
    app.insert_resource(Match::from_game(launch.game.clone(), players));

    app.insert_resource(camera::ViewSettings {
        initial: launch.view,
        ..default()
    });
    if let Some(path) = launch.screenshot.clone() {
        app.insert_resource(screenshot::ScreenshotRequest { path, image: None });
        // The picture shows the position asked for: computer players wait.
        app.insert_resource(computer::ComputerSettings {
            enabled: false,
            ..default()
        });
    }
    if let Some(frames) = launch.bench_frames {
        app.insert_resource(perf::BenchFrames { frames });
        if launch.busy {
            app.insert_resource(perf::BusyScene);
        }
    }
    if launch.again {
        app.add_plugins(crate::game::tools::again::plugin);
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(size) = launch.offscreen {
        app.insert_resource(offscreen::Offscreen(size));
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
    if launch.report {
        crate::game::ui::open_report(&mut app);
    }
    if launch.practice {
        app.init_resource::<crate::game::practice::PracticeAtLaunch>();
    }
    if let Some(asked) = launch.puzzle {
        app.insert_resource(crate::game::practice::puzzles::PuzzleAtLaunch(asked));
    }
    // A frame when something changes; the benchmark and the screenshot draw every frame.
    if launch.screenshot.is_none() && launch.bench_frames.is_none() {
        crate::game::frames::draw_on_demand(&mut app);
    }
    if let Some(invitation) = launch.invitation {
        app.world_mut()
            .resource_mut::<crate::game::online::invite::Invited>()
            .follow(invitation);
    }
    run_main_world_on_one_thread(&mut app);
    app
}

/// Runs every main-world schedule with the single-threaded executor.
///
/// The game's systems are many and small; dispatching each to the task pool costs more than
/// running it (see `docs/performance.md`). The render world, asset loading and background tasks keep their
/// own threads.
pub fn run_main_world_on_one_thread(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}

/// The game cannot open its window.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// On Linux and the BSDs the window needs an X11 (or XWayland) display.
    #[error(
        "no X11 display: the game needs a desktop session (DISPLAY is not set); \
         the tools moves, perft, replay and bestmove work without one"
    )]
    NoDisplay,
}

#[cfg(not(target_arch = "wasm32"))]
fn check_display() -> Result<(), StartError> {
    if cfg!(all(unix, not(target_os = "macos"))) && std::env::var_os("DISPLAY").is_none() {
        return Err(StartError::NoDisplay);
    }
    Ok(())
}
