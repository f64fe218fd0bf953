//! Picking a stone and a destination. Clicks arrive as `PointClicked` messages (from the
//! picking observers, or from tests); this turns them into a selection, a move request, a
//! question about attacking an ally, or a refusal cue. Destination markers are derived from the
//! selection, the hovered stone and `Match`.

pub mod cursor;
pub(crate) mod markers;
pub mod typed;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use qiguo_rules::{Move, Point, Position};

use crate::game::layout::point_position;
use crate::game::schedule::AppSystems;
use crate::game::state::{
    BoardRefusal, Match, MatchReset, MoveApplied, MoveRequested, Mover, ShownPositionChanged,
    TurnGate,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<Hover>()
        .init_resource::<Guide>()
        .add_message::<PointClicked>()
        .add_message::<DeselectRequested>()
        .add_message::<ClickRefused>()
        .add_message::<AllyAttackAnswered>()
        .add_message::<typed::MoveTyped>()
        .add_systems(
            Last,
            crate::game::frames::one_more_frame_when_written::<typed::MoveTyped>
                .in_set(crate::game::frames::AskFrames),
        )
        .init_resource::<cursor::BoardCursor>()
        .add_message::<cursor::CursorRequested>()
        .add_systems(
            Update,
            (
                read_preview_key,
                handle_deselect,
                cursor::move_cursor,
                handle_point_clicks,
                typed::handle_typed_moves,
                handle_ally_answers,
            )
                .chain()
                .in_set(AppSystems::RecordInput)
                .in_set(SelectionSystems),
        )
        .add_systems(
            Update,
            (clear_selection_after_changes, update_markers)
                .chain()
                .in_set(AppSystems::SyncView),
        );
}

/// Where clicks and typed moves are interpreted: whatever guides them ([`Guide`]) is set
/// before.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelectionSystems;

/// What a guided step on the board (a lesson's) lets a person's click or typed move do; its
/// owner keeps it up to date before [`SelectionSystems`]. Unguided, everything legal goes.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Guide {
    /// A guided step is on the board: a click on a point the selected stone cannot reach is
    /// answered with the rules' reason instead of dropping the selection.
    pub active: bool,
    /// The moves the step asks for while it waits; `None` once it is done (no move then).
    pub goals: Option<Vec<Move>>,
    /// What a move is answered once the step is done (a lesson's [`BoardRefusal::LessonDone`]
    /// unless its owner says otherwise).
    pub done: Option<BoardRefusal>,
    /// Its owner says what the board asks (a practice: the question, a miss, the question
    /// again), so a game it puts on the board and the person's turn on it are not told besides:
    /// the turn's urgent words would cut off a miss just said.
    pub tells_the_turn: bool,
}

impl Guide {
    /// Whether the board takes a person's move now: unguided, or a guided step that waits for
    /// one (a lesson's step done or a question answered takes none: nobody's turn is told,
    /// bannered or turned to then).
    pub fn takes_moves(&self) -> bool {
        !self.active || self.goals.as_ref().is_some_and(|g| !g.is_empty())
    }

    /// Why the person may not play `mv` in `pos` now, if the guide forbids it: a legal move
    /// that is not a goal, or any move once the step is done. Illegal moves are the rules
    /// system's to refuse.
    pub fn refusal(&self, pos: &Position, mv: Move) -> Option<BoardRefusal> {
        if !self.active {
            return None;
        }
        match &self.goals {
            Some(goals) if goals.contains(&mv) || !pos.is_legal(mv) => None,
            Some(_) => Some(BoardRefusal::OffLesson(mv)),
            None => Some(self.done.clone().unwrap_or(BoardRefusal::LessonDone)),
        }
    }
}

/// The stone picked by the player to move, and a move waiting for confirmation.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The point of the selected stone.
    pub selected: Option<Point>,
    /// A move that would attack an ally, requested for its turn once the player confirms it.
    pub pending_ally_attack: Option<MoveRequested>,
}

/// The stone under the pointer, and whether the preview key (Shift) is held.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Hover {
    /// The point of the hovered stone.
    pub point: Option<Point>,
    /// Whether Shift is held, asking to preview any hovered stone's moves.
    pub preview: bool,
}

