//! Framing: the board is drawn inside the part of the window the panels leave free.
//!
//! The interface reports where its panels are ([`PanelRects`]); [`free_area`] finds the largest
//! rectangle they leave for a picture of the board's shape ([`FreeArea`]). The camera's picture
//! is then shifted with an off-centre projection so that the board's image is centred in that
//! rectangle, whatever the view, and the automatic views (the turn, the view keys, a resized
//! window or a folded panel) choose the distance at which the whole board, and so every army,
//! fits in it ([`fit_radius`]). The scene still fills the window behind the panels.

use bevy::camera::SubCameraView;
use bevy::prelude::*;
use bevy_panorbit_camera::PanOrbitCamera;

use crate::game::layout::{BOARD_HALF, BOARD_THICKNESS, STONE_HEIGHT};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PanelRects>()
        .init_resource::<FreeArea>()
        // The panels are reported after the frame's Update, where the free area is measured
        // from them: a panel that grew or shrank (a notice gone) is read in the next frame,
        // which nothing else may ask for.
        .add_systems(
            Last,
            crate::game::frames::one_more_frame_when_changed::<PanelRects>
                .in_set(crate::game::frames::AskFrames),
        )
        .add_systems(
            PostUpdate,
            shift_picture
                .after(bevy_panorbit_camera::PanOrbitCameraSystemSet)
                .before(bevy::camera::CameraUpdateSystems),
        );
}

/// Where the interface's lasting panels are (not its passing dialogs), in physical pixels from
/// the window's top-left corner. Written by the interface each frame it changes.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub(crate) struct PanelRects(pub(crate) Vec<Rect>);

/// The rectangle of the window the board is framed in, in physical pixels from the window's
/// top-left corner.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub(crate) struct FreeArea {
    /// The window's size.
    pub(crate) window: Vec2,
    /// The free rectangle.
    pub(crate) rect: Rect,
    /// Whether panels have been measured yet (before, the whole window counts as free).
    pub(crate) measured: bool,
}

impl Default for FreeArea {
    fn default() -> FreeArea {
        let window = Vec2::new(1280.0, 720.0);
        FreeArea {
            window,
            rect: Rect::from_corners(Vec2::ZERO, window),
            measured: false,
        }
    }
}

/// The point the camera orbits: the middle of the board, a little below its surface.
pub(crate) const FOCUS: Vec3 = Vec3::new(0.0, -0.3, 0.0);
/// The camera's vertical field of view over the window's height.
pub(crate) const FIELD_OF_VIEW: f32 = std::f32::consts::FRAC_PI_4;
/// Space kept between the board's image and the free rectangle's edges, in pixels.
const MARGIN: f32 = 10.0;
/// The nearest and farthest distances the framing may choose.
pub(crate) const RADIUS_RANGE: (f32, f32) = (8.0, 160.0);

/// The corners of what must be seen: the board's top with stones on it, and its foot.
fn board_corners() -> [Vec3; 8] {
    let mut corners = [Vec3::ZERO; 8];
    for (i, c) in corners.iter_mut().enumerate() {
        let x = if i & 1 == 0 { -BOARD_HALF } else { BOARD_HALF };
        let z = if i & 2 == 0 { -BOARD_HALF } else { BOARD_HALF };
        let y = if i & 4 == 0 {
            STONE_HEIGHT
        } else {
            -BOARD_THICKNESS
        };
        *c = Vec3::new(x, y, z);
    }
    corners
}

/// The camera's rotation for an orbit view (as the orbit camera computes it).
fn orbit_rotation(yaw: f32, pitch: f32) -> Quat {
    Quat::from_rotation_y(yaw) * Quat::from_rotation_x(-pitch)
}

/// The board's image seen from `yaw`, `pitch` and `radius`, as a rectangle in the picture's
/// tangent plane (x right, y up; the view's axis at the origin); `None` if part of the board is
/// behind the camera.
pub(crate) fn board_image(yaw: f32, pitch: f32, radius: f32) -> Option<Rect> {
    let rotation = orbit_rotation(yaw, pitch);
    let eye = FOCUS + rotation * Vec3::new(0.0, 0.0, radius);
    let inverse = rotation.inverse();
    let mut image: Option<Rect> = None;
    for corner in board_corners() {
        let v = inverse * (corner - eye);
        if v.z > -0.5 {
            return None;
        }
        let t = Vec2::new(v.x / -v.z, v.y / -v.z);
        image = Some(image.map_or(Rect::from_center_size(t, Vec2::ZERO), |r| r.union_point(t)));
    }
    image
}

