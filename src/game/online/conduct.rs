//! Conduct online: another person at the table blocked (quick play and tables never seat the
//! two together, their table talk hidden) or unblocked, or reported to the server's operator
//! with a reason and the game — asked from a seat's menu in the Kingdoms panel (a [`Conduct`]
//! message), said when the server has done it.

use bevy::prelude::*;
use qiguo_protocol::{Ask, GameId};

use super::shared::{Answered, Online, OnlineSystems, Pending};
use crate::game::state::Notice;
use crate::i18n::Tr;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnlineConduct>()
        .add_message::<Conduct>()
        .add_systems(
            Update,
            (ask, read_answers).chain().in_set(OnlineSystems::Concerns),
        );
}

/// Something done about another player.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum Conduct {
    /// Block (`true`) or unblock the player of this name.
    Block(String, bool),
    /// Report the player of this name to the server's operator.
    Report {
        /// Their name.
        name: String,
        /// The game it is about.
        game: GameId,
        /// Why.
        reason: String,
    },
}

/// What was asked and not yet answered.
#[derive(Resource, Debug, Default)]
pub struct OnlineConduct {
    /// Each request: a block (`Some(true)`), an unblock (`Some(false)`) or a report (`None`).
    pending: Pending<Option<bool>>,
}

fn ask(
    mut asked: MessageReader<Conduct>,
    mut conduct: ResMut<OnlineConduct>,
    mut online: ResMut<Online>,
) {
    for request in asked.read() {
        let (ask, kind) = match request.clone() {
            Conduct::Block(name, block) => (Ask::Block { name, block }, Some(block)),
            Conduct::Report { name, game, reason } => (
                Ask::Report {
                    name,
                    game: Some(game),
                    reason,
                },
                None,
            ),
        };
        conduct.pending.ask(&mut online, ask, kind);
    }
}

fn read_answers(
    mut answers: MessageReader<Answered>,
    mut conduct: ResMut<OnlineConduct>,
    mut online: ResMut<Online>,
    mut notices: MessageWriter<Notice>,
    tr: Res<Tr>,
) {
    for (kind, _) in conduct.pending.answers(answers.read(), &mut notices, *tr) {
        let done = match kind {
            Some(true) => "seat-blocked",
            Some(false) => "seat-unblocked",
            None => "seat-reported",
        };
        notices.write(Notice::done(tr.text(done)));
        if kind.is_some() {
            // Their table talk is hidden (or shown) from now on: read again.
            online.read_talk();
        }
    }
}
