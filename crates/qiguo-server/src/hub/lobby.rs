//! The lobby: one view of the open tables, the quick games to watch and the counts of people
//! online, playing and waiting at each pace, kept in a watch channel that every client following
//! the lobby reads (a change is sent to each once, the latest only: a slow reader never holds up
//! the others, nor a move). It is recounted from the database at most every
//! [`LOBBY_EVERY`] after something changed here, and every [`LOBBY_AT_LEAST`] in any case (the
//! other servers on the database change it too). The same keeper starts or closes the tables
//! whose time to fill ran out.
//!
//! Public tables: a person creates one ([`TableSpec`]) and sits at it; others sit down from the
//! lobby; the one who fills it starts its game, everyone seated in the order they sat down
//! (kingdoms in turn order) and computers of the table's level in the other seats. A table whose
//! time runs out starts with computers in its empty seats, or closes, as its creator chose.

use std::sync::Arc;
use std::time::Duration;

use qiguo_protocol::RatingFamily;
use qiguo_protocol::clubs::clean_club_name;
use qiguo_protocol::lobby::{
    LOBBY_LISTED, LobbyView, PaceCount, TableId, TablePerson, TableSpec, TableView, WatchView,
    WhenUnfilled,
};
use qiguo_rules::{Game, PlayerInfo, Position, Record, Rules};
use tokio::sync::watch;

use super::core::Core;
use super::shown_name;
use crate::log::{Log, note};
use crate::protocol::{Event, NewGame, Refusal};
use crate::rated;
use crate::store::{PlayerId, SeatPlan, Store, StoreError, StoredTable};

/// The shortest time between two recounts after a change.
pub const LOBBY_EVERY: Duration = Duration::from_secs(1);

/// The longest time between two recounts.
pub const LOBBY_AT_LEAST: Duration = Duration::from_secs(10);

/// How long a server's count of people connected counts without being noted again.
const ONLINE_FRESH_MS: i64 = 30_000;

/// The lobby and tables slice: the lobby's view, sent to the clients following it.
pub(crate) struct Lobby {
    /// Its people's channels, the flag of changes made here, and rooms for new games.
    core: Arc<Core>,
    store: Store,
    log: Log,
    view: watch::Sender<LobbyView>,
    /// Held while the lobby is counted: one count at a time, so that the view sent last is
    /// always the one counted last (two counts at once could finish in the other order, and an
    /// older count would replace a newer one).
    counting: tokio::sync::Mutex<()>,
}

/// A new game for table `spec` and the people `seated` at it (in the order they sat down): the
/// table's rules and pace, seven kingdoms, the people in the first seats (turn order), computers
/// of the table's level in the others.
pub(super) fn table_game(spec: &TableSpec, seated: &[(PlayerId, String)]) -> NewGame {
    let start = Game::new(Position::start(Rules::preset(spec.preset)));
    let mut players = PlayerInfo::defaults(7);
    let mut plans = Vec::with_capacity(7);
    for (i, player) in players.iter_mut().enumerate() {
        match seated.get(i) {
            Some((_, name)) => {
                player.name = shown_name(name);
                plans.push(SeatPlan::Open);
            }
            None => {
                player.computer = Some(spec.level);
                plans.push(SeatPlan::Computer(spec.level));
            }
        }
    }
    NewGame {
        start: Record::from_game(&start, players),
        seats: plans,
        pace: spec.pace,
    }
}

/// A table as the lobby (or its club's view) shows it.
pub(super) fn table_view(table: StoredTable) -> TableView {
    TableView {
        id: table.id,
        spec: table.spec,
        host: shown_name(&table.host),
        seated: table
            .seated
            .into_iter()
            .map(|(_, name, rating)| TablePerson {
                name: shown_name(&name),
                rating: rated::shown(rating),
            })
            .collect(),
        fill_by_ms: table.fill_by_ms,
        game: table.game,
        club: table.club,
    }
}

