//! The players' table: new players with their hashed keys, signing in, names.

use qiguo_protocol::MAX_NAME_CHARS;
use qiguo_protocol::model::fold_name;

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

impl Store {
    /// A new player called `name`: their id and key.
    pub async fn add_player(&self, name: &str) -> Result<NewPlayer, StoreError> {
        let id = secret::new_id()?;
        let key = secret::new_key()?;
        let added = sqlx::query(
            "INSERT INTO players (id, key_hash, name, created_ms, folded) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(secret::key_hash(&key))
        .bind(name)
        .bind(self.now())
        .bind(fold_name(name))
        .execute(&self.pool)
        .await;
        match added {
            Ok(_) => Ok(NewPlayer {
                id: PlayerId(id),
                key,
            }),
            Err(e) if unique_violation(&e) => Err(StoreError::Refused(Refusal::NameTaken {
                name: name.to_owned(),
            })),
            Err(e) => Err(e.into()),
        }
    }

    /// Folds the names of the players kept before names were unique (see
    /// `migrations/0013_names.sql`), the oldest first: a player whose name folds as an earlier
    /// one's is renamed `NAME 2` (or 3, …). Returns who was renamed: id, old name, new name.
    pub async fn fold_names(&self) -> Result<Vec<(PlayerId, String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name FROM players WHERE folded IS NULL ORDER BY created_ms, id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut renamed = Vec::new();
        for row in rows {
            let id: String = row.try_get("id")?;
            let name: String = row.try_get("name")?;
            for n in 1u32.. {
                let candidate = match n {
                    1 => name.clone(),
                    n => {
                        let suffix = format!(" {n}");
                        let room = MAX_NAME_CHARS.saturating_sub(suffix.chars().count());
                        let stem: String = name.chars().take(room).collect();
                        format!("{}{suffix}", stem.trim_end())
                    }
                };
                let done = sqlx::query(
                    "UPDATE players SET name = $1, folded = $2 WHERE id = $3 AND folded IS NULL",
                )
                .bind(&candidate)
                .bind(fold_name(&candidate))
                .bind(&id)
                .execute(&self.pool)
                .await;
                match done {
                    Ok(_) => {
                        if candidate != name {
                            renamed.push((PlayerId(id.clone()), name.clone(), candidate));
                        }
                        break;
                    }
                    Err(e) if unique_violation(&e) => continue,
                    Err(e) => return Err(e.into()),
                }
            }
        }
        Ok(renamed)
    }

    /// The name of the player with this id and key; [`Refusal::WrongKey`] otherwise.
    pub async fn sign_in(&self, id: &PlayerId, key: &str) -> Result<String, StoreError> {
        let row = sqlx::query("SELECT key_hash, name FROM players WHERE id = $1")
            .bind(&id.0)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(StoreError::Refused(Refusal::WrongKey))?;
        let stored: String = row.try_get("key_hash")?;
        // Both are hashes of the same length: comparing them tells nothing about the key.
        // Beside the first key, a player may have one for each device a link signed in.
        if stored != secret::key_hash(key) && !self.other_key(id, key).await? {
            return Err(StoreError::Refused(Refusal::WrongKey));
        }
        Ok(row.try_get("name")?)
    }
}
