//! Ratings kept by the store: a full rated game moves its winner up and the first to fall down,
//! a person who took a kingdom over is weighed by their part, a game is rated once, and the
//! leaderboard and a player's history read what was written — on SQLite and on PostgreSQL.

use qiguo_rules::{Game, Level, Move, PlayerInfo, Position, Record, Rules};
use qiguo_server::protocol::{NewGame, RatingFamily};
use qiguo_server::{MadeBy, PlayerId, QuickPace, SeatPlan, Store};
use qiguo_testkit::TempDir;

use super::store::{postgres, runtime, sqlite};

/// A relaxed quick game's start: classic, seven kingdoms, the creator as Qin, six Easy computers
/// (relaxed: the server tests of brisk quick play on PostgreSQL take the brisk games there).
fn quick_spec() -> NewGame {
    let game = Game::new(Position::start(Rules::default()));
    let mut players = PlayerInfo::defaults(7);
    for player in players.iter_mut().skip(1) {
        player.computer = Some(Level::Easy);
    }
    let mut seats = vec![SeatPlan::Creator];
    seats.extend([SeatPlan::Computer(Level::Easy); 6]);
    NewGame {
        start: Record::from_game(&game, players),
        seats,
        pace: QuickPace::Relaxed.pace(),
    }
}

#[test]
fn a_full_rated_game_moves_the_winner_up_and_the_first_to_fall_down_in_sqlite() {
    let dir = TempDir::new("ratings-full");
    a_full_rated_game_moves_the_winner_up_and_the_first_to_fall_down(&sqlite(&dir), true);
}

#[test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
fn a_full_rated_game_moves_the_winner_up_and_the_first_to_fall_down_in_postgres() {
    // The database is shared with other tests and earlier runs: the leaderboard is not ours.
    a_full_rated_game_moves_the_winner_up_and_the_first_to_fall_down(&postgres(), false);
}

/// Ann asks for a quick game (Qin), Bo takes over Yan at once and Cy takes over Qi after three
/// moves; then every kingdom concedes in turn until Yan, the last, wins: Ann fell first, Cy
/// fourth, Bo won.
fn a_full_rated_game_moves_the_winner_up_and_the_first_to_fall_down(url: &str, board: bool) {
    runtime().block_on(async {
        let store = Store::open(url).await.unwrap();
        let ann = store.add_player("Ann").await.unwrap().id;
        let bo = store.add_player("Bo").await.unwrap().id;
        let cy = store.add_player("Cy").await.unwrap().id;
        let easy = SeatPlan::Computer(Level::Easy);
        let game = store
            .create_quick_game(&ann, &quick_spec(), QuickPace::Relaxed)
            .await
            .unwrap()
            .id;
        store.take_over(&game, 6, easy, &bo, 0).await.unwrap();
        let mut replay = Game::new(Position::start(Rules::default()));
        let mut ply = 0;
        while !replay.position().is_over() {
            if ply == 3 {
                store.take_over(&game, 3, easy, &cy, 3).await.unwrap();
            }
            replay.play(Move::CONCEDE).unwrap();
            let ends = replay.position().is_over();
            let seat = (ply % 7) as u8;
            store
                .append_move(
                    &game,
                    ply,
                    Move::CONCEDE,
                    seat,
                    MadeBy::Seat,
                    ends,
                    None,
                    Vec::new(),
                )
                .await
                .unwrap();
            if !ends {
                // Not finished: nothing to rate yet.
                assert!(store.rate_game(&game).await.unwrap().is_empty());
            }
            ply += 1;
        }
        assert_eq!(ply, 6, "six concessions leave Yan alone");
        assert!(store.unrated_games(1000).await.unwrap().contains(&game));

        let rerated = store.rate_game(&game).await.unwrap();
        let of = |p: &PlayerId| rerated.iter().find(|r| &r.player == p).unwrap().clone();
        let (a, b, c) = (of(&ann), of(&bo), of(&cy));
        assert_eq!((a.place, c.place, b.place), (7, 4, 1));
        assert!(a.before.is_none() && b.before.is_none(), "new players");
        let mu = |r: &qiguo_server::store::Rerated| r.after.0.mu;
        assert!(mu(&b) > qiguo_rating::MU, "the winner goes up: {b:?}");
        assert!(
            mu(&a) < qiguo_rating::MU,
            "the first to fall goes down: {a:?}"
        );
        assert!(mu(&a) < mu(&c) && mu(&c) < mu(&b), "{a:?} {c:?} {b:?}");
        assert!(
            b.after.0.sigma < qiguo_rating::SIGMA,
            "a game tells something"
        );
        assert_eq!((a.after.1, b.after.1), (1, 1), "one rated game each");

        // Rated once: again, nothing; and no longer left unrated.
        assert!(store.rate_game(&game).await.unwrap().is_empty());
        assert!(!store.unrated_games(1000).await.unwrap().contains(&game));

        // The ratings as kept, and as the game's seats show them.
        let kept = store
            .rating(&bo, RatingFamily::Correspondence)
            .await
            .unwrap();
        assert_eq!(kept.rating, Some(b.after));
        assert_eq!(kept.name, "Bo");
        let none = store.rating(&bo, RatingFamily::Live).await.unwrap();
        assert_eq!(none.rating, None, "the other family is untouched");
        let loaded = store.load_game(&game).await.unwrap();
        assert_eq!(loaded.seats[6].rating, Some(b.after));
        assert_eq!(loaded.seats[3].taken_ply, Some(3));
        assert_eq!(loaded.seats[0].rating, Some(a.after));

        // Ann's history: one game, seventh of seven, whole.
        let history = store
            .rating_history(&ann, RatingFamily::Correspondence, 50)
            .await
            .unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!((history[0].place, history[0].sides), (7, 7));
        assert_eq!(history[0].game, game);
        assert_eq!(history[0].weight, 1.0);
        assert_eq!(history[0].before, qiguo_rating::Rating::default());
        assert_eq!(history[0].after, a.after.0);

        if board {
            let board = store
                .leaderboard(RatingFamily::Correspondence, 50)
                .await
                .unwrap();
            let names: Vec<&str> = board.iter().map(|r| r.name.as_str()).collect();
            assert_eq!(names, ["Bo", "Cy", "Ann"]);
            assert!(
                store
                    .leaderboard(RatingFamily::Live, 50)
                    .await
                    .unwrap()
                    .is_empty()
            );
        }
    });
}

