//! One server a computer's turn, among servers on one PostgreSQL database: before searching, a
//! server takes the game's advisory lock on a connection of its own (PostgreSQL gives it back
//! when that connection ends, so a server killed mid-search frees its games at once) and checks
//! that the game is still at the turn it means to play; the other servers skip the turn and
//! hear the move. On SQLite a file has one server and nothing is claimed.

use sqlx::Connection;
use sqlx::postgres::PgConnection;

use crate::log::{Log, note};
use crate::store::{GameId, Store};

/// The advisory lock's key for a game: the first 64 bits of its id (128 random bits in hex).
fn key(game: &GameId) -> i64 {
    let head = game.0.get(..16).unwrap_or(&game.0);
    u64::from_str_radix(head, 16).map_or_else(
        |_| {
            game.0
                .bytes()
                .fold(0i64, |h, b| h.wrapping_mul(31).wrapping_add(i64::from(b)))
        },
        |k| k as i64,
    )
}

/// A turn claimed: released (the lock given back) with [`Claims::release`].
#[derive(Debug)]
pub(super) struct Claim(i64);

/// The turns this server claimed: on PostgreSQL, the connection holding their locks (made when
/// first needed, and again if it is lost); nothing on SQLite.
pub(super) struct Claims {
    store: Store,
    log: Log,
    held: tokio::sync::Mutex<Option<PgConnection>>,
}

impl Claims {
    /// Claims on `store`'s database, saying in `log` when they cannot be made.
    pub(super) fn new(store: Store, log: Log) -> Claims {
        Claims {
            store,
            log,
            held: tokio::sync::Mutex::new(None),
        }
    }

    /// Claims the turn that follows `ply` moves of `game` for this server: `None` when another
    /// server holds it or the game has moved on (its move will be heard). Always a claim on
    /// SQLite.
    pub(super) async fn claim(&self, game: &GameId, ply: u32) -> Option<Claim> {
        if !self.store.is_postgres() {
            return Some(Claim(0));
        }
        let key = key(game);
        let mut claims = self.held.lock().await;
        for attempt in 0..2 {
            if claims.is_none() {
                match PgConnection::connect(self.store.url()).await {
                    Ok(conn) => *claims = Some(conn),
                    Err(e) => {
                        note!(self.log, WARN, "turns not claimed", why = e);
                        return None;
                    }
                }
            }
            let conn = claims.as_mut()?;
            let taken: Result<bool, sqlx::Error> =
                sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
                    .bind(key)
                    .fetch_one(&mut *conn)
                    .await;
            match taken {
                Ok(false) => return None,
                Ok(true) => {
                    let moves: Result<i64, sqlx::Error> =
                        sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
                            .bind(&game.0)
                            .fetch_one(&mut *conn)
                            .await;
                    if moves.is_ok_and(|n| n == i64::from(ply)) {
                        return Some(Claim(key));
                    }
                    let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
                        .bind(key)
                        .execute(&mut *conn)
                        .await;
                    return None;
                }
                // The connection is gone (and its locks with it): made again once.
                Err(e) => {
                    *claims = None;
                    if attempt == 1 {
                        note!(self.log, WARN, "turns not claimed", why = e);
                    }
                }
            }
        }
        None
    }

    /// Gives a claimed turn back (its move stored, or not made).
    pub(super) async fn release(&self, claim: Claim) {
        if !self.store.is_postgres() {
            return;
        }
        if let Some(conn) = self.held.lock().await.as_mut() {
            let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(claim.0)
                .execute(conn)
                .await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_keys_its_lock_by_its_id() {
        let a = GameId("0123456789abcdef0123456789abcdef".into());
        assert_eq!(key(&a), 0x0123_4567_89ab_cdef);
        let b = GameId("fedcba9876543210fedcba9876543210".into());
        assert_eq!(key(&b), 0xfedc_ba98_7654_3210_u64 as i64);
        assert_ne!(key(&GameId("g".into())), key(&GameId("h".into())));
    }
}
