//! The game window online, on loopback (127.0.0.1 only): the window's logic plugins (no GPU).
//! Ann's window starts its own server and creates a game with an open seat; Bo's window
//! connects to it, joins with the code (Ann's panel shows him there) and plays; moves go
//! through the server and reach both boards alike; a take-back asked by one is made when the other agrees. Each app is stepped by
//! hand, bounded in wall time.

use std::time::Duration;

use crate::common::*;
use bevy::prelude::*;
use qiguo::game::online::after::{OnlineFinished, ReadFinished};
use qiguo::game::online::conduct::Conduct;
use qiguo::game::online::holidays::{GoAway, OnlineHolidays};
use qiguo::game::online::mail::OnlineMail;
use qiguo::game::online::push::{DeviceSubscription, OnlinePush};
use qiguo::game::online::{Online, OnlineCommand, OnlineRequested, Status};
use qiguo::game::recap::Recap;
use qiguo::game::state::{
    Match, MoveRequested, Notice, Said, SeatAuthority, TurnPhase, UndoRequested,
};
use qiguo_ai::Level;
use qiguo_protocol::NewGame;
use qiguo_protocol::{Pace, SeatPlan};
use qiguo_rules::{Kingdom, PlayerInfo, Position, Record, Rules};

const LIMIT: Duration = Duration::from_secs(120);

/// A window's data directory, kept as long as the window (removed when the app is dropped).
#[derive(Resource)]
struct KeptDataDir {
    _dir: DataDir,
}

/// A window's logic saving in a data directory of its own (where its key is kept).
fn window(test: &str, seed: u64) -> App {
    let dir = data_dir(test);
    let mut app = TestApp::new(Position::start(Rules::default()))
        .seed(seed)
        .saving(&dir, false)
        .build();
    app.insert_resource(KeptDataDir { _dir: dir });
    app
}

fn online(app: &App) -> &Online {
    app.world().resource::<Online>()
}

/// The notices a window said, kept by [`keep_notices`].
#[derive(Resource, Default)]
struct Noticed(Vec<Notice>);

fn keep_notices(mut notices: MessageReader<Notice>, mut kept: ResMut<Noticed>) {
    kept.0.extend(notices.read().cloned());
}

fn holidays(app: &App) -> &OnlineHolidays {
    app.world().resource::<OnlineHolidays>()
}

fn the_match(app: &App) -> &Match {
    app.world().resource::<Match>()
}

fn seats(app: &App) -> &SeatAuthority {
    app.world().resource::<SeatAuthority>()
}

/// The person at this window plays a quiet move if one of their kingdoms is to move.
fn play_if_mine(app: &mut App) {
    let m = the_match(app);
    let pos = m.position();
    if pos.is_over() || phase(app) != TurnPhase::AwaitingInput || online(app).table.is_none() {
        return;
    }
    if !seats(app).plays_here(pos.player_of(pos.to_move())) || m.computer_to_move() {
        return;
    }
    let mv = quiet_move(app);
    let request = MoveRequested::by_person(the_match(app), mv);
    app.world_mut().write_message(request);
}

