//! Group commit on SQLite: the moves of many games stored in one transaction, with one sync to
//! disk, and each acknowledged only once that transaction is committed.
//!
//! Moves go to one writer. It takes the first that comes and every other already waiting (at
//! most [`BATCH`]), stores each behind a savepoint of its own — a move refused (another stored
//! first, the game over) is rolled back alone and answered so — and commits them all at once.
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
    for (w, answer) in batch.drain(..) {
        let result = savepoint(&mut tx, &w).await;
        match result {
            Ok(()) => stored.push(answer),
            Err(e) => {
                let _ = answer.send(Err(e));
            }
        }
    }
    let committed = tx.commit().await.map_err(|e| e.to_string());
    for answer in stored {
        let _ = answer.send(match &committed {
            Ok(()) => Ok(()),
            Err(why) => Err(StoreError::Commit(why.clone())),
        });
    }
}

/// Stores one move behind a savepoint: kept if it is stored, rolled back alone if refused.
async fn savepoint(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    w: &MoveWrite,
) -> Result<(), StoreError> {
    sqlx::query("SAVEPOINT one_move").execute(&mut **tx).await?;
    match write_move(tx, w, None).await {
        Ok(()) => {
            sqlx::query("RELEASE one_move").execute(&mut **tx).await?;
            Ok(())
        }
        Err(e) => {
            sqlx::query("ROLLBACK TO one_move")
                .execute(&mut **tx)
                .await?;
            sqlx::query("RELEASE one_move").execute(&mut **tx).await?;
            Err(e)
        }
    }
}
