//! A tournament's play: its rounds begun with all their games, an arena's tables seated, each
//! game scored with every result, games cut at a round's end and the tournament finished. Each
//! step that must happen once on any number of servers is one transaction that claims it.

// The tournaments' rows split in two: the parent's types, helpers and imports are these too.
use super::*;

impl Store {
    /// Begins round `round` of tournament `t` (a Swiss: the round after the one begun; an
    /// arena: 1, everyone in waiting from now), once on any server: claims it and writes its
    /// `tables`, each person's game noted, in one transaction. `None` when another began it.
    pub async fn begin_round(
        &self,
        t: &TournamentRow,
        round: u8,
        ends_ms: Option<i64>,
        tables: &[TournamentTable],
    ) -> Result<Option<Vec<CreatedGame>>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let claimed = sqlx::query(
            "UPDATE tournaments SET round = $1, round_ends_ms = $2 WHERE id = $3 \
             AND round = $4 AND finished_ms IS NULL",
        )
        .bind(i64::from(round))
        .bind(ends_ms)
        .bind(&t.id)
        .bind(i64::from(round.saturating_sub(1)))
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            return Ok(None);
        }
        if t.format == TournamentFormat::Arena {
            sqlx::query(
                "UPDATE tournament_people SET free_ms = $2 WHERE tournament = $1 \
                 AND left_ms IS NULL",
            )
            .bind(&t.id)
            .bind(self.now())
            .execute(&mut *tx)
            .await?;
        }
        let mut made = Vec::with_capacity(tables.len());
        for (n, (game, people)) in tables.iter().enumerate() {
            made.push(
                self.add_tournament_game(&mut tx, t, u32::from(round), n, game, people)
                    .await?,
            );
        }
        touch(&mut tx, &t.id, self.now()).await?;
        tx.commit().await?;
        Ok(Some(made))
    }

    /// Seats `tables` of arena `t`, each person only if they still wait (on any server): all
    /// or nothing, in one transaction. `None` when one of them no longer waits (seated by
    /// another server, gone from the tournament): the caller looks again.
    pub async fn seat_arena(
        &self,
        t: &TournamentRow,
        tables: &[TournamentTable],
    ) -> Result<Option<Vec<CreatedGame>>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.postgres {
            // One server seats an arena at a time.
            sqlx::query("SELECT id FROM tournaments WHERE id = $1 FOR UPDATE")
                .bind(&t.id)
                .fetch_optional(&mut *tx)
                .await?;
        }
        for (_, people) in tables {
            for player in people {
                let taken = sqlx::query(
                    "UPDATE tournament_people SET free_ms = NULL WHERE tournament = $1 \
                     AND player = $2 AND free_ms IS NOT NULL AND game_id IS NULL \
                     AND left_ms IS NULL",
                )
                .bind(&t.id)
                .bind(&player.0)
                .execute(&mut *tx)
                .await?;
                if taken.rows_affected() != 1 {
                    return Ok(None);
                }
            }
        }
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM tournament_games WHERE tournament = $1")
                .bind(&t.id)
                .fetch_one(&mut *tx)
                .await?;
        let mut made = Vec::with_capacity(tables.len());
        for (i, (game, people)) in tables.iter().enumerate() {
            let n = usize::try_from(n).unwrap_or(0) + i;
            made.push(
                self.add_tournament_game(&mut tx, t, 0, n, game, people)
                    .await?,
            );
        }
        tx.commit().await?;
        Ok(Some(made))
    }

    async fn add_tournament_game(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        t: &TournamentRow,
        round: u32,
        n: usize,
        game: &NewGame,
        people: &[PlayerId],
    ) -> Result<CreatedGame, StoreError> {
        let Some(first) = people.first() else {
            return Err(StoreError::Refused(Refusal::NoSuchTournament));
        };
        let holders: Vec<Option<PlayerId>> = people.iter().cloned().map(Some).collect();
        let created = self
            .insert_game(tx, first, game, None, t.play.rated, &holders)
            .await?;
        sqlx::query(
            "INSERT INTO tournament_games (game_id, tournament, round, n) VALUES ($1, $2, $3, $4)",
        )
        .bind(&created.id.0)
        .bind(&t.id)
        .bind(i64::from(round))
        .bind(i64::try_from(n).unwrap_or(i64::MAX))
        .execute(&mut **tx)
        .await?;
        for player in people {
            // An arena's game is numbered among the person's own.
            let number: i64 = if t.format == TournamentFormat::Arena {
                sqlx::query_scalar(
                    "SELECT COUNT(*) + 1 FROM tournament_results WHERE tournament = $1 \
                     AND player = $2",
                )
                .bind(&t.id)
                .bind(&player.0)
                .fetch_one(&mut **tx)
                .await?
            } else {
                i64::from(round)
            };
            sqlx::query(
                "INSERT INTO tournament_results (game_id, player, tournament, round) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(&created.id.0)
            .bind(&player.0)
            .bind(&t.id)
            .bind(number)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "UPDATE tournament_people SET game_id = $3 WHERE tournament = $1 AND player = $2",
            )
            .bind(&t.id)
            .bind(&player.0)
            .bind(&created.id.0)
            .execute(&mut **tx)
            .await?;
        }
        Ok(created)
    }

    /// `player`, put out of `game` of an arena under way, waits for a table from now (their
    /// game's score comes when it ends). `false` when `game` is no arena's game of theirs now.
    pub async fn free_in_arena(
        &self,
        game: &GameId,
        player: &PlayerId,
    ) -> Result<bool, StoreError> {
        let freed = sqlx::query(
            "UPDATE tournament_people SET game_id = NULL, free_ms = $3 WHERE player = $2 \
             AND game_id = $1 AND left_ms IS NULL AND tournament IN \
             (SELECT id FROM tournaments WHERE format = 'arena' AND finished_ms IS NULL)",
        )
        .bind(&game.0)
        .bind(&player.0)
        .bind(self.now())
        .execute(&self.pool)
        .await?;
        Ok(freed.rows_affected() > 0)
    }

    /// Tournaments' games that finished and are not scored yet (on any server), at most
    /// `limit`: each with its tournament's id.
    pub async fn games_to_score(&self, limit: u32) -> Result<Vec<(String, GameId)>, StoreError> {
        let rows = sqlx::query(
            "SELECT tg.tournament, tg.game_id FROM tournament_games tg \
             JOIN games g ON g.id = tg.game_id WHERE tg.scored_ms IS NULL \
             AND g.finished_ms IS NOT NULL ORDER BY g.finished_ms, tg.game_id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("tournament")?, GameId(row.try_get("game_id")?))))
            .collect()
    }

    /// Scores game `game` of tournament `t`, once on any server: each result written (an
    /// arena's points doubled after two good games in a row), each person's score moved, and
    /// those still in an arena waiting for a table again. `false` when it was scored already.
    pub async fn score_game(
        &self,
        t: &TournamentRow,
        game: &GameId,
        results: &[Scored],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let now = self.now();
        let claimed = sqlx::query(
            "UPDATE tournament_games SET scored_ms = $1 WHERE game_id = $2 AND scored_ms IS NULL",
        )
        .bind(now)
        .bind(&game.0)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            return Ok(false);
        }
        let arena = t.format == TournamentFormat::Arena;
        for result in results {
            let streak: Option<i64> = sqlx::query_scalar(
                "SELECT streak FROM tournament_people WHERE tournament = $1 AND player = $2",
            )
            .bind(&t.id)
            .bind(&result.player.0)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(streak) = streak else {
                // Seated, then no longer entered: nothing to score.
                continue;
            };
            let (points, streak) = if !arena {
                (result.points, 0)
            } else if result.good {
                let doubled = if streak >= 2 { 2 } else { 1 };
                (result.points * doubled, streak + 1)
            } else {
                (result.points, 0)
            };
            sqlx::query(
                "UPDATE tournament_results SET place = $3, points = $4 WHERE game_id = $1 \
                 AND player = $2",
            )
            .bind(&game.0)
            .bind(&result.player.0)
            .bind(i64::from(result.place))
            .bind(i64::from(points))
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE tournament_people SET points = points + $3, games = games + 1, \
                 firsts = firsts + $4, streak = $5, \
                 free_ms = CASE WHEN $6 = 1 AND left_ms IS NULL AND game_id = $7 THEN $8 \
                 ELSE free_ms END, \
                 game_id = CASE WHEN game_id = $7 THEN NULL ELSE game_id END \
                 WHERE tournament = $1 AND player = $2",
            )
            .bind(&t.id)
            .bind(&result.player.0)
            .bind(i64::from(points))
            .bind(i64::from(result.place == 1))
            .bind(streak)
            .bind(i64::from(arena))
            .bind(&game.0)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        touch(&mut tx, &t.id, now).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The games of round `round` of tournament `id`: each with whether it is scored, and
    /// whether it finished.
    pub async fn round_games(
        &self,
        id: &str,
        round: u8,
    ) -> Result<Vec<(GameId, bool, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT tg.game_id, tg.scored_ms, g.finished_ms FROM tournament_games tg \
             JOIN games g ON g.id = tg.game_id WHERE tg.tournament = $1 AND tg.round = $2 \
             ORDER BY tg.n",
        )
        .bind(id)
        .bind(i64::from(round))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    GameId(row.try_get("game_id")?),
                    row.try_get::<Option<i64>, _>("scored_ms")?.is_some(),
                    row.try_get::<Option<i64>, _>("finished_ms")?.is_some(),
                ))
            })
            .collect()
    }

    /// Tournament `id`'s games not scored yet.
    pub async fn tournament_unscored(&self, id: &str) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id FROM tournament_games WHERE tournament = $1 AND scored_ms IS NULL",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok(GameId(row.try_get("game_id")?)))
            .collect()
    }

    /// Ends unfinished game `game` now, as by agreement (a tournament round's deadline): the
    /// most captures wins, the others standing share the next place. `false` when it had
    /// finished already.
    pub async fn cut_game(&self, game: &GameId) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let now = self.now();
        let cut = sqlx::query(
            "UPDATE games SET cut_ms = $1, finished_ms = $1, due_ms = NULL WHERE id = $2 \
             AND finished_ms IS NULL",
        )
        .bind(now)
        .bind(&game.0)
        .execute(&mut *tx)
        .await?;
        if cut.rows_affected() != 1 {
            return Ok(false);
        }
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Marks tournament `id` over, once. `false` when it was already.
    pub async fn finish_tournament(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET finished_ms = $1, round_ends_ms = NULL, changed_ms = $1 \
             WHERE id = $2 AND finished_ms IS NULL",
        )
        .bind(self.now())
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The tournaments begun or due to begin by `now` and not over.
    pub async fn running_tournaments(&self, now: i64) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} WHERE t.finished_ms IS NULL AND t.starts_ms <= $1 \
             ORDER BY t.starts_ms, t.id"
        ))
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_of).collect()
    }

    /// The tournaments whose standings changed after `since_ms` (over ones too).
    pub async fn tournaments_changed(
        &self,
        since_ms: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} WHERE t.changed_ms > $1 ORDER BY t.id"
        ))
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_of).collect()
    }
}
