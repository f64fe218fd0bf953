//! Static evaluation, in centipawns (a swordsman is 100).
//!
//! Each kingdom in the game scores its material (the 1206 text's values: knight 2; archer,
//! crossbowman, dagger and swordsman 1; cannon 3; diplomat 4; chancellor 5; the General worth the
//! army it carries), minus how close it is to being beaten (losses against the threshold) and
//! an exposed General, plus go-betweens shielding the General and mobility. A player scores its
//! kingdoms and how close it is to winning (captures against the goal, Generals or kingdoms
//! taken). The utility for a player is its score minus the sum of the others'.

use qiguo_rules::{Kingdom, PieceKind, Point, Position};

/// The value of a piece that is not a General, in centipawns.
pub const fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Knight => 200,
        PieceKind::Archer | PieceKind::Crossbowman | PieceKind::Dagger | PieceKind::Swordsman => {
            100
        }
        PieceKind::Cannon => 300,
        PieceKind::Diplomat => 400,
        PieceKind::Chancellor => 500,
        // Never captured, but it blocks, shields and leaves with its army.
        PieceKind::GoBetween => 60,
        // A General's worth is its army's: see `static_score`.
        PieceKind::General => 0,
    }
}

/// The value used to order captures: a General first, above everything.
pub const fn victim_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 10_000,
        other => piece_value(other),
    }
}

/// Kingdoms that can fall before a game is over (seven at the start, at least two at the end):
/// the evaluation's phase runs from none fallen to this many.
const PHASES: i32 = 5;

/// Every weight of the evaluation, in centipawns unless said otherwise. [`Weights::HAND`] are
/// the values set by hand from the 1206 text; the lab fits them to self-play games
/// (`qiguo-fit-eval`, `docs/computer-players.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Weights {
    /// Each piece's value while all seven kingdoms stand, by kind (`kind as usize - 1`, the
    /// order of [`PieceKind::ALL`]); the General's is 0: it carries the army instead.
    pub opening: [i32; 10],
    /// Each piece's value once five kingdoms have fallen; between, in proportion to the
    /// kingdoms fallen (the kingdom phase).
    pub ending: [i32; 10],
    /// Per mille of the army added while one of its Generals stands: losing the General loses
    /// everything.
    pub general_carries: i32,
    /// Per mille of the army lost at the loss threshold, growing with the square of the share of
    /// it reached: nearness to falling puts the whole army at risk.
    pub near_falling: i32,
    /// Per mille of the army lost for each General an enemy could take: the same whoever is to
    /// move, so that leaves at every depth compare (the search sees whether it steps away).
    pub exposed: i32,
    /// For each go-between beside a General (two at most).
    pub shield: i32,
    /// For each legal move of the kingdom's pieces but its Generals and go-betweens (both move
    /// any distance in eight directions: counting theirs paid a General for walking into the
    /// open and a go-between for wandering about, as measured in `docs/computer-players.md`).
    pub mobility: i32,
    /// The player's progress towards the capture goal, by the square of the share taken.
    pub capture_goal: i32,
    /// Each General or kingdom taken towards the kingdom goal.
    pub goal_step: i32,
}

/// The hand-set values of each kind, in the order of [`PieceKind::ALL`].
const HAND_VALUES: [i32; 10] = {
    let mut values = [0; 10];
    let mut i = 0;
    while i < 10 {
        values[i] = piece_value(PieceKind::ALL[i]);
        i += 1;
    }
    values
};

impl Weights {
    /// The weights as set by hand: the 1206 text's piece values in every phase, a General
    /// doubling its army, 60 % of it at risk at the loss threshold, a quarter for an exposed
    /// General, 40 for a shielding go-between, 3 a move, 3,000 for the capture goal and 2,500 a
    /// step of the kingdom goal.
    pub const HAND: Weights = Weights {
        opening: HAND_VALUES,
        ending: HAND_VALUES,
        general_carries: 1000,
        near_falling: 600,
        exposed: 250,
        shield: 40,
        mobility: 3,
        capture_goal: 3_000,
        goal_step: 2_500,
    };

    /// A piece's value with `fallen` kingdoms out of the game (0 to [`PHASES`]), times
    /// [`PHASES`].
    fn value_times_phases(&self, kind: PieceKind, fallen: i32) -> i32 {
        let i = kind as usize - 1;
        self.opening[i] * (PHASES - fallen) + self.ending[i] * fallen
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::HAND
    }
}

