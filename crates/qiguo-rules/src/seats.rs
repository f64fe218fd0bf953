//! Who holds which kingdom: players, alliances (several kingdoms under one player) and empty
//! kingdoms, with the seatings given by the 1206 text and Savard's two-player game.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Kingdom, KingdomSet};

/// Which player holds each kingdom. Kingdoms held by the same player are allies; a kingdom held
/// by nobody is empty and its army is not placed.
///
/// ```
/// use qiguo_rules::{Kingdom, Seating, Seats};
/// let seats = Seating::TwoPlayers.seats().unwrap();
/// assert_eq!(seats.player_count(), 2);
/// assert_eq!(seats.player(Kingdom::Qin), None);
/// assert!(seats.allies(Kingdom::Chu).contains(Kingdom::Zhao));
/// assert_eq!(Seats::seven(), Seating::Seven.seats().unwrap());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "[Option<u8>; 7]", into = "[Option<u8>; 7]")]
pub struct Seats {
    player_of: [Option<u8>; 7],
}

impl Seats {
    /// Seven players, one kingdom each: player `i` holds kingdom `i`.
    pub const fn seven() -> Seats {
        Seats {
            player_of: [
                Some(0),
                Some(1),
                Some(2),
                Some(3),
                Some(4),
                Some(5),
                Some(6),
            ],
        }
    }

    /// Seats from a player index (or `None` for empty) per kingdom in turn order. Player
    /// indices must be 0, 1, 2, … without gaps, and at least one kingdom must be held.
    pub fn new(player_of: [Option<u8>; 7]) -> Result<Seats, SeatsError> {
        let used: Vec<u8> = player_of.iter().flatten().copied().collect();
        if used.is_empty() {
            return Err(SeatsError("no kingdom is held by a player".into()));
        }
        let count = used.iter().max().map_or(0, |m| m + 1);
        for p in 0..count {
            if !used.contains(&p) {
                return Err(SeatsError(format!(
                    "player numbers must run 0, 1, 2, … without gaps; {p} holds no kingdom"
                )));
            }
        }
        Ok(Seats { player_of })
    }

    /// The player holding `kingdom`, or `None` if it is empty.
    pub const fn player(&self, kingdom: Kingdom) -> Option<u8> {
        self.player_of[kingdom as usize]
    }

    /// The player per kingdom, in turn order.
    pub const fn players(&self) -> [Option<u8>; 7] {
        self.player_of
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.player_of
            .iter()
            .flatten()
            .max()
            .map_or(0, |m| *m as usize + 1)
    }

    /// The kingdoms held by `player`.
    pub fn kingdoms_of(&self, player: u8) -> KingdomSet {
        Kingdom::ALL
            .into_iter()
            .filter(|k| self.player(*k) == Some(player))
            .collect()
    }

    /// `kingdom` and its allies (the kingdoms held by the same player). Empty for an empty kingdom.
    pub fn allies(&self, kingdom: Kingdom) -> KingdomSet {
        match self.player(kingdom) {
            Some(p) => self.kingdoms_of(p),
            None => KingdomSet::EMPTY,
        }
    }

    /// The kingdoms held by nobody.
    pub fn empty_kingdoms(&self) -> KingdomSet {
        Kingdom::ALL
            .into_iter()
            .filter(|k| self.player(*k).is_none())
            .collect()
    }
}

impl Default for Seats {
    fn default() -> Seats {
        Seats::seven()
    }
}

impl TryFrom<[Option<u8>; 7]> for Seats {
    type Error = SeatsError;
    fn try_from(value: [Option<u8>; 7]) -> Result<Seats, SeatsError> {
        Seats::new(value)
    }
}

impl From<Seats> for [Option<u8>; 7] {
    fn from(seats: Seats) -> [Option<u8>; 7] {
        seats.player_of
    }
}

/// Why a seating was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatsError(pub String);

impl fmt::Display for SeatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SeatsError {}