fn run(apps: &mut [&mut App], playing: bool, done: impl Fn(&[&mut App]) -> bool) {
    let start = std::time::Instant::now();
    while !done(apps) {
        assert!(start.elapsed() < LIMIT, "not done within {LIMIT:?}");
        for app in apps.iter_mut() {
            if playing {
                play_if_mine(app);
            }
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Starts `app`'s own server on loopback and connects it as `name`: the server's address.
fn own_server(app: &mut App, name: &str) -> String {
    send(
        app,
        OnlineRequested::OwnServer {
            lan: false,
            port: 0,
            name: name.into(),
        },
    );
    run(&mut [&mut *app], false, |a| {
        online(a[0]).status == Status::Connected
    });
    online(app)
        .served
        .clone()
        .expect("the own server's address")
}

/// Connects `guest` as `name` to `host`'s server at `url` (both windows stepped meanwhile).
fn connect_to(host: &mut App, guest: &mut App, url: String, name: &str) {
    send(
        guest,
        OnlineRequested::Remote {
            url,
            name: name.into(),
            insecure_lan: false,
        },
    );
    run(&mut [host, guest], false, |a| {
        online(a[1]).status == Status::Connected
    });
}

/// Ann's window, serving, and Bo's, connected to it, at one game (of `pace`): Ann on Qin, Bo
/// having joined Chu with the code as typed by hand, five Random computers.
fn ann_and_bo(test: &str, pace: Pace) -> (App, App) {
    let mut ann = window(&format!("{test}-ann"), 1);
    let mut bo = window(&format!("{test}-bo"), 2);
    let url = own_server(&mut ann, "Ann");
    // A game with the board's rules: Ann on Qin, Chu open, five Random computers.
    let mut plans = vec![SeatPlan::Creator, SeatPlan::Open];
    plans.extend([SeatPlan::Computer(Level::Random); 5]);
    let mut players = PlayerInfo::defaults(7);
    players[0].name = "Ann".into();
    let start = Record::from_game(the_match(&ann).game(), players);
    send(
        &mut ann,
        OnlineCommand::Create(NewGame {
            start,
            seats: plans,
            pace,
        }),
    );
    run(&mut [&mut ann], false, |a| online(a[0]).table.is_some());
    let code = online(&ann).table.as_ref().unwrap().code.clone();
    assert!(online(&ann).table.as_ref().unwrap().holds(0));
    // Bo connects to Ann's server and joins with the code, as typed by hand.
    connect_to(&mut ann, &mut bo, url, "Bo");
    send(
        &mut bo,
        OnlineCommand::Join {
            code: code.to_lowercase(),
            kingdom: Kingdom::Chu,
        },
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[1]).table.is_some()
    });
    assert!(seats(&bo).plays_here(1) && !seats(&bo).plays_here(0));
    (ann, bo)
}

#[test]
fn two_windows_play_through_a_window_s_own_server() {
    let (mut ann, mut bo) = ann_and_bo("online", Pace::Live { wait_seconds: 600 });
    // Ann's panel shows Bo there before he has moved.
    let bo_present = |a: &App| online(a).table.as_ref().is_some_and(|t| t.seats[1].present);
    run(&mut [&mut ann, &mut bo], false, |a| bo_present(a[0]));
    // They play two rounds; both boards agree, move for move.
    run(&mut [&mut ann, &mut bo], true, |a| {
        the_match(a[0]).game().len() >= 14
            && the_match(a[1]).game().len() == the_match(a[0]).game().len()
            && phase(a[0]) == TurnPhase::AwaitingInput
            && phase(a[1]) == TurnPhase::AwaitingInput
    });
    assert!(
        the_match(&ann)
            .game()
            .moves()
            .eq(the_match(&bo).game().moves())
    );
    assert_eq!(the_match(&bo).players()[0].name, "Ann");
    assert_eq!(the_match(&ann).players()[1].name, "Bo");
    // Ann asks to take back her last move; Bo agrees; both boards go back to it.
    let before = the_match(&ann).game().len();
    send(&mut ann, UndoRequested);
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[1])
            .table
            .as_ref()
            .is_some_and(|t| t.take_back.is_some())
    });
    send(&mut bo, OnlineCommand::AnswerTakeBack(true));
    run(&mut [&mut ann, &mut bo], false, |a| {
        the_match(a[0]).game().len() < before && the_match(a[1]).game().len() < before
    });
    assert_eq!(the_match(&ann).position().to_move(), Kingdom::Qin);
    assert!(
        the_match(&ann)
            .game()
            .moves()
            .eq(the_match(&bo).game().moves())
    );
    // Ann's list has the game, her move.
    send(&mut ann, OnlineCommand::RefreshGames);
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[0]).games.first().is_some_and(|g| g.your_turn)
    });
    // Bo takes the game off his board; Ann moves, the computers after her, until it is Chu's
    // turn again: Bo's list is told so without asking.
    let id = online(&bo).table.as_ref().unwrap().id.clone();
    send(&mut bo, OnlineCommand::LeaveGame);
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[1]).table.is_none() && !bo_present(a[0])
    });
    assert!(
        !seats(&bo).follows_server(),
        "the board's game is Bo's own now"
    );
    let bo_moved = the_match(&ann).game().len();
    run(&mut [&mut ann, &mut bo], true, |a| {
        online(a[1])
            .games
            .iter()
            .any(|g| g.id == id && g.your_turn && g.moves as usize > bo_moved)
    });
    // He opens it again from his list: the game as the server has it, the moves since his
    // last one marked on the board.
    send(&mut bo, OnlineCommand::Open(id));
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[1]).table.is_some() && the_match(a[1]).game().len() == the_match(a[0]).game().len()
    });
    assert!(
        the_match(&ann)
            .game()
            .moves()
            .eq(the_match(&bo).game().moves())
    );
    let recap = bo.world().resource::<Recap>().clone();
    let game = the_match(&bo).game();
    assert_eq!(recap.current(the_match(&bo)), Some(recap.moves.clone()));
    assert_eq!(recap.moves.end, game.len());
    let last_own = game
        .reports()
        .enumerate()
        .filter(|(_, r)| r.mover == Kingdom::Chu)
        .map(|(n, _)| n)
        .last()
        .expect("Bo moved before");
    assert_eq!(recap.moves.start, last_own + 1, "since Bo's last move");
    assert!(recap.moves.len() >= 2, "Ann and the computers moved since");
}

