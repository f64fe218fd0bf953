//! Stone entities: one per piece on the board or in a tray, and the Emperor. They mirror
//! `Match`: rebuilt from it on a reset, and moved, sent to trays, recoloured or removed when a
//! move is applied, with tweens that show how.

pub(crate) mod animation;
pub(crate) mod faces;
pub(crate) mod view;

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use qiguo_rules::{Kingdom, MoveReport, Piece, PieceKind, Point, Standing};

use crate::game::frames::Redraw;
use crate::game::layout::{LIFT, stone_rest, tray_slot};
use crate::game::pace::Pace;
use crate::game::schedule::AppSystems;
use crate::game::state::{Match, MatchReset, MoveApplied, Review, ShownPositionChanged};
use crate::game::stones::animation::{Leg, Tween};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StoneIndex>()
        .add_systems(Startup, (spawn_emperor, rebuild_stones))
        .add_systems(
            Update,
            (
                rebuild_stones.run_if(on_message::<MatchReset>),
                glide_to_shown_position.run_if(on_message::<ShownPositionChanged>),
                show_applied_moves,
            )
                .chain()
                .in_set(AppSystems::SyncView),
        )
        .add_systems(Update, change_looks.in_set(AppSystems::Animate));
}

/// A piece's stone.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stone {
    /// The piece, in the colour of its current owner (or, in a tray, as it was captured).
    pub piece: Piece,
}

/// The piece a stone shows (its colour and character). It follows [`Stone`], except that a
/// transferred army keeps its old colour until the capturing stone lands.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look(pub Piece);

/// A change of [`Look`] waiting for its moment.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub(crate) struct LookChange {
    /// Seconds to wait.
    pub(crate) after: f32,
    /// The look to take.
    pub(crate) to: Piece,
}

/// Everything a new stone entity needs.
fn stone_bundle(piece: Piece, place: StonePlace, transform: Transform) -> impl Bundle {
    (
        Stone { piece },
        Look(piece),
        place,
        transform,
        Name::new(format!("{piece}")),
    )
}

/// Where a stone is.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StonePlace {
    /// On a point of the board.
    Board(Point),
    /// In the tray of the kingdom that captured it.
    Tray {
        /// The captor.
        captor: Kingdom,
        /// Its place in the tray, from 0.
        slot: u16,
    },
    /// Leaving the board with its beaten or forfeited army; despawned after the effect.
    Leaving,
}

/// The Emperor's stone at `j10`.
#[derive(Component, Clone, Copy, Debug)]
pub struct EmperorStone;

/// Which stone stands on each point, and how full each tray is.
#[derive(Resource, Default, Debug)]
pub struct StoneIndex {
    on_board: HashMap<Point, Entity>,
    tray_len: [u16; 7],
}

impl StoneIndex {
    /// The stone on `point`.
    pub fn at(&self, point: Point) -> Option<Entity> {
        self.on_board.get(&point).copied()
    }

    /// Number of stones in `captor`'s tray.
    pub fn tray_len(&self, captor: Kingdom) -> u16 {
        self.tray_len[captor.index()]
    }
}

fn spawn_emperor(mut commands: Commands) {
    commands.spawn((
        EmperorStone,
        Transform::from_translation(stone_rest(Point::EMPEROR)),
        Name::new("Emperor"),
    ));
}

/// Whether a report's capture went to the captor's tray (a forfeited ally's does not).
fn captured_to_tray(report: &MoveReport) -> Option<Piece> {
    let captured = report.captured?;
    let forfeited = report.fallen.as_ref().is_some_and(|f| {
        f.kingdom == captured.kingdom && matches!(f.standing, Standing::Forfeited { .. })
    });
    (!forfeited).then_some(captured)
}