/// The built-in seatings. With fewer than seven players the 1206 text gives the extra
/// kingdoms to Qin's, Chu's and Qi's players, who choose which ones they take.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seating {
    /// Seven players, one kingdom each.
    Seven,
    /// Six players: Qin's player also takes one kingdom.
    Six {
        /// The kingdom Qin's player adds.
        qin_takes: Kingdom,
    },
    /// Five players: Qin's and Chu's players each take one more.
    Five {
        /// The kingdom Qin's player adds.
        qin_takes: Kingdom,
        /// The kingdom Chu's player adds.
        chu_takes: Kingdom,
    },
    /// Four players: Qin's, Chu's and Qi's players each take one more.
    Four {
        /// The kingdom Qin's player adds.
        qin_takes: Kingdom,
        /// The kingdom Chu's player adds.
        chu_takes: Kingdom,
        /// The kingdom Qi's player adds.
        qi_takes: Kingdom,
    },
    /// Three players: Qin's player takes two more, Chu's and Qi's one more each.
    Three {
        /// The two kingdoms Qin's player adds.
        qin_takes: [Kingdom; 2],
        /// The kingdom Chu's player adds.
        chu_takes: Kingdom,
        /// The kingdom Qi's player adds.
        qi_takes: Kingdom,
    },
    /// Only the players present, each taking one kingdom; the other kingdoms stay empty.
    Present(Vec<Kingdom>),
    /// Savard's two-player game: Chu, Qi and Zhao against Han, Wei and Yan; Qin empty.
    TwoPlayers,
}

impl Seating {
    /// The 1206 seating for `players` (3–7) players, with the extra kingdoms chosen as the
    /// first unclaimed ones in turn order; `None` for other counts.
    pub fn traditional(players: usize) -> Option<Seating> {
        use Kingdom::*;
        Some(match players {
            7 => Seating::Seven,
            6 => Seating::Six { qin_takes: Han },
            5 => Seating::Five {
                qin_takes: Han,
                chu_takes: Wei,
            },
            4 => Seating::Four {
                qin_takes: Han,
                chu_takes: Wei,
                qi_takes: Zhao,
            },
            3 => Seating::Three {
                qin_takes: [Han, Wei],
                chu_takes: Zhao,
                qi_takes: Yan,
            },
            _ => return None,
        })
    }

    /// Number of players this seating seats.
    pub fn player_count(&self) -> usize {
        match self {
            Seating::Seven => 7,
            Seating::Six { .. } => 6,
            Seating::Five { .. } => 5,
            Seating::Four { .. } => 4,
            Seating::Three { .. } => 3,
            Seating::Present(ks) => ks.len(),
            Seating::TwoPlayers => 2,
        }
    }

