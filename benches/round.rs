//! The wall time of a round of six computer players in the game, from a person's move to
//! that person's next turn, per level (and per pace): the searches, the pauses between moves
//! and the glides of the stones, on the game's own logic without a window (`cargo bench
//! --bench round`). Figures and machine in `docs/performance.md`.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use qiguo::game::computer::Thinking;
use qiguo::game::headless::Headless;
use qiguo::game::pace::PaceChoice;
use qiguo::game::state::{Match, MoveRequested, TurnPhase};
use qiguo_ai::Level;
use qiguo_rules::Game;

mod common;
use common::{OPENING_PLIES, medium_move, mid_game};

/// The headless game (the tests' builder, as played): a person as Qin, six computers of
/// `level`, at `pace`.
fn app(game: Game, level: Level, pace: PaceChoice) -> App {
    let mut levels = vec![Some(level); 7];
    levels[0] = None;
    Headless::from_game(game)
        .levels(&levels)
        .pace(pace)
        .as_played()
        .build()
}

fn phase(app: &App) -> TurnPhase {
    *app.world().resource::<State<TurnPhase>>().get()
}

/// Plays the person's move (the one Medium would choose), then runs frames in real time until
/// the person is to move again; returns the wall time from the move to that turn, and the
/// time the six searches took.
fn round(app: &mut App) -> (Duration, Duration) {
    let the_match = app.world().resource::<Match>().clone();
    let mv = medium_move(the_match.game());
    app.world_mut()
        .write_message(MoveRequested::by_person(&the_match, mv));
    let start = Instant::now();
    let len = the_match.game().len();
    loop {
        app.update();
        let now = app.world().resource::<Match>().game().len();
        if now > len + 1 && matches!(phase(app), TurnPhase::AwaitingInput | TurnPhase::GameOver) {
            return (
                start.elapsed(),
                app.world().resource::<Thinking>().searched(),
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the round never ended"
        );
        // About the pace of a fast display, without spinning a core the searches need.
        std::thread::sleep(Duration::from_millis(4));
    }
}

fn main() {
    // `cargo test --benches` runs this with `--test`: one quick round is enough there.
    let quick = std::env::args().any(|a| a == "--test");
    let game = mid_game();
    println!("a round of six computers after {OPENING_PLIES} moves (classic), wall time:");
    let levels: &[Level] = if quick {
        &[Level::Easy]
    } else {
        &[Level::Easy, Level::Medium, Level::Hard]
    };
    println!(
        "  {:<8} {:>8} {:>8} {:>8}   (searching, in all)",
        "level", "calm", "brisk", "instant"
    );
    for &level in levels {
        let times = PaceChoice::ALL.map(|pace| round(&mut app(game.clone(), level, pace)));
        println!(
            "  {:<8} {:>7.2}s {:>7.2}s {:>7.2}s   ({:.2}s, {:.2}s, {:.2}s)",
            level.name(),
            times[0].0.as_secs_f64(),
            times[1].0.as_secs_f64(),
            times[2].0.as_secs_f64(),
            times[0].1.as_secs_f64(),
            times[1].1.as_secs_f64(),
            times[2].1.as_secs_f64()
        );
    }
}