/// Every stone of the position shown (live, or under review) and where it belongs: the
/// pieces on the board, then the captures in their captors' trays, in order.
fn shown_stones(the_match: &Match, review: &Review) -> Vec<(StonePlace, Piece)> {
    let ply = review.shown_ply(the_match);
    let pos = review.shown_position(the_match);
    let mut stones: Vec<(StonePlace, Piece)> = pos
        .pieces()
        .map(|(point, piece)| (StonePlace::Board(point), piece))
        .collect();
    let mut tray_len = [0u16; 7];
    for report in the_match.game().reports().take(ply) {
        if let Some(piece) = captured_to_tray(report) {
            let slot = &mut tray_len[report.mover.index()];
            stones.push((
                StonePlace::Tray {
                    captor: report.mover,
                    slot: *slot,
                },
                piece,
            ));
            *slot += 1;
        }
    }
    stones
}

/// Where a stone at `place` rests.
fn rest(place: StonePlace) -> Option<Vec3> {
    match place {
        StonePlace::Board(point) => Some(stone_rest(point)),
        StonePlace::Tray { captor, slot } => Some(tray_slot(captor, slot)),
        StonePlace::Leaving => None,
    }
}

/// The index of the stones of the position shown.
fn index_of(stones: impl IntoIterator<Item = (StonePlace, Entity)>) -> StoneIndex {
    let mut index = StoneIndex::default();
    for (place, entity) in stones {
        match place {
            StonePlace::Board(point) => {
                index.on_board.insert(point, entity);
            }
            StonePlace::Tray { captor, .. } => index.tray_len[captor.index()] += 1,
            StonePlace::Leaving => {}
        }
    }
    index
}

/// Despawns every stone and spawns them again from the position shown.
fn rebuild_stones(
    mut commands: Commands,
    the_match: Res<Match>,
    review: Res<Review>,
    stones: Query<Entity, With<Stone>>,
    mut index: ResMut<StoneIndex>,
) {
    for entity in &stones {
        commands.entity(entity).despawn();
    }
    let spawned: Vec<(StonePlace, Entity)> = shown_stones(&the_match, &review)
        .into_iter()
        .filter_map(|(place, piece)| {
            let entity = commands
                .spawn(stone_bundle(
                    piece,
                    place,
                    Transform::from_translation(rest(place)?),
                ))
                .id();
            Some((place, entity))
        })
        .collect();
    *index = index_of(spawned);
}

/// Seconds a stone takes to glide to another position of the game.
const GLIDE_SECONDS: f32 = 0.45;

/// A stone as the planners see it: any id (an entity in the game, a number in tests), the
/// piece it stands for, where it is and where it is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StoneNow<Id> {
    /// The stone.
    pub(crate) id: Id,
    /// Its piece.
    pub(crate) piece: Piece,
    /// Where it is.
    pub(crate) place: StonePlace,
    /// Where it is drawn.
    pub(crate) at: Vec3,
}

/// How the stones get to another position of the same game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GlidePlan<Id> {
    /// For each target (in the order given), the stone that ends there; `None` for a stone to
    /// spawn.
    pub(crate) assigned: Vec<Option<Id>>,
    /// Stones that travel: the stone, the target's index, and where it leaves from.
    pub(crate) travels: Vec<(Id, usize, Vec3)>,
    /// Stones no longer in the position, and where they are.
    pub(crate) leaves: Vec<(Id, Vec3)>,
}

