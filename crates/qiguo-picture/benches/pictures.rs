//! How long a game's pictures take to draw, and how large they are: a card of a middle game and
//! the animation of a whole game, from a game of uniformly random legal moves (seeded, so each
//! run draws the same). `cargo bench -p qiguo-picture`; figures in docs/performance.md.

use std::time::{Duration, Instant};

use qiguo_picture::card::{CardText, KingdomLine, card};
use qiguo_picture::{animation, encode, words_face};
use qiguo_rules::{Game, Kingdom, Position, Rules};

/// A game of `plies` random legal moves (fewer if it ends), from a fixed seed.
fn random_game(plies: usize) -> Game {
    let mut game = Game::new(Position::start(Rules::default()));
    let mut seed = 0x5eed_u64;
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.position().is_over() {
            break;
        }
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        game.play(moves[(seed >> 33) as usize % moves.len()])
            .unwrap();
    }
    game
}

/// The median and the fastest of `runs` timings of `work`, and what it made the last time.
fn time<T>(runs: usize, mut work: impl FnMut() -> T) -> (Duration, Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut made = None;
    for _ in 0..runs {
        let start = Instant::now();
        made = Some(work());
        times.push(start.elapsed());
    }
    times.sort();
    (times[runs / 2], times[0], made.expect("at least one run"))
}

fn main() {
    let face = words_face();
    let middle = random_game(120);
    let text = CardText {
        title: "Qiguo 七國象棋".into(),
        summary: "Move 121: Chu · Bo to move.".into(),
        kingdoms: Kingdom::ALL
            .into_iter()
            .map(|kingdom| KingdomLine {
                kingdom,
                who: "computer (medium)".into(),
                state: String::new(),
                out: false,
            })
            .collect(),
        footer: "qiguo.example".into(),
    };
    let last = middle.last_report().map(|r| (r.mv, r.mover));
    let (median, best, png) = time(9, || {
        encode::png(&card(&face, middle.position(), last, &text)).unwrap()
    });
    println!(
        "card (1200×630 PNG), move 121: median {:.1} ms, best {:.1} ms, {} KB",
        median.as_secs_f64() * 1e3,
        best.as_secs_f64() * 1e3,
        png.len() / 1024
    );
    for plies in [100, 500] {
        let game = random_game(plies);
        let (median, best, gif) = time(5, || animation::animation(&face, &game, 608).unwrap());
        println!(
            "animation (608 px GIF) of {} moves: median {:.0} ms, best {:.0} ms, {} KB",
            game.len(),
            median.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3,
            gif.len() / 1024
        );
    }
}
