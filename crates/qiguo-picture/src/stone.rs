//! A stone's face seen from above: its kingdom's colour, the engraved ring, the rim emblem and
//! its characters in kaishu; and the Emperor's yellow stone. The game's stones carry these
//! faces as textures; the pictures of a position draw them small.

use qiguo_rules::{Piece, PieceKind};

use crate::canvas::{Canvas, Face, Rgba};
use crate::kingdoms::{
    EMPEROR_INK, EMPEROR_STONE, Emblem, EmblemShape, KingdomStyle, relative_luminance,
};

/// How a face is drawn beyond its kingdom's colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaceLook {
    /// Outlined in black (a light stone on a pale board), with bolder strokes.
    pub high_contrast: bool,
    /// Characters filling the face (the ring's room taken).
    pub large_characters: bool,
}

/// A stone's characters: the General bears its kingdom's name.
pub fn stone_characters(piece: Piece) -> String {
    match piece.kind {
        PieceKind::General => piece.kingdom.character().to_string(),
        kind => kind.characters().to_string(),
    }
}

/// A stone's face, `size` pixels square, on its colour to the corners (the caller rounds it):
/// the engraved ring, the rim emblem and the characters, bolder when dark ink sits on a light
/// stone (it reads thinner) and for high contrast.
pub fn stone_face(
    face: &Face,
    piece: Piece,
    style: KingdomStyle,
    look: FaceLook,
    size: usize,
) -> Canvas {
    let mut c = Canvas::new(size, style.stone);
    // The strokes and the ring were made for a face 256 pixels across.
    let k = size as f32 / 256.0;
    let mid = size as f32 / 2.0;
    if look.high_contrast {
        c.ring(mid, mid, mid * 0.975, mid * 0.07, [0, 0, 0, 255]);
    }
    if !look.large_characters {
        c.ring(mid, mid, mid * 0.76, 3.0 * k, style.ink);
    }
    draw_emblem(&mut c, style.emblem, style.ink);
    let text = stone_characters(piece);
    let two = text.chars().count() > 1;
    let height = mid
        * match (two, look.large_characters) {
            (true, false) => 0.66,
            (false, false) => 1.08,
            (true, true) => 0.88,
            (false, true) => 1.36,
        };
    let bold = k
        * (if relative_luminance(style.stone) > 0.5 {
            4.6
        } else {
            3.2
        } + if look.high_contrast { 1.2 } else { 0.0 });
    c.text_column(face, &text, (mid, mid), height, bold, style.ink);
    c
}

/// The Emperor's face, `size` pixels square: 周 in dark red on imperial yellow, three rings.
pub fn emperor_face(face: &Face, size: usize) -> Canvas {
    let mut c = Canvas::new(size, EMPEROR_STONE);
    let k = size as f32 / 256.0;
    let mid = size as f32 / 2.0;
    c.ring(mid, mid, mid * 0.76, 3.0 * k, EMPEROR_INK);
    c.ring(mid, mid, mid * 0.86, 4.0 * k, EMPEROR_INK);
    c.ring(mid, mid, mid * 0.93, 2.0 * k, EMPEROR_INK);
    c.text_column(face, "周", (mid, mid), mid * 1.08, 3.2 * k, EMPEROR_INK);
    c
}

/// Draws a rim emblem on a face.
pub fn draw_emblem(c: &mut Canvas, emblem: Emblem, ink: Rgba) {
    let mid = c.size() as f32 / 2.0;
    let px = |p: [f32; 2]| (mid + p[0] * mid, mid + p[1] * mid);
    for shape in emblem.shapes() {
        match shape {
            EmblemShape::Disc { at, r } => {
                let (x, y) = px(at);
                c.disc(x, y, r * mid, ink);
            }
            EmblemShape::Ring { r, width } => c.ring(mid, mid, r * mid, width * mid, ink),
            EmblemShape::Segment { a, b, width } => c.segment(px(a), px(b), width * mid, ink),
            EmblemShape::Diamond { at, size } => {
                let ((x, y), size) = (px(at), size * mid);
                c.fill_sdf(
                    (
                        x - size - 1.0,
                        y - size - 1.0,
                        x + size + 1.0,
                        y + size + 1.0,
                    ),
                    ink,
                    |px, py| ((px - x).abs() + (py - y).abs()) - size,
                );
            }
        }
    }
}

/// `face` cut round: the pixels outside the disc of its size made transparent, the edge
/// antialiased, with a thin dark rim so that a stone stands out from a board of its colour.
pub fn round(face: Canvas, rim: Rgba) -> Canvas {
    let size = face.size();
    let mid = size as f32 / 2.0;
    let mut out = Canvas::new(size, [0, 0, 0, 0]);
    out.disc(mid, mid, mid - 0.5, rim);
    let inner = mid - (size as f32 / 40.0).max(1.0);
    for y in 0..size {
        for x in 0..size {
            let d = ((x as f32 + 0.5 - mid).powi(2) + (y as f32 + 0.5 - mid).powi(2)).sqrt();
            let coverage = (inner + 0.5 - d).clamp(0.0, 1.0);
            if coverage > 0.0 {
                out.blend(x as i64, y as i64, face.get(x, y), coverage);
            }
        }
    }
    out
}
