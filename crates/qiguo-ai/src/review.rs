//! A finished game reviewed: every position searched at a fixed node budget ([`REVIEW_NODES`],
//! the same answer on any machine), each player's chance read from the search by the fitted
//! model ([`crate::chances::FITTED`]), and the moves that cost their player most against the
//! engine's best named ([`Mistake`]).
//!
//! For the move of ply `n` (the `n`th move played), the position before it is searched: the
//! chances there and the engine's best move. The position after the move played is searched in
//! its turn, and so is the position the best move would have made where it was another: the
//! mover's chance in each ([`MoveReview::played_chance`], [`MoveReview::best_chance`]) is read
//! alike, from the position after the move with the search of the player to move next, and the
//! difference is the move's loss. (The mover's chance before the move is no measure of the best:
//! it holds what the mover's own search hoped, which no position after a move holds.) A game of
//! `n` moves costs between `n + 1` searches and twice that.
//!
//! Each position is searched afresh, so that a review is the same however it is done (at once,
//! a step at a time, stopped and started again).
//!
//! A [`Reviewer`] does one position a step, for a caller that stops, reports progress or runs
//! at its own pace (the server's pool, the game's background); [`review`] does them all.
//!
//! ```
//! use qiguo_ai::review::review;
//! use qiguo_rules::{Game, Rules, Seats};
//!
//! let mut game = Game::start(Rules::default(), Seats::default());
//! for _ in 0..3 {
//!     let mv = game.position().legal_moves()[0];
//!     game.play(mv).unwrap();
//! }
//! let reviewed = review(&game, 500);
//! assert_eq!(reviewed.moves.len(), 3);
//! assert!((reviewed.moves[0].chances.iter().sum::<f64>() - 1.0).abs() < 1e-3);
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use qiguo_rules::{Game, Kingdom, Move, Position, Standing};
use serde::{Deserialize, Serialize};

use crate::Level;
use crate::chances::FITTED;
use crate::search::{Engine, Limits};
use crate::tt::TableSize;

/// Positions searched for each position of a reviewed game: half the Medium computer's budget,
/// searched as Hard searches (without Medium's depth cap or Easy's variety, so that their
/// mistakes show; far short of Hard's own budget, so that a game of 400 moves is reviewed in
/// about half a minute of one core).
/// Measured in `docs/performance.md` ("Reviews").
pub const REVIEW_NODES: u64 = 50_000;

/// A move's loss (the mover's chance, from 0 to 1, given up against the engine's best) from
/// which it is an inaccuracy. A game of seven starts each player at a seventh (0.143): the three
/// thresholds are about a fifth, two fifths and three quarters of that, chosen on the losses of
/// self-play games (`docs/computer-players.md`, "Mistakes").
pub const INACCURACY: f64 = 0.03;
/// A move's loss from which it is a mistake (see [`INACCURACY`]).
pub const MISTAKE: f64 = 0.06;
/// A move's loss from which it is a blunder (see [`INACCURACY`]).
pub const BLUNDER: f64 = 0.10;

/// How much less than the engine's best a move tried in place of a mistake may keep and still
/// count as found (*Learn from your mistakes*): less than an inaccuracy's loss, so that a move
/// the review would not have named counts, and the mistake itself never does.
pub const GOOD_ENOUGH: f64 = INACCURACY;

/// One move of a reviewed game. In JSON, moves are written as `qiguo moves` writes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// Which move of the game it is (1 for the first).
    pub ply: usize,
    /// The kingdom that moved.
    pub mover: Kingdom,
    /// The move played.
    #[serde(with = "move_text")]
    pub played: Move,
    /// Each kingdom's chance to win in the position before the move, by kingdom index: its
    /// player's, shared equally among the player's kingdoms in the game (0 for kingdoms out of
    /// the game; the seven sum to 1, each kept to four places as every chance of a review).
    pub chances: [f64; 7],
    /// The engine's best move in the position before it.
    #[serde(with = "move_text")]
    pub best: Move,
    /// The mover's player's chance after the best move (the move played's where it was the
    /// best).
    pub best_chance: f64,
    /// The mover's player's chance after the move played.
    pub played_chance: f64,
}

