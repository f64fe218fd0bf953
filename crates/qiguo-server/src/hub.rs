//! The games a server holds while it runs: each unfinished game replayed in memory beside the
//! database, the clients following it, the computers and stand-ins that move for seats, and the
//! clock that makes overdue moves. Every change goes to the database first ([`Store`]) and is
//! told to the followers once committed; with PostgreSQL, changes made by other servers on the
//! same database arrive as notices ([`CHANGES_CHANNEL`]) and are read back from it.
//!
//! A move is checked against the rules engine before it is stored; the stored count of moves
//! decides between two servers wanting the same turn (the second is refused, and reads the
//! game again).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use qiguo_ai::{Engine, Level, LevelSearch, Limits};
use qiguo_rules::{Kingdom, Move, Position, notation};
use tokio::sync::{Semaphore, broadcast, watch};

use crate::log::Log;
use crate::protocol::{
    Answer, Event, GameSummary, GameView, Identity, MAX_MOVE_BYTES, MAX_NAME_CHARS, NewGame,
    SeatView, TakeBackView,
};
use crate::store::{
    CHANGES_CHANNEL, GameId, GameSpec, MadeBy, Pace, PlayerId, SeatPlan, Store, StoreError,
    StoredGame, WhenOverdue,
};

/// How long after a player was last seen with a game open they count as absent (servers note
/// the players they serve every [`SEEN_EVERY`]).
pub const PRESENT_FOR: Duration = Duration::from_secs(30);

/// How often a server notes in the database which players have their games open.
pub const SEEN_EVERY: Duration = Duration::from_secs(10);

/// The level a stand-in plays at.
pub const STAND_IN_LEVEL: Level = Level::Medium;

/// Milliseconds in a day.
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// How many events a follower may fall behind before it is told to read the game afresh.
const EVENTS_KEPT: usize = 256;

/// A request refused: why, in English. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

impl Refusal {
    fn new(why: impl Into<String>) -> Refusal {
        Refusal(why.into())
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        match e {
            StoreError::Database(_) | StoreError::Migrate(_) | StoreError::Damaged(..) => {
                Refusal::new(format!("the server could not do it ({e}); try again"))
            }
            other => Refusal(other.to_string()),
        }
    }
}

/// A game held in memory.
struct Live {
    stored: StoredGame,
    events: broadcast::Sender<Event>,
    /// A computer or stand-in is thinking about the current turn.
    thinking: bool,
    take_back: Option<TakeBackView>,
}

type Shared = Arc<tokio::sync::Mutex<Live>>;

/// Who makes a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mover<'a> {
    /// A player, through a client.
    Player(&'a PlayerId),
    /// The server's computer for a computer's seat.
    Computer,
    /// The server's stand-in for an absent player.
    StandIn,
    /// Nobody: the move is overdue and the kingdom passes.
    Overdue,
}

/// The server's games and the clients following them.
pub struct Hub {
    store: Store,
    games: Mutex<HashMap<GameId, Shared>>,
    /// Each signed-in player's own events, for all their connections.
    players: Mutex<HashMap<PlayerId, broadcast::Sender<Event>>>,
    /// How many connections of each player follow each game on this server.
    present: Mutex<HashMap<(GameId, PlayerId), usize>>,
    /// Searches running at once (one per core).
    searches: Semaphore,
    /// Whether the server is shutting down; every change to the database holds it for reading
    /// while it commits, so closing it waits for those under way and lets no new one begin.
    gate: tokio::sync::RwLock<bool>,
    /// Told when the server shuts down: sessions then close their connections.
    closing: watch::Sender<bool>,
    log: Log,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn player_of(pos: &Position) -> u8 {
    pos.player_of(pos.to_move())
}

impl Hub {
    /// A hub on `store`: loads every unfinished game, starts the clock (and, on PostgreSQL, the
    /// listener for other servers' changes). Must be called within a Tokio runtime.
    pub async fn start(store: Store, log: Log) -> Result<Arc<Hub>, StoreError> {
        let hub = Arc::new(Hub {
            store,
            games: Mutex::new(HashMap::new()),
            players: Mutex::new(HashMap::new()),
            present: Mutex::new(HashMap::new()),
            searches: Semaphore::new(qiguo_ai::available_threads()),
            gate: tokio::sync::RwLock::new(false),
            closing: watch::Sender::new(false),
            log,
        });
        let unfinished = hub.store.unfinished_games().await?;
        for id in &unfinished {
            match hub.store.load_game(id).await {
                Ok(stored) => {
                    hub.insert(stored);
                }
                Err(e) => hub.log.error(&format!("game {} not loaded: {e}", id.0)),
            }
        }
        hub.log.info(&format!("{} unfinished games loaded", unfinished.len()));
        tokio::spawn(Hub::clock(Arc::downgrade(&hub)));
        if hub.store.is_postgres() {
            tokio::spawn(Hub::listen(Arc::downgrade(&hub)));
        }
        Ok(hub)
    }

