//! Clubs: made, found and joined (at once when open, by asking when by request), run by an
//! owner and organisers (letting people in, naming organisers, removing members), their news
//! told live to the members who want it — from one server to another on PostgreSQL — members
//! shown with who is online and the game each plays, blocks honoured, names unique as folded,
//! news bounded a day, and every bad request refused with nothing changed.
//!
//! On SQLite (one server) and on PostgreSQL (two servers: the players on both, the news posted
//! on one and heard on the other; ignored without `QIGUO_POSTGRES_URL` when built).

use crate::common::*;
use qiguo_client::Client;
use qiguo_server::protocol::clubs::{
    ClubAction, ClubRole, ClubSpec, ClubView, MAX_CLUB_NAME_CHARS, MAX_CLUB_NEWS_A_DAY,
};
use qiguo_server::protocol::{Answer, Ask, Event, Refusal};
use qiguo_server::{GameId, QuickPace};
use qiguo_testkit::TempDir;

async fn refused(client: &mut Client, ask: Ask) -> Refusal {
    match client.ask(ask).await {
        Err(e) => e.refusal().cloned().expect("a refusal"),
        Ok(answer) => panic!("answered {answer:?}"),
    }
}

async fn club(client: &mut Client, ask: Ask) -> ClubView {
    match client.ask(ask).await.unwrap() {
        Answer::Club(view) => *view,
        other => panic!("{other:?}"),
    }
}

fn spec(name: &str, open: bool) -> Ask {
    Ask::ClubCreate {
        spec: ClubSpec {
            name: name.into(),
            description: "We play on Tuesdays".into(),
            open,
        },
    }
}

fn show(name: &str) -> Ask {
    Ask::Club { name: name.into() }
}

fn member(name: &str, player: &str, action: ClubAction) -> Ask {
    Ask::ClubMember {
        name: name.into(),
        player: player.into(),
        action,
    }
}

fn post(name: &str, text: &str) -> Ask {
    Ask::ClubPost {
        name: name.into(),
        text: text.into(),
    }
}

/// The members' names and roles, in the view's order.
fn roles(view: &ClubView) -> Vec<(String, ClubRole)> {
    view.members
        .iter()
        .map(|m| (m.name.clone(), m.role))
        .collect()
}

/// The next club news `client` hears (other events passed over), within [`PATIENCE`].
async fn next_news(client: &mut Client) -> String {
    tokio::time::timeout(PATIENCE, async {
        loop {
            if let Event::ClubNews(news) = client.next_event().await.unwrap() {
                return news.text;
            }
        }
    })
    .await
    .expect("no club news heard")
}

