//! The games a server holds while it runs, around each game's pure core ([`LiveGame`]): this
//! module holds the games and the players' sign-in, and coordinates a request — check it on the
//! game, store it, apply it, tell the followers (the requests about games, moves and take-backs
//! in [`games`]). Rooms own their state, each behind its own lock: the games held in memory
//! ([`held`]), who has a game open ([`presence`]), each player's own channel ([`players`]), the
//! computers' search threads ([`searches`]), the turns claimed among servers ([`claims`]), the
//! e-mail's relay ([`mail`]); the database's tables are the store's, split the same way. The
//! hub's own methods coordinate them, grouped by concern: the computers and stand-ins that
//! move for seats and the clock that wakes them ([`computers`]), which games to hold and let go
//! ([`held`]), the changes other servers on the same PostgreSQL make ([`replication`]), table
//! talk, holidays and finished games. A new concern is a new room and its requests here.
//!
//! Every change goes to the database first ([`Store`]) and is told once committed. A move is
//! checked against the rules engine before it is stored; the stored count of moves decides
//! between two servers wanting the same turn (the second is refused, and reads the game again).

mod after;
mod claims;
mod computers;
mod conduct;
mod games;
mod held;
mod holidays;
mod lobby;
pub mod mail;
mod players;
mod presence;
mod push;
mod quick;
mod ratings;
mod replication;
mod searches;
mod talk;

use std::sync::{Arc, Mutex, PoisonError};

use qiguo_protocol::model::MAX_NAME_CHARS;
use qiguo_protocol::{Refusal, clean_name};
use qiguo_rules::{Kingdom, notation};
use tokio::sync::{broadcast, watch};

pub use self::holidays::HOLIDAY_DAYS;
pub use self::lobby::{LOBBY_AT_LEAST, LOBBY_EVERY};
pub use self::presence::{PRESENT_FOR, SEEN_EVERY};
pub use self::replication::listener_name;
use crate::live::{LiveGame, Mover};
use crate::log::note;
use crate::log::{Log, escaped};
use crate::protocol::{Answer, Event, GameSummary, GameView, Identity, MAX_MOVE_BYTES, NewGame};
use crate::store::{GameId, PlayerId, SeatPlan, Store, StoreError, StoredGame};

/// How many events a follower may fall behind before it is told to read the game afresh
/// (nine rounds of seven moves; each slot is kept for every game followed).
const EVENTS_KEPT: usize = 64;

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        match e {
            StoreError::WrongKey => Refusal::WrongKey,
            StoreError::NoGame => Refusal::NoGame,
            StoreError::SeatNotFree(seat) => Refusal::SeatTaken { seat },
            StoreError::OutOfTurn { has, expected } => Refusal::MovedOn { has, ply: expected },
            StoreError::Finished => Refusal::GameOver,
            StoreError::BadSpec(refusal) | StoreError::Refused(refusal) => refusal,
            StoreError::TakeBackPending => Refusal::TakeBackPending,
            StoreError::NoTakeBack => Refusal::NoTakeBack,
            failed @ (StoreError::Database(_)
            | StoreError::Commit(_)
            | StoreError::Served(_)
            | StoreError::Migrate(_)
            | StoreError::Folder(..)
            | StoreError::NoRandomness(_)
            | StoreError::Damaged(..)) => {
                // The client is told to try again; the operator reads what failed.
                tracing::error!(target: "qiguo_server", "{failed}");
                Refusal::TryAgain
            }
        }
    }
}

/// A game held in memory: its core, its followers' channel (made when the first follows,
/// dropped when the last has gone), and whether a search runs on it.
struct Live {
    game: LiveGame,
    events: Option<broadcast::Sender<Event>>,
    /// A computer or stand-in is thinking about the current turn.
    thinking: bool,
    /// How many lines its table talk has, as told here (another server's are read when it
    /// says the game changed).
    talk: u32,
}

impl Live {
    /// Tells the followers; nobody following is no failure.
    fn tell(&self, event: Event) {
        if let Some(events) = &self.events {
            let _ = events.send(event);
        }
    }

    /// A new follower's end of the channel.
    fn subscribe(&mut self) -> broadcast::Receiver<Event> {
        self.events
            .get_or_insert_with(|| broadcast::channel(EVENTS_KEPT).0)
            .subscribe()
    }

    /// Whether anyone follows the game here.
    fn followed(&self) -> bool {
        self.events.as_ref().is_some_and(|e| e.receiver_count() > 0)
    }
}

type Shared = Arc<tokio::sync::Mutex<Live>>;