/// What the evaluation reads of one kingdom, but its mobility (the costly part, counted apart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingdomTerms {
    /// Its pieces by kind (the order of [`PieceKind::ALL`]).
    pub pieces: [u8; 10],
    /// Whether one of its Generals stands.
    pub general: bool,
    /// Its losses so far, and the losses that beat it.
    pub losses: u32,
    /// The rules' loss threshold.
    pub threshold: u32,
    /// Its Generals an enemy could take.
    pub exposed: u8,
    /// Go-betweens beside its Generals (two at most a General).
    pub shielded: u8,
}

impl KingdomTerms {
    /// What the evaluation reads of kingdom `k` in `pos`.
    pub fn of(pos: &Position, k: Kingdom) -> KingdomTerms {
        let mut terms = KingdomTerms {
            losses: pos.losses(k),
            threshold: u32::from(pos.rules().beaten_at_losses),
            ..KingdomTerms::default()
        };
        let mut generals: [Option<Point>; 4] = [None; 4];
        let mut n_generals = 0;
        let mut go_betweens: [Option<Point>; 4] = [None; 4];
        let mut n_go = 0;
        for (point, piece) in pos.army(k) {
            terms.pieces[piece.kind as usize - 1] += 1;
            match piece.kind {
                PieceKind::General if n_generals < generals.len() => {
                    generals[n_generals] = Some(point);
                    n_generals += 1;
                }
                PieceKind::GoBetween if n_go < go_betweens.len() => {
                    go_betweens[n_go] = Some(point);
                    n_go += 1;
                }
                _ => {}
            }
        }
        terms.general = n_generals > 0;
        let foes = pos.enemies(k);
        for g in generals.iter().flatten() {
            if pos.is_attacked(*g, foes) {
                terms.exposed += 1;
            }
            let near = go_betweens
                .iter()
                .flatten()
                .filter(|gb| {
                    (gb.file() as i32 - g.file() as i32).abs() <= 1
                        && (gb.rank() as i32 - g.rank() as i32).abs() <= 1
                })
                .count();
            terms.shielded += near.min(2) as u8;
        }
        terms
    }

    /// The army's value with `fallen` kingdoms out of the game.
    pub fn army(&self, w: &Weights, fallen: i32) -> i32 {
        let times: i32 = PieceKind::ALL
            .iter()
            .zip(self.pieces)
            .map(|(&kind, n)| i32::from(n) * w.value_times_phases(kind, fallen))
            .sum();
        times / PHASES
    }

    /// The kingdom's score without mobility, with `fallen` kingdoms out of the game.
    pub fn score(&self, w: &Weights, fallen: i32) -> i32 {
        let army = i64::from(self.army(w, fallen));
        let mut score = army;
        if self.general {
            score += army * i64::from(w.general_carries) / 1000;
        }
        let (losses, threshold) = (i64::from(self.losses), i64::from(self.threshold.max(1)));
        score -=
            army * i64::from(w.near_falling) * losses * losses / (1000 * threshold * threshold);
        score -= i64::from(self.exposed) * (army * i64::from(w.exposed) / 1000);
        score += i64::from(w.shield) * i64::from(self.shielded);
        score as i32
    }
}

/// How many kingdoms have fallen in `pos`, as the evaluation's phase (0 to 5).
pub fn fallen(pos: &Position) -> i32 {
    (7 - pos.alive().len() as i32).clamp(0, PHASES)
}

/// Whether one of `k`'s Generals stands where an enemy could take it.
pub fn general_exposed(pos: &Position, k: Kingdom) -> bool {
    let foes = pos.enemies(k);
    pos.army(k)
        .any(|(point, piece)| piece.kind == PieceKind::General && pos.is_attacked(point, foes))
}

/// The legal moves kingdom `k` would have, its Generals' and go-betweens' left out (see
/// [`Weights::mobility`]).
pub fn mobile_moves(pos: &Position, k: Kingdom) -> u32 {
    pos.army(k)
        .filter(|(_, p)| !matches!(p.kind, PieceKind::General | PieceKind::GoBetween))
        .map(|(point, _)| pos.count_moves_from(point))
        .sum::<u64>() as u32
}

/// Each player's score (index = player number), and which players are still in the game, by
/// the hand-set weights.
pub fn player_scores(pos: &Position) -> ([i32; 7], [bool; 7]) {
    player_scores_with(pos, &Weights::HAND)
}

/// Each player's score by the weights `w`, and which players are still in the game.
pub fn player_scores_with(pos: &Position, w: &Weights) -> ([i32; 7], [bool; 7]) {
    scores(pos, w, |_| true)
}

/// The points of the player of kingdom `k` for its progress towards winning by the hand-set
/// weights: its captures against the capture goal (growing with the square of the share taken)
/// and the Generals or kingdoms taken towards the kingdom goal. Part of the player's score.
pub fn progress_score(pos: &Position, k: Kingdom) -> i32 {
    progress_score_with(pos, k, &Weights::HAND)
}

