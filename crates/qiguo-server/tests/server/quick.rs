//! Quick play ("Play now"): a person is seated at once against computers; the next person asking
//! for the same pace takes over a computer's kingdom in that game, is shown what they took over
//! and plays it from its next turn; another pace has its own games; newcomers asking at once
//! never get the same kingdom; a person plays at most a set number of quick games at once.

use crate::common::*;
use qiguo_client::Client;
use qiguo_rules::{Kingdom, Level};
use qiguo_server::protocol::{Answer, Ask, Event, GameView, Refusal, TakenOver};
use qiguo_server::{QuickPace, SeatPlan};
use qiguo_testkit::TempDir;

/// `client` asks to play now at `pace`: the kingdom, what was taken over, the game.
async fn quick(client: &mut Client, pace: QuickPace) -> (Kingdom, Option<TakenOver>, GameView) {
    match client.ask(Ask::Quick { pace }).await.unwrap() {
        Answer::Seated {
            kingdom,
            took_over,
            game,
        } => (kingdom, took_over, *game),
        other => panic!("{other:?}"),
    }
}

/// The seat of `kingdom` in `view`.
fn seat_of(view: &GameView, kingdom: Kingdom) -> usize {
    let seat = view
        .record
        .replay()
        .unwrap()
        .start_position()
        .seats()
        .player(kingdom)
        .unwrap();
    usize::from(seat)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_takes_over_a_computers_kingdom_in_a_game_of_their_pace() {
    let dir = TempDir::new("quick-takeover");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();

    // Ann plays now: a new game, Ann as Qin against six Medium computers at the calm pace.
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (kingdom, took_over, view) = quick(&mut ann, QuickPace::Calm).await;
    assert_eq!((kingdom, took_over), (Kingdom::Qin, None));
    assert_eq!(view.pace, QuickPace::Calm.pace());
    assert!(view.seats[0].yours);
    for seat in &view.seats[1..] {
        assert_eq!(seat.plan, SeatPlan::Computer(Level::Medium));
    }
    let mut ann = Table::new(ann, Answer::Game(Box::new(view)));
    ann.play(|moves| moves[0]).await;
    ann.wait_turn().await;

    // Bo asks for the same pace: Ann waits for company, so Bo takes a computer's kingdom in
    // her game, and is told what he took over.
    let (mut bo, _) = newcomer(&url, "Bo").await;
    let (kingdom, took_over, view) = quick(&mut bo, QuickPace::Calm).await;
    assert_eq!(view.id, ann.id);
    assert_ne!(kingdom, Kingdom::Qin);
    let took_over = took_over.expect("a game under way");
    assert_eq!(took_over.moves, 7, "a round was played");
    assert_eq!(took_over.to_move, Kingdom::Qin);
    let seat = seat_of(&view, kingdom);
    assert!(view.seats[seat].yours);
    assert_eq!(view.seats[seat].plan, SeatPlan::Open);
    assert_eq!(view.seats[seat].name.as_deref(), Some("Bo"));
    assert!(lines.contains("kingdom taken over"));
    // Ann hears him sit down.
    ann.until(PATIENCE, "Bo seated", |event| match event {
        Event::Seated { seat: s, name, .. } if usize::from(s) == seat => Some(name),
        _ => None,
    })
    .await;

    // From its next turn the kingdom is Bo's: the computers leave it to him.
    let mut bo = Table::new(bo, Answer::Game(Box::new(view)));
    ann.play(|moves| moves[0]).await;
    bo.wait_turn().await;
    assert_eq!(bo.game.position().to_move(), kingdom);
    bo.play(|moves| moves[0]).await;

    // Cy asks for another pace: a game of its own.
    let (mut cy, _) = newcomer(&url, "Cy").await;
    let (kingdom, took_over, view) = quick(&mut cy, QuickPace::Daily).await;
    assert_ne!(view.id, ann.id);
    assert_eq!((kingdom, took_over), (Kingdom::Qin, None));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn newcomers_asking_at_once_never_get_the_same_kingdom() {
    let dir = TempDir::new("quick-at-once");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (_, _, first) = quick(&mut ann, QuickPace::Brisk).await;
    let asking: Vec<_> = (0..9)
        .map(|i| {
            let url = url.clone();
            tokio::spawn(async move {
                let (mut client, _) = newcomer(&url, &format!("N{i}")).await;
                let (kingdom, _, view) = quick(&mut client, QuickPace::Brisk).await;
                assert!(view.seats[seat_of(&view, kingdom)].yours);
                (view.id, kingdom, client)
            })
        })
        .collect();
    let mut seated = vec![(first.id.clone(), Kingdom::Qin)];
    let mut clients = Vec::new();
    for asked in asking {
        let (id, kingdom, client) = asked.await.unwrap();
        seated.push((id, kingdom));
        clients.push(client);
    }
    let mut distinct = seated.clone();
    distinct.sort_by(|a, b| (&a.0.0, a.1 as u8).cmp(&(&b.0.0, b.1 as u8)));
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        seated.len(),
        "a kingdom given twice: {seated:?}"
    );
    // Ann was waiting for company: someone took a kingdom in her game.
    assert!(
        seated[1..].iter().any(|(id, _)| *id == first.id),
        "{seated:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_set_number_of_quick_games_at_once() {
    let dir = TempDir::new("quick-limit");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    let mut games = Vec::new();
    for pace in [QuickPace::Brisk, QuickPace::Brisk, QuickPace::Relaxed] {
        let (_, _, view) = quick(&mut ann, pace).await;
        assert!(!games.contains(&view.id), "never twice in one game");
        games.push(view.id);
    }
    let refused = ann
        .ask(Ask::Quick {
            pace: QuickPace::Daily,
        })
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("3 quick games"), "{refused}");
    match refused {
        qiguo_client::ClientError::Refused { refusal, .. } => {
            assert_eq!(refusal, Refusal::TooManyQuickGames { max: 3 })
        }
        other => panic!("{other:?}"),
    }
}

/// A person who leaves a quick game: Bo takes Chu over in Ann's brisk game and goes; a stand-in
/// plays his turn when its 30 s are up, and again at his next turn, until he has been missing
/// for a minute: then a computer takes Chu over for good (Ann is told), he counts as having
/// left a rated game, and the next newcomer may be given his kingdom.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_missing_past_the_grace_is_replaced_by_a_computer() {
    use qiguo_server::protocol::RatingFamily;

    let dir = TempDir::new("quick-replaced");
    let lines = Lines::default();
    let (clock, now) = hand_clock(1_800_000_000_000);
    let server = start(&sqlite(&dir), Some(clock), &lines).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (_, _, view) = quick(&mut ann, QuickPace::Brisk).await;
    let mut ann = Table::new(ann, Answer::Game(Box::new(view)));
    let (mut bo, _) = newcomer(&url, "Bo").await;
    let (kingdom, _, bos) = quick(&mut bo, QuickPace::Brisk).await;
    let seat = seat_of(&bos, kingdom) as u8;
    assert_eq!(
        (kingdom, seat),
        (Kingdom::Chu, 1),
        "the best standing, first in order"
    );
    bo.close().await;

    // Ann moves; Bo is gone: his turn waits 30 s, then a stand-in plays it.
    ann.play(|moves| moves[0]).await;
    *now.lock().unwrap() += 31_000;
    ann.catch_up(2, PATIENCE, "the stand-in's move for Bo")
        .await;
    assert_eq!(ann.game.reports().nth(1).unwrap().mover, Kingdom::Chu);
    ann.wait_turn().await;
    // A minute after the first stand-in, at his next turn: replaced.
    *now.lock().unwrap() += 61_000;
    ann.play(|moves| moves[0]).await;
    let (replaced, level, name) = ann
        .until(PATIENCE, "Bo replaced", |event| match event {
            Event::Replaced {
                seat, level, name, ..
            } => Some((seat, level, name)),
            _ => None,
        })
        .await;
    assert_eq!((replaced, level, name.as_str()), (1, Level::Easy, "Bo"));
    assert!(lines.contains("absent player replaced"));
    // The computer plays on for Chu; Ann's turn comes round.
    ann.wait_turn().await;

    // Bo left a rated game: his reliability says so.
    let ratings = ann
        .client
        .ask(Ask::Ratings {
            family: RatingFamily::Live,
            of: Some("Bo".into()),
        })
        .await
        .unwrap();
    let Answer::Ratings { player, .. } = ratings else {
        panic!("{ratings:?}")
    };
    assert_eq!(player.rating.left, 1, "{player:?}");

    // Chu is a computer's again: a newcomer may be given it.
    let (mut cy, _) = newcomer(&url, "Cy").await;
    let (_, took_over, cys) = quick(&mut cy, QuickPace::Brisk).await;
    assert_eq!(cys.id, ann.id);
    assert!(took_over.is_some());
    let chu = &cys.seats[1];
    assert!(
        matches!(chu.plan, SeatPlan::Computer(_)) || chu.name.as_deref() == Some("Cy"),
        "{chu:?}"
    );
}
