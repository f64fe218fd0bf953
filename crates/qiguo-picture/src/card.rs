//! A game's card: the picture a link to the game shows where chat programs and social sites
//! read one (Open Graph's `og:image`), 1200×630 — the board from above on the left, and on the
//! right the game's name, where it stands and the seven kingdoms with who holds them.

use qiguo_rules::{Kingdom, Move, Piece, PieceKind, Position};

use crate::board::{BoardPainter, points_of, shrink};
use crate::canvas::{Canvas, Face, Rgba, text_width};
use crate::kingdoms::style;
use crate::stone::{FaceLook, round, stone_face};

/// The card's width in pixels (Open Graph's large image).
pub const CARD_WIDTH: usize = 1200;
/// The card's height in pixels.
pub const CARD_HEIGHT: usize = 630;

/// The card's ground, its text and its quieter text.
const PAPER: Rgba = [244, 238, 226, 255];
const TEXT: Rgba = [43, 33, 24, 255];
const QUIET: Rgba = [110, 94, 78, 255];
/// Around the board.
const FRAME: Rgba = [92, 62, 38, 255];

/// What the card says beside the board.
#[derive(Clone, Debug, Default)]
pub struct CardText {
    /// The heading (the game's name).
    pub title: String,
    /// Where the game stands: whose move, or who won and how.
    pub summary: String,
    /// One line a kingdom, in turn order.
    pub kingdoms: Vec<KingdomLine>,
    /// The line at the foot (where the game is played).
    pub footer: String,
}

/// One kingdom's line on the card.
#[derive(Clone, Debug)]
pub struct KingdomLine {
    /// The kingdom.
    pub kingdom: Kingdom,
    /// Who holds it.
    pub who: String,
    /// Its state in a word or two ("to move", "beaten", "won").
    pub state: String,
    /// Out of the game (beaten, conceded, absent): drawn faded.
    pub out: bool,
}

/// The card of `position` with `last` (and its mover) marked and `text` beside it,
/// [`CARD_WIDTH`] × [`CARD_HEIGHT`].
pub fn card(
    face: &Face,
    position: &Position,
    last: Option<(Move, Kingdom)>,
    text: &CardText,
) -> Canvas {
    let mut c = Canvas::sized(CARD_WIDTH, CARD_HEIGHT, PAPER);
    let side = CARD_HEIGHT - 30;
    c.rect(0.0, 0.0, (side + 30) as f32, CARD_HEIGHT as f32, FRAME);
    let painter = BoardPainter::new(face, side);
    painter.draw(&mut c, (15, 15), &points_of(position, last));

    let left = (side + 30 + 36) as f32;
    let right = CARD_WIDTH as f32 - 36.0;
    let room = right - left;
    line(&mut c, face, &text.title, (left, 60.0), 44.0, room, TEXT);
    for (i, said) in wrapped(face, &text.summary, 26.0, room, 2)
        .iter()
        .enumerate()
    {
        c.text_from(face, said, (left, 112.0 + 33.0 * i as f32), 26.0, QUIET);
    }
    let badge = 42usize;
    let row = 54.0;
    for (i, k) in text.kingdoms.iter().take(7).enumerate() {
        let cy = 200.0 + row * i as f32;
        let general = Piece {
            kingdom: k.kingdom,
            kind: PieceKind::General,
        };
        let big = stone_face(
            face,
            general,
            style(k.kingdom),
            FaceLook::default(),
            badge * 4,
        );
        let mut stone = round(shrink(&big, 4), [40, 30, 20, 255]);
        if k.out {
            fade(&mut stone, PAPER, 0.6);
        }
        c.draw(
            &stone,
            left as i64,
            (cy - badge as f32 / 2.0).round() as i64,
        );
        let x = left + badge as f32 + 16.0;
        let colour = if k.out { QUIET } else { TEXT };
        let name = format!("{} · {}", k.kingdom.title(), k.who);
        let state_width = text_width(face, &k.state, 22.0);
        let end = line(
            &mut c,
            face,
            &name,
            (x, cy),
            28.0,
            right - x - state_width - 24.0,
            colour,
        );
        if !k.state.is_empty() {
            c.text_from(face, &k.state, (end + 18.0, cy), 22.0, QUIET);
        }
    }
    line(
        &mut c,
        face,
        &text.footer,
        (left, CARD_HEIGHT as f32 - 34.0),
        21.0,
        room,
        QUIET,
    );
    c
}

