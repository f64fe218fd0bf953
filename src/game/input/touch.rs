//! Fingers on the board. Touches are read as gestures, not as a mouse: one finger that lifts
//! where it landed is a tap (it selects, or moves to the legal destination nearest to it, a
//! finger being wider than a marker); one finger that travels turns the camera; one that rests
//! shows the card of the stone under it; two fingers pinch to zoom, twist to turn and slide to
//! tilt. Once a gesture has been more than a tap, none of its fingers is a tap any more, and a
//! gesture that starts on the interface (a panel, a window, a sheet) is the interface's alone.
//!
//! [`Gestures`] is the recogniser, plain data fed with touch events and the time, so the rules of
//! a gesture are tested without a window; [`read_touches`] feeds it from Bevy's touch input
//! and turns what it recognises into the board's clicks, the camera's [`CameraGesture`] and the
//! held stone's card ([`HeldCard`]).

use std::collections::BTreeMap;
use std::time::Duration;

use bevy::input::mouse::MouseButtonInput;
use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::picking::mesh_picking::ray_cast::{MeshRayCast, MeshRayCastSettings};
use bevy::prelude::*;
use bevy::window::{CursorMoved, PrimaryWindow};
use bevy_egui::{EguiContexts, egui};
use qiguo_rules::Point;

use crate::game::board::BoardSurface;
use crate::game::camera::CameraGesture;
use crate::game::camera::framing::PanelRects;
use crate::game::frames::Redraw;
use crate::game::layout::point_position;
use crate::game::selection::{Marker, MarkerKind, PointClicked};
use crate::game::stones::{EmperorStone, StonePlace};

/// How far (logical pixels) a finger may wander and still tap.
pub(crate) const TAP_SLOP: f32 = 12.0;
/// How long a finger rests before its press shows the stone's card.
pub(crate) const LONG_PRESS: Duration = Duration::from_millis(550);
/// How far (logical pixels) from a tap a legal destination is still taken for it: about a
/// fingertip's half width.
pub(crate) const FINGER_REACH: f32 = 28.0;

/// What the fingers did, as the recogniser saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Recognised {
    /// One finger lifted where it landed, soon enough: a tap at this place.
    Tap(Vec2),
    /// One finger rested in place: its press, at this place.
    LongPress(Vec2),
    /// The camera is turned: a finger's travel in logical pixels (x turns, y tilts).
    Orbit(Vec2),
    /// Two fingers changed their distance: the camera's distance is multiplied by this.
    Zoom(f32),
    /// Two fingers twisted by this angle (radians, clockwise on the screen positive).
    Twist(f32),
}

/// The state of the fingers on the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// No finger.
    Idle,
    /// One finger down, not yet more than a tap: down since `at` as far as the frames could
    /// tell (`seen`: from a frame after the one it landed in, the first that could have read
    /// its lifting; a tap sent while no frame was drawn lands in one frame and lifts in a later
    /// one, however slow the first).
    Pending {
        id: u64,
        start: Vec2,
        at: Duration,
        seen: bool,
    },
    /// One finger travelling: turns the camera.
    Drag { id: u64 },
    /// One finger rested: its card is shown; lifting it does nothing more.
    Held,
    /// Two fingers: zoom, twist, tilt.
    Two { a: u64, b: u64 },
    /// The gesture started on the interface, or is over but fingers remain: nothing until all
    /// fingers have lifted.
    Ignored,
}

/// The touch gesture recogniser (see the module's description).
#[derive(Resource, Clone, Debug)]
pub(crate) struct Gestures {
    phase: Phase,
    fingers: BTreeMap<u64, Vec2>,
}

impl Default for Gestures {
    fn default() -> Gestures {
        Gestures {
            phase: Phase::Idle,
            fingers: BTreeMap::new(),
        }
    }
}

