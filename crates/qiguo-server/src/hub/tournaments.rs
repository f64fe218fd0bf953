//! Tournaments of tables (see `qiguo_protocol::tournaments` for the formats and the points):
//! set by a club's organisers (or by the operator, on the database), joined and left by
//! players, and kept by a keeper on every server that each [`TOURNAMENTS_EVERY`] scores the
//! tournaments' games that ended, begins what is due — a Swiss's rounds (tables by standing,
//! [`swiss_tables`]), an arena's tables as people wait ([`arena_tables`]) —, cuts a Swiss
//! round's games at its deadline, ends what is over, and tells its own players when the
//! standings changed. Each step is one claim in the database, so any number of servers keep
//! the same tournaments without seating anyone twice. Needs the core (who is connected,
//! ratings, telling people, the games held), the store and the log.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use qiguo_protocol::RatingFamily;
use qiguo_protocol::clubs::{ClubRole, clean_club_name};
use qiguo_protocol::lobby::{TableSpec, WhenUnfilled};
use qiguo_protocol::tournaments::{
    GOOD_GAME_HALVES, STANDINGS_LISTED, STANDINGS_TOLD, STREAK_MOVES, Standing, StandingsNews,
    TOURNAMENTS_LISTED, TournamentFormat, TournamentSpec, TournamentState, TournamentView,
    clean_tournament_name, round_days,
};

use super::Core;
use super::evenings::shuffle;
use super::lobby::table_game;
use crate::log::{Log, escaped, note};
use crate::pairing::{Waiting, arena_tables, pair, place_points, swiss_tables};
use crate::protocol::{Answer, Event, Refusal};
use crate::rated::{self, Who};
use crate::store::{
    Entrant, GameId, PlayerId, Scored, Store, StoreError, StoredGame, TournamentRow,
    TournamentTable,
};

/// How often the keeper scores, seats and begins.
pub const TOURNAMENTS_EVERY: Duration = Duration::from_secs(1);

/// How long after an arena's end its games still going are cut (a live game of seven is over
/// well within it).
const ARENA_CUT_AFTER_MS: i64 = 30 * 60_000;

/// How long an over tournament stays in the lists, in ms.
const OVER_LISTED_MS: i64 = 7 * 24 * 3_600_000;

const DAY_MS: i64 = 24 * 3_600_000;

/// The tournaments slice.
pub(crate) struct Tournaments {
    core: Arc<Core>,
    store: Store,
    log: Log,
    /// When this server last told its players of changed standings (the database's clock).
    told_at: Mutex<i64>,
}