impl MoveReview {
    /// What the move played gave up against the best, from 0 to 1 (0 when it was the best).
    pub fn loss(&self) -> f64 {
        if self.played == self.best {
            0.0
        } else {
            (self.best_chance - self.played_chance).max(0.0)
        }
    }

    /// How bad a move it was, if it was one of the three.
    pub fn judged(&self) -> Option<MistakeKind> {
        MistakeKind::of_loss(self.loss())
    }
}

/// What kind of mistake a move was (in JSON, its [`MistakeKind::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MistakeKind {
    /// A loss from [`INACCURACY`].
    Inaccuracy,
    /// A loss from [`MISTAKE`].
    Mistake,
    /// A loss from [`BLUNDER`].
    Blunder,
    /// The move of the kingdom's own after which another took its General: the last chance to
    /// save it (whatever its loss).
    Allowed,
    /// Another kingdom's move that took this kingdom's General.
    GeneralTaken,
}

impl MistakeKind {
    /// The kind a move of this loss is, if any.
    pub fn of_loss(loss: f64) -> Option<MistakeKind> {
        if loss >= BLUNDER {
            Some(MistakeKind::Blunder)
        } else if loss >= MISTAKE {
            Some(MistakeKind::Mistake)
        } else if loss >= INACCURACY {
            Some(MistakeKind::Inaccuracy)
        } else {
            None
        }
    }

    /// Its name in the review's JSON (`inaccuracy`, `mistake`, `blunder`, `allowed`,
    /// `general-taken`).
    pub fn name(self) -> &'static str {
        match self {
            MistakeKind::Inaccuracy => "inaccuracy",
            MistakeKind::Mistake => "mistake",
            MistakeKind::Blunder => "blunder",
            MistakeKind::Allowed => "allowed",
            MistakeKind::GeneralTaken => "general-taken",
        }
    }

    /// Whether the kingdom's own move is judged (rather than another's move against it).
    pub fn is_own_move(self) -> bool {
        self != MistakeKind::GeneralTaken
    }
}

/// A move that cost a kingdom, or decided its fate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mistake {
    /// The move's ply (see [`MoveReview::ply`]).
    pub ply: usize,
    /// The kingdom it cost: the mover, or for [`MistakeKind::GeneralTaken`] the kingdom whose
    /// General was taken.
    pub kingdom: Kingdom,
    /// What it was.
    pub kind: MistakeKind,
    /// The kingdom's chance it cost, from 0 to 1: the move's loss; for a General taken, the
    /// kingdom's chance before the capture.
    pub loss: f64,
}

/// A reviewed game: what the server keeps and sends, and `qiguo review --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameReview {
    /// Positions searched for each position.
    pub nodes: u64,
    /// Each move, in order.
    pub moves: Vec<MoveReview>,
    /// Each kingdom's chance at the end (the winner's 1 in a finished game), as in
    /// [`MoveReview::chances`].
    pub last: [f64; 7],
    /// The mistakes and the moves that decided a kingdom's fate, in the order of the game.
    pub mistakes: Vec<Mistake>,
}

impl GameReview {
    /// Each kingdom's chance after `ply` moves (0: the start), as in [`MoveReview::chances`].
    pub fn chances_after(&self, ply: usize) -> Option<[f64; 7]> {
        match self.moves.get(ply) {
            Some(m) => Some(m.chances),
            None if ply == self.moves.len() => Some(self.last),
            None => None,
        }
    }
}