impl Gestures {
    /// Reads one touch event at time `now` (a frame's events before its [`Gestures::tick`]);
    /// `on_interface` says whether a finger landing here
    /// lands on the interface rather than the board.
    pub(crate) fn touch(
        &mut self,
        id: u64,
        phase: TouchPhase,
        at: Vec2,
        now: Duration,
        on_interface: bool,
    ) -> Vec<Recognised> {
        let mut out = Vec::new();
        match phase {
            TouchPhase::Started => {
                self.fingers.insert(id, at);
                self.phase = match self.phase {
                    Phase::Idle if self.fingers.len() == 1 => {
                        if on_interface {
                            Phase::Ignored
                        } else {
                            Phase::Pending {
                                id,
                                start: at,
                                at: now,
                                seen: false,
                            }
                        }
                    }
                    // A second finger joins a press or a drag: two fingers from here on.
                    Phase::Pending { id: a, .. } | Phase::Drag { id: a } if a != id => {
                        Phase::Two { a, b: id }
                    }
                    // A third finger, or one joining a held card or the interface's gesture.
                    _ => Phase::Ignored,
                };
            }
            TouchPhase::Moved => {
                let Some(before) = self.fingers.insert(id, at) else {
                    return out;
                };
                match self.phase {
                    Phase::Pending { id: p, start, .. }
                        if p == id && at.distance(start) > TAP_SLOP =>
                    {
                        self.phase = Phase::Drag { id };
                        out.push(Recognised::Orbit(at - start));
                    }
                    Phase::Drag { id: d } if d == id => out.push(Recognised::Orbit(at - before)),
                    Phase::Two { a, b } if a == id || b == id => {
                        let other = self.fingers[if a == id { &b } else { &a }];
                        out.extend(two_fingers(other, before, at));
                    }
                    _ => {}
                }
            }
            TouchPhase::Ended | TouchPhase::Canceled => {
                self.fingers.remove(&id);
                // Still pending: no frame saw it rest for a long press (on a slow device a
                // quick tap can span a frame longer than that; it stays a tap).
                if let Phase::Pending { id: p, .. } = self.phase
                    && p == id
                    && phase == TouchPhase::Ended
                {
                    out.push(Recognised::Tap(at));
                }
                self.phase = if self.fingers.is_empty() {
                    Phase::Idle
                } else {
                    Phase::Ignored
                };
            }
        }
        out
    }

    /// Time passes with the fingers where they are: a finger that rests long enough is a long
    /// press, counted from the first frame after the one it landed in.
    pub(crate) fn tick(&mut self, now: Duration) -> Option<Recognised> {
        match &mut self.phase {
            // A later frame than the one it landed in: the rest counts from here.
            Phase::Pending { at, seen, .. } if !*seen => {
                if now > *at {
                    (*at, *seen) = (now, true);
                }
                None
            }
            Phase::Pending { id, at, .. } if now.saturating_sub(*at) >= LONG_PRESS => {
                let id = *id;
                self.phase = Phase::Held;
                self.fingers.get(&id).map(|&p| Recognised::LongPress(p))
            }
            _ => None,
        }
    }

    /// How long until a finger resting where it was put down is a long press, if one is.
    pub(crate) fn long_press_due(&self, now: Duration) -> Option<Duration> {
        match self.phase {
            Phase::Pending { seen: false, .. } => Some(Duration::ZERO),
            Phase::Pending { at, .. } => Some(LONG_PRESS.saturating_sub(now.saturating_sub(at))),
            _ => None,
        }
    }

    /// Whether some finger is down.
    #[cfg(test)]
    fn touching(&self) -> bool {
        !self.fingers.is_empty()
    }
}

/// What one of two fingers moving from `before` to `after` (the other resting at `other`) does:
/// the change of their distance zooms, the change of their direction twists, half the moving
/// finger's travel (their midpoint's) tilts and turns.
fn two_fingers(other: Vec2, before: Vec2, after: Vec2) -> Vec<Recognised> {
    let mut out = Vec::new();
    let (was, now) = (before - other, after - other);
    if was.length() > 1.0 && now.length() > 1.0 {
        let ratio = was.length() / now.length();
        if (ratio - 1.0).abs() > 1e-4 {
            out.push(Recognised::Zoom(ratio));
        }
        let angle = was.angle_to(now);
        if angle.abs() > 1e-4 {
            out.push(Recognised::Twist(angle));
        }
    }
    let midpoint_travel = (after - before) / 2.0;
    if midpoint_travel.length_squared() > 0.0 {
        out.push(Recognised::Orbit(midpoint_travel));
    }
    out
}

/// The stone whose card a long press shows, and where the finger was (logical pixels); kept
/// after the finger lifts, until the next touch.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub(crate) struct HeldCard(pub(crate) Option<(Point, Vec2)>);

/// Whether the player last used a finger (rather than a mouse): markers grow for fingers.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fingers(pub(crate) bool);

