//! Table talk through a real server: two players and a watcher; the stranger, the watcher and
//! text over the limit refused; muting; the rate; the operator's hiding and barring (through the
//! binary's `talk` command); lines kept across a restart.

use std::process::Command;
use std::time::Duration;

use crate::common::*;
use qiguo_client::Client;
use qiguo_rules::{Kingdom, Level};
use qiguo_server::GameId;
use qiguo_server::Pace;
use qiguo_server::Store;
use qiguo_server::admission::Limits;
use qiguo_server::protocol::{Answer, Ask, Event, MAX_TALK_CHARS, Refusal, TalkLine};
use qiguo_testkit::TempDir;

const LIVE: Pace = Pace::Live { wait_seconds: 600 };

/// `client` says `text` in `game`: the line's number, or the refusal.
async fn say(client: &mut Client, game: &GameId, text: &str) -> Result<u32, Refusal> {
    match client
        .ask(Ask::Say {
            game: game.clone(),
            text: text.into(),
        })
        .await
    {
        Ok(Answer::Said { n }) => Ok(n),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.refusal().cloned().expect("a refusal")),
    }
}

/// The table talk of `game` as `client` reads it: (seat, name, text) of each line.
async fn talk(client: &mut Client, game: &GameId) -> Result<Vec<TalkLine>, Refusal> {
    match client
        .ask(Ask::Talk {
            game: game.clone(),
            before: None,
        })
        .await
    {
        Ok(Answer::Talk { lines, .. }) => Ok(lines),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.refusal().cloned().expect("a refusal")),
    }
}

fn texts(lines: &[TalkLine]) -> Vec<&str> {
    lines.iter().map(|l| l.text.as_str()).collect()
}

/// The next line of talk `table` hears (moves and the rest passed by), within [`PATIENCE`].
async fn hears(table: &mut Table) -> TalkLine {
    table
        .until(PATIENCE, "a line of talk", |e| match e {
            Event::Said { line, .. } => Some(line),
            _ => None,
        })
        .await
}

/// Whether `table` hears a line of talk within two seconds (moves and the rest passed by).
async fn hears_any(table: &mut Table) -> Option<TalkLine> {
    tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            if let Event::Said { line, .. } = table.next().await.unwrap() {
                return line;
            }
        }
    })
    .await
    .ok()
}

