//! The lobby and public tables: a table created is pushed to the clients following the lobby, the
//! one who fills it starts its game with everyone seated; a table whose time runs out starts with
//! computers or closes, as its creator chose; the refusals of tables (a rating outside the
//! range, too many tables, a table left by everyone); and the counts of people online, playing
//! and waiting at each quick pace, pushed as they change.

use crate::common::*;
use qiguo_client::{Client, ClientError};
use qiguo_rules::{Level, Preset};
use qiguo_server::protocol::lobby::{
    LobbyView, RatingRange, TABLES_AT_ONCE, TableId, TableSpec, TableView, WhenUnfilled,
};
use qiguo_server::protocol::{Answer, Ask, Event, Refusal};
use qiguo_server::{Pace, QuickPace, SeatPlan};
use qiguo_testkit::TempDir;

/// A table of `people` seats for people, live, unrated, Easy computers, 30 minutes to fill.
fn table(people: u8, unfilled: WhenUnfilled) -> TableSpec {
    TableSpec {
        preset: Preset::Classic,
        pace: Pace::Live { wait_seconds: 60 },
        people,
        level: Level::Easy,
        rated: false,
        ratings: None,
        wait_minutes: 30,
        unfilled,
    }
}

async fn create_table(client: &mut Client, spec: TableSpec) -> TableView {
    match client
        .ask(Ask::CreateTable {
            table: spec,
            club: None,
        })
        .await
        .unwrap()
    {
        Answer::Table(view) => *view,
        other => panic!("{other:?}"),
    }
}

async fn join_table(client: &mut Client, id: &TableId) -> Result<TableView, Refusal> {
    match client.ask(Ask::JoinTable { table: id.clone() }).await {
        Ok(Answer::Table(view)) => Ok(*view),
        Ok(other) => panic!("{other:?}"),
        Err(ClientError::Refused { refusal, .. }) => Err(refusal),
        Err(e) => panic!("{e}"),
    }
}

/// Follows the lobby: the view as it stands.
async fn follow_lobby(client: &mut Client) -> LobbyView {
    match client.ask(Ask::Lobby { follow: true }).await.unwrap() {
        Answer::Lobby(view) => *view,
        other => panic!("{other:?}"),
    }
}

/// Reads `client`'s events until `pick` takes one, within [`PATIENCE`].
async fn until<T>(client: &mut Client, what: &str, mut pick: impl FnMut(Event) -> Option<T>) -> T {
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Some(taken) = pick(client.next_event().await.unwrap()) {
                return taken;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("not heard within {PATIENCE:?}: {what}"))
}

