//! The camera: orbit with the right or middle button or a finger, zoom with the wheel or a
//! pinch, turn with two fingers' twist, within limits that
//! keep the board in view; preset views from behind each kingdom (keys 1–7) and from the top
//! (key 0); after each move it turns smoothly to the side of the kingdom to move next. The
//! preset views and the turns stand at the distance that frames the whole board in the part of
//! the window the panels leave free (see [`framing`](crate::game::camera::framing)).

pub(crate) mod framing;

use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_panorbit_camera::{PanOrbitCamera, PanOrbitCameraPlugin};
use qiguo_rules::Kingdom;

use crate::game::frames::Redraw;
use crate::game::keyboard;
use crate::game::layout::{SIDE_PITCH, TOP_PITCH, kingdom_yaw, nearest_yaw};
use crate::game::preferences::{KeepSetting, KeptSetting, Preferences};
use crate::game::schedule::AppSystems;
use crate::game::state::{Match, MatchReset, SeatAuthority, TurnPhase};
use framing::{FOCUS, FreeArea, RADIUS_RANGE, fit_radius};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(PanOrbitCameraPlugin)
        .init_resource::<ViewSettings>()
        .keep_setting::<ViewSettings>()
        .init_resource::<ViewYaw>()
        .add_message::<ViewRequested>()
        .add_message::<CameraGesture>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, adapt_to_software_rendering)
        .add_systems(
            Last,
            keep_drawing_while_easing.in_set(crate::game::frames::AskFrames),
        )
        .add_systems(
            Update,
            (
                pause_camera_under_the_interface,
                choose_orbit_button,
                follow_fingers,
                view_keys.run_if(not(egui_wants_any_keyboard_input)),
            )
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(OnEnter(TurnPhase::AwaitingInput), turn_to_next_kingdom)
        .add_systems(
            Update,
            (
                framing::measure_free_area,
                // Before the views, which stand at the new fit: the refit scales the old one.
                refit_to_free_area.run_if(resource_changed::<FreeArea>),
                show_requested_views,
                turn_to_next_kingdom.run_if(on_message::<MatchReset>),
                publish_yaw,
            )
                .chain()
                .in_set(AppSystems::SyncView),
        );
}

/// A change of view asked for by fingers (the touch screen's gestures).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub(crate) enum CameraGesture {
    /// Turn by a travel in logical pixels (x: around the board, y: up and down).
    Orbit(Vec2),
    /// Multiply the distance by this.
    Zoom(f32),
    /// Turn around the board by this angle (radians, clockwise on the screen).
    Twist(f32),
}

/// A camera view: from behind a kingdom's edge, or from above.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum View {
    /// From behind the kingdom's home edge.
    Kingdom(Kingdom),
    /// Straight down on the board.
    Top,
}

/// A view's name that is neither a kingdom nor `top`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a view: expected qin, chu, han, qi, wei, zhao, yan or top")]
pub struct ParseViewError(String);

impl std::str::FromStr for View {
    type Err = ParseViewError;

    fn from_str(s: &str) -> Result<View, ParseViewError> {
        if s == "top" {
            return Ok(View::Top);
        }
        s.parse::<Kingdom>()
            .map(View::Kingdom)
            .map_err(|_| ParseViewError(s.to_owned()))
    }
}

impl KeptSetting for ViewSettings {
    fn apply(&mut self, prefs: &Preferences) {
        self.follow_turn = prefs.settings.camera_follows_turn;
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.camera_follows_turn = self.follow_turn;
    }
}

/// Player settings for the camera.
#[derive(Resource, Clone, Debug)]
pub(crate) struct ViewSettings {
    /// Turn to the kingdom to move after each move.
    pub(crate) follow_turn: bool,
    /// The view shown first (and by `--view`), if not the kingdom to move.
    pub(crate) initial: Option<View>,
}

impl Default for ViewSettings {
    fn default() -> ViewSettings {
        ViewSettings {
            follow_turn: true,
            initial: None,
        }
    }
}

/// The camera's current yaw, for views that face the viewer (stones' characters).
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq)]
pub(crate) struct ViewYaw(pub(crate) f32);

/// A request to show a view (keys, HUD buttons).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ViewRequested(pub(crate) View);