/// What the search of one position found.
#[derive(Clone, Debug)]
struct Searched {
    /// The best move (`None` in a finished game).
    best: Option<Move>,
    /// Each player's chance.
    players: [f64; 7],
    /// Each kingdom's share ([`MoveReview::chances`]).
    kingdoms: [f64; 7],
    /// Each player's chance after the best move, searched in its turn, where the move played
    /// was another.
    after_best: Option<[f64; 7]>,
}

/// A review under way, one position a step.
pub struct Reviewer {
    start: Position,
    moves: Vec<Move>,
    /// The position after `searched.len()` moves, searched next.
    at: Position,
    /// The position before it, searched last.
    before: Position,
    searched: Vec<Searched>,
    nodes: u64,
    engine: Engine,
    /// Set from elsewhere to stop the search under way; a step stopped searches its position
    /// again the next time.
    stop: Option<Arc<AtomicBool>>,
    /// The best move the last search found.
    last_best: Option<Move>,
}

impl Reviewer {
    /// A review of `game` at `nodes` positions a search (one thread, its own table).
    pub fn new(game: &Game, nodes: u64) -> Reviewer {
        Reviewer {
            start: game.start_position().clone(),
            moves: game.moves().collect(),
            at: game.start_position().clone(),
            before: game.start_position().clone(),
            searched: Vec::with_capacity(game.len() + 1),
            nodes,
            engine: review_engine(),
            stop: None,
            last_best: None,
        }
    }

    /// A review whose searches stop at once when `stop` is set (a live game's computer needs
    /// the core): the step under way is thrown away and its position searched again by the
    /// next step, so that what is kept never depends on when a search was stopped.
    pub fn stopped_by(mut self, stop: Arc<AtomicBool>) -> Reviewer {
        self.stop = Some(stop);
        self
    }

    /// Positions searched so far, and in all (the game's moves and one).
    pub fn progress(&self) -> (usize, usize) {
        (self.searched.len(), self.moves.len() + 1)
    }

    /// Whether every position has been searched.
    pub fn is_done(&self) -> bool {
        self.searched.len() > self.moves.len() && self.best_to_search().is_none()
    }

    /// The best move of the position searched last, where it is not the move played there
    /// and the position after it is not searched yet.
    fn best_to_search(&self) -> Option<Move> {
        let last = self.searched.len().checked_sub(1)?;
        let searched = &self.searched[last];
        let played = *self.moves.get(last)?;
        searched
            .best
            .filter(|&best| best != played && searched.after_best.is_none())
    }

    /// Searches the next position (unless the search is stopped: see
    /// [`Reviewer::stopped_by`]); whether one was left to search. Each position of the game is
    /// searched, and after each where the move played was not the engine's best, the position
    /// the best would have made: the mover's chances after either move are read alike.
    pub fn step(&mut self) -> bool {
        if let Some(best) = self.best_to_search() {
            let mut after = self.before.clone();
            let players = match after.play(best) {
                Ok(_) => match self.search(&after) {
                    Some(value) => FITTED.player_chances(&after, value),
                    None => return true,
                },
                // The engine's own move is legal; were it not, the chances before it stand.
                Err(_) => self.searched.last().map_or([0.0; 7], |s| s.players),
            };
            if let Some(last) = self.searched.last_mut() {
                last.after_best = Some(players);
            }
            return true;
        }
        if self.is_done() {
            return false;
        }
        let pos = self.at.clone();
        let Some(value) = self.search(&pos) else {
            return true;
        };
        let players = FITTED.player_chances(&pos, value);
        let kingdoms = kingdom_shares(&pos, &players);
        self.searched.push(Searched {
            best: self.last_best.take(),
            players,
            kingdoms,
            after_best: None,
        });
        self.before = pos;
        if let Some(&mv) = self.moves.get(self.searched.len() - 1) {
            // The record was played by the rules; a move they refuse ends the review there.
            if self.at.play(mv).is_err() {
                self.moves.truncate(self.searched.len() - 1);
            }
        }
        true
    }

