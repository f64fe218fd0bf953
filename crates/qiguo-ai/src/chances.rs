//! Each player's chance to win a position, from the evaluation and, where there is one, a
//! search: a softmax over the players still in the game of a weighted sum of what is known of
//! each — its score by the evaluation ([`player_scores`]) apart from its progress towards winning,
//! that progress (Generals or kingdoms taken, the share of the capture goal), what the search
//! found beyond the evaluation for the player to move, and how many turns it waits before it
//! moves. The weights are fitted by
//! maximum likelihood on positions of self-play games labelled by who won (`qiguo-fit-chances`
//! in the lab; the data, the fit and its calibration on games kept out of it are in
//! `docs/computer-players.md`).
//!
//! ```
//! use qiguo_ai::chances::FITTED;
//! use qiguo_rules::{Position, Rules};
//!
//! let pos = Position::start(Rules::default());
//! let chances = FITTED.player_chances(&pos, None);
//! assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
//! ```

use qiguo_rules::{Kingdom, Position};

use crate::eval::{evaluate, player_scores, progress_score};
use crate::search::WIN;

/// How many weights a model has: the score, the search's finding, six turn distances, the
/// kingdom goal's progress and the capture goal's.
pub const WEIGHTS: usize = 10;

/// What the search may add to the player to move's value, at most, in centipawns (a found win
/// or loss would otherwise swamp the rest).
pub const SEARCH_CAP: i32 = 3_000;

/// A model of the players' chances: the weights of what is known of each player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceModel {
    /// Per thousand centipawns of the player's score apart from its progress towards winning.
    pub score: f64,
    /// Per thousand centipawns the search found for the player to move beyond the evaluation.
    pub search: f64,
    /// For a player who moves `d` turns after the player to move (`turn[d - 1]`, `d` from 1 to
    /// 6; the player to move is the measure, 0).
    pub turn: [f64; 6],
    /// Per General or kingdom taken towards the kingdom goal (of two).
    pub goal: f64,
    /// Per square of the share of the capture goal reached (from 0 to 1).
    pub captures: f64,
}

/// The model fitted on self-play games (see the module's documentation): the weights as the
/// lab's fit printed them, 2026-11-30, on 220 games of Easy and Medium players under `classic`
/// (63,557 positions), measured on 56 others (`docs/computer-players.md`).
pub const FITTED: ChanceModel = ChanceModel {
    score: 0.9855,
    search: 0.7040,
    turn: [0.0635, 0.0746, 0.0654, 0.0608, 0.0609, 0.0156],
    goal: 0.4975,
    captures: 1.9104,
};

/// What the model reads of one position: each player's features, for the players in the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// Each player's features (by player number), in the order of [`ChanceModel::weights`].
    pub players: [[f64; WEIGHTS]; 7],
    /// Which players are still in the game.
    pub alive: [bool; 7],
}

impl Features {
    /// The features of `pos` (a game in progress), with the search's value for the player to
    /// move where a search was made (`searched`: the value [`crate::Engine::search`] gave,
    /// which [`evaluate`] measures too).
    pub fn of(pos: &Position, searched: Option<i32>) -> Features {
        let (scores, alive) = player_scores(pos);
        let mover = pos.to_move();
        let mover_player = pos.player_of(mover) as usize;
        let found = searched.map_or(0, |value| {
            let value = value.clamp(-WIN, WIN);
            (value - evaluate(pos, mover_player as u8)).clamp(-SEARCH_CAP, SEARCH_CAP)
        });
        let wait = turns_to_wait(pos);
        let in_game = pos.alive();
        let mut progress = [0; 7];
        let mut goal = [0.0; 7];
        let mut captures = [0.0; 7];
        for k in in_game.iter() {
            let p = pos.player_of(k) as usize;
            progress[p] = progress_score(pos, k);
            goal[p] = f64::from(pos.kingdom_goal_progress(k));
            let share =
                f64::from(pos.player_captures(k)) / f64::from(pos.rules().capture_goal.max(1));
            captures[p] = share * share;
        }
        let mut players = [[0.0; WEIGHTS]; 7];
        for p in 0..7 {
            if !alive[p] {
                continue;
            }
            let x = &mut players[p];
            x[0] = f64::from(scores[p] - progress[p]) / 1000.0;
            x[8] = goal[p];
            x[9] = captures[p];
            if p == mover_player {
                x[1] = f64::from(found) / 1000.0;
            }
            if (1..=6).contains(&wait[p]) {
                x[1 + wait[p]] = 1.0;
            }
        }
        Features { players, alive }
    }
}

