//! Handing the board from one person to another: when a person's turn starts and the last
//! person to move was someone else (computers may have moved in between), a banner names the
//! kingdom and its player while the camera turns. Not between a person's own kingdoms, not for
//! computers; a setting turns it off.

use bevy::prelude::*;
use qiguo_rules::Kingdom;

use crate::game::awareness::{PersonTurnStarted, assess_turn};
use crate::game::preferences::{KeepSetting, KeptSetting, Preferences};
use crate::game::schedule::AppSystems;
use crate::game::state::{Match, Turn};
use crate::i18n::Tr;
use crate::tr;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<HandOff>()
        .keep_setting::<HandOff>()
        .add_systems(
            Update,
            notice_turns.after(assess_turn).in_set(AppSystems::SyncView),
        );
}

/// Seconds the banner stays.
pub(crate) const BANNER_SECONDS: f32 = 2.2;

impl KeptSetting for HandOff {
    fn apply(&mut self, prefs: &Preferences) {
        self.enabled = prefs.settings.hand_off_banner;
    }

    fn gather(&self, settings: &mut crate::settings::Settings) {
        settings.hand_off_banner = self.enabled;
    }
}

/// The hand-off banner's state.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct HandOff {
    /// Whether banners are shown at all (a setting).
    pub enabled: bool,
    /// The banner to show, if any.
    pub banner: Option<Banner>,
    /// The player of the last person's turn, and the turn it was, in this match.
    last_person: Option<(u8, Turn)>,
}

impl Default for HandOff {
    fn default() -> HandOff {
        HandOff {
            enabled: true,
            banner: None,
            last_person: None,
        }
    }
}

/// A banner for a person taking the board.
#[derive(Debug, Clone, PartialEq)]
pub struct Banner {
    /// The kingdom to move.
    pub kingdom: Kingdom,
    /// Its player's name.
    pub player: String,
    /// When it appeared, in seconds of app time.
    pub since: f32,
}

impl Banner {
    /// The banner's words: "秦 Qin — Anna, your move".
    pub fn text(&self, tr: Tr) -> String {
        tr!(
            tr,
            "hand-off-banner",
            kingdom = tr.kingdom_titled(self.kingdom),
            player = self.player.as_str()
        )
    }
}

/// Whether the board changes hands when `next` (a player number) starts a turn after `last`,
/// the player of the last person's turn: only between two different people.
pub(crate) fn hands_off(last: Option<u8>, next: u8) -> bool {
    last.is_some_and(|last| last != next)
}

/// At the start of each person's turn in the live game, decides whether a banner is due.
fn notice_turns(
    mut started: MessageReader<PersonTurnStarted>,
    the_match: Res<Match>,
    time: Res<Time>,
    mut hand_off: ResMut<HandOff>,
) {
    for start in started.read() {
        if hand_off
            .last_person
            .is_some_and(|(_, t)| t.generation != start.turn.generation)
        {
            // A new or loaded game: nobody has had the board yet.
            hand_off.last_person = None;
        }
        let last = hand_off.last_person.map(|(p, _)| p);
        hand_off.banner = (hand_off.enabled && hands_off(last, start.player)).then(|| Banner {
            kingdom: start.kingdom,
            player: the_match
                .player_name(start.kingdom)
                .unwrap_or("—")
                .to_owned(),
            since: time.elapsed_secs(),
        });
        hand_off.last_person = Some((start.player, start.turn));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_different_person_takes_the_board() {
        assert!(!hands_off(None, 0), "the first turn of a game");
        assert!(!hands_off(Some(2), 2), "the same person's next kingdom");
        assert!(hands_off(Some(0), 1));
    }

    #[test]
    fn the_banner_names_kingdom_and_player() {
        let banner = Banner {
            kingdom: Kingdom::Qin,
            player: "Anna".into(),
            since: 0.0,
        };
        assert_eq!(banner.text(Tr::default()), "秦 Qin — Anna, your move");
        assert_eq!(
            banner.text(Tr::new(crate::i18n::Language::Chinese)),
            "秦 — Anna，輪到你了"
        );
    }
}
