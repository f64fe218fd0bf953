//! How stones look: a lens-shaped mesh (two spherical caps, like a go stone) whose faces carry
//! a texture drawn at start-up for each kingdom and piece — the character in kaishu, an
//! engraved ring and the kingdom's rim emblem — and the yellow Emperor. Every stone shares the
//! mesh and one material, its face a layer of one texture ([`faces`]): first small faces,
//! drawn at once, then the whole ones, drawn off the frame ([`Painting`]). The view turns
//! every stone so its character reads upright from the camera.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::MeshTag;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use qiguo_rules::Piece;

use qiguo_picture::stone::{FaceLook, emperor_face, stone_face};

use crate::game::art::painting::{Painting, next_piece};
use crate::game::art::palette::{Palette, palette_changed};
use crate::game::art::textures::{CanvasImage, Layers, kai};
use crate::game::camera::ViewYaw;
use crate::game::frames::Waker;
use crate::game::layout::{EMPEROR_RADIUS, STONE_HEIGHT, STONE_RADIUS};
use crate::game::schedule::AppSystems;
use crate::game::stones::faces::{self, FaceMaterial, Faces};
use crate::game::stones::{EmperorStone, Look, Stone};

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(faces::plugin)
        .init_resource::<Palette>()
        .init_resource::<WholeFaces>()
        .add_systems(Startup, make_stone_assets.before(dress_stones))
        .add_systems(
            Update,
            (
                (
                    repaint_stones.run_if(palette_changed),
                    wear_whole_faces.run_if(|faces: Res<WholeFaces>| !faces.done()),
                )
                    .chain(),
                dress_stones,
                face_the_viewer,
            )
                .in_set(AppSystems::Present),
        )
        .add_systems(PostStartup, dress_stones);
}

/// Meshes and materials for every kind of stone.
#[derive(Resource)]
pub(crate) struct StoneAssets {
    mesh: Handle<Mesh>,
    emperor_mesh: Handle<Mesh>,
    /// Every stone's material.
    material: Handle<FaceMaterial>,
    /// Its faces, a layer each.
    faces: Handle<Image>,
    emperor: Handle<StandardMaterial>,
}

/// Side of a face texture in pixels.
const FACE_SIZE: usize = 256;

/// Side of the first faces, drawn before the first frame (a sixty-fourth of the whole faces'
/// pixels: the characters a blur, for the moment the whole ones take); the whole ones follow,
/// drawn off the frame ([`WholeFaces`]).
const FIRST_FACE_SIZE: usize = 32;

/// The stones' whole faces while they are drawn; none once the stones wear them.
#[derive(Resource, Default)]
pub(crate) struct WholeFaces(Option<Painting<Image>>);

impl WholeFaces {
    /// Whether the stones wear their whole faces (what a screenshot waits for).
    pub(crate) fn done(&self) -> bool {
        self.0.is_none()
    }

    /// Starts drawing the whole faces in `palette` (a drawing in an older one is dropped).
    fn start(&mut self, waker: &Waker, palette: Palette) {
        self.0 = Some(Painting::start(waker, whole_faces(palette)));
    }
}

fn make_stone_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut face_materials: ResMut<Assets<FaceMaterial>>,
    palette: Res<Palette>,
    mut whole: ResMut<WholeFaces>,
    waker: Res<Waker>,
) {
    let faces = images.add(face_layers(*palette, FIRST_FACE_SIZE));
    whole.start(&waker, *palette);
    let material = face_materials.add(FaceMaterial {
        base: stone_surface(None),
        extension: Faces {
            layers: faces.clone(),
        },
    });
    let emperor = materials.add(stone_surface(Some(images.add(emperor_image()))));
    commands.insert_resource(StoneAssets {
        mesh: meshes.add(lens_mesh(STONE_RADIUS, STONE_HEIGHT / 2.0)),
        emperor_mesh: meshes.add(lens_mesh(EMPEROR_RADIUS, STONE_HEIGHT * 0.6)),
        material,
        faces,
        emperor,
    });
}

/// Redraws every face in the palette chosen, in the texture every stone's material shows: the
/// first faces at once, the whole ones after.
fn repaint_stones(
    assets: Res<StoneAssets>,
    palette: Res<Palette>,
    mut images: ResMut<Assets<Image>>,
    mut whole: ResMut<WholeFaces>,
    waker: Res<Waker>,
) {
    if let Err(e) = images.insert(&assets.faces, face_layers(*palette, FIRST_FACE_SIZE)) {
        warn!("the stones' faces were not repainted: {e}");
    }
    whole.start(&waker, *palette);
}

