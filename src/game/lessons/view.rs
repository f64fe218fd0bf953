//! How a lesson's marks look: a gold ring, gently breathing, round each point to reach, and a
//! paler one round each stone to move.

use bevy::prelude::*;

use crate::game::frames::{GLOW_FRAME, Redraw};
use crate::game::lessons::LessonMark;
use crate::game::schedule::AppSystems;
use crate::game::selection::markers::{board_mark, flat, glow};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_assets).add_systems(
        Update,
        (dress_marks, breathe).chain().in_set(AppSystems::Present),
    );
}

#[derive(Resource)]
struct MarkAssets {
    ring: Handle<Mesh>,
    star: Handle<Mesh>,
    goal: Handle<StandardMaterial>,
    origin: Handle<StandardMaterial>,
}

/// How far above the board the marks lie, and how long one breath takes (seconds).
const LIFT: f32 = 0.075;
const BREATH_SECONDS: f32 = 1.6;

fn make_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.insert_resource(MarkAssets {
        ring: meshes.add(flat(Annulus::new(0.6, 0.72))),
        star: meshes.add(flat(RegularPolygon::new(0.2, 5))),
        goal: glow(&mut materials, [255, 200, 40, 235]),
        origin: glow(&mut materials, [255, 240, 190, 225]),
    });
}

/// The breathing part of a mark (the ring); the star in its middle stays still.
#[derive(Component)]
struct Breathing;

fn dress_marks(
    mut commands: Commands,
    assets: Res<MarkAssets>,
    marks: Query<(Entity, &LessonMark), Added<LessonMark>>,
) {
    for (entity, mark) in &marks {
        let material = if mark.origin {
            &assets.origin
        } else {
            &assets.goal
        };
        commands
            .entity(entity)
            .insert((Visibility::Visible, Pickable::IGNORE))
            .with_children(|parent| {
                parent.spawn((
                    board_mark(&assets.ring, material),
                    Transform::from_translation(Vec3::Y * LIFT),
                    Breathing,
                ));
                if !mark.origin {
                    parent.spawn((
                        board_mark(&assets.star, material),
                        Transform::from_translation(Vec3::Y * (LIFT - 0.01)),
                    ));
                }
            });
    }
}

fn breathe(time: Res<Time>, mut rings: Query<&mut Transform, With<Breathing>>, mut redraw: Redraw) {
    if !rings.is_empty() {
        redraw.within(GLOW_FRAME);
    }
    let phase = time.elapsed_secs() / BREATH_SECONDS * std::f32::consts::TAU;
    let scale = 1.0 + 0.06 * phase.sin();
    for mut transform in &mut rings {
        transform.scale = Vec3::splat(scale);
    }
}
