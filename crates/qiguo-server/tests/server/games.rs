//! The server on loopback: games played through it by people and its computers, invitations
//! and seats that answer only to their players, hostile input refused with nothing changed,
//! correspondence games across restarts and overdue moves, take-backs by consent.

use std::time::Duration;

use crate::common::*;
use qiguo_client::{Client, ClientError, Trust};
use qiguo_rules::{Kingdom, Level};
use qiguo_server::protocol::Refusal;
use qiguo_server::protocol::{Answer, Ask, Event, Identity, MAX_FRAME_BYTES};
use qiguo_server::{GameId, Pace, PlayerId, WhenOverdue};
use qiguo_testkit::TempDir;

const LIVE: Pace = Pace::Live { wait_seconds: 600 };

fn refused(result: Result<Answer, ClientError>) -> Refusal {
    match result {
        Err(ClientError::Refused { refusal, why }) => {
            // The English words go with the code.
            assert_eq!(why, refusal.to_string());
            refusal
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_five_computers_play_through_the_server() {
    let dir = TempDir::new("server-play");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut ann, ann_me) = newcomer(&url, "Ann").await;
    let (bo, _) = newcomer(&url, "趙雲").await;
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), LIVE)).await;
    let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let mut ann = Table::new(ann, opened);
    let mut bo_client = bo;
    // The code as a friend might type it.
    let typed = code.to_lowercase().replace('-', " ");
    let joined = bo_client
        .ask(Ask::Join {
            code: typed,
            kingdom: Kingdom::Chu,
        })
        .await
        .unwrap();
    let mut bo = Table::new(bo_client, joined);
    assert_eq!(ann.mine, vec![0]);
    assert_eq!(bo.mine, vec![1]);
    assert_eq!(bo.view.seats[0].name.as_deref(), Some("Ann"));
    // Three rounds: each plays their kingdom's move; the computers answer on the server.
    for round in 0..3 {
        ann.wait_turn().await;
        ann.play(|moves| moves[round % moves.len()]).await;
        bo.wait_turn().await;
        bo.play(|moves| moves[(round * 7) % moves.len()]).await;
    }
    ann.wait_turn().await;
    assert_eq!(ann.game.len(), 21);
    // Both saw the same game, and so does the database read back by a new connection.
    while bo.game.len() < 21 {
        bo.next().await.unwrap();
    }
    assert_eq!(ann.game.position().to_fen(), bo.game.position().to_fen());
    let mut again = returning(&url, &ann_me).await;
    let Answer::Game(view) = again.ask(Ask::Open { game: id.clone() }).await.unwrap() else {
        panic!()
    };
    assert_eq!(view.record.moves.len(), 21);
    assert_eq!(
        view.record.replay().unwrap().position().to_fen(),
        ann.game.position().to_fen()
    );
    // Ann's games: this one, her move.
    let Answer::Games { games } = again.ask(Ask::Games {}).await.unwrap() else {
        panic!()
    };
    assert_eq!(games.len(), 1);
    assert!(games[0].your_turn);
    assert_eq!(games[0].players[1], "趙雲");
    assert!(lines.contains("ply=21"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_requests_are_refused_and_change_nothing() {
    let dir = TempDir::new("server-hostile");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut ann, ann_me) = newcomer(&url, "Ann").await;
    let (mut bo, _) = newcomer(&url, "Bo").await;
    let (mut cy, _) = newcomer(&url, "Cy").await;
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), LIVE)).await;
    let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let mut ann = Table::new(ann, opened);
    bo.ask(Ask::Join {
        code: code.clone(),
        kingdom: Kingdom::Chu,
    })
    .await
    .unwrap();

    // A wrong key, a made-up player: refused, and the connection closed.
    let wrong = qiguo_client::connect(
        &url,
        Identity::Player {
            id: ann_me.player.clone(),
            key: "0".repeat(64),
        },
        &Trust::default(),
    )
    .await;
    assert!(matches!(
        wrong,
        Err(ClientError::Refused {
            refusal: Refusal::WrongKey,
            ..
        })
    ));
    let nobody = qiguo_client::connect(
        &url,
        Identity::Player {
            id: PlayerId("f".repeat(32)),
            key: "1".repeat(64),
        },
        &Trust::default(),
    )
    .await;
    assert!(matches!(
        nobody,
        Err(ClientError::Refused {
            refusal: Refusal::WrongKey,
            ..
        })
    ));

    // Another player's seat and game: Bo cannot move for Qin, Cy cannot open or move.
    let mv = ann.game.position().legal_moves()[0].to_string();
    let bo_moves = bo
        .ask(Ask::Move {
            game: id.clone(),
            ply: 0,
            mv: mv.clone(),
        })
        .await;
    assert_eq!(
        refused(bo_moves),
        Refusal::NotYourTurn {
            kingdom: Kingdom::Qin
        }
    );
    assert_eq!(
        refused(cy.ask(Ask::Open { game: id.clone() }).await),
        Refusal::NoGame
    );
    let cy_moves = cy
        .ask(Ask::Move {
            game: id.clone(),
            ply: 0,
            mv: mv.clone(),
        })
        .await;
    assert_eq!(refused(cy_moves), Refusal::NoGame);
    // Taken seats, the creator's, a computer's: not open.
    for kingdom in [Kingdom::Qin, Kingdom::Chu, Kingdom::Han] {
        let join = cy
            .ask(Ask::Join {
                code: code.clone(),
                kingdom,
            })
            .await;
        assert_eq!(refused(join), Refusal::SeatNotOpen { kingdom });
    }
    // A guessed code finds nothing; nor does one that is not a code at all.
    for guess in [
        "ABCD-EFGH-JKMN-PQRS",
        "",
        "'; DROP TABLE games; --",
        &"9".repeat(5000),
    ] {
        let join = cy
            .ask(Ask::Join {
                code: guess.to_owned(),
                kingdom: Kingdom::Chu,
            })
            .await;
        assert_eq!(refused(join), Refusal::NoCode, "{guess:.20}");
        assert_eq!(
            refused(
                cy.ask(Ask::Watch {
                    code: guess.to_owned()
                })
                .await
            ),
            Refusal::NoCode
        );
    }
    // Ann: out of turn (a stale ply), illegal moves, text that is no move.
    for (ply, text, code) in [
        (1, mv.as_str(), "moved_on"),
        (0, "a1a2", "illegal_move"),
        (0, "e10e3", "illegal_move"),
        (0, "xyzzy", "not_a_move"),
        (0, "--", "illegal_move"),
    ] {
        let asked = ann
            .client
            .ask(Ask::Move {
                game: id.clone(),
                ply,
                mv: text.to_owned(),
            })
            .await;
        let refusal = serde_json::to_value(refused(asked)).unwrap();
        assert_eq!(refusal["code"], code, "{text}");
    }
    // Garbage, unknown fields and binary frames: refused, the connection goes on.
    ann.client.send_text("{not json".into()).await.unwrap();
    let garbage = ann.client.read().await.unwrap();
    assert!(matches!(
        garbage,
        qiguo_server::protocol::ServerFrame::Refused { closing: false, .. }
    ));
    ann.client
        .send_text(r#"{"req":9,"ask":{"type":"games","all":true}}"#.into())
        .await
        .unwrap();
    assert!(matches!(
        ann.client.read().await.unwrap(),
        qiguo_server::protocol::ServerFrame::Refused { closing: false, .. }
    ));
    // Nothing changed: the game has no move, and Ann still plays.
    let Answer::Games { games } = ann.client.ask(Ask::Games {}).await.unwrap() else {
        panic!()
    };
    assert_eq!(games[0].moves, 0);
    ann.play(|moves| moves[0]).await;

    // An oversized frame closes that connection only.
    let (mut eve, _) = newcomer(&url, "Eve").await;
    let _ = eve.send_text("x".repeat(MAX_FRAME_BYTES + 1)).await;
    assert!(eve.ask(Ask::Games {}).await.is_err());
    // A client that asks before saying hello, or says it in another version, is turned away.
    let mut raw = qiguo_client::connect_unsigned(&url, &Trust::default())
        .await
        .unwrap();
    raw.send_text(r#"{"req":1,"ask":{"type":"games"}}"#.to_owned())
        .await
        .unwrap();
    match raw.read().await.unwrap() {
        qiguo_server::protocol::ServerFrame::Refused { why, closing, .. } => {
            assert!(why.contains("hello"), "{why}");
            assert!(closing);
        }
        other => panic!("{other:?}"),
    }
    // A client of an older version is told why in the shape it reads (no code); one of a
    // later version gets the code.
    for (old, version) in [
        (
            r#"{"req":1,"ask":{"type":"hello","version":0,"player":"x"}}"#,
            0,
        ),
        (
            r#"{"req":1,"ask":{"type":"hello","version":2,"identity":{"as":"new","name":"Old"}}}"#,
            2,
        ),
    ] {
        let mut raw = qiguo_client::connect_unsigned(&url, &Trust::default())
            .await
            .unwrap();
        raw.send_text(old.to_owned()).await.unwrap();
        let said: serde_json::Value =
            serde_json::from_str(&raw.read_text().await.unwrap()).unwrap();
        assert_eq!(said["type"], "refused");
        assert_eq!(said["closing"], true);
        assert!(said.get("refusal").is_none(), "{said}");
        let why = said["why"].as_str().unwrap();
        assert!(why.contains(&format!("client {version}")), "{why}");
    }
    let next = qiguo_server::protocol::PROTOCOL_VERSION + 1;
    let later = format!(
        r#"{{"req":1,"ask":{{"type":"hello","version":{next},"identity":{{"as":"new","name":"Later"}}}}}}"#
    );
    let mut raw = qiguo_client::connect_unsigned(&url, &Trust::default())
        .await
        .unwrap();
    raw.send_text(later).await.unwrap();
    match raw.read().await.unwrap() {
        qiguo_server::protocol::ServerFrame::Refused {
            refusal: Refusal::Version { server, client },
            closing: true,
            ..
        } if client == u64::from(next) => {
            assert_eq!(server, qiguo_server::protocol::PROTOCOL_VERSION);
        }
        other => panic!("{other:?}"),
    }
    // Many connections at once: all served, the game undisturbed.
    let mut many = Vec::new();
    for n in 0..40 {
        many.push(tokio::spawn({
            let url = url.clone();
            async move {
                let (mut c, _) = newcomer(&url, &format!("Crowd {n}")).await;
                c.ask(Ask::Games {}).await.unwrap();
                c
            }
        }));
    }
    for c in many {
        c.await.unwrap();
    }
    // Chu's move now: Bo's, and nobody else's.
    let Answer::Games { games } = ann.client.ask(Ask::Games {}).await.unwrap() else {
        panic!()
    };
    assert_eq!((games[0].moves, games[0].to_move), (1, Some(Kingdom::Chu)));
    bo.close().await;
    ann.client.close().await;
    assert!(lines.contains("wrong key"));
    assert!(lines.contains("is not open"));
    // Ann's first refusals are written one by one, the rest counted once she leaves.
    let counted = tokio::time::Instant::now() + PATIENCE;
    while !lines.contains("more lines not written one by one count=") {
        assert!(tokio::time::Instant::now() < counted, "refusals counted");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_sees_moves_and_cannot_make_them() {
    let dir = TempDir::new("server-watch");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (id, code) = create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
    let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let mut ann = Table::new(ann, opened);
    let (mut watcher, _) = newcomer(&url, "Wu").await;
    let watched = watcher.ask(Ask::Watch { code }).await.unwrap();
    let mut watch = Table::new(watcher, watched);
    assert!(watch.mine.is_empty());
    ann.play(|m| m[0]).await;
    ann.wait_turn().await;
    while watch.game.len() < 7 {
        watch.next().await.unwrap();
    }
    let mv = watch.game.position().legal_moves()[0].to_string();
    let asked = watch
        .client
        .ask(Ask::Move {
            game: id.clone(),
            ply: 7,
            mv,
        })
        .await;
    assert_eq!(refused(asked), Refusal::NoGame);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_back_needs_every_other_person() {
    let dir = TempDir::new("server-take-back");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (bo, _) = newcomer(&url, "Bo").await;
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), LIVE)).await;
    let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let mut ann = Table::new(ann, opened);
    let mut bo = join(bo, &code, Kingdom::Chu).await;
    ann.play(|m| m[0]).await;
    bo.wait_turn().await;
    bo.play(|m| m[0]).await;
    ann.wait_turn().await;
    // Bo may not take back Ann's move; Ann asks for her own, Bo refuses, nothing changes.
    let asked = bo
        .client
        .ask(Ask::TakeBack {
            game: id.clone(),
            ply: 0,
        })
        .await;
    assert_eq!(refused(asked), Refusal::TakeBackOwnOnly);
    ann.client
        .ask(Ask::TakeBack {
            game: id.clone(),
            ply: 0,
        })
        .await
        .unwrap();
    loop {
        if let Event::TakeBackAsked { take_back, .. } = bo.next().await.unwrap() {
            assert_eq!((take_back.by, take_back.ply), (0, 0));
            break;
        }
    }
    bo.client
        .ask(Ask::AnswerTakeBack {
            game: id.clone(),
            agree: false,
        })
        .await
        .unwrap();
    assert_eq!(ann.game.len(), 7);
    // Asked again and agreed: the game goes back to its start, and Ann moves again.
    ann.client
        .ask(Ask::TakeBack {
            game: id.clone(),
            ply: 0,
        })
        .await
        .unwrap();
    bo.client
        .ask(Ask::AnswerTakeBack {
            game: id.clone(),
            agree: true,
        })
        .await
        .unwrap();
    while !ann.game.is_empty() {
        ann.next().await.unwrap();
    }
    assert!(ann.my_turn());
    assert!(lines.contains("taken back"));
    let Answer::Game(view) = ann.client.ask(Ask::Open { game: id }).await.unwrap() else {
        panic!()
    };
    assert!(view.record.moves.is_empty());
}

#[test]
fn a_correspondence_game_survives_restarts_and_overdue_moves() {
    let dir = TempDir::new("server-correspondence");
    let db = sqlite(&dir);
    let day = 24 * 60 * 60 * 1000;
    let (clock, now) = hand_clock(1_800_000_000_000);
    let pace = Pace::Correspondence {
        days: 2,
        overdue: WhenOverdue::StandIn,
    };
    // Each step is a server's life: started, one player connects, moves, leaves; stopped.
    let life =
        |step: &dyn Fn(String) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>| {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let lines = Lines::default();
            rt.block_on(async {
                let server = start(&db, Some(clock.clone()), &lines).await;
                step(server.url()).await;
            });
            rt.shutdown_timeout(Duration::from_secs(5));
        };
    let me = std::sync::Arc::new(std::sync::Mutex::new(None));
    let game = std::sync::Arc::new(std::sync::Mutex::new(None::<(GameId, String)>));
    // Ann creates the game (Qin; Chu open; the rest computers) and moves.
    life(&|url| {
        let me = me.clone();
        let game = game.clone();
        Box::pin(async move {
            let (mut ann, ann_me) = newcomer(&url, "Ann").await;
            let created = create(&mut ann, new_game(seats(1, Level::Random), pace)).await;
            let opened = ann
                .ask(Ask::Open {
                    game: created.0.clone(),
                })
                .await
                .unwrap();
            let mut table = Table::new(ann, opened);
            table.play(|m| m[0]).await;
            *me.lock().unwrap() = Some(ann_me);
            *game.lock().unwrap() = Some(created);
        })
    });
    let (id, code) = game.lock().unwrap().clone().unwrap();
    let bo_me = std::sync::Arc::new(std::sync::Mutex::new(None));
    // A day later Bo joins and plays Chu's move; a computer answers for Qi.
    *now.lock().unwrap() += day;
    life(&|url| {
        let code = code.clone();
        let bo_me = bo_me.clone();
        Box::pin(async move {
            let (mut bo, me) = newcomer(&url, "Bo").await;
            let joined = bo
                .ask(Ask::Join {
                    code,
                    kingdom: Kingdom::Chu,
                })
                .await
                .unwrap();
            let mut table = Table::new(bo, joined);
            assert_eq!(table.game.len(), 1);
            table.play(|m| m[1]).await;
            *bo_me.lock().unwrap() = Some(me);
        })
    });
    // Ann comes back: the computers have moved up to her turn; she moves.
    life(&|url| {
        let me = me.lock().unwrap().clone().unwrap();
        let id = id.clone();
        Box::pin(async move {
            let mut ann = returning(&url, &me).await;
            let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
            let mut table = Table::new(ann, opened);
            table.wait_turn().await;
            assert_eq!(table.game.len(), 7);
            // Her list says so, with the day her move is due.
            let Answer::Games { games } = table.client.ask(Ask::Games {}).await.unwrap() else {
                panic!()
            };
            assert!(games[0].your_turn);
            assert_eq!(
                games[0].deadline_ms,
                Some(games[0].since_ms + 2 * 24 * 60 * 60 * 1000)
            );
            table.play(|m| m[2]).await;
        })
    });
    // Bo stays away for three days: the server's stand-in plays his move, then the computers.
    *now.lock().unwrap() += 3 * day;
    life(&|url| {
        let me = me.lock().unwrap().clone().unwrap();
        let id = id.clone();
        Box::pin(async move {
            let mut ann = returning(&url, &me).await;
            let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
            let mut table = Table::new(ann, opened);
            table.wait_turn().await;
            assert_eq!(table.game.len(), 14);
        })
    });
    // Everything is in the database: 14 moves, move 9 (Chu's) by the stand-in.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = qiguo_server::Store::open(&db).await.unwrap();
        let stored = store.load_game(&id).await.unwrap();
        assert_eq!(stored.game.len(), 14);
        assert_eq!(stored.stand_ins, vec![8]);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overdue_turn_passes_when_the_creator_chose_so() {
    let dir = TempDir::new("server-overdue-pass");
    let lines = Lines::default();
    let day = 24 * 60 * 60 * 1000;
    let (clock, now) = hand_clock(1_800_000_000_000);
    let server = start(&sqlite(&dir), Some(clock), &lines).await;
    let url = server.url();
    let (mut ann, me) = newcomer(&url, "Ann").await;
    let pace = Pace::Correspondence {
        days: 1,
        overdue: WhenOverdue::Pass,
    };
    let (id, _) = create(&mut ann, new_game(seats(0, Level::Random), pace)).await;
    ann.close().await;
    // Ann does not move for a day and a half: Qin passes, and the computers play on.
    *now.lock().unwrap() += day + day / 2;
    let mut ann = returning(&url, &me).await;
    let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let mut table = Table::new(ann, opened);
    while table.game.len() < 7 {
        tokio::time::timeout(PATIENCE, table.next())
            .await
            .unwrap()
            .unwrap();
    }
    assert!(table.my_turn());
    assert_eq!(table.game.overdue_passes(), &[0]);
    let Answer::Game(view) = table.client.ask(Ask::Open { game: id }).await.unwrap() else {
        panic!()
    };
    assert_eq!(view.record.overdue, vec![0]);
    assert_eq!(view.record.moves[0], "--");
    assert!(view.stand_ins.is_empty());
    assert!(lines.contains("overdue, passed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_nobody_uses_are_let_go_and_found_again_when_due() {
    let dir = TempDir::new("server-held");
    let lines = Lines::default();
    let day = 24 * 60 * 60 * 1000;
    let (clock, now) = hand_clock(1_800_000_000_000);
    let server = start(&sqlite(&dir), Some(clock), &lines).await;
    let url = server.url();
    let (mut ann, me) = newcomer(&url, "Ann").await;
    // A correspondence game against six computers, and a live one.
    let by_post = Pace::Correspondence {
        days: 1,
        overdue: qiguo_server::WhenOverdue::StandIn,
    };
    let (post, _) = create(&mut ann, new_game(seats(0, Level::Random), by_post)).await;
    let (live, _) = create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
    for id in [&post, &live] {
        let mut client = returning(&url, &me).await;
        let opened = client.ask(Ask::Open { game: id.clone() }).await.unwrap();
        let mut table = Table::new(client, opened);
        table.play(|m| m[0]).await;
        table.wait_turn().await;
        assert_eq!(table.game.len(), 7);
        table.client.close().await;
    }
    ann.close().await;
    // Nobody follows either: both are let go, and so is Ann's own channel.
    let hub = server.hub.clone();
    let gone = tokio::time::Instant::now() + PATIENCE;
    while hub.held() != (0, 0) {
        hub.let_go();
        assert!(
            tokio::time::Instant::now() < gone,
            "let go: {:?}",
            hub.held()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Before Ann's day is up nothing is due; after it the correspondence game is loaded, her
    // move stood in for and the computers answer; the live game rests.
    assert_eq!(hub.load_due().await.unwrap(), 0);
    *now.lock().unwrap() += day + 1;
    assert_eq!(hub.load_due().await.unwrap(), 1);
    let store = qiguo_server::Store::open(&sqlite(&dir)).await.unwrap();
    let played = tokio::time::Instant::now() + PATIENCE;
    while store.load_game(&post).await.unwrap().game.len() < 14 {
        assert!(
            tokio::time::Instant::now() < played,
            "the stand-in and computers played"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(store.load_game(&live).await.unwrap().game.len(), 7);
    // Then it is let go again; Ann's list reads the database and holds nothing.
    while hub.held().0 != 0 {
        hub.let_go();
        assert!(tokio::time::Instant::now() < played, "let go again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut ann = returning(&url, &me).await;
    let Answer::Games { games } = ann.ask(Ask::Games {}).await.unwrap() else {
        panic!()
    };
    let moves: Vec<u32> = games.iter().map(|g| g.moves).collect();
    assert_eq!(moves.len(), 2);
    assert!(moves.contains(&14) && moves.contains(&7), "{moves:?}");
    assert_eq!(hub.held().0, 0, "listing holds no game");
    // Opening the live game holds it again, and it goes on.
    let opened = ann.ask(Ask::Open { game: live.clone() }).await.unwrap();
    let mut table = Table::new(ann, opened);
    assert_eq!(hub.held().0, 1);
    table.play(|m| m[0]).await;
    table.wait_turn().await;
    assert_eq!(table.game.len(), 14);
}

/// The next frame on `raw` as JSON.
async fn raw_frame(raw: &mut qiguo_client::Client) -> serde_json::Value {
    serde_json::from_str(&raw.read_text().await.unwrap()).unwrap()
}

/// The next reply on `raw` as JSON, the events before it passed by.
async fn raw_reply(raw: &mut qiguo_client::Client) -> serde_json::Value {
    loop {
        let frame = raw_frame(raw).await;
        if frame["type"] == "reply" {
            return frame;
        }
    }
}

/// A client of the version before today's (13, raw frames) is answered and plays on, in the shape
/// its types read; its welcome names the server's version, newer than its own, and its turn is
/// told as version 13 tells it. One older still (12) is refused with the code `version`, naming
/// both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_of_the_version_before_is_served_in_its_shape_and_an_older_is_told() {
    use qiguo_server::protocol::PROTOCOL_VERSION;
    use qiguo_server::protocol::versions::OLDEST_SERVED;

    let dir = TempDir::new("server-versions");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    assert_eq!(OLDEST_SERVED, 13, "the steps down below are version 13's");
    let mut old = qiguo_client::connect_unsigned(&url, &Trust::default())
        .await
        .unwrap();
    old.send_text(
        r#"{"req":1,"ask":{"type":"hello","version":13,"identity":{"as":"new","name":"Old"}}}"#
            .to_owned(),
    )
    .await
    .unwrap();
    let welcome = raw_frame(&mut old).await;
    assert_eq!(welcome["answer"]["type"], "welcome", "{welcome}");
    assert_eq!(welcome["answer"]["version"], PROTOCOL_VERSION);
    assert!(lines.contains("protocol=13"));
    // A game created and listed, as version 13 reads them.
    let asked = serde_json::json!({
        "req": 2,
        "ask": Ask::Create { game: new_game(seats(0, Level::Random), LIVE) },
    });
    old.send_text(asked.to_string()).await.unwrap();
    let created = raw_reply(&mut old).await;
    let game = created["answer"]["game"].as_str().unwrap().to_owned();
    old.send_text(r#"{"req":3,"ask":{"type":"games"}}"#.to_owned())
        .await
        .unwrap();
    let games = raw_reply(&mut old).await;
    assert_eq!(games["answer"]["games"][0]["id"], game.as_str(), "{games}");
    // Quick play: seated, in version 13's shape.
    old.send_text(r#"{"req":4,"ask":{"type":"quick","pace":"brisk"}}"#.to_owned())
        .await
        .unwrap();
    let seated = raw_reply(&mut old).await;
    assert_eq!(seated["answer"]["type"], "seated", "{seated}");
    let seats = seated["answer"]["game"]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 7);
    assert!(seats.iter().all(|s| s.get("plan").is_some()), "{seated}");
    // At its table (a live game rests while nobody sits at it), it moves; the six computers
    // answer, and its next turn is told without the turn's ply (version 14's), which its types
    // would refuse.
    let opened = serde_json::json!({"req": 5, "ask": Ask::Open { game: GameId(game.clone()) }});
    old.send_text(opened.to_string()).await.unwrap();
    assert_eq!(raw_reply(&mut old).await["answer"]["type"], "game");
    let start = qiguo_rules::Position::start(qiguo_rules::Rules::default());
    let first = start.legal_moves()[0];
    let moved = serde_json::json!({
        "req": 7,
        "ask": Ask::Move { game: GameId(game.clone()), ply: 0, mv: first.to_string() },
    });
    old.send_text(moved.to_string()).await.unwrap();
    let told = loop {
        let frame = raw_frame(&mut old).await;
        if frame["type"] == "event"
            && frame["event"]["type"] == "your_turn"
            && frame["event"]["game"] == game.as_str()
        {
            break frame;
        }
    };
    let fields: Vec<&String> = told["event"].as_object().unwrap().keys().collect();
    assert_eq!(fields, ["game", "kingdom", "type"], "{told}");
    assert_eq!(told["event"]["kingdom"], "qin", "{told}");
    old.send_text(r#"{"req":6,"ask":{"type":"games"}}"#.to_owned())
        .await
        .unwrap();
    assert_eq!(raw_reply(&mut old).await["answer"]["type"], "games");
    // Version 12: refused, with both versions in the code it reads.
    let mut older = qiguo_client::connect_unsigned(&url, &Trust::default())
        .await
        .unwrap();
    older
        .send_text(
            r#"{"req":1,"ask":{"type":"hello","version":12,"identity":{"as":"new","name":"Older"}}}"#
                .to_owned(),
        )
        .await
        .unwrap();
    let refused = raw_frame(&mut older).await;
    assert_eq!(refused["type"], "refused", "{refused}");
    assert_eq!(refused["closing"], true);
    assert_eq!(
        refused["refusal"],
        serde_json::json!({"code": "version", "server": PROTOCOL_VERSION, "client": 12})
    );
}

/// The next `your_turn` event on `client` (others passed by), within the patience: its game,
/// kingdom, ply and whether it was told again.
async fn next_turn(client: &mut Client) -> (GameId, Kingdom, u32, bool) {
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Event::YourTurn {
                game,
                kingdom,
                ply,
                again,
            } = client.next_event().await.unwrap()
            {
                return (game, kingdom, ply, again);
            }
        }
    })
    .await
    .expect("a turn told within the patience")
}

/// A player's waiting turns are told again when they sign in, each named by its ply, so that
/// a turn told while they had no connection is not lost and a client knows one it was told
/// before; a game waiting for someone else is not told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_turns_are_told_again_at_sign_in() {
    let dir = TempDir::new("server-turns-again");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    let (mut ann, me) = newcomer(&url, "Ann").await;
    // A game where Chu (an open seat) is to move: never Ann's turn.
    let (others, _) = create(&mut ann, endgame(LIVE)).await;
    // Ann's own game against six computers: Qin, hers, moves first.
    let (id, _) = create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
    ann.close().await;

    // Signed in again: told of her turn in her game, again, at ply 0.
    let mut ann = returning(&url, &me).await;
    assert_eq!(
        next_turn(&mut ann).await,
        (id.clone(), Kingdom::Qin, 0, true)
    );
    // At the table (a live game rests while nobody sits at it) she moves; the six computers
    // answer and her next turn is told as it comes.
    ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
    let start = qiguo_rules::Position::start(qiguo_rules::Rules::default());
    let first = start.legal_moves()[0].to_string();
    ann.ask(Ask::Move {
        game: id.clone(),
        ply: 0,
        mv: first,
    })
    .await
    .unwrap();
    assert_eq!(
        next_turn(&mut ann).await,
        (id.clone(), Kingdom::Qin, 7, false)
    );
    ann.close().await;

    // Away and back: the same turn, told again with the same ply.
    let mut ann = returning(&url, &me).await;
    assert_eq!(
        next_turn(&mut ann).await,
        (id.clone(), Kingdom::Qin, 7, true)
    );
    let Answer::Games { games } = ann.ask(Ask::Games {}).await.unwrap() else {
        panic!()
    };
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games.iter().any(|g| g.id == others && !g.your_turn));
    ann.close().await;
}
