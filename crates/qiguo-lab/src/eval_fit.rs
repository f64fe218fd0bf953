//! Fitting every weight of the evaluation at once (`qiguo-fit-eval`), Texel's way: positions of
//! self-play games, each labelled by the game's winner, and the weights that make the winners
//! likeliest — the evaluation's players' scores turned into the seven players' chances by the
//! model the review uses ([`qiguo_ai::chances`]: a softmax over the players in the game of
//! their scores, per thousand centipawns, and of how many turns each waits), its scale and its
//! turns fitted with the weights. Where the evaluation is linear in a weight the fit could be
//! Newton's, as the chances' is; a piece's value is multiplied by its General's standing and its
//! kingdom's nearness to falling, so the fit goes by gradient (Adam, on the whole set each step,
//! each weight in units of its own size).
//!
//! A position is read once ([`EvalSample::of`]): each kingdom's [`KingdomTerms`] and mobility,
//! each player's progress and turn; a step then costs a few hundred multiplications a
//! position. The model here gives, in floating point, what [`qiguo_ai::eval`] gives in integers
//! (checked by a test).

use qiguo_ai::chances::{FITTED, turns_to_wait};
use qiguo_ai::eval::{self, KingdomTerms, Weights};
use qiguo_rules::{PieceKind, Position};

use crate::positions::{GameRecord, ReplayError};

/// The kinds a value is fitted for: all but the General (whose worth is its army's).
const KINDS: usize = 9;

/// How many numbers the fit moves: the evaluation's ([`EVAL_PARAMETERS`]), then the chances'
/// scale for each size of table (3 to 7 players: a player holding three kingdoms scores three
/// armies, and the same difference in centipawns means less), and its six turn weights.
pub const PARAMETERS: usize = EVAL_PARAMETERS + TABLES + 6;

/// The sizes of table, 3 to 7 players.
const TABLES: usize = 5;

/// The evaluation's numbers: two values for each kind but the General's, then the General's
/// carrying, the nearness to falling, the exposed General, the shield, mobility, the capture
/// goal and the kingdom goal.
pub const EVAL_PARAMETERS: usize = 2 * KINDS + 7;

/// The parameters of the chances' scale (per thousand centipawns), for tables of 3 to 7.
const SCALE: usize = EVAL_PARAMETERS;

/// The parameters of the turns' weights, 1 to 6 turns away.
const TURN: usize = SCALE + TABLES;

/// The swordsman's value at the start: the unit the others are measured in, not fitted.
const ANCHOR: usize = PieceKind::Swordsman as usize - 2;

/// The share of the army a standing General adds: not fitted either. A kingdom in the game has
/// a General in every preset (losing the last beats it), so the term is a constant factor on
/// the army's value, which the data cannot tell from the chances' scale.
const GENERAL_CARRIES: usize = 2 * KINDS;

/// The names of the parameters, in order, for reports.
pub fn parameter_names() -> Vec<String> {
    let mut names = Vec::with_capacity(PARAMETERS);
    for phase in ["opening", "ending"] {
        for kind in &PieceKind::ALL[1..] {
            names.push(format!("{phase} {kind:?}"));
        }
    }
    for name in [
        "general carries (‰)",
        "near falling (‰)",
        "exposed (‰)",
        "shield",
        "mobility",
        "capture goal",
        "goal step",
        "chances' scale, 3 players",
        "chances' scale, 4 players",
        "chances' scale, 5 players",
        "chances' scale, 6 players",
        "chances' scale, 7 players",
        "turn 1",
        "turn 2",
        "turn 3",
        "turn 4",
        "turn 5",
        "turn 6",
    ] {
        names.push(name.to_owned());
    }
    names
}