/// The whole faces, once drawn, in the texture every stone's material shows.
fn wear_whole_faces(
    assets: Option<Res<StoneAssets>>,
    mut whole: ResMut<WholeFaces>,
    mut images: ResMut<Assets<Image>>,
) {
    let (Some(assets), Some(painting)) = (assets, whole.0.as_mut()) else {
        return;
    };
    let Some(faces) = painting.take() else {
        return;
    };
    whole.0 = None;
    if let Err(e) = images.insert(&assets.faces, faces) {
        warn!("the stones' whole faces were not worn: {e}");
    }
}

/// A stone's surface: its gloss, and `image` on its faces (the stones' own material gives each
/// its face instead).
fn stone_surface(image: Option<Handle<Image>>) -> StandardMaterial {
    StandardMaterial {
        base_color_texture: image,
        perceptual_roughness: 0.3,
        reflectance: 0.45,
        ..default()
    }
}

/// Every kingdom's every piece in `palette`, `size` pixels across, a layer each (in the order
/// of [`faces::layer`]).
fn face_layers(palette: Palette, size: usize) -> Image {
    let mut layers = Layers::new(size, Some(FACE_SMALLEST), faces::FACES);
    for piece in faces::pieces() {
        layers.push(face_canvas(piece, palette, size));
    }
    layers.into_image()
}

/// [`face_layers`] at their whole size, a face at a time ([`Painting`]): the same image.
async fn whole_faces(palette: Palette) -> Image {
    let mut layers = Layers::new(FACE_SIZE, Some(FACE_SMALLEST), faces::FACES);
    for piece in faces::pieces() {
        next_piece().await;
        layers.push(face_canvas(piece, palette, FACE_SIZE));
    }
    layers.into_image()
}

/// The smallest mip level a face is sampled at, in pixels: its characters stay sharp.
const FACE_SMALLEST: usize = 64;

pub(crate) use qiguo_picture::stone::stone_characters;

/// A stone's face in `palette`: its colour, the engraved ring, the rim emblem and the
/// characters; larger characters take the ring's room, and high contrast outlines the stone in
/// black (a light stone on the pale board) and makes the strokes bolder.
fn face_canvas(piece: Piece, palette: Palette, size: usize) -> qiguo_picture::Canvas {
    let look = FaceLook {
        high_contrast: palette.high_contrast,
        large_characters: palette.large_characters,
    };
    stone_face(&kai(), piece, palette.style(piece.kingdom), look, size)
}

fn emperor_image() -> Image {
    emperor_face(&kai(), FACE_SIZE).into_image_with(false, Some(FACE_SMALLEST))
}

/// A lens: two spherical caps of height `cap` meeting at a rim of `radius`, centred on the
/// origin. Each face is textured by projecting its texture straight down, `v` growing
/// towards +Z, so a texture reads upright from a viewer on the +Z side.
pub(crate) fn lens_mesh(radius: f32, cap: f32) -> Mesh {
    const RINGS: usize = 10;
    const SEGMENTS: usize = 48;
    let sphere = (radius * radius + cap * cap) / (2.0 * cap);
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut uvs = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for side in [1.0f32, -1.0] {
        let base = positions.len() as u32;
        let centre = Vec3::Y * side * (cap - sphere);
        positions.push([0.0, side * cap, 0.0]);
        normals.push([0.0, side, 0.0]);
        uvs.push([0.5, 0.5]);
        for ring in 1..=RINGS {
            // Rings spaced evenly in angle on the sphere, for smooth shading.
            let max_angle = (radius / sphere).asin();
            let angle = max_angle * ring as f32 / RINGS as f32;
            let r = sphere * angle.sin();
            for seg in 0..SEGMENTS {
                let a = seg as f32 * std::f32::consts::TAU / SEGMENTS as f32;
                let (x, z) = (r * a.cos(), r * a.sin());
                let y = side * (sphere * angle.cos()) + centre.y;
                let p = Vec3::new(x, y, z);
                let n = (p - centre).normalize();
                positions.push(p.to_array());
                normals.push(n.to_array());
                let u = x / (2.0 * radius) + 0.5;
                let u = if side > 0.0 { u } else { 1.0 - u };
                uvs.push([u, z / (2.0 * radius) + 0.5]);
            }
        }
        let ring_start = |ring: usize| base + 1 + ((ring - 1) * SEGMENTS) as u32;
        let mut tri = |a: u32, b: u32, c: u32| {
            if side > 0.0 {
                indices.extend([a, b, c]);
            } else {
                indices.extend([a, c, b]);
            }
        };
        for seg in 0..SEGMENTS {
            let next = (seg + 1) % SEGMENTS;
            tri(
                base,
                ring_start(1) + next as u32,
                ring_start(1) + seg as u32,
            );
        }
        for ring in 1..RINGS {
            for seg in 0..SEGMENTS {
                let next = (seg + 1) % SEGMENTS;
                let (a, b) = (
                    ring_start(ring) + seg as u32,
                    ring_start(ring) + next as u32,
                );
                let (c, d) = (
                    ring_start(ring + 1) + seg as u32,
                    ring_start(ring + 1) + next as u32,
                );
                tri(a, b, d);
                tri(a, d, c);
            }
        }
    }
    // Kept in the main world too: picking ray-casts against it.
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(Indices::U32(indices))
}

