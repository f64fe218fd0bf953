//! Group commit: the moves of many games stored in one transaction, with one sync to disk, and
//! each acknowledged only once that transaction is committed (SQLite, and PostgreSQL with the
//! games' rows locked).
//!
//! Moves go to one writer. It takes the first that comes and every other already waiting (at
//! most [`BATCH`], one per game), reads all their games' counts in one statement — a move
//! refused (another stored first, the game over) is answered so and nothing of it written —
//! writes the others' moves in a second and their games' rows in a third, and commits them all
//! at once.
//! Nothing waits for a batch to fill: a move alone is committed at once, and the moves that
//! came meanwhile go together in the next commit. If the commit fails, every move in it is
//! answered with the failure and none is acknowledged.

use std::collections::{HashMap, HashSet};

use sqlx::{AnyPool, Row};
use tokio::sync::{mpsc, oneshot};

use super::{CHANGES_CHANNEL, MoveWrite, StoreError, count, made_by_code};
use crate::protocol::Refusal;

/// The most moves one transaction commits.
pub(super) const BATCH: usize = 256;

type Answer = oneshot::Sender<Result<(), StoreError>>;

/// The way to the writer; the writer ends when every clone of this is dropped.
#[derive(Clone, Debug)]
pub(crate) struct GroupCommit {
    moves: mpsc::UnboundedSender<(MoveWrite, Answer)>,
}

/// Which database the writer writes to.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    /// SQLite: one writer, one connection.
    Sqlite,
    /// PostgreSQL, shared with other servers: this server's id, to lock the games' rows while
    /// their moves are counted and stored and to tell the others what changed.
    Postgres(String),
}

impl GroupCommit {
    /// Starts the writer on `pool` (within a Tokio runtime).
    pub(crate) fn start(pool: AnyPool, kind: Kind) -> GroupCommit {
        let (moves, waiting) = mpsc::unbounded_channel();
        tokio::spawn(writer(pool, kind, waiting));
        GroupCommit { moves }
    }

    /// Stores `w` with whatever other moves are waiting; returns once they are committed.
    pub(crate) async fn write(&self, w: MoveWrite) -> Result<(), StoreError> {
        let (answer, answered) = oneshot::channel();
        self.moves
            .send((w, answer))
            .map_err(|_| StoreError::commit("the database is closed"))?;
        answered
            .await
            .map_err(|_| StoreError::commit("the database is closed"))?
    }
}

