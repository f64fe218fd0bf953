//! What a person should know when their turn starts, derived from `Match` with the rules
//! engine's attack queries: whether their General is attacked and by which pieces ([`Danger`]),
//! and, when asked for, the points the other kingdoms attack ([`Threats`]).

pub mod handoff;
pub(crate) mod view;

use bevy::prelude::*;
use qiguo_rules::{Kingdom, Piece, PieceKind, Point, Position};

use crate::game::schedule::AppSystems;
use crate::game::state::{Match, SeatAuthority, Turn, TurnPhase};
use crate::i18n::Tr;
use crate::tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Danger>()
        .init_resource::<Threats>()
        .add_message::<ToggleThreats>()
        .add_message::<PersonTurnStarted>()
        .add_systems(
            Update,
            (toggle_threats, assess_turn)
                .chain()
                .in_set(AppSystems::SyncView),
        );
}

/// A person's turn has started in the live game (once per turn): what the hand-off banner and
/// the recap of moves since their last turn follow.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PersonTurnStarted {
    /// The turn.
    pub turn: Turn,
    /// The kingdom to move.
    pub kingdom: Kingdom,
    /// The player holding it (see `Position::player_of`).
    pub player: u8,
}

/// The General(s) of the kingdom to move that enemies attack, when a person's turn starts.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Danger {
    /// The warning, while a person is to move and their General is attacked.
    pub report: Option<DangerReport>,
}

/// A kingdom's attacked Generals and their attackers.
#[derive(Debug, Clone, PartialEq)]
pub struct DangerReport {
    /// The kingdom whose General is attacked.
    pub kingdom: Kingdom,
    /// Each attacked General's point, with the enemy pieces that could take it.
    pub generals: Vec<(Point, Vec<(Point, Piece)>)>,
}

impl DangerReport {
    /// The danger to the kingdom to move in `pos`, if an enemy (any kingdom in the game that is
    /// not an ally) attacks one of its Generals.
    pub fn of(pos: &Position) -> Option<DangerReport> {
        let kingdom = pos.to_move();
        let foes = pos.enemies(kingdom);
        let generals: Vec<(Point, Vec<(Point, Piece)>)> = pos
            .army(kingdom)
            .filter(|(_, piece)| piece.kind == PieceKind::General)
            .filter_map(|(point, _)| {
                let attackers: Vec<(Point, Piece)> = pos
                    .attackers_of(point, foes)
                    .into_iter()
                    .filter_map(|from| pos.piece_at(from).map(|piece| (from, piece)))
                    .collect();
                (!attackers.is_empty()).then_some((point, attackers))
            })
            .collect();
        (!generals.is_empty()).then_some(DangerReport { kingdom, generals })
    }

    /// The points of every attacker.
    pub fn attackers(&self) -> impl Iterator<Item = Point> + '_ {
        self.generals
            .iter()
            .flat_map(|(_, attackers)| attackers.iter().map(|(point, _)| *point))
    }

    /// The warning in words: "Your General on f1 is attacked by Han's cannon on f7".
    pub fn sentence(&self, tr: Tr) -> String {
        let parts: Vec<String> = self
            .generals
            .iter()
            .map(|(general, attackers)| {
                let names: Vec<String> = attackers
                    .iter()
                    .map(|(point, piece)| {
                        tr!(
                            tr,
                            "danger-attacker",
                            owner = tr.kingdom(piece.kingdom),
                            piece = tr.piece_in_text(piece.kind),
                            point = point.to_string()
                        )
                    })
                    .collect();
                tr!(
                    tr,
                    "danger-general",
                    point = general.to_string(),
                    attackers = tr.list(&names)
                )
            })
            .collect();
        parts.join(&tr.text("danger-separator"))
    }
}

/// The threat shading: while shown and a person is to move, the empty points where the other
/// kingdoms could take a stone of the mover, and the mover's stones they can take now.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Threats {
    /// Whether the shading is wanted (a toggle kept for the session).
    pub shown: bool,
    /// Empty points the other kingdoms attack.
    pub points: Vec<Point>,
    /// The mover's stones that can be taken.
    pub takeable: Vec<Point>,
}

impl Threats {
    /// The attacked points and takeable stones of the kingdom to move in `pos`.
    pub fn of(pos: &Position) -> (Vec<Point>, Vec<Point>) {
        let kingdom = pos.to_move();
        pos.threatened_points(kingdom, pos.enemies(kingdom))
            .into_iter()
            .partition(|&point| pos.piece_at(point).is_none())
    }
}