    /// Searches `pos` afresh (see [`search_afresh`]), noting the best move; `None` if the
    /// search was stopped.
    fn search(&mut self, pos: &Position) -> Option<Option<i32>> {
        let (value, best) = search_afresh(&mut self.engine, pos, self.nodes, self.stop.as_ref())?;
        self.last_best = best;
        Some(value)
    }

    /// The review, once every position is searched (or what is searched so far).
    pub fn finish(self) -> GameReview {
        let mut pos = self.start;
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut mistakes = Vec::new();
        // Each kingdom's last own move so far, by index in `moves`.
        let mut last_own: [Option<usize>; 7] = [None; 7];
        for (i, &played) in self.moves.iter().enumerate() {
            let (Some(before), Some(after)) = (self.searched.get(i), self.searched.get(i + 1))
            else {
                break;
            };
            let mover = pos.to_move();
            let player = pos.player_of(mover) as usize;
            let best = before.best.unwrap_or(played);
            let played_chance = after.players[player];
            let best_chance = match before.after_best {
                Some(after_best) if best != played => after_best[player],
                _ => played_chance,
            };
            let review = MoveReview {
                ply: i + 1,
                mover,
                played,
                chances: before.kingdoms.map(rounded),
                best,
                best_chance: rounded(best_chance),
                played_chance: rounded(played_chance),
            };
            if let Some(kind) = review.judged() {
                mistakes.push(Mistake {
                    ply: review.ply,
                    kingdom: mover,
                    kind,
                    loss: review.loss(),
                });
            }
            let Ok(report) = pos.play(played) else {
                break;
            };
            if let Some(fallen) = report.fallen.as_ref().filter(|f| {
                matches!(
                    f.standing,
                    Standing::Beaten {
                        general_captured: true,
                        ..
                    }
                ) && f.kingdom != mover
            }) {
                let victim = fallen.kingdom;
                if let Some(j) = last_own[victim.index()] {
                    let own: &MoveReview = &moves[j];
                    // Already named if its loss made it a mistake.
                    if !mistakes
                        .iter()
                        .any(|m: &Mistake| m.ply == own.ply && m.kingdom == victim)
                    {
                        mistakes.push(Mistake {
                            ply: own.ply,
                            kingdom: victim,
                            kind: MistakeKind::Allowed,
                            loss: own.loss(),
                        });
                    }
                }
                mistakes.push(Mistake {
                    ply: i + 1,
                    kingdom: victim,
                    kind: MistakeKind::GeneralTaken,
                    loss: before.kingdoms[victim.index()],
                });
            }
            last_own[mover.index()] = Some(moves.len());
            moves.push(review);
        }
        mistakes.sort_by_key(|m| (m.ply, m.kingdom));
        let last = self
            .searched
            .get(moves.len())
            .map_or([0.0; 7], |s| s.kingdoms.map(rounded));
        GameReview {
            nodes: self.nodes,
            moves,
            last,
            mistakes,
        }
    }
}

/// The engine a review searches with: one thread, its own table of this size (a search's
/// result depends on the table's size, and a move judged later must be searched alike).
fn review_engine() -> Engine {
    Engine::new(TableSize::entries_log2(18))
}

/// Searches `pos` afresh at `nodes` positions, as Hard on one thread (what is found there
/// depends on the position alone, not on the positions searched before it, nor on a search
/// stopped half-way): the value for the chances (`None` inside where nothing was searched: a
/// finished game, a lone move) and the best move; `None` if `stop` was set.
fn search_afresh(
    engine: &mut Engine,
    pos: &Position,
    nodes: u64,
    stop: Option<&Arc<AtomicBool>>,
) -> Option<(Option<i32>, Option<Move>)> {
    let limits = Limits {
        nodes: Some(nodes),
        threads: Some(1),
        stop: stop.cloned(),
        ..Limits::default()
    };
    let result = if pos.is_over() {
        None
    } else {
        engine.clear();
        engine.search(pos, Level::Hard, &limits, 0)
    };
    if stop.is_some_and(|s| s.load(Ordering::Acquire)) {
        return None;
    }
    let best = result.as_ref().map(|r| r.best);
    // A position with one move is not searched (its value says nothing).
    Some((result.filter(|r| r.depth > 0).map(|r| r.score), best))
}

