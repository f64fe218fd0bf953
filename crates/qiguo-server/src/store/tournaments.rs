//! Tournaments' rows: the tournaments (a name unique as folded, held by a unique index; what
//! they play; the round begun), who joined (their score so far, the game they play now, and in
//! an arena since when they wait), the tournaments' games and each person's result in each.
//! Every step that must happen once on any number of servers is one transaction that claims
//! it: a round begun with all its games; an arena's table seated only with people still
//! waiting; a game scored with every result.

use std::collections::HashMap;

use qiguo_protocol::model::fold_name;
use qiguo_protocol::tournaments::{
    TournamentFormat, TournamentGame, TournamentListed, TournamentPlay, TournamentSpec,
    TournamentState,
};

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

mod rounds;

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its club's id and name, a club's own.
    pub club: Option<(String, String)>,
    /// Who set it (`None`: the operator).
    pub by: Option<PlayerId>,
    /// Swiss or arena.
    pub format: TournamentFormat,
    /// What it plays.
    pub play: TournamentPlay,
    /// When it starts.
    pub starts_ms: i64,
    /// A Swiss's rounds.
    pub rounds: u8,
    /// An arena's minutes.
    pub minutes: u32,
    /// The most players.
    pub most: u32,
    /// The operator's series: the next one this many days later.
    pub repeat_days: Option<u32>,
    /// The round begun (an arena: 1 once begun).
    pub round: u8,
    /// When the round under way must end (a Swiss).
    pub round_ends_ms: Option<i64>,
    /// When it ended.
    pub finished_ms: Option<i64>,
    /// When its standings last changed.
    pub changed_ms: i64,
}

impl TournamentRow {
    /// Where it stands.
    pub fn state(&self) -> TournamentState {
        if self.finished_ms.is_some() {
            TournamentState::Over
        } else if self.round > 0 {
            TournamentState::Playing
        } else {
            TournamentState::Entering
        }
    }

    /// When an arena's play ends.
    pub fn arena_ends_ms(&self) -> i64 {
        self.starts_ms + i64::from(self.minutes) * 60_000
    }

    /// The spec it was made from (for the next of a series).
    pub fn spec(&self) -> TournamentSpec {
        TournamentSpec {
            name: self.name.clone(),
            format: self.format,
            play: self.play,
            starts_ms: self.starts_ms,
            rounds: self.rounds,
            minutes: self.minutes,
            most: self.most,
            club: self.club.as_ref().map(|(_, name)| name.clone()),
        }
    }
}

/// Someone who joined a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Who.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// When they joined.
    pub joined_ms: i64,
    /// Whether they left.
    pub left: bool,
    /// Points, in halves.
    pub points: u32,
    /// Games scored.
    pub games: u32,
    /// First places.
    pub firsts: u32,
    /// Good games in a row.
    pub streak: u32,
    /// The game they play in it now.
    pub game: Option<GameId>,
    /// Since when they wait for a table (an arena).
    pub free_ms: Option<i64>,
    /// When another server last noted them connected (this server knows its own).
    pub online_ms: Option<i64>,
}

/// One person's result in a game, to write when it is scored.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// Who.
    pub player: PlayerId,
    /// Their place.
    pub place: u8,
    /// The points of their place, in halves (before a streak doubles them).
    pub points: u32,
    /// Whether it counts towards a streak (an arena).
    pub good: bool,
}

/// A table to write: its new game, and the people holding its first seats in turn order.
pub type TournamentTable = (NewGame, Vec<PlayerId>);

const TOURNAMENT_COLUMNS: &str = "t.id, t.name, t.club, c.name AS club_name, t.by_player, \
     t.format, t.play, t.starts_ms, t.rounds, t.minutes, t.most, t.repeat_days, t.round, \
     t.round_ends_ms, t.finished_ms, t.changed_ms FROM tournaments t LEFT JOIN clubs c ON c.id = t.club";