/// Draws `text` from `left`, cut with an ellipsis to fit `room` pixels; returns where it ends.
fn line(
    c: &mut Canvas,
    face: &Face,
    text: &str,
    (left, cy): (f32, f32),
    height: f32,
    room: f32,
    colour: Rgba,
) -> f32 {
    let fitted = fit(face, text, height, room);
    c.text_from(face, &fitted, (left, cy), height, colour)
}

/// `text` in at most `most` lines of `room` pixels at `height`, broken between words (a word
/// longer than a line broken where it must), the last line cut with an ellipsis if need be.
pub fn wrapped(face: &Face, text: &str, height: f32, room: f32, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        let tried = if current.is_empty() {
            word.to_owned()
        } else {
            format!("{current} {word}")
        };
        if text_width(face, &tried, height) <= room || current.is_empty() {
            current = tried;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_owned()));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    if lines.len() > most {
        let rest = lines[most - 1..].join(" ");
        lines.truncate(most - 1);
        lines.push(rest);
    }
    lines
        .into_iter()
        .map(|l| fit(face, &l, height, room))
        .collect()
}

/// `text`, or as much of it as fits `room` pixels at `height` followed by an ellipsis.
pub fn fit(face: &Face, text: &str, height: f32, room: f32) -> String {
    if text_width(face, text, height) <= room {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    for keep in (0..chars.len()).rev() {
        let cut: String = chars[..keep]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_owned()
            + "…";
        if text_width(face, &cut, height) <= room {
            return cut;
        }
    }
    String::new()
}

/// Lays `ground` over a picture's opaque pixels with opacity `amount`: it fades into it.
fn fade(c: &mut Canvas, ground: Rgba, amount: f32) {
    for y in 0..c.height() {
        for x in 0..c.width() {
            let p = c.get(x, y);
            if p[3] > 0 {
                let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * amount).round() as u8;
                c.set(
                    x,
                    y,
                    [
                        mix(p[0], ground[0]),
                        mix(p[1], ground[1]),
                        mix(p[2], ground[2]),
                        p[3],
                    ],
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::kai;
    use qiguo_rules::Rules;

    #[test]
    fn long_names_are_cut_to_fit() {
        let face = kai();
        let long = "A very long name indeed, longer than any card has room for";
        let cut = fit(&face, long, 28.0, 200.0);
        assert!(cut.ends_with('…') && cut.len() < long.len(), "{cut}");
        assert!(text_width(&face, &cut, 28.0) <= 200.0);
        assert_eq!(fit(&face, "Ann", 28.0, 200.0), "Ann");
    }

    #[test]
    fn a_long_sentence_takes_two_lines_and_no_more() {
        let face = kai();
        let said = "Zhao (computer) won: captured two Generals, after 493 moves.";
        let lines = wrapped(&face, said, 26.0, 300.0, 2);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("Zhao") && !lines[0].ends_with('…'),
            "{lines:?}"
        );
        assert!(lines.iter().all(|l| text_width(&face, l, 26.0) <= 300.0));
        let all = wrapped(&face, said, 26.0, 2000.0, 2);
        assert_eq!(all, vec![said.to_owned()]);
        let cut = wrapped(&face, &said.repeat(4), 26.0, 300.0, 2);
        assert!(cut.len() == 2 && cut[1].ends_with('…'), "{cut:?}");
    }

    /// The card is its size, the board on the left (the Emperor's yellow at its centre), the
    /// text on the right in ink on paper.
    #[test]
    fn the_card_shows_the_board_and_the_kingdoms() {
        let position = Position::start(Rules::default());
        let text = CardText {
            title: "A game of seven".into(),
            summary: "Move 1 · Qin to move".into(),
            kingdoms: Kingdom::ALL
                .into_iter()
                .map(|kingdom| KingdomLine {
                    kingdom,
                    who: "\u{9673} Ann".into(),
                    state: String::new(),
                    out: kingdom == Kingdom::Yan,
                })
                .collect(),
            footer: "qiguo.example".into(),
        };
        let c = card(&kai(), &position, None, &text);
        assert_eq!((c.width(), c.height()), (CARD_WIDTH, CARD_HEIGHT));
        let mid = 15 + (CARD_HEIGHT - 30) / 2;
        let emperor = c.get(mid + 6, mid);
        assert!(
            emperor[0] > 200 && emperor[1] > 150 && emperor[2] < 100,
            "{emperor:?}"
        );
        let inked = (700..1160)
            .flat_map(|x| (40..90).map(move |y| (x, y)))
            .filter(|&(x, y)| c.get(x, y)[0] < 120)
            .count();
        assert!(inked > 300, "the title leaves ink: {inked}");
    }
}