/// The chance of the player moving in `before` after `mv`, read as a review reads a move's
/// (the position after it searched afresh at `nodes`, by the player to move next), to four
/// places: a move tried in place of a mistake is judged against the review's
/// [`MoveReview::best_chance`] with it, and the engine's best gets exactly that. `None` where
/// `mv` is not legal in `before`.
pub fn chance_after(before: &Position, mv: Move, nodes: u64) -> Option<f64> {
    let player = before.player_of(before.to_move()) as usize;
    let mut after = before.clone();
    after.play(mv).ok()?;
    let (value, _) = search_afresh(&mut review_engine(), &after, nodes, None)?;
    Some(rounded(FITTED.player_chances(&after, value)[player]))
}

/// A move as text in JSON (`f3a8`, `--`, `concede`), for every record of this crate that
/// keeps one (reviews, puzzles).
pub(crate) mod move_text {
    use qiguo_rules::Move;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(mv: &Move, out: S) -> Result<S::Ok, S::Error> {
        out.collect_str(mv)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<Move, D::Error> {
        let text = String::deserialize(input)?;
        if text == "concede" {
            return Ok(Move::CONCEDE);
        }
        qiguo_rules::notation::parse_move(&text).map_err(serde::de::Error::custom)
    }
}

/// A chance to four places (a hundredth of a per cent): what a review keeps and sends, a
/// third of the digits, and the same number after JSON and back.
fn rounded(chance: f64) -> f64 {
    (chance * 10_000.0).round() / 10_000.0
}

/// Reviews `game` at `nodes` positions a search, every position at once.
pub fn review(game: &Game, nodes: u64) -> GameReview {
    let mut reviewer = Reviewer::new(game, nodes);
    while reviewer.step() {}
    reviewer.finish()
}

/// Each kingdom's share of its player's chance: a player's shared equally among its kingdoms
/// in the game (the winner's kingdoms in a finished game).
fn kingdom_shares(pos: &Position, players: &[f64; 7]) -> [f64; 7] {
    let holding: Vec<Kingdom> = match pos.outcome() {
        Some(outcome) => Kingdom::ALL
            .into_iter()
            .filter(|&k| pos.player_of(k) == outcome.player && pos.seats().player(k).is_some())
            .collect(),
        None => pos.alive().iter().collect(),
    };
    let mut count = [0u32; 7];
    for &k in &holding {
        count[pos.player_of(k) as usize] += 1;
    }
    let mut out = [0.0; 7];
    for &k in &holding {
        let p = pos.player_of(k) as usize;
        out[k.index()] = players[p] / f64::from(count[p]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{PieceKind, Preset, Rules};

    fn takes_a_general(pos: &Position, mv: Move) -> bool {
        mv.to()
            .and_then(|to| pos.piece_at(to))
            .is_some_and(|p| p.kind == PieceKind::General)
    }

    /// Chu (to move) shields its General with a swordsman from Qin's Chancellor; Qin's General
    /// is far away.
    fn shielded() -> Game {
        let text = format!("18wQ/{}wR18/19/rS18/19/rQ18 r", "19/".repeat(13));
        Game::new(Position::from_fen(&text, Rules::preset(Preset::Classic)).unwrap())
    }

    /// A move of Chu's after which Qin takes its General.
    fn fatal(pos: &Position) -> Move {
        pos.legal_moves()
            .into_iter()
            .find(|&mv| {
                let mut after = pos.clone();
                after.make(mv);
                after
                    .legal_moves()
                    .into_iter()
                    .any(|reply| takes_a_general(&after, reply))
            })
            .expect("a move that opens the file")
    }

    #[test]
    fn every_move_has_chances_that_sum_to_one_and_a_legal_best() {
        let mut game = Game::start(Rules::default(), qiguo_rules::Seats::default());
        for i in 0..10 {
            let moves = game.position().legal_moves();
            game.play(moves[(i * 7) % moves.len()]).unwrap();
        }
        let reviewed = review(&game, 2_000);
        assert_eq!(reviewed.moves.len(), 10);
        assert_eq!(reviewed.nodes, 2_000);
        for (i, m) in reviewed.moves.iter().enumerate() {
            let pos = game.position_at(i);
            assert_eq!(m.ply, i + 1);
            assert_eq!(m.mover, pos.to_move());
            assert!(pos.is_legal(m.best), "ply {}: {}", m.ply, m.best);
            assert!(
                (m.chances.iter().sum::<f64>() - 1.0).abs() < 1e-3,
                "{:?}",
                m.chances
            );
            assert!((0.0..=1.0).contains(&m.best_chance));
            assert!(m.loss() >= 0.0);
        }
        assert_eq!(reviewed.chances_after(0), Some(reviewed.moves[0].chances));
        assert_eq!(reviewed.chances_after(10), Some(reviewed.last));
        assert_eq!(reviewed.chances_after(11), None);
    }

    #[test]
    fn a_general_given_away_is_a_blunder_and_its_capture_is_named() {
        let mut game = shielded();
        let fatal = fatal(game.position());
        game.play(fatal).unwrap();
        let take = game
            .position()
            .legal_moves()
            .into_iter()
            .find(|&mv| takes_a_general(game.position(), mv))
            .unwrap();
        game.play(take).unwrap();
        let reviewed = review(&game, 5_000);
        let first = &reviewed.moves[0];
        assert_eq!(first.mover, Kingdom::Chu);
        assert_ne!(first.best, fatal, "the engine keeps the General covered");
        assert!(
            first.judged() == Some(MistakeKind::Blunder),
            "a loss of {:.3} ({:.3} → {:.3})",
            first.loss(),
            first.best_chance,
            first.played_chance
        );
        // The last move took the General: the game is Qin's.
        assert_eq!(reviewed.last[Kingdom::Qin.index()], 1.0);
        let kinds: Vec<(usize, Kingdom, MistakeKind)> = reviewed
            .mistakes
            .iter()
            .map(|m| (m.ply, m.kingdom, m.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                (1, Kingdom::Chu, MistakeKind::Blunder),
                (2, Kingdom::Chu, MistakeKind::GeneralTaken),
            ]
        );
    }

    #[test]
    fn a_move_judged_alone_keeps_the_chance_its_review_gave_it() {
        let mut game = Game::start(Rules::default(), qiguo_rules::Seats::default());
        for i in 0..6 {
            let moves = game.position().legal_moves();
            game.play(moves[(i * 11) % moves.len()]).unwrap();
        }
        let reviewed = review(&game, 3_000);
        let mut judged_best = 0;
        for m in &reviewed.moves {
            let before = game.position_at(m.ply - 1);
            assert_eq!(
                chance_after(&before, m.played, 3_000),
                Some(m.played_chance),
                "ply {}: {}",
                m.ply,
                m.played
            );
            if m.best != m.played {
                judged_best += 1;
                assert_eq!(
                    chance_after(&before, m.best, 3_000),
                    Some(m.best_chance),
                    "ply {}: {}",
                    m.ply,
                    m.best
                );
            }
        }
        assert!(
            judged_best > 0,
            "moves chosen at random are not all the best"
        );
        // The mistake given away in `shielded` is found worse than the best, past the margin.
        let mut game = shielded();
        let fatal = fatal(game.position());
        game.play(fatal).unwrap();
        let reviewed = review(&game, 5_000);
        let first = &reviewed.moves[0];
        let tried = chance_after(&game.position_at(0), fatal, 5_000).unwrap();
        assert!(tried < first.best_chance - GOOD_ENOUGH, "{tried} {first:?}");
        assert_eq!(
            chance_after(&game.position_at(0), Move::CONCEDE, 5_000).is_some(),
            game.position_at(0).is_legal(Move::CONCEDE)
        );
        let illegal = qiguo_rules::notation::parse_move("j10j11").unwrap();
        assert_eq!(chance_after(&game.position_at(0), illegal, 5_000), None);
    }

    #[test]
    fn a_step_at_a_time_gives_the_same_review() {
        let mut game = shielded();
        // Not the engine's best (which keeps the General covered).
        let mv = fatal(game.position());
        game.play(mv).unwrap();
        let mut reviewer = Reviewer::new(&game, 3_000);
        assert_eq!(reviewer.progress(), (0, 2));
        assert!(reviewer.step());
        assert_eq!(reviewer.progress(), (1, 2));
        // The position after the best move (another than the one played), then the last.
        let mut steps = 1;
        while reviewer.step() {
            steps += 1;
        }
        assert_eq!(
            steps, 3,
            "two positions of the game and the one after the best"
        );
        assert!(reviewer.is_done());
        assert_eq!(reviewer.progress(), (2, 2));
        assert_eq!(reviewer.finish(), review(&game, 3_000));
    }

    #[test]
    fn a_stopped_step_is_searched_again() {
        let mut game = shielded();
        let mv = game.position().legal_moves()[0];
        game.play(mv).unwrap();
        let stop = Arc::new(AtomicBool::new(true));
        let mut reviewer = Reviewer::new(&game, 3_000).stopped_by(stop.clone());
        assert!(reviewer.step());
        assert_eq!(
            reviewer.progress(),
            (0, 2),
            "nothing kept of a stopped search"
        );
        stop.store(false, Ordering::Release);
        while reviewer.step() {}
        assert_eq!(reviewer.finish(), review(&game, 3_000));
    }

    #[test]
    fn a_review_reads_back_from_its_json() {
        let mut game = shielded();
        for _ in 0..2 {
            let mv = game.position().legal_moves()[0];
            game.play(mv).unwrap();
        }
        let reviewed = review(&game, 1_000);
        let text = serde_json::to_string(&reviewed).unwrap();
        assert!(
            text.contains(&format!("\"best\":\"{}\"", reviewed.moves[0].best)),
            "{text}"
        );
        let back: GameReview = serde_json::from_str(&text).unwrap();
        assert_eq!(back, reviewed);
        let kind = serde_json::to_string(&MistakeKind::GeneralTaken).unwrap();
        assert_eq!(kind, "\"general-taken\"");
    }

    #[test]
    fn kinds_follow_the_thresholds_and_names_read_back() {
        assert_eq!(MistakeKind::of_loss(0.0), None);
        assert_eq!(
            MistakeKind::of_loss(INACCURACY),
            Some(MistakeKind::Inaccuracy)
        );
        assert_eq!(MistakeKind::of_loss(MISTAKE), Some(MistakeKind::Mistake));
        assert_eq!(MistakeKind::of_loss(0.9), Some(MistakeKind::Blunder));
        for kind in [
            MistakeKind::Inaccuracy,
            MistakeKind::Mistake,
            MistakeKind::Blunder,
            MistakeKind::Allowed,
            MistakeKind::GeneralTaken,
        ] {
            // The name is the JSON's, both ways.
            let text = format!("\"{}\"", kind.name());
            assert_eq!(serde_json::to_string(&kind).unwrap(), text);
            assert_eq!(serde_json::from_str::<MistakeKind>(&text).unwrap(), kind);
        }
        assert!(serde_json::from_str::<MistakeKind>("\"oops\"").is_err());
    }
}
