//! An RGBA canvas drawn on the CPU: antialiased shapes given by their signed distance, and
//! characters rasterized from a font (the shipped kaishu), thickened when they must survive
//! being seen small.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};

/// An sRGB colour with straight alpha, 0–255.
pub type Rgba = [u8; 4];

/// The fonts the canvas draws characters from: each character from the first that has it
/// (a Latin face, then the kaishu for Chinese, say). A font that does not parse is left out.
#[derive(Clone)]
pub struct Face<'a>(Vec<FontRef<'a>>);

impl<'a> Face<'a> {
    /// The font in `bytes` (TrueType or OpenType).
    pub fn new(bytes: &'a [u8]) -> Face<'a> {
        Face(FontRef::try_from_slice(bytes).ok().into_iter().collect())
    }

    /// This face, then `bytes` for the characters it lacks.
    pub fn then(mut self, bytes: &'a [u8]) -> Face<'a> {
        self.0.extend(FontRef::try_from_slice(bytes).ok());
        self
    }

    /// The baseline of a line `height` pixels tall whose em box is centred on `cy`: the
    /// first font's ascent above it and its descent below.
    fn baseline(&self, cy: f32, height: f32) -> f32 {
        match self.0.first() {
            Some(font) => {
                let scaled = font.as_scaled(PxScale::from(height));
                cy + (scaled.ascent() + scaled.descent()) / 2.0
            }
            None => cy,
        }
    }

    /// The font `ch` is drawn from: the first that has it, else the first.
    fn font_for(&self, ch: char) -> Option<&FontRef<'a>> {
        self.0
            .iter()
            .find(|f| f.glyph_id(ch).0 != 0)
            .or(self.0.first())
    }
}

/// An RGBA image being drawn.
#[derive(Clone)]
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A square canvas filled with one colour.
    pub fn new(size: usize, fill: Rgba) -> Canvas {
        Canvas::sized(size, size, fill)
    }

    /// A `width`×`height` canvas filled with one colour.
    pub fn sized(width: usize, height: usize, fill: Rgba) -> Canvas {
        Canvas {
            width,
            height,
            pixels: fill.repeat(width * height),
        }
    }

    /// Width in pixels (the side of a square canvas).
    pub fn size(&self) -> usize {
        self.width
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The pixels, row by row from the top, four bytes each (RGBA, straight alpha).
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The pixels, taken.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }

    /// Sets a pixel.
    pub fn set(&mut self, x: usize, y: usize, c: Rgba) {
        let i = (y * self.width + x) * 4;
        self.pixels[i..i + 4].copy_from_slice(&c);
    }

    /// Reads a pixel.
    pub fn get(&self, x: usize, y: usize) -> Rgba {
        let i = (y * self.width + x) * 4;
        [
            self.pixels[i],
            self.pixels[i + 1],
            self.pixels[i + 2],
            self.pixels[i + 3],
        ]
    }

