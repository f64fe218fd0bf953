//! The game window across machines, on loopback (127.0.0.1 only): the window's logic plugins
//! (no GPU) hosting a game or joining one, against each other and against the host and client
//! without a window. Each app is stepped by hand, bounded in wall time.

mod common;

use std::time::Duration;

use bevy::prelude::*;
use common::*;
use qiguo::game::online::{
    HostRequested, JoinRequested, LeaveRequested, Link, Online, SeatHand, SeatsChosen,
    TakeBackAnswered,
};
use qiguo::game::state::{
    Match, MoveRequested, Notice, SeatAuthority, SeatChangeRequested, TurnPhase, UndoRequested,
};
use qiguo::net::guest::{GuestConfig, guest_app};
use qiguo::net::host::{Host, host_app};
use qiguo::net::protocol::PROTOCOL_VERSION;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, PlayerInfo, Position, Rules};

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

fn notices(app: &mut App) -> Vec<String> {
    messages::<Notice>(app)
        .into_iter()
        .map(|n| n.text)
        .collect()
}

#[test]
fn a_window_hosts_and_a_client_without_a_window_plays_a_seat() {
    let mut host = window(1);
    let here = vec![true, false, false, false, false, false, false];
    send(
        &mut host,
        HostRequested {
            bind: "127.0.0.1:0".parse().unwrap(),
            here,
        },
    );
    let addr = hosting_addr(&host);
    assert!(addr.ip().is_loopback());
    let mut chu = started(
        guest_app(GuestConfig {
            host: addr,
            seats: vec![Kingdom::Chu],
            level: Level::Random,
            name: "Bo".into(),
            token_file: None,
            version: PROTOCOL_VERSION,
        })
        .unwrap(),
    );
    run_apps_until(&mut [&mut host, &mut chu], LIMIT, |apps| {
        let h = apps[0].world().resource::<Match>();
        online(apps[0]).hand(h, 1) == Some(SeatHand::Remote { connected: true })
    });
    assert_eq!(the_match(&host).players()[1].name, "Bo");
    // Qin, at the host's screen, may not move Chu.
    assert!(!seats(&host).plays_here(1) && seats(&host).plays_here(0));
    // Twenty-one moves: Qin from the host's screen, Chu from its machine, the others the
    // host's computers.
    run_playing(&mut [&mut host, &mut chu], |apps| {
        the_match(apps[0]).game().len() >= 21
    });
    // Keep the host's person quiet while the last moves reach the client.
    for _ in 0..400 {
        play_if_mine(&mut host);
        host.update();
        chu.update();
        std::thread::sleep(Duration::from_millis(1));
        let g = &chu.world().resource::<qiguo::net::guest::Guest>().game;
        if g.as_ref().map(|g| g.len()) == Some(the_match(&host).game().len()) {
            break;
        }
    }
    let copy = chu
        .world()
        .resource::<qiguo::net::guest::Guest>()
        .game
        .clone()
        .unwrap();
    same_game(&host, &copy);
    let chu_moves = (0..copy.len())
        .filter(|&i| copy.position_at(i).to_move() == Kingdom::Chu)
        .count();
    assert!(chu_moves >= 2, "Chu played from its machine");
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
fn a_window_joins_a_host_without_a_window_and_plays_through_it() {
    let (server, addr) = host_app(host_config(1)).unwrap();
    let mut server = started(server);
    let mut win = window(2);
    let dir = tempdir("online-join");
    send(
        &mut win,
        JoinRequested {
            host: addr,
            name: "Wu".into(),
            token_file: Some(dir.join("seat.token")),
        },
    );
    run_apps_until(&mut [&mut server, &mut win], LIMIT, |apps| {
        link(apps[1]) == Some(Link::Choosing)
    });
    let Online::Joined(j) = online(&win) else {
        panic!()
    };
    assert_eq!(j.table.open_kingdoms(), vec![Kingdom::Qin]);
    win.world_mut()
        .write_message(SeatsChosen(vec![Kingdom::Qin]));
    run_apps_until(&mut [&mut server, &mut win], LIMIT, |apps| {
        link(apps[1]) == Some(Link::Playing)
    });
    assert!(dir.join("seat.token").exists(), "the seat token is kept");
    // The window shows the host's players, computers included, and plays none of them.
    assert_eq!(the_match(&win).players()[0].name, "Wu");
    assert_eq!(the_match(&win).computer(Kingdom::Chu), Some(Level::Random));
    assert!(seats(&win).plays_here(0) && !seats(&win).plays_here(1));
    run_playing(&mut [&mut server, &mut win], |apps| {
        apps[0].world().resource::<Host>().game.len() >= 15
            && the_match(apps[1]).game().len() == apps[0].world().resource::<Host>().game.len()
            && phase(apps[1]) != TurnPhase::Animating
    });
    let game = server.world().resource::<Host>().game.clone();
    same_game(&win, &game);
    // Without a person at the host, a take-back is refused, and the window says why.
    while the_match(&win).position().to_move() != Kingdom::Qin
        || phase(&win) != TurnPhase::AwaitingInput
    {
        server.update();
        win.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    let len = the_match(&win).game().len();
    win.world_mut().write_message(UndoRequested);
    let mut said = Vec::new();
    for _ in 0..300 {
        server.update();
        win.update();
        said.extend(notices(&mut win));
        if said.iter().any(|n| n.contains("takes no moves back")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        said.iter().any(|n| n.contains("takes no moves back")),
        "{said:?}"
    );
    assert_eq!(the_match(&win).game().len(), len);
    // A new game is refused while joined; leaving keeps the board as it stands.
    let start = Position::start(Rules::default());
    send(
        &mut win,
        qiguo::game::state::NewGameRequested::new(start, PlayerInfo::defaults(7)),
    );
    assert_eq!(the_match(&win).game().len(), len);
    // Leaving while one of the host's computers is to move: the game goes on here, from where
    // it stands, the computers now played by this window.
    play_if_mine(&mut win);
    run_apps_until(&mut [&mut server, &mut win], LIMIT, |apps| {
        apps[0].world().resource::<Host>().game.len() > len
    });
    // The host goes quiet right after playing the window's move: once it has been shown, one
    // of the host's computers is to move and no search runs here (the host played them).
    drop(server);
    let mut settled = 0;
    for _ in 0..3000 {
        if settled == 20 {
            break;
        }
        win.update();
        std::thread::sleep(Duration::from_millis(1));
        settled = if phase(&win) == TurnPhase::ComputerThinking {
            settled + 1
        } else {
            0
        };
    }
    assert_eq!(settled, 20, "a computer to move, the host's moves shown");
    let at = the_match(&win).game().len();
    let turn = the_match(&win).turn();
    send(&mut win, LeaveRequested);
    assert!(!online(&win).is_online());
    assert!(!seats(&win).is_shared());
    assert_eq!(the_match(&win).game().len(), at, "the board keeps the game");
    // The same game goes on: not replayed as a new one (same generation, no reset).
    assert_eq!(the_match(&win).turn(), turn);
    run_until(
        &mut win,
        3000,
        "the computers to move after leaving",
        |app| the_match(app).game().len() >= at + 3,
    );
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
