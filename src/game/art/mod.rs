//! How things are drawn before they reach the GPU: the kingdoms' colours and ink
//! ([`palette`]), textures drawn on the CPU ([`textures`]), the larger of them drawn off the
//! frame ([`painting`]), and the game's icon ([`icon`]).

pub(crate) mod icon;
pub(crate) mod painting;
pub(crate) mod palette;
pub(crate) mod textures;
