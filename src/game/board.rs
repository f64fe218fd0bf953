//! How the board looks: a thick wooden go board on a wooden table, the 19×19 grid, the nine
//! star points, file letters and rank numbers along the edges, each kingdom's home edge tinted
//! in its colour, and the lights that give it soft shadows. The board's top is the pick target
//! for its points.

use bevy::asset::RenderAssetUsages;
use bevy::light::{CascadeShadowConfigBuilder, DirectionalLightShadowMap};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use qiguo_rules::{Edge, Kingdom};

use crate::game::AppSystems;
use crate::game::art::palette::{Palette, palette_changed, with_alpha};
use crate::game::art::textures::{Canvas, Rgba};
use crate::game::layout::{BOARD_HALF, BOARD_THICKNESS, GRID_HALF};

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.08, 0.07, 0.065)))
        .insert_resource(DirectionalLightShadowMap { size: 2048 })
        .insert_resource(GlobalAmbientLight {
            color: Color::srgb(1.0, 0.95, 0.88),
            brightness: 420.0,
            ..default()
        })
        .init_resource::<Palette>()
        .add_systems(Startup, (spawn_board, spawn_lights))
        .add_systems(
            Update,
            repaint_board
                .run_if(palette_changed)
                .in_set(AppSystems::Present),
        );
}

/// Side of the board's top texture in pixels.
const TOP_SIZE: usize = 2048;

const INK: Rgba = [38, 24, 12, 235];

/// A flat square in the XZ plane, `half` from the centre, facing up, with `uv_repeat` copies of
/// its texture across; `v` grows towards +Z. `usage` says which worlds keep the mesh.
fn flat_square(half: f32, uv_repeat: f32, usage: RenderAssetUsages) -> Mesh {
    let positions = vec![
        [-half, 0.0, -half],
        [half, 0.0, -half],
        [half, 0.0, half],
        [-half, 0.0, half],
    ];
    let uvs = vec![
        [0.0, 0.0],
        [uv_repeat, 0.0],
        [uv_repeat, uv_repeat],
        [0.0, uv_repeat],
    ];
    Mesh::new(PrimitiveTopology::TriangleList, usage)
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 1.0, 0.0]; 4])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(vec![0, 2, 1, 0, 3, 2]))
}

/// The board top's material: its texture in the palette's colours.
fn board_top_material(
    images: &mut Assets<Image>,
    materials: &mut Assets<StandardMaterial>,
    palette: Palette,
) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color_texture: Some(images.add(board_top_image(palette))),
        perceptual_roughness: 0.62,
        reflectance: 0.32,
        ..default()
    })
}

/// Redraws the board's top in the palette chosen (its home edges are tinted in the kingdoms'
/// colours): a new texture and material, the old ones dropped with their last handle.
fn repaint_board(
    mut commands: Commands,
    palette: Res<Palette>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    tops: Query<Entity, With<BoardSurface>>,
) {
    let top = board_top_material(&mut images, &mut materials, *palette);
    for entity in &tops {
        commands
            .entity(entity)
            .try_insert(MeshMaterial3d(top.clone()));
    }
}

