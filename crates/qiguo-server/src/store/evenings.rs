//! Club evenings' rows: the evenings (their club, time and play; when one server seated them, or
//! an organiser called them off), who said they come (and the game each was seated in), and
//! the evening's games. Seating is one transaction that claims the evening and writes every
//! table's game, so that on any number of servers an evening is seated once and whole.

use qiguo_protocol::evenings::{EVENINGS_PLANNED, EveningId, EveningPlay};

use crate::model::MailKind;

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

/// An evening as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct EveningRow {
    /// Its id.
    pub id: EveningId,
    /// Its club's id.
    pub club_id: String,
    /// Its club's name.
    pub club: String,
    /// The organiser who set it (their name).
    pub by: String,
    /// When it begins.
    pub at_ms: i64,
    /// What it plays.
    pub play: EveningPlay,
    /// When its people were seated.
    pub started_ms: Option<i64>,
    /// When it was called off.
    pub cancelled_ms: Option<i64>,
}

/// Someone who said they come to an evening.
#[derive(Clone, Debug, PartialEq)]
pub struct Comer {
    /// Who.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// When another server last noted them connected (this server knows its own).
    pub online_ms: Option<i64>,
    /// The game they were seated in.
    pub game: Option<GameId>,
}

/// An evening's table to write: its new game, and the people holding its first seats in turn
/// order.
pub type EveningGame = (NewGame, Vec<PlayerId>);

const EVENING_COLUMNS: &str = "e.id, e.club AS club_id, c.name AS club, p.name AS by_name, \
     e.at_ms, e.play, e.started_ms, e.cancelled_ms FROM evenings e \
     JOIN clubs c ON c.id = e.club JOIN players p ON p.id = e.by_player";

fn evening_of(row: &sqlx::any::AnyRow) -> Result<EveningRow, StoreError> {
    let id: String = row.try_get("id")?;
    let play =
        serde_json::from_str(&row.try_get::<String, _>("play")?).map_err(|e| damaged(&id, e))?;
    Ok(EveningRow {
        id: EveningId(id),
        club_id: row.try_get("club_id")?,
        club: row.try_get("club")?,
        by: row.try_get("by_name")?,
        at_ms: row.try_get("at_ms")?,
        play,
        started_ms: row.try_get("started_ms")?,
        cancelled_ms: row.try_get("cancelled_ms")?,
    })
}

impl Store {
    /// Sets an evening of club `club` (its id) by `by` at `at_ms`: refused `too_many_evenings`
    /// when the club has [`EVENINGS_PLANNED`] to begin already.
    pub async fn create_evening(
        &self,
        club: &str,
        by: &PlayerId,
        at_ms: i64,
        play: &EveningPlay,
    ) -> Result<EveningId, StoreError> {
        let id = secret::new_id()?;
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        let planned: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM evenings WHERE club = $1 AND started_ms IS NULL \
             AND cancelled_ms IS NULL",
        )
        .bind(club)
        .fetch_one(&mut *tx)
        .await?;
        if planned >= i64::from(EVENINGS_PLANNED) {
            return Err(StoreError::Refused(Refusal::TooManyEvenings {
                max: EVENINGS_PLANNED,
            }));
        }
        sqlx::query(
            "INSERT INTO evenings (id, club, by_player, at_ms, play, made_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(club)
        .bind(&by.0)
        .bind(at_ms)
        .bind(to_json(play))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(EveningId(id))
    }

    /// Evening `id`: refused `no_such_evening` when there is none.
    pub async fn evening(&self, id: &EveningId) -> Result<EveningRow, StoreError> {
        let row = sqlx::query(&format!("SELECT {EVENING_COLUMNS} WHERE e.id = $1"))
            .bind(&id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::Refused(Refusal::NoSuchEvening))?;
        evening_of(&row)
    }

