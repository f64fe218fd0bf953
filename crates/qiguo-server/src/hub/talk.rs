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
