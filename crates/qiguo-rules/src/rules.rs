//! Rule options and the five named presets (`classic`, `wikipedia`, `elephantchess`,
//! `leventhal`, `ludii`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How far the archer and the crossbowman move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangedMove {
    /// Archer 1–4 points, crossbowman 1–5 points.
    UpTo,
    /// Archer exactly 4 points, crossbowman exactly 5, over empty points.
    Exactly,
}

/// How far the knight moves diagonally after its orthogonal leg.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KnightMove {
    /// 1–3 points, stopping at the first occupied point.
    UpToThree,
    /// Exactly 3 points, the two points in between empty.
    ExactlyThree,
}

/// Who receives a beaten kingdom when its General was not captured.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictorRule {
    /// The kingdom still in the game that captured the most of the beaten kingdom's pieces.
    MostOfItsPieces,
    /// The kingdom still in the game with the most captures overall.
    MostCapturesOverall,
}

/// What happens to a beaten kingdom's remaining army.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BeatenArmy {
    /// Removed from the board (斂棋出局).
    Removed,
    /// Transferred to the victor, whose colour the pieces take.
    Transferred,
    /// Transferred to the victor, and also counted as the victor's captures.
    TransferredAsCaptures,
}

/// The first way to win: taking Generals or beating kingdoms.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KingdomGoal {
    /// Capture two Generals (擒二將).
    TwoGenerals,
    /// Beat two kingdoms (be the victor of two).
    TwoKingdoms,
}

/// Which pieces may screen a cannon's capture.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CannonScreen {
    /// Any piece, or the Emperor.
    #[default]
    Any,
    /// Only a piece of the cannon's own kingdom (its go-between included; not the Emperor).
    OwnKingdom,
}

/// What reaching a goal (the kingdom goal or the capture goal) does.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalReached {
    /// The player who reached it wins.
    #[default]
    ReacherWins,
    /// The game ends, and the player with the most captures wins, whoever reached it (ties as
    /// for victors: the mover's player if tied, else the tied player that moved most recently).
    MostCapturesWin,
}

/// Which starting arrangement the armies use.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetupStyle {
    /// Every army: Chancellor on its left of the General, Diplomat on its right (Leventhal).
    Leventhal,
    /// As Leventhal, but Chu and Han have Chancellor and Diplomat swapped (elephantchess.io).
    Elephantchess,
}

/// A complete set of rule options. Build one from a [`Preset`] or set the fields yourself.
///
/// ```
/// use qiguo_rules::{Preset, Rules, BeatenArmy};
/// let rules = Rules::preset(Preset::Wikipedia);
/// assert_eq!(rules.beaten_army, BeatenArmy::Transferred);
/// assert_eq!(rules.capture_goal, 31);
/// assert_eq!(Rules::default(), Rules::preset(Preset::Classic));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Archer and crossbowman range.
    pub ranged: RangedMove,
    /// Knight's diagonal.
    pub knight: KnightMove,
    /// A kingdom is beaten when its losses reach this many pieces.
    pub beaten_at_losses: u8,
    /// Who receives a kingdom beaten without its General being captured.
    pub victor: VictorRule,
    /// The fate of a beaten kingdom's remaining army.
    pub beaten_army: BeatenArmy,
    /// The kingdom goal, checked first.
    pub kingdom_goal: KingdomGoal,
    /// The capture goal: a player wins on capturing this many pieces.
    pub capture_goal: u8,
    /// The starting arrangement.
    pub setup: SetupStyle,
    /// Which pieces may screen a cannon's capture (absent from records written before the
    /// option existed: any).
    #[serde(default)]
    pub cannon_screen: CannonScreen,
    /// What reaching a goal does (absent from records written before the option existed: its
    /// reacher wins).
    #[serde(default)]
    pub goal_reached: GoalReached,
}

