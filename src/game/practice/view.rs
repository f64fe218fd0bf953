//! The practice on the board: the hint, a jade ring round the stone the best move moves; and
//! once a question is answered with another good move, the engine's best as a jade arrow (the
//! hint's colour). Both stand still: a board at rest draws nothing.

use bevy::prelude::*;

use crate::game::layout::point_position;
use crate::game::practice::{Practice, Step};
use crate::game::recap::view::{ArrowAssets, SHADOW, arrow_pieces};
use crate::game::schedule::AppSystems;
use crate::game::selection::markers::{board_mark, flat};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_ring)
        .add_systems(Update, draw_practice.in_set(AppSystems::Present));
}

/// A piece of the practice's marks.
#[derive(Component, Debug)]
pub(crate) struct PracticeMark;

#[derive(Resource)]
struct Ring(Handle<Mesh>);

fn make_ring(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
    commands.insert_resource(Ring(meshes.add(flat(Annulus::new(0.58, 0.74)))));
}

/// Above the board and the recap's arrows, as the hint's arrow.
const LIFT: f32 = 0.06;

fn draw_practice(
    mut commands: Commands,
    practice: Res<Practice>,
    ring: Option<Res<Ring>>,
    assets: Option<Res<ArrowAssets>>,
    marks: Query<Entity, With<PracticeMark>>,
) {
    let (Some(ring), Some(assets)) = (ring, assets) else {
        return;
    };
    if !practice.is_changed() {
        return;
    }
    for entity in &marks {
        commands.entity(entity).despawn();
    }
    let Some((exercise, _, _)) = practice.current() else {
        return;
    };
    let best = exercise.best;
    let at = |p| point_position(p) + Vec3::Y * LIFT;
    if practice.hinted()
        && let Some(from) = best.from()
    {
        commands.spawn((
            PracticeMark,
            board_mark(&ring.0, &assets.hint),
            Transform::from_translation(at(from)),
        ));
    }
    if let Some(Step::Found(mv, _)) = practice.step()
        && mv != best
        && let (Some(from), Some(to)) = (best.from(), best.to())
    {
        for (grow, material, up) in [(SHADOW, &assets.shadow, 0.0), (0.0, &assets.hint, 0.001)] {
            if let Some((shaft, head)) = arrow_pieces(at(from), at(to), grow) {
                for (mesh, t) in [(&assets.square, shaft), (&assets.head, head)] {
                    commands.spawn((
                        PracticeMark,
                        board_mark(mesh, material),
                        t.with_translation(t.translation + Vec3::Y * up),
                    ));
                }
            }
        }
    }
}