fn spawn_board(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    palette: Res<Palette>,
) {
    let top = board_top_material(&mut images, &mut materials, *palette);
    let side = materials.add(StandardMaterial {
        base_color_texture: Some(
            images.add(wood_canvas(512, [196, 146, 80], 11.0, 3).into_image(true)),
        ),
        perceptual_roughness: 0.7,
        reflectance: 0.25,
        ..default()
    });
    let table = materials.add(StandardMaterial {
        base_color_texture: Some(
            images.add(wood_canvas(1024, [70, 42, 26], 9.0, 7).into_image(true)),
        ),
        perceptual_roughness: 0.55,
        reflectance: 0.3,
        ..default()
    });
    commands.spawn((
        // Kept in the main world too: picking ray-casts against it.
        Mesh3d(meshes.add(flat_square(BOARD_HALF, 1.0, RenderAssetUsages::default()))),
        MeshMaterial3d(top),
        Transform::from_xyz(0.0, 0.0, 0.0),
        BoardSurface,
        Name::new("board top"),
    ));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(
            BOARD_HALF * 2.0,
            BOARD_THICKNESS,
            BOARD_HALF * 2.0,
        ))),
        MeshMaterial3d(side),
        Transform::from_xyz(0.0, -BOARD_THICKNESS / 2.0 - 0.002, 0.0),
        Pickable::IGNORE,
        Name::new("board body"),
    ));
    commands.spawn((
        Mesh3d(meshes.add(flat_square(60.0, 5.0, RenderAssetUsages::RENDER_WORLD))),
        MeshMaterial3d(table),
        Transform::from_xyz(0.0, -BOARD_THICKNESS, 0.0),
        Pickable::IGNORE,
        Name::new("table"),
    ));
}

fn spawn_lights(mut commands: Commands) {
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: true,
            color: Color::srgb(1.0, 0.96, 0.9),
            ..default()
        },
        CascadeShadowConfigBuilder {
            num_cascades: 2,
            first_cascade_far_bound: 32.0,
            maximum_distance: 80.0,
            ..default()
        }
        .build(),
        Transform::from_xyz(-8.0, 20.0, 12.0).looking_at(Vec3::ZERO, Vec3::Y),
        Name::new("sun"),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2_200.0,
            shadow_maps_enabled: false,
            color: Color::srgb(0.85, 0.9, 1.0),
            ..default()
        },
        Transform::from_xyz(10.0, 12.0, -14.0).looking_at(Vec3::ZERO, Vec3::Y),
        Name::new("fill light"),
    ));
}

/// The board's playing surface: a click on it names the nearest point.
#[derive(Component, Clone, Copy, Debug)]
pub(crate) struct BoardSurface;

/// A cheap hash of integer coordinates to 0–1.
fn hash2(x: i32, y: i32, seed: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h & 0xFFFF) as f32 / 65535.0
}