#[test]
fn table_talk_and_holidays_reach_the_other_window() {
    let pace = Pace::Correspondence {
        days: 3,
        overdue: qiguo_protocol::WhenOverdue::StandIn,
    };
    let (mut ann, mut bo) = ann_and_bo("online-talk", pace);
    let talk = |a: &App| -> Vec<String> {
        online(a)
            .table
            .as_ref()
            .map(|t| {
                t.talk
                    .iter()
                    .map(|l| format!("{}: {}", l.name, l.text))
                    .collect()
            })
            .unwrap_or_default()
    };
    send(
        &mut ann,
        OnlineCommand::Say("Chu, with me against Han?".into()),
    );
    run(&mut [&mut ann, &mut bo], false, |a| talk(a[1]).len() == 1);
    send(&mut bo, OnlineCommand::Say("Agreed.".into()));
    run(&mut [&mut ann, &mut bo], false, |a| {
        talk(a[0]).len() == 2 && talk(a[1]).len() == 2
    });
    assert_eq!(
        talk(&ann),
        ["Ann: Chu, with me against Han?", "Bo: Agreed."]
    );
    // Bo mutes Ann: her next line does not reach him, and his window knows she is muted.
    send(
        &mut bo,
        OnlineCommand::Mute {
            seat: 0,
            mute: true,
        },
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[1]).table.as_ref().is_some_and(|t| t.muted == [0])
    });
    assert_eq!(
        talk(&bo),
        ["Bo: Agreed."],
        "her lines are read again without her"
    );
    send(&mut ann, OnlineCommand::Say("Bo?".into()));
    run(&mut [&mut ann, &mut bo], false, |a| talk(a[0]).len() == 3);
    for _ in 0..50 {
        bo.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(talk(&bo).len(), 1);
    // Ann blocks Bo from his seat's menu: the talk is read again without his lines; unblocked,
    // with them.
    assert_eq!(talk(&ann).len(), 3);
    send(&mut ann, Conduct::Block("Bo".into(), true));
    run(&mut [&mut ann, &mut bo], false, |a| talk(a[0]).len() == 2);
    assert_eq!(talk(&ann), ["Ann: Chu, with me against Han?", "Ann: Bo?"]);
    send(&mut ann, Conduct::Block("Bo".into(), false));
    run(&mut [&mut ann, &mut bo], false, |a| talk(a[0]).len() == 3);
    // Bo goes on holiday: his window counts the days, Ann's panel says until when.
    let today = qiguo_protocol::calendar::day_of(jiff::Timestamp::now().as_millisecond());
    let until = qiguo_protocol::calendar::date_text(today + 6);
    send(&mut bo, GoAway(Some(until.clone())));
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[0])
            .table
            .as_ref()
            .is_some_and(|t| t.seats[1].away_until.as_ref() == Some(&until))
            && holidays(a[1])
                .view
                .as_ref()
                .is_some_and(|h| h.away_until.as_ref() == Some(&until))
    });
    assert!(holidays(&bo).view.as_ref().unwrap().used >= 1);
    // The window's own server has no mail relay: the E-mail line says so.
    assert_eq!(
        bo.world().resource::<OnlineMail>().view,
        Some(qiguo_protocol::MailView::default())
    );
    // Nor does it push notifications: Bo's window knows, and a device offered is refused.
    assert_eq!(
        bo.world().resource::<OnlinePush>().view,
        Some(qiguo_protocol::PushView::default())
    );
    assert_eq!(bo.world().resource::<OnlinePush>().offered_key(), None);
    bo.init_resource::<Noticed>()
        .add_systems(Last, keep_notices);
    send(
        &mut bo,
        DeviceSubscription::Subscribe {
            endpoint: "https://push.example/bo".into(),
            p256dh: "key".into(),
            auth: "secret".into(),
        },
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        a[1].world().resource::<Noticed>().0.iter().any(|n| {
            n.error
                && matches!(&n.said, Said::Words(w)
                    if w.contains("This server sends no notifications to devices"))
        })
    });
    // The server's puzzles: none yet (no game here has been reviewed), said in Bo's words.
    send(
        &mut bo,
        qiguo::game::online::puzzles::AskServerPuzzle(qiguo_protocol::PuzzleWanted::Daily),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        a[1].world().resource::<Noticed>().0.iter().any(|n| {
            n.error
                && matches!(&n.said, Said::Words(w)
                    if w.contains("This server has no puzzles yet"))
        })
    });
    // The finished games, a page: none yet.
    send(&mut bo, ReadFinished(0));
    run(&mut [&mut ann, &mut bo], false, |a| {
        a[1].world().resource::<OnlineFinished>().page.is_some()
    });
    assert_eq!(
        bo.world().resource::<OnlineFinished>().page,
        Some((Vec::new(), 0, false))
    );
    // Back: told to Ann's window too.
    send(&mut bo, GoAway(None));
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[0])
            .table
            .as_ref()
            .is_some_and(|t| t.seats[1].away_until.is_none())
    });
}

