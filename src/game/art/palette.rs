//! Colours of the kingdoms, their stones' ink, and the rim emblem that tells kingdoms apart
//! where colours are close (red and orange; blue, purple and black in dim light).

use bevy::prelude::*;
use qiguo_rules::Kingdom;

use crate::game::preferences::{KeptSetting, Preferences};
pub(crate) use crate::settings::PaletteChoice;
#[cfg(test)]
use qiguo_picture::kingdoms::relative_luminance;
pub(crate) use qiguo_picture::kingdoms::{EmblemShape, KingdomStyle, style, with_alpha};

/// How the board and stones are painted (settings): the kingdoms' colours, for everything
/// drawn in them (stones, the board's home edges, the arrows of the last moves, the interface),
/// whether the board is drawn for contrast, and whether the stones' characters are larger.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Palette {
    /// The kingdoms' colours.
    pub(crate) colours: PaletteChoice,
    /// A plain pale board with a black grid, outlined stones and full-strength interface text.
    pub(crate) high_contrast: bool,
    /// The stones' characters filling their faces.
    pub(crate) large_characters: bool,
}

impl KeptSetting for Palette {
    fn apply(&mut self, prefs: &Preferences) {
        *self = Palette::of(&prefs.settings);
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.palette = self.colours;
        settings.high_contrast = self.high_contrast;
        settings.large_characters = self.large_characters;
    }
}

impl Palette {
    /// The painting the settings ask for.
    pub(crate) fn of(settings: &crate::settings::Settings) -> Palette {
        Palette {
            colours: settings.palette,
            high_contrast: settings.high_contrast,
            large_characters: settings.large_characters,
        }
    }

    /// How `kingdom` looks in this palette.
    pub(crate) const fn style(self, kingdom: Kingdom) -> KingdomStyle {
        style_in(self.colours, kingdom)
    }
}

/// A run condition: the player has just chosen another palette (not the first frame).
pub(crate) fn palette_changed(palette: Res<Palette>) -> bool {
    palette.is_changed() && !palette.is_added()
}

/// How `kingdom` looks in palette `choice`.
pub(crate) const fn style_in(choice: PaletteChoice, kingdom: Kingdom) -> KingdomStyle {
    match choice {
        PaletteChoice::Standard => style(kingdom),
        PaletteChoice::ColourBlind => colour_blind_style(kingdom),
    }
}

/// The palette for red–green colour blindness: the same emblems, colours chosen to stay far
/// apart (at least 33 CIELAB units for every pair) under simulated protanopia and deuteranopia,
/// and still recognisably red, amber, blue, green, orchid, ivory and black. The traditional
/// colours come as close as 6 (Qi and Zhao, protanopia) and 13 (Chu and Wei, deuteranopia).
const fn colour_blind_style(kingdom: Kingdom) -> KingdomStyle {
    let (stone, ink) = match kingdom {
        Kingdom::Qin => ([236, 231, 218, 255], [10, 10, 12, 255]),
        Kingdom::Chu => ([187, 53, 5, 255], [255, 244, 228, 255]),
        Kingdom::Han => ([255, 197, 7, 255], [48, 24, 6, 255]),
        Kingdom::Qi => ([3, 26, 204, 255], [250, 250, 255, 255]),
        Kingdom::Wei => ([56, 120, 100, 255], [250, 255, 245, 255]),
        Kingdom::Zhao => ([225, 105, 226, 255], [30, 10, 36, 255]),
        Kingdom::Yan => ([30, 30, 34, 255], [240, 226, 190, 255]),
    };
    KingdomStyle {
        stone,
        ink,
        emblem: style(kingdom).emblem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_picture::Rgba;

    #[test]
    fn ink_contrasts_with_every_stone() {
        for choice in [PaletteChoice::Standard, PaletteChoice::ColourBlind] {
            for k in Kingdom::ALL {
                let s = style_in(choice, k);
                let (a, b) = (relative_luminance(s.stone), relative_luminance(s.ink));
                let ratio = (a.max(b) + 0.05) / (a.min(b) + 0.05);
                assert!(ratio >= 4.5, "{choice:?} {k}: contrast {ratio:.1}");
            }
        }
    }

    fn linear(v: u8) -> f32 {
        let c = v as f32 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }

    /// Colour vision deficiencies of full severity, as linear-RGB matrices (Machado, Oliveira
    /// and Fernandes 2009).
    const NORMAL: [[f32; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    const PROTANOPIA: [[f32; 3]; 3] = [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ];
    const DEUTERANOPIA: [[f32; 3]; 3] = [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ];

    /// CIELAB (D65) of `c` as seen with vision `m`.
    fn seen(c: Rgba, m: [[f32; 3]; 3]) -> [f32; 3] {
        let l = [linear(c[0]), linear(c[1]), linear(c[2])];
        let rgb = m.map(|row| (row[0] * l[0] + row[1] * l[1] + row[2] * l[2]).clamp(0.0, 1.0));
        let [r, g, b] = rgb;
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f32| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        let (fx, fy, fz) = (f(x), f(y), f(z));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// The two kingdoms whose stones look most alike with vision `m`, and how far apart.
    fn closest(choice: PaletteChoice, m: [[f32; 3]; 3]) -> (f32, Kingdom, Kingdom) {
        let mut worst = (f32::MAX, Kingdom::Qin, Kingdom::Qin);
        for (i, &a) in Kingdom::ALL.iter().enumerate() {
            for &b in &Kingdom::ALL[i + 1..] {
                let (p, q) = (
                    seen(style_in(choice, a).stone, m),
                    seen(style_in(choice, b).stone, m),
                );
                let d =
                    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
                if d < worst.0 {
                    worst = (d, a, b);
                }
            }
        }
        worst
    }

    /// Under simulated protanopia and deuteranopia the colour-blind palette keeps every pair
    /// of kingdoms far apart, where the traditional colours bring two together.
    #[test]
    fn the_colour_blind_palette_keeps_the_kingdoms_apart() {
        for (name, m) in [
            ("normal", NORMAL),
            ("protanopia", PROTANOPIA),
            ("deuteranopia", DEUTERANOPIA),
        ] {
            let (d, a, b) = closest(PaletteChoice::ColourBlind, m);
            assert!(d >= 30.0, "{name}: {a} and {b} only {d:.1} apart");
        }
        let (d, a, b) = closest(PaletteChoice::Standard, PROTANOPIA);
        assert!(
            d < 10.0,
            "the traditional colours under protanopia: {a} {b} {d:.1}"
        );
        let (d, _, _) = closest(PaletteChoice::Standard, DEUTERANOPIA);
        assert!(
            d < 15.0,
            "the traditional colours under deuteranopia: {d:.1}"
        );
    }
}
