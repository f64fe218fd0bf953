//! Quick play and the lobby across servers: two real servers on one PostgreSQL. A person asking
//! on one is seated in a quick game the other holds; people asking at the same moment on both
//! never get the same kingdom, nor a new game while a kingdom of a game under way waited; and the
//! lobby followed on one counts what happens on the other, and lists its tables.
//!
//! They need `QIGUO_POSTGRES_URL` when they are built (and run); without it they are ignored.

use std::collections::HashSet;

use crate::common::*;
use qiguo_client::Client;
use qiguo_rules::{Kingdom, Level, Preset};
use qiguo_server::protocol::lobby::{LobbyView, TableSpec, WhenUnfilled};
use qiguo_server::protocol::{Answer, Ask, Event, GameId};
use qiguo_server::{Pace, QuickPace};

/// `client` plays now at the brisk pace: the game and kingdom, and whether it took a kingdom
/// over (else a new game).
async fn play_now(client: &mut Client) -> (GameId, Kingdom, bool) {
    match client
        .ask(Ask::Quick {
            pace: QuickPace::Brisk,
        })
        .await
        .unwrap()
    {
        Answer::Seated {
            kingdom,
            took_over,
            game,
        } => (game.id, kingdom, took_over.is_some()),
        other => panic!("{other:?}"),
    }
}

/// Reads lobby events on `client` until one satisfies `holds`.
async fn lobby_until(client: &mut Client, what: &str, holds: impl Fn(&LobbyView) -> bool) {
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Event::Lobby(view) = client.next_event().await.unwrap()
                && holds(&view)
            {
                return;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the lobby never showed: {what}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn quick_play_and_the_lobby_span_two_servers_on_one_postgres() {
    // A schema of the test's own: no other test's games, nor an earlier run's.
    let db = postgres();
    let (lines_a, lines_b) = (Lines::default(), Lines::default());
    let a = start(&db, None, &lines_a).await;
    let b = start(&db, None, &lines_b).await;
    let (url_a, url_b) = (a.url(), b.url());

    // A watcher follows the lobby on B.
    let (mut watcher, _) = newcomer(&url_b, "Watcher").await;
    assert!(matches!(
        watcher.ask(Ask::Lobby { follow: true }).await.unwrap(),
        Answer::Lobby(_)
    ));

    // Ann plays now on A: a new game, held by A.
    let (mut ann, _) = newcomer(&url_a, "Ann").await;
    let (game, kingdom, took) = play_now(&mut ann).await;
    assert_eq!((kingdom, took), (Kingdom::Qin, false));
    let brisk = |v: &LobbyView, playing: u32, waiting: u32| {
        v.paces
            .iter()
            .any(|p| p.pace == QuickPace::Brisk && (p.playing, p.waiting) == (playing, waiting))
    };
    lobby_until(&mut watcher, "Ann waiting, counted on B", |v| {
        brisk(v, 1, 1)
    })
    .await;

    // Bo plays now on B: a kingdom of Ann's game, which A holds.
    let (mut bo, _) = newcomer(&url_b, "Bo").await;
    let (bos, kingdom, took) = play_now(&mut bo).await;
    assert_eq!(
        bos, game,
        "Bo is seated in Ann's game, held by the other server"
    );
    assert!(took && kingdom != Kingdom::Qin);
    let mut seated = HashSet::from([Kingdom::Qin, kingdom]);

    // Two at the same moment, one on each server; then three (Qin, to move, is Ann's: every
    // computer's kingdom can be given). Each gets a kingdom of Ann's game, never one twice.
    for (round, urls) in [vec![&url_a, &url_b], vec![&url_a, &url_b, &url_a]]
        .into_iter()
        .enumerate()
    {
        let mut asks = Vec::new();
        for (n, url) in urls.into_iter().enumerate() {
            let url = url.clone();
            asks.push(tokio::spawn(async move {
                let (mut client, _) = newcomer(&url, &format!("Newcomer {n} of {round}")).await;
                let seat = play_now(&mut client).await;
                (seat, client)
            }));
        }
        for ask in asks {
            let ((id, kingdom, took), _client) = ask.await.unwrap();
            assert_eq!(id, game, "a kingdom waited in Ann's game: no new game");
            assert!(took);
            assert!(seated.insert(kingdom), "{kingdom:?} given twice");
        }
    }
    assert_eq!(seated.len(), 7, "Ann's game is all people now");
    lobby_until(&mut watcher, "seven playing, nobody alone", |v| {
        brisk(v, 7, 0)
    })
    .await;

    // The next one gets a new game; a table created on A is listed on B.
    let (mut hal, _) = newcomer(&url_b, "Hal").await;
    let (new, kingdom, took) = play_now(&mut hal).await;
    assert_ne!(new, game);
    assert_eq!((kingdom, took), (Kingdom::Qin, false));
    let table = TableSpec {
        preset: Preset::Classic,
        pace: Pace::Live { wait_seconds: 60 },
        people: 3,
        level: Level::Easy,
        rated: false,
        ratings: None,
        wait_minutes: 30,
        unfilled: WhenUnfilled::Close,
    };
    let made = match ann
        .ask(Ask::CreateTable { table, club: None })
        .await
        .unwrap()
    {
        Answer::Table(view) => view,
        other => panic!("{other:?}"),
    };
    lobby_until(&mut watcher, "A's table on B", |v| {
        v.tables.iter().any(|t| t.id == made.id) && brisk(v, 8, 1)
    })
    .await;
    assert!(lines_a.contains("kingdom taken over") && lines_b.contains("kingdom taken over"));
}