fn spawn_camera(
    mut commands: Commands,
    settings: Res<ViewSettings>,
    the_match: Res<Match>,
    free: Res<FreeArea>,
) {
    let view = settings
        .initial
        .unwrap_or(View::Kingdom(the_match.position().to_move()));
    let (yaw, pitch) = view_angles(view, the_match.position().to_move(), 0.0);
    let radius = fitted(&free, yaw, pitch);
    commands.spawn((
        Camera3d::default(),
        Projection::Perspective(PerspectiveProjection {
            fov: framing::FIELD_OF_VIEW,
            ..default()
        }),
        // Soft shadow edges.
        bevy::light::ShadowFilteringMethod::Gaussian,
        PanOrbitCamera {
            focus: FOCUS,
            yaw: Some(yaw),
            pitch: Some(pitch),
            radius: Some(radius),
            target_yaw: yaw,
            target_pitch: pitch,
            target_radius: radius,
            zoom_lower_limit: RADIUS_RANGE.0,
            zoom_upper_limit: Some(RADIUS_RANGE.1),
            pitch_lower_limit: Some(0.2),
            pitch_upper_limit: Some(TOP_PITCH),
            button_orbit: MouseButton::Right,
            // Fingers are read as gestures by the input (`input::touch`), applied here.
            touch_enabled: false,
            // Panning is off: the board stays centred.
            button_pan: MouseButton::Other(255),
            orbit_smoothness: 0.15,
            zoom_smoothness: 0.2,
            ..default()
        },
        Name::new("camera"),
    ));
}

/// Another frame while the camera eases towards where it is going (a turn, a zoom, a view).
fn keep_drawing_while_easing(cameras: Query<&PanOrbitCamera>, mut redraw: Redraw) {
    let easing = cameras.iter().any(|c| {
        c.yaw != Some(c.target_yaw)
            || c.pitch != Some(c.target_pitch)
            || c.radius != Some(c.target_radius)
            || c.focus != c.target_focus
            || c.force_update
    });
    if easing {
        redraw.now();
    }
}

/// On a software renderer (no GPU), every pixel's work is the frame's time: multisampling
/// makes every frame several times slower, and the soft shadows' many samples cost a fifth of
/// it (lavapipe at 1280×720: 0.96 s a frame with them, 0.76 s with the hardware's 2×2 filter;
/// docs/performance.md). Interactive play turns multisampling off and filters shadows 2×2.
/// Screenshots keep both, since their time does not matter.
fn adapt_to_software_rendering(
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    screenshot: Option<Res<crate::game::tools::screenshot::ScreenshotRequest>>,
    mut cameras: Query<(&mut Msaa, &mut bevy::light::ShadowFilteringMethod), With<Camera3d>>,
    mut done: Local<bool>,
) {
    let Some(adapter) = adapter else { return };
    if *done {
        return;
    }
    *done = true;
    // `DeviceType` is not re-exported by Bevy; its variant name is stable.
    let software = format!("{:?}", adapter.0.device_type) == "Cpu";
    if software && screenshot.is_none() {
        info!(
            "software renderer ({}): antialiasing off and shadows filtered 2×2 to keep the game \
             responsive",
            adapter.0.name
        );
        for (mut msaa, mut shadows) in &mut cameras {
            *msaa = Msaa::Off;
            *shadows = bevy::light::ShadowFilteringMethod::Hardware2x2;
        }
    }
}

/// Yaw and pitch of a view; the top view keeps the side of `to_move` at the bottom.
fn view_angles(view: View, to_move: Kingdom, current_yaw: f32) -> (f32, f32) {
    match view {
        View::Kingdom(k) => (nearest_yaw(current_yaw, kingdom_yaw(k)), SIDE_PITCH),
        View::Top => (nearest_yaw(current_yaw, kingdom_yaw(to_move)), TOP_PITCH),
    }
}

/// The distance that frames the whole board in the free area from `yaw` and `pitch`.
fn fitted(free: &FreeArea, yaw: f32, pitch: f32) -> f32 {
    fit_radius(yaw, pitch, free.rect, free.window.y)
}

/// The camera ignores the mouse while it is over the interface.
fn pause_camera_under_the_interface(
    mut cameras: Query<&mut PanOrbitCamera>,
    wants: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    let over_ui = wants.is_some_and(|w| w.wants_any_pointer_input());
    for mut camera in &mut cameras {
        if camera.enabled == over_ui {
            camera.enabled = !over_ui;
        }
    }
}

/// Orbiting works with the right or the middle button: whichever was pressed last drives it.
fn choose_orbit_button(
    mut presses: MessageReader<MouseButtonInput>,
    mut cameras: Query<&mut PanOrbitCamera>,
) {
    for press in presses.read() {
        if press.state.is_pressed()
            && matches!(press.button, MouseButton::Right | MouseButton::Middle)
        {
            for mut camera in &mut cameras {
                camera.button_orbit = press.button;
            }
        }
    }
}

