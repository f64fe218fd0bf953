//! Best-Reply Search, improved (BRS+), for a seven-kingdom game.
//!
//! Max^n and paranoid search give every opponent a full ply, so with a hundred moves per
//! kingdom the searching player never sees its own second move. Best-Reply Search (Schadd &
//! Winands 2011) lets only one opponent answer between two moves of the searching player — the
//! opponent with the most damaging reply — so the search alternates "our move" and "the best
//! reply". BRS+ (Esser et al. 2013) keeps the real turn order: the opponents that are not
//! searched still move, playing the first move of the move ordering (a capture, a killer, the
//! best by history) instead of passing.
//!
//! Around that: iterative deepening under a time and node budget, alpha-beta, a transposition
//! table on the position's Zobrist hash (which covers the kingdom to move, the owners of the
//! pieces and the capture counters), move ordering (transposition move, captures by
//! most-valuable-victim/least-valuable-attacker with Generals first, two killers per ply, a
//! history table), and a quiescence search over captures.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use web_time::Instant;

use qiguo_rules::random::{SplitMix64, splitmix64};
use qiguo_rules::{Kingdom, Move, Outcome, Piece, PieceKind, Position, Undo};

use crate::eval::{Weights, evaluate_with, general_exposed, victim_value};
use crate::level::LevelSearch;
use crate::net::{Accumulators, Delta, Net};
use crate::params::SearchParams;
use crate::tt::{Bound, Entry, Table, TableSize};
use qiguo_rules::Level;

/// A score beyond any evaluation: a won game (less the moves it takes).
pub const WIN: i32 = 1_000_000;
const INF: i32 = 2 * WIN;
const MAX_PLY: usize = 96;

/// What a search may spend.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock time for the move.
    pub movetime: Option<Duration>,
    /// Positions to visit at most (deterministic, unlike time).
    pub nodes: Option<u64>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Set from elsewhere to stop the search at once (it still returns a move).
    pub stop: Option<Arc<AtomicBool>>,
    /// Threads to search on, from this search on ([`Engine::set_threads`]); `None` keeps the
    /// engine's (one unless set).
    pub threads: Option<usize>,
}

/// The threads a search should use to make the most of this machine: one per core, at most
/// eight.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// Its score for the player to move, in centipawns (±[`WIN`] for a forced result).
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// A searcher, keeping its transposition table and history between moves.
pub struct Engine {
    tt: Arc<Table>,
    killers: Vec<[u32; 2]>,
    history: Vec<u32>,
    buffers: Vec<Vec<(Move, i32)>>,
    /// The opponents' replies at each ply, with their ordering score and stage.
    replies: Vec<Vec<(Move, i32, u8)>>,
    /// The opponents' ordinary moves at each ply, in turn order.
    ordinary: Vec<Vec<Move>>,
    scratch: Vec<Move>,
    /// The background move's candidates, kept to save allocations.
    ranked: Vec<(Move, i32, usize)>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    aborted: bool,
    root_player: u8,
    root_key: u64,
    /// The moves chosen before from each root position (by hash): a position met again means
    /// the game goes round in circles, and a near-best move not tried from it makes progress.
    chosen: std::collections::HashMap<u64, Vec<Move>>,
    /// Engines searching beside this one on threads of their own, sharing its table.
    helpers: Vec<Engine>,
    /// Positions the helpers visited in the last search.
    helper_nodes: u64,
    /// The evaluation's weights.
    weights: Weights,
    /// The search's constants.
    params: SearchParams,
    /// A learned correction to the evaluation, if the lab set one ([`Engine::set_net`]).
    net: Option<Arc<Net>>,
    /// The network's accumulators along the line searched: `net_frames[net_top]` is the
    /// current position's.
    net_frames: Vec<Accumulators>,
    net_top: usize,
}

/// How one thread deepens its search.
#[derive(Clone, Copy)]
struct Iterations {
    level: Level,
    /// The first iteration (odd).
    first_depth: u32,
    max_depth: u32,
    start: Instant,
    movetime: Option<Duration>,
    /// Whether to stop before an iteration that the budget left cannot go far into (a helper
    /// searches until it is told to stop).
    forecast: bool,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(TableSize::entries_log2(18))
    }
}

impl Engine {
    /// An engine with a transposition table of `table`.
    pub fn new(table: TableSize) -> Engine {
        Engine {
            tt: Arc::new(Table::new(table)),
            killers: vec![[u32::MAX; 2]; MAX_PLY + 1],
            history: vec![0; 361 * 361],
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            replies: (0..=MAX_PLY).map(|_| Vec::with_capacity(1024)).collect(),
            ordinary: (0..=MAX_PLY).map(|_| Vec::with_capacity(8)).collect(),
            scratch: Vec::with_capacity(256),
            ranked: Vec::with_capacity(256),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            aborted: false,
            root_player: 0,
            root_key: 0,
            chosen: std::collections::HashMap::new(),
            helpers: Vec::new(),
            helper_nodes: 0,
            weights: Weights::default(),
            params: SearchParams::default(),
            net: None,
            net_frames: Vec::new(),
            net_top: 0,
        }
    }