    /// Whether (`x`, `y`) is on the canvas.
    fn holds(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    /// Blends `c` over a pixel with `coverage` (0–1), ignoring points off the canvas.
    pub fn blend(&mut self, x: i64, y: i64, c: Rgba, coverage: f32) {
        if !self.holds(x, y) {
            return;
        }
        let a = (coverage.clamp(0.0, 1.0) * c[3] as f32 / 255.0).clamp(0.0, 1.0);
        self.lay(x as usize, y as usize, c, a);
    }

    /// Lays colour `c` over the pixel at (`x`, `y`), inside the canvas, with opacity `a`.
    fn lay(&mut self, x: usize, y: usize, c: Rgba, a: f32) {
        if a <= 0.0 {
            return;
        }
        let i = (y * self.width + x) * 4;
        for (dst, src) in self.pixels[i..i + 3].iter_mut().zip(c) {
            let d = *dst as f32;
            *dst = (d + (src as f32 - d) * a).round() as u8;
        }
        let da = self.pixels[i + 3] as f32 / 255.0;
        self.pixels[i + 3] = ((da + a * (1.0 - da)) * 255.0).round() as u8;
    }

    /// Lays `other` over this canvas with its top-left corner at (`x`, `y`), by its alpha;
    /// what falls off this canvas is left out.
    pub fn draw(&mut self, other: &Canvas, x: i64, y: i64) {
        for oy in 0..other.height {
            for ox in 0..other.width {
                let (tx, ty) = (x + ox as i64, y + oy as i64);
                if self.holds(tx, ty) {
                    let c = other.get(ox, oy);
                    self.lay(tx as usize, ty as usize, c, c[3] as f32 / 255.0);
                }
            }
        }
    }

    /// Copies the rectangle of `other` at (`x`, `y`), `width`×`height`, to the same place on
    /// this canvas (a canvas of the same size), replacing what was there.
    pub fn copy_from(
        &mut self,
        other: &Canvas,
        (x, y, width, height): (usize, usize, usize, usize),
    ) {
        let x1 = (x + width).min(self.width).min(other.width);
        let y1 = (y + height).min(self.height).min(other.height);
        for row in y.min(y1)..y1 {
            let (a, b) = ((row * self.width + x) * 4, (row * self.width + x1) * 4);
            let (c, d) = ((row * other.width + x) * 4, (row * other.width + x1) * 4);
            self.pixels[a..b].copy_from_slice(&other.pixels[c..d]);
        }
    }

    /// Fills everything within the shape, with antialiased edges: `dist(x, y)` is the signed
    /// distance in pixels from the pixel centre to the shape's edge (negative inside), and only
    /// pixels in `[x0, x1) × [y0, y1)` are visited.
    pub fn fill_sdf(
        &mut self,
        (x0, y0, x1, y1): (f32, f32, f32, f32),
        c: Rgba,
        dist: impl Fn(f32, f32) -> f32,
    ) {
        let clamp = |v: f32, most: usize| (v.max(0.0) as usize).min(most);
        for y in clamp(y0.floor(), self.height)..clamp(y1.ceil(), self.height) {
            for x in clamp(x0.floor(), self.width)..clamp(x1.ceil(), self.width) {
                let d = dist(x as f32 + 0.5, y as f32 + 0.5);
                let coverage = (0.5 - d).clamp(0.0, 1.0);
                if coverage > 0.0 {
                    self.blend(x as i64, y as i64, c, coverage);
                }
            }
        }
    }

    /// A filled disc.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgba) {
        self.fill_sdf(
            (cx - r - 1.0, cy - r - 1.0, cx + r + 1.0, cy + r + 1.0),
            c,
            |x, y| ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r,
        );
    }