/// The server's games and the clients following them.
pub struct Hub {
    store: Store,
    /// The games held in memory ([`held`]).
    held: held::Held,
    /// Each signed-in player's own events, for all their connections ([`players`]).
    players: players::Players,
    /// Who has which game open on this server ([`presence`]).
    presence: presence::Presence,
    /// The computers' searches: a thread per core, fair between games.
    searches: searches::Searches,
    /// Whether the server is shutting down; every change to the database holds it for reading
    /// while it commits, so closing it waits for those under way and lets no new one begin.
    gate: tokio::sync::RwLock<bool>,
    /// Told when the server shuts down: sessions then close their connections.
    closing: watch::Sender<bool>,
    /// Unfinished games one player may hold a seat in.
    games_per_player: u32,
    /// Days of holiday a player may take a calendar year.
    holiday_days: u32,
    /// What the server counts, for the operator.
    metrics: crate::metrics::Metrics,
    /// The e-mail it sends, if it was given a relay ([`mail`]).
    mail: Option<mail::Mailing>,
    /// The notifications it pushes to players' devices, if it pushes any.
    push: Option<crate::push::Pusher>,
    /// The computers' turns this server claimed among servers on one database ([`claims`]).
    claims: claims::Claims,
    /// The lobby's view, sent to the clients following it ([`lobby`]).
    lobby: lobby::Lobby,
    log: Log,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Hub {
    /// A hub on `store`: loads every unfinished game, starts the clock (and, on PostgreSQL, the
    /// listener for other servers' changes). Must be called within a Tokio runtime.
    /// A player may hold a seat in `games_per_player` unfinished games at most, and take
    /// `holiday_days` days of holiday a calendar year. With `mail`, it e-mails players who are
    /// away; with `push`, it notifies their devices.
    pub(crate) async fn start(
        store: Store,
        log: Log,
        games_per_player: u32,
        holiday_days: u32,
        mail: Option<mail::Mailing>,
        push: Option<crate::push::Pusher>,
    ) -> Result<Arc<Hub>, StoreError> {
        // The outbox is read as often as the e-mail's timing says, or else the push's.
        let outbox_every = mail
            .as_ref()
            .map(|m| m.config().timing.every)
            .or_else(|| push.as_ref().map(|p| p.config().timing.every));
        let hub = Arc::new(Hub {
            claims: claims::Claims::new(store.clone(), log.clone()),
            store,
            held: held::Held::default(),
            players: players::Players::default(),
            presence: presence::Presence::default(),
            searches: searches::Searches::start(qiguo_ai::available_threads()),
            gate: tokio::sync::RwLock::new(false),
            closing: watch::Sender::new(false),
            games_per_player,
            holiday_days,
            mail,
            push,
            metrics: crate::metrics::Metrics::default(),
            lobby: lobby::Lobby::default(),
            log,
        });
        if hub.store.is_postgres() {
            hub.listen_first().await;
        }
        for (player, was, now) in hub.store.fold_names().await? {
            note!(
                hub.log,
                WARN,
                "name taken by an earlier player: renamed",
                player = player.0,
                was = escaped(&was),
                now = escaped(&now)
            );
        }
        let due = hub.load_due().await?;
        note!(hub.log, INFO, "games due loaded", games = due);
        let weak = Arc::downgrade(&hub);
        tokio::spawn(async move {
            let Some(hub) = weak.upgrade() else { return };
            match hub.rate_unrated().await {
                Ok(0) => {}
                Ok(games) => note!(hub.log, INFO, "games left unrated, rated", games = games),
                Err(e) => note!(hub.log, ERROR, "games left unrated not read", error = e),
            }
        });
        tokio::spawn(Hub::clock(Arc::downgrade(&hub)));
        tokio::spawn(Hub::lobby_keeper(Arc::downgrade(&hub)));
        if let Some(every) = outbox_every {
            tokio::spawn(Hub::mailer(Arc::downgrade(&hub), every));
        }
        Ok(hub)
    }

    /// Leave to change the database, held while the change commits; `None` once the server
    /// shuts down.
    pub(crate) async fn hold(&self) -> Option<tokio::sync::RwLockReadGuard<'_, bool>> {
        let open = self.gate.read().await;
        (!*open).then_some(open)
    }

    /// Shuts the hub: waits for the changes being committed, lets no new one begin, and tells
    /// the sessions to close their connections.
    pub(crate) async fn close(&self) {
        *self.gate.write().await = true;
        self.closing.send_replace(true);
        note!(
            self.log,
            INFO,
            "no more changes taken; connections told to close"
        );
    }

    /// Closes the database once nothing uses it any more.
    pub(crate) async fn close_store(&self) {
        self.store.close().await;
    }

    /// Changes to `true` when the server shuts down.
    pub(crate) fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// This server's name among those on one database ([`Store::server_id`]).
    pub fn server_id(&self) -> &str {
        self.store.server_id()
    }

