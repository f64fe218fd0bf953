//! Holidays in the database: a player's days away, counted against a yearly allowance, and read
//! with each correspondence game's seats (a clock stops while its player is away).

use qiguo_protocol::calendar::{civil, date_text, start_of, year_days};
use sqlx::Row;

use super::{GameId, PlayerId, Refusal, Store, StoreError, StoredSeat};
use crate::protocol::Holidays;

/// Days of `first..=last` within `from..=to`.
fn overlap((first, last): (i64, i64), (from, to): (i64, i64)) -> i64 {
    (last.min(to) - first.max(from) + 1).max(0)
}

impl Store {
    /// `player` is away from `today` to `until` (inclusive), or (`None`) back today: the
    /// holiday not yet ended starts, changes its end, or ends yesterday. Refused when a
    /// calendar year would hold more than `allowance` days of holiday.
    pub async fn set_away(
        &self,
        player: &PlayerId,
        until: Option<i64>,
        today: i64,
        allowance: u32,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        super::lock_player(&mut tx, player, self.postgres).await?;
        let rows = sqlx::query(
            "SELECT first_day, last_day FROM holidays WHERE player = $1 ORDER BY first_day",
        )
        .bind(&player.0)
        .fetch_all(&mut *tx)
        .await?;
        let mut all = Vec::with_capacity(rows.len());
        for r in &rows {
            all.push((
                r.try_get::<i64, _>("first_day")?,
                r.try_get::<i64, _>("last_day")?,
            ));
        }
        let current = all.iter().copied().find(|&(_, last)| last >= today);
        let others: Vec<(i64, i64)> = all
            .iter()
            .copied()
            .filter(|&h| Some(h) != current)
            .collect();
        let new = match (current, until) {
            (Some((first, _)), Some(until)) => Some((first, until)),
            (None, Some(until)) => Some((today, until)),
            (Some((first, _)), None) => Some((first, today - 1)).filter(|&(f, l)| l >= f),
            (None, None) => None,
        };
        if let Some(new) = new {
            let (first_year, last_year) = (civil(new.0).0, civil(new.1).0);
            for year in first_year..=last_year {
                let days = year_days(year);
                let taken: i64 = others.iter().map(|&h| overlap(h, days)).sum();
                let asked = overlap(new, days);
                let left = (i64::from(allowance) - taken).max(0);
                if asked > left {
                    return Err(StoreError::Refused(Refusal::HolidayDays {
                        year: year as i32,
                        asked: asked as u32,
                        left: left as u32,
                    }));
                }
            }
        }
        if let Some((first, _)) = current {
            sqlx::query("DELETE FROM holidays WHERE player = $1 AND first_day = $2")
                .bind(&player.0)
                .bind(first)
                .execute(&mut *tx)
                .await?;
        }
        if let Some((first, last)) = new {
            sqlx::query("INSERT INTO holidays (player, first_day, last_day) VALUES ($1, $2, $3)")
                .bind(&player.0)
                .bind(first)
                .bind(last)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// `player`'s holidays as of `today`, with the yearly `allowance`.
    pub async fn holidays(
        &self,
        player: &PlayerId,
        today: i64,
        allowance: u32,
    ) -> Result<Holidays, StoreError> {
        let year = civil(today).0;
        let days = year_days(year);
        let rows = sqlx::query(
            "SELECT first_day, last_day FROM holidays \
             WHERE player = $1 AND last_day >= $2 AND first_day <= $3",
        )
        .bind(&player.0)
        .bind(days.0)
        .bind(days.1)
        .fetch_all(&self.pool)
        .await?;
        let mut used = 0;
        let mut away_until = None;
        for r in &rows {
            let holiday = (
                r.try_get::<i64, _>("first_day")?,
                r.try_get::<i64, _>("last_day")?,
            );
            used += overlap(holiday, days);
            if holiday.1 >= today {
                away_until = Some(date_text(holiday.1));
            }
        }
        Ok(Holidays {
            away_until,
            allowance,
            year: year as i32,
            used: used as u32,
        })
    }

    /// The unfinished games in which `player` holds a seat.
    pub async fn unfinished_games_of(&self, player: &PlayerId) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.finished_ms IS NULL ORDER BY g.id",
        )
        .bind(&player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get("id")?))).collect()
    }

    /// Reads into `seats` (of game `id`, whose turn began at `moved_ms`) their holders'
    /// holidays that end that day or later.
    pub(super) async fn read_holidays(
        &self,
        id: &GameId,
        moved_ms: i64,
        seats: &mut [StoredSeat],
    ) -> Result<(), StoreError> {
        let rows = sqlx::query(
            "SELECT s.seat, h.first_day, h.last_day FROM seats s \
             JOIN holidays h ON h.player = s.holder \
             WHERE s.game_id = $1 AND h.last_day >= $2 ORDER BY s.seat, h.first_day",
        )
        .bind(&id.0)
        .bind(qiguo_protocol::calendar::day_of(moved_ms))
        .fetch_all(&self.pool)
        .await?;
        for r in &rows {
            let seat = usize::try_from(r.try_get::<i64, _>("seat")?).unwrap_or(usize::MAX);
            let (first, last) = (
                r.try_get::<i64, _>("first_day")?,
                r.try_get::<i64, _>("last_day")?,
            );
            if let Some(seat) = seats.get_mut(seat) {
                seat.holidays.push((start_of(first), start_of(last + 1)));
            }
        }
        Ok(())
    }
}
