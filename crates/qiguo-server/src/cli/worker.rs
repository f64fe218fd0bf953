//! `qiguo-server review`: a worker that only reviews finished games, from the same database as
//! the servers (the reviews they ask for and those players ask for), for an operator who adds a
//! machine for them. It serves no one; it stops on SIGTERM or Ctrl-C, giving back the review it
//! was working on.

use std::process::ExitCode;

use tokio::sync::watch;

use super::{ServerArgs, Signals, fail, start_up};
use crate::log::{Log, note};
use crate::reviewing::Reviewing;

/// Reviews finished games from the database of `args`, `args.reviewers` at once (at least
/// one), until SIGTERM or Ctrl-C: exit code 0 after it stops, 1 when it cannot start, 2 for
/// options that name no database.
pub fn review(args: &ServerArgs, program: &str) -> ExitCode {
    let (config, rt) = match start_up(args, program) {
        Ok(started) => started,
        Err(code) => return code,
    };
    rt.block_on(async {
        let store = match crate::store::Store::open(&config.db).await {
            Ok(store) => store,
            Err(e) => return fail(program, &e.to_string(), 1),
        };
        let log = Log::tracing();
        let reviewers = config.reviewers.max(1);
        let nodes = config.review_nodes;
        note!(
            log,
            INFO,
            "reviewing",
            worker = store.server_id(),
            reviewers = reviewers,
            nodes = nodes
        );
        let (closing, closed) = watch::channel(false);
        // The players are told through the servers on a PostgreSQL database (on SQLite, they
        // find the review when they next open the game).
        let teller = store.clone();
        let tell: crate::reviewing::Tell = std::sync::Arc::new(move |player, event| {
            let (store, player) = (teller.clone(), player.clone());
            tokio::spawn(async move {
                if let Err(e) = store.tell_player(&player, &event).await {
                    tracing::warn!(target: "qiguo_server", "player {} not told of a review: {e}", player.0);
                }
            });
        });
        let reviewing = Reviewing::new(store.clone(), log.clone(), nodes, None, tell, None);
        let loops = reviewing.start(reviewers, closed);
        let mut signals = Signals::new();
        let signal = loop {
            match signals.next().await {
                "SIGHUP" => {}
                other => break other,
            }
        };
        note!(log, INFO, "stopping", signal = signal);
        let _ = closing.send(true);
        for running in loops {
            let _ = running.await;
        }
        store.close().await;
        ExitCode::SUCCESS
    })
}
