//! Clubs: made by a player (their owner), joined at once when open or by asking, run by
//! organisers who let people in, remove members and post news that members who want it are
//! told of (on every server). A club's view shows its members with their live ratings, who is
//! online and the game each plays now. Blocks are honoured: a player blocked by the club's
//! owner or an organiser (or who blocked one of them) cannot join it. Needs the core (who is
//! online, telling members), the store and the log.

use std::sync::Arc;
use std::time::Duration;

use qiguo_protocol::clean_name;
use qiguo_protocol::clubs::{
    CLUB_NEWS_SHOWN, CLUBS_LISTED, ClubAction, ClubMember, ClubRole, ClubSpec, ClubView,
    clean_club_name, clean_club_news,
};
use qiguo_protocol::lobby::LOBBY_LISTED;

use crate::log::{Log, escaped, note};
use crate::protocol::{Answer, Event, Refusal};
use crate::rated::shown_left;
use crate::store::{ClubMemberRow, ClubRow, PlayerId, Store};

use super::lobby::table_view;
use super::{Core, Evenings};

/// A member's game counts as being played now when it moved this lately.
pub const PLAYING_WITHIN: Duration = Duration::from_secs(10 * 60);

/// The clubs slice.
pub(crate) struct Clubs {
    core: Arc<Core>,
    store: Store,
    log: Log,
    /// The clubs' evenings, shown in their views.
    evenings: Arc<Evenings>,
}

