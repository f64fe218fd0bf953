//! Web Push's rows: the server's VAPID key pair, and the devices each player subscribed.

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;
use crate::push::VapidKey;
use crate::push::{DEVICES_A_PLAYER, Subscription};

impl Store {
    /// The servers' VAPID key: the one kept, or (the first time) a new one, kept. Servers
    /// starting together on one database all read the one that was kept first.
    pub async fn push_key(&self) -> Result<VapidKey, StoreError> {
        if let Some(key) = self.kept_push_key().await? {
            return Ok(key);
        }
        let key = VapidKey::generate().map_err(|e| StoreError::commit(e.to_string()))?;
        sqlx::query(
            "INSERT INTO push_keys (id, secret, public, made_ms) VALUES (1, $1, $2, $3) \
             ON CONFLICT DO NOTHING",
        )
        .bind(key.secret_text())
        .bind(key.public_text())
        .bind(self.now())
        .execute(&self.pool)
        .await?;
        self.kept_push_key()
            .await?
            .ok_or_else(|| StoreError::commit("the push key was not kept"))
    }

    async fn kept_push_key(&self) -> Result<Option<VapidKey>, StoreError> {
        let Some(row) = sqlx::query("SELECT secret FROM push_keys WHERE id = 1")
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let secret: String = row.try_get("secret")?;
        VapidKey::from_secret_text(&secret)
            .map(Some)
            .ok_or_else(|| StoreError::commit("the kept push key is no P-256 key"))
    }

    /// Keeps `device` as one of `player`'s (a device of another player's moves to them, one
    /// already theirs gets its new keys); past [`DEVICES_A_PLAYER`], the one subscribed longest
    /// ago is forgotten. How many devices they have then.
    pub async fn subscribe(
        &self,
        player: &PlayerId,
        device: &Subscription,
    ) -> Result<u32, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO push_subscriptions (endpoint, player, p256dh, auth, made_ms) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (endpoint) DO UPDATE SET \
             player = excluded.player, p256dh = excluded.p256dh, auth = excluded.auth, \
             made_ms = excluded.made_ms, taken_ms = NULL",
        )
        .bind(&device.endpoint)
        .bind(&player.0)
        .bind(&device.p256dh)
        .bind(&device.auth)
        .bind(self.now())
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE player = $1 AND endpoint NOT IN \
             (SELECT endpoint FROM push_subscriptions WHERE player = $1 \
              ORDER BY made_ms DESC, endpoint LIMIT $2)",
        )
        .bind(&player.0)
        .bind(i64::from(DEVICES_A_PLAYER))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.devices(player).await
    }

    /// Forgets `player`'s device of `endpoint` (nothing if it is not theirs). How many devices
    /// they have then.
    pub async fn unsubscribe_device(
        &self,
        player: &PlayerId,
        endpoint: &str,
    ) -> Result<u32, StoreError> {
        sqlx::query("DELETE FROM push_subscriptions WHERE player = $1 AND endpoint = $2")
            .bind(&player.0)
            .bind(endpoint)
            .execute(&self.pool)
            .await?;
        self.devices(player).await
    }

    /// How many devices `player` subscribed.
    pub async fn devices(&self, player: &PlayerId) -> Result<u32, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM push_subscriptions WHERE player = $1")
            .bind(&player.0)
            .fetch_one(&self.pool)
            .await?;
        count(&row, "n")
    }

    /// `player`'s devices, the latest subscribed first.
    pub async fn subscriptions(&self, player: &PlayerId) -> Result<Vec<Subscription>, StoreError> {
        let rows = sqlx::query(
            "SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE player = $1 \
             ORDER BY made_ms DESC, endpoint",
        )
        .bind(&player.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Subscription {
                    endpoint: r.try_get("endpoint")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                })
            })
            .collect()
    }

    /// Notes that a push service took a message for the device of `endpoint`.
    pub async fn push_taken(&self, endpoint: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE push_subscriptions SET taken_ms = $1 WHERE endpoint = $2")
            .bind(self.now())
            .bind(endpoint)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets the device of `endpoint`, which its push service no longer knows.
    pub async fn push_gone(&self, endpoint: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
            .bind(endpoint)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
