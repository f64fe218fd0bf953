//! The reviews' rows: a job for every finished quick, table or rated game and for any finished
//! game a player asks for, claimed by one server or worker at a time, and the review kept as
//! JSON (`qiguo_ai::review::GameReview`) once done.
//!
//! The finished games are asked for by whoever works next ([`Store::ask_reviews_since`]), not in
//! the transaction that finishes a game, so that the moves' group commit stays as it is and a
//! game finished by a server killed the next moment is still found. A worker claims the waiting
//! job first in line for [`REVIEW_CLAIM_FOR`] (on PostgreSQL skipping one another worker is
//! claiming at that moment), renews the claim while it works, and writes the review with the
//! claim released; a claim run out is anyone's again, and a job tried [`REVIEW_ATTEMPTS`] times
//! is given up with its error kept for the operator.

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;
use crate::model::MailKind;
use qiguo_ai::puzzles::Puzzle;

/// How long a claim on a review holds before another worker may take the job; a worker renews
/// it well before (a game of 400 moves takes about a minute of a core).
pub const REVIEW_CLAIM_FOR: i64 = 5 * 60 * 1000;

/// How many reviews one player may wait for at once (asked and not ready): each is a minute
/// or more of a core.
pub const REVIEWS_ASKED_AT_ONCE: u32 = 3;

/// How many times a job is claimed before it is given up.
pub const REVIEW_ATTEMPTS: u32 = 3;

/// A review job claimed by a worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewJob {
    /// The game.
    pub game: GameId,
    /// Whether a player asked for it (and waits).
    pub asked: bool,
    /// The player who asked, if one did.
    pub asked_by: Option<PlayerId>,
    /// The claims so far, this one included.
    pub attempts: u32,
}

/// Where a game's review stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewState {
    /// Not asked for.
    NotAsked,
    /// Waiting for a worker, or being worked on.
    Waiting,
    /// Done: the review as JSON, and the positions searched for each position.
    Done {
        /// The review (`qiguo_ai::review::GameReview` as JSON).
        json: String,
        /// Positions searched for each position.
        nodes: u64,
    },
    /// Given up (the game could not be reviewed): why.
    Failed(String),
}

impl Store {
    /// Asks for the review of every quick, table or rated game finished at or after `since_ms`
    /// that has none yet; how many were asked for.
    pub async fn ask_reviews_since(&self, since_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "INSERT INTO reviews (game_id, priority, asked_ms) \
             SELECT g.id, 0, g.finished_ms FROM games g \
             WHERE g.finished_ms IS NOT NULL AND g.finished_ms >= $1 \
             AND (g.quick IS NOT NULL OR g.rated = 1 \
                  OR EXISTS (SELECT 1 FROM public_tables t WHERE t.game_id = g.id)) \
             AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.game_id = g.id) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(since_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// `player` asks for finished game `game`'s review: it goes to the front of the line (if it
    /// is not done already), and `player` is told when it is ready. Refused for a game that is
    /// not finished (a review would be a hint in a game under way) or does not exist, and for a
    /// player who waits for [`REVIEWS_ASKED_AT_ONCE`] reviews already.
    pub async fn ask_review(
        &self,
        game: &GameId,
        player: &PlayerId,
    ) -> Result<ReviewState, StoreError> {
        let finished: Option<Option<i64>> =
            sqlx::query_scalar("SELECT finished_ms FROM games WHERE id = $1")
                .bind(&game.0)
                .fetch_optional(&self.pool)
                .await?;
        match finished {
            None => return Err(StoreError::Refused(Refusal::NoGame)),
            Some(None) => return Err(StoreError::Refused(Refusal::NotOver)),
            Some(Some(_)) => {}
        }
        let state = self.review_state(game).await?;
        if matches!(state, ReviewState::Done { .. } | ReviewState::Failed(_)) {
            return Ok(state);
        }
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM reviews WHERE asked_by = $1 AND done_ms IS NULL \
             AND game_id <> $2",
        )
        .bind(&player.0)
        .bind(&game.0)
        .fetch_one(&self.pool)
        .await?;
        if waiting >= i64::from(REVIEWS_ASKED_AT_ONCE) {
            return Err(StoreError::Refused(Refusal::TooManyReviewsAsked {
                max: REVIEWS_ASKED_AT_ONCE,
            }));
        }
        let now = self.now();
        sqlx::query(
            "INSERT INTO reviews (game_id, priority, asked_ms, asked_by) VALUES ($1, 1, $2, $3) \
             ON CONFLICT (game_id) DO UPDATE SET priority = 1, asked_ms = $2, \
             asked_by = COALESCE(reviews.asked_by, $3) \
             WHERE reviews.done_ms IS NULL AND reviews.priority = 0",
        )
        .bind(&game.0)
        .bind(now)
        .bind(&player.0)
        .execute(&self.pool)
        .await?;
        self.review_state(game).await
    }