impl Tournaments {
    /// Tournaments kept in `store`, their people found connected, seated and told through
    /// `core`, said in `log`.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log) -> Tournaments {
        let told_at = Mutex::new(store.now());
        Tournaments {
            core,
            store,
            log,
            told_at,
        }
    }

    /// Frees each person a move put out of a game (`put_out`) who plays it in an arena: they
    /// wait for a table at once rather than for the game's end (its score comes when it ends),
    /// on a task of its own that stops with the hub.
    pub(super) fn start(
        self: &Arc<Self>,
        mut put_out: tokio::sync::mpsc::UnboundedReceiver<(GameId, PlayerId)>,
    ) {
        let tournaments = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some((game, player)) = put_out.recv().await {
                let Some(t) = tournaments.upgrade() else {
                    return;
                };
                match t.store.free_in_arena(&game, &player).await {
                    Ok(true) => note!(
                        t.log,
                        INFO,
                        "arena player free again",
                        game = game.0,
                        player = player.0
                    ),
                    Ok(false) => {}
                    Err(e) => note!(
                        t.log,
                        WARN,
                        "arena player not freed",
                        game = game.0,
                        why = e
                    ),
                }
            }
        });
    }

    /// `player` (an organiser of `spec.club`) sets a tournament; a public one is refused
    /// (`tournament_by_operator`: the operator sets those on the database).
    pub(crate) async fn create(
        &self,
        player: &PlayerId,
        spec: &TournamentSpec,
    ) -> Result<Answer, Refusal> {
        let spec = spec.cleaned(self.store.now())?;
        let Some(club) = &spec.club else {
            return Err(Refusal::TournamentByOperator);
        };
        let club = self.store.club_named(&clean_club_name(club)?).await?;
        match self.store.club_role(&club.id, player).await? {
            Some(role) if role.organises() => {}
            Some(role) if role.belongs() => {
                return Err(Refusal::NotClubOrganiser { name: club.name });
            }
            _ => return Err(Refusal::NotInClub { name: club.name }),
        }
        let t = self
            .store
            .create_tournament(&spec, Some(&club.id), Some(player), None)
            .await?;
        note!(
            self.log,
            INFO,
            "tournament set",
            tournament = t.id,
            name = escaped(&t.name),
            club = club.id,
            by = player.0,
            format = t.format.word(),
            starts_ms = t.starts_ms
        );
        Ok(Answer::Tournament(Box::new(self.view(&t, player).await?)))
    }

    /// Tournament `name` as `player` may see it: a club's own only to its members.
    async fn visible(&self, player: &PlayerId, name: &str) -> Result<TournamentRow, Refusal> {
        let t = self
            .store
            .tournament_named(&clean_tournament_name(name)?)
            .await?;
        if let Some((club, _)) = &t.club {
            let role = self.store.club_role(club, player).await?;
            if !role.is_some_and(ClubRole::belongs) {
                // Not a member: none of theirs.
                return Err(Refusal::NoSuchTournament);
            }
        }
        Ok(t)
    }

    /// `player` joins tournament `name`: refused when it is over (or a Swiss in its last
    /// round) or full.
    pub(crate) async fn join(&self, player: &PlayerId, name: &str) -> Result<Answer, Refusal> {
        let t = self.visible(player, name).await?;
        let last_round = t.format == TournamentFormat::Swiss && t.round >= t.rounds;
        let arena_ended =
            t.format == TournamentFormat::Arena && self.store.now() >= t.arena_ends_ms();
        if t.finished_ms.is_some() || last_round || arena_ended {
            return Err(Refusal::TournamentOver);
        }
        self.store.join_tournament(&t, player).await?;
        note!(
            self.log,
            INFO,
            "tournament joined",
            tournament = t.id,
            player = player.0
        );
        Ok(Answer::Tournament(Box::new(self.view(&t, player).await?)))
    }

    /// `player` leaves tournament `name`: seated no more; a computer takes their kingdom in
    /// the game they play in it now (they keep the points of their place when they left).
    pub(crate) async fn leave(&self, player: &PlayerId, name: &str) -> Result<Answer, Refusal> {
        let t = self.visible(player, name).await?;
        if t.finished_ms.is_some() {
            return Err(Refusal::TournamentOver);
        }
        let game = self.store.leave_tournament(&t, player).await?;
        if let Some(game) = &game {
            self.replace_leaver(game, player, &t).await;
        }
        note!(
            self.log,
            INFO,
            "tournament left",
            tournament = t.id,
            player = player.0,
            game = game.map(|g| g.0).unwrap_or_default()
        );
        Ok(Answer::Tournament(Box::new(self.view(&t, player).await?)))
    }

    /// A computer of `t`'s level takes `player`'s kingdom in `game` over, in the database and
    /// here; the followers are told and the computer plays on.
    async fn replace_leaver(&self, game: &GameId, player: &PlayerId, t: &TournamentRow) {
        let Some(_open) = self.core.hold().await else {
            return;
        };
        let Ok(live) = self.core.live(game).await else {
            return;
        };
        let mut g = live.lock().await;
        if g.game.is_over() {
            return;
        }
        let ply = g.game.game().len() as u32;
        for seat in g.game.seats_of(player) {
            let from = g
                .game
                .seats()
                .get(usize::from(seat))
                .and_then(|s| s.taken_ply)
                .unwrap_or(0);
            let level = t.play.level;
            match self
                .store
                .replace_absent(game, seat, player, from, ply, level)
                .await
            {
                Ok(()) => {
                    if let Some(event) = g.game.replace_leaver(seat, level) {
                        g.tell(event);
                    }
                }
                Err(e) => note!(
                    self.log,
                    ERROR,
                    "tournament leaver not replaced",
                    game = game.0,
                    why = e
                ),
            }
        }
        drop(g);
        self.core.wake(game);
    }

    /// Tournament `name` as `player` sees it.
    pub(crate) async fn show(&self, player: &PlayerId, name: &str) -> Result<Answer, Refusal> {
        let t = self.visible(player, name).await?;
        Ok(Answer::Tournament(Box::new(self.view(&t, player).await?)))
    }

    /// A public tournament's page as anyone sees it by its link (`None`: no such public one; a
    /// club's own are its members' only).
    pub(crate) async fn public_standings(&self, name: &str) -> Option<TournamentView> {
        let name = clean_tournament_name(name).ok()?;
        let t = self.store.tournament_named(&name).await.ok()?;
        if t.club.is_some() {
            return None;
        }
        // Nobody's: no line of "yours", no games of theirs.
        self.view(&t, &PlayerId(String::new())).await.ok()
    }

    /// The tournaments `player` may see (public ones and their clubs', or one club's).
    pub(crate) async fn list(
        &self,
        player: &PlayerId,
        club: Option<&str>,
    ) -> Result<Answer, Refusal> {
        let club = match club {
            Some(name) => {
                let club = self.store.club_named(&clean_club_name(name)?).await?;
                let role = self.store.club_role(&club.id, player).await?;
                if !role.is_some_and(ClubRole::belongs) {
                    return Err(Refusal::NotInClub { name: club.name });
                }
                Some(club.id)
            }
            None => None,
        };
        let since = self.store.now() - OVER_LISTED_MS;
        let tournaments = self
            .store
            .tournaments_listed(player, club.as_deref(), since, TOURNAMENTS_LISTED)
            .await?;
        Ok(Answer::Tournaments { tournaments })
    }

    /// The standings of `t`, the leader first: every entrant, placed by points, then first
    /// places, then the points of those they met, then who joined first; equal in all three
    /// share a place.
    async fn standings(&self, t: &TournamentRow) -> Result<Vec<(Entrant, Standing)>, StoreError> {
        let entrants = self.store.entrants(&t.id).await?;
        let met = self.store.points_met(&t.id).await?;
        let mut lines: Vec<(Entrant, Standing)> = entrants
            .into_iter()
            .map(|e| {
                let line = Standing {
                    place: 0,
                    name: e.name.clone(),
                    points: e.points,
                    games: e.games,
                    firsts: e.firsts,
                    met: met.get(&e.player).copied().unwrap_or(0),
                    streak: e.streak,
                    left: e.left,
                };
                (e, line)
            })
            .collect();
        let key = |s: &Standing| std::cmp::Reverse((s.points, s.firsts, s.met));
        // Stable: equal lines in the order they joined.
        lines.sort_by_key(|(_, s)| key(s));
        let mut place = 0;
        for i in 0..lines.len() {
            if i == 0 || key(&lines[i - 1].1) != key(&lines[i].1) {
                place = i as u32 + 1;
            }
            lines[i].1.place = place;
        }
        Ok(lines)
    }

    /// `t` as `player` sees it.
    async fn view(&self, t: &TournamentRow, player: &PlayerId) -> Result<TournamentView, Refusal> {
        // Read again: the caller's row may be from before its own change.
        let t = self.store.tournament(&t.id).await?;
        let lines = self.standings(&t).await?;
        let you = lines
            .iter()
            .find(|(e, _)| e.player == *player)
            .map(|(_, s)| s.clone());
        let players = lines.iter().filter(|(e, _)| !e.left).count() as u32;
        let over = t.finished_ms.is_some();
        let winners = if over && lines.iter().any(|(_, s)| s.games > 0) {
            lines
                .iter()
                .filter(|(_, s)| s.place == 1)
                .map(|(_, s)| s.name.clone())
                .collect()
        } else {
            Vec::new()
        };
        let ends_ms = match (t.format, t.state()) {
            (_, TournamentState::Over) => None,
            (TournamentFormat::Swiss, _) => t.round_ends_ms,
            (TournamentFormat::Arena, _) => Some(t.arena_ends_ms()),
        };
        Ok(TournamentView {
            name: t.name.clone(),
            format: t.format,
            play: t.play,
            starts_ms: t.starts_ms,
            rounds: t.rounds,
            minutes: t.minutes,
            most: t.most,
            club: t.club.as_ref().map(|(_, name)| name.clone()),
            state: t.state(),
            round: t.round,
            ends_ms,
            players,
            standings: lines
                .into_iter()
                .take(STANDINGS_LISTED)
                .map(|(_, s)| s)
                .collect(),
            you,
            your_games: self.store.tournament_games_of(&t.id, player).await?,
            winners,
        })
    }

    /// Every [`TOURNAMENTS_EVERY`]: the tournaments kept.
    pub(super) async fn keeper(tournaments: std::sync::Weak<Tournaments>) {
        let mut tick = tokio::time::interval(TOURNAMENTS_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(tournaments) = tournaments.upgrade() else {
                return;
            };
            if tournaments.core.is_closing() {
                return;
            }
            tournaments.keep().await;
        }
    }

    /// One round of the keeper's work: scores, then each running tournament's due step, then
    /// the news of changed standings.
    pub(super) async fn keep(&self) {
        if let Err(e) = self.score_ended().await {
            note!(self.log, WARN, "tournament games not scored", why = e);
        }
        let now = self.store.now();
        match self.store.running_tournaments(now).await {
            Ok(running) => {
                for t in running {
                    if let Err(e) = self.step(&t, now).await {
                        note!(
                            self.log,
                            WARN,
                            "tournament not kept",
                            tournament = t.id,
                            why = e
                        );
                    }
                }
            }
            Err(e) => note!(self.log, WARN, "tournaments not read", why = e),
        }
        if let Err(e) = self.tell_changed().await {
            note!(self.log, WARN, "standings not told", why = e);
        }
    }

    /// Scores the tournaments' games that ended (on any server), each once.
    async fn score_ended(&self) -> Result<(), StoreError> {
        let mut rows: HashMap<String, TournamentRow> = HashMap::new();
        for (id, game) in self.store.games_to_score(200).await? {
            if !rows.contains_key(&id) {
                rows.insert(id.clone(), self.store.tournament(&id).await?);
            }
            let t = &rows[&id];
            let stored = self.store.load_game(&game).await?;
            let results = scored(&stored);
            if self.store.score_game(t, &game, &results).await? {
                note!(
                    self.log,
                    INFO,
                    "tournament game scored",
                    tournament = t.id,
                    game = game.0,
                    people = results.len()
                );
            }
        }
        Ok(())
    }

    /// What tournament `t` needs at `now`.
    async fn step(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        match t.format {
            TournamentFormat::Swiss => self.step_swiss(t, now).await,
            TournamentFormat::Arena => self.step_arena(t, now).await,
        }
    }

    async fn step_swiss(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        if t.round > 0 {
            let games = self.store.round_games(&t.id, t.round).await?;
            if t.round_ends_ms.is_some_and(|end| now >= end) {
                for (game, _, finished) in &games {
                    if !finished {
                        self.cut(t, game).await?;
                    }
                }
            }
            if games.iter().any(|(_, scored, _)| !scored) {
                return Ok(());
            }
            if t.round >= t.rounds {
                return self.finish(t).await;
            }
        }
        self.begin_swiss_round(t, now).await
    }

    /// Begins the next round of Swiss `t`: everyone still in at tables by standing.
    async fn begin_swiss_round(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        let round = t.round + 1;
        let lines = self.standings(t).await?;
        let mut order: Vec<(PlayerId, String, i64)> = Vec::new();
        for (e, _) in lines.into_iter().filter(|(e, _)| !e.left) {
            // The first round by rating; later ones by the standings.
            let rating = if round == 1 {
                let family = RatingFamily::of(&t.play.pace.pace());
                rated::shown(self.core.rating_held(&e.player, family).await?).points
            } else {
                0
            };
            order.push((e.player, e.name, rating));
        }
        if round == 1 {
            order.sort_by_key(|(_, _, rating)| std::cmp::Reverse(*rating));
        }
        let mut met: HashMap<(PlayerId, PlayerId), u32> = HashMap::new();
        for (a, b) in self.store.meetings(&t.id).await? {
            *met.entry(pair(&a, &b)).or_default() += 1;
        }
        let names: HashMap<PlayerId, String> = order
            .iter()
            .map(|(p, name, _)| (p.clone(), name.clone()))
            .collect();
        let ids: Vec<PlayerId> = order.into_iter().map(|(p, ..)| p).collect();
        let tables = self.tables(t, swiss_tables(&ids, &met), &names)?;
        let ends = now + i64::from(round_days(t.play.pace)) * DAY_MS;
        let Some(made) = self
            .store
            .begin_round(t, round, Some(ends), &tables)
            .await?
        else {
            return Ok(());
        };
        note!(
            self.log,
            INFO,
            "tournament round begun",
            tournament = t.id,
            round = round,
            tables = made.len(),
            people = ids.len()
        );
        if round == 1 {
            self.next_of_series(t).await;
        }
        if ids.is_empty() {
            // Nobody came: over at once.
            return self.finish(t).await;
        }
        self.tell_seated(t, u32::from(round), &made, &tables);
        Ok(())
    }

    async fn step_arena(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        let ends = t.arena_ends_ms();
        if t.round == 0 {
            if self.store.begin_round(t, 1, None, &[]).await?.is_some() {
                note!(self.log, INFO, "arena begun", tournament = t.id);
                self.next_of_series(t).await;
            }
            return Ok(());
        }
        if now < ends {
            return self.seat_arena(t, now).await;
        }
        let unscored = self.store.tournament_unscored(&t.id).await?;
        if unscored.is_empty() {
            return self.finish(t).await;
        }
        if now >= ends + ARENA_CUT_AFTER_MS {
            for game in &unscored {
                self.cut(t, game).await?;
            }
        }
        Ok(())
    }

    /// Seats the people of arena `t` waiting for a table and connected, as many tables as can
    /// start now.
    async fn seat_arena(&self, t: &TournamentRow, now: i64) -> Result<(), StoreError> {
        let entrants = self.store.entrants(&t.id).await?;
        let mut names = HashMap::new();
        let waiting: Vec<Waiting<PlayerId>> = entrants
            .into_iter()
            .filter(|e| !e.left && e.game.is_none())
            .filter(|e| self.core.connected(&e.player, e.online_ms, now))
            .filter_map(|e| {
                let since_ms = e.free_ms?;
                names.insert(e.player.clone(), e.name);
                Some(Waiting {
                    player: e.player,
                    since_ms,
                    points: e.points,
                })
            })
            .collect();
        let groups = arena_tables(&waiting, now);
        if groups.is_empty() {
            return Ok(());
        }
        let tables = self.tables(t, groups, &names)?;
        let Some(made) = self.store.seat_arena(t, &tables).await? else {
            // Another server seated some of them meanwhile: looked at again next time.
            return Ok(());
        };
        let people: usize = tables.iter().map(|(_, p)| p.len()).sum();
        note!(
            self.log,
            INFO,
            "arena tables seated",
            tournament = t.id,
            tables = made.len(),
            people = people
        );
        self.tell_seated(t, 0, &made, &tables);
        Ok(())
    }

    /// The games for `groups` of `t` (each group's people in a drawn seat order, computers of
    /// its level in the other kingdoms).
    fn tables(
        &self,
        t: &TournamentRow,
        groups: Vec<Vec<PlayerId>>,
        names: &HashMap<PlayerId, String>,
    ) -> Result<Vec<TournamentTable>, StoreError> {
        let spec = TableSpec {
            preset: t.play.preset,
            pace: t.play.pace.pace(),
            people: 7,
            level: t.play.level,
            rated: t.play.rated,
            ratings: None,
            wait_minutes: 1,
            unfilled: WhenUnfilled::Computers,
        };
        let mut tables = Vec::with_capacity(groups.len());
        for mut group in groups {
            // Who moves first is drawn, not the leader every round.
            shuffle(&mut group)?;
            let seated: Vec<(PlayerId, String)> = group
                .iter()
                .map(|p| (p.clone(), names.get(p).cloned().unwrap_or_default()))
                .collect();
            tables.push((table_game(&spec, &seated), group));
        }
        Ok(tables)
    }

    /// Tells each person seated at `made` (the games of `tables`) where.
    fn tell_seated(
        &self,
        t: &TournamentRow,
        round: u32,
        made: &[crate::store::CreatedGame],
        tables: &[TournamentTable],
    ) {
        for (created, (_, people)) in made.iter().zip(tables) {
            for player in people {
                self.core.tell_player(
                    player,
                    Event::TournamentSeated {
                        tournament: t.name.clone(),
                        round,
                        game: created.id.clone(),
                    },
                );
            }
        }
    }

    /// Ends unfinished game `game` of `t` at its deadline, as by agreement; the servers holding
    /// it read it again.
    async fn cut(&self, t: &TournamentRow, game: &GameId) -> Result<(), StoreError> {
        if self.store.cut_game(game).await? {
            note!(
                self.log,
                INFO,
                "tournament game cut at its deadline",
                tournament = t.id,
                game = game.0
            );
            self.core.refresh(game).await;
            self.core.ended(game);
        }
        Ok(())
    }

    /// Marks `t` over, once.
    async fn finish(&self, t: &TournamentRow) -> Result<(), StoreError> {
        if self.store.finish_tournament(&t.id).await? {
            note!(self.log, INFO, "tournament over", tournament = t.id);
        }
        Ok(())
    }

    /// The next of the operator's series `t` (every `repeat_days`), made when `t` begins.
    async fn next_of_series(&self, t: &TournamentRow) {
        let Some(days) = t.repeat_days.filter(|&d| d > 0) else {
            return;
        };
        let mut spec = t.spec();
        spec.starts_ms = t.starts_ms + i64::from(days) * DAY_MS;
        spec.name = series_name(&t.name, spec.starts_ms);
        match self
            .store
            .create_tournament(&spec, None, None, Some(days))
            .await
        {
            Ok(next) => note!(
                self.log,
                INFO,
                "next of a series set",
                tournament = next.id,
                after = t.id,
                starts_ms = next.starts_ms
            ),
            // Another server made it.
            Err(StoreError::Refused(Refusal::TournamentNameTaken)) => {}
            Err(e) => note!(
                self.log,
                WARN,
                "next of a series not set",
                after = t.id,
                why = e
            ),
        }
    }

    /// Tells the players connected here of each tournament whose standings changed since this
    /// server last looked (at most once a keeper's round).
    async fn tell_changed(&self) -> Result<(), StoreError> {
        let since = *self.told_at.lock().unwrap_or_else(|e| e.into_inner());
        let changed = self.store.tournaments_changed(since).await?;
        let Some(latest) = changed.iter().map(|t| t.changed_ms).max() else {
            return Ok(());
        };
        for t in &changed {
            let lines = self.standings(t).await?;
            let leaders: Vec<Standing> = lines
                .iter()
                .take(STANDINGS_TOLD)
                .map(|(_, s)| s.clone())
                .collect();
            let mut told = HashSet::new();
            for (e, line) in &lines {
                if !told.insert(e.player.clone()) {
                    continue;
                }
                self.core.tell_here(
                    &e.player,
                    Event::Standings(StandingsNews {
                        tournament: t.name.clone(),
                        state: t.state(),
                        round: t.round,
                        leaders: leaders.clone(),
                        you: Some(line.clone()),
                    }),
                );
            }
        }
        *self.told_at.lock().unwrap_or_else(|e| e.into_inner()) = latest;
        Ok(())
    }
}

