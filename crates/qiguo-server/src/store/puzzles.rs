//! The puzzles' rows: the puzzles mined from reviewed games (kept in the review's commit, each
//! once under its name), each player's puzzle rating, and each player's first try at each
//! puzzle — the one that moves both ratings, in one transaction.

use qiguo_ai::puzzles::{self, Puzzle};
use qiguo_protocol::{PuzzleRated, PuzzleView, PuzzleWanted};
use qiguo_rating::Rating;

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

/// Keeps `puzzles`, mined from `game`, in `tx` (a review's commit): each once, a puzzle found
/// before under its name left as it is.
pub(super) async fn keep(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &GameId,
    puzzles: &[Puzzle],
    now: i64,
) -> Result<(), StoreError> {
    for puzzle in puzzles {
        let text = serde_json::to_string(puzzle).expect("a puzzle serializes");
        let rating = Rating::from_shown(puzzle.rating);
        sqlx::query(
            "INSERT INTO puzzles (id, game_id, ply, theme, rating, mu, sigma, puzzle, found_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING",
        )
        .bind(puzzle.id())
        .bind(&game.0)
        .bind(i64::try_from(puzzle.ply).unwrap_or(i64::MAX))
        .bind(puzzle.theme.name())
        .bind(puzzle.rating)
        .bind(rating.mu)
        .bind(rating.sigma)
        .bind(text)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A puzzle's row: its game, the puzzle as mined (JSON), its rating now, tries and solves.
type PuzzleRow = (String, String, i64, i64, i64);

/// The columns of [`PuzzleRow`].
const PUZZLE_COLUMNS: &str = "game_id, puzzle, rating, tries, solved";

/// The puzzle of a row, its rating the one it has now.
fn puzzle_of(
    (game, text, rating, tries, solved): PuzzleRow,
) -> Result<(GameId, Puzzle, u32, u32), StoreError> {
    let mut puzzle: Puzzle = serde_json::from_str(&text).map_err(|e| {
        Failure::Damaged(game.clone(), format!("a puzzle of it does not read: {e}"))
    })?;
    puzzle.rating = rating;
    let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok((GameId(game), puzzle, count(tries), count(solved)))
}

impl Store {
    /// The puzzles mined here, the newest first, at most `limit`; with `game`, only that
    /// game's. Each with its rating now.
    pub async fn puzzles(
        &self,
        game: Option<&GameId>,
        limit: u32,
    ) -> Result<Vec<(GameId, Puzzle)>, StoreError> {
        let rows: Vec<PuzzleRow> = sqlx::query_as(&format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE ($1 IS NULL OR game_id = $1) \
             ORDER BY found_ms DESC, id LIMIT $2"
        ))
        .bind(game.map(|g| g.0.clone()))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|row| puzzle_of(row).map(|(game, puzzle, _, _)| (game, puzzle)))
            .collect()
    }

    /// `player`'s puzzle rating (a new person's before a first try).
    pub async fn puzzle_rating(&self, player: &PlayerId) -> Result<Rating, StoreError> {
        let row: Option<(f64, f64)> =
            sqlx::query_as("SELECT mu, sigma FROM puzzle_solvers WHERE player = $1")
                .bind(&player.0)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map_or_else(Rating::default, |(mu, sigma)| Rating { mu, sigma }))
    }

    /// The puzzle `player` asks for (`which`) on day `day` (days since 1970-01-01, UTC): the
    /// day's, one by name, or the untried one rated nearest the player (the nearest of all
    /// once every one was tried).
    pub async fn puzzle_for(
        &self,
        player: &PlayerId,
        which: &PuzzleWanted,
        day: i64,
    ) -> Result<PuzzleView, StoreError> {
        let solver = self.puzzle_rating(player).await?;
        let select = format!("SELECT {PUZZLE_COLUMNS} FROM puzzles");
        let row: Option<PuzzleRow> = match which {
            PuzzleWanted::Named { id } => {
                sqlx::query_as(&format!("{select} WHERE id = $1"))
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?
            }
            PuzzleWanted::Daily => {
                let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM puzzles")
                    .fetch_one(&self.pool)
                    .await?;
                let at = puzzles::daily_index(
                    u64::try_from(day).unwrap_or(0),
                    usize::try_from(count).unwrap_or(0),
                );
                sqlx::query_as(&format!("{select} ORDER BY id LIMIT 1 OFFSET $1"))
                    .bind(i64::try_from(at).unwrap_or(0))
                    .fetch_optional(&self.pool)
                    .await?
            }
            PuzzleWanted::Next => {
                let untried: Option<PuzzleRow> = sqlx::query_as(&format!(
                    "{select} WHERE NOT EXISTS (SELECT 1 FROM puzzle_tries t \
                     WHERE t.player = $1 AND t.puzzle = puzzles.id) \
                     ORDER BY ABS(rating - $2), id LIMIT 1"
                ))
                .bind(&player.0)
                .bind(solver.shown())
                .fetch_optional(&self.pool)
                .await?;
                match untried {
                    Some(row) => Some(row),
                    None => {
                        sqlx::query_as(&format!("{select} ORDER BY ABS(rating - $1), id LIMIT 1"))
                            .bind(solver.shown())
                            .fetch_optional(&self.pool)
                            .await?
                    }
                }
            }
        };
        let Some(row) = row else {
            return Err(match which {
                PuzzleWanted::Named { id } => Refusal::NoSuchPuzzle { id: id.clone() },
                PuzzleWanted::Daily | PuzzleWanted::Next => Refusal::NoPuzzles,
            }
            .into());
        };
        let (game, puzzle, tries, solved) = puzzle_of(row)?;
        let (tried,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM puzzle_tries WHERE player = $1 AND puzzle = $2")
                .bind(&player.0)
                .bind(puzzle.id())
                .fetch_one(&self.pool)
                .await?;
        Ok(PuzzleView {
            puzzle,
            game,
            daily: *which == PuzzleWanted::Daily,
            solver: solver.shown(),
            tried: tried > 0,
            tries,
            solved,
        })
    }

    /// `player`'s try at puzzle `id`, `solved` or not: the first moves the player's puzzle
    /// rating and the puzzle's (a game of two, `qiguo_rating::attempt`), both written with the
    /// try in one transaction; a later one changes nothing.
    pub async fn puzzle_tried(
        &self,
        player: &PlayerId,
        id: &str,
        solved: bool,
    ) -> Result<PuzzleRated, StoreError> {
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        lock_player(&mut tx, player, self.postgres).await?;
        let lock = if self.postgres { " FOR UPDATE" } else { "" };
        let puzzle: Option<(f64, f64)> = sqlx::query_as(&format!(
            "SELECT mu, sigma FROM puzzles WHERE id = $1{lock}"
        ))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((mu, sigma)) = puzzle else {
            return Err(Refusal::NoSuchPuzzle { id: id.to_owned() }.into());
        };
        let puzzle_before = Rating { mu, sigma };
        let solver: Option<(f64, f64)> =
            sqlx::query_as("SELECT mu, sigma FROM puzzle_solvers WHERE player = $1")
                .bind(&player.0)
                .fetch_optional(&mut *tx)
                .await?;
        let before = solver.map_or_else(Rating::default, |(mu, sigma)| Rating { mu, sigma });
        let first = sqlx::query(
            "INSERT INTO puzzle_tries (player, puzzle, solved, tried_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (player, puzzle) DO NOTHING",
        )
        .bind(&player.0)
        .bind(id)
        .bind(i64::from(solved))
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !first {
            tx.commit().await?;
            return Ok(PuzzleRated {
                id: id.to_owned(),
                before: before.shown(),
                after: before.shown(),
                puzzle: puzzle_before.shown(),
                counted: false,
            });
        }
        let (after, puzzle_after) = qiguo_rating::attempt(before, puzzle_before, solved);
        sqlx::query(
            "INSERT INTO puzzle_solvers (player, mu, sigma, tries, changed_ms) \
             VALUES ($1, $2, $3, 1, $4) ON CONFLICT (player) DO UPDATE \
             SET mu = $2, sigma = $3, tries = puzzle_solvers.tries + 1, changed_ms = $4",
        )
        .bind(&player.0)
        .bind(after.mu)
        .bind(after.sigma)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzles SET mu = $1, sigma = $2, rating = $3, tries = tries + 1, \
             solved = solved + $4 WHERE id = $5",
        )
        .bind(puzzle_after.mu)
        .bind(puzzle_after.sigma)
        .bind(puzzle_after.shown())
        .bind(i64::from(solved))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(PuzzleRated {
            id: id.to_owned(),
            before: before.shown(),
            after: after.shown(),
            puzzle: puzzle_after.shown(),
            counted: true,
        })
    }
}
