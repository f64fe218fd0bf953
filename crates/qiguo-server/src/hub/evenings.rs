//! Club evenings: an organiser sets a time; members say they come (and are reminded, by e-mail
//! and on their devices, [`REMINDED_BEFORE_MINUTES`] before); at the time one server seats the
//! people present — who said they come and are connected, on any server — at tables of seven as
//! even as their count allows ([`table_sizes`]), by rating (the strongest together) or at
//! random, computers of the evening's level in the kingdoms nobody takes. Each is told
//! ([`Event::EveningSeated`]). A member who comes late, within [`LATECOMERS_WITHIN_MINUTES`],
//! takes a computer's kingdom in one of the evening's games as quick play seats a newcomer,
//! or, when none has one, starts a new table that later latecomers fill. Needs the core (who is
//! connected, ratings, telling people), the store, the log and quick play (its seating of
//! newcomers in computers' kingdoms).

use std::sync::Arc;
use std::time::Duration;

use qiguo_protocol::RatingFamily;
use qiguo_protocol::clubs::{ClubRole, clean_club_name};
use qiguo_protocol::evenings::{
    EVENINGS_LISTED, EveningId, EveningSpec, EveningState, EveningTable, EveningView,
    LATECOMERS_WITHIN_MINUTES, REMINDED_BEFORE_MINUTES, Seating, table_sizes,
};
use qiguo_protocol::lobby::{TableSpec, WhenUnfilled};

use super::Core;
use super::lobby::table_game;
use super::quick::Quick;
use crate::log::{Log, note};
use crate::protocol::{Answer, Event, Refusal};
use crate::rated;
use crate::store::{ClubRow, EveningGame, EveningRow, PlayerId, Store, StoreError};

/// How often the keeper looks for evenings whose time came.
pub const EVENINGS_EVERY: Duration = Duration::from_secs(1);

const MINUTE_MS: i64 = 60_000;

/// The club evenings slice.
pub(crate) struct Evenings {
    core: Arc<Core>,
    store: Store,
    log: Log,
    quick: Arc<Quick>,
}