/// The name of a series' tournament starting at `starts_ms`: its first's name without an
/// earlier date, and the new date (UTC), within the longest name.
fn series_name(name: &str, starts_ms: i64) -> String {
    let base = match name.rsplit_once(' ') {
        Some((base, date)) if date.len() == 10 && date.as_bytes()[4] == b'-' => base,
        _ => name,
    };
    let (y, m, d) = qiguo_protocol::calendar::civil(qiguo_protocol::calendar::day_of(starts_ms));
    let date = format!(" {y:04}-{m:02}-{d:02}");
    let room = qiguo_protocol::tournaments::MAX_TOURNAMENT_NAME_CHARS - date.chars().count();
    let base: String = base.chars().take(room).collect();
    format!("{}{date}", base.trim_end())
}

/// The results of finished game `stored` for its people: each one's place and points by place
/// (a leaver placed where they left), and whether it is good for an arena's streak.
fn scored(stored: &StoredGame) -> Vec<Scored> {
    let sides = rated::sides(stored);
    let places: Vec<(u8, u8)> = sides.iter().map(|s| (s.seat, s.place)).collect();
    let points = place_points(&places);
    let seating = stored.game.start_position().seats();
    let mut turns = [0u32; 8];
    for report in stored.game.reports() {
        if let Some(seat) = seating.player(report.mover)
            && let Some(n) = turns.get_mut(usize::from(seat))
        {
            *n += 1;
        }
    }
    sides
        .iter()
        .zip(points)
        .filter_map(|(side, points)| {
            let Who::Person(player) = &side.who else {
                return None;
            };
            let seat_turns = turns.get(usize::from(side.seat)).copied().unwrap_or(0);
            let own = (f64::from(seat_turns) * side.weight).round() as u32;
            Some(Scored {
                player: player.clone(),
                place: side.place,
                points,
                good: points >= GOOD_GAME_HALVES && own >= STREAK_MOVES,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_is_named_by_its_date() {
        // 2026-12-07 18:00 UTC.
        let at = 1_796_666_400_000;
        assert_eq!(series_name("Weekly Arena", at), "Weekly Arena 2026-12-07");
        assert_eq!(
            series_name("Weekly Arena 2026-11-30", at),
            "Weekly Arena 2026-12-07"
        );
        let long = "x".repeat(40);
        let named = series_name(&long, at);
        assert_eq!(named.chars().count(), 40);
        assert!(named.ends_with(" 2026-12-07"));
    }
}

#[cfg(test)]
mod slice_tests {
    use super::*;
    use crate::hub::testing::Bench;
    use qiguo_protocol::QuickPace;
    use qiguo_protocol::clubs::ClubSpec;
    use qiguo_protocol::tournaments::TournamentPlay;

    /// A club's Swiss on a bench: set by its owner (not by a member, nor as a public one), seen
    /// and joined by members only, left before it starts (no longer entered), then, begun by
    /// the keeper with one person, a table of them and six computers.
    #[tokio::test]
    async fn a_clubs_swiss_is_set_joined_left_and_begun() {
        let bench = Bench::new("tournaments").await;
        let slice = Tournaments::new(bench.core.clone(), bench.store.clone(), bench.log.clone());
        let (ann, bo, cy) = (
            bench.player("Ann").await,
            bench.player("Bo").await,
            bench.player("Cy").await,
        );
        let club = bench
            .store
            .create_club(
                &ann,
                &ClubSpec {
                    name: "Jade Hall".into(),
                    description: String::new(),
                    open: true,
                },
            )
            .await
            .unwrap();
        bench
            .store
            .join_club(&club.id, &bo, ClubRole::Member)
            .await
            .unwrap();
        let spec = TournamentSpec {
            name: "Jade Swiss".into(),
            format: TournamentFormat::Swiss,
            play: TournamentPlay {
                preset: qiguo_rules::Preset::Classic,
                pace: QuickPace::Daily,
                level: qiguo_rules::Level::Easy,
                rated: false,
            },
            starts_ms: bench.store.now() + 1_000,
            rounds: 2,
            minutes: 0,
            most: 10,
            club: Some("Jade Hall".into()),
        };
        let public = TournamentSpec {
            club: None,
            ..spec.clone()
        };
        assert_eq!(
            slice.create(&ann, &public).await,
            Err(Refusal::TournamentByOperator)
        );
        assert_eq!(
            slice.create(&bo, &spec).await,
            Err(Refusal::NotClubOrganiser {
                name: "Jade Hall".into()
            })
        );
        assert!(matches!(
            slice.create(&ann, &spec).await,
            Ok(Answer::Tournament(_))
        ));
        assert_eq!(
            slice.join(&cy, "jade swiss").await,
            Err(Refusal::NoSuchTournament),
            "not a member: none of theirs"
        );
        let Ok(Answer::Tournament(joined)) = slice.join(&bo, "Jade Swiss").await else {
            panic!("not joined");
        };
        assert_eq!(joined.players, 1);
        let Ok(Answer::Tournament(left)) = slice.leave(&bo, "Jade Swiss").await else {
            panic!("not left");
        };
        assert_eq!((left.players, left.you), (0, None), "no longer entered");
        assert_eq!(
            slice.leave(&bo, "Jade Swiss").await,
            Err(Refusal::NotInTournament)
        );
        slice.join(&ann, "Jade Swiss").await.unwrap();
        // Not yet: nothing begins.
        slice.keep().await;
        let t = bench.store.tournament_named("Jade Swiss").await.unwrap();
        assert_eq!(t.round, 0);
        // Its time: round 1, Ann among six computers.
        tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
        slice.keep().await;
        let t = bench.store.tournament_named("Jade Swiss").await.unwrap();
        assert_eq!(t.round, 1);
        let games = bench.store.round_games(&t.id, 1).await.unwrap();
        assert_eq!(games.len(), 1);
        let stored = bench.store.load_game(&games[0].0).await.unwrap();
        let people = stored.seats.iter().filter(|s| s.holder.is_some()).count();
        assert_eq!(people, 1);
    }
}
