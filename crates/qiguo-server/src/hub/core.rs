//! The hub's core: what every request about a game needs. It holds the games in memory
//! ([`super::held`]), who has each open ([`super::presence`]) and each player's own channel
//! ([`super::players`]); it loads a game, reads it again when another server changed it, tells
//! its followers and players, and says when a computer's turn is due (the computers themselves
//! are [`super::computers`], woken through a channel). The requests that change a game — create,
//! join, move, take back — are its second file, [`super::games`]. Every other concern is a
//! slice built on this core.
//!
//! Two happenings go out of the core through channels, so that the core names no slice: a
//! game's turn may be due (to the computers) and a game is over (to the ratings). The lobby is
//! told by a flag it reads ([`Core::lobby_touched`]).

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, watch};

use super::held::{DUE_AT_ONCE, Held};
use super::players::Players;
use super::presence::{PRESENT_FOR, Presence};
use super::{Live, Shared, tidy};
use crate::live::{Due, LiveGame};
use crate::log::{Log, note};
use crate::metrics::Metrics;
use crate::protocol::{Event, Refusal};
use crate::store::mail::{MailKind, MailNote};
use crate::store::{GameId, PlayerId, Store, StoreError, StoredGame, StoredSeat};

/// How long after a move each kind of notice the outbox holds goes out: `None` for a kind this
/// server does not send (e-mail without a relay, pushes without keys).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoticeTimes {
    /// *Your move* by e-mail waits this long after the move.
    pub(crate) mail_turn_after: Option<Duration>,
    /// *Your move* on a device waits this long after the move.
    pub(crate) push_turn_after: Option<Duration>,
}

impl NoticeTimes {
    /// The e-mails and notifications a move writes, as the store keeps them: the e-mails if
    /// this server sends e-mail, a notification on the same occasion of each if it pushes;
    /// *your move* after each one's wait.
    pub(super) fn due(&self, notes: Vec<MailNote>) -> Vec<MailNote> {
        let later = |note: &MailNote, after: Duration| MailNote {
            not_before_ms: if matches!(note.kind, MailKind::Turn | MailKind::PushTurn) {
                note.not_before_ms
                    .saturating_add(i64::try_from(after.as_millis()).unwrap_or(0))
            } else {
                note.not_before_ms
            },
            ..note.clone()
        };
        let mut due = Vec::new();
        if let Some(after) = self.push_turn_after {
            for note in &notes {
                if let Some(kind) = note.kind.push() {
                    due.push(later(
                        &MailNote {
                            kind,
                            ..note.clone()
                        },
                        after,
                    ));
                }
            }
        }
        if let Some(after) = self.mail_turn_after {
            due.extend(notes.iter().map(|note| later(note, after)));
        }
        due
    }
}

/// The ends of the core's channels that its slices read: the games whose turn may be due (the
/// computers') and the games that ended (the ratings').
pub(super) struct Happenings {
    pub(super) wakes: mpsc::UnboundedReceiver<GameId>,
    pub(super) ended: mpsc::UnboundedReceiver<GameId>,
    /// The games that ended, for the reviews.
    pub(super) ended_for_review: mpsc::UnboundedReceiver<GameId>,
    /// The people a move put out of a game (theirs over, the game going on or not), for the
    /// tournaments.
    pub(super) put_out: mpsc::UnboundedReceiver<(GameId, PlayerId)>,
}

/// The hub's core.
pub(crate) struct Core {
    pub(super) store: Store,
    pub(super) log: Log,
    pub(super) metrics: Arc<Metrics>,
    /// The games held in memory.
    pub(super) held: Held,
    /// Each signed-in player's own events, for all their connections.
    pub(super) players: Players,
    /// Who has which game open on this server.
    presence: Presence,
    /// Whether the server is shutting down; every change to the database holds it for reading
    /// while it commits, so closing it waits for those under way and lets no new one begin.
    gate: tokio::sync::RwLock<bool>,
    /// Told when the server shuts down: sessions and the slices' tasks then stop.
    closing: watch::Sender<bool>,
    /// Unfinished games one player may hold a seat in.
    pub(super) games_per_player: u32,
    /// When the notices a move writes go out.
    notices: NoticeTimes,
    /// Something the lobby shows changed here since the lobby last looked.
    lobby_changed: AtomicBool,
    /// Games whose turn may be due, for the computers.
    wakes: mpsc::UnboundedSender<GameId>,
    /// Games that ended, for the ratings.
    ended: mpsc::UnboundedSender<GameId>,
    /// Games that ended, for the reviews.
    ended_for_review: mpsc::UnboundedSender<GameId>,
    /// People a move put out of a game, for the tournaments.
    put_out: mpsc::UnboundedSender<(GameId, PlayerId)>,
}

