//! The board from above as a flat picture: the kaya ground, each kingdom's home edge tinted in
//! its colour, the 19×19 grid and its star points, the stones with their faces, and the last
//! move marked (a dot where the piece stood, a ring in the mover's colour where it went).
//!
//! A picture is drawn point by point: each point's square (a point apart) holds everything
//! drawn for it, so a point can be drawn again alone when only it changed — what the animation
//! of a game's moves is made of.

use std::collections::HashMap;

use qiguo_rules::{Kingdom, Move, Piece, PieceKind, Point, Position};

use crate::canvas::{Canvas, Face, Rgba};
use crate::kingdoms::{home_band, style, with_alpha};
use crate::stone::{FaceLook, emperor_face, round, stone_face};

/// The kaya of the board.
pub const KAYA: Rgba = [216, 170, 100, 255];
/// The grid's ink.
const INK: Rgba = [38, 24, 12, 235];
/// The rim drawn around each stone.
const STONE_RIM: Rgba = [40, 30, 20, 255];
/// The board's edge from the centre point, in points: the grid's half (9) and a margin that
/// holds the home edges' bands.
const HALF: f32 = 9.75;
/// A stone's radius, in points.
const STONE_RADIUS: f32 = 0.45;

/// What one point shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointView {
    /// The stone on it, if any (the Emperor's point always has his).
    pub piece: Option<Piece>,
    /// Whether the last move left from here or came here, and whose it was.
    pub mark: Option<(Mark, Kingdom)>,
}

/// A point's part in the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The piece left from here.
    From,
    /// The piece came here.
    To,
}

/// What every point of a position shows, with `last` (played by `mover`) marked.
pub fn points_of(position: &Position, last: Option<(Move, Kingdom)>) -> Vec<PointView> {
    let mut views: Vec<PointView> = Point::all()
        .map(|point| PointView {
            piece: position.piece_at(point),
            mark: None,
        })
        .collect();
    if let Some((mv, mover)) = last {
        if let Some(from) = mv.from() {
            views[from.index()].mark = Some((Mark::From, mover));
        }
        if let Some(to) = mv.to() {
            views[to.index()].mark = Some((Mark::To, mover));
        }
    }
    views
}

/// Draws boards of one size: the empty board and every stone drawn once, then laid point by
/// point.
pub struct BoardPainter {
    /// The board's side in pixels.
    side: usize,
    /// Pixels from one point to the next.
    spacing: f32,
    /// The empty board.
    ground: Canvas,
    /// Each kingdom's each piece, round, a square of the stone's diameter.
    stones: HashMap<(Kingdom, PieceKind), Canvas>,
    /// The Emperor's stone.
    emperor: Canvas,
}

impl BoardPainter {
    /// A painter of boards `side` pixels square, characters from `face`.
    pub fn new(face: &Face, side: usize) -> BoardPainter {
        let side = side.max(64);
        let spacing = side as f32 / (2.0 * HALF);
        let diameter = (2.0 * STONE_RADIUS * spacing).round().max(8.0) as usize;
        // Faces drawn at four times the size and averaged down: small characters stay clean.
        let stone = |piece: Piece| {
            let big = stone_face(
                face,
                piece,
                style(piece.kingdom),
                FaceLook::default(),
                diameter * 4,
            );
            round(shrink(&big, 4), STONE_RIM)
        };
        let mut stones = HashMap::new();
        for kingdom in Kingdom::ALL {
            for kind in PieceKind::ALL {
                stones.insert((kingdom, kind), stone(Piece { kingdom, kind }));
            }
        }
        let emperor = round(shrink(&emperor_face(face, diameter * 4), 4), STONE_RIM);
        let mut painter = BoardPainter {
            side,
            spacing,
            ground: Canvas::new(side, KAYA),
            stones,
            emperor,
        };
        painter.draw_ground();
        painter
    }

    /// The board's side in pixels.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The empty board.
    pub fn ground(&self) -> &Canvas {
        &self.ground
    }

    /// Pixels from a board unit (points from the centre, x east, y south) along one axis.
    fn px(&self, units: f32) -> f32 {
        (units + HALF) * self.spacing
    }

    /// A point's centre in pixels.
    pub fn centre(&self, point: Point) -> (f32, f32) {
        (
            self.px(point.file() as f32 - 9.0),
            self.px(9.0 - point.rank() as f32),
        )
    }

    /// A point's square in pixels, `(x, y, width, height)`: everything drawn for it.
    pub fn square(&self, point: Point) -> (usize, usize, usize, usize) {
        let (cx, cy) = self.centre(point);
        let h = self.spacing / 2.0;
        let x0 = (cx - h).floor().max(0.0) as usize;
        let y0 = (cy - h).floor().max(0.0) as usize;
        let x1 = ((cx + h).ceil() as usize).min(self.side);
        let y1 = ((cy + h).ceil() as usize).min(self.side);
        (x0, y0, x1 - x0, y1 - y0)
    }