/// The parameters of `w`, with the chances' scale and turns of the review's model.
pub fn parameters_of(w: &Weights) -> [f64; PARAMETERS] {
    let mut p = [0.0; PARAMETERS];
    for i in 0..KINDS {
        p[i] = f64::from(w.opening[i + 1]);
        p[KINDS + i] = f64::from(w.ending[i + 1]);
    }
    let rest = [
        w.general_carries,
        w.near_falling,
        w.exposed,
        w.shield,
        w.mobility,
        w.capture_goal,
        w.goal_step,
    ];
    for (i, v) in rest.iter().enumerate() {
        p[2 * KINDS + i] = f64::from(*v);
    }
    // The review's model reads the score apart from the progress, which it weighs itself; here
    // the progress is in the score, and the fit finds its weight in centipawns.
    p[SCALE..TURN].fill(FITTED.score);
    p[TURN..].copy_from_slice(&FITTED.turn);
    p
}

/// The evaluation's weights in `p`, rounded to whole centipawns (and per mille).
pub fn weights_of(p: &[f64; PARAMETERS]) -> Weights {
    let mut w = Weights::HAND;
    for i in 0..KINDS {
        w.opening[i + 1] = p[i].round() as i32;
        w.ending[i + 1] = p[KINDS + i].round() as i32;
    }
    let r = |i: usize| p[2 * KINDS + i].round() as i32;
    w.general_carries = r(0);
    w.near_falling = r(1);
    w.exposed = r(2);
    w.shield = r(3);
    w.mobility = r(4);
    w.capture_goal = r(5);
    w.goal_step = r(6);
    w
}

/// The size of each parameter, the unit of the fit's steps.
fn sizes() -> [f64; PARAMETERS] {
    let mut s = [100.0; PARAMETERS];
    let rest = [1000.0, 1000.0, 1000.0, 10.0, 1.0, 1000.0, 1000.0];
    s[2 * KINDS..EVAL_PARAMETERS].copy_from_slice(&rest);
    s[SCALE..TURN].fill(1.0);
    for t in &mut s[TURN..] {
        *t = 0.1;
    }
    s
}

/// One kingdom of a position as the fit reads it.
#[derive(Clone, Copy, Debug)]
struct KingdomRead {
    player: u8,
    terms: KingdomTerms,
    /// Its mobile moves.
    moves: u32,
}

/// One position of a won game, read for the fit.
#[derive(Clone, Debug)]
pub struct EvalSample {
    kingdoms: Vec<KingdomRead>,
    /// Kingdoms fallen (the phase).
    fallen: i32,
    /// Each player's progress: the square of its share of the capture goal, and its steps of
    /// the kingdom goal.
    progress: [(f64, f64); 7],
    /// Turns each player waits before it moves (0 for the player to move).
    wait: [u8; 7],
    alive: [bool; 7],
    /// The parameter of the chances' scale for the players at this table.
    scale: usize,
    /// The player who won the game.
    pub winner: usize,
}

impl EvalSample {
    /// `pos` read for the fit, with the game's `winner`; `None` when the winner is out of the
    /// game there (its army went to another's hands and may come back: such positions teach
    /// nothing here).
    pub fn of(pos: &Position, winner: usize) -> Option<EvalSample> {
        let mut alive = [false; 7];
        let mut progress = [(0.0, 0.0); 7];
        let mut kingdoms = Vec::with_capacity(7);
        let in_game = pos.alive();
        for k in in_game.iter() {
            let p = pos.player_of(k);
            if !alive[p as usize] {
                alive[p as usize] = true;
                let share =
                    f64::from(pos.player_captures(k)) / f64::from(pos.rules().capture_goal.max(1));
                progress[p as usize] = (share * share, f64::from(pos.kingdom_goal_progress(k)));
            }
            kingdoms.push(KingdomRead {
                player: p,
                terms: KingdomTerms::of(pos, k),
                moves: eval::mobile_moves(pos, k),
            });
        }
        if !alive[winner] {
            return None;
        }
        let wait = turns_to_wait(pos).map(|w| w.min(usize::from(u8::MAX)) as u8);
        let players = pos.seats().player_count().clamp(3, 7);
        Some(EvalSample {
            scale: SCALE + players - 3,
            kingdoms,
            fallen: eval::fallen(pos),
            progress,
            wait,
            alive,
            winner,
        })
    }