/// Turns the threat shading on or off (a key or the toolbar).
#[derive(Message, Debug, Clone, Copy)]
pub struct ToggleThreats;

fn toggle_threats(mut toggles: MessageReader<ToggleThreats>, mut threats: ResMut<Threats>) {
    let flips = toggles.read().count();
    if flips % 2 == 1 {
        threats.shown = !threats.shown;
    }
}

/// Brings [`Danger`] and [`Threats`] in line with the match: filled while a person is to move
/// in the live game, empty otherwise; announces each person's turn once.
pub(super) fn assess_turn(
    the_match: Res<Match>,
    phase: Res<State<TurnPhase>>,
    next_phase: Res<NextState<TurnPhase>>,
    mut danger: ResMut<Danger>,
    mut threats: ResMut<Threats>,
    mut started: MessageWriter<PersonTurnStarted>,
    mut announced: Local<Option<Turn>>,
    mut was_pending: Local<bool>,
    seats: Res<SeatAuthority>,
    guide: Res<crate::game::selection::Guide>,
) {
    // A move applied this frame leaves the phase AwaitingInput until the next frame (the
    // animation is pending): the next person's turn starts only once the move has been shown.
    // A move taken back re-enters AwaitingInput without changing the phase: the frame after
    // a pending transition is looked at too.
    let leaving = matches!(*next_phase, NextState::Pending(_));
    let after_transition = std::mem::replace(&mut *was_pending, leaving);
    let threats_toggled = threats.is_changed() && !threats.is_added();
    if !the_match.is_changed()
        && !phase.is_changed()
        && !threats_toggled
        && !after_transition
        && !seats.is_changed()
        && !guide.is_changed()
    {
        return;
    }
    let pos = the_match.position();
    // A person at this screen: not one on another machine; on a board that takes a move (not
    // a lesson's step done or a question answered, where nobody's turn starts).
    let persons_turn = *phase.get() == TurnPhase::AwaitingInput
        && !leaving
        && !pos.is_over()
        && seats.plays_here(pos.player_of(pos.to_move()))
        && guide.takes_moves();
    let turn = the_match.turn();
    if persons_turn && *announced != Some(turn) {
        *announced = Some(turn);
        started.write(PersonTurnStarted {
            turn,
            kingdom: pos.to_move(),
            player: pos.player_of(pos.to_move()),
        });
    }
    danger.set_if_neq(Danger {
        report: persons_turn.then(|| DangerReport::of(pos)).flatten(),
    });
    let (points, takeable) = if persons_turn && threats.shown {
        Threats::of(pos)
    } else {
        (Vec::new(), Vec::new())
    };
    if threats.points != points || threats.takeable != takeable {
        threats.points = points;
        threats.takeable = takeable;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Rules, fen};

    fn position(text: &str) -> Position {
        Position::new(
            &fen::parse(text).unwrap(),
            Rules::default(),
            qiguo_rules::Seats::seven(),
        )
        .unwrap()
    }

    #[test]
    fn names_every_attacker_of_the_general() {
        // Qin's General on f1; Han's cannon on f7 behind a screen on f4, and Chu's Chancellor
        // on a1 along the first rank.
        let pos = position("19/19/19/19/19/19/19/19/19/19/19/19/5oC13/19/19/5rS13/19/19/rR4wQ13 w");
        let report = DangerReport::of(&pos).expect("attacked");
        assert_eq!(report.kingdom, Kingdom::Qin);
        assert_eq!(
            report.sentence(Tr::default()),
            "Your General on f1 is attacked by Chu's chancellor on a1 and Han's cannon on f7"
        );
        let mut attackers: Vec<Point> = report.attackers().collect();
        attackers.sort();
        assert_eq!(
            attackers,
            vec!["a1".parse().unwrap(), "f7".parse().unwrap()]
        );
    }

    #[test]
    fn no_danger_without_an_enemy_attacker() {
        // Han's cannon has no screen: Qin's General is safe.
        let pos = position("19/19/19/19/19/19/19/19/19/19/19/19/5oC13/19/19/19/19/19/5wQ13 w");
        assert_eq!(DangerReport::of(&pos), None);
    }
}
