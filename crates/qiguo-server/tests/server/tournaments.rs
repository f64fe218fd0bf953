//! Tournaments of tables: a club's Swiss of twenty-one people played through its three rounds
//! (each round everyone still in seated once, at tables by standing; the games cut at each
//! round's deadline, scored by place; a leaver replaced by a computer and seated no more; the
//! standings told; over with its winners), and a club's arena (seven seated at once, the two
//! left over after the wait, nobody twice; its games cut after its end). Bad tournaments and
//! joins are refused and change nothing.
//!
//! On SQLite (one server) and on PostgreSQL (two servers on one database, the people on both,
//! each round begun once), on a clock the test moves.

use std::collections::{HashMap, HashSet};

use crate::common::*;
use qiguo_client::Client;
use qiguo_server::protocol::clubs::ClubSpec;
use qiguo_server::protocol::tournaments::{
    TournamentFormat, TournamentPlay, TournamentSpec, TournamentState, TournamentView,
};
use qiguo_server::protocol::{Answer, Ask, Event, Refusal};
use qiguo_server::{GameId, QuickPace};
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

async fn tournament(client: &mut Client, ask: Ask) -> TournamentView {
    match client.ask(ask).await.unwrap() {
        Answer::Tournament(view) => *view,
        other => panic!("{other:?}"),
    }
}

fn spec(name: &str, format: TournamentFormat, club: Option<&str>) -> TournamentSpec {
    let swiss = format == TournamentFormat::Swiss;
    TournamentSpec {
        name: name.into(),
        format,
        play: TournamentPlay {
            preset: qiguo_rules::Preset::Classic,
            pace: if swiss {
                QuickPace::Daily
            } else {
                QuickPace::Brisk
            },
            level: qiguo_rules::Level::Easy,
            rated: false,
        },
        starts_ms: START + HOUR,
        rounds: 3,
        minutes: 60,
        most: 21,
        club: club.map(Into::into),
    }
}

/// The game `client` is seated at by tournament `name`, and its round, heard within
/// [`PATIENCE`] (other events passed over).
async fn seated(client: &mut Client, name: &str) -> (u32, GameId) {
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Event::TournamentSeated {
                tournament,
                round,
                game,
            } = client.next_event().await.unwrap()
                && tournament == name
            {
                return (round, game);
            }
        }
    })
    .await
    .expect("not seated")
}

/// The game `client` is seated at by tournament `name` within `seconds`, if any.
async fn seated_within(client: &mut Client, name: &str, seconds: u64) -> Option<(u32, GameId)> {
    tokio::time::timeout(std::time::Duration::from_secs(seconds), async {
        loop {
            if let Event::TournamentSeated {
                tournament,
                round,
                game,
            } = client.next_event().await.unwrap()
                && tournament == name
            {
                return (round, game);
            }
        }
    })
    .await
    .ok()
}

/// Until the standings of `name`, as `client` hears them, say `holds`.
async fn standings_until(
    client: &mut Client,
    name: &str,
    holds: impl Fn(&TournamentView) -> bool,
) -> TournamentView {
    tokio::time::timeout(PATIENCE, async {
        loop {
            let view = tournament(client, Ask::Tournament { name: name.into() }).await;
            if holds(&view) {
                return view;
            }
            // Told when the standings change (or looked at again within a second).
            let _ =
                tokio::time::timeout(std::time::Duration::from_secs(1), client.next_event()).await;
        }
    })
    .await
    .expect("the standings never came to that")
}

/// A club of `n` members (the first its owner) on the servers at `urls`, in turn.
async fn club_of(urls: &[String], hall: &str, n: usize) -> Vec<Client> {
    let url = |i: usize| urls[i % urls.len()].clone();
    let (mut owner, _) = newcomer(&url(0), &format!("{hall} owner")).await;
    let made = owner
        .ask(Ask::ClubCreate {
            spec: ClubSpec {
                name: hall.into(),
                description: String::new(),
                open: true,
            },
        })
        .await;
    assert!(matches!(made, Ok(Answer::Club(_))), "{made:?}");
    let mut members = vec![owner];
    for i in 1..n {
        let (mut client, _) = newcomer(&url(i), &format!("{hall} {i}")).await;
        client
            .ask(Ask::ClubJoin { name: hall.into() })
            .await
            .unwrap();
        members.push(client);
    }
    members
}

