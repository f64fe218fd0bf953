//! The seven kingdoms, their turn order, colours and names, and sets of kingdoms.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the seven kingdoms, listed in turn order (counter-clockwise from the west).
///
/// ```
/// use qiguo_rules::Kingdom;
/// assert_eq!(Kingdom::Qin.next(), Kingdom::Chu);
/// assert_eq!(Kingdom::Yan.next(), Kingdom::Qin);
/// assert_eq!(Kingdom::from_letter('b'), Some(Kingdom::Qi));
/// assert_eq!("zhao".parse::<Kingdom>(), Ok(Kingdom::Zhao));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kingdom {
    /// 秦, white, the west edge; moves first.
    Qin = 0,
    /// 楚, red, the west half of the south edge.
    Chu = 1,
    /// 韓, orange, the east half of the south edge.
    Han = 2,
    /// 齊, blue, the south half of the east edge.
    Qi = 3,
    /// 魏, green, the north half of the east edge.
    Wei = 4,
    /// 趙, purple, the east half of the north edge.
    Zhao = 5,
    /// 燕, black, the west half of the north edge.
    Yan = 6,
}

impl Kingdom {
    /// All seven kingdoms in turn order.
    pub const ALL: [Kingdom; 7] = [
        Kingdom::Qin,
        Kingdom::Chu,
        Kingdom::Han,
        Kingdom::Qi,
        Kingdom::Wei,
        Kingdom::Zhao,
        Kingdom::Yan,
    ];

    /// The kingdom with turn-order index `i` (0 = Qin … 6 = Yan).
    pub const fn from_index(i: usize) -> Option<Kingdom> {
        if i < 7 { Some(Kingdom::ALL[i]) } else { None }
    }

    /// Turn-order index, 0 (Qin) to 6 (Yan).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kingdom after this one in turn order, whether or not it is still in the game.
    pub const fn next(self) -> Kingdom {
        Kingdom::ALL[(self as usize + 1) % 7]
    }

    /// The kingdom before this one in turn order.
    pub const fn previous(self) -> Kingdom {
        Kingdom::ALL[(self as usize + 6) % 7]
    }

    /// The colour letter used in 7K FEN (`w r o b g p d`).
    pub const fn letter(self) -> char {
        ['w', 'r', 'o', 'b', 'g', 'p', 'd'][self as usize]
    }

    /// The kingdom written with this 7K FEN colour letter.
    pub fn from_letter(letter: char) -> Option<Kingdom> {
        Kingdom::ALL.into_iter().find(|k| k.letter() == letter)
    }

    /// Lower-case English name: `qin`, `chu`, `han`, `qi`, `wei`, `zhao`, `yan`.
    pub const fn name(self) -> &'static str {
        ["qin", "chu", "han", "qi", "wei", "zhao", "yan"][self as usize]
    }

    /// Capitalised display name: `Qin`, `Chu`, ….
    pub const fn title(self) -> &'static str {
        ["Qin", "Chu", "Han", "Qi", "Wei", "Zhao", "Yan"][self as usize]
    }

    /// The kingdom's character: 秦 楚 韓 齊 魏 趙 燕.
    pub const fn character(self) -> char {
        ['秦', '楚', '韓', '齊', '魏', '趙', '燕'][self as usize]
    }

    /// The English name of the kingdom's colour.
    pub const fn colour_name(self) -> &'static str {
        ["white", "red", "orange", "blue", "green", "purple", "black"][self as usize]
    }

    /// The board edge the kingdom's army starts from.
    pub const fn edge(self) -> Edge {
        [
            Edge::West,
            Edge::South,
            Edge::South,
            Edge::East,
            Edge::East,
            Edge::North,
            Edge::North,
        ][self as usize]
    }

    pub(crate) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Kingdom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// Why a kingdom's name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseKingdomError(pub String);

impl fmt::Display for ParseKingdomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a kingdom: expected one of qin, chu, han, qi, wei, zhao, yan",
            self.0
        )
    }
}

impl std::error::Error for ParseKingdomError {}

impl FromStr for Kingdom {
    type Err = ParseKingdomError;

    /// Reads a kingdom's English name, in any case.
    fn from_str(s: &str) -> Result<Kingdom, ParseKingdomError> {
        Kingdom::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseKingdomError(s.to_owned()))
    }
}

/// An edge of the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Edge {
    /// Rank 1 side.
    South,
    /// File `s` side.
    East,
    /// Rank 19 side.
    North,
    /// File `a` side.
    West,
}

/// A set of kingdoms, stored as a 7-bit mask.
///
/// ```
/// use qiguo_rules::{Kingdom, KingdomSet};
/// let set: KingdomSet = [Kingdom::Chu, Kingdom::Yan].into_iter().collect();
/// assert!(set.contains(Kingdom::Yan));
/// assert_eq!(set.len(), 2);
/// assert_eq!(set.iter().collect::<Vec<_>>(), vec![Kingdom::Chu, Kingdom::Yan]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct KingdomSet(pub(crate) u8);

impl KingdomSet {
    /// No kingdom.
    pub const EMPTY: KingdomSet = KingdomSet(0);
    /// All seven kingdoms.
    pub const ALL: KingdomSet = KingdomSet(0x7F);

    /// Whether `k` is in the set.
    pub const fn contains(self, k: Kingdom) -> bool {
        self.0 & k.bit() != 0
    }

    /// Adds `k`.
    pub fn insert(&mut self, k: Kingdom) {
        self.0 |= k.bit();
    }

    /// Removes `k`.
    pub fn remove(&mut self, k: Kingdom) {
        self.0 &= !k.bit();
    }

    /// Number of kingdoms in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kingdoms in turn order.
    pub fn iter(self) -> impl Iterator<Item = Kingdom> {
        Kingdom::ALL.into_iter().filter(move |k| self.contains(*k))
    }
}

impl FromIterator<Kingdom> for KingdomSet {
    fn from_iter<I: IntoIterator<Item = Kingdom>>(iter: I) -> KingdomSet {
        let mut set = KingdomSet::EMPTY;
        for k in iter {
            set.insert(k);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_names_round_trip() {
        for k in Kingdom::ALL {
            assert_eq!(Kingdom::from_letter(k.letter()), Some(k));
            assert_eq!(k.name().parse::<Kingdom>(), Ok(k));
            assert_eq!(k.title().parse::<Kingdom>(), Ok(k));
            assert_eq!(Kingdom::from_index(k.index()), Some(k));
            assert_eq!(k.next().previous(), k);
        }
        assert!("rome".parse::<Kingdom>().is_err());
        assert_eq!(Kingdom::from_letter('x'), None);
    }
}