/// Play now from the window: Ann's window serves and plays now (brisk): a new game, Ann as Qin
/// against six Easy computers. Bo's window plays now at the same pace: he takes a computer's
/// kingdom over in Ann's game; Ann's board shows it as his (a person's, no longer a computer's),
/// and from its next turn it waits for Bo, who plays it.
#[test]
fn play_now_takes_a_computers_kingdom_over_in_another_window() {
    use qiguo_protocol::QuickPace;
    let mut ann = window("online-quick-ann", 1);
    let mut bo = window("online-quick-bo", 2);
    let url = own_server(&mut ann, "Ann");
    send(&mut ann, OnlineCommand::Quick(QuickPace::Brisk));
    run(&mut [&mut ann], false, |a| online(a[0]).table.is_some());
    assert!(online(&ann).table.as_ref().unwrap().holds(0));
    assert!(
        the_match(&ann).players()[1..]
            .iter()
            .all(|p| p.computer == Some(Level::Easy))
    );
    connect_to(&mut ann, &mut bo, url, "Bo");
    send(&mut bo, OnlineCommand::Quick(QuickPace::Brisk));
    run(&mut [&mut ann, &mut bo], false, |a| {
        online(a[1]).table.is_some()
    });
    let table = online(&bo).table.as_ref().unwrap();
    assert_eq!(table.id, online(&ann).table.as_ref().unwrap().id);
    let seat = (1..7u8)
        .find(|&s| table.holds(s))
        .expect("a kingdom of Bo's");
    assert!(seats(&bo).plays_here(seat) && !seats(&bo).plays_here(0));
    // Ann's board: the kingdom is Bo's now.
    run(&mut [&mut ann, &mut bo], false, |a| {
        the_match(a[0]).players()[usize::from(seat)].name == "Bo"
    });
    assert_eq!(the_match(&ann).players()[usize::from(seat)].computer, None);
    assert!(!seats(&ann).plays_here(seat));
    // They play: the computers move the other kingdoms, Bo his own, twice.
    let kingdom = the_match(&bo)
        .position()
        .seats()
        .kingdoms_of(seat)
        .iter()
        .next()
        .unwrap();
    run(&mut [&mut ann, &mut bo], true, |a| {
        the_match(a[0])
            .game()
            .reports()
            .filter(|r| r.mover == kingdom)
            .count()
            >= 2
    });
}

