//! The hint on the board: a jade arrow (over a dark shadow) from the stone to move to where
//! Hard would move it, drawn while the hint is shown and the live position is on the board.

use bevy::prelude::*;

use crate::game::hint::Hint;
use crate::game::layout::point_position;
use crate::game::recap::view::{ArrowAssets, SHADOW, arrow_pieces};
use crate::game::schedule::AppSystems;
use crate::game::selection::markers::board_mark;
use crate::game::state::{Review, TurnPhase};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_hint.in_set(AppSystems::Present));
}

/// A piece of the hint's arrow.
#[derive(Component, Debug)]
pub(crate) struct HintArrow;

fn draw_hint(
    mut commands: Commands,
    hint: Res<Hint>,
    review: Res<Review>,
    phase: Res<State<TurnPhase>>,
    assets: Option<Res<ArrowAssets>>,
    arrows: Query<Entity, With<HintArrow>>,
) {
    let Some(assets) = assets else { return };
    if !(hint.is_changed() || review.is_changed() || phase.is_changed()) {
        return;
    }
    for entity in &arrows {
        commands.entity(entity).despawn();
    }
    if *phase.get() != TurnPhase::AwaitingInput || review.ply.is_some() {
        return;
    }
    let Some(shown) = hint.shown() else { return };
    let (Some(from), Some(to)) = (shown.mv.from(), shown.mv.to()) else {
        return; // a pass: the status line says it
    };
    // Above the recap's arrows.
    let at = |p| point_position(p) + Vec3::Y * 0.06;
    for (grow, material, up) in [(SHADOW, &assets.shadow, 0.0), (0.0, &assets.hint, 0.001)] {
        if let Some((shaft, head)) = arrow_pieces(at(from), at(to), grow) {
            for (mesh, t) in [(&assets.square, shaft), (&assets.head, head)] {
                commands.spawn((
                    HintArrow,
                    board_mark(mesh, material),
                    t.with_translation(t.translation + Vec3::Y * up),
                ));
            }
        }
    }
}