/// Notes whether the last pointer input was a finger or a mouse.
pub(super) fn note_pointer_kind(
    mut touches: MessageReader<TouchInput>,
    mut cursor: MessageReader<CursorMoved>,
    mut buttons: MessageReader<MouseButtonInput>,
    mut fingers: ResMut<Fingers>,
) {
    let touched = touches.read().count() > 0;
    let moused = cursor.read().count() > 0 || buttons.read().count() > 0;
    let now = if touched {
        true
    } else if moused {
        false
    } else {
        return;
    };
    if fingers.0 != now {
        fingers.0 = now;
    }
}

/// The board's side of the fingers: touch events fed to [`Gestures`], taps made clicks on the
/// board, long presses the held card, the rest the camera's.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_touches(
    mut touches: MessageReader<TouchInput>,
    time: Res<Time<Real>>,
    mut gestures: ResMut<Gestures>,
    mut contexts: Option<EguiContexts>,
    panels: Option<Res<PanelRects>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut picker: BoardPicker,
    mut clicked: MessageWriter<PointClicked>,
    mut camera_gestures: MessageWriter<CameraGesture>,
    mut held: ResMut<HeldCard>,
    mut redraw: Redraw,
) {
    let now = time.elapsed();
    let scale = windows.single().map_or(1.0, Window::scale_factor);
    let ctx = contexts.as_mut().and_then(|c| c.ctx_mut().ok().cloned());
    let mut recognised = Vec::new();
    for touch in touches.read() {
        if touch.phase == TouchPhase::Started && held.0.is_some() {
            held.0 = None;
        }
        let on_interface = touch.phase == TouchPhase::Started
            && on_interface(touch.position, scale, ctx.as_ref(), panels.as_deref());
        recognised.extend(gestures.touch(touch.id, touch.phase, touch.position, now, on_interface));
    }
    recognised.extend(gestures.tick(now));
    // A finger resting gives no events: a frame when it becomes a long press.
    if let Some(due) = gestures.long_press_due(now) {
        redraw.within(due);
    }
    for r in recognised {
        match r {
            Recognised::Tap(at) => {
                if let Some(point) = picker.tapped(at) {
                    debug!("tap at {at}: point {point}");
                    clicked.write(PointClicked(point));
                }
            }
            Recognised::LongPress(at) => {
                if let Some(point) = picker.stone_at(at) {
                    held.0 = Some((point, at));
                }
            }
            Recognised::Orbit(v) => {
                camera_gestures.write(CameraGesture::Orbit(v));
            }
            Recognised::Zoom(f) => {
                camera_gestures.write(CameraGesture::Zoom(f));
            }
            Recognised::Twist(a) => {
                camera_gestures.write(CameraGesture::Twist(a));
            }
        }
    }
}

/// Whether a finger landing at `at` (logical pixels) lands on the interface: one of its panels,
/// or a window or menu over the board.
fn on_interface(
    at: Vec2,
    scale: f32,
    ctx: Option<&egui::Context>,
    panels: Option<&PanelRects>,
) -> bool {
    let physical = at * scale;
    if panels.is_some_and(|p| p.0.iter().any(|r| r.contains(physical))) {
        return true;
    }
    // Windows, menus and popups; not what is drawn on the background (over the board itself).
    ctx.is_some_and(|ctx| {
        let zoom = ctx.zoom_factor();
        ctx.layer_id_at(egui::pos2(at.x / zoom, at.y / zoom))
            .is_some_and(|layer| layer.order != egui::Order::Background)
    })
}

/// Finds the board's point under a finger.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct BoardPicker<'w, 's> {
    ray_cast: MeshRayCast<'w, 's>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<Camera3d>>,
    surfaces: Query<'w, 's, (), With<BoardSurface>>,
    stones: Query<'w, 's, &'static StonePlace>,
    emperors: Query<'w, 's, (), With<EmperorStone>>,
    parents: Query<'w, 's, &'static ChildOf>,
    markers: Query<'w, 's, &'static Marker>,
}

impl BoardPicker<'_, '_> {
    /// The point hit by the ray through `at`: a stone, the Emperor, or the point of the board's
    /// surface nearest to the hit.
    fn hit(&mut self, at: Vec2) -> Option<Point> {
        let (camera, transform) = self.cameras.single().ok()?;
        let ray = camera.viewport_to_world(transform, at).ok()?;
        let hits = self
            .ray_cast
            .cast_ray(ray, &MeshRayCastSettings::default())
            .to_vec();
        hits.into_iter().find_map(|(entity, hit)| {
            // A stone's parts point to the stone.
            let mut entity = entity;
            for _ in 0..4 {
                if self.surfaces.get(entity).is_ok() {
                    return crate::game::layout::nearest_point(hit.point);
                }
                if let Some(point) = super::stone_point(entity, &self.stones, &self.emperors) {
                    return Some(point);
                }
                entity = self.parents.get(entity).ok()?.parent();
            }
            None
        })
    }