    /// Each player's score by the parameters `p` (the evaluation's, every kingdom's mobility
    /// counted), in centipawns; 0 for players out of the game.
    pub fn player_scores(&self, p: &[f64; PARAMETERS]) -> [f64; 7] {
        self.scores(p, None)
    }

    /// Each player's chance by the parameters `p` when the players score `scores`.
    pub fn chances_of(&self, p: &[f64; PARAMETERS], scores: &[f64; 7]) -> [f64; 7] {
        self.chances(p, scores)
    }

    /// The chances' scale (per thousand centipawns) at this position's table by `p`.
    pub fn scale_of(&self, p: &[f64; PARAMETERS]) -> f64 {
        p[self.scale]
    }

    /// Which players are in the game.
    pub fn alive(&self) -> [bool; 7] {
        self.alive
    }

    /// How many players are in the game.
    pub fn players_in_game(&self) -> usize {
        self.alive.iter().filter(|a| **a).count()
    }

    /// Each player's score by the parameters `p` (the evaluation's [`eval::player_scores_with`]
    /// in floating point), and with `grad` the score's derivative by each of the evaluation's
    /// parameters, added into `grad[player]` times `factor[player]`.
    fn scores(
        &self,
        p: &[f64; PARAMETERS],
        mut grad: Option<(&mut [f64; PARAMETERS], &[f64; 7])>,
    ) -> [f64; 7] {
        let phase = f64::from(self.fallen) / 5.0;
        let mut scores = [0.0; 7];
        let [
            carries,
            near,
            exposed,
            shield,
            mobility,
            capture_goal,
            goal_step,
        ] = [0, 1, 2, 3, 4, 5, 6].map(|i| p[2 * KINDS + i]);
        for k in &self.kingdoms {
            let t = &k.terms;
            let mut army = 0.0;
            for i in 0..KINDS {
                let n = f64::from(t.pieces[i + 1]);
                army += n * (p[i] * (1.0 - phase) + p[KINDS + i] * phase);
            }
            let general = if t.general { 1.0 } else { 0.0 };
            let threshold = f64::from(t.threshold.max(1));
            let q = f64::from(t.losses) * f64::from(t.losses) / (threshold * threshold);
            let x = f64::from(t.exposed);
            let multiplier = 1.0 + (carries * general - near * q - exposed * x) / 1000.0;
            let score =
                army * multiplier + shield * f64::from(t.shielded) + mobility * f64::from(k.moves);
            scores[k.player as usize] += score;
            if let Some((g, factor)) = grad.as_mut() {
                let f = factor[k.player as usize];
                if f != 0.0 {
                    for i in 0..KINDS {
                        let n = f64::from(t.pieces[i + 1]) * multiplier * f;
                        g[i] += n * (1.0 - phase);
                        g[KINDS + i] += n * phase;
                    }
                    g[2 * KINDS] += army * general / 1000.0 * f;
                    g[2 * KINDS + 1] -= army * q / 1000.0 * f;
                    g[2 * KINDS + 2] -= army * x / 1000.0 * f;
                    g[2 * KINDS + 3] += f64::from(t.shielded) * f;
                    g[2 * KINDS + 4] += f64::from(k.moves) * f;
                }
            }
        }
        for player in 0..7 {
            if !self.alive[player] {
                continue;
            }
            let (captures, goal) = self.progress[player];
            scores[player] += capture_goal * captures + goal_step * goal;
            if let Some((g, factor)) = grad.as_mut() {
                g[2 * KINDS + 5] += captures * factor[player];
                g[2 * KINDS + 6] += goal * factor[player];
            }
        }
        scores
    }

