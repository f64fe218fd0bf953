//! How the board looks: a thick wooden go board on a wooden table, the 19×19 grid, the nine
//! star points, file letters and rank numbers along the edges, each kingdom's home edge tinted
//! in its colour, and the lights that give it soft shadows. The board's top is the pick target
//! for its points.

use bevy::asset::RenderAssetUsages;
use bevy::ecs::system::SystemParam;
use bevy::light::{CascadeShadowConfigBuilder, DirectionalLightShadowMap};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use qiguo_rules::Kingdom;

use qiguo_picture::kingdoms::home_band;

use crate::game::art::painting::{Painting, next_piece};
use crate::game::art::palette::{Palette, palette_changed, with_alpha};
use crate::game::art::textures::{Canvas, CanvasImage, Rgba, into_image_in_pieces, kai};
use crate::game::frames::Waker;
use crate::game::layout::{BOARD_HALF, BOARD_THICKNESS, GRID_HALF};
use crate::game::schedule::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.08, 0.07, 0.065)))
        .insert_resource(DirectionalLightShadowMap { size: 2048 })
        .insert_resource(GlobalAmbientLight {
            color: Color::srgb(1.0, 0.95, 0.88),
            brightness: 420.0,
            ..default()
        })
        .init_resource::<Palette>()
        .init_resource::<SharperWood>()
        .add_systems(Startup, (spawn_board, spawn_lights))
        .add_systems(
            Update,
            (
                repaint_board.run_if(palette_changed),
                wear_whole_wood.run_if(|wood: Res<SharperWood>| !wood.done()),
            )
                .chain()
                .in_set(AppSystems::Present),
        );
}

/// Side of the board's top texture in pixels.
const TOP_SIZE: usize = 2048;

/// Side of the board top's first texture, drawn before the first frame: a sixteenth of the
/// pixels, so that the first frame does not wait for the whole one, which follows a moment
/// after, drawn off the frame ([`SharperWood`]; the welcome card stands over the board
/// meanwhile).
const FIRST_TOP_SIZE: usize = 512;

/// The table's texture, and its first one (as the top's).
const TABLE_SIZE: usize = 1024;
const FIRST_TABLE_SIZE: usize = 256;

/// The board's sides' texture, and their first one (as the top's).
const SIDE_SIZE: usize = 512;
const FIRST_SIDE_SIZE: usize = 128;
const TABLE_WOOD: Wood = Wood {
    base: [70, 42, 26],
    rings: 9.0,
    seed: 7,
};

/// Rows of wood drawn in one piece of a whole texture ([`Painting`]): a few milliseconds of a
/// phone's time for the top's 2048 pixels a row.
const ROWS_A_PIECE: usize = 16;

const INK: Rgba = [38, 24, 12, 235];

/// The high-contrast board's ground (plain, no grain) and its ink.
const PAPER: Rgba = [250, 246, 234, 255];
const BLACK: Rgba = [0, 0, 0, 255];

/// The top's first canvas in `palette`: wood, or plain paper for high contrast.
fn top_ground(size: usize, palette: Palette) -> Canvas {
    if palette.high_contrast {
        Canvas::new(size, PAPER)
    } else {
        TOP_WOOD.canvas(size)
    }
}

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

/// The board top's material: its first texture in the palette's colours; the whole one is
/// drawn after ([`SharperWood`]).
fn board_top_material(
    images: &mut Assets<Image>,
    materials: &mut Assets<StandardMaterial>,
    palette: Palette,
    sharper: &mut SharperWood,
    waker: &Waker,
) -> Handle<StandardMaterial> {
    let mut first = top_ground(FIRST_TOP_SIZE, palette);
    draw_board_top(&mut first, palette);
    let material = materials.add(StandardMaterial {
        base_color_texture: Some(images.add(first.into_image(false))),
        perceptual_roughness: 0.62,
        reflectance: 0.32,
        ..default()
    });
    // A top still being drawn in an older palette is not finished.
    sharper.0.retain(|job| !job.top);
    sharper.0.push(WholeWood {
        top: true,
        material: material.clone(),
        painting: Painting::start(waker, TOP_WOOD.whole(TOP_SIZE, Some(palette))),
    });
    material
}

