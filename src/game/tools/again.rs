//! `--again`: when a game that computers play by themselves ends, another like it (the same
//! start, the same players) begins [`PAUSE`] later, and so on until the window closes. It keeps
//! a window playing for as long as a measurement needs (the memory bench's hour: one game of
//! seven Medium computers lasts a quarter of it), each new game replacing the board as a
//! player's *New game* does.

use std::time::Duration;

use bevy::prelude::*;

use crate::game::frames::Redraw;
use crate::game::schedule::AppSystems;
use crate::game::state::{Match, NewGameRequested};

/// How long a finished game stays on the board before the next begins.
pub(crate) const PAUSE: Duration = Duration::from_secs(5);

/// The games begun again so far, counted (`--again`); the pause running after a game ended.
#[derive(Resource, Default, Debug)]
pub(crate) struct PlayAgain {
    /// Games begun again since the window opened.
    pub(crate) begun: u32,
    pause: Option<Timer>,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PlayAgain>()
        .add_systems(Update, play_again.in_set(AppSystems::RecordInput));
}

/// A finished game of computers only: after the pause, the same start with the same players.
fn play_again(
    mut again: ResMut<PlayAgain>,
    game: Res<Match>,
    time: Res<Time>,
    mut games: MessageWriter<NewGameRequested>,
    mut redraw: Redraw,
) {
    let computers_only = game.players().iter().all(|p| p.computer.is_some());
    if !game.position().is_over() || !computers_only {
        again.pause = None;
        return;
    }
    let pause = again
        .pause
        .get_or_insert_with(|| Timer::new(PAUSE, TimerMode::Once));
    pause.tick(time.delta());
    if !pause.is_finished() {
        // The board rests meanwhile: a frame when the pause is up.
        redraw.within(pause.remaining());
        return;
    }
    again.pause = None;
    again.begun += 1;
    info!(
        games = again.begun + 1,
        "a game of computers ended: another begins"
    );
    games.write(NewGameRequested::new(
        game.game().start_position().clone(),
        game.players().to_vec(),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiguo_rules::record::PlayerInfo;
    use qiguo_rules::{Game, Rules, Seats};

    /// A finished game of seven computers, the app's clock stepped by hand.
    fn app_with(game: Game, computer: bool) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<NewGameRequested>()
            .add_message::<bevy::window::RequestRedraw>()
            .init_resource::<crate::game::frames::FrameDue>()
            .init_resource::<crate::game::frames::FramesAsked>()
            .configure_sets(Update, AppSystems::RecordInput);
        let players = (0..7)
            .map(|_| PlayerInfo {
                name: "Computer".into(),
                computer: computer.then_some(qiguo_rules::Level::Easy),
            })
            .collect();
        app.insert_resource(Match::from_game(game, players));
        app.add_plugins(plugin);
        app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
            Duration::from_secs(1),
        ));
        // As the window drawing on demand has it: a frame after a rest sees the whole rest.
        app.world_mut()
            .resource_mut::<Time<Virtual>>()
            .set_max_delta(Duration::MAX);
        app
    }

    fn finished() -> Game {
        let mut game = Game::start(Rules::default(), Seats::default());
        game.end_early().expect("a game ends early");
        game
    }

    fn requested(app: &mut App) -> Vec<NewGameRequested> {
        app.world_mut()
            .resource_mut::<Messages<NewGameRequested>>()
            .drain()
            .collect()
    }

    #[test]
    fn a_finished_game_of_computers_begins_again_after_the_pause() {
        let mut app = app_with(finished(), true);
        // The first update starts the clock; each after it steps one second.
        let seconds = PAUSE.as_secs() as usize;
        for _ in 0..seconds {
            app.update();
            assert!(requested(&mut app).is_empty(), "not before the pause is up");
        }
        app.update();
        let asked = requested(&mut app);
        assert_eq!(asked.len(), 1, "one new game");
        assert!(asked[0].game.is_empty(), "from the start");
        assert_eq!(
            asked[0].game.start_position(),
            finished().start_position(),
            "the same start"
        );
        assert!(asked[0].players.iter().all(|p| p.computer.is_some()));
        assert_eq!(app.world().resource::<PlayAgain>().begun, 1);
    }

    #[test]
    fn a_game_going_on_or_with_a_person_is_left_alone() {
        let mut going_on = app_with(Game::start(Rules::default(), Seats::default()), true);
        let mut with_person = app_with(finished(), false);
        for _ in 0..(PAUSE.as_secs() + 3) {
            going_on.update();
            with_person.update();
        }
        assert!(requested(&mut going_on).is_empty());
        assert!(requested(&mut with_person).is_empty());
    }
}
