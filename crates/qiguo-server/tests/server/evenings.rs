//! Club evenings: set by an organiser (a time to come, a live pace; bad ones refused), answered
//! by members, listed and shown in the club's view; at the time the people present — those who
//! said they come and are connected — are seated at tables as even as their count allows, each
//! told, nobody twice; one who comes late takes a computer's kingdom in one of its games; one
//! called off seats nobody. A club's own table is shown in its view, not the lobby, and only
//! its members sit at it.
//!
//! On SQLite (one server) and on PostgreSQL (two servers on one database, the members on both
//! and the evening seated once), on a clock the test moves.

use std::collections::{HashMap, HashSet};

use crate::common::*;
use qiguo_client::Client;
use qiguo_server::protocol::clubs::{ClubSpec, ClubView};
use qiguo_server::protocol::evenings::{
    EveningId, EveningPlay, EveningSpec, EveningState, EveningView, Seating,
};
use qiguo_server::protocol::lobby::{TableSpec, WhenUnfilled};
use qiguo_server::protocol::{Answer, Ask, Event, Refusal};
use qiguo_server::{GameId, Pace, QuickPace};
use qiguo_testkit::TempDir;

const HOUR: i64 = 3_600_000;
/// When the tests' clock starts: 2026-12-01 12:00 UTC.
const START: i64 = 1_796_126_400_000;

async fn refused(client: &mut Client, ask: Ask) -> Refusal {
    match client.ask(ask).await {
        Err(e) => e.refusal().cloned().expect("a refusal"),
        Ok(answer) => panic!("answered {answer:?}"),
    }
}

async fn evening(client: &mut Client, ask: Ask) -> EveningView {
    match client.ask(ask).await.unwrap() {
        Answer::Evening(view) => *view,
        other => panic!("{other:?}"),
    }
}

async fn club(client: &mut Client, name: &str) -> ClubView {
    match client.ask(Ask::Club { name: name.into() }).await.unwrap() {
        Answer::Club(view) => *view,
        other => panic!("{other:?}"),
    }
}

fn play() -> EveningPlay {
    EveningPlay {
        preset: qiguo_rules::Preset::Classic,
        pace: QuickPace::Calm,
        level: qiguo_rules::Level::Easy,
        seating: Seating::ByRating,
        rated: false,
    }
}

fn set(club: &str, at_ms: i64, play: EveningPlay) -> Ask {
    Ask::EveningCreate {
        spec: EveningSpec {
            club: club.into(),
            at_ms,
            play,
        },
    }
}

fn come(id: &EveningId, coming: bool) -> Ask {
    Ask::EveningCome {
        evening: id.clone(),
        coming,
    }
}

/// The evening `client` is seated at, heard within [`PATIENCE`] (other events passed over).
async fn seated(client: &mut Client) -> (EveningId, GameId) {
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Event::EveningSeated { evening, game, .. } = client.next_event().await.unwrap() {
                return (evening, game);
            }
        }
    })
    .await
    .expect("not seated")
}

