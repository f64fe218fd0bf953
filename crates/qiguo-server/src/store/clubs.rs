//! Clubs' rows: the clubs (a name unique as folded, held by a unique index), their members and
//! roles, and their news.

use qiguo_protocol::RatingFamily;
use qiguo_protocol::clubs::{
    ClubListed, ClubNews, ClubRole, ClubSpec, MAX_CLUB_MEMBERS, MAX_CLUB_NEWS_A_DAY,
    MAX_CLUBS_OWNED,
};
use qiguo_protocol::model::fold_name;
use qiguo_rating::Rating;

// One type split by table: the parent's types, helpers and imports are this part's too.
use super::*;

/// A club as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClubRow {
    /// Its id.
    pub id: String,
    /// Its name, as its owner wrote it.
    pub name: String,
    /// What it is.
    pub description: String,
    /// Anyone joins, or by request.
    pub open: bool,
    /// Who made it.
    pub owner: PlayerId,
    /// Its members (those asking not counted).
    pub member_count: u32,
}

/// A member of a club (or one asking to join) as stored, with what a club's view shows of them.
#[derive(Clone, Debug, PartialEq)]
pub struct ClubMemberRow {
    /// The player.
    pub player: PlayerId,
    /// Their name.
    pub name: String,
    /// Their role.
    pub role: ClubRole,
    /// Their live rating and rated games (none before a first rated game).
    pub rating: Option<(Rating, u32)>,
    /// The rated games they left.
    pub left: u32,
    /// When another server last noted them online (this server knows its own).
    pub online_ms: Option<i64>,
    /// The unfinished game they moved in last, if it moved since the time asked about, and its
    /// code (to watch it).
    pub playing: Option<(GameId, String)>,
}

/// The columns of a [`ClubRow`], `c` being `clubs`.
const CLUB_COLUMNS: &str = "c.id, c.name, c.description, c.open, c.owner, \
     (SELECT COUNT(*) FROM club_members m WHERE m.club = c.id AND m.role <> 'asking') \
     AS member_count";

fn club_of(row: &sqlx::any::AnyRow) -> Result<ClubRow, StoreError> {
    Ok(ClubRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        description: row.try_get("description")?,
        open: row.try_get::<i64, _>("open")? != 0,
        owner: PlayerId(row.try_get("owner")?),
        member_count: count(row, "member_count")?,
    })
}

fn role_of(word: &str) -> Result<ClubRole, StoreError> {
    ClubRole::from_word(word).ok_or_else(|| {
        StoreError::Failed(Failure::Unreadable(format!(
            "a club member's role is {word:?}"
        )))
    })
}