/// A point (or the stone on it) was clicked with the primary button.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointClicked(pub Point);

/// The player asked to drop the selection (right click, Escape).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct DeselectRequested;

/// A click that could not do anything; views give a brief cue.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ClickRefused {
    /// Where, if on the board.
    pub point: Option<Point>,
    /// Why.
    pub reason: BoardRefusal,
}

/// The player's answer to "attack your ally?".
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllyAttackAnswered {
    /// Whether the move should be played.
    pub confirmed: bool,
}

/// A destination marker of the selected (or previewed) stone.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker {
    /// The destination.
    pub point: Point,
    /// What kind of destination it is.
    pub kind: MarkerKind,
}

/// Kinds of destination marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkerKind {
    /// A move of the selected stone onto an empty point.
    Move,
    /// A capture by the selected stone.
    Capture,
    /// A previewed move of another stone (muted).
    PreviewMove,
    /// A previewed capture of another stone (muted).
    PreviewCapture,
}

fn read_preview_key(keys: Option<Res<ButtonInput<KeyCode>>>, mut hover: ResMut<Hover>) {
    let held = keys.is_some_and(|k| crate::game::keyboard::shift_held(&k));
    hover.set_if_neq(Hover {
        preview: held,
        ..hover.clone()
    });
}

fn handle_deselect(
    mut requests: MessageReader<DeselectRequested>,
    mut selection: ResMut<Selection>,
) {
    if requests.read().count() > 0 && selection.selected.is_some() {
        selection.selected = None;
    }
}

/// What a person's click or typed move may do now: the turn as the rules system will check it.
#[derive(SystemParam)]
pub(super) struct PersonTurn<'w> {
    the_match: Res<'w, Match>,
    gate: TurnGate<'w>,
    guide: Res<'w, Guide>,
}

impl PersonTurn<'_> {
    /// Why a person cannot act now, if they cannot: not their turn, a dialog or the ally
    /// question open, a review shown, a move still shown.
    fn refusal(&self, selection: &Selection) -> Option<BoardRefusal> {
        self.gate
            .refusal(&self.the_match, Mover::Person)
            .or_else(|| {
                selection
                    .pending_ally_attack
                    .map(|_| BoardRefusal::AllyQuestionOpen)
            })
    }
}

/// A legal move played, or first asked about when it attacks an ally.
fn play_or_ask(pos: &Position, mv: Move) -> ClickOutcome {
    match pos.forfeits_ally(mv) {
        Some(_) => ClickOutcome::AskAlly(mv),
        None => ClickOutcome::Play(mv),
    }
}

/// Carries out what a click (on `point`) or a typed move means. In a lesson, a move the step
/// does not ask for is refused first.
fn carry_out(
    outcome: ClickOutcome,
    point: Option<Point>,
    turn: &PersonTurn,
    selection: &mut Selection,
    requests: &mut MessageWriter<MoveRequested>,
    refused: &mut MessageWriter<ClickRefused>,
) {
    let the_match = &*turn.the_match;
    let outcome = match outcome {
        ClickOutcome::Play(mv) | ClickOutcome::AskAlly(mv) => turn
            .guide
            .refusal(the_match.position(), mv)
            .map_or(outcome, ClickOutcome::Refuse),
        other => other,
    };
    match outcome {
        ClickOutcome::Select(p) => selection.selected = Some(p),
        ClickOutcome::Deselect => selection.selected = None,
        ClickOutcome::Play(mv) => {
            selection.selected = None;
            requests.write(MoveRequested::by_person(the_match, mv));
        }
        ClickOutcome::AskAlly(mv) => {
            selection.pending_ally_attack = Some(MoveRequested::by_person(the_match, mv));
        }
        ClickOutcome::Refuse(reason) => {
            refused.write(ClickRefused { point, reason });
        }
    }
}

/// What a click on `point` means, given the position and the current selection.
#[derive(Debug, PartialEq, Eq)]
enum ClickOutcome {
    Select(Point),
    Deselect,
    Play(Move),
    AskAlly(Move),
    Refuse(BoardRefusal),
}