/// An evening of a club of eleven on the servers at `urls` (members taking them in turn), on
/// the clock `now`.
async fn an_evening(urls: &[String], now: &std::sync::Mutex<i64>) {
    let url = |i: usize| urls[i % urls.len()].clone();
    let hall = "Evening Hall";
    let (mut ann, _) = newcomer(&url(0), "Ann").await;
    let made = ann
        .ask(Ask::ClubCreate {
            spec: ClubSpec {
                name: hall.into(),
                description: "Tables of seven on Tuesdays".into(),
                open: true,
            },
        })
        .await;
    assert!(matches!(made, Ok(Answer::Club(_))), "{made:?}");
    // Ten members beside Ann: m1 to m10.
    let mut members = Vec::new();
    for i in 1..=10 {
        let (mut client, _) = newcomer(&url(i), &format!("m{i}")).await;
        client
            .ask(Ask::ClubJoin { name: hall.into() })
            .await
            .unwrap();
        members.push(client);
    }
    let (mut stranger, _) = newcomer(&url(11), "Stranger").await;

    // Bad evenings are refused, and change nothing.
    assert_eq!(
        refused(&mut ann, set(hall, START - 1, play())).await,
        Refusal::EveningPast
    );
    assert_eq!(
        refused(&mut ann, set(hall, START + 200 * 24 * HOUR, play())).await,
        Refusal::EveningTooFar { days: 180 }
    );
    let daily = EveningPlay {
        pace: QuickPace::Daily,
        ..play()
    };
    assert_eq!(
        refused(&mut ann, set(hall, START + HOUR, daily)).await,
        Refusal::EveningNotLive
    );
    assert_eq!(
        refused(&mut members[0], set(hall, START + HOUR, play())).await,
        Refusal::NotClubOrganiser { name: hall.into() }
    );
    assert_eq!(
        refused(&mut stranger, set(hall, START + HOUR, play())).await,
        Refusal::NotInClub { name: hall.into() }
    );
    assert_eq!(
        refused(&mut ann, set("Nowhere", START + HOUR, play())).await,
        Refusal::NoSuchClub {
            name: "Nowhere".into()
        }
    );

    // Ann sets one in an hour, and another she calls off.
    let tonight = evening(&mut ann, set(hall, START + HOUR, play())).await;
    assert_eq!(tonight.state, EveningState::Planned);
    assert_eq!((tonight.club.as_str(), tonight.by.as_str()), (hall, "Ann"));
    assert!(tonight.coming.is_empty() && !tonight.you_come);
    let id = tonight.id.clone();
    let other = evening(&mut ann, set(hall, START + 2 * HOUR, play())).await;
    let off = evening(
        &mut ann,
        Ask::EveningCancel {
            evening: other.id.clone(),
        },
    )
    .await;
    assert_eq!(off.state, EveningState::Cancelled);
    assert_eq!(
        refused(&mut members[0], come(&other.id, true)).await,
        Refusal::EveningOver
    );
    assert_eq!(
        refused(
            &mut members[0],
            Ask::EveningCancel {
                evening: id.clone()
            }
        )
        .await,
        Refusal::NotClubOrganiser { name: hall.into() }
    );
    // Not a member: it is none of theirs.
    assert_eq!(
        refused(&mut stranger, come(&id, true)).await,
        Refusal::NoSuchEvening
    );

    // Ann and m1..m9 say they come; m9 then says not; m8 comes but leaves before the time.
    // m10 says nothing (and comes late).
    evening(&mut ann, come(&id, true)).await;
    for member in members.iter_mut().take(9) {
        let answered = evening(member, come(&id, true)).await;
        assert!(answered.you_come);
    }
    let changed = evening(&mut members[8], come(&id, false)).await;
    assert!(!changed.you_come);
    assert_eq!(changed.coming.len(), 9, "{:?}", changed.coming);
    // Listed, and in the club's view, with whoever said they come.
    match members[9].ask(Ask::Evenings { club: None }).await.unwrap() {
        Answer::Evenings { evenings } => {
            let ids: Vec<&EveningId> = evenings.iter().map(|e| &e.id).collect();
            assert_eq!(ids, [&id, &other.id], "the soonest first, called off shown");
            assert!(!evenings[0].you_come);
        }
        other => panic!("{other:?}"),
    }
    let view = club(&mut members[9], hall).await;
    assert_eq!(view.evenings.len(), 2);
    assert_eq!(view.evenings[0].coming.len(), 9);
    let m8_leaves = members.remove(7);
    drop(m8_leaves);
    // Just before the time, every server knows who is here: the clubs' views (of Ann, and of
    // m1 on the other server when there are two) show everyone online but m8.
    *now.lock().unwrap() = START + HOUR - 1;
    let everyone_but_m8: HashSet<String> = ["Ann", "m1", "m2", "m3", "m4", "m5", "m6", "m7"]
        .into_iter()
        .chain(["m9", "m10"])
        .map(str::to_owned)
        .collect();
    for watcher in 0..2 {
        let mut settled = false;
        for _ in 0..1200 {
            let client = if watcher == 0 {
                &mut ann
            } else {
                &mut members[0]
            };
            let online: HashSet<String> = club(client, hall)
                .await
                .members
                .into_iter()
                .filter(|m| m.online)
                .map(|m| m.name)
                .collect();
            if online == everyone_but_m8 {
                settled = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(settled, "who is here was known within a minute");
    }

    // The time comes: the eight present (Ann, m1..m7) are seated at two tables of four.
    *now.lock().unwrap() = START + HOUR;
    let (heard, anns_game) = seated(&mut ann).await;
    assert_eq!(heard, id);
    let mut games: HashMap<GameId, u32> = HashMap::from([(anns_game, 1)]);
    for member in members.iter_mut().take(7) {
        let (heard, game) = seated(member).await;
        assert_eq!(heard, id);
        *games.entry(game).or_default() += 1;
    }
    let mut sizes: Vec<u32> = games.values().copied().collect();
    sizes.sort();
    assert_eq!(sizes, [4, 4], "{games:?}");
    let begun = club(&mut ann, hall).await.evenings.remove(0);
    assert_eq!(begun.state, EveningState::Playing);
    assert_eq!(begun.tables.len(), 2);
    let people: Vec<&String> = begun.tables.iter().flat_map(|t| &t.people).collect();
    let unique: HashSet<&&String> = people.iter().collect();
    assert_eq!(people.len(), 8, "{:?}", begun.tables);
    assert_eq!(unique.len(), 8, "nobody seated twice");
    assert!(
        !people
            .iter()
            .any(|p| *p == "m8" || *p == "m9" || *p == "m10")
    );
    assert!(begun.your_game.is_some());
    // The club shows who plays now, each with their game's code to watch it by.
    let shown = club(&mut ann, hall).await;
    for table in &begun.tables {
        for name in &table.people {
            let member = shown.members.iter().find(|m| m.name == *name).unwrap();
            assert_eq!(member.playing.as_ref(), Some(&table.game), "{name}");
            assert_eq!(member.watch.as_deref(), Some(table.code.as_str()), "{name}");
        }
    }

    // m10 comes late: a computer's kingdom in one of the evening's games.
    let late = evening(&mut members[8], come(&id, true)).await;
    let late_game = late.your_game.clone().expect("seated at once");
    assert!(games.contains_key(&late_game), "{late:?}");
    let table = late.tables.iter().find(|t| t.game == late_game).unwrap();
    assert_eq!(table.people.len(), 5);
    assert!(table.people.contains(&"m10".to_owned()));
    // Coming again changes nothing.
    let again = evening(&mut members[8], come(&id, true)).await;
    assert_eq!(again.your_game, Some(late_game.clone()));
    // The game is theirs to open and play.
    match members[8].ask(Ask::Open { game: late_game }).await.unwrap() {
        Answer::Game(view) => assert!(view.seats.iter().any(|s| s.name.as_deref() == Some("m10"))),
        other => panic!("{other:?}"),
    }

    // Two hours on, it is over: nobody else is seated.
    *now.lock().unwrap() = START + 3 * HOUR + 1;
    assert_eq!(
        refused(&mut members[7], come(&id, true)).await,
        Refusal::EveningOver
    );

    // A club's own table: in its view, not the lobby; only members sit at it.
    let table = TableSpec {
        preset: qiguo_rules::Preset::Classic,
        pace: Pace::Live { wait_seconds: 60 },
        people: 3,
        level: qiguo_rules::Level::Easy,
        rated: false,
        ratings: None,
        wait_minutes: 30,
        unfilled: WhenUnfilled::Close,
    };
    let made = match members[6]
        .ask(Ask::CreateTable {
            table,
            club: Some(hall.into()),
        })
        .await
        .unwrap()
    {
        Answer::Table(view) => *view,
        other => panic!("{other:?}"),
    };
    assert_eq!(made.club.as_deref(), Some(hall));
    assert_eq!(club(&mut ann, hall).await.tables, vec![made.clone()]);
    match stranger.ask(Ask::Lobby { follow: false }).await.unwrap() {
        Answer::Lobby(lobby) => assert!(lobby.tables.iter().all(|t| t.id != made.id)),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        refused(
            &mut stranger,
            Ask::JoinTable {
                table: made.id.clone()
            }
        )
        .await,
        Refusal::NotInClub { name: hall.into() }
    );
    assert_eq!(
        refused(
            &mut stranger,
            Ask::CreateTable {
                table,
                club: Some(hall.into()),
            }
        )
        .await,
        Refusal::NotInClub { name: hall.into() }
    );
    match members[5]
        .ask(Ask::JoinTable {
            table: made.id.clone(),
        })
        .await
        .unwrap()
    {
        Answer::Table(view) => assert_eq!(view.seated.len(), 2),
        other => panic!("{other:?}"),
    }
    // A stranger sees nothing of the club's tables nor of its evenings.
    let seen = club(&mut stranger, hall).await;
    assert!(seen.tables.is_empty() && seen.evenings.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evening_seats_the_people_present_and_latecomers() {
    let dir = TempDir::new("evenings");
    let lines = Lines::default();
    let (clock, now) = hand_clock(START);
    let server = start(&sqlite(&dir), Some(clock), &lines).await;
    an_evening(&[server.url()], &now).await;
    assert!(lines.contains("evening seated"));
    assert!(lines.contains("evening latecomer seated"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn an_evening_is_seated_once_by_two_servers_on_one_postgres() {
    let db = postgres();
    let (lines_a, lines_b) = (Lines::default(), Lines::default());
    let (clock, now) = hand_clock(START);
    let a = start(&db, Some(clock.clone()), &lines_a).await;
    let b = start(&db, Some(clock), &lines_b).await;
    an_evening(&[a.url(), b.url()], &now).await;
    let seated = [&lines_a, &lines_b]
        .iter()
        .filter(|l| l.contains("evening seated"))
        .count();
    assert_eq!(seated, 1, "one server seated it");
}