    /// Each player's chance by the parameters `p`.
    fn chances(&self, p: &[f64; PARAMETERS], scores: &[f64; 7]) -> [f64; 7] {
        let z: [f64; 7] = std::array::from_fn(|player| {
            if !self.alive[player] {
                return f64::NEG_INFINITY;
            }
            let wait = self.wait[player] as usize;
            let turn = if (1..=6).contains(&wait) {
                p[TURN + wait - 1]
            } else {
                0.0
            };
            p[self.scale] * scores[player] / 1000.0 + turn
        });
        let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e = z.map(|z| if z.is_finite() { (z - top).exp() } else { 0.0 });
        let total: f64 = e.iter().sum();
        e.map(|e| e / total)
    }

    /// The winner's log-likelihood by `p`, and with `grad` its derivative by every parameter
    /// added into it.
    fn log_likelihood(&self, p: &[f64; PARAMETERS], grad: Option<&mut [f64; PARAMETERS]>) -> f64 {
        let scores = self.scores(p, None);
        let chances = self.chances(p, &scores);
        let ll = chances[self.winner].max(1e-300).ln();
        if let Some(g) = grad {
            // d ll / d z_player = [player won] - chance.
            let dz: [f64; 7] = std::array::from_fn(|player| {
                if !self.alive[player] {
                    return 0.0;
                }
                f64::from(u8::from(player == self.winner)) - chances[player]
            });
            for player in 0..7 {
                g[self.scale] += dz[player] * scores[player] / 1000.0;
                let wait = self.wait[player] as usize;
                if (1..=6).contains(&wait) {
                    g[TURN + wait - 1] += dz[player];
                }
            }
            let factor = dz.map(|d| d * p[self.scale] / 1000.0);
            self.scores(p, Some((g, &factor)));
        }
        ll
    }
}

/// The positions of `games` with a winner, every `every`-th, those where the search's value
/// and the hand-set evaluation differ by more than `quiet` centipawns left out (a capture in
/// flight: the evaluation cannot see it, and Texel's fit takes quiet positions only).
pub fn samples(
    games: &[GameRecord],
    every: usize,
    quiet: i32,
) -> Result<Vec<EvalSample>, ReplayError> {
    quiet_positions(games, every, quiet, EvalSample::of)
}

/// What `read` makes of each position of `games` with a winner (and of the winning player),
/// every `every`-th, those within `quiet` centipawns of the search kept (as [`samples`] chooses
/// them); `None`s left out.
pub fn quiet_positions<T>(
    games: &[GameRecord],
    every: usize,
    quiet: i32,
    mut read: impl FnMut(&Position, usize) -> Option<T>,
) -> Result<Vec<T>, ReplayError> {
    let mut out = Vec::new();
    for game in games {
        let Some(winner) = game.player else {
            continue;
        };
        for (pos, searched) in game.positions()?.iter().step_by(every.max(1)) {
            if pos.is_over() {
                continue;
            }
            if let Some(value) = searched {
                let mover = pos.player_of(pos.to_move());
                if (value - eval::evaluate(pos, mover)).abs() > quiet {
                    continue;
                }
            }
            out.extend(read(pos, winner as usize));
        }
    }
    Ok(out)
}

/// The winners' mean log-likelihood over `samples` by the parameters `p` (0 is certainty; a
/// coin among seven is -1.95).
pub fn mean_log_likelihood(p: &[f64; PARAMETERS], samples: &[EvalSample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| s.log_likelihood(p, None))
        .sum::<f64>()
        / samples.len() as f64
}

/// The mean log-likelihood and its gradient over `samples`, on `threads` threads.
fn gradient(
    p: &[f64; PARAMETERS],
    samples: &[EvalSample],
    threads: usize,
) -> (f64, [f64; PARAMETERS]) {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(f64, [f64; PARAMETERS])> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut g = [0.0; PARAMETERS];
                    let ll: f64 = part.iter().map(|s| s.log_likelihood(p, Some(&mut g))).sum();
                    (ll, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panics in the fit"))
            .collect()
    });
    let n = samples.len().max(1) as f64;
    let mut g = [0.0; PARAMETERS];
    let mut ll = 0.0;
    for (part_ll, part_g) in parts {
        ll += part_ll;
        for (a, b) in g.iter_mut().zip(part_g) {
            *a += b;
        }
    }
    (ll / n, g.map(|x| x / n))
}