/// Pixels per unit of the tangent plane, for a window `height` pixels high.
pub(crate) fn pixels_per_tangent(height: f32) -> f32 {
    height / 2.0 / (FIELD_OF_VIEW / 2.0).tan()
}

/// The distance at which the whole board fits in `free` (a window `window_height` pixels high)
/// seen from `yaw` and `pitch`, within [`RADIUS_RANGE`].
pub(crate) fn fit_radius(yaw: f32, pitch: f32, free: Rect, window_height: f32) -> f32 {
    let scale = pixels_per_tangent(window_height);
    let room = (free.size() - Vec2::splat(2.0 * MARGIN)).max(Vec2::splat(1.0));
    let fits = |radius: f32| {
        board_image(yaw, pitch, radius).is_some_and(|image| {
            let size = image.size() * scale;
            size.x <= room.x && size.y <= room.y
        })
    };
    let (mut near, mut far) = RADIUS_RANGE;
    if fits(near) {
        return near;
    }
    if !fits(far) {
        return far;
    }
    // The image shrinks as the camera backs away: bisect.
    for _ in 0..40 {
        let mid = (near + far) / 2.0;
        if fits(mid) {
            far = mid;
        } else {
            near = mid;
        }
    }
    far
}

/// The board's width over its height on the screen from `pitch` (at the usual distance).
pub(crate) fn board_aspect(pitch: f32) -> f32 {
    board_image(0.0, pitch, 31.0).map_or(1.0, |r| r.width() / r.height().max(1e-3))
}

/// The largest rectangle of a `window` that no panel overlaps, judged by how large a picture of
/// width/height `aspect` it holds (then by area). The whole window if panels cover everything.
pub(crate) fn free_area(window: Vec2, panels: &[Rect], aspect: f32) -> Rect {
    let whole = Rect::from_corners(Vec2::ZERO, window);
    let panels: Vec<Rect> = panels
        .iter()
        .map(|p| p.intersect(whole))
        .filter(|p| !p.is_empty())
        .collect();
    let edges = |pick: fn(&Rect) -> [f32; 2], end: f32| {
        let mut v: Vec<f32> = panels.iter().flat_map(pick).collect();
        v.extend([0.0, end]);
        v.sort_by(f32::total_cmp);
        v.dedup();
        v
    };
    let xs = edges(|r| [r.min.x, r.max.x], window.x);
    let ys = edges(|r| [r.min.y, r.max.y], window.y);
    let mut best = (f32::MIN, f32::MIN, whole);
    for (i, &x0) in xs.iter().enumerate() {
        for &x1 in &xs[i + 1..] {
            for (j, &y0) in ys.iter().enumerate() {
                for &y1 in &ys[j + 1..] {
                    let r = Rect::new(x0, y0, x1, y1);
                    let blocked = panels.iter().any(|p| {
                        p.min.x < r.max.x
                            && p.max.x > r.min.x
                            && p.min.y < r.max.y
                            && p.max.y > r.min.y
                    });
                    if blocked {
                        continue;
                    }
                    let picture = (r.width() / aspect).min(r.height());
                    let area = r.width() * r.height();
                    if (picture, area) > (best.0, best.1) {
                        best = (picture, area, r);
                    }
                }
            }
        }
    }
    best.2
}

/// Where the view's axis must fall in the window (pixels) for the board's `image` (tangent
/// plane) to be centred in `free`; kept inside `free`.
pub(crate) fn axis_position(image: Rect, free: Rect, window_height: f32) -> Vec2 {
    let scale = pixels_per_tangent(window_height);
    let centre = image.center();
    let axis = Vec2::new(
        free.center().x - centre.x * scale,
        free.center().y + centre.y * scale,
    );
    axis.clamp(free.min, free.max)
}

/// The off-centre picture putting the view's axis at `axis` in a `window`: a sub-view of a
/// larger picture of the window's shape centred on the axis, and the field of view that keeps
/// the usual scale.
pub(crate) fn shifted_view(window: Vec2, axis: Vec2) -> (SubCameraView, f32) {
    let k = (2.0 * axis.x.max(window.x - axis.x) / window.x)
        .max(2.0 * axis.y.max(window.y - axis.y) / window.y)
        .max(1.0);
    let full = (window * k).ceil().max(window);
    let offset = full / 2.0 - axis;
    let fov = 2.0 * ((full.y / window.y) * (FIELD_OF_VIEW / 2.0).tan()).atan();
    let view = SubCameraView {
        full_size: full.as_uvec2(),
        offset,
        size: window.as_uvec2(),
    };
    (view, fov)
}

