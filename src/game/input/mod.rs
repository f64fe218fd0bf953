//! Pointer and keyboard input turned into the game's messages, and nothing more: picking
//! observers name the point under a click (a stone, or the board's surface near a point) or a
//! hover; a right click that did not drag the camera, or Escape, drops the selection; fingers
//! are read as gestures ([`touch`]). The interface captures the pointer over its windows, so
//! clicks there never reach the board.

pub(crate) mod history;
pub(crate) mod touch;

use bevy::input::mouse::MouseMotion;
use bevy::picking::mesh_picking::MeshPickingPlugin;
use bevy::prelude::*;
use bevy_egui::input::{
    EguiWantsInput, egui_wants_any_keyboard_input, egui_wants_any_pointer_input,
};
use qiguo_rules::{PieceKind, Point};

use crate::game::awareness::ToggleThreats;
use crate::game::board::BoardSurface;
use crate::game::keyboard;
use crate::game::layout::nearest_point;
use crate::game::recap::ReplayRequested;
use crate::game::schedule::AppSystems;
use crate::game::selection::cursor::{BoardCursor, CursorRequested};
use crate::game::selection::{DeselectRequested, Hover, PointClicked};
use crate::game::sound::ToggleMute;
use crate::game::stones::{EmperorStone, StonePlace};
use crate::game::telling::{Command, CommandTyped, ROUND, Subject, Unread};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(MeshPickingPlugin)
        .init_resource::<RightDrag>()
        .init_resource::<touch::Gestures>()
        .init_resource::<touch::HeldCard>()
        .init_resource::<touch::Fingers>()
        .add_observer(on_click)
        .add_observer(on_over)
        .add_observer(on_out)
        .add_systems(
            Update,
            (
                right_click_deselects.run_if(not(egui_wants_any_pointer_input)),
                touch::note_pointer_kind,
                touch::read_touches,
                escape_deselects
                    .run_if(not(egui_wants_any_keyboard_input))
                    .run_if(cursor_hidden),
                cursor_keys.run_if(not(egui_wants_any_keyboard_input)),
                telling_keys.run_if(not(egui_wants_any_keyboard_input)),
                threat_key.run_if(not(egui_wants_any_keyboard_input)),
                replay_key.run_if(not(egui_wants_any_keyboard_input)),
                hint_key.run_if(not(egui_wants_any_keyboard_input)),
                mute_key.run_if(not(egui_wants_any_keyboard_input)),
            )
                .in_set(AppSystems::RecordInput),
        );
}

/// Whether the board's keyboard cursor is hidden (its keys then do what they otherwise do).
pub(crate) fn cursor_hidden(cursor: Res<BoardCursor>) -> bool {
    cursor.at.is_none()
}

/// The board cursor's keys: C shows or hides it; while it is shown, the arrows walk it as the
/// board is seen (up is away from the viewer, along the file or rank nearest to that), `]` and
/// `[` go through an army's stones, Enter or Space acts as a click on its point, Escape hides
/// it.
fn cursor_keys(
    input: Res<ButtonInput<KeyCode>>,
    cursor: Res<BoardCursor>,
    cameras: Query<&GlobalTransform, With<Camera3d>>,
    mut requests: MessageWriter<CursorRequested>,
) {
    if keyboard::CURSOR.just_pressed(&input) {
        requests.write(CursorRequested::Toggle);
        return;
    }
    if cursor.at.is_none() {
        return;
    }
    // Without a camera (headless), up is north.
    let (up, right) = cameras.iter().next().map_or(((0, 1), (1, 0)), |camera| {
        seen_directions(
            camera.forward().as_vec3() + camera.up().as_vec3(),
            camera.right().as_vec3(),
        )
    });
    for (key, (files, ranks)) in [
        (KeyCode::ArrowUp, up),
        (KeyCode::ArrowDown, (-up.0, -up.1)),
        (KeyCode::ArrowLeft, (-right.0, -right.1)),
        (KeyCode::ArrowRight, right),
    ] {
        if input.just_pressed(key) {
            requests.write(CursorRequested::Step { files, ranks });
        }
    }
    if keyboard::CURSOR_NEXT.just_pressed(&input) {
        requests.write(CursorRequested::NextStone { forward: true });
    }
    if keyboard::CURSOR_PREVIOUS.just_pressed(&input) {
        requests.write(CursorRequested::NextStone { forward: false });
    }
    if input.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter, KeyCode::Space]) {
        requests.write(CursorRequested::Act);
    }
    if keyboard::ESCAPE.just_pressed(&input) {
        requests.write(CursorRequested::Hide);
    }
}

