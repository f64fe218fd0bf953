//! How markers look: dots for moves and rings for captures (muted when previewing another
//! stone), a halo under the hovered stone and a ring with four ticks under the selected one,
//! the last move's from- and to-points, and a red flash where a click was refused. Each kind
//! of mark has its own shape as well as its colour, so that none is told by colour alone.

use bevy::light::NotShadowCaster;
use bevy::prelude::*;
use qiguo_rules::Point;

use crate::game::input::touch::Fingers;
use crate::game::layout::{BOARD_THICKNESS, point_position};
use crate::game::schedule::AppSystems;
use crate::game::selection::cursor::BoardCursor;
use crate::game::selection::{ClickRefused, Hover, Marker, MarkerKind, Selection};
use crate::game::state::{Match, Review, TurnPhase};
use crate::game::stones::animation::{Leg, Tween};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_marker_assets)
        .add_systems(PostStartup, (spawn_halos, warm_up_pipeline))
        .add_systems(
            Update,
            (dress_markers, place_halos, flash_refusals).in_set(AppSystems::Present),
        );
}

#[derive(Resource)]
struct MarkerAssets {
    dot: Handle<Mesh>,
    ring: Handle<Mesh>,
    halo: Handle<Mesh>,
    /// The selected stone's ring, with four ticks reaching out at the diagonals.
    ticked: Handle<Mesh>,
    small_ring: Handle<Mesh>,
    /// The keyboard cursor's square frame (no other mark is square).
    square: Handle<Mesh>,
    materials: [Handle<StandardMaterial>; 4],
    selected: Handle<StandardMaterial>,
    hovered: Handle<StandardMaterial>,
    last_move: Handle<StandardMaterial>,
    refused: Handle<StandardMaterial>,
}

/// A flat shape lying on the board (its 2D up axis becomes −Z).
pub(crate) fn flat(mesh: impl Into<Mesh>) -> Mesh {
    mesh.into()
        .rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2))
}

/// A ring from `inner` to `outer` with `ticks` short bars reaching out from it, evenly spaced
/// from `first` radians (counter-clockwise as the board is seen from above, 0 along +x).
pub(crate) fn ticked_ring(inner: f32, outer: f32, ticks: usize, first: f32) -> Mesh {
    let mut mesh = flat(Annulus::new(inner, outer));
    let length = outer - inner + 0.08;
    for i in 0..ticks {
        let angle = first + i as f32 * std::f32::consts::TAU / ticks as f32;
        let middle = outer + length / 2.0 - 0.02;
        let tick = flat(Rectangle::new(length, outer - inner)).transformed_by(
            Transform::from_rotation(Quat::from_rotation_y(angle)).with_translation(Vec3::new(
                middle * angle.cos(),
                0.0,
                -middle * angle.sin(),
            )),
        );
        mesh.merge(&tick)
            .expect("flat primitives share their attributes");
    }
    mesh
}

/// A mark on the board: a flat mesh in a glow, which no pointer picks and which casts no
/// shadow (it lies on the board; in the shadow maps each would be a draw call per mark and
/// cascade, 24 of a busy turn's 112).
pub(crate) fn board_mark(mesh: &Handle<Mesh>, material: &Handle<StandardMaterial>) -> impl Bundle {
    (
        Mesh3d(mesh.clone()),
        MeshMaterial3d(material.clone()),
        NotShadowCaster,
        Pickable::IGNORE,
    )
}

/// An unlit, see-through colour for marks on the board.
pub(crate) fn glow(
    materials: &mut Assets<StandardMaterial>,
    rgba: [u8; 4],
) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: Color::srgba_u8(rgba[0], rgba[1], rgba[2], rgba[3]),
        unlit: true,
        alpha_mode: AlphaMode::Blend,
        ..default()
    })
}