    /// The evenings beginning from `since_ms` on of club `club` (its id) — or, with `None`, of
    /// every club `player` belongs to — the soonest first, at most `limit`.
    pub async fn evenings_from(
        &self,
        club: Option<&str>,
        player: &PlayerId,
        since_ms: i64,
        limit: usize,
    ) -> Result<Vec<EveningRow>, StoreError> {
        let rows = match club {
            Some(club) => {
                sqlx::query(&format!(
                    "SELECT {EVENING_COLUMNS} WHERE e.club = $1 AND e.at_ms >= $2 \
                     ORDER BY e.at_ms, e.id LIMIT $3"
                ))
                .bind(club)
                .bind(since_ms)
                .bind(i64::try_from(limit).unwrap_or(i64::MAX))
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(&format!(
                    "SELECT {EVENING_COLUMNS} WHERE e.at_ms >= $2 AND e.club IN \
                     (SELECT m.club FROM club_members m WHERE m.player = $1 \
                      AND m.role <> 'asking') ORDER BY e.at_ms, e.id LIMIT $3"
                ))
                .bind(&player.0)
                .bind(since_ms)
                .bind(i64::try_from(limit).unwrap_or(i64::MAX))
                .fetch_all(&self.pool)
                .await?
            }
        };
        rows.iter().map(evening_of).collect()
    }

