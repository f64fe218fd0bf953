//! Pictures of Qiguo drawn on the CPU, without a GPU or a game engine: the canvas the game's
//! textures are drawn on (antialiased shapes, characters in kaishu), the stones' faces in the
//! kingdoms' colours, and pictures of a position — a game's card for link previews (PNG,
//! 1200×630) and a finished game's moves as an animated GIF.

pub mod animation;
pub mod board;
pub mod canvas;
pub mod card;
pub mod encode;
pub mod kingdoms;
pub mod stone;

pub use canvas::{Canvas, Face, Rgba};

/// The page's cut of the shipped kaishu font (see `assets/fonts/README.md`): the characters
/// of the game and its interface, a tenth of the whole.
pub static KAI_CORE: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/fonts/qiguo-kai-core.ttf"
));

/// The whole cut: also the common characters of both Chinese scripts, so that names typed in
/// either show, not boxes. Not in a page's build, which fetches it after the first board.
#[cfg(not(target_arch = "wasm32"))]
pub static KAI: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/fonts/qiguo-kai.ttf"
));

/// The face pictures write their words in: a Latin sans-serif (egui's Ubuntu Light, which the
/// game's interface shows too), the kaishu for Chinese (its whole cut where there is one).
pub fn words_face() -> Face<'static> {
    #[cfg(not(target_arch = "wasm32"))]
    let kai = KAI;
    #[cfg(target_arch = "wasm32")]
    let kai = KAI_CORE;
    Face::new(epaint_default_fonts::UBUNTU_LIGHT).then(kai)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The font the tests draw with.
    pub(crate) fn kai() -> Face<'static> {
        Face::new(KAI_CORE)
    }
}
