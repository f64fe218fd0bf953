//! What the game's benches share: the position they measure from.

use qiguo_ai::{Engine, Level, Limits, TableSize};
use qiguo_rules::{Game, Kingdom, Position, Preset, Rules};

/// Moves played by Easy players before a round is measured (twelve rounds of seven).
pub const OPENING_PLIES: usize = 84;

/// A game between Easy players (by node budget, so the same on every machine),
/// `OPENING_PLIES` moves in, with Qin to move.
pub fn mid_game() -> Game {
    let mut game = Game::new(Position::start(Rules::preset(Preset::Classic)));
    let mut engine = Engine::new(TableSize::entries_log2(16));
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    while game.len() < OPENING_PLIES || game.position().to_move() != Kingdom::Qin {
        let pos = game.position().clone();
        let best = engine
            .search(&pos, Level::Easy, &limits, game.len() as u64)
            .expect("the opening game goes on")
            .best;
        game.play(best).expect("the engine plays legal moves");
    }
    game
}

/// The move Medium would choose for the side to move in `game`, by node budget.
pub fn medium_move(game: &Game) -> qiguo_rules::Move {
    Engine::new(TableSize::entries_log2(16))
        .search(
            game.position(),
            Level::Medium,
            &Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
            1,
        )
        .expect("the side to move has a move")
        .best
}