/// Fingers turn, tilt and zoom the camera as the mouse does (`input::touch` reads them): a
/// finger's travel across the width of the window turns it once around the board, across the
/// height tilts it from the side to the top; two fingers' twist turns it by their angle, their
/// spreading brings it nearer in proportion.
fn follow_fingers(
    mut gestures: MessageReader<CameraGesture>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut cameras: Query<&mut PanOrbitCamera>,
) {
    if gestures.is_empty() {
        return;
    }
    let size = windows
        .single()
        .map_or(Vec2::new(1280.0, 720.0), |w| {
            Vec2::new(w.width(), w.height())
        })
        .max(Vec2::ONE);
    for gesture in gestures.read() {
        for mut camera in &mut cameras {
            match *gesture {
                CameraGesture::Orbit(travel) => {
                    camera.target_yaw -= travel.x / size.x * std::f32::consts::TAU;
                    camera.target_pitch = (camera.target_pitch
                        + travel.y / size.y * std::f32::consts::PI)
                        .clamp(0.2, TOP_PITCH);
                }
                CameraGesture::Zoom(factor) => {
                    camera.target_radius =
                        (camera.target_radius * factor).clamp(RADIUS_RANGE.0, RADIUS_RANGE.1);
                }
                // Turning the fingers clockwise turns the board clockwise under them.
                CameraGesture::Twist(angle) => camera.target_yaw -= angle,
            }
        }
    }
}

/// Keys 1–7 and 0 pick a view; not with Ctrl (Cmd) held, which the interface's zoom uses
/// (Ctrl+0 resets the interface's size, Ctrl+plus and Ctrl+minus change it).
fn view_keys(input: Res<ButtonInput<KeyCode>>, mut views: MessageWriter<ViewRequested>) {
    for (key, kingdom) in keyboard::VIEWS.iter().zip(Kingdom::ALL) {
        if key.just_pressed(&input) {
            views.write(ViewRequested(View::Kingdom(kingdom)));
        }
    }
    if keyboard::VIEW_TOP.just_pressed(&input) {
        views.write(ViewRequested(View::Top));
    }
}

fn show_requested_views(
    mut requests: MessageReader<ViewRequested>,
    the_match: Res<Match>,
    free: Res<FreeArea>,
    mut cameras: Query<&mut PanOrbitCamera>,
) {
    let Some(&ViewRequested(view)) = requests.read().last() else {
        return;
    };
    for mut camera in &mut cameras {
        let (yaw, pitch) = view_angles(view, the_match.position().to_move(), camera.target_yaw);
        camera.target_yaw = yaw;
        camera.target_pitch = pitch;
        camera.target_radius = fitted(&free, yaw, pitch);
    }
}

/// Turns to the side of the kingdom to move, keeping the player's pitch, at the distance that
/// shows the whole board (so the mover's whole army is in view). Only a person's turn turns the
/// camera: while computers play, the view stays where it is, and on a board that takes no move
/// (a lesson's step done, a question answered).
fn turn_to_next_kingdom(
    settings: Res<ViewSettings>,
    the_match: Res<Match>,
    free: Res<FreeArea>,
    mut cameras: Query<&mut PanOrbitCamera>,
    seats: Res<SeatAuthority>,
    guide: Res<crate::game::selection::Guide>,
) {
    let pos = the_match.position();
    if !settings.follow_turn
        || !guide.takes_moves()
        || pos.is_over()
        || the_match.computer_to_move()
        || !seats.plays_here(pos.player_of(pos.to_move()))
    {
        return;
    }
    let target = kingdom_yaw(the_match.position().to_move());
    for mut camera in &mut cameras {
        camera.target_yaw = nearest_yaw(camera.target_yaw, target);
        camera.target_radius = fitted(&free, camera.target_yaw, camera.target_pitch);
    }
}

/// When the free area changes (a resized window, a folded panel), the camera moves to frame
/// the board in it; at once the first time the panels are measured, so the first picture is
/// already framed.
/// Keeps the board framed when the free area changes (a resized window, a panel folded, a
/// status line grown by a message): the camera stands at the new fitting distance times the
/// player's own zoom, so that a board zoomed in by a wheel or a pinch stays as near as the
/// player put it, and only a board at the fitted distance follows the fit.
fn refit_to_free_area(
    free: Res<FreeArea>,
    mut cameras: Query<&mut PanOrbitCamera>,
    mut last: Local<Option<FreeArea>>,
) {
    debug!("the board is framed in {:?}", *free);
    for mut camera in &mut cameras {
        let (yaw, pitch) = (camera.target_yaw, camera.target_pitch);
        let fit = fitted(&free, yaw, pitch);
        match *last {
            Some(before) if before.measured => {
                camera.target_radius =
                    kept_zoom(camera.target_radius, fitted(&before, yaw, pitch), fit);
            }
            _ => {
                camera.target_radius = fit;
                if free.measured {
                    // The first measured frame: stand there at once, with no glide.
                    camera.radius = Some(fit);
                    camera.force_update = true;
                }
            }
        }
    }
    *last = Some(*free);
}