/// With `explain` (in a lesson), a selected stone's click on a point it cannot reach is
/// answered with the rules' reason instead of dropping the selection.
fn interpret_click(
    pos: &Position,
    selected: Option<Point>,
    point: Point,
    explain: bool,
) -> ClickOutcome {
    let to_move = pos.to_move();
    let piece = pos.piece_at(point);
    if let Some(from) = selected {
        if from == point {
            return ClickOutcome::Deselect;
        }
        let mv = Move::new(from, point);
        match pos.check(mv) {
            Ok(()) => return play_or_ask(pos, mv),
            Err(e) if explain && piece.is_none_or(|p| p.kingdom != to_move) => {
                return ClickOutcome::Refuse(BoardRefusal::Illegal(e));
            }
            Err(_) => {}
        }
    }
    match piece {
        Some(p) if p.kingdom == to_move => {
            if pos.moves_from(point).is_empty() {
                ClickOutcome::Refuse(BoardRefusal::NowhereToGo(p.kind))
            } else {
                ClickOutcome::Select(point)
            }
        }
        _ if selected.is_some() => ClickOutcome::Deselect,
        Some(p) => ClickOutcome::Refuse(BoardRefusal::NotYourStone {
            owner: p.kingdom,
            kind: p.kind,
            to_move,
        }),
        None if point == Point::EMPEROR => ClickOutcome::Refuse(BoardRefusal::Emperor),
        None => ClickOutcome::Refuse(BoardRefusal::PickAStone(to_move)),
    }
}

fn handle_point_clicks(
    mut clicks: MessageReader<PointClicked>,
    turn: PersonTurn,
    mut selection: ResMut<Selection>,
    mut requests: MessageWriter<MoveRequested>,
    mut refused: MessageWriter<ClickRefused>,
) {
    for &PointClicked(point) in clicks.read() {
        debug!("point {point} clicked in {:?}", turn.gate.phase());
        let outcome = match turn.refusal(&selection) {
            Some(reason) => ClickOutcome::Refuse(reason),
            None => interpret_click(
                turn.the_match.position(),
                selection.selected,
                point,
                turn.guide.active,
            ),
        };
        carry_out(
            outcome,
            Some(point),
            &turn,
            &mut selection,
            &mut requests,
            &mut refused,
        );
    }
}

fn handle_ally_answers(
    mut answers: MessageReader<AllyAttackAnswered>,
    mut selection: ResMut<Selection>,
    mut requests: MessageWriter<MoveRequested>,
) {
    for answer in answers.read() {
        if let Some(request) = selection.pending_ally_attack.take() {
            selection.selected = None;
            if answer.confirmed {
                requests.write(request);
            }
        }
    }
}

fn clear_selection_after_changes(
    mut applied: MessageReader<MoveApplied>,
    mut reset: MessageReader<MatchReset>,
    mut shown: MessageReader<ShownPositionChanged>,
    mut selection: ResMut<Selection>,
) {
    let changed = applied.read().count() + reset.read().count() + shown.read().count() > 0;
    if changed && *selection != Selection::default() {
        *selection = Selection::default();
    }
}