impl Clubs {
    /// Clubs kept in `store`, their news told through `core`, said in `log`, their views
    /// showing their `evenings`.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log, evenings: Arc<Evenings>) -> Clubs {
        Clubs {
            core,
            store,
            log,
            evenings,
        }
    }

    /// `player` makes a club.
    pub(crate) async fn create(
        &self,
        player: &PlayerId,
        spec: &ClubSpec,
    ) -> Result<Answer, Refusal> {
        let spec = spec.cleaned()?;
        let club = self.store.create_club(player, &spec).await?;
        note!(
            self.log,
            INFO,
            "club created",
            club = club.id,
            owner = player.0,
            name = escaped(&club.name),
            open = club.open
        );
        self.view(&club, player).await
    }

    /// The club called `name`.
    async fn named(&self, name: &str) -> Result<ClubRow, Refusal> {
        let name = clean_club_name(name)?;
        Ok(self.store.club_named(&name).await?)
    }

    /// `player`'s role in `club`, which must run it.
    async fn organiser(&self, club: &ClubRow, player: &PlayerId) -> Result<ClubRole, Refusal> {
        match self.store.club_role(&club.id, player).await? {
            Some(role) if role.organises() => Ok(role),
            _ => Err(Refusal::NotClubOrganiser {
                name: club.name.clone(),
            }),
        }
    }

    /// `player` joins the club called `name` (open), or asks to (by request).
    pub(crate) async fn join(&self, player: &PlayerId, name: &str) -> Result<Answer, Refusal> {
        let club = self.named(name).await?;
        // Blocks both ways with whoever runs it.
        let apart = self.store.kept_apart(player).await?;
        if !apart.is_empty() {
            let organisers = self.store.club_organisers(&club.id).await?;
            if organisers.iter().any(|o| apart.contains(o)) {
                return Err(Refusal::ClubBlocked);
            }
        }
        let asked = if club.open {
            ClubRole::Member
        } else {
            ClubRole::Asking
        };
        let role = self.store.join_club(&club.id, player, asked).await?;
        note!(
            self.log,
            INFO,
            "club joined",
            club = club.id,
            player = player.0,
            role = role.as_str()
        );
        let club = self.store.club_named(&club.name).await?;
        self.view(&club, player).await
    }

    /// `player` leaves the club called `name` (or takes back their request): their clubs now.
    pub(crate) async fn leave(&self, player: &PlayerId, name: &str) -> Result<Answer, Refusal> {
        let club = self.named(name).await?;
        match self.store.club_role(&club.id, player).await? {
            None => {
                return Err(Refusal::NotInClub {
                    name: club.name.clone(),
                });
            }
            Some(ClubRole::Owner) => return Err(Refusal::ClubOwnerStays),
            Some(_) => {}
        }
        if self.store.leave_club(&club.id, player).await? {
            note!(
                self.log,
                INFO,
                "club left",
                club = club.id,
                player = player.0
            );
        }
        self.list(player, None).await
    }

    /// The club called `name`, as `player` sees it.
    pub(crate) async fn show(&self, player: &PlayerId, name: &str) -> Result<Answer, Refusal> {
        let club = self.named(name).await?;
        self.view(&club, player).await
    }

    /// `player`'s clubs, then others (those whose names hold `search`).
    pub(crate) async fn list(
        &self,
        player: &PlayerId,
        search: Option<&str>,
    ) -> Result<Answer, Refusal> {
        let search = search.map(str::trim).filter(|s| !s.is_empty());
        let search = search.map(clean_club_name).transpose()?;
        let clubs = self
            .store
            .clubs_listed(player, search.as_deref(), CLUBS_LISTED)
            .await?;
        Ok(Answer::Clubs { clubs })
    }

    /// An organiser (`player`) does `action` to the player called `who` in the club called
    /// `name`.
    pub(crate) async fn member(
        &self,
        player: &PlayerId,
        name: &str,
        who: &str,
        action: ClubAction,
    ) -> Result<Answer, Refusal> {
        let club = self.named(name).await?;
        let mine = self.organiser(&club, player).await?;
        let who = clean_name(who)?;
        let other = self
            .store
            .player_named(&who)
            .await?
            .ok_or_else(|| Refusal::NoPlayerNamed { name: who.clone() })?;
        let theirs = self
            .store
            .club_role(&club.id, &other)
            .await?
            .ok_or_else(|| Refusal::NoClubMember {
                player: who.clone(),
            })?;
        let owner_only = || Refusal::NotClubOwner {
            name: club.name.clone(),
        };
        let not_member = || Refusal::NoClubMember {
            player: who.clone(),
        };
        match action {
            ClubAction::Accept => {
                if theirs != ClubRole::Asking {
                    return Err(not_member());
                }
                self.store
                    .set_club_role(&club.id, &other, ClubRole::Asking, ClubRole::Member)
                    .await?;
            }
            ClubAction::Remove => {
                if theirs == ClubRole::Owner {
                    return Err(Refusal::ClubOwnerStays);
                }
                if theirs == ClubRole::Organiser && mine != ClubRole::Owner {
                    return Err(owner_only());
                }
                self.store.leave_club(&club.id, &other).await?;
            }
            ClubAction::Organiser | ClubAction::Member => {
                if mine != ClubRole::Owner {
                    return Err(owner_only());
                }
                let (from, to) = if action == ClubAction::Organiser {
                    (ClubRole::Member, ClubRole::Organiser)
                } else {
                    (ClubRole::Organiser, ClubRole::Member)
                };
                if theirs == ClubRole::Owner {
                    return Err(Refusal::ClubOwnerStays);
                }
                if theirs != from {
                    return Err(not_member());
                }
                self.store.set_club_role(&club.id, &other, from, to).await?;
            }
        }
        note!(
            self.log,
            INFO,
            "club member",
            club = club.id,
            by = player.0,
            player = other.0,
            action = format!("{action:?}")
        );
        let club = self.store.club_named(&club.name).await?;
        self.view(&club, player).await
    }

    /// An organiser (`player`) posts `text` as the news of the club called `name`: its members
    /// who want it are told, on every server.
    pub(crate) async fn post(
        &self,
        player: &PlayerId,
        name: &str,
        text: &str,
    ) -> Result<Answer, Refusal> {
        let club = self.named(name).await?;
        self.organiser(&club, player).await?;
        let text = clean_club_news(text)?;
        let by = self.store.player_name(player).await?;
        let (news, readers) = self.store.post_club_news(&club, player, &by, &text).await?;
        note!(
            self.log,
            INFO,
            "club news",
            club = club.id,
            by = player.0,
            told = readers.len()
        );
        for reader in &readers {
            self.core.tell_player(reader, Event::ClubNews(news.clone()));
        }
        self.view(&club, player).await
    }

    /// Whether `player` is told of the news of the club called `name`.
    pub(crate) async fn news_wanted(
        &self,
        player: &PlayerId,
        name: &str,
        wanted: bool,
    ) -> Result<Answer, Refusal> {
        let club = self.named(name).await?;
        if !self
            .store
            .set_club_news_wanted(&club.id, player, wanted)
            .await?
        {
            return Err(Refusal::NotInClub {
                name: club.name.clone(),
            });
        }
        self.view(&club, player).await
    }

    /// `club` as `player` sees it: its members (if they belong, or it is open; those asking to
    /// organisers only), the owner and organisers first, then by rating; its news to members.
    async fn view(&self, club: &ClubRow, player: &PlayerId) -> Result<Answer, Refusal> {
        let now = self.store.now();
        let since = now - PLAYING_WITHIN.as_millis() as i64;
        let rows = self.store.club_members(&club.id, since).await?;
        let you = rows.iter().find(|m| m.player == *player).map(|m| m.role);
        let belongs = you.is_some_and(ClubRole::belongs);
        let organises = you.is_some_and(ClubRole::organises);
        let mut members: Vec<ClubMember> = if belongs || club.open {
            rows.into_iter()
                .filter(|m| m.role.belongs() || organises)
                .map(|m| self.member_of(m, now))
                .collect()
        } else {
            Vec::new()
        };
        members.sort_by(|a, b| {
            let points = |m: &ClubMember| m.rating.as_ref().map_or(i64::MIN, |r| r.points);
            a.role
                .cmp(&b.role)
                .then(points(b).cmp(&points(a)))
                .then(a.name.cmp(&b.name))
        });
        let (news, news_wanted, tables, evenings) = if belongs {
            (
                self.store.club_news(club, CLUB_NEWS_SHOWN).await?,
                self.store.club_news_wanted(&club.id, player).await?,
                self.store
                    .club_tables(&club.id, LOBBY_LISTED as u32)
                    .await?
                    .into_iter()
                    .map(table_view)
                    .collect(),
                self.evenings.views(Some(&club.id), player).await?,
            )
        } else {
            (Vec::new(), false, Vec::new(), Vec::new())
        };
        Ok(Answer::Club(Box::new(ClubView {
            name: club.name.clone(),
            description: club.description.clone(),
            open: club.open,
            you,
            member_count: club.member_count,
            members,
            news,
            news_wanted,
            tables,
            evenings,
        })))
    }

    /// A member's row as a club's view shows it.
    fn member_of(&self, m: ClubMemberRow, now: i64) -> ClubMember {
        ClubMember {
            online: self.core.connected(&m.player, m.online_ms, now),
            rating: m.rating.map(|r| shown_left(Some(r), m.left)),
            player: m.player,
            name: m.name,
            role: m.role,
            playing: m.playing.as_ref().map(|(game, _)| game.clone()),
            watch: m.playing.map(|(_, code)| code),
        }
    }
}