/// Gives new stones their mesh and material, and stones whose look changed (a transferred
/// army, once the capturing stone lands) their new colour.
fn dress_stones(
    mut commands: Commands,
    assets: Option<Res<StoneAssets>>,
    stones: Query<(Entity, &Look), Changed<Look>>,
    emperors: Query<Entity, (With<EmperorStone>, Without<Mesh3d>)>,
) {
    let Some(assets) = assets else { return };
    for (entity, Look(piece)) in &stones {
        commands.entity(entity).try_insert((
            Mesh3d(assets.mesh.clone()),
            MeshMaterial3d(assets.material.clone()),
            MeshTag(faces::layer(*piece)),
        ));
    }
    for entity in &emperors {
        commands.entity(entity).try_insert((
            Mesh3d(assets.emperor_mesh.clone()),
            MeshMaterial3d(assets.emperor.clone()),
        ));
    }
}

/// Turns every stone about its axis so its character reads upright from the camera.
fn face_the_viewer(
    yaw: Res<ViewYaw>,
    mut stones: Query<&mut Transform, Or<(With<Stone>, With<EmperorStone>)>>,
    added: Query<(), Or<(Added<Stone>, Added<EmperorStone>)>>,
) {
    if !yaw.is_changed() && added.is_empty() {
        return;
    }
    let rotation = Quat::from_rotation_y(yaw.0);
    for mut transform in &mut stones {
        if transform.rotation != rotation {
            transform.rotation = rotation;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_picture::Rgba;
    use qiguo_rules::Kingdom;
    use qiguo_rules::PieceKind;

    #[test]
    fn lens_is_closed_and_sized() {
        let mesh = lens_mesh(0.45, 0.15);
        let positions = mesh.attribute(Mesh::ATTRIBUTE_POSITION).unwrap().len();
        assert_eq!(positions, 2 * (1 + 10 * 48));
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(points)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions are 3D floats");
        };
        let max = |axis: usize| points.iter().map(|p| p[axis].abs()).fold(0.0f32, f32::max);
        assert!((max(0) - 0.45).abs() < 1e-3);
        assert!((max(1) - 0.15).abs() < 1e-3);
        assert!((max(2) - 0.45).abs() < 1e-3);
    }

    /// A face alone, `size` pixels across, as an image of its own.
    fn face_image_of(piece: Piece, palette: Palette, size: usize) -> Image {
        face_canvas(piece, palette, size).into_image_with(false, Some(FACE_SMALLEST))
    }

    /// A whole face alone.
    fn face_image(piece: Piece, palette: Palette) -> Image {
        face_image_of(piece, palette, FACE_SIZE)
    }

    /// Every piece's face is the layer of the one texture that its stones' tag names, in the
    /// first faces and in the whole ones drawn a face at a time.
    #[test]
    fn every_face_is_the_layer_its_stones_show() {
        let p = Palette::default();
        let first = face_layers(p, FIRST_FACE_SIZE);
        let (pieces, whole) = crate::game::art::painting::pieces_of(whole_faces(p));
        assert_eq!(pieces, faces::FACES + 1, "a face a piece");
        for (layers, size) in [(first, FIRST_FACE_SIZE), (whole, FACE_SIZE)] {
            assert_eq!(layers.width() as usize, size);
            assert_eq!(
                layers.texture_descriptor.size.depth_or_array_layers,
                faces::FACES as u32
            );
            assert_eq!(
                layers
                    .texture_view_descriptor
                    .as_ref()
                    .and_then(|v| v.dimension),
                Some(bevy::render::render_resource::TextureViewDimension::D2Array)
            );
            let data = layers.data.as_ref().unwrap();
            let per_layer = data.len() / faces::FACES;
            for piece in [
                Piece::new(Kingdom::Qin, PieceKind::General),
                Piece::new(Kingdom::Zhao, PieceKind::Cannon),
                Piece::new(Kingdom::Yan, PieceKind::Knight),
            ] {
                let own = face_image_of(piece, p, size);
                let at = faces::layer(piece) as usize * per_layer;
                assert_eq!(
                    &data[at..at + per_layer],
                    own.data.as_ref().unwrap().as_slice(),
                    "{piece:?} at {size}"
                );
            }
        }
    }

    /// In an app, the stones first wear the small faces, then the whole ones once drawn; a
    /// palette chosen meanwhile starts them again in its colours.
    #[test]
    fn the_stones_wear_their_whole_faces_once_drawn() {
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin::default(),
            ImagePlugin::default(),
        ))
        .init_asset::<Mesh>()
        .init_asset::<StandardMaterial>()
        .init_asset::<FaceMaterial>()
        .init_resource::<Palette>()
        .init_resource::<WholeFaces>()
        .init_resource::<Waker>()
        .add_systems(Startup, make_stone_assets)
        .add_systems(
            Update,
            (
                repaint_stones.run_if(palette_changed),
                wear_whole_faces.run_if(|faces: Res<WholeFaces>| !faces.done()),
            )
                .chain(),
        );
        let width = |app: &App| {
            let assets = app.world().resource::<StoneAssets>();
            let images = app.world().resource::<Assets<Image>>();
            images
                .get(&assets.faces)
                .map(|image| image.width() as usize)
        };
        let wait_for_whole_faces = |app: &mut App| {
            for _ in 0..100_000 {
                app.update();
                if app.world().resource::<WholeFaces>().done() {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            panic!("the whole faces never came");
        };
        app.update();
        if !app.world().resource::<WholeFaces>().done() {
            assert_eq!(width(&app), Some(FIRST_FACE_SIZE), "the first faces first");
        }
        wait_for_whole_faces(&mut app);
        assert_eq!(width(&app), Some(FACE_SIZE));
        // High contrast: the first faces in its colours, then its whole faces.
        app.world_mut().resource_mut::<Palette>().high_contrast = true;
        app.update();
        wait_for_whole_faces(&mut app);
        let assets = app.world().resource::<StoneAssets>();
        let images = app.world().resource::<Assets<Image>>();
        let worn = images.get(&assets.faces).unwrap().data.clone().unwrap();
        let high = Palette {
            high_contrast: true,
            ..Palette::default()
        };
        let piece = Piece::new(Kingdom::Qin, PieceKind::Cannon);
        let own = face_image(piece, high);
        let per_layer = worn.len() / faces::FACES;
        let at = faces::layer(piece) as usize * per_layer;
        assert_eq!(
            &worn[at..at + per_layer],
            own.data.as_ref().unwrap().as_slice()
        );
    }

    #[test]
    fn faces_differ_by_kingdom_and_piece() {
        let p = Palette::default();
        let a = face_image(Piece::new(Kingdom::Chu, PieceKind::Knight), p);
        let b = face_image(Piece::new(Kingdom::Han, PieceKind::Knight), p);
        let c = face_image(Piece::new(Kingdom::Chu, PieceKind::Cannon), p);
        let level0 = |i: &Image| i.data.as_ref().unwrap()[..FACE_SIZE * FACE_SIZE * 4].to_vec();
        assert_ne!(level0(&a), level0(&b));
        assert_ne!(level0(&a), level0(&c));
        assert_eq!(
            stone_characters(Piece::new(Kingdom::Qi, PieceKind::General)),
            "齊"
        );
        assert_eq!(
            stone_characters(Piece::new(Kingdom::Qi, PieceKind::GoBetween)),
            "行人"
        );
    }

    /// Pixels of a face within `band` of its radius (as shares of it) in `ink`.
    fn inked(image: &Image, band: std::ops::Range<f32>, ink: Rgba) -> usize {
        let data = &image.data.as_ref().unwrap()[..FACE_SIZE * FACE_SIZE * 4];
        let mid = FACE_SIZE as f32 / 2.0;
        (0..FACE_SIZE * FACE_SIZE)
            .filter(|&i| {
                let (x, y) = ((i % FACE_SIZE) as f32 + 0.5, (i / FACE_SIZE) as f32 + 0.5);
                let r = ((x - mid).powi(2) + (y - mid).powi(2)).sqrt() / mid;
                band.contains(&r) && data[i * 4..i * 4 + 3] == ink[..3]
            })
            .count()
    }

    /// Larger characters leave more ink inside the emblem's band than the usual ones (the
    /// engraved ring gone); high contrast rings the stone in black.
    #[test]
    fn larger_characters_and_high_contrast_change_the_face() {
        let piece = Piece::new(Kingdom::Qin, PieceKind::Cannon);
        let ink = Palette::default().style(Kingdom::Qin).ink;
        let plain = face_image(piece, Palette::default());
        let large = face_image(
            piece,
            Palette {
                large_characters: true,
                ..Palette::default()
            },
        );
        let inner = 0.0..0.7;
        let (a, b) = (inked(&plain, inner.clone(), ink), inked(&large, inner, ink));
        assert!(
            b as f32 > a as f32 * 1.3,
            "larger: {b} ink pixels against {a}"
        );
        let black = [0, 0, 0, 255];
        assert_eq!(inked(&plain, 0.96..0.99, black), 0);
        let high = face_image(
            piece,
            Palette {
                high_contrast: true,
                ..Palette::default()
            },
        );
        let rim = inked(&high, 0.96..0.99, black);
        assert!(rim > 500, "a black rim: {rim} pixels");
    }
}
