//! The game report: how a game went, move by move, read from its record — every kingdom's
//! material and the evaluation's estimate of its chances after each move, where kingdoms fell
//! or changed hands, captures by kingdom, the turning points (the largest swings of the
//! estimate) and the hints each kingdom's player was shown. The same data serves
//! `qiguo report` and the window's report.

use std::fmt::Write as _;

use qiguo_ai::chances::FITTED;
use qiguo_ai::eval::piece_value;
use qiguo_rules::{Game, Kingdom, Outcome, Position, Record, Standing};
use serde::Serialize;

use crate::i18n::Tr;

/// How many turning points the report names.
const TURNING_POINTS: usize = 5;

/// One kingdom's line in the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KingdomSeries {
    /// The kingdom.
    pub kingdom: Kingdom,
    /// Its material on the board after each move (index 0: the start), in pawns (a swordsman
    /// is 1); the General counts nothing itself.
    pub material: Vec<f64>,
    /// The evaluation's estimate of its player's chances after each move, from 0 to 1 (0 once
    /// it is out of the game).
    pub chances: Vec<f64>,
    /// Pieces it took, in all.
    pub captures: u32,
    /// Pieces it lost.
    pub losses: u32,
    /// Hints its player was shown.
    pub hints: u32,
    /// How it stands at the end, in words (English).
    pub standing: String,
}

/// A kingdom that fell with a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FallMark {
    /// The number of moves played, this one included.
    pub ply: usize,
    /// The kingdom that fell.
    pub kingdom: Kingdom,
    /// Who beat it, if anyone.
    pub victor: Option<Kingdom>,
    /// Whether its army changed hands (rather than leaving the board).
    pub changed_hands: bool,
}

/// One of the largest swings of a kingdom's chances between two moves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurningPoint {
    /// The number of moves played, the swinging move included (review shows the position
    /// after it).
    pub ply: usize,
    /// The move, as written in the record.
    pub mv: String,
    /// The kingdom that moved.
    pub mover: Kingdom,
    /// The kingdom whose chances swung most.
    pub kingdom: Kingdom,
    /// By how much (from -1 to 1).
    pub swing: f64,
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReport {
    /// Moves played.
    pub moves: usize,
    /// The kingdoms that took part, in turn order.
    pub kingdoms: Vec<KingdomSeries>,
    /// Who took whose pieces: `taken[a][b]` is how many of `b`'s pieces `a` took (by kingdom
    /// index).
    pub taken: [[u32; 7]; 7],
    /// The kingdoms that fell, in order.
    pub falls: Vec<FallMark>,
    /// The largest swings, largest first.
    pub turning_points: Vec<TurningPoint>,
    /// The end of the game, if it is over: the winner and how.
    pub outcome: Option<String>,
}

/// Each kingdom's chances in `pos`, by kingdom index: its player's chance to win by the
/// evaluation, as the model fitted on self-play games reads it (`qiguo_ai::chances`; kingdoms of
/// one player share it; 0 for kingdoms out of the game).
pub fn chances(pos: &Position) -> [f64; 7] {
    FITTED.kingdom_chances(pos, None)
}

/// The largest swings of `series` (each kingdom's chance after each move, index 0 the start)
/// over `game`'s moves, largest first: at each move the kingdom of `present` whose chance moved
/// most, and by how much. The report's come from the evaluation; the window's, once the game
/// is reviewed, from the review's chances (averaged over a round, as its chart draws them).
pub fn turning_points(series: &[[f64; 7]], game: &Game, present: &[Kingdom]) -> Vec<TurningPoint> {
    let mut swings: Vec<TurningPoint> = Vec::new();
    for ((i, pair), report) in series.windows(2).enumerate().zip(game.reports()) {
        let Some(&k) = present.iter().max_by(|a, b| {
            let d = |k: &Kingdom| (pair[1][k.index()] - pair[0][k.index()]).abs();
            d(a).total_cmp(&d(b))
        }) else {
            continue;
        };
        swings.push(TurningPoint {
            ply: i + 1,
            mv: report.mv.to_string(),
            mover: report.mover,
            kingdom: k,
            swing: pair[1][k.index()] - pair[0][k.index()],
        });
    }
    swings.sort_by(|a, b| {
        b.swing
            .abs()
            .total_cmp(&a.swing.abs())
            .then(a.ply.cmp(&b.ply))
    });
    swings.truncate(TURNING_POINTS);
    swings
}

