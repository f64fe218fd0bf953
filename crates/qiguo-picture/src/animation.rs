//! A game's moves as an animated GIF: the start position, then one frame a move that draws
//! only the squares of the points that changed (the piece's way, a capture, a fallen army
//! leaving or changing hands), the points that did not change inside that box left
//! transparent — so that a game of hundreds of moves is a few hundred small frames. One
//! palette for all frames, drawn from the board and every stone.

use std::collections::HashMap;

use qiguo_rules::{Game, Kingdom, Piece, PieceKind, Point};

use crate::board::{BoardPainter, Mark, PointView, points_of};
use crate::canvas::{Canvas, Face};
use crate::kingdoms::style;

/// How long the start and each move is shown, in hundredths of a second.
const FIRST_DELAY: u16 = 150;
const MOVE_DELAY: u16 = 50;
/// How long the last position is held before the animation starts again.
const LAST_DELAY: u16 = 500;
/// The palette index left transparent in every frame after the first.
const CLEAR: u8 = 255;

/// Why an animation could not be written.
#[derive(Debug, thiserror::Error)]
#[error("the animation could not be written: {0}")]
pub struct AnimationError(#[from] gif::EncodingError);

/// The moves of `game` as an animated GIF `side` pixels square, characters from `face`.
pub fn animation(face: &Face, game: &Game, side: usize) -> Result<Vec<u8>, AnimationError> {
    let painter = BoardPainter::new(face, side);
    let side = painter.side();
    let quantizer = Quantizer::new(&samples(&painter));
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, side as u16, side as u16, &quantizer.flat())?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        let mut board = painter.ground().clone();
        let mut points = points_of(game.start_position(), None);
        painter.draw(&mut board, (0, 0), &points);
        let mut quantizer = quantizer;
        let mut shown: Vec<u8> = board
            .pixels()
            .chunks_exact(4)
            .map(|p| quantizer.index([p[0], p[1], p[2]]))
            .collect();
        let mut pending = gif::Frame {
            width: side as u16,
            height: side as u16,
            buffer: shown.clone().into(),
            delay: FIRST_DELAY,
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        // The positions one after another, each move made once (as `Game::position_at` does).
        let mut position = game.start_position().clone();
        for report in game.reports() {
            position.make(report.mv);
            let next = points_of(&position, Some((report.mv, report.mover)));
            let changed: Vec<Point> = Point::all()
                .filter(|p| points[p.index()] != next[p.index()])
                .collect();
            points = next;
            if changed.is_empty() {
                // Nothing to see (a pass after a pass): the frame before is held longer.
                pending.delay = pending.delay.saturating_add(MOVE_DELAY);
                continue;
            }
            encoder.write_frame(&pending)?;
            let (mut x0, mut y0, mut x1, mut y1) = (side, side, 0, 0);
            for &point in &changed {
                painter.draw_point(&mut board, point, points[point.index()]);
                let (x, y, w, h) = painter.square(point);
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + w), y1.max(y + h));
            }
            // Only the changed points' squares are read: the rest of the box stays clear.
            let (w, h) = (x1 - x0, y1 - y0);
            let mut buffer = vec![CLEAR; w * h];
            for &point in &changed {
                let (sx, sy, sw, sh) = painter.square(point);
                for y in sy..sy + sh {
                    for x in sx..sx + sw {
                        let p = board.get(x, y);
                        let index = quantizer.index([p[0], p[1], p[2]]);
                        let was = &mut shown[y * side + x];
                        if *was != index {
                            *was = index;
                            buffer[(y - y0) * w + (x - x0)] = index;
                        }
                    }
                }
            }
            pending = gif::Frame {
                left: x0 as u16,
                top: y0 as u16,
                width: w as u16,
                height: h as u16,
                buffer: buffer.into(),
                delay: MOVE_DELAY,
                transparent: Some(CLEAR),
                dispose: gif::DisposalMethod::Keep,
                ..gif::Frame::default()
            };
        }
        pending.delay = pending.delay.max(LAST_DELAY);
        encoder.write_frame(&pending)?;
    }
    Ok(out)
}

/// What the palette is drawn from: the empty board, and every stone and mark on it.
fn samples(painter: &BoardPainter) -> Canvas {
    let mut c = painter.ground().clone();
    let mut views: Vec<PointView> = Point::all()
        .map(|_| PointView {
            piece: None,
            mark: None,
        })
        .collect();
    let mut points = Point::all().filter(|p| *p != Point::EMPEROR);
    for kingdom in Kingdom::ALL {
        for kind in PieceKind::ALL {
            if let Some(p) = points.next() {
                views[p.index()].piece = Some(Piece { kingdom, kind });
            }
        }
        for mark in [Mark::From, Mark::To] {
            if let Some(p) = points.next() {
                views[p.index()].mark = Some((mark, kingdom));
            }
        }
    }
    painter.draw(&mut c, (0, 0), &views);
    c
}

/// A palette of at most 255 colours (the 256th is transparent) chosen by popularity among the
/// samples' colours, grouped five bits a channel; each colour then shown as its nearest.
struct Quantizer {
    palette: Vec<[u8; 3]>,
    nearest: HashMap<[u8; 3], u8>,
}

