//! The interface's size: as the window suits, and as the player chose (Ctrl+plus, Ctrl+minus,
//! Ctrl+0); the board is not affected.

use bevy::prelude::*;
use bevy_egui::EguiContexts;

use crate::game::preferences::{KeptSetting, Preferences};

/// The interface's size steps and bounds (Ctrl+plus, Ctrl+minus; Ctrl+0 resets).
const ZOOM_STEP: f32 = 1.1;
const ZOOM_RANGE: (f32, f32) = (0.6, 2.2);

/// The interface's zoom factor after `key` with Ctrl held, from `zoom`.
fn zoomed(zoom: f32, key: KeyCode) -> Option<f32> {
    use crate::game::keyboard::{ZOOM_IN, ZOOM_OUT, ZOOM_RESET};
    // The keypad's keys do the same as the bound ones.
    let z = match key {
        k if k == ZOOM_IN.code || k == KeyCode::NumpadAdd => zoom * ZOOM_STEP,
        k if k == ZOOM_OUT.code || k == KeyCode::NumpadSubtract => zoom / ZOOM_STEP,
        k if k == ZOOM_RESET.code || k == KeyCode::Numpad0 => 1.0,
        _ => return None,
    };
    Some(z.clamp(ZOOM_RANGE.0, ZOOM_RANGE.1))
}

impl KeptSetting for InterfaceZoom {
    fn apply(&mut self, prefs: &Preferences) {
        self.chosen = prefs.settings.ui_scale;
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.ui_scale = self.chosen;
    }
}

/// The interface's size as the player chose it (Ctrl+plus, Ctrl+minus, Ctrl+0), on top of the
/// size the window suits.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub(crate) struct InterfaceZoom {
    /// The player's factor (1 unless changed).
    pub(crate) chosen: f32,
}

impl Default for InterfaceZoom {
    fn default() -> InterfaceZoom {
        InterfaceZoom { chosen: 1.0 }
    }
}

/// The interface's size for a window of `width`×`height` logical pixels: 1 up to 1280×720,
/// growing more slowly than the window beyond (1.28 at 1920×1080, 1.52 at 2560×1440), so text
/// stays legible on large windows without crowding the board.
fn window_zoom(width: f32, height: f32) -> f32 {
    (width / 1280.0)
        .min(height / 720.0)
        .max(1.0)
        .powf(0.6)
        .min(1.6)
}

/// Ctrl+plus and Ctrl+minus make the interface larger or smaller, Ctrl+0 resets it; the board is
/// not affected. The size also follows the window's (or the image's, with `--offscreen`).
pub(super) fn zoom_keys(
    mut contexts: EguiContexts,
    keys: Res<ButtonInput<KeyCode>>,
    cameras: Query<&Camera, With<Camera3d>>,
    mut zoom: ResMut<InterfaceZoom>,
) -> Result {
    if crate::game::keyboard::command_held(&keys) {
        for key in keys.get_just_pressed() {
            if let Some(chosen) = zoomed(zoom.chosen, *key) {
                zoom.chosen = chosen;
            }
        }
    }
    let base = cameras
        .iter()
        .next()
        .and_then(Camera::logical_target_size)
        .map_or(1.0, |size| window_zoom(size.x, size.y));
    let ctx = contexts.ctx_mut()?;
    let wanted = zoom.chosen * base;
    if (ctx.zoom_factor() - wanted).abs() > 1e-4 {
        ctx.set_zoom_factor(wanted);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interface_zooms_in_steps_within_bounds() {
        assert_eq!(zoomed(1.0, KeyCode::Equal), Some(1.1));
        assert_eq!(zoomed(1.1, KeyCode::Minus), Some(1.0));
        assert_eq!(zoomed(1.7, KeyCode::Digit0), Some(1.0));
        assert_eq!(zoomed(2.2, KeyCode::NumpadAdd), Some(2.2));
        assert_eq!(zoomed(0.6, KeyCode::Minus), Some(0.6));
        assert_eq!(zoomed(1.0, KeyCode::KeyA), None);
    }

    #[test]
    fn large_windows_get_a_larger_interface() {
        assert_eq!(window_zoom(1024.0, 768.0), 1.0);
        assert_eq!(window_zoom(1280.0, 720.0), 1.0);
        assert!((window_zoom(1920.0, 1080.0) - 1.275).abs() < 0.01);
        assert!((window_zoom(2560.0, 1440.0) - 1.516).abs() < 0.01);
        // A wide but short window is sized by its height.
        assert_eq!(window_zoom(3000.0, 700.0), 1.0);
        assert_eq!(window_zoom(7680.0, 4320.0), 1.6);
    }
}
