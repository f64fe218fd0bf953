//! The game without a window: the logic plugins on `MinimalPlugins`, for the tests (time
//! stepped by hand, computers limited to a fixed number of positions, so that games repeat)
//! and the benchmarks (real time and the game's own computers). One builder for both, so that
//! what is measured is what is tested.

use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use qiguo_ai::{Level, Limits};
use qiguo_rules::{Game, PlayerInfo, Position};

use crate::game::app::plugins::logic_plugins;
use crate::game::computer::ComputerSettings;
use crate::game::hint::Hint;
use crate::game::pace::{Pace, PaceChoice};
use crate::game::saving::SaveStore;
use crate::game::state::Match;
use crate::saves::SaveDir;

/// Simulated seconds per frame.
pub const FRAME: Duration = Duration::from_millis(20);

/// Positions a computer searches per move in tests: the same move on every machine.
pub const TEST_NODES: u64 = 3_000;

/// Builds a headless app around a match.
pub struct Headless {
    game: Game,
    players: Vec<PlayerInfo>,
    computers: ComputerSettings,
    pace: PaceChoice,
    store: Option<SaveStore>,
    /// Frames advance real time (benchmarks) rather than [`FRAME`] each.
    real_time: bool,
}

impl Headless {
    /// People at every seat, from `start`.
    pub fn new(start: Position) -> Headless {
        Headless::from_game(Game::new(start))
    }

    /// People at every seat, continuing `game`.
    pub fn from_game(game: Game) -> Headless {
        let players = PlayerInfo::defaults(game.position().seats().player_count());
        Headless {
            game,
            players,
            computers: ComputerSettings {
                enabled: true,
                movetime: None,
                nodes: Some(TEST_NODES),
                wait_for_search: true,
                seed: 1,
                threads: 1,
            },
            pace: PaceChoice::Brisk,
            store: None,
            real_time: false,
        }
    }

    /// Who plays each player number: a computer level or a person (`None`).
    pub fn levels(mut self, levels: &[Option<Level>]) -> Headless {
        for (player, level) in self.players.iter_mut().zip(levels) {
            player.computer = *level;
        }
        self
    }

    /// Computer players never search: the test writes their requests itself.
    pub fn computers_idle(mut self) -> Headless {
        self.computers.enabled = false;
        self
    }

    /// Another pace (brisk unless asked).
    pub fn pace(mut self, pace: PaceChoice) -> Headless {
        self.pace = pace;
        self
    }

    /// Another seed for the computers' variety.
    pub fn seed(mut self, seed: u64) -> Headless {
        self.computers.seed = seed;
        self
    }

    /// Saves in `dir`, offering to resume its autosave at start if `offer_resume`.
    pub fn saving(mut self, dir: &SaveDir, offer_resume: bool) -> Headless {
        let mut store = SaveStore::at(dir.clone());
        store.offer_resume = offer_resume;
        self.store = Some(store);
        self
    }

    /// The game's own computers (their levels' time and positions, every core for Hard) in
    /// real time, as a benchmark measures them.
    pub fn as_played(mut self) -> Headless {
        self.computers = ComputerSettings::default();
        self.real_time = true;
        self
    }

    /// The app, after its first frame.
    pub fn build(self) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        if !self.real_time {
            app.insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
        }
        app.insert_resource(Match::from_game(self.game, self.players));
        app.insert_resource(self.computers);
        app.insert_resource(Pace(self.pace));
        if !self.real_time {
            app.insert_resource(Hint::with_limits(Limits {
                nodes: Some(TEST_NODES),
                ..Limits::default()
            }));
        }
        if let Some(store) = self.store {
            app.insert_resource(store);
        }
        logic_plugins(&mut app);
        // As in the game: the main world's systems run one after another on one thread.
        crate::game::app::run_main_world_on_one_thread(&mut app);
        // As `App::run` does: plugins finish setting up (the network's protocol among them).
        app.finish();
        app.cleanup();
        app.update();
        app
    }
}
