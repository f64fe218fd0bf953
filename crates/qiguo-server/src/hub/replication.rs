//! Several servers on one PostgreSQL database: each change a server commits is announced on
//! [`CHANGES_CHANNEL`]; the others read the game again and tell their followers what changed.
//! A player's own events come on [`PLAYERS_CHANNEL`], for their connections here.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};

use super::Hub;
use crate::log::note;
use crate::protocol::Event;
use crate::store::{CHANGES_CHANNEL, GameId, PLAYERS_CHANNEL, PlayerId};

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

impl Hub {
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
        tokio::spawn(Hub::listen(Arc::downgrade(self), first));
    }

    /// Follows the other servers' changes; after the listener is lost and made again, every
    /// game held is read again (a change told meanwhile was not heard).
    async fn listen(hub: std::sync::Weak<Hub>, mut current: Option<PgListener>) {
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
            if std::mem::take(&mut lost) && !Hub::read_held_again(&hub).await {
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
                                h.tell_here(&PlayerId(player.to_owned()), event);
                            }
                        } else {
                            h.refresh(&GameId(rest.to_owned())).await;
                        }
                    }
                    // The connection was lost and is made again: what was told meanwhile was
                    // not heard.
                    Ok(None) => {
                        if !Hub::read_held_again(&hub).await {
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
    async fn read_held_again(hub: &std::sync::Weak<Hub>) -> bool {
        let Some(h) = hub.upgrade() else {
            return false;
        };
        let held = h.held.ids();
        note!(
            h.log,
            INFO,
            "listening for other servers again; games held read again",
            games = held.len()
        );
        for id in held {
            h.refresh(&id).await;
        }
        true
    }

    /// Reads a game again from the database (changed by another server) and tells its
    /// followers what changed.
    pub(crate) async fn refresh(self: &Arc<Self>, id: &GameId) {
        let live = self.held.get(id);
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
                note!(self.log, ERROR, "game not read again", game = id.0, why = e);
                return;
            }
        };

        // Who is present, as the game now read says (the seats' last sightings included).
        let presence = self.presence_in(id, &stored.seats);
        let events = g.game.replace(stored, &presence, self.store.now());
        for event in events {
            g.tell(event);
        }
        self.tell_talk_from(&mut g).await;
        // (The server that made a move tells its player to move, on every server.)
        drop(g);
        self.wake(id);
    }
}
