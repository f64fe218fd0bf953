//! Pointer and keyboard input turned into the game's messages, and nothing more: picking
//! observers name the point under a click or hover; a right click that did not drag the camera,
//! or Escape, drops the selection. The interface captures the pointer over its windows, so
//! clicks there never reach the board.

use bevy::input::mouse::MouseMotion;
use bevy::picking::mesh_picking::{
    MeshPickingPlugin, MeshPickingSettings, ray_cast::RayCastVisibility,
};
use bevy::prelude::*;
use bevy_egui::input::{egui_wants_any_keyboard_input, egui_wants_any_pointer_input};
use qiguo_rules::Point;

use super::AppSystems;
use super::board::BoardPoint;
use super::selection::{DeselectRequested, Hover, PointClicked};
use super::stones::{EmperorStone, StonePlace};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(MeshPickingPlugin)
        .insert_resource(MeshPickingSettings {
            require_markers: false,
            // The points' tiles are invisible but must be hit.
            ray_cast_visibility: RayCastVisibility::Any,
        })
        .init_resource::<RightDrag>()
        .add_observer(on_click)
        .add_observer(on_over)
        .add_observer(on_out)
        .add_systems(
            Update,
            (
                right_click_deselects.run_if(not(egui_wants_any_pointer_input)),
                escape_deselects.run_if(not(egui_wants_any_keyboard_input)),
            )
                .in_set(AppSystems::RecordInput),
        );
}

/// The board point an entity stands for: a point's tile, a stone on the board, the Emperor.
fn point_of(
    entity: Entity,
    points: &Query<&BoardPoint>,
    stones: &Query<&StonePlace>,
    emperors: &Query<(), With<EmperorStone>>,
) -> Option<Point> {
    if let Ok(BoardPoint(point)) = points.get(entity) {
        return Some(*point);
    }
    if let Ok(StonePlace::Board(point)) = stones.get(entity) {
        return Some(*point);
    }
    emperors.get(entity).is_ok().then_some(Point::EMPEROR)
}

fn on_click(
    click: On<Pointer<Click>>,
    points: Query<&BoardPoint>,
    stones: Query<&StonePlace>,
    emperors: Query<(), With<EmperorStone>>,
    mut clicked: MessageWriter<PointClicked>,
) {
    if click.button != PointerButton::Primary {
        return;
    }
    if let Some(point) = point_of(click.event_target(), &points, &stones, &emperors) {
        clicked.write(PointClicked(point));
    }
}

fn on_over(
    over: On<Pointer<Over>>,
    stones: Query<&StonePlace>,
    emperors: Query<(), With<EmperorStone>>,
    points: Query<&BoardPoint>,
    mut hover: ResMut<Hover>,
) {
    let entity = over.event_target();
    // Only stones are hovered; the points' tiles do not count.
    if points.get(entity).is_ok() {
        return;
    }
    if let Some(point) = point_of(entity, &points, &stones, &emperors)
        && hover.point != Some(point)
    {
        hover.point = Some(point);
    }
}

fn on_out(
    out: On<Pointer<Out>>,
    stones: Query<&StonePlace>,
    emperors: Query<(), With<EmperorStone>>,
    points: Query<&BoardPoint>,
    mut hover: ResMut<Hover>,
) {
    let entity = out.event_target();
    if points.get(entity).is_ok() {
        return;
    }
    if hover.point.is_some() && point_of(entity, &points, &stones, &emperors) == hover.point {
        hover.point = None;
    }
}

/// How far the mouse moved while the right button was held.
#[derive(Resource, Default)]
struct RightDrag(Option<f32>);

/// A right click that did not orbit the camera drops the selection.
fn right_click_deselects(
    buttons: Res<ButtonInput<MouseButton>>,
    mut motion: MessageReader<MouseMotion>,
    mut drag: ResMut<RightDrag>,
    mut deselect: MessageWriter<DeselectRequested>,
) {
    let moved: f32 = motion.read().map(|m| m.delta.length()).sum();
    if buttons.just_pressed(MouseButton::Right) {
        drag.0 = Some(0.0);
    } else if let Some(total) = drag.0.as_mut() {
        *total += moved;
    }
    if buttons.just_released(MouseButton::Right) {
        if drag.0.is_some_and(|d| d < 6.0) {
            deselect.write(DeselectRequested);
        }
        drag.0 = None;
    }
}

fn escape_deselects(
    keys: Res<ButtonInput<KeyCode>>,
    mut deselect: MessageWriter<DeselectRequested>,
) {
    if keys.just_pressed(KeyCode::Escape) {
        deselect.write(DeselectRequested);
    }
}