/// The keys that ask what the move box's commands ask, answered in words (`telling`): L the
/// last round, S the standings, W whose turn, K where my General stands, F2 the commands and
/// keys; A what attacks the cursor's point (without the cursor: which of my pieces are
/// attacked), D what guards it, G where its stone (or the selected one) can go; Ctrl+Shift+X
/// concedes (asked first). Hint (H) and undo (Ctrl+Z) have their keys already.
fn telling_keys(
    input: Res<ButtonInput<KeyCode>>,
    cursor: Res<BoardCursor>,
    selection: Res<crate::game::selection::Selection>,
    mut commands: MessageWriter<CommandTyped>,
) {
    let at = cursor.at;
    let asked = if keyboard::TELL_LAST.just_pressed(&input) {
        Some(Ok(Command::Last(ROUND)))
    } else if keyboard::TELL_STANDINGS.just_pressed(&input) {
        Some(Ok(Command::Standings))
    } else if keyboard::TELL_TURN.just_pressed(&input) {
        Some(Ok(Command::Turn))
    } else if keyboard::TELL_ATTACKS.just_pressed(&input) {
        Some(Ok(at.map_or(Command::Attacked, Command::Attacks)))
    } else if keyboard::TELL_DEFENDS.just_pressed(&input) {
        Some(at.map(Command::Defends).ok_or(Unread::NeedsCursor))
    } else if keyboard::TELL_WHERE.just_pressed(&input) {
        Some(Ok(Command::Where(Subject::Piece(PieceKind::General, None))))
    } else if keyboard::TELL_HELP.just_pressed(&input) {
        Some(Ok(Command::Help))
    } else if keyboard::CONCEDE.just_pressed(&input) {
        Some(Ok(Command::Concede))
    } else if keyboard::TELL_MOVES.just_pressed(&input) {
        Some(
            at.or(selection.selected)
                .map(Command::Moves)
                .ok_or(Unread::NeedsCursor),
        )
    } else {
        None
    };
    if let Some(asked) = asked {
        commands.write(CommandTyped(asked));
    }
}

/// The board's steps (files, ranks) nearest to the screen's up and right, from the camera's
/// `away` (its forward and up: away from the viewer along the board, whether it looks across
/// the board or straight down on it) and `right` directions in the world (a file runs along
/// +x, a rank along −z: `layout::point_position`).
fn seen_directions(away: Vec3, right: Vec3) -> ((i8, i8), (i8, i8)) {
    let nearest = |direction: Vec3| {
        let steps: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let world = |(files, ranks): (i8, i8)| Vec3::new(f32::from(files), 0.0, -f32::from(ranks));
        steps
            .into_iter()
            .max_by(|a, b| {
                direction
                    .dot(world(*a))
                    .total_cmp(&direction.dot(world(*b)))
            })
            .unwrap_or((0, 1))
    };
    (nearest(away), nearest(right))
}

/// The board point a pointer event stands for: a stone on the board, the Emperor, or the
/// point nearest to where the board's surface was hit.
fn point_of(
    entity: Entity,
    hit: Option<Vec3>,
    surfaces: &Query<(), With<BoardSurface>>,
    stones: &Query<&StonePlace>,
    emperors: &Query<(), With<EmperorStone>>,
) -> Option<Point> {
    if surfaces.get(entity).is_ok() {
        return hit.and_then(nearest_point);
    }
    stone_point(entity, stones, emperors)
}

/// The point of a stone on the board, or of the Emperor.
fn stone_point(
    entity: Entity,
    stones: &Query<&StonePlace>,
    emperors: &Query<(), With<EmperorStone>>,
) -> Option<Point> {
    match stones.get(entity) {
        Ok(StonePlace::Board(point)) => Some(*point),
        _ => emperors.get(entity).is_ok().then_some(Point::EMPEROR),
    }
}