/// Measures the free area from the panels, the picture's size (the window's, or the image's
/// with `--offscreen`) and the view's pitch (the board's shape on screen), whenever one of them
/// changes.
pub(crate) fn measure_free_area(
    panels: Res<PanelRects>,
    cameras: Query<(&Camera, &PanOrbitCamera)>,
    mut free: ResMut<FreeArea>,
    mut measured_for: Local<Option<(Vec2, f32)>>,
) {
    let Some((camera, orbit)) = cameras.iter().next() else {
        return;
    };
    let Some(size) = camera.physical_target_size().map(|s| s.as_vec2()) else {
        return;
    };
    if size.min_element() < 1.0 {
        return;
    }
    let pitch = orbit.target_pitch;
    if !panels.is_changed() && *measured_for == Some((size, pitch)) {
        return;
    }
    *measured_for = Some((size, pitch));
    let rect = free_area(size, &panels.0, board_aspect(pitch));
    let measured = !panels.0.is_empty();
    let moved = (rect.min - free.rect.min).abs().max_element() > 2.0
        || (rect.max - free.rect.max).abs().max_element() > 2.0;
    if moved || size != free.window || measured != free.measured {
        *free = FreeArea {
            window: size,
            rect,
            measured,
        };
    }
}

/// Shifts the camera's picture so the board's image is centred in the free area.
fn shift_picture(
    free: Res<FreeArea>,
    mut cameras: Query<(&PanOrbitCamera, &mut Camera, &mut Projection)>,
) {
    for (orbit, mut camera, mut projection) in &mut cameras {
        let yaw = orbit.yaw.unwrap_or(orbit.target_yaw);
        let pitch = orbit.pitch.unwrap_or(orbit.target_pitch);
        let radius = orbit.radius.unwrap_or(orbit.target_radius);
        let Some(image) = board_image(yaw, pitch, radius) else {
            continue;
        };
        let axis = axis_position(image, free.rect, free.window.y);
        let (view, fov) = shifted_view(free.window, axis);
        if camera.sub_camera_view != Some(view) {
            camera.sub_camera_view = Some(view);
        }
        if let Projection::Perspective(p) = projection.as_ref()
            && (p.fov - fov).abs() > 1e-6
            && let Projection::Perspective(p) = projection.as_mut()
        {
            p.fov = fov;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::layout::{SIDE_PITCH, TOP_PITCH};
    use bevy::camera::CameraProjection;

    const WINDOW: Vec2 = Vec2::new(1280.0, 720.0);

    #[test]
    fn without_panels_the_whole_window_is_free() {
        let r = free_area(WINDOW, &[], 1.4);
        assert_eq!(r, Rect::from_corners(Vec2::ZERO, WINDOW));
    }

    #[test]
    fn the_free_area_avoids_every_panel_and_suits_the_board() {
        let panels = [
            Rect::new(8.0, 8.0, 300.0, 60.0),      // toolbar
            Rect::new(400.0, 8.0, 960.0, 60.0),    // turn strip
            Rect::new(960.0, 70.0, 1272.0, 300.0), // kingdoms
            Rect::new(8.0, 660.0, 620.0, 712.0),   // status line
        ];
        let r = free_area(WINDOW, &panels, 1.4);
        for p in &panels {
            assert!(r.intersect(*p).is_empty(), "{r:?} overlaps {p:?}");
        }
        // Below the top bars and above the status line; the Kingdoms panel's corner is left
        // out on the side.
        assert_eq!((r.min.y, r.max.y), (60.0, 660.0));
        assert_eq!((r.min.x, r.max.x), (0.0, 960.0));
        // A wide picture prefers the band under the Kingdoms panel.
        let wide = free_area(WINDOW, &panels, 4.0);
        assert_eq!((wide.min.y, wide.max.x), (300.0, 1280.0));
    }

    #[test]
    fn panels_outside_the_window_or_covering_it_are_handled() {
        let outside = [Rect::new(2000.0, 0.0, 2100.0, 50.0)];
        assert_eq!(
            free_area(WINDOW, &outside, 1.0),
            Rect::from_corners(Vec2::ZERO, WINDOW)
        );
        let cover = [Rect::new(-5.0, -5.0, 2000.0, 2000.0)];
        assert_eq!(
            free_area(WINDOW, &cover, 1.0),
            Rect::from_corners(Vec2::ZERO, WINDOW)
        );
    }

    #[test]
    fn the_fitted_board_fills_the_free_area_on_one_side() {
        for (window, free) in [
            (WINDOW, Rect::new(0.0, 60.0, 960.0, 660.0)),
            (
                Vec2::new(1024.0, 768.0),
                Rect::new(280.0, 60.0, 760.0, 700.0),
            ),
            (
                Vec2::new(2560.0, 1440.0),
                Rect::new(0.0, 80.0, 2200.0, 1380.0),
            ),
        ] {
            for (yaw, pitch) in [(0.0, SIDE_PITCH), (1.3, SIDE_PITCH), (-2.0, TOP_PITCH)] {
                let r = fit_radius(yaw, pitch, free, window.y);
                let image = board_image(yaw, pitch, r).unwrap();
                let size = image.size() * pixels_per_tangent(window.y);
                let room = free.size() - Vec2::splat(2.0 * MARGIN);
                assert!(
                    size.x <= room.x + 0.5 && size.y <= room.y + 0.5,
                    "{size} {room}"
                );
                // Tight on one side: a little nearer and it would not fit.
                assert!(
                    size.x > room.x - 4.0 || size.y > room.y - 4.0,
                    "{window} {yaw} {size} {room}"
                );
            }
        }
    }

    #[test]
    fn a_smaller_free_area_needs_a_farther_camera() {
        let big = fit_radius(0.0, SIDE_PITCH, Rect::new(0.0, 0.0, 1280.0, 720.0), 720.0);
        let small = fit_radius(0.0, SIDE_PITCH, Rect::new(300.0, 60.0, 900.0, 660.0), 720.0);
        assert!(small > big, "{small} {big}");
    }

    /// Projects a world point through the shifted picture to window pixels.
    fn to_window(point: Vec3, yaw: f32, pitch: f32, radius: f32, window: Vec2, axis: Vec2) -> Vec2 {
        let (view, fov) = shifted_view(window, axis);
        let projection = PerspectiveProjection {
            fov,
            aspect_ratio: window.x / window.y,
            ..default()
        };
        let clip_from_view = projection.get_clip_from_view_for_sub(&view);
        let rotation = orbit_rotation(yaw, pitch);
        let eye = FOCUS + rotation * Vec3::new(0.0, 0.0, radius);
        let view_point = rotation.inverse() * (point - eye);
        let ndc = clip_from_view.project_point3(view_point);
        Vec2::new(
            (ndc.x + 1.0) / 2.0 * window.x,
            (1.0 - ndc.y) / 2.0 * window.y,
        )
    }

    #[test]
    fn the_shifted_picture_centres_the_board_in_the_free_area() {
        let window = Vec2::new(1024.0, 768.0);
        let free = Rect::new(280.0, 60.0, 1024.0, 700.0);
        for (yaw, pitch) in [(0.4, SIDE_PITCH), (3.0, TOP_PITCH)] {
            let radius = fit_radius(yaw, pitch, free, window.y);
            let image = board_image(yaw, pitch, radius).unwrap();
            let axis = axis_position(image, free, window.y);
            let corners: Vec<Vec2> = board_corners()
                .iter()
                .map(|c| to_window(*c, yaw, pitch, radius, window, axis))
                .collect();
            let seen = corners
                .iter()
                .fold(Rect::from_center_size(corners[0], Vec2::ZERO), |r, p| {
                    r.union_point(*p)
                });
            assert!(
                seen.min.x >= free.min.x + MARGIN - 1.0
                    && seen.max.x <= free.max.x - MARGIN + 1.0
                    && seen.min.y >= free.min.y + MARGIN - 1.0
                    && seen.max.y <= free.max.y - MARGIN + 1.0,
                "{seen:?} not inside {free:?}"
            );
            assert!(
                (seen.center() - free.center()).length() < 2.0,
                "{:?} {:?}",
                seen.center(),
                free.center()
            );
        }
    }

    /// A panel that grows or shrinks (a notice gone from the status line) is measured in the
    /// frame after the interface reports it: that frame is asked for, and nothing after it.
    #[test]
    fn a_panel_that_changes_asks_for_the_frame_that_measures_it() {
        use crate::game::frames::FramesAsked;

        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::frames::plugin(&mut app);
        plugin(&mut app);
        app.update();
        let asked = |app: &App| *app.world().resource::<FramesAsked>();
        let before = asked(&app);
        app.update();
        assert_eq!(asked(&app), before, "nothing changed, nothing asked");
        app.world_mut().resource_mut::<PanelRects>().0 = vec![Rect::new(0.0, 600.0, 390.0, 700.0)];
        app.update();
        let after = asked(&app);
        assert_eq!(after.now, before.now + 1, "{before:?} → {after:?}");
        app.update();
        app.update();
        assert_eq!(asked(&app), after, "one frame, not more");
    }
}
