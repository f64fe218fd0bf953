//! Table talk: a person holding a seat writes to everyone at the table; whoever holds a seat or
//! follows the game reads it; a player mutes another for themselves. The lines are stored
//! before they are told, and told on every server ([`Core::catch_up_talk`]).

use std::collections::HashSet;
use std::sync::Arc;

use qiguo_protocol::clean_talk;

use super::Shared;
use super::core::Core;
use crate::log::{Log, note};
use crate::metrics::Metrics;
use crate::protocol::{Answer, Event, Refusal, TALK_LINES_READ};
use crate::store::{GameId, PlayerId, Store};

/// The table talk slice.
pub(crate) struct Talk {
    /// The games held, whose followers hear each line.
    core: Arc<Core>,
    store: Store,
    metrics: Arc<Metrics>,
    log: Log,
}

impl Talk {
    /// Table talk kept in `store`, told to the followers of the games `core` holds.
    pub(super) fn new(core: Arc<Core>, store: Store, metrics: Arc<Metrics>, log: Log) -> Talk {
        Talk {
            core,
            store,
            metrics,
            log,
        }
    }

    /// `player` writes `text` at the table of game `id`.
    pub(crate) async fn say(
        &self,
        player: &PlayerId,
        id: &GameId,
        text: &str,
    ) -> Result<Answer, Refusal> {
        let text = clean_talk(text)?;
        let live = self.core.game_of_yours(id).await?;
        let mut g = live.lock().await;
        // Lines written on other servers meanwhile are told first, so that all arrive in order.
        self.core.catch_up_talk(&mut g).await;
        let seat = *g.game.seats_of(player).first().ok_or(Refusal::NoGame)?;
        if self.store.talk_barred(player).await? {
            return Err(Refusal::TalkBarred);
        }
        let line = self.store.say(id, seat, player, &text).await?;
        let n = line.n;
        g.talk = g.talk.max(n + 1);
        g.tell(Event::Said {
            game: id.clone(),
            line,
        });
        self.metrics.talk();
        // What was said stays between the players: the log says only who and how much.
        note!(
            self.log,
            INFO,
            "table talk",
            game = id.0,
            line = n + 1,
            by = player.0,
            chars = text.chars().count()
        );
        Ok(Answer::Said { n })
    }

    /// The table talk of game `id` before line `before`, for `player`, who holds a seat in it
    /// or (`follows`) follows it on this connection.
    pub(crate) async fn talk(
        &self,
        player: &PlayerId,
        id: &GameId,
        before: Option<u32>,
        follows: bool,
    ) -> Result<Answer, Refusal> {
        let live = self.at_the_table(player, id, follows).await?;
        let lines = self.store.talk(id, before, TALK_LINES_READ, player).await?;
        let muted_players = self.store.muted_by(player).await?;
        let muted = {
            let g = live.lock().await;
            (0..g.game.seats().len() as u8)
                .filter(|&seat| {
                    g.game.seats()[usize::from(seat)]
                        .holder
                        .as_ref()
                        .is_some_and(|h| muted_players.contains(h))
                })
                .collect()
        };
        Ok(Answer::Talk {
            game: id.clone(),
            lines,
            muted,
        })
    }

    /// `player` mutes (`on`) or unmutes the holder of `seat` in game `id`: that holder.
    pub(crate) async fn mute(
        &self,
        player: &PlayerId,
        id: &GameId,
        seat: u8,
        on: bool,
        follows: bool,
    ) -> Result<PlayerId, Refusal> {
        let live = self.at_the_table(player, id, follows).await?;
        let holder = {
            let g = live.lock().await;
            g.game
                .seats()
                .get(usize::from(seat))
                .and_then(|s| s.holder.clone())
        };
        let muted = holder
            .filter(|h| h != player)
            .ok_or(Refusal::NobodyToMute { seat })?;
        self.store.mute(player, &muted, on).await?;
        Ok(muted)
    }

    /// The players `player` muted (none, if the database cannot say now: said in the log).
    pub(crate) async fn muted_by(&self, player: &PlayerId) -> HashSet<PlayerId> {
        self.store.muted_by(player).await.unwrap_or_else(|e| {
            note!(
                self.log,
                WARN,
                "muted players not read",
                player = player.0,
                why = e
            );
            HashSet::new()
        })
    }

    /// Game `id`, held, if `player` holds a seat in it or `follows` it.
    async fn at_the_table(
        &self,
        player: &PlayerId,
        id: &GameId,
        follows: bool,
    ) -> Result<Shared, Refusal> {
        let live = self.core.game_of_yours(id).await?;
        if !follows && live.lock().await.game.seats_of(player).is_empty() {
            return Err(Refusal::NoGame);
        }
        Ok(live)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::testing::Bench;
    use crate::store::SeatPlan;

    #[tokio::test]
    async fn a_seated_player_talks_the_followers_hear_and_a_mute_hides_nobody_else() {
        let bench = Bench::new("talk").await;
        let talk = Talk::new(
            bench.core.clone(),
            bench.store.clone(),
            bench.metrics.clone(),
            bench.log.clone(),
        );
        let ann = bench.player("Ann").await;
        let bob = bench.player("Bob").await;
        let game = bench.game(&ann, SeatPlan::Open).await;
        let mut heard = bench.follow(&game).await;
        assert_eq!(
            talk.say(&ann, &game, " hello ").await,
            Ok(Answer::Said { n: 0 })
        );
        match Bench::next(&mut heard).await {
            Event::Said {
                game: said_in,
                line,
            } => {
                assert_eq!(said_in, game);
                assert_eq!((line.n, line.seat, line.text.as_str()), (0, 0, "hello"));
            }
            other => panic!("not a line of talk: {other:?}"),
        }
        assert_eq!(
            talk.say(&bob, &game, "hi").await,
            Err(Refusal::NoGame),
            "only a seat talks"
        );
        assert_eq!(
            talk.talk(&bob, &game, None, false).await,
            Err(Refusal::NoGame),
            "a stranger who does not follow the game reads nothing"
        );
        let Answer::Talk { lines, muted, .. } = talk.talk(&bob, &game, None, true).await.unwrap()
        else {
            panic!("not the talk");
        };
        assert_eq!(lines.len(), 1, "a follower reads it");
        assert!(muted.is_empty());
        assert_eq!(
            talk.mute(&ann, &game, 1, true, true).await,
            Err(Refusal::NobodyToMute { seat: 1 }),
            "an open seat holds nobody to mute"
        );
        assert_eq!(
            talk.mute(&ann, &game, 0, true, true).await,
            Err(Refusal::NobodyToMute { seat: 0 }),
            "nor does one's own"
        );
        assert_eq!(talk.mute(&bob, &game, 0, true, true).await, Ok(ann.clone()));
        assert_eq!(talk.muted_by(&bob).await, HashSet::from([ann]));
        let counted = bench.metrics.render(0, 0, 0, 0);
        assert!(
            counted.contains("qiguo_talk_lines_total 1"),
            "the line counted: {counted}"
        );
    }
}