fn tournament_of(row: &sqlx::any::AnyRow) -> Result<TournamentRow, StoreError> {
    let id: String = row.try_get("id")?;
    let play =
        serde_json::from_str(&row.try_get::<String, _>("play")?).map_err(|e| damaged(&id, e))?;
    let format = match row.try_get::<String, _>("format")?.as_str() {
        "swiss" => TournamentFormat::Swiss,
        "arena" => TournamentFormat::Arena,
        other => return Err(damaged(&id, format!("format {other}"))),
    };
    let club = match (
        row.try_get::<Option<String>, _>("club")?,
        row.try_get::<Option<String>, _>("club_name")?,
    ) {
        (Some(id), Some(name)) => Some((id, name)),
        _ => None,
    };
    Ok(TournamentRow {
        name: row.try_get("name")?,
        club,
        by: row.try_get::<Option<String>, _>("by_player")?.map(PlayerId),
        format,
        play,
        starts_ms: row.try_get("starts_ms")?,
        rounds: u8::try_from(row.try_get::<i64, _>("rounds")?).unwrap_or(0),
        minutes: count(row, "minutes")?,
        most: count(row, "most")?,
        repeat_days: row
            .try_get::<Option<i64>, _>("repeat_days")?
            .map(|d| u32::try_from(d).unwrap_or(0)),
        round: u8::try_from(row.try_get::<i64, _>("round")?).unwrap_or(u8::MAX),
        round_ends_ms: row.try_get("round_ends_ms")?,
        finished_ms: row.try_get("finished_ms")?,
        changed_ms: row.try_get("changed_ms")?,
        id,
    })
}

