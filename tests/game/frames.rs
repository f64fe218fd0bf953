//! Drawing on demand: a game asks for frames while something moves or waits on time, and none
//! once it waits for its person.

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::frames::FramesAsked;
use qiguo::game::pace::PaceChoice;
use qiguo::game::state::TurnPhase;
use qiguo_ai::Level;
use qiguo_rules::{Position, Preset, Rules};

fn asked(app: &App) -> FramesAsked {
    *app.world().resource::<FramesAsked>()
}

#[test]
fn a_game_waiting_for_its_person_asks_for_no_frames() {
    for pace in PaceChoice::ALL {
        let mut levels = vec![Some(Level::Easy); 7];
        levels[0] = None;
        let mut app = TestApp::new(Position::start(Rules::preset(Preset::Classic)))
            .levels(&levels)
            .pace(pace)
            .build();
        let before = asked(&app);
        let mv = quiet_move(&app);
        request(&mut app, mv);
        run_until(&mut app, 2000, "the round", |app| {
            moves(app) == 7 && phase(app) == TurnPhase::AwaitingInput
        });
        let round = asked(&app);
        // The glides ask for the frames that show them; a pace with a pause asks for a frame
        // when each pause is over.
        assert!(round.now > before.now, "{pace:?}: {before:?} → {round:?}");
        if pace != PaceChoice::Instant {
            assert!(
                round.later > before.later,
                "{pace:?}: {before:?} → {round:?}"
            );
        }
        // The frame that hands Qin the turn may still ask for one more (the last glide's end).
        app.update();
        let settled = asked(&app);
        for _ in 0..200 {
            app.update();
        }
        assert_eq!(
            asked(&app),
            settled,
            "{pace:?}: frames asked for while the game waits for Qin"
        );
    }
}