/// How a fit went.
#[derive(Clone, Debug)]
pub struct EvalFitted {
    /// The parameters found.
    pub parameters: [f64; PARAMETERS],
    /// The mean log-likelihood on the samples fitted on, less the prior's pull, at the start.
    pub before: f64,
    /// At the end.
    pub after: f64,
    /// Steps taken.
    pub steps: usize,
}

/// The parameters that make `samples`' winners likeliest, from `start`, in `steps` steps of
/// Adam; only the parameters `free` picks move (the swordsman's opening value never does: it
/// is the unit; nor does the General's carrying, which the data cannot tell). `prior` pulls the evaluation's parameters towards their values in `start`: the
/// mean log-likelihood loses `prior` times the square of each one's distance from there, in
/// units of its size (a weight that the data hardly tells stays near what it was).
pub fn fit(
    samples: &[EvalSample],
    start: [f64; PARAMETERS],
    free: impl Fn(usize) -> bool,
    prior: f64,
    steps: usize,
    threads: usize,
) -> EvalFitted {
    let sizes = sizes();
    let moving: Vec<bool> = (0..PARAMETERS)
        .map(|i| i != ANCHOR && i != GENERAL_CARRIES && free(i))
        .collect();
    let mut p = start;
    let (mut m, mut v) = ([0.0; PARAMETERS], [0.0; PARAMETERS]);
    let (beta1, beta2) = (0.9, 0.999);
    let mut before = None;
    let mut best = (f64::NEG_INFINITY, p);
    for step in 1..=steps {
        let (mut ll, mut g) = gradient(&p, samples, threads);
        for i in (0..EVAL_PARAMETERS).filter(|&i| moving[i]) {
            let d = (p[i] - start[i]) / sizes[i];
            ll -= prior * d * d;
            g[i] -= 2.0 * prior * d / sizes[i];
        }
        before.get_or_insert(ll);
        if ll > best.0 {
            best = (ll, p);
        }
        // From a tenth of a unit a step down to a hundredth, as the fit settles.
        let rate = 0.1 * (0.1f64).powf(step as f64 / steps as f64);
        for i in 0..PARAMETERS {
            if !moving[i] {
                continue;
            }
            // Ascent in units of the parameter's size.
            let gi = g[i] * sizes[i];
            m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
            v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
            let mh = m[i] / (1.0 - beta1.powi(step as i32));
            let vh = v[i] / (1.0 - beta2.powi(step as i32));
            p[i] += rate * mh / (vh.sqrt() + 1e-12) * sizes[i];
        }
    }
    let last = mean_log_likelihood(&p, samples)
        - (0..EVAL_PARAMETERS)
            .filter(|&i| moving[i])
            .map(|i| prior * ((p[i] - start[i]) / sizes[i]).powi(2))
            .sum::<f64>();
    if last > best.0 {
        best = (last, p);
    }
    EvalFitted {
        parameters: best.1,
        before: before.unwrap_or(last),
        after: best.0,
        steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Rules, Seats};

    /// Positions of a game of captures under `rules`.
    fn positions(rules: Rules, seats: Seats) -> Vec<Position> {
        let mut pos = Position::start_with(rules, seats);
        let mut out = Vec::new();
        let mut n = 0;
        while !pos.is_over() && n < 500 {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            // A capture one move in three, when there is one: a longer game, with losses.
            let capture = moves
                .iter()
                .filter(|_| n % 3 == 0)
                .find(|m| m.to().and_then(|to| pos.piece_at(to)).is_some());
            pos.make(capture.copied().unwrap_or(moves[(n * 7) % moves.len()]));
            n += 1;
        }
        out
    }

    #[test]
    fn the_model_scores_as_the_evaluation_does() {
        let mut w = Weights::HAND;
        w.ending = [0, 450, 380, 250, 60, 90, 110, 120, 100, 260];
        w.near_falling = 450;
        w.mobility = 4;
        let p = parameters_of(&w);
        assert_eq!(weights_of(&p), w);
        let seats = qiguo_rules::Seating::traditional(4)
            .unwrap()
            .seats()
            .unwrap();
        for seats in [Seats::seven(), seats] {
            for pos in positions(Rules::default(), seats).iter().step_by(5) {
                let sample = EvalSample::of(
                    pos,
                    pos.player_of(pos.alive().iter().next().unwrap()) as usize,
                )
                .expect("the winner is in the game");
                let (scores, alive) = eval::player_scores_with(pos, &w);
                let model = sample.scores(&p, None);
                for player in 0..7 {
                    assert_eq!(alive[player], sample.alive[player]);
                    // The evaluation rounds each kingdom's terms down: a few centipawns a
                    // kingdom.
                    assert!(
                        (model[player] - f64::from(scores[player])).abs() <= 12.0,
                        "player {player}: {} and {}, {}",
                        model[player],
                        scores[player],
                        pos.to_fen()
                    );
                }
            }
        }
    }

    #[test]
    fn the_gradient_is_the_slope() {
        let all = positions(Rules::default(), Seats::seven());
        let samples: Vec<EvalSample> = all
            .iter()
            .step_by(7)
            .enumerate()
            .filter_map(|(i, pos)| EvalSample::of(pos, i % 2))
            .collect();
        assert!(samples.len() > 10);
        let mut p = parameters_of(&Weights::HAND);
        // Away from the hand-set values, so that no term's slope is zero by chance.
        p[2 * KINDS + 1] = 500.0;
        p[TURN + 1] = 0.2;
        let (_, g) = gradient(&p, &samples, 2);
        for i in 0..PARAMETERS {
            let h = sizes()[i] * 1e-4;
            let (mut up, mut down) = (p, p);
            up[i] += h;
            down[i] -= h;
            let slope = (mean_log_likelihood(&up, &samples) - mean_log_likelihood(&down, &samples))
                / (2.0 * h);
            let scale = slope.abs().max(g[i].abs()).max(1e-9);
            assert!(
                (slope - g[i]).abs() / scale < 1e-3 || (slope - g[i]).abs() < 1e-10,
                "{}: slope {slope}, gradient {}",
                parameter_names()[i],
                g[i]
            );
        }
    }

    #[test]
    fn the_fit_makes_the_winners_likelier_and_keeps_the_unit() {
        let all = positions(Rules::default(), Seats::seven());
        // Whoever has more material wins: the fit should weigh material more than the start.
        let samples: Vec<EvalSample> = all
            .iter()
            .step_by(3)
            .filter_map(|pos| {
                let (scores, alive) = eval::player_scores(pos);
                let best = (0..7).filter(|&p| alive[p]).max_by_key(|&p| scores[p])?;
                EvalSample::of(pos, best)
            })
            .collect();
        let start = parameters_of(&Weights::HAND);
        let fitted = fit(&samples, start, |_| true, 0.0, 60, 2);
        assert!(fitted.after > fitted.before, "{fitted:?}");
        assert_eq!(fitted.parameters[ANCHOR], 100.0);
        assert_eq!(fitted.parameters[GENERAL_CARRIES], start[GENERAL_CARRIES]);
        // Parameters kept fixed stay.
        let scale_only = fit(&samples, start, |i| i >= EVAL_PARAMETERS, 0.0, 30, 1);
        assert_eq!(
            scale_only.parameters[..EVAL_PARAMETERS],
            start[..EVAL_PARAMETERS]
        );
        assert!(scale_only.after >= scale_only.before);
        // A strong prior keeps the weights near where they were.
        let held = fit(&samples, start, |_| true, 10.0, 60, 2);
        let moved = |p: &[f64; PARAMETERS]| {
            (0..EVAL_PARAMETERS)
                .map(|i| ((p[i] - start[i]) / sizes()[i]).abs())
                .sum::<f64>()
        };
        assert!(moved(&held.parameters) < moved(&fitted.parameters) / 2.0);
    }
}