/// How many turns each player (by player number) waits before it moves in `pos`: the kingdoms
/// in the game from the one to move on, in turn order, a player's first kingdom to come
/// counting (0 for the player to move; `usize::MAX` for players out of the game).
pub fn turns_to_wait(pos: &Position) -> [usize; 7] {
    let mut wait = [usize::MAX; 7];
    let in_game = pos.alive();
    let mover = pos.to_move();
    let mut turn = 0;
    for step in 0..7 {
        let k = Kingdom::ALL[(mover.index() + step) % 7];
        if !in_game.contains(k) {
            continue;
        }
        let p = pos.player_of(k) as usize;
        wait[p] = wait[p].min(turn);
        turn += 1;
    }
    wait
}

impl ChanceModel {
    /// The weights in the order of [`Features::players`]' entries.
    pub fn weights(&self) -> [f64; WEIGHTS] {
        let mut w = [0.0; WEIGHTS];
        w[0] = self.score;
        w[1] = self.search;
        w[2..8].copy_from_slice(&self.turn);
        w[8] = self.goal;
        w[9] = self.captures;
        w
    }

    /// The model with these weights (in the order of [`ChanceModel::weights`]).
    pub fn from_weights(w: [f64; WEIGHTS]) -> ChanceModel {
        let mut turn = [0.0; 6];
        turn.copy_from_slice(&w[2..8]);
        ChanceModel {
            score: w[0],
            search: w[1],
            turn,
            goal: w[8],
            captures: w[9],
        }
    }

    /// Each player's chance (by player number; 0 for players out of the game) given what the
    /// model reads of a position.
    pub fn of_features(&self, features: &Features) -> [f64; 7] {
        let w = self.weights();
        let z: [f64; 7] = std::array::from_fn(|p| {
            features.players[p]
                .iter()
                .zip(w)
                .map(|(x, w)| x * w)
                .sum::<f64>()
        });
        let top = (0..7)
            .filter(|&p| features.alive[p])
            .map(|p| z[p])
            .fold(f64::NEG_INFINITY, f64::max);
        let e: [f64; 7] = std::array::from_fn(|p| {
            if features.alive[p] {
                (z[p] - top).exp()
            } else {
                0.0
            }
        });
        let total: f64 = e.iter().sum();
        if total > 0.0 {
            e.map(|x| x / total)
        } else {
            [0.0; 7]
        }
    }

    /// Each player's chance in `pos` (by player number), with the search's value for the player
    /// to move if one was made: the winner's 1 once the game is over.
    pub fn player_chances(&self, pos: &Position, searched: Option<i32>) -> [f64; 7] {
        if let Some(outcome) = pos.outcome() {
            let mut out = [0.0; 7];
            out[outcome.player as usize] = 1.0;
            return out;
        }
        self.of_features(&Features::of(pos, searched))
    }