#[test]
fn a_game_that_is_not_rated_changes_no_rating() {
    let dir = TempDir::new("ratings-unrated");
    runtime().block_on(async {
        let store = Store::open(&sqlite(&dir)).await.unwrap();
        let ann = store.add_player("Ann").await.unwrap().id;
        // The same game, created as an ordinary game (an invitation's): not rated.
        let game = store.create_game(&ann, &quick_spec()).await.unwrap().id;
        let mut replay = Game::new(Position::start(Rules::default()));
        let mut ply = 0;
        while !replay.position().is_over() {
            replay.play(Move::CONCEDE).unwrap();
            let ends = replay.position().is_over();
            store
                .append_move(
                    &game,
                    ply,
                    Move::CONCEDE,
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
        assert!(store.rate_game(&game).await.unwrap().is_empty());
        assert!(store.unrated_games(10).await.unwrap().is_empty());
        assert_eq!(
            store
                .rating(&ann, RatingFamily::Correspondence)
                .await
                .unwrap()
                .rating,
            None
        );
    });
}

/// Through a server: Ann plays now (brisk, six Easy computers), and the seats show the
/// computers' fixed rating and her new one. She concedes at once; five more people play now,
/// each takes a computer's kingdom over in her game and concedes at its turn, until one
/// computer is left: the game is rated when it ends — Ann, the first to fall, seventh and down;
/// the last person to fall, second and up; the people in between in the order they fell — in
/// their histories and on the leaderboard. A name nobody has is refused in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_game_is_rated_when_it_ends_and_the_ratings_are_asked_for() {
    use crate::common::*;
    use qiguo_client::Client;
    use qiguo_server::protocol::{Answer, Ask, Refusal};

    async fn ratings(
        client: &mut Client,
        of: Option<&str>,
    ) -> (
        Vec<qiguo_server::protocol::RatingRow>,
        qiguo_server::protocol::RatingHistory,
    ) {
        let ask = Ask::Ratings {
            family: RatingFamily::Live,
            of: of.map(str::to_owned),
        };
        match client.ask(ask).await.unwrap() {
            Answer::Ratings {
                family,
                board,
                player,
            } => {
                assert_eq!(family, RatingFamily::Live);
                (board, player)
            }
            other => panic!("{other:?}"),
        }
    }

    async fn play_now(client: &mut Client) -> Answer {
        let answer = client
            .ask(Ask::Quick {
                pace: QuickPace::Brisk,
            })
            .await
            .unwrap();
        match answer {
            Answer::Seated { game, .. } => Answer::Game(game),
            other => panic!("{other:?}"),
        }
    }

    let dir = TempDir::new("ratings-server");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    let seated = play_now(&mut ann).await;
    let Answer::Game(view) = &seated else {
        unreachable!()
    };
    let view = view.clone();
    let mine = view.seats[0].rating.expect("a person's rating is shown");
    assert_eq!((mine.points, mine.provisional, mine.games), (1500, true, 0));
    for seat in &view.seats[1..] {
        let easy = seat.rating.expect("a computer's rating is shown");
        assert!(!easy.provisional && easy.points < 1500, "{easy:?}");
    }
    let mut ann = Table::new(ann, seated);
    ann.play(|_| Move::CONCEDE).await;

    // Five more people, one after another, each conceding at the turn of the kingdom taken.
    let mut people = Vec::new();
    for name in ["Bo", "Cy", "Di", "Ed", "Fay"] {
        let (mut client, _) = newcomer(&server.url(), name).await;
        let seated = play_now(&mut client).await;
        let mut table = Table::new(client, seated);
        assert_eq!(table.id, ann.id, "{name} is seated in Ann's game");
        people.push(tokio::spawn(async move {
            table.wait_turn().await;
            table.play(|_| Move::CONCEDE).await;
            table.wait_turn().await;
            assert!(table.game.position().is_over());
            table
        }));
    }
    let mut tables = Vec::new();
    for person in people {
        tables.push(person.await.unwrap());
    }
    ann.wait_turn().await;
    let outcome = ann.game.outcome().expect("over");
    assert!(
        matches!(
            view.seats[usize::from(outcome.player)].plan,
            SeatPlan::Computer(_)
        ),
        "a computer is the last left"
    );
    eventually("the game rated", || {
        lines.count_all(&["rated", "place", "after"]) == 6
    })
    .await;

    let (board, me) = ratings(&mut ann.client, None).await;
    assert_eq!(me.name, "Ann");
    assert_eq!(me.rating.games, 1);
    assert!(
        me.rating.points < 1500,
        "the first to fall goes down: {me:?}"
    );
    assert_eq!(me.changes.len(), 1);
    let change = &me.changes[0];
    assert_eq!((change.place, change.sides, change.share), (7, 7, 100));
    assert_eq!(change.points, me.rating.points);
    assert_eq!(change.change, me.rating.points - 1500);
    // The leaderboard: the six people, the last to fall first, Ann last; all provisional.
    assert_eq!(board.len(), 6);
    assert_eq!(board[5].name, "Ann");
    assert!(
        board[0].rating.points > 1500,
        "second place goes up: {board:?}"
    );
    assert!(
        board
            .windows(2)
            .all(|w| w[0].rating.points > w[1].rating.points)
    );
    assert!(board.iter().all(|row| row.rating.provisional));
    // Each person's place is the reverse of the order they fell in.
    for (row, place) in board.iter().zip(2u8..) {
        let (_, them) = ratings(&mut ann.client, Some(&row.name)).await;
        assert_eq!(them.changes[0].place, place, "{them:?}");
    }
    // Asked by name, in another case: the same player.
    let (_, by_name) = ratings(&mut tables[0].client, Some("ANN")).await;
    assert_eq!(by_name, me);
    // Nobody of that name: refused, naming it.
    let ask = Ask::Ratings {
        family: RatingFamily::Correspondence,
        of: Some("Nobody".into()),
    };
    match ann.client.ask(ask).await {
        Err(qiguo_client::ClientError::Refused {
            refusal: Refusal::NoPlayerNamed { name },
            why,
        }) => {
            assert_eq!(name, "Nobody");
            assert_eq!(why, "nobody called Nobody plays here");
        }
        other => panic!("{other:?}"),
    }
}
