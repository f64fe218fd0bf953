//! Holidays: a player away until a day has their correspondence clocks stopped; each of their
//! games reads its seats again and tells its followers ([`crate::protocol::Event::Away`]).

use std::sync::Arc;

use qiguo_protocol::calendar::{date_text, day_of, parse_date};

use super::core::Core;
use crate::log::{Log, note};
use crate::protocol::{Answer, Refusal};
use crate::store::{GameId, PlayerId, Store};

/// Days of holiday a player may take a calendar year, unless the server says otherwise.
pub(crate) const HOLIDAY_DAYS: u32 = 14;

/// The holidays slice.
pub(crate) struct Holidays {
    /// The games held, whose seats are read again when a player goes away or comes back.
    core: Arc<Core>,
    store: Store,
    log: Log,
    /// Days of holiday a player may take a calendar year.
    days: u32,
}

impl Holidays {
    /// Holidays of up to `days` a calendar year, kept in `store`, told to the games `core`
    /// holds.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log, days: u32) -> Holidays {
        Holidays {
            core,
            store,
            log,
            days,
        }
    }

    /// `player` goes on holiday until `until` (`YYYY-MM-DD`, today or later), changes its last
    /// day, or (`None`) is back today.
    pub(crate) async fn away(
        &self,
        player: &PlayerId,
        until: Option<&str>,
    ) -> Result<Answer, Refusal> {
        let today = day_of(self.store.now());
        let until =
            match until {
                None => None,
                Some(text) => Some(parse_date(text).filter(|&day| day >= today).ok_or_else(
                    || Refusal::BadDate {
                        date: text.chars().take(40).collect(),
                    },
                )?),
            };
        self.store.set_away(player, until, today, self.days).await?;
        match until {
            Some(day) => note!(
                self.log,
                INFO,
                "away",
                player = player.0,
                until = date_text(day)
            ),
            None => note!(self.log, INFO, "back", player = player.0),
        }
        // Each of their games: its seats read again (clocks, deadlines, the followers told),
        // its due time kept, the other servers told.
        let games = self.store.unfinished_games_of(player).await?;
        for id in &games {
            self.read_seats_again(id).await;
        }
        self.store.announce(&games).await?;
        self.holidays(player).await
    }

    /// `player`'s holidays.
    pub(crate) async fn holidays(&self, player: &PlayerId) -> Result<Answer, Refusal> {
        let today = day_of(self.store.now());
        Ok(Answer::Holidays(
            self.store.holidays(player, today, self.days).await?,
        ))
    }

    /// Reads game `id` again after its players' holidays changed, and keeps when it is due.
    async fn read_seats_again(&self, id: &GameId) {
        let held = self.core.held.contains(id);
        let live = if held {
            self.core.refresh(id).await;
            self.core.held.get(id)
        } else {
            // Read now, holidays and all.
            self.core.live(id).await.ok()
        };
        let Some(live) = live else {
            return;
        };
        let next = {
            let g = live.lock().await;
            g.game.due_in().map(|d| g.game.moved_ms().saturating_add(d))
        };
        if let Err(e) = self.store.set_due(id, next).await {
            note!(self.log, WARN, "due time not kept", game = id.0, why = e);
        }
    }
}

#[cfg(test)]
mod tests {
    use qiguo_protocol::calendar::DAY_MS;

    use super::*;
    use crate::hub::testing::Bench;
    use crate::protocol::Event;

    #[tokio::test]
    async fn a_player_goes_away_within_the_allowance_and_comes_back() {
        let bench = Bench::new("holidays").await;
        let holidays = Holidays::new(
            bench.core.clone(),
            bench.store.clone(),
            bench.log.clone(),
            5,
        );
        let ann = bench.player("Ann").await;
        let game = bench.correspondence_game(&ann).await;
        let mut heard = bench.follow(&game).await;
        let today = day_of(bench.store.now());
        let in_two_days = date_text(day_of(bench.store.now() + 2 * DAY_MS));
        let Answer::Holidays(view) = holidays.away(&ann, Some(&in_two_days)).await.unwrap() else {
            panic!("not the holidays");
        };
        assert_eq!(view.away_until.as_deref(), Some(in_two_days.as_str()));
        assert_eq!(
            (view.allowance, view.used),
            (5, 3),
            "today to its end included"
        );
        // The game held reads its seats again and tells its followers.
        loop {
            if let Event::Away { .. } = Bench::next(&mut heard).await {
                break;
            }
        }
        let too_long = date_text(today + 9);
        assert!(matches!(
            holidays.away(&ann, Some(&too_long)).await,
            Err(Refusal::HolidayDays { .. })
        ));
        let yesterday = date_text(today - 1);
        assert_eq!(
            holidays.away(&ann, Some(&yesterday)).await,
            Err(Refusal::BadDate { date: yesterday })
        );
        assert!(holidays.away(&ann, Some("tomorrow")).await.is_err());
        let Answer::Holidays(back) = holidays.away(&ann, None).await.unwrap() else {
            panic!("not the holidays");
        };
        assert_eq!(back.away_until, None);
    }
}