/// Plans the move of the stones `now` to `targets` (places and pieces): a stone already in
/// place with the right piece stays; otherwise the nearest stone of the same piece travels
/// there (from the board or back from a tray), then the nearest of the same kind in another
/// colour (an army handed back); stones left over leave, and targets left without a stone get a
/// new one.
pub(crate) fn plan_glide<Id: Copy>(
    now: &[StoneNow<Id>],
    targets: &[(StonePlace, Piece)],
) -> GlidePlan<Id> {
    let mut sources: Vec<Option<StoneNow<Id>>> = now
        .iter()
        .filter(|s| s.place != StonePlace::Leaving)
        .copied()
        .map(Some)
        .collect();
    let mut assigned: Vec<Option<Id>> = vec![None; targets.len()];
    let at_place: HashMap<StonePlace, usize> = sources
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|s| (s.place, i)))
        .collect();
    for (t, (place, piece)) in targets.iter().enumerate() {
        if let Some(&i) = at_place.get(place)
            && let Some(stone) = sources[i]
            && stone.piece == *piece
        {
            assigned[t] = Some(stone.id);
            sources[i] = None;
        }
    }
    let mut travels = Vec::new();
    for same_kingdom in [true, false] {
        for (t, (place, piece)) in targets.iter().enumerate() {
            if assigned[t].is_some() {
                continue;
            }
            let Some(to) = rest(*place) else { continue };
            let nearest = sources
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.map(|s| (i, s)))
                .filter(|(_, s)| {
                    s.piece.kind == piece.kind
                        && (!same_kingdom || s.piece.kingdom == piece.kingdom)
                })
                .min_by(|a, b| a.1.at.distance(to).total_cmp(&b.1.at.distance(to)));
            let Some((i, stone)) = nearest else { continue };
            sources[i] = None;
            assigned[t] = Some(stone.id);
            travels.push((stone.id, t, stone.at));
        }
    }
    let leaves = sources
        .into_iter()
        .flatten()
        .map(|s| (s.id, s.at))
        .collect();
    GlidePlan {
        assigned,
        travels,
        leaves,
    }
}

/// Moves the stones to the position shown after an undo, a redo or a step of the review (see
/// [`plan_glide`]); travelling stones take their new piece and place at once, and their look
/// at once too.
fn glide_to_shown_position(
    mut commands: Commands,
    the_match: Res<Match>,
    review: Res<Review>,
    mut stones: Query<(Entity, &mut Stone, &mut StonePlace, &Transform)>,
    mut index: ResMut<StoneIndex>,
) {
    let now: Vec<StoneNow<Entity>> = stones
        .iter()
        .map(|(id, stone, place, t)| StoneNow {
            id,
            piece: stone.piece,
            place: *place,
            at: t.translation,
        })
        .collect();
    let targets = shown_stones(&the_match, &review);
    let mut plan = plan_glide(&now, &targets);
    let up = Vec3::Y * LIFT;
    for &(entity, t, from) in &plan.travels {
        let (place, piece) = targets[t];
        let Some(to) = rest(place) else { continue };
        if let Ok((_, mut stone, mut stone_place, _)) = stones.get_mut(entity) {
            stone.set_if_neq(Stone { piece });
            *stone_place = place;
        }
        commands.entity(entity).remove::<LookChange>().insert((
            Look(piece),
            Tween::new(vec![
                Leg::to(from + up, 0.1),
                Leg::to(to + up, GLIDE_SECONDS),
                Leg::to(to, 0.1),
            ])
            .non_blocking(),
        ));
    }
    for &(entity, at) in &plan.leaves {
        if let Ok((_, _, mut place, _)) = stones.get_mut(entity) {
            *place = StonePlace::Leaving;
        }
        commands.entity(entity).insert(vanish(at).non_blocking());
    }
    for (t, &(place, piece)) in targets.iter().enumerate() {
        if plan.assigned[t].is_some() {
            continue;
        }
        let Some(to) = rest(place) else { continue };
        let entity = commands
            .spawn((
                stone_bundle(
                    piece,
                    place,
                    Transform::from_translation(to).with_scale(Vec3::ZERO),
                ),
                Tween::new(vec![Leg::to(to, GLIDE_SECONDS)]).non_blocking(),
            ))
            .id();
        plan.assigned[t] = Some(entity);
    }
    *index = index_of(
        targets
            .iter()
            .zip(plan.assigned)
            .filter_map(|((place, _), entity)| Some((*place, entity?))),
    );
}

/// Seconds a stone takes to rise before travelling, and to settle after.
const LIFT_SECONDS: f32 = 0.14;

fn travel_seconds(distance: f32) -> f32 {
    (0.22 + 0.035 * distance).min(0.8)
}

