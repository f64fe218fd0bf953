//! Fitting the players' chances ([`qiguo_ai::chances`]) to self-play games: the weights that
//! make the games' real winners likeliest (maximum likelihood, by Newton's method: the
//! likelihood of a softmax whose inputs are linear in the weights is concave, so the one
//! maximum is found in a few steps), and how well a model's chances match what happened
//! (calibration in ten bins, and the mean log-likelihood of the winner), measured on games
//! kept out of the fit.

use qiguo_ai::chances::{ChanceModel, Features, WEIGHTS};

use crate::positions::{GameRecord, ReplayError};

/// One position of a game that was won, and its winner.
#[derive(Clone, Debug)]
pub struct Sample {
    /// What the model reads of the position.
    pub features: Features,
    /// The player who won the game.
    pub winner: usize,
}

/// The positions of `games` that have a winner, every `every`-th move (the position before it,
/// with what the search said there); a game's last position, decided, is left out.
pub fn samples(games: &[GameRecord], every: usize) -> Result<Vec<Sample>, ReplayError> {
    let mut out = Vec::new();
    for game in games {
        let Some(winner) = game.player else {
            continue;
        };
        let positions = game.positions()?;
        for (pos, searched) in positions.iter().step_by(every.max(1)) {
            if pos.is_over() {
                continue;
            }
            let features = Features::of(pos, *searched);
            // A winner already out of the game in this position cannot be read (its army went
            // to another's hands and came back); such positions teach nothing here.
            if features.alive[winner as usize] {
                out.push(Sample {
                    features,
                    winner: winner as usize,
                });
            }
        }
    }
    Ok(out)
}

/// The mean log-likelihood of the winners under `model` (0 is certainty; a coin among seven is
/// `-ln 7`, about -1.95).
pub fn mean_log_likelihood(model: &ChanceModel, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| model.of_features(&s.features)[s.winner].max(1e-300).ln())
        .sum();
    total / samples.len() as f64
}

/// The mean log-likelihood of the winners when every player in the game is as likely.
pub fn uniform_log_likelihood(samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| -(s.features.alive.iter().filter(|a| **a).count() as f64).ln())
        .sum();
    total / samples.len() as f64
}

/// A fitted model and how the fit went.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The weights found.
    pub model: ChanceModel,
    /// Newton's steps taken.
    pub steps: usize,
    /// The mean log-likelihood of the samples fitted on, at the weights found.
    pub log_likelihood: f64,
}

/// How much the fit pulls the weights towards 0, per sample: enough to keep a weight whose
/// feature never varies (a turn distance no sample has) finite, too little to move the others.
const RIDGE: f64 = 1e-6;

/// The weights that make `samples`' winners likeliest, from `start`; `fixed` weights (by index)
/// keep their value in `start` (a model without the search's term keeps it at 0).
pub fn fit(samples: &[Sample], start: ChanceModel, fixed: &[usize]) -> Fitted {
    let n = samples.len().max(1) as f64;
    let free: Vec<usize> = (0..WEIGHTS).filter(|i| !fixed.contains(i)).collect();
    let objective = |w: &[f64; WEIGHTS]| {
        let ridge: f64 = free.iter().map(|&i| w[i] * w[i]).sum::<f64>() * RIDGE / 2.0;
        mean_log_likelihood(&ChanceModel::from_weights(*w), samples) - ridge
    };
    let mut w = start.weights();
    let mut value = objective(&w);
    let mut steps = 0;
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(samples, &w, n);
        // The ridge's part.
        let mut g: Vec<f64> = free.iter().map(|&i| gradient[i] - RIDGE * w[i]).collect();
        let mut h: Vec<Vec<f64>> = free
            .iter()
            .map(|&i| {
                free.iter()
                    .map(|&j| hessian[i][j] - if i == j { RIDGE } else { 0.0 })
                    .collect()
            })
            .collect();
        // Newton's step: solve -H d = g.
        for row in &mut h {
            for x in row.iter_mut() {
                *x = -*x;
            }
        }
        let Some(step) = solve(&mut h, &mut g) else {
            break;
        };
        // Halved until the likelihood grows (it does at once near the maximum).
        let mut scale = 1.0;
        let mut improved = false;
        for _ in 0..30 {
            let mut next = w;
            for (k, &i) in free.iter().enumerate() {
                next[i] += scale * step[k];
            }
            let v = objective(&next);
            if v >= value {
                let size: f64 = step.iter().map(|d| (d * scale).abs()).fold(0.0, f64::max);
                w = next;
                value = v;
                improved = size > 1e-9;
                break;
            }
            scale /= 2.0;
        }
        steps += 1;
        if !improved {
            break;
        }
    }
    let model = ChanceModel::from_weights(w);
    Fitted {
        model,
        steps,
        log_likelihood: mean_log_likelihood(&model, samples),
    }
}

