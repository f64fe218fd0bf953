//! The games a server holds while it runs, and every request about them, by concern. The
//! hub's core ([`core`] and [`games`]) holds the games in memory, who has each open and each
//! player's own channel, and coordinates the requests that change a game: check it on the
//! game's pure core ([`LiveGame`]), store it, apply it, tell the followers. Each other concern
//! is a slice of its own, built with only what it needs (its constructor says what): signing in
//! ([`sign_in`]), the computers and stand-ins ([`computers`]), table talk ([`talk`]), holidays
//! ([`holidays`]), e-mail ([`mail`]), notifications pushed to devices ([`push`]), the lobby and
//! its tables ([`lobby`]), quick play ([`quick`]), ratings ([`ratings`]), conduct
//! ([`conduct`]), what comes after a game ([`after`]), the games' reviews ([`reviews`]) and
//! their puzzles ([`puzzles`]), clubs ([`clubs`]), their evenings ([`evenings`]), tournaments ([`tournaments`]) and the changes other servers on the
//! same PostgreSQL make ([`replication`]). The hub composes them, runs the clock and the outbox,
//! and a session hands each request to its slice. A new concern is a new slice here.
//!
//! Every change goes to the database first ([`Store`]) and is told once committed. A move is
//! checked against the rules engine before it is stored; the stored count of moves decides
//! between two servers wanting the same turn (the second is refused, and reads the game again).

mod after;
mod claims;
mod clubs;
mod computers;
mod conduct;
mod core;
mod evenings;
mod games;
mod held;
mod holidays;
mod lobby;
pub mod mail;
mod players;
mod presence;
mod push;
mod puzzles;
mod quick;
mod ratings;
mod replication;
mod reviews;
mod searches;
mod sign_in;
mod talk;
#[cfg(test)]
mod testing;
mod tournaments;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use qiguo_protocol::model::MAX_NAME_CHARS;
use qiguo_protocol::{Refusal, clean_name};
use tokio::sync::{broadcast, watch};

pub(crate) use self::after::After;
pub(crate) use self::clubs::Clubs;
pub use self::clubs::PLAYING_WITHIN;
use self::computers::Computers;
pub(crate) use self::conduct::Conduct;
pub(crate) use self::core::{Core, NoticeTimes};
pub use self::evenings::EVENINGS_EVERY;
pub(crate) use self::evenings::Evenings;
pub(crate) use self::holidays::{HOLIDAY_DAYS, Holidays};
pub(crate) use self::lobby::Lobby;
pub use self::lobby::{LOBBY_AT_LEAST, LOBBY_EVERY};
pub(crate) use self::mail::Mail;
pub use self::presence::{PRESENT_FOR, SEEN_EVERY};
pub(crate) use self::push::Push;
pub(crate) use self::puzzles::Puzzles;
pub(crate) use self::quick::Quick;
pub(crate) use self::ratings::Ratings;
use self::replication::Replication;
pub use self::replication::listener_name;
pub(crate) use self::reviews::Reviews;
pub(crate) use self::sign_in::SignIn;
pub(crate) use self::talk::Talk;
pub use self::tournaments::TOURNAMENTS_EVERY;
pub(crate) use self::tournaments::Tournaments;
use crate::live::LiveGame;
use crate::log::{Log, escaped, note};
use crate::mail::texts::MailLanguage;
use crate::metrics::Metrics;
use crate::protocol::Event;
use crate::store::{PlayerId, Store, StoreError, StoredGame};

