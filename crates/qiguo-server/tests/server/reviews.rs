//! Reviews on SQLite and PostgreSQL: every finished quick game asked for, a game a player asks
//! for first in line, one worker a job at a time (a claim run out is anyone's again, a job tried
//! three times is given up), and two workers that only review (`qiguo-server review`) on one
//! database reviewing each game once and keeping its puzzles once.

use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use qiguo_rules::{Game, Level, Move, PlayerInfo, Position, Record, Rules};
use qiguo_server::protocol::{NewGame, QuickPace, Refusal};
use qiguo_server::store::mail::{MailKind, Purpose};
use qiguo_server::store::reviews::{
    REVIEW_ATTEMPTS, REVIEW_CLAIM_FOR, REVIEWS_ASKED_AT_ONCE, ReviewState,
};
use qiguo_server::{GameId, MadeBy, PlayerId, SeatPlan, Store, StoreError};
use qiguo_testkit::TempDir;

use crate::common::{PATIENCE, hand_clock, postgres, sqlite};
use crate::store::runtime;

/// The e-mails and notifications of reviews due now in the outbox (claimed, so each is read
/// once): kind, player and game.
async fn reviews_told(store: &Store) -> Vec<(MailKind, PlayerId, Option<GameId>)> {
    store
        .claim_mail(100, true, true)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| matches!(m.kind, MailKind::Review | MailKind::PushReview))
        .map(|m| (m.kind, m.player, m.game))
        .collect()
}

/// A game of seven: the creator on Qin, Easy computers on the rest.
fn spec() -> NewGame {
    let game = Game::new(Position::start(Rules::default()));
    let mut seats = vec![SeatPlan::Creator];
    seats.extend([SeatPlan::Computer(Level::Easy); 6]);
    NewGame {
        start: Record::from_game(&game, PlayerInfo::defaults(7)),
        seats,
        pace: qiguo_server::Pace::Correspondence {
            days: 3,
            overdue: qiguo_server::WhenOverdue::StandIn,
        },
    }
}

/// Plays `moves` quiet first moves and then concessions until the game is over, as stored
/// moves of `game`; the moves stored.
async fn play_out(store: &Store, game: &GameId, moves: usize) -> usize {
    let mut replay = Game::new(Position::start(Rules::default()));
    let mut ply = 0;
    while !replay.position().is_over() {
        let mv = if ply < moves {
            replay.position().legal_moves()[0]
        } else {
            Move::CONCEDE
        };
        replay.play(mv).unwrap();
        let ends = replay.position().is_over();
        store
            .append_move(
                game,
                ply as u32,
                mv,
                (ply % 7) as u8,
                MadeBy::Seat,
                ends,
                None,
                Vec::new(),
            )
            .await
            .unwrap();
        ply += 1;
    }
    ply
}

#[test]
fn reviews_are_asked_claimed_and_kept_once_in_sqlite() {
    let dir = TempDir::new("reviews-store");
    reviews_are_asked_claimed_and_kept_once(&sqlite(&dir));
}

#[test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
fn reviews_are_asked_claimed_and_kept_once_in_postgres() {
    reviews_are_asked_claimed_and_kept_once(&postgres());
}