impl Rules {
    /// The options of a named preset.
    pub const fn preset(preset: Preset) -> Rules {
        match preset {
            Preset::Classic => Rules {
                ranged: RangedMove::UpTo,
                knight: KnightMove::UpToThree,
                beaten_at_losses: 11,
                victor: VictorRule::MostOfItsPieces,
                beaten_army: BeatenArmy::Removed,
                kingdom_goal: KingdomGoal::TwoGenerals,
                capture_goal: 30,
                setup: SetupStyle::Leventhal,
                cannon_screen: CannonScreen::Any,
                goal_reached: GoalReached::ReacherWins,
            },
            Preset::Wikipedia => Rules {
                ranged: RangedMove::UpTo,
                knight: KnightMove::UpToThree,
                beaten_at_losses: 11,
                victor: VictorRule::MostOfItsPieces,
                beaten_army: BeatenArmy::Transferred,
                kingdom_goal: KingdomGoal::TwoKingdoms,
                capture_goal: 31,
                setup: SetupStyle::Leventhal,
                cannon_screen: CannonScreen::Any,
                goal_reached: GoalReached::ReacherWins,
            },
            Preset::Elephantchess => Rules {
                ranged: RangedMove::UpTo,
                knight: KnightMove::UpToThree,
                beaten_at_losses: 10,
                victor: VictorRule::MostCapturesOverall,
                beaten_army: BeatenArmy::TransferredAsCaptures,
                kingdom_goal: KingdomGoal::TwoKingdoms,
                capture_goal: 30,
                setup: SetupStyle::Elephantchess,
                cannon_screen: CannonScreen::Any,
                goal_reached: GoalReached::ReacherWins,
            },
            Preset::Leventhal => Rules {
                ranged: RangedMove::Exactly,
                knight: KnightMove::ExactlyThree,
                beaten_at_losses: 10,
                victor: VictorRule::MostOfItsPieces,
                beaten_army: BeatenArmy::Removed,
                kingdom_goal: KingdomGoal::TwoGenerals,
                capture_goal: 30,
                setup: SetupStyle::Leventhal,
                cannon_screen: CannonScreen::Any,
                goal_reached: GoalReached::ReacherWins,
            },
            Preset::Ludii => Rules {
                cannon_screen: CannonScreen::OwnKingdom,
                goal_reached: GoalReached::MostCapturesWin,
                ..Rules::preset(Preset::Leventhal)
            },
        }
    }

    /// The preset these options are exactly equal to, if any.
    pub fn matching_preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| Rules::preset(*p) == *self)
    }

    /// The name of the preset these options equal, or `custom`.
    pub fn preset_name(&self) -> &'static str {
        self.matching_preset().map_or("custom", |p| p.name())
    }

    /// Checks that the numbers make a playable game: a loss threshold of 1–17 and a capture
    /// goal of 1–119.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(1..=17).contains(&self.beaten_at_losses) {
            return Err(RulesError::LossThreshold(self.beaten_at_losses));
        }
        if !(1..=119).contains(&self.capture_goal) {
            return Err(RulesError::CaptureGoal(self.capture_goal));
        }
        Ok(())
    }

    /// Whether a beaten army changes hands instead of leaving the board.
    pub const fn transfers_armies(&self) -> bool {
        !matches!(self.beaten_army, BeatenArmy::Removed)
    }
}

/// Why rules cannot be played, or a record's rules cannot be known.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RulesError {
    /// `beaten_at_losses` is not within 1–17.
    LossThreshold(u8),
    /// `capture_goal` is not within 1–119.
    CaptureGoal(u8),
    /// A record's options differ from the preset it names.
    DiffersFromPreset(Preset),
    /// A record names neither a preset nor options.
    Missing,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::LossThreshold(n) => {
                write!(f, "beaten_at_losses must be between 1 and 17, not {n}")
            }
            RulesError::CaptureGoal(n) => {
                write!(f, "capture_goal must be between 1 and 119, not {n}")
            }
            RulesError::DiffersFromPreset(p) => write!(
                f,
                "the options differ from preset `{p}`; remove `preset` or fix `rules`"
            ),
            RulesError::Missing => write!(f, "neither `preset` nor `rules` is given"),
        }
    }
}