/// The path of a moving piece above the board: the knight bends at its leg.
fn travel_path(piece: PieceKind, from: Point, to: Point) -> Vec<Vec3> {
    let b = stone_rest(to);
    let up = Vec3::Y * LIFT;
    if piece == PieceKind::Knight {
        let df = to.file() as i32 - from.file() as i32;
        let dr = to.rank() as i32 - from.rank() as i32;
        let (lf, lr) = if dr.abs() > df.abs() {
            (0, dr.signum())
        } else {
            (df.signum(), 0)
        };
        if let Some(leg) = Point::new(
            (from.file() as i32 + lf) as u8,
            (from.rank() as i32 + lr) as u8,
        ) {
            return vec![stone_rest(leg) + up, b + up];
        }
    }
    vec![b + up]
}

/// What becomes of a stone of a beaten army when the move is shown.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ArmyStone {
    /// It takes the victor's colour when the capturing stone lands, then bounces.
    Recolour {
        /// Its piece, now the victor's.
        piece: Piece,
        /// Seconds until it changes colour (the capturing stone lands).
        at: f32,
        /// The bounce, after a short pause.
        bounce: Tween,
    },
    /// It leaves the board after the capturing stone lands.
    Leave(Tween),
}

/// How one applied move is shown, for stones identified by `Id`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MovePlan<Id> {
    /// The moving stone, its new point and its tween.
    pub(crate) mover: (Id, Point, Tween),
    /// The captured stone: its new place (a tray slot, or leaving with a forfeited army) and
    /// its tween.
    pub(crate) victim: Option<(Id, StonePlace, Tween)>,
    /// The stones of a beaten or forfeited army, with their point.
    pub(crate) army: Vec<(Id, Point, ArmyStone)>,
}

impl<Id> MovePlan<Id> {
    /// The same plan shown in `share` of the time (see [`Pace`]): 0 puts every stone in its
    /// place at once.
    pub(crate) fn scaled(mut self, share: f32) -> MovePlan<Id> {
        self.mover.2 = self.mover.2.scaled(share);
        if let Some(victim) = &mut self.victim {
            victim.2 = victim.2.clone().scaled(share);
        }
        self.army = std::mem::take(&mut self.army)
            .into_iter()
            .map(|(id, point, what)| (id, point, what.scaled(share)))
            .collect();
        self
    }
}

impl ArmyStone {
    /// The same change shown in `share` of the time.
    pub(crate) fn scaled(self, share: f32) -> ArmyStone {
        match self {
            ArmyStone::Recolour { piece, at, bounce } => ArmyStone::Recolour {
                piece,
                at: at * share,
                bounce: bounce.scaled(share),
            },
            ArmyStone::Leave(tween) => ArmyStone::Leave(tween.scaled(share)),
        }
    }
}

/// Plans how `report` is shown: the mover lifts, travels (a knight through its leg) and
/// settles; a capture flies to the captor's tray (`next_slot` gives the slot) or, for a
/// forfeited ally, vanishes; a beaten army is recoloured when the capturing stone lands, or
/// leaves. `on_board` names the stone on a point, `at` where it is drawn. `None` for a pass,
/// or if the mover has no stone.
pub(crate) fn plan_move<Id: Copy>(
    report: &MoveReport,
    on_board: impl Fn(Point) -> Option<Id>,
    at: impl Fn(Id) -> Vec3,
    mut next_slot: impl FnMut(Kingdom) -> u16,
) -> Option<MovePlan<Id>> {
    let (from, to, piece) = (report.mv.from()?, report.mv.to()?, report.piece?);
    let mover = on_board(from)?;
    let path = travel_path(piece.kind, from, to);
    let travel = travel_seconds(stone_rest(from).distance(stone_rest(to)));
    let mut legs = vec![Leg::to(stone_rest(from) + Vec3::Y * LIFT, LIFT_SECONDS)];
    let per_leg = travel / path.len() as f32;
    legs.extend(path.iter().map(|p| Leg::to(*p, per_leg)));
    legs.push(Leg::to(stone_rest(to), LIFT_SECONDS));
    let lands = LIFT_SECONDS + travel;

    let victim = report.captured.and_then(|_| {
        let victim = on_board(to)?;
        let from = at(victim);
        Some(if captured_to_tray(report).is_some() {
            let slot = next_slot(report.mover);
            let target = tray_slot(report.mover, slot);
            let high = from.lerp(target, 0.5) + Vec3::Y * 2.5;
            let tween = Tween::new(vec![
                Leg::to(high, 0.3),
                Leg::to(target + Vec3::Y * 0.4, 0.3),
                Leg::to(target, 0.12),
            ]);
            (
                victim,
                StonePlace::Tray {
                    captor: report.mover,
                    slot,
                },
                tween.after(lands - 0.1),
            )
        } else {
            // A forfeited ally's stone leaves with its army.
            (victim, StonePlace::Leaving, vanish(from).after(lands - 0.1))
        })
    });

    Some(MovePlan {
        mover: (mover, to, Tween::new(legs)),
        victim,
        army: plan_army(report, on_board, at, lands),
    })
}

