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
}

mod keeper;

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