/// Respawns the markers when the selection, the hover or the match changes.
fn update_markers(
    mut commands: Commands,
    selection: Res<Selection>,
    hover: Res<Hover>,
    the_match: Res<Match>,
    markers: Query<Entity, With<Marker>>,
) {
    if !(selection.is_changed() || hover.is_changed() || the_match.is_changed()) {
        return;
    }
    debug!("markers for {:?} and {:?}", *selection, *hover);
    for entity in &markers {
        commands.entity(entity).despawn();
    }
    let pos = the_match.position();
    let mut spawn = |point: Point, moves: Vec<Move>, muted: bool| {
        for mv in moves {
            let Some(to) = mv.to() else { continue };
            let capture = pos.is_capture(mv);
            let kind = match (capture, muted) {
                (false, false) => MarkerKind::Move,
                (true, false) => MarkerKind::Capture,
                (false, true) => MarkerKind::PreviewMove,
                (true, true) => MarkerKind::PreviewCapture,
            };
            commands.spawn((
                Marker { point: to, kind },
                Transform::from_translation(point_position(to)),
                Name::new(format!("marker {point}→{to}")),
            ));
        }
    };
    if let Some(selected) = selection.selected {
        spawn(selected, pos.moves_from(selected), false);
    }
    if hover.preview
        && let Some(hovered) = hover.point
        && Some(hovered) != selection.selected
        && !pos.is_over()
    {
        spawn(hovered, pos.moves_from(hovered), true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Rules, Seats};

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn clicks_mean_what_players_expect() {
        let pos = Position::start(Rules::default());
        use ClickOutcome::*;
        assert_eq!(
            interpret_click(&pos, None, p("e10"), false),
            Select(p("e10"))
        );
        assert_eq!(
            interpret_click(&pos, Some(p("e10")), p("e10"), false),
            Deselect
        );
        assert_eq!(
            interpret_click(&pos, Some(p("e10")), p("e5"), false),
            Play(Move::new(p("e10"), p("e5")))
        );
        // Another own stone switches the selection.
        assert_eq!(
            interpret_click(&pos, Some(p("e10")), p("d10"), false),
            Select(p("d10"))
        );
        // Elsewhere deselects.
        assert_eq!(
            interpret_click(&pos, Some(p("e10")), p("k3"), false),
            Deselect
        );
        // Without a selection: refusals with a reason.
        assert!(
            matches!(interpret_click(&pos, None, p("f1"), false), Refuse(r) if r.to_string().contains("Chu's general"))
        );
        assert!(
            matches!(interpret_click(&pos, None, Point::EMPEROR, false), Refuse(r) if r.to_string().contains("Emperor"))
        );
        assert!(matches!(
            interpret_click(&pos, None, p("k3"), false),
            Refuse(_)
        ));
        // A stone that cannot move is not selected.
        assert!(
            matches!(interpret_click(&pos, None, p("a10"), false), Refuse(r) if r.to_string().contains("nowhere"))
        );
    }

    #[test]
    fn in_a_lesson_a_point_out_of_reach_is_explained() {
        let pos = Position::start(Rules::default());
        // Qin's go-between cannot go to k3: in a game the click drops the selection, in a
        // lesson it is answered with the rules' reason and the stone stays selected.
        assert_eq!(
            interpret_click(&pos, Some(p("e10")), p("k3"), false),
            ClickOutcome::Deselect
        );
        assert!(matches!(
            interpret_click(&pos, Some(p("e10")), p("k3"), true),
            ClickOutcome::Refuse(BoardRefusal::Illegal(
                qiguo_rules::IllegalMove::Unreachable { .. }
            ))
        ));
        // Another own stone is still selected instead.
        assert_eq!(
            interpret_click(&pos, Some(p("e10")), p("d10"), true),
            ClickOutcome::Select(p("d10"))
        );
    }

    #[test]
    fn attacking_an_ally_asks_first() {
        let setup = qiguo_rules::fen::parse(
            "19/19/19/19/19/19/19/19/19/19/19/19/19/19/rQ18/19/19/19/wR1rS16 w",
        )
        .unwrap();
        let seats = Seats::new([Some(0), Some(0), None, None, None, None, None]).unwrap();
        let pos = Position::new(&setup, Rules::default(), seats);
        // Only one player holds kingdoms here: that game is already over.
        assert!(pos.unwrap().is_over());
        let seats = Seats::new([Some(0), Some(0), Some(1), None, None, None, None]).unwrap();
        let setup = qiguo_rules::fen::parse(
            "19/19/19/19/19/19/19/19/19/19/19/19/19/19/rQ18/19/19/19/wR1rS14oQ1 w",
        )
        .unwrap();
        let pos = Position::new(&setup, Rules::default(), seats).unwrap();
        assert_eq!(
            interpret_click(&pos, Some(p("a1")), p("c1"), false),
            ClickOutcome::AskAlly(Move::new(p("a1"), p("c1")))
        );
    }
}
