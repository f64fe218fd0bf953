//! Textures drawn at start-up on the CPU: an RGBA canvas with antialiased shapes, characters
//! rasterized from the shipped kaishu font, and a mip chain averaged in linear light so that
//! the grid and the characters stay smooth from far away.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::*;
use bevy::render::render_resource::{
    Extent3d, TextureDimension, TextureFormat, TextureViewDescriptor, TextureViewDimension,
};

/// The shipped font subset (see `assets/fonts/README.md`): on the desktop, the whole cut.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) static KAI_FONT: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/qiguo-kai.ttf"
));

/// In a page, the core cut (the characters of the game and its interface), a tenth of the
/// download; the whole cut follows once the board is drawn (`crate::browser::font`).
#[cfg(any(target_arch = "wasm32", test))]
pub(crate) static KAI_FONT_CORE: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/qiguo-kai-core.ttf"
));
#[cfg(target_arch = "wasm32")]
pub(crate) use KAI_FONT_CORE as KAI_FONT;

/// An sRGB colour with straight alpha, 0–255.
pub(crate) type Rgba = [u8; 4];

/// A square RGBA image being drawn.
pub(crate) struct Canvas {
    size: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A canvas filled with one colour.
    pub(crate) fn new(size: usize, fill: Rgba) -> Canvas {
        Canvas {
            size,
            pixels: fill.repeat(size * size),
        }
    }

    /// Side length in pixels.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Sets a pixel.
    pub(crate) fn set(&mut self, x: usize, y: usize, c: Rgba) {
        let i = (y * self.size + x) * 4;
        self.pixels[i..i + 4].copy_from_slice(&c);
    }

    /// Reads a pixel.
    pub(crate) fn get(&self, x: usize, y: usize) -> Rgba {
        let i = (y * self.size + x) * 4;
        [
            self.pixels[i],
            self.pixels[i + 1],
            self.pixels[i + 2],
            self.pixels[i + 3],
        ]
    }

    /// Blends `c` over a pixel with `coverage` (0–1), ignoring points off the canvas.
    pub(crate) fn blend(&mut self, x: i64, y: i64, c: Rgba, coverage: f32) {
        if x < 0 || y < 0 || x as usize >= self.size || y as usize >= self.size {
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
        let i = (y * self.size + x) * 4;
        for (dst, src) in self.pixels[i..i + 3].iter_mut().zip(c) {
            let d = *dst as f32;
            *dst = (d + (src as f32 - d) * a).round() as u8;
        }
        let da = self.pixels[i + 3] as f32 / 255.0;
        self.pixels[i + 3] = ((da + a * (1.0 - da)) * 255.0).round() as u8;
    }

    /// Fills everything within the shape, with antialiased edges: `dist(x, y)` is the signed
    /// distance in pixels from the pixel centre to the shape's edge (negative inside), and only
    /// pixels in `[x0, x1) × [y0, y1)` are visited.
    pub(crate) fn fill_sdf(
        &mut self,
        (x0, y0, x1, y1): (f32, f32, f32, f32),
        c: Rgba,
        dist: impl Fn(f32, f32) -> f32,
    ) {
        let size = self.size;
        let clamp = |v: f32| (v.max(0.0) as usize).min(size);
        for y in clamp(y0.floor())..clamp(y1.ceil()) {
            for x in clamp(x0.floor())..clamp(x1.ceil()) {
                let d = dist(x as f32 + 0.5, y as f32 + 0.5);
                let coverage = (0.5 - d).clamp(0.0, 1.0);
                if coverage > 0.0 {
                    self.blend(x as i64, y as i64, c, coverage);
                }
            }
        }
    }

    /// A filled disc.
    pub(crate) fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgba) {
        self.fill_sdf(
            (cx - r - 1.0, cy - r - 1.0, cx + r + 1.0, cy + r + 1.0),
            c,
            |x, y| ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r,
        );
    }

