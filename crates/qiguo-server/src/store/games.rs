//! The games, seats and moves tables: creating and joining games, seats and presence noted,
//! take-backs, moves appended, games due, finished and listed, a game loaded and replayed.

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

impl Store {
    /// Creates a game by `creator` (who takes the seats planned for the creator).
    pub async fn create_game(
        &self,
        creator: &PlayerId,
        spec: &NewGame,
    ) -> Result<CreatedGame, StoreError> {
        self.create_game_as(creator, spec, None).await
    }

    /// [`Store::create_game`], a quick game of `quick` if given (quick games are rated).
    pub(super) async fn create_game_as(
        &self,
        creator: &PlayerId,
        spec: &NewGame,
        quick: Option<QuickPace>,
    ) -> Result<CreatedGame, StoreError> {
        let mut tx = self.pool.begin().await?;
        let created = self
            .insert_game(&mut tx, creator, spec, quick, quick.is_some(), &[])
            .await?;
        tx.commit().await?;
        Ok(created)
    }

    /// Within `tx`, a new game by `creator`: checked, its row and its seats, each seat held by
    /// `holders[seat]` when given (a person seated from the start, as at a public table), else
    /// by the creator for a seat planned for the creator, else by nobody yet.
    pub(super) async fn insert_game(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        creator: &PlayerId,
        spec: &NewGame,
        quick: Option<QuickPace>,
        rated: bool,
        holders: &[Option<PlayerId>],
    ) -> Result<CreatedGame, StoreError> {
        spec.check().map_err(StoreError::Refused)?;
        let id = secret::new_id()?;
        let code = secret::new_code()?;
        let now = self.now();
        sqlx::query(
            "INSERT INTO games (id, code, creator, record, pace, created_ms, moved_ms, due_ms, \
             quick, rated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&id)
        .bind(&code)
        .bind(&creator.0)
        .bind(spec.start.to_json())
        .bind(to_json(&spec.pace))
        .bind(now)
        .bind(now)
        // Looked at by whichever server does not hold it (the one creating it does).
        .bind(matches!(spec.pace, Pace::Correspondence { .. }).then_some(now))
        .bind(quick.map(QuickPace::name))
        .bind(i64::from(rated))
        .execute(&mut **tx)
        .await?;
        for (seat, plan) in spec.seats.iter().enumerate() {
            let holder = match holders.get(seat) {
                Some(Some(player)) => Some(player.0.as_str()),
                _ => (*plan == SeatPlan::Creator).then_some(creator.0.as_str()),
            };
            sqlx::query("INSERT INTO seats (game_id, seat, plan, holder) VALUES ($1, $2, $3, $4)")
                .bind(&id)
                .bind(seat as i64)
                .bind(to_json(plan))
                .bind(holder)
                .execute(&mut **tx)
                .await?;
        }
        Ok(CreatedGame {
            id: GameId(id),
            code,
        })
    }

    /// The game whose invitation code is `code` (as typed: see [`secret::normalize_code`]).
    pub async fn game_by_code(&self, code: &str) -> Result<GameId, StoreError> {
        let code = secret::normalize_code(code).ok_or(StoreError::Refused(Refusal::NoGame))?;
        let row = sqlx::query("SELECT id FROM games WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::Refused(Refusal::NoGame))?;
        Ok(GameId(row.try_get("id")?))
    }

    /// Gives open seat `seat` of `game` to `player`, once: a seat taken answers only to them.
    /// Returns the name the seat is then shown with, read in the same transaction.
    pub async fn take_seat(
        &self,
        game: &GameId,
        seat: u8,
        player: &PlayerId,
    ) -> Result<String, StoreError> {
        self.give_seat(game, seat, SeatPlan::Open, player, None)
            .await
    }

    /// Gives seat `seat` of `game`, planned as `from` and held by nobody, to `player` as an
    /// open seat taken (from move `taken_ply` on, for a computer's seat taken over), once:
    /// `SeatNotFree` when it is no longer so. Returns the name the seat is then shown with,
    /// read in the same transaction.
    pub(super) async fn give_seat(
        &self,
        game: &GameId,
        seat: u8,
        from: SeatPlan,
        player: &PlayerId,
        taken_ply: Option<u32>,
    ) -> Result<String, StoreError> {
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query(
            "UPDATE seats SET plan = $1, holder = $2, seen_ms = $3, taken_ply = $4 \
             WHERE game_id = $5 AND seat = $6 AND holder IS NULL AND plan = $7",
        )
        .bind(to_json(&SeatPlan::Open))
        .bind(&player.0)
        .bind(self.now())
        .bind(taken_ply.map(i64::from))
        .bind(&game.0)
        .bind(i64::from(seat))
        .bind(to_json(&from))
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            return Err(StoreError::Refused(Refusal::SeatTaken { seat }));
        }
        let name: String = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(&player.0)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(StoreError::Refused(Refusal::WrongKey))?
            .try_get("name")?;
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(name)
    }

    /// How many unfinished games `player` holds a seat in.
    pub async fn games_in_progress(&self, player: &PlayerId) -> Result<u32, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(DISTINCT g.id) AS n FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.finished_ms IS NULL",
        )
        .bind(&player.0)
        .fetch_one(&self.pool)
        .await?;
        count(&row, "n")
    }

    /// Writes `game`'s start record and pace again (a game stored before today's checks, put
    /// right when loaded).
    pub async fn rewrite_start(
        &self,
        game: &GameId,
        record: &Record,
        pace: Pace,
    ) -> Result<(), StoreError> {
        let mut start = record.clone();
        start.moves.clear();
        start.overdue.clear();
        sqlx::query("UPDATE games SET record = $1, pace = $2 WHERE id = $3")
            .bind(start.to_json())
            .bind(to_json(&pace))
            .bind(&game.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Notes that `player` has `game` open now (on every seat they hold in it).
    pub async fn seen(&self, game: &GameId, player: &PlayerId) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET seen_ms = $1 WHERE game_id = $2 AND holder = $3")
            .bind(self.now())
            .bind(&game.0)
            .bind(&player.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Keeps `asked` as the take-back being asked in `game`, for every server: a new one only
    /// where none is asked and the game has `has` moves ([`Refusal::TakeBackPending`],
    /// [`Refusal::MovedOn`]), or more agreement with the one asked (`new: false`).
    pub async fn keep_take_back(
        &self,
        game: &GameId,
        asked: &TakeBackView,
        has: u32,
        new: bool,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_at(game, has).await?;
        let agreed = to_json(&asked.agreed);
        let done = if new {
            sqlx::query(
                "INSERT INTO take_backs (game_id, by_seat, ply, agreed) \
                 SELECT $1, $2, $3, $4 WHERE NOT EXISTS \
                 (SELECT 1 FROM take_backs WHERE game_id = $1)",
            )
            .bind(&game.0)
            .bind(i64::from(asked.by))
            .bind(i64::from(asked.ply))
            .bind(agreed)
            .execute(&mut *tx)
            .await?
        } else {
            sqlx::query("UPDATE take_backs SET agreed = $1 WHERE game_id = $2 AND ply = $3")
                .bind(agreed)
                .bind(&game.0)
                .bind(i64::from(asked.ply))
                .execute(&mut *tx)
                .await?
        };
        if done.rows_affected() != 1 {
            return Err(if new {
                StoreError::Refused(Refusal::TakeBackPending)
            } else {
                StoreError::Refused(Refusal::NoTakeBack)
            });
        }
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets the take-back asked in `game` (refused).
    pub async fn drop_take_back(&self, game: &GameId) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM take_backs WHERE game_id = $1")
            .bind(&game.0)
            .execute(&mut *tx)
            .await?;
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// When each seat's player was last seen with `game` open, by any server, by seat.
    pub async fn seen_of(&self, game: &GameId) -> Result<Vec<Option<i64>>, StoreError> {
        let rows = sqlx::query("SELECT seen_ms FROM seats WHERE game_id = $1 ORDER BY seat")
            .bind(&game.0)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<Option<i64>, _>("seen_ms")?))
            .collect()
    }

    /// The name of the player `id`.
    pub async fn player_name(&self, id: &PlayerId) -> Result<String, StoreError> {
        let row = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(&id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::Refused(Refusal::WrongKey))?;
        Ok(row.try_get("name")?)
    }

    /// Every game not yet finished.
    pub async fn unfinished_games(&self) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE finished_ms IS NULL ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// Takes back the moves of `game` from number `ply` (from 0) on, if it has exactly `has`
    /// moves (so that a take-back agreed for one moment never removes a move made since);
    /// `due_in`: when the game is due after it ([`crate::live::LiveGame::due_in`]).
    pub async fn take_back(
        &self,
        game: &GameId,
        ply: u32,
        has: u32,
        due_in: Option<i64>,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_at(game, has).await?;
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(&game.0)
            .bind(i64::from(ply))
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM take_backs WHERE game_id = $1")
            .bind(&game.0)
            .execute(&mut *tx)
            .await?;
        self.commit_change(tx, game, self.now(), due_in).await
    }

    /// Commits a change of `game`'s moves: the turn began at `now`, is due `due_in` after it,
    /// and the other servers are told.
    async fn commit_change(
        &self,
        mut tx: sqlx::Transaction<'_, sqlx::Any>,
        game: &GameId,
        now: i64,
        due_in: Option<i64>,
    ) -> Result<(), StoreError> {
        let server = self.postgres.then_some(self.server_id.as_str());
        note_change(&mut tx, game, now, due_in, server).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A transaction on `game`, begun only if the game has exactly `has` moves and is not over
    /// (its row locked on PostgreSQL until the transaction ends; see [`count_moves`]).
    async fn begin_at(
        &self,
        game: &GameId,
        has: u32,
    ) -> Result<sqlx::Transaction<'_, sqlx::Any>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let count = count_moves(&mut tx, game, self.postgres).await?;
        if count != has {
            return Err(StoreError::Refused(Refusal::MovedOn {
                has: count,
                ply: has,
            }));
        }
        Ok(tx)
    }

    /// Stores move number `ply` (from 0) of `game`, made for `seat` (by its player, by a
    /// stand-in computer, or an overdue pass), and returns once it is committed; `ends`: the
    /// move ends the game, which is marked finished in the same transaction; `due_in`: when
    /// the game is due after it ([`crate::live::LiveGame::due_in`]); `mail`: the e-mails it
    /// writes, kept with it for those of their players who gave a confirmed address. Refused
    /// unless the game
    /// has exactly `ply` moves: two writers can never both store a move for one turn.
    pub async fn append_move(
        &self,
        game: &GameId,
        ply: u32,
        mv: Move,
        seat: u8,
        by: MadeBy,
        ends: bool,
        due_in: Option<i64>,
        mail: Vec<mail::MailNote>,
    ) -> Result<(), StoreError> {
        let write = MoveWrite {
            game: game.clone(),
            ply,
            mv,
            seat,
            by,
            ends,
            due_in,
            now: self.now(),
            mail,
        };
        // With the other moves waiting, in one transaction (see `group`).
        self.group.write(write).await
    }

    /// Unfinished games whose time to be acted on has come (`due_ms` at or before `now`), the
    /// longest waiting first, at most `limit`.
    pub async fn due_games(&self, now: i64, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE due_ms <= $1 AND finished_ms IS NULL \
             ORDER BY due_ms LIMIT $2",
        )
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// Sets when `game` is next due (a game looked at and found not due yet, or resting).
    pub async fn set_due(&self, game: &GameId, due_ms: Option<i64>) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET due_ms = $1 WHERE id = $2")
            .bind(due_ms)
            .bind(&game.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A computer of `level` takes seat `seat` of quick game `game` over from `player`, absent
    /// past the grace, at move `ply` (they held it from move `from`): kept as a leave (counting
    /// against their reliability when the game is `rated`). Once: `SeatNotFree` when `player`
    /// holds the seat no more.
    pub async fn replace_absent(
        &self,
        game: &GameId,
        seat: u8,
        player: &PlayerId,
        from: u32,
        ply: u32,
        level: qiguo_rules::Level,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let replaced = sqlx::query(
            "UPDATE seats SET plan = $1, holder = NULL, taken_ply = NULL \
             WHERE game_id = $2 AND seat = $3 AND holder = $4",
        )
        .bind(to_json(&SeatPlan::Computer(level)))
        .bind(&game.0)
        .bind(i64::from(seat))
        .bind(&player.0)
        .execute(&mut *tx)
        .await?;
        if replaced.rows_affected() != 1 {
            return Err(StoreError::Refused(Refusal::SeatTaken { seat }));
        }
        sqlx::query(
            "INSERT INTO seat_leaves (game_id, seat, player, from_ply, left_ply, rated, at_ms) \
             SELECT $1, $2, $3, $4, $5, rated, $6 FROM games WHERE id = $1",
        )
        .bind(&game.0)
        .bind(i64::from(seat))
        .bind(&player.0)
        .bind(i64::from(from))
        .bind(i64::from(ply))
        .bind(self.now())
        .execute(&mut *tx)
        .await?;
        self.notify_change(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// How many rated games `player` left (replaced, absent) since `since_ms`, and when they
    /// last left one.
    pub async fn leaves_since(
        &self,
        player: &PlayerId,
        since_ms: i64,
    ) -> Result<(u32, Option<i64>), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, MAX(at_ms) AS last FROM seat_leaves \
             WHERE player = $1 AND rated = 1 AND at_ms >= $2",
        )
        .bind(&player.0)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok((count(&row, "n")?, row.try_get("last")?))
    }

    /// Marks `game` finished: it takes no more moves.
    pub async fn finish(&self, game: &GameId) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE games SET finished_ms = $1, due_ms = NULL WHERE id = $2")
            .bind(self.now())
            .bind(&game.0)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Refused(Refusal::NoGame))
        }
    }

    /// A stored game with its moves, replayed through the rules engine.
    pub async fn load_game(&self, id: &GameId) -> Result<StoredGame, StoreError> {
        let row = sqlx::query(
            "SELECT code, creator, record, pace, moved_ms, finished_ms, quick, cut_ms FROM games \
             WHERE id = $1",
        )
        .bind(&id.0)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::Refused(Refusal::NoGame))?;
        let mut record = Record::from_json(&row.try_get::<String, _>("record")?)
            .map_err(|e| damaged(&id.0, e))?;
        let pace: Pace = serde_json::from_str(&row.try_get::<String, _>("pace")?)
            .map_err(|e| damaged(&id.0, e))?;
        let moves =
            sqlx::query("SELECT ply, mv, stand_in FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(&id.0)
                .fetch_all(&self.pool)
                .await?;
        record.moves = Vec::with_capacity(moves.len());
        let mut stand_ins = Vec::new();
        let mut overdue = Vec::new();
        for (n, mv) in moves.iter().enumerate() {
            if mv.try_get::<i64, _>("ply")? != n as i64 {
                return Err(damaged(&id.0, format!("move {n} is missing")));
            }
            record.moves.push(mv.try_get("mv")?);
            match mv.try_get::<i64, _>("stand_in")? {
                0 => {}
                1 => stand_ins.push(n as u32),
                _ => overdue.push(n as u32),
            }
        }
        record.overdue = overdue;
        let mut game = record.replay().map_err(|e| damaged(&id.0, e))?;
        // Cut at a tournament round's deadline: ended as by agreement.
        if row.try_get::<Option<i64>, _>("cut_ms")?.is_some() && game.end_early().is_some() {
            record.ended_early = true;
        }
        let seat_rows = sqlx::query(
            "SELECT s.plan, s.holder, s.seen_ms, s.taken_ply, p.name, r.mu, r.sigma, r.games, \
             (SELECT COUNT(*) FROM seat_leaves l WHERE l.player = s.holder AND l.rated = 1) \
             AS left_games FROM seats s LEFT JOIN players p ON p.id = s.holder \
             LEFT JOIN ratings r ON r.player = s.holder AND r.family = $2 \
             WHERE s.game_id = $1 ORDER BY s.seat",
        )
        .bind(&id.0)
        .bind(RatingFamily::of(&pace).name())
        .fetch_all(&self.pool)
        .await?;
        let mut seats = Vec::with_capacity(seat_rows.len());
        for seat in &seat_rows {
            seats.push(StoredSeat {
                plan: serde_json::from_str(&seat.try_get::<String, _>("plan")?)
                    .map_err(|e| damaged(&id.0, e))?,
                holder: seat.try_get::<Option<String>, _>("holder")?.map(PlayerId),
                name: seat.try_get("name")?,
                seen_ms: seat.try_get("seen_ms")?,
                holidays: Vec::new(),
                taken_ply: seat
                    .try_get::<Option<i64>, _>("taken_ply")?
                    .map(|ply| u32::try_from(ply).unwrap_or(u32::MAX)),
                rating: rating_of(seat)?,
                left: count(seat, "left_games")?,
            });
        }
        let moved_ms: i64 = row.try_get("moved_ms")?;
        if let Pace::Correspondence { .. } = pace {
            self.read_holidays(id, moved_ms, &mut seats).await?;
        }
        let take_back =
            sqlx::query("SELECT by_seat, ply, agreed FROM take_backs WHERE game_id = $1")
                .bind(&id.0)
                .fetch_optional(&self.pool)
                .await?
                .map(|r| -> Result<TakeBackView, StoreError> {
                    Ok(TakeBackView {
                        by: u8::try_from(r.try_get::<i64, _>("by_seat")?).unwrap_or(u8::MAX),
                        ply: count(&r, "ply")?,
                        agreed: serde_json::from_str(&r.try_get::<String, _>("agreed")?)
                            .map_err(|e| damaged(&id.0, e))?,
                    })
                })
                .transpose()?;
        let leavers = sqlx::query(
            "SELECT seat, player, from_ply, left_ply FROM seat_leaves WHERE game_id = $1 \
             ORDER BY left_ply, seat",
        )
        .bind(&id.0)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(Leaver {
                seat: u8::try_from(r.try_get::<i64, _>("seat")?).unwrap_or(u8::MAX),
                player: PlayerId(r.try_get("player")?),
                from_ply: u32::try_from(r.try_get::<i64, _>("from_ply")?).unwrap_or(0),
                left_ply: u32::try_from(r.try_get::<i64, _>("left_ply")?).unwrap_or(0),
            })
        })
        .collect::<Result<_, StoreError>>()?;
        let quick = row
            .try_get::<Option<String>, _>("quick")?
            .and_then(|q| q.parse::<QuickPace>().ok());
        Ok(StoredGame {
            quick,
            leavers,
            take_back,
            id: id.clone(),
            code: row.try_get("code")?,
            creator: PlayerId(row.try_get("creator")?),
            record,
            game,
            seats,
            pace,
            moved_ms,
            finished: row.try_get::<Option<i64>, _>("finished_ms")?.is_some(),
            stand_ins,
        })
    }

    /// The unfinished games in which `player` holds a seat, most recently moved first.
    pub async fn games_of(&self, player: &PlayerId) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.id, g.moved_ms FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.finished_ms IS NULL ORDER BY g.moved_ms DESC, g.id",
        )
        .bind(&player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// The finished games in which `player` held a seat, the newest first: `count` of them
    /// after the first `skip`.
    pub async fn finished_games_of(
        &self,
        player: &PlayerId,
        skip: u32,
        count: u32,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.id, g.finished_ms FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.finished_ms IS NOT NULL \
             ORDER BY g.finished_ms DESC, g.id DESC LIMIT $2 OFFSET $3",
        )
        .bind(&player.0)
        .bind(i64::from(count))
        .bind(i64::from(skip))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }
}
