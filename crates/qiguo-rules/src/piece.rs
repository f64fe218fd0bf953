//! The ten kinds of piece every kingdom fields, and pieces (a kind in a kingdom's colour).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Kingdom;

/// The kind of a piece, independent of its kingdom.
///
/// ```
/// use qiguo_rules::PieceKind;
/// assert_eq!(PieceKind::from_letter('N'), Some(PieceKind::Knight));
/// assert_eq!(PieceKind::Knight.characters(), "騎");
/// assert_eq!(PieceKind::ALL.iter().map(|k| k.count()).sum::<u8>(), 17);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    /// 將: any distance orthogonally or diagonally. Losing it beats the kingdom.
    General = 1,
    /// 偏: any distance orthogonally.
    Chancellor = 2,
    /// 裨: any distance diagonally.
    Diplomat = 3,
    /// 砲: any distance orthogonally onto empty points; captures by jumping one screen.
    Cannon = 4,
    /// 行人: any distance in the eight directions onto empty points; never captures, is never captured.
    GoBetween = 5,
    /// 弓: 1–4 points in the eight directions (exactly 4 under the `leventhal` preset).
    Archer = 6,
    /// 弩: 1–5 points in the eight directions (exactly 5 under the `leventhal` preset).
    Crossbowman = 7,
    /// 刀: one point diagonally.
    Dagger = 8,
    /// 劍: one point orthogonally.
    Swordsman = 9,
    /// 騎: one point orthogonally, then 1–3 points diagonally outward.
    Knight = 10,
}

impl PieceKind {
    /// The ten kinds, in the order of the rules' table.
    pub const ALL: [PieceKind; 10] = [
        PieceKind::General,
        PieceKind::Chancellor,
        PieceKind::Diplomat,
        PieceKind::Cannon,
        PieceKind::GoBetween,
        PieceKind::Archer,
        PieceKind::Crossbowman,
        PieceKind::Dagger,
        PieceKind::Swordsman,
        PieceKind::Knight,
    ];

    /// The letter used in 7K FEN: `Q R B C G H W A S N`.
    pub const fn letter(self) -> char {
        ['Q', 'R', 'B', 'C', 'G', 'H', 'W', 'A', 'S', 'N'][self as usize - 1]
    }

    /// The kind written with this 7K FEN letter (upper case).
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        PieceKind::ALL.into_iter().find(|k| k.letter() == letter)
    }

    /// The characters on the stone: 將 偏 裨 砲 行人 弓 弩 刀 劍 騎.
    pub const fn characters(self) -> &'static str {
        ["將", "偏", "裨", "砲", "行人", "弓", "弩", "刀", "劍", "騎"][self as usize - 1]
    }

    /// The characters in pinyin: jiàng, piān, pí, pào, xíngrén, gōng, nǔ, dāo, jiàn, qí.
    pub const fn pinyin(self) -> &'static str {
        [
            "jiàng",
            "piān",
            "pí",
            "pào",
            "xíngrén",
            "gōng",
            "nǔ",
            "dāo",
            "jiàn",
            "qí",
        ][self as usize - 1]
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        [
            "General",
            "Chancellor",
            "Diplomat",
            "Cannon",
            "Go-between",
            "Archer",
            "Crossbowman",
            "Dagger soldier",
            "Swordsman",
            "Knight",
        ][self as usize - 1]
    }

    /// How many of this kind each army starts with.
    pub const fn count(self) -> u8 {
        match self {
            PieceKind::Dagger => 2,
            PieceKind::Swordsman | PieceKind::Knight => 4,
            _ => 1,
        }
    }

    /// Whether pieces of this kind can ever be captured (the go-between cannot).
    pub const fn is_capturable(self) -> bool {
        !matches!(self, PieceKind::GoBetween)
    }

    pub(crate) const fn from_code(code: u8) -> PieceKind {
        PieceKind::ALL[(code - 1) as usize]
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a kind in the colour of the kingdom that owns it.
///
/// ```
/// use qiguo_rules::{Kingdom, Piece, PieceKind};
/// let p = Piece::new(Kingdom::Qin, PieceKind::General);
/// assert_eq!(p.to_string(), "wQ");
/// assert_eq!(Piece::from_fen("dN"), Some(Piece::new(Kingdom::Yan, PieceKind::Knight)));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct Piece {
    /// The kingdom that owns the piece.
    pub kingdom: Kingdom,
    /// What kind of piece it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `kind` owned by `kingdom`.
    pub const fn new(kingdom: Kingdom, kind: PieceKind) -> Piece {
        Piece { kingdom, kind }
    }

    /// Reads the two-letter 7K FEN form, e.g. `wQ`.
    pub fn from_fen(text: &str) -> Option<Piece> {
        let mut chars = text.chars();
        let kingdom = Kingdom::from_letter(chars.next()?)?;
        let kind = PieceKind::from_letter(chars.next()?)?;
        chars.next().is_none().then_some(Piece::new(kingdom, kind))
    }

    /// The mailbox cell code of the piece: kingdom in the high nibble, kind in the low.
    pub(crate) const fn code(self) -> u8 {
        ((self.kingdom as u8) << 4) | self.kind as u8
    }

    /// The piece stored in a mailbox cell, if the cell holds one.
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        let kingdom = code >> 4;
        let kind = code & 0x0F;
        if kingdom < 7 && kind >= 1 && kind <= 10 {
            Some(Piece::new(
                Kingdom::ALL[kingdom as usize],
                PieceKind::from_code(kind),
            ))
        } else {
            None
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kingdom.letter(), self.kind.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for k in Kingdom::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(k, kind);
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!(Piece::from_fen(&p.to_string()), Some(p));
                assert_ne!(p.code(), 0);
            }
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_fen("wQx"), None);
        assert_eq!(Piece::from_fen("xQ"), None);
        assert_eq!(Piece::from_fen("wq"), None);
    }
}