fn make_marker_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let mut m = |c| glow(&mut materials, c);
    let assets = MarkerAssets {
        dot: meshes.add(flat(Circle::new(0.19))),
        ring: meshes.add(flat(Annulus::new(0.44, 0.56))),
        halo: meshes.add(flat(Annulus::new(0.47, 0.6))),
        ticked: meshes.add(ticked_ring(0.47, 0.6, 4, std::f32::consts::FRAC_PI_4)),
        small_ring: meshes.add(flat(Annulus::new(0.13, 0.2))),
        // Four sides: a diamond, turned to a square where it is placed.
        square: meshes.add(flat(Annulus::new(0.62, 0.74).mesh().resolution(4).build())),
        materials: [
            m([40, 214, 140, 240]),
            m([236, 36, 24, 240]),
            m([150, 178, 220, 150]),
            m([220, 120, 150, 160]),
        ],
        selected: m([255, 196, 40, 255]),
        hovered: m([255, 255, 255, 150]),
        last_move: m([90, 200, 255, 210]),
        refused: m([255, 30, 30, 230]),
    };
    commands.insert_resource(assets);
}

/// How much larger a move's dot is drawn for a player using fingers, whose fingertip hides a
/// dot of the mouse's size.
pub(crate) const FINGER_DOT_SCALE: f32 = 1.7;

fn dress_markers(
    mut commands: Commands,
    assets: Res<MarkerAssets>,
    fingers: Option<Res<Fingers>>,
    markers: Query<(Entity, &Marker, &Transform), Added<Marker>>,
) {
    let fingers = fingers.is_some_and(|f| f.0);
    for (entity, marker, transform) in &markers {
        let dot = matches!(marker.kind, MarkerKind::Move | MarkerKind::PreviewMove);
        let scale = if fingers && dot {
            Vec3::splat(FINGER_DOT_SCALE)
        } else {
            Vec3::ONE
        };
        let (mesh, material, lift) = match marker.kind {
            MarkerKind::Move => (&assets.dot, &assets.materials[0], 0.012),
            MarkerKind::Capture => (&assets.ring, &assets.materials[1], 0.07),
            MarkerKind::PreviewMove => (&assets.dot, &assets.materials[2], 0.011),
            MarkerKind::PreviewCapture => (&assets.ring, &assets.materials[3], 0.065),
        };
        commands.entity(entity).try_insert((
            board_mark(mesh, material),
            transform
                .with_translation(transform.translation + Vec3::Y * lift)
                .with_scale(scale),
        ));
    }
}

/// The halos and last-move marks: a few entities moved (or hidden) as things change.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
enum Halo {
    Cursor,
    Selected,
    Hovered,
    LastFrom,
    LastTo,
}

/// Draws one marker under the table for a few seconds, so that slow drivers compile the
/// markers' pipeline (they all share it) before the first stone is picked.
fn warm_up_pipeline(mut commands: Commands, assets: Res<MarkerAssets>) {
    let hidden = Vec3::new(0.0, -BOARD_THICKNESS - 1.0, 0.0);
    commands.spawn((
        board_mark(&assets.dot, &assets.materials[0]),
        Transform::from_translation(hidden),
        Tween::new(vec![Leg::to(hidden, 0.01)])
            .after(8.0)
            .non_blocking()
            .then_despawn(),
        Name::new("marker pipeline warm-up"),
    ));
}

fn spawn_halos(mut commands: Commands, assets: Res<MarkerAssets>) {
    for (halo, mesh, material) in [
        (Halo::Cursor, &assets.square, &assets.selected),
        (Halo::Selected, &assets.ticked, &assets.selected),
        (Halo::Hovered, &assets.halo, &assets.hovered),
        (Halo::LastFrom, &assets.small_ring, &assets.last_move),
        (Halo::LastTo, &assets.halo, &assets.last_move),
    ] {
        commands.spawn((
            halo,
            board_mark(mesh, material),
            Transform::default(),
            Visibility::Hidden,
            Name::new(format!("{halo:?} halo")),
        ));
    }
}

