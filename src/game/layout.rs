//! Where things are in the 3D world: board points, stones, trays and the views from behind
//! each kingdom's edge. The board lies in the XZ plane, north towards −Z, its playing surface
//! at y = 0, one unit between lines.

use std::f32::consts::{FRAC_PI_2, PI};

use bevy::prelude::*;
use qiguo_rules::{Edge, Kingdom, Point};

/// Distance from the centre to the outermost lines.
pub(crate) const GRID_HALF: f32 = 9.0;
/// Half the width of the board's top (grid plus margin for the coordinates and tints).
pub(crate) const BOARD_HALF: f32 = 10.4;
/// Thickness of the board.
pub(crate) const BOARD_THICKNESS: f32 = 1.1;
/// Radius of a stone.
pub(crate) const STONE_RADIUS: f32 = 0.45;
/// Height of a stone (both faces).
pub(crate) const STONE_HEIGHT: f32 = 0.3;
/// Radius of the Emperor's stone.
pub(crate) const EMPEROR_RADIUS: f32 = 0.48;
/// How high a moving stone is lifted.
pub(crate) const LIFT: f32 = 0.7;
/// Distance from the centre to the first row of a captor's tray.
pub(crate) const TRAY_START: f32 = BOARD_HALF + 0.9;
/// Spacing of stones in a tray.
pub(crate) const TRAY_SPACING: f32 = 0.95;

/// The centre of `point` on the playing surface.
pub(crate) fn point_position(point: Point) -> Vec3 {
    Vec3::new(
        point.file() as f32 - GRID_HALF,
        0.0,
        GRID_HALF - point.rank() as f32,
    )
}

/// Where a stone standing on `point` rests (its centre).
pub fn stone_rest(point: Point) -> Vec3 {
    point_position(point) + Vec3::Y * (STONE_HEIGHT / 2.0)
}

/// The point nearest to a position on the board, if within half a line's spacing.
pub(crate) fn nearest_point(at: Vec3) -> Option<Point> {
    let file = (at.x + GRID_HALF).round();
    let rank = (GRID_HALF - at.z).round();
    if !(0.0..=18.0).contains(&file) || !(0.0..=18.0).contains(&rank) {
        return None;
    }
    Point::new(file as u8, rank as u8)
}

/// Columns of one captor's tray along its edge.
const TRAY_COLUMNS: u16 = 9;

/// Where the `slot`-th stone captured by `captor` rests: rows along the captor's part of its
/// edge, just off the board, filling outwards.
pub(crate) fn tray_slot(captor: Kingdom, slot: u16) -> Vec3 {
    let column = (slot % TRAY_COLUMNS) as f32;
    let row = (slot / TRAY_COLUMNS) as f32;
    let out = TRAY_START + row * TRAY_SPACING;
    // Along the edge, from the captor's part of it: Qin holds the whole west edge, the others
    // half an edge each.
    let (start, step) = match captor {
        Kingdom::Qin => (-4.0 * TRAY_SPACING, TRAY_SPACING),
        Kingdom::Chu | Kingdom::Zhao | Kingdom::Qi => (-8.5, TRAY_SPACING),
        Kingdom::Han | Kingdom::Yan | Kingdom::Wei => (0.9, TRAY_SPACING),
    };
    let along = start + column * step;
    let y = STONE_HEIGHT / 2.0 - BOARD_THICKNESS;
    match captor.edge() {
        Edge::West => Vec3::new(-out, y, along),
        Edge::South => Vec3::new(along, y, out),
        Edge::East => Vec3::new(out, y, -along),
        Edge::North => Vec3::new(-along, y, -out),
    }
}

/// The direction (yaw, radians about +Y, 0 looking north from the south) of the view from
/// behind `kingdom`'s home: from its General's starting point, looking at the centre.
pub(crate) fn kingdom_yaw(kingdom: Kingdom) -> f32 {
    let home: Vec2 = match kingdom {
        Kingdom::Qin => Vec2::new(-9.0, 0.0),
        Kingdom::Chu => Vec2::new(-4.0, 9.0),
        Kingdom::Han => Vec2::new(4.0, 9.0),
        Kingdom::Qi => Vec2::new(9.0, 4.0),
        Kingdom::Wei => Vec2::new(9.0, -4.0),
        Kingdom::Zhao => Vec2::new(4.0, -9.0),
        Kingdom::Yan => Vec2::new(-4.0, -9.0),
    };
    // Yaw of a camera placed in direction (x, z) from the centre.
    home.x.atan2(home.y)
}

/// The yaw closest to `current` that shows the same view as `target` (so turning takes the
/// short way round).
pub(crate) fn nearest_yaw(current: f32, target: f32) -> f32 {
    let mut t = target;
    while t - current > PI {
        t -= 2.0 * PI;
    }
    while current - t > PI {
        t += 2.0 * PI;
    }
    t
}

/// The pitch of the views from behind a kingdom (radians above the board).
pub(crate) const SIDE_PITCH: f32 = 0.95;
/// The pitch of the top view, just short of straight down.
pub(crate) const TOP_PITCH: f32 = FRAC_PI_2 - 0.001;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_positions_agree() {
        for p in Point::all() {
            assert_eq!(nearest_point(point_position(p)), Some(p));
            assert_eq!(
                nearest_point(point_position(p) + Vec3::new(0.4, 0.3, -0.4)),
                Some(p)
            );
        }
        assert_eq!(nearest_point(Vec3::new(-9.6, 0.0, 0.0)), None);
        assert_eq!(
            point_position("a1".parse().unwrap()),
            Vec3::new(-9.0, 0.0, 9.0)
        );
        assert_eq!(point_position(Point::EMPEROR), Vec3::ZERO);
    }

    #[test]
    fn trays_are_off_the_board_and_apart() {
        let mut all = Vec::new();
        for k in Kingdom::ALL {
            for slot in 0..40 {
                let p = tray_slot(k, slot);
                assert!(
                    p.x.abs() > BOARD_HALF || p.z.abs() > BOARD_HALF,
                    "{k} {slot} {p}"
                );
                all.push(p);
            }
        }
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(a.distance(*b) > 0.9, "{a} {b}");
            }
        }
    }

    #[test]
    fn views_look_from_behind_each_kingdom() {
        assert!((kingdom_yaw(Kingdom::Qin) + FRAC_PI_2).abs() < 1e-6);
        assert!(kingdom_yaw(Kingdom::Chu) < 0.0 && kingdom_yaw(Kingdom::Han) > 0.0);
        assert!((nearest_yaw(3.0, -3.0) - (2.0 * PI - 3.0)).abs() < 1e-5);
    }
}