/// Clubs from the window: Ann's window serves and makes a club by request; Bo's window asks to
/// join, Ann's lets him in (its club shown lists him asking, then a member) and posts news,
/// which Bo's window says in a notice and shows in the club read again.
#[test]
fn a_club_is_made_joined_and_told_its_news_from_the_windows() {
    use qiguo::game::online::clubs::{ClubsCommand, OnlineClubs};
    use qiguo_protocol::clubs::{ClubAction, ClubRole, ClubSpec};

    let mut ann = window("online-clubs-ann", 1);
    let mut bo = window("online-clubs-bo", 2);
    for app in [&mut ann, &mut bo] {
        app.init_resource::<Noticed>()
            .add_systems(Last, keep_notices);
    }
    let url = own_server(&mut ann, "Ann");
    connect_to(&mut ann, &mut bo, url, "Bo");
    fn clubs(a: &App) -> &OnlineClubs {
        a.world().resource::<OnlineClubs>()
    }
    let members = |a: &App| -> Vec<(String, ClubRole)> {
        clubs(a)
            .shown
            .as_ref()
            .map(|c| c.members.iter().map(|m| (m.name.clone(), m.role)).collect())
            .unwrap_or_default()
    };
    send(
        &mut ann,
        ClubsCommand::Create(ClubSpec {
            name: "Jade Hall".into(),
            description: "Tuesdays".into(),
            open: false,
        }),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[0])
            .shown
            .as_ref()
            .is_some_and(|c| c.you == Some(ClubRole::Owner))
            && clubs(a[0]).listed.len() == 1
    });
    send(&mut bo, ClubsCommand::Find(Some("jade".into())));
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[1]).listed.len() == 1
    });
    assert_eq!(clubs(&bo).listed[0].you, None);
    send(&mut bo, ClubsCommand::Join("Jade Hall".into()));
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[1])
            .shown
            .as_ref()
            .is_some_and(|c| c.you == Some(ClubRole::Asking))
    });
    assert_eq!(clubs(&bo).listed[0].you, Some(ClubRole::Asking));
    send(&mut ann, ClubsCommand::Show("Jade Hall".into()));
    run(&mut [&mut ann, &mut bo], false, |a| {
        members(a[0]).len() == 2
    });
    assert_eq!(members(&ann)[1], ("Bo".to_owned(), ClubRole::Asking));
    send(
        &mut ann,
        ClubsCommand::Member {
            club: "Jade Hall".into(),
            player: "Bo".into(),
            action: ClubAction::Accept,
        },
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        members(a[0])
            .get(1)
            .is_some_and(|m| m.1 == ClubRole::Member)
    });
    // Bo shows the club, then Ann posts: Bo's window says it and reads the club again.
    send(&mut bo, ClubsCommand::Show("Jade Hall".into()));
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[1])
            .shown
            .as_ref()
            .is_some_and(|c| c.you == Some(ClubRole::Member))
    });
    send(
        &mut ann,
        ClubsCommand::Post("Jade Hall".into(), "Tuesday at eight".into()),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[1])
            .shown
            .as_ref()
            .is_some_and(|c| c.news.first().is_some_and(|n| n.text == "Tuesday at eight"))
    });
    assert!(
        bo.world()
            .resource::<Noticed>()
            .0
            .iter()
            .any(|n| matches!(&n.said,
            Said::Words(w) if w == "Jade Hall: Tuesday at eight (Ann)")),
        "the news said in a notice"
    );
    // A name taken is refused in Bo's words.
    send(
        &mut bo,
        ClubsCommand::Create(ClubSpec {
            name: "JADE HALL".into(),
            description: String::new(),
            open: true,
        }),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        a[1].world().resource::<Noticed>().0.iter().any(|n| {
            n.error
                && matches!(&n.said, Said::Words(w)
                    if w.contains("There is already a club called Jade Hall"))
        })
    });
}