impl Quantizer {
    fn new(samples: &Canvas) -> Quantizer {
        let mut groups: HashMap<[u8; 3], (u64, [u64; 3])> = HashMap::new();
        for p in samples.pixels().chunks_exact(4) {
            let key = [p[0] >> 3, p[1] >> 3, p[2] >> 3];
            let entry = groups.entry(key).or_default();
            entry.0 += 1;
            for (sum, v) in entry.1.iter_mut().zip(p) {
                *sum += u64::from(*v);
            }
        }
        let mut groups: Vec<_> = groups.into_iter().collect();
        groups.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(&b.0)));
        let mut palette: Vec<[u8; 3]> = groups
            .iter()
            .take(CLEAR as usize)
            .map(|(_, (n, sum))| sum.map(|s| ((s + n / 2) / n) as u8))
            .collect();
        // The kingdoms' own colours are always there exactly.
        for kingdom in Kingdom::ALL {
            let [r, g, b, _] = style(kingdom).stone;
            if !palette.contains(&[r, g, b]) && palette.len() < CLEAR as usize {
                palette.push([r, g, b]);
            }
        }
        Quantizer {
            palette,
            nearest: HashMap::new(),
        }
    }

    /// The palette as GIF writes it: 256 colours, three bytes each.
    fn flat(&self) -> Vec<u8> {
        let mut flat: Vec<u8> = self.palette.iter().flatten().copied().collect();
        flat.resize(256 * 3, 0);
        flat
    }

    /// The palette index nearest `c`.
    fn index(&mut self, c: [u8; 3]) -> u8 {
        let palette = &self.palette;
        *self.nearest.entry(c).or_insert_with(|| {
            let distance = |p: &[u8; 3]| {
                (0..3)
                    .map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2))
                    .sum::<i32>()
            };
            palette
                .iter()
                .enumerate()
                .min_by_key(|(_, p)| distance(p))
                .map_or(0, |(i, _)| i as u8)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::kai;
    use qiguo_rules::{Position, Rules};

    /// Plays `n` moves, each the first legal one.
    fn game_of(n: usize) -> Game {
        let mut game = Game::new(Position::start(Rules::default()));
        for _ in 0..n {
            let Some(mv) = game.position().legal_moves().first().copied() else {
                break;
            };
            game.play(mv).unwrap();
        }
        game
    }

    /// Decodes every frame onto one screen as a viewer would (frames kept, transparency
    /// showing what was there).
    fn screens(gif_bytes: &[u8]) -> Vec<(gif::Frame<'static>, Vec<u8>)> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(gif_bytes).unwrap();
        let (w, h) = (decoder.width() as usize, decoder.height() as usize);
        let mut screen = vec![0u8; w * h];
        let mut out = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            let frame = frame.clone();
            for y in 0..frame.height as usize {
                for x in 0..frame.width as usize {
                    let i = frame.buffer[y * frame.width as usize + x];
                    if Some(i) != frame.transparent {
                        screen[(frame.top as usize + y) * w + frame.left as usize + x] = i;
                    }
                }
            }
            out.push((frame, screen.clone()));
        }
        out
    }

    /// A frame a move, each but the first a small box (a move changes two points), the last
    /// held longest; and the screen after the last frame is the last position drawn whole.
    #[test]
    fn frames_change_only_what_moved() {
        let face = kai();
        let game = game_of(12);
        let bytes = animation(&face, &game, 380).unwrap();
        assert_eq!(&bytes[..6], b"GIF89a");
        let frames = screens(&bytes);
        assert_eq!(frames.len(), 13);
        let (first, _) = &frames[0];
        assert_eq!((first.width, first.height), (380, 380));
        let side = 380usize;
        // A move draws at most four points' squares: where the piece left and went, and
        // where the move before had left and gone (their marks cleared).
        let square = (side as f32 / 19.5).ceil() as usize + 1;
        for (frame, _) in &frames[1..] {
            let drawn = frame.buffer.iter().filter(|&&i| i != CLEAR).count();
            assert!(
                drawn <= 4 * square * square,
                "a move's frame draws {drawn} pixels"
            );
            assert!(drawn > 0);
            assert_eq!(frame.transparent, Some(CLEAR));
        }
        assert_eq!(frames.last().unwrap().0.delay, LAST_DELAY);
        // The last screen is the final position as one picture, quantized the same way.
        let painter = BoardPainter::new(&face, side);
        let mut whole = painter.ground().clone();
        let last = game.reports().last().unwrap();
        painter.draw(
            &mut whole,
            (0, 0),
            &points_of(game.position(), Some((last.mv, last.mover))),
        );
        let mut quantizer = Quantizer::new(&samples(&painter));
        let expected: Vec<u8> = whole
            .pixels()
            .chunks_exact(4)
            .map(|p| quantizer.index([p[0], p[1], p[2]]))
            .collect();
        assert!(
            frames.last().unwrap().1 == expected,
            "the last screen is the last position"
        );
    }

    /// The palette keeps every kingdom's colour exactly, and the ground's.
    #[test]
    fn the_palette_has_the_kingdoms_colours() {
        let painter = BoardPainter::new(&kai(), 300);
        let q = Quantizer::new(&samples(&painter));
        assert!(q.palette.len() <= 255);
        for kingdom in Kingdom::ALL {
            let [r, g, b, _] = style(kingdom).stone;
            let near = q
                .palette
                .iter()
                .map(|p| {
                    (i32::from(p[0]) - i32::from(r)).abs()
                        + (i32::from(p[1]) - i32::from(g)).abs()
                        + (i32::from(p[2]) - i32::from(b)).abs()
                })
                .min()
                .unwrap();
            assert!(near <= 12, "{kingdom}: {near}");
        }
    }
}
