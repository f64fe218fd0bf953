//! 7K FEN, the position format of elephantchess.io with the kingdom to move appended.
//!
//! Ranks 19 down to 1 separated by `/`; within a rank, west to east, a run of empty points as
//! its count and a piece as its kingdom's colour letter followed by its piece letter (`wQ` is
//! Qin's General). The Emperor is implicit at `j10` and counted as empty. Then a space and the
//! colour letter of the kingdom to move.
//!
//! ```
//! use qiguo_rules::{fen, Kingdom, Piece, PieceKind, Point};
//! let setup = fen::parse("19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/5rQ13 r").unwrap();
//! assert_eq!(setup.to_move, Kingdom::Chu);
//! assert_eq!(setup.board.get("f1".parse().unwrap()), Some(Piece::new(Kingdom::Chu, PieceKind::General)));
//! assert_eq!(fen::write(&setup), "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/5rQ13 r");
//! ```

use std::fmt;

use crate::{Board, Kingdom, Piece, Point, Setup, point::SIZE};

/// What is wrong with a 7K FEN string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The board and the kingdom to move must be separated by one space.
    Shape,
    /// There must be 19 ranks separated by `/`.
    RankCount(usize),
    /// A rank does not describe exactly 19 points.
    RankLength {
        /// The rank as written on the board (19 is the first in the string).
        rank: u8,
        /// How many points the text describes.
        points: usize,
    },
    /// An unexpected character in a rank.
    BadChar {
        /// The rank (1–19).
        rank: u8,
        /// The character.
        found: char,
    },
    /// A piece stands on `j10`, the Emperor's point.
    PieceOnEmperor,
    /// The kingdom to move is not one of `w r o b g p d`.
    BadTurn(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Shape => write!(
                f,
                "expected the board, one space and the kingdom to move (e.g. `… w`)"
            ),
            FenError::RankCount(n) => write!(f, "expected 19 ranks separated by `/`, found {n}"),
            FenError::RankLength { rank, points } => {
                write!(f, "rank {rank} describes {points} points instead of 19")
            }
            FenError::BadChar { rank, found } => {
                write!(f, "unexpected `{found}` in rank {rank}")
            }
            FenError::PieceOnEmperor => write!(f, "a piece stands on j10, the Emperor's point"),
            FenError::BadTurn(t) => write!(
                f,
                "`{t}` is not a kingdom to move: expected one of w r o b g p d"
            ),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads a 7K FEN string into a [`Setup`].
pub fn parse(text: &str) -> Result<Setup, FenError> {
    let text = text.trim();
    let mut parts = text.split(' ');
    let (Some(board_text), Some(turn), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(FenError::Shape);
    };
    let to_move = {
        let mut chars = turn.chars();
        match (chars.next().and_then(Kingdom::from_letter), chars.next()) {
            (Some(k), None) => k,
            _ => return Err(FenError::BadTurn(turn.to_owned())),
        }
    };
    let ranks: Vec<&str> = board_text.split('/').collect();
    if ranks.len() != SIZE as usize {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = SIZE - 1 - i as u8;
        let mut file = 0usize;
        let mut chars = rank_text.chars().peekable();
        let bad = |found| FenError::BadChar {
            rank: rank + 1,
            found,
        };
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut run = d as usize;
                if run == 0 {
                    return Err(bad(c));
                }
                while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                    chars.next();
                    run = run * 10 + next as usize;
                    if run > SIZE as usize {
                        break;
                    }
                }
                file += run;
            } else {
                let kind_char = chars.next().ok_or_else(|| bad(c))?;
                let piece = Piece::from_fen(&format!("{c}{kind_char}")).ok_or_else(|| {
                    if Kingdom::from_letter(c).is_some() {
                        bad(kind_char)
                    } else {
                        bad(c)
                    }
                })?;
                if file < SIZE as usize {
                    let point = Point::new(file as u8, rank).expect("file and rank are in range");
                    if point == Point::EMPEROR {
                        return Err(FenError::PieceOnEmperor);
                    }
                    board.set(point, Some(piece));
                }
                file += 1;
            }
            if file > SIZE as usize {
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    points: file,
                });
            }
        }
        if file != SIZE as usize {
            return Err(FenError::RankLength {
                rank: rank + 1,
                points: file,
            });
        }
    }
    Ok(Setup { board, to_move })
}

/// Writes a [`Setup`] as 7K FEN.
pub fn write(setup: &Setup) -> String {
    write_parts(|p| setup.board.get(p), setup.to_move)
}

pub(crate) fn write_parts(piece_at: impl Fn(Point) -> Option<Piece>, to_move: Kingdom) -> String {
    let mut out = String::with_capacity(400);
    for rank in (0..SIZE).rev() {
        let mut empty = 0;
        for file in 0..SIZE {
            match piece_at(Point::new(file, rank).expect("in range")) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece.kingdom.letter());
                    out.push(piece.kind.letter());
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(to_move.letter());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LEVENTHAL_START_FEN, setup::ELEPHANTCHESS_START_FEN};

    const EMPTY: &str = "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19";

    #[test]
    fn start_positions_round_trip() {
        for fen in [LEVENTHAL_START_FEN, ELEPHANTCHESS_START_FEN] {
            assert_eq!(write(&parse(fen).unwrap()), fen);
        }
    }

    #[test]
    fn bad_fens_say_what_is_wrong() {
        let cases: Vec<(String, FenError)> = vec![
            (EMPTY.to_string(), FenError::Shape),
            (format!("{EMPTY} w extra"), FenError::Shape),
            (format!("{EMPTY} x"), FenError::BadTurn("x".into())),
            (format!("{EMPTY} ww"), FenError::BadTurn("ww".into())),
            ("19/19 w".into(), FenError::RankCount(2)),
            (
                format!("18/{}", &EMPTY[3..]) + " w",
                FenError::RankLength {
                    rank: 19,
                    points: 18,
                },
            ),
            (
                format!("20/{}", &EMPTY[3..]) + " w",
                FenError::RankLength {
                    rank: 19,
                    points: 20,
                },
            ),
            (
                format!("wQ19/{}", &EMPTY[3..]) + " w",
                FenError::RankLength {
                    rank: 19,
                    points: 20,
                },
            ),
            (
                format!("xQ18/{}", &EMPTY[3..]) + " w",
                FenError::BadChar {
                    rank: 19,
                    found: 'x',
                },
            ),
            (
                format!("wZ18/{}", &EMPTY[3..]) + " w",
                FenError::BadChar {
                    rank: 19,
                    found: 'Z',
                },
            ),
            (
                format!("0wQ18/{}", &EMPTY[3..]) + " w",
                FenError::BadChar {
                    rank: 19,
                    found: '0',
                },
            ),
            (
                format!("18w/{}", &EMPTY[3..]) + " w",
                FenError::BadChar {
                    rank: 19,
                    found: 'w',
                },
            ),
            (
                "19/19/19/19/19/19/19/19/19/9wQ9/19/19/19/19/19/19/19/19/19 w".into(),
                FenError::PieceOnEmperor,
            ),
            (
                "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/99999999999999999999 w"
                    .into(),
                FenError::RankLength {
                    rank: 1,
                    points: 99,
                },
            ),
        ];
        for (fen, err) in cases {
            assert_eq!(parse(&fen), Err(err.clone()), "{fen}");
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            " ",
            "/",
            "w",
            "🀄 w",
            "1/1/1 r",
            "//////////////////// w",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}
