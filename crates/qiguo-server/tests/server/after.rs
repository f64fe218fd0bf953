//! After the game: a finished game leaves the list of games in progress for *Finished* (paged,
//! with its winner and how), and a rematch seats the same players at the same rules and pace.

use crate::common::*;
use qiguo_client::Client;
use qiguo_rules::{Kingdom, Move};
use qiguo_server::protocol::{Answer, Ask, Event, FINISHED_PER_PAGE, GameSummary, Refusal};
use qiguo_server::{GameId, Pace};
use qiguo_testkit::TempDir;

const LIVE: Pace = Pace::Live { wait_seconds: 600 };

async fn games(client: &mut Client) -> Vec<GameSummary> {
    match client.ask(Ask::Games {}).await.unwrap() {
        Answer::Games { games } => games,
        other => panic!("{other:?}"),
    }
}

async fn finished(client: &mut Client, page: u32) -> (Vec<GameSummary>, bool) {
    match client.ask(Ask::Finished { page }).await.unwrap() {
        Answer::Finished { games, more, .. } => (games, more),
        other => panic!("{other:?}"),
    }
}

/// `ann` creates the endgame, a new player Bo joins it (Chu) and concedes: the game is over,
/// Qin's. Bo's table, and the game.
async fn a_finished_game(ann: &mut Client, url: &str) -> (Table, GameId) {
    // Names are unique on a server: each game's Bo is another.
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (bo, _) = newcomer(url, &format!("Bo {n}")).await;
    let (id, code) = create(ann, endgame(LIVE)).await;
    let mut bo = join(bo, &code, Kingdom::Chu).await;
    bo.play(|_| Move::CONCEDE).await;
    assert!(bo.game.position().is_over());
    (bo, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_are_listed_apart_with_their_result() {
    let dir = TempDir::new("after-finished");
    // A clock the test moves a second a game, so that each finished later than the last.
    let (clock, now) = hand_clock(1_800_000_000_000);
    let server = start(&sqlite(&dir), Some(clock), &Lines::default()).await;
    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    let (_bo, id) = a_finished_game(&mut ann, &server.url()).await;
    // Not among the games in progress; among the finished, with the winner and how.
    assert!(games(&mut ann).await.iter().all(|g| g.id != id));
    let (done, more) = finished(&mut ann, 0).await;
    assert!(!more);
    assert_eq!(done.len(), 1);
    assert_eq!(
        (
            &done[0].id,
            done[0].finished,
            done[0].winner,
            done[0].victory.as_deref()
        ),
        (&id, true, Some(Kingdom::Qin), Some("last_kingdom"))
    );
    // Paged, the newest first: with one more than a page, two pages.
    let mut ids = vec![id];
    for _ in 0..FINISHED_PER_PAGE {
        *now.lock().unwrap() += 1_000;
        ids.push(a_finished_game(&mut ann, &server.url()).await.1);
    }
    let (first, more) = finished(&mut ann, 0).await;
    assert!(more);
    assert_eq!(first.len() as u32, FINISHED_PER_PAGE);
    assert_eq!(first[0].id, *ids.last().unwrap());
    let (second, more) = finished(&mut ann, 1).await;
    assert!(!more);
    assert_eq!(second.iter().map(|g| &g.id).collect::<Vec<_>>(), [&ids[0]]);
    // Someone else's list holds none of them.
    let (mut cy, _) = newcomer(&server.url(), "Cy").await;
    assert!(finished(&mut cy, 0).await.0.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_seats_the_same_players() {
    let dir = TempDir::new("after-rematch");
    let server = start(&sqlite(&dir), None, &Lines::default()).await;
    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    let (mut bo, id) = a_finished_game(&mut ann, &server.url()).await;
    let (rematch, code) = match ann.ask(Ask::Rematch { game: id.clone() }).await.unwrap() {
        Answer::Created { game, code } => (game, code),
        other => panic!("{other:?}"),
    };
    assert_ne!(rematch, id);
    assert!(!code.is_empty());
    // Bo is told, and holds Chu in it already; the same start, rules and pace.
    let told = tokio::time::timeout(PATIENCE, async {
        loop {
            if let Event::Rematch { game, rematch, by } = bo.client.next_event().await.unwrap() {
                return (game, rematch, by);
            }
        }
    })
    .await
    .expect("Bo is offered the rematch");
    assert_eq!(told, (id.clone(), rematch.clone(), "Ann".to_owned()));
    let view = match bo
        .client
        .ask(Ask::Open {
            game: rematch.clone(),
        })
        .await
        .unwrap()
    {
        Answer::Game(view) => view,
        other => panic!("{other:?}"),
    };
    assert!(view.seats[1].yours && !view.seats[0].yours);
    assert_eq!(view.seats[0].name.as_deref(), Some("Ann"));
    assert_eq!(view.pace, LIVE);
    assert!(view.record.moves.is_empty());
    assert_eq!(
        view.record.replay().unwrap().position().to_fen(),
        endgame(LIVE).start.replay().unwrap().position().to_fen()
    );
    // Only after the game, and only by a player in it.
    let refused = ann
        .ask(Ask::Rematch {
            game: rematch.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.refusal(), Some(&Refusal::NotOver));
    let (mut cy, _) = newcomer(&server.url(), "Cy").await;
    let refused = cy.ask(Ask::Rematch { game: id }).await.unwrap_err();
    assert_eq!(refused.refusal(), Some(&Refusal::NoGame));
}