    /// Where `game`'s review stands.
    pub async fn review_state(&self, game: &GameId) -> Result<ReviewState, StoreError> {
        let row = sqlx::query(
            "SELECT done_ms, nodes, review, last_error FROM reviews WHERE game_id = $1",
        )
        .bind(&game.0)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(ReviewState::NotAsked);
        };
        if row.try_get::<Option<i64>, _>("done_ms")?.is_none() {
            return Ok(ReviewState::Waiting);
        }
        Ok(match row.try_get::<Option<String>, _>("review")? {
            Some(json) => ReviewState::Done {
                json,
                nodes: u64::try_from(row.try_get::<Option<i64>, _>("nodes")?.unwrap_or(0))
                    .unwrap_or(0),
            },
            None => ReviewState::Failed(
                row.try_get::<Option<String>, _>("last_error")?
                    .unwrap_or_default(),
            ),
        })
    }

    /// Claims the waiting review first in line for `worker` (asked by a player first, then the
    /// newest), for [`REVIEW_CLAIM_FOR`]; `None` if none waits.
    pub async fn claim_review(&self, worker: &str) -> Result<Option<ReviewJob>, StoreError> {
        let now = self.now();
        let lock = if self.postgres {
            " FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE reviews SET claimed_until_ms = $1, claimed_by = $2, attempts = attempts + 1 \
             WHERE game_id IN (SELECT game_id FROM reviews WHERE done_ms IS NULL \
             AND (claimed_until_ms IS NULL OR claimed_until_ms <= $3) AND attempts < $4 \
             ORDER BY priority DESC, asked_ms DESC, game_id LIMIT 1{lock}) \
             RETURNING game_id, priority, asked_by, attempts"
        );
        let row = sqlx::query(&sql)
            .bind(now + REVIEW_CLAIM_FOR)
            .bind(worker)
            .bind(now)
            .bind(i64::from(REVIEW_ATTEMPTS))
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        Ok(Some(ReviewJob {
            game: GameId(row.try_get("game_id")?),
            asked: row.try_get::<i64, _>("priority")? > 0,
            asked_by: row.try_get::<Option<String>, _>("asked_by")?.map(PlayerId),
            attempts: count(&row, "attempts")?,
        }))
    }

    /// Renews `worker`'s claim on `game`'s review; whether it still held it.
    pub async fn renew_review(&self, game: &GameId, worker: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE reviews SET claimed_until_ms = $1 \
             WHERE game_id = $2 AND claimed_by = $3 AND done_ms IS NULL",
        )
        .bind(self.now() + REVIEW_CLAIM_FOR)
        .bind(&game.0)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Keeps `game`'s review (`json`, at `nodes` positions a position), done by `worker`, the
    /// puzzles mined from it (each once: one found before under its name is left), and in the
    /// same commit the e-mails and notifications telling `people` it is ready; whether it was
    /// kept (not if another worker took the job over after this one's claim ran out, or did it
    /// already).
    pub async fn review_done(
        &self,
        game: &GameId,
        worker: &str,
        nodes: u64,
        json: &str,
        puzzles: &[Puzzle],
        people: &[PlayerId],
    ) -> Result<bool, StoreError> {
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE reviews SET done_ms = $1, nodes = $2, review = $3, claimed_until_ms = NULL \
             WHERE game_id = $4 AND claimed_by = $5 AND done_ms IS NULL",
        )
        .bind(now)
        .bind(i64::try_from(nodes).unwrap_or(i64::MAX))
        .bind(json)
        .bind(&game.0)
        .bind(worker)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        super::puzzles::keep(&mut tx, game, puzzles, now).await?;
        // Told as the review is kept, in its commit: by e-mail to those with a confirmed address,
        // pushed to those with a device (one row a player and kind; none for most players).
        for (kind, only) in [
            (
                MailKind::Review,
                "JOIN mail_addresses a ON a.player = v.column1 WHERE a.confirmed_ms IS NOT NULL",
            ),
            (
                MailKind::PushReview,
                "JOIN (SELECT DISTINCT player FROM push_subscriptions) d \
                 ON d.player = v.column1 WHERE 1 = 1",
            ),
        ] {
            if people.is_empty() {
                break;
            }
            let rows: Vec<String> = (0..people.len()).map(|i| format!("(${})", i + 4)).collect();
            let sql = format!(
                "INSERT INTO mail_outbox (kind, player, game_id, ply, made_ms, not_before_ms) \
                 SELECT $1, v.column1, $2, 0, $3, $3 FROM (VALUES {}) AS v {only} \
                 ON CONFLICT DO NOTHING",
                rows.join(", ")
            );
            let mut query = sqlx::query(&sql).bind(kind.code()).bind(&game.0).bind(now);
            for player in people {
                query = query.bind(&player.0);
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// `worker` could not review `game` (`why`): the job waits for another try, or is given up
    /// after [`REVIEW_ATTEMPTS`].
    pub async fn review_failed(
        &self,
        game: &GameId,
        worker: &str,
        why: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE reviews SET claimed_until_ms = NULL, last_error = $1, \
             done_ms = CASE WHEN attempts >= $2 THEN $3 ELSE NULL END \
             WHERE game_id = $4 AND claimed_by = $5 AND done_ms IS NULL",
        )
        .bind(why)
        .bind(i64::from(REVIEW_ATTEMPTS))
        .bind(self.now())
        .bind(&game.0)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `worker` gives its claim on `game`'s review back unfinished (it is shutting down): the
    /// job waits for the next worker, the claim not counted as a try.
    pub async fn give_review_back(&self, game: &GameId, worker: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE reviews SET claimed_until_ms = NULL, attempts = attempts - 1 \
             WHERE game_id = $1 AND claimed_by = $2 AND done_ms IS NULL AND attempts > 0",
        )
        .bind(&game.0)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
