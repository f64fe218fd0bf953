//! Positions and whole games as plain text, for sharing: a position is one 7K FEN line; a
//! game is its start FEN followed by its moves, one per line.
//!
//! ```text
//! # Qiguo game · rules: classic
//! 2dNdSdBdQdRdSdN1pNpSpBpQpRpSpN2/…/2rNrSrRrQrBrSrN1oNoSoRoQoBoSoN2 w
//! e10e5
//! f5f6
//! ```
//!
//! Lines starting with `#` are comments, except `# … rules: PRESET`, which names the rules;
//! without it a game is read under the rules of the game in progress. Blank lines are ignored.

use qiguo_rules::{Game, Position, Preset, Rules, Seats, fen, notation};

/// Why pasted text could not be read as a position or a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameTextError {
    /// Nothing was pasted.
    Empty,
    /// A position was asked for, but the text has several lines.
    NotOneLine,
    /// The text has no FEN line to start from.
    NoStart,
    /// A line names rules that do not exist.
    Rules {
        /// The line, from 1.
        line: usize,
        /// Why the name was refused.
        why: String,
    },
    /// The start position is not valid FEN or not a valid position.
    Start {
        /// The line, from 1 (none for a position pasted alone).
        line: Option<usize>,
        /// Why the position was refused.
        why: String,
    },
    /// A move cannot be read or is not legal.
    Move {
        /// The line, from 1.
        line: usize,
        /// The move as written.
        text: String,
        /// Why it was refused.
        why: String,
    },
}

crate::i18n::display_in_english!(GameTextError);

impl GameTextError {
    /// The error in the interface's language (the rules engine's reason stays in English).
    pub fn text(&self, tr: crate::i18n::Tr) -> String {
        use crate::tr;
        match self {
            GameTextError::Empty => tr.text("import-error-empty"),
            GameTextError::NotOneLine => tr.text("import-error-not-one-line"),
            GameTextError::NoStart => tr.text("import-error-no-start"),
            GameTextError::Rules { line, why } => {
                tr!(tr, "import-error-rules", line = *line, why = why.as_str())
            }
            GameTextError::Start { line: None, why } => {
                tr!(tr, "import-error-start", why = why.as_str())
            }
            GameTextError::Start {
                line: Some(line),
                why,
            } => tr!(
                tr,
                "import-error-start-line",
                line = *line,
                why = why.as_str()
            ),
            GameTextError::Move { line, text, why } => tr!(
                tr,
                "import-error-move",
                line = *line,
                text = text.as_str(),
                why = why.as_str()
            ),
        }
    }
}

/// The position as one line of 7K FEN.
pub fn position_text(pos: &Position) -> String {
    pos.to_fen()
}

/// The game as text: a comment naming the rules, the start FEN, then one move per line.
pub fn game_text(game: &Game) -> String {
    let start = game.start_position();
    let rules = start.rules().preset_name();
    let mut out = format!("# Qiguo game · rules: {rules}\n{}\n", start.to_fen());
    for mv in game.moves() {
        out.push_str(&mv.to_string());
        out.push('\n');
    }
    out
}

/// Reads a position (one FEN line) under `rules` with `seats`, as the start of a new game.
pub fn read_position(text: &str, rules: Rules, seats: Seats) -> Result<Game, GameTextError> {
    let line = text.trim();
    if line.is_empty() {
        return Err(GameTextError::Empty);
    }
    if line.lines().count() > 1 {
        return Err(GameTextError::NotOneLine);
    }
    start_position(line, None, rules, seats).map(Game::new)
}