/// A club evening from the windows: Ann's window serves and sets one a few seconds ahead; Bo's
/// lists it and says he comes, as does Ann; at its time both windows are seated at one table
/// (two people, five computers) and have its game on the board. Bo makes a table of the club's
/// own, which his club shown lists at once.
#[test]
fn an_evening_seats_both_windows_at_one_table() {
    use qiguo::game::online::clubs::{ClubsCommand, OnlineClubs};
    use qiguo::game::online::evenings::{EveningsCommand, OnlineEvenings};
    use qiguo::game::online::lobby::AtTable;
    use qiguo_protocol::QuickPace;
    use qiguo_protocol::clubs::ClubSpec;
    use qiguo_protocol::evenings::{EveningPlay, EveningSpec, Seating};
    use qiguo_protocol::lobby::{TableSpec, WhenUnfilled};

    let mut ann = window("online-evening-ann", 1);
    let mut bo = window("online-evening-bo", 2);
    let url = own_server(&mut ann, "Ann");
    connect_to(&mut ann, &mut bo, url, "Bo");
    fn evenings(a: &App) -> &OnlineEvenings {
        a.world().resource::<OnlineEvenings>()
    }
    fn clubs(a: &App) -> &OnlineClubs {
        a.world().resource::<OnlineClubs>()
    }
    send(
        &mut ann,
        ClubsCommand::Create(ClubSpec {
            name: "Jade Hall".into(),
            description: String::new(),
            open: true,
        }),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[0]).shown.is_some()
    });
    send(&mut bo, ClubsCommand::Join("Jade Hall".into()));
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[1]).shown.as_ref().is_some_and(|c| c.you.is_some())
    });
    let at_ms = jiff::Timestamp::now().as_millisecond() + 6_000;
    send(
        &mut ann,
        EveningsCommand::Create(EveningSpec {
            club: "Jade Hall".into(),
            at_ms,
            play: EveningPlay {
                preset: qiguo_rules::Preset::Classic,
                pace: QuickPace::Brisk,
                level: Level::Easy,
                seating: Seating::AtRandom,
                rated: false,
            },
        }),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        evenings(a[0]).listed.len() == 1
    });
    let id = evenings(&ann).listed[0].id.clone();
    send(&mut bo, EveningsCommand::List);
    run(&mut [&mut ann, &mut bo], false, |a| {
        evenings(a[1]).listed.len() == 1
    });
    send(&mut bo, EveningsCommand::Come(id.clone(), true));
    send(&mut ann, EveningsCommand::Come(id.clone(), true));
    run(&mut [&mut ann, &mut bo], false, |a| {
        a.iter().all(|a| evenings(a).listed[0].you_come)
    });
    // Bo makes a table of the club's own: his club shown reads it at once.
    send(
        &mut bo,
        AtTable::Create(
            TableSpec {
                preset: qiguo_rules::Preset::Classic,
                pace: Pace::Live { wait_seconds: 60 },
                people: 3,
                level: Level::Easy,
                rated: false,
                ratings: None,
                wait_minutes: 30,
                unfilled: WhenUnfilled::Close,
            },
            Some("Jade Hall".into()),
        ),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[1])
            .shown
            .as_ref()
            .is_some_and(|c| c.tables.len() == 1)
    });
    // The time comes: both seated at one table, its game on both boards.
    run(&mut [&mut ann, &mut bo], false, |a| {
        a.iter().all(|a| online(a).table.is_some())
            && online(a[0]).table.as_ref().map(|t| &t.id)
                == online(a[1]).table.as_ref().map(|t| &t.id)
    });
    let players = the_match(&ann).players();
    let people: Vec<&str> = players
        .iter()
        .filter(|p| p.computer.is_none())
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(people.len(), 2, "{people:?}");
    assert!(people.contains(&"Ann") && people.contains(&"Bo"));
    assert_eq!(
        players
            .iter()
            .filter(|p| p.computer == Some(Level::Easy))
            .count(),
        5
    );
}