    /// What the server counts.
    pub(crate) fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// The metrics in Prometheus's text format, `connections` being open.
    pub(crate) fn render_metrics(&self, connections: usize) -> String {
        let (games, players) = self.held();
        self.metrics
            .render(connections, self.searches_waiting(), games, players)
    }

    /// Whether the server can serve: not shutting down, and its database answering.
    pub(crate) async fn healthy(&self) -> Result<(), String> {
        if *self.closing.borrow() {
            return Err("shutting down".into());
        }
        match tokio::time::timeout(std::time::Duration::from_secs(2), self.store.ping()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("the database did not answer within 2 s".into()),
        }
    }

    /// The computers' searches waiting for a thread.
    pub(crate) fn searches_waiting(&self) -> usize {
        self.searches.waiting()
    }

    /// The server's log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Holds `stored`, whose table talk has `talk` lines.
    fn insert(&self, stored: StoredGame, talk: u32) -> Shared {
        let id = stored.id.clone();
        let live = Arc::new(tokio::sync::Mutex::new(Live {
            game: LiveGame::from(stored),
            events: None,
            thinking: false,
            talk,
        }));
        self.held.insert(id, live)
    }

    /// A game asked for by id: one the asker holds a seat in, as the caller checks; any other
    /// id gets the same answer, so that ids cannot be probed.
    async fn game_of_yours(&self, id: &GameId) -> Result<Shared, Refusal> {
        self.live(id).await.map_err(|_| Refusal::NoGame)
    }

    async fn live(&self, id: &GameId) -> Result<Shared, Refusal> {
        if let Some(live) = self.held.get(id) {
            return Ok(live);
        }
        Ok(self.load(id).await?)
    }

    /// Reads a game from the database and holds it, put right first if it was stored with
    /// values the server refuses today ([`tidy`]): the start and pace written again, a game
    /// that was over marked finished; each said in the log.
    async fn load(&self, id: &GameId) -> Result<Shared, StoreError> {
        let mut stored = self.store.load_game(id).await?;
        let (tidied, over) = tidy(&mut stored);
        if !tidied.is_empty() {
            note!(
                self.log,
                WARN,
                "game stored before today's checks, put right",
                game = id.0,
                what = tidied.join("; ")
            );
            if over {
                self.store.finish(id).await?;
            }
            self.store
                .rewrite_start(id, &stored.record, stored.pace)
                .await?;
        }
        let talk = self.store.talk_lines(id).await?;
        Ok(self.insert(stored, talk))
    }

    // ----- Players -----

    /// Signs a client in (or makes a new player): their id, name and, when new, key.
    pub(crate) async fn sign_in(
        &self,
        identity: &Identity,
    ) -> Result<(PlayerId, String, Option<String>), Refusal> {
        match identity {
            Identity::Player { id, key } => {
                let name = self.store.sign_in(id, key).await?;
                if self.store.play_barred(id).await? {
                    return Err(Refusal::Barred);
                }
                Ok((id.clone(), shown_name(&name), None))
            }
            Identity::New { name } => {
                let name = clean_name(name)?;
                let new = self.store.add_player(&name).await?;
                note!(
                    self.log,
                    INFO,
                    "new player",
                    player = new.id.0,
                    name = escaped(&name)
                );
                Ok((new.id, name, Some(new.key)))
            }
            Identity::Link { token } => {
                if token.len() > 128 {
                    return Err(Refusal::LinkExpired);
                }
                let (id, name, key) = self.store.sign_in_by_link(token).await?;
                note!(
                    self.log,
                    INFO,
                    "signed in on a new device by an e-mailed link",
                    player = id.0
                );
                Ok((id, shown_name(&name), Some(key)))
            }
        }
    }

    /// The events for `player` themself (another game waiting for them).
    pub(crate) fn personal(&self, player: &PlayerId) -> broadcast::Receiver<Event> {
        self.players.subscribe(player)
    }

    /// Tells the player to move, on all their connections (on every server), that the game
    /// waits for them.
    fn tell_next(self: &Arc<Self>, g: &Live) {
        if let Some((holder, event)) = g.game.your_turn() {
            self.tell_player(&holder, event);
        }
    }

    /// Tells `player` `event` on all their connections: here at once, through the other
    /// servers on a PostgreSQL database by a notice.
    fn tell_player(self: &Arc<Self>, player: &PlayerId, event: Event) {
        if self.store.is_postgres() {
            let (hub, player, event) = (self.clone(), player.clone(), event.clone());
            tokio::spawn(async move {
                if let Err(e) = hub.store.tell_player(&player, &event).await {
                    note!(
                        hub.log,
                        WARN,
                        "player not told on other servers",
                        player = player.0,
                        why = e
                    );
                }
            });
        }
        self.tell_here(player, event);
    }