    fn draw_ground(&mut self) {
        let c = &mut self.ground;
        let k = self.spacing;
        let px = |units: f32| (units + HALF) * k;
        for kingdom in Kingdom::ALL {
            let (x0, y0, x1, y1) = home_band(kingdom, HALF);
            let colour = with_alpha(style(kingdom).stone, 0.8);
            c.rect(px(x0), px(y0), px(x1), px(y1), colour);
        }
        let width = (k * 0.06).max(1.0);
        for i in 0..19 {
            let at = px(i as f32 - 9.0);
            let w = if i == 0 || i == 18 {
                width * 1.8
            } else {
                width
            };
            let (a, b) = (px(-9.0), px(9.0));
            c.segment((at, a), (at, b), w, INK);
            c.segment((a, at), (b, at), w, INK);
        }
        for (file, rank) in [3, 9, 15]
            .into_iter()
            .flat_map(|f| [3, 9, 15].map(|r| (f, r)))
        {
            c.disc(px(file as f32 - 9.0), px(9.0 - rank as f32), 0.11 * k, INK);
        }
    }

    /// Draws the whole board showing `points` (as [`points_of`] gives them) onto `canvas` at
    /// (`x`, `y`).
    pub fn draw(&self, canvas: &mut Canvas, (x, y): (usize, usize), points: &[PointView]) {
        let mut board = self.ground.clone();
        for (point, view) in Point::all().zip(points) {
            self.draw_point(&mut board, point, *view);
        }
        canvas.draw(&board, x as i64, y as i64);
    }

    /// Draws one point's square of `board` (a canvas the board's size) again: the ground,
    /// then its mark and its stone.
    pub fn draw_point(&self, board: &mut Canvas, point: Point, view: PointView) {
        let square = self.square(point);
        board.copy_from(&self.ground, square);
        let (cx, cy) = self.centre(point);
        let k = self.spacing;
        if let Some((Mark::From, mover)) = view.mark {
            board.disc(cx, cy, 0.2 * k, STONE_RIM);
            board.disc(cx, cy, 0.15 * k, style(mover).stone);
        }
        let stone = if point == Point::EMPEROR {
            Some(&self.emperor)
        } else {
            view.piece
                .and_then(|piece| self.stones.get(&(piece.kingdom, piece.kind)))
        };
        if let Some((Mark::To, mover)) = view.mark {
            board.disc(cx, cy, 0.5 * k - 0.5, STONE_RIM);
            board.disc(
                cx,
                cy,
                0.5 * k - 0.5 - (0.04 * k).max(1.0),
                style(mover).stone,
            );
        }
        if let Some(stone) = stone {
            let half = stone.size() as f32 / 2.0;
            board.draw(
                stone,
                (cx - half).round() as i64,
                (cy - half).round() as i64,
            );
        }
    }
}

/// `canvas` made `factor` times smaller, each pixel the average of the square it covers
/// (alpha-weighted colour, so transparent pixels lend no colour).
pub fn shrink(canvas: &Canvas, factor: usize) -> Canvas {
    let factor = factor.max(1);
    let (w, h) = (canvas.width() / factor, canvas.height() / factor);
    let mut out = Canvas::sized(w, h, [0; 4]);
    let n = (factor * factor) as u32;
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0u32; 4];
            for dy in 0..factor {
                for dx in 0..factor {
                    let p = canvas.get(x * factor + dx, y * factor + dy);
                    let a = u32::from(p[3]);
                    for k in 0..3 {
                        sum[k] += u32::from(p[k]) * a;
                    }
                    sum[3] += a;
                }
            }
            let alpha = sum[3];
            let colour = |k: usize| {
                (sum[k] + alpha / 2)
                    .checked_div(alpha)
                    .map_or(0, |v| v as u8)
            };
            out.set(
                x,
                y,
                [colour(0), colour(1), colour(2), ((alpha + n / 2) / n) as u8],
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::kai;
    use qiguo_rules::Rules;

    /// A point's square holds all that is drawn for it: drawing every point again alone over
    /// the whole board changes nothing, and a point's stone stays within its square.
    #[test]
    fn a_point_drawn_alone_is_the_point_drawn_with_the_board() {
        let painter = BoardPainter::new(&kai(), 400);
        let position = Position::start(Rules::default());
        let mv = position.legal_moves()[0];
        let points = points_of(&position, Some((mv, position.to_move())));
        let mut whole = Canvas::new(400, [0; 4]);
        painter.draw(&mut whole, (0, 0), &points);
        let mut again = whole.clone();
        for (point, view) in Point::all().zip(&points) {
            painter.draw_point(&mut again, point, *view);
        }
        assert_eq!(whole.pixels(), again.pixels());
        // An empty point shows the ground; a stone's point shows its colour in the middle.
        let (general, _) = position
            .army(Kingdom::Chu)
            .find(|(_, p)| p.kind == PieceKind::General)
            .unwrap();
        let (x, y) = painter.centre(general);
        let seen = whole.get(x as usize + 5, y as usize);
        assert!(
            seen[0] > 120 && seen[1] < 90,
            "Chu's General is red around its character: {seen:?}"
        );
        assert_eq!(whole.get(2, 200)[3], 255);
    }

    /// Shrinking averages: a 4×4 square of black and white halves is grey; transparency
    /// lends no colour.
    #[test]
    fn shrinking_averages_by_alpha() {
        let mut c = Canvas::new(4, [255, 255, 255, 255]);
        for y in 0..4 {
            for x in 0..2 {
                c.set(x, y, [0, 0, 0, 255]);
            }
        }
        assert_eq!(shrink(&c, 4).get(0, 0), [128, 128, 128, 255]);
        let mut clear = Canvas::new(2, [0, 0, 0, 0]);
        clear.set(0, 0, [200, 100, 50, 255]);
        assert_eq!(shrink(&clear, 2).get(0, 0), [200, 100, 50, 64]);
    }
}