/// How the stones of the army that fell with `report` (if any) are shown, from `lands`
/// seconds on (when the capturing stone lands; at once for a concession): recoloured for the
/// victor, or leaving.
pub(crate) fn plan_army<Id: Copy>(
    report: &MoveReport,
    on_board: impl Fn(Point) -> Option<Id>,
    at: impl Fn(Id) -> Vec3,
    lands: f32,
) -> Vec<(Id, Point, ArmyStone)> {
    let mut army = Vec::new();
    if let Some(fallen) = &report.fallen {
        for (i, (point, was)) in fallen.army.iter().enumerate() {
            let Some(stone) = on_board(*point) else {
                continue;
            };
            let stone_at = at(stone);
            let delay = lands + 0.35 + 0.02 * i as f32;
            let what = match fallen.transferred_to {
                Some(victor) => ArmyStone::Recolour {
                    piece: Piece::new(victor, was.kind),
                    at: lands,
                    bounce: Tween::new(vec![
                        Leg {
                            to: stone_at + Vec3::Y * 0.35,
                            scale: 1.25,
                            seconds: 0.22,
                        },
                        Leg::to(stone_at, 0.22),
                    ])
                    .after(delay),
                },
                None => ArmyStone::Leave(vanish(stone_at).after(delay)),
            };
            army.push((stone, *point, what));
        }
    }
    army
}

/// Turns each applied move into changes of the stone entities and the tweens that show them
/// (see [`plan_move`]).
fn show_applied_moves(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied>,
    pace: Res<Pace>,
    mut index: ResMut<StoneIndex>,
    mut stones: Query<(&mut Stone, &mut StonePlace, &Transform)>,
) {
    for MoveApplied { report, by, .. } in applied.read() {
        if report.mv.is_concession() {
            // No stone moves: the army leaves or changes colour at once.
            let army = {
                let on_board = &index.on_board;
                let at = |e: Entity| stones.get(e).map_or(Vec3::ZERO, |(_, _, t)| t.translation);
                plan_army(report, |p| on_board.get(&p).copied(), at, 0.0)
            };
            let share = pace.glide_share(*by);
            let army = army
                .into_iter()
                .map(|(e, p, what)| (e, p, what.scaled(share)))
                .collect();
            show_army(&mut commands, &mut index, &mut stones, army);
            continue;
        }
        if report.mv.from().is_none() {
            continue; // a pass moves nothing
        }
        let plan = {
            let StoneIndex { on_board, tray_len } = &mut *index;
            let at = |e: Entity| stones.get(e).map_or(Vec3::ZERO, |(_, _, t)| t.translation);
            plan_move(
                report,
                |p| on_board.get(&p).copied(),
                at,
                |captor| {
                    let slot = tray_len[captor.index()];
                    tray_len[captor.index()] += 1;
                    slot
                },
            )
        };
        let Some(plan) = plan.map(|p| p.scaled(pace.glide_share(*by))) else {
            error!("no stone to show {}; the view will be rebuilt", report.mv);
            commands.write_message(MatchReset);
            return;
        };
        let (mover, to, tween) = plan.mover;
        if let Some(from) = report.mv.from() {
            index.on_board.remove(&from);
        }
        if let Some((victim, place, tween)) = plan.victim {
            index.on_board.remove(&to);
            if let Ok((_, mut stone_place, _)) = stones.get_mut(victim) {
                *stone_place = place;
            }
            commands.entity(victim).insert(tween);
        }
        if let Ok((_, mut place, _)) = stones.get_mut(mover) {
            *place = StonePlace::Board(to);
        }
        index.on_board.insert(to, mover);
        commands.entity(mover).insert(tween);
        show_army(&mut commands, &mut index, &mut stones, plan.army);
    }
}