    /// Tells `player` `event` on their connections to this server.
    fn tell_here(&self, player: &PlayerId, event: Event) {
        self.players.tell(player, event);
    }
}

/// A name stored before today's checks as a seat or a player shows it: cleaned, cut to
/// [`MAX_NAME_CHARS`], `?` when nothing is left.
fn shown_name(name: &str) -> String {
    match clean_name(name) {
        Ok(name) => name,
        Err(Refusal::NameTooLong { .. }) => {
            let cut: String = name
                .chars()
                .filter(|&c| !qiguo_protocol::model::unfit_in_name(c))
                .take(MAX_NAME_CHARS)
                .collect();
            cut.trim().to_owned()
        }
        Err(_) => "?".to_owned(),
    }
}

/// Puts right a game stored with values the server refuses today: a pace out of bounds, names
/// in its record a name may not be, an end by agreement in an unfinished game (or a position
/// that is over). Says what it changed, and whether the game is now to be marked finished.
fn tidy(stored: &mut StoredGame) -> (Vec<String>, bool) {
    let mut tidied = Vec::new();
    let pace = stored.pace.bounded();
    if pace != stored.pace {
        tidied.push(format!("pace {:?} bounded to {pace:?}", stored.pace));
        stored.pace = pace;
    }
    for (n, player) in stored.record.players.iter_mut().enumerate() {
        let shown = shown_name(&player.name);
        if shown != player.name {
            tidied.push(format!("player {n}'s name cleaned to {}", escaped(&shown)));
            player.name = shown;
        }
    }
    for seat in &mut stored.seats {
        if let Some(name) = &mut seat.name {
            *name = shown_name(name);
        }
    }
    let over = !stored.finished && (stored.record.ended_early || stored.game.position().is_over());
    if over {
        tidied.push("over already: marked finished".to_owned());
        stored.finished = true;
    }
    (tidied, over)
}

#[cfg(test)]
mod tests {
    use qiguo_rules::{Game, Level, PlayerInfo, Position, Record, Rules};

    use super::*;
    use crate::store::StoredSeat;

    /// A game as an older server could have stored it: a wait of 0, a 50,015-character name
    /// with terminal escapes and a right-to-left override, a record ended by agreement.
    pub(super) fn stored_before_the_checks() -> StoredGame {
        let game = Game::new(Position::start(Rules::default()));
        let mut players = PlayerInfo::defaults(7);
        players[0].name = format!("\u{1b}[31m{}\u{202e}", "x".repeat(50_000));
        players[1].name = "\u{200b}\u{2028}".into();
        let mut record = Record::from_game(&game, players);
        record.ended_early = true;
        StoredGame {
            id: GameId("g".into()),
            code: "CODE".into(),
            creator: PlayerId("ann".into()),
            game: record.replay().unwrap(),
            record,
            seats: (0..7)
                .map(|i| StoredSeat {
                    plan: if i == 0 {
                        SeatPlan::Creator
                    } else {
                        SeatPlan::Computer(Level::Random)
                    },
                    holder: (i == 0).then(|| PlayerId("ann".into())),
                    name: (i == 0).then(|| "Ann\u{202e}".to_owned()),
                    seen_ms: None,
                    holidays: Vec::new(),
                    taken_ply: None,
                    rating: None,
                    left: 0,
                })
                .collect(),
            pace: crate::store::Pace::Live { wait_seconds: 0 },
            moved_ms: 0,
            finished: false,
            stand_ins: Vec::new(),
            take_back: None,
            quick: None,
            leavers: Vec::new(),
        }
    }

    #[test]
    fn a_game_stored_before_the_checks_is_put_right_and_said_so() {
        let mut stored = stored_before_the_checks();
        let (said, over) = tidy(&mut stored);
        assert!(over, "a record ended by agreement is marked finished");
        assert!(stored.finished);
        assert_eq!(
            stored.pace,
            crate::store::Pace::Live {
                wait_seconds: qiguo_protocol::model::MIN_WAIT_SECONDS
            }
        );
        assert_eq!(
            stored.record.players[0].name,
            "[31m".to_owned() + &"x".repeat(36)
        );
        assert_eq!(stored.record.players[1].name, "?");
        assert_eq!(stored.seats[0].name.as_deref(), Some("Ann"));
        assert_eq!(said.len(), 4, "{said:?}");
        // What it says escapes what it quotes.
        assert!(said.iter().all(|line| !line.contains('\u{1b}')), "{said:?}");
        // Put right, it has nothing more to say.
        let (again, over) = tidy(&mut stored);
        assert!(again.is_empty() && !over, "{again:?}");
    }
}
