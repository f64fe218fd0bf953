//! Several servers on one PostgreSQL database: each change a server commits is announced on
//! [`CHANGES_CHANNEL`]; the others read the game again and tell their followers what changed.

use std::sync::Arc;
use std::time::Duration;

use super::{Hub, lock};
use crate::store::{CHANGES_CHANNEL, GameId};

impl Hub {
    /// Follows the other servers' changes on PostgreSQL.
    pub(super) async fn listen(hub: std::sync::Weak<Hub>) {
        loop {
            let Some(url) = hub.upgrade().map(|h| h.store.url().to_owned()) else {
                return;
            };
            match sqlx::postgres::PgListener::connect(&url).await {
                Ok(mut listener) => {
                    if let Err(e) = listener.listen(CHANGES_CHANNEL).await {
                        if let Some(h) = hub.upgrade() {
                            h.log.warn(&format!("cannot listen for other servers: {e}"));
                        }
                    } else {
                        while let Ok(notice) = listener.recv().await {
                            let Some(h) = hub.upgrade() else {
                                return;
                            };
                            if let Some((server, game)) = notice.payload().split_once(' ')
                                && server != h.store.server_id()
                            {
                                h.refresh(&GameId(game.to_owned())).await;
                            }
                        }
                    }
                }
                Err(e) => {
                    if let Some(h) = hub.upgrade() {
                        h.log.warn(&format!("cannot listen for other servers: {e}"));
                    }
                }
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }

    /// Reads a game again from the database (changed by another server) and tells its
    /// followers what changed.
    pub async fn refresh(self: &Arc<Self>, id: &GameId) {
        let live = lock(&self.games).get(id).cloned();
        let Some(live) = live else {
            // Not held here: read when someone opens it here, or when it is due.
            return;
        };
        // Read while holding the game, so that reads and this server's own moves apply in the
        // order they happened.
        let mut g = live.lock().await;
        let stored = match self.store.load_game(id).await {
            Ok(stored) => stored,
            Err(e) => {
                self.log
                    .error(&format!("game {} not read again: {e}", id.0));
                return;
            }
        };
        let moved = stored.game.len() > g.game.game().len();
        // Who is present, as the game now read says (the seats' last sightings included).
        let presence = self.presence_in(id, &stored.seats);
        let events = g.game.replace(stored, &presence);
        for event in events {
            g.tell(event);
        }
        if moved {
            self.tell_next(&g);
        }
        drop(g);
        self.wake(id);
    }
}
