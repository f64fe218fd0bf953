//! A learned correction to the evaluation: a small network on sparse inputs, in NNUE's shape,
//! trained in the lab on self-play (`qiguo-train-net`; the write-up and its sequential tests in
//! `docs/computer-players.md`), played by an engine the lab gives it ([`crate::Engine::set_net`]).
//!
//! **Inputs.** Every piece on the board, seen from one player: its kind, its point, and whose
//! it is *relative to that player* — the player's own (0), or the kingdom's place in the turn
//! order after the player's first kingdom in the game (1 to 6). That is 7 × 10 × 361 = 25,270
//! inputs, of which a position sets one for each piece (at most 119).
//!
//! **The network.** One hidden layer of [`Net::hidden`] units: each unit sums the weights of
//! the inputs that are set (the *accumulator*), is clipped to `0..=1`, and the output is a
//! weighted sum of the clipped units: the player's score correction, in centipawns. A player's
//! score is the hand-set evaluation's ([`crate::eval::player_scores`]) plus its correction; the
//! value of a position for a player is, as the evaluation's, its score minus the sum of the
//! other players' ([`Net::correction`]).
//!
//! **Incremental.** A move changes at most three inputs of each player's accumulator (the
//! piece leaves its point, arrives at another, and what it took leaves): [`Accumulators::play`]
//! updates them in place of summing every piece again, as NNUE does. When a move changes who
//! holds what (a kingdom falls, a player concedes), every input's relation may change, and the
//! accumulators are summed again ([`Net::refresh`]). Accumulators are integers (weights are
//! kept in `i16` at 1/[`ONE`]), so updating and summing again give the very same values.
//!
//! The file ([`Net::to_bytes`], [`Net::from_bytes`]) is little-endian: `QGNN`, the format (1),
//! the hidden units, then the input weights (input-major, `i16`), the hidden biases (`i32`),
//! the output weights and the output's bias (`f32`, in centipawns).

use qiguo_rules::random::SplitMix64;
use qiguo_rules::{Kingdom, KingdomSet, Move, Piece, PieceKind, Point, Position};

/// Points on the board.
pub const POINTS: usize = 361;
/// Kinds of pieces.
pub const KINDS: usize = 10;
/// Whose a piece is, from one player: its own, or one of six places in the turn order.
pub const RELATIONS: usize = 7;
/// The inputs: one for each relation, kind and point.
pub const FEATURES: usize = RELATIONS * KINDS * POINTS;
/// A clipped unit's 1.0 in the accumulator's units: input weights and biases are kept times
/// this.
pub const ONE: i32 = 1024;
/// The largest hidden layer a file may ask for.
pub const MAX_HIDDEN: usize = 1024;
/// The file's format.
pub const FORMAT: u32 = 1;

/// The input for a piece of `kind` at point `point` (its index) whose relation to the player
/// is `relation`.
pub const fn feature(relation: usize, kind: PieceKind, point: usize) -> usize {
    (relation * KINDS + kind as usize - 1) * POINTS + point
}

/// Who holds what: the kingdoms in the game and each kingdom's player. Inputs keep their
/// relation while it stays the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Layout {
    /// The kingdoms in the game.
    pub alive: KingdomSet,
    /// Each kingdom's player.
    pub players: [u8; 7],
    /// The players holding a kingdom in the game, one bit each.
    in_game: u8,
}

impl Layout {
    /// Who holds what in `pos`.
    pub fn of(pos: &Position) -> Layout {
        let alive = pos.alive();
        let players = Kingdom::ALL.map(|k| pos.player_of(k));
        let in_game = alive
            .iter()
            .fold(0, |bits, k| bits | 1 << players[k.index()]);
        Layout {
            alive,
            players,
            in_game,
        }
    }

    /// Whether player `p` holds a kingdom in the game.
    pub fn in_game(&self, p: u8) -> bool {
        self.in_game & 1 << p != 0
    }

    /// Each player's relation to each kingdom (`[player][kingdom]`): 0 for its own, else the
    /// kingdom's place in the turn order after the player's first kingdom in the game. Rows of
    /// players out of the game are all 0 (they are not read).
    pub fn relations(&self) -> [[u8; 7]; 7] {
        let mut out = [[0; 7]; 7];
        for (p, row) in out.iter_mut().enumerate() {
            let Some(anchor) = (self.alive.iter())
                .map(Kingdom::index)
                .find(|&k| usize::from(self.players[k]) == p)
            else {
                continue;
            };
            for (k, relation) in row.iter_mut().enumerate() {
                *relation = if usize::from(self.players[k]) == p {
                    0
                } else {
                    ((k + 7 - anchor) % 7) as u8
                };
            }
        }
        out
    }
}