/// A club's arena from the windows: Ann's window serves and sets one starting in a few seconds;
/// both windows list it and join; once it begins, the two waiting are seated together after the
/// wait (five computers) and have its game on the board; its page shows both in the standings
/// and each one's game.
#[test]
fn an_arena_seats_both_windows_and_shows_its_standings() {
    use qiguo::game::online::clubs::{ClubsCommand, OnlineClubs};
    use qiguo::game::online::tournaments::{OnlineTournaments, TournamentsCommand};
    use qiguo_protocol::QuickPace;
    use qiguo_protocol::clubs::ClubSpec;
    use qiguo_protocol::tournaments::{TournamentFormat, TournamentPlay, TournamentSpec};

    let mut ann = window("online-arena-ann", 1);
    let mut bo = window("online-arena-bo", 2);
    let url = own_server(&mut ann, "Ann");
    connect_to(&mut ann, &mut bo, url, "Bo");
    fn tournaments(a: &App) -> &OnlineTournaments {
        a.world().resource::<OnlineTournaments>()
    }
    fn clubs(a: &App) -> &OnlineClubs {
        a.world().resource::<OnlineClubs>()
    }
    send(
        &mut ann,
        ClubsCommand::Create(ClubSpec {
            name: "Jade Hall".into(),
            description: String::new(),
            open: true,
        }),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[0]).shown.is_some()
    });
    send(&mut bo, ClubsCommand::Join("Jade Hall".into()));
    run(&mut [&mut ann, &mut bo], false, |a| {
        clubs(a[1]).shown.as_ref().is_some_and(|c| c.you.is_some())
    });
    let starts_ms = jiff::Timestamp::now().as_millisecond() + 4_000;
    send(
        &mut ann,
        TournamentsCommand::Create(TournamentSpec {
            name: "Jade Arena".into(),
            format: TournamentFormat::Arena,
            play: TournamentPlay {
                preset: qiguo_rules::Preset::Classic,
                pace: QuickPace::Brisk,
                level: Level::Easy,
                rated: false,
            },
            starts_ms,
            rounds: 0,
            minutes: 15,
            most: 100,
            club: Some("Jade Hall".into()),
        }),
    );
    run(&mut [&mut ann, &mut bo], false, |a| {
        tournaments(a[0]).shown.is_some()
    });
    for app in [&mut ann, &mut bo] {
        send(app, TournamentsCommand::Join("Jade Arena".into()));
    }
    run(&mut [&mut ann, &mut bo], false, |a| {
        a.iter().all(|a| {
            tournaments(a)
                .listed
                .iter()
                .any(|t| t.name == "Jade Arena" && t.joined && t.players == 2)
        })
    });
    // It begins; after the wait both sit at one table, its game on both boards.
    run(&mut [&mut ann, &mut bo], false, |a| {
        a.iter().all(|a| online(a).table.is_some())
            && online(a[0]).table.as_ref().map(|t| &t.id)
                == online(a[1]).table.as_ref().map(|t| &t.id)
    });
    let players = the_match(&bo).players();
    let people = players.iter().filter(|p| p.computer.is_none()).count();
    assert_eq!(people, 2, "{players:?}");
    send(&mut bo, TournamentsCommand::Show("Jade Arena".into()));
    run(&mut [&mut ann, &mut bo], false, |a| {
        tournaments(a[1]).shown.as_ref().is_some_and(|t| {
            t.name == "Jade Arena" && t.standings.len() == 2 && t.your_games.len() == 1
        })
    });
}
