//! The stones' faces as one material: every kingdom's every piece a layer of one array
//! texture, each stone's [`MeshTag`] the layer it shows (`faces.wgsl`). With one mesh and one
//! material for all of them, the stones on the board are one batch of instances: one draw call
//! in each pass and shadow map, where a material per face made one for each kind of stone in
//! sight (a page draws every batch with its own call, and a phone pays for each).

use bevy::asset::embedded_asset;
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::prelude::*;
use bevy::render::render_resource::AsBindGroup;
use bevy::shader::ShaderRef;
use qiguo_rules::{Kingdom, Piece, PieceKind};

/// A stone's material: the standard one's light and gloss, its colour from its face's layer.
pub(crate) type FaceMaterial = ExtendedMaterial<StandardMaterial, Faces>;

pub(crate) fn plugin(app: &mut App) {
    embedded_asset!(app, "faces.wgsl");
    app.add_plugins(MaterialPlugin::<FaceMaterial>::default());
}

/// Every face, a layer each, in the order of [`layer`].
#[derive(Asset, AsBindGroup, Reflect, Debug, Clone)]
pub(crate) struct Faces {
    #[texture(100, dimension = "2d_array")]
    #[sampler(101)]
    pub(crate) layers: Handle<Image>,
}

impl MaterialExtension for Faces {
    fn fragment_shader() -> ShaderRef {
        "embedded://qiguo/game/stones/faces.wgsl".into()
    }
}

/// The number of faces: every piece of every kingdom.
pub(crate) const FACES: usize = Kingdom::ALL.len() * PieceKind::ALL.len();

/// The layer holding `piece`'s face: kingdom by kingdom, each kind in the rules' order.
pub(crate) fn layer(piece: Piece) -> u32 {
    let kind = PieceKind::ALL
        .iter()
        .position(|k| *k == piece.kind)
        .expect("every kind is among all kinds");
    (piece.kingdom as usize * PieceKind::ALL.len() + kind) as u32
}

/// Every piece, in the order of the layers.
pub(crate) fn pieces() -> impl Iterator<Item = Piece> {
    Kingdom::ALL
        .into_iter()
        .flat_map(|kingdom| PieceKind::ALL.map(|kind| Piece::new(kingdom, kind)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_has_its_own_layer_in_order() {
        let layers: Vec<u32> = pieces().map(layer).collect();
        assert_eq!(layers, (0..FACES as u32).collect::<Vec<_>>());
    }
}