fn reviews_are_asked_claimed_and_kept_once(url: &str) {
    runtime().block_on(async {
        let (clock, now) = hand_clock(1_800_000_000_000);
        let mut one = Store::open(url).await.unwrap();
        one.set_clock(clock.clone());
        let mut two = Store::open(url).await.unwrap();
        two.set_clock(clock);
        let (w1, w2) = (one.server_id().to_owned(), two.server_id().to_owned());
        assert_ne!(w1, w2, "each store its own worker's name");
        let ann = one.add_player("Ann").await.unwrap().id;
        let quick = one
            .create_quick_game(&ann, &spec(), QuickPace::Relaxed)
            .await
            .unwrap()
            .id;
        let private = one.create_game(&ann, &spec()).await.unwrap().id;
        let unfinished = one.create_game(&ann, &spec()).await.unwrap().id;
        play_out(&one, &quick, 3).await;
        *now.lock().unwrap() += 1000;
        play_out(&one, &private, 2).await;

        // The finished quick game is asked for once; the private one only when a player asks.
        assert_eq!(one.ask_reviews_since(0).await.unwrap(), 1);
        assert_eq!(two.ask_reviews_since(0).await.unwrap(), 0);
        assert_eq!(
            one.review_state(&quick).await.unwrap(),
            ReviewState::Waiting
        );
        assert_eq!(
            one.review_state(&private).await.unwrap(),
            ReviewState::NotAsked
        );
        assert!(matches!(
            one.ask_review(&unfinished, &ann).await,
            Err(StoreError::Refused(Refusal::NotOver))
        ));
        assert!(matches!(
            one.ask_review(&GameId("nosuchgame".into()), &ann).await,
            Err(StoreError::Refused(Refusal::NoGame))
        ));
        assert_eq!(
            one.ask_review(&private, &ann).await.unwrap(),
            ReviewState::Waiting
        );

        // The game a player asked for first, then the other; then none.
        let first = one.claim_review(&w1).await.unwrap().unwrap();
        assert_eq!(first.game, private);
        assert!(first.asked);
        assert_eq!(first.asked_by, Some(ann.clone()));
        assert_eq!(first.attempts, 1);
        let second = two.claim_review(&w2).await.unwrap().unwrap();
        assert_eq!(second.game, quick);
        assert!(!second.asked);
        assert_eq!(second.asked_by, None);
        assert_eq!(one.claim_review(&w1).await.unwrap(), None);

        // Kept by the worker holding the claim only, once; the people told in its commit: an
        // e-mail for Ann (a confirmed address), nothing for Di (none), no notification (no
        // device).
        let token = one
            .make_token(
                &ann,
                Purpose::Confirm,
                Some("ann@example.org"),
                None,
                60_000,
            )
            .await
            .unwrap();
        one.give_address(&ann, "ann@example.org", false)
            .await
            .unwrap();
        one.confirm_address(&token).await.unwrap();
        let di = one.add_player("Di").await.unwrap().id;
        let told = [ann.clone(), di.clone()];
        let outbox_before = reviews_told(&one).await;
        assert!(
            !two.review_done(&private, &w2, 500, "{}", &[], &told)
                .await
                .unwrap()
        );
        assert!(
            one.review_done(&private, &w1, 500, "{\"moves\":[]}", &[], &told)
                .await
                .unwrap()
        );
        assert!(
            !one.review_done(&private, &w1, 500, "{}", &[], &told)
                .await
                .unwrap()
        );
        assert_eq!(outbox_before, []);
        assert_eq!(
            reviews_told(&one).await,
            [(MailKind::Review, ann.clone(), Some(private.clone()))]
        );
        assert_eq!(
            one.review_state(&private).await.unwrap(),
            ReviewState::Done {
                json: "{\"moves\":[]}".into(),
                nodes: 500
            }
        );
        // Asking again for a game reviewed gives the review.
        let bo = one.add_player("Bo").await.unwrap().id;
        assert!(matches!(
            one.ask_review(&private, &bo).await.unwrap(),
            ReviewState::Done { .. }
        ));

        // A claim given back is the next worker's, not counted as a try; a claim run out is
        // anyone's, and its first holder can no longer keep a review.
        assert!(two.renew_review(&quick, &w2).await.unwrap());
        two.give_review_back(&quick, &w2).await.unwrap();
        let again = one.claim_review(&w1).await.unwrap().unwrap();
        assert_eq!((again.game.clone(), again.attempts), (quick.clone(), 1));
        *now.lock().unwrap() += REVIEW_CLAIM_FOR + 1;
        let taken = two.claim_review(&w2).await.unwrap().unwrap();
        assert_eq!((taken.game.clone(), taken.attempts), (quick.clone(), 2));
        assert!(!one.renew_review(&quick, &w1).await.unwrap());
        assert!(
            !one.review_done(&quick, &w1, 500, "{}", &[], &[])
                .await
                .unwrap()
        );

        // Failing: tried again until the last try, then given up with its reason.
        two.review_failed(&quick, &w2, "the record is damaged")
            .await
            .unwrap();
        assert_eq!(
            two.review_state(&quick).await.unwrap(),
            ReviewState::Waiting
        );
        for _ in 2..REVIEW_ATTEMPTS {
            let job = two.claim_review(&w2).await.unwrap().unwrap();
            two.review_failed(&job.game, &w2, "the record is damaged")
                .await
                .unwrap();
        }
        assert_eq!(
            two.review_state(&quick).await.unwrap(),
            ReviewState::Failed("the record is damaged".into())
        );
        assert_eq!(one.claim_review(&w1).await.unwrap(), None);

        // A player waits for a few reviews at once at most; asking again for one is no more.
        let cy = one.add_player("Cy").await.unwrap().id;
        let mut asked = Vec::new();
        for _ in 0..=REVIEWS_ASKED_AT_ONCE {
            let id = one.create_game(&cy, &spec()).await.unwrap().id;
            play_out(&one, &id, 0).await;
            asked.push(id);
        }
        for id in &asked[..REVIEWS_ASKED_AT_ONCE as usize] {
            assert_eq!(one.ask_review(id, &cy).await.unwrap(), ReviewState::Waiting);
        }
        assert_eq!(
            one.ask_review(&asked[0], &cy).await.unwrap(),
            ReviewState::Waiting
        );
        assert!(matches!(
            one.ask_review(asked.last().unwrap(), &cy).await,
            Err(StoreError::Refused(Refusal::TooManyReviewsAsked { max }))
                if max == REVIEWS_ASKED_AT_ONCE
        ));
        one.close().await;
        two.close().await;
    });
}