fn on_click(
    click: On<Pointer<Click>>,
    surfaces: Query<(), With<BoardSurface>>,
    stones: Query<&StonePlace>,
    emperors: Query<(), With<EmperorStone>>,
    mut clicked: MessageWriter<PointClicked>,
    egui: Option<Res<EguiWantsInput>>,
) {
    // A click on a window or panel over the board is the interface's, not the board's; a
    // finger's taps are read as gestures (`touch`), never as clicks.
    if click.button != PointerButton::Primary
        || click.pointer_id.is_touch()
        || over_interface(egui.as_deref())
    {
        return;
    }
    let point = point_of(
        click.event_target(),
        click.hit.position,
        &surfaces,
        &stones,
        &emperors,
    );
    debug!("click on {:?}: point {point:?}", click.event_target());
    if let Some(point) = point {
        clicked.write(PointClicked(point));
    }
}

/// Whether the pointer is over the interface (a window, panel or open menu), so the board
/// beneath it takes no click. Without egui (headless), never.
fn over_interface(egui: Option<&EguiWantsInput>) -> bool {
    egui.is_some_and(EguiWantsInput::wants_any_pointer_input)
}

/// Hovering a stone (not the board) names its point.
fn on_over(
    over: On<Pointer<Over>>,
    stones: Query<&StonePlace>,
    emperors: Query<(), With<EmperorStone>>,
    mut hover: ResMut<Hover>,
) {
    // A finger does not hover: its long press shows the card.
    if over.pointer_id.is_touch() {
        return;
    }
    if let Some(point) = stone_point(over.event_target(), &stones, &emperors)
        && hover.point != Some(point)
    {
        hover.point = Some(point);
    }
}

fn on_out(
    out: On<Pointer<Out>>,
    stones: Query<&StonePlace>,
    emperors: Query<(), With<EmperorStone>>,
    mut hover: ResMut<Hover>,
) {
    if out.pointer_id.is_touch() {
        return;
    }
    let point = stone_point(out.event_target(), &stones, &emperors);
    if point.is_some() && point == hover.point {
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
    if keyboard::ESCAPE.just_pressed(&keys) {
        deselect.write(DeselectRequested);
    }
}

/// T turns the threat shading on or off.
fn threat_key(keys: Res<ButtonInput<KeyCode>>, mut toggles: MessageWriter<ToggleThreats>) {
    if keyboard::THREATS.just_pressed(&keys) {
        toggles.write(ToggleThreats);
    }
}

/// R replays the moves played since the last turn of the person to move.
fn replay_key(keys: Res<ButtonInput<KeyCode>>, mut replays: MessageWriter<ReplayRequested>) {
    if keyboard::REPLAY.just_pressed(&keys) {
        replays.write(ReplayRequested);
    }
}

/// H asks for a hint for the person to move.
fn hint_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut hints: MessageWriter<crate::game::hint::HintRequested>,
) {
    if keyboard::HINT.just_pressed(&keys) {
        hints.write(crate::game::hint::HintRequested);
    }
}

