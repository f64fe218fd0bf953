//! E-mail in the database: players' addresses and languages, the one-time tokens of the links
//! the e-mails carry (only their hashes are kept), the keys of devices signed in by such a link,
//! and the outbox the servers send from.
//!
//! The outbox holds one row a kind of e-mail, player, game and move number. Moves write theirs
//! in their own transaction ([`super::group`]); a sending server claims due rows for a while
//! ([`CLAIM_FOR`]) — on PostgreSQL skipping rows another server is claiming at that moment —
//! and marks each sent, dropped or given up, or due again later. A server that stops while
//! sending leaves its claims to run out, and another (or itself, restarted) sends them then.

pub use crate::model::{MailKind, MailNote};
use qiguo_protocol::calendar::DAY_MS;
use sqlx::Row;

use super::{GameId, PlayerId, Refusal, Store, StoreError, count};
use crate::secret;

/// How many confirmation e-mails a player, or an address, may be sent in a day.
pub const CONFIRMATIONS_A_DAY: i64 = 3;

/// How long a link to confirm an address works, in days.
pub const CONFIRM_DAYS: u32 = 3;

/// How long a link that signs a player in on a device works (once).
pub const SIGNIN_MS: i64 = DAY_MS;

/// How long an unsubscribe link works.
pub const UNSUBSCRIBE_MS: i64 = 366 * DAY_MS;

/// How long a server holds the rows it claimed before another may send them.
pub const CLAIM_FOR: i64 = 5 * 60 * 1000;

/// The longest address taken (RFC 5321's path limit).
pub const MAX_ADDRESS_BYTES: usize = 254;

/// A player's address, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailAddress {
    /// The address.
    pub address: String,
    /// Confirmed through its link.
    pub confirmed: bool,
    /// One digest a day rather than an e-mail a turn.
    pub digest: bool,
    /// When the last digest was sent.
    pub digest_sent_ms: Option<i64>,
}

/// What a link's token is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Confirms an address.
    Confirm,
    /// Signs the player in on a device, once.
    SignIn,
    /// Stops the e-mails to an address.
    Unsubscribe,
}

impl Purpose {
    /// Whether a token of this purpose works once only (signing in and confirming do; stopping
    /// the e-mails may be asked again, as mail programs may, and says the same).
    fn once(self) -> bool {
        !matches!(self, Purpose::Unsubscribe)
    }

    fn code(self) -> &'static str {
        match self {
            Purpose::Confirm => "confirm",
            Purpose::SignIn => "signin",
            Purpose::Unsubscribe => "unsubscribe",
        }
    }
}

/// A token found: whose, and for what address or game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The player it was made for.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// Their language (`en`, `sv`, `zh`), if known.
    pub language: Option<String>,
    /// The address it concerns (confirm, unsubscribe).
    pub address: Option<String>,
}

/// A row of the outbox claimed for sending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// Which e-mail.
    pub kind: MailKind,
    /// To whom.
    pub player: PlayerId,
    /// The game it is about, if any.
    pub game: Option<GameId>,
    /// What else it is about, by id: the line of a club's news ([`MailKind::PushClubNews`]),
    /// the evening ([`MailKind::Evening`], [`MailKind::PushEvening`]).
    pub about: Option<String>,
    /// The move number (or, for e-mails of no game, a number keeping rows apart).
    pub ply: i64,
    /// The address a confirmation is for.
    pub address: Option<String>,
    /// Tries so far.
    pub attempts: u32,
}

impl Outgoing {
    /// What the row is about as the outbox keys it: the game's id, another's, or none.
    fn key(&self) -> &str {
        match (&self.game, &self.about) {
            (Some(game), _) => &game.0,
            (None, Some(about)) => about,
            (None, None) => "",
        }
    }
}

/// What became of an e-mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Taken by the relay.
    Sent,
    /// No longer true or wanted (the turn was played, the player was there, the address went).
    Dropped,
    /// Refused by the relay for good, or tried too often.
    GivenUp,
}

impl Outcome {
    fn code(self) -> &'static str {
        match self {
            Outcome::Sent => "sent",
            Outcome::Dropped => "dropped",
            Outcome::GivenUp => "given up",
        }
    }
}