/// `text` for a `LIKE` pattern, its wildcards and the escape taken literally (with `ESCAPE '\'`).
fn like_escaped(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Refused `club_full` when club `club` has [`MAX_CLUB_MEMBERS`] members already (in `tx`, which
/// then adds one).
async fn room_for_a_member(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    club: &str,
) -> Result<(), StoreError> {
    let members: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM club_members WHERE club = $1 AND role <> 'asking'",
    )
    .bind(club)
    .fetch_one(&mut **tx)
    .await?;
    if members >= i64::from(MAX_CLUB_MEMBERS) {
        return Err(StoreError::Refused(Refusal::ClubFull {
            max: MAX_CLUB_MEMBERS,
        }));
    }
    Ok(())
}

impl Store {
    /// A new club owned by `owner` (its first member), `spec` already cleaned: refused when
    /// another has its name as folded, or when `owner` owns [`MAX_CLUBS_OWNED`] already.
    pub async fn create_club(
        &self,
        owner: &PlayerId,
        spec: &ClubSpec,
    ) -> Result<ClubRow, StoreError> {
        let now = self.now();
        let id = secret::new_id()?;
        let mut tx = self.pool.begin().await?;
        let owned: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM clubs WHERE owner = $1")
            .bind(&owner.0)
            .fetch_one(&mut *tx)
            .await?;
        if owned >= i64::from(MAX_CLUBS_OWNED) {
            return Err(StoreError::Refused(Refusal::TooManyClubs {
                max: MAX_CLUBS_OWNED,
            }));
        }
        let folded = fold_name(&spec.name);
        let taken: Option<String> = sqlx::query_scalar("SELECT name FROM clubs WHERE folded = $1")
            .bind(&folded)
            .fetch_optional(&mut *tx)
            .await?;
        if let Some(name) = taken {
            return Err(StoreError::Refused(Refusal::ClubNameTaken { name }));
        }
        let added = sqlx::query(
            "INSERT INTO clubs (id, name, folded, description, open, owner, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&id)
        .bind(&spec.name)
        .bind(&folded)
        .bind(&spec.description)
        .bind(i64::from(spec.open))
        .bind(&owner.0)
        .bind(now)
        .execute(&mut *tx)
        .await;
        match added {
            Ok(_) => {}
            // Another server made a club of that name meanwhile.
            Err(e) if unique_violation(&e) => {
                return Err(StoreError::Refused(Refusal::ClubNameTaken {
                    name: spec.name.clone(),
                }));
            }
            Err(e) => return Err(e.into()),
        }
        sqlx::query(
            "INSERT INTO club_members (club, player, role, news, since_ms) \
             VALUES ($1, $2, 'owner', 1, $3)",
        )
        .bind(&id)
        .bind(&owner.0)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ClubRow {
            id,
            name: spec.name.clone(),
            description: spec.description.clone(),
            open: spec.open,
            owner: owner.clone(),
            member_count: 1,
        })
    }

    /// The club called `name` (compared folded), or the refusal `no_such_club`.
    pub async fn club_named(&self, name: &str) -> Result<ClubRow, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {CLUB_COLUMNS} FROM clubs c WHERE c.folded = $1"
        ))
        .bind(fold_name(name))
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| {
            StoreError::Refused(Refusal::NoSuchClub {
                name: name.to_owned(),
            })
        })?;
        club_of(&row)
    }

    /// `player`'s role in club `club`, if any.
    pub async fn club_role(
        &self,
        club: &str,
        player: &PlayerId,
    ) -> Result<Option<ClubRole>, StoreError> {
        let role: Option<String> =
            sqlx::query_scalar("SELECT role FROM club_members WHERE club = $1 AND player = $2")
                .bind(club)
                .bind(&player.0)
                .fetch_optional(&self.pool)
                .await?;
        role.as_deref().map(role_of).transpose()
    }

    /// Who runs club `club`: its owner and organisers.
    pub async fn club_organisers(&self, club: &str) -> Result<Vec<PlayerId>, StoreError> {
        let players: Vec<String> = sqlx::query_scalar(
            "SELECT player FROM club_members WHERE club = $1 \
             AND role IN ('owner', 'organiser') ORDER BY player",
        )
        .bind(club)
        .fetch_all(&self.pool)
        .await?;
        Ok(players.into_iter().map(PlayerId).collect())
    }

    /// The members of club `club` and those asking to join, with their live ratings, when they
    /// were last online and the unfinished game each moved in since `playing_since` (ms).
    pub async fn club_members(
        &self,
        club: &str,
        playing_since: i64,
    ) -> Result<Vec<ClubMemberRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.player, p.name, m.role, \
             CASE WHEN p.online_server = $5 THEN NULL ELSE p.online_ms END AS online_ms, \
             r.mu, r.sigma, r.games, \
             (SELECT COUNT(*) FROM seat_leaves l WHERE l.player = m.player AND l.rated = 1) \
             AS left_games, \
             (SELECT g.id || ' ' || g.code FROM seats s JOIN games g ON g.id = s.game_id \
              WHERE s.holder = m.player AND g.finished_ms IS NULL AND g.moved_ms >= $2 \
              ORDER BY g.moved_ms DESC, g.id LIMIT 1) AS playing \
             FROM club_members m JOIN players p ON p.id = m.player \
             LEFT JOIN ratings r ON r.player = m.player AND r.family = $3 \
             WHERE m.club = $1 ORDER BY p.name, m.player LIMIT $4",
        )
        .bind(club)
        .bind(playing_since)
        .bind(RatingFamily::Live.name())
        // The members, and as many asking.
        .bind(2 * i64::from(MAX_CLUB_MEMBERS))
        .bind(self.server_id())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ClubMemberRow {
                    player: PlayerId(row.try_get("player")?),
                    name: row.try_get("name")?,
                    role: role_of(&row.try_get::<String, _>("role")?)?,
                    rating: super::ratings::rating_of(row)?,
                    left: count(row, "left_games")?,
                    online_ms: row.try_get("online_ms")?,
                    playing: row
                        .try_get::<Option<String>, _>("playing")?
                        .and_then(|both| {
                            let (id, code) = both.split_once(' ')?;
                            Some((GameId(id.to_owned()), code.to_owned()))
                        }),
                })
            })
            .collect()
    }

    /// Adds `player` to club `club` as `role` (a member, or one asking): refused when a member
    /// joins a club of [`MAX_CLUB_MEMBERS`]. One already in it keeps their role (a member asking
    /// again stays a member). Their role now.
    pub async fn join_club(
        &self,
        club: &str,
        player: &PlayerId,
        role: ClubRole,
    ) -> Result<ClubRole, StoreError> {
        let mut tx = self.pool.begin().await?;
        let had: Option<String> =
            sqlx::query_scalar("SELECT role FROM club_members WHERE club = $1 AND player = $2")
                .bind(club)
                .bind(&player.0)
                .fetch_optional(&mut *tx)
                .await?;
        if let Some(had) = had {
            return role_of(&had);
        }
        if role.belongs() {
            room_for_a_member(&mut tx, club).await?;
        }
        sqlx::query(
            "INSERT INTO club_members (club, player, role, news, since_ms) \
             VALUES ($1, $2, $3, 1, $4) ON CONFLICT (club, player) DO NOTHING",
        )
        .bind(club)
        .bind(&player.0)
        .bind(role.as_str())
        .bind(self.now())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(role)
    }

    /// Changes `player`'s role in club `club` from `from` to `to` (nothing if it is no longer
    /// `from`: another organiser came first); a member let in is refused in a full club.
    /// Whether it changed.
    pub async fn set_club_role(
        &self,
        club: &str,
        player: &PlayerId,
        from: ClubRole,
        to: ClubRole,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        if !from.belongs() && to.belongs() {
            room_for_a_member(&mut tx, club).await?;
        }
        let changed = sqlx::query(
            "UPDATE club_members SET role = $4 WHERE club = $1 AND player = $2 AND role = $3",
        )
        .bind(club)
        .bind(&player.0)
        .bind(from.as_str())
        .bind(to.as_str())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(changed == 1)
    }

    /// Takes `player` out of club `club` (a member leaving or removed, or a request taken back
    /// or turned away); never its owner. Whether they were in it.
    pub async fn leave_club(&self, club: &str, player: &PlayerId) -> Result<bool, StoreError> {
        let left = sqlx::query(
            "DELETE FROM club_members WHERE club = $1 AND player = $2 AND role <> 'owner'",
        )
        .bind(club)
        .bind(&player.0)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(left == 1)
    }

    /// Whether `player` is told of club `club`'s news. Whether they are in it.
    pub async fn set_club_news_wanted(
        &self,
        club: &str,
        player: &PlayerId,
        wanted: bool,
    ) -> Result<bool, StoreError> {
        let set = sqlx::query(
            "UPDATE club_members SET news = $3 WHERE club = $1 AND player = $2 \
             AND role <> 'asking'",
        )
        .bind(club)
        .bind(&player.0)
        .bind(i64::from(wanted))
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(set == 1)
    }

    /// Whether `player` is told of club `club`'s news.
    pub async fn club_news_wanted(
        &self,
        club: &str,
        player: &PlayerId,
    ) -> Result<bool, StoreError> {
        let news: Option<i64> =
            sqlx::query_scalar("SELECT news FROM club_members WHERE club = $1 AND player = $2")
                .bind(club)
                .bind(&player.0)
                .fetch_optional(&self.pool)
                .await?;
        Ok(news.is_some_and(|n| n != 0))
    }

    /// Keeps a line of club `club`'s news posted by `by` (named `by_name`): the line, and the
    /// members to tell (those who want its news, the poster too).
    pub async fn post_club_news(
        &self,
        club: &ClubRow,
        by: &PlayerId,
        by_name: &str,
        text: &str,
    ) -> Result<(ClubNews, Vec<PlayerId>), StoreError> {
        let now = self.now();
        let id = secret::new_id()?;
        let mut tx = self.pool.begin().await?;
        // At most MAX_CLUB_NEWS_A_DAY lines in any 24 hours: the next when the oldest of the
        // last day's is a day old.
        let day = 86_400_000;
        let lately: Vec<i64> = sqlx::query_scalar(
            "SELECT at_ms FROM club_news WHERE club = $1 AND at_ms > $2 ORDER BY at_ms",
        )
        .bind(&club.id)
        .bind(now - day)
        .fetch_all(&mut *tx)
        .await?;
        if lately.len() >= MAX_CLUB_NEWS_A_DAY as usize {
            let next = lately[lately.len() - MAX_CLUB_NEWS_A_DAY as usize] + day;
            let seconds = u32::try_from((next - now + 999) / 1000).unwrap_or(u32::MAX);
            return Err(StoreError::Refused(Refusal::SlowDown {
                seconds: seconds.max(1),
            }));
        }
        sqlx::query(
            "INSERT INTO club_news (id, club, by_player, at_ms, text) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(&club.id)
        .bind(&by.0)
        .bind(now)
        .bind(text)
        .execute(&mut *tx)
        .await?;
        let readers: Vec<String> = sqlx::query_scalar(
            "SELECT player FROM club_members WHERE club = $1 AND news = 1 \
             AND role <> 'asking' ORDER BY player",
        )
        .bind(&club.id)
        .fetch_all(&mut *tx)
        .await?;
        // A notification for each reader (the poster aside) with a device to push to, written
        // with the news: whether it goes is decided when it is due (not to one connected).
        sqlx::query(
            "INSERT INTO mail_outbox (kind, player, game_id, ply, made_ms, not_before_ms) \
             SELECT 'push-club-news', m.player, $1, 0, $2, $2 FROM club_members m \
             WHERE m.club = $3 AND m.news = 1 AND m.role <> 'asking' AND m.player <> $4 \
             AND EXISTS (SELECT 1 FROM push_subscriptions d WHERE d.player = m.player) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&id)
        .bind(now)
        .bind(&club.id)
        .bind(&by.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok((
            ClubNews {
                club: club.name.clone(),
                by: by_name.to_owned(),
                at_ms: now,
                text: text.to_owned(),
            },
            readers.into_iter().map(PlayerId).collect(),
        ))
    }

    /// The line of news `id`, and whether `player` still wants to be told of it (a member of
    /// its club who wants its news); `None` when it is gone.
    pub async fn club_news_line(
        &self,
        id: &str,
        player: &PlayerId,
    ) -> Result<Option<(ClubNews, bool)>, StoreError> {
        let row = sqlx::query(
            "SELECT c.name AS club, p.name AS by_name, n.at_ms, n.text, \
             (SELECT COUNT(*) FROM club_members m WHERE m.club = n.club AND m.player = $2 \
              AND m.news = 1 AND m.role <> 'asking') AS wanted \
             FROM club_news n JOIN clubs c ON c.id = n.club \
             JOIN players p ON p.id = n.by_player WHERE n.id = $1",
        )
        .bind(id)
        .bind(&player.0)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let wanted: i64 = row.try_get("wanted")?;
        Ok(Some((
            ClubNews {
                club: row.try_get("club")?,
                by: row.try_get("by_name")?,
                at_ms: row.try_get("at_ms")?,
                text: row.try_get("text")?,
            },
            wanted > 0,
        )))
    }

    /// Club `club`'s latest news, the newest first, at most `limit`.
    pub async fn club_news(
        &self,
        club: &ClubRow,
        limit: usize,
    ) -> Result<Vec<ClubNews>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.name, n.at_ms, n.text FROM club_news n \
             JOIN players p ON p.id = n.by_player WHERE n.club = $1 \
             ORDER BY n.at_ms DESC, n.id DESC LIMIT $2",
        )
        .bind(&club.id)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ClubNews {
                    club: club.name.clone(),
                    by: row.try_get("name")?,
                    at_ms: row.try_get("at_ms")?,
                    text: row.try_get("text")?,
                })
            })
            .collect()
    }

    /// The clubs `player` is in or asks to join (by name), then the biggest others — those
    /// whose names hold `search` (compared folded) when it is given — at most `limit` in all.
    pub async fn clubs_listed(
        &self,
        player: &PlayerId,
        search: Option<&str>,
        limit: usize,
    ) -> Result<Vec<ClubListed>, StoreError> {
        let pattern = search.map(|s| format!("%{}%", like_escaped(&fold_name(s))));
        let rows = sqlx::query(&format!(
            "SELECT {CLUB_COLUMNS}, y.role FROM clubs c \
             LEFT JOIN club_members y ON y.club = c.id AND y.player = $1 \
             WHERE y.role IS NOT NULL OR $2 IS NULL OR c.folded LIKE $2 ESCAPE '\\' \
             ORDER BY CASE WHEN y.role IS NULL THEN 1 ELSE 0 END, member_count DESC, \
             c.name, c.id LIMIT $3"
        ))
        .bind(&player.0)
        .bind(pattern)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let club = club_of(row)?;
                let you = row
                    .try_get::<Option<String>, _>("role")?
                    .as_deref()
                    .map(role_of)
                    .transpose()?;
                Ok(ClubListed {
                    name: club.name,
                    description: club.description,
                    open: club.open,
                    member_count: club.member_count,
                    you,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_is_taken_literally() {
        assert_eq!(like_escaped("50%_a\\b"), "50\\%\\_a\\\\b");
    }
}