/// A Swiss of 21 people through its three rounds, on the servers at `urls`, on the clock
/// `now`.
async fn a_swiss(urls: &[String], now: &std::sync::Mutex<i64>) {
    let hall = "Swiss Hall";
    let name = "Hall Swiss";
    let mut people = club_of(urls, hall, 22).await;
    let mut late = people.pop().unwrap();
    let (mut stranger, _) = newcomer(&urls[0], "Stranger").await;

    // Bad tournaments are refused, and change nothing.
    let create = |spec| Ask::TournamentCreate { spec };
    let swiss = || spec(name, TournamentFormat::Swiss, Some(hall));
    assert_eq!(
        refused(
            &mut people[0],
            create(spec(name, TournamentFormat::Swiss, None))
        )
        .await,
        Refusal::TournamentByOperator,
        "a public one is the operator's"
    );
    let mut past = swiss();
    past.starts_ms = START - 1;
    assert_eq!(
        refused(&mut people[0], create(past)).await,
        Refusal::TournamentPast
    );
    let mut live = swiss();
    live.play.pace = QuickPace::Brisk;
    assert_eq!(
        refused(&mut people[0], create(live)).await,
        Refusal::TournamentPace
    );
    assert_eq!(
        refused(&mut people[1], create(swiss())).await,
        Refusal::NotClubOrganiser { name: hall.into() }
    );
    assert_eq!(
        refused(&mut stranger, Ask::Tournament { name: name.into() }).await,
        Refusal::NoSuchTournament
    );

    let view = tournament(&mut people[0], create(swiss())).await;
    assert_eq!(
        (view.state, view.round, view.players),
        (TournamentState::Entering, 0, 0)
    );
    assert_eq!(
        refused(&mut people[0], create(swiss())).await,
        Refusal::TournamentNameTaken
    );
    for client in people.iter_mut() {
        tournament(client, Ask::TournamentJoin { name: name.into() }).await;
    }
    assert_eq!(
        refused(&mut late, Ask::TournamentJoin { name: name.into() }).await,
        Refusal::TournamentFull { most: 21 }
    );
    assert_eq!(
        refused(&mut stranger, Ask::TournamentJoin { name: name.into() }).await,
        Refusal::NoSuchTournament,
        "a club's own is none of a stranger's"
    );
    match people[0]
        .ask(Ask::Tournaments {
            club: Some(hall.into()),
        })
        .await
        .unwrap()
    {
        Answer::Tournaments { tournaments } => {
            assert_eq!(tournaments.len(), 1);
            assert_eq!((tournaments[0].players, tournaments[0].joined), (21, true));
        }
        other => panic!("{other:?}"),
    }

    // Three rounds: each begun at its time, everyone still in seated once; the games cut at
    // the round's deadline. The last member leaves in round 2.
    *now.lock().unwrap() = START + HOUR;
    let mut met: HashMap<(usize, usize), u32> = HashMap::new();
    for round in 1..=3u32 {
        let playing = if round == 3 { 20 } else { 21 };
        let mut tables: HashMap<GameId, Vec<usize>> = HashMap::new();
        for (i, client) in people.iter_mut().enumerate().take(playing) {
            let (heard, game) = seated(client, name).await;
            assert_eq!(heard, round);
            tables.entry(game).or_default().push(i);
        }
        let mut sizes: Vec<usize> = tables.values().map(Vec::len).collect();
        sizes.sort();
        assert_eq!(
            sizes,
            if round == 3 {
                vec![6, 7, 7]
            } else {
                vec![7, 7, 7]
            },
            "round {round}: tables as even as the count allows"
        );
        for table in tables.values() {
            for (n, a) in table.iter().enumerate() {
                for b in &table[n + 1..] {
                    *met.entry((*a.min(b), *a.max(b))).or_default() += 1;
                }
            }
        }
        let view = tournament(&mut people[0], Ask::Tournament { name: name.into() }).await;
        assert_eq!(
            (view.state, view.round),
            (TournamentState::Playing, round as u8)
        );
        if round == 2 {
            // The last member leaves mid-game: a computer takes their kingdom, they keep their
            // place as it stood, and are seated no more.
            let gone =
                tournament(&mut people[20], Ask::TournamentLeave { name: name.into() }).await;
            assert!(gone.you.as_ref().is_some_and(|you| you.left));
            assert_eq!(gone.players, 20);
        }
        // The round's deadline passes: its games end as they stand.
        let ends = view.ends_ms.expect("a round's deadline");
        *now.lock().unwrap() = ends;
    }
    let view = standings_until(&mut people[0], name, |v| v.state == TournamentState::Over).await;
    assert_eq!(
        view.standings.len(),
        21,
        "the leaver stays in the standings"
    );
    assert!(!view.winners.is_empty());
    assert_eq!(view.winners[0], view.standings[0].name);
    let games: u32 = view.standings.iter().map(|s| s.games).sum();
    assert_eq!(games, 21 + 21 + 20, "every seat scored once");
    // Each table of seven gives 42 halves; the third round's table of six gave the computer
    // its share.
    let points: u32 = view.standings.iter().map(|s| s.points).sum();
    assert!((42 * 8..=42 * 9).contains(&points), "{points}");
    let mut places = view.standings.iter().map(|s| s.place).collect::<Vec<_>>();
    places.dedup();
    assert!(places.windows(2).all(|w| w[0] < w[1]), "placed in order");
    // Everyone's games, each with its place.
    let mine = tournament(&mut people[3], Ask::Tournament { name: name.into() }).await;
    assert_eq!(mine.your_games.len(), 3);
    assert!(mine.your_games.iter().all(|g| g.place.is_some()));
    let rounds: HashSet<u32> = mine.your_games.iter().map(|g| g.round).collect();
    assert_eq!(rounds, HashSet::from([1, 2, 3]));
    let leaver = tournament(&mut people[20], Ask::Tournament { name: name.into() }).await;
    assert_eq!(leaver.your_games.len(), 2, "the leaver played two rounds");
    // Over: nobody joins.
    assert_eq!(
        refused(&mut late, Ask::TournamentJoin { name: name.into() }).await,
        Refusal::TournamentOver
    );
    // Pairs met at most as often as seven-seat tables of 21 force (three rounds).
    assert!(met.values().all(|&n| n <= 3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_twenty_one_is_played_through_its_rounds() {
    let dir = TempDir::new("tournaments-swiss");
    let lines = Lines::default();
    let (clock, now) = hand_clock(START);
    let server = start(&sqlite(&dir), Some(clock), &lines).await;
    a_swiss(&[server.url()], &now).await;
    assert_eq!(lines.count("tournament round begun"), 3);
    assert!(lines.contains("tournament game cut at its deadline"));
    assert!(lines.contains("tournament over"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn a_swiss_is_kept_once_by_two_servers_on_one_postgres() {
    let db = postgres();
    let (lines_a, lines_b) = (Lines::default(), Lines::default());
    let (clock, now) = hand_clock(START);
    let a = start(&db, Some(clock.clone()), &lines_a).await;
    let b = start(&db, Some(clock), &lines_b).await;
    a_swiss(&[a.url(), b.url()], &now).await;
    let begun = lines_a.count("tournament round begun") + lines_b.count("tournament round begun");
    assert_eq!(begun, 3, "each round begun once");
}

/// An arena of nine on the servers at `urls`: seven seated at once, the two left after the
/// wait, nobody twice; over once its games, cut after its end, are scored.
async fn an_arena(urls: &[String], now: &std::sync::Mutex<i64>) {
    let hall = "Arena Hall";
    let name = "Hall Arena";
    let mut people = club_of(urls, hall, 9).await;
    let mut arena = spec(name, TournamentFormat::Arena, Some(hall));
    arena.minutes = 5;
    assert_eq!(
        refused(
            &mut people[0],
            Ask::TournamentCreate {
                spec: arena.clone()
            }
        )
        .await,
        Refusal::ArenaMinutes { min: 15, max: 720 }
    );
    arena.minutes = 30;
    tournament(&mut people[0], Ask::TournamentCreate { spec: arena }).await;
    for client in people.iter_mut() {
        tournament(client, Ask::TournamentJoin { name: name.into() }).await;
    }
    // Every server knows who is here (on two servers, the other's people are noted online
    // every few seconds).
    *now.lock().unwrap() = START + HOUR - 1;
    for watcher in people.iter_mut().take(urls.len().min(2)) {
        let mut settled = false;
        for _ in 0..1200 {
            let view = match watcher.ask(Ask::Club { name: hall.into() }).await {
                Ok(Answer::Club(view)) => view,
                other => panic!("{other:?}"),
            };
            if view.members.iter().filter(|m| m.online).count() == 9 {
                settled = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(settled, "who is here was known within a minute");
    }
    *now.lock().unwrap() = START + HOUR;
    standings_until(&mut people[0], name, |v| {
        v.state == TournamentState::Playing
    })
    .await;
    // Seven wait, so seven are seated at once (all waited as long).
    let mut games: HashMap<GameId, usize> = HashMap::new();
    let mut first = Vec::new();
    for (i, client) in people.iter_mut().enumerate() {
        if let Some((_, game)) = seated_within(client, name, 3).await {
            *games.entry(game).or_default() += 1;
            first.push(i);
        }
    }
    assert_eq!(first.len(), 7, "seven seated at once: {first:?}");
    // The two left over are seated together after the wait (20 s on the test's clock).
    *now.lock().unwrap() = START + HOUR + 21_000;
    for (_, client) in people
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| !first.contains(i))
    {
        let (_, game) = seated(client, name).await;
        *games.entry(game).or_default() += 1;
    }
    let mut sizes: Vec<usize> = games.values().copied().collect();
    sizes.sort();
    assert_eq!(sizes, vec![2, 7]);
    // Of the two at the small table, the first to move concedes on their turn: their part is
    // over, and they wait for a table again at once (the game goes on without them).
    let (pair_game, _) = games.iter().find(|(_, n)| **n == 2).unwrap();
    let pair_game = pair_game.clone();
    let mut pair = Vec::new();
    for (i, client) in people.iter_mut().enumerate() {
        let view = tournament(client, Ask::Tournament { name: name.into() }).await;
        if view.your_games.iter().any(|g| g.game == pair_game) {
            pair.push(i);
        }
    }
    assert_eq!(pair.len(), 2);
    let mut opened = Vec::new();
    for i in pair.iter().rev() {
        let mut client = people.swap_remove(*i);
        let answer = client
            .ask(Ask::Open {
                game: pair_game.clone(),
            })
            .await
            .unwrap();
        opened.push(Table::new(client, answer));
    }
    let first = {
        let view = &opened[0].view;
        let pos = opened[0].game.position();
        let from = qiguo_rules::Kingdom::ALL
            .iter()
            .position(|k| *k == pos.to_move())
            .unwrap();
        let seat = (0..7)
            .map(|i| pos.player_of(qiguo_rules::Kingdom::ALL[(from + i) % 7]))
            .find(|&seat| {
                !matches!(
                    view.seats[usize::from(seat)].plan,
                    qiguo_server::SeatPlan::Computer(_)
                )
            })
            .unwrap();
        usize::from(!view.seats[usize::from(seat)].yours)
    };
    let mut table = opened.swap_remove(first);
    table.wait_turn().await;
    table.play(|_| qiguo_rules::Move::CONCEDE).await;
    // Nobody is told of a second table while their first goes on.
    for client in people.iter_mut() {
        assert!(
            seated_within(client, name, 2).await.is_none(),
            "seated twice"
        );
    }
    // After its end its games still going are cut, scored, and it is over.
    *now.lock().unwrap() = START + HOUR + 30 * 60_000 + 30 * 60_000;
    let view = standings_until(&mut people[0], name, |v| v.state == TournamentState::Over).await;
    let games: u32 = view.standings.iter().map(|s| s.games).sum();
    assert_eq!(games, 9, "each played one game");
    assert_eq!(
        refused(&mut people[1], Ask::TournamentJoin { name: name.into() }).await,
        Refusal::TournamentOver
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_seats_at_once_and_after_the_wait_nobody_twice() {
    let dir = TempDir::new("tournaments-arena");
    let lines = Lines::default();
    let (clock, now) = hand_clock(START);
    let server = start(&sqlite(&dir), Some(clock), &lines).await;
    an_arena(&[server.url()], &now).await;
    assert_eq!(lines.count("arena tables seated"), 2);
    assert!(lines.contains("arena player free again"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn an_arena_on_two_servers_seats_nobody_twice() {
    let db = postgres();
    let (lines_a, lines_b) = (Lines::default(), Lines::default());
    let (clock, now) = hand_clock(START);
    let a = start(&db, Some(clock.clone()), &lines_a).await;
    let b = start(&db, Some(clock), &lines_b).await;
    an_arena(&[a.url(), b.url()], &now).await;
    assert!(
        lines_a.contains("arena player free again") || lines_b.contains("arena player free again")
    );
}

/// The operator sets a weekly public arena on the database (the server running on it); a
/// player finds it, joins it; when it begins, the next of the series is set a week later,
/// named by its date. A bad one is refused with the reason, and sets nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_sets_a_weekly_arena() {
    let dir = TempDir::new("tournaments-operator");
    let db = sqlite(&dir);
    let lines = Lines::default();
    let real_now = qiguo_server::store::now_ms();
    let (clock, now) = hand_clock(real_now);
    let server = start(&db, Some(clock), &lines).await;
    let starts = real_now + HOUR;
    let starts_text = jiff::Timestamp::from_millisecond(starts)
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let operator = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
            .args(["tournament", "--db", &db])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, said) = operator(&[
        "--name",
        "Weekly",
        "--format",
        "arena",
        "--pace",
        "daily",
        "--starts",
        &starts_text,
    ]);
    assert_eq!(code, Some(1));
    assert!(said.contains("an arena live"), "{said}");
    let (code, printed, said) = operator(&[
        "--name",
        "Weekly",
        "--format",
        "arena",
        "--pace",
        "brisk",
        "--minutes",
        "30",
        "--starts",
        &starts_text,
        "--every-days",
        "7",
    ]);
    assert_eq!(code, Some(0), "{said}");
    let set: serde_json::Value = serde_json::from_str(printed.trim()).unwrap();
    assert_eq!(set["name"], "Weekly", "{printed}");
    assert_eq!(set["every_days"], 7, "{printed}");

    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    let listed = |answer| match answer {
        Answer::Tournaments { tournaments } => tournaments,
        other => panic!("{other:?}"),
    };
    let public = listed(ann.ask(Ask::Tournaments { club: None }).await.unwrap());
    assert_eq!(public.len(), 1);
    assert_eq!(public[0].name, "Weekly");
    assert_eq!(public[0].club, None);
    let joined = tournament(
        &mut ann,
        Ask::TournamentJoin {
            name: "weekly".into(),
        },
    )
    .await;
    assert_eq!(joined.players, 1, "found by its name folded");

    *now.lock().unwrap() = starts + 1_000;
    let next_name = {
        let day = jiff::Timestamp::from_millisecond(starts + 7 * 24 * HOUR)
            .unwrap()
            .strftime("%Y-%m-%d")
            .to_string();
        format!("Weekly {day}")
    };
    tokio::time::timeout(PATIENCE, async {
        loop {
            let public = listed(ann.ask(Ask::Tournaments { club: None }).await.unwrap());
            if public.iter().any(|t| t.name == next_name) {
                assert_eq!(public[0].state, TournamentState::Playing, "{public:?}");
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the next of the series was set");
    assert!(lines.contains("next of a series set"));

    // Its standings by link: a page anyone reads; a club's own, or none, not found.
    let get = |path: &str| {
        use std::io::{Read, Write};
        let mut tcp = std::net::TcpStream::connect(server.addr).unwrap();
        tcp.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            tcp,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        tcp.read_to_string(&mut reply).unwrap();
        reply
    };
    let page = get("/tournaments/weekly");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<h1>Weekly</h1>"), "{page}");
    assert!(page.contains("og:title"), "{page}");
    assert!(page.contains("<td>Ann</td>"), "{page}");
    assert!(
        page.contains("arena of 30 minutes, under way; 1 player"),
        "{page}"
    );
    assert!(get("/tournaments/Nothing%20Here").starts_with("HTTP/1.1 404"));
}
