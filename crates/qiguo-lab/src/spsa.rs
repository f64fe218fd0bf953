//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992) for the search's
//! constants ([`SearchParams`]), as engines tune theirs: every constant is nudged at once, up or
//! down at random, and two games tell which way is better.
//!
//! Seven kingdoms are not two sides, so an iteration is a pair of games between two teams. The
//! kingdoms are shuffled (by the iteration's seed): three play the constants nudged one way
//! (`θ + cΔ`), three the other way (`θ − cΔ`), the seventh the constants as they stand. The
//! second game replays the first — the same opening, the same seeds — with the two teams'
//! constants swapped, so that a seat's luck counts for both. The iteration's result is the
//! count of games won by `θ + cΔ` less those won by `θ − cΔ` (from −2 to 2; a game won by the
//! seventh seat or capped counts for neither), and each constant moves by
//! `a_k · result / (2 c_k Δ)`, with Spall's gains `a_k = a / (A + k + 1)^0.602` and
//! `c_k = c / (k + 1)^0.101`. The constants are kept as real numbers and played rounded, each
//! within its range.

use qiguo_ai::SearchParams;
use qiguo_rules::random::SplitMix64;

use crate::selfplay::{GameResult, Series};

/// How many constants are tuned.
pub const COUNT: usize = SearchParams::RANGES.len();

/// Spall's exponent of the step's gain.
const ALPHA: f64 = 0.602;
/// Spall's exponent of the perturbation's size.
const GAMMA: f64 = 0.101;

/// How far each constant is nudged in the first iteration, in its own units: one step for the
/// small counts, about a quarter of the hand-set value for the margins.
pub const NUDGE: [f64; COUNT] = [1.0, 1.0, 1.0, 1.0, 20.0, 80.0];

/// What a tuning run is.
#[derive(Clone, Debug)]
pub struct Tuning {
    /// The games' settings: rules (in turn, an iteration's pair under one), the budget, the
    /// opening, the cap, the seed; its levels are all the level tuned, its table seven.
    pub series: Series,
    /// Iterations (pairs of games) to play.
    pub iterations: u32,
    /// Spall's stability constant `A`: a tenth of the iterations is usual.
    pub stability: f64,
    /// The step's scale: a result of one game moves a constant by about `rate · c` in the first
    /// iteration (so `a = rate · c²`, fishtest's `r`).
    pub rate: f64,
}

/// Which constants a kingdom plays in one game of an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Team {
    /// `θ + cΔ`.
    Plus,
    /// `θ − cΔ`.
    Minus,
    /// `θ`, as it stands (the seventh seat).
    Standing,
}

/// One iteration's draw: the direction of each constant's nudge, and each kingdom's team in the
/// first game (swapped in the second).
#[derive(Clone, Debug, PartialEq)]
pub struct Draw {
    /// +1 or −1 for each constant.
    pub delta: [f64; COUNT],
    /// Each kingdom's team in the first game.
    pub teams: [Team; 7],
}

impl Draw {
    /// The draw of iteration `k` of a run seeded `seed`.
    pub fn of(seed: u64, k: u32) -> Draw {
        let mut rng =
            SplitMix64::new(seed ^ (u64::from(k) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut delta = [0.0; COUNT];
        for d in &mut delta {
            *d = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        }
        let mut order: Vec<usize> = (0..7).collect();
        for i in (1..7).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut teams = [Team::Standing; 7];
        for (n, &kingdom) in order.iter().enumerate().take(6) {
            teams[kingdom] = if n < 3 { Team::Plus } else { Team::Minus };
        }
        Draw { delta, teams }
    }

    /// Each kingdom's team in game `second` (false: the first) of the pair.
    pub fn teams_in(&self, second: bool) -> [Team; 7] {
        if !second {
            return self.teams;
        }
        self.teams.map(|team| match team {
            Team::Plus => Team::Minus,
            Team::Minus => Team::Plus,
            Team::Standing => Team::Standing,
        })
    }
}

/// The state of a run: the constants as real numbers, and the iterations played.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct State {
    /// The constants, unrounded, in the order of [`SearchParams::RANGES`].
    pub theta: Vec<f64>,
    /// Iterations played.
    pub iterations: u32,
    /// Games won by `θ + cΔ`, by `θ − cΔ`, by the seventh seat, and capped, so far.
    pub won: [u32; 4],
}

impl State {
    /// A run starting from `params`.
    pub fn from(params: &SearchParams) -> State {
        State {
            theta: params.values().iter().map(|&v| v as f64).collect(),
            iterations: 0,
            won: [0; 4],
        }
    }