    /// A ring between radii `r - width / 2` and `r + width / 2`.
    pub(crate) fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, c: Rgba) {
        let outer = r + width / 2.0 + 1.0;
        self.fill_sdf(
            (cx - outer, cy - outer, cx + outer, cy + outer),
            c,
            |x, y| (((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r).abs() - width / 2.0,
        );
    }

    /// An axis-aligned filled rectangle.
    pub(crate) fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgba) {
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let (hx, hy) = ((x1 - x0) / 2.0, (y1 - y0) / 2.0);
        self.fill_sdf((x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0), c, |x, y| {
            ((x - cx).abs() - hx).max((y - cy).abs() - hy)
        });
    }

    /// A line segment of the given width with round ends.
    pub(crate) fn segment(&mut self, a: Vec2, b: Vec2, width: f32, c: Rgba) {
        let pad = width + 1.0;
        let bounds = (
            a.x.min(b.x) - pad,
            a.y.min(b.y) - pad,
            a.x.max(b.x) + pad,
            a.y.max(b.y) + pad,
        );
        let ab = b - a;
        let len2 = ab.length_squared().max(1e-6);
        self.fill_sdf(bounds, c, |x, y| {
            let p = Vec2::new(x, y);
            let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
            (p - (a + ab * t)).length() - width / 2.0
        });
    }

    /// Draws one character with its ink's left edge at `left` (or centred on `left` when
    /// `centre`) and its ink centred vertically on `cy`; returns the ink's width.
    fn glyph(
        &mut self,
        font: &FontRef,
        ch: char,
        left: f32,
        cy: f32,
        height: f32,
        centre: bool,
        c: Rgba,
    ) -> f32 {
        match Ink::of(font, ch, height) {
            Some(ink) => {
                self.stamp(&ink, left, cy, centre, c);
                ink.width
            }
            None => font
                .as_scaled(PxScale::from(height))
                .h_advance(font.glyph_id(ch)),
        }
    }

    /// Blends a character's rasterized `ink` with its left edge at `left` (or centred on it)
    /// and centred vertically on `cy`.
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
    pub(crate) fn text_column(
        &mut self,
        text: &str,
        cx: f32,
        cy: f32,
        height: f32,
        bold: f32,
        c: Rgba,
    ) {
        let Ok(font) = FontRef::try_from_slice(KAI_FONT) else {
            return;
        };
        // Thicken by stamping the glyph around a small circle, then once in the middle: one
        // rasterization, stamped nine times.
        let mut offsets: Vec<Vec2> = (0..8)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 8.0;
                Vec2::new(a.cos(), a.sin()) * bold
            })
            .collect();
        offsets.push(Vec2::ZERO);
        let n = text.chars().count() as f32;
        let opacity = c[3] as f32 / 255.0;
        for (i, ch) in text.chars().enumerate() {
            let y = cy + (i as f32 - (n - 1.0) / 2.0) * height * 0.98;
            let Some(ink) = Ink::of(&font, ch, height) else {
                continue;
            };
            // The nine stamps laid as one: what each leaves of the colour beneath, multiplied,
            // over the box they cover together, then laid once.
            let places: Vec<(i64, i64)> = offsets
                .iter()
                .map(|o| {
                    let ox = cx + o.x - ink.width / 2.0;
                    let oy = y + o.y - ink.height / 2.0;
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
                if *kept < 1.0
                    && x >= 0
                    && y >= 0
                    && (x as usize) < self.size
                    && (y as usize) < self.size
                {
                    self.lay(x as usize, y as usize, c, 1.0 - kept);
                }
            }
        }
    }

    /// Draws one line of `text` with its ink centred on (cx, cy).
    pub(crate) fn text_line(&mut self, text: &str, cx: f32, cy: f32, height: f32, c: Rgba) {
        let Ok(font) = FontRef::try_from_slice(KAI_FONT) else {
            return;
        };
        let mut pen = cx - text_width(text, height) / 2.0;
        for ch in text.chars() {
            pen += self.glyph(&font, ch, pen, cy, height, false, c) + height * GLYPH_GAP;
        }
    }

    /// The image with a full mip chain, sampled with trilinear, anisotropic filtering.
    pub(crate) fn into_image(self, repeat: bool) -> Image {
        self.into_image_with(repeat, None)
    }

    /// As [`Canvas::into_image`], never sampling mip levels smaller than `smallest` pixels
    /// (sharper fine detail, such as characters, when seen small).
    pub(crate) fn into_image_with(self, repeat: bool, smallest: Option<usize>) -> Image {
        let size = self.size;
        let (data, levels) = mip_chain(self.pixels, size);
        square_image(size, 1, data, levels, repeat, smallest)
    }

    /// Canvases of one size as the layers of one array texture, each with its mip chain, as
    /// [`Canvas::into_image_with`] (edges clamped): what a shader picks a layer of by number.
    pub(crate) fn into_layers(canvases: Vec<Canvas>, smallest: Option<usize>) -> Image {
        let size = canvases.first().map_or(1, |c| c.size);
        let layers = canvases.len().max(1) as u32;
        let mut data = Vec::new();
        let mut levels = 1;
        for canvas in canvases {
            assert_eq!(canvas.size, size, "the layers of a texture have one size");
            let (chain, n) = mip_chain(canvas.pixels, size);
            data.extend(chain);
            levels = n;
        }
        let mut image = square_image(size, layers, data, levels, false, smallest);
        image.texture_view_descriptor = Some(TextureViewDescriptor {
            dimension: Some(TextureViewDimension::D2Array),
            ..default()
        });
        image
    }
}

