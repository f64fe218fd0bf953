//! Training the learned correction to the evaluation ([`qiguo_ai::net`], `qiguo-train-net`)
//! on the positions of self-play games.
//!
//! The prediction is the fit's ([`crate::eval_fit`]): each player's chance is a softmax over
//! the players in the game of its score per thousand centipawns (one scale for each size of
//! table) and of how many turns it waits, the scales and turns fitted first to the hand-set
//! evaluation. The network adds its correction to each player's score, and is trained to make
//! the games' winners likelier: the mean log-likelihood of the winner, by gradient (Adam, on
//! batches of positions, on every core), in floating point. A position's pieces and who holds
//! what are read once ([`NetSample::of`]); the hand-set scores too.
//!
//! The network found is kept in whole numbers for the engine ([`Trainer::to_net`]): the input
//! weights and biases at 1/[`ONE`], the output in centipawns. Games are held out by number, and
//! the training keeps the network of the epoch that predicted the held-out games best.

use qiguo_ai::net::{FEATURES, KINDS, Layout, MAX_HIDDEN, Net, ONE, POINTS, RELATIONS, feature};

/// The inputs' shared weights: one set for each relation and kind.
const SHARED: usize = RELATIONS * KINDS;
use qiguo_rules::random::SplitMix64;
use qiguo_rules::{PieceKind, Position};

use crate::eval_fit::{EvalSample, PARAMETERS};
use crate::positions::{GameRecord, ReplayError};

/// One position of a won game, read for the training.
#[derive(Clone, Debug)]
pub struct NetSample {
    eval: EvalSample,
    /// Each player's score by the hand-set evaluation (filled in by [`NetSample::score_by`]).
    base: [f64; 7],
    /// Each piece: its point, kind (as `PieceKind as usize - 1`) and kingdom, packed.
    pieces: Vec<u16>,
    /// Each player's relation to each kingdom ([`Layout::relations`]).
    relations: [[u8; 7]; 7],
}

/// Packs a piece: point (9 bits), kind (4 bits), kingdom (3 bits).
fn pack(point: usize, kind: PieceKind, kingdom: usize) -> u16 {
    (point | (kind as usize - 1) << 9 | kingdom << 13) as u16
}

fn unpack(packed: u16) -> (usize, PieceKind, usize) {
    let p = usize::from(packed);
    (p & 511, PieceKind::ALL[(p >> 9) & 15], p >> 13)
}

impl NetSample {
    /// `pos` read for the training, with the game's `winner` (a player); `None` when the
    /// winner is out of the game there (as [`EvalSample::of`]).
    pub fn of(pos: &Position, winner: usize) -> Option<NetSample> {
        let eval = EvalSample::of(pos, winner)?;
        let pieces = pos
            .pieces()
            .map(|(point, piece)| pack(point.index(), piece.kind, piece.kingdom.index()))
            .collect();
        Some(NetSample {
            eval,
            base: [0.0; 7],
            pieces,
            relations: Layout::of(pos).relations(),
        })
    }

    /// The hand-set evaluation's scores by the fit's parameters `p`, kept for the training.
    pub fn score_by(&mut self, p: &[f64; PARAMETERS]) {
        self.base = self.eval.player_scores(p);
    }

    /// What the evaluation's fit reads of the position.
    pub fn eval(&self) -> &EvalSample {
        &self.eval
    }

    /// The inputs set for player `p`.
    fn features(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let relations = self.relations[p];
        self.pieces.iter().map(move |&packed| {
            let (point, kind, kingdom) = unpack(packed);
            feature(usize::from(relations[kingdom]), kind, point)
        })
    }
}

/// The positions of `games` with a winner, every `every`-th, without those where the search's
/// value and the hand-set evaluation differ by more than `quiet` centipawns (as
/// [`crate::eval_fit::samples`] chooses them).
pub fn samples(
    games: &[GameRecord],
    every: usize,
    quiet: i32,
) -> Result<Vec<NetSample>, ReplayError> {
    crate::eval_fit::quiet_positions(games, every, quiet, NetSample::of)
}