/// Notes in `tx` that tournament `id`'s standings changed at `now`.
async fn touch(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE tournaments SET changed_ms = $1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Store {
    /// Sets tournament `spec` (cleaned), a club's own (`club`, its id) or public, by `by` (`None`:
    /// the operator), the next of a series `repeat_days` later: refused
    /// `tournament_name_taken` when another has its name (folded).
    pub async fn create_tournament(
        &self,
        spec: &TournamentSpec,
        club: Option<&str>,
        by: Option<&PlayerId>,
        repeat_days: Option<u32>,
    ) -> Result<TournamentRow, StoreError> {
        let id = secret::new_id()?;
        let added = sqlx::query(
            "INSERT INTO tournaments (id, name, folded, club, by_player, format, play, starts_ms, \
             rounds, minutes, most, repeat_days, made_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&id)
        .bind(&spec.name)
        .bind(fold_name(&spec.name))
        .bind(club)
        .bind(by.map(|p| p.0.as_str()))
        .bind(spec.format.word())
        .bind(to_json(&spec.play))
        .bind(spec.starts_ms)
        .bind(i64::from(spec.rounds))
        .bind(i64::from(spec.minutes))
        .bind(i64::from(spec.most))
        .bind(repeat_days.map(i64::from))
        .bind(self.now())
        .execute(&self.pool)
        .await;
        match added {
            Ok(_) => {}
            Err(e) if unique_violation(&e) => {
                return Err(StoreError::Refused(Refusal::TournamentNameTaken));
            }
            Err(e) => return Err(e.into()),
        }
        self.tournament(&id).await
    }

    /// Tournament `id`.
    pub async fn tournament(&self, id: &str) -> Result<TournamentRow, StoreError> {
        let row = sqlx::query(&format!("SELECT {TOURNAMENT_COLUMNS} WHERE t.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::Refused(Refusal::NoSuchTournament))?;
        tournament_of(&row)
    }

    /// The tournament called `name` (compared folded), or the refusal `no_such_tournament`.
    pub async fn tournament_named(&self, name: &str) -> Result<TournamentRow, StoreError> {
        let row = sqlx::query(&format!("SELECT {TOURNAMENT_COLUMNS} WHERE t.folded = $1"))
            .bind(fold_name(name))
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::Refused(Refusal::NoSuchTournament))?;
        tournament_of(&row)
    }

    /// The tournaments not over, or over since `since_ms`, that `player` may see — public ones
    /// and those of their clubs (with `club`, that club's only) — under way first, then to come,
    /// then over; at most `limit`, each as listed.
    pub async fn tournaments_listed(
        &self,
        player: &PlayerId,
        club: Option<&str>,
        since_ms: i64,
        limit: usize,
    ) -> Result<Vec<TournamentListed>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} WHERE (t.finished_ms IS NULL OR t.finished_ms >= $2) \
             AND (($3 = 1 AND t.club = $4) OR ($3 = 0 AND (t.club IS NULL OR t.club IN \
             (SELECT m.club FROM club_members m WHERE m.player = $1 AND m.role <> 'asking')))) \
             ORDER BY t.starts_ms, t.id LIMIT $5"
        ))
        .bind(&player.0)
        .bind(since_ms)
        .bind(i64::from(club.is_some()))
        .bind(club.unwrap_or(""))
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        let mut listed = Vec::with_capacity(rows.len());
        for row in &rows {
            let t = tournament_of(row)?;
            let (players, joined) = self.entry_counts(&t.id, player).await?;
            listed.push(TournamentListed {
                name: t.name.clone(),
                format: t.format,
                pace: t.play.pace,
                starts_ms: t.starts_ms,
                state: t.state(),
                players,
                most: t.most,
                club: t.club.map(|(_, name)| name),
                joined,
            });
        }
        let order = |state: TournamentState| match state {
            TournamentState::Playing => 0,
            TournamentState::Entering => 1,
            TournamentState::Over => 2,
        };
        listed.sort_by_key(|t| order(t.state));
        Ok(listed)
    }

    /// How many are in tournament `id` (joined, not left), and whether `player` is.
    pub async fn entry_counts(
        &self,
        id: &str,
        player: &PlayerId,
    ) -> Result<(u32, bool), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, SUM(CASE WHEN player = $2 THEN 1 ELSE 0 END) AS mine \
             FROM tournament_people WHERE tournament = $1 AND left_ms IS NULL",
        )
        .bind(id)
        .bind(&player.0)
        .fetch_one(&self.pool)
        .await?;
        let mine: Option<i64> = row.try_get("mine")?;
        Ok((count(&row, "n")?, mine.unwrap_or(0) > 0))
    }

    /// `player` joins tournament `t` (again, if they left): refused `tournament_full` when it
    /// has as many as it takes. In an arena under way they wait for a table from now.
    pub async fn join_tournament(
        &self,
        t: &TournamentRow,
        player: &PlayerId,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.postgres {
            // Joins counted one at a time, so that two never pass the last place together.
            sqlx::query("SELECT id FROM tournaments WHERE id = $1 FOR UPDATE")
                .bind(&t.id)
                .fetch_optional(&mut *tx)
                .await?;
        }
        let already: Option<Option<i64>> = sqlx::query_scalar(
            "SELECT left_ms FROM tournament_people WHERE tournament = $1 AND player = $2",
        )
        .bind(&t.id)
        .bind(&player.0)
        .fetch_optional(&mut *tx)
        .await?;
        if already == Some(None) {
            // In it already.
            return Ok(());
        }
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournament_people WHERE tournament = $1 AND left_ms IS NULL",
        )
        .bind(&t.id)
        .fetch_one(&mut *tx)
        .await?;
        if n >= i64::from(t.most) {
            return Err(StoreError::Refused(Refusal::TournamentFull {
                most: t.most,
            }));
        }
        let now = self.now();
        let free = (t.format == TournamentFormat::Arena && t.round > 0).then_some(now);
        sqlx::query(
            "INSERT INTO tournament_people (tournament, player, joined_ms, free_ms) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (tournament, player) DO UPDATE SET \
             left_ms = NULL, free_ms = $4",
        )
        .bind(&t.id)
        .bind(&player.0)
        .bind(now)
        .bind(free)
        .execute(&mut *tx)
        .await?;
        touch(&mut tx, &t.id, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// `player` leaves tournament `t`: before it starts they are no longer entered; after, they
    /// are seated no more (their score kept). Refused `not_in_tournament` when they are not in
    /// it. Returns the game they play in it now, if any.
    pub async fn leave_tournament(
        &self,
        t: &TournamentRow,
        player: &PlayerId,
    ) -> Result<Option<GameId>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "SELECT game_id FROM tournament_people WHERE tournament = $1 AND player = $2 \
             AND left_ms IS NULL",
        )
        .bind(&t.id)
        .bind(&player.0)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::Refused(Refusal::NotInTournament))?;
        let game = row.try_get::<Option<String>, _>("game_id")?.map(GameId);
        if t.round == 0 {
            sqlx::query("DELETE FROM tournament_people WHERE tournament = $1 AND player = $2")
                .bind(&t.id)
                .bind(&player.0)
                .execute(&mut *tx)
                .await?;
        } else {
            sqlx::query(
                "UPDATE tournament_people SET left_ms = $3, free_ms = NULL, game_id = NULL \
                 WHERE tournament = $1 AND player = $2",
            )
            .bind(&t.id)
            .bind(&player.0)
            .bind(self.now())
            .execute(&mut *tx)
            .await?;
        }
        touch(&mut tx, &t.id, self.now()).await?;
        tx.commit().await?;
        Ok(game)
    }

    /// Everyone who joined tournament `id` (those who left too), in the order they joined.
    pub async fn entrants(&self, id: &str) -> Result<Vec<Entrant>, StoreError> {
        let rows = sqlx::query(
            "SELECT e.player, p.name, e.joined_ms, e.left_ms, e.points, e.games, e.firsts, \
             e.streak, e.game_id, e.free_ms, \
             CASE WHEN p.online_server = $2 THEN NULL ELSE p.online_ms END AS online_ms \
             FROM tournament_people e JOIN players p ON p.id = e.player \
             WHERE e.tournament = $1 ORDER BY e.joined_ms, e.player",
        )
        .bind(id)
        .bind(self.server_id())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Entrant {
                    player: PlayerId(row.try_get("player")?),
                    name: row.try_get("name")?,
                    joined_ms: row.try_get("joined_ms")?,
                    left: row.try_get::<Option<i64>, _>("left_ms")?.is_some(),
                    points: count(row, "points")?,
                    games: count(row, "games")?,
                    firsts: count(row, "firsts")?,
                    streak: count(row, "streak")?,
                    game: row.try_get::<Option<String>, _>("game_id")?.map(GameId),
                    free_ms: row.try_get("free_ms")?,
                    online_ms: row.try_get("online_ms")?,
                })
            })
            .collect()
    }

    /// For each person of tournament `id`: the points now of the people they were seated with,
    /// summed (each meeting once), in halves.
    pub async fn points_met(&self, id: &str) -> Result<HashMap<PlayerId, u32>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.player, CAST(SUM(e.points) AS BIGINT) AS met FROM tournament_results a \
             JOIN tournament_results b ON b.game_id = a.game_id AND b.player <> a.player \
             JOIN tournament_people e ON e.tournament = a.tournament AND e.player = b.player \
             WHERE a.tournament = $1 GROUP BY a.player",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let mut met = HashMap::with_capacity(rows.len());
        for row in &rows {
            let sum: Option<i64> = row.try_get("met")?;
            met.insert(
                PlayerId(row.try_get("player")?),
                u32::try_from(sum.unwrap_or(0)).unwrap_or(u32::MAX),
            );
        }
        Ok(met)
    }

    /// Every pair of people of tournament `id` seated at one table, once per meeting (the
    /// lower id first).
    pub async fn meetings(&self, id: &str) -> Result<Vec<(PlayerId, PlayerId)>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.player AS a, b.player AS b FROM tournament_results a \
             JOIN tournament_results b ON b.game_id = a.game_id AND b.player > a.player \
             WHERE a.tournament = $1",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((PlayerId(row.try_get("a")?), PlayerId(row.try_get("b")?))))
            .collect()
    }

    /// `player`'s games in tournament `id`, the latest first.
    pub async fn tournament_games_of(
        &self,
        id: &str,
        player: &PlayerId,
    ) -> Result<Vec<TournamentGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.game_id, g.code, r.round, r.place, r.points FROM tournament_results r \
             JOIN games g ON g.id = r.game_id WHERE r.tournament = $1 AND r.player = $2 \
             ORDER BY g.created_ms DESC, r.game_id",
        )
        .bind(id)
        .bind(&player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(TournamentGame {
                    game: GameId(row.try_get("game_id")?),
                    code: row.try_get("code")?,
                    round: count(row, "round")?,
                    place: row
                        .try_get::<Option<i64>, _>("place")?
                        .map(|p| u8::try_from(p).unwrap_or(u8::MAX)),
                    points: row
                        .try_get::<Option<i64>, _>("points")?
                        .map(|p| u32::try_from(p).unwrap_or(0)),
                })
            })
            .collect()
    }
}