    /// Leave to change the database, held while the change commits; `None` once the server
    /// shuts down.
    pub async fn hold(&self) -> Option<tokio::sync::RwLockReadGuard<'_, bool>> {
        let open = self.gate.read().await;
        (!*open).then_some(open)
    }

    /// Shuts the hub: waits for the changes being committed, lets no new one begin, tells the
    /// sessions to close their connections, and closes the database.
    pub async fn close(&self) {
        *self.gate.write().await = true;
        self.closing.send_replace(true);
        self.log.info("no more changes taken; connections told to close");
    }

    /// Closes the database once nothing uses it any more.
    pub async fn close_store(&self) {
        self.store.close().await;
    }

    /// Changes to `true` when the server shuts down.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// The server's log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    fn insert(&self, stored: StoredGame) -> Shared {
        let id = stored.id.clone();
        let live = Arc::new(tokio::sync::Mutex::new(Live {
            stored,
            events: broadcast::channel(EVENTS_KEPT).0,
            thinking: false,
            take_back: None,
        }));
        lock(&self.games).entry(id).or_insert(live).clone()
    }

    /// A game asked for by id: one the asker holds a seat in, as the caller checks; any other
    /// id gets the same answer, so that ids cannot be probed.
    async fn game_of_yours(&self, id: &GameId) -> Result<Shared, Refusal> {
        self.live(id)
            .await
            .map_err(|_| Refusal::new("no such game of yours"))
    }

    async fn live(&self, id: &GameId) -> Result<Shared, Refusal> {
        if let Some(live) = lock(&self.games).get(id) {
            return Ok(live.clone());
        }
        let stored = self.store.load_game(id).await?;
        Ok(self.insert(stored))
    }

    // ----- Players -----

    /// Signs a client in (or makes a new player): their id, name and, when new, key.
    pub async fn sign_in(
        &self,
        identity: &Identity,
    ) -> Result<(PlayerId, String, Option<String>), Refusal> {
        match identity {
            Identity::Player { id, key } => match self.store.sign_in(id, key).await {
                Ok(name) => Ok((id.clone(), name, None)),
                Err(StoreError::WrongKey) => Err(Refusal::new("unknown player or wrong key")),
                Err(e) => Err(e.into()),
            },
            Identity::New { name } => {
                let name = clean_name(name)?;
                let new = self.store.add_player(&name).await?;
                self.log.info(&format!("new player {} ({name})", new.id.0));
                Ok((new.id, name, Some(new.key)))
            }
        }
    }

    /// The events for `player` themself (another game waiting for them).
    pub fn personal(&self, player: &PlayerId) -> broadcast::Receiver<Event> {
        lock(&self.players)
            .entry(player.clone())
            .or_insert_with(|| broadcast::channel(EVENTS_KEPT).0)
            .subscribe()
    }

    fn tell_player(&self, player: &PlayerId, event: Event) {
        if let Some(tx) = lock(&self.players).get(player) {
            let _ = tx.send(event);
        }
    }

    /// Notes that one more (`true`) or one fewer connection of `player` follows `game`. When
    /// that makes the player come (their first connection) or go (their last), the game's
    /// followers are told, once the game is free (a caller may hold it).
    pub fn follow(self: &Arc<Self>, game: &GameId, player: &PlayerId, on: bool) {
        let changed = {
            let mut present = lock(&self.present);
            let key = (game.clone(), player.clone());
            let count = present.entry(key.clone()).or_insert(0);
            if on {
                *count += 1;
                *count == 1
            } else {
                let was = *count;
                *count = count.saturating_sub(1);
                if *count == 0 {
                    present.remove(&key);
                }
                was == 1
            }
        };
        if changed {
            let (hub, game, player) = (self.clone(), game.clone(), player.clone());
            tokio::spawn(async move { hub.tell_presence(&game, &player).await });
        }
    }

    /// Tells the followers of `game` whether `player` has it open here now, for each of their
    /// seats (as it is when told: a quick close and open tells twice the same).
    async fn tell_presence(&self, game: &GameId, player: &PlayerId) {
        let live = lock(&self.games).get(game).cloned();
        let Some(live) = live else {
            return;
        };
        let g = live.lock().await;
        let present = self.here(game, player);
        for seat in seats_of(&g.stored, player) {
            let _ = g.events.send(Event::Presence {
                game: game.clone(),
                seat,
                present,
            });
        }
    }

    fn here(&self, game: &GameId, player: &PlayerId) -> bool {
        lock(&self.present).contains_key(&(game.clone(), player.clone()))
    }

    // ----- Games -----

    /// Creates a game by `player`.
    pub async fn create(
        self: &Arc<Self>,
        player: &PlayerId,
        new: NewGame,
    ) -> Result<Answer, Refusal> {
        if let Pace::Correspondence { days, .. } = new.pace
            && !(1..=14).contains(&days)
        {
            return Err(Refusal::new(
                "a correspondence game has 1 to 14 days per move",
            ));
        }
        let spec = GameSpec {
            start: new.start,
            seats: new.seats,
            pace: new.pace,
        };
        let created = self.store.create_game(player, &spec).await?;
        let stored = self.store.load_game(&created.id).await?;
        self.insert(stored);
        self.log.info(&format!("game {} created by {}", created.id.0, player.0));
        self.wake(&created.id);
        Ok(Answer::Created {
            game: created.id,
            code: created.code,
        })
    }

    /// Takes the seat of `kingdom` in the game of `code` for `player` (or opens it, if theirs).
    pub async fn join(
        self: &Arc<Self>,
        player: &PlayerId,
        code: &str,
        kingdom: Kingdom,
    ) -> Result<(GameView, broadcast::Receiver<Event>), Refusal> {
        let id = self.by_code(code).await?;
        let live = self.live(&id).await?;
        let mut g = live.lock().await;
        let seat = g
            .stored
            .record
            .seats
            .player(kingdom)
            .ok_or_else(|| Refusal::new(format!("{kingdom} has no player in this game")))?;
        let holder = g
            .stored
            .seats
            .get(usize::from(seat))
            .and_then(|s| s.holder.clone());
        if holder.as_ref() != Some(player) {
            if g.stored.finished {
                return Err(Refusal::new("the game is over: its invitation has expired"));
            }
            if holder.is_some() || g.stored.seats[usize::from(seat)].plan != SeatPlan::Open {
                return Err(Refusal::new(format!("the seat of {kingdom} is not open")));
            }
            self.store.take_seat(&id, seat, player).await?;
            let name = self.store.player_name(player).await?;
            let s = &mut g.stored.seats[usize::from(seat)];
            s.holder = Some(player.clone());
            s.name = Some(name.clone());
            let _ = g.events.send(Event::Seated {
                game: id.clone(),
                seat,
                name: name.clone(),
            });
            self.log.info(&format!(
                "game {}: seat {seat} taken by {} ({name})",
                id.0, player.0
            ));
        }
        self.follow(&id, player, true);
        let view = self.view(&g, Some(player));
        let rx = g.events.subscribe();
        drop(g);
        self.wake(&id);
        Ok((view, rx))
    }

    /// Opens a game in which `player` holds a seat.
    pub async fn open(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
    ) -> Result<(GameView, broadcast::Receiver<Event>), Refusal> {
        let live = self.game_of_yours(id).await?;
        let g = live.lock().await;
        if seats_of(&g.stored, player).is_empty() {
            return Err(Refusal::new("no such game of yours"));
        }
        self.follow(id, player, true);
        let view = self.view(&g, Some(player));
        Ok((view, g.events.subscribe()))
    }

    /// Follows the game of `code` read-only.
    pub async fn watch(
        &self,
        code: &str,
    ) -> Result<(GameView, broadcast::Receiver<Event>), Refusal> {
        let id = self.by_code(code).await?;
        let live = self.live(&id).await?;
        let g = live.lock().await;
        Ok((self.view(&g, None), g.events.subscribe()))
    }

    async fn by_code(&self, code: &str) -> Result<GameId, Refusal> {
        match self.store.game_by_code(code).await {
            Ok(id) => Ok(id),
            Err(StoreError::NoGame) => Err(Refusal::new("no game has this invitation code")),
            Err(e) => Err(e.into()),
        }
    }

    /// `player`'s games: those waiting for their move first, then by their last move.
    pub async fn games(&self, player: &PlayerId) -> Result<Vec<GameSummary>, Refusal> {
        let ids = self.store.games_of(player).await?;
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            let live = self.live(&id).await?;
            let g = live.lock().await;
            games.push(self.summary(&g, player));
        }
        games.sort_by_key(|g| (!g.your_turn, g.finished, -g.since_ms));
        Ok(games)
    }

    fn summary(&self, g: &Live, player: &PlayerId) -> GameSummary {
        let s = &g.stored;
        let pos = s.game.position();
        let yours = seats_of(s, player);
        let over = pos.is_over() || s.finished;
        GameSummary {
            id: s.id.clone(),
            players: s.seats.iter().map(seat_label).collect(),
            to_move: (!over).then(|| pos.to_move()),
            your_turn: !over && yours.contains(&player_of(pos)),
            moves: s.game.len() as u32,
            since_ms: s.moved_ms,
            deadline_ms: self.deadline(g),
            finished: over,
            yours,
        }
    }

    fn view(&self, g: &Live, player: Option<&PlayerId>) -> GameView {
        let s = &g.stored;
        GameView {
            id: s.id.clone(),
            code: s.code.clone(),
            record: s.record.clone(),
            stand_ins: s.stand_ins.clone(),
            seats: s
                .seats
                .iter()
                .enumerate()
                .map(|(i, seat)| SeatView {
                    plan: seat.plan,
                    name: seat.name.clone(),
                    yours: player.is_some() && seat.holder.as_ref() == player,
                    present: self.present(g, i as u8),
                })
                .collect(),
            pace: s.pace,
            since_ms: s.moved_ms,
            deadline_ms: self.deadline(g),
            finished: s.finished || s.game.position().is_over(),
            take_back: g.take_back.clone(),
        }
    }

    /// Whether the player of `seat` has the game open (here, or on another server lately).
    fn present(&self, g: &Live, seat: u8) -> bool {
        let Some(s) = g.stored.seats.get(usize::from(seat)) else {
            return false;
        };
        if let SeatPlan::Computer(_) = s.plan {
            return true;
        }
        let Some(holder) = &s.holder else {
            return false;
        };
        self.here(&g.stored.id, holder)
            || s.seen_ms
                .is_some_and(|seen| self.store.now() - seen < PRESENT_FOR.as_millis() as i64)
    }

    /// When a stand-in plays for the player to move if they do not: `None` when a computer is
    /// to move or the game is over.
    fn deadline(&self, g: &Live) -> Option<i64> {
        let s = &g.stored;
        let pos = s.game.position();
        if s.finished || pos.is_over() {
            return None;
        }
        let seat = player_of(pos);
        if let SeatPlan::Computer(_) = s.seats.get(usize::from(seat))?.plan {
            return None;
        }
        match s.pace {
            Pace::Correspondence { days, .. } => Some(s.moved_ms + i64::from(days) * DAY_MS),
            Pace::Live { wait_seconds } => {
                if self.present(g, seat) {
                    return None;
                }
                // A player who stayed away for their last turn too is stood in for at once.
                let stood_in_last = s
                    .game
                    .reports()
                    .enumerate()
                    .filter(|(_, r)| pos.player_of(r.mover) == seat)
                    .last()
                    .is_some_and(|(n, _)| s.stand_ins.contains(&(n as u32)));
                Some(if stood_in_last {
                    s.moved_ms
                } else {
                    s.moved_ms + i64::from(wait_seconds) * 1000
                })
            }
        }
    }

    // ----- Moves -----

    /// A move by `player`, as typed: refused unless it is legal, for `ply`, and theirs.
    pub async fn play(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
        ply: u32,
        text: &str,
    ) -> Result<u32, Refusal> {
        if text.len() > MAX_MOVE_BYTES {
            return Err(Refusal::new("that is not a move"));
        }
        let mv = notation::parse_move(text).map_err(|e| Refusal::new(e.to_string()))?;
        let live = self.game_of_yours(id).await?;
        self.make(&live, Mover::Player(player), ply, mv).await
    }

    /// Makes `mv` as move `ply` of the game, for `mover`: checked, stored, then told.
    async fn make(
        self: &Arc<Self>,
        live: &Shared,
        mover: Mover<'_>,
        ply: u32,
        mv: Move,
    ) -> Result<u32, Refusal> {
        let mut g = live.lock().await;
        let id = g.stored.id.clone();
        let pos = g.stored.game.position();
        let seat = player_of(pos);
        if let Mover::Player(player) = mover
            && !g
                .stored
                .seats
                .iter()
                .any(|s| s.holder.as_ref() == Some(player))
        {
            return Err(Refusal::new("no such game of yours"));
        }
        if g.stored.finished || pos.is_over() {
            return Err(Refusal::new("the game is over"));
        }
        let has = g.stored.game.len() as u32;
        if ply != has {
            return Err(Refusal::new(format!(
                "the game has {has} moves, not {ply}: it moved on"
            )));
        }
        if let Mover::Player(player) = mover
            && g.stored.seats[usize::from(seat)].holder.as_ref() != Some(player)
        {
            return Err(Refusal::new(format!(
                "it is {}'s turn, not one of your kingdoms'",
                pos.to_move()
            )));
        }
        let by = match mover {
            Mover::Player(_) | Mover::Computer => MadeBy::Seat,
            Mover::StandIn => MadeBy::StandIn,
            Mover::Overdue => MadeBy::OverduePass,
        };
        if by == MadeBy::OverduePass {
            // Passing is allowed whatever the kingdom could do: only a finished game refuses.
            if !mv.is_pass() {
                return Err(Refusal::new("an overdue turn passes"));
            }
        } else {
            pos.check(mv).map_err(|e| Refusal::new(e.to_string()))?;
        }
        match self.store.append_move(&id, ply, mv, seat, by).await {
            Ok(()) => {}
            Err(e @ StoreError::OutOfTurn { .. }) | Err(e @ StoreError::Finished) => {
                // Another server on the database got there first: read the game again.
                drop(g);
                self.refresh(&id).await;
                return Err(e.into());
            }
            Err(e) => return Err(e.into()),
        }
        let s = &mut g.stored;
        match by {
            MadeBy::OverduePass => {
                s.game.pass_overdue().expect("the game is not over");
                s.record.overdue.push(ply);
            }
            _ => {
                s.game.play(mv).expect("checked above");
            }
        }
        s.record.moves.push(mv.to_string());
        if by == MadeBy::StandIn {
            s.stand_ins.push(ply);
        }
        s.moved_ms = self.store.now();
        if g.take_back.take().is_some() {
            let _ = g.events.send(Event::TakeBackRefused { game: id.clone() });
        }
        let over = g.stored.game.position().is_over();
        if over {
            self.store.finish(&id).await?;
            g.stored.finished = true;
        }
        let deadline_ms = self.deadline(&g);
        let _ = g.events.send(Event::Moved {
            game: id.clone(),
            ply,
            mv: mv.to_string(),
            by,
            since_ms: g.stored.moved_ms,
            deadline_ms,
        });
        self.log.info(&format!(
            "game {}: move {} {mv} ({})",
            id.0,
            ply + 1,
            match mover {
                Mover::Player(p) => p.0.as_str(),
                Mover::Computer => "computer",
                Mover::StandIn => "stand-in",
                Mover::Overdue => "overdue, passed",
            }
        ));
        if over {
            self.log.info(&format!("game {}: over", id.0));
        } else {
            self.tell_next(&g);
        }
        drop(g);
        self.wake(&id);
        Ok(ply)
    }

    /// Tells the player to move, on all their connections, that the game waits for them.
    fn tell_next(&self, g: &Live) {
        let pos = g.stored.game.position();
        if let Some(holder) = &g.stored.seats[usize::from(player_of(pos))].holder {
            self.tell_player(
                holder,
                Event::YourTurn {
                    game: g.stored.id.clone(),
                    kingdom: pos.to_move(),
                },
            );
        }
    }

    /// Starts a computer or stand-in on the game's turn if one is due and none is thinking.
    fn wake(self: &Arc<Self>, id: &GameId) {
        let hub = self.clone();
        let id = id.clone();
        tokio::spawn(async move {
            if let Ok(live) = hub.live(&id).await {
                hub.think(&live).await;
            }
        });
    }

    /// Who is to make the game's move now, and at what level: its computer, or a stand-in
    /// whose deadline has passed; `None` when nothing is due (or a search already runs).
    fn due(&self, g: &Live) -> Option<(Level, Mover<'static>)> {
        let s = &g.stored;
        let pos = s.game.position();
        if g.thinking || s.finished || pos.is_over() {
            return None;
        }
        match s.seats[usize::from(player_of(pos))].plan {
            SeatPlan::Computer(level) => Some((level, Mover::Computer)),
            _ => self
                .deadline(g)
                .filter(|&due| due <= self.store.now())
                .map(|_| (STAND_IN_LEVEL, Mover::StandIn)),
        }
    }

    async fn think(self: &Arc<Self>, live: &Shared) {
        let (pos, ply, level, mover, seed) = {
            let mut g = live.lock().await;
            let Some((level, mover)) = self.due(&g) else {
                return;
            };
            let s = &g.stored;
            let pos = s.game.position();
            if mover == Mover::StandIn
                && let Pace::Correspondence {
                    overdue: WhenOverdue::Pass,
                    ..
                } = s.pace
            {
                let ply = s.game.len() as u32;
                drop(g);
                let Some(_open) = self.hold().await else {
                    return;
                };
                if let Err(e) = self.make(live, Mover::Overdue, ply, Move::PASS).await {
                    self.log.error(&format!("an overdue pass not made: {e}"));
                }
                return;
            }
            let seed = s.id.0.bytes().fold(s.game.len() as u64, |h, b| {
                h.wrapping_mul(31).wrapping_add(u64::from(b))
            });
            let job = (pos.clone(), s.game.len() as u32, level, mover, seed);
            g.thinking = true;
            job
        };
        let permit = self.searches.acquire().await;
        let result = tokio::task::spawn_blocking(move || {
            let mut engine = Engine::new(16);
            let limits = Limits {
                nodes: Some(level.nodes()),
                threads: Some(1),
                ..Limits::default()
            };
            engine.search(&pos, level, &limits, seed).map(|r| r.best)
        })
        .await;
        drop(permit);
        live.lock().await.thinking = false;
        match result {
            Ok(Some(mv)) => {
                let Some(_open) = self.hold().await else {
                    return;
                };
                if let Err(e) = self.make(live, mover, ply, mv).await {
                    let id = live.lock().await.stored.id.clone();
                    self.log.error(&format!("game {}: computer's move not made: {e}", id.0));
                }
            }
            Ok(None) => {}
            Err(e) => self.log.error(&format!("a search failed: {e}")),
        }
    }

    // ----- Take-backs -----

    /// `player` asks to take back the moves from `ply` on: the other people must agree.
    pub async fn ask_take_back(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
        ply: u32,
    ) -> Result<Answer, Refusal> {
        let live = self.game_of_yours(id).await?;
        let mut g = live.lock().await;
        let by = *seats_of(&g.stored, player)
            .first()
            .ok_or_else(|| Refusal::new("no such game of yours"))?;
        if g.stored.finished {
            return Err(Refusal::new("the game is over"));
        }
        let has = g.stored.game.len() as u32;
        let mover_of = |n: u32| {
            let r = g.stored.game.reports().nth(n as usize)?;
            Some(g.stored.game.position_at(n as usize).player_of(r.mover))
        };
        if ply >= has
            || mover_of(ply)
                .is_none_or(|m| g.stored.seats[usize::from(m)].holder.as_ref() != Some(player))
        {
            return Err(Refusal::new("only one of your own moves can be taken back"));
        }
        if g.take_back.is_some() {
            return Err(Refusal::new("a take-back is already being asked"));
        }
        let take_back = TakeBackView {
            by,
            ply,
            agreed: vec![by],
        };
        g.take_back = Some(take_back.clone());
        let _ = g.events.send(Event::TakeBackAsked {
            game: id.clone(),
            take_back,
        });
        self.log.info(&format!(
            "game {}: take-back to move {} asked by {}",
            id.0,
            ply + 1,
            player.0
        ));
        self.settle_take_back(&mut g).await?;
        Ok(Answer::Done)
    }

    /// `player` agrees to, or refuses, the take-back asked in `id`.
    pub async fn answer_take_back(
        self: &Arc<Self>,
        player: &PlayerId,
        id: &GameId,
        agree: bool,
    ) -> Result<Answer, Refusal> {
        let live = self.game_of_yours(id).await?;
        let mut g = live.lock().await;
        let seats = seats_of(&g.stored, player);
        if seats.is_empty() {
            return Err(Refusal::new("no such game of yours"));
        }
        let Some(take_back) = g.take_back.as_mut() else {
            return Err(Refusal::new("no take-back is being asked"));
        };
        if !agree {
            g.take_back = None;
            let _ = g.events.send(Event::TakeBackRefused { game: id.clone() });
            self.log.info(&format!("game {}: take-back refused by {}", id.0, player.0));
            return Ok(Answer::Done);
        }
        for seat in seats {
            if !take_back.agreed.contains(&seat) {
                take_back.agreed.push(seat);
            }
        }
        self.settle_take_back(&mut g).await?;
        Ok(Answer::Done)
    }

    /// Takes the moves back once every person in the game agreed.
    async fn settle_take_back(&self, g: &mut Live) -> Result<(), Refusal> {
        let Some(take_back) = &g.take_back else {
            return Ok(());
        };
        let waiting = g
            .stored
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| s.holder.is_some() && !take_back.agreed.contains(&(i as u8)));
        if waiting {
            return Ok(());
        }
        let ply = take_back.ply;
        let id = g.stored.id.clone();
        let has = g.stored.game.len() as u32;
        self.store.take_back(&id, ply, has).await?;
        g.take_back = None;
        for _ in ply..has {
            g.stored.game.undo();
        }
        g.stored.record.moves.truncate(ply as usize);
        g.stored.stand_ins.retain(|&n| n < ply);
        g.stored.record.overdue.retain(|&n| n < ply);
        g.stored.moved_ms = self.store.now();
        let deadline_ms = self.deadline(g);
        let _ = g.events.send(Event::TakenBack {
            game: id.clone(),
            ply,
            since_ms: g.stored.moved_ms,
            deadline_ms,
        });
        self.log.info(&format!("game {}: moves from {} taken back", id.0, ply + 1));
        Ok(())
    }

    // ----- The clock and other servers -----

    /// Every second: computers and stand-ins that are due; every [`SEEN_EVERY`]: notes the
    /// players present here.
    async fn clock(hub: std::sync::Weak<Hub>) {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let mut seen_at = tokio::time::Instant::now();
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade() else {
                return;
            };
            // Only games with a move due wake (a game busy elsewhere is looked at next time).
            let games: Vec<(GameId, Shared)> = lock(&hub.games)
                .iter()
                .map(|(id, live)| (id.clone(), live.clone()))
                .collect();
            for (id, live) in games {
                if live.try_lock().is_ok_and(|g| hub.due(&g).is_some()) {
                    hub.wake(&id);
                }
            }
            if seen_at.elapsed() >= SEEN_EVERY {
                seen_at = tokio::time::Instant::now();
                let present: Vec<(GameId, PlayerId)> = lock(&hub.present).keys().cloned().collect();
                for (game, player) in present {
                    if let Err(e) = hub.store.seen(&game, &player).await {
                        hub.log.warn(&format!("presence not noted: {e}"));
                    }
                }
            }
        }
    }

    /// Follows the other servers' changes on PostgreSQL.
    async fn listen(hub: std::sync::Weak<Hub>) {
        loop {
            let Some(url) = hub.upgrade().map(|h| h.store.url().to_owned()) else {
                return;
            };
            match sqlx::postgres::PgListener::connect(&url).await {
                Ok(mut listener) => {
                    if let Err(e) = listener.listen(CHANGES_CHANNEL).await {
                        if let Some(h) = hub.upgrade() {
                            h.log.warn(&format!("cannot listen for other servers: {e}"));
                        }
                    } else {
                        while let Ok(notice) = listener.recv().await {
                            let Some(h) = hub.upgrade() else {
                                return;
                            };
                            if let Some((server, game)) = notice.payload().split_once(' ')
                                && server != h.store.server_id()
                            {
                                h.refresh(&GameId(game.to_owned())).await;
                            }
                        }
                    }
                }
                Err(e) => {
                    if let Some(h) = hub.upgrade() {
                        h.log.warn(&format!("cannot listen for other servers: {e}"));
                    }
                }
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }

    /// Reads a game again from the database (changed by another server) and tells its
    /// followers what changed.
    pub async fn refresh(self: &Arc<Self>, id: &GameId) {
        let live = lock(&self.games).get(id).cloned();
        let Some(live) = live else {
            // Not held here yet: loaded as it is now.
            if self.live(id).await.is_ok() {
                self.wake(id);
            }
            return;
        };
        // Read while holding the game, so that reads and this server's own moves apply in the
        // order they happened.
        let mut g = live.lock().await;
        let stored = match self.store.load_game(id).await {
            Ok(stored) => stored,
            Err(e) => {
                self.log.error(&format!("game {} not read again: {e}", id.0));
                return;
            }
        };
        let old = std::mem::replace(&mut g.stored, stored);
        let new = &g.stored;
        for (seat, (a, b)) in old.seats.iter().zip(&new.seats).enumerate() {
            if a.holder != b.holder
                && let Some(name) = &b.name
            {
                let _ = g.events.send(Event::Seated {
                    game: id.clone(),
                    seat: seat as u8,
                    name: name.clone(),
                });
            }
        }
        let (before, after) = (old.record.moves.len(), new.record.moves.len());
        let common = after.min(before);
        if old.record.moves[..common] != new.record.moves[..common] {
            let _ = g.events.send(Event::Stale { game: id.clone() });
        } else if after < before {
            // Taken back through another server.
            g.take_back = None;
            let deadline_ms = self.deadline(&g);
            let _ = g.events.send(Event::TakenBack {
                game: id.clone(),
                ply: after as u32,
                since_ms: g.stored.moved_ms,
                deadline_ms,
            });
        } else {
            let deadline_ms = self.deadline(&g);
            for ply in before..after {
                let _ = g.events.send(Event::Moved {
                    game: id.clone(),
                    ply: ply as u32,
                    mv: g.stored.record.moves[ply].clone(),
                    by: if g.stored.stand_ins.contains(&(ply as u32)) {
                        MadeBy::StandIn
                    } else if g.stored.record.overdue.contains(&(ply as u32)) {
                        MadeBy::OverduePass
                    } else {
                        MadeBy::Seat
                    },
                    since_ms: g.stored.moved_ms,
                    deadline_ms,
                });
            }
            if after > before {
                self.tell_next(&g);
            }
        }
        drop(g);
        self.wake(id);
    }
}

/// The player numbers `player` holds in `s`.
fn seats_of(s: &StoredGame, player: &PlayerId) -> Vec<u8> {
    (0..s.seats.len() as u8)
        .filter(|&i| s.seats[usize::from(i)].holder.as_ref() == Some(player))
        .collect()
}

fn seat_label(seat: &crate::store::StoredSeat) -> String {
    match (&seat.name, seat.plan) {
        (Some(name), _) => name.clone(),
        (None, SeatPlan::Computer(level)) => format!("computer ({level})"),
        (None, _) => "open".to_owned(),
    }
}

/// A player's name as kept: trimmed, without control characters, 1 to [`MAX_NAME_CHARS`].
pub fn clean_name(name: &str) -> Result<String, Refusal> {
    let name: String = name.trim().chars().filter(|c| !c.is_control()).collect();
    if name.is_empty() {
        return Err(Refusal::new("a player needs a name"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Refusal::new(format!(
            "a name has at most {MAX_NAME_CHARS} characters"
        )));
    }
    Ok(name)
}