/// A network in training: its weights in floating point, with Adam's moments.
#[derive(Clone, Debug)]
pub struct Trainer {
    hidden: usize,
    /// The chances' parameters (the fit's), the scales and turns used in the prediction.
    chances: [f64; PARAMETERS],
    /// Input weights, `FEATURES × hidden`, a clipped unit's 1.0 being 1.
    w: Vec<f32>,
    /// The weights each input shares with the inputs of its relation and kind at every point
    /// (`RELATIONS × KINDS × hidden`): NNUE's factoriser. A piece's worth wherever it stands is
    /// learned from every position, and what a point adds to it from the positions with a
    /// piece there; the engine's network has them added into each input's weights.
    k: Vec<f32>,
    b: Vec<f32>,
    /// Output weights, in thousands of centipawns.
    o: Vec<f32>,
    moments: Vec<(Vec<f32>, Vec<f32>)>,
    steps: i32,
}

/// The gradient of the negative mean log-likelihood, by each weight.
#[derive(Clone, Debug)]
struct Grads {
    w: Vec<f32>,
    k: Vec<f32>,
    b: Vec<f32>,
    o: Vec<f32>,
}

impl Grads {
    fn zeros(hidden: usize) -> Grads {
        Grads {
            w: vec![0.0; FEATURES * hidden],
            k: vec![0.0; SHARED * hidden],
            b: vec![0.0; hidden],
            o: vec![0.0; hidden],
        }
    }

    fn clear(&mut self) {
        self.w.iter_mut().for_each(|g| *g = 0.0);
        self.k.iter_mut().for_each(|g| *g = 0.0);
        self.b.iter_mut().for_each(|g| *g = 0.0);
        self.o.iter_mut().for_each(|g| *g = 0.0);
    }
}

impl Trainer {
    /// A network of `hidden` units to train with the chances' parameters `chances`, its input
    /// weights drawn small from `seed` and its output 0 (it starts as the hand-set
    /// evaluation).
    ///
    /// # Panics
    /// If `hidden` is 0 or above [`MAX_HIDDEN`].
    pub fn new(hidden: usize, chances: [f64; PARAMETERS], seed: u64) -> Trainer {
        assert!((1..=MAX_HIDDEN).contains(&hidden), "{hidden} hidden units");
        let mut rng = SplitMix64::new(seed);
        let mut uniform =
            |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let w = (0..FEATURES * hidden).map(|_| uniform(0.01)).collect();
        let k = (0..SHARED * hidden).map(|_| uniform(0.05)).collect();
        let b = (0..hidden).map(|_| 0.5 + uniform(0.25)).collect();
        Trainer {
            hidden,
            chances,
            w,
            k,
            b,
            o: vec![0.0; hidden],
            moments: [FEATURES * hidden, SHARED * hidden, hidden, hidden]
                .iter()
                .map(|&n| (vec![0.0; n], vec![0.0; n]))
                .collect(),
            steps: 0,
        }
    }

    /// Each player's correction in `s` (thousands of centipawns), with the hidden units.
    fn forward(&self, s: &NetSample, units: &mut [f32]) -> [f32; 7] {
        let h = self.hidden;
        let alive = s.eval.alive();
        let mut out = [0.0; 7];
        for p in (0..7).filter(|&p| alive[p]) {
            let acc = &mut units[p * h..(p + 1) * h];
            acc.copy_from_slice(&self.b);
            for f in s.features(p) {
                let shared = &self.k[f / POINTS * h..(f / POINTS + 1) * h];
                for ((a, w), k) in acc.iter_mut().zip(&self.w[f * h..(f + 1) * h]).zip(shared) {
                    *a += w + k;
                }
            }
            out[p] = acc
                .iter()
                .zip(&self.o)
                .map(|(a, o)| a.clamp(0.0, 1.0) * o)
                .sum();
        }
        out
    }

