//! Textures drawn at start-up on the CPU: canvases (`qiguo_picture`'s, antialiased shapes and
//! characters rasterized from the shipped kaishu font) made into images with a mip chain
//! averaged in linear light, so that the grid and the characters stay smooth from far away.

use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::*;
use bevy::render::render_resource::{
    Extent3d, TextureDimension, TextureFormat, TextureViewDescriptor, TextureViewDimension,
};
pub(crate) use qiguo_picture::{Canvas, Face, Rgba};

/// The shipped font subset (see `assets/fonts/README.md`): on the desktop, the whole cut.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use qiguo_picture::KAI as KAI_FONT;

#[cfg(target_arch = "wasm32")]
pub(crate) use KAI_FONT_CORE as KAI_FONT;
/// In a page, the core cut (the characters of the game and its interface), a tenth of the
/// download; the whole cut follows once the board is drawn (`crate::browser::font`).
#[cfg(any(target_arch = "wasm32", test))]
pub(crate) use qiguo_picture::KAI_CORE as KAI_FONT_CORE;

/// The face the textures' characters are drawn in: the shipped kaishu.
pub(crate) fn kai() -> Face<'static> {
    Face::new(KAI_FONT)
}

/// A canvas made into a texture.
pub(crate) trait CanvasImage: Sized {
    /// The image with a full mip chain, sampled with trilinear, anisotropic filtering.
    fn into_image(self, repeat: bool) -> Image {
        self.into_image_with(repeat, None)
    }

    /// As [`CanvasImage::into_image`], never sampling mip levels smaller than `smallest`
    /// pixels (sharper fine detail, such as characters, when seen small).
    fn into_image_with(self, repeat: bool, smallest: Option<usize>) -> Image;
}

/// [`CanvasImage::into_image`] a piece at a time: the mip levels of a whole texture are a
/// good part of a second of a phone's time.
pub(crate) async fn into_image_in_pieces(canvas: Canvas, repeat: bool) -> Image {
    /// Pixels of the smaller levels averaged in a piece.
    const PER_PIECE: usize = 64 * 1024;
    let size = canvas.size();
    let (data, levels) = mip_chain_in_pieces(canvas.into_pixels(), size, PER_PIECE).await;
    square_image(size, 1, data, levels, repeat, None)
}

impl CanvasImage for Canvas {
    fn into_image_with(self, repeat: bool, smallest: Option<usize>) -> Image {
        let size = self.size();
        let (data, levels) = mip_chain(self.into_pixels(), size);
        square_image(size, 1, data, levels, repeat, smallest)
    }
}

/// Canvases of one size made into the layers of one array texture, one at a time, each with
/// its mip chain as [`CanvasImage::into_image_with`] makes it (edges clamped): what a shader
/// picks a layer of by number.
pub(crate) struct Layers {
    size: usize,
    smallest: Option<usize>,
    layers: u32,
    levels: u32,
    data: Vec<u8>,
}

impl Layers {
    /// No layers yet, each `size` pixels across, never sampled smaller than `smallest`; room
    /// for `expected` of them.
    pub(crate) fn new(size: usize, smallest: Option<usize>, expected: usize) -> Layers {
        // A layer's mip levels are under a third of its own pixels more.
        let layer = size * size * 4;
        Layers {
            size,
            smallest,
            layers: 0,
            levels: 1,
            data: Vec::with_capacity(expected * (layer + layer.div_ceil(3))),
        }
    }

    /// `canvas` as the next layer.
    ///
    /// # Panics
    /// If the canvas is not the layers' size.
    pub(crate) fn push(&mut self, canvas: Canvas) {
        assert_eq!(
            canvas.size(),
            self.size,
            "the layers of a texture have one size"
        );
        let (chain, levels) = mip_chain(canvas.into_pixels(), self.size);
        self.data.extend(chain);
        self.layers += 1;
        self.levels = levels;
    }

    /// The array texture of every layer pushed (at least one: a transparent one if none was).
    pub(crate) fn into_image(mut self) -> Image {
        if self.layers == 0 {
            self.push(Canvas::new(self.size, [0; 4]));
        }
        let mut image = square_image(
            self.size,
            self.layers,
            self.data,
            self.levels,
            false,
            self.smallest,
        );
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
        sampler.lod_max_clamp = self_size_log2(size).saturating_sub(smallest.max(1).ilog2()) as f32;
    }
    sampler.set_anisotropic_filter(8);
    image.sampler = ImageSampler::Descriptor(sampler);
    image
}