fn slow_down(oldest_ms: i64, now: i64) -> StoreError {
    let seconds = ((oldest_ms + DAY_MS - now) / 1000).max(1);
    StoreError::Refused(Refusal::SlowDown {
        seconds: u32::try_from(seconds).unwrap_or(u32::MAX),
    })
}

impl Store {
    /// Notes the language `player` reads (`en`, `sv`, `zh`).
    pub async fn set_language(&self, player: &PlayerId, code: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE players SET language = $1 WHERE id = $2 \
             AND (language IS NULL OR language <> $1)",
        )
        .bind(code)
        .bind(&player.0)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `player`'s address, if they gave one.
    pub async fn mail_of(&self, player: &PlayerId) -> Result<Option<MailAddress>, StoreError> {
        let row = sqlx::query(
            "SELECT address, confirmed_ms, digest, digest_sent_ms FROM mail_addresses \
             WHERE player = $1",
        )
        .bind(&player.0)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<MailAddress, StoreError> {
            Ok(MailAddress {
                address: r.try_get("address")?,
                confirmed: r.try_get::<Option<i64>, _>("confirmed_ms")?.is_some(),
                digest: r.try_get::<i64, _>("digest")? != 0,
                digest_sent_ms: r.try_get("digest_sent_ms")?,
            })
        })
        .transpose()
    }

    /// `player` gives `address` (checked by the caller), with a digest or not: a new address
    /// waits for its confirmation, which is queued — refused when the player, or the address,
    /// was sent [`CONFIRMATIONS_A_DAY`] confirmations in the last day. The same address again
    /// only changes the digest. Whether a confirmation was queued.
    pub async fn give_address(
        &self,
        player: &PlayerId,
        address: &str,
        digest: bool,
    ) -> Result<bool, StoreError> {
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        super::lock_player(&mut tx, player, self.postgres).await?;
        let same = sqlx::query("SELECT address FROM mail_addresses WHERE player = $1")
            .bind(&player.0)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get::<String, _>("address"))
            .transpose()?
            .is_some_and(|old| old == address);
        if same {
            sqlx::query("UPDATE mail_addresses SET digest = $1 WHERE player = $2")
                .bind(i64::from(digest))
                .bind(&player.0)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            return Ok(false);
        }
        for (column, value) in [("player", &player.0), ("address", &address.to_owned())] {
            let row = sqlx::query(&format!(
                "SELECT COUNT(*) AS n, MIN(made_ms) AS oldest FROM mail_outbox \
                 WHERE kind = 'confirm' AND {column} = $1 AND made_ms > $2"
            ))
            .bind(value)
            .bind(now - DAY_MS)
            .fetch_one(&mut *tx)
            .await?;
            if row.try_get::<i64, _>("n")? >= CONFIRMATIONS_A_DAY {
                let oldest: Option<i64> = row.try_get("oldest")?;
                return Err(slow_down(oldest.unwrap_or(now), now));
            }
        }
        sqlx::query(
            "INSERT INTO mail_addresses (player, address, given_ms, confirmed_ms, digest) \
             VALUES ($1, $2, $3, NULL, $4) ON CONFLICT (player) DO UPDATE SET \
             address = excluded.address, given_ms = excluded.given_ms, confirmed_ms = NULL, \
             digest = excluded.digest",
        )
        .bind(&player.0)
        .bind(address)
        .bind(now)
        .bind(i64::from(digest))
        .execute(&mut *tx)
        .await?;
        // Each confirmation a row of its own, even two asked within one millisecond.
        let last: Option<i64> = sqlx::query(
            "SELECT MAX(ply) AS last FROM mail_outbox WHERE kind = 'confirm' AND player = $1",
        )
        .bind(&player.0)
        .fetch_one(&mut *tx)
        .await?
        .try_get("last")?;
        let key = last.map_or(now, |last| now.max(last + 1));
        sqlx::query(
            "INSERT INTO mail_outbox (kind, player, game_id, ply, address, made_ms, not_before_ms) \
             VALUES ('confirm', $1, '', $2, $3, $4, $4)",
        )
        .bind(&player.0)
        .bind(key)
        .bind(address)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Forgets `player`'s address: nothing more is sent to it.
    pub async fn remove_address(&self, player: &PlayerId) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM mail_addresses WHERE player = $1")
            .bind(&player.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A new one-time token for `player`, for `purpose`, working for `lifetime_ms`: the token,
    /// of which only the hash is kept.
    pub async fn make_token(
        &self,
        player: &PlayerId,
        purpose: Purpose,
        address: Option<&str>,
        game: Option<&GameId>,
        lifetime_ms: i64,
    ) -> Result<String, StoreError> {
        let token = secret::new_key()?;
        let now = self.now();
        sqlx::query(
            "INSERT INTO mail_tokens (hash, player, purpose, address, game_id, made_ms, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(secret::key_hash(&token))
        .bind(&player.0)
        .bind(purpose.code())
        .bind(address)
        .bind(game.map(|g| g.0.as_str()))
        .bind(now)
        .bind(now.saturating_add(lifetime_ms))
        .execute(&self.pool)
        .await?;
        Ok(token)
    }

    /// The token `token` for `purpose`, if it works still (made, not run out, not used if it
    /// works once): for a page to show what following it will do.
    pub async fn token(&self, token: &str, purpose: Purpose) -> Result<Option<Token>, StoreError> {
        let unused = if purpose.once() {
            " AND t.used_ms IS NULL"
        } else {
            ""
        };
        let row = sqlx::query(&format!(
            "SELECT t.player, t.address, p.name, p.language FROM mail_tokens t \
             JOIN players p ON p.id = t.player \
             WHERE t.hash = $1 AND t.purpose = $2 AND t.expires_ms > $3{unused}"
        ))
        .bind(secret::key_hash(token))
        .bind(purpose.code())
        .bind(self.now())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| -> Result<Token, StoreError> {
            Ok(Token {
                player: PlayerId(r.try_get("player")?),
                name: r.try_get("name")?,
                language: r.try_get("language")?,
                address: r.try_get("address")?,
            })
        })
        .transpose()
    }

    /// Uses `token` for `purpose` (once, if it works once), within `tx`: refused
    /// [`Refusal::LinkExpired`] unless it works still.
    async fn use_token(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        token: &str,
        purpose: Purpose,
    ) -> Result<(PlayerId, Option<String>), StoreError> {
        let now = self.now();
        let lock = if self.postgres { " FOR UPDATE" } else { "" };
        let unused = if purpose.once() {
            " AND used_ms IS NULL"
        } else {
            ""
        };
        let row = sqlx::query(&format!(
            "SELECT player, address FROM mail_tokens WHERE hash = $1 AND purpose = $2 \
             AND expires_ms > $3{unused}{lock}"
        ))
        .bind(secret::key_hash(token))
        .bind(purpose.code())
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(StoreError::Refused(Refusal::LinkExpired))?;
        sqlx::query("UPDATE mail_tokens SET used_ms = $1 WHERE hash = $2")
            .bind(now)
            .bind(secret::key_hash(token))
            .execute(&mut **tx)
            .await?;
        Ok((PlayerId(row.try_get("player")?), row.try_get("address")?))
    }

    /// Confirms the address of a confirmation link: the player and the address. Refused
    /// [`Refusal::LinkExpired`] for a link used, out of date, or for an address the player has
    /// since changed.
    pub async fn confirm_address(&self, token: &str) -> Result<(PlayerId, String), StoreError> {
        let mut tx = self.pool.begin().await?;
        let (player, address) = self.use_token(&mut tx, token, Purpose::Confirm).await?;
        let address = address.ok_or(StoreError::Refused(Refusal::LinkExpired))?;
        let done = sqlx::query(
            "UPDATE mail_addresses SET confirmed_ms = $1 WHERE player = $2 AND address = $3",
        )
        .bind(self.now())
        .bind(&player.0)
        .bind(&address)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Refused(Refusal::LinkExpired));
        }
        tx.commit().await?;
        Ok((player, address))
    }

    /// Stops the e-mails to the address of an unsubscribe link (if the player still has it):
    /// the player and the address.
    pub async fn unsubscribe(&self, token: &str) -> Result<(PlayerId, String), StoreError> {
        let mut tx = self.pool.begin().await?;
        let (player, address) = self.use_token(&mut tx, token, Purpose::Unsubscribe).await?;
        let address = address.ok_or(StoreError::Refused(Refusal::LinkExpired))?;
        sqlx::query("DELETE FROM mail_addresses WHERE player = $1 AND address = $2")
            .bind(&player.0)
            .bind(&address)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok((player, address))
    }

    /// Signs a player in on a new device with a sign-in link's token (once, within a day):
    /// their id, name and a new key for the device (kept beside their others).
    pub async fn sign_in_by_link(
        &self,
        token: &str,
    ) -> Result<(PlayerId, String, String), StoreError> {
        let mut tx = self.pool.begin().await?;
        let (player, _) = self.use_token(&mut tx, token, Purpose::SignIn).await?;
        let key = secret::new_key()?;
        sqlx::query("INSERT INTO player_keys (key_hash, player, made_ms) VALUES ($1, $2, $3)")
            .bind(secret::key_hash(&key))
            .bind(&player.0)
            .bind(self.now())
            .execute(&mut *tx)
            .await?;
        let name: String = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(&player.0)
            .fetch_one(&mut *tx)
            .await?
            .try_get("name")?;
        tx.commit().await?;
        Ok((player, name, key))
    }

    /// Whether `key` is one of `player`'s keys beyond the first (a device signed in by link).
    pub(super) async fn other_key(&self, player: &PlayerId, key: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT player FROM player_keys WHERE key_hash = $1")
            .bind(secret::key_hash(key))
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|r| r.try_get::<String, _>("player"))
            .transpose()?
            .is_some_and(|p| p == player.0))
    }

    /// Notes that `players` are signed in on this server now.
    pub async fn note_online(&self, players: &[PlayerId]) -> Result<(), StoreError> {
        if players.is_empty() {
            return Ok(());
        }
        let places: Vec<String> = (0..players.len()).map(|i| format!("${}", i + 3)).collect();
        let sql = format!(
            "UPDATE players SET online_ms = $1, online_server = $2 WHERE id IN ({})",
            places.join(", ")
        );
        let mut query = sqlx::query(&sql).bind(self.now()).bind(self.server_id());
        for p in players {
            query = query.bind(&p.0);
        }
        query.execute(&self.pool).await?;
        Ok(())
    }

    /// `player`'s name and language, and when they were last noted signed in on another
    /// server than this one.
    pub async fn player_mail_facts(
        &self,
        player: &PlayerId,
    ) -> Result<(String, Option<String>, Option<i64>), StoreError> {
        let row = sqlx::query(
            "SELECT name, language, online_ms, online_server FROM players WHERE id = $1",
        )
        .bind(&player.0)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::Refused(Refusal::WrongKey))?;
        let elsewhere = row
            .try_get::<Option<String>, _>("online_server")?
            .is_some_and(|server| server != self.server_id());
        Ok((
            row.try_get("name")?,
            row.try_get("language")?,
            row.try_get::<Option<i64>, _>("online_ms")?
                .filter(|_| elsewhere),
        ))
    }

    /// Claims up to `limit` e-mails (`mail`) and notifications (`push`) due at `now` for
    /// [`CLAIM_FOR`], the longest waiting first; on PostgreSQL rows another server is claiming
    /// are skipped.
    pub async fn claim_mail(
        &self,
        limit: u32,
        mail: bool,
        push: bool,
    ) -> Result<Vec<Outgoing>, StoreError> {
        let now = self.now();
        let kinds = match (mail, push) {
            (true, true) => "",
            (true, false) => " AND kind NOT LIKE 'push-%'",
            (false, true) => " AND kind LIKE 'push-%'",
            (false, false) => return Ok(Vec::new()),
        };
        let lock = if self.postgres {
            " FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        let sql = format!(
            "UPDATE mail_outbox SET claimed_until_ms = $1 \
             WHERE (kind, player, game_id, ply) IN (SELECT kind, player, game_id, ply \
             FROM mail_outbox WHERE done_ms IS NULL AND not_before_ms <= $2 \
             AND (claimed_until_ms IS NULL OR claimed_until_ms <= $2){kinds} \
             ORDER BY not_before_ms LIMIT $3{lock}) \
             RETURNING kind, player, game_id, ply, address, attempts"
        );
        let rows = sqlx::query(&sql)
            .bind(now + CLAIM_FOR)
            .bind(now)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        let mut claimed = Vec::with_capacity(rows.len());
        for r in rows {
            let kind: String = r.try_get("kind")?;
            let Some(kind) = MailKind::from_code(&kind) else {
                continue;
            };
            let about: String = r.try_get("game_id")?;
            // The column names what the row is about: a game, a line of a club's news, or an
            // evening.
            let (game, about) = match kind {
                _ if about.is_empty() => (None, None),
                MailKind::PushClubNews | MailKind::Evening | MailKind::PushEvening => {
                    (None, Some(about))
                }
                _ => (Some(GameId(about)), None),
            };
            claimed.push(Outgoing {
                kind,
                player: PlayerId(r.try_get("player")?),
                game,
                about,
                ply: r.try_get("ply")?,
                address: r.try_get("address")?,
                attempts: count(&r, "attempts")?,
            });
        }
        Ok(claimed)
    }

    /// Marks a claimed e-mail done: sent, dropped or given up (`why`, for the operator).
    pub async fn mail_done(
        &self,
        mail: &Outgoing,
        outcome: Outcome,
        attempts: u32,
        why: Option<&str>,
    ) -> Result<(), StoreError> {
        self.update_mail(
            mail,
            "done_ms = $1, outcome = $2, attempts = $3, last_error = $4, claimed_until_ms = NULL",
            self.now(),
            Some(outcome.code()),
            attempts,
            why,
        )
        .await
    }

    /// Puts a claimed e-mail back, due again at `at` after `attempts` tries (`why`: the last
    /// failure).
    pub async fn mail_later(
        &self,
        mail: &Outgoing,
        at: i64,
        attempts: u32,
        why: Option<&str>,
    ) -> Result<(), StoreError> {
        self.update_mail(
            mail,
            "not_before_ms = $1, outcome = $2, attempts = $3, last_error = $4, \
             claimed_until_ms = NULL",
            at,
            None,
            attempts,
            why,
        )
        .await
    }

    async fn update_mail(
        &self,
        mail: &Outgoing,
        set: &str,
        at: i64,
        outcome: Option<&str>,
        attempts: u32,
        why: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "UPDATE mail_outbox SET {set} \
             WHERE kind = $5 AND player = $6 AND game_id = $7 AND ply = $8"
        ))
        .bind(at)
        .bind(outcome)
        .bind(i64::from(attempts))
        .bind(why)
        .bind(mail.kind.code())
        .bind(&mail.player.0)
        .bind(mail.key())
        .bind(mail.ply)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Queues `player`'s digest, due at `at` (one a day: the day of `at` keeps rows apart).
    pub async fn queue_digest(&self, player: &PlayerId, at: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO mail_outbox (kind, player, game_id, ply, made_ms, not_before_ms) \
             VALUES ('digest', $1, '', $2, $3, $4) ON CONFLICT DO NOTHING",
        )
        .bind(&player.0)
        .bind(qiguo_protocol::calendar::day_of(at))
        .bind(self.now())
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Notes that `player`'s digest was sent now.
    pub async fn digest_sent(&self, player: &PlayerId) -> Result<(), StoreError> {
        sqlx::query("UPDATE mail_addresses SET digest_sent_ms = $1 WHERE player = $2")
            .bind(self.now())
            .bind(&player.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets tokens out of date for a day, and e-mails done a month ago.
    pub async fn prune_mail(&self) -> Result<(), StoreError> {
        let now = self.now();
        sqlx::query("DELETE FROM mail_tokens WHERE expires_ms < $1")
            .bind(now - DAY_MS)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM mail_outbox WHERE done_ms < $1")
            .bind(now - 30 * DAY_MS)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// How many e-mails wait in the outbox (for the metrics).
    pub async fn mail_waiting(&self) -> Result<u64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM mail_outbox WHERE done_ms IS NULL")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(row.try_get::<i64, _>("n")?).unwrap_or(0))
    }
}
