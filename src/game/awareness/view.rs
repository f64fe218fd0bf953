//! How danger and threats look on the board: a red glow pulsing under an attacked General,
//! a three-pointed frame (three spikes beyond the stone) under each of its attackers, and with
//! the threat shading on, red squares on the points the other kingdoms attack and a diamond
//! frame under the mover's stones they can take. Each has its own shape, not only its colour.

use bevy::prelude::*;
use qiguo_rules::Point;

use crate::game::awareness::{Danger, Threats};
use crate::game::frames::{GLOW_FRAME, Redraw};
use crate::game::layout::point_position;
use crate::game::schedule::AppSystems;
use crate::game::selection::markers::{board_mark, flat, glow};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_assets).add_systems(
        Update,
        (draw_marks, pulse).chain().in_set(AppSystems::Present),
    );
}

/// What a mark shows.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AwarenessMark {
    /// Under an attacked General of the kingdom to move (pulses).
    General,
    /// Under a piece attacking it.
    Attacker,
    /// An empty point the other kingdoms attack.
    Threatened,
    /// Under a stone of the mover that can be taken.
    Takeable,
}

#[derive(Resource)]
struct Assets3d {
    glow: Handle<Mesh>,
    spikes: Handle<Mesh>,
    diamond: Handle<Mesh>,
    patch: Handle<Mesh>,
    pulse: Handle<StandardMaterial>,
    attacker: Handle<StandardMaterial>,
    threatened: Handle<StandardMaterial>,
    takeable: Handle<StandardMaterial>,
}

fn make_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let mut tint = |rgba| glow(&mut materials, rgba);
    let assets = Assets3d {
        glow: meshes.add(flat(Annulus::new(0.46, 0.78))),
        // A triangle's corners reach beyond the stone; its sides are hidden under it.
        spikes: meshes.add(flat(Annulus::new(0.7, 0.9).mesh().resolution(3).build())),
        // A square on its corner, its sides outside the stone.
        diamond: meshes.add(flat(Annulus::new(0.66, 0.82).mesh().resolution(4).build())),
        patch: meshes.add(flat(Rectangle::new(0.82, 0.82))),
        pulse: tint([255, 24, 24, 230]),
        attacker: tint([255, 140, 0, 240]),
        threatened: tint([230, 40, 40, 70]),
        takeable: tint([200, 0, 90, 230]),
    };
    commands.insert_resource(assets);
}

/// Respawns the marks whenever the danger or the threats change.
fn draw_marks(
    mut commands: Commands,
    danger: Res<Danger>,
    threats: Res<Threats>,
    assets: Res<Assets3d>,
    marks: Query<Entity, With<AwarenessMark>>,
) {
    if !danger.is_changed() && !threats.is_changed() {
        return;
    }
    for entity in &marks {
        commands.entity(entity).despawn();
    }
    let mut spawn = |mark: AwarenessMark, point: Point| {
        let (mesh, material, lift) = match mark {
            AwarenessMark::General => (&assets.glow, &assets.pulse, 0.018),
            AwarenessMark::Attacker => (&assets.spikes, &assets.attacker, 0.017),
            AwarenessMark::Threatened => (&assets.patch, &assets.threatened, 0.009),
            AwarenessMark::Takeable => (&assets.diamond, &assets.takeable, 0.0165),
        };
        commands.spawn((
            mark,
            board_mark(mesh, material),
            Transform::from_translation(point_position(point) + Vec3::Y * lift),
            Name::new(format!("{mark:?} mark on {point}")),
        ));
    };
    if let Some(report) = &danger.report {
        for (general, _) in &report.generals {
            spawn(AwarenessMark::General, *general);
        }
        for attacker in report.attackers() {
            spawn(AwarenessMark::Attacker, attacker);
        }
    }
    for point in &threats.points {
        spawn(AwarenessMark::Threatened, *point);
    }
    for point in &threats.takeable {
        spawn(AwarenessMark::Takeable, *point);
    }
}

/// Pulses the glow under an attacked General: about once a second, in size and strength.
fn pulse(
    time: Res<Time>,
    assets: Res<Assets3d>,
    danger: Res<Danger>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut glows: Query<(&AwarenessMark, &mut Transform)>,
    mut redraw: Redraw,
) {
    if danger.report.is_none() {
        return;
    }
    redraw.within(GLOW_FRAME);
    let phase = (time.elapsed_secs() * std::f32::consts::TAU * 0.9).sin() * 0.5 + 0.5;
    for (mark, mut transform) in &mut glows {
        if *mark == AwarenessMark::General {
            transform.scale = Vec3::splat(0.95 + 0.25 * phase);
        }
    }
    if let Some(mut material) = materials.get_mut(&assets.pulse) {
        material.base_color.set_alpha(0.45 + 0.5 * phase);
    }
}