impl Evenings {
    /// Evenings kept in `store`, their people found connected and told through `core`,
    /// latecomers seated by `quick`, said in `log`.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log, quick: Arc<Quick>) -> Evenings {
        Evenings {
            core,
            store,
            log,
            quick,
        }
    }

    /// `player`'s role in the club called `name`, which must be a member's (and, with
    /// `organises`, an organiser's).
    async fn club_of(
        &self,
        player: &PlayerId,
        name: &str,
        organises: bool,
    ) -> Result<ClubRow, Refusal> {
        let club = self.store.club_named(&clean_club_name(name)?).await?;
        let role = self.store.club_role(&club.id, player).await?;
        self.may(&club, role, organises)?;
        Ok(club)
    }

    fn may(&self, club: &ClubRow, role: Option<ClubRole>, organises: bool) -> Result<(), Refusal> {
        match role {
            Some(role) if organises && role.organises() => Ok(()),
            Some(_) if organises => Err(Refusal::NotClubOrganiser {
                name: club.name.clone(),
            }),
            Some(role) if role.belongs() => Ok(()),
            _ => Err(Refusal::NotInClub {
                name: club.name.clone(),
            }),
        }
    }

    /// Evening `id`, which `player` must be a member of the club of (or an organiser).
    async fn evening_of(
        &self,
        player: &PlayerId,
        id: &EveningId,
        organises: bool,
    ) -> Result<EveningRow, Refusal> {
        let evening = self.store.evening(id).await?;
        let role = self.store.club_role(&evening.club_id, player).await?;
        match role {
            Some(role) if role.belongs() => {}
            // Not a member: it is none of theirs.
            _ => return Err(Refusal::NoSuchEvening),
        }
        if organises && !role.is_some_and(ClubRole::organises) {
            return Err(Refusal::NotClubOrganiser {
                name: evening.club.clone(),
            });
        }
        Ok(evening)
    }

    /// An organiser (`player`) sets an evening.
    pub(crate) async fn create(
        &self,
        player: &PlayerId,
        spec: &EveningSpec,
    ) -> Result<Answer, Refusal> {
        spec.check(self.store.now())?;
        let club = self.club_of(player, &spec.club, true).await?;
        let id = self
            .store
            .create_evening(&club.id, player, spec.at_ms, &spec.play)
            .await?;
        note!(
            self.log,
            INFO,
            "evening set",
            evening = id.0,
            club = club.id,
            by = player.0,
            at_ms = spec.at_ms
        );
        let evening = self.store.evening(&id).await?;
        Ok(Answer::Evening(Box::new(
            self.view(&evening, player).await?,
        )))
    }

    /// `player` says they come to evening `id`, or no longer. Once it has begun, coming seats
    /// them at once.
    pub(crate) async fn come(
        &self,
        player: &PlayerId,
        id: &EveningId,
        coming: bool,
    ) -> Result<Answer, Refusal> {
        let evening = self.evening_of(player, id, false).await?;
        let now = self.store.now();
        match state_of(&evening, now) {
            EveningState::Over | EveningState::Cancelled => return Err(Refusal::EveningOver),
            EveningState::Playing if coming => self.latecomer(player, &evening).await?,
            _ => {
                let remind = evening.at_ms - i64::from(REMINDED_BEFORE_MINUTES) * MINUTE_MS;
                self.store
                    .come(id, player, coming, (remind > now).then_some(remind))
                    .await?;
                note!(
                    self.log,
                    INFO,
                    "evening answered",
                    evening = id.0,
                    player = player.0,
                    coming = coming
                );
            }
        }
        let evening = self.store.evening(id).await?;
        Ok(Answer::Evening(Box::new(
            self.view(&evening, player).await?,
        )))
    }

    /// Seats `player`, come late to `evening`, in a computer's kingdom of one of its games, or
    /// at a new table of its own that later latecomers fill.
    async fn latecomer(&self, player: &PlayerId, evening: &EveningRow) -> Result<(), Refusal> {
        let comers = self.store.comers(&evening.id).await?;
        if comers
            .iter()
            .any(|c| c.player == *player && c.game.is_some())
        {
            // Seated already.
            return Ok(());
        }
        let games = self.store.evening_games(&evening.id).await?;
        self.core.room_for_a_game(player).await?;
        let pace = evening.play.pace.pace();
        let ids = games.into_iter().map(|(game, ..)| game).collect();
        let game = match self.quick.take_over_in(player, ids, pace).await? {
            Some(seat) => seat.view.id,
            None => {
                let name = self.store.player_name(player).await?;
                let new = table_game(&table_of(evening), &[(player.clone(), name)]);
                let made = self
                    .store
                    .evening_game_for(&evening.id, &new, player, evening.play.rated)
                    .await?;
                made.id
            }
        };
        self.store
            .seated_at_evening(&evening.id, player, &game)
            .await?;
        note!(
            self.log,
            INFO,
            "evening latecomer seated",
            evening = evening.id.0,
            player = player.0,
            game = game.0
        );
        Ok(())
    }

    /// An organiser (`player`) calls evening `id` off before it begins.
    pub(crate) async fn cancel(
        &self,
        player: &PlayerId,
        id: &EveningId,
    ) -> Result<Answer, Refusal> {
        let evening = self.evening_of(player, id, true).await?;
        if !self.store.cancel_evening(id).await? {
            return Err(Refusal::EveningOver);
        }
        note!(
            self.log,
            INFO,
            "evening called off",
            evening = id.0,
            club = evening.club_id,
            by = player.0
        );
        let evening = self.store.evening(id).await?;
        Ok(Answer::Evening(Box::new(
            self.view(&evening, player).await?,
        )))
    }

    /// The evenings to come and under way of the club called `club` (of which `player` is a
    /// member), or of all `player`'s clubs.
    pub(crate) async fn list(
        &self,
        player: &PlayerId,
        club: Option<&str>,
    ) -> Result<Answer, Refusal> {
        let club = match club {
            Some(name) => Some(self.club_of(player, name, false).await?.id),
            None => None,
        };
        Ok(Answer::Evenings {
            evenings: self.views(club.as_deref(), player).await?,
        })
    }

    /// The evenings to come and under way of club `club` (its id; `None`: all `player`'s) as
    /// `player` sees them.
    pub(super) async fn views(
        &self,
        club: Option<&str>,
        player: &PlayerId,
    ) -> Result<Vec<EveningView>, Refusal> {
        let since = self.store.now() - i64::from(LATECOMERS_WITHIN_MINUTES) * MINUTE_MS;
        let rows = self
            .store
            .evenings_from(club, player, since, EVENINGS_LISTED)
            .await?;
        let mut views = Vec::with_capacity(rows.len());
        for evening in rows {
            views.push(self.view(&evening, player).await?);
        }
        Ok(views)
    }

    /// `evening` as `player` sees it.
    async fn view(&self, evening: &EveningRow, player: &PlayerId) -> Result<EveningView, Refusal> {
        let comers = self.store.comers(&evening.id).await?;
        let tables = self
            .store
            .evening_games(&evening.id)
            .await?
            .into_iter()
            .map(|(game, code, people)| EveningTable { game, code, people })
            .collect();
        let yours = comers.iter().find(|c| c.player == *player);
        Ok(EveningView {
            id: evening.id.clone(),
            club: evening.club.clone(),
            by: evening.by.clone(),
            at_ms: evening.at_ms,
            play: evening.play,
            state: state_of(evening, self.store.now()),
            coming: comers.iter().map(|c| c.name.clone()).collect(),
            you_come: yours.is_some(),
            tables,
            your_game: yours.and_then(|c| c.game.clone()),
        })
    }

    /// Every [`EVENINGS_EVERY`]: the evenings whose time came, seated.
    pub(super) async fn keeper(evenings: std::sync::Weak<Evenings>) {
        let mut tick = tokio::time::interval(EVENINGS_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(evenings) = evenings.upgrade() else {
                return;
            };
            if evenings.core.is_closing() {
                return;
            }
            evenings.evenings_due().await;
        }
    }

    async fn evenings_due(&self) {
        let due = match self.store.evenings_due(self.store.now(), 10).await {
            Ok(due) => due,
            Err(e) => {
                note!(self.log, WARN, "evenings due not read", why = e);
                return;
            }
        };
        for id in due {
            if let Err(e) = self.seat(&id).await {
                note!(
                    self.log,
                    WARN,
                    "evening not seated",
                    evening = id.0,
                    why = e
                );
            }
        }
    }

    /// Seats evening `id` (once, on any server): the people present at tables, each told.
    pub(super) async fn seat(&self, id: &EveningId) -> Result<(), StoreError> {
        let evening = self.store.evening(id).await?;
        let now = self.store.now();
        let family = RatingFamily::of(&evening.play.pace.pace());
        let mut present = Vec::new();
        for comer in self.store.comers(id).await? {
            if !self.core.connected(&comer.player, comer.online_ms, now) {
                continue;
            }
            let points = rated::shown(self.core.rating_held(&comer.player, family).await?).points;
            present.push((comer.player, comer.name, points));
        }
        match evening.play.seating {
            // The strongest first; equal ratings in the order they said they come.
            Seating::ByRating => present.sort_by_key(|(_, _, points)| std::cmp::Reverse(*points)),
            Seating::AtRandom => shuffle(&mut present)?,
        }
        let table = table_of(&evening);
        let mut games: Vec<EveningGame> = Vec::new();
        let mut people = present.into_iter();
        for size in table_sizes(people.len()) {
            let seated: Vec<(PlayerId, String)> = people
                .by_ref()
                .take(size)
                .map(|(player, name, _)| (player, name))
                .collect();
            let game = table_game(&table, &seated);
            games.push((game, seated.into_iter().map(|(p, _)| p).collect()));
        }
        let Some(made) = self
            .store
            .seat_evening(id, evening.play.rated, &games)
            .await?
        else {
            return Ok(());
        };
        note!(
            self.log,
            INFO,
            "evening seated",
            evening = id.0,
            club = evening.club_id,
            tables = made.len(),
            people = games.iter().map(|(_, p)| p.len()).sum::<usize>()
        );
        for (created, (_, people)) in made.iter().zip(&games) {
            for player in people {
                self.core.tell_player(
                    player,
                    Event::EveningSeated {
                        evening: id.clone(),
                        club: evening.club.clone(),
                        game: created.id.clone(),
                    },
                );
            }
        }
        Ok(())
    }
}