impl Lobby {
    /// The lobby counted from `store`, its tables' people told through `core`.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log) -> Lobby {
        Lobby {
            core,
            store,
            log,
            view: watch::Sender::new(LobbyView::default()),
            counting: tokio::sync::Mutex::new(()),
        }
    }

    /// The lobby as it stands, and (with `follow`) its changes from now on.
    pub(crate) fn follow(&self) -> (LobbyView, watch::Receiver<LobbyView>) {
        let mut receiver = self.view.subscribe();
        let view = receiver.borrow_and_update().clone();
        (view, receiver)
    }

    /// Every [`LOBBY_EVERY`]: the tables whose time ran out started or closed, and the lobby
    /// recounted if something changed (here, or [`LOBBY_AT_LEAST`] ago, elsewhere).
    pub(super) async fn keeper(lobby: std::sync::Weak<Lobby>) {
        let mut tick = tokio::time::interval(LOBBY_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut counted = tokio::time::Instant::now();
        let mut online_before = None;
        loop {
            tick.tick().await;
            let Some(lobby) = lobby.upgrade() else {
                return;
            };
            if lobby.core.is_closing() {
                return;
            }
            lobby.tables_due().await;
            let online = lobby.core.players.online().len();
            let due = lobby.core.lobby_touched()
                || online_before != Some(online)
                || counted.elapsed() >= LOBBY_AT_LEAST;
            if !due {
                continue;
            }
            online_before = Some(online);
            counted = tokio::time::Instant::now();
            lobby.recount().await;
        }
    }

    /// Counts the lobby now and sends it to its followers if it changed. The tables' own
    /// changes are shown at once this way (whoever acts on a table sees the lobby with it);
    /// the rest waits for the keeper.
    async fn recount(&self) {
        let _counting = self.counting.lock().await;
        match self.count_lobby().await {
            Ok(view) => {
                self.view.send_if_modified(|shown| {
                    let changed = *shown != view;
                    *shown = view;
                    changed
                });
            }
            Err(e) => note!(self.log, WARN, "lobby not counted", why = e),
        }
    }

    /// The lobby, counted from the database. The people connected here are counted last: whoever
    /// made a change the tables show had connected before it, so a view never shows a table
    /// without counting the person who made it.
    async fn count_lobby(&self) -> Result<LobbyView, StoreError> {
        let tables: Vec<TableView> = self
            .store
            .open_tables(LOBBY_LISTED as u32)
            .await?
            .into_iter()
            .map(table_view)
            .collect();
        let paces = self
            .store
            .quick_counts()
            .await?
            .into_iter()
            .map(|(pace, playing, alone)| PaceCount {
                pace,
                playing,
                waiting: alone
                    + tables
                        .iter()
                        .filter(|t| t.spec.pace == pace.pace())
                        .map(|t| t.seated.len() as u32)
                        .sum::<u32>(),
            })
            .collect();
        let games = self
            .store
            .watchable_games(LOBBY_LISTED as u32)
            .await?
            .into_iter()
            .map(|g| WatchView {
                game: g.id,
                code: g.code,
                pace: g.pace,
                people: g.people.iter().map(|n| shown_name(n)).collect(),
                moves: g.moves,
            })
            .collect();
        let here = self.core.players.online().len() as u32;
        let online = self.store.count_online(here, ONLINE_FRESH_MS).await?;
        Ok(LobbyView {
            online,
            paces,
            tables,
            games,
        })
    }

    /// `player` creates a table and sits at it: a public one, or the own table of the club
    /// called `club` (of which they are a member).
    pub(crate) async fn create_table(
        &self,
        player: &PlayerId,
        spec: &TableSpec,
        club: Option<&str>,
    ) -> Result<TableView, Refusal> {
        spec.check()?;
        let club = match club {
            Some(name) => Some(self.member_of(player, name).await?),
            None => None,
        };
        self.check_rating_for(player, spec).await?;
        self.core.room_for_a_game(player).await?;
        let fill_by = self
            .store
            .now()
            .saturating_add(i64::from(spec.wait_minutes) * 60_000);
        let id = self
            .store
            .create_table(player, spec, fill_by, club.as_deref())
            .await?;
        note!(
            self.log,
            INFO,
            "table created",
            table = id.0,
            by = player.0,
            people = spec.people,
            rated = spec.rated,
            club = club.as_deref().unwrap_or("")
        );
        self.recount().await;
        Ok(table_view(self.store.table(&id).await?))
    }

    /// `player` sits at table `id`; the one who fills it starts its game.
    pub(crate) async fn join_table(
        &self,
        player: &PlayerId,
        id: &TableId,
    ) -> Result<TableView, Refusal> {
        let table = self.store.table(id).await?;
        if table.game.is_some() {
            return Err(Refusal::NoTable);
        }
        if let Some(club) = &table.club {
            self.member_of(player, club).await?;
        }
        self.check_rating_for(player, &table.spec).await?;
        let apart = self.store.kept_apart(player).await?;
        if table.seated.iter().any(|(p, ..)| apart.contains(p)) {
            return Err(Refusal::TableBlocked);
        }
        if table.seated.iter().all(|(p, ..)| p != player) {
            self.core.room_for_a_game(player).await?;
        }
        let table = self.store.join_table(id, player).await?;
        note!(self.log, INFO, "table joined", table = id.0, by = player.0);
        if table.seated.len() >= usize::from(table.spec.people) {
            self.start_table(id).await?;
            return Ok(table_view(self.store.table(id).await?));
        }
        self.recount().await;
        Ok(table_view(table))
    }

    /// `player` gets up from table `id`.
    pub(crate) async fn leave_table(&self, player: &PlayerId, id: &TableId) -> Result<(), Refusal> {
        let closed = self.store.leave_table(id, player).await?;
        note!(
            self.log,
            INFO,
            "table left",
            table = id.0,
            by = player.0,
            closed = closed
        );
        self.recount().await;
        Ok(())
    }

    /// The id of the club called `name`, of which `player` must be a member.
    async fn member_of(&self, player: &PlayerId, name: &str) -> Result<String, Refusal> {
        let name = clean_club_name(name)?;
        let club = self.store.club_named(&name).await?;
        match self.store.club_role(&club.id, player).await? {
            Some(role) if role.belongs() => Ok(club.id),
            _ => Err(Refusal::NotInClub { name: club.name }),
        }
    }

    /// Refused when `player`'s rating in the family of `spec`'s pace is outside its range.
    async fn check_rating_for(&self, player: &PlayerId, spec: &TableSpec) -> Result<(), Refusal> {
        let Some(range) = spec.ratings else {
            return Ok(());
        };
        let family = RatingFamily::of(&spec.pace);
        let rating = rated::shown(self.core.rating_held(player, family).await?).points;
        if spec.takes(rating) {
            Ok(())
        } else {
            Err(Refusal::OutsideRatingRange {
                min: range.min,
                max: range.max,
                rating,
            })
        }
    }

    /// Starts table `id`'s game (once, on any server) and tells everyone seated.
    async fn start_table(&self, id: &TableId) -> Result<(), Refusal> {
        let Some((created, seated)) = self.store.start_table(id, table_game).await? else {
            return Ok(());
        };
        note!(
            self.log,
            INFO,
            "table started",
            table = id.0,
            game = created.id.0,
            people = seated.len()
        );
        for player in &seated {
            self.core.tell_player(
                player,
                Event::TableStarted {
                    table: id.clone(),
                    game: created.id.clone(),
                },
            );
        }
        self.recount().await;
        Ok(())
    }

    /// The tables whose time to fill ran out: started with computers, or closed, as set.
    async fn tables_due(&self) {
        let due = match self.store.tables_due(self.store.now(), 20).await {
            Ok(due) => due,
            Err(e) => {
                note!(self.log, WARN, "tables due not read", why = e);
                return;
            }
        };
        for id in due {
            let unfilled = match self.store.table(&id).await {
                Ok(table) => table.spec.unfilled,
                Err(_) => continue,
            };
            let done = match unfilled {
                WhenUnfilled::Computers => self.start_table(&id).await,
                WhenUnfilled::Close => self.close_table(&id).await,
            };
            if let Err(e) = done {
                note!(self.log, WARN, "table due not done", table = id.0, why = e);
            }
        }
    }

    /// Closes table `id` unfilled and tells the people who sat at it.
    async fn close_table(&self, id: &TableId) -> Result<(), Refusal> {
        let seated = self.store.close_table(id).await?;
        note!(self.log, INFO, "table closed unfilled", table = id.0);
        for player in &seated {
            self.core
                .tell_player(player, Event::TableClosed { table: id.clone() });
        }
        self.recount().await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_protocol::Pace;
    use qiguo_rules::{Level, Preset};

    #[test]
    fn a_tables_game_seats_its_people_first_and_computers_after() {
        let spec = TableSpec {
            preset: Preset::Wikipedia,
            pace: Pace::Live { wait_seconds: 60 },
            people: 4,
            level: Level::Hard,
            rated: true,
            ratings: None,
            wait_minutes: 10,
            unfilled: WhenUnfilled::Computers,
        };
        let seated = [
            (PlayerId("a".into()), "Ann".to_owned()),
            (PlayerId("b".into()), "Bo".to_owned()),
            (PlayerId("c".into()), "Cy".to_owned()),
        ];
        let game = table_game(&spec, &seated);
        assert_eq!(game.check(), Ok(()));
        assert_eq!(game.pace, spec.pace);
        assert_eq!(&game.seats[..3], &[SeatPlan::Open; 3]);
        assert!(game.seats[3..] == [SeatPlan::Computer(Level::Hard); 4]);
        let names: Vec<&str> = game.start.players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(&names[..3], &["Ann", "Bo", "Cy"]);
        assert_eq!(game.start.players[5].computer, Some(Level::Hard));
        let rules = *game.start.replay().unwrap().position().rules();
        assert_eq!(rules, Rules::preset(Preset::Wikipedia));
    }

    #[tokio::test]
    async fn a_table_is_shown_in_the_lobby_and_filled_it_starts() {
        let bench = crate::hub::testing::Bench::new("lobby-slice").await;
        let lobby = Lobby::new(bench.core.clone(), bench.store.clone(), bench.log.clone());
        let ann = bench.player("Ann").await;
        let bob = bench.player("Bob").await;
        let mut ann_hears = bench.core.personal(&ann);
        let (empty, mut changes) = lobby.follow();
        assert!(empty.tables.is_empty());
        let spec = TableSpec {
            preset: Preset::Classic,
            pace: Pace::Live { wait_seconds: 60 },
            people: 2,
            level: Level::Easy,
            rated: false,
            ratings: None,
            wait_minutes: 10,
            unfilled: WhenUnfilled::Close,
        };
        let table = lobby.create_table(&ann, &spec, None).await.unwrap();
        assert_eq!(table.seated.len(), 1);
        assert!(
            changes.has_changed().unwrap(),
            "the lobby's followers are told"
        );
        assert_eq!(changes.borrow_and_update().tables, vec![table.clone()]);
        assert!(
            lobby.join_table(&ann, &table.id).await.is_ok(),
            "sitting down again changes nothing"
        );
        let started = lobby.join_table(&bob, &table.id).await.unwrap();
        let game = started
            .game
            .clone()
            .expect("the one who fills it starts it");
        assert_eq!(
            crate::hub::testing::Bench::next(&mut ann_hears).await,
            Event::TableStarted {
                table: table.id.clone(),
                game,
            }
        );
        assert!(
            lobby.follow().0.tables.is_empty(),
            "a table started is open no more"
        );
        assert_eq!(
            lobby.leave_table(&bob, &table.id).await,
            Err(Refusal::NoTable)
        );
    }
}
