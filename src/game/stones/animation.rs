//! Eased movement of stones: tweens through a list of legs (position and scale), optionally
//! after a delay and ending in a despawn. While a blocking tween runs, the turn waits.

use bevy::math::curve::{Curve, EaseFunction};
use bevy::prelude::*;

use crate::game::frames::Redraw;
use crate::game::schedule::AppSystems;
use crate::game::state::{MoveShown, TurnPhase};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (advance_tweens, announce_shown_moves)
            .chain()
            .in_set(AppSystems::Animate),
    );
}

/// One leg of a tween: where to go, at what scale, in how many seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Leg {
    /// Target translation.
    pub(crate) to: Vec3,
    /// Target uniform scale.
    pub(crate) scale: f32,
    /// Duration in seconds.
    pub(crate) seconds: f32,
}

impl Leg {
    /// A leg to `to` at scale 1.
    pub(crate) fn to(to: Vec3, seconds: f32) -> Leg {
        Leg {
            to,
            scale: 1.0,
            seconds,
        }
    }
}

/// What happens to the entity when its tween ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum TweenEnd {
    /// It stays where the last leg left it.
    #[default]
    Stay,
    /// It is despawned.
    Despawn,
}

/// Moves an entity's transform through eased legs.
#[derive(Component, Clone, Debug, PartialEq)]
pub(crate) struct Tween {
    legs: Vec<Leg>,
    delay: f32,
    elapsed: f32,
    /// Advanced once already (its first frame counts from zero).
    begun: bool,
    start: Option<(Vec3, f32)>,
    end: TweenEnd,
    blocking: bool,
}

impl Tween {
    /// A tween through `legs`, starting now, holding the turn until it ends.
    pub(crate) fn new(legs: Vec<Leg>) -> Tween {
        Tween {
            legs,
            delay: 0.0,
            elapsed: 0.0,
            begun: false,
            start: None,
            end: TweenEnd::Stay,
            blocking: true,
        }
    }

    /// Starts after `seconds`.
    pub(crate) fn after(mut self, seconds: f32) -> Tween {
        self.delay = seconds;
        self
    }

    /// Despawns the entity at the end.
    pub(crate) fn then_despawn(mut self) -> Tween {
        self.end = TweenEnd::Despawn;
        self
    }

    /// The same tween taking `share` of the time (0: it ends at once, where it would have).
    pub(crate) fn scaled(mut self, share: f32) -> Tween {
        let share = share.max(0.0);
        self.delay *= share;
        for leg in &mut self.legs {
            leg.seconds *= share;
        }
        self
    }

    /// Does not hold the turn (for decoration such as cues).
    pub(crate) fn non_blocking(mut self) -> Tween {
        self.blocking = false;
        self
    }

    /// The legs, in order.
    #[cfg(test)]
    pub(crate) fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// Seconds before the first leg starts.
    #[cfg(test)]
    pub(crate) fn delay(&self) -> f32 {
        self.delay
    }

    /// Delay plus the duration of every leg.
    #[cfg(test)]
    pub(crate) fn total_seconds(&self) -> f32 {
        self.delay + self.legs.iter().map(|l| l.seconds).sum::<f32>()
    }

    /// Where the tween puts the transform `t` seconds after its delay, from `start`; `None`
    /// once it has ended.
    fn sample(&self, start: (Vec3, f32), mut t: f32) -> Option<(Vec3, f32)> {
        let (mut from, mut from_scale) = start;
        for leg in &self.legs {
            if t < leg.seconds {
                let s = EaseFunction::CubicInOut.sample_clamped(t / leg.seconds);
                return Some((
                    from.lerp(leg.to, s),
                    from_scale + (leg.scale - from_scale) * s,
                ));
            }
            t -= leg.seconds;
            from = leg.to;
            from_scale = leg.scale;
        }
        None
    }
}

/// Moves each tween on by the frame's time, and asks for another frame while any is left. A
/// tween starts counting from the frame it is added in: the frame before may have come long
/// ago (the game draws nothing while nothing changes), and a glide begun after a rest is still
/// seen to glide.
fn advance_tweens(
    time: Res<Time>,
    mut commands: Commands,
    mut tweens: Query<(Entity, &mut Tween, &mut Transform)>,
    mut redraw: Redraw,
) {
    let dt = time.delta_secs();
    if !tweens.is_empty() {
        redraw.now();
    }
    for (entity, mut tween, mut transform) in &mut tweens {
        if tween.begun {
            tween.elapsed += dt;
        }
        tween.begun = true;
        let t = tween.elapsed - tween.delay;
        if t < 0.0 {
            continue;
        }
        let start = *tween
            .start
            .get_or_insert((transform.translation, transform.scale.x));
        match tween.sample(start, t) {
            Some((at, scale)) => {
                transform.translation = at;
                transform.scale = Vec3::splat(scale);
            }
            None => {
                if let Some(last) = tween.legs.last() {
                    transform.translation = last.to;
                    transform.scale = Vec3::splat(last.scale);
                }
                match tween.end {
                    TweenEnd::Stay => {
                        commands.entity(entity).remove::<Tween>();
                    }
                    TweenEnd::Despawn => commands.entity(entity).despawn(),
                }
            }
        }
    }
}

/// Once no blocking tween is left while a move is shown, says so (once per move); the rules
/// system then hands the turn on.
fn announce_shown_moves(
    tweens: Query<&Tween>,
    phase: Res<State<TurnPhase>>,
    mut shown: MessageWriter<MoveShown>,
    mut announced: Local<bool>,
    mut redraw: Redraw,
) {
    if phase.is_changed() {
        *announced = false;
    }
    if *phase.get() == TurnPhase::Animating && !*announced && !tweens.iter().any(|t| t.blocking) {
        shown.write(MoveShown);
        *announced = true;
        // The rules system reads it in the next frame.
        redraw.now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legs_are_followed_in_order() {
        let tween = Tween::new(vec![
            Leg::to(Vec3::Y, 1.0),
            Leg {
                to: Vec3::new(2.0, 1.0, 0.0),
                scale: 0.5,
                seconds: 1.0,
            },
        ]);
        let start = (Vec3::ZERO, 1.0);
        assert_eq!(tween.sample(start, 0.0), Some((Vec3::ZERO, 1.0)));
        assert_eq!(tween.sample(start, 1.0), Some((Vec3::Y, 1.0)));
        let (mid, scale) = tween.sample(start, 1.5).unwrap();
        assert!((mid - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-5);
        assert!((scale - 0.75).abs() < 1e-5);
        assert_eq!(tween.sample(start, 2.01), None);
        assert_eq!(tween.total_seconds(), 2.0);
    }
}
