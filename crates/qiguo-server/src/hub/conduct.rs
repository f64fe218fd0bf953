//! Conduct: a player blocks another (never seated together by quick play or a table, their
//! table talk hidden, as a mute), reports one to the operator with a reason and the game, and
//! a player the operator barred from play is refused at sign-in.

use std::collections::HashSet;

use qiguo_protocol::{clean_name, clean_talk};

use crate::live::LiveGame;
use crate::log::{Log, note};
use crate::protocol::Refusal;
use crate::store::{GameId, PlayerId, Store};

/// The conduct slice.
pub(crate) struct Conduct {
    store: Store,
    log: Log,
}

impl Conduct {
    /// Blocks and reports kept in `store`, said in `log`.
    pub(super) fn new(store: Store, log: Log) -> Conduct {
        Conduct { store, log }
    }

    /// The player called `name` (as names are compared), never `asker`.
    async fn someone_named(&self, asker: &PlayerId, name: &str) -> Result<PlayerId, Refusal> {
        let name = clean_name(name)?;
        let other = self
            .store
            .player_named(&name)
            .await?
            .ok_or(Refusal::NoPlayerNamed { name })?;
        if other == *asker {
            return Err(Refusal::Yourself);
        }
        Ok(other)
    }

    /// `player` blocks the player called `name` (or no more): who that is.
    pub(crate) async fn block(
        &self,
        player: &PlayerId,
        name: &str,
        on: bool,
    ) -> Result<PlayerId, Refusal> {
        let other = self.someone_named(player, name).await?;
        self.store.block(player, &other, on).await?;
        note!(
            self.log,
            INFO,
            "block",
            by = player.0,
            player = other.0,
            on = on
        );
        Ok(other)
    }

    /// `player` reports the player called `name`, in `game` if given, for `reason`.
    pub(crate) async fn report(
        &self,
        player: &PlayerId,
        name: &str,
        game: Option<&GameId>,
        reason: &str,
    ) -> Result<(), Refusal> {
        let reason = clean_talk(reason)?;
        let other = self.someone_named(player, name).await?;
        let id = self.store.report(player, &other, game, &reason).await?;
        note!(
            self.log,
            INFO,
            "reported",
            report = id,
            by = player.0,
            player = other.0,
            game = game.map_or("", |g| g.0.as_str())
        );
        Ok(())
    }
}

/// Whether `game`'s people include one `player` keeps apart from (either blocked the other).
pub(super) fn kept_apart_in(game: &LiveGame, apart: &HashSet<PlayerId>) -> bool {
    game.seats()
        .iter()
        .any(|s| s.holder.as_ref().is_some_and(|h| apart.contains(h)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::testing::Bench;
    use crate::protocol::Refusal;

    #[tokio::test]
    async fn a_player_blocks_and_reports_someone_named_but_never_themself() {
        let bench = Bench::new("conduct").await;
        let conduct = Conduct::new(bench.store.clone(), bench.log.clone());
        let ann = bench.player("Ann").await;
        let bob = bench.player("Bob").await;
        assert_eq!(conduct.block(&ann, "bob", true).await, Ok(bob.clone()));
        assert!(bench.store.kept_apart(&ann).await.unwrap().contains(&bob));
        assert!(
            bench.store.kept_apart(&bob).await.unwrap().contains(&ann),
            "kept apart both ways"
        );
        assert_eq!(conduct.block(&ann, "Bob", false).await, Ok(bob.clone()));
        assert!(bench.store.kept_apart(&ann).await.unwrap().is_empty());
        assert_eq!(
            conduct.block(&ann, "Ann", true).await,
            Err(Refusal::Yourself)
        );
        assert_eq!(
            conduct.report(&ann, "Cy", None, "rude").await,
            Err(Refusal::NoPlayerNamed { name: "Cy".into() })
        );
        conduct.report(&ann, "Bob", None, "rude").await.unwrap();
        assert!(
            conduct.report(&ann, "Bob", None, "").await.is_err(),
            "a reason is given"
        );
    }

    #[test]
    fn a_game_keeps_apart_whoever_holds_a_seat_in_it() {
        let game = LiveGame::from(crate::hub::tests::stored_before_the_checks());
        let ann = PlayerId("ann".into());
        let bob = PlayerId("bob".into());
        assert!(kept_apart_in(&game, &HashSet::from([ann])));
        assert!(!kept_apart_in(&game, &HashSet::from([bob])));
        assert!(!kept_apart_in(&game, &HashSet::new()));
    }
}
