//! Ratings for games of two to seven sides: Weng and Lin's Bayesian approximation of a
//! finishing order, with the Bradley-Terry model of every pair (R. C. Weng and C.-J. Lin, "A
//! Bayesian Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 1). A person's
//! skill is a belief: a mean `mu` and an uncertainty `sigma`. A game's order is read as the
//! result of every pair of sides (ahead, tied or behind); each mean moves by how surprising
//! those results were given everyone's means, and each uncertainty shrinks by how much they
//! told.
//!
//! Why all pairs rather than the Plackett-Luce model of a whole order (the OpenSkill
//! libraries' default): allies who win together share the first place, and Plackett-Luce's
//! treatment of a shared place moves two winners no more than the side that came third (four
//! equal sides placed 1, 1, 3, 4: the first three each gain a quarter of a unit of surprise,
//! the last loses three quarters, worked out by hand); and it told so little per game that a
//! rating stayed provisional for 182 seven-player games (measured with it, as the test below
//! measures this model). All pairs rank tied winners above the rest
//! and settle a rating in twelve seven-player games.
//!
//! Written here rather than taken from a crate (`skillratings` has this model): a person who
//! took over a kingdom mid-game is rated for the share of its turns they played, a weight on
//! the update as the OpenSkill libraries weigh a player's part in a team's result, and
//! computers are fixed sides that anchor the scale. The update is forty lines, checked against
//! figures worked out by hand in the tests.
//!
//! Pure: no database, no clock, no dependencies (the server keeps the ratings and decides the
//! places; clients show them). Computers anchor the scale: their ratings are fixed per level
//! and no game changes them.

/// A rating: the mean and the uncertainty (a standard deviation) of a belief about a skill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The skill believed most likely.
    pub mu: f64,
    /// How unsure that is.
    pub sigma: f64,
}

/// A new person's mean.
pub const MU: f64 = 25.0;
/// A new person's uncertainty.
pub const SIGMA: f64 = MU / 3.0;
/// How far one game's performance strays from a skill (the same for everyone).
pub const BETA: f64 = SIGMA / 2.0;
/// The least a game leaves of an uncertainty's variance (a factor), so that it never reaches
/// zero.
const KAPPA: f64 = 1e-4;
/// Added to an uncertainty before each game, since skills change: a rating never stops
/// moving.
pub const TAU: f64 = MU / 300.0;
/// A rating is provisional while its uncertainty is above this (a third of a new person's).
pub const PROVISIONAL_ABOVE: f64 = SIGMA / 3.0;
/// Points shown per unit of `mu`: a new person shows 1500.
const SHOWN_PER_MU: f64 = 60.0;

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            mu: MU,
            sigma: SIGMA,
        }
    }
}

impl Rating {
    /// The figure shown beside a name: the mean on a scale where a new person has 1500.
    pub fn shown(self) -> i64 {
        (self.mu * SHOWN_PER_MU).round() as i64
    }

    /// Whether too few games are known for the figure to mean much (shown with a `?`).
    pub fn provisional(self) -> bool {
        self.sigma > PROVISIONAL_ABOVE
    }
}

/// One side of a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// The side's rating before the game.
    pub rating: Rating,
    /// Its place: 1 for the first. Sides with the same place tied (allies who won together).
    pub place: u8,
    /// The share of the game its person played, from 0 to 1: 1 for the whole game; for a
    /// person who took the kingdom over mid-game, the share of its turns they played. Values
    /// outside are taken as the nearest end.
    pub weight: f64,
    /// A computer: its rating anchors the scale and the game does not change it.
    pub fixed: bool,
}

/// The ratings after a game: each side's new rating, in the order given. A fixed side keeps
/// its rating; a game of fewer than two sides changes nothing.
pub fn rate(sides: &[Placed]) -> Vec<Rating> {
    rate_with(sides, TAU)
}

/// [`rate`], each uncertainty first widened by `tau` (no widening for fixed sides).
fn rate_with(sides: &[Placed], tau: f64) -> Vec<Rating> {
    let before: Vec<Rating> = sides
        .iter()
        .map(|side| match side.fixed {
            true => side.rating,
            false => Rating {
                mu: side.rating.mu,
                sigma: side.rating.sigma.hypot(tau),
            },
        })
        .collect();
    sides
        .iter()
        .zip(&before)
        .enumerate()
        .map(|(i, (side, &Rating { mu, sigma }))| {
            if side.fixed || sides.len() < 2 {
                return side.rating;
            }
            let variance = sigma * sigma;
            // Against every other side: how much better (or worse) this side did than its
            // chance of finishing ahead said, and how much that told.
            let (mut surprise, mut told) = (0.0, 0.0);
            for (q, other) in sides.iter().enumerate() {
                if q == i {
                    continue;
                }
                let them = before[q];
                let c = (variance + them.sigma * them.sigma + 2.0 * BETA * BETA).sqrt();
                let ahead = 1.0 / (1.0 + ((them.mu - mu) / c).exp());
                let score = match side.place.cmp(&other.place) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                surprise += variance / c * (score - ahead);
                told += (sigma / c) * variance / (c * c) * ahead * (1.0 - ahead);
            }
            let weight = side.weight.clamp(0.0, 1.0);
            let kept = (1.0 - weight * told).max(KAPPA);
            Rating {
                mu: mu + weight * surprise,
                sigma: (variance * kept).sqrt(),
            }
        })
        .collect()
}