/// Reads a game written by [`game_text`] (or by hand): its start FEN and every move, each
/// checked. `rules` apply unless the text names a preset; `seats` are the table's.
pub fn read_game(text: &str, rules: Rules, seats: Seats) -> Result<Game, GameTextError> {
    let mut rules = rules;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let mut start = None;
    for (n, line) in lines.by_ref() {
        if let Some(comment) = line.strip_prefix('#') {
            if let Some((_, name)) = comment.split_once("rules:") {
                let name = name.trim();
                if name != "custom" {
                    let preset: Preset = name.parse().map_err(|e| GameTextError::Rules {
                        line: n,
                        why: format!("{e}"),
                    })?;
                    rules = Rules::preset(preset);
                }
            }
            continue;
        }
        start = Some(start_position(line, Some(n), rules, seats)?);
        break;
    }
    let start = start.ok_or(GameTextError::NoStart)?;
    let mut game = Game::new(start);
    let moves: Vec<(usize, &str)> = lines.filter(|(_, line)| !line.starts_with('#')).collect();
    notation::play_list(
        moves.iter().map(|(_, line)| *line),
        notation::parse_move,
        |mv| game.play(mv).map(|_| ()),
    )
    .map_err(|e| GameTextError::Move {
        line: moves[e.index].0,
        text: e.text,
        why: e.why,
    })?;
    Ok(game)
}

fn start_position(
    text: &str,
    line: Option<usize>,
    rules: Rules,
    seats: Seats,
) -> Result<Position, GameTextError> {
    let refused = |why: String| GameTextError::Start { line, why };
    let setup = fen::parse(text).map_err(|e| refused(format!("bad FEN: {e}")))?;
    Position::new(&setup, rules, seats).map_err(|e| refused(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(moves: &[&str]) -> Game {
        let mut game = Game::start(Rules::preset(Preset::Wikipedia), Seats::seven());
        for m in moves {
            game.play(notation::parse_move(m).unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn games_round_trip_through_text() {
        let game = played(&["e10e5", "f5f6"]);
        let text = game_text(&game);
        assert!(text.starts_with("# Qiguo game · rules: wikipedia\n"));
        assert_eq!(text.lines().count(), 2 + game.len());
        // Read under other rules: the named preset wins.
        let back = read_game(&text, Rules::default(), Seats::seven()).unwrap();
        assert_eq!(back.position().to_fen(), game.position().to_fen());
        assert_eq!(
            back.moves().collect::<Vec<_>>(),
            game.moves().collect::<Vec<_>>()
        );
        assert_eq!(back.start_position().rules(), game.start_position().rules());
    }

    #[test]
    fn positions_round_trip_through_fen() {
        let game = played(&["e10e5"]);
        let text = position_text(game.position());
        let back = read_position(&text, Rules::default(), Seats::seven()).unwrap();
        assert_eq!(back.position().to_fen(), text);
        assert!(back.is_empty());
    }

    #[test]
    fn bad_text_is_refused_with_the_line() {
        let rules = Rules::default();
        let seats = Seats::seven();
        let start = Position::start(rules).to_fen();
        let cases = [
            (String::new(), "no start position"),
            ("# only a comment\n".to_owned(), "no start position"),
            ("19 w\n".to_owned(), "line 1: bad FEN"),
            (
                format!("# rules: chess\n{start}\n"),
                "line 1: unknown rules preset",
            ),
            (
                format!("{start}\ne10e5\nzz\n"),
                "line 3 (“zz”): `zz` is not a move",
            ),
            (format!("{start}\n\ne10e5\ne10e6\n"), "line 4 (“e10e6”)"),
        ];
        for (text, expect) in cases {
            let err = read_game(&text, rules, seats).unwrap_err();
            assert!(err.to_string().contains(expect), "{text:?}: {err}");
        }
        assert!(read_position("", rules, seats).is_err());
        assert!(
            read_position("garbage", rules, seats)
                .unwrap_err()
                .to_string()
                .contains("bad FEN")
        );
        let two_lines = format!("{start}\ne10e5");
        assert!(
            read_position(&two_lines, rules, seats)
                .unwrap_err()
                .to_string()
                .contains("one line")
        );
    }
}