/// Ann's game with Bo in Chu's seat and Cy watching: their tables.
async fn a_table(url: &str) -> (Table, Table, Table) {
    let (mut ann, _) = newcomer(url, "Ann").await;
    let (mut bo, _) = newcomer(url, "Bo").await;
    let (mut cy, _) = newcomer(url, "Cy").await;
    let (id, code) = create(&mut ann, new_game(seats(1, Level::Random), LIVE)).await;
    let opened = ann.ask(Ask::Open { game: id }).await.unwrap();
    let joined = bo
        .ask(Ask::Join {
            code: code.clone(),
            kingdom: Kingdom::Chu,
        })
        .await
        .unwrap();
    let watched = cy.ask(Ask::Watch { code }).await.unwrap();
    (
        Table::new(ann, opened),
        Table::new(bo, joined),
        Table::new(cy, watched),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_talks_and_a_watcher_reads() {
    let dir = TempDir::new("talk-table");
    let db = sqlite(&dir);
    let lines = Lines::default();
    let server = start(&db, None, &lines).await;
    let (mut ann, mut bo, mut cy) = a_table(&server.url()).await;
    let id = ann.id.clone();
    // Ann writes; control and format characters go, as in names.
    assert_eq!(
        say(
            &mut ann.client,
            &id,
            "  Chu, an alliance against Qin?\u{200b}\u{7}  "
        )
        .await,
        Ok(0)
    );
    for table in [&mut ann, &mut bo, &mut cy] {
        let line = hears(table).await;
        assert_eq!(
            (line.n, line.seat, line.name.as_str(), line.text.as_str()),
            (0, 0, "Ann", "Chu, an alliance against Qin?")
        );
        assert_eq!(line.author, None, "who wrote it is not sent");
    }
    assert_eq!(say(&mut bo.client, &id, "Agreed. 同盟。").await, Ok(1));
    assert_eq!(hears(&mut cy).await.text, "Agreed. 同盟。");
    // The watcher reads the talk but does not write; nor does a stranger read or write.
    assert_eq!(
        texts(&talk(&mut cy.client, &id).await.unwrap()),
        ["Chu, an alliance against Qin?", "Agreed. 同盟。"]
    );
    assert_eq!(
        say(&mut cy.client, &id, "Me too").await,
        Err(Refusal::NoGame)
    );
    let (mut dee, _) = newcomer(&server.url(), "Dee").await;
    assert_eq!(talk(&mut dee, &id).await, Err(Refusal::NoGame));
    assert_eq!(say(&mut dee, &id, "Hello").await, Err(Refusal::NoGame));
    // Too long, or nothing left once cleaned: refused, nothing stored.
    let long = "字".repeat(MAX_TALK_CHARS + 1);
    assert_eq!(
        say(&mut ann.client, &id, &long).await,
        Err(Refusal::TalkTooLong {
            max: MAX_TALK_CHARS as u32
        })
    );
    assert_eq!(
        say(&mut ann.client, &id, " \u{200e}\n ").await,
        Err(Refusal::TalkEmpty)
    );
    assert_eq!(
        say(&mut ann.client, &id, &"字".repeat(MAX_TALK_CHARS)).await,
        Ok(2)
    );
    assert_eq!(talk(&mut bo.client, &id).await.unwrap().len(), 3);
    // What was said is not in the log.
    assert!(lines.contains("table talk game=") && lines.contains(" line=1 by="));
    assert!(!lines.contains("alliance"));
    // Kept with the game: read again after the server restarts.
    drop((ann, bo, cy));
    server.shutdown(Duration::from_secs(5)).await;
    drop(server);
    let server = start(&db, None, &lines).await;
    let (mut bo, _) = newcomer(&server.url(), "Eve").await;
    assert_eq!(talk(&mut bo, &id).await, Err(Refusal::NoGame));
    let store = Store::open(&db).await.unwrap();
    let kept = store.talk_from(&id, 0).await.unwrap();
    assert_eq!(
        texts(&kept)[..2],
        ["Chu, an alliance against Qin?", "Agreed. 同盟。"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_mutes_another_for_themselves() {
    let dir = TempDir::new("talk-mute");
    let db = sqlite(&dir);
    let server = start(&db, None, &Lines::default()).await;
    let (mut ann, mut bo, mut cy) = a_table(&server.url()).await;
    let id = ann.id.clone();
    say(&mut ann.client, &id, "First").await.unwrap();
    assert_eq!(hears(&mut bo).await.text, "First");
    assert_eq!(hears(&mut cy).await.text, "First");
    let mute = |mute| Ask::Mute {
        game: id.clone(),
        seat: 0,
        mute,
    };
    assert_eq!(bo.client.ask(mute(true)).await.unwrap(), Answer::Done);
    say(&mut ann.client, &id, "Second").await.unwrap();
    say(&mut cy.client, &id, "no").await.unwrap_err();
    // Cy hears it; Bo neither hears nor reads Ann any more.
    assert_eq!(hears(&mut cy).await.text, "Second");
    assert_eq!(hears_any(&mut bo).await, None);
    assert!(talk(&mut bo.client, &id).await.unwrap().is_empty());
    match bo
        .client
        .ask(Ask::Talk {
            game: id.clone(),
            before: None,
        })
        .await
        .unwrap()
    {
        Answer::Talk { muted, .. } => assert_eq!(muted, [0]),
        other => panic!("{other:?}"),
    }
    assert_eq!(talk(&mut cy.client, &id).await.unwrap().len(), 2);
    // Nobody else's seat to mute: a computer's, one's own.
    for seat in [2, 1] {
        let refused = bo
            .client
            .ask(Ask::Mute {
                game: id.clone(),
                seat,
                mute: true,
            })
            .await
            .unwrap_err();
        assert_eq!(refused.refusal(), Some(&Refusal::NobodyToMute { seat }));
    }
    // Unmuted: heard again, and the lines kept meanwhile read.
    bo.client.ask(mute(false)).await.unwrap();
    say(&mut ann.client, &id, "Third").await.unwrap();
    assert_eq!(hears(&mut bo).await.text, "Third");
    assert_eq!(
        texts(&talk(&mut bo.client, &id).await.unwrap()),
        ["First", "Second", "Third"]
    );
    // A player watching by the code a game they play in sees their seat as theirs (a link to
    // it opens it as theirs).
    let code = ann.view.code.clone();
    match ann.client.ask(Ask::Watch { code }).await.unwrap() {
        Answer::Game(view) => {
            assert!(view.seats[0].yours && !view.seats[1].yours);
        }
        other => panic!("{other:?}"),
    }
    match cy
        .client
        .ask(Ask::Watch {
            code: cy.view.code.clone(),
        })
        .await
        .unwrap()
    {
        Answer::Game(view) => assert!(view.seats.iter().all(|s| !s.yours)),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn talk_is_rate_limited_and_the_operator_hides_and_bars() {
    let dir = TempDir::new("talk-operator");
    let db = sqlite(&dir);
    let limits = Limits {
        talk_per_minute: 3,
        ..roomy()
    };
    let server = start_limited(&db, None, &Lines::default(), limits).await;
    let (mut ann, mut bo, _cy) = a_table(&server.url()).await;
    let id = ann.id.clone();
    for text in ["one", "two", "three"] {
        say(&mut ann.client, &id, text).await.unwrap();
    }
    assert!(matches!(
        say(&mut ann.client, &id, "four").await,
        Err(Refusal::SlowDown { seconds: 1..=60 })
    ));
    // The rate is the player's: Bo still talks.
    say(&mut bo.client, &id, "Bo here").await.unwrap();
    // The operator hides line 1 and bars Ann, with the server running.
    let operator = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
            .args(["talk", "--db", &db])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, said, _) = operator(&["hide", &id.0, "1"]);
    assert_eq!(code, Some(0));
    assert!(said.contains("line 1 of game"), "{said}");
    assert_eq!(
        texts(&talk(&mut bo.client, &id).await.unwrap()),
        ["one", "three", "Bo here"]
    );
    let (code, _, said) = operator(&["hide", &id.0, "99"]);
    assert_eq!(code, Some(1));
    assert!(said.contains("has no line 99"), "{said}");
    // Bo barred: refused at once, on the connection he has.
    let store = Store::open(&db).await.unwrap();
    let kept = store.talk_from(&id, 0).await.unwrap();
    let bo_id = kept
        .iter()
        .find(|l| l.name == "Bo")
        .and_then(|l| l.author.clone())
        .unwrap();
    let (code, _, _) = operator(&["bar", &bo_id.0]);
    assert_eq!(code, Some(0));
    assert_eq!(
        say(&mut bo.client, &id, "let me").await,
        Err(Refusal::TalkBarred)
    );
    // Barred from talking, not from reading or playing.
    assert_eq!(talk(&mut bo.client, &id).await.unwrap().len(), 3);
    ann.play(|m| m[0]).await;
    bo.wait_turn().await;
    bo.play(|m| m[0]).await;
    let (code, said, _) = operator(&["bar", &bo_id.0, "--lift"]);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(say(&mut bo.client, &id, "thank you").await, Ok(4));
    let (code, _, said) = operator(&["bar", "nobody"]);
    assert_eq!(code, Some(1));
    assert!(said.contains("no player nobody"), "{said}");
}