    /// The seats, or why the choices do not make a seating (an extra kingdom that is already
    /// held, chosen twice, or fewer than two players present).
    pub fn seats(&self) -> Result<Seats, SeatsError> {
        use Kingdom::*;
        let mut groups: Vec<Vec<Kingdom>> = Vec::new();
        let mut extras: Vec<(Kingdom, Vec<Kingdom>)> = Vec::new();
        match self {
            Seating::Seven => groups = Kingdom::ALL.iter().map(|k| vec![*k]).collect(),
            Seating::Six { qin_takes } => extras.push((Qin, vec![*qin_takes])),
            Seating::Five {
                qin_takes,
                chu_takes,
            } => {
                extras.push((Qin, vec![*qin_takes]));
                extras.push((Chu, vec![*chu_takes]));
            }
            Seating::Four {
                qin_takes,
                chu_takes,
                qi_takes,
            } => {
                extras.push((Qin, vec![*qin_takes]));
                extras.push((Chu, vec![*chu_takes]));
                extras.push((Qi, vec![*qi_takes]));
            }
            Seating::Three {
                qin_takes,
                chu_takes,
                qi_takes,
            } => {
                extras.push((Qin, qin_takes.to_vec()));
                extras.push((Chu, vec![*chu_takes]));
                extras.push((Qi, vec![*qi_takes]));
            }
            Seating::Present(kingdoms) => {
                let set: KingdomSet = kingdoms.iter().copied().collect();
                if set.len() != kingdoms.len() {
                    return Err(SeatsError("a kingdom is listed twice".into()));
                }
                if set.len() < 2 {
                    return Err(SeatsError("a game needs at least two players".into()));
                }
                groups = set.iter().map(|k| vec![k]).collect();
            }
            Seating::TwoPlayers => groups = vec![vec![Chu, Qi, Zhao], vec![Han, Wei, Yan]],
        }
        if !extras.is_empty() {
            let bases: KingdomSet = extras.iter().map(|(b, _)| *b).collect();
            let mut taken = bases;
            for (base, more) in &extras {
                let mut group = vec![*base];
                for k in more {
                    if taken.contains(*k) {
                        return Err(SeatsError(format!(
                            "{k} cannot be added to {base}'s player: it is already held"
                        )));
                    }
                    taken.insert(*k);
                    group.push(*k);
                }
                groups.push(group);
            }
            for k in Kingdom::ALL {
                if !taken.contains(k) {
                    groups.push(vec![k]);
                }
            }
        }
        // Number players by their first kingdom in turn order.
        groups.sort_by_key(|g| g.iter().min().copied());
        let mut player_of = [None; 7];
        for (p, group) in groups.iter().enumerate() {
            for k in group {
                player_of[k.index()] = Some(p as u8);
            }
        }
        Seats::new(player_of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traditional_seatings_cover_every_kingdom() {
        for n in 3..=7 {
            let seating = Seating::traditional(n).unwrap();
            let seats = seating.seats().unwrap();
            assert_eq!(seats.player_count(), n, "{seating:?}");
            assert!(seats.empty_kingdoms().is_empty());
            assert_eq!(seats.player(Kingdom::Qin), Some(0));
        }
        assert_eq!(Seating::traditional(2), None);
        let three = Seating::traditional(3).unwrap().seats().unwrap();
        assert_eq!(three.kingdoms_of(0).len(), 3);
        assert_eq!(three.allies(Kingdom::Chu).len(), 2);
    }

    #[test]
    fn bad_choices_are_refused() {
        assert!(
            Seating::Six {
                qin_takes: Kingdom::Qin
            }
            .seats()
            .is_err()
        );
        assert!(
            Seating::Five {
                qin_takes: Kingdom::Han,
                chu_takes: Kingdom::Han
            }
            .seats()
            .is_err()
        );
        assert!(
            Seating::Four {
                qin_takes: Kingdom::Chu,
                chu_takes: Kingdom::Han,
                qi_takes: Kingdom::Wei
            }
            .seats()
            .is_err()
        );
        assert!(Seating::Present(vec![Kingdom::Qin]).seats().is_err());
        assert!(
            Seating::Present(vec![Kingdom::Qin, Kingdom::Qin])
                .seats()
                .is_err()
        );
        assert!(Seats::new([None; 7]).is_err());
        assert!(Seats::new([Some(0), Some(2), None, None, None, None, None]).is_err());
    }

    #[test]
    fn present_players_leave_the_rest_empty() {
        let seats = Seating::Present(vec![Kingdom::Yan, Kingdom::Qin, Kingdom::Qi])
            .seats()
            .unwrap();
        assert_eq!(seats.player(Kingdom::Qin), Some(0));
        assert_eq!(seats.player(Kingdom::Qi), Some(1));
        assert_eq!(seats.player(Kingdom::Yan), Some(2));
        assert_eq!(seats.empty_kingdoms().len(), 4);
    }

    #[test]
    fn seats_serialize_as_an_array() {
        let seats = Seating::TwoPlayers.seats().unwrap();
        let json = serde_json::to_string(&seats).unwrap();
        assert_eq!(json, "[null,0,1,0,1,0,1]");
        assert_eq!(serde_json::from_str::<Seats>(&json).unwrap(), seats);
        assert!(serde_json::from_str::<Seats>("[null,0,3,0,1,0,1]").is_err());
    }
}
