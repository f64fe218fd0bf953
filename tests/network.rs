//! Play across machines on loopback (127.0.0.1 only): a host and headless guests in one
//! process, each app stepped by hand, bounded in frames and time.

use std::net::SocketAddr;
mod common;

use std::time::Duration;

use bevy::prelude::*;
use common::{host_config, run_apps_until, started};
use qiguo::net::guest::{Guest, GuestConfig, GuestEnd, guest_app};
use qiguo::net::host::{Host, HostConfig, host_app};
use qiguo::net::protocol::PROTOCOL_VERSION;
use qiguo_ai::Level;
use qiguo_rules::{Game, Kingdom, Record};

/// A guest playing `kingdom` at random, ready to be stepped.
fn guest(host: SocketAddr, kingdom: Kingdom, name: &str) -> App {
    started(guest_app(guest_config(host, kingdom, name)).unwrap())
}

fn guest_config(host: SocketAddr, kingdom: Kingdom, name: &str) -> GuestConfig {
    GuestConfig {
        host,
        seats: vec![kingdom],
        level: Level::Random,
        name: name.to_owned(),
        token_file: None,
        version: PROTOCOL_VERSION,
    }
}

/// Steps the host (first) and its guests until the game is over and every guest has ended.
fn play_to_the_end(apps: &mut [&mut App], limit: Duration) {
    run_apps_until(apps, limit, |apps| {
        host_game(apps[0]).outcome().is_some()
            && apps[1..].iter().all(|a| guest_state(a).end.is_some())
    });
}

fn host_game(app: &App) -> &Game {
    &app.world().resource::<Host>().game
}

fn guest_state(app: &App) -> &Guest {
    app.world().resource::<Guest>()
}

#[test]
fn a_whole_game_with_two_guests_ends_the_same_everywhere() {
    let (host, addr) = host_app(host_config(2)).unwrap();
    let mut host = started(host);
    let mut qin = guest(addr, Kingdom::Qin, "Anna");
    let mut chu = guest(addr, Kingdom::Chu, "趙雲");
    play_to_the_end(
        &mut [&mut host, &mut qin, &mut chu],
        Duration::from_secs(120),
    );
    let game = host_game(&host);
    let events = &host.world().resource::<Host>().events;
    assert!(
        events.iter().any(|e| e == "joined Anna as qin"),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| e == "joined 趙雲 as chu"),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| e.starts_with("game over: ")),
        "{events:?}"
    );
    for g in [&qin, &chu] {
        let state = guest_state(g);
        assert_eq!(state.end, Some(GuestEnd::GameOver));
        let copy = state.game.as_ref().unwrap();
        assert_eq!(copy.len(), game.len());
        assert_eq!(copy.position().to_fen(), game.position().to_fen());
    }
    // The host's record replays with the rules engine to the same end.
    let players = host.world().resource::<Host>().players.clone();
    assert_eq!(players[0].name, "Anna");
    let record = Record::from_game(game, players);
    let replayed = Record::from_json(&record.to_json())
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(replayed.outcome(), game.outcome());
}

#[test]
fn seven_clients_play_a_whole_game_to_its_end() {
    let (host, addr) = host_app(host_config(7)).unwrap();
    let mut host = started(host);
    let mut guests: Vec<App> = Kingdom::ALL
        .into_iter()
        .map(|k| guest(addr, k, k.title()))
        .collect();
    let mut apps: Vec<&mut App> = std::iter::once(&mut host)
        .chain(guests.iter_mut())
        .collect();
    play_to_the_end(&mut apps, Duration::from_secs(120));
    let game = host_game(&host);
    assert!(game.len() > 20, "{} moves", game.len());
    for g in &guests {
        let state = guest_state(g);
        assert_eq!(state.end, Some(GuestEnd::GameOver));
        assert_eq!(state.game.as_ref().unwrap().len(), game.len());
        assert_eq!(
            state.game.as_ref().unwrap().position().to_fen(),
            game.position().to_fen()
        );
    }
    let events = &host.world().resource::<Host>().events;
    assert_eq!(
        events.iter().filter(|e| e.starts_with("joined ")).count(),
        7
    );
    assert_eq!(
        events.iter().filter(|e| e.starts_with("move ")).count(),
        game.len()
    );
}

