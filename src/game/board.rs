//! The board's 361 intersections as entities, each at its place on the playing surface.

use bevy::prelude::*;
use qiguo_rules::Point;

use super::layout::point_position;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_points);
}

/// One intersection of the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPoint(pub Point);

fn spawn_points(mut commands: Commands) {
    for point in Point::all() {
        commands.spawn((
            BoardPoint(point),
            Transform::from_translation(point_position(point)),
            Name::new(format!("point {point}")),
        ));
    }
}