/// M mutes or unmutes the sound.
fn mute_key(keys: Res<ButtonInput<KeyCode>>, mut toggles: MessageWriter<ToggleMute>) {
    if keyboard::MUTE.just_pressed(&keys) {
        toggles.write(ToggleMute);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The requests the keys make, pressed one at a time with the cursor as it is.
    fn requests(shown: bool, key: KeyCode) -> Vec<CursorRequested> {
        let mut app = App::new();
        app.init_resource::<ButtonInput<KeyCode>>()
            .insert_resource(BoardCursor {
                at: shown.then_some(Point::EMPEROR),
            })
            .add_message::<CursorRequested>()
            .add_systems(Update, cursor_keys);
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(key);
        app.update();
        let messages = app.world().resource::<Messages<CursorRequested>>();
        messages.iter_current_update_messages().copied().collect()
    }

    /// What the telling keys ask, with the cursor at `at`.
    fn asked(at: Option<Point>, key: KeyCode) -> Vec<CommandTyped> {
        asked_with(at, &[], key)
    }

    /// What the telling keys ask, with the cursor at `at` and `held` held.
    fn asked_with(at: Option<Point>, held: &[KeyCode], key: KeyCode) -> Vec<CommandTyped> {
        let mut app = App::new();
        app.init_resource::<ButtonInput<KeyCode>>()
            .insert_resource(BoardCursor { at })
            .init_resource::<crate::game::selection::Selection>()
            .add_message::<CommandTyped>()
            .add_systems(Update, telling_keys);
        let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        for &modifier in held {
            input.press(modifier);
        }
        input.press(key);
        app.update();
        let messages = app.world().resource::<Messages<CommandTyped>>();
        messages.iter_current_update_messages().cloned().collect()
    }

    #[test]
    fn each_question_has_a_key() {
        let k4: Point = "k4".parse().unwrap();
        let ok = |command| vec![CommandTyped(Ok(command))];
        assert_eq!(asked(None, KeyCode::KeyL), ok(Command::Last(ROUND)));
        assert_eq!(asked(None, KeyCode::KeyS), ok(Command::Standings));
        assert_eq!(asked(None, KeyCode::KeyW), ok(Command::Turn));
        assert_eq!(asked(None, KeyCode::KeyA), ok(Command::Attacked));
        assert_eq!(asked(Some(k4), KeyCode::KeyA), ok(Command::Attacks(k4)));
        assert_eq!(asked(Some(k4), KeyCode::KeyD), ok(Command::Defends(k4)));
        assert_eq!(asked(Some(k4), KeyCode::KeyG), ok(Command::Moves(k4)));
        assert_eq!(
            asked(None, KeyCode::KeyD),
            vec![CommandTyped(Err(Unread::NeedsCursor))]
        );
        assert_eq!(
            asked(None, KeyCode::KeyK),
            ok(Command::Where(Subject::Piece(PieceKind::General, None)))
        );
        assert_eq!(asked(None, KeyCode::F2), ok(Command::Help));
        // Conceding needs Ctrl and Shift (and the game asks first): X alone is nothing.
        let (ctrl, shift) = (KeyCode::ControlLeft, KeyCode::ShiftLeft);
        assert_eq!(
            asked_with(None, &[ctrl, shift], KeyCode::KeyX),
            ok(Command::Concede)
        );
        assert!(asked(None, KeyCode::KeyX).is_empty());
        assert!(asked(None, KeyCode::KeyQ).is_empty());
    }

    #[test]
    fn the_arrows_follow_the_board_as_it_is_seen() {
        let seen = |eye: Vec3| {
            let camera = Transform::from_translation(eye).looking_at(Vec3::ZERO, Vec3::Y);
            seen_directions(
                camera.forward().as_vec3() + camera.up().as_vec3(),
                camera.right().as_vec3(),
            )
        };
        // From the south (+z): up is north (the next rank), right is east (the next file).
        assert_eq!(seen(Vec3::new(0.0, 10.0, 10.0)), ((0, 1), (1, 0)));
        // From the west (−x): up is east, right is south.
        assert_eq!(seen(Vec3::new(-10.0, 10.0, 0.0)), ((1, 0), (0, -1)));
        // From the north, a little turned: up is south, right is west.
        assert_eq!(seen(Vec3::new(1.0, 12.0, -10.0)), ((0, -1), (-1, 0)));
    }

    #[test]
    fn the_cursors_keys_walk_it_only_while_it_is_shown() {
        assert_eq!(requests(false, KeyCode::KeyC), [CursorRequested::Toggle]);
        assert_eq!(requests(true, KeyCode::KeyC), [CursorRequested::Toggle]);
        // Hidden, the arrows, Enter and Escape are the rest of the game's.
        for key in [KeyCode::ArrowUp, KeyCode::Enter, KeyCode::Escape] {
            assert!(requests(false, key).is_empty(), "{key:?}");
        }
        let step = |files, ranks| vec![CursorRequested::Step { files, ranks }];
        assert_eq!(requests(true, KeyCode::ArrowUp), step(0, 1));
        assert_eq!(requests(true, KeyCode::ArrowDown), step(0, -1));
        assert_eq!(requests(true, KeyCode::ArrowLeft), step(-1, 0));
        assert_eq!(requests(true, KeyCode::ArrowRight), step(1, 0));
        assert_eq!(
            requests(true, KeyCode::BracketRight),
            [CursorRequested::NextStone { forward: true }]
        );
        assert_eq!(
            requests(true, KeyCode::BracketLeft),
            [CursorRequested::NextStone { forward: false }]
        );
        assert_eq!(requests(true, KeyCode::Enter), [CursorRequested::Act]);
        assert_eq!(requests(true, KeyCode::Space), [CursorRequested::Act]);
        assert_eq!(requests(true, KeyCode::Escape), [CursorRequested::Hide]);
    }
}