fn guest_with_token(
    host: SocketAddr,
    kingdom: Kingdom,
    name: &str,
    token: &std::path::Path,
) -> App {
    started(
        guest_app(GuestConfig {
            token_file: Some(token.to_owned()),
            ..guest_config(host, kingdom, name)
        })
        .unwrap(),
    )
}

#[test]
fn a_guest_killed_mid_game_rejoins_its_seat_with_its_token() {
    let dir = qiguo_testkit::TempDir::new("net-rejoin");
    let token = dir.join("qin.token");
    let (host, addr) = host_app(host_config(1)).unwrap();
    let mut host = started(host);
    let mut first = guest_with_token(addr, Kingdom::Qin, "Anna", &token);
    run_apps_until(
        &mut [&mut host, &mut first],
        Duration::from_secs(60),
        |apps| host_game(apps[0]).len() >= 15 || host_game(apps[0]).outcome().is_some(),
    );
    let kept = std::fs::read_to_string(&token).unwrap();
    assert_eq!(kept.trim().len(), 32, "the token is kept");
    // The first machine is gone without a word; a new one comes back with the token.
    drop(first);
    let mut second = guest_with_token(addr, Kingdom::Chu, "Anna", &token);
    run_apps_until(
        &mut [&mut host, &mut second],
        Duration::from_secs(120),
        |apps| host_game(apps[0]).outcome().is_some() && guest_state(apps[1]).end.is_some(),
    );
    let state = guest_state(&second);
    assert_eq!(
        state.seats,
        vec![Kingdom::Qin],
        "the same seat, not the one asked for"
    );
    assert_eq!(state.end, Some(GuestEnd::GameOver));
    assert_eq!(
        state.game.as_ref().unwrap().position().to_fen(),
        host_game(&host).position().to_fen()
    );
    let events = &host.world().resource::<Host>().events;
    assert_eq!(
        events.iter().filter(|e| *e == "joined Anna as qin").count(),
        2,
        "{events:?}"
    );
}

#[test]
fn hostile_requests_are_refused_and_change_nothing() {
    use qiguo::net::protocol::Play;
    let (host, addr) = host_app(host_config(2)).unwrap();
    let mut host = started(host);
    let mut qin = guest(addr, Kingdom::Qin, "Anna");
    let mut chu = guest(addr, Kingdom::Chu, "Bo");
    let mut intruder = guest(addr, Kingdom::Qin, "Mallory");
    // Everyone connected and answered; the intruder asked for a taken seat.
    run_apps_until(
        &mut [&mut host, &mut qin, &mut chu, &mut intruder],
        Duration::from_secs(30),
        |apps| {
            guest_state(apps[1]).game.is_some()
                && guest_state(apps[2]).game.is_some()
                && guest_state(apps[3]).end.is_some()
        },
    );
    assert!(matches!(
        &guest_state(&intruder).end,
        Some(GuestEnd::Refused(why)) if why.contains("already taken")
    ));
    // A machine of another version is told so, not left waiting.
    let mut old = started(
        guest_app(GuestConfig {
            version: PROTOCOL_VERSION + 1,
            ..guest_config(addr, Kingdom::Han, "Old")
        })
        .unwrap(),
    );
    run_apps_until(
        &mut [&mut host, &mut old],
        Duration::from_secs(30),
        |apps| guest_state(apps[1]).end.is_some(),
    );
    assert!(matches!(
        &guest_state(&old).end,
        Some(GuestEnd::Refused(why)) if why.contains("another version")
    ));
    // Datagrams that are not netcode at all, small and large, are dropped.
    let raw = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    for size in [1, 7, 300, 1200, 60_000] {
        let junk: Vec<u8> = (0..size).map(|i| (i * 7919 % 251) as u8).collect();
        raw.send_to(&junk, addr).unwrap();
    }
    // Chu asks for moves that are not its own, at the wrong time, illegal, unreadable and
    // oversized. (A join in another protocol version is refused too: see the host's tests.)
    for (ply, mv) in [
        (0, "a13b15".to_owned()),
        (999, "f5f6".to_owned()),
        (0, "zz".to_owned()),
        (0, "a1a1".to_owned()),
        (0, "x".repeat(1000)),
    ] {
        chu.world_mut().write_message(Play { ply, mv });
    }
    play_to_the_end(
        &mut [&mut host, &mut qin, &mut chu],
        Duration::from_secs(120),
    );
    let events = &host.world().resource::<Host>().events;
    let refused = events
        .iter()
        .filter(|e| e.starts_with("refused a move"))
        .count();
    assert!(refused >= 5, "{events:?}");
    // The same game everywhere, to its end, and it replays.
    for g in [&qin, &chu] {
        let copy = guest_state(g).game.as_ref().unwrap();
        assert_eq!(
            copy.position().to_fen(),
            host_game(&host).position().to_fen()
        );
    }
    let game = host_game(&host);
    let record = Record::from_game(game, host.world().resource::<Host>().players.clone());
    assert_eq!(
        Record::from_json(&record.to_json())
            .unwrap()
            .replay()
            .unwrap()
            .len(),
        game.len()
    );
}