    /// A ring between radii `r - width / 2` and `r + width / 2`.
    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: Rgba) {
        let outer = r + width / 2.0 + 1.0;
        self.fill_sdf(
            (cx - outer, cy - outer, cx + outer, cy + outer),
            c,
            |x, y| (((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r).abs() - width / 2.0,
        );
    }

    /// An axis-aligned filled rectangle.
    pub fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgba) {
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let (hx, hy) = ((x1 - x0) / 2.0, (y1 - y0) / 2.0);
        self.fill_sdf((x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0), c, |x, y| {
            ((x - cx).abs() - hx).max((y - cy).abs() - hy)
        });
    }

    /// A line segment from `a` to `b` (pixels, `(x, y)`) of the given width with round ends.
    pub fn segment(&mut self, a: (f32, f32), b: (f32, f32), width: f32, c: Rgba) {
        let pad = width + 1.0;
        let bounds = (
            a.0.min(b.0) - pad,
            a.1.min(b.1) - pad,
            a.0.max(b.0) + pad,
            a.1.max(b.1) + pad,
        );
        let ab = (b.0 - a.0, b.1 - a.1);
        let len2 = (ab.0 * ab.0 + ab.1 * ab.1).max(1e-6);
        self.fill_sdf(bounds, c, |x, y| {
            let t = (((x - a.0) * ab.0 + (y - a.1) * ab.1) / len2).clamp(0.0, 1.0);
            let (dx, dy) = (x - (a.0 + ab.0 * t), y - (a.1 + ab.1 * t));
            (dx * dx + dy * dy).sqrt() - width / 2.0
        });
    }

    /// Draws one character of a line with its pen at `pen` on the baseline `baseline`;
    /// returns its advance.
    fn line_glyph(
        &mut self,
        font: &FontRef,
        ch: char,
        (pen, baseline): (f32, f32),
        height: f32,
        c: Rgba,
    ) -> f32 {
        if let Some(ink) = Ink::of(font, ch, height) {
            let (ox, oy) = (pen + ink.left, baseline + ink.top);
            for &(x, y, cov) in &ink.coverage {
                self.blend(
                    (ox + x as f32).round() as i64,
                    (oy + y as f32).round() as i64,
                    c,
                    cov,
                );
            }
        }
        font.as_scaled(PxScale::from(height))
            .h_advance(font.glyph_id(ch))
    }

    /// Blends a character's rasterized `ink` with its left edge at `left` (or centred on it)
    /// and centred vertically on `cy`.
    #[cfg(test)]
    fn stamp(&mut self, ink: &Ink, left: f32, cy: f32, centre: bool, c: Rgba) {
        let ox = if centre { left - ink.width / 2.0 } else { left };
        let oy = cy - ink.height / 2.0;
        for &(x, y, cov) in &ink.coverage {
            self.blend(
                (ox + x as f32).round() as i64,
                (oy + y as f32).round() as i64,
                c,
                cov,
            );
        }
    }

    /// Draws `text` as a column of characters centred on (cx, cy), each `height` pixels tall,
    /// its strokes thickened by `bold` pixels so they survive being seen small.
    pub fn text_column(
        &mut self,
        face: &Face,
        text: &str,
        (cx, cy): (f32, f32),
        height: f32,
        bold: f32,
        c: Rgba,
    ) {
        // Thicken by stamping the glyph around a small circle, then once in the middle: one
        // rasterization, stamped nine times.
        let mut offsets: Vec<(f32, f32)> = (0..8)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 8.0;
                (a.cos() * bold, a.sin() * bold)
            })
            .collect();
        offsets.push((0.0, 0.0));
        let n = text.chars().count() as f32;
        let opacity = c[3] as f32 / 255.0;
        for (i, ch) in text.chars().enumerate() {
            let y = cy + (i as f32 - (n - 1.0) / 2.0) * height * 0.98;
            let Some(ink) = face.font_for(ch).and_then(|font| Ink::of(font, ch, height)) else {
                continue;
            };
            // The nine stamps laid as one: what each leaves of the colour beneath, multiplied,
            // over the box they cover together, then laid once.
            let places: Vec<(i64, i64)> = offsets
                .iter()
                .map(|o| {
                    let ox = cx + o.0 - ink.width / 2.0;
                    let oy = y + o.1 - ink.height / 2.0;
                    (ox.round() as i64, oy.round() as i64)
                })
                .collect();
            let (x0, y0) = places
                .iter()
                .fold((i64::MAX, i64::MAX), |(a, b), &(x, y)| (a.min(x), b.min(y)));
            let (x1, y1) = places.iter().fold((i64::MIN, i64::MIN), |(a, b), &(x, y)| {
                (
                    a.max(x + ink.box_width as i64),
                    b.max(y + ink.box_height as i64),
                )
            });
            let width = (x1 - x0) as usize;
            let mut left = vec![1.0f32; width * (y1 - y0) as usize];
            for &(px, py) in &places {
                for &(x, y, cov) in &ink.coverage {
                    let (mx, my) = (
                        (px - x0) as usize + x as usize,
                        (py - y0) as usize + y as usize,
                    );
                    left[my * width + mx] *= 1.0 - (cov.clamp(0.0, 1.0) * opacity).clamp(0.0, 1.0);
                }
            }
            for (i, kept) in left.iter().enumerate() {
                let (x, y) = (x0 + (i % width) as i64, y0 + (i / width) as i64);
                if *kept < 1.0 && self.holds(x, y) {
                    self.lay(x as usize, y as usize, c, 1.0 - kept);
                }
            }
        }
    }

    /// Draws one line of `text` with its ink centred on (cx, cy).
    pub fn text_line(
        &mut self,
        face: &Face,
        text: &str,
        (cx, cy): (f32, f32),
        height: f32,
        c: Rgba,
    ) {
        let left = cx - text_width(face, text, height) / 2.0;
        self.text_from(face, text, (left, cy), height, c);
    }

    /// Draws one line of `text` starting at `left`, its em box centred vertically on `cy`
    /// (characters of every font on one baseline); returns where the line ends.
    pub fn text_from(
        &mut self,
        face: &Face,
        text: &str,
        (left, cy): (f32, f32),
        height: f32,
        c: Rgba,
    ) -> f32 {
        let mut pen = left;
        let baseline = face.baseline(cy, height);
        for ch in text.chars() {
            let Some(font) = face.font_for(ch) else {
                break;
            };
            pen += self.line_glyph(font, ch, (pen, baseline), height, c);
        }
        pen
    }
}

/// A character rasterized at a height: the coverage of each pixel of its ink's box, and the
/// box's size.
struct Ink {
    coverage: Vec<(u32, u32, f32)>,
    width: f32,
    height: f32,
    /// Where the ink's box starts from the pen (x) and the baseline (y, negative above).
    left: f32,
    top: f32,
    /// The pixels the coverage spans (`x` below `box_width`, `y` below `box_height`).
    box_width: u32,
    box_height: u32,
}