/// Material on the board by kingdom index, in pawns.
fn material(pos: &Position) -> [f64; 7] {
    let mut out = [0.0; 7];
    for (_, piece) in pos.pieces() {
        out[piece.kingdom.index()] += f64::from(piece_value(piece.kind)) / 100.0;
    }
    out
}

impl GameReport {
    /// The report of `game`, with the hints per kingdom index.
    pub fn of(game: &Game, hints: [u32; 7]) -> GameReport {
        let start = game.start_position();
        let present: Vec<Kingdom> = Kingdom::ALL
            .into_iter()
            .filter(|k| start.standing(*k) != Standing::Absent)
            .collect();
        let mut positions = Vec::with_capacity(game.len() + 1);
        let mut pos = start.clone();
        positions.push((material(&pos), chances(&pos)));
        let mut falls = Vec::new();
        for (i, report) in game.reports().enumerate() {
            pos.make(report.mv);
            positions.push((material(&pos), chances(&pos)));
            if let Some(fallen) = &report.fallen {
                let victor = match fallen.standing {
                    Standing::Beaten { victor, .. } => Some(victor),
                    Standing::Conceded { victor } => victor,
                    _ => None,
                };
                falls.push(FallMark {
                    ply: i + 1,
                    kingdom: fallen.kingdom,
                    victor,
                    changed_hands: fallen.transferred_to.is_some(),
                });
            }
        }
        let end = game.position();
        let kingdoms = present
            .iter()
            .map(|&k| KingdomSeries {
                kingdom: k,
                material: positions.iter().map(|(m, _)| m[k.index()]).collect(),
                chances: positions.iter().map(|(_, c)| c[k.index()]).collect(),
                captures: end.captures(k),
                losses: end.losses(k),
                hints: hints[k.index()],
                standing: Tr::default().standing(end.standing(k)),
            })
            .collect();
        let mut taken = [[0; 7]; 7];
        for a in Kingdom::ALL {
            for b in Kingdom::ALL {
                taken[a.index()][b.index()] = end.captured_from(a, b);
            }
        }
        let series: Vec<[f64; 7]> = positions.iter().map(|(_, c)| *c).collect();
        let swings = turning_points(&series, game, &present);
        GameReport {
            moves: game.len(),
            kingdoms,
            taken,
            falls,
            turning_points: swings,
            outcome: end.outcome().map(outcome_words),
        }
    }

    /// The report of a saved record.
    pub fn of_record(record: &Record) -> Result<GameReport, qiguo_rules::RecordError> {
        Ok(GameReport::of(&record.replay()?, record.hints_by_kingdom()))
    }

    /// The report as plain text, for the command line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} moves", self.moves);
        if let Some(outcome) = &self.outcome {
            let _ = writeln!(out, "{outcome}");
        }
        let _ = writeln!(
            out,
            "\n{:<6} {:>8} {:>8} {:>8} {:>7} {:>7} {:>6}  standing",
            "", "material", "(start)", "chances", "took", "lost", "hints"
        );
        for k in &self.kingdoms {
            let _ = writeln!(
                out,
                "{:<6} {:>8.0} {:>8.0} {:>7.0}% {:>7} {:>7} {:>6}  {}",
                k.kingdom.title(),
                k.material.last().copied().unwrap_or(0.0),
                k.material.first().copied().unwrap_or(0.0),
                100.0 * k.chances.last().copied().unwrap_or(0.0),
                k.captures,
                k.losses,
                k.hints,
                k.standing
            );
        }
        if !self.falls.is_empty() {
            let _ = writeln!(out, "\nfalls:");
            for f in &self.falls {
                let _ = writeln!(
                    out,
                    "  move {:>4}: {} {}",
                    f.ply,
                    f.kingdom.title(),
                    match (f.victor, f.changed_hands) {
                        (Some(v), true) => format!("falls; its army goes to {}", v.title()),
                        (Some(v), false) => format!("falls to {}; its army leaves", v.title()),
                        (None, _) => "falls; its army leaves".to_owned(),
                    }
                );
            }
        }
        if !self.turning_points.is_empty() {
            let _ = writeln!(out, "\nturning points:");
            for t in &self.turning_points {
                let _ = writeln!(
                    out,
                    "  move {:>4}: {} {} — {} {:+.0}%",
                    t.ply,
                    t.mover.title(),
                    t.mv,
                    t.kingdom.title(),
                    100.0 * t.swing
                );
            }
        }
        out
    }
}

