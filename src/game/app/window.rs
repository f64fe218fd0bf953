//! The game's window as the player left it: put back where it was (if still on a screen),
//! its size and place kept while windowed, and F11 between a window and the whole screen.

use bevy::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use bevy::window::MonitorSelection;
use bevy::window::{Monitor, PrimaryWindow, WindowMode, WindowPosition};

use crate::game::app::launch::WindowSize;
use crate::game::keyboard;
use crate::game::preferences::{Preferences, SettingsSystems};
use crate::game::schedule::AppSystems;
use crate::game::ui::settings::toggled;
use crate::settings::WindowPlacement;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            fullscreen_key.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
            place_window,
            gather_placement.in_set(SettingsSystems::Gather),
        )
            .chain()
            .after(AppSystems::UpdateHud),
    );
}

/// In a page: the page's canvas, filling the page (the browser's window is the player's).
#[cfg(target_arch = "wasm32")]
pub(crate) fn primary_window(_prefs: &Preferences, _size: Option<WindowSize>) -> Window {
    Window {
        title: "Qiguo — 七國象棋".into(),
        canvas: Some("#qiguo".into()),
        fit_canvas_to_parent: true,
        ..default()
    }
}

/// The game window as the player left it, or at `size` if the command line asks for one.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn primary_window(prefs: &Preferences, size: Option<WindowSize>) -> Window {
    let w = &prefs.settings.window;
    let (width, height) = size.map_or((w.width, w.height), |s| (s.width, s.height));
    Window {
        title: "Qiguo — 七國象棋".into(),
        resolution: (width, height).into(),
        mode: if w.fullscreen && size.is_none() {
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        } else {
            WindowMode::Windowed
        },
        ..default()
    }
}

/// The window's size, place and mode gathered into the settings as they change.
fn gather_placement(
    time: Res<Time>,
    mut prefs: ResMut<Preferences>,
    windows: Query<&Window, (With<PrimaryWindow>, Changed<Window>)>,
) {
    if let Ok(window) = windows.single() {
        let mut now = prefs.settings.clone();
        now.window = placement(window, &prefs.settings.window);
        prefs.gathered(now, time.elapsed_secs());
    }
}

/// F11 switches between a window and the whole screen.
fn fullscreen_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
) {
    if !keyboard::FULLSCREEN.just_pressed(&keys) {
        return;
    }
    if let Ok(mut window) = windows.single_mut() {
        window.mode = toggled(window.mode);
    }
}

/// Puts the window back where it was, once the monitors are known — but only if that place
/// is still on one of them (a monitor may have been unplugged since).
fn place_window(
    mut prefs: ResMut<Preferences>,
    monitors: Query<&Monitor>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
) {
    if prefs.placed || monitors.is_empty() {
        return;
    }
    prefs.placed = true;
    let Some(at) = prefs.settings.window.position.map(IVec2::from) else {
        return;
    };
    let on_screen = monitors.iter().any(|m| on_monitor(at, m));
    if let Ok(mut window) = windows.single_mut() {
        if on_screen {
            window.position = WindowPosition::At(at);
        } else {
            info!("the window's last place ({at}) is off every screen: placing it afresh");
        }
    }
}

/// Whether a window's top-left corner at `at` leaves its title bar on monitor `m`.
fn on_monitor(at: IVec2, m: &Monitor) -> bool {
    let min = m.physical_position;
    let size = IVec2::new(m.physical_width as i32, m.physical_height as i32);
    // At least a title bar's worth of the window on the screen.
    let margin = IVec2::new(120, 40);
    at.cmpge(min - IVec2::new(0, 0)).all() && at.cmple(min + size - margin).all()
}

/// The window's placement: its size and place while windowed (kept from before while
/// fullscreen), and whether it is fullscreen.
pub(crate) fn placement(window: &Window, before: &WindowPlacement) -> WindowPlacement {
    let fullscreen = !matches!(window.mode, WindowMode::Windowed);
    if fullscreen {
        return WindowPlacement {
            fullscreen,
            ..before.clone()
        };
    }
    WindowPlacement {
        width: window.resolution.width().round() as u32,
        height: window.resolution.height().round() as u32,
        position: match window.position {
            WindowPosition::At(at) => Some(at.into()),
            _ => before.position,
        },
        fullscreen,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_placed_only_on_a_screen() {
        let m = Monitor {
            name: None,
            physical_height: 1080,
            physical_width: 1920,
            physical_position: IVec2::new(0, 0),
            refresh_rate_millihertz: None,
            scale_factor: 1.0,
            video_modes: Vec::new(),
        };
        assert!(on_monitor(IVec2::new(100, 100), &m));
        assert!(!on_monitor(IVec2::new(-1800, 100), &m));
        assert!(
            !on_monitor(IVec2::new(1900, 100), &m),
            "only a sliver would show"
        );
        assert_eq!(
            toggled(WindowMode::Windowed),
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        );
        assert_eq!(toggled(toggled(WindowMode::Windowed)), WindowMode::Windowed);
    }
}
