//! Quick play's rows: which games are quick and of which pace, and the seats people took over
//! from computers in them (with the number of moves the game had then).

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

impl Store {
    /// Creates a quick game of `pace` by `creator` (who takes the seats planned for the
    /// creator).
    pub async fn create_quick_game(
        &self,
        creator: &PlayerId,
        spec: &NewGame,
        pace: QuickPace,
    ) -> Result<CreatedGame, StoreError> {
        self.create_game_as(creator, spec, Some(pace)).await
    }

    /// The quick games of `pace` under way in which a computer still holds a seat, the
    /// youngest first, at most `limit`.
    pub async fn quick_games(
        &self,
        pace: QuickPace,
        limit: u32,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g WHERE g.quick = $1 AND g.finished_ms IS NULL \
             AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.holder IS NULL \
             AND s.plan LIKE $2) ORDER BY g.created_ms DESC LIMIT $3",
        )
        .bind(pace.name())
        .bind(COMPUTER_PLANS)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok(GameId(row.try_get("id")?)))
            .collect()
    }

    /// Gives the seat `seat` of quick game `game`, which the computer `plan` holds, to `player`
    /// from move `ply` on, once: `SeatNotFree` when it is a computer's no more (another
    /// server's newcomer took it). Returns the name the seat is then shown with.
    pub async fn take_over(
        &self,
        game: &GameId,
        seat: u8,
        plan: SeatPlan,
        player: &PlayerId,
        ply: u32,
    ) -> Result<String, StoreError> {
        self.give_seat(game, seat, plan, player, Some(ply)).await
    }

    /// How many quick games under way `player` holds a seat in.
    pub async fn quick_games_of(&self, player: &PlayerId) -> Result<u32, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(DISTINCT g.id) AS n FROM games g JOIN seats s ON s.game_id = g.id \
             WHERE s.holder = $1 AND g.quick IS NOT NULL AND g.finished_ms IS NULL",
        )
        .bind(&player.0)
        .fetch_one(&self.pool)
        .await?;
        count(&row, "n")
    }
}

/// A computer's seat plan as stored (`{"computer":"easy"}`), for `LIKE`.
const COMPUTER_PLANS: &str = "{\"computer\":%";

#[cfg(test)]
mod tests {
    use qiguo_rules::Level;

    use super::*;

    #[test]
    fn a_computers_plan_is_stored_as_the_pattern_says() {
        let stored = to_json(&SeatPlan::Computer(Level::Easy));
        let prefix = COMPUTER_PLANS.trim_end_matches('%');
        assert!(stored.starts_with(prefix), "{stored}");
        assert!(!to_json(&SeatPlan::Open).starts_with(prefix));
        assert!(!to_json(&SeatPlan::Creator).starts_with(prefix));
    }
}
