//! A core on a SQLite file of its own, for testing each slice by itself: the slice is built on
//! it as the hub builds it, and the test reads what the core tells.

use std::sync::Arc;

use qiguo_rules::{Game, Level, Position, Rules};
use qiguo_testkit::TempDir;
use tokio::sync::broadcast;

use super::core::{Core, Happenings, NoticeTimes};
use crate::log::Log;
use crate::metrics::Metrics;
use crate::protocol::{Answer, Event, NewGame};
use crate::store::{GameId, Pace, PlayerId, SeatPlan, Store};

/// How long a test waits for what it expects to be told: long past any busy machine's delay.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);

/// A core, its store and the ends of its channels.
pub(super) struct Bench {
    pub(super) store: Store,
    pub(super) log: Log,
    pub(super) metrics: Arc<Metrics>,
    pub(super) core: Arc<Core>,
    pub(super) happenings: Happenings,
    /// Kept until the test ends: the database's folder.
    _dir: TempDir,
}

impl Bench {
    /// A core on a new database in a folder named for `test`.
    pub(super) async fn new(test: &str) -> Bench {
        let dir = TempDir::new(test);
        let url = format!("sqlite://{}", dir.join("games.db").display());
        let store = Store::open(&url).await.expect("a new database opens");
        let log = Log::default();
        let metrics = Arc::new(Metrics::default());
        let (core, happenings) = Core::new(
            store.clone(),
            log.clone(),
            metrics.clone(),
            10,
            NoticeTimes::default(),
        );
        Bench {
            store,
            log,
            metrics,
            core: Arc::new(core),
            happenings,
            _dir: dir,
        }
    }

    /// A new player called `name`.
    pub(super) async fn player(&self, name: &str) -> PlayerId {
        self.store.add_player(name).await.expect("a new name").id
    }

    /// A live game of the classic rules that `creator` makes as Qin, with `others` for the six
    /// other seats.
    pub(super) async fn game(&self, creator: &PlayerId, others: SeatPlan) -> GameId {
        self.game_seated(creator, 0, others, Pace::Live { wait_seconds: 60 })
            .await
    }

    /// A game by correspondence (a day a move) that `creator` makes as Qin, the other seats
    /// open.
    pub(super) async fn correspondence_game(&self, creator: &PlayerId) -> GameId {
        let pace = Pace::Correspondence {
            days: 1,
            overdue: crate::store::WhenOverdue::StandIn,
        };
        self.game_seated(creator, 0, SeatPlan::Open, pace).await
    }

    /// A game of the classic rules at `pace` that `creator` makes in seat `seat`, with
    /// `others` for the six other seats.
    pub(super) async fn game_seated(
        &self,
        creator: &PlayerId,
        seat: usize,
        others: SeatPlan,
        pace: Pace,
    ) -> GameId {
        let start = Game::new(Position::start(Rules::default()));
        let plans = (0..7)
            .map(|i| if i == seat { SeatPlan::Creator } else { others })
            .collect();
        let new = NewGame::build(&start, plans, pace, |i, _| format!("P{i}"))
            .expect("a game the server makes");
        match self.core.create(creator, new).await {
            Ok(Answer::Created { game, .. }) => game,
            other => panic!("not created: {other:?}"),
        }
    }

    /// A game against six Random computers, made by `creator` in the last seat: the computers
    /// move first.
    pub(super) async fn game_after_computers(&self, creator: &PlayerId) -> GameId {
        let pace = Pace::Live { wait_seconds: 60 };
        self.game_seated(creator, 6, SeatPlan::Computer(Level::Random), pace)
            .await
    }

    /// What `heard` hears next: a test waits for it, but not for ever (a lost event fails
    /// the test rather than hang it).
    pub(super) async fn next<T: Clone>(heard: &mut broadcast::Receiver<T>) -> T {
        tokio::time::timeout(PATIENCE, heard.recv())
            .await
            .expect("nothing told within the patience")
            .expect("the channel is open")
    }

    /// The events of game `id` from now on.
    pub(super) async fn follow(&self, id: &GameId) -> broadcast::Receiver<Event> {
        let live = self.core.live(id).await.expect("the game is there");
        live.lock().await.subscribe()
    }
}