    /// The winner's log-likelihood in `s`, and with `grads` the negative's gradient added.
    fn sample(&self, s: &NetSample, units: &mut [f32], grads: Option<&mut Grads>) -> f64 {
        let delta = self.forward(s, units);
        let alive = s.eval.alive();
        let scores: [f64; 7] = std::array::from_fn(|p| s.base[p] + 1000.0 * f64::from(delta[p]));
        let chances = s.eval.chances_of(&self.chances, &scores);
        let ll = chances[s.eval.winner].max(1e-300).ln();
        if let Some(g) = grads {
            let h = self.hidden;
            let scale = s.eval.scale_of(&self.chances);
            for p in (0..7).filter(|&p| alive[p]) {
                // d(-ll)/d z_p = chance - [p won]; z_p = scale · (score_p / 1000) + turn, and
                // the correction is in thousands of centipawns.
                let won = if p == s.eval.winner { 1.0 } else { 0.0 };
                let d = (scale * (chances[p] - won)) as f32;
                if d == 0.0 {
                    continue;
                }
                let acc = &units[p * h..(p + 1) * h];
                let mut back = vec![0.0f32; h];
                for j in 0..h {
                    let a = acc[j];
                    g.o[j] += d * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        back[j] = d * self.o[j];
                        g.b[j] += back[j];
                    }
                }
                for f in s.features(p) {
                    for (gw, bj) in g.w[f * h..(f + 1) * h].iter_mut().zip(&back) {
                        *gw += bj;
                    }
                    let shared = f / POINTS;
                    for (gk, bj) in g.k[shared * h..(shared + 1) * h].iter_mut().zip(&back) {
                        *gk += bj;
                    }
                }
            }
        }
        ll
    }

    /// The winners' mean log-likelihood over `samples`, on `threads` threads.
    pub fn mean_log_likelihood(&self, samples: &[NetSample], threads: usize) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let chunk = samples.len().div_ceil(threads.max(1));
        let total: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut units = vec![0.0; 7 * self.hidden];
                        part.iter()
                            .map(|s| self.sample(s, &mut units, None))
                            .sum::<f64>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panics in the training"))
                .sum()
        });
        total / samples.len() as f64
    }

    /// One epoch over `samples` in batches of `batch`, in an order drawn from `seed`, at the
    /// learning rate `rate`, the weights decaying by `decay` times the rate each step (Adam's
    /// decoupled weight decay: a weight the data does not hold up goes back to 0), on `threads`
    /// threads. Returns the mean log-likelihood seen.
    pub fn epoch(
        &mut self,
        samples: &[NetSample],
        batch: usize,
        (rate, decay): (f32, f32),
        threads: usize,
        seed: u64,
    ) -> f64 {
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        let mut rng = SplitMix64::new(seed);
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let threads = threads.max(1);
        let mut grads: Vec<Grads> = (0..threads).map(|_| Grads::zeros(self.hidden)).collect();
        let mut total = 0.0;
        for part in order.chunks(batch.max(1)) {
            let chunk = part.len().div_ceil(threads);
            let this = &*self;
            let lls: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = part
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .map(|(indices, g)| {
                        scope.spawn(move || {
                            g.clear();
                            let mut units = vec![0.0; 7 * this.hidden];
                            indices
                                .iter()
                                .map(|&i| this.sample(&samples[i as usize], &mut units, Some(g)))
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("no panics in the training"))
                    .collect()
            });
            total += lls.iter().sum::<f64>();
            let used = part.chunks(chunk).count();
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                add_into(&mut first[0].w, &other.w);
                add_into(&mut first[0].k, &other.k);
                add_into(&mut first[0].b, &other.b);
                add_into(&mut first[0].o, &other.o);
            }
            let n = part.len() as f32;
            self.adam(&first[0], rate, decay, n);
        }
        total / samples.len().max(1) as f64
    }

    /// One step of Adam along `g` (summed over `n` positions), the weights (not the biases)
    /// decaying by `decay`.
    fn adam(&mut self, g: &Grads, rate: f32, decay: f32, n: f32) {
        self.steps += 1;
        let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - beta1.powi(self.steps);
        let c2 = 1.0 - beta2.powi(self.steps);
        // The shared weights and the output decay a hundredth as fast as the points' own: they
        // are learned from every position.
        let params = [
            (&mut self.w, decay),
            (&mut self.k, decay / 100.0),
            (&mut self.b, 0.0),
            (&mut self.o, decay / 100.0),
        ];
        for (((p, decay), grad), (m, v)) in params
            .into_iter()
            .zip([&g.w, &g.k, &g.b, &g.o])
            .zip(&mut self.moments)
        {
            let keep = 1.0 - rate * decay;
            for i in 0..p.len() {
                p[i] *= keep;
                let gi = grad[i] / n;
                m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
                v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
                p[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
    }

    /// The network in the engine's whole numbers.
    pub fn to_net(&self) -> Net {
        let q = ONE as f32;
        Net::new(
            self.hidden,
            self.w
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    let (f, j) = (i / self.hidden, i % self.hidden);
                    let shared = self.k[f / POINTS * self.hidden + j];
                    ((w + shared) * q).round().clamp(-32767.0, 32767.0) as i16
                })
                .collect(),
            self.b.iter().map(|b| (b * q).round() as i32).collect(),
            self.o.iter().map(|o| o * 1000.0).collect(),
            0.0,
        )
    }

    /// The correction for `player` in `s` as the training computes it (in floating point), in
    /// centipawns: the player's less the others'.
    pub fn correction(&self, s: &NetSample, player: usize) -> f64 {
        let mut units = vec![0.0; 7 * self.hidden];
        let delta = self.forward(s, &mut units);
        let alive = s.eval.alive();
        (0..7)
            .filter(|&p| alive[p])
            .map(|p| 1000.0 * f64::from(if p == player { delta[p] } else { -delta[p] }))
            .sum()
    }
}