/// The distance for a camera at `radius` when the fitting distance goes from `before` to `now`:
/// the player's zoom (`radius / before`) kept, within [`RADIUS_RANGE`].
fn kept_zoom(radius: f32, before: f32, now: f32) -> f32 {
    let zoom = radius / before.max(f32::EPSILON);
    (now * zoom).clamp(RADIUS_RANGE.0, RADIUS_RANGE.1)
}

fn publish_yaw(cameras: Query<&PanOrbitCamera>, mut yaw: ResMut<ViewYaw>) {
    if let Some(camera) = cameras.iter().next() {
        let current = camera.yaw.unwrap_or(camera.target_yaw);
        if (current - yaw.0).abs() > 1e-4 {
            yaw.0 = current;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The views asked for when `held` keys are down and `pressed` is pressed.
    fn views_for(held: &[KeyCode], pressed: KeyCode) -> Vec<ViewRequested> {
        let mut app = App::new();
        app.add_message::<ViewRequested>()
            .init_resource::<ButtonInput<KeyCode>>()
            .add_systems(Update, view_keys);
        {
            let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
            for key in held {
                keys.press(*key);
            }
            keys.press(pressed);
        }
        app.update();
        app.world_mut()
            .resource_mut::<Messages<ViewRequested>>()
            .drain()
            .collect()
    }

    /// A phone held sideways (844 × 390 points at ratio 2) whose board has all but the
    /// `bottom` pixels (where the status line is).
    fn phone_area(bottom: f32) -> FreeArea {
        let window = Vec2::new(1688.0, 780.0);
        FreeArea {
            window,
            rect: Rect::new(0.0, 0.0, window.x, window.y - bottom),
            measured: true,
        }
    }

    #[test]
    fn a_grown_status_line_keeps_the_players_zoom() {
        let mut app = App::new();
        app.insert_resource(FreeArea::default()).add_systems(
            Update,
            refit_to_free_area.run_if(resource_changed::<FreeArea>),
        );
        let (yaw, pitch) = view_angles(View::Kingdom(Kingdom::Qin), Kingdom::Qin, 0.0);
        let camera = app
            .world_mut()
            .spawn(PanOrbitCamera {
                target_yaw: yaw,
                target_pitch: pitch,
                ..default()
            })
            .id();
        let radius = |app: &App| {
            app.world()
                .get::<PanOrbitCamera>(camera)
                .unwrap()
                .target_radius
        };
        app.update();
        // Measured: the camera stands at the fit at once.
        *app.world_mut().resource_mut::<FreeArea>() = phone_area(80.0);
        app.update();
        let fit = fitted(&phone_area(80.0), yaw, pitch);
        assert!(
            (radius(&app) - fit).abs() < 1e-3,
            "{} against {fit}",
            radius(&app)
        );
        assert_eq!(
            app.world().get::<PanOrbitCamera>(camera).unwrap().radius,
            Some(fit)
        );

        // A message makes the status line two lines high: a board at the fit follows the fit.
        *app.world_mut().resource_mut::<FreeArea>() = phone_area(120.0);
        app.update();
        let grown = fitted(&phone_area(120.0), yaw, pitch);
        assert!(grown != fit, "the test's areas must fit differently");
        assert!(
            (radius(&app) - grown).abs() < 1e-3,
            "{} against {grown}",
            radius(&app)
        );

        // The player pinches the board to half the distance; the message goes.
        app.world_mut()
            .get_mut::<PanOrbitCamera>(camera)
            .unwrap()
            .target_radius = grown / 2.0;
        *app.world_mut().resource_mut::<FreeArea>() = phone_area(80.0);
        app.update();
        assert!(
            (radius(&app) - fit / 2.0).abs() < 1e-3,
            "the pinched board went to {} (the fit is {fit})",
            radius(&app)
        );
    }

    #[test]
    fn a_kept_zoom_stays_within_the_cameras_range() {
        assert_eq!(kept_zoom(10.0, 20.0, 10.0), RADIUS_RANGE.0);
        assert_eq!(kept_zoom(150.0, 30.0, 60.0), RADIUS_RANGE.1);
        assert!((kept_zoom(15.0, 30.0, 40.0) - 20.0).abs() < 1e-4);
    }

    #[test]
    fn digits_pick_views_but_not_with_ctrl_held() {
        assert_eq!(
            views_for(&[], KeyCode::Digit0),
            vec![ViewRequested(View::Top)]
        );
        assert_eq!(
            views_for(&[], KeyCode::Digit2),
            vec![ViewRequested(View::Kingdom(Kingdom::Chu))]
        );
        // Ctrl+0 resets the interface's zoom only.
        assert!(views_for(&[KeyCode::ControlLeft], KeyCode::Digit0).is_empty());
        assert!(views_for(&[KeyCode::ControlRight], KeyCode::Digit3).is_empty());
    }
}