/// A square sRGB image of `layers` layers, each with its `levels` mip levels in `data` (layer
/// by layer), sampled with trilinear, anisotropic filtering, never at levels smaller than
/// `smallest` pixels.
fn square_image(
    size: usize,
    layers: u32,
    data: Vec<u8>,
    levels: u32,
    repeat: bool,
    smallest: Option<usize>,
) -> Image {
    // Made without its data, then given the whole chain: `Image::new` checks that the data
    // is one level's (a debug assertion, so a debug build stopped here).
    let mut image = Image::new_uninit(
        Extent3d {
            width: size as u32,
            height: size as u32,
            depth_or_array_layers: layers,
        },
        TextureDimension::D2,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.data = Some(data);
    image.texture_descriptor.mip_level_count = levels;
    let address = if repeat {
        ImageAddressMode::Repeat
    } else {
        ImageAddressMode::ClampToEdge
    };
    let mut sampler = ImageSamplerDescriptor {
        address_mode_u: address,
        address_mode_v: address,
        mag_filter: ImageFilterMode::Linear,
        min_filter: ImageFilterMode::Linear,
        mipmap_filter: ImageFilterMode::Linear,
        ..default()
    };
    if let Some(smallest) = smallest {
        sampler.lod_max_clamp = (self_size_log2(size) - smallest.max(1).ilog2()) as f32;
    }
    sampler.set_anisotropic_filter(8);
    image.sampler = ImageSampler::Descriptor(sampler);
    image
}

/// A character rasterized at a height: the coverage of each pixel of its ink's box, and the
/// box's size.
struct Ink {
    coverage: Vec<(u32, u32, f32)>,
    width: f32,
    height: f32,
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
            box_width,
            box_height,
        })
    }
}

fn self_size_log2(size: usize) -> u32 {
    size.max(1).ilog2()
}

/// Space between characters of a line, as a fraction of the height.
const GLYPH_GAP: f32 = 0.08;

/// Width in pixels of the ink of one line of `text` at `height`.
pub(crate) fn text_width(text: &str, height: f32) -> f32 {
    let Ok(font) = FontRef::try_from_slice(KAI_FONT) else {
        return 0.0;
    };
    let scale = PxScale::from(height);
    let mut width = 0.0;
    let mut count = 0;
    for ch in text.chars() {
        let glyph = font
            .glyph_id(ch)
            .with_scale_and_position(scale, point(0.0, 0.0));
        if let Some(outline) = font.outline_glyph(glyph) {
            width += outline.px_bounds().width();
            count += 1;
        }
    }
    width + height * GLYPH_GAP * (count.max(1) - 1) as f32
}

