//! The game's icon, drawn by the same code as the stones: an ivory stone with 七 ("seven") in
//! vermilion, a ring, and the seven kingdoms' colours around the rim. The window shows it, and
//! `qiguo icon` writes it as a PNG for desktop menus.

use std::f32::consts::TAU;

use bevy::ecs::system::NonSendMarker;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use qiguo_rules::Kingdom;

use crate::game::art::palette::style;
use crate::game::art::textures::{Canvas, Rgba, kai};

/// The stone's colour.
const STONE: Rgba = [242, 230, 204, 255];
/// The rim's shade, towards which the stone darkens at its edge.
const SHADE: Rgba = [170, 146, 110, 255];
/// The ink of the character and ring.
const INK: Rgba = [164, 30, 22, 255];
/// The size of the window's icon, in pixels.
const WINDOW_ICON_SIZE: u32 = 64;

/// The icon as `size`×`size` RGBA pixels with straight alpha (transparent around the stone).
pub(crate) fn icon_pixels(size: u32) -> Vec<u8> {
    let n = size.max(16) as usize;
    let mid = n as f32 / 2.0;
    let r = mid * 0.96;
    // Everything is drawn opaque, then the stone's outline becomes the alpha channel, so the
    // antialiased edge keeps the stone's colour instead of fading through black.
    let mut c = Canvas::new(n, SHADE);
    // A lens: the stone lightens from its rim to its face.
    for step in 0..8 {
        let t = step as f32 / 7.0;
        let colour = mix(SHADE, STONE, t.sqrt());
        c.disc(mid, mid - r * 0.02 * t, r * (1.0 - 0.11 * t), colour);
    }
    // The seven kingdoms around the rim, each in its stone's colour with a dark edge.
    for (i, k) in Kingdom::ALL.into_iter().enumerate() {
        let angle = -TAU / 4.0 + i as f32 * TAU / 7.0;
        let (x, y) = (mid + r * 0.80 * angle.cos(), mid + r * 0.80 * angle.sin());
        c.disc(x, y, r * 0.105, [60, 44, 30, 255]);
        c.disc(x, y, r * 0.085, style(k).stone);
    }
    c.ring(mid, mid, r * 0.64, (r * 0.035).max(1.0), INK);
    let bold = (n as f32 / 96.0).max(0.6);
    c.text_column(&kai(), "七", (mid, mid), r * 0.98, bold, INK);
    let mut pixels = Vec::with_capacity(n * n * 4);
    for y in 0..n {
        for x in 0..n {
            let d = ((x as f32 + 0.5 - mid).powi(2) + (y as f32 + 0.5 - mid).powi(2)).sqrt() - r;
            let [red, green, blue, _] = c.get(x, y);
            let alpha = (0.5 - d).clamp(0.0, 1.0);
            pixels.extend_from_slice(&[red, green, blue, (alpha * 255.0).round() as u8]);
        }
    }
    pixels
}

fn mix(a: Rgba, b: Rgba, t: f32) -> Rgba {
    let m = |i: usize| (a[i] as f32 + (b[i] as f32 - a[i] as f32) * t).round() as u8;
    [m(0), m(1), m(2), 255]
}

/// The icon as a PNG file's bytes.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn icon_png(size: u32) -> Vec<u8> {
    use image::ImageEncoder as _;
    let size = size.max(16);
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(
            &icon_pixels(size),
            size,
            size,
            image::ExtendedColorType::Rgba8,
        )
        .map(|()| bytes)
        .expect("encoding pixels into memory cannot fail")
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, set_window_icon);
}

/// Gives the game window its icon, once the window exists (winit's windows live on the main
/// thread only).
fn set_window_icon(
    _main_thread: NonSendMarker,
    windows: Query<Entity, With<PrimaryWindow>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    let Ok(entity) = windows.single() else {
        return;
    };
    bevy::winit::WINIT_WINDOWS.with_borrow(|winit| {
        let Some(window) = winit.get_window(entity) else {
            return;
        };
        *done = true;
        let size = WINDOW_ICON_SIZE;
        match winit::window::Icon::from_rgba(icon_pixels(size), size, size) {
            Ok(icon) => window.set_window_icon(Some(icon)),
            Err(e) => warn!("the window icon was refused: {e}"),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_icon_is_a_stone_with_the_seven_colours() {
        let size = 128u32;
        let px = icon_pixels(size);
        assert_eq!(px.len(), (size * size * 4) as usize);
        let at = |x: u32, y: u32| {
            let i = ((y * size + x) * 4) as usize;
            [px[i], px[i + 1], px[i + 2], px[i + 3]]
        };
        assert_eq!(at(0, 0)[3], 0, "transparent corners");
        assert_eq!(at(size - 1, size - 1)[3], 0);
        assert_eq!(at(size / 2, size / 2)[3], 255, "an opaque stone");
        // Ink in the middle (the character's stroke crosses the centre line).
        let inked = (size / 4..3 * size / 4).any(|x| {
            let [r, g, b, _] = at(x, size / 2);
            r > 120 && g < 80 && b < 80
        });
        assert!(inked, "the character 七 in vermilion");
        // Each kingdom's colour appears near its place on the rim.
        for (i, k) in Kingdom::ALL.into_iter().enumerate() {
            let angle = -TAU / 4.0 + i as f32 * TAU / 7.0;
            let (mid, r) = (size as f32 / 2.0, size as f32 / 2.0 * 0.96);
            let (x, y) = (mid + r * 0.80 * angle.cos(), mid + r * 0.80 * angle.sin());
            let [red, green, blue, _] = at(x as u32, y as u32);
            let want = style(k).stone;
            let close = (red as i32 - want[0] as i32).abs()
                + (green as i32 - want[1] as i32).abs()
                + (blue as i32 - want[2] as i32).abs();
            assert!(close < 60, "{k}: {:?} vs {want:?}", [red, green, blue]);
        }
    }

    #[test]
    fn the_icon_encodes_as_png() {
        let png = icon_png(48);
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let decoded = image::load_from_memory(&png).unwrap().into_rgba8();
        assert_eq!(decoded.dimensions(), (48, 48));
        assert_eq!(decoded.into_raw(), icon_pixels(48));
    }
}