fn self_size_log2(size: usize) -> u32 {
    size.max(1).ilog2()
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
    let mut chain = MipChain::new(level0, size);
    while chain.average(usize::MAX) {}
    chain.finish()
}

/// [`mip_chain`] a piece at a time ([`crate::game::art::painting`]): at most `per_piece` pixels
/// of the smaller levels averaged between two pieces. The same chain.
pub(crate) async fn mip_chain_in_pieces(
    level0: Vec<u8>,
    size: usize,
    per_piece: usize,
) -> (Vec<u8>, u32) {
    let mut chain = MipChain::new(level0, size);
    while chain.average(per_piece) {
        super::painting::next_piece().await;
    }
    chain.finish()
}

/// The decoding of every sRGB byte into linear light in fixed point, and the encoding back: made
/// once, shared by every mip chain (a face's, a layer's, the wood's).
fn srgb_tables() -> &'static (Vec<u32>, SrgbEncoder) {
    static TABLES: std::sync::OnceLock<(Vec<u32>, SrgbEncoder)> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let linear = (0..=255u8)
            .map(|v| (srgb_to_linear(v) * LINEAR_ONE as f32).round() as u32)
            .collect();
        (linear, SrgbEncoder::new())
    })
}

/// A mip chain being averaged: the levels so far, and where the next level stands.
struct MipChain {
    linear: &'static [u32],
    encoder: &'static SrgbEncoder,
    data: Vec<u8>,
    levels: u32,
    /// Where the level being averaged from starts in `data`, and its side.
    from: usize,
    side: usize,
    /// The level being made, and its next row.
    next: Vec<u8>,
    row: usize,
}

impl MipChain {
    fn new(level0: Vec<u8>, size: usize) -> MipChain {
        let (linear, encoder) = srgb_tables();
        MipChain {
            linear,
            encoder,
            data: level0,
            levels: 1,
            from: 0,
            side: size,
            next: Vec::new(),
            row: 0,
        }
    }

    /// Averages at least a row of the next level, and rows until `pixels` are made; whether
    /// levels remain.
    fn average(&mut self, pixels: usize) -> bool {
        let mut made = 0;
        while self.side > 1 {
            let (s, n) = (self.side, self.side / 2);
            let data = &self.data;
            while self.row < n {
                let top = self.from + 2 * self.row * s * 4;
                let bottom = top + s * 4;
                for x in 0..n {
                    let (a, b) = (top + 8 * x, bottom + 8 * x);
                    for k in 0..3 {
                        let sum = self.linear[data[a + k] as usize]
                            + self.linear[data[a + 4 + k] as usize]
                            + self.linear[data[b + k] as usize]
                            + self.linear[data[b + 4 + k] as usize];
                        self.next.push(self.encoder.encode((sum + 2) / 4));
                    }
                    let alpha = u32::from(data[a + 3])
                        + u32::from(data[a + 7])
                        + u32::from(data[b + 3])
                        + u32::from(data[b + 7]);
                    self.next.push(((alpha + 2) / 4) as u8);
                }
                self.row += 1;
                made += n;
                if made >= pixels && self.row < n {
                    return true;
                }
            }
            self.from = self.data.len();
            self.data.append(&mut self.next);
            self.side = n;
            self.row = 0;
            self.levels += 1;
            if made >= pixels {
                return self.side > 1;
            }
        }
        false
    }

    fn finish(self) -> (Vec<u8>, u32) {
        (self.data, self.levels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ab_glyph::{Font, FontRef};

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
            root.join("crates/qiguo-picture/src"),
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

    /// The chain made in pieces is the chain, whatever the pieces' size; a piece makes at
    /// least a row.
    #[test]
    fn a_mip_chain_in_pieces_is_the_chain() {
        let size = 64;
        let level0: Vec<u8> = (0..size * size * 4)
            .map(|i| ((i * 2_654_435_761usize) >> 9) as u8)
            .collect();
        let whole = mip_chain(level0.clone(), size);
        for per_piece in [0, 1, 31, 32, 100, 4096, usize::MAX] {
            let (pieces, chain) = crate::game::art::painting::pieces_of(mip_chain_in_pieces(
                level0.clone(),
                size,
                per_piece,
            ));
            assert_eq!(chain, whole, "{per_piece} pixels a piece");
            if per_piece <= 1 {
                // A row a piece: 32 + 16 + 8 + 4 + 2 + 1 rows.
                assert_eq!(pieces, 63, "{per_piece} pixels a piece");
            }
        }
        assert_eq!(whole.1, 7);
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
}