/// The network's weights (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    hidden: usize,
    /// `FEATURES × hidden`, input-major, times [`ONE`].
    input: Vec<i16>,
    /// The hidden units' biases, times [`ONE`].
    bias: Vec<i32>,
    /// The output's weight of each clipped unit, in centipawns.
    output: Vec<f32>,
    /// The output's bias, in centipawns.
    output_bias: f32,
}

/// Each player's accumulator for one position, with who held what there.
#[derive(Clone, Debug, PartialEq)]
pub struct Accumulators {
    /// Who held what (within a game who holds which kingdom does not change, so a move changes
    /// the layout only when it changes the kingdoms in the game).
    layout: Layout,
    relations: [[u8; 7]; 7],
    /// `7 × hidden`: player 0's units, then player 1's, ….
    values: Vec<i32>,
    /// Whether `values` wait to be summed again from the position ([`Net::refresh_into`]):
    /// a move that changed who holds what leaves them so, since many such positions are never
    /// evaluated nor searched further (a game won, a cut).
    stale: bool,
}

/// What a move does to the inputs, read before it is made.
#[derive(Clone, Copy, Debug)]
pub struct Delta {
    moved: Option<(usize, usize, Piece)>,
    captured: Option<(usize, Piece)>,
}

impl Delta {
    /// What `mv` does in `pos`, before it is made.
    pub fn of(pos: &Position, mv: Move) -> Delta {
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => Delta {
                moved: pos
                    .piece_at(from)
                    .map(|piece| (from.index(), to.index(), piece)),
                captured: pos.piece_at(to).map(|piece| (to.index(), piece)),
            },
            _ => Delta {
                moved: None,
                captured: None,
            },
        }
    }
}

/// Why a file is not a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// It does not start with `QGNN`.
    NotANet,
    /// It is of another format than [`FORMAT`].
    Format(u32),
    /// Its hidden layer is empty or larger than [`MAX_HIDDEN`].
    Hidden(u32),
    /// Its length is not what its hidden layer asks for.
    Length {
        /// The length the header asks for.
        expected: usize,
        /// The file's.
        found: usize,
    },
    /// An output weight is not a finite number.
    NotFinite,
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::NotANet => write!(f, "not a network file (it does not start with QGNN)"),
            NetError::Format(n) => {
                write!(
                    f,
                    "a network of format {n}; this build reads format {FORMAT}"
                )
            }
            NetError::Hidden(n) => {
                write!(f, "{n} hidden units: from 1 to {MAX_HIDDEN} are read")
            }
            NetError::Length { expected, found } => write!(
                f,
                "the file has {found} bytes where its header asks for {expected}"
            ),
            NetError::NotFinite => write!(f, "an output weight is not a finite number"),
        }
    }
}

impl std::error::Error for NetError {}

impl Net {
    /// A network of `hidden` units from its weights: `input` (`FEATURES × hidden`,
    /// input-major) and `bias` times [`ONE`], `output` and `output_bias` in centipawns.
    ///
    /// # Panics
    /// If the lengths do not match `hidden`, or `hidden` is 0 or above [`MAX_HIDDEN`].
    pub fn new(
        hidden: usize,
        input: Vec<i16>,
        bias: Vec<i32>,
        output: Vec<f32>,
        output_bias: f32,
    ) -> Net {
        assert!((1..=MAX_HIDDEN).contains(&hidden), "{hidden} hidden units");
        assert_eq!(input.len(), FEATURES * hidden, "input weights");
        assert_eq!(bias.len(), hidden, "biases");
        assert_eq!(output.len(), hidden, "output weights");
        Net {
            hidden,
            input,
            bias,
            output,
            output_bias,
        }
    }

