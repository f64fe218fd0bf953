//! Several servers on one PostgreSQL database: each change a server commits is announced on
//! [`CHANGES_CHANNEL`]; the others read the game again and tell their followers what changed.
//! A player's own events come on [`PLAYERS_CHANNEL`], for their connections here.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};

use super::core::Core;
use crate::log::{Log, note};
use crate::protocol::Event;
use crate::store::{CHANGES_CHANNEL, GameId, PLAYERS_CHANNEL, PlayerId, Store};

/// The name the listener's connection of server `server` (its [`crate::Store::server_id`])
/// gives PostgreSQL, as `pg_stat_activity` shows it: an operator sees whose it is.
pub fn listener_name(server: &str) -> String {
    format!("qiguo-server {server} listener")
}

/// A listener on [`CHANGES_CHANNEL`] and [`PLAYERS_CHANNEL`] for server `server`, or why
/// there is none.
async fn listener(url: &str, server: &str) -> Result<PgListener, sqlx::Error> {
    let options = PgConnectOptions::from_str(url)?.application_name(&listener_name(server));
    // One connection, kept as long as it lives (as `PgListener::connect` makes it).
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options)
        .await?;
    let mut listener = PgListener::connect_with(&pool).await?;
    listener
        .listen_all([CHANGES_CHANNEL, PLAYERS_CHANNEL])
        .await?;
    Ok(listener)
}

/// The replication slice: the other servers' changes, heard.
pub(crate) struct Replication {
    /// The games held, read again when another server changed them, and the players told.
    core: Arc<Core>,
    store: Store,
    log: Log,
}

impl Replication {
    /// The changes other servers on `store`'s database make, told to the games `core` holds.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log) -> Replication {
        Replication { core, store, log }
    }

    /// Starts following the other servers' changes on PostgreSQL: listening before anything
    /// is loaded (so that no change made meanwhile is missed), then on a task of its own.
    pub(super) async fn listen_first(self: &Arc<Self>) {
        let first = match listener(self.store.url(), self.store.server_id()).await {
            Ok(listener) => {
                note!(
                    self.log,
                    INFO,
                    "listening for other servers' changes",
                    listener = listener_name(self.store.server_id())
                );
                Some(listener)
            }
            Err(e) => {
                note!(
                    self.log,
                    WARN,
                    "cannot listen for other servers yet",
                    why = e
                );
                None
            }
        };
        tokio::spawn(Replication::listen(Arc::downgrade(self), first));
    }

    /// Follows the other servers' changes; after the listener is lost and made again, every
    /// game held is read again (a change told meanwhile was not heard).
    async fn listen(hub: std::sync::Weak<Replication>, mut current: Option<PgListener>) {
        let mut lost = false;
        loop {
            let mut listening = match current.take() {
                Some(listener) => listener,
                None => {
                    let Some((url, server)) = hub
                        .upgrade()
                        .map(|h| (h.store.url().to_owned(), h.store.server_id().to_owned()))
                    else {
                        return;
                    };
                    match listener(&url, &server).await {
                        Ok(listener) => listener,
                        Err(e) => {
                            if let Some(h) = hub.upgrade() {
                                note!(h.log, WARN, "cannot listen for other servers", why = e);
                            }
                            lost = true;
                            tokio::time::sleep(Duration::from_secs(2)).await;
                            continue;
                        }
                    }
                }
            };
            if std::mem::take(&mut lost) && !Replication::read_held_again(&hub).await {
                return;
            }
            loop {
                match listening.try_recv().await {
                    Ok(Some(notice)) => {
                        let Some(h) = hub.upgrade() else {
                            return;
                        };
                        let Some((server, rest)) = notice.payload().split_once(' ') else {
                            continue;
                        };
                        if server == h.store.server_id() {
                            continue;
                        }
                        if notice.channel() == PLAYERS_CHANNEL {
                            // A player's own event, for their connections here.
                            if let Some((player, json)) = rest.split_once(' ')
                                && let Ok(event) = serde_json::from_str::<Event>(json)
                            {
                                h.core.tell_here(&PlayerId(player.to_owned()), event);
                            }
                        } else {
                            h.core.refresh(&GameId(rest.to_owned())).await;
                        }
                    }
                    // The connection was lost and is made again: what was told meanwhile was
                    // not heard.
                    Ok(None) => {
                        if !Replication::read_held_again(&hub).await {
                            return;
                        }
                    }
                    Err(e) => {
                        if let Some(h) = hub.upgrade() {
                            note!(h.log, WARN, "lost the other servers", why = e);
                        }
                        break;
                    }
                }
            }
            lost = true;
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }

    /// Reads every game held again (after changes may have gone unheard); `false` once the
    /// hub is gone.
    async fn read_held_again(hub: &std::sync::Weak<Replication>) -> bool {
        let Some(h) = hub.upgrade() else {
            return false;
        };
        let held = h.core.held.ids();
        note!(
            h.log,
            INFO,
            "listening for other servers again; games held read again",
            games = held.len()
        );
        for id in held {
            h.core.refresh(&id).await;
        }
        true
    }
}