    /// Each kingdom's chance in `pos` (by kingdom index): its player's (kingdoms of one player
    /// share it; 0 for kingdoms out of the game).
    pub fn kingdom_chances(&self, pos: &Position, searched: Option<i32>) -> [f64; 7] {
        let mut out = [0.0; 7];
        if let Some(outcome) = pos.outcome() {
            for k in Kingdom::ALL {
                if pos.player_of(k) == outcome.player && pos.seats().player(k).is_some() {
                    out[k.index()] = 1.0;
                }
            }
            return out;
        }
        let by_player = self.player_chances(pos, searched);
        for k in pos.alive().iter() {
            out[k.index()] = by_player[pos.player_of(k) as usize];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Preset, Rules};

    fn position(text: &str) -> Position {
        Position::from_fen(text, Rules::preset(Preset::Classic)).unwrap()
    }

    #[test]
    fn chances_sum_to_one_over_the_players_in_the_game() {
        let pos = Position::start(Rules::default());
        for model in [
            FITTED,
            ChanceModel::from_weights([0.7, 0.4, 0.3, 0.2, 0.1, 0.0, -0.1, -0.2, 1.5, 2.0]),
        ] {
            let chances = model.player_chances(&pos, Some(150));
            assert!(
                (chances.iter().sum::<f64>() - 1.0).abs() < 1e-9,
                "{chances:?}"
            );
            assert!(chances.iter().all(|c| *c > 0.0));
        }
        // Two kingdoms left: the others have none.
        let two = position("19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR18/19/19/19/1rQrS16 w");
        let chances = FITTED.player_chances(&two, None);
        assert!((chances[0] + chances[1] - 1.0).abs() < 1e-9, "{chances:?}");
        assert!(chances[2..].iter().all(|c| *c == 0.0));
    }

    #[test]
    fn the_stronger_player_is_likelier_to_win_and_the_search_counts() {
        // Qin: General and Chancellor; Chu: General and a swordsman.
        let pos = position("19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR18/19/19/19/1rQrS16 w");
        let model = ChanceModel::from_weights([1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let plain = model.player_chances(&pos, None);
        assert!(plain[0] > plain[1], "{plain:?}");
        // Qin (to move) found more than the evaluation says, or less.
        let value = evaluate(&pos, 0);
        let better = model.player_chances(&pos, Some(value + 500));
        let worse = model.player_chances(&pos, Some(value - 500));
        assert!(
            better[0] > plain[0] && plain[0] > worse[0],
            "{better:?} {plain:?} {worse:?}"
        );
        // A found win is capped, not a certainty.
        let won = model.player_chances(&pos, Some(WIN));
        assert!(won[0] < 1.0 && won[0] > better[0], "{won:?}");
    }

    #[test]
    fn turns_are_counted_from_the_player_to_move_over_the_kingdoms_in_the_game() {
        let pos = Position::start(Rules::default());
        let features = Features::of(&pos, None);
        // Qin moves: Chu waits one turn, Yan six.
        assert_eq!(features.players[0][2..8], [0.0; 6]);
        assert_eq!(features.players[1][2], 1.0);
        assert_eq!(features.players[6][7], 1.0);
        // The turn weights favour whoever moves sooner when told so.
        let model =
            ChanceModel::from_weights([0.0, 0.0, -0.1, -0.2, -0.3, -0.4, -0.5, -0.6, 0.0, 0.0]);
        let chances = model.of_features(&features);
        assert!(chances.windows(2).all(|w| w[0] > w[1]), "{chances:?}");
    }

    #[test]
    fn a_finished_game_is_the_winner_s() {
        // Qin's Chancellor takes Chu's General, the last kingdom but Qin's.
        let mut pos = position("19/19/19/19/19/19/19/19/19/19/19/19/19/19/wR18/19/19/19/rQ1rS16 w");
        let take = pos
            .legal_moves()
            .into_iter()
            .find(|m| {
                m.to()
                    .and_then(|to| pos.piece_at(to))
                    .is_some_and(|p| p.kind == qiguo_rules::PieceKind::General)
            })
            .expect("the General can be taken");
        pos.make(take);
        let outcome = pos.outcome().expect("the game is over");
        assert_eq!(outcome.winner, Kingdom::Qin);
        let chances = FITTED.player_chances(&pos, None);
        assert_eq!(chances[0], 1.0);
        assert_eq!(chances.iter().sum::<f64>(), 1.0);
        assert_eq!(FITTED.kingdom_chances(&pos, None)[0], 1.0);
    }
}