    /// A network of `hidden` units with weights drawn from `seed` (inputs within ±0.2, outputs
    /// within ±100 centipawns): for tests, and for measuring speed, which does not depend on
    /// the weights.
    pub fn drawn(hidden: usize, seed: u64) -> Net {
        let mut rng = SplitMix64::new(seed);
        let input = (0..FEATURES * hidden)
            .map(|_| (rng.next_u64() % 401) as i16 - 200)
            .collect();
        let bias = (0..hidden)
            .map(|_| (rng.next_u64() % 2048) as i32 - 512)
            .collect();
        let output = (0..hidden)
            .map(|_| (rng.next_u64() % 2001) as f32 / 10.0 - 100.0)
            .collect();
        Net::new(hidden, input, bias, output, 3.5)
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The input weights of input `f`, times [`ONE`].
    fn row(&self, f: usize) -> &[i16] {
        &self.input[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Each player's accumulator for `pos`, every piece summed.
    pub fn refresh(&self, pos: &Position) -> Accumulators {
        let mut acc = Accumulators {
            layout: Layout::default(),
            relations: [[0; 7]; 7],
            values: vec![0; 7 * self.hidden],
            stale: false,
        };
        self.refresh_into(pos, &mut acc);
        acc
    }

    /// [`Net::refresh`] into `acc` (keeping its allocation).
    pub fn refresh_into(&self, pos: &Position, acc: &mut Accumulators) {
        let h = self.hidden;
        acc.layout = Layout::of(pos);
        acc.relations = acc.layout.relations();
        acc.stale = false;
        acc.values.resize(7 * h, 0);
        for p in 0..7u8 {
            let units = &mut acc.values[usize::from(p) * h..(usize::from(p) + 1) * h];
            units.copy_from_slice(&self.bias);
            if !acc.layout.in_game(p) {
                continue;
            }
            let relations = &acc.relations[usize::from(p)];
            for (point, piece) in pos.pieces() {
                let f = feature(
                    usize::from(relations[piece.kingdom.index()]),
                    piece.kind,
                    point.index(),
                );
                add(units, self.row(f));
            }
        }
    }

    /// Player `p`'s score correction by `acc`, in centipawns.
    pub fn score(&self, acc: &Accumulators, p: u8) -> f32 {
        let h = self.hidden;
        let units = &acc.values[usize::from(p) * h..(usize::from(p) + 1) * h];
        let scale = 1.0 / ONE as f32;
        let sum: f32 = units
            .iter()
            .zip(&self.output)
            .map(|(&u, &w)| u.clamp(0, ONE) as f32 * scale * w)
            .sum();
        sum + self.output_bias
    }

    /// What the network adds to the value of a position for `player`: its correction less the
    /// sum of the other players' in the game, in centipawns.
    pub fn correction(&self, acc: &Accumulators, player: u8) -> i32 {
        let mut total = 0.0;
        let mut in_game = acc.layout.in_game;
        while in_game != 0 {
            let p = in_game.trailing_zeros() as u8;
            in_game &= in_game - 1;
            let s = self.score(acc, p);
            total += if p == player { s } else { -s };
        }
        total.round() as i32
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12 + self.input.len() * 2 + self.hidden * 8 + 4);
        out.extend_from_slice(b"QGNN");
        out.extend_from_slice(&FORMAT.to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for w in &self.input {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for w in &self.output {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// A network from a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        if bytes.len() < 12 || &bytes[..4] != b"QGNN" {
            return Err(NetError::NotANet);
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let format = word(4);
        if format != FORMAT {
            return Err(NetError::Format(format));
        }
        let hidden = word(8);
        if hidden == 0 || hidden as usize > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let h = hidden as usize;
        let expected = 12 + FEATURES * h * 2 + h * 4 + h * 4 + 4;
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = 12;
        let input: Vec<i16> = bytes[at..at + FEATURES * h * 2]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        at += FEATURES * h * 2;
        let bias: Vec<i32> = bytes[at..at + h * 4]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        at += h * 4;
        let output: Vec<f32> = bytes[at..at + h * 4]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        at += h * 4;
        let output_bias = f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        if !output.iter().chain([&output_bias]).all(|w| w.is_finite()) {
            return Err(NetError::NotFinite);
        }
        Ok(Net::new(h, input, bias, output, output_bias))
    }
}

impl Accumulators {
    /// Who held what where these were summed.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Whether these wait to be summed again from their position ([`Net::refresh_into`])
    /// before they are read or played from.
    pub fn is_stale(&self) -> bool {
        self.stale
    }

    /// The accumulators after a move, from those before it (`self`, not stale), the move's
    /// [`Delta`] (read before it was made) and the position after it, into `next`: three
    /// inputs changed for each player; or, when the move changed who holds what, left
    /// [stale](Accumulators::is_stale), to be summed again if they are needed.
    pub fn play(&self, net: &Net, delta: &Delta, after: &Position, next: &mut Accumulators) {
        debug_assert!(!self.stale, "played from stale accumulators");
        debug_assert_eq!(Layout::of(after).players, self.layout.players);
        if after.alive() != self.layout.alive {
            next.stale = true;
            return;
        }
        next.stale = false;
        next.layout = self.layout;
        next.relations = self.relations;
        next.values.resize(self.values.len(), 0);
        let Some((from, to, piece)) = delta.moved else {
            next.values.copy_from_slice(&self.values);
            return;
        };
        // A piece that is no longer where it went (a move that ended the game, or a
        // capture that took more than its victim): sum again.
        let at = |i: usize| Point::from_index(i).and_then(|point| after.piece_at(point));
        if at(to) != Some(piece) || at(from).is_some() {
            next.stale = true;
            return;
        }
        // Each player's units in one pass: the piece leaves `from`, comes to `to`, and what it
        // took leaves.
        let h = net.hidden;
        let players = self
            .values
            .chunks_exact(h)
            .zip(next.values.chunks_exact_mut(h));
        for (p, (old, new)) in players.enumerate() {
            if !self.layout.in_game(p as u8) {
                new.copy_from_slice(old);
                continue;
            }
            let relations = &self.relations[p];
            let relation = usize::from(relations[piece.kingdom.index()]);
            let gone = net.row(feature(relation, piece.kind, from));
            let come = net.row(feature(relation, piece.kind, to));
            match delta.captured {
                Some((at, victim)) => {
                    let relation = usize::from(relations[victim.kingdom.index()]);
                    let taken = net.row(feature(relation, victim.kind, at));
                    let rows = old.iter().zip(gone).zip(come).zip(taken);
                    for (n, (((&o, &g), &c), &t)) in new.iter_mut().zip(rows) {
                        *n = o - i32::from(g) + i32::from(c) - i32::from(t);
                    }
                }
                None => {
                    let rows = old.iter().zip(gone).zip(come);
                    for (n, ((&o, &g), &c)) in new.iter_mut().zip(rows) {
                        *n = o - i32::from(g) + i32::from(c);
                    }
                }
            }
        }
    }
}

fn add(units: &mut [i32], row: &[i16]) {
    for (u, &w) in units.iter_mut().zip(row) {
        *u += i32::from(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::{Preset, Rules, Seating};

    /// Updating the accumulators move by move gives what summing every piece gives, through
    /// captures, falls and a whole game's moves, at every table size.
    #[test]
    fn playing_moves_updates_as_summing_again() {
        let net = Net::drawn(8, 1);
        for (preset, players) in [
            (Preset::Classic, 7),
            (Preset::Wikipedia, 3),
            (Preset::Leventhal, 5),
        ] {
            let rules = Rules::preset(preset);
            let seats = Seating::traditional(players)
                .and_then(|s| s.seats().ok())
                .expect("a seating");
            let mut pos = Position::start_with(rules, seats);
            let mut acc = net.refresh(&pos);
            let mut next = net.refresh(&pos);
            let mut plies = 0;
            let mut relayouts = 0;
            while !pos.is_over() && plies < 700 {
                let moves = pos.legal_moves();
                let capture = moves
                    .iter()
                    .filter(|_| plies % 2 == 0)
                    .find(|m| m.to().and_then(|to| pos.piece_at(to)).is_some());
                let mv = capture.copied().unwrap_or(moves[(plies * 7) % moves.len()]);
                let delta = Delta::of(&pos, mv);
                pos.make(mv);
                acc.play(&net, &delta, &pos, &mut next);
                // A move that changes who holds what leaves them to be summed when needed.
                let stale = next.is_stale();
                if stale {
                    net.refresh_into(&pos, &mut next);
                }
                assert_eq!(next, net.refresh(&pos), "{preset:?} after {plies} moves");
                if next.layout != acc.layout {
                    assert!(stale, "{preset:?} after {plies} moves: not left stale");
                    relayouts += 1;
                }
                std::mem::swap(&mut acc, &mut next);
                plies += 1;
            }
            assert!(plies > 60, "{preset:?}: {plies} moves");
            assert!(
                relayouts > 0,
                "{preset:?}: no kingdom fell in {plies} moves"
            );
        }
    }

    #[test]
    fn relations_are_relative_to_the_player() {
        let pos = Position::start(Rules::default());
        let layout = Layout::of(&pos);
        let r = layout.relations();
        // Seven players: each kingdom's own is 0, the next in turn 1, and so on round.
        for (p, row) in r.iter().enumerate() {
            for (k, relation) in row.iter().enumerate() {
                assert_eq!(usize::from(*relation), (k + 7 - p) % 7);
            }
        }
        // A player's value is its correction less the others'.
        let net = Net::drawn(4, 1);
        let acc = net.refresh(&pos);
        let all: f32 = (0..7).map(|p| net.score(&acc, p)).sum();
        let own = net.score(&acc, 2);
        assert_eq!(net.correction(&acc, 2), (2.0 * own - all).round() as i32);
    }

    #[test]
    fn a_file_reads_back_and_bad_files_are_refused() {
        let net = Net::drawn(3, 1);
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes(&bytes), Ok(net));
        assert_eq!(Net::from_bytes(b"nope"), Err(NetError::NotANet));
        let mut other = bytes.clone();
        other[4] = 9;
        assert_eq!(Net::from_bytes(&other), Err(NetError::Format(9)));
        let short = &bytes[..bytes.len() - 1];
        assert!(matches!(
            Net::from_bytes(short),
            Err(NetError::Length { .. })
        ));
        let mut huge = bytes.clone();
        huge[8..12].copy_from_slice(&5000u32.to_le_bytes());
        assert_eq!(Net::from_bytes(&huge), Err(NetError::Hidden(5000)));
        let mut nan = bytes;
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(Net::from_bytes(&nan), Err(NetError::NotFinite));
    }
}