/// Redraws the board's top in the palette chosen (its home edges are tinted in the kingdoms'
/// colours): a new texture and material, the old ones dropped with their last handle.
fn repaint_board(
    mut commands: Commands,
    palette: Res<Palette>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut sharper: ResMut<SharperWood>,
    tops: Query<Entity, With<BoardSurface>>,
    waker: Res<Waker>,
) {
    let top = board_top_material(&mut images, &mut materials, *palette, &mut sharper, &waker);
    for entity in &tops {
        commands
            .entity(entity)
            .try_insert(MeshMaterial3d(top.clone()));
    }
}

/// The whole textures of the board's top, its sides and the table while they are drawn off the
/// frame; empty once they are worn.
#[derive(Resource, Default)]
pub(crate) struct SharperWood(Vec<WholeWood>);

impl SharperWood {
    /// Whether the board's top, its sides and the table wear their whole textures.
    pub(crate) fn done(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether the board and the stones wear their whole textures, drawn off the frame after the
/// first ones (what a screenshot and the page's note wait for); true where the app draws
/// neither.
#[derive(SystemParam)]
pub(crate) struct WholeTextures<'w> {
    wood: Option<Res<'w, SharperWood>>,
    faces: Option<Res<'w, crate::game::stones::view::WholeFaces>>,
}

impl WholeTextures<'_> {
    pub(crate) fn worn(&self) -> bool {
        self.wood.as_ref().is_none_or(|wood| wood.done())
            && self.faces.as_ref().is_none_or(|faces| faces.done())
    }
}

/// A whole texture being drawn for a material: the board's top, or plain wood (its sides, the
/// table).
pub(crate) struct WholeWood {
    top: bool,
    material: Handle<StandardMaterial>,
    painting: Painting<Image>,
}

/// A kind of wood: its colour, grain rings and seed.
#[derive(Clone, Copy)]
struct Wood {
    base: [u8; 3],
    rings: f32,
    seed: u32,
}

/// Each whole texture, once drawn, worn by its material (the first texture dropped with its
/// handle).
fn wear_whole_wood(
    mut sharper: ResMut<SharperWood>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    sharper.0.retain_mut(|job| {
        let Some(image) = job.painting.take() else {
            return true;
        };
        if let Some(mut material) = materials.get_mut(&job.material) {
            material.base_color_texture = Some(images.add(image));
        }
        false
    });
}