/// Gives the stones of a fallen army their new colour or sends them away, as planned.
fn show_army(
    commands: &mut Commands,
    index: &mut StoneIndex,
    stones: &mut Query<(&mut Stone, &mut StonePlace, &Transform)>,
    army: Vec<(Entity, Point, ArmyStone)>,
) {
    for (entity, point, what) in army {
        let Ok((mut stone, mut place, _)) = stones.get_mut(entity) else {
            continue;
        };
        match what {
            ArmyStone::Recolour { piece, at, bounce } => {
                stone.piece = piece;
                commands.entity(entity).insert((
                    LookChange {
                        after: at,
                        to: piece,
                    },
                    bounce,
                ));
            }
            ArmyStone::Leave(tween) => {
                index.on_board.remove(&point);
                *place = StonePlace::Leaving;
                commands.entity(entity).insert(tween);
            }
        }
    }
}

/// A stone at `at` leaving the board: it rises a little and shrinks away.
fn vanish(at: Vec3) -> Tween {
    Tween::new(vec![
        Leg {
            to: at + Vec3::Y * 0.3,
            scale: 1.1,
            seconds: 0.18,
        },
        Leg {
            to: at + Vec3::Y * 0.1,
            scale: 0.0,
            seconds: 0.32,
        },
    ])
    .then_despawn()
}

