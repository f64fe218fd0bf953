//! The game window across machines, on loopback (127.0.0.1 only): the window's logic plugins
//! (no GPU), one hosting a game and another joining it. Each app is stepped by hand, bounded
//! in wall time.

mod common;

use std::time::Duration;

use bevy::prelude::*;
use common::*;
use qiguo::game::online::{
    HostRequested, JoinRequested, LeaveRequested, Link, Online, SeatHand, SeatsChosen,
    TakeBackAnswered,
};
use qiguo::game::state::{
    Match, MoveRequested, SeatAuthority, SeatChangeRequested, TurnPhase, UndoRequested,
};
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, Position, Rules};

const LIMIT: Duration = Duration::from_secs(60);

/// A window's logic with Qin and Chu played by people and the rest by Easy computers.
fn window(seed: u64) -> App {
    let levels: Vec<Option<Level>> = (0..7).map(|i| (i >= 2).then_some(Level::Easy)).collect();
    TestApp::new(Position::start(Rules::default()))
        .levels(&levels)
        .seed(seed)
        .build()
}

/// Who decides each seat, as the rules system sees it.
fn seats(app: &App) -> &SeatAuthority {
    app.world().resource::<SeatAuthority>()
}

fn online(app: &App) -> &Online {
    app.world().resource::<Online>()
}

fn the_match(app: &App) -> &Match {
    app.world().resource::<Match>()
}

fn hosting_addr(app: &App) -> std::net::SocketAddr {
    match online(app) {
        Online::Hosting(h) => h.addr,
        other => panic!("not hosting: {other:?}"),
    }
}

fn link(app: &App) -> Option<Link> {
    match online(app) {
        Online::Joined(j) => Some(j.link.clone()),
        _ => None,
    }
}

/// The person at this window plays a quiet move if it is their turn and the board takes one.
fn play_if_mine(app: &mut App) {
    let Some(m) = app.world().get_resource::<Match>() else {
        return; // a host or client without a window
    };
    let pos = m.position();
    if pos.is_over() || phase(app) != TurnPhase::AwaitingInput {
        return;
    }
    if !seats(app).plays_here(pos.player_of(pos.to_move())) || m.computer_to_move() {
        return;
    }
    let mv = quiet_move(app);
    let request = MoveRequested::by_person(app.world().resource::<Match>(), mv);
    app.world_mut().write_message(request);
}

fn same_game(a: &App, b: &Game) {
    let m = the_match(a).game();
    assert_eq!(m.moves().collect::<Vec<_>>(), b.moves().collect::<Vec<_>>());
    assert_eq!(m.position().to_fen(), b.position().to_fen());
}

/// The host's person moves whenever it is their turn, within `run`.
fn run_playing(apps: &mut [&mut App], done: impl Fn(&[&mut App]) -> bool) {
    let start = std::time::Instant::now();
    while !done(apps) {
        assert!(start.elapsed() < LIMIT, "not done within {LIMIT:?}");
        for app in apps.iter_mut() {
            play_if_mine(app);
            app.update();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn two_windows_play_take_back_with_consent_and_a_gone_seat_is_handed_to_a_computer_and_back() {
    let mut host = window(3);
    send(
        &mut host,
        HostRequested {
            bind: "127.0.0.1:0".parse().unwrap(),
            here: vec![true, false, false, false, false, false, false],
        },
    );
    let addr = hosting_addr(&host);
    let dir = tempdir("online-two");
    let token = dir.join("seat.token");
    let join = |app: &mut App| {
        send(
            app,
            JoinRequested {
                host: addr,
                name: "Bo".into(),
                token_file: Some(token.clone()),
            },
        );
    };
    let mut guest = window(4);
    join(&mut guest);
    run_apps_until(&mut [&mut host, &mut guest], LIMIT, |apps| {
        link(apps[1]) == Some(Link::Choosing)
    });
    assert_eq!(
        match online(&guest) {
            Online::Joined(j) => j.table.open_kingdoms(),
            _ => vec![],
        },
        vec![Kingdom::Chu],
        "only the open person seat is offered"
    );
    guest
        .world_mut()
        .write_message(SeatsChosen(vec![Kingdom::Chu]));
    run_playing(&mut [&mut host, &mut guest], |apps| {
        the_match(apps[0]).game().len() >= 9
            && the_match(apps[1]).game().len() == the_match(apps[0]).game().len()
    });
    same_game(&guest, the_match(&host).game());

    // Chu asks to take back while Qin, at the host's screen, is to move; the host's player is
    // asked and agrees: both go back alike, to Chu's move.
    run_playing(&mut [&mut host, &mut guest], |apps| {
        let m = the_match(apps[0]);
        m.position().to_move() == Kingdom::Qin
            && phase(apps[0]) == TurnPhase::AwaitingInput
            && m.game().len() > 7
    });
    run_apps_until(&mut [&mut host, &mut guest], LIMIT, |apps| {
        the_match(apps[1]).game().len() == the_match(apps[0]).game().len()
            && phase(apps[1]) == TurnPhase::AwaitingInput
    });
    let before = the_match(&host).game().len();
    guest.world_mut().write_message(UndoRequested);
    let mut asked = false;
    for _ in 0..600 {
        host.update();
        guest.update();
        if let Online::Hosting(h) = online(&host)
            && let Some(ask) = &h.take_back
        {
            assert_eq!(ask.name, "Bo");
            asked = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(asked, "the host was asked");
    send(&mut host, TakeBackAnswered { allowed: true });
    let after = the_match(&host).game().len();
    assert!(after < before, "moves were taken back: {before} -> {after}");
    assert_eq!(
        the_match(&host).position().to_move(),
        Kingdom::Chu,
        "back to Chu's move"
    );
    run_apps_until(&mut [&mut host, &mut guest], LIMIT, |apps| {
        the_match(apps[1])
            .game()
            .moves()
            .eq(the_match(apps[0]).game().moves())
    });
    assert_eq!(the_match(&guest).game().len(), after);

    // Chu's machine goes; the host sees the seat gone and hands it to a computer.
    send(&mut guest, LeaveRequested);
    drop(guest);
    run_apps_until(&mut [&mut host], LIMIT, |apps| {
        let m = the_match(apps[0]);
        online(apps[0]).hand(m, 1) == Some(SeatHand::Remote { connected: false })
    });
    send(
        &mut host,
        SeatChangeRequested {
            player: 1,
            computer: Some(Level::Easy),
        },
    );
    assert_eq!(
        online(&host).hand(the_match(&host), 1),
        Some(SeatHand::StandIn {
            level: Level::Easy,
            connected: false
        })
    );
    let len = the_match(&host).game().len();
    run_playing(&mut [&mut host], |apps| {
        the_match(apps[0]).game().len() >= len + 8
    });

    // Chu's player comes back with the kept token: the seat is theirs again.
    let mut back = window(5);
    join(&mut back);
    run_playing(&mut [&mut host, &mut back], |apps| {
        link(apps[1]) == Some(Link::Playing)
            && online(apps[0]).hand(the_match(apps[0]), 1)
                == Some(SeatHand::Remote { connected: true })
    });
    assert_eq!(the_match(&host).computer(Kingdom::Chu), None);
    run_playing(&mut [&mut host, &mut back], |apps| {
        the_match(apps[1]).game().len() == the_match(apps[0]).game().len()
            && phase(apps[1]) != TurnPhase::Animating
    });
    same_game(&back, the_match(&host).game());
}

fn tempdir(name: &str) -> std::path::PathBuf {
    qiguo_testkit::TempDir::new(name).keep()
}
