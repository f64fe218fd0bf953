//! Nothing lost, no one in: a server killed with SIGKILL in the middle of a stream of moves
//! comes back with every move it acknowledged and plays on; fifty games at once; TLS; plain
//! connections only on loopback; running as a service (health, metrics, signals, backup).
//!
//! The PostgreSQL tests need `QIGUO_POSTGRES_URL` when they are built (and run); without it
//! they are ignored.

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use crate::common::*;
use qiguo_client::{ClientError, Trust};
use qiguo_rules::Level;
use qiguo_server::protocol::{Answer, Ask, Identity};
use qiguo_server::server::{ServeError, ServerConfig, serve};
use qiguo_server::{Pace, Store};
use qiguo_testkit::TempDir;

const LIVE: Pace = Pace::Live { wait_seconds: 600 };

fn server_child(db: &str) -> (Child, String) {
    let (child, url, _) = server_process(db, &[]);
    (child, url)
}

#[test]
fn every_acknowledged_move_survives_a_kill_in_sqlite() {
    let dir = TempDir::new("server-kill");
    every_acknowledged_move_survives_a_kill(&sqlite(&dir));
}

#[test]
#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL: build and run with QIGUO_POSTGRES_URL set"
)]
fn every_acknowledged_move_survives_a_kill_in_postgres() {
    every_acknowledged_move_survives_a_kill(&postgres());
}

fn every_acknowledged_move_survives_a_kill(db: &str) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (mut child, url) = server_child(db);
    // Ann plays Qin against six computers as fast as the server goes; every move she hears of
    // was acknowledged (stored) before it was told.
    let (me, id, seen) = rt.block_on(async {
        let (mut ann, me) = newcomer(&url, "Ann").await;
        let (id, _) = create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
        let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
        let mut table = Table::new(ann, opened);
        while table.game.len() < 40 {
            table.wait_turn().await;
            table.play(|m| m[m.len() / 2]).await;
        }
        // Killed while the computers answer.
        child.kill().unwrap();
        child.wait().unwrap();
        // Whatever else arrived before the connection broke was acknowledged too.
        while table.next().await.is_ok() {}
        (me, id, table.game.moves().collect::<Vec<_>>())
    });
    let (mut child, url) = server_child(db);
    rt.block_on(async {
        let mut ann = returning(&url, &me).await;
        let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
        let mut table = Table::new(ann, opened);
        eprintln!(
            "killed after {} moves told; {} stored",
            seen.len(),
            table.game.len()
        );
        assert!(table.game.len() >= seen.len());
        assert_eq!(
            &table.game.moves().collect::<Vec<_>>()[..seen.len()],
            &seen[..]
        );
        // And the game goes on: the computers finish the round, Ann moves.
        table.wait_turn().await;
        table.play(|m| m[0]).await;
    });
    child.kill().unwrap();
    child.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_at_once() {
    let dir = TempDir::new("server-fifty");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let url = server.url();
    // Five players, ten games each against computers, all played at once for three rounds.
    let mut players = Vec::new();
    for p in 0..5 {
        let url = url.clone();
        players.push(tokio::spawn(async move {
            let (mut client, me) = newcomer(&url, &format!("Player {p}")).await;
            let mut ids = Vec::new();
            for _ in 0..10 {
                ids.push(
                    create(&mut client, new_game(seats(0, Level::Random), LIVE))
                        .await
                        .0,
                );
            }
            // Idle while the games are played, the first connection would be pinged and, on a
            // busy machine, closed for its silence: the player asks again on a new one.
            drop(client);
            let mut tables = Vec::new();
            for id in &ids {
                let mut client = returning(&url, &me).await;
                let opened = client.ask(Ask::Open { game: id.clone() }).await.unwrap();
                tables.push(Table::new(client, opened));
            }
            let games = tables.into_iter().map(|mut table| {
                tokio::spawn(async move {
                    for round in 0..3 {
                        table.wait_turn().await;
                        table.play(|m| m[round % m.len()]).await;
                    }
                    table.wait_turn().await;
                    table.game.len()
                })
            });
            let mut lens = Vec::new();
            for game in games.collect::<Vec<_>>() {
                lens.push(game.await.unwrap());
            }
            let mut client = returning(&url, &me).await;
            let Answer::Games { games } = client.ask(Ask::Games {}).await.unwrap() else {
                panic!()
            };
            assert_eq!(games.len(), 10);
            assert!(
                games.iter().all(|g| g.your_turn && g.moves == 21),
                "{:?}",
                games
                    .iter()
                    .map(|g| (g.moves, g.your_turn, g.to_move, g.finished))
                    .collect::<Vec<_>>()
            );
            lens
        }));
    }
    for player in players {
        assert_eq!(player.await.unwrap(), vec![21; 10]);
    }
    assert_eq!(lines.count("game created"), 50);
}

