//! Conduct: a player blocks another by name (never seated together by quick play or a table,
//! their table talk hidden), reports one with a reason and the game for the operator, who lists
//! the reports, marks one handled and bars a player from play with `qiguo-server conduct`.

use std::process::Command;

use crate::common::*;
use qiguo_client::Client;
use qiguo_rules::{Kingdom, Level, Preset};
use qiguo_server::protocol::lobby::{TableSpec, WhenUnfilled};
use qiguo_server::protocol::{Answer, Ask, Identity, Refusal, TalkLine};
use qiguo_server::{GameId, Pace, QuickPace};
use qiguo_testkit::TempDir;

async fn refused(client: &mut Client, ask: Ask) -> Refusal {
    match client.ask(ask).await {
        Err(e) => e.refusal().cloned().expect("a refusal"),
        Ok(answer) => panic!("answered {answer:?}"),
    }
}

async fn play_now(client: &mut Client) -> GameId {
    match client
        .ask(Ask::Quick {
            pace: QuickPace::Brisk,
        })
        .await
        .unwrap()
    {
        Answer::Seated { game, .. } => game.id,
        other => panic!("{other:?}"),
    }
}

async fn talk(client: &mut Client, game: &GameId) -> Vec<TalkLine> {
    match client
        .ask(Ask::Talk {
            game: game.clone(),
            before: None,
        })
        .await
        .unwrap()
    {
        Answer::Talk { lines, .. } => lines,
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocked_players_are_kept_apart_and_reports_reach_the_operator() {
    let dir = TempDir::new("conduct");
    let db = sqlite(&dir);
    let lines = Lines::default();
    let server = start(&db, None, &lines).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (mut bo, bo_me) = newcomer(&url, "Bo").await;

    // Ann blocks Bo by name (in any case); herself or nobody: refused.
    let block = |name: &str, block| Ask::Block {
        name: name.into(),
        block,
    };
    assert_eq!(ann.ask(block("bo", true)).await.unwrap(), Answer::Done);
    assert_eq!(
        refused(&mut ann, block("Ann", true)).await,
        Refusal::Yourself
    );
    assert_eq!(
        refused(&mut ann, block("Nobody", true)).await,
        Refusal::NoPlayerNamed {
            name: "Nobody".into()
        }
    );

    // Quick play never seats them together: Bo gets a game of his own; Cy joins Ann's.
    let anns = play_now(&mut ann).await;
    let bos = play_now(&mut bo).await;
    assert_ne!(bos, anns, "Bo is kept apart from Ann");
    let (mut cy, _) = newcomer(&url, "Cy").await;
    let cys = play_now(&mut cy).await;
    assert!(cys == anns || cys == bos);
    // Nor does a table.
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
    let Answer::Table(made) = ann
        .ask(Ask::CreateTable { table, club: None })
        .await
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(
        refused(
            &mut bo,
            Ask::JoinTable {
                table: made.id.clone()
            }
        )
        .await,
        Refusal::TableBlocked
    );

    // An invitation still brings them together (Ann's choice): Bo's talk is hidden from her.
    let (game, code) = create(
        &mut ann,
        new_game(seats(1, Level::Random), Pace::Live { wait_seconds: 600 }),
    )
    .await;
    let mut bo_table = join(bo, &code, Kingdom::Chu).await;
    let said = bo_table
        .client
        .ask(Ask::Say {
            game: game.clone(),
            text: "hello".into(),
        })
        .await
        .unwrap();
    assert!(matches!(said, Answer::Said { .. }));
    assert!(
        talk(&mut ann, &game).await.is_empty(),
        "Bo's line hidden from Ann"
    );
    assert_eq!(talk(&mut bo_table.client, &game).await.len(), 1);
    // Unblocked, she reads him again.
    assert_eq!(ann.ask(block("Bo", false)).await.unwrap(), Answer::Done);
    assert_eq!(talk(&mut ann, &game).await.len(), 1);

    // Ann reports Bo, naming the game; an empty reason is refused.
    let report = |reason: &str| Ask::Report {
        name: "Bo".into(),
        game: Some(game.clone()),
        reason: reason.into(),
    };
    assert_eq!(refused(&mut ann, report("   ")).await, Refusal::TalkEmpty);
    assert_eq!(
        ann.ask(report("leaves every game at move 3"))
            .await
            .unwrap(),
        Answer::Done
    );
    assert!(lines.contains("reported"));

    // The operator lists it, marks it handled, and bars Bo from play.
    let operator = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
            .args(["conduct", "--db", &db])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, listed, _) = operator(&["reports"]);
    assert_eq!(code, Some(0));
    let report: serde_json::Value = serde_json::from_str(listed.trim()).unwrap();
    assert_eq!(report["by_name"], "Ann", "{listed}");
    assert_eq!(report["about_name"], "Bo", "{listed}");
    assert_eq!(report["game"], game.0.as_str(), "{listed}");
    assert_eq!(report["reason"], "leaves every game at move 3", "{listed}");
    let id = report["id"].as_str().unwrap().to_owned();
    let (code, said, _) = operator(&["handled", &id]);
    assert_eq!(
        (code, said.trim()),
        (Some(0), format!("report {id} handled").as_str())
    );
    let (_, listed, _) = operator(&["reports"]);
    assert_eq!(listed.trim(), "no reports");
    let (_, listed, _) = operator(&["reports", "--all"]);
    assert!(listed.contains(&id), "{listed}");
    let (code, _, said) = operator(&["handled", "nothing"]);
    assert_eq!(code, Some(1));
    assert!(said.contains("no report nothing"), "{said}");
    let bo_id = report["about"].as_str().unwrap().to_owned();
    let (code, said, _) = operator(&["bar", &bo_id]);
    assert_eq!(code, Some(0), "{said}");
    let again = qiguo_client::connect(
        &url,
        Identity::Player {
            id: bo_me.player.clone(),
            key: bo_me.key.clone().unwrap(),
        },
        &qiguo_client::Trust::default(),
    )
    .await;
    match again {
        Err(e) => assert_eq!(e.refusal(), Some(&Refusal::Barred), "{e}"),
        Ok(_) => panic!("a barred player signed in"),
    }
    let (code, _, _) = operator(&["bar", &bo_id, "--lift"]);
    assert_eq!(code, Some(0));
    returning(&url, &bo_me).await;
}

/// Public names are unique as folded: a second "ann" or an "Аnn" with a Cyrillic А is refused
/// (`name_taken`), at sign-up through a server as in the store; players kept from before are
/// folded at start, a later one whose name is taken renamed "NAME 2".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn public_names_are_unique_as_folded() {
    let dir = TempDir::new("names");
    let db = sqlite(&dir);
    {
        let store = qiguo_server::Store::open(&db).await.unwrap();
        store.add_player("Ann").await.unwrap();
        for taken in ["ann", "\u{0410}nn", "A n n", "ＡＮＮ"] {
            match store.add_player(taken).await {
                Err(qiguo_server::StoreError::Refused(Refusal::NameTaken { name })) => {
                    assert_eq!(name, taken)
                }
                other => panic!("{taken}: {other:?}"),
            }
        }
        store.add_player("Anna").await.expect("another name");
        // Two players kept from before names were unique, both "Bo".
        let raw = sqlx::SqlitePool::connect(&db).await.unwrap();
        for (id, at) in [("old1", 1), ("old2", 2)] {
            sqlx::query(
                "INSERT INTO players (id, key_hash, name, created_ms) VALUES ($1, 'x', 'Bo', $2)",
            )
            .bind(id)
            .bind(at)
            .execute(&raw)
            .await
            .unwrap();
        }
        raw.close().await;
        store.close().await;
    }
    // A server starting on it folds them: the later Bo is renamed, and says so.
    let lines = Lines::default();
    let server = start(&db, None, &lines).await;
    assert!(lines.contains("name taken by an earlier player: renamed"));
    let store = qiguo_server::Store::open(&db).await.unwrap();
    let second = store
        .rating(
            &qiguo_server::PlayerId("old2".into()),
            qiguo_server::protocol::RatingFamily::Live,
        )
        .await
        .unwrap();
    assert_eq!(second.name, "Bo 2");
    let first = store
        .rating(
            &qiguo_server::PlayerId("old1".into()),
            qiguo_server::protocol::RatingFamily::Live,
        )
        .await
        .unwrap();
    assert_eq!(first.name, "Bo");
    // Through the server: a new "BO" is refused in a frame the client reads, naming the name.
    match qiguo_client::connect(
        &server.url(),
        Identity::New { name: "BO".into() },
        &qiguo_client::Trust::default(),
    )
    .await
    {
        Err(e) => assert_eq!(
            e.refusal(),
            Some(&Refusal::NameTaken { name: "BO".into() }),
            "{e}"
        ),
        Ok(_) => panic!("a second Bo signed up"),
    }
}