/// Applies the changes of look whose moment has come.
fn change_looks(
    time: Res<Time>,
    mut commands: Commands,
    mut changes: Query<(Entity, &mut LookChange, &mut Look)>,
    mut redraw: Redraw,
) {
    for (entity, mut change, mut look) in &mut changes {
        // Counted from the frame it is added in (as the glides are).
        if !change.is_added() {
            change.after -= time.delta_secs();
        }
        if change.after <= 0.0 {
            look.set_if_neq(Look(change.to));
            commands.entity(entity).remove::<LookChange>();
        } else {
            redraw.within(std::time::Duration::from_secs_f32(change.after));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Position, Preset, Rules, Seats, fen, notation};

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn piece(k: Kingdom, kind: PieceKind) -> Piece {
        Piece::new(k, kind)
    }

    fn on(id: u32, piece: Piece, point: &str) -> StoneNow<u32> {
        StoneNow {
            id,
            piece,
            place: StonePlace::Board(p(point)),
            at: stone_rest(p(point)),
        }
    }

    #[test]
    fn a_glide_keeps_stones_in_place_and_moves_the_nearest() {
        let qin_s = piece(Kingdom::Qin, PieceKind::Swordsman);
        let chu_s = piece(Kingdom::Chu, PieceKind::Swordsman);
        let now = [
            on(1, qin_s, "a1"),
            on(2, qin_s, "a5"),
            on(3, qin_s, "s19"),
            on(4, chu_s, "k10"),
        ];
        // a1 stays; a4 is reached by the Qin swordsman on a5 (nearer than s19's), k11 by the
        // one on s19 (the same piece comes before another colour); Chu's goes to b2.
        let targets = [
            (StonePlace::Board(p("a1")), qin_s),
            (StonePlace::Board(p("a4")), qin_s),
            (StonePlace::Board(p("k11")), qin_s),
            (StonePlace::Board(p("b2")), chu_s),
        ];
        let plan = plan_glide(&now, &targets);
        assert_eq!(plan.assigned, [Some(1), Some(2), Some(3), Some(4)]);
        assert_eq!(
            plan.travels,
            [
                (2, 1, stone_rest(p("a5"))),
                (3, 2, stone_rest(p("s19"))),
                (4, 3, stone_rest(p("k10")))
            ]
        );
        assert!(plan.leaves.is_empty());
        // Without a Qin swordsman to spare, Chu's changes colour (an army handed back).
        let plan = plan_glide(&[now[0], now[1], now[3]], &targets[..3]);
        assert_eq!(plan.assigned, [Some(1), Some(2), Some(4)]);
    }

    #[test]
    fn a_glide_with_fewer_targets_sends_the_rest_away() {
        let qin_s = piece(Kingdom::Qin, PieceKind::Swordsman);
        let now = [on(1, qin_s, "a1"), on(2, qin_s, "a5")];
        let plan = plan_glide(&now, &[(StonePlace::Board(p("a1")), qin_s)]);
        assert_eq!(plan.assigned, [Some(1)]);
        assert!(plan.travels.is_empty());
        assert_eq!(plan.leaves, [(2, stone_rest(p("a5")))]);
        // More targets than stones: the missing one is left to spawn.
        let plan = plan_glide(
            &now[..1],
            &[
                (StonePlace::Board(p("a1")), qin_s),
                (
                    StonePlace::Tray {
                        captor: Kingdom::Chu,
                        slot: 0,
                    },
                    qin_s,
                ),
            ],
        );
        assert_eq!(plan.assigned, [Some(1), None]);
    }

    /// The stones of `pos` numbered by point index, for `plan_move`.
    fn ids(pos: &Position) -> HashMap<Point, u32> {
        pos.pieces()
            .map(|(pt, _)| (pt, pt.index() as u32))
            .collect()
    }

    #[test]
    fn a_quiet_move_lifts_travels_and_settles() {
        let mut pos = Position::start(Rules::default());
        let mv = notation::parse_move("e10e5").unwrap();
        let board = ids(&pos);
        let report = pos.play(mv).unwrap();
        let plan = plan_move(&report, |pt| board.get(&pt).copied(), |_| Vec3::ZERO, |_| 0).unwrap();
        assert_eq!(plan.mover.0, p("e10").index() as u32);
        assert_eq!(plan.mover.1, p("e5"));
        assert_eq!(plan.mover.2.legs().last().unwrap().to, stone_rest(p("e5")));
        assert!(plan.victim.is_none() && plan.army.is_empty());
    }

    #[test]
    fn a_transferred_army_changes_colour_when_the_capturing_stone_lands() {
        // Wikipedia rules: a beaten kingdom's army goes to its victor.
        let setup = fen::parse(
            "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR1rQ5oQ10/19/19/12oG6/5rS4rG3bGbQ3 w",
        )
        .unwrap();
        let mut pos =
            Position::new(&setup, Rules::preset(Preset::Wikipedia), Seats::seven()).unwrap();
        let board = ids(&pos);
        let report = pos.play(notation::parse_move("a5c5").unwrap()).unwrap();
        let mut slots = 0;
        let plan = plan_move(
            &report,
            |pt| board.get(&pt).copied(),
            |_| Vec3::ZERO,
            |_| {
                slots += 1;
                slots - 1
            },
        )
        .unwrap();
        let (_, place, tween) = plan.victim.clone().unwrap();
        assert_eq!(
            place,
            StonePlace::Tray {
                captor: Kingdom::Qin,
                slot: 0
            }
        );
        let lands = plan.mover.2.total_seconds() - LIFT_SECONDS;
        assert!(
            tween.delay() < lands,
            "the victim leaves as the mover comes down"
        );
        assert_eq!(plan.army.len(), 2, "Chu's swordsman and go-between");
        for (_, point, what) in &plan.army {
            let ArmyStone::Recolour { piece, at, bounce } = what else {
                panic!("{point}: transferred, not removed");
            };
            assert_eq!(piece.kingdom, Kingdom::Qin);
            assert!((at - lands).abs() < 1e-6, "{point}: recoloured on landing");
            assert!(bounce.delay() > *at);
        }
    }
}