#[test]
fn a_host_stopped_dead_and_started_again_from_its_record_continues_the_game() {
    use qiguo::net::host::read_tokens;
    let dir = qiguo_testkit::TempDir::new("net-restart");
    let record = dir.join("game.json");
    let (host, addr) = host_app(HostConfig {
        record: Some(record.clone()),
        ..host_config(2)
    })
    .unwrap();
    let mut host = started(host);
    let mut qin = guest_with_token(addr, Kingdom::Qin, "Anna", &dir.join("qin.token"));
    let mut chu = guest_with_token(addr, Kingdom::Chu, "Bo", &dir.join("chu.token"));
    run_apps_until(
        &mut [&mut host, &mut qin, &mut chu],
        Duration::from_secs(60),
        |apps| host_game(apps[0]).len() >= 12,
    );
    let moves_before: Vec<String> = host_game(&host).moves().map(|m| m.to_string()).collect();
    // Killed: no goodbye, nothing written after the last move.
    drop(host);
    let loaded = qiguo::saves::load_file(&record).unwrap();
    let kept: Vec<String> = loaded.game.moves().map(|m| m.to_string()).collect();
    assert_eq!(kept, moves_before, "every applied move was on disk");
    let (host, _) = host_app(HostConfig {
        bind: addr,
        game: loaded.game,
        players: loaded.record.players,
        record: Some(record.clone()),
        tokens: read_tokens(&record),
        stand_in: None,
    })
    .unwrap();
    let mut host = started(host);
    // The guests notice the host has gone (netcode's timeout), reconnect, rejoin their seats
    // with their tokens and play on.
    play_to_the_end(
        &mut [&mut host, &mut qin, &mut chu],
        Duration::from_secs(90),
    );
    let events = &host.world().resource::<Host>().events;
    assert!(
        events.iter().any(|e| e == "joined Anna as qin"),
        "{events:?}"
    );
    assert!(events.iter().any(|e| e == "joined Bo as chu"), "{events:?}");
    let game = host_game(&host);
    let all: Vec<String> = game.moves().map(|m| m.to_string()).collect();
    assert_eq!(
        all[..moves_before.len()],
        moves_before[..],
        "the same game continued"
    );
    for g in [&qin, &chu] {
        assert_eq!(guest_state(g).end, Some(GuestEnd::GameOver));
        assert_eq!(
            guest_state(g).game.as_ref().unwrap().position().to_fen(),
            game.position().to_fen()
        );
    }
}

#[test]
fn a_stand_in_plays_for_a_player_who_has_gone_until_the_game_ends() {
    let (host, addr) = host_app(HostConfig {
        stand_in: Some((Level::Random, Duration::ZERO)),
        ..host_config(2)
    })
    .unwrap();
    let mut host = started(host);
    let mut qin = guest(addr, Kingdom::Qin, "Anna");
    let mut chu = guest(addr, Kingdom::Chu, "Bo");
    run_apps_until(
        &mut [&mut host, &mut qin, &mut chu],
        Duration::from_secs(60),
        |apps| host_game(apps[0]).len() >= 10,
    );
    // Bo's machine is gone for good; once the host notices, the stand-in plays Chu.
    drop(chu);
    run_apps_until(
        &mut [&mut host, &mut qin],
        Duration::from_secs(90),
        |apps| host_game(apps[0]).outcome().is_some() && guest_state(apps[1]).end.is_some(),
    );
    let events = &host.world().resource::<Host>().events;
    assert!(events.iter().any(|e| e == "left Bo"), "{events:?}");
    assert!(
        events
            .iter()
            .any(|e| e == "chu played by the computer (random) while Bo is away"),
        "{events:?}"
    );
    assert_eq!(
        guest_state(&qin).game.as_ref().unwrap().position().to_fen(),
        host_game(&host).position().to_fen()
    );
}
