//! How things are drawn before they reach the GPU: the kingdoms' colours and ink
//! ([`palette`]), textures drawn on the CPU ([`textures`]) and the game's icon ([`icon`]).

pub(crate) mod icon;
pub(crate) mod palette;
pub(crate) mod textures;