async fn writer(
    pool: AnyPool,
    kind: Kind,
    mut waiting: mpsc::UnboundedReceiver<(MoveWrite, Answer)>,
) {
    let mut batch: Vec<(MoveWrite, Answer)> = Vec::with_capacity(BATCH);
    let mut later = Vec::new();
    loop {
        if batch.is_empty() {
            match waiting.recv().await {
                Some(first) => batch.push(first),
                None => return,
            }
        }
        while batch.len() < BATCH {
            match waiting.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        // One move per game in a transaction (a game's moves come one after the other, as
        // the hub holds the game while storing; a second one waits for the next commit).
        let mut games = HashSet::with_capacity(batch.len());
        let mut i = 0;
        while i < batch.len() {
            if games.insert(batch[i].0.game.clone()) {
                i += 1;
            } else {
                later.push(batch.remove(i));
            }
        }
        commit(&pool, &kind, &mut batch).await;
        batch.append(&mut later);
    }
}

/// Stores and commits `batch` (one move per game), answering each move; leaves `batch`
/// empty. Three statements whatever its size: the games' counts, the moves, the games' rows.
async fn commit(pool: &AnyPool, kind: &Kind, batch: &mut Vec<(MoveWrite, Answer)>) {
    let mut tx = match pool.begin().await {
        Ok(tx) => tx,
        Err(e) => return fail(batch.drain(..).map(|(_, a)| a), &e.to_string()),
    };
    let counts = match counts(&mut tx, kind, batch).await {
        Ok(counts) => counts,
        Err(e) => {
            let _ = tx.rollback().await;
            return fail(batch.drain(..).map(|(_, a)| a), &e.to_string());
        }
    };
    // Refused by their count: answered now, nothing of them written.
    let mut accepted = Vec::with_capacity(batch.len());
    for (w, answer) in batch.drain(..) {
        let refused = match counts.get(&w.game.0) {
            None => Some(StoreError::Refused(Refusal::NoGame)),
            Some(None) => Some(StoreError::Refused(Refusal::GameOver)),
            Some(Some(has)) if *has != w.ply => Some(StoreError::Refused(Refusal::MovedOn {
                has: *has,
                ply: w.ply,
            })),
            Some(Some(_)) => None,
        };
        match refused {
            Some(e) => {
                let _ = answer.send(Err(e));
            }
            None => accepted.push((w, answer)),
        }
    }
    if accepted.is_empty() {
        let _ = tx.rollback().await;
        return;
    }
    let written = match write(&mut tx, kind, &accepted).await {
        Ok(()) => tx.commit().await.map_err(|e| e.to_string()),
        Err(e) => {
            let _ = tx.rollback().await;
            Err(e.to_string())
        }
    };
    match written {
        Ok(()) => {
            for (_, answer) in accepted {
                let _ = answer.send(Ok(()));
            }
        }
        Err(why) => fail(accepted.into_iter().map(|(_, a)| a), &why),
    }
}

/// Answers every move with the failure of their transaction.
fn fail(answers: impl Iterator<Item = Answer>, why: &str) {
    for answer in answers {
        let _ = answer.send(Err(StoreError::commit(why.to_owned())));
    }
}

/// `$first, $first+1, …` for `n` values, in parentheses.
fn row(first: usize, n: usize) -> String {
    let places: Vec<String> = (first..first + n).map(|i| format!("${i}")).collect();
    format!("({})", places.join(", "))
}

/// Each game's number of moves (`None`: finished), for the games of `batch` that exist; on
/// PostgreSQL their rows are locked until the transaction ends, so that another server storing
/// a move of one of them waits and then counts this one.
async fn counts(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    kind: &Kind,
    batch: &[(MoveWrite, Answer)],
) -> Result<HashMap<String, Option<u32>>, StoreError> {
    let lock = match kind {
        Kind::Sqlite => "",
        // In the order of their ids, so that two servers' batches never wait for each other.
        Kind::Postgres(_) => " ORDER BY g.id FOR UPDATE OF g",
    };
    let sql = format!(
        "SELECT g.id, g.finished_ms, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS moves \
         FROM games g WHERE g.id IN {}{lock}",
        row(1, batch.len())
    );
    let mut query = sqlx::query(&sql);
    for (w, _) in batch {
        query = query.bind(&w.game.0);
    }
    let rows = query.fetch_all(&mut **tx).await?;
    let mut counts = HashMap::with_capacity(rows.len());
    for r in rows {
        let finished = r.try_get::<Option<i64>, _>("finished_ms")?.is_some();
        let moves = count(&r, "moves")?;
        counts.insert(r.try_get("id")?, (!finished).then_some(moves));
    }
    Ok(counts)
}

/// The e-mails and notifications the moves of `accepted` write, one statement for each: the
/// e-mails kept only for players with a confirmed address, the notifications only for players
/// with a device subscribed (none for most moves: nothing is written then).
async fn write_mail(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    accepted: &[(MoveWrite, Answer)],
) -> Result<(), StoreError> {
    for pushed in [false, true] {
        let notes: Vec<(&MoveWrite, &super::mail::MailNote)> = accepted
            .iter()
            .flat_map(|(w, _)| w.mail.iter().map(move |note| (w, note)))
            .filter(|(_, note)| note.kind.pushed() == pushed)
            .collect();
        if notes.is_empty() {
            continue;
        }
        let rows: Vec<String> = (0..notes.len()).map(|i| row(i * 6 + 1, 6)).collect();
        let only = if pushed {
            // (SQLite needs a WHERE before an upsert's ON CONFLICT after a join.)
            "JOIN (SELECT DISTINCT player FROM push_subscriptions) d ON d.player = v.column2 \
             WHERE 1 = 1"
        } else {
            "JOIN mail_addresses a ON a.player = v.column2 WHERE a.confirmed_ms IS NOT NULL"
        };
        let sql = format!(
            "INSERT INTO mail_outbox (kind, player, game_id, ply, made_ms, not_before_ms) \
             SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6 \
             FROM (VALUES {}) AS v {only} ON CONFLICT DO NOTHING",
            rows.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for (w, note) in notes {
            query = query
                .bind(note.kind.code())
                .bind(&note.player.0)
                .bind(&w.game.0)
                .bind(i64::from(note.ply))
                .bind(w.now)
                .bind(note.not_before_ms);
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Writes the moves of `accepted`, their games' rows, the e-mails they write, and drops their
/// take-backs: three statements, a fourth for e-mails (and on PostgreSQL one more, telling
/// the other servers).
async fn write(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    kind: &Kind,
    accepted: &[(MoveWrite, Answer)],
) -> Result<(), StoreError> {
    let rows: Vec<String> = (0..accepted.len()).map(|i| row(i * 6 + 1, 6)).collect();
    let sql = format!(
        "INSERT INTO moves (game_id, ply, mv, seat, stand_in, played_ms) VALUES {}",
        rows.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for (w, _) in accepted {
        query = query
            .bind(&w.game.0)
            .bind(i64::from(w.ply))
            .bind(w.mv.to_string())
            .bind(i64::from(w.seat))
            .bind(made_by_code(w.by))
            .bind(w.now);
    }
    query.execute(&mut **tx).await?;
    // UPDATE … FROM (VALUES …), in SQLite and PostgreSQL alike: the columns are column1, …
    let rows: Vec<String> = (0..accepted.len()).map(|i| row(i * 4 + 1, 4)).collect();
    let sql = format!(
        "UPDATE games SET moved_ms = v.column2, due_ms = v.column3, finished_ms = v.column4 \
         FROM (VALUES {}) AS v WHERE games.id = v.column1",
        rows.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for (w, _) in accepted {
        query = query
            .bind(&w.game.0)
            .bind(w.now)
            .bind(w.due_in.map(|d| w.now.saturating_add(d)))
            .bind(w.ends.then_some(w.now));
    }
    query.execute(&mut **tx).await?;
    // A move drops the take-back being asked.
    let sql = format!(
        "DELETE FROM take_backs WHERE game_id IN {}",
        row(1, accepted.len())
    );
    let mut query = sqlx::query(&sql);
    for (w, _) in accepted {
        query = query.bind(&w.game.0);
    }
    query.execute(&mut **tx).await?;
    write_mail(tx, accepted).await?;
    if let Kind::Postgres(server) = kind {
        let sql = format!(
            "SELECT pg_notify($1, v.column1) FROM (VALUES {}) AS v",
            (0..accepted.len())
                .map(|i| row(i + 2, 1))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut query = sqlx::query(&sql).bind(CHANGES_CHANNEL);
        for (w, _) in accepted {
            query = query.bind(format!("{server} {}", w.game.0));
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}