fn outcome_words(outcome: Outcome) -> String {
    format!(
        "{} wins ({})",
        outcome.winner.title(),
        Tr::default().victory(outcome.victory)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Move, Preset, Rules, notation};

    /// A short classic game: Qin's chancellor takes Chu's swordsman, then Chu concedes.
    fn known_game() -> Game {
        let mut game = Game::new(
            Position::from_fen(
                "19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR1rS5oQ10/19/19/12oG6/5rQ4rG3bGbQ3 w",
                Rules::preset(Preset::Classic),
            )
            .unwrap(),
        );
        for mv in ["a5c5", "concede"] {
            game.play(notation::parse_move(mv).unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn the_series_follow_the_game_move_by_move() {
        let game = known_game();
        let report = GameReport::of(&game, [2, 0, 0, 0, 0, 0, 0]);
        assert_eq!(report.moves, 2);
        let names: Vec<_> = report.kingdoms.iter().map(|k| k.kingdom).collect();
        assert_eq!(
            names,
            [Kingdom::Qin, Kingdom::Chu, Kingdom::Han, Kingdom::Qi]
        );
        let qin = &report.kingdoms[0];
        let chu = &report.kingdoms[1];
        // One value per position: the start and after each move.
        assert_eq!(qin.material.len(), 3);
        // Qin: a chancellor (5); Chu: a swordsman (1) and a go-between (0.6), then only the
        // go-between, then nothing (conceded, removed under classic).
        assert_eq!(qin.material, [5.0, 5.0, 5.0]);
        assert_eq!(chu.material, [1.6, 0.6, 0.0]);
        assert_eq!((qin.captures, chu.losses, qin.hints), (1, 1, 2));
        // Chances add up to one among the kingdoms in the game, and Chu's are gone at the end.
        for ply in 0..3 {
            let sum: f64 = report.kingdoms.iter().map(|k| k.chances[ply]).sum();
            assert!((sum - 1.0).abs() < 1e-9, "ply {ply}: {sum}");
        }
        assert_eq!(chu.chances[2], 0.0);
        assert_eq!(report.taken[Kingdom::Qin.index()][Kingdom::Chu.index()], 1);
        assert_eq!(
            report.falls,
            [FallMark {
                ply: 2,
                kingdom: Kingdom::Chu,
                victor: Some(Kingdom::Qin),
                changed_hands: false
            }]
        );
        assert_eq!(chu.standing, "conceded (to Qin)");
        // The largest swing is Chu's concession.
        let first = &report.turning_points[0];
        assert_eq!((first.ply, first.mv.as_str()), (2, "concede"));
        assert!(report.turning_points.len() <= TURNING_POINTS);
        // Another series over the same moves (a review's) names its own swings: here Qi's jump
        // at the first move.
        let mut series = [[0.25, 0.25, 0.25, 0.25, 0.0, 0.0, 0.0]; 3];
        series[1][Kingdom::Qi.index()] = 0.65;
        series[2][Kingdom::Qi.index()] = 0.6;
        let present: Vec<Kingdom> = report.kingdoms.iter().map(|k| k.kingdom).collect();
        let searched = turning_points(&series, &game, &present);
        assert_eq!(
            (searched[0].ply, searched[0].kingdom, searched[0].mover),
            (1, Kingdom::Qi, Kingdom::Qin)
        );
        assert!((searched[0].swing - 0.4).abs() < 1e-9);
        assert_eq!(searched.len(), 2);
        assert!(
            report
                .text()
                .contains("move    2: Chu falls to Qin; its army leaves")
        );
        // A finished game gives the winner all the chances.
        let mut done = Position::from_fen(
            "wR1rQ16/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 w",
            Rules::default(),
        )
        .unwrap();
        done.play(Move::new("a19".parse().unwrap(), "c19".parse().unwrap()))
            .unwrap();
        assert_eq!(chances(&done)[Kingdom::Qin.index()], 1.0);
    }
}