/// The gradient and the Hessian of the mean log-likelihood at weights `w`.
fn derivatives(
    samples: &[Sample],
    w: &[f64; WEIGHTS],
    n: f64,
) -> ([f64; WEIGHTS], [[f64; WEIGHTS]; WEIGHTS]) {
    let model = ChanceModel::from_weights(*w);
    let mut gradient = [0.0; WEIGHTS];
    let mut hessian = [[0.0; WEIGHTS]; WEIGHTS];
    for s in samples {
        let p = model.of_features(&s.features);
        let mut mean = [0.0; WEIGHTS];
        for (player, x) in s.features.players.iter().enumerate() {
            for i in 0..WEIGHTS {
                mean[i] += p[player] * x[i];
            }
        }
        let won = &s.features.players[s.winner];
        for i in 0..WEIGHTS {
            gradient[i] += (won[i] - mean[i]) / n;
        }
        for (player, x) in s.features.players.iter().enumerate() {
            if p[player] == 0.0 {
                continue;
            }
            for i in 0..WEIGHTS {
                for j in 0..WEIGHTS {
                    hessian[i][j] -= p[player] * (x[i] - mean[i]) * (x[j] - mean[j]) / n;
                }
            }
        }
    }
    (gradient, hessian)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when `a` is singular.
fn solve(a: &mut [Vec<f64>], b: &mut [f64]) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-15 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// One bin of a calibration table: the chances given between `from` and `to`, how many, their
/// mean, and how often the player they were given to won.
#[derive(Clone, Debug, PartialEq)]
pub struct Bin {
    /// The bin's lowest chance.
    pub from: f64,
    /// Its highest (excluded, but for the last bin).
    pub to: f64,
    /// Chances given in it (a player in a position is one).
    pub count: usize,
    /// Their mean.
    pub predicted: f64,
    /// The share of them whose player won.
    pub observed: f64,
}

/// The chances `model` gives every player in every sample, in ten bins of equal width.
pub fn calibration(model: &ChanceModel, samples: &[Sample]) -> Vec<Bin> {
    let mut sums = [(0usize, 0.0f64, 0usize); 10];
    for s in samples {
        let p = model.of_features(&s.features);
        for (player, &alive) in s.features.alive.iter().enumerate() {
            if !alive {
                continue;
            }
            let bin = ((p[player] * 10.0) as usize).min(9);
            sums[bin].0 += 1;
            sums[bin].1 += p[player];
            sums[bin].2 += usize::from(player == s.winner);
        }
    }
    sums.iter()
        .enumerate()
        .map(|(i, &(count, predicted, won))| Bin {
            from: i as f64 / 10.0,
            to: (i + 1) as f64 / 10.0,
            count,
            predicted: if count > 0 {
                predicted / count as f64
            } else {
                0.0
            },
            observed: if count > 0 {
                won as f64 / count as f64
            } else {
                0.0
            },
        })
        .collect()
}

/// The expected calibration error: the bins' gaps between chance given and share won,
/// weighted by how many chances each holds.
pub fn calibration_error(bins: &[Bin]) -> f64 {
    let total: usize = bins.iter().map(|b| b.count).sum();
    if total == 0 {
        return 0.0;
    }
    bins.iter()
        .map(|b| b.count as f64 * (b.predicted - b.observed).abs())
        .sum::<f64>()
        / total as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator of numbers, the same every run.
    struct Numbers(u64);

    impl Numbers {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Samples whose winners are drawn from `truth`'s chances.
    fn drawn(truth: &ChanceModel, count: usize, seed: u64) -> Vec<Sample> {
        let mut numbers = Numbers(seed);
        (0..count)
            .map(|_| {
                let alive_count = 2 + (numbers.next() * 6.0) as usize;
                let mut players = [[0.0; WEIGHTS]; 7];
                let mut alive = [false; 7];
                for p in 0..alive_count.min(7) {
                    alive[p] = true;
                    players[p][0] = numbers.next() * 4.0 - 2.0;
                    if p == 0 {
                        players[p][1] = numbers.next() * 2.0 - 1.0;
                    } else {
                        players[p][1 + p] = 1.0;
                    }
                    players[p][8] = f64::from(u8::from(numbers.next() < 0.2));
                    players[p][9] = numbers.next().powi(2);
                }
                let features = Features { players, alive };
                let p = truth.of_features(&features);
                let mut draw = numbers.next();
                let mut winner = 0;
                for (player, chance) in p.iter().enumerate() {
                    if alive[player] {
                        winner = player;
                        if draw < *chance {
                            break;
                        }
                        draw -= chance;
                    }
                }
                Sample { features, winner }
            })
            .collect()
    }

    #[test]
    fn the_fit_finds_the_weights_the_winners_were_drawn_by() {
        let truth =
            ChanceModel::from_weights([1.3, 0.8, 0.25, 0.1, 0.0, -0.1, -0.2, -0.3, 1.1, 2.5]);
        let samples = drawn(&truth, 40_000, 7);
        let start = ChanceModel::from_weights([0.0; WEIGHTS]);
        let fitted = fit(&samples, start, &[]);
        for (found, wanted) in fitted.model.weights().iter().zip(truth.weights()) {
            assert!(
                (found - wanted).abs() < 0.1,
                "{:?} against {truth:?}",
                fitted.model
            );
        }
        assert!(fitted.steps < 20, "{} steps", fitted.steps);
        // The truth's own likelihood is no higher than the fit's, on the data fitted.
        assert!(fitted.log_likelihood >= mean_log_likelihood(&truth, &samples) - 1e-9);
        // On other draws, the fitted model is calibrated and beats equal chances.
        let held_out = drawn(&truth, 20_000, 8);
        let bins = calibration(&fitted.model, &held_out);
        assert!(calibration_error(&bins) < 0.02, "{bins:?}");
        assert!(mean_log_likelihood(&fitted.model, &held_out) > uniform_log_likelihood(&held_out));
    }

    #[test]
    fn a_fixed_weight_keeps_its_value() {
        let truth = ChanceModel::from_weights([1.0, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let samples = drawn(&truth, 10_000, 3);
        let fitted = fit(&samples, ChanceModel::from_weights([0.0; WEIGHTS]), &[1]);
        assert_eq!(fitted.model.search, 0.0);
        assert!(
            (fitted.model.score - 1.0).abs() < 0.15,
            "{:?}",
            fitted.model
        );
    }

    #[test]
    fn an_overconfident_model_shows_in_its_bins() {
        let truth = ChanceModel::from_weights([1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let samples = drawn(&truth, 20_000, 5);
        let sharp = ChanceModel::from_weights([4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let bins = calibration(&sharp, &samples);
        let top = bins.last().unwrap();
        assert!(
            top.count > 0 && top.observed < top.predicted - 0.1,
            "{top:?}"
        );
        assert!(calibration_error(&bins) > calibration_error(&calibration(&truth, &samples)));
        assert_eq!(
            bins.iter().map(|b| b.count).sum::<usize>(),
            samples
                .iter()
                .map(|s| s.features.alive.iter().filter(|a| **a).count())
                .sum::<usize>()
        );
    }
}