fn data(name: &str) -> PathBuf {
    qiguo_testkit::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_file_takes_one_server() {
    let dir = TempDir::new("server-one-file");
    let lines = Lines::default();
    let mut config = ServerConfig::new(sqlite(&dir));
    config.port = 0;
    let first = serve(&config, lines.log()).await.unwrap();
    // A second server on the same file is refused, saying why; a reader is not.
    match serve(&config, lines.log()).await {
        Err(ServeError::Store(e)) => {
            assert!(
                e.to_string().contains("served by another server already"),
                "{e}"
            );
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("a second server on one SQLite file"),
    }
    let reader = Store::open(&sqlite(&dir)).await.unwrap();
    assert!(
        reader
            .games_of(&qiguo_server::PlayerId("nobody".into()))
            .await
            .unwrap()
            .is_empty()
    );
    // Once the first has stopped, the file is free again.
    first.shutdown(Duration::from_secs(2)).await;
    drop(first);
    let again = serve(&config, lines.log()).await.unwrap();
    again.shutdown(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_is_served_and_plain_only_on_loopback() {
    let dir = TempDir::new("server-tls");
    let lines = Lines::default();
    let mut config = ServerConfig::new(sqlite(&dir));
    config.port = 0;
    config.tls = Some((data("localhost.pem"), data("localhost.key")));
    let server = serve(&config, lines.log()).await.unwrap();
    assert!(server.url().starts_with("wss://127.0.0.1:"));
    let url = format!("wss://localhost:{}", server.addr.port());
    let trust = Trust {
        extra_ca: Some(data("ca.pem")),
        insecure_lan: false,
    };
    let (mut ann, me) = qiguo_client::connect(&url, Identity::New { name: "Ann".into() }, &trust)
        .await
        .unwrap();
    assert_eq!(me.name, "Ann");
    ann.ask(Ask::Games {}).await.unwrap();
    // Without the authority the certificate is not trusted; plain WebSocket gets nowhere.
    let untrusted =
        qiguo_client::connect(&url, Identity::New { name: "Bo".into() }, &Trust::default()).await;
    assert!(matches!(untrusted, Err(ClientError::Connection(_))));
    let plain = format!("ws://127.0.0.1:{}", server.addr.port());
    let plain = qiguo_client::connect(&plain, Identity::New { name: "Cy".into() }, &trust).await;
    assert!(plain.is_err());
    assert!(lines.contains("TLS handshake failed"));
    // Plain on an address others can reach: refused before anything is opened.
    let mut open = ServerConfig::new(sqlite(&dir));
    open.bind = IpAddr::V4(Ipv4Addr::UNSPECIFIED);
    open.port = 0;
    assert!(matches!(
        serve(&open, lines.log()).await,
        Err(ServeError::Insecure(_))
    ));
    // A bad certificate file is a clear error.
    let mut bad = ServerConfig::new(sqlite(&dir));
    bad.port = 0;
    bad.tls = Some((data("missing.pem"), data("localhost.key")));
    match serve(&bad, lines.log()).await {
        Err(e @ ServeError::TlsFile(..)) => {
            assert!(e.to_string().contains("missing.pem"), "{e}")
        }
        Err(e) => panic!("not the certificate file's error: {e}"),
        Ok(_) => panic!("served without its certificate"),
    }
}

/// A plain HTTP GET of `path` on loopback port `addr`: the status line and the body.
fn http_get(addr: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let mut tcp = std::net::TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    let _ = tcp.read_to_string(&mut text);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (
        head.lines().next().unwrap_or("").to_owned(),
        body.to_owned(),
    )
}

/// Waits until the log holds a line with `part`, within [`PATIENCE`]; that line.
fn logged(log: &std::sync::Arc<std::sync::Mutex<Vec<String>>>, part: &str) -> String {
    let until = Instant::now() + PATIENCE;
    loop {
        if let Some(line) = log.lock().unwrap().iter().find(|l| l.contains(part)) {
            return line.clone();
        }
        assert!(Instant::now() < until, "no line with {part:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The binary as a service: its health at /healthz, its counts at --metrics, its certificate
/// read again on SIGHUP (a bad one leaves the one before), and a backup of its live SQLite
/// database that opens with its games.
#[test]
fn the_server_runs_as_a_service() {
    let dir = TempDir::new("server-service");
    let db = sqlite(&dir);
    let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::copy(data("localhost.pem"), &cert).unwrap();
    std::fs::copy(data("localhost.key"), &key).unwrap();
    let (cert_arg, key_arg) = (cert.display().to_string(), key.display().to_string());
    let (mut child, url, log) = server_process(
        &db,
        &[
            "--tls-cert",
            &cert_arg,
            "--tls-key",
            &key_arg,
            "--metrics",
            "127.0.0.1:0",
        ],
    );
    let metrics = logged(&log, "metrics served url=http://");
    let metrics = metrics
        .split("http://")
        .nth(1)
        .unwrap()
        .trim_end_matches("/metrics")
        .to_owned();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let trust = Trust {
        extra_ca: Some(data("ca.pem")),
        insecure_lan: false,
    };
    let url = url.replace("127.0.0.1", "localhost");
    // Ann stays connected (her table is kept) while the counts are read.
    let (id, _ann) = rt.block_on(async {
        let (mut ann, _) =
            qiguo_client::connect(&url, Identity::New { name: "Ann".into() }, &trust)
                .await
                .unwrap();
        let (id, _) = create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
        let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
        let mut table = Table::new(ann, opened);
        table.play(|m| m[0]).await;
        table.wait_turn().await;
        (id, table)
    });
    // Counted: seven moves stored, one session open; the gauges read now.
    let (status, body) = http_get(&metrics, "/metrics");
    assert!(status.contains("200"), "{status}");
    for line in [
        "qiguo_moves_total 7",
        "qiguo_sessions 1",
        "qiguo_connections 1",
        "qiguo_move_store_seconds_count 7",
    ] {
        assert!(body.lines().any(|l| l == line), "{line} in\n{body}");
    }
    // A renewed certificate is read again; a broken one is refused and the one before kept.
    signal(&child, "HUP");
    logged(&log, "SIGHUP: the certificate and key read again");
    std::fs::write(&cert, "not a certificate").unwrap();
    signal(&child, "HUP");
    logged(&log, "the certificate read before is kept");
    rt.block_on(async {
        let again = qiguo_client::connect(&url, Identity::New { name: "Bo".into() }, &trust).await;
        assert!(again.is_ok(), "{again:?}");
    });
    // A backup of the live database, made by the same binary beside the server.
    let copy = dir.path().join("backup.sqlite");
    let made = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
        .args(["backup", copy.to_str().unwrap(), "--db", &db])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let again = Command::new(env!("CARGO_BIN_EXE_qiguo-server"))
        .args(["backup", copy.to_str().unwrap(), "--db", &db])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1), "a backup never overwrites");
    rt.block_on(async {
        let store = Store::open(&format!("sqlite://{}", copy.display()))
            .await
            .unwrap();
        assert_eq!(store.load_game(&id).await.unwrap().game.len(), 7);
    });
    signal(&child, "TERM");
    assert!(exits_within(&mut child, PATIENCE).success());
}

/// The repository's systemd unit passes `systemd-analyze verify`, run on a copy that starts this
/// build's binary (the unit names /usr/local/bin/qiguo-server, where it is installed).
#[test]
#[cfg_attr(
    not(systemd_analyze),
    ignore = "needs systemd-analyze (Debian: systemd) when the tests are built"
)]
fn the_systemd_unit_verifies() {
    let dir = TempDir::new("server-unit");
    let unit = std::fs::read_to_string(
        qiguo_testkit::package_dir(env!("CARGO_MANIFEST_DIR"))
            .join("../../dist/qiguo-server.service"),
    )
    .unwrap();
    assert!(unit.contains("ExecStart=/usr/local/bin/qiguo-server"));
    let copy = dir.path().join("qiguo-server.service");
    std::fs::write(
        &copy,
        unit.replace(
            "/usr/local/bin/qiguo-server",
            env!("CARGO_BIN_EXE_qiguo-server"),
        ),
    )
    .unwrap();
    let verified = Command::new("/usr/bin/systemd-analyze")
        .arg("verify")
        .arg(&copy)
        .output()
        .unwrap();
    assert!(
        verified.status.success() && verified.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
}

/// Sends `signal` (TERM, INT) to the child, by the system's `kill`.
fn signal(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal} failed");
}

/// Waits for the child to exit, at most `within`.
fn exits_within(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let until = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > until {
            child.kill().unwrap();
            panic!("the server did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// SIGTERM while a player plays against computers: the server stops taking connections, the
/// connections are closed as going away, it exits 0, and every move a player was told of is in
/// the database. SIGINT (Ctrl-C) likewise. The database's file and folder are made by the
/// server from a plain `sqlite://FILE`.
#[test]
fn sigterm_and_ctrl_c_shut_the_server_down_gracefully() {
    let dir = TempDir::new("server-shutdown");
    let file = dir.path().join("new folder").join("games.sqlite");
    let db = format!("sqlite://{}", file.display());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (mut child, url, log) = server_process(&db, &[]);
    assert!(file.exists(), "the server made its database file");
    let (me, id, seen) = rt.block_on(async {
        let (mut ann, me) = newcomer(&url, "Ann").await;
        let (mut bo, _) = newcomer(&url, "Bo").await;
        let (id, _) = create(&mut ann, new_game(seats(0, Level::Random), LIVE)).await;
        let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
        let mut table = Table::new(ann, opened);
        while table.game.len() < 22 {
            table.wait_turn().await;
            table.play(|m| m[m.len() / 3]).await;
        }
        // Stopped while the computers answer Ann's last move.
        signal(&child, "TERM");
        let ended = loop {
            match table.next().await {
                Ok(_) => {}
                Err(e) => break e,
            }
        };
        assert!(
            matches!(ended, ClientError::GoingAway(_)),
            "Ann's connection ended with {ended:?}"
        );
        // Bo, signed in and idle, is told the same.
        let idle = tokio::time::timeout(PATIENCE, bo.next_event())
            .await
            .unwrap();
        assert!(matches!(idle, Err(ClientError::GoingAway(_))), "{idle:?}");
        (me, id, table.game.moves().collect::<Vec<_>>())
    });
    let status = exits_within(&mut child, PATIENCE);
    assert!(status.success(), "exit status {status:?}");
    {
        let log = log.lock().unwrap();
        let at = |said: &str| log.iter().rposition(|l| l.contains(said));
        for said in [
            "shutting down signal=SIGTERM",
            "every connection closed",
            "stopped",
        ] {
            assert!(at(said).is_some(), "the log says {said:?}");
        }
        // Both sessions were closed before the server said so and stopped.
        assert_eq!(
            log.iter()
                .filter(|l| l.contains("closed: the server is shutting down"))
                .count(),
            2
        );
        assert!(at("closed: the server is shutting down") < at("every connection closed"));
        assert!(at("every connection closed") < at("stopped"));
    }
    // Nothing new is accepted after the listener closed.
    assert!(
        rt.block_on(qiguo_client::connect(
            &url,
            Identity::New { name: "Cy".into() },
            &Trust::default()
        ))
        .is_err()
    );
    // Every move Ann was told of is in the database.
    let stored = rt.block_on(async {
        let store = Store::open(&db).await.unwrap();
        store.load_game(&id).await.unwrap()
    });
    assert!(stored.game.len() >= seen.len());
    assert_eq!(
        &stored.game.moves().collect::<Vec<_>>()[..seen.len()],
        &seen[..]
    );
    // Ctrl-C on a server that is serving the same game again.
    let (mut child, url, log) = server_process(&db, &["--log-format", "json"]);
    rt.block_on(async {
        let mut ann = returning(&url, &me).await;
        let opened = ann.ask(Ask::Open { game: id.clone() }).await.unwrap();
        let mut table = Table::new(ann, opened);
        signal(&child, "INT");
        let ended = loop {
            if let Err(e) = table.next().await {
                break e;
            }
        };
        assert!(matches!(ended, ClientError::GoingAway(_)), "{ended:?}");
    });
    let status = exits_within(&mut child, PATIENCE);
    assert!(status.success(), "exit status {status:?}");
    let log = log.lock().unwrap();
    // JSON lines, one object each, with the level, the message and its fields; a connection's
    // lines carry its span (the peer, and the player once signed in).
    let said: Vec<serde_json::Value> = log
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert!(
        said.iter().any(|v| {
            v["level"] == "INFO" && v["message"] == "shutting down" && v["signal"] == "SIGINT"
        }),
        "{said:#?}"
    );
    let signed_in = said
        .iter()
        .find(|v| v["message"] == "signed in")
        .unwrap_or_else(|| panic!("a sign-in: {said:#?}"));
    assert!(signed_in["player"].is_string(), "{signed_in}");
    assert_eq!(signed_in["span"]["name"], "session", "{signed_in}");
    assert!(
        signed_in["span"]["peer"]
            .as_str()
            .is_some_and(|p| p.starts_with("127.0.0.1:")),
        "{signed_in}"
    );
}
