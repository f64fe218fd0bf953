//! How each kingdom's stones look: their colour, their ink, and the rim emblem that tells
//! kingdoms apart where colours are close (red and orange; blue, purple and black in dim
//! light); and the Emperor's yellow stone.

use qiguo_rules::{Edge, Kingdom};

use crate::canvas::Rgba;

/// The rim emblem of a kingdom's stones: a second cue besides colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emblem {
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
pub enum EmblemShape {
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
    pub fn shapes(self) -> Vec<EmblemShape> {
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
pub struct KingdomStyle {
    /// The stone's colour.
    pub stone: Rgba,
    /// The characters' and emblem's colour, contrasting with the stone.
    pub ink: Rgba,
    /// The rim emblem.
    pub emblem: Emblem,
}

/// The style of `kingdom`.
pub const fn style(kingdom: Kingdom) -> KingdomStyle {
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
pub const EMPEROR_STONE: Rgba = [236, 192, 36, 255];
/// The Emperor's ink.
pub const EMPEROR_INK: Rgba = [110, 20, 10, 255];

/// The same colour with another alpha (0–1).
pub fn with_alpha(c: Rgba, alpha: f32) -> Rgba {
    [
        c[0],
        c[1],
        c[2],
        (alpha.clamp(0.0, 1.0) * 255.0).round() as u8,
    ]
}

/// The relative luminance of an sRGB colour (0 black, 1 white), as WCAG defines it.
pub fn relative_luminance(c: Rgba) -> f32 {
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

/// Where `kingdom`'s home edge is tinted: a band along the board's rim, in board units from
/// the centre point (x east, y south) on a board whose edge lies `half` from it, as
/// `(x0, y0, x1, y1)`. Two kingdoms that share an edge share it half and half; Qin and Qi,
/// alone on theirs, leave its corners to their neighbours.
pub fn home_band(kingdom: Kingdom, half: f32) -> (f32, f32, f32, f32) {
    let band = 0.3;
    let gap = 0.08;
    let (lo, hi) = match kingdom {
        Kingdom::Qin => (-half + band + gap, half - band - gap),
        Kingdom::Chu | Kingdom::Yan => (-half, -gap),
        Kingdom::Han | Kingdom::Zhao => (gap, half),
        Kingdom::Qi => (gap, half - band - gap),
        Kingdom::Wei => (-half + band + gap, -gap),
    };
    match kingdom.edge() {
        Edge::West => (-half, lo, -half + band, hi),
        Edge::East => (half - band, lo, half, hi),
        Edge::South => (lo, half - band, hi, half),
        Edge::North => (lo, -half, hi, -half + band),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kingdom_has_its_own_emblem() {
        for (i, a) in Kingdom::ALL.iter().enumerate() {
            for b in &Kingdom::ALL[i + 1..] {
                assert_ne!(style(*a).emblem, style(*b).emblem, "{a} {b}");
            }
        }
    }
}