/// The progress towards winning of the player of kingdom `k`, by the weights `w`.
pub fn progress_score_with(pos: &Position, k: Kingdom, w: &Weights) -> i32 {
    let captures = i64::from(pos.player_captures(k));
    let goal = i64::from(pos.rules().capture_goal.max(1));
    (i64::from(w.capture_goal) * captures * captures / (goal * goal)) as i32
        + w.goal_step * pos.kingdom_goal_progress(k) as i32
}

/// Players' scores, with mobility counted only for the kingdoms `mobile` picks.
fn scores(pos: &Position, w: &Weights, mobile: impl Fn(Kingdom) -> bool) -> ([i32; 7], [bool; 7]) {
    let mut scores = [0; 7];
    let mut alive = [false; 7];
    let fallen = fallen(pos);
    for k in pos.alive().iter() {
        let p = pos.player_of(k) as usize;
        if !alive[p] {
            alive[p] = true;
            // The player's progress towards winning, counted once.
            scores[p] += progress_score_with(pos, k, w);
        }
        scores[p] += KingdomTerms::of(pos, k).score(w, fallen);
        if mobile(k) {
            scores[p] += w.mobility * mobile_moves(pos, k) as i32;
        }
    }
    (scores, alive)
}

/// The position's value for `player` by the hand-set weights (see [`evaluate_with`]).
pub fn evaluate(pos: &Position, player: u8) -> i32 {
    evaluate_with(pos, player, &Weights::HAND)
}