fn place_halos(
    selection: Res<Selection>,
    hover: Res<Hover>,
    the_match: Res<Match>,
    review: Res<Review>,
    phase: Res<State<TurnPhase>>,
    cursor: Res<BoardCursor>,
    mut halos: Query<(&Halo, &mut Transform, &mut Visibility)>,
) {
    if !(cursor.is_changed()
        || selection.is_changed()
        || hover.is_changed()
        || the_match.is_changed()
        || review.is_changed()
        || phase.is_changed())
    {
        return;
    }
    let pos = the_match.position();
    // The last move of the position shown (in a review, the move that led to it).
    let last = review
        .shown_ply(&the_match)
        .checked_sub(1)
        .and_then(|i| the_match.game().reports().nth(i))
        .map(|r| r.mv);
    let hovered_own = hover.point.filter(|p| {
        *phase.get() == TurnPhase::AwaitingInput
            && Some(*p) != selection.selected
            && pos
                .piece_at(*p)
                .is_some_and(|piece| piece.kingdom == pos.to_move())
    });
    for (halo, mut transform, mut visibility) in &mut halos {
        let (at, lift): (Option<Point>, f32) = match halo {
            Halo::Cursor => (cursor.at, 0.017),
            Halo::Selected => (selection.selected, 0.016),
            Halo::Hovered => (hovered_own, 0.015),
            Halo::LastFrom => (last.and_then(|m| m.from()), 0.013),
            Halo::LastTo => (last.and_then(|m| m.to()), 0.014),
        };
        match at {
            Some(point) => {
                transform.translation = point_position(point) + Vec3::Y * lift;
                if *halo == Halo::Cursor {
                    transform.rotation = Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
                }
                visibility.set_if_neq(Visibility::Inherited);
            }
            None => {
                visibility.set_if_neq(Visibility::Hidden);
            }
        }
    }
}

fn flash_refusals(
    mut commands: Commands,
    mut refused: MessageReader<ClickRefused>,
    assets: Res<MarkerAssets>,
) {
    for refusal in refused.read() {
        let Some(point) = refusal.point else { continue };
        let at = point_position(point) + Vec3::Y * 0.08;
        commands.spawn((
            board_mark(&assets.halo, &assets.refused),
            Transform::from_translation(at).with_scale(Vec3::splat(0.6)),
            Tween::new(vec![
                Leg {
                    to: at,
                    scale: 1.15,
                    seconds: 0.18,
                },
                Leg {
                    to: at,
                    scale: 0.0,
                    seconds: 0.25,
                },
            ])
            .non_blocking()
            .then_despawn(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The farthest a mesh's points reach from the centre, along `direction` (unit, in XZ).
    fn reach(mesh: &Mesh, direction: Vec2) -> f32 {
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(points)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions are 3D floats");
        };
        points
            .iter()
            .map(|p| Vec2::new(p[0], -p[2]).dot(direction))
            .fold(f32::MIN, f32::max)
    }

    /// The selected stone's ring has four ticks at the diagonals, reaching past the plain
    /// halo's edge there and not along the lines: a shape of its own, not a colour only.
    #[test]
    fn the_selected_ring_has_ticks_at_the_diagonals() {
        let ticked = ticked_ring(0.47, 0.6, 4, std::f32::consts::FRAC_PI_4);
        let plain = flat(Annulus::new(0.47, 0.6));
        let diagonal = Vec2::new(1.0, 1.0).normalize();
        assert!(reach(&ticked, diagonal) > reach(&plain, diagonal) + 0.1);
        assert!((reach(&ticked, Vec2::X) - reach(&plain, Vec2::X)).abs() < 0.02);
        let flat_everywhere = {
            let Some(bevy::mesh::VertexAttributeValues::Float32x3(points)) =
                ticked.attribute(Mesh::ATTRIBUTE_POSITION)
            else {
                panic!("positions are 3D floats");
            };
            points.iter().all(|p| p[1].abs() < 1e-6)
        };
        assert!(flat_everywhere, "lies on the board");
    }
}