/// Smooth value noise.
fn noise(x: f32, y: f32, seed: u32) -> f32 {
    let (xi, yi) = (x.floor() as i32, y.floor() as i32);
    let (fx, fy) = (x - xi as f32, y - yi as f32);
    let s = |t: f32| t * t * (3.0 - 2.0 * t);
    let (sx, sy) = (s(fx), s(fy));
    let a = hash2(xi, yi, seed);
    let b = hash2(xi + 1, yi, seed);
    let c = hash2(xi, yi + 1, seed);
    let d = hash2(xi + 1, yi + 1, seed);
    (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sy
}

/// Wood: a base colour with grain lines running along x, warped by noise, and fine pores.
/// Deterministic for a given seed.
fn wood_canvas(size: usize, base: [u8; 3], rings: f32, seed: u32) -> Canvas {
    let mut canvas = Canvas::new(size, [base[0], base[1], base[2], 255]);
    let scale = 1.0 / size as f32;
    for y in 0..size {
        for x in 0..size {
            let (u, v) = (x as f32 * scale, y as f32 * scale);
            let warp =
                noise(u * 3.0, v * 9.0, seed) * 1.6 + noise(u * 9.0, v * 27.0, seed + 1) * 0.4;
            let grain = ((v * rings * std::f32::consts::TAU) + warp * 3.0).sin();
            let stripe = (grain * 0.5 + 0.5).powf(3.0);
            let pores = noise(u * 240.0, v * 36.0, seed + 2);
            let shade =
                1.0 - 0.16 * stripe - 0.05 * pores + 0.05 * noise(u * 2.0, v * 2.0, seed + 3);
            let px = |c: u8| (c as f32 * shade).clamp(0.0, 255.0) as u8;
            canvas.set(x, y, [px(base[0]), px(base[1]), px(base[2]), 255]);
        }
    }
    canvas
}

/// The board's top: kaya-coloured wood, the grid, the star points, the coordinates and the
/// home-edge tints.
fn board_top_image(palette: Palette) -> Image {
    let mut c = wood_canvas(TOP_SIZE, [216, 170, 100], 14.0, 1);
    let k = TOP_SIZE as f32 / (2.0 * BOARD_HALF);
    let px = |world: f32| (world + BOARD_HALF) * k;

    // Home edges: a band along the outer rim in each kingdom's colour.
    let band = 0.3;
    let gap = 0.08;
    for kingdom in Kingdom::ALL {
        let colour = with_alpha(palette.style(kingdom).stone, 0.72);
        let (lo, hi) = match kingdom {
            Kingdom::Qin => (-BOARD_HALF + band + gap, BOARD_HALF - band - gap),
            Kingdom::Chu | Kingdom::Yan => (-BOARD_HALF, -gap),
            Kingdom::Han | Kingdom::Zhao => (gap, BOARD_HALF),
            Kingdom::Qi => (gap, BOARD_HALF - band - gap),
            Kingdom::Wei => (-BOARD_HALF + band + gap, -gap),
        };
        let (x0, y0, x1, y1) = match kingdom.edge() {
            Edge::West => (-BOARD_HALF, lo, -BOARD_HALF + band, hi),
            Edge::East => (BOARD_HALF - band, lo, BOARD_HALF, hi),
            Edge::South => (lo, BOARD_HALF - band, hi, BOARD_HALF),
            Edge::North => (lo, -BOARD_HALF, hi, -BOARD_HALF + band),
        };
        c.rect(px(x0), px(y0), px(x1), px(y1), colour);
    }

    // The grid: nineteen lines each way, the outer ones heavier.
    for i in 0..19 {
        let at = px(i as f32 - GRID_HALF);
        let width = if i == 0 || i == 18 { 4.5 } else { 2.4 };
        let (a, b) = (px(-GRID_HALF), px(GRID_HALF));
        c.segment(Vec2::new(at, a), Vec2::new(at, b), width, INK);
        c.segment(Vec2::new(a, at), Vec2::new(b, at), width, INK);
    }
    for (file, rank) in [
        (3, 3),
        (9, 3),
        (15, 3),
        (3, 9),
        (9, 9),
        (15, 9),
        (3, 15),
        (9, 15),
        (15, 15),
    ] {
        let (x, z) = (file as f32 - GRID_HALF, GRID_HALF - rank as f32);
        c.disc(px(x), px(z), 0.1 * k, INK);
    }

    // Coordinates: file letters south and north, rank numbers west and east.
    let label = [52, 34, 18, 230];
    let height = 0.4 * k;
    let out = GRID_HALF + 0.72;
    for i in 0..19u8 {
        let letter = ((b'a' + i) as char).to_string();
        let x = px(i as f32 - GRID_HALF);
        c.text_line(&letter, x, px(out), height, label);
        c.text_line(&letter, x, px(-out), height, label);
        let number = (i + 1).to_string();
        let z = px(GRID_HALF - i as f32);
        c.text_line(&number, px(-out), z, height, label);
        c.text_line(&number, px(out), z, height, label);
    }
    c.into_image(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wood_is_deterministic_and_grained() {
        let a = wood_canvas(64, [200, 150, 90], 4.0, 1);
        let b = wood_canvas(64, [200, 150, 90], 4.0, 1);
        let reds: Vec<u8> = (0..64).map(|y| a.get(10, y)[0]).collect();
        assert_eq!(reds, (0..64).map(|y| b.get(10, y)[0]).collect::<Vec<_>>());
        let (lo, hi) = (reds.iter().min().unwrap(), reds.iter().max().unwrap());
        assert!(hi - lo > 12, "grain varies: {lo}..{hi}");
    }
}
