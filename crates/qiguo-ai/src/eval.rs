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

/// Points for each General or kingdom taken towards the kingdom goal.
const GOAL_STEP: i32 = 2_500;
/// Points for reaching the capture goal, scaled by the square of the progress.
const CAPTURE_GOAL: i32 = 3_000;
/// Mobility: points per legal move.
const MOBILITY: i32 = 3;
/// A go-between next to its General.
const SHIELD: i32 = 40;

/// Whether one of `k`'s Generals stands where an enemy could take it.
pub fn general_exposed(pos: &Position, k: Kingdom) -> bool {
    let foes = pos.enemies(k);
    pos.army(k)
        .any(|(point, piece)| piece.kind == PieceKind::General && pos.is_attacked(point, foes))
}

/// Mobility: points per legal move the kingdom would have, its General's and go-betweens'
/// moves left out. Both move any distance in eight directions, so counting their moves paid a
/// General for walking into the open and a go-between for wandering about (measured in
/// `docs/computer-players.md`).
fn mobility(pos: &Position, k: Kingdom) -> i32 {
    let moves: u64 = pos
        .army(k)
        .filter(|(_, p)| !matches!(p.kind, PieceKind::General | PieceKind::GoBetween))
        .map(|(point, _)| pos.count_moves_from(point))
        .sum();
    MOBILITY * moves as i32
}

/// A kingdom's score without mobility (the costly part).
fn static_score(pos: &Position, k: Kingdom) -> i32 {
    let mut army = 0;
    let mut generals: [Option<Point>; 4] = [None; 4];
    let mut n_generals = 0;
    let mut go_betweens: [Option<Point>; 4] = [None; 4];
    let mut n_go = 0;
    for (point, piece) in pos.army(k) {
        army += piece_value(piece.kind);
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
    let mut score = army;
    if n_generals > 0 {
        // The General carries the army: losing it loses everything.
        score += army;
    }
    // Nearness to the loss threshold puts the whole army at risk.
    let threshold = pos.rules().beaten_at_losses as i32;
    let losses = pos.losses(k) as i32;
    score -= army * 6 * losses * losses / (10 * threshold * threshold);
    let foes = pos.enemies(k);
    // An attacked General: the same cost whoever is to move, so that leaves at every depth
    // compare (the search sees whether it can step away or is taken).
    let exposed = army / 4;
    for g in generals.iter().flatten() {
        if pos.is_attacked(*g, foes) {
            score -= exposed;
        }
        let near = go_betweens
            .iter()
            .flatten()
            .filter(|gb| {
                (gb.file() as i32 - g.file() as i32).abs() <= 1
                    && (gb.rank() as i32 - g.rank() as i32).abs() <= 1
            })
            .count();
        score += SHIELD * near.min(2) as i32;
    }
    score
}

/// Each player's score (index = player number), and which players are still in the game.
pub fn player_scores(pos: &Position) -> ([i32; 7], [bool; 7]) {
    scores(pos, |_| true)
}

/// The points of the player of kingdom `k` for its progress towards winning: its captures
/// against the capture goal (growing with the square of the share taken) and the Generals or
/// kingdoms taken towards the kingdom goal. Part of the player's score.
pub fn progress_score(pos: &Position, k: Kingdom) -> i32 {
    let captures = pos.player_captures(k) as i32;
    let goal = pos.rules().capture_goal as i32;
    CAPTURE_GOAL * captures * captures / (goal * goal)
        + GOAL_STEP * pos.kingdom_goal_progress(k) as i32
}

/// Players' scores, with mobility counted only for the kingdoms `mobile` picks.
fn scores(pos: &Position, mobile: impl Fn(Kingdom) -> bool) -> ([i32; 7], [bool; 7]) {
    let mut scores = [0; 7];
    let mut alive = [false; 7];
    for k in pos.alive().iter() {
        let p = pos.player_of(k) as usize;
        if !alive[p] {
            alive[p] = true;
            // The player's progress towards winning, counted once.
            scores[p] += progress_score(pos, k);
        }
        scores[p] += static_score(pos, k);
        if mobile(k) {
            scores[p] += mobility(pos, k);
        }
    }
    (scores, alive)
}

/// The position's value for `player`: its score minus the sum of the other players' scores
/// (as Ludii's BRS+ does). Not for finished games (the search scores those). Only differences
/// between values mean something: at the start it is about minus five armies.
///
/// The sum, not the mean: a piece taken from a rival is then worth to the player what its own
/// piece lost costs it. With the mean, a capture earned a sixth of a loss, and a player that
/// looked ahead (Hard, against the worst of six replies) protected rather than took (measured
/// in `docs/computer-players.md`). Not the strongest other either, whose every change swung
/// the value of all the player's moves alike.
/// Mobility, the costly term, is counted for `player` only.
pub fn evaluate(pos: &Position, player: u8) -> i32 {
    let (base, alive) = scores(pos, |k| pos.player_of(k) == player);
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