/// A puzzle tried, as a game of two sides: the solver and the puzzle, the one ahead that got its
/// way (the solver if it solved it). Both ratings move, the puzzle's as a person's does: a puzzle
/// that many solve comes down, one that few solve goes up. Returns the solver's and the
/// puzzle's ratings after it.
pub fn attempt(solver: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let (solver_place, puzzle_place) = if solved { (1, 2) } else { (2, 1) };
    let after = rate(&[
        Placed {
            rating: solver,
            place: solver_place,
            weight: 1.0,
            fixed: false,
        },
        Placed {
            rating: puzzle,
            place: puzzle_place,
            weight: 1.0,
            fixed: false,
        },
    ]);
    (after[0], after[1])
}

impl Rating {
    /// A new rating whose figure shows `shown` (a puzzle's first guess), as unsure as a new
    /// person's.
    pub fn from_shown(shown: i64) -> Rating {
        Rating {
            mu: shown as f64 / SHOWN_PER_MU,
            sigma: SIGMA,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(place: u8) -> Placed {
        Placed {
            rating: Rating::default(),
            place,
            weight: 1.0,
            fixed: false,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// Two new people, one game, worked out by hand: c² = 2 (σ² + β²) = 2 (625/9 + 625/36) =
    /// 3125/18, c = 13.17616…; equal strengths, so the winner was expected with p = ½. The
    /// winner's mean moves by σ²/c · (1 − ½) = 2.63523…, the loser's by as much down; each
    /// variance is kept at 1 − (σ/c)(σ²/c²)(½ · ½) = 0.93675…, σ = 8.06551….
    #[test]
    fn two_new_people_move_apart_by_hand_worked_figures() {
        let after = rate_with(&[person(1), person(2)], 0.0);
        let c = (2.0 * (SIGMA * SIGMA + BETA * BETA)).sqrt();
        let moved = SIGMA * SIGMA / c * 0.5;
        assert!(close(after[0].mu, MU + moved), "{after:?}");
        assert!(close(after[1].mu, MU - moved), "{after:?}");
        assert!(close(after[0].mu, 27.63523138347365), "{after:?}");
        let kept = 1.0 - (SIGMA / c) * (SIGMA * SIGMA / (c * c)) * 0.25;
        assert!(close(after[0].sigma, (SIGMA * SIGMA * kept).sqrt()));
        assert!(close(after[0].sigma, 8.065506316323548), "{after:?}");
        assert!(close(after[1].sigma, after[0].sigma));
    }

    /// Three new people placed 1, 2, 3, by hand: each pair as the two above (c = 13.17616…,
    /// an even chance), so the first gains twice 2.63523…, the second gains and loses as much,
    /// the third loses twice; each variance keeps 1 − 2 · 0.06325… of itself.
    #[test]
    fn three_new_people_by_hand_worked_figures() {
        let after = rate_with(&[person(1), person(2), person(3)], 0.0);
        assert!(close(after[0].mu, 30.2704627669473), "{after:?}");
        assert!(close(after[1].mu, MU), "{after:?}");
        assert!(close(after[2].mu, 19.7295372330527), "{after:?}");
        for r in &after {
            assert!(close(r.sigma, 7.788474807872566), "{after:?}");
        }
    }

    /// Seven new people in a full order: the means are spread in the order's direction, the
    /// first up most and the last down most, and they still average 25 (what one gains another
    /// loses when all are alike).
    #[test]
    fn a_full_order_of_seven_spreads_the_means_in_order() {
        let sides: Vec<Placed> = (1..=7).map(person).collect();
        let after = rate_with(&sides, 0.0);
        for pair in after.windows(2) {
            assert!(pair[0].mu > pair[1].mu, "{after:?}");
        }
        assert!(after[0].mu > MU && after[6].mu < MU);
        let mean = after.iter().map(|r| r.mu).sum::<f64>() / 7.0;
        assert!(close(mean, MU), "{mean}");
        for r in &after {
            assert!(r.sigma < SIGMA, "every game tells something: {r:?}");
        }
    }

    /// Allies who win together share the first place: they move alike.
    #[test]
    fn a_shared_place_moves_the_sharers_alike() {
        let sides = [person(1), person(1), person(3), person(4)];
        let after = rate_with(&sides, 0.0);
        assert!(close(after[0].mu, after[1].mu) && close(after[0].sigma, after[1].sigma));
        assert!(after[1].mu > after[2].mu && after[2].mu > after[3].mu);
    }

    /// A computer keeps its rating; the person who beat it gains more than for beating an
    /// equal, and a weaker computer gives less than a stronger one.
    #[test]
    fn computers_anchor_and_a_stronger_one_is_worth_more() {
        let computer = |mu: f64| Placed {
            rating: Rating { mu, sigma: 1.0 },
            place: 2,
            weight: 1.0,
            fixed: true,
        };
        let weak = rate_with(&[person(1), computer(15.0)], 0.0);
        let strong = rate_with(&[person(1), computer(35.0)], 0.0);
        assert_eq!(weak[1], computer(15.0).rating);
        assert_eq!(strong[1], computer(35.0).rating);
        assert!(strong[0].mu - MU > weak[0].mu - MU);
        assert!(weak[0].mu > MU);
    }

    /// A person who played a part of a kingdom's game moves by that part: none for nothing,
    /// less for a half than for all of it.
    #[test]
    fn a_part_played_moves_by_its_share() {
        let with = |weight: f64| {
            let mut late = person(1);
            late.weight = weight;
            rate_with(&[late, person(2), person(3)], 0.0)[0]
        };
        let (none, half, whole) = (with(0.0), with(0.5), with(1.0));
        assert_eq!(none, Rating::default());
        assert!(MU < half.mu && half.mu < whole.mu);
        assert!(close(half.mu - MU, (whole.mu - MU) / 2.0));
        assert!(whole.sigma < half.sigma && half.sigma < SIGMA);
        // Out of range is the nearest end.
        assert_eq!(with(-3.0), none);
        assert_eq!(with(7.0), whole);
    }

    #[test]
    fn a_game_of_one_changes_nothing_and_tau_widens_before() {
        let alone = [person(1)];
        assert_eq!(rate(&alone), vec![Rating::default()]);
        // With tau, the uncertainty before the game is wider, so the game moves it more.
        let plain = rate_with(&[person(1), person(2)], 0.0);
        let widened = rate(&[person(1), person(2)]);
        assert!(widened[0].mu > plain[0].mu);
    }

    /// How many seven-player games among people alike it takes to stop being provisional,
    /// finishing in every place in turn: twelve.
    #[test]
    fn a_rating_stops_being_provisional_after_twelve_games() {
        let mut ratings = [Rating::default(); 7];
        let mut games = 0;
        while ratings[0].provisional() {
            let sides: Vec<Placed> = (0..7)
                .map(|i| Placed {
                    rating: ratings[i],
                    // Each finishes in every place in turn.
                    place: ((i + games) % 7 + 1) as u8,
                    weight: 1.0,
                    fixed: false,
                })
                .collect();
            let after = rate(&sides);
            ratings.copy_from_slice(&after);
            games += 1;
            assert!(games < 200, "never settles: {:?}", ratings[0]);
        }
        assert_eq!(games, 12);
    }

    #[test]
    fn the_figure_shown_is_sixty_a_point_and_provisional_while_unsure() {
        assert_eq!(Rating::default().shown(), 1500);
        assert!(Rating::default().provisional());
        let settled = Rating {
            mu: 30.0,
            sigma: 2.0,
        };
        assert_eq!(settled.shown(), 1800);
        assert!(!settled.provisional());
    }

    #[test]
    fn a_puzzle_solved_lifts_its_solver_and_lowers_it_and_a_miss_the_other_way() {
        let solver = Rating::default();
        let hard = Rating::from_shown(1800);
        assert_eq!(hard.shown(), 1800);
        let (won, eased) = attempt(solver, hard, true);
        assert!(
            won.mu > solver.mu && eased.mu < hard.mu,
            "{won:?} {eased:?}"
        );
        let (lost, hardened) = attempt(solver, hard, false);
        assert!(
            lost.mu < solver.mu && hardened.mu > hard.mu,
            "{lost:?} {hardened:?}"
        );
        // Solving a hard puzzle tells more than failing it: the gain is the larger move.
        assert!(won.mu - solver.mu > solver.mu - lost.mu);
        assert!(won.sigma < solver.sigma && lost.sigma < solver.sigma);
    }
}