    /// How large its transposition table is.
    pub fn table_size(&self) -> TableSize {
        self.tt.size()
    }

    /// An engine that searches beside this one, sharing its transposition table.
    fn helper(&self) -> Engine {
        Engine {
            tt: self.tt.clone(),
            weights: self.weights,
            params: self.params,
            net: self.net.clone(),
            ..Engine::new(TableSize::entries_log2(0))
        }
    }

    /// Searches on `threads` threads from now on (at least one; one by default). The levels
    /// that look more than one move deep (Hard) then share each search between them; the others
    /// stay on one thread, which already finds their move at once. With more than one thread a
    /// node budget counts this thread's positions only (the others search as long as it does),
    /// and the same search may end with another move from one run to the next.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let helper = self.helper();
            self.helpers.push(helper);
        }
    }

    /// Evaluates positions by the weights `weights` from now on ([`Weights::default`] unless
    /// set): the lab's way of playing one evaluation against another.
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = weights;
        for helper in &mut self.helpers {
            helper.weights = weights;
        }
    }

    /// The evaluation's weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Searches with the constants `params` from now on ([`SearchParams::default`] unless
    /// set): the lab's way of playing one tuning against another.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        for helper in &mut self.helpers {
            helper.params = params;
        }
    }

    /// Adds the network `net`'s correction to the evaluation from now on (none unless set):
    /// the lab's way of trying a learned evaluation ([`crate::net`]).
    pub fn set_net(&mut self, net: Option<Arc<Net>>) {
        for helper in &mut self.helpers {
            helper.net = net.clone();
        }
        self.net = net;
        self.net_frames.clear();
        self.net_top = 0;
    }

    /// The network whose correction the evaluation adds, if any.
    pub fn net(&self) -> Option<&Arc<Net>> {
        self.net.as_ref()
    }

    /// Sums the network's accumulators for the root position `pos` of a search.
    fn net_start(&mut self, pos: &Position) {
        if let Some(net) = self.net.as_deref() {
            match self.net_frames.first_mut() {
                Some(first) => net.refresh_into(pos, first),
                None => self.net_frames.push(net.refresh(pos)),
            }
            self.net_top = 0;
        }
    }

    /// Makes `mv` on the line searched, the network's accumulators updated with it.
    fn play(&mut self, pos: &mut Position, mv: Move) -> Undo {
        let Some(net) = self.net.as_deref() else {
            return pos.make(mv);
        };
        let top = self.net_top;
        if self.net_frames[top].is_stale() {
            net.refresh_into(pos, &mut self.net_frames[top]);
        }
        let delta = Delta::of(pos, mv);
        let undo = pos.make(mv);
        if self.net_frames.len() == top + 1 {
            let copy = self.net_frames[top].clone();
            self.net_frames.push(copy);
        }
        let (before, after) = self.net_frames.split_at_mut(top + 1);
        before[top].play(net, &delta, pos, &mut after[0]);
        self.net_top = top + 1;
        undo
    }

    /// Takes back the last move made by [`Engine::play`].
    fn take_back(&mut self, pos: &mut Position, undo: Undo) {
        pos.unmake(undo);
        if self.net.is_some() {
            self.net_top -= 1;
        }
    }

    /// The evaluation of `pos` for the root player, with the network's correction if set.
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let value = evaluate_with(pos, self.root_player, &self.weights);
        match self.net.as_deref() {
            Some(net) => {
                let acc = &mut self.net_frames[self.net_top];
                if acc.is_stale() {
                    net.refresh_into(pos, acc);
                }
                // In the unit tests every leaf's accumulators are checked against a sum of
                // every piece.
                #[cfg(test)]
                assert_eq!(*acc, net.refresh(pos), "{}", pos.to_fen());
                value + net.correction(acc, self.root_player)
            }
            None => value,
        }
    }

    /// The search's constants.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The threads a search runs on.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Forgets what earlier searches learned (for reproducible runs).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [u32::MAX; 2]);
        self.chosen.clear();
        for helper in &mut self.helpers {
            helper.history.iter_mut().for_each(|h| *h = 0);
            helper.killers.iter_mut().for_each(|k| *k = [u32::MAX; 2]);
        }
    }

    /// Chooses a move for the kingdom to move in `pos` at `level`, within `limits`
    /// (by default the level's time). `seed` drives the level's variety and `Random`.
    ///
    /// Returns the pass when that is the only move, and `None` only for a finished game.
    pub fn search(
        &mut self,
        pos: &Position,
        level: Level,
        limits: &Limits,
        seed: u64,
    ) -> Option<SearchResult> {
        let start = Instant::now();
        if let Some(threads) = limits.threads {
            self.set_threads(threads);
        }
        let mut rng = SplitMix64::new(seed);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let done = |best: Move, score, depth, nodes| SearchResult {
            best,
            score,
            depth,
            nodes,
            elapsed: start.elapsed(),
        };
        if moves.len() == 1 {
            return Some(done(moves[0], 0, 0, 0));
        }
        if level == Level::Random {
            return Some(done(moves[rng.below(moves.len())], 0, 0, 0));
        }
        // A node budget alone decides by itself (the same move on any machine); otherwise the
        // time given, or the level's own.
        let movetime = match (limits.movetime, limits.nodes) {
            (Some(t), _) => Some(t),
            (None, Some(_)) => None,
            (None, None) => Some(level.movetime()),
        };
        let deadline = movetime.map(|t| start + t);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.begin(pos, deadline, node_limit, limits.stop.clone());
        let max_depth = limits.depth.unwrap_or(level.max_depth()).max(1);
        let plan = Iterations {
            level,
            first_depth: 1,
            max_depth,
            start,
            movetime,
            forecast: true,
        };
        let (scores, depth) = if self.helpers.is_empty() || max_depth == 1 {
            self.iterate(pos, &moves, &plan)
        } else {
            self.iterate_with_helpers(pos, &moves, &plan, deadline)
        };
        let best = scores[0].1;
        let near: Vec<&(Move, i32)> = scores
            .iter()
            .filter(|(_, s)| level.tolerance() > 0 && *s >= best - level.tolerance())
            .collect();
        let (mut mv, mut score) = if near.len() > 1 {
            *near[rng.below(near.len())]
        } else {
            scores[0]
        };
        // Met this position before: a near-best move not played from it yet, if any.
        let root = pos.hash();
        if let Some(tried) = self.chosen.get(&root)
            && tried.contains(&mv)
            && let Some(&(other, s)) = scores
                .iter()
                .find(|(m, s)| *s >= best - self.params.repeat_margin && !tried.contains(m))
        {
            (mv, score) = (other, s);
        }
        if self.chosen.len() > 100_000 {
            self.chosen.clear();
        }
        self.chosen.entry(root).or_default().push(mv);
        Some(done(mv, score, depth, self.nodes + self.helper_nodes))
    }

    /// Readies this engine's own counters and limits for a search of `pos`.
    fn begin(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        node_limit: u64,
        stop: Option<Arc<AtomicBool>>,
    ) {
        self.deadline = deadline;
        self.node_limit = node_limit;
        self.stop = stop;
        self.nodes = 0;
        self.helper_nodes = 0;
        self.aborted = false;
        self.root_player = pos.player_of(pos.to_move());
        self.root_key = splitmix64(0xA11_0000 + self.root_player as u64);
    }

    /// [`Engine::iterate`] on this thread while the helpers search the same position on
    /// theirs, sharing the transposition table (lazy SMP): what one thread stores, the others
    /// find. Half of the helpers start one iteration deeper, so that deeper results are stored
    /// ahead of this thread. The helpers stop when this thread is done (they have no budget of
    /// their own); the deepest iteration completed by any thread gives the result.
    fn iterate_with_helpers(
        &mut self,
        pos: &Position,
        moves: &[Move],
        plan: &Iterations,
        deadline: Option<Instant>,
    ) -> (Vec<(Move, i32)>, u32) {
        let mut helpers = std::mem::take(&mut self.helpers);
        let done = Arc::new(AtomicBool::new(false));
        let (ours, theirs) = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, helper)| {
                    let done = done.clone();
                    let plan = Iterations {
                        first_depth: if i % 2 == 0 { 3 } else { 1 },
                        forecast: false,
                        ..*plan
                    };
                    scope.spawn(move || {
                        helper.begin(pos, deadline, u64::MAX, Some(done));
                        let found = helper.iterate(pos, moves, &plan);
                        (found, helper.nodes)
                    })
                })
                .collect();
            let ours = self.iterate(pos, moves, plan);
            done.store(true, Ordering::Relaxed);
            let theirs: Vec<_> = running.into_iter().filter_map(|h| h.join().ok()).collect();
            (ours, theirs)
        });
        self.helpers = helpers;
        let mut best = ours;
        // A helper that started deeper may have seen every move lose against the best replies
        // of all six, where this thread would keep the move that looked best before.
        let lost = |found: &(Vec<(Move, i32)>, u32)| found.0[0].1 <= -WIN + MAX_PLY as i32;
        for (found, nodes) in theirs {
            self.helper_nodes += nodes;
            if found.1 > best.1 && (lost(&best) || !lost(&found)) {
                best = found;
            }
        }
        best
    }

    /// Iterative deepening over odd depths from `plan.first_depth`: the root moves with their
    /// scores, best first, and the deepest iteration completed (its best replaced by a better
    /// one from a partly searched deeper iteration).
    fn iterate(
        &mut self,
        pos: &Position,
        moves: &[Move],
        plan: &Iterations,
    ) -> (Vec<(Move, i32)>, u32) {
        let Iterations {
            level,
            first_depth,
            max_depth,
            start,
            movetime,
            forecast,
        } = *plan;
        let mut pos = pos.clone();
        self.net_start(&pos);
        // Root moves with their last scores, best first.
        let mut scored: Vec<(Move, i32)> = self.ordered(&pos, 0, moves, None);
        let mut completed: Option<(Vec<(Move, i32)>, u32)> = None;
        // Positions the last two iterations visited, to foresee the next one's cost.
        let mut costs: (Option<u64>, Option<u64>) = (None, None);
        let mut mark = (0u64, Duration::ZERO);
        // Odd depths only: they end on the searching player's own move, after which the
        // opponents' captures are resolved by the quiescence search. An even depth ends on one
        // opponent's reply and lets the searching player assume that every other threat it
        // made still stands (only one opponent answers in Best-Reply Search); in selfplay,
        // depth 2 lost clearly to depth 1.
        for depth in (first_depth..=max_depth.max(first_depth)).step_by(2) {
            let tolerance = level.tolerance();
            let result = self.root(&mut pos, depth as i32, &scored, tolerance);
            if self.aborted {
                // The last iteration's best move is searched first, so the best of a partial
                // iteration is at least as good at this depth: it replaces it. (An empty one
                // tells nothing.)
                if !result.is_empty() {
                    let depth = completed.as_ref().map_or(0, |(_, d)| *d);
                    completed = Some((result, depth));
                }
                break;
            }
            if result[0].1 <= -WIN + MAX_PLY as i32 && completed.is_some() {
                // Every move loses against the best replies of all six: play the move that
                // looked best before the loss was seen (the opponents are not a coalition),
                // rather than the longest loss.
                break;
            }
            scored = result;
            completed = Some((scored.clone(), depth));
            if scored[0].1 >= WIN - MAX_PLY as i32 {
                break; // a forced win: nothing deeper matters
            }
            // Start the next iteration only if enough of it can be searched to matter (its
            // first moves take the largest share): each costs many times the one before.
            let spent = (self.nodes - mark.0, start.elapsed() - mark.1);
            mark = (self.nodes, start.elapsed());
            costs = (costs.1, Some(spent.0));
            let growth = match costs {
                (Some(a), Some(b)) if a > 0 => (b as f64 / a as f64).clamp(4.0, 30.0),
                _ => 12.0,
            };
            let share = f64::from(self.params.next_iteration_permille) / 1000.0;
            let needed = |cost: f64, left: f64| cost * growth * share > left;
            let out_of_time = movetime.is_some_and(|t| {
                needed(
                    spent.1.as_secs_f64(),
                    t.saturating_sub(start.elapsed()).as_secs_f64(),
                )
            });
            let out_of_nodes = self.node_limit != u64::MAX
                && needed(
                    spent.0 as f64,
                    self.node_limit.saturating_sub(self.nodes) as f64,
                );
            if forecast && (out_of_time || out_of_nodes) {
                break;
            }
        }
        completed.unwrap_or((scored, 0))
    }

    /// Searches every root move at `depth`; returns them sorted best first. With a tolerance,
    /// every move gets an exact score (a full window), so that near-best moves can be chosen.
    fn root(
        &mut self,
        pos: &mut Position,
        depth: i32,
        moves: &[(Move, i32)],
        tolerance: i32,
    ) -> Vec<(Move, i32)> {
        let mut out = Vec::with_capacity(moves.len());
        let mut alpha = -INF;
        for &(mv, _) in moves {
            let undo = self.play(pos, mv);
            let window = if tolerance > 0 { -INF } else { alpha };
            let score = self.node(pos, depth - 1, window, INF, 1);
            self.take_back(pos, undo);
            if self.aborted {
                break;
            }
            alpha = alpha.max(score);
            out.push((mv, score));
        }
        // Moves not searched in an aborted iteration keep their order, after the others.
        out.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        out
    }

    fn check_limits(&mut self) {
        let out_of_time = || {
            self.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
        };
        // The clock is read only every 1024 positions.
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && out_of_time()) {
            self.aborted = true;
        }
    }

    fn ours(&self, pos: &Position, k: Kingdom) -> bool {
        pos.player_of(k) == self.root_player
    }

    fn root_alive(&self, pos: &Position) -> bool {
        pos.alive().iter().any(|k| self.ours(pos, k))
    }

    fn terminal(&self, outcome: Outcome, ply: usize) -> i32 {
        if outcome.player == self.root_player {
            WIN - ply as i32
        } else {
            -WIN + ply as i32
        }
    }

    /// Counts a visited node and settles it without searching: 0 once the search is stopped,
    /// the result of a finished game, or a loss once the root player is out of the game.
    fn enter(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return Some(0);
        }
        if let Some(outcome) = pos.outcome() {
            return Some(self.terminal(outcome, ply));
        }
        (!self.root_alive(pos)).then(|| -WIN + ply as i32)
    }

    /// The value of a position for the root player, `depth` iterations deep.
    fn node(&mut self, pos: &mut Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        if self.ours(pos, pos.to_move()) {
            self.max_node(pos, depth, alpha, beta, ply)
        } else {
            self.min_layer(pos, depth, alpha, beta, ply)
        }
    }

    fn key(&self, pos: &Position) -> u64 {
        pos.hash() ^ self.root_key
    }

    /// A transposition hit that settles the node, if any; and the stored move.
    fn probe(&self, key: u64, depth: i32, alpha: i32, beta: i32) -> (Option<i32>, Option<Move>) {
        let Some(e) = self.tt.probe(key) else {
            return (None, None);
        };
        let settled = (e.depth as i32 >= depth)
            .then_some(e.score)
            .filter(|&s| match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            });
        (settled, e.best_move())
    }

    fn store(&mut self, key: u64, depth: i32, score: i32, alpha: i32, beta: i32, mv: Option<Move>) {
        let bound = if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(Entry {
            key,
            score,
            mv: mv.map_or(u32::MAX, Move::bits),
            depth: depth as i16,
            bound,
        });
    }

    /// The root player's kingdom moves: the best of its moves.
    fn max_node(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let key = self.key(pos);
        let (settled, tt_move) = self.probe(key, depth, alpha, beta);
        if let Some(score) = settled {
            return score;
        }
        let alpha0 = alpha;
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.order_into(pos, ply, tt_move, &mut moves);
        let mut best = -INF;
        let mut best_move = None;
        for &(mv, _) in moves.iter() {
            let undo = self.play(pos, mv);
            let score = self.node(pos, depth - 1, alpha, beta, ply + 1);
            self.take_back(pos, undo);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                self.reward(pos, mv, ply, depth);
                break;
            }
        }
        self.buffers[ply] = moves;
        if !self.aborted {
            self.store(key, depth, best, alpha0, beta, best_move);
        }
        best
    }

    /// The opponents between two moves of the root player: exactly one of them plays a
    /// searched reply; the others play their ordinary move (BRS+).
    ///
    /// The replies of all the opponents are ordered together — captures of Generals first, then
    /// captures of the searching player's pieces, then other captures, killers and history —
    /// so that the reply that refutes a move is usually searched first, whichever opponent
    /// plays it. An opponent's reply is played after the ordinary moves of the opponents
    /// before it in the turn order.
    fn min_layer(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let key = self.key(pos);
        let (settled, tt_move) = self.probe(key, depth, alpha, beta);
        if let Some(score) = settled {
            return score;
        }
        let beta0 = beta;
        let mut replies = std::mem::take(&mut self.replies[ply]);
        let mut ordinary = std::mem::take(&mut self.ordinary[ply]);
        self.collect_replies(pos, ply, tt_move, &mut replies, &mut ordinary);
        // The lowest score of a reply that keeps the replier's General safe, below beta.
        let mut best = INF;
        let mut best_move = None;
        // The lowest score at or above beta (the layer fails high with it).
        let mut high = INF;
        // Replies that leave the replier's own General to be taken: chosen only if no
        // opponent has another (Qiguo has no check rule, but no kingdom walks into capture to
        // hand a rival the game when it can help it).
        let mut hanging = INF;
        // The ordinary moves made so far: those of the opponents before the replier.
        let mut prefix = Vec::with_capacity(7);
        for (i, &(mv, order, stage)) in replies.iter().enumerate() {
            while prefix.len() > stage as usize {
                self.take_back(pos, prefix.pop().expect("a made move"));
            }
            while prefix.len() < stage as usize {
                prefix.push(self.play(pos, ordinary[prefix.len()]));
            }
            // Late quiet replies are first searched shallower, and fully only if that shows
            // them hurting the searching player.
            let p = &self.params;
            let reduce = depth >= p.lmr_depth && i >= p.lmr_after as usize && order < 1 << 27;
            let shallower = depth - p.lmr_reduction;
            let undo = self.play(pos, mv);
            let mut score = INF;
            if reduce {
                score = self.after_reply(pos, shallower, alpha, beta, ply + 1);
            }
            if !reduce || (score < beta && !self.aborted) {
                score = self.after_reply(pos, depth, alpha, beta, ply + 1);
            }
            self.take_back(pos, undo);
            let mut cut = false;
            if self.aborted {
                cut = true;
            } else if score >= beta {
                high = high.min(score);
            } else if score < best {
                if self.hangs_general(pos, mv) {
                    hanging = hanging.min(score);
                } else {
                    best = score;
                    best_move = Some(mv);
                    beta = score;
                    if beta <= alpha {
                        self.reward(pos, mv, ply, depth);
                        cut = true;
                    }
                }
            }
            if cut {
                break;
            }
        }
        while let Some(undo) = prefix.pop() {
            self.take_back(pos, undo);
        }
        self.replies[ply] = replies;
        self.ordinary[ply] = ordinary;
        if self.aborted {
            return 0;
        }
        let best = [best, high, hanging]
            .into_iter()
            .find(|&s| s < INF)
            .unwrap_or_else(|| self.node(pos, 0, alpha, beta0, ply));
        self.store(key, depth, best, alpha, beta0, best_move);
        best
    }

    /// Every opponent's replies until the root player moves again, ordered together, each
    /// with its ordering score and stage (how many opponents play their ordinary move
    /// before it); and those ordinary moves.
    fn collect_replies(
        &mut self,
        pos: &mut Position,
        ply: usize,
        tt: Option<Move>,
        replies: &mut Vec<(Move, i32, u8)>,
        ordinary: &mut Vec<Move>,
    ) {
        replies.clear();
        ordinary.clear();
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let mut undos = Vec::with_capacity(7);
        loop {
            let stage = undos.len() as u8;
            self.order_into(pos, ply, tt, &mut moves);
            replies.extend(moves.iter().map(|&(mv, order)| {
                let threat = match Self::pieces(pos, mv) {
                    (_, Some(victim)) if (1 << 28..1 << 30).contains(&order) => {
                        if victim.kind == PieceKind::General {
                            1 << 27
                        } else if self.ours(pos, victim.kingdom) {
                            1 << 26
                        } else {
                            0
                        }
                    }
                    _ => 0,
                };
                (mv, order + threat, stage)
            }));
            let background = self.background_move(pos);
            ordinary.push(background);
            undos.push(pos.make(background));
            if pos.is_over() || self.ours(pos, pos.to_move()) || undos.len() >= 7 {
                break;
            }
        }
        while let Some(undo) = undos.pop() {
            pos.unmake(undo);
        }
        self.buffers[ply] = moves;
        // Stable: within one score, earlier opponents first.
        replies.sort_by_key(|&(_, order, _)| std::cmp::Reverse(order));
    }

    /// Whether `mv`, by the kingdom to move, leaves one of its Generals where an enemy can
    /// take it (unless the move ends the game or the kingdom's part in it).
    fn hangs_general(&self, pos: &mut Position, mv: Move) -> bool {
        let k = pos.to_move();
        let undo = pos.make(mv);
        let exposed = !pos.is_over() && pos.alive().contains(k) && general_exposed(pos, k);
        pos.unmake(undo);
        exposed
    }

    /// After one opponent's searched reply, the rest of the opponents play their ordinary
    /// moves, and the root player's next move is searched one iteration shallower.
    fn after_reply(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut undos = Vec::new();
        while !pos.is_over()
            && !self.ours(pos, pos.to_move())
            && self.root_alive(pos)
            && undos.len() < 7
        {
            let mv = self.background_move(pos);
            undos.push(self.play(pos, mv));
        }
        let score = self.node(pos, depth - 1, alpha, beta, ply);
        while let Some(undo) = undos.pop() {
            self.take_back(pos, undo);
        }
        score
    }

    /// The move an opponent plays when it is not the one searched, in its own interest: the
    /// best capture by victim and attacker, else its best quiet move by history — the first of
    /// these that does not leave its General to be taken, which also moves a threatened
    /// General out of danger (the best dozen are looked at first, the rest only when none of
    /// those will do). Killer moves, learned from refutations of the searching player, are
    /// not used.
    fn background_move(&mut self, pos: &mut Position) -> Move {
        const CANDIDATES: usize = 12;
        let mut moves = std::mem::take(&mut self.scratch);
        let mut ranked = std::mem::take(&mut self.ranked);
        pos.legal_moves_into(&mut moves);
        ranked.clear();
        ranked.extend(moves.iter().enumerate().map(|(at, &mv)| {
            let score = match Self::pieces(pos, mv) {
                (Some(attacker), Some(victim))
                    if pos.player_of(attacker.kingdom) != pos.player_of(victim.kingdom) =>
                {
                    (1 << 28) + victim_value(victim.kind) * 64 - victim_value(attacker.kind) / 8
                }
                (Some(_), Some(_)) => -1, // an ally: never by default
                _ => self.history_of(mv.bits()) as i32,
            };
            (mv, score, at)
        }));
        self.scratch = moves;
        // The best dozen are looked at first: bring them to the front, best first, ties in
        // generation order (as a stable sort of them all would).
        let key = |&(_, score, at): &(Move, i32, usize)| (std::cmp::Reverse(score), at);
        let first = ranked.len().min(CANDIDATES);
        if ranked.len() > CANDIDATES {
            ranked.select_nth_unstable_by_key(CANDIDATES, key);
        }
        ranked[..first].sort_unstable_by_key(key);
        let fallback = ranked.first().map_or(Move::PASS, |(mv, _, _)| *mv);
        let safe = |engine: &Self, pos: &mut Position, moves: &[(Move, i32, usize)]| {
            moves
                .iter()
                .map(|(mv, _, _)| *mv)
                .find(|&mv| !engine.hangs_general(pos, mv))
        };
        // When each of them leaves a General to be taken (it is attacked, and none of them
        // moves it, takes its attacker or covers it), the rest are looked at too: a kingdom
        // whose General the searching player attacks saves it in a real round, and a search
        // that leaves it there counts on taking it later instead of now.
        let chosen = safe(self, pos, &ranked[..first])
            .or_else(|| {
                ranked[first..].sort_unstable_by_key(key);
                safe(self, pos, &ranked[first..])
            })
            .unwrap_or(fallback);
        self.ranked = ranked;
        chosen
    }

    /// Orders `moves` (or the legal moves) best first.
    fn ordered(
        &mut self,
        pos: &Position,
        ply: usize,
        moves: &[Move],
        tt: Option<Move>,
    ) -> Vec<(Move, i32)> {
        let mut out: Vec<(Move, i32)> = moves
            .iter()
            .map(|&mv| (mv, self.order_score(pos, ply, mv, tt)))
            .collect();
        out.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        out
    }

    fn order_into(
        &mut self,
        pos: &Position,
        ply: usize,
        tt: Option<Move>,
        out: &mut Vec<(Move, i32)>,
    ) {
        let mut moves = std::mem::take(&mut self.scratch);
        pos.legal_moves_into(&mut moves);
        out.clear();
        out.extend(
            moves
                .iter()
                .map(|&mv| (mv, self.order_score(pos, ply, mv, tt))),
        );
        out.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        self.scratch = moves;
    }

    fn pieces(pos: &Position, mv: Move) -> (Option<Piece>, Option<Piece>) {
        (
            mv.from().and_then(|p| pos.piece_at(p)),
            mv.to().and_then(|p| pos.piece_at(p)),
        )
    }

    /// The ordering score: the transposition move, then captures of other players' pieces by
    /// victim (Generals first) and attacker, then killers, then history.
    fn order_score(&self, pos: &Position, ply: usize, mv: Move, tt: Option<Move>) -> i32 {
        if Some(mv) == tt {
            return 1 << 30;
        }
        if let (Some(attacker), Some(victim)) = Self::pieces(pos, mv) {
            let ally = pos.player_of(attacker.kingdom) == pos.player_of(victim.kingdom);
            if !ally {
                return (1 << 28) + victim_value(victim.kind) * 64
                    - victim_value(attacker.kind) / 8;
            }
            return -1; // attacking an ally forfeits it: last
        }
        let bits = mv.bits();
        if self.killers[ply][0] == bits {
            return 1 << 27;
        }
        if self.killers[ply][1] == bits {
            return (1 << 27) - 1;
        }
        self.history_of(bits) as i32
    }

    fn history_of(&self, bits: u32) -> u32 {
        if bits == u32::MAX {
            return 0;
        }
        let (from, to) = ((bits >> 16) as usize, (bits & 0xFFFF) as usize);
        self.history[from * 361 + to].min(1 << 26)
    }

    /// Whether capture `mv` gives a piece for a cheaper one: the attacker is worth more than
    /// its victim and an enemy can take it where it lands.
    fn loses_attacker(pos: &mut Position, mv: Move) -> bool {
        let (Some(attacker), Some(victim)) = Self::pieces(pos, mv) else {
            return false;
        };
        if victim_value(attacker.kind) <= victim_value(victim.kind) {
            return false;
        }
        let Some(to) = mv.to() else { return false };
        let foes = pos.enemies(attacker.kingdom);
        let undo = pos.make(mv);
        let lost = !pos.is_over() && pos.is_attacked(to, foes);
        pos.unmake(undo);
        lost
    }

    /// A quiet move that caused a cutoff: a killer at this ply, and history.
    fn reward(&mut self, pos: &Position, mv: Move, ply: usize, depth: i32) {
        if pos.is_capture(mv) || mv.is_pass() {
            return;
        }
        let bits = mv.bits();
        if self.killers[ply][0] != bits {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = bits;
        }
        let (from, to) = ((bits >> 16) as usize, (bits & 0xFFFF) as usize);
        let h = &mut self.history[from * 361 + to];
        *h = h.saturating_add((depth * depth) as u32);
    }

    /// Captures only, until the position is quiet: the side to move may stand pat.
    fn quiesce(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let stand = self.evaluate(pos);
        if qdepth >= self.params.quiescence_depth || ply >= MAX_PLY {
            return stand;
        }
        if self.ours(pos, pos.to_move()) {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            let mut best = stand;
            for mv in self.captures(pos, ply, false) {
                let undo = self.play(pos, mv);
                let score = self.quiesce(pos, alpha, beta, ply + 1, qdepth + 1);
                self.take_back(pos, undo);
                if self.aborted {
                    return 0;
                }
                best = best.max(score);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
            best
        } else {
            // The opponents: one of them captures, the others let it pass; or none does.
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
            let mut best = stand;
            let mut prefix = Vec::new();
            'layer: loop {
                // Only threats to the searching player: captures among the opponents are left
                // to the main search, or quiescence would branch on six kingdoms' fights.
                for mv in self.captures(pos, ply, true) {
                    let undo = self.play(pos, mv);
                    let mut passes = Vec::new();
                    while !pos.is_over()
                        && !self.ours(pos, pos.to_move())
                        && self.root_alive(pos)
                        && passes.len() < 7
                    {
                        passes.push(self.play(pos, Move::PASS));
                    }
                    let score = self.quiesce(pos, alpha, beta, ply + 1, qdepth + 1);
                    while let Some(u) = passes.pop() {
                        self.take_back(pos, u);
                    }
                    self.take_back(pos, undo);
                    if self.aborted {
                        break 'layer;
                    }
                    best = best.min(score);
                    beta = beta.min(score);
                    if beta <= alpha {
                        break 'layer;
                    }
                }
                prefix.push(self.play(pos, Move::PASS));
                if pos.is_over() || self.ours(pos, pos.to_move()) || prefix.len() >= 7 {
                    break;
                }
            }
            while let Some(u) = prefix.pop() {
                self.take_back(pos, u);
            }
            if self.aborted { 0 } else { best }
        }
    }

    /// The side to move's captures of other players' pieces (`threats`: of the searching
    /// player's only), best first, without those that only lose the capturing piece: a piece
    /// worth more than its victim that can be taken back where it lands.
    fn captures(&mut self, pos: &mut Position, ply: usize, threats: bool) -> Vec<Move> {
        let mut moves = std::mem::take(&mut self.scratch);
        pos.capture_moves_into(&mut moves);
        let mut scored: Vec<(Move, i32)> = moves
            .iter()
            .filter(|mv| {
                !threats
                    || mv
                        .to()
                        .and_then(|p| pos.piece_at(p))
                        .is_some_and(|victim| self.ours(pos, victim.kingdom))
            })
            .map(|&mv| (mv, self.order_score(pos, ply, mv, None)))
            .filter(|&(_, s)| s > 0)
            .collect();
        scored.retain(|&(mv, _)| !Self::loses_attacker(pos, mv));
        self.scratch = moves;
        scored.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        scored.into_iter().map(|(m, _)| m).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::Rules;

    /// With a network, every leaf's accumulators (updated move by move along the line
    /// searched) are what summing its pieces gives (checked in `evaluate` under test), through a
    /// game's captures and falls; the network changes what the search finds, and searching
    /// without it again finds what it found before.
    #[test]
    fn a_network_corrects_the_evaluation_at_every_leaf() {
        let mut pos = Position::start(Rules::default());
        let mut plain = Engine::new(TableSize::entries_log2(16));
        let mut netted = Engine::new(TableSize::entries_log2(16));
        netted.set_net(Some(Arc::new(Net::drawn(4, 3))));
        let limits = Limits {
            nodes: Some(3_000),
            ..Limits::default()
        };
        let mut differed = 0;
        for ply in 0..80 {
            if pos.is_over() {
                break;
            }
            plain.clear();
            netted.clear();
            let a = plain.search(&pos, Level::Hard, &limits, 1).expect("a move");
            let b = netted
                .search(&pos, Level::Hard, &limits, 1)
                .expect("a move");
            differed += usize::from(a.score != b.score);
            // Captures first, so that kingdoms fall within the game's first moves.
            let moves = pos.legal_moves();
            let capture = moves
                .iter()
                .find(|m| m.to().and_then(|to| pos.piece_at(to)).is_some());
            pos.make(
                capture
                    .copied()
                    .unwrap_or(if ply % 2 == 0 { a.best } else { b.best }),
            );
        }
        assert!(differed > 10, "the network changed {differed} values");
        netted.set_net(None);
        netted.clear();
        plain.clear();
        let a = plain.search(&pos, Level::Hard, &limits, 1);
        let b = netted.search(&pos, Level::Hard, &limits, 1);
        assert_eq!(a.map(|r| (r.best, r.score)), b.map(|r| (r.best, r.score)));
    }

    /// A network reaches the helpers, and every leaf's accumulators are right on each thread
    /// (checked in `evaluate` under test).
    #[test]
    fn helpers_correct_by_the_engines_network() {
        let pos = Position::from_fen(qiguo_testkit::CROWDED_MIDGAME, Rules::default())
            .expect("valid FEN");
        let mut engine = Engine::new(TableSize::entries_log2(16));
        engine.set_threads(2);
        engine.set_net(Some(Arc::new(Net::drawn(8, 5))));
        assert!(engine.helpers.iter().all(|h| h.net.is_some()));
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let r = engine
            .search(&pos, Level::Hard, &limits, 1)
            .expect("a move");
        assert!(pos.is_legal(r.best));
    }

    #[test]
    fn helpers_search_by_the_engines_weights_and_constants() {
        let mut engine = Engine::new(TableSize::entries_log2(10));
        let params = SearchParams {
            quiescence_depth: 2,
            ..SearchParams::HAND
        };
        let mut weights = Weights::HAND;
        weights.mobility += 1;
        // Set before the helpers are made, and after: both reach them.
        engine.set_params(params);
        engine.set_threads(3);
        engine.set_weights(weights);
        for helper in &engine.helpers {
            assert_eq!((helper.params, helper.weights), (params, weights));
        }
        engine.set_params(SearchParams::HAND);
        assert!(
            engine
                .helpers
                .iter()
                .all(|h| h.params == SearchParams::HAND)
        );
    }
}