impl std::error::Error for RulesError {}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Preset::Classic)
    }
}

/// A named rule preset.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// The 1206 text as read by this project: up-to ranges, beaten at 11 losses, armies removed,
    /// two Generals or 30 captures to win.
    #[default]
    Classic,
    /// English Wikipedia's reading: armies transferred, two kingdoms or more than 30 captures.
    Wikipedia,
    /// The rules of elephantchess.io: beaten at 10 losses, armies transferred and counted as
    /// captures, its own setup.
    Elephantchess,
    /// Leventhal's reading: exact archer, crossbow and knight ranges, beaten at 10.
    Leventhal,
    /// Ludii's description of the game (after Leventhal): as `leventhal`, but a cannon captures
    /// only over a piece of its own kingdom, and reaching a goal ends the game, won by the most
    /// captures.
    Ludii,
}

impl Preset {
    /// All presets.
    pub const ALL: [Preset; 5] = [
        Preset::Classic,
        Preset::Wikipedia,
        Preset::Elephantchess,
        Preset::Leventhal,
        Preset::Ludii,
    ];

    /// The preset's name as written on the command line and in records.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Wikipedia => "wikipedia",
            Preset::Elephantchess => "elephantchess",
            Preset::Leventhal => "leventhal",
            Preset::Ludii => "ludii",
        }
    }

    /// One line describing the preset for menus.
    pub const fn summary(self) -> &'static str {
        match self {
            Preset::Classic => {
                "The 1206 text: beaten at 11 losses, armies removed; win with 2 Generals or 30 captures"
            }
            Preset::Wikipedia => {
                "Armies change hands; win by beating 2 kingdoms or capturing more than 30"
            }
            Preset::Elephantchess => {
                "elephantchess.io: beaten at 10 losses, armies and their pieces go to the victor"
            }
            Preset::Leventhal => {
                "Exact archer, crossbow and knight ranges; beaten at 10 losses, armies removed"
            }
            Preset::Ludii => {
                "As leventhal, but a cannon captures only over its own pieces; a goal reached ends the game, the most captures win"
            }
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a preset's name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePresetError(pub String);

impl fmt::Display for ParsePresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rules preset `{}`: expected classic, wikipedia, elephantchess, leventhal or ludii",
            self.0
        )
    }
}

impl std::error::Error for ParsePresetError {}

impl FromStr for Preset {
    type Err = ParsePresetError;

    fn from_str(s: &str) -> Result<Preset, ParsePresetError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| ParsePresetError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_table() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
            assert_eq!(Rules::preset(p).matching_preset(), Some(p));
            assert_eq!(Rules::preset(p).preset_name(), p.name());
            assert!(Rules::preset(p).validate().is_ok());
        }
        assert!("Classic".parse::<Preset>().is_err());
        let classic = Rules::preset(Preset::Classic);
        assert_eq!(classic.beaten_at_losses, 11);
        assert_eq!(classic.capture_goal, 30);
        let lev = Rules::preset(Preset::Leventhal);
        assert_eq!(lev.ranged, RangedMove::Exactly);
        assert_eq!(lev.knight, KnightMove::ExactlyThree);
        let ludii = Rules::preset(Preset::Ludii);
        assert_eq!(ludii.cannon_screen, CannonScreen::OwnKingdom);
        assert_eq!(ludii.goal_reached, GoalReached::MostCapturesWin);
        assert_eq!(
            Rules {
                cannon_screen: CannonScreen::Any,
                goal_reached: GoalReached::ReacherWins,
                ..ludii
            },
            lev
        );
        let custom = Rules {
            capture_goal: 25,
            ..classic
        };
        assert_eq!(custom.preset_name(), "custom");
    }

    #[test]
    fn bad_numbers_are_refused() {
        let zero = Rules {
            beaten_at_losses: 0,
            ..Rules::default()
        };
        assert!(zero.validate().is_err());
        let huge = Rules {
            capture_goal: 200,
            ..Rules::default()
        };
        assert!(huge.validate().is_err());
    }
}