/// Clubs with the players on `url_a` and `url_b` (one server, or two on one database).
async fn clubs_between(url_a: &str, url_b: &str) {
    let (mut ann, _) = newcomer(url_a, "Ann").await;
    let (mut bo, _) = newcomer(url_b, "Bo").await;
    let (mut cy, _) = newcomer(url_a, "Cy").await;
    let (mut dee, _) = newcomer(url_b, "Dee").await;

    // Ann makes an open club; its name is hers alone, as folded; bad names refused.
    let jade = club(&mut ann, spec("  Jade Hall ", true)).await;
    assert_eq!(jade.name, "Jade Hall");
    assert_eq!(jade.description, "We play on Tuesdays");
    assert_eq!((jade.you, jade.member_count), (Some(ClubRole::Owner), 1));
    assert_eq!(roles(&jade), [("Ann".to_owned(), ClubRole::Owner)]);
    assert!(jade.members[0].online, "Ann is here");
    assert!(jade.news_wanted);
    for taken in ["jade hall", "JADE-HALL", "Jade Ha11"] {
        assert_eq!(
            refused(&mut bo, spec(taken, true)).await,
            Refusal::ClubNameTaken {
                name: "Jade Hall".into()
            },
            "{taken}"
        );
    }
    assert_eq!(
        refused(&mut bo, spec(" \u{200B} ", true)).await,
        Refusal::ClubNameEmpty
    );
    assert_eq!(
        refused(&mut bo, spec(&"x".repeat(MAX_CLUB_NAME_CHARS + 1), true)).await,
        Refusal::ClubNameTooLong {
            max: MAX_CLUB_NAME_CHARS as u32
        }
    );
    assert_eq!(
        refused(&mut bo, show("Nowhere")).await,
        Refusal::NoSuchClub {
            name: "Nowhere".into()
        }
    );

    // Bo (on the other server) joins it at once, by its name in any case.
    let joined = club(
        &mut bo,
        Ask::ClubJoin {
            name: "jade hall".into(),
        },
    )
    .await;
    assert_eq!(
        (joined.you, joined.member_count),
        (Some(ClubRole::Member), 2)
    );
    assert_eq!(
        roles(&joined),
        [
            ("Ann".to_owned(), ClubRole::Owner),
            ("Bo".to_owned(), ClubRole::Member)
        ]
    );
    assert!(joined.members[1].online, "Bo is here: {joined:?}");
    // Ann is shown online wherever she is connected: on another server once hers has noted it
    // (every few seconds).
    let start = std::time::Instant::now();
    while !club(&mut bo, show("Jade Hall")).await.members[0].online {
        assert!(start.elapsed() < PATIENCE, "Ann never shown online to Bo");
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    // Only the owner names organisers; Bo, an organiser then, still cannot remove her, nor
    // name another.
    assert_eq!(
        refused(&mut bo, member("Jade Hall", "Bo", ClubAction::Organiser)).await,
        Refusal::NotClubOrganiser {
            name: "Jade Hall".into()
        }
    );
    let named = club(&mut ann, member("Jade Hall", "bo", ClubAction::Organiser)).await;
    assert_eq!(roles(&named)[1], ("Bo".to_owned(), ClubRole::Organiser));
    assert_eq!(
        refused(&mut bo, member("Jade Hall", "Ann", ClubAction::Remove)).await,
        Refusal::ClubOwnerStays
    );
    assert_eq!(
        refused(&mut bo, member("Jade Hall", "Bo", ClubAction::Member)).await,
        Refusal::NotClubOwner {
            name: "Jade Hall".into()
        }
    );

    // A club by request: Cy asks; only its organisers see him asking; Bo, no organiser of it,
    // cannot let him in; Ann does.
    let owls = club(&mut ann, spec("Night Owls", false)).await;
    assert!(!owls.open);
    let asking = club(
        &mut cy,
        Ask::ClubJoin {
            name: "night owls".into(),
        },
    )
    .await;
    assert_eq!(asking.you, Some(ClubRole::Asking));
    assert!(
        asking.members.is_empty() && asking.news.is_empty(),
        "not shown to one asking: {asking:?}"
    );
    assert_eq!(asking.member_count, 1);
    let seen = club(&mut ann, show("Night Owls")).await;
    assert_eq!(roles(&seen)[1], ("Cy".to_owned(), ClubRole::Asking));
    assert_eq!(
        refused(&mut bo, member("Night Owls", "Cy", ClubAction::Accept)).await,
        Refusal::NotClubOrganiser {
            name: "Night Owls".into()
        }
    );
    assert_eq!(
        refused(&mut ann, member("Night Owls", "Dee", ClubAction::Accept)).await,
        Refusal::NoClubMember {
            player: "Dee".into()
        }
    );
    let let_in = club(&mut ann, member("Night Owls", "Cy", ClubAction::Accept)).await;
    assert_eq!(let_in.member_count, 2);
    assert_eq!(roles(&let_in)[1], ("Cy".to_owned(), ClubRole::Member));

    // Blocks: Dee blocked Ann, who owns Jade Hall: Dee cannot join it.
    assert_eq!(
        dee.ask(Ask::Block {
            name: "Ann".into(),
            block: true,
        })
        .await
        .unwrap(),
        Answer::Done
    );
    assert_eq!(
        refused(
            &mut dee,
            Ask::ClubJoin {
                name: "Jade Hall".into()
            }
        )
        .await,
        Refusal::ClubBlocked
    );

    // News: Cy joins Jade Hall and turns its news off; Bo (an organiser, on the other server)
    // posts; Ann hears it, Cy does not — the next he hears is the one after he turns it on.
    club(
        &mut cy,
        Ask::ClubJoin {
            name: "Jade Hall".into(),
        },
    )
    .await;
    let quiet = club(
        &mut cy,
        Ask::ClubNewsWanted {
            name: "Jade Hall".into(),
            wanted: false,
        },
    )
    .await;
    assert!(!quiet.news_wanted);
    assert_eq!(
        refused(&mut cy, post("Jade Hall", "Me too")).await,
        Refusal::NotClubOrganiser {
            name: "Jade Hall".into()
        }
    );
    assert_eq!(
        refused(&mut bo, post("Jade Hall", "   ")).await,
        Refusal::ClubText
    );
    let posted = club(&mut bo, post("Jade Hall", "Tuesday at eight")).await;
    assert_eq!(posted.news[0].text, "Tuesday at eight");
    assert_eq!(posted.news[0].by, "Bo");
    assert_eq!(next_news(&mut ann).await, "Tuesday at eight");
    club(
        &mut cy,
        Ask::ClubNewsWanted {
            name: "Jade Hall".into(),
            wanted: true,
        },
    )
    .await;
    club(&mut ann, post("Jade Hall", "Bring a friend")).await;
    assert_eq!(next_news(&mut cy).await, "Bring a friend");
    let news: Vec<String> = club(&mut cy, show("Jade Hall"))
        .await
        .news
        .into_iter()
        .map(|n| n.text)
        .collect();
    assert_eq!(news, ["Bring a friend", "Tuesday at eight"], "newest first");
    // Bounded: at most so many lines a day.
    for n in 2..MAX_CLUB_NEWS_A_DAY {
        club(&mut ann, post("Jade Hall", &format!("Line {n}"))).await;
    }
    assert!(matches!(
        refused(&mut ann, post("Jade Hall", "One too many")).await,
        Refusal::SlowDown { seconds } if seconds > 0 && seconds <= 86_400
    ));

    // Who plays now: Ann plays a quick game, and the club shows it.
    let game = match ann
        .ask(Ask::Quick {
            pace: QuickPace::Brisk,
        })
        .await
        .unwrap()
    {
        Answer::Seated { game, .. } => game.id,
        other => panic!("{other:?}"),
    };
    let shown = club(&mut bo, show("Jade Hall")).await;
    let playing: Vec<Option<GameId>> = shown.members.iter().map(|m| m.playing.clone()).collect();
    assert_eq!(playing, [Some(game), None, None], "{shown:?}");
    let watch: Vec<bool> = shown.members.iter().map(|m| m.watch.is_some()).collect();
    assert_eq!(
        watch,
        [true, false, false],
        "the game's code, to watch it by"
    );

    // Found by part of their names; one's own first.
    let Answer::Clubs { clubs } = dee
        .ask(Ask::Clubs {
            search: Some("OWL".into()),
        })
        .await
        .unwrap()
    else {
        panic!("a list")
    };
    let found: Vec<&str> = clubs.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(found, ["Night Owls"]);
    let Answer::Clubs { clubs } = cy.ask(Ask::Clubs { search: None }).await.unwrap() else {
        panic!("a list")
    };
    let mine: Vec<(&str, Option<ClubRole>)> =
        clubs.iter().map(|c| (c.name.as_str(), c.you)).collect();
    assert_eq!(
        mine,
        [
            ("Jade Hall", Some(ClubRole::Member)),
            ("Night Owls", Some(ClubRole::Member))
        ]
    );

    // Leaving: the owner stays; one not in it is told so; Cy leaves one club, and Ann removes
    // him from the other.
    assert_eq!(
        refused(
            &mut ann,
            Ask::ClubLeave {
                name: "Jade Hall".into()
            }
        )
        .await,
        Refusal::ClubOwnerStays
    );
    assert_eq!(
        refused(
            &mut dee,
            Ask::ClubLeave {
                name: "Jade Hall".into()
            }
        )
        .await,
        Refusal::NotInClub {
            name: "Jade Hall".into()
        }
    );
    let Answer::Clubs { clubs } = cy
        .ask(Ask::ClubLeave {
            name: "Jade Hall".into(),
        })
        .await
        .unwrap()
    else {
        panic!("a list")
    };
    assert_eq!(
        clubs
            .iter()
            .filter(|c| c.you.is_some())
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["Night Owls"]
    );
    let removed = club(&mut ann, member("Night Owls", "Cy", ClubAction::Remove)).await;
    assert_eq!(removed.member_count, 1);
    let after = club(&mut cy, show("Night Owls")).await;
    assert_eq!(after.you, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clubs_are_made_joined_run_and_told_their_news() {
    let dir = TempDir::new("clubs");
    let db = sqlite(&dir);
    let lines = Lines::default();
    let server = start(&db, None, &lines).await;
    let url = server.url();
    clubs_between(&url, &url).await;
    assert!(lines.contains("club created"));
    assert!(lines.contains("club news"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
async fn clubs_span_two_servers_on_one_postgres() {
    let db = postgres();
    let (lines_a, lines_b) = (Lines::default(), Lines::default());
    let a = start(&db, None, &lines_a).await;
    let b = start(&db, None, &lines_b).await;
    clubs_between(&a.url(), &b.url()).await;
}
