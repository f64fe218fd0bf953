//! Stone entities: one per piece on the board or in a tray, and the Emperor. They mirror
//! `Match`: rebuilt from it on a reset, and moved, sent to trays, recoloured or removed when a
//! move is applied, with tweens that show how.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use qiguo_rules::{Kingdom, MoveReport, Piece, PieceKind, Point, Standing};

use super::AppSystems;
use super::animation::{Leg, Tween};
use super::layout::{LIFT, stone_rest, tray_slot};
use super::state::{Match, MatchReset, MoveApplied, Review, ShownPositionChanged};

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
        );
}

/// A piece's stone.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stone {
    /// The piece, in the colour of its current owner (or, in a tray, as it was captured).
    pub piece: Piece,
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
                .spawn((
                    Stone { piece },
                    place,
                    Transform::from_translation(rest(place)?),
                    Name::new(format!("{piece}")),
                ))
                .id();
            Some((place, entity))
        })
        .collect();
    *index = index_of(spawned);
}

/// Seconds a stone takes to glide to another position of the game.
const GLIDE_SECONDS: f32 = 0.45;

/// Moves the stones to the position shown after an undo, a redo or a step of the review: a
/// stone already in place stays; otherwise the nearest stone of the same piece travels there
/// (from the board or back from a tray), or of the same kind in another colour (an army
/// handed back), and is recoloured; stones left over shrink away and missing ones grow in.
fn glide_to_shown_position(
    mut commands: Commands,
    the_match: Res<Match>,
    review: Res<Review>,
    mut stones: Query<(Entity, &mut Stone, &mut StonePlace, &Transform)>,
    mut index: ResMut<StoneIndex>,
) {
    let mut sources: Vec<Option<(Entity, Piece, StonePlace, Vec3)>> = stones
        .iter()
        .filter(|(_, _, place, _)| **place != StonePlace::Leaving)
        .map(|(e, stone, place, t)| Some((e, stone.piece, *place, t.translation)))
        .collect();
    let targets = shown_stones(&the_match, &review);
    let mut assigned: Vec<Option<Entity>> = vec![None; targets.len()];
    // Stones already where they belong.
    let at_place: HashMap<StonePlace, usize> = sources
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|(_, _, place, _)| (place, i)))
        .collect();
    for (t, (place, piece)) in targets.iter().enumerate() {
        if let Some(&i) = at_place.get(place)
            && let Some((entity, have, _, _)) = sources[i]
            && have == *piece
        {
            assigned[t] = Some(entity);
            sources[i] = None;
        }
    }
    // Then the nearest stone of the same piece, then of the same kind.
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
                .filter(|(_, (_, have, _, _))| {
                    have.kind == piece.kind && (!same_kingdom || have.kingdom == piece.kingdom)
                })
                .min_by(|a, b| a.1.3.distance(to).total_cmp(&b.1.3.distance(to)));
            let Some((i, (entity, _, _, from))) = nearest else {
                continue;
            };
            sources[i] = None;
            assigned[t] = Some(entity);
            if let Ok((_, mut stone, mut stone_place, _)) = stones.get_mut(entity) {
                if stone.piece != *piece {
                    stone.piece = *piece;
                }
                *stone_place = *place;
            }
            let up = Vec3::Y * LIFT;
            commands.entity(entity).insert(
                Tween::new(vec![
                    Leg::to(from + up, 0.1),
                    Leg::to(to + up, GLIDE_SECONDS),
                    Leg::to(to, 0.1),
                ])
                .non_blocking(),
            );
        }
    }
    // Stones no longer in the position leave; missing ones appear.
    for (entity, _, _, at) in sources.into_iter().flatten() {
        if let Ok((_, _, mut place, _)) = stones.get_mut(entity) {
            *place = StonePlace::Leaving;
        }
        commands.entity(entity).insert(vanish(at).non_blocking());
    }
    for (t, (place, piece)) in targets.iter().enumerate() {
        if assigned[t].is_some() {
            continue;
        }
        let Some(to) = rest(*place) else { continue };
        let entity = commands
            .spawn((
                Stone { piece: *piece },
                *place,
                Transform::from_translation(to).with_scale(Vec3::ZERO),
                Name::new(format!("{piece}")),
                Tween::new(vec![Leg::to(to, GLIDE_SECONDS)]).non_blocking(),
            ))
            .id();
        assigned[t] = Some(entity);
    }
    *index = index_of(
        targets
            .iter()
            .zip(assigned)
            .filter_map(|((place, _), entity)| Some((*place, entity?))),
    );
}