    /// The constants as a search plays them: rounded, each within its range.
    pub fn params(&self) -> SearchParams {
        params_at(&self.theta, &[0.0; COUNT], 0.0)
    }
}

/// The constants `theta + sign · c · delta`, rounded and within their ranges.
fn params_at(theta: &[f64], c_delta: &[f64; COUNT], sign: f64) -> SearchParams {
    let mut values = [0i64; COUNT];
    for (i, v) in values.iter_mut().enumerate() {
        *v = (theta[i] + sign * c_delta[i]).round() as i64;
    }
    SearchParams::from_values(values)
}

impl Tuning {
    /// The perturbation's size of each constant in iteration `k`.
    pub fn c(&self, k: u32) -> [f64; COUNT] {
        let shrink = (f64::from(k) + 1.0).powf(GAMMA);
        NUDGE.map(|c| c / shrink)
    }

    /// The step's gain of each constant in iteration `k`.
    pub fn a(&self, k: u32) -> [f64; COUNT] {
        let shrink = (self.stability + f64::from(k) + 1.0).powf(ALPHA);
        let first = (self.stability + 1.0).powf(ALPHA);
        // Scaled so that the first iteration's step for one game is `rate · c`.
        NUDGE.map(|c| 2.0 * self.rate * c * c * first / shrink)
    }

    /// The constants each team plays in iteration `k` with `draw`.
    pub fn teams_params(&self, state: &State, k: u32, draw: &Draw) -> [SearchParams; 3] {
        let c = self.c(k);
        let mut c_delta = [0.0; COUNT];
        for i in 0..COUNT {
            c_delta[i] = c[i] * draw.delta[i];
        }
        [
            params_at(&state.theta, &c_delta, 1.0),
            params_at(&state.theta, &c_delta, -1.0),
            state.params(),
        ]
    }

    /// The state after iteration `k` with `draw` gave `result` (games won by `θ + cΔ` less those
    /// won by `θ − cΔ`): each constant moved by its gradient's estimate, kept within its range.
    pub fn step(&self, state: &State, k: u32, draw: &Draw, result: i32) -> State {
        let (a, c) = (self.a(k), self.c(k));
        let mut next = state.clone();
        for (i, theta) in next.theta.iter_mut().enumerate() {
            let gradient = f64::from(result) / (2.0 * c[i] * draw.delta[i]);
            let (_, low, high) = SearchParams::RANGES[i];
            *theta = (*theta + a[i] * gradient).clamp(low as f64, high as f64);
        }
        next.iterations = k + 1;
        next
    }

