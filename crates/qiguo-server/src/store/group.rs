//! Group commit on SQLite: the moves of many games stored in one transaction, with one sync to
//! disk, and each acknowledged only once that transaction is committed.
//!
//! Moves go to one writer. It takes the first that comes and every other already waiting (at
//! most [`BATCH`]), stores each — a move refused (another stored first, the game over) is
//! refused before anything of it is written, and answered so — and commits them all at once.
//! Nothing waits for a batch to fill: a move alone is committed at once, and the moves that
//! came meanwhile go together in the next commit. If the commit fails, every move in it is
//! answered with the failure and none is acknowledged.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::{MoveWrite, StoreError, write_move};

/// The most moves one transaction commits.
pub const BATCH: usize = 256;

type Answer = oneshot::Sender<Result<(), StoreError>>;

/// The way to the writer; the writer ends when every clone of this is dropped.
#[derive(Clone, Debug)]
pub(crate) struct GroupCommit {
    moves: mpsc::UnboundedSender<(MoveWrite, Answer)>,
}

impl GroupCommit {
    /// Starts the writer on `pool` (within a Tokio runtime).
    pub(crate) fn start(pool: AnyPool) -> GroupCommit {
        let (moves, waiting) = mpsc::unbounded_channel();
        tokio::spawn(writer(pool, waiting));
        GroupCommit { moves }
    }

    /// Stores `w` with whatever other moves are waiting; returns once they are committed.
    pub(crate) async fn write(&self, w: MoveWrite) -> Result<(), StoreError> {
        let (answer, answered) = oneshot::channel();
        self.moves
            .send((w, answer))
            .map_err(|_| StoreError::Commit("the database is closed".into()))?;
        answered
            .await
            .map_err(|_| StoreError::Commit("the database is closed".into()))?
    }
}

async fn writer(pool: AnyPool, mut waiting: mpsc::UnboundedReceiver<(MoveWrite, Answer)>) {
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(first) = waiting.recv().await {
        batch.push(first);
        while batch.len() < BATCH {
            match waiting.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        commit(&pool, &mut batch).await;
    }
}

/// Stores and commits `batch`, answering each move; leaves `batch` empty.
async fn commit(pool: &AnyPool, batch: &mut Vec<(MoveWrite, Answer)>) {
    let mut tx = match pool.begin().await {
        Ok(tx) => tx,
        Err(e) => {
            let why = e.to_string();
            for (_, answer) in batch.drain(..) {
                let _ = answer.send(Err(StoreError::Commit(why.clone())));
            }
            return;
        }
    };
    let mut stored = Vec::with_capacity(batch.len());
    let mut failed = None;
    for (w, answer) in batch.drain(..) {
        if failed.is_some() {
            stored.push(answer);
            continue;
        }
        match write_move(&mut tx, &w, None).await {
            Ok(()) => stored.push(answer),
            // Refused by its count: nothing of it was written; the others go on.
            Err(e @ (StoreError::OutOfTurn { .. } | StoreError::Finished | StoreError::NoGame)) => {
                let _ = answer.send(Err(e));
            }
            // The database failed midway: nothing of this transaction is kept.
            Err(e) => {
                failed = Some(e.to_string());
                stored.push(answer);
            }
        }
    }
    let committed = match failed {
        Some(why) => {
            let _ = tx.rollback().await;
            Err(why)
        }
        None => tx.commit().await.map_err(|e| e.to_string()),
    };
    for answer in stored {
        let _ = answer.send(match &committed {
            Ok(()) => Ok(()),
            Err(why) => Err(StoreError::Commit(why.clone())),
        });
    }
}
