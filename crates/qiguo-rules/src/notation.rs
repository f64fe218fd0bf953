//! Move text: from-point then to-point with no separator (`f3a8`, `j13j9`), or `--` for a pass.
//!
//! ```
//! use qiguo_rules::{notation, Move};
//! let mv = notation::parse_move("j13j9").unwrap();
//! assert_eq!(mv.to_string(), "j13j9");
//! assert_eq!(notation::parse_move("--").unwrap(), Move::PASS);
//! // elephantchess.io writes 0-based ranks: e9e4 is e10→e5.
//! assert_eq!(notation::parse_move_zero_based("e9e4").unwrap().to_string(), "e10e5");
//! assert!(notation::parse_move("e10").is_err());
//! ```

use std::fmt;

use crate::{Move, Point};

/// Why a move's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveTextError {
    text: String,
    why: &'static str,
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a move: {}", self.text, self.why)
    }
}

impl std::error::Error for MoveTextError {}

/// A move of a list that could not be read or played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveListError {
    /// Its place in the list, from 0.
    pub index: usize,
    /// The move as written.
    pub text: String,
    /// Why it was refused.
    pub why: String,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} (`{}`): {}", self.index + 1, self.text, self.why)
    }
}

impl std::error::Error for MoveListError {}

/// Reads each move of `texts` with `read` (such as [`parse_move`]) and hands it to `play`,
/// stopping at the first move that cannot be read or played.
///
/// ```
/// use qiguo_rules::{notation, Game, Rules, Seats};
/// let mut game = Game::start(Rules::default(), Seats::seven());
/// notation::play_list(["e10e5", "f5f6"], notation::parse_move, |mv| game.play(mv).map(|_| ()))
///     .unwrap();
/// assert_eq!(game.len(), 2);
/// let err = notation::play_list(["f5f6", "f5"], notation::parse_move, |_| Ok::<_, String>(()))
///     .unwrap_err();
/// assert_eq!(err.index, 1);
/// ```
pub fn play_list<'a, E: fmt::Display>(
    texts: impl IntoIterator<Item = &'a str>,
    read: fn(&str) -> Result<Move, MoveTextError>,
    mut play: impl FnMut(Move) -> Result<(), E>,
) -> Result<(), MoveListError> {
    for (index, text) in texts.into_iter().enumerate() {
        let err = |why: String| MoveListError {
            index,
            text: text.to_owned(),
            why,
        };
        let mv = read(text).map_err(|e| err(e.to_string()))?;
        play(mv).map_err(|e| err(e.to_string()))?;
    }
    Ok(())
}

/// Reads a move written with ranks 1–19.
pub fn parse_move(text: &str) -> Result<Move, MoveTextError> {
    parse_with(text, |s| s.parse::<Point>().ok())
}

/// Reads a move written with 0-based ranks, as elephantchess.io writes them. Use only for an
/// explicit import of such records.
pub fn parse_move_zero_based(text: &str) -> Result<Move, MoveTextError> {
    parse_with(text, |s| Point::parse_zero_based(s).ok())
}

fn parse_with(text: &str, point: impl Fn(&str) -> Option<Point>) -> Result<Move, MoveTextError> {
    let err = |why| MoveTextError {
        text: text.to_owned(),
        why,
    };
    if text == "--" {
        return Ok(Move::PASS);
    }
    if text == "concede" {
        return Ok(Move::CONCEDE);
    }
    if !text.is_ascii() {
        return Err(err("expected two points like `f3a8`, or `--` for a pass"));
    }
    // The second point starts at the first letter after the first character.
    let split = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .ok_or_else(|| err("expected two points like `f3a8`, or `--` for a pass"))?;
    let from = point(&text[..split]).ok_or_else(|| err("the first point is not on the board"))?;
    let to = point(&text[split..]).ok_or_else(|| err("the second point is not on the board"))?;
    if from == to {
        return Err(err("a piece cannot move to its own point"));
    }
    Ok(Move::new(from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_pair_round_trips() {
        for from in Point::all().step_by(7) {
            for to in Point::all().step_by(11) {
                if from != to {
                    let mv = Move::new(from, to);
                    assert_eq!(parse_move(&mv.to_string()), Ok(mv));
                }
            }
        }
    }

    #[test]
    fn bad_move_text() {
        for bad in [
            "", "-", "---", "f3", "f3a", "f3a0", "f3a20", "t1a1", "a1a1", "F3A8", "f3 a8", "f3-a8",
            "3fa8", "f3a8x", "ｆ3a8", "a100a1",
        ] {
            let e = parse_move(bad).unwrap_err();
            assert!(e.to_string().contains("is not a move"), "{bad}");
        }
        assert!(parse_move_zero_based("a19a0").is_err());
        assert_eq!(
            parse_move_zero_based("a18s0").unwrap(),
            parse_move("a19s1").unwrap()
        );
    }
}