fn next_slot(index: &mut StoneIndex, captor: Kingdom) -> u16 {
    let slot = index.tray_len[captor.index()];
    index.tray_len[captor.index()] += 1;
    slot
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

/// Turns each applied move into changes of the stone entities and the tweens that show them.
fn show_applied_moves(
    mut commands: Commands,
    mut applied: MessageReader<MoveApplied>,
    mut index: ResMut<StoneIndex>,
    mut stones: Query<(&mut Stone, &mut StonePlace, &Transform)>,
) {
    for MoveApplied { report, .. } in applied.read() {
        let (Some(from), Some(to), Some(piece)) = (report.mv.from(), report.mv.to(), report.piece)
        else {
            continue; // a pass moves nothing
        };
        let Some(mover) = index.on_board.remove(&from) else {
            error!(
                "no stone on {from} for {}; the view will be rebuilt",
                report.mv
            );
            commands.write_message(MatchReset);
            return;
        };
        let path = travel_path(piece.kind, from, to);
        let distance = stone_rest(from).distance(stone_rest(to));
        let travel = travel_seconds(distance);
        let mut legs = vec![Leg::to(stone_rest(from) + Vec3::Y * LIFT, LIFT_SECONDS)];
        let per_leg = travel / path.len() as f32;
        legs.extend(path.iter().map(|p| Leg::to(*p, per_leg)));
        legs.push(Leg::to(stone_rest(to), LIFT_SECONDS));
        let lands = LIFT_SECONDS + travel;

        if report.captured.is_some()
            && let Some(victim) = index.on_board.remove(&to)
            && let Ok((_, mut place, transform)) = stones.get_mut(victim)
        {
            let tween = if captured_to_tray(report).is_some() {
                let slot = next_slot(&mut index, report.mover);
                *place = StonePlace::Tray {
                    captor: report.mover,
                    slot,
                };
                let target = tray_slot(report.mover, slot);
                let high = transform.translation.lerp(target, 0.5) + Vec3::Y * 2.5;
                Tween::new(vec![
                    Leg::to(high, 0.3),
                    Leg::to(target + Vec3::Y * 0.4, 0.3),
                    Leg::to(target, 0.12),
                ])
            } else {
                // A forfeited ally's stone leaves with its army.
                *place = StonePlace::Leaving;
                vanish(transform.translation)
            };
            commands.entity(victim).insert(tween.after(lands - 0.1));
        }

        if let Ok((_, mut place, _)) = stones.get_mut(mover) {
            *place = StonePlace::Board(to);
        }
        index.on_board.insert(to, mover);
        commands.entity(mover).insert(Tween::new(legs));

        if let Some(fallen) = &report.fallen {
            for (i, (point, _)) in fallen.army.iter().enumerate() {
                let Some(entity) = index.at(*point) else {
                    continue;
                };
                let Ok((mut stone, mut place, transform)) = stones.get_mut(entity) else {
                    continue;
                };
                let delay = lands + 0.35 + 0.02 * i as f32;
                match fallen.transferred_to {
                    Some(victor) => {
                        stone.piece.kingdom = victor;
                        let at = transform.translation;
                        commands.entity(entity).insert(
                            Tween::new(vec![
                                Leg {
                                    to: at + Vec3::Y * 0.35,
                                    scale: 1.25,
                                    seconds: 0.22,
                                },
                                Leg::to(at, 0.22),
                            ])
                            .after(delay),
                        );
                    }
                    None => {
                        index.on_board.remove(point);
                        *place = StonePlace::Leaving;
                        commands
                            .entity(entity)
                            .insert(vanish(transform.translation).after(delay));
                    }
                }
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