/// Reads `client`'s lobby events until one shows what `holds` looks for.
async fn lobby_until(
    client: &mut Client,
    what: &str,
    holds: impl Fn(&LobbyView) -> bool,
) -> LobbyView {
    until(client, what, |event| match event {
        Event::Lobby(view) if holds(&view) => Some(*view),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_is_pushed_to_the_lobby_and_the_one_who_fills_it_starts_its_game() {
    let dir = TempDir::new("lobby-fill");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut cy, _) = newcomer(&url, "Cy").await;
    let before = follow_lobby(&mut cy).await;
    assert!(before.tables.is_empty());

    // Ann creates a table for three; Cy, following the lobby, sees it come.
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let made = create_table(&mut ann, table(3, WhenUnfilled::Close)).await;
    assert_eq!(made.host, "Ann");
    assert_eq!(made.seated.len(), 1);
    assert_eq!(made.seated[0].rating.points, 1500);
    assert!(made.game.is_none());
    let seen = lobby_until(&mut cy, "Ann's table", |v| {
        v.tables.iter().any(|t| t.id == made.id)
    })
    .await;
    assert!(seen.online >= 2, "Ann and Cy are online: {}", seen.online);

    // Bo sits down (two of three); Cy fills it: the game starts, everyone seated in the order
    // they sat down, computers of the table's level in the other four kingdoms.
    let (mut bo, _) = newcomer(&url, "Bo").await;
    let sat = join_table(&mut bo, &made.id).await.unwrap();
    assert_eq!(sat.seated.len(), 2);
    assert!(sat.game.is_none());
    assert_eq!(
        join_table(&mut bo, &made.id).await.unwrap().seated.len(),
        2,
        "once"
    );
    let filled = join_table(&mut cy, &made.id).await.unwrap();
    let game = filled.game.clone().expect("full: started");
    for (who, client) in [("Ann", &mut ann), ("Bo", &mut bo)] {
        let started = until(client, "the table started", |event| match event {
            Event::TableStarted { table, game } => Some((table, game)),
            _ => None,
        })
        .await;
        assert_eq!(started, (made.id.clone(), game.clone()), "{who}");
    }
    let view = match ann.ask(Ask::Open { game: game.clone() }).await.unwrap() {
        Answer::Game(view) => view,
        other => panic!("{other:?}"),
    };
    let names: Vec<Option<&str>> = view.seats.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(&names[..3], &[Some("Ann"), Some("Bo"), Some("Cy")]);
    assert!(view.seats[0].yours);
    for seat in &view.seats[3..] {
        assert_eq!(seat.plan, SeatPlan::Computer(Level::Easy));
    }
    // The lobby no longer lists it; a latecomer finds no table.
    lobby_until(&mut cy, "the table gone", |v| {
        v.tables.iter().all(|t| t.id != made.id)
    })
    .await;
    let (mut di, _) = newcomer(&url, "Di").await;
    assert_eq!(join_table(&mut di, &made.id).await, Err(Refusal::NoTable));
    assert!(lines.contains("table started"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_not_filled_in_time_starts_with_computers_or_closes() {
    let dir = TempDir::new("lobby-time");
    let lines = Lines::default();
    let (clock, now) = hand_clock(1_800_000_000_000);
    let server = start(&sqlite(&dir), Some(clock), &lines).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (mut bo, _) = newcomer(&url, "Bo").await;
    let computers = create_table(&mut ann, table(4, WhenUnfilled::Computers)).await;
    join_table(&mut bo, &computers.id).await.unwrap();
    let closing = create_table(&mut bo, table(4, WhenUnfilled::Close)).await;
    assert_eq!(closing.fill_by_ms, 1_800_000_000_000 + 30 * 60_000);
    // The half hour passes.
    *now.lock().unwrap() += 30 * 60_000;
    let (table, game) = until(&mut ann, "started with computers", |event| match event {
        Event::TableStarted { table, game } => Some((table, game)),
        _ => None,
    })
    .await;
    assert_eq!(table, computers.id);
    let closed = until(&mut bo, "closed unfilled", |event| match event {
        Event::TableClosed { table } => Some(table),
        _ => None,
    })
    .await;
    assert_eq!(closed, closing.id);
    let view = match bo.ask(Ask::Open { game }).await.unwrap() {
        Answer::Game(view) => view,
        other => panic!("{other:?}"),
    };
    let names: Vec<Option<&str>> = view.seats.iter().map(|s| s.name.as_deref()).collect();
    assert_eq!(&names[..2], &[Some("Ann"), Some("Bo")]);
    // The two seats for people nobody took: computers of the table's level.
    for seat in &view.seats[2..] {
        assert_eq!(seat.plan, SeatPlan::Computer(Level::Easy));
    }
    let (mut cy, _) = newcomer(&url, "Cy").await;
    assert_eq!(
        join_table(&mut cy, &closing.id).await,
        Err(Refusal::NoTable)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_refuse_what_they_cannot_take() {
    let dir = TempDir::new("lobby-refusals");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (mut bo, _) = newcomer(&url, "Bo").await;
    // A new player (1500) is outside 1600–1800: refused, naming the range and the rating; the
    // same for creating one that would not take its creator.
    let mut ranged = table(3, WhenUnfilled::Close);
    ranged.ratings = Some(RatingRange {
        min: 1200,
        max: 1500,
    });
    let open = create_table(&mut ann, ranged).await;
    ranged.ratings = Some(RatingRange {
        min: 1600,
        max: 1800,
    });
    match ann
        .ask(Ask::CreateTable {
            table: ranged,
            club: None,
        })
        .await
    {
        Err(ClientError::Refused { refusal, why }) => {
            assert_eq!(
                refusal,
                Refusal::OutsideRatingRange {
                    min: 1600,
                    max: 1800,
                    rating: 1500
                }
            );
            assert!(why.contains("1600 to 1800"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // A table out of bounds: refused with the bounds.
    match ann
        .ask(Ask::CreateTable {
            table: table(9, WhenUnfilled::Close),
            club: None,
        })
        .await
    {
        Err(ClientError::Refused { refusal, .. }) => assert_eq!(
            refusal,
            Refusal::TablePeople {
                people: 9,
                min: 2,
                max: 7
            }
        ),
        other => panic!("{other:?}"),
    }
    // At most three open tables at once.
    for _ in 1..TABLES_AT_ONCE {
        create_table(&mut bo, table(5, WhenUnfilled::Close)).await;
    }
    join_table(&mut bo, &open.id).await.expect("Bo's third");
    let (mut cy, _) = newcomer(&url, "Cy").await;
    let fourth = create_table(&mut cy, table(5, WhenUnfilled::Close)).await;
    assert_eq!(
        join_table(&mut bo, &fourth.id).await,
        Err(Refusal::TooManyTables {
            max: TABLES_AT_ONCE
        })
    );
    // A table everyone left closes.
    assert_eq!(
        cy.ask(Ask::LeaveTable {
            table: fourth.id.clone()
        })
        .await
        .unwrap(),
        Answer::Done
    );
    let (mut di, _) = newcomer(&url, "Di").await;
    assert_eq!(join_table(&mut di, &fourth.id).await, Err(Refusal::NoTable));
    assert!(lines.contains("table left"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_counts_people_playing_and_waiting_at_each_pace() {
    let dir = TempDir::new("lobby-counts");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut watcher, _) = newcomer(&url, "Watcher").await;
    follow_lobby(&mut watcher).await;
    // Ann plays now, brisk: one playing, waiting alone among computers.
    let (mut ann, _) = newcomer(&url, "Ann").await;
    ann.ask(Ask::Quick {
        pace: QuickPace::Brisk,
    })
    .await
    .unwrap();
    let brisk = |v: &LobbyView| v.paces.iter().find(|p| p.pace == QuickPace::Brisk).copied();
    lobby_until(&mut watcher, "Ann waiting", |v| {
        brisk(v).is_some_and(|p| (p.playing, p.waiting) == (1, 1))
    })
    .await;
    // Bo too: two playing, nobody alone; the game is listed to watch, with both names.
    let (mut bo, _) = newcomer(&url, "Bo").await;
    bo.ask(Ask::Quick {
        pace: QuickPace::Brisk,
    })
    .await
    .unwrap();
    let view = lobby_until(&mut watcher, "two playing", |v| {
        brisk(v).is_some_and(|p| (p.playing, p.waiting) == (2, 0))
    })
    .await;
    assert_eq!(view.games.len(), 1);
    let mut people = view.games[0].people.clone();
    people.sort();
    assert_eq!(people, ["Ann", "Bo"]);
    assert_eq!(view.games[0].pace, QuickPace::Brisk);
    // Watching with the code the lobby gives.
    let code = view.games[0].code.clone();
    assert!(matches!(
        watcher.ask(Ask::Watch { code }).await.unwrap(),
        Answer::Game(_)
    ));
    // The other paces count nobody.
    for pace in &view.paces {
        if pace.pace != QuickPace::Brisk {
            assert_eq!((pace.playing, pace.waiting), (0, 0), "{pace:?}");
        }
    }
    assert!(view.online >= 3, "{}", view.online);
    // Not following any more: the next change is not sent.
    assert_eq!(
        watcher.ask(Ask::Lobby { follow: false }).await.unwrap(),
        Answer::Lobby(Box::new(view.clone()))
    );
}