    /// Plays iteration `k` from `state` (its two games at once when the series has two threads
    /// or more): the draw, the two games' results, and the state after it.
    pub fn iterate(&self, state: &State, k: u32) -> (Draw, [GameResult; 2], State) {
        let draw = Draw::of(self.series.seed, k);
        let params = self.teams_params(state, k, &draw);
        let play = |second: bool| {
            let teams = draw.teams_in(second);
            self.series
                .play_by(k, |kingdom, engine| {
                    engine.set_params(match teams[kingdom.index()] {
                        Team::Plus => params[0],
                        Team::Minus => params[1],
                        Team::Standing => params[2],
                    })
                })
                .0
        };
        let games = if self.series.threads >= 2 {
            std::thread::scope(|scope| {
                let first = scope.spawn(|| play(false));
                let second = play(true);
                [first.join().expect("a game does not panic"), second]
            })
        } else {
            [play(false), play(true)]
        };
        let mut result = 0;
        let mut next_won = state.won;
        for (second, game) in [false, true].into_iter().zip(&games) {
            let team = winner_team(game, &draw.teams_in(second));
            let (counted, column) = match team {
                Some(Team::Plus) => (1, 0),
                Some(Team::Minus) => (-1, 1),
                Some(Team::Standing) => (0, 2),
                None => (0, 3),
            };
            result += counted;
            next_won[column] += 1;
        }
        let mut next = self.step(state, k, &draw, result);
        next.won = next_won;
        (draw, games, next)
    }
}

/// The team of a game's winner (`None`: capped).
fn winner_team(game: &GameResult, teams: &[Team; 7]) -> Option<Team> {
    game.winner.map(|(kingdom, _)| teams[kingdom.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::Budget;
    use qiguo_ai::Level;
    use qiguo_ai::eval::Weights;
    use qiguo_rules::Rules;

    fn tuning(iterations: u32) -> Tuning {
        Tuning {
            series: Series {
                games: iterations,
                rules: vec![Rules::default()],
                players: vec![7],
                levels: [Level::Hard; 7],
                rotate: false,
                seed: 11,
                budget: Budget::Nodes(Some(400)),
                threads: 2,
                measured_threads: 1,
                max_plies: 30,
                opening: 14,
                ledger: None,
                positions: None,
                measured_weights: Weights::HAND,
                weights: Weights::HAND,
                measured_params: SearchParams::HAND,
                params: SearchParams::HAND,
                measured_net: None,
                net: None,
                afresh: false,
            },
            iterations,
            stability: 10.0,
            rate: 0.5,
        }
    }

    #[test]
    fn a_draw_makes_two_teams_of_three_and_swaps_them_in_the_second_game() {
        for k in 0..50 {
            let draw = Draw::of(3, k);
            let count = |teams: &[Team; 7], t| teams.iter().filter(|&&x| x == t).count();
            assert_eq!(count(&draw.teams, Team::Plus), 3);
            assert_eq!(count(&draw.teams, Team::Minus), 3);
            let second = draw.teams_in(true);
            for (a, b) in draw.teams.iter().zip(&second) {
                match a {
                    Team::Plus => assert_eq!(*b, Team::Minus),
                    Team::Minus => assert_eq!(*b, Team::Plus),
                    Team::Standing => assert_eq!(*b, Team::Standing),
                }
            }
            assert!(draw.delta.iter().all(|d| d.abs() == 1.0));
            assert_eq!(Draw::of(3, k), draw, "the same seed, the same draw");
        }
        // Over many iterations each constant is nudged both ways and every kingdom sits out.
        let draws: Vec<Draw> = (0..200).map(|k| Draw::of(3, k)).collect();
        for i in 0..COUNT {
            let up = draws.iter().filter(|d| d.delta[i] > 0.0).count();
            assert!((60..=140).contains(&up), "constant {i}: {up} of 200 up");
        }
        for kingdom in 0..7 {
            assert!(draws.iter().any(|d| d.teams[kingdom] == Team::Standing));
        }
    }

    #[test]
    fn the_teams_play_the_constants_nudged_both_ways_within_their_ranges() {
        let t = tuning(10);
        let state = State::from(&SearchParams::HAND);
        assert_eq!(state.params(), SearchParams::HAND);
        let draw = Draw {
            delta: [1.0, -1.0, 1.0, -1.0, 1.0, -1.0],
            teams: Draw::of(1, 0).teams,
        };
        let [plus, minus, standing] = t.teams_params(&state, 0, &draw);
        assert_eq!(standing, SearchParams::HAND);
        assert_eq!(plus.quiescence_depth, 7);
        assert_eq!(minus.quiescence_depth, 5);
        assert_eq!(plus.lmr_depth, 1);
        assert_eq!(minus.lmr_depth, 3);
        // lmr_reduction 2 − 1 = 1 and 2 + 1 = 3; repeat_margin 80 ± 20.
        assert_eq!((plus.lmr_reduction, minus.lmr_reduction), (1, 3));
        assert_eq!((plus.repeat_margin, minus.repeat_margin), (100, 60));
        // At the edge of a range the nudge stops there.
        let mut low = State::from(&SearchParams::HAND);
        low.theta[0] = 0.0;
        let [_, minus, _] = t.teams_params(&low, 0, &draw);
        assert_eq!(minus.quiescence_depth, 0);
        assert_eq!(minus.out_of_range(), None);
    }

    #[test]
    fn a_step_follows_the_winning_team_and_shrinks_with_time() {
        let t = tuning(100);
        let state = State::from(&SearchParams::HAND);
        let draw = Draw::of(5, 0);
        // θ + cΔ won both games: every constant moves along Δ; lost both: against it.
        let up = t.step(&state, 0, &draw, 2);
        let down = t.step(&state, 0, &draw, -2);
        for (i, nudge) in NUDGE.iter().enumerate() {
            let moved = (up.theta[i] - state.theta[i]) * draw.delta[i];
            assert!(moved > 0.0, "constant {i}");
            // A result of two games moves a constant by 2 · rate · c in the first iteration.
            assert!((moved - 2.0 * t.rate * nudge).abs() < 1e-9, "{moved}");
            assert!(
                ((down.theta[i] - state.theta[i]) + (up.theta[i] - state.theta[i])).abs() < 1e-9
            );
        }
        assert_eq!(t.step(&state, 0, &draw, 0).theta, state.theta);
        assert_eq!(up.iterations, 1);
        // Later iterations nudge less and step less.
        for i in 0..COUNT {
            assert!(t.c(99)[i] < t.c(0)[i] && t.a(99)[i] < t.a(0)[i]);
        }
        // A step never leaves a range.
        let mut edge = state.clone();
        edge.theta[3] = 4.0;
        let pushed = t.step(
            &edge,
            0,
            &Draw {
                delta: [1.0; COUNT],
                ..draw
            },
            2,
        );
        assert_eq!(pushed.theta[3], 4.0);
    }

    #[test]
    fn an_iteration_plays_two_games_and_counts_them() {
        let t = tuning(1);
        let state = State::from(&SearchParams::HAND);
        let (draw, games, next) = t.iterate(&state, 0);
        assert_eq!(draw, Draw::of(t.series.seed, 0));
        assert_eq!(next.iterations, 1);
        assert_eq!(next.won.iter().sum::<u32>(), 2, "{:?}", next.won);
        assert!(games.iter().all(|g| g.plies <= t.series.max_plies));
        // Thirty moves decide no game here: both capped, nothing learned.
        assert_eq!(next.won[3], 2);
        assert_eq!(next.theta, state.theta);
        // On one thread, the same.
        let one = Tuning {
            series: Series {
                threads: 1,
                ..t.series.clone()
            },
            ..t.clone()
        };
        assert_eq!(one.iterate(&state, 0).2, next);
    }
}
