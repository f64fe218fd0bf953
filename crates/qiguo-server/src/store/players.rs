//! The players' table: new players with their hashed keys, signing in, names.

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

impl Store {
    /// A new player called `name`: their id and key.
    pub async fn add_player(&self, name: &str) -> Result<NewPlayer, StoreError> {
        let id = secret::new_id()?;
        let key = secret::new_key()?;
        sqlx::query("INSERT INTO players (id, key_hash, name, created_ms) VALUES ($1, $2, $3, $4)")
            .bind(&id)
            .bind(secret::key_hash(&key))
            .bind(name)
            .bind(self.now())
            .execute(&self.pool)
            .await?;
        Ok(NewPlayer {
            id: PlayerId(id),
            key,
        })
    }

    /// The name of the player with this id and key; [`StoreError::WrongKey`] otherwise.
    pub async fn sign_in(&self, id: &PlayerId, key: &str) -> Result<String, StoreError> {
        let row = sqlx::query("SELECT key_hash, name FROM players WHERE id = $1")
            .bind(&id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::WrongKey)?;
        let stored: String = row.try_get("key_hash")?;
        // Both are hashes of the same length: comparing them tells nothing about the key.
        // Beside the first key, a player may have one for each device a link signed in.
        if stored != secret::key_hash(key) && !self.other_key(id, key).await? {
            return Err(StoreError::WrongKey);
        }
        Ok(row.try_get("name")?)
    }
}