fn add_into(to: &mut [f32], from: &[f32]) {
    for (a, b) in to.iter_mut().zip(from) {
        *a += b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval_fit;
    use qiguo_ai::eval::{self, Weights};
    use qiguo_rules::{Rules, Seats};

    /// Positions of a game of captures, each labelled by the player with the most material
    /// then: a rule the network can learn.
    fn labelled() -> (Vec<NetSample>, Vec<Position>) {
        let mut pos = Position::start_with(Rules::default(), Seats::seven());
        let (mut out, mut kept) = (Vec::new(), Vec::new());
        let mut n = 0;
        while !pos.is_over() && n < 400 {
            let (scores, alive) = eval::player_scores(&pos);
            let best = (0..7).filter(|&p| alive[p]).max_by_key(|&p| scores[p]);
            if let Some(s) = best.and_then(|best| NetSample::of(&pos, best)) {
                out.push(s);
                kept.push(pos.clone());
            }
            let moves = pos.legal_moves();
            let capture = moves
                .iter()
                .filter(|_| n % 3 == 0)
                .find(|m| m.to().and_then(|to| pos.piece_at(to)).is_some());
            pos.make(capture.copied().unwrap_or(moves[(n * 7) % moves.len()]));
            n += 1;
        }
        let p = eval_fit::parameters_of(&Weights::HAND);
        for s in &mut out {
            s.score_by(&p);
        }
        (out, kept)
    }

    #[test]
    fn training_makes_the_winners_likelier() {
        let (samples, _) = labelled();
        assert!(samples.len() > 100, "{} positions", samples.len());
        let mut trainer = Trainer::new(8, eval_fit::parameters_of(&Weights::HAND), 1);
        let before = trainer.mean_log_likelihood(&samples, 2);
        for epoch in 0..4 {
            trainer.epoch(&samples, 32, (0.01, 0.0), 2, epoch);
        }
        let after = trainer.mean_log_likelihood(&samples, 2);
        assert!(after > before + 0.01, "before {before}, after {after}");
    }

    /// The engine's network, in whole numbers, corrects as the training's floating point
    /// does, within rounding.
    #[test]
    fn the_engine_s_network_corrects_as_trained() {
        let (samples, positions) = labelled();
        let mut trainer = Trainer::new(6, eval_fit::parameters_of(&Weights::HAND), 2);
        trainer.epoch(&samples, 16, (0.02, 0.0), 1, 9);
        let net = trainer.to_net();
        let mut largest = 0.0f64;
        for (s, pos) in samples.iter().zip(&positions).step_by(9) {
            let acc = net.refresh(pos);
            for player in 0..7u8 {
                if !s.eval.alive()[usize::from(player)] {
                    continue;
                }
                let float = trainer.correction(s, usize::from(player));
                let whole = f64::from(net.correction(&acc, player));
                largest = largest.max(float.abs());
                assert!(
                    (float - whole).abs() <= 2.0 + float.abs() * 0.01,
                    "player {player}: {float} and {whole}"
                );
            }
        }
        assert!(largest > 1.0, "the network learned nothing: {largest}");
    }
}
