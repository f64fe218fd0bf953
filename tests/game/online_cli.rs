//! `qiguo server` and `qiguo online` as real processes on loopback: a game created, joined,
//! moved in, listed and shown by JSON lines; a seat played by `online play` across a server
//! killed with SIGKILL and started again; bad options refused with one line.

use std::net::TcpListener;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use qiguo_testkit::TempDir;
use serde_json::Value;

/// How long a server here may take to start, on a busy machine.
const PATIENCE: Duration = Duration::from_secs(90);

fn qiguo(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_qiguo"));
    command.env("QIGUO_DATA_DIR", data);
    command
}

/// A listener on a loopback port of the test's own, and its port: bound once and held for the
/// whole test, so that no test beside it can take the port, and a server started again finds
/// it where it was (connections made meanwhile wait in its queue).
fn loopback() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

/// A child process killed (SIGKILL) when dropped, so that a failing test leaves none behind.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `qiguo server` on `listener` (handed to it as its standard input), its database in `data`;
/// returns once it serves.
fn server(data: &Path, listener: &TcpListener) -> Killed {
    server_with(data, listener, &[])
}

/// [`server`] with `args` besides.
fn server_with(data: &Path, listener: &TcpListener, args: &[&str]) -> Killed {
    let mut child = qiguo(data)
        .args(["server", "--listen-stdin"])
        .args(args)
        .stdin(OwnedFd::from(listener.try_clone().unwrap()))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    qiguo_testkit::wait_for_line(
        child.stdout.take().unwrap(),
        PATIENCE,
        "qiguo server saying where it listens",
        qiguo_testkit::listening_url,
        |_| {},
    );
    Killed(child)
}

/// `qiguo online --server … ARGS` as the player whose data directory is `data`: its JSON line.
fn online(data: &Path, port: u16, args: &[&str]) -> Value {
    let mut lines = online_lines(data, port, args);
    assert_eq!(lines.len(), 1, "{args:?}: {lines:?}");
    lines.remove(0)
}