/// The evening a reminder to `player` of evening `id` (an outbox row's) is about, or why it
/// no longer goes: called off, begun, or they no longer come.
pub(super) async fn reminder_stands(
    store: &Store,
    id: Option<&String>,
    player: &PlayerId,
) -> Result<Result<EveningRow, &'static str>, StoreError> {
    let Some(id) = id else {
        return Ok(Err("no evening"));
    };
    let id = EveningId(id.clone());
    let evening = match store.evening(&id).await {
        Ok(evening) => evening,
        Err(StoreError::Refused(Refusal::NoSuchEvening)) => return Ok(Err("no such evening")),
        Err(e) => return Err(e),
    };
    if evening.cancelled_ms.is_some() {
        return Ok(Err("the evening was called off"));
    }
    if evening.started_ms.is_some() {
        return Ok(Err("the evening has begun"));
    }
    if !store.comes(&id, player).await? {
        return Ok(Err("they no longer come"));
    }
    Ok(Ok(evening))
}

/// Where `evening` stands at `now`.
fn state_of(evening: &EveningRow, now: i64) -> EveningState {
    if evening.cancelled_ms.is_some() {
        EveningState::Cancelled
    } else if now >= evening.at_ms + i64::from(LATECOMERS_WITHIN_MINUTES) * MINUTE_MS {
        EveningState::Over
    } else if evening.started_ms.is_some() {
        EveningState::Playing
    } else {
        EveningState::Planned
    }
}

/// The table an evening's games are made as: its rules, pace, computers and rating.
fn table_of(evening: &EveningRow) -> TableSpec {
    TableSpec {
        preset: evening.play.preset,
        pace: evening.play.pace.pace(),
        people: 7,
        level: evening.play.level,
        rated: evening.play.rated,
        ratings: None,
        wait_minutes: 1,
        unfilled: WhenUnfilled::Computers,
    }
}

/// Shuffles `items` with the system's randomness (Fisher–Yates).
pub(super) fn shuffle<T>(items: &mut [T]) -> Result<(), StoreError> {
    for i in (1..items.len()).rev() {
        let draw = u64::from_le_bytes(crate::secret::random_bytes::<8>()?);
        // The bias of a remainder of 64 bits by a few hundred is below one in 10^16.
        let j = (draw % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
    Ok(())
}