impl Ink {
    /// `ch` at `height` pixels, if the font draws it (a space does not).
    fn of(font: &FontRef, ch: char, height: f32) -> Option<Ink> {
        let glyph = font
            .glyph_id(ch)
            .with_scale_and_position(PxScale::from(height), point(0.0, 0.0));
        let outline = font.outline_glyph(glyph)?;
        let bounds = outline.px_bounds();
        let mut coverage = Vec::new();
        let (mut box_width, mut box_height) = (0, 0);
        // Pixels the ink does not touch change nothing when blended: left out.
        outline.draw(|x, y, cov| {
            box_width = box_width.max(x + 1);
            box_height = box_height.max(y + 1);
            if cov > 0.0 {
                coverage.push((x, y, cov));
            }
        });
        Some(Ink {
            coverage,
            width: bounds.width(),
            height: bounds.height(),
            left: bounds.min.x,
            top: bounds.min.y,
            box_width,
            box_height,
        })
    }
}

/// Width in pixels of one line of `text` at `height`: the characters' advances.
pub fn text_width(face: &Face, text: &str, height: f32) -> f32 {
    let scale = PxScale::from(height);
    text.chars()
        .map_while(|ch| {
            let font = face.font_for(ch)?;
            Some(font.as_scaled(scale).h_advance(font.glyph_id(ch)))
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::kai;

    /// A bold column laid as one is the nine stamps laid one after another, to within the
    /// rounding of each stamp's bytes.
    #[test]
    fn bold_characters_are_their_nine_stamps() {
        let face = kai();
        let ink = [30, 20, 10, 235];
        let mut once = Canvas::new(128, [200, 160, 90, 255]);
        once.text_column(&face, "砲騎", (64.0, 64.0), 50.0, 3.2, ink);
        let mut stamped = Canvas::new(128, [200, 160, 90, 255]);
        let font = face.0.first().expect("the font parses");
        for (i, ch) in "砲騎".chars().enumerate() {
            let y = 64.0 + (i as f32 - 0.5) * 50.0 * 0.98;
            let ink_of = Ink::of(font, ch, 50.0).unwrap();
            for k in 0..9 {
                let (dx, dy) = if k == 8 {
                    (0.0, 0.0)
                } else {
                    let a = k as f32 * std::f32::consts::TAU / 8.0;
                    (a.cos() * 3.2, a.sin() * 3.2)
                };
                stamped.stamp(&ink_of, 64.0 + dx, y + dy, true, ink);
            }
        }
        let worst = once
            .pixels
            .iter()
            .zip(&stamped.pixels)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap();
        assert!(worst <= 3, "a byte {worst} apart");
        let inked = once.pixels.chunks(4).filter(|p| p[0] < 100).count();
        assert!(inked > 500, "{inked} pixels of ink");
    }

    #[test]
    fn characters_leave_ink_in_the_middle() {
        let mut canvas = Canvas::new(64, [255, 255, 255, 255]);
        canvas.text_column(&kai(), "將", (32.0, 32.0), 40.0, 0.5, [0, 0, 0, 255]);
        let dark = (0..64)
            .flat_map(|y| (0..64).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.get(x, y)[0] < 128)
            .count();
        assert!(dark > 150, "{dark} dark pixels");
        assert!(canvas.get(1, 1)[0] == 255, "corners stay clear");
    }

    /// A wide canvas draws across its whole width and clips at its edges; a line of text
    /// ends where its width says.
    #[test]
    fn a_wide_canvas_draws_everywhere_and_clips() {
        let mut c = Canvas::sized(300, 40, [255, 255, 255, 255]);
        c.disc(290.0, 20.0, 15.0, [0, 0, 0, 255]);
        assert_eq!(c.get(290, 20), [0, 0, 0, 255]);
        assert_eq!(c.get(10, 20), [255, 255, 255, 255]);
        let face = kai();
        let end = c.text_from(&face, "Qin 秦", (5.0, 20.0), 20.0, [0, 0, 0, 255]);
        let width = text_width(&face, "Qin 秦", 20.0);
        assert!((end - 5.0 - width).abs() < 0.5, "{end} against {width}");
        assert!(width > 40.0, "{width}");
        let mut other = Canvas::sized(300, 40, [9, 9, 9, 255]);
        other.copy_from(&c, (280, 0, 100, 40));
        assert_eq!(other.get(290, 20), [0, 0, 0, 255]);
        assert_eq!(other.get(279, 20), [9, 9, 9, 255]);
    }
}