fn online_output(data: &Path, port: u16, args: &[&str]) -> Output {
    let url = format!("ws://127.0.0.1:{port}");
    qiguo(data)
        .args(["online", "--server", &url])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_game_is_played_from_the_command_line_across_a_killed_server() {
    let dir = TempDir::new("online-cli");
    let (server_dir, ann, bo) = (dir.join("server"), dir.join("ann"), dir.join("bo"));
    let (listener, port) = loopback();
    let srv = server(&server_dir, &listener);
    // Ann creates a game by correspondence: her seat, an open one, five computers.
    let created = online(
        &ann,
        port,
        &[
            "--name",
            "Ann",
            "create",
            "--seats",
            "me,open,random,random,random,random,random",
            "--pace",
            "3d",
        ],
    );
    let game = created["game"].as_str().unwrap().to_owned();
    let code = created["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 19, "{code}");
    // Her key is kept: she is the same player next time.
    assert!(ann.join("online-keys.json").exists());
    let moved = online(&ann, port, &["move", &game, "e10e5"]);
    assert_eq!(moved["ply"], 0);
    let joined = online(&bo, port, &["--name", "Bo", "join", &code, "--seat", "chu"]);
    assert_eq!(
        (joined["seat"].as_u64(), joined["moves"].as_u64()),
        (Some(1), Some(1))
    );
    let games = online(&bo, port, &["games"]);
    assert_eq!(games["games"][0]["your_turn"], true);
    // A move that is not legal, or not yours, is refused with one line: the refusal's code
    // and the server's English words.
    let out = online_output(&bo, port, &["move", &game, "a1a2"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        said.starts_with("qiguo: refused (illegal_move): a1a2 "),
        "{said}"
    );
    assert_eq!(said.lines().count(), 1, "{said}");
    let out = online_output(&ann, port, &["move", &game, "e5e6"]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        said.trim_end(),
        "qiguo: refused (not_your_turn): it is Chu's turn, not one of your kingdoms'"
    );

    // Bo's seat played by a computer; the server is killed and started again meanwhile.
    let url = format!("ws://127.0.0.1:{port}");
    let player = Killed(
        qiguo(&bo)
            .args([
                "online", "--server", &url, "play", &game, "--seat", "chu", "--level", "random",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // The game as the server has it, once it has `ply` moves (within two minutes).
    let moves_once = |ply: usize| {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let shown = online(&ann, port, &["show", &game]);
            let record: qiguo_rules::Record =
                serde_json::from_value(shown["record"].clone()).unwrap();
            if record.moves.len() >= ply {
                return record;
            }
            assert!(
                Instant::now() < deadline,
                "the game stopped at {} moves",
                record.moves.len()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    // Ann plays her move whenever Bo's computer and the five others have played theirs.
    let ann_moves = |ply: usize| {
        let record = moves_once(ply);
        assert_eq!(record.moves.len(), ply, "Qin's move waits for Ann");
        let mv = record.replay().unwrap().position().legal_moves()[0].to_string();
        online(&ann, port, &["move", &game, &mv]);
    };
    ann_moves(7);
    let before = moves_once(8);
    drop(srv);
    let srv = server(&server_dir, &listener);
    // Chu's move is made (before the kill, or by the player connecting again), the computers
    // play on after the restart, and Chu's next move comes from the player too.
    ann_moves(14);
    let record = moves_once(16);
    assert_eq!(
        record.moves[..8],
        before.moves[..8],
        "every acknowledged move is kept"
    );
    record.replay().unwrap();
    drop(player);
    drop(srv);
}

#[test]
fn bad_server_and_online_options_are_refused_with_one_line() {
    let dir = TempDir::new("online-cli-bad");
    let refused = |args: &[&str], expect: &str| {
        let out = qiguo(dir.path()).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("qiguo: ") && err.contains(expect),
            "{args:?}: {err}"
        );
    };
    refused(
        &["server", "--bind", "0.0.0.0", "--port", "0"],
        "--insecure-lan",
    );
    refused(&["server", "--db", "mysql://x"], "--db");
    // Standard input (here /dev/null) must be a listening socket, and then no port is bound.
    refused(
        &["server", "--listen-stdin"],
        "--listen-stdin: standard input is not a listening TCP socket",
    );
    refused(&["server", "--listen-stdin", "--port", "7206"], "--port");
    refused(&["server", "--tls-cert", "x.pem"], "--tls-key");
    refused(
        &[
            "server",
            "--port",
            "0",
            "--tls-cert",
            "none.pem",
            "--tls-key",
            "none.key",
        ],
        "TLS",
    );
    refused(&["online", "create", "--seats", "me,open"], "--seats");
    refused(
        &[
            "online",
            "create",
            "--seats",
            "me,open,easy,easy,easy,easy,genius",
        ],
        "--seats",
    );
    let seven = "me,open,easy,easy,easy,easy,easy";
    refused(
        &["online", "create", "--seats", seven, "--pace", "30d"],
        "--pace",
    );
    refused(
        &["online", "create", "--seats", seven, "--overdue", "never"],
        "--overdue",
    );
    refused(
        &["online", "--server", "http://x", "games"],
        "not a server address",
    );
    refused(
        &[
            "online",
            "--server",
            // Nothing listens on port 1 (a port of the system's that no test takes).
            "ws://127.0.0.1:1",
            "games",
        ],
        "cannot be reached",
    );
    refused(&["online", "join", "CODE", "--seat", "rome"], "rome");
}

/// `qiguo online --server … ARGS` as the player of `data`: its JSON lines.
fn online_lines(data: &Path, port: u16, args: &[&str]) -> Vec<Value> {
    let out = online_output(data, port, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Quick play, ratings and conduct from a terminal: Ann plays now and Bo takes a kingdom of her
/// game over; each reads the ratings, their own and the other's; Ann blocks, unblocks and
/// reports Bo.
#[test]
fn quick_play_from_the_command_line() {
    let dir = TempDir::new("online-quick");
    let (server_dir, ann, bo) = (dir.join("server"), dir.join("ann"), dir.join("bo"));
    let (listener, port) = loopback();
    let _srv = server(&server_dir, &listener);
    let first = online(&ann, port, &["--name", "Ann", "quick", "--pace", "daily"]);
    assert_eq!(first["kingdom"], "qin", "{first}");
    assert_eq!(first["pace"], "daily");
    assert!(first["took_over"].is_null(), "{first}");
    // Bo, for the same pace: a computer's kingdom in Ann's game, and what he took over.
    let second = online(&bo, port, &["--name", "Bo", "quick", "--pace", "daily"]);
    assert_eq!(second["game"], first["game"], "{second}");
    assert_ne!(second["kingdom"], "qin");
    assert_eq!(second["took_over"]["moves"], 0, "{second}");
    assert_eq!(second["took_over"]["to_move"], "qin", "{second}");
    // A pace that is not one: one line, naming the paces.
    let out = online_output(&bo, port, &["quick", "--pace", "blitz"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("brisk, calm, daily or relaxed"), "{err}");
    // Ratings: nobody has played a rated game to its end yet; each is a new player's, shown.
    let ratings = online(&ann, port, &["ratings"]);
    assert_eq!(ratings["family"], "live", "{ratings}");
    assert_eq!(ratings["board"], serde_json::json!([]), "{ratings}");
    assert_eq!(ratings["player"]["name"], "Ann", "{ratings}");
    assert_eq!(
        ratings["player"]["rating"],
        serde_json::json!({"points": 1500, "provisional": true, "games": 0, "left": 0})
    );
    let of_bo = online(
        &ann,
        port,
        &["ratings", "--family", "correspondence", "--of", "bo"],
    );
    assert_eq!(of_bo["family"], "correspondence", "{of_bo}");
    assert_eq!(of_bo["player"]["name"], "Bo", "{of_bo}");
    let out = online_output(&ann, port, &["ratings", "--of", "Nobody"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no_player_named") && err.contains("Nobody"),
        "{err}"
    );
    let out = online_output(&ann, port, &["ratings", "--family", "weekly"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("live or correspondence"), "{err}");
    // Puzzles: none yet on a server whose games nobody finished; a name that is none.
    let out = online_output(&ann, port, &["puzzle", "daily"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no_puzzles"), "{err}");
    let out = online_output(&ann, port, &["puzzle-tried", "0123456789ab", "--solved"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no_such_puzzle") && err.contains("0123456789ab"),
        "{err}"
    );
    // Blocking and reporting by name.
    let blocked = online(&ann, port, &["block", "Bo"]);
    assert_eq!(blocked["blocked"], true, "{blocked}");
    let unblocked = online(&ann, port, &["block", "bo", "--unblock"]);
    assert_eq!(unblocked["blocked"], false, "{unblocked}");
    let game = first["game"].as_str().unwrap();
    let reported = online(
        &ann,
        port,
        &["report", "Bo", "--reason", "stalls", "--game", game],
    );
    assert_eq!(reported["reported"], true, "{reported}");
    let out = online_output(&ann, port, &["block", "Ann"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("yourself"), "{err}");
}

/// Clubs from a terminal: Ann makes one by request, Bo asks to join and is let in, his news
/// post refused (no organiser), Ann posts, the members listed; a taken name refused in one line.
#[test]
fn clubs_from_the_command_line() {
    let dir = TempDir::new("online-clubs");
    let (server_dir, ann, bo) = (dir.join("server"), dir.join("ann"), dir.join("bo"));
    let (listener, port) = loopback();
    let _srv = server(&server_dir, &listener);
    let made = online(
        &ann,
        port,
        &[
            "--name",
            "Ann",
            "club",
            "create",
            "Jade Hall",
            "--description",
            "Tuesdays",
            "--by-request",
            "--json",
        ],
    );
    assert_eq!(made["name"], "Jade Hall", "{made}");
    assert_eq!(
        (made["open"].clone(), made["you"].clone()),
        (false.into(), "owner".into())
    );
    let asked = online(
        &bo,
        port,
        &["--name", "Bo", "club", "join", "jade hall", "--json"],
    );
    assert_eq!(asked["you"], "asking", "{asked}");
    let let_in = online(&ann, port, &["club", "accept", "Jade Hall", "bo", "--json"]);
    assert_eq!(let_in["member_count"], 2, "{let_in}");
    let out = online_output(&bo, port, &["club", "post", "Jade Hall", "Hello"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not_club_organiser"), "{err}");
    let posted = online(
        &ann,
        port,
        &["club", "post", "Jade Hall", "Tuesday at eight", "--json"],
    );
    assert_eq!(posted["news"][0]["text"], "Tuesday at eight", "{posted}");
    let members = online(&bo, port, &["club", "members", "Jade Hall", "--json"]);
    let names: Vec<(&str, &str)> = members["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap(), m["role"].as_str().unwrap()))
        .collect();
    assert_eq!(names, [("Ann", "owner"), ("Bo", "member")], "{members}");
    let listed = online(&bo, port, &["club", "list", "--json"]);
    assert_eq!(listed["clubs"][0]["you"], "member", "{listed}");
    let out = online_output(&bo, port, &["club", "create", "JADE HALL"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("club_name_taken") && err.contains("Jade Hall"),
        "{err}"
    );
    let left = online(&bo, port, &["club", "leave", "Jade Hall", "--json"]);
    assert_eq!(left["clubs"][0]["you"], serde_json::Value::Null, "{left}");
    // A newcomer's own name is --name, never the club's nor a player's named after it.
    let cy = dir.join("cy");
    online(
        &cy,
        port,
        &["--name", "Cy", "club", "join", "Jade Hall", "--json"],
    );
    online(&cy, port, &["block", "Bo"]);
    let members = online(&ann, port, &["club", "members", "Jade Hall", "--json"]);
    assert_eq!(members["members"][1]["name"], "Cy", "{members}");
    assert_eq!(members["members"][1]["role"], "asking", "{members}");
    // Without --json, lines to read: the members with their roles, a club with its news.
    let read = online_output(&ann, port, &["club", "members", "Jade Hall"]);
    let read = String::from_utf8_lossy(&read.stdout);
    assert!(read.starts_with("Jade Hall: 1 member\n"), "{read}");
    assert!(
        read.contains("  Ann (owner)") && read.contains("  Cy (asked to join)"),
        "{read}"
    );
    let shown = online_output(&ann, port, &["club", "show", "Jade Hall"]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("by request") && shown.contains("Tuesday at eight"),
        "{shown}"
    );
}

/// Club evenings from a terminal: Ann sets one a day ahead (a past time refused before anything
/// is sent, a member's refused by the server), Bo says he comes, lists it, writes it as a
/// calendar file and says he no longer comes; Ann calls it off. A club's own table is created,
/// shown in the club and not among the public tables.
#[test]
fn evenings_from_the_command_line() {
    let dir = TempDir::new("online-evenings");
    let (server_dir, ann, bo) = (dir.join("server"), dir.join("ann"), dir.join("bo"));
    let (listener, port) = loopback();
    let _srv = server(&server_dir, &listener);
    online(
        &ann,
        port,
        &["--name", "Ann", "club", "create", "Jade Hall", "--json"],
    );
    online(
        &bo,
        port,
        &["--name", "Bo", "club", "join", "Jade Hall", "--json"],
    );
    let tomorrow = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_hours(24))
        .unwrap();
    let at = tomorrow
        .to_zoned(jiff::tz::TimeZone::fixed(jiff::tz::offset(8)))
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string();
    let past = online_output(
        &ann,
        port,
        &[
            "evening",
            "create",
            "--club",
            "Jade Hall",
            "--at",
            "2020-01-01T19:00:00Z",
        ],
    );
    assert_eq!(past.status.code(), Some(2));
    let err = String::from_utf8_lossy(&past.stderr);
    assert!(err.contains("--at") && err.contains("passed"), "{err}");
    let set = online(
        &ann,
        port,
        &[
            "evening",
            "create",
            "--club",
            "Jade Hall",
            "--at",
            &at,
            "--pace",
            "brisk",
            "--seating",
            "at-random",
            "--level",
            "easy",
            "--json",
        ],
    );
    assert_eq!(set["state"], "planned", "{set}");
    assert_eq!(set["play"]["seating"], "at_random", "{set}");
    assert_eq!(
        set["at_ms"],
        tomorrow.as_millisecond() / 1000 * 1000,
        "{set}"
    );
    let id = set["id"].as_str().unwrap().to_owned();
    let out = online_output(
        &bo,
        port,
        &["evening", "create", "--club", "Jade Hall", "--at", &at],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("not_club_organiser"),
        "{err}"
    );
    let comes = online(&bo, port, &["evening", "come", &id, "--json"]);
    assert_eq!(comes["you_come"], true, "{comes}");
    assert_eq!(comes["coming"], serde_json::json!(["Bo"]));
    let listed = online(
        &bo,
        port,
        &["evening", "list", "--club", "jade hall", "--json"],
    );
    assert_eq!(listed["evenings"][0]["id"], id.as_str(), "{listed}");
    assert!(
        listed["evenings"][0]["at"].as_str().unwrap().len() >= 25,
        "{listed}"
    );
    let read = online_output(&bo, port, &["evening", "list", "--club", "jade hall"]);
    let read = String::from_utf8_lossy(&read.stdout);
    assert!(
        read.starts_with(&format!("{id} of Jade Hall at ")) && read.contains("planned; brisk"),
        "{read}"
    );
    assert!(
        read.contains("1 coming: Bo") && read.contains("You come."),
        "{read}"
    );
    let file = dir.join("evening.ics");
    let written = online(
        &bo,
        port,
        &["evening", "calendar", &id, file.to_str().unwrap(), "--json"],
    );
    assert_eq!(written["evening"], id.as_str(), "{written}");
    let ics = std::fs::read_to_string(&file).unwrap();
    assert!(ics.starts_with("BEGIN:VCALENDAR\r\n"), "{ics}");
    assert!(ics.contains(&format!("UID:{id}@127.0.0.1\r\n")), "{ics}");
    let utc = tomorrow.strftime("%Y%m%dT%H%M%SZ").to_string();
    assert!(ics.contains(&format!("DTSTART:{utc}\r\n")), "{ics}");
    let table = online(
        &bo,
        port,
        &["table", "create", "--people", "2", "--club", "Jade Hall"],
    );
    assert_eq!(table["club"], "Jade Hall", "{table}");
    let shown = online(&ann, port, &["club", "show", "Jade Hall", "--json"]);
    assert_eq!(shown["tables"][0]["table"], table["table"], "{shown}");
    assert_eq!(shown["evenings"][0]["evening"], id.as_str(), "{shown}");
    assert_eq!(shown["evenings"][0]["coming"], 1, "{shown}");
    let public = online(&ann, port, &["tables"]);
    assert_eq!(public["tables"], serde_json::json!([]), "{public}");
    let not = online(&bo, port, &["evening", "come", &id, "--not", "--json"]);
    assert_eq!(not["you_come"], false, "{not}");
    let off = online(&ann, port, &["evening", "cancel", &id, "--json"]);
    assert_eq!(off["state"], "cancelled", "{off}");
    let out = online_output(&bo, port, &["evening", "come", &id]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("evening_over"),
        "{err}"
    );
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// Tournaments from a terminal: Ann sets her club's Swiss (a past start refused before anything
/// is sent, a bad format too), Bo joins it and reads its standings as text, lists it as JSON,
/// and leaves it.
#[test]
fn tournaments_from_the_command_line() {
    let dir = TempDir::new("online-tournaments");
    let (server_dir, ann, bo) = (dir.join("server"), dir.join("ann"), dir.join("bo"));
    let (listener, port) = loopback();
    let _srv = server(&server_dir, &listener);
    online(
        &ann,
        port,
        &["--name", "Ann", "club", "create", "Jade Hall", "--json"],
    );
    online(
        &bo,
        port,
        &["--name", "Bo", "club", "join", "Jade Hall", "--json"],
    );
    let starts = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_hours(24))
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let create = |extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "create",
            "Jade Swiss",
            "--club",
            "Jade Hall",
            "--rounds",
            "3",
            "--json",
        ];
        args.extend_from_slice(extra);
        args.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let past = online_output(
        &ann,
        port,
        &as_strs(&create(&[
            "--format",
            "swiss",
            "--starts",
            "2020-01-01T19:00:00Z",
        ])),
    );
    assert_eq!(past.status.code(), Some(2));
    let err = String::from_utf8_lossy(&past.stderr);
    assert!(err.contains("--starts") && err.contains("passed"), "{err}");
    let knockout = online_output(
        &ann,
        port,
        &as_strs(&create(&["--format", "knockout", "--starts", &starts])),
    );
    assert_eq!(knockout.status.code(), Some(2));
    let set = online(
        &ann,
        port,
        &as_strs(&create(&["--format", "swiss", "--starts", &starts])),
    );
    assert_eq!(set["name"], "Jade Swiss", "{set}");
    assert_eq!(set["state"], "entering", "{set}");
    assert_eq!(set["play"]["pace"], "daily", "a Swiss's pace by default");
    assert!(set["starts"].as_str().unwrap().len() >= 25, "{set}");
    let out = online_output(
        &bo,
        port,
        &[
            "tournament",
            "create",
            "Bo Swiss",
            "--club",
            "Jade Hall",
            "--format",
            "swiss",
            "--starts",
            &starts,
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("not_club_organiser"),
        "{err}"
    );
    let joined = online(&bo, port, &["tournament", "join", "jade swiss", "--json"]);
    assert_eq!(joined["players"], 1, "{joined}");
    assert_eq!(joined["you"]["name"], "Bo", "{joined}");
    let text = online_output(&bo, port, &["tournament", "standings", "Jade Swiss"]);
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.starts_with("Jade Swiss (Jade Hall) — swiss, daily; to start"),
        "{text}"
    );
    assert!(text.contains("round 0 of 3; 1 of 343 players"), "{text}");
    assert!(text.contains("Bo"), "{text}");
    let listed = online(&bo, port, &["tournament", "list", "--json"]);
    assert_eq!(listed["tournaments"][0]["name"], "Jade Swiss", "{listed}");
    assert_eq!(listed["tournaments"][0]["joined"], true, "{listed}");
    let left = online(&bo, port, &["tournament", "leave", "Jade Swiss", "--json"]);
    assert_eq!(left["players"], 0, "{left}");
    let out = online_output(&bo, port, &["tournament", "leave", "Jade Swiss"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("not_in_tournament"),
        "{err}"
    );
}

/// Public tables from a terminal: Ann creates one for two, it is listed, Bo sits down and its
/// game starts; the lobby's counts; a table that cannot be is refused before anything is sent.
#[test]
fn public_tables_and_the_lobby_from_the_command_line() {
    let dir = TempDir::new("online-tables");
    let (server_dir, ann, bo) = (dir.join("server"), dir.join("ann"), dir.join("bo"));
    let (listener, port) = loopback();
    let _srv = server(&server_dir, &listener);
    let made = online(
        &ann,
        port,
        &[
            "--name",
            "Ann",
            "table",
            "create",
            "--people",
            "2",
            "--level",
            "easy",
            "--fill-within",
            "30",
            "--unfilled",
            "close",
            "--rated",
        ],
    );
    let table = made["table"].as_str().expect("a table id").to_owned();
    assert_eq!(made["seated"][0]["name"], "Ann", "{made}");
    assert!(made["game"].is_null(), "{made}");
    let listed = online(&bo, port, &["--name", "Bo", "tables"]);
    assert_eq!(listed["tables"][0]["table"], table.as_str(), "{listed}");
    assert_eq!(listed["tables"][0]["spec"]["rated"], true, "{listed}");
    let joined = online(&bo, port, &["table", "join", &table]);
    assert!(joined["game"].is_string(), "full: started: {joined}");
    assert_eq!(joined["seated"][1]["name"], "Bo", "{joined}");
    let games = online(&bo, port, &["games"]);
    assert_eq!(games["games"][0]["id"], joined["game"], "{games}");
    let lobby = online(&ann, port, &["lobby"]);
    assert!(lobby["online"].as_u64().is_some(), "{lobby}");
    assert_eq!(lobby["paces"].as_array().map(Vec::len), Some(4), "{lobby}");
    // Refused by the server: the table started.
    let out = online_output(&ann, port, &["table", "join", &table]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no_table"), "{err}");
    // Refused before anything is sent: one line naming the option.
    for (args, says) in [
        (&["table", "create", "--people", "9"][..], "--people"),
        (
            &["table", "create", "--ratings", "1700-1500"][..],
            "--ratings",
        ),
        (&["table", "create", "--ratings", "high"][..], "MIN-MAX"),
        (
            &["table", "create", "--unfilled", "later"][..],
            "computers or close",
        ),
        (
            &["table", "create", "--fill-within", "0"][..],
            "--fill-within",
        ),
    ] {
        let out = online_output(&ann, port, args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn the_table_talks_from_the_command_line() {
    let dir = TempDir::new("online-talk");
    let (server_dir, ann, bo) = (dir.join("server"), dir.join("ann"), dir.join("bo"));
    let (listener, port) = loopback();
    let _srv = server(&server_dir, &listener);
    let created = online(
        &ann,
        port,
        &[
            "--name",
            "Ann",
            "create",
            "--seats",
            "me,open,random,random,random,random,random",
        ],
    );
    let game = created["game"].as_str().unwrap().to_owned();
    let code = created["code"].as_str().unwrap().to_owned();
    online(&bo, port, &["--name", "Bo", "join", &code, "--seat", "chu"]);
    assert_eq!(online(&ann, port, &["say", &game, "Chu, with me?"])["n"], 0);
    assert_eq!(online(&bo, port, &["say", &game, "Yes."])["n"], 1);
    let talk = online_lines(&ann, port, &["talk", &game]);
    let said: Vec<(&str, &str, u64)> = talk
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap(),
                l["text"].as_str().unwrap(),
                l["seat"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(said, [("Ann", "Chu, with me?", 0), ("Bo", "Yes.", 1)]);
    assert_eq!(
        online_lines(&ann, port, &["talk", &game, "--before", "1"]).len(),
        1
    );
    // Bo mutes Qin's player: Ann's lines are gone for him, not for her.
    let muted = online(&bo, port, &["mute", &game, "qin"]);
    assert_eq!(
        (muted["seat"].as_u64(), muted["muted"].as_bool()),
        (Some(0), Some(true))
    );
    assert_eq!(online_lines(&bo, port, &["talk", &game]).len(), 1);
    assert_eq!(online_lines(&ann, port, &["talk", &game]).len(), 2);
    online(&bo, port, &["mute", &game, "qin", "--unmute"]);
    assert_eq!(online_lines(&bo, port, &["talk", &game]).len(), 2);
    // Too long: refused with one line.
    let out = online_output(&ann, port, &["say", &game, &"x".repeat(501)]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        said.trim_end(),
        "qiguo: refused (talk_too_long): a line of table talk has at most 500 characters"
    );
}

#[test]
fn holidays_are_taken_from_the_command_line() {
    let dir = TempDir::new("online-away");
    let (server_dir, ann) = (dir.join("server"), dir.join("ann"));
    let (listener, port) = loopback();
    let _srv = server(&server_dir, &listener);
    let none = online(&ann, port, &["--name", "Ann", "holidays"]);
    assert_eq!(
        (none["away_until"].clone(), none["used"].as_u64()),
        (Value::Null, Some(0))
    );
    assert_eq!(none["allowance"], 14);
    // Away until the day after tomorrow (UTC): three days.
    let today = qiguo_protocol::calendar::day_of(jiff::Timestamp::now().as_millisecond());
    let until = qiguo_protocol::calendar::date_text(today + 2);
    let away = online(&ann, port, &["away", &until]);
    assert_eq!(away["away_until"], until.as_str());
    assert!(away["used"].as_u64().unwrap() >= 1, "{away}");
    let back = online(&ann, port, &["away", "--back"]);
    assert_eq!(back["away_until"], Value::Null);
    let out = online_output(&ann, port, &["away", "2020-01-01"]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        said.starts_with("qiguo: refused (bad_date): 2020-01-01 "),
        "{said}"
    );
    let out = online_output(&ann, port, &["away"]);
    assert_eq!(out.status.code(), Some(2));
    // No finished games yet: an empty first page.
    let finished = online(&ann, port, &["games", "--finished"]);
    assert_eq!(
        (
            finished["games"].as_array().map(Vec::len),
            finished["more"].as_bool()
        ),
        (Some(0), Some(false))
    );
}

#[test]
fn an_e_mail_address_is_given_from_the_command_line() {
    let dir = TempDir::new("online-email");
    let (server_dir, ann) = (dir.join("server"), dir.join("ann"));
    // A password on the command line is refused, before anything starts.
    let out = qiguo(&server_dir)
        .args(["server", "--smtp", "smtp://games:secret@mail.example.org"])
        .args([
            "--public-url",
            "https://qiguo.example",
            "--mail-from",
            "games@qiguo.example",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success());
    assert!(
        said.contains("QIGUO_SMTP_PASSWORD") && !said.contains("secret"),
        "{said}"
    );
    // No relay listens where this server sends: the address is taken, its confirmation waits.
    let (listener, port) = loopback();
    let smtp = "smtp://127.0.0.1:1";
    let public = format!("http://127.0.0.1:{port}");
    let _srv = server_with(
        &server_dir,
        &listener,
        &[
            "--smtp",
            smtp,
            "--public-url",
            &public,
            "--mail-from",
            "games@qiguo.test",
        ],
    );
    let none = online(&ann, port, &["--name", "Ann", "email"]);
    assert_eq!(
        none,
        serde_json::json!({"offered": true, "address": null, "confirmed": false, "digest": false})
    );
    let given = online(&ann, port, &["email", "ann@qiguo.test", "--digest"]);
    assert_eq!(
        (
            given["address"].as_str(),
            given["confirmed"].as_bool(),
            given["digest"].as_bool()
        ),
        (Some("ann@qiguo.test"), Some(false), Some(true))
    );
    let out = online_output(&ann, port, &["email", "ann at qiguo"]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        said.trim_end(),
        "qiguo: refused (bad_address): ann at qiguo is not an e-mail address"
    );
    let removed = online(&ann, port, &["email", "--remove"]);
    assert_eq!(removed["address"], Value::Null);
}

/// `qiguo online` signed in to a server of a newer protocol version, which still answers this
/// one, does what it was asked and says on standard error that qiguo should be updated. The
/// server is a stand-in that welcomes in the next version's words and lists no games.
#[test]
fn online_says_when_its_server_is_newer() {
    use tokio_tungstenite::tungstenite::{Message, accept};

    let dir = TempDir::new("online-cli-newer");
    let (listener, port) = loopback();
    let newer = qiguo_protocol::PROTOCOL_VERSION + 1;
    std::thread::spawn(move || {
        let (tcp, _) = listener.accept().unwrap();
        let mut ws = accept(tcp).unwrap();
        while let Ok(Message::Text(text)) = ws.read() {
            let frame: Value = serde_json::from_str(&text).unwrap();
            let answer = match frame["ask"]["type"].as_str() {
                Some("hello") => serde_json::json!({"type": "welcome", "version": newer,
                    "player": "p1", "name": "Ann", "key": "k1"}),
                Some("games") => serde_json::json!({"type": "games", "games": []}),
                other => panic!("not asked here: {other:?}"),
            };
            let reply = serde_json::json!({"type": "reply", "req": frame["req"], "answer": answer});
            ws.send(Message::text(reply.to_string())).unwrap();
        }
    });
    let out = online_output(dir.path(), port, &["--name", "Ann", "games"]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{said}");
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed["games"], serde_json::json!([]), "{listed}");
    assert_eq!(
        said.trim_end(),
        format!(
            "qiguo: this server speaks protocol version {newer} and this qiguo {}: it still \
             answers, but update qiguo before it stops",
            newer - 1
        )
    );
}