fn spawn_board(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    palette: Res<Palette>,
    mut sharper: ResMut<SharperWood>,
    waker: Res<Waker>,
) {
    let top = board_top_material(&mut images, &mut materials, *palette, &mut sharper, &waker);
    let side = materials.add(StandardMaterial {
        base_color_texture: Some(images.add(SIDE_WOOD.canvas(FIRST_SIDE_SIZE).into_image(true))),
        perceptual_roughness: 0.7,
        reflectance: 0.25,
        ..default()
    });
    let table = materials.add(StandardMaterial {
        base_color_texture: Some(images.add(TABLE_WOOD.canvas(FIRST_TABLE_SIZE).into_image(true))),
        perceptual_roughness: 0.55,
        reflectance: 0.3,
        ..default()
    });
    for (wood, size, material) in [
        (SIDE_WOOD, SIDE_SIZE, &side),
        (TABLE_WOOD, TABLE_SIZE, &table),
    ] {
        sharper.0.push(WholeWood {
            top: false,
            material: material.clone(),
            painting: Painting::start(&waker, wood.whole(size, None)),
        });
    }
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
#[cfg(test)]
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

/// One row of smooth value noise: the noise at (`x`, `y`) for a fixed `y` and `x` from 0 up to
/// `width`, its lattice's column values blended for the row once, so that each point costs two
/// lookups and a blend instead of four hashes (the board's wood is millions of points, made at
/// start-up).
struct NoiseRow {
    columns: Vec<f32>,
}

impl NoiseRow {
    fn new(width: f32, y: f32, seed: u32) -> NoiseRow {
        let yi = y.floor() as i32;
        let sy = smooth(y - yi as f32);
        let columns = (0..=width.ceil() as i32 + 1)
            .map(|xi| {
                let (a, c) = (hash2(xi, yi, seed), hash2(xi, yi + 1, seed));
                a + (c - a) * sy
            })
            .collect();
        NoiseRow { columns }
    }

    fn at(&self, x: f32) -> f32 {
        let xi = x.floor();
        let i = (xi as usize).min(self.columns.len() - 2);
        let (a, b) = (self.columns[i], self.columns[i + 1]);
        a + (b - a) * smooth(x - xi)
    }
}

/// The smoothstep that blends the noise's lattice values.
fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

impl Wood {
    /// The whole texture of this wood, `size` pixels across, drawn off the frame a few rows a
    /// piece ([`Painting`]); for a board's top (`top`'s palette), the grid and the rest drawn
    /// on it after, on plain paper for high contrast.
    async fn whole(self, size: usize, top: Option<Palette>) -> Image {
        let mut canvas = match top {
            Some(palette) if palette.high_contrast => Canvas::new(size, PAPER),
            _ => {
                let [r, g, b] = self.base;
                let mut canvas = Canvas::new(size, [r, g, b, 255]);
                for start in (0..size).step_by(ROWS_A_PIECE) {
                    next_piece().await;
                    self.rows(&mut canvas, start..(start + ROWS_A_PIECE).min(size));
                }
                canvas
            }
        };
        if let Some(palette) = top {
            for part in TopPart::ALL {
                next_piece().await;
                part.draw(&mut canvas, palette);
            }
        }
        next_piece().await;
        into_image_in_pieces(canvas, top.is_none()).await
    }

    /// The wood on a canvas of `size` pixels.
    fn canvas(self, size: usize) -> Canvas {
        let [r, g, b] = self.base;
        let mut canvas = Canvas::new(size, [r, g, b, 255]);
        self.rows(&mut canvas, 0..size);
        canvas
    }

    /// Wood: the base colour with grain lines running along x, warped by noise, and fine
    /// pores, drawn into the rows `rows` of `canvas` (each row the same whichever rows are
    /// drawn together). Deterministic for a given seed.
    fn rows(self, canvas: &mut Canvas, rows: std::ops::Range<usize>) {
        let Wood { base, rings, seed } = self;
        let size = canvas.size();
        let scale = 1.0 / size as f32;
        for y in rows {
            let v = y as f32 * scale;
            // The four layers of noise along this row: warps, pores and a broad shade.
            let warp = NoiseRow::new(3.0, v * 9.0, seed);
            let fine_warp = NoiseRow::new(9.0, v * 27.0, seed + 1);
            let pores = NoiseRow::new(240.0, v * 36.0, seed + 2);
            let broad = NoiseRow::new(2.0, v * 2.0, seed + 3);
            for x in 0..size {
                let u = x as f32 * scale;
                let bend = warp.at(u * 3.0) * 1.6 + fine_warp.at(u * 9.0) * 0.4;
                let grain = ((v * rings * std::f32::consts::TAU) + bend * 3.0).sin();
                let half = grain * 0.5 + 0.5;
                let stripe = half * half * half;
                let shade =
                    1.0 - 0.16 * stripe - 0.05 * pores.at(u * 240.0) + 0.05 * broad.at(u * 2.0);
                let px = |c: u8| (c as f32 * shade).clamp(0.0, 255.0) as u8;
                canvas.set(x, y, [px(base[0]), px(base[1]), px(base[2]), 255]);
            }
        }
    }
}

/// The board body's sides.
const SIDE_WOOD: Wood = Wood {
    base: [196, 146, 80],
    rings: 11.0,
    seed: 3,
};

/// The board top's kaya-coloured wood.
const TOP_WOOD: Wood = Wood {
    base: [216, 170, 100],
    rings: 14.0,
    seed: 1,
};

/// Draws on the board's top wood the home-edge tints, the grid, the star points and the
/// coordinates, at the canvas's size (lines as thick, for its size, as on the whole texture).
/// For high contrast the ink is black, the lines and letters heavier and the home edges solid.
fn draw_board_top(c: &mut Canvas, palette: Palette) {
    for part in TopPart::ALL {
        part.draw(c, palette);
    }
}

/// What is drawn on the board's top wood, in order: a piece each of a whole top drawn off the
/// frame.
#[derive(Clone, Copy)]
enum TopPart {
    /// A band along the outer rim in each kingdom's colour.
    HomeEdges,
    /// Nineteen lines each way, the outer ones heavier, and the nine star points.
    Grid,
    /// File letters south and north, rank numbers west and east.
    Coordinates,
}

impl TopPart {
    const ALL: [TopPart; 3] = [TopPart::HomeEdges, TopPart::Grid, TopPart::Coordinates];

    fn draw(self, c: &mut Canvas, palette: Palette) {
        let size = c.size();
        let k = size as f32 / (2.0 * BOARD_HALF);
        let high = palette.high_contrast;
        let thickness = size as f32 / TOP_SIZE as f32 * if high { 1.6 } else { 1.0 };
        let px = |world: f32| (world + BOARD_HALF) * k;
        let ink = if high { BLACK } else { INK };
        match self {
            TopPart::HomeEdges => {
                for kingdom in Kingdom::ALL {
                    let colour =
                        with_alpha(palette.style(kingdom).stone, if high { 1.0 } else { 0.72 });
                    let (x0, y0, x1, y1) = home_band(kingdom, BOARD_HALF);
                    c.rect(px(x0), px(y0), px(x1), px(y1), colour);
                }
            }
            TopPart::Grid => {
                for i in 0..19 {
                    let at = px(i as f32 - GRID_HALF);
                    let width = thickness * if i == 0 || i == 18 { 4.5 } else { 2.4 };
                    let (a, b) = (px(-GRID_HALF), px(GRID_HALF));
                    c.segment((at, a), (at, b), width, ink);
                    c.segment((a, at), (b, at), width, ink);
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
                    c.disc(px(x), px(z), if high { 0.13 } else { 0.1 } * k, ink);
                }
            }
            TopPart::Coordinates => {
                let label = if high { BLACK } else { [52, 34, 18, 230] };
                let height = if high { 0.5 } else { 0.4 } * k;
                let out = GRID_HALF + 0.72;
                let face = kai();
                for i in 0..19u8 {
                    let letter = ((b'a' + i) as char).to_string();
                    let x = px(i as f32 - GRID_HALF);
                    c.text_line(&face, &letter, (x, px(out)), height, label);
                    c.text_line(&face, &letter, (x, px(-out)), height, label);
                    let number = (i + 1).to_string();
                    let z = px(GRID_HALF - i as f32);
                    c.text_line(&face, &number, (px(-out), z), height, label);
                    c.text_line(&face, &number, (px(out), z), height, label);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of noise is the noise at each point of the row (blended in the other order).
    #[test]
    fn a_row_of_noise_is_the_noise() {
        for (width, y, seed) in [(3.0, 4.37, 1), (240.0, 0.0, 3), (9.0, 26.99, 2)] {
            let row = NoiseRow::new(width, y, seed);
            for i in 0..1000 {
                let x = width * i as f32 / 1000.0;
                let (fast, exact) = (row.at(x), noise(x, y, seed));
                assert!(
                    (fast - exact).abs() < 1e-5,
                    "{x},{y}: {fast} against {exact}"
                );
            }
        }
    }

    /// Wood drawn a few rows at a time is the wood drawn at once.
    #[test]
    fn wood_in_rows_is_the_wood() {
        let whole = TOP_WOOD.canvas(64);
        let [r, g, b] = TOP_WOOD.base;
        let mut rows = Canvas::new(64, [r, g, b, 255]);
        for start in (0..64).step_by(5) {
            TOP_WOOD.rows(&mut rows, start..(start + 5).min(64));
        }
        for y in 0..64 {
            for x in 0..64 {
                assert_eq!(rows.get(x, y), whole.get(x, y), "{x},{y}");
            }
        }
    }

    /// The whole top is drawn in pieces, a few rows of wood each, then its marks a part a
    /// piece, then its mip levels; it is the top drawn at once, with every level.
    #[test]
    fn the_whole_top_is_drawn_in_pieces() {
        let palette = Palette::default();
        let (pieces, image) =
            crate::game::art::painting::pieces_of(TOP_WOOD.whole(TOP_SIZE, Some(palette)));
        let rows_and_marks = TOP_SIZE / ROWS_A_PIECE + TopPart::ALL.len();
        assert!(
            pieces > rows_and_marks + 4,
            "{pieces} pieces: the rows, the marks, then the mip levels in several"
        );
        assert_eq!(image.width() as usize, TOP_SIZE);
        assert_eq!(image.texture_descriptor.mip_level_count, 12);
        let mut at_once = TOP_WOOD.canvas(TOP_SIZE);
        draw_board_top(&mut at_once, palette);
        assert!(image.data == at_once.into_image(false).data, "the same top");
        // The middle of the board is ink: the Emperor's point, where two lines cross.
        let data = image.data.as_ref().unwrap();
        let middle = (TOP_SIZE / 2 * TOP_SIZE + TOP_SIZE / 2) * 4;
        assert!(data[middle] < 100, "ink at the middle: {}", data[middle]);
        // The table: its rows, then its mip levels; the same table.
        let (pieces, table) =
            crate::game::art::painting::pieces_of(TABLE_WOOD.whole(TABLE_SIZE, None));
        assert!(pieces > TABLE_SIZE / ROWS_A_PIECE + 1, "{pieces} pieces");
        let whole = TABLE_WOOD.canvas(TABLE_SIZE).into_image(true);
        assert!(table.data == whole.data, "the same table");
    }

    /// The high-contrast top is plain paper (one colour between the lines, and no wood to
    /// draw), with black lines where the wooden top's are brown.
    #[test]
    fn the_high_contrast_top_is_plain_with_black_lines() {
        let high = Palette {
            high_contrast: true,
            ..Palette::default()
        };
        let (pieces, image) =
            crate::game::art::painting::pieces_of(TOP_WOOD.whole(256, Some(high)));
        assert!(
            pieces < TopPart::ALL.len() + 4,
            "{pieces} pieces: no wood to draw, only the marks and the mip levels"
        );
        let data = image.data.as_ref().unwrap();
        let at = |x: usize, y: usize| {
            let i = (y * 256 + x) * 4;
            [data[i], data[i + 1], data[i + 2]]
        };
        let k = 256.0 / (2.0 * BOARD_HALF);
        let px = |world: f32| ((world + BOARD_HALF) * k) as usize;
        // Inside the square between the first lines east and south of the middle: paper.
        let inside = (px(0.3)..px(0.7)).flat_map(|x| (px(0.3)..px(0.7)).map(move |y| (x, y)));
        for (x, y) in inside {
            assert_eq!(at(x, y), [PAPER[0], PAPER[1], PAPER[2]], "{x},{y}");
        }
        let middle = at(128, 128);
        assert!(
            middle.iter().all(|&c| c < 40),
            "black at the middle: {middle:?}"
        );
        // The wooden top at the same size: grain between the lines, brown ink.
        let mut canvas = TOP_WOOD.canvas(256);
        draw_board_top(&mut canvas, Palette::default());
        let wood: std::collections::HashSet<_> =
            (px(0.3)..px(0.7)).map(|x| canvas.get(x, px(0.5))).collect();
        assert!(wood.len() > 1, "wood is grained");
    }

    #[test]
    fn wood_is_deterministic_and_grained() {
        let wood = Wood {
            base: [200, 150, 90],
            rings: 4.0,
            seed: 1,
        };
        let (a, b) = (wood.canvas(64), wood.canvas(64));
        let reds: Vec<u8> = (0..64).map(|y| a.get(10, y)[0]).collect();
        assert_eq!(reds, (0..64).map(|y| b.get(10, y)[0]).collect::<Vec<_>>());
        let (lo, hi) = (reds.iter().min().unwrap(), reds.iter().max().unwrap());
        assert!(hi - lo > 12, "grain varies: {lo}..{hi}");
    }
}