/// How many events a follower may fall behind before it is told to read the game afresh
/// (nine rounds of seven moves; each slot is kept for every game followed).
const EVENTS_KEPT: usize = 64;

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        match e {
            StoreError::Refused(refusal) => refusal,
            StoreError::Failed(failed) => {
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

/// Why the server cannot serve now (`/healthz`).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unhealthy {
    /// It is shutting down.
    #[error("shutting down")]
    ShuttingDown,
    /// Its database failed.
    #[error(transparent)]
    Database(StoreError),
    /// Its database did not answer in time.
    #[error("the database did not answer within 2 s")]
    Silent,
}

/// The server's games and the clients following them: the core and a slice per concern.
pub struct Hub {
    /// The games held, who has them open, the players' channels; the requests about games.
    pub(crate) core: Arc<Core>,
    pub(crate) sign_in: SignIn,
    computers: Arc<Computers>,
    pub(crate) talk: Talk,
    pub(crate) holidays: Holidays,
    pub(crate) mail: Mail,
    pub(crate) push: Push,
    pub(crate) lobby: Arc<Lobby>,
    pub(crate) quick: Arc<Quick>,
    pub(crate) ratings: Arc<Ratings>,
    pub(crate) conduct: Conduct,
    pub(crate) after: After,
    pub(crate) reviews: Reviews,
    pub(crate) puzzles: Puzzles,
    pub(crate) clubs: Clubs,
    pub(crate) evenings: Arc<Evenings>,
    pub(crate) tournaments: Arc<Tournaments>,
    /// The other servers' changes, on PostgreSQL.
    replication: Option<Arc<Replication>>,
    store: Store,
    metrics: Arc<Metrics>,
    log: Log,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Hub {
    /// A hub on `store`: loads every unfinished game, starts the clock, the lobby's keeper and
    /// the outbox (and, on PostgreSQL, the listener for other servers' changes). Must be called
    /// within a Tokio runtime. A player may hold a seat in `games_per_player` unfinished games
    /// at most, and take `holiday_days` days of holiday a calendar year. With `mailing`, it
    /// e-mails players who are away; with `pusher`, it notifies their devices. It reviews
    /// `reviewers` finished games at once (none: workers on the database review them), searching
    /// `review_nodes` positions a move.
    pub(crate) async fn start(
        store: Store,
        log: Log,
        games_per_player: u32,
        holiday_days: u32,
        mailing: Option<mail::Mailing>,
        pusher: Option<crate::push::Pusher>,
        reviewers: usize,
        review_nodes: u64,
    ) -> Result<Arc<Hub>, StoreError> {
        // The outbox is read as often as the e-mail's timing says, or else the push's.
        let outbox_every = mailing
            .as_ref()
            .map(|m| m.config().timing.every)
            .or_else(|| pusher.as_ref().map(|p| p.config().timing.every));
        let notices = NoticeTimes {
            mail_turn_after: mailing.as_ref().map(|m| m.config().timing.turn_after),
            push_turn_after: pusher.as_ref().map(|p| p.config().timing.turn_after),
        };
        let metrics = Arc::new(Metrics::default());
        let (core, happenings) = Core::new(
            store.clone(),
            log.clone(),
            metrics.clone(),
            games_per_player,
            notices,
        );
        let core = Arc::new(core);
        let (s, l, m) = (&store, &log, &metrics);
        let give_way = Arc::new(crate::reviewing::GiveWay::default());
        let quick = Arc::new(Quick::new(core.clone(), s.clone(), l.clone()));
        let evenings = Arc::new(Evenings::new(
            core.clone(),
            s.clone(),
            l.clone(),
            quick.clone(),
        ));
        let computers = Computers::start(
            core.clone(),
            s.clone(),
            l.clone(),
            searches::Searches::start(qiguo_ai::available_threads(), give_way.clone()),
            claims::Claims::new(s.clone(), l.clone()),
            happenings.wakes,
        );
        let hub = Arc::new(Hub {
            sign_in: SignIn::new(s.clone(), l.clone()),
            computers,
            talk: Talk::new(core.clone(), s.clone(), m.clone(), l.clone()),
            holidays: Holidays::new(core.clone(), s.clone(), l.clone(), holiday_days),
            mail: Mail::new(core.clone(), s.clone(), m.clone(), l.clone(), mailing),
            push: Push::new(core.clone(), s.clone(), m.clone(), l.clone(), pusher),
            lobby: Arc::new(Lobby::new(core.clone(), s.clone(), l.clone())),
            quick,
            ratings: Arc::new(Ratings::new(core.clone(), s.clone(), l.clone())),
            conduct: Conduct::new(s.clone(), l.clone()),
            after: After::new(core.clone(), s.clone(), l.clone()),
            reviews: Reviews::start(
                &core,
                s.clone(),
                l.clone(),
                m.clone(),
                reviewers,
                review_nodes,
                give_way,
                happenings.ended_for_review,
            ),
            puzzles: Puzzles::new(s.clone(), l.clone()),
            clubs: Clubs::new(core.clone(), s.clone(), l.clone(), evenings.clone()),
            evenings,
            tournaments: Arc::new(Tournaments::new(core.clone(), s.clone(), l.clone())),
            replication: store
                .is_postgres()
                .then(|| Arc::new(Replication::new(core.clone(), s.clone(), l.clone()))),
            core,
            store,
            metrics,
            log,
        });
        if let Some(replication) = &hub.replication {
            replication.listen_first().await;
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
        let due = hub.core.load_due().await?;
        note!(hub.log, INFO, "games due loaded", games = due);
        hub.ratings.start(happenings.ended);
        hub.tournaments.start(happenings.put_out);
        tokio::spawn(Hub::clock(Arc::downgrade(&hub)));
        tokio::spawn(Lobby::keeper(Arc::downgrade(&hub.lobby)));
        tokio::spawn(Evenings::keeper(Arc::downgrade(&hub.evenings)));
        tokio::spawn(Tournaments::keeper(Arc::downgrade(&hub.tournaments)));
        if let Some(every) = outbox_every {
            tokio::spawn(Hub::outbox(Arc::downgrade(&hub), every));
        }
        Ok(hub)
    }

    /// Leave to change the database, held while the change commits; `None` once the server
    /// shuts down.
    pub(crate) async fn hold(&self) -> Option<tokio::sync::RwLockReadGuard<'_, bool>> {
        self.core.hold().await
    }

    /// Shuts the hub: waits for the changes being committed, lets no new one begin, and tells
    /// the sessions to close their connections.
    pub(crate) async fn close(&self) {
        self.core.close().await;
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
        self.core.closing()
    }

    /// This server's name among those on one database ([`Store::server_id`]).
    pub fn server_id(&self) -> &str {
        self.store.server_id()
    }

    /// What the server counts.
    pub(crate) fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The metrics in Prometheus's text format, `connections` being open.
    pub(crate) fn render_metrics(&self, connections: usize) -> String {
        let (games, players) = self.held();
        self.metrics
            .render(connections, self.computers.waiting(), games, players)
    }

    /// Whether the server can serve: not shutting down, and its database answering.
    pub(crate) async fn healthy(&self) -> Result<(), Unhealthy> {
        if self.core.is_closing() {
            return Err(Unhealthy::ShuttingDown);
        }
        match tokio::time::timeout(Duration::from_secs(2), self.store.ping()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Unhealthy::Database(e)),
            Err(_) => Err(Unhealthy::Silent),
        }
    }

    /// The server's log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The events for `player` themself (another game waiting for them).
    pub(crate) fn personal(&self, player: &PlayerId) -> broadcast::Receiver<Event> {
        self.core.personal(player)
    }

    /// Notes the language `player` reads (`en`, `sv`, `zh`), said at hello, for the e-mails and
    /// notifications.
    pub(crate) async fn note_language(&self, player: &PlayerId, code: &str) {
        if !self.mail.offered() && self.push.pusher().is_none() {
            return;
        }
        let language = MailLanguage::from_code(Some(code));
        if let Err(e) = self.store.set_language(player, language.code()).await {
            note!(
                self.log,
                WARN,
                "language not noted",
                player = player.0,
                why = e
            );
        }
    }

    /// Loads the games whose time has come that are not held yet, and starts what is due on
    /// them; a game found not due after all (adjourned, say) gets its time put right in the
    /// database. Returns how many were loaded.
    pub async fn load_due(&self) -> Result<usize, StoreError> {
        self.core.load_due().await
    }

    /// Lets go of the games nobody uses (no follower, no search, nothing due now, no take-back
    /// being asked) and of the channels nobody listens to. Returns how many games were let go.
    /// The hub's clock calls it (and [`Hub::load_due`]) every [`SEEN_EVERY`].
    pub fn let_go(&self) -> usize {
        self.core.let_go()
    }

    /// Games and players' channels held now.
    pub fn held(&self) -> (usize, usize) {
        self.core.held_counts()
    }

    /// Every second: the computers and stand-ins that are due; every [`SEEN_EVERY`]: notes the
    /// players present here (and, with e-mail, online), lets go of the games nobody uses and
    /// loads those whose time has come.
    async fn clock(hub: std::sync::Weak<Hub>) {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let mut seen_at = tokio::time::Instant::now();
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade() else {
                return;
            };
            hub.core.wake_due();
            if seen_at.elapsed() >= SEEN_EVERY {
                seen_at = tokio::time::Instant::now();
                hub.core.note_seen().await;
                // Who is online matters to e-mail (not sent to one who is), and across servers
                // to clubs (their members shown online wherever they are connected).
                if hub.mail.offered() || hub.store.is_postgres() {
                    hub.core.note_online().await;
                }
                let gone = hub.let_go();
                if gone > 0 {
                    let (games, players) = hub.held();
                    note!(
                        hub.log,
                        INFO,
                        "games nobody uses let go",
                        gone = gone,
                        games = games,
                        players = players
                    );
                }
                if let Err(e) = hub.load_due().await {
                    note!(hub.log, WARN, "games due not read", why = e);
                }
            }
        }
    }

    /// Every [`crate::mail::MailTiming::every`] while the server runs: the e-mails and
    /// notifications due sent, each by its slice; old tokens and e-mails forgotten hourly.
    async fn outbox(hub: std::sync::Weak<Hub>, every: Duration) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut pruned: Option<tokio::time::Instant> = None;
        loop {
            tick.tick().await;
            let Some(hub) = hub.upgrade() else {
                return;
            };
            if hub.core.is_closing() {
                return;
            }
            while hub.send_due().await == mail::CLAIM_AT_ONCE as usize {}
            if pruned.is_none_or(|at| at.elapsed() >= mail::PRUNE_EVERY) {
                pruned = Some(tokio::time::Instant::now());
                if let Err(e) = hub.store.prune_mail().await {
                    note!(hub.log, WARN, "old e-mails not forgotten", why = e);
                }
            }
        }
    }

    /// Sends the e-mails and notifications due now (a few at a time): how many were claimed.
    async fn send_due(&self) -> usize {
        let (mailing, pusher) = (self.mail.mailing(), self.push.pusher());
        let claimed = match self
            .store
            .claim_mail(mail::CLAIM_AT_ONCE, mailing.is_some(), pusher.is_some())
            .await
        {
            Ok(claimed) => claimed,
            Err(e) => {
                note!(self.log, WARN, "the outbox was not read", why = e);
                return 0;
            }
        };
        for out in &claimed {
            if self.core.is_closing() {
                // Claims run out; this server or another sends them later.
                break;
            }
            match (mailing, pusher) {
                (_, Some(pusher)) if out.kind.pushed() => self.push.push_one(pusher, out).await,
                (Some(mailing), _) if !out.kind.pushed() => self.mail.send_one(mailing, out).await,
                // Not claimed by a server that does not send it.
                _ => {}
            }
        }
        claimed.len()
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
    use crate::store::{GameId, SeatPlan, StoredSeat};

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
