//! The moves since your last turn drawn on the board: an arrow in the mover's colour (over a
//! dark shadow, so that white and yellow arrows show on the wood) from where each stone came
//! to where it stands, and a red ring where it captured. Shown while the person whose recap it
//! is may move, hidden in a review (a replay included).

use bevy::prelude::*;
use qiguo_rules::{Kingdom, Point};

use crate::game::art::palette::{Palette, palette_changed};
use crate::game::art::textures::Rgba;
use crate::game::layout::{STONE_RADIUS, point_position};
use crate::game::recap::Recap;
use crate::game::schedule::AppSystems;
use crate::game::selection::markers::{board_mark, flat, glow};
use crate::game::state::{Match, Review, TurnPhase};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Palette>()
        .add_systems(Startup, make_assets)
        .add_systems(
            Update,
            (recolour_arrows.run_if(palette_changed), draw_arrows).in_set(AppSystems::Present),
        );
}

/// A piece of a recap arrow.
#[derive(Component, Debug)]
pub(crate) struct RecapArrow;

/// The meshes and materials of arrows on the board (the recap's, and the hint's).
#[derive(Resource)]
pub(crate) struct ArrowAssets {
    pub(crate) square: Handle<Mesh>,
    pub(crate) head: Handle<Mesh>,
    ring: Handle<Mesh>,
    pub(crate) shadow: Handle<StandardMaterial>,
    capture: Handle<StandardMaterial>,
    kingdoms: [Handle<StandardMaterial>; 7],
    /// The hint's arrow: a bright jade, unlike any kingdom's colour.
    pub(crate) hint: Handle<StandardMaterial>,
}

/// A kingdom's arrow colour: its stone's, nearly opaque.
fn arrow_colour(palette: Palette, kingdom: Kingdom) -> Rgba {
    let [r, g, b, _] = palette.style(kingdom).stone;
    [r, g, b, 235]
}

/// The arrows take the colours of the palette chosen.
fn recolour_arrows(
    assets: Res<ArrowAssets>,
    palette: Res<Palette>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (kingdom, handle) in Kingdom::ALL.into_iter().zip(&assets.kingdoms) {
        if let Some(mut material) = materials.get_mut(handle) {
            let [r, g, b, a] = arrow_colour(*palette, kingdom);
            material.base_color = Color::srgba_u8(r, g, b, a);
        }
    }
}

fn make_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    palette: Res<Palette>,
) {
    let mut tint = |rgba| glow(&mut materials, rgba);
    let kingdoms = Kingdom::ALL.map(|k| tint(arrow_colour(*palette, k)));
    let assets = ArrowAssets {
        square: meshes.add(flat(Rectangle::new(1.0, 1.0))),
        head: meshes.add(flat(Triangle2d::new(
            Vec2::new(0.0, 0.5),
            Vec2::new(-0.5, -0.5),
            Vec2::new(0.5, -0.5),
        ))),
        ring: meshes.add(flat(Annulus::new(0.5, 0.64))),
        shadow: tint([20, 12, 6, 150]),
        capture: tint([235, 30, 30, 235]),
        hint: tint([40, 230, 170, 240]),
        kingdoms,
    };
    commands.insert_resource(assets);
}

/// Shaft width, head length and head width of an arrow, in board units (points are 1 apart).
const SHAFT: f32 = 0.13;
const HEAD_LENGTH: f32 = 0.42;
const HEAD_WIDTH: f32 = 0.44;
/// How much wider the shadow is than the arrow, all round.
pub(crate) const SHADOW: f32 = 0.05;

/// Where an arrow's pieces go: the shaft's and head's transforms (before lifting), for a move
/// from `from` to `to` ending at the edge of the stone on `to`.
pub(crate) fn arrow_pieces(from: Vec3, to: Vec3, grow: f32) -> Option<(Transform, Transform)> {
    let delta = Vec3::new(to.x - from.x, 0.0, to.z - from.z);
    let length = delta.length() - STONE_RADIUS;
    if length <= HEAD_LENGTH {
        return None;
    }
    let dir = delta / delta.length();
    let rotation = Quat::from_rotation_arc(Vec3::NEG_Z, dir);
    let shaft_length = length - HEAD_LENGTH;
    let shaft = Transform {
        translation: from + dir * (shaft_length / 2.0),
        rotation,
        scale: Vec3::new(SHAFT + 2.0 * grow, 1.0, shaft_length + grow),
    };
    let head = Transform {
        translation: from + dir * (shaft_length + HEAD_LENGTH / 2.0),
        rotation,
        scale: Vec3::new(HEAD_WIDTH + 3.0 * grow, 1.0, HEAD_LENGTH + 3.0 * grow),
    };
    Some((shaft, head))
}

#[allow(clippy::too_many_arguments)]
fn draw_arrows(
    mut commands: Commands,
    recap: Res<Recap>,
    the_match: Res<Match>,
    review: Res<Review>,
    phase: Res<State<TurnPhase>>,
    assets: Res<ArrowAssets>,
    arrows: Query<Entity, With<RecapArrow>>,
) {
    if !(recap.is_changed() || the_match.is_changed() || review.is_changed() || phase.is_changed())
    {
        return;
    }
    for entity in &arrows {
        commands.entity(entity).despawn();
    }
    if *phase.get() != TurnPhase::AwaitingInput || review.ply.is_some() {
        return;
    }
    let Some(moves) = recap.current(&the_match) else {
        return;
    };
    let mut spawn = |mesh: &Handle<Mesh>, material: &Handle<StandardMaterial>, t: Transform| {
        commands.spawn((RecapArrow, board_mark(mesh, material), t));
    };
    let recent = the_match
        .game()
        .reports()
        .skip(moves.start)
        .take(moves.len());
    for (n, report) in recent.enumerate() {
        let (Some(from), Some(to)) = (report.mv.from(), report.mv.to()) else {
            continue; // a pass
        };
        // Later moves lie a little higher, so that crossing arrows stack in order.
        let lift = 0.02 + 0.002 * n as f32;
        let at = |p: Point| point_position(p) + Vec3::Y * lift;
        let colour = &assets.kingdoms[report.mover.index()];
        for (grow, material, up) in [(SHADOW, &assets.shadow, 0.0), (0.0, colour, 0.001)] {
            if let Some((shaft, head)) = arrow_pieces(at(from), at(to), grow) {
                let lifted = |t: Transform| t.with_translation(t.translation + Vec3::Y * up);
                spawn(&assets.square, material, lifted(shaft));
                spawn(&assets.head, material, lifted(head));
            }
        }
        if report.captured.is_some() {
            spawn(
                &assets.ring,
                &assets.capture,
                Transform::from_translation(at(to)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_point_from_the_origin_to_the_edge_of_the_stone() {
        let from = Vec3::new(0.0, 0.0, 0.0);
        let to = Vec3::new(3.0, 0.0, 0.0);
        let (shaft, head) = arrow_pieces(from, to, 0.0).unwrap();
        // The head's tip (local −Z, half its length ahead) touches the stone's edge.
        let tip = head.transform_point(Vec3::new(0.0, 0.0, -0.5));
        assert!(
            (tip - Vec3::new(3.0 - STONE_RADIUS, 0.0, 0.0)).length() < 1e-4,
            "{tip}"
        );
        // The shaft starts at the origin.
        let tail = shaft.transform_point(Vec3::new(0.0, 0.0, 0.5));
        assert!(tail.length() < 1e-4, "{tail}");
        // Too short a move for an arrow (the stone covers it): none.
        assert!(arrow_pieces(from, Vec3::new(0.8, 0.0, 0.0), 0.0).is_none());
    }
}
