//! `qiguo online play`: a seat of yours played by a computer until the game ends, connecting
//! again whenever the server goes away.

use std::io::Write;

use clap::Subcommand;
use qiguo_ai::{Engine, Level, LevelSearch, Limits, TableSize};
use qiguo_client::{Backoff, Client, ClientError};
use qiguo_protocol::{Answer, Ask, Event, GameId, MadeBy, Refusal};
use qiguo_rules::{Game, Kingdom, Move, notation};
use serde_json::json;

use super::{OnlineArgs, OnlineError, connect, print_line};

/// The command of a computer playing a seat.
#[derive(Subcommand, Debug)]
pub enum PlayCommand {
    /// Play one of your seats as a computer until the game ends, connecting again whenever
    /// the server goes away; prints each move made.
    Play {
        /// The game's id.
        game: String,
        /// A kingdom of your seat.
        #[arg(long, value_name = "KINGDOM")]
        seat: Kingdom,
        /// Its strength: random, easy, medium or hard.
        #[arg(long, value_name = "L", default_value = "medium")]
        level: Level,
    },
}

impl PlayCommand {
    /// Plays the seat, on connections of its own, until the game ends.
    pub(super) async fn run(&self, args: &OnlineArgs) -> Result<(), OnlineError> {
        let PlayCommand::Play { game, seat, level } = self;
        play(args, &GameId(game.clone()), *seat, *level).await
    }
}

/// `play`: the seat of `kingdom` in `id`, played by a computer of `level` until the game ends.
async fn play(
    args: &OnlineArgs,
    id: &GameId,
    kingdom: Kingdom,
    level: Level,
) -> Result<(), OnlineError> {
    let mut engine = Some(Engine::new(TableSize::entries_log2(18)));
    // The client crate's reconnection policy, as the window's and the page's.
    let mut backoff = Backoff::seeded_now();
    loop {
        match play_connected(args, id, kingdom, level, &mut engine, &mut backoff).await {
            Ok(()) => return Ok(()),
            // Refusals are final (not your seat, no such game); a lost server is waited for.
            Err(e @ ClientError::Refused { .. }) => return Err(e.into()),
            Err(e) => {
                let wait = backoff.next_wait();
                let _ = writeln!(
                    std::io::stderr(),
                    "qiguo: {e}; connecting again in {:.1} s",
                    wait.as_secs_f64()
                );
                tokio::time::sleep(wait).await;
            }
        }
    }
}

async fn play_connected(
    args: &OnlineArgs,
    id: &GameId,
    kingdom: Kingdom,
    level: Level,
    engine: &mut Option<Engine>,
    backoff: &mut Backoff,
) -> Result<(), ClientError> {
    let mut client = match connect(&args.server, &args.name, args.trust()).await {
        Ok(client) => client,
        // A refusal at sign-in is final; the rest is waited for, as a lost server.
        Err(OnlineError::Client(e)) => return Err(e),
        Err(e) => return Err(ClientError::Connection(e.to_string())),
    };
    // Signed in: a later loss starts the waits from the shortest again.
    backoff.reset();
    let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await? else {
        return Err(ClientError::Protocol("not a game".into()));
    };
    let seat = view
        .record
        .seats
        .player(kingdom)
        .filter(|&s| view.seats.get(usize::from(s)).is_some_and(|s| s.yours))
        .ok_or_else(|| {
            let refusal = Refusal::SeatNotOpen { kingdom };
            ClientError::Refused {
                why: format!("the seat of {kingdom} is not yours"),
                refusal,
            }
        })?;
    let mut game = view
        .record
        .replay()
        .map_err(|e| ClientError::Protocol(e.to_string()))?;
    loop {
        let pos = game.position();
        if pos.is_over() {
            print_line(&json!({ "game": id, "over": true, "moves": game.len() }));
            return Ok(());
        }
        if pos.player_of(pos.to_move()) == seat {
            let ply = game.len() as u32;
            let pos = pos.clone();
            let mut searcher = engine
                .take()
                .unwrap_or_else(|| Engine::new(TableSize::entries_log2(18)));
            let (searcher, best) = tokio::task::spawn_blocking(move || {
                let limits = Limits {
                    movetime: Some(level.movetime()),
                    ..Limits::default()
                };
                let best = searcher
                    .search(&pos, level, &limits, u64::from(ply))
                    .map(|r| r.best);
                (searcher, best)
            })
            .await
            .map_err(|e| ClientError::Protocol(e.to_string()))?;
            *engine = Some(searcher);
            let Some(mv) = best else {
                continue;
            };
            let asked = client
                .ask(Ask::Move {
                    game: id.clone(),
                    ply,
                    mv: mv.to_string(),
                })
                .await;
            match asked {
                Ok(_) => print_line(&json!({ "game": id, "ply": ply, "move": mv.to_string() })),
                // The game moved on meanwhile (a take-back, another server): read it afresh.
                Err(ClientError::Refused { why, .. }) => {
                    return Err(ClientError::Protocol(format!("move refused: {why}")));
                }
                Err(e) => return Err(e),
            }
            // The move comes back as an event, like everyone's.
            while game.len() <= ply as usize {
                apply(&mut client, id, &mut game).await?;
            }
            continue;
        }
        // Everything that happened, in order, until it is this seat's turn again.
        apply(&mut client, id, &mut game).await?;
    }
}

/// Applies the next event of game `id` to `game`.
async fn apply(client: &mut Client, id: &GameId, game: &mut Game) -> Result<(), ClientError> {
    match client.next_event().await? {
        Event::Moved {
            game: g,
            ply,
            mv,
            by,
            ..
        } if g == *id && ply as usize == game.len() => {
            let mv: Move =
                notation::parse_move(&mv).map_err(|e| ClientError::Protocol(e.to_string()))?;
            let played = if by == MadeBy::OverduePass {
                game.pass_overdue().map(|_| ())
            } else {
                game.play(mv).map(|_| ())
            };
            played.map_err(|e| ClientError::Protocol(e.to_string()))?;
        }
        Event::TakenBack { game: g, ply, .. } if g == *id => {
            while game.len() > ply as usize {
                game.undo();
            }
        }
        Event::Stale { game: g } if g == *id => {
            let Answer::Game(view) = client.ask(Ask::Open { game: id.clone() }).await? else {
                return Err(ClientError::Protocol("not a game".into()));
            };
            *game = view
                .record
                .replay()
                .map_err(|e| ClientError::Protocol(e.to_string()))?;
        }
        _ => {}
    }
    Ok(())
}
