//! Colours of the kingdoms, their stones' ink, and the rim emblem that tells kingdoms apart
//! where colours are close (red and orange; blue, purple and black in dim light).

use bevy::prelude::*;
use qiguo_rules::Kingdom;

use crate::game::art::textures::Rgba;
use crate::game::preferences::{KeptSetting, Preferences};
pub(crate) use crate::settings::PaletteChoice;

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

/// The rim emblem of a kingdom's stones: a second cue besides colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Emblem {
    /// Eight dots around the rim (Qin).
    Dots,
    /// A solid band (Chu).
    Band,
    /// Sixteen short radial ticks (Han).
    Ticks,
    /// Two thin rings (Qi).
    DoubleRing,
    /// Four diamonds at the quarters (Wei).
    Diamonds,
    /// A dashed ring of eight dashes (Zhao).
    Dashes,
    /// A zigzag (Yan).
    Zigzag,
}

/// One primitive of an emblem, in face coordinates: the stone's centre at the origin, its rim
/// at radius 1, +y towards the bottom of the character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum EmblemShape {
    /// A filled disc.
    Disc {
        /// Centre.
        at: [f32; 2],
        /// Radius.
        r: f32,
    },
    /// A ring around the centre.
    Ring {
        /// Radius of the ring's middle.
        r: f32,
        /// Width.
        width: f32,
    },
    /// A line segment with round ends.
    Segment {
        /// One end.
        a: [f32; 2],
        /// The other end.
        b: [f32; 2],
        /// Width.
        width: f32,
    },
    /// A filled diamond (a square on its corner).
    Diamond {
        /// Centre.
        at: [f32; 2],
        /// Distance from the centre to a corner.
        size: f32,
    },
}

impl Emblem {
    /// The shapes that draw this emblem in the band between 80% and 97% of the radius.
    pub(crate) fn shapes(self) -> Vec<EmblemShape> {
        use std::f32::consts::TAU;
        let at = |angle: f32, radius: f32| [radius * angle.cos(), radius * angle.sin()];
        let r = 0.885;
        match self {
            Emblem::Dots => (0..8)
                .map(|i| EmblemShape::Disc {
                    at: at(i as f32 * TAU / 8.0, r),
                    r: 0.045,
                })
                .collect(),
            Emblem::Band => vec![EmblemShape::Ring { r, width: 0.09 }],
            Emblem::Ticks => (0..16)
                .map(|i| {
                    let a = i as f32 * TAU / 16.0;
                    EmblemShape::Segment {
                        a: at(a, 0.82),
                        b: at(a, 0.95),
                        width: 0.03,
                    }
                })
                .collect(),
            Emblem::DoubleRing => vec![
                EmblemShape::Ring {
                    r: 0.835,
                    width: 0.025,
                },
                EmblemShape::Ring {
                    r: 0.935,
                    width: 0.025,
                },
            ],
            Emblem::Diamonds => (0..4)
                .map(|i| EmblemShape::Diamond {
                    at: at(i as f32 * TAU / 4.0 + TAU / 8.0, r),
                    size: 0.075,
                })
                .collect(),
            Emblem::Dashes => (0..8)
                .flat_map(|i| {
                    let a = i as f32 * TAU / 8.0;
                    (0..6).map(move |k| EmblemShape::Segment {
                        a: at(a - 0.2 + 0.4 * k as f32 / 6.0, r),
                        b: at(a - 0.2 + 0.4 * (k + 1) as f32 / 6.0, r),
                        width: 0.04,
                    })
                })
                .collect(),
            Emblem::Zigzag => (0..28)
                .map(|i| {
                    let (r0, r1) = if i % 2 == 0 {
                        (0.82, 0.95)
                    } else {
                        (0.95, 0.82)
                    };
                    EmblemShape::Segment {
                        a: at(i as f32 * TAU / 28.0, r0),
                        b: at((i + 1) as f32 * TAU / 28.0, r1),
                        width: 0.025,
                    }
                })
                .collect(),
        }
    }
}

/// How one kingdom looks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KingdomStyle {
    /// The stone's colour.
    pub(crate) stone: Rgba,
    /// The characters' and emblem's colour, contrasting with the stone.
    pub(crate) ink: Rgba,
    /// The rim emblem.
    pub(crate) emblem: Emblem,
}

/// The style of `kingdom`.
pub(crate) const fn style(kingdom: Kingdom) -> KingdomStyle {
    match kingdom {
        Kingdom::Qin => KingdomStyle {
            stone: [236, 231, 218, 255],
            ink: [10, 10, 12, 255],
            emblem: Emblem::Dots,
        },
        Kingdom::Chu => KingdomStyle {
            stone: [178, 34, 40, 255],
            ink: [255, 240, 214, 255],
            emblem: Emblem::Band,
        },
        Kingdom::Han => KingdomStyle {
            stone: [238, 140, 30, 255],
            ink: [48, 24, 6, 255],
            emblem: Emblem::Ticks,
        },
        Kingdom::Qi => KingdomStyle {
            stone: [36, 88, 190, 255],
            ink: [250, 250, 255, 255],
            emblem: Emblem::DoubleRing,
        },
        Kingdom::Wei => KingdomStyle {
            stone: [34, 122, 54, 255],
            ink: [250, 255, 245, 255],
            emblem: Emblem::Diamonds,
        },
        Kingdom::Zhao => KingdomStyle {
            stone: [126, 62, 170, 255],
            ink: [255, 250, 255, 255],
            emblem: Emblem::Dashes,
        },
        Kingdom::Yan => KingdomStyle {
            stone: [30, 30, 34, 255],
            ink: [240, 226, 190, 255],
            emblem: Emblem::Zigzag,
        },
    }
}

/// The Emperor's stone: imperial yellow with dark red ink.
pub(crate) const EMPEROR_STONE: Rgba = [236, 192, 36, 255];
/// The Emperor's ink.
pub(crate) const EMPEROR_INK: Rgba = [110, 20, 10, 255];

/// The same colour with another alpha (0–1).
pub(crate) fn with_alpha(c: Rgba, alpha: f32) -> Rgba {
    [
        c[0],
        c[1],
        c[2],
        (alpha.clamp(0.0, 1.0) * 255.0).round() as u8,
    ]
}

/// The relative luminance of an sRGB colour (0 black, 1 white), as WCAG defines it.
pub(crate) fn relative_luminance(c: Rgba) -> f32 {
    let lin = |v: u8| {
        let c = v as f32 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn every_kingdom_has_its_own_emblem() {
        for (i, a) in Kingdom::ALL.iter().enumerate() {
            for b in &Kingdom::ALL[i + 1..] {
                assert_ne!(style(*a).emblem, style(*b).emblem, "{a} {b}");
            }
        }
    }
}