/// `qiguo-server review` on `db`, one reviewer: the process and its log's lines so far.
/// The positions a test's worker searches a move.
const TEST_REVIEW_NODES: u64 = qiguo_ai::review::REVIEW_NODES / 10;

fn worker(db: &str) -> (std::process::Child, Arc<Mutex<Vec<String>>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
        // A tenth of a review's usual search: the test is about sharing the games between
        // workers, and two tests' four workers share two cores with everything else running.
        .args([
            "review",
            "--db",
            db,
            "--log",
            "qiguo_server=info",
            "--review-nodes",
            &TEST_REVIEW_NODES.to_string(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let kept = Arc::new(Mutex::new(Vec::new()));
    let keep = kept.clone();
    qiguo_testkit::wait_for_line(
        child.stdout.take().unwrap(),
        PATIENCE,
        "the worker saying it reviews",
        |line| line.contains("reviewing").then_some(()),
        move |line| {
            println!("worker: {line}");
            keep.lock().unwrap().push(line.to_owned());
        },
    );
    (child, kept)
}

#[test]
fn two_workers_review_each_finished_game_once_in_sqlite() {
    let dir = TempDir::new("reviews-workers");
    two_workers_review_each_finished_game_once(&sqlite(&dir));
}

#[test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
fn two_workers_review_each_finished_game_once_in_postgres() {
    two_workers_review_each_finished_game_once(&postgres());
}

fn two_workers_review_each_finished_game_once(url: &str) {
    runtime().block_on(async {
        let store = Store::open(url).await.unwrap();
        let ann: PlayerId = store.add_player("Ann").await.unwrap().id;
        assert!(matches!(
            store
                .puzzle_for(&ann, &qiguo_server::protocol::PuzzleWanted::Daily, 0)
                .await,
            Err(StoreError::Refused(Refusal::NoPuzzles))
        ));
        let mut games = Vec::new();
        for n in 0..6 {
            let id = store
                .create_quick_game(&ann, &spec(), QuickPace::Relaxed)
                .await
                .unwrap()
                .id;
            let plies = play_out(&store, &id, n * 2).await;
            games.push((id, plies));
        }
        // And a game whose one move takes Chu's General, left open on a1 to Qin's Chancellor on
        // a5: a puzzle for certain.
        let text = format!("18wQ/{}wR18/19/19/19/rQ18 w", "19/".repeat(13));
        let open_file = Game::new(Position::from_fen(&text, Rules::default()).unwrap());
        let mut hunt_spec = spec();
        hunt_spec.start = Record::from_game(&open_file, PlayerInfo::defaults(7));
        let hunt = store
            .create_quick_game(&ann, &hunt_spec, QuickPace::Relaxed)
            .await
            .unwrap()
            .id;
        let take = qiguo_rules::notation::parse_move("a5a1").unwrap();
        store
            .append_move(&hunt, 0, take, 0, MadeBy::Seat, true, None, Vec::new())
            .await
            .unwrap();
        games.push((hunt.clone(), 1));
        let (mut a, a_lines) = worker(url);
        let (mut b, b_lines) = worker(url);
        let waited = tokio::time::timeout(PATIENCE, async {
            loop {
                let mut done = 0;
                for (id, _) in &games {
                    if matches!(
                        store.review_state(id).await.unwrap(),
                        ReviewState::Done { .. }
                    ) {
                        done += 1;
                    }
                }
                if done == games.len() {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        })
        .await;
        for child in [&mut a, &mut b] {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
        }
        let (a_status, b_status) = (a.wait().unwrap(), b.wait().unwrap());
        let lines: Vec<String> = [a_lines, b_lines]
            .iter()
            .flat_map(|l| l.lock().unwrap().clone())
            .collect();
        assert!(waited.is_ok(), "not every game reviewed: {lines:#?}");
        assert!(a_status.success() && b_status.success(), "{lines:#?}");
        for (id, plies) in &games {
            let reviewed = lines
                .iter()
                .filter(|l| l.contains("game reviewed") && l.contains(&id.0))
                .count();
            assert_eq!(reviewed, 1, "game {} reviewed once: {lines:#?}", id.0);
            let ReviewState::Done { json, nodes } = store.review_state(id).await.unwrap() else {
                unreachable!()
            };
            assert_eq!(nodes, TEST_REVIEW_NODES);
            let review: qiguo_ai::review::GameReview = serde_json::from_str(&json).unwrap();
            assert_eq!(review.moves.len(), *plies);
        }
        // The open General's capture kept once, as its game's puzzle, named as the game names
        // it; the other games, opened and conceded, have none.
        let kept = store.puzzles(None, 100).await.unwrap();
        assert_eq!(kept.len(), 1, "{kept:?}\n{lines:#?}");
        let (game, puzzle) = &kept[0];
        assert_eq!((game, puzzle.solution, puzzle.ply), (&hunt, take, 1));
        assert_eq!(puzzle.fen, open_file.position().to_fen());
        assert_eq!(store.puzzles(Some(&hunt), 10).await.unwrap(), kept);
        // The operator prints them as `qiguo puzzles play FILE` reads them.
        let printed = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
            .args(["puzzles", "--db", url])
            .output()
            .unwrap();
        assert!(printed.status.success(), "{printed:?}");
        let printed: Vec<qiguo_ai::puzzles::Puzzle> =
            serde_json::from_slice(&printed.stdout).unwrap();
        assert_eq!(printed, std::slice::from_ref(puzzle));

        // Served: the day's (the only one), by name, and next; a first try moves Ann's rating
        // and the puzzle's, once; Bo's miss raises the puzzle's; a name that is none refused.
        use qiguo_server::protocol::PuzzleWanted;
        let id = puzzle.id();
        for which in [
            PuzzleWanted::Daily,
            PuzzleWanted::Next,
            PuzzleWanted::Named { id: id.clone() },
        ] {
            let view = store.puzzle_for(&ann, &which, 20_000).await.unwrap();
            assert_eq!(
                (view.puzzle.id(), view.solver, view.tried),
                (id.clone(), 1500, false)
            );
            assert_eq!(view.daily, which == PuzzleWanted::Daily);
        }
        let first = puzzle.rating;
        let solved = store.puzzle_tried(&ann, &id, true).await.unwrap();
        assert!(solved.counted && solved.after > solved.before, "{solved:?}");
        assert!(
            solved.puzzle < first,
            "solved, the puzzle looks easier: {solved:?}"
        );
        let again = store.puzzle_tried(&ann, &id, false).await.unwrap();
        assert!(!again.counted);
        assert_eq!((again.before, again.after), (solved.after, solved.after));
        let view = store
            .puzzle_for(&ann, &PuzzleWanted::Next, 20_000)
            .await
            .unwrap();
        assert!(view.tried, "every puzzle tried: the nearest again");
        assert_eq!((view.tries, view.solved, view.solver), (1, 1, solved.after));
        assert_eq!(view.puzzle.rating, solved.puzzle);
        let bo: PlayerId = store.add_player("Bo").await.unwrap().id;
        let missed = store.puzzle_tried(&bo, &id, false).await.unwrap();
        assert!(missed.counted && missed.after < missed.before);
        assert!(missed.puzzle > solved.puzzle, "{missed:?}");
        assert_eq!(
            store.puzzle_rating(&bo).await.unwrap().shown(),
            missed.after
        );
        assert!(matches!(
            store
                .puzzle_for(
                    &ann,
                    &PuzzleWanted::Named {
                        id: "0123456789ab".into()
                    },
                    0
                )
                .await,
            Err(StoreError::Refused(Refusal::NoSuchPuzzle { .. }))
        ));
        assert!(matches!(
            store.puzzle_tried(&ann, "0123456789ab", true).await,
            Err(StoreError::Refused(Refusal::NoSuchPuzzle { .. }))
        ));
        assert!(
            lines.iter().any(|l| l.contains("game reviewed")
                && l.contains(&hunt.0)
                && l.contains("puzzles=1")),
            "{lines:#?}"
        );
        store.close().await;
    });
}

/// Ann's endgame, conceded by Bo: finished, and not a quick game (nobody asked for its review
/// until Ann does). Ann asks on a server that reviews: it waits, Ann and Bo are told when it is
/// ready, and asked again it comes whole; a game under way and too many asks are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_asks_for_a_review_and_is_told_when_it_is_ready() {
    use crate::common::{Lines, create, endgame, join, newcomer, serve_on};
    use qiguo_server::protocol::{Answer, Ask, Event, ReviewStatus};
    use qiguo_server::server::ServerConfig;

    let dir = TempDir::new("reviews-asked");
    let mut config = ServerConfig::new(sqlite(&dir));
    config.port = 0;
    config.limits = crate::common::roomy();
    config.reviewers = 1;
    let server = serve_on(&config, None, &Lines::default()).await;
    let url = server.url();
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (bo, _) = newcomer(&url, "Bo").await;
    let pace = qiguo_server::Pace::Live { wait_seconds: 600 };
    let (id, code) = create(&mut ann, endgame(pace)).await;
    let review = |game: &GameId| Ask::Review { game: game.clone() };
    // Not while it is played.
    assert!(matches!(
        ann.ask(review(&id)).await,
        Err(qiguo_server::protocol::client::ClientError::Refused {
            refusal: Refusal::NotOver,
            ..
        })
    ));
    let mut bo = join(bo, &code, qiguo_rules::Kingdom::Chu).await;
    bo.play(|_| Move::CONCEDE).await;
    assert!(bo.game.position().is_over());

    let Answer::Review(view) = ann.ask(review(&id)).await.unwrap() else {
        panic!("a review's answer")
    };
    assert_eq!(view.game, id);
    if view.status == ReviewStatus::Waiting {
        // Ann is told (she asked, and sat in it), and Bo (who sat in it).
        for client in [&mut ann, &mut bo.client] {
            let told = tokio::time::timeout(PATIENCE, async {
                loop {
                    if let Event::ReviewReady { game } = client.next_event().await.unwrap() {
                        break game;
                    }
                }
            })
            .await
            .expect("told the review is ready");
            assert_eq!(told, id);
        }
    }
    let Answer::Review(view) = ann.ask(review(&id)).await.unwrap() else {
        panic!("a review's answer")
    };
    let ReviewStatus::Done { review: done } = view.status else {
        panic!("done: {:?}", view.status)
    };
    assert_eq!(done.moves.len(), 1);
    assert_eq!(done.moves[0].mover, qiguo_rules::Kingdom::Chu);
    assert_eq!(done.last[qiguo_rules::Kingdom::Qin.index()], 1.0);
}