fn srgb_to_linear(v: u8) -> f32 {
    let c = v as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The sRGB encoding of a linear value as a byte, by the formula ([`SrgbEncoder`] is what
/// the textures use).
#[cfg(test)]
fn linear_to_srgb(v: f32) -> u8 {
    let c = if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    };
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Linear light in fixed point: 1.0 is `LINEAR_ONE`.
const LINEAR_ONE: u32 = 1 << 16;

/// The sRGB encoding of linear light in fixed point ([`LINEAR_ONE`] is 1.0) as a byte: a table
/// of every value, made by walking the 255 linear values at which the encoded byte steps up
/// (halfway between two bytes, decoded). Textures are encoded millions of channels at a time at
/// start-up, where a power each took seconds on a phone; in fixed point the darkest byte is
/// still a dozen steps wide.
struct SrgbEncoder {
    bytes: Vec<u8>,
}

impl SrgbEncoder {
    fn new() -> SrgbEncoder {
        let steps: Vec<f32> = (0..255)
            .map(|k| {
                let c = (k as f32 + 0.5) / 255.0;
                if c <= 0.04045 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            })
            .collect();
        let mut byte = 0;
        let bytes = (0..=LINEAR_ONE)
            .map(|i| {
                let v = i as f32 / LINEAR_ONE as f32;
                while byte < 255 && steps[byte] <= v {
                    byte += 1;
                }
                byte as u8
            })
            .collect();
        SrgbEncoder { bytes }
    }

    /// The byte of linear light `v` in fixed point (clamped to 1.0).
    fn encode(&self, v: u32) -> u8 {
        self.bytes[v.min(LINEAR_ONE) as usize]
    }
}

/// All mip levels of a square sRGB image, largest first, each the 2×2 average of the one
/// before in linear light. Returns the concatenated data and the number of levels.
pub(crate) fn mip_chain(level0: Vec<u8>, size: usize) -> (Vec<u8>, u32) {
    let linear: Vec<u32> = (0..=255u8)
        .map(|v| (srgb_to_linear(v) * LINEAR_ONE as f32).round() as u32)
        .collect();
    let encoder = SrgbEncoder::new();
    let mut data = level0;
    let mut levels = 1;
    let mut prev_start = 0;
    let mut s = size;
    while s > 1 {
        let n = s / 2;
        let mut next = Vec::with_capacity(n * n * 4);
        for y in 0..n {
            let top = prev_start + 2 * y * s * 4;
            let bottom = top + s * 4;
            for x in 0..n {
                let (a, b) = (top + 8 * x, bottom + 8 * x);
                for k in 0..3 {
                    let sum = linear[data[a + k] as usize]
                        + linear[data[a + 4 + k] as usize]
                        + linear[data[b + k] as usize]
                        + linear[data[b + 4 + k] as usize];
                    next.push(encoder.encode((sum + 2) / 4));
                }
                let alpha = u32::from(data[a + 3])
                    + u32::from(data[a + 7])
                    + u32::from(data[b + 3])
                    + u32::from(data[b + 7]);
                next.push(((alpha + 2) / 4) as u8);
            }
        }
        prev_start = data.len();
        data.extend_from_slice(&next);
        s = n;
        levels += 1;
    }
    (data, levels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_glyph(font: &FontRef, c: char) -> bool {
        font.glyph_id(c).0 != 0
    }

    /// The font keeps the characters its script says it keeps: the common characters of both
    /// Chinese scripts, so names typed in either show, not boxes.
    #[test]
    fn the_font_covers_common_traditional_and_simplified_characters() {
        let font = FontRef::try_from_slice(KAI_FONT).expect("the shipped font parses");
        let kept = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/fonts/qiguo-kai-chars.txt"
        ))
        .trim_end();
        assert!(kept.chars().count() >= 6_700, "{}", kept.chars().count());
        let missing: String = kept.chars().filter(|&c| !has_glyph(&font, c)).collect();
        assert!(missing.is_empty(), "no glyph for {missing}");
        // Common names and words in both scripts, and full-width punctuation.
        for text in [
            "張偉",
            "张伟",
            "王小明",
            "趙雲",
            "赵云",
            "國家",
            "国家",
            "愛麗絲",
            "爱丽丝",
            "「你好！」，。",
        ] {
            for c in text.chars() {
                assert!(has_glyph(&font, c), "{c} in {text}");
            }
        }
    }

    /// Every Chinese character the game's own interface writes (anywhere in its source, its
    /// translations and lessons, and the rules' names of kingdoms and pieces) has a glyph, in
    /// the whole cut and in the page's core cut.
    #[test]
    fn every_chinese_character_the_game_writes_has_a_glyph() {
        let whole = FontRef::try_from_slice(KAI_FONT).expect("the shipped font parses");
        let core = FontRef::try_from_slice(KAI_FONT_CORE).expect("the page's cut parses");
        let cjk = |c: char| matches!(c, '\u{3000}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}');
        // The game's sources, translations and lessons, and the rules' (kingdom and piece
        // names).
        let root = qiguo_testkit::package_dir(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![
            root.join("src"),
            root.join("crates/qiguo-rules/src"),
            root.join("assets/i18n"),
            root.join("assets/lessons"),
        ];
        let mut seen = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e == "rs" || e == "ftl" || e == "ron")
                {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for c in text.chars().filter(|&c| cjk(c)) {
                        seen += 1;
                        assert!(has_glyph(&whole, c), "{c} in {}", path.display());
                        assert!(
                            has_glyph(&core, c),
                            "{c} in {}: not in the page's cut (tools/make-font-subset.sh)",
                            path.display()
                        );
                    }
                }
            }
        }
        assert!(
            seen > 500,
            "the interface writes Chinese: {seen} characters found"
        );
        // The page's cut is the interface's: names (such as Chen, written as an escape so that
        // the cut does not take it from here) come with the whole cut.
        let chen = '\u{9673}';
        assert!(!has_glyph(&core, chen) && has_glyph(&whole, chen));
        assert!(KAI_FONT_CORE.len() * 8 < KAI_FONT.len());
    }

    /// A bold column laid as one is the nine stamps laid one after another, to within the
    /// rounding of each stamp's bytes.
    #[test]
    fn bold_characters_are_their_nine_stamps() {
        let ink = [30, 20, 10, 235];
        let mut once = Canvas::new(128, [200, 160, 90, 255]);
        once.text_column("砲騎", 64.0, 64.0, 50.0, 3.2, ink);
        let mut stamped = Canvas::new(128, [200, 160, 90, 255]);
        let font = FontRef::try_from_slice(KAI_FONT).unwrap();
        for (i, ch) in "砲騎".chars().enumerate() {
            let y = 64.0 + (i as f32 - 0.5) * 50.0 * 0.98;
            let ink_of = Ink::of(&font, ch, 50.0).unwrap();
            for k in 0..9 {
                let offset = if k == 8 {
                    Vec2::ZERO
                } else {
                    let a = k as f32 * std::f32::consts::TAU / 8.0;
                    Vec2::new(a.cos(), a.sin()) * 3.2
                };
                stamped.stamp(&ink_of, 64.0 + offset.x, y + offset.y, true, ink);
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

    /// The table's encoding is the formula's to within one byte, and that only at a step's
    /// edge.
    #[test]
    fn the_srgb_encoder_matches_the_formula() {
        let encoder = SrgbEncoder::new();
        let mut differ = 0;
        for i in 0..=LINEAR_ONE {
            let v = i as f32 / LINEAR_ONE as f32;
            let (table, exact) = (encoder.encode(i), linear_to_srgb(v));
            assert!(table.abs_diff(exact) <= 1, "{v}: {table} against {exact}");
            differ += usize::from(table != exact);
        }
        assert!(differ < 64, "{differ} values a byte apart");
        assert_eq!((encoder.encode(0), encoder.encode(LINEAR_ONE)), (0, 255));
        assert_eq!(encoder.encode(u32::MAX), 255);
    }

    /// A level of the chain is the previous one's 2×2 average in linear light, as the formula
    /// computes it, to within one byte.
    #[test]
    fn mip_levels_average_in_linear_light() {
        let size = 16;
        let level0: Vec<u8> = (0..size * size * 4)
            .map(|i| ((i * 2_654_435_761usize) >> 7) as u8)
            .collect();
        let (data, _) = mip_chain(level0.clone(), size);
        let next = &data[size * size * 4..];
        for y in 0..size / 2 {
            for x in 0..size / 2 {
                for k in 0..3 {
                    let mean = [(0, 0), (1, 0), (0, 1), (1, 1)]
                        .iter()
                        .map(|(dx, dy)| {
                            srgb_to_linear(level0[((2 * y + dy) * size + 2 * x + dx) * 4 + k])
                        })
                        .sum::<f32>()
                        / 4.0;
                    let got = next[(y * size / 2 + x) * 4 + k];
                    assert!(got.abs_diff(linear_to_srgb(mean)) <= 1, "{x},{y},{k}");
                }
            }
        }
    }

    #[test]
    fn mip_chain_has_every_level() {
        let (data, levels) = mip_chain(vec![255; 8 * 8 * 4], 8);
        assert_eq!(levels, 4);
        assert_eq!(data.len(), (64 + 16 + 4 + 1) * 4);
        assert!(data.iter().all(|&v| v == 255));
        // Black and white average to mid-grey in linear light, not 128.
        let mut checker = Vec::new();
        for y in 0..2 {
            for x in 0..2 {
                let v = if (x + y) % 2 == 0 { 0 } else { 255 };
                checker.extend_from_slice(&[v, v, v, 255]);
            }
        }
        let (data, _) = mip_chain(checker, 2);
        assert_eq!(data[16], linear_to_srgb(0.5));
        assert!(data[16] > 180);
    }

    #[test]
    fn the_font_has_every_character_the_game_draws() {
        let font = FontRef::try_from_slice(KAI_FONT).unwrap();
        for ch in
            "將偏裨砲行人弓弩刀劍騎周秦楚韓齊魏趙燕七國象棋abcdefghijklmnopqrs0123456789".chars()
        {
            let glyph = font.glyph_id(ch);
            assert_ne!(glyph.0, 0, "{ch} missing");
            assert!(
                font.outline_glyph(glyph.with_scale(32.0)).is_some(),
                "{ch} has no outline"
            );
        }
    }

    #[test]
    fn characters_leave_ink_in_the_middle() {
        let mut canvas = Canvas::new(64, [255, 255, 255, 255]);
        canvas.text_column("將", 32.0, 32.0, 40.0, 0.5, [0, 0, 0, 255]);
        let dark = (0..64)
            .flat_map(|y| (0..64).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.get(x, y)[0] < 128)
            .count();
        assert!(dark > 150, "{dark} dark pixels");
        assert!(canvas.get(1, 1)[0] == 255, "corners stay clear");
    }
}