    /// The stone under a finger, if any.
    fn stone_at(&mut self, at: Vec2) -> Option<Point> {
        let point = self.hit(at)?;
        let on_stone = point == Point::EMPEROR
            || self
                .stones
                .iter()
                .any(|place| *place == StonePlace::Board(point));
        on_stone.then_some(point)
    }

    /// The point a tap at `at` means: the point hit when it is a destination; else the legal
    /// destination (a marker of the selected stone) nearest to the finger on the screen within
    /// [`FINGER_REACH`] — unless a stone was hit that is nearer to the finger than it.
    fn tapped(&mut self, at: Vec2) -> Option<Point> {
        let hit = self.hit(at);
        let (camera, transform) = self.cameras.single().ok()?;
        let on_screen = |p: Point| {
            camera
                .world_to_viewport(transform, point_position(p))
                .ok()
                .map(|v| v.distance(at))
        };
        let nearest_marker = self
            .markers
            .iter()
            .filter(|m| matches!(m.kind, MarkerKind::Move | MarkerKind::Capture))
            .filter_map(|m| Some((m.point, on_screen(m.point)?)))
            .filter(|&(_, d)| d <= FINGER_REACH)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let marked = |p: Point| self.markers.iter().any(|m| m.point == p);
        let stone = |p: Point| {
            p == Point::EMPEROR || self.stones.iter().any(|s| *s == StonePlace::Board(p))
        };
        match (hit, nearest_marker) {
            // An empty point hit beside a destination is the destination; a stone hit (another
            // to pick) is taken when the finger is nearer to it.
            (Some(h), Some((m, dm))) if !marked(h) && stone(h) => {
                let dh = on_screen(h).unwrap_or(f32::INFINITY);
                Some(if dh < dm { h } else { m })
            }
            (Some(h), Some(_)) if marked(h) => Some(h),
            (h, m) => m.map(|(m, _)| m).or(h),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn a_finger_that_lifts_where_it_landed_taps() {
        let mut g = Gestures::default();
        assert!(
            g.touch(1, TouchPhase::Started, v(100., 100.), MS(0), false)
                .is_empty()
        );
        // A small wobble is still a tap.
        assert!(
            g.touch(1, TouchPhase::Moved, v(105., 103.), MS(40), false)
                .is_empty()
        );
        assert_eq!(g.tick(MS(100)), None);
        assert_eq!(
            g.touch(1, TouchPhase::Ended, v(105., 103.), MS(150), false),
            vec![Recognised::Tap(v(105., 103.))]
        );
        assert!(!g.touching());
    }

    #[test]
    fn a_travelling_finger_turns_the_camera_and_never_taps() {
        let mut g = Gestures::default();
        g.touch(1, TouchPhase::Started, v(100., 100.), MS(0), false);
        assert_eq!(
            g.touch(1, TouchPhase::Moved, v(120., 100.), MS(30), false),
            vec![Recognised::Orbit(v(20., 0.))]
        );
        assert_eq!(
            g.touch(1, TouchPhase::Moved, v(125., 90.), MS(60), false),
            vec![Recognised::Orbit(v(5., -10.))]
        );
        // Coming back to where it landed does not make it a tap again.
        g.touch(1, TouchPhase::Moved, v(100., 100.), MS(90), false);
        assert!(
            g.touch(1, TouchPhase::Ended, v(100., 100.), MS(120), false)
                .is_empty()
        );
    }

    #[test]
    fn no_finger_of_a_pinch_taps_and_spreading_zooms_in() {
        let mut g = Gestures::default();
        g.touch(1, TouchPhase::Started, v(100., 300.), MS(0), false);
        g.touch(2, TouchPhase::Started, v(200., 300.), MS(20), false);
        // Spreading: the distance grows from 100 to 200, so the camera comes twice as near.
        let out = g.touch(2, TouchPhase::Moved, v(300., 300.), MS(60), false);
        assert_eq!(out[0], Recognised::Zoom(0.5));
        assert!(matches!(out[1], Recognised::Orbit(_)));
        // The first finger lifts quickly and in place: no tap.
        assert!(
            g.touch(1, TouchPhase::Ended, v(100., 300.), MS(90), false)
                .is_empty()
        );
        // Nor is the second's lifting, nor a finger put down while it is still there.
        g.touch(3, TouchPhase::Started, v(50., 50.), MS(100), false);
        assert!(
            g.touch(3, TouchPhase::Ended, v(50., 50.), MS(110), false)
                .is_empty()
        );
        assert!(
            g.touch(2, TouchPhase::Ended, v(300., 300.), MS(120), false)
                .is_empty()
        );
        // Afterwards a tap is a tap again.
        g.touch(4, TouchPhase::Started, v(10., 10.), MS(200), false);
        assert_eq!(
            g.touch(4, TouchPhase::Ended, v(10., 10.), MS(250), false),
            vec![Recognised::Tap(v(10., 10.))]
        );
    }

    #[test]
    fn two_fingers_twisting_turn_the_camera() {
        let mut g = Gestures::default();
        g.touch(1, TouchPhase::Started, v(100., 100.), MS(0), false);
        g.touch(2, TouchPhase::Started, v(200., 100.), MS(10), false);
        // The second finger goes a quarter turn around the first, keeping its distance.
        let out = g.touch(2, TouchPhase::Moved, v(100., 200.), MS(50), false);
        let twist = out.iter().find_map(|r| match r {
            Recognised::Twist(a) => Some(*a),
            _ => None,
        });
        let twist = twist.expect("a twist");
        assert!(
            (twist - std::f32::consts::FRAC_PI_2).abs() < 1e-4,
            "{twist}"
        );
        assert!(!out.iter().any(|r| matches!(r, Recognised::Zoom(_))));
    }

    #[test]
    fn a_resting_finger_is_a_long_press_and_then_no_tap() {
        let mut g = Gestures::default();
        g.touch(7, TouchPhase::Started, v(40., 60.), MS(0), false);
        assert_eq!(g.tick(MS(0)), None);
        // The rest counts from the first frame after the one it landed in.
        assert_eq!(g.tick(MS(20)), None);
        assert_eq!(g.tick(MS(300)), None);
        assert_eq!(g.tick(MS(600)), Some(Recognised::LongPress(v(40., 60.))));
        // Once only.
        assert_eq!(g.tick(MS(900)), None);
        assert!(
            g.touch(7, TouchPhase::Ended, v(40., 60.), MS(1000), false)
                .is_empty()
        );
    }

    #[test]
    fn a_tap_across_one_slow_frame_stays_a_tap() {
        let mut g = Gestures::default();
        g.touch(1, TouchPhase::Started, v(40., 60.), MS(0), false);
        assert_eq!(g.tick(MS(0)), None);
        // The next frame, 1.3 s later, reads the lifting before it ticks.
        assert_eq!(
            g.touch(1, TouchPhase::Ended, v(40., 60.), MS(1300), false),
            vec![Recognised::Tap(v(40., 60.))]
        );
        // A frame 1.3 s later that has not yet read the lifting (it came while that frame was
        // drawn) does not make it a long press: the next frame reads it.
        g.touch(2, TouchPhase::Started, v(40., 60.), MS(2000), false);
        assert_eq!(g.tick(MS(2000)), None);
        assert_eq!(g.tick(MS(3300)), None);
        assert_eq!(
            g.touch(2, TouchPhase::Ended, v(40., 60.), MS(3400), false),
            vec![Recognised::Tap(v(40., 60.))]
        );
    }

    #[test]
    fn a_gesture_begun_on_the_interface_is_the_interfaces() {
        let mut g = Gestures::default();
        g.touch(1, TouchPhase::Started, v(10., 10.), MS(0), true);
        assert!(
            g.touch(1, TouchPhase::Moved, v(80., 10.), MS(30), false)
                .is_empty()
        );
        assert_eq!(g.tick(MS(900)), None);
        assert!(
            g.touch(1, TouchPhase::Ended, v(80., 10.), MS(950), false)
                .is_empty()
        );
    }

    #[test]
    fn a_cancelled_touch_taps_nothing() {
        let mut g = Gestures::default();
        g.touch(1, TouchPhase::Started, v(10., 10.), MS(0), false);
        assert!(
            g.touch(1, TouchPhase::Canceled, v(10., 10.), MS(30), false)
                .is_empty()
        );
        assert!(!g.touching());
    }
}