impl Core {
    /// A core on `store`, holding nothing yet; the channels' other ends are for the computers
    /// and the ratings.
    pub(super) fn new(
        store: Store,
        log: Log,
        metrics: Arc<Metrics>,
        games_per_player: u32,
        notices: NoticeTimes,
    ) -> (Core, Happenings) {
        let (wakes, wakes_rx) = mpsc::unbounded_channel();
        let (ended, ended_rx) = mpsc::unbounded_channel();
        let (ended_for_review, ended_for_review_rx) = mpsc::unbounded_channel();
        let (put_out, put_out_rx) = mpsc::unbounded_channel();
        let core = Core {
            store,
            log,
            metrics,
            held: Held::default(),
            players: Players::default(),
            presence: Presence::default(),
            gate: tokio::sync::RwLock::new(false),
            closing: watch::Sender::new(false),
            games_per_player,
            notices,
            lobby_changed: AtomicBool::new(true),
            wakes,
            ended,
            ended_for_review,
            put_out,
        };
        let happenings = Happenings {
            wakes: wakes_rx,
            ended: ended_rx,
            ended_for_review: ended_for_review_rx,
            put_out: put_out_rx,
        };
        (core, happenings)
    }

    // ----- The server's life -----

    /// Leave to change the database, held while the change commits; `None` once the server
    /// shuts down.
    pub(crate) async fn hold(&self) -> Option<tokio::sync::RwLockReadGuard<'_, bool>> {
        let open = self.gate.read().await;
        (!*open).then_some(open)
    }

    /// Waits for the changes being committed, lets no new one begin, and tells the sessions
    /// and tasks to stop.
    pub(super) async fn close(&self) {
        *self.gate.write().await = true;
        self.closing.send_replace(true);
    }

    /// Changes to `true` when the server shuts down.
    pub(super) fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Whether the server is shutting down.
    pub(super) fn is_closing(&self) -> bool {
        *self.closing.borrow()
    }

    // ----- Games held -----

    /// Holds `stored`, whose table talk has `talk` lines.
    pub(super) fn insert(&self, stored: StoredGame, talk: u32) -> Shared {
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
    pub(super) async fn game_of_yours(&self, id: &GameId) -> Result<Shared, Refusal> {
        self.live(id).await.map_err(|_| Refusal::NoGame)
    }

    /// Game `id`, held or loaded.
    pub(super) async fn live(&self, id: &GameId) -> Result<Shared, Refusal> {
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

    /// A finished or unheld game as a summary sees it: read from the database and put right,
    /// without holding it.
    pub(super) async fn read_unheld(&self, id: &GameId) -> Result<LiveGame, StoreError> {
        let mut stored = self.store.load_game(id).await?;
        tidy(&mut stored);
        Ok(LiveGame::from(stored))
    }

    /// Loads the games whose time has come that are not held yet, and starts what is due on
    /// them; a game found not due after all (adjourned, say) gets its time put right in the
    /// database. Returns how many were loaded.
    pub(super) async fn load_due(&self) -> Result<usize, StoreError> {
        let now = self.store.now();
        let due = self.store.due_games(now, DUE_AT_ONCE).await?;
        let mut loaded = 0;
        for id in due {
            if self.held.contains(&id) {
                continue;
            }
            let live = match self.load(&id).await {
                Ok(live) => live,
                Err(e) => {
                    note!(self.log, ERROR, "game not loaded", game = id.0, why = e);
                    // Not looked at again until someone opens it.
                    let _ = self.store.set_due(&id, None).await;
                    continue;
                }
            };
            loaded += 1;
            let g = live.lock().await;
            if self.due(&g).is_none() {
                drop(g);
                self.keep_due_time(&id, &live).await;
            } else {
                drop(g);
                self.wake(&id);
            }
        }
        Ok(loaded)
    }

    /// Writes in the database when game `id` is next due as it stands (a holiday or an
    /// adjournment moves it), so that a server holding nothing finds it then.
    pub(super) async fn keep_due_time(&self, id: &GameId, live: &Shared) {
        let now = self.store.now();
        let next = {
            let g = live.lock().await;
            g.game.due_in().map(|d| g.game.moved_ms().saturating_add(d))
        };
        let next = next.filter(|&at| at > now);
        if let Err(e) = self.store.set_due(id, next).await {
            note!(self.log, WARN, "due time not kept", game = id.0, why = e);
        }
    }

    /// Lets go of the games nobody uses (no follower, no search, nothing due now, no take-back
    /// being asked) and of the channels nobody listens to. Returns how many games were let go.
    pub(super) fn let_go(&self) -> usize {
        let held = self.held.all();
        let opened: HashSet<GameId> = self.presence.games_open();
        let mut idle = Vec::new();
        for (id, live) in held {
            // A game busy now is looked at next time.
            let Ok(mut g) = live.try_lock() else {
                continue;
            };
            if !g.followed() {
                g.events = None;
            }
            let unused = !g.followed()
                && !g.thinking
                && g.game.take_back().is_none()
                && self.due(&g).is_none()
                && !opened.contains(&id);
            if unused {
                idle.push(id);
            }
        }
        self.held.let_go(&idle);
        self.players.let_go_unheard();
        idle.len()
    }

    /// Games and players' channels held now.
    pub(super) fn held_counts(&self) -> (usize, usize) {
        (self.held.len(), self.players.held())
    }

    /// Reads a game again from the database (changed by another server) and tells its
    /// followers what changed.
    pub(super) async fn refresh(&self, id: &GameId) {
        let live = self.held.get(id);
        let Some(live) = live else {
            // Not held here: read when someone opens it here, or when it is due.
            return;
        };
        // Read while holding the game, so that reads and this server's own moves apply in the
        // order they happened.
        let mut g = live.lock().await;
        let stored = match self.store.load_game(id).await {
            Ok(stored) => stored,
            Err(e) => {
                note!(self.log, ERROR, "game not read again", game = id.0, why = e);
                return;
            }
        };
        // Who is present, as the game now read says (the seats' last sightings included).
        let present = self.present_in(id, &stored.seats);
        let events = g.game.replace(stored, &present, self.store.now());
        for event in events {
            g.tell(event);
        }
        self.catch_up_talk(&mut g).await;
        // (The server that made a move tells its player to move, on every server.)
        drop(g);
        self.wake(id);
    }

    /// Tells the followers the lines of table talk other servers on the database stored since
    /// the game was last read here (nothing to do on SQLite: every line is said here).
    pub(super) async fn catch_up_talk(&self, g: &mut Live) {
        if !self.store.is_postgres() {
            return;
        }
        match self.store.talk_from(&g.game.id, g.talk).await {
            Ok(lines) => {
                for line in lines {
                    g.talk = g.talk.max(line.n + 1);
                    g.tell(Event::Said {
                        game: g.game.id.clone(),
                        line,
                    });
                }
            }
            Err(e) => note!(
                self.log,
                WARN,
                "table talk not read",
                game = g.game.id.0,
                why = e
            ),
        }
    }

    // ----- Turns due -----

    /// What is due in the game now, unless a search already runs on it.
    pub(super) fn due(&self, live: &Live) -> Option<Due> {
        if live.thinking {
            return None;
        }
        live.game.due(self.store.now(), &self.present(&live.game))
    }

    /// Has the computers look at game `id`: a computer or stand-in starts on its turn if one
    /// is due and none is thinking.
    pub(super) fn wake(&self, id: &GameId) {
        // Nobody reading is a hub shutting down: nothing is due any more.
        let _ = self.wakes.send(id.clone());
    }

    /// Wakes the games held with a move due now (a game busy elsewhere is looked at next time).
    pub(super) fn wake_due(&self) {
        for (id, live) in self.held.all() {
            if live.try_lock().is_ok_and(|g| self.due(&g).is_some()) {
                self.wake(&id);
            }
        }
    }

    /// `player`'s part in game `id` is over (their seat put out): a tournament seats them again.
    pub(super) fn put_out(&self, id: &GameId, player: PlayerId) {
        let _ = self.put_out.send((id.clone(), player));
    }

    /// Game `id` ended: it is rated and reviewed soon, and the lobby shows it gone.
    pub(super) fn ended(&self, id: &GameId) {
        let _ = self.ended.send(id.clone());
        let _ = self.ended_for_review.send(id.clone());
        self.touch_lobby();
    }

    // ----- The lobby's flag -----

    /// Something the lobby shows changed here: it is recounted soon.
    pub(super) fn touch_lobby(&self) {
        self.lobby_changed.store(true, Ordering::Relaxed);
    }

    /// Whether something the lobby shows changed since the lobby last asked.
    pub(super) fn lobby_touched(&self) -> bool {
        self.lobby_changed.swap(false, Ordering::Relaxed)
    }

    // ----- Telling -----

    /// The events for `player` themself (another game waiting for them).
    pub(super) fn personal(&self, player: &PlayerId) -> broadcast::Receiver<Event> {
        self.players.subscribe(player)
    }

    /// Tells the player to move, on all their connections (on every server), that the game
    /// waits for them.
    pub(super) fn tell_next(&self, g: &Live) {
        if let Some((holder, event)) = g.game.your_turn() {
            self.tell_player(&holder, event);
        }
    }

    /// Tells `player` `event` on all their connections: here at once, through the other
    /// servers on a PostgreSQL database by a notice.
    pub(super) fn tell_player(&self, player: &PlayerId, event: Event) {
        if self.store.is_postgres() {
            let (store, log) = (self.store.clone(), self.log.clone());
            let (player, event) = (player.clone(), event.clone());
            tokio::spawn(async move {
                if let Err(e) = store.tell_player(&player, &event).await {
                    note!(
                        log,
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
    pub(super) fn tell_here(&self, player: &PlayerId, event: Event) {
        self.players.tell(player, event);
    }

    // ----- Who is here -----

    /// Notes that one more (`true`) or one fewer connection of `player` follows `game`. When
    /// that makes the player come (their first connection) or go (their last), the game's
    /// followers are told, once the game is free (a caller may hold it).
    pub(crate) fn follow(self: &Arc<Self>, game: &GameId, player: &PlayerId, on: bool) {
        if self.presence.follow(game, player, on) {
            let (core, game, player) = (self.clone(), game.clone(), player.clone());
            tokio::spawn(async move { core.tell_presence(&game, &player).await });
        }
    }

    /// Tells the followers of `game` whether `player` has it open here now, for each of their
    /// seats (as it is when told: a quick close and open tells twice the same).
    async fn tell_presence(&self, game: &GameId, player: &PlayerId) {
        let Some(live) = self.held.get(game) else {
            return;
        };
        let g = live.lock().await;
        let present = self.presence.here(game, player);
        for seat in g.game.seats_of(player) {
            g.tell(Event::Presence {
                game: game.clone(),
                seat,
                present,
            });
        }
    }

    /// Who counts as present in `game`, by seat: its holder has it open here, or was seen with
    /// it open on another server within [`PRESENT_FOR`].
    pub(super) fn present(&self, game: &LiveGame) -> Vec<bool> {
        self.present_in(&game.id, game.seats())
    }

    /// [`Core::present`] from a game's id and seats.
    fn present_in(&self, game: &GameId, seats: &[StoredSeat]) -> Vec<bool> {
        let now = self.store.now();
        seats
            .iter()
            .map(|s| {
                s.holder
                    .as_ref()
                    .is_some_and(|holder| self.presence.here(game, holder))
                    || s.seen_ms
                        .is_some_and(|seen| now - seen < PRESENT_FOR.as_millis() as i64)
            })
            .collect()
    }

    /// Notes in the database the players who have games open here.
    pub(super) async fn note_seen(&self) {
        for (game, player) in self.presence.everyone() {
            if let Err(e) = self.store.seen(&game, &player).await {
                note!(self.log, WARN, "presence not noted", why = e);
            }
        }
    }

    /// Whether `player` has a connection open now: here, or on another server that noted them
    /// online at `online_ms` within [`PRESENT_FOR`].
    pub(super) fn connected(&self, player: &PlayerId, online_ms: Option<i64>, now: i64) -> bool {
        self.players.signed_in(player)
            || online_ms.is_some_and(|seen| now - seen < PRESENT_FOR.as_millis() as i64)
    }

    /// Notes in the database the players signed in here (so that every server knows they are
    /// not away).
    pub(super) async fn note_online(&self) {
        let players = self.players.online();
        for some in players.chunks(500) {
            if let Err(e) = self.store.note_online(some).await {
                note!(self.log, WARN, "players online not noted", why = e);
            }
        }
    }

    /// The notices a move writes, as this server sends them.
    pub(super) fn notices_due(&self, notes: Vec<MailNote>) -> Vec<MailNote> {
        self.notices.due(notes)
    }
}