    /// Who said they come to evening `id`, in the order they said it.
    pub async fn comers(&self, id: &EveningId) -> Result<Vec<Comer>, StoreError> {
        let rows = sqlx::query(
            "SELECT e.player, p.name, e.game_id, \
             CASE WHEN p.online_server = $2 THEN NULL ELSE p.online_ms END AS online_ms \
             FROM evening_people e JOIN players p ON p.id = e.player WHERE e.evening = $1 \
             ORDER BY e.said_ms, e.player",
        )
        .bind(&id.0)
        .bind(self.server_id())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Comer {
                    player: PlayerId(r.try_get("player")?),
                    name: r.try_get("name")?,
                    online_ms: r.try_get("online_ms")?,
                    game: r.try_get::<Option<String>, _>("game_id")?.map(GameId),
                })
            })
            .collect()
    }

    /// `player` comes to evening `id`, or no longer; coming, they are reminded at `remind_ms`
    /// (when given) by e-mail if they have a confirmed address and on their devices if they
    /// have any — rows of the outbox written with the answer, decided when due (not if they no
    /// longer come, or it was called off).
    pub async fn come(
        &self,
        id: &EveningId,
        player: &PlayerId,
        coming: bool,
        remind_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        if !coming {
            sqlx::query(
                "DELETE FROM evening_people WHERE evening = $1 AND player = $2 \
                 AND game_id IS NULL",
            )
            .bind(&id.0)
            .bind(&player.0)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO evening_people (evening, player, said_ms) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&id.0)
        .bind(&player.0)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if let Some(at) = remind_ms {
            for (kind, reached) in [
                (
                    MailKind::Evening,
                    "EXISTS (SELECT 1 FROM mail_addresses a WHERE a.player = $2 \
                     AND a.confirmed_ms IS NOT NULL)",
                ),
                (
                    MailKind::PushEvening,
                    "EXISTS (SELECT 1 FROM push_subscriptions d WHERE d.player = $2)",
                ),
            ] {
                // Saying one comes again after saying one does not brings the reminder back.
                sqlx::query(&format!(
                    "INSERT INTO mail_outbox (kind, player, game_id, ply, made_ms, \
                     not_before_ms) SELECT $1, $2, $3, 0, $4, $5 WHERE {reached} \
                     ON CONFLICT (kind, player, game_id, ply) DO UPDATE SET \
                     not_before_ms = $5, done_ms = NULL, outcome = NULL, attempts = 0, \
                     last_error = NULL, claimed_until_ms = NULL"
                ))
                .bind(kind.code())
                .bind(&player.0)
                .bind(&id.0)
                .bind(now)
                .bind(at)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// Whether `player` still comes to evening `id`.
    pub async fn comes(&self, id: &EveningId, player: &PlayerId) -> Result<bool, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM evening_people WHERE evening = $1 AND player = $2",
        )
        .bind(&id.0)
        .bind(&player.0)
        .fetch_one(&self.pool)
        .await?;
        Ok(n > 0)
    }

    /// Calls evening `id` off, once, if it has not begun: whether it was.
    pub async fn cancel_evening(&self, id: &EveningId) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE evenings SET cancelled_ms = $1 WHERE id = $2 AND started_ms IS NULL \
             AND cancelled_ms IS NULL",
        )
        .bind(self.now())
        .bind(&id.0)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The evenings whose time came by `now` and that nobody seated yet, at most `limit`.
    pub async fn evenings_due(&self, now: i64, limit: u32) -> Result<Vec<EveningId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM evenings WHERE started_ms IS NULL AND cancelled_ms IS NULL \
             AND at_ms <= $1 ORDER BY at_ms LIMIT $2",
        )
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok(EveningId(r.try_get("id")?)))
            .collect()
    }

    /// Seats evening `id`, once (on any server): claims it and writes `games` (each with the
    /// people in its first seats), each person's game noted, in one transaction. `None` when
    /// it was seated (or called off) already; else the games made, in order.
    pub async fn seat_evening(
        &self,
        id: &EveningId,
        rated: bool,
        games: &[EveningGame],
    ) -> Result<Option<Vec<CreatedGame>>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let claimed = sqlx::query(
            "UPDATE evenings SET started_ms = $1 WHERE id = $2 AND started_ms IS NULL \
             AND cancelled_ms IS NULL",
        )
        .bind(self.now())
        .bind(&id.0)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            return Ok(None);
        }
        let mut made = Vec::with_capacity(games.len());
        for (n, (game, people)) in games.iter().enumerate() {
            made.push(
                self.add_evening_game(&mut tx, id, n, game, people, rated)
                    .await?,
            );
        }
        tx.commit().await?;
        Ok(Some(made))
    }

    /// A new game of evening `id` for a latecomer (`player`, in its first seat), the evening's
    /// `n`th.
    pub async fn evening_game_for(
        &self,
        id: &EveningId,
        game: &NewGame,
        player: &PlayerId,
        rated: bool,
    ) -> Result<CreatedGame, StoreError> {
        let mut tx = self.pool.begin().await?;
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM evening_games WHERE evening = $1")
            .bind(&id.0)
            .fetch_one(&mut *tx)
            .await?;
        let made = self
            .add_evening_game(
                &mut tx,
                id,
                usize::try_from(n).unwrap_or(0),
                game,
                std::slice::from_ref(player),
                rated,
            )
            .await?;
        tx.commit().await?;
        Ok(made)
    }

    async fn add_evening_game(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        id: &EveningId,
        n: usize,
        game: &NewGame,
        people: &[PlayerId],
        rated: bool,
    ) -> Result<CreatedGame, StoreError> {
        let Some(first) = people.first() else {
            return Err(StoreError::Refused(Refusal::NoSuchEvening));
        };
        let holders: Vec<Option<PlayerId>> = people.iter().cloned().map(Some).collect();
        let created = self
            .insert_game(tx, first, game, None, rated, &holders)
            .await?;
        sqlx::query("INSERT INTO evening_games (evening, game_id, n) VALUES ($1, $2, $3)")
            .bind(&id.0)
            .bind(&created.id.0)
            .bind(i64::try_from(n).unwrap_or(i64::MAX))
            .execute(&mut **tx)
            .await?;
        let now = self.now();
        for player in people {
            // A latecomer may not have said they come before: they come now.
            sqlx::query(
                "INSERT INTO evening_people (evening, player, said_ms, game_id) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (evening, player) DO UPDATE SET game_id = $4",
            )
            .bind(&id.0)
            .bind(&player.0)
            .bind(now)
            .bind(&created.id.0)
            .execute(&mut **tx)
            .await?;
        }
        Ok(created)
    }

    /// Notes that `player` was seated in `game` of evening `id` (a latecomer who took a
    /// computer's kingdom over).
    pub async fn seated_at_evening(
        &self,
        id: &EveningId,
        player: &PlayerId,
        game: &GameId,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO evening_people (evening, player, said_ms, game_id) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (evening, player) DO UPDATE SET game_id = $4",
        )
        .bind(&id.0)
        .bind(&player.0)
        .bind(self.now())
        .bind(&game.0)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Evening `id`'s games, in the order they were made: each with its code and the names of
    /// its people in turn order.
    pub async fn evening_games(
        &self,
        id: &EveningId,
    ) -> Result<Vec<(GameId, String, Vec<String>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.code, p.name FROM evening_games e JOIN games g ON g.id = e.game_id \
             LEFT JOIN seats s ON s.game_id = g.id AND s.holder IS NOT NULL \
             LEFT JOIN players p ON p.id = s.holder WHERE e.evening = $1 ORDER BY e.n, s.seat",
        )
        .bind(&id.0)
        .fetch_all(&self.pool)
        .await?;
        let mut games: Vec<(GameId, String, Vec<String>)> = Vec::new();
        for row in rows {
            let game = GameId(row.try_get("id")?);
            let name: Option<String> = row.try_get("name")?;
            if games.last().is_none_or(|(g, ..)| *g != game) {
                games.push((game, row.try_get("code")?, Vec::new()));
            }
            if let (Some(name), Some(last)) = (name, games.last_mut()) {
                last.2.push(name);
            }
        }
        Ok(games)
    }
}