/// The position's value for `player` by the weights `w`: its score minus the sum of the other
/// players' scores (as Ludii's BRS+ does). Not for finished games (the search scores those).
/// Only differences between values mean something: at the start it is about minus five armies.
///
/// The sum, not the mean: a piece taken from a rival is then worth to the player what its own
/// piece lost costs it. With the mean, a capture earned a sixth of a loss, and a player that
/// looked ahead (Hard, against the worst of six replies) protected rather than took (measured
/// in `docs/computer-players.md`). Not the strongest other either, whose every change swung
/// the value of all the player's moves alike.
/// Mobility, the costly term, is counted for `player` only.
pub fn evaluate_with(pos: &Position, player: u8, w: &Weights) -> i32 {
    let (base, alive) = scores(pos, w, |k| pos.player_of(k) == player);
    let others: i32 = (0..7u8)
        .filter(|&p| p != player && alive[p as usize])
        .map(|p| base[p as usize])
        .sum();
    base[player as usize] - others
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Preset, Rules};

    fn position(text: &str) -> Position {
        Position::from_fen(text, Rules::preset(Preset::Classic)).unwrap()
    }

    #[test]
    fn the_start_is_even() {
        let pos = Position::start(Rules::default());
        let (scores, alive) = player_scores(&pos);
        assert!(alive.iter().all(|a| *a));
        // Armies are alike; only mobility and shape differ a little.
        let (lo, hi) = (scores.iter().min().unwrap(), scores.iter().max().unwrap());
        assert!(hi - lo < 150, "{scores:?}");
        assert_eq!(piece_value(PieceKind::Chancellor), 500);
    }

    /// A Chancellor taken from a rival is worth to the player what its own Chancellor lost
    /// costs it (up to the lost piece's mobility, counted for the player only): captures are
    /// not cheaper than losses.
    #[test]
    fn a_rival_s_loss_weighs_like_an_own_loss() {
        let rules = Rules::preset(Preset::Classic);
        let start = Position::start(rules);
        let without = |k: Kingdom| {
            let mut setup = start.to_setup();
            let (at, _) = start
                .army(k)
                .find(|(_, p)| p.kind == PieceKind::Chancellor)
                .expect("a Chancellor");
            setup.board.set(at, None);
            Position::new(&setup, rules, *start.seats()).expect("a valid position")
        };
        let qin = |p: &Position| evaluate(p, 0);
        let base = qin(&start);
        let rival_loses = qin(&without(Kingdom::Chu)) - base;
        let own_loss = base - qin(&without(Kingdom::Qin));
        // The General carries the army: a Chancellor counts twice while its General stands.
        assert_eq!(rival_loses, 2 * piece_value(PieceKind::Chancellor));
        assert!(
            (own_loss - rival_loses).abs() <= 60,
            "own loss {own_loss}, rival's {rival_loses}"
        );
    }

    /// The evaluation as it was written before its weights were gathered in [`Weights`]: the
    /// hand-set weights must give the very same values, so that today's computers play as
    /// they did (the lab's fixed opponent).
    fn as_written_by_hand(pos: &Position, player: u8) -> i32 {
        let kingdom = |k: Kingdom, mobile: bool| {
            let army: i32 = pos.army(k).map(|(_, p)| piece_value(p.kind)).sum();
            let generals: Vec<Point> = pos
                .army(k)
                .filter(|(_, p)| p.kind == PieceKind::General)
                .map(|(at, _)| at)
                .collect();
            let go_betweens: Vec<Point> = pos
                .army(k)
                .filter(|(_, p)| p.kind == PieceKind::GoBetween)
                .map(|(at, _)| at)
                .collect();
            let mut score = army + if generals.is_empty() { 0 } else { army };
            let (t, l) = (pos.rules().beaten_at_losses as i32, pos.losses(k) as i32);
            score -= army * 6 * l * l / (10 * t * t);
            for g in &generals {
                if pos.is_attacked(*g, pos.enemies(k)) {
                    score -= army / 4;
                }
                let near = go_betweens
                    .iter()
                    .filter(|gb| {
                        (gb.file() as i32 - g.file() as i32).abs() <= 1
                            && (gb.rank() as i32 - g.rank() as i32).abs() <= 1
                    })
                    .count();
                score += 40 * near.min(2) as i32;
            }
            if mobile {
                score += 3 * mobile_moves(pos, k) as i32;
            }
            score
        };
        let mut scores = [0; 7];
        let mut counted = [false; 7];
        for k in pos.alive().iter() {
            let p = pos.player_of(k) as usize;
            if !counted[p] {
                counted[p] = true;
                let (c, goal) = (
                    pos.player_captures(k) as i32,
                    pos.rules().capture_goal as i32,
                );
                scores[p] +=
                    3_000 * c * c / (goal * goal) + 2_500 * pos.kingdom_goal_progress(k) as i32;
            }
            scores[p] += kingdom(k, pos.player_of(k) == player);
        }
        let others: i32 = (0..7)
            .filter(|&p| p != player as usize)
            .map(|p| scores[p])
            .sum();
        scores[player as usize] - others
    }

    #[test]
    fn the_hand_set_weights_evaluate_as_before() {
        for preset in [Preset::Classic, Preset::Wikipedia, Preset::Leventhal] {
            let mut pos = Position::start(Rules::preset(preset));
            let mut seen = 0;
            while !pos.is_over() && seen < 600 {
                for player in 0..7 {
                    assert_eq!(
                        evaluate(&pos, player),
                        as_written_by_hand(&pos, player),
                        "{preset:?}, player {player}, {}",
                        pos.to_fen()
                    );
                }
                let moves = pos.legal_moves();
                // A capture one move in three, when there is one: losses, fallen kingdoms and
                // exposed Generals come up in a game that lasts.
                let capture = moves
                    .iter()
                    .filter(|_| seen % 3 == 0)
                    .find(|m| m.to().and_then(|to| pos.piece_at(to)).is_some());
                let mv = capture.copied().unwrap_or(moves[seen % moves.len()]);
                pos.make(mv);
                seen += 1;
            }
            assert!(seen > 50, "{preset:?}: a game of {seen} moves");
        }
    }

    #[test]
    fn values_move_with_the_kingdoms_fallen() {
        let mut w = Weights::HAND;
        let knight = PieceKind::Knight as usize - 1;
        w.ending[knight] = 700;
        let terms = KingdomTerms {
            pieces: {
                let mut p = [0; 10];
                p[knight] = 1;
                p
            },
            threshold: 10,
            ..KingdomTerms::default()
        };
        assert_eq!(terms.army(&w, 0), 200);
        assert_eq!(terms.army(&w, 5), 700);
        assert_eq!(terms.army(&w, 2), 400);
        // No General: the army is not doubled; a General doubles it.
        assert_eq!(terms.score(&w, 0), 200);
        let with_general = KingdomTerms {
            general: true,
            ..terms
        };
        assert_eq!(with_general.score(&w, 0), 400);
    }

    #[test]
    fn material_and_an_exposed_general_count() {
        // Qin: General and Chancellor; Chu: General and a swordsman. Chu's General stands on
        // Qin's Chancellor's file: exposed.
        let exposed = position("19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR18/19/19/19/rQ1rS16 w");
        let safe = position("19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR18/19/19/19/1rQrS16 w");
        let qin = |p: &Position| evaluate(p, 0);
        assert!(
            qin(&exposed) > qin(&safe),
            "{} {}",
            qin(&exposed),
            qin(&safe)
        );
        assert!(qin(&safe) > 0, "a Chancellor outweighs a swordsman");
        // The same whoever is to move, so that leaves at odd and even depths compare.
        let chu_to_move =
            position("19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR18/19/19/19/rQ1rS16 r");
        assert_eq!(qin(&chu_to_move), qin(&exposed));
    }
}
