//! E-mail through a real SMTP server on loopback (Debian's `aiosmtpd`, started by each test,
//! keeping what it receives in a Maildir): an address confirmed through its link (a GET shows a
//! button, the POST confirms), *your move* received in the player's language when they have no
//! connection (none while they have one), its link signing them in on a new device and opening
//! the game as theirs, one e-mail a turn, one-click unsubscribe honoured; a relay down, then up
//! after a restart: the e-mail arrives, once. Without `/usr/bin/aiosmtpd` the tests are built
//! ignored.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::*;
use qiguo_client::{Client, Trust, Welcome};
use qiguo_rules::Kingdom;
use qiguo_server::mail::{MailConfig, MailTiming};
use qiguo_server::protocol::{Answer, Ask, Event, Identity, MailView, Refusal};
use qiguo_server::server::{Running, ServerConfig};
use qiguo_server::{Pace, WhenOverdue};
use qiguo_testkit::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Debian's SMTP server in Python (python3-aiosmtpd), run by Debian's own Python (the one
/// `PATH` finds may lack the package).
const PYTHON: &str = "/usr/bin/python3";

/// An SMTP server on 127.0.0.1, keeping every e-mail it takes in a Maildir; stopped when
/// dropped. Its port is bound by the test and handed to it as its standard input, so that no
/// parallel test can take the port in between; once stopped, its port refuses connections.
struct Relay {
    child: Child,
    port: u16,
}

/// aiosmtpd serving on the listening socket that is its standard input, keeping e-mails in the
/// Maildir named by its argument as aiosmtpd's Mailbox does, but refusing for good (550) every
/// address at `gone.qiguo.test`.
const RELAY: &str = "\
import asyncio, socket, sys
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import SMTP

class Picky(Mailbox):
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.endswith('@gone.qiguo.test'):
            return '550 5.1.1 <%s>: no such mailbox here' % address
        envelope.rcpt_tos.append(address)
        return '250 OK'

async def main(maildir):
    listening = socket.socket(fileno=0)
    handler = Picky(maildir)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(handler), sock=listening)
    await server.serve_forever()

asyncio.run(main(sys.argv[1]))
";

impl Relay {
    /// Starts one on a port of its own. It takes connections at once: they wait in the
    /// socket's queue until aiosmtpd has started.
    fn start(maildir: &Path) -> Relay {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let child = Command::new(PYTHON)
            .args(["-c", RELAY])
            .arg(maildir)
            .stdin(std::os::fd::OwnedFd::from(listener))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("aiosmtpd starts");
        Relay { child, port }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The e-mails in `maildir`, in the order they came.
fn received(maildir: &Path) -> Vec<Mail> {
    let Ok(entries) = std::fs::read_dir(maildir.join("new")) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| {
            let made = e.metadata().and_then(|m| m.modified()).unwrap();
            (made, e.file_name().to_string_lossy().into_owned(), e.path())
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|(_, _, path)| Mail::read(&std::fs::read_to_string(path).unwrap()))
        .collect()
}

/// Waits until `maildir` holds `n` e-mails: all of them.
async fn wait_for_mails(maildir: &Path, n: usize) -> Vec<Mail> {
    eventually(&format!("{n} e-mails in {}", maildir.display()), || {
        received(maildir).len() >= n
    })
    .await;
    received(maildir)
}

/// An e-mail as received: its headers (unfolded) and its body, decoded.
#[derive(Debug)]
struct Mail {
    headers: Vec<(String, String)>,
    body: String,
}

impl Mail {
    fn read(raw: &str) -> Mail {
        let raw = raw.replace("\r\n", "\n");
        let (head, body) = raw.split_once("\n\n").unwrap();
        let mut headers: Vec<(String, String)> = Vec::new();
        for line in head.lines() {
            if line.starts_with([' ', '\t']) {
                headers.last_mut().unwrap().1.push_str(line.trim_start());
            } else if let Some((name, value)) = line.split_once(':') {
                headers.push((name.to_owned(), value.trim().to_owned()));
            }
        }
        let mut mail = Mail {
            headers,
            body: String::new(),
        };
        mail.body = match mail.header("Content-Transfer-Encoding").as_deref() {
            Some("quoted-printable") => quoted_printable(body),
            Some("base64") => String::from_utf8(base64(&body.replace(['\n', ' '], ""))).unwrap(),
            _ => body.to_owned(),
        };
        mail
    }

    fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }

    /// The token of the first link in the body that has `before` just before it.
    fn token_after(&self, before: &str) -> String {
        let at = self.body.find(before).unwrap_or_else(|| {
            panic!("no {before} in {}", self.body);
        });
        self.body[at + before.len()..]
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect()
    }
}

fn quoted_printable(text: &str) -> String {
    let text = text.replace("=\n", "");
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && let Some(b) = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c).unwrap() as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// A server on a port of 127.0.0.1 bound once here, e-mailing through the relay on
/// `smtp_port`, its links to itself; e-mails written at once and retried after a second.
async fn mailing_server(db: &str, smtp_port: u16, lines: &Lines) -> Running {
    mailing_server_at(db, smtp_port, lines, None).await
}

/// [`mailing_server`] on `clock`, if given.
async fn mailing_server_at(
    db: &str,
    smtp_port: u16,
    lines: &Lines,
    clock: Option<qiguo_server::store::Clock>,
) -> Running {
    let listener = loopback_listener();
    let port = listener.local_addr().unwrap().port();
    let mut config = ServerConfig::new(db);
    config.listener = Some(listener);
    config.limits = roomy();
    config.mail = Some(MailConfig {
        smtp: format!("smtp://127.0.0.1:{smtp_port}").parse().unwrap(),
        password: None,
        from: "Qiguo <games@qiguo.test>".parse().unwrap(),
        public_url: format!("http://127.0.0.1:{port}"),
        timing: MailTiming {
            every: Duration::from_millis(100),
            retry_after: Duration::from_secs(1),
            turn_after: Duration::ZERO,
        },
    });
    serve_on(&config, clock, lines).await
}

/// How many e-mail tokens `player` has in the database `db`, by purpose.
async fn tokens_of(db: &str, player: &qiguo_server::PlayerId) -> Vec<(String, i64)> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT purpose, COUNT(*) FROM mail_tokens WHERE player = $1 \
         GROUP BY purpose ORDER BY purpose",
    )
    .bind(player.0.clone())
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    rows
}

/// An HTTP/1.1 request to the server at `addr`: the status and the body.
async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_owned());
    (status, body.unwrap_or_default())
}

async fn mail_of(client: &mut Client) -> MailView {
    match client.ask(Ask::Mail {}).await.unwrap() {
        Answer::Mail(view) => view,
        other => panic!("{other:?}"),
    }
}

async fn set_mail(client: &mut Client, address: Option<&str>) -> Result<MailView, Refusal> {
    match client
        .ask(Ask::SetMail {
            address: address.map(str::to_owned),
            digest: false,
        })
        .await
    {
        Ok(Answer::Mail(view)) => Ok(view),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.refusal().cloned().expect("a refusal")),
    }
}

/// Bo's address: one of this run's own, so that the runs on one PostgreSQL database do not
/// add up to the day's limit of confirmations to an address.
fn bo_address() -> String {
    format!("bo.{}@qiguo.test", std::process::id())
}

/// Bo, reading Swedish, with a confirmed address ([`bo_address`]) on the server at `url`,
/// whose page is at `addr`: his client, his welcome, and the confirmation e-mail.
async fn bo_confirmed(url: &str, addr: SocketAddr, maildir: &Path) -> (Client, Welcome, Mail) {
    let (mut bo, me) = qiguo_client::connect_in(
        url,
        Identity::New { name: "Bo".into() },
        Some("sv"),
        &Trust::default(),
    )
    .await
    .unwrap();
    assert_eq!(
        mail_of(&mut bo).await,
        MailView {
            offered: true,
            ..MailView::default()
        }
    );
    let given = set_mail(&mut bo, Some(&format!(" {} ", bo_address())))
        .await
        .unwrap();
    assert_eq!(given.address, Some(bo_address()));
    assert!(!given.confirmed);
    let before = received(maildir).len();
    let confirm = wait_for_mails(maildir, before + 1).await.remove(before);
    assert_eq!(confirm.header("To"), Some(bo_address()));
    assert!(confirm.header("List-Unsubscribe").is_none(), "{confirm:?}");
    assert!(confirm.body.starts_with("Hej Bo,"), "{}", confirm.body);
    let token = confirm.token_after("/mail/confirm/");
    let path = format!("/mail/confirm/{token}");
    // A GET, as a mail scanner makes, changes nothing: a page with a button.
    let (status, page) = http(addr, "GET", &path, "").await;
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("<form method=\"post\">") && page.contains("lang=\"sv\""),
        "{page}"
    );
    assert!(!mail_of(&mut bo).await.confirmed);
    // The button's POST confirms, and Bo's connection hears of it.
    let (status, page) = http(addr, "POST", &path, "").await;
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains(&format!("{} är bekräftad", bo_address())),
        "{page}"
    );
    let heard = tokio::time::timeout(PATIENCE, async {
        loop {
            if let Ok(Event::Mail(view)) = bo.next_event().await {
                return view;
            }
        }
    })
    .await
    .expect("Bo is told");
    assert!(heard.confirmed);
    // Used once.
    assert_eq!(http(addr, "POST", &path, "").await.0, 410);
    (bo, me, confirm)
}

#[cfg_attr(
    not(smtp_tests),
    ignore = "needs Debian's aiosmtpd (python3-aiosmtpd; .ci/run installs it)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_is_mailed_their_move_and_the_links_work() {
    let dir = TempDir::new("mail");
    away_is_mailed(&dir, &sqlite(&dir)).await;
}

#[cfg_attr(
    not(all(smtp_tests, postgres_tests)),
    ignore = "needs Debian's aiosmtpd and PostgreSQL (QIGUO_POSTGRES_URL; .ci/run provides both)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_is_mailed_their_move_on_postgresql() {
    let dir = TempDir::new("mail-pg");
    away_is_mailed(&dir, &postgres()).await;
}

/// [`a_player_away_is_mailed_their_move_and_the_links_work`] on the database `db`.
async fn away_is_mailed(dir: &TempDir, db: &str) {
    let maildir = dir.path().join("mail");
    let relay = Relay::start(&maildir);
    let lines = Lines::default();
    let server = mailing_server(db, relay.port, &lines).await;
    let port = server.addr.port();
    let url = server.url();
    let (mut bo, me, _) = bo_confirmed(&url, server.addr, &maildir).await;
    assert_eq!(
        set_mail(&mut bo, Some("Bo <bo@qiguo.test>")).await,
        Err(Refusal::BadAddress {
            address: "Bo <bo@qiguo.test>".into()
        })
    );
    let (mut ann, code) = game_of_ann_and_bo(&url, &mut bo).await;
    // Bo is connected when his turn begins: he is told there, and mailed nothing.
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    logged(&lines, "e-mail turn to player").await;
    assert!(
        lines.contains(&format!(
            "e-mail not sent mail=e-mail turn to player {} (game {}) why=told on their connection",
            me.player.0, ann.id.0
        )),
        "{:?}",
        lines.0.lock().unwrap()
    );
    assert_eq!(received(&maildir).len(), 1);
    // An e-mail not sent makes no tokens: his links are the confirmation's only.
    assert_eq!(
        tokens_of(db, &me.player).await,
        [("confirm".to_owned(), 1)],
        "no unsubscribe or sign-in token for an e-mail not sent"
    );
    // He plays, and leaves; the computers play; Ann moves: Bo, away, is mailed.
    drop(bo);
    bo_plays(&url, &me, &code).await;
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    let turn = wait_for_mails(&maildir, 2).await.remove(1);
    assert_eq!(turn.header("To"), Some(bo_address()));
    assert_eq!(
        turn.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let unsubscribe = turn.header("List-Unsubscribe").unwrap();
    assert!(
        unsubscribe.starts_with(&format!("<http://127.0.0.1:{port}/mail/unsubscribe/")),
        "{unsubscribe}"
    );
    assert!(
        turn.body
            .contains("Det är ditt drag som Chu i partiet mellan Ann, Bo"),
        "{}",
        turn.body
    );
    assert!(
        turn.body
            .contains(&format!("http://127.0.0.1:{port}/join/{code}#signin="))
    );
    // The link signs him in on a device that has no key of his: the game opens as his.
    let token = turn.token_after("#signin=");
    let (mut device, welcome) = qiguo_client::connect(
        &url,
        Identity::Link {
            token: token.clone(),
        },
        &Trust::default(),
    )
    .await
    .unwrap();
    assert_eq!(welcome.player, me.player);
    let device_key = welcome.key.clone().expect("a key for the device");
    let opened = device
        .ask(Ask::Open {
            game: ann.id.clone(),
        })
        .await
        .unwrap();
    let Answer::Game(view) = opened else {
        panic!("{opened:?}")
    };
    assert!(view.seats[1].yours && !view.seats[0].yours);
    drop(device);
    // The link works once; the device's key, and his first, go on working.
    let again = qiguo_client::connect(&url, Identity::Link { token }, &Trust::default()).await;
    assert_eq!(
        again.err().and_then(|e| e.refusal().cloned()),
        Some(Refusal::LinkExpired)
    );
    let on_device = Identity::Player {
        id: me.player.clone(),
        key: device_key,
    };
    drop(
        qiguo_client::connect(&url, on_device, &Trust::default())
            .await
            .unwrap(),
    );
    // One e-mail a turn: his next turn brings the next.
    bo_plays(&url, &me, &code).await;
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    let next = wait_for_mails(&maildir, 3).await.remove(2);
    assert!(next.body.contains("Drag 15 är gjort"), "{}", next.body);
    // One click (RFC 8058) from the mail program: no more e-mail.
    let unsubscribe = next.header("List-Unsubscribe").unwrap();
    let path = unsubscribe
        .trim_matches(['<', '>'])
        .strip_prefix(&format!("http://127.0.0.1:{port}"))
        .unwrap()
        .to_owned();
    let (status, page) = http(server.addr, "POST", &path, "List-Unsubscribe=One-Click").await;
    assert_eq!(status, 200, "{page}");
    // Asked again (mail programs may), it says the same.
    let (status, again) = http(server.addr, "POST", &path, "List-Unsubscribe=One-Click").await;
    assert_eq!((status, again), (200, page));
    let mut bo = returning(&url, &me).await;
    assert_eq!(mail_of(&mut bo).await.address, None);
    drop(bo);
    bo_plays(&url, &me, &code).await;
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(received(&maildir).len(), 3, "nothing after unsubscribing");
    let turns = lines.count(&format!("e-mail turn to player {}", me.player.0));
    assert_eq!(
        turns, 3,
        "three turns looked at: one told on his connection, two sent"
    );
}

#[cfg_attr(
    not(smtp_tests),
    ignore = "needs Debian's aiosmtpd (python3-aiosmtpd; .ci/run installs it)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_down_then_up_gets_the_e_mail_through_once_across_a_restart() {
    let dir = TempDir::new("mail-down");
    let db = sqlite(&dir);
    let maildir = dir.path().join("mail");
    let mut relay = Relay::start(&maildir);
    let lines = Lines::default();
    let server = mailing_server(&db, relay.port, &lines).await;
    let url = server.url();
    let (mut bo, me, _) = bo_confirmed(&url, server.addr, &maildir).await;
    let (mut ann, code) = game_of_ann_and_bo(&url, &mut bo).await;
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    drop(bo);
    bo_plays(&url, &me, &code).await;
    // The relay goes down; Ann moves: the e-mail waits, tried again and again.
    relay.stop();
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    logged(&lines, "attempt=2").await;
    assert!(lines.contains("attempt=1"), "{:?}", lines.0.lock().unwrap());
    assert!(lines.contains("attempt=2"), "{:?}", lines.0.lock().unwrap());
    // The server stops; the relay comes back; a server on the same database sends it, once.
    drop(ann);
    server.shutdown(Duration::from_secs(5)).await;
    drop(server);
    // On a port of its own: the new server is told where it is.
    let relay = Relay::start(&maildir);
    let after = Lines::default();
    let again = mailing_server(&db, relay.port, &after).await;
    let turn = wait_for_mails(&maildir, 2).await.remove(1);
    assert!(
        turn.body.contains("Det är ditt drag som Chu"),
        "{}",
        turn.body
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(received(&maildir).len(), 2, "the e-mail arrives once");
    assert_eq!(
        after.count("e-mail sent mail="),
        1,
        "{:?}",
        after.0.lock().unwrap()
    );
    drop(again);
}

#[cfg_attr(
    not(smtp_tests),
    ignore = "needs Debian's aiosmtpd (python3-aiosmtpd; .ci/run installs it)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confirmations_are_limited_per_player_and_per_address() {
    let dir = TempDir::new("mail-limits");
    let maildir = dir.path().join("mail");
    let relay = Relay::start(&maildir);
    let lines = Lines::default();
    // The clock stands still: every address is given in the same millisecond, and each
    // confirmation still counts, and goes, on its own.
    let (clock, _) = hand_clock(qiguo_server::store::now_ms());
    let server = mailing_server_at(&sqlite(&dir), relay.port, &lines, Some(clock)).await;
    let url = server.url();
    // Three addresses a day for one player; the fourth waits.
    let (mut cy, _) = newcomer(&url, "Cy").await;
    for n in 0..3 {
        set_mail(&mut cy, Some(&format!("cy{n}@qiguo.test")))
            .await
            .unwrap();
    }
    assert!(matches!(
        set_mail(&mut cy, Some("cy3@qiguo.test")).await,
        Err(Refusal::SlowDown { seconds }) if seconds > 86_000
    ));
    // Three confirmations a day to one address, whoever asks: a stranger's inbox is not flooded.
    for name in ["Dee", "Eve", "Fay"] {
        let (mut client, _) = newcomer(&url, name).await;
        set_mail(&mut client, Some("target@qiguo.test"))
            .await
            .unwrap();
    }
    let (mut gus, _) = newcomer(&url, "Gus").await;
    assert!(matches!(
        set_mail(&mut gus, Some("target@qiguo.test")).await,
        Err(Refusal::SlowDown { .. })
    ));
    // The same address again changes nothing but the digest, and sends nothing.
    let (mut hal, _) = newcomer(&url, "Hal").await;
    set_mail(&mut hal, Some("hal@qiguo.test")).await.unwrap();
    let digest = hal
        .ask(Ask::SetMail {
            address: Some("hal@qiguo.test".into()),
            digest: true,
        })
        .await
        .unwrap();
    assert!(matches!(
        digest,
        Answer::Mail(MailView { digest: true, .. })
    ));
    // A confirmation is sent for the address a player has when it goes: Cy's last, Hal's
    // once, the target's three times (and Cy's earlier ones only if they went before he
    // changed his address). Seven confirmations were queued (Cy's three, the target's three,
    // Hal's one): each is sent or dropped once, and then the inbox is final.
    eventually("every confirmation sent or dropped", || {
        lines.count("e-mail sent mail=e-mail confirm to player")
            + lines.count("e-mail not sent mail=e-mail confirm to player")
            == 7
    })
    .await;
    assert_eq!(lines.count("confirmation_queued=true"), 7);
    let to = |address: &str| {
        received(&maildir)
            .iter()
            .filter(|m| m.header("To").as_deref() == Some(address))
            .count()
    };
    assert_eq!(to("target@qiguo.test"), 3);
    assert_eq!(to("hal@qiguo.test"), 1);
    assert_eq!(to("cy2@qiguo.test"), 1);
    assert_eq!(to("cy3@qiguo.test"), 0);
    assert_eq!(
        received(&maildir).len(),
        5 + to("cy0@qiguo.test") + to("cy1@qiguo.test")
    );
    // Removed, the address is forgotten.
    assert_eq!(set_mail(&mut hal, None).await.unwrap().address, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_a_relay_offers_no_e_mail() {
    let dir = TempDir::new("mail-none");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    assert_eq!(mail_of(&mut ann).await, MailView::default());
    assert_eq!(
        set_mail(&mut ann, Some("ann@qiguo.test")).await,
        Err(Refusal::NoMail)
    );
    assert_eq!(http(server.addr, "GET", "/mail/confirm/x", "").await.0, 404);
    assert!(lines.contains("e-mail: none sent (no --smtp)"));
}

/// Waits until the e-mail log says `part`, with the clock where it is (the sending task looks
/// every 100 ms).
async fn logged(lines: &Lines, part: &str) {
    eventually(&format!("logged: {part}"), || lines.contains(part)).await;
}

#[cfg_attr(
    not(smtp_tests),
    ignore = "needs Debian's aiosmtpd (python3-aiosmtpd; .ci/run installs it)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reminder_the_digest_and_the_end_come_when_due() {
    use qiguo_server::mail::compose::moment_text;
    use qiguo_server::protocol::calendar::{DAY_MS, date_text, parse_date, start_of};

    let dir = TempDir::new("mail-due");
    let maildir = dir.path().join("mail");
    let relay = Relay::start(&maildir);
    let day0 = parse_date("2027-03-01").unwrap();
    let t0 = start_of(day0) + 10 * 3_600_000;
    let (clock, now) = hand_clock(t0);
    let set = |ms: i64| *now.lock().unwrap() = ms;
    let lines = Lines::default();
    let server = mailing_server_at(&sqlite(&dir), relay.port, &lines, Some(clock)).await;
    let url = server.url();
    let (mut bo, me, _) = bo_confirmed(&url, server.addr, &maildir).await;
    let (ann, _) = newcomer(&url, "Ann").await;
    let (mut ann, code) = game_of(ann, &mut bo).await;
    drop(bo);
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    wait_for_mails(&maildir, 2).await;
    // Bo goes away today and tomorrow: his turn runs out two days later, and so does the
    // reminder, which waits for the day before.
    let mut bo = returning(&url, &me).await;
    bo.ask(Ask::Away {
        until: Some(date_text(day0 + 1)),
    })
    .await
    .unwrap();
    drop(bo);
    let summary = match ann.client.ask(Ask::Games {}).await.unwrap() {
        Answer::Games { games } => games.into_iter().find(|g| g.id == ann.id).unwrap(),
        other => panic!("{other:?}"),
    };
    let deadline = summary.deadline_ms.unwrap();
    assert!(deadline > t0 + 4 * DAY_MS, "{}", moment_text(deadline));
    set(t0 + 2 * DAY_MS + 60_000);
    logged(&lines, "e-mail due later").await;
    assert!(lines.contains(&format!(
        "e-mail due later mail=e-mail reminder to player {} (game {}) at={} why=the turn runs out later now (a holiday)",
        me.player.0,
        ann.id.0,
        moment_text(deadline - DAY_MS)
    )));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(received(&maildir).len(), 2, "not yet: the holiday moved it");
    set(deadline - DAY_MS + 60_000);
    let reminder = wait_for_mails(&maildir, 3).await.remove(2);
    assert!(
        reminder.body.contains(&format!(
            "Din tur som Chu i partiet mellan Ann, Bo går ut {} (UTC).",
            moment_text(deadline)
        )),
        "{}",
        reminder.body
    );
    // Bo asks for one e-mail a day: his next turn goes into a digest, sent at once (none was
    // sent before), and the turn after into the next day's.
    let mut bo = returning(&url, &me).await;
    let digest = bo
        .ask(Ask::SetMail {
            address: Some(bo_address()),
            digest: true,
        })
        .await
        .unwrap();
    assert!(matches!(
        digest,
        Answer::Mail(MailView {
            digest: true,
            confirmed: true,
            ..
        })
    ));
    drop(bo);
    bo_plays(&url, &me, &code).await;
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    let digest = wait_for_mails(&maildir, 4).await.remove(3);
    assert!(
        digest
            .body
            .contains("De här partierna väntar på ditt drag:")
            && digest.body.contains("- Chu i partiet mellan Ann, Bo"),
        "{}",
        digest.body
    );
    bo_plays(&url, &me, &code).await;
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    logged(&lines, "why=folded into the digest").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(received(&maildir).len(), 4, "one digest a day");
    let later = *now.lock().unwrap() + DAY_MS;
    set(later);
    let next = wait_for_mails(&maildir, 5).await.remove(4);
    assert!(
        next.body.contains("- Chu i partiet mellan Ann, Bo"),
        "{}",
        next.body
    );
    // A game's end reaches every person in it, the one who ended it too.
    let bo = returning(&url, &me).await;
    let pace = Pace::Correspondence {
        days: 3,
        overdue: WhenOverdue::StandIn,
    };
    let (_, end_code) = create(&mut ann.client, endgame(pace)).await;
    let mut bo = join(bo, &end_code, Kingdom::Chu).await;
    bo.play(|_| qiguo_rules::Move::CONCEDE).await;
    let end = wait_for_mails(&maildir, 6).await.remove(5);
    assert!(
        end.body
            .contains("är slut efter 1 drag: Qin är den sista som är kvar i spelet.")
            && end.body.contains("Dina riken: Chu."),
        "{}",
        end.body
    );
}

#[cfg_attr(
    not(smtp_tests),
    ignore = "needs Debian's aiosmtpd (python3-aiosmtpd; .ci/run installs it)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_permanent_refusal_is_given_up_at_once() {
    let dir = TempDir::new("mail-refused");
    let maildir = dir.path().join("mail");
    let relay = Relay::start(&maildir);
    let lines = Lines::default();
    let server = mailing_server(&sqlite(&dir), relay.port, &lines).await;
    let (mut cy, me) = newcomer(&server.url(), "Cy").await;
    set_mail(&mut cy, Some("cy@gone.qiguo.test")).await.unwrap();
    logged(&lines, "e-mail given up").await;
    assert!(
        lines.contains(&format!(
            "e-mail given up mail=e-mail confirm to player {} tries=1 why=permanent error (550): 5.1.1 <cy@gone.qiguo.test>: no such mailbox here",
            me.player.0
        )),
        "{:?}",
        lines.0.lock().unwrap()
    );
    // Not tried again.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(lines.count("e-mail confirm to player"), 1);
    assert!(received(&maildir).is_empty());
}

#[cfg_attr(
    not(all(smtp_tests, postgres_tests)),
    ignore = "needs Debian's aiosmtpd and PostgreSQL (QIGUO_POSTGRES_URL; .ci/run provides both)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_database_send_each_e_mail_once() {
    let dir = TempDir::new("mail-two");
    let maildir = dir.path().join("mail");
    let relay = Relay::start(&maildir);
    let (one, two) = (Lines::default(), Lines::default());
    let db = postgres();
    let a = mailing_server(&db, relay.port, &one).await;
    let b = mailing_server(&db, relay.port, &two).await;
    // Ten players give addresses, half on each server: ten confirmations, each sent once.
    let mut clients = Vec::new();
    for n in 0..10 {
        let url = if n % 2 == 0 { a.url() } else { b.url() };
        let (mut client, _) = newcomer(&url, &format!("P{n}")).await;
        set_mail(
            &mut client,
            Some(&format!("p{n}.{}@qiguo.test", std::process::id())),
        )
        .await
        .unwrap();
        clients.push(client);
    }
    let mails = wait_for_mails(&maildir, 10).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(received(&maildir).len(), 10, "{mails:?}");
    let mut to: Vec<String> = received(&maildir)
        .iter()
        .filter_map(|m| m.header("To"))
        .collect();
    to.sort();
    to.dedup();
    assert_eq!(to.len(), 10, "one each: {to:?}");
    let sent = |lines: &Lines| sent_count(lines, "e-mail confirm to player");
    assert_eq!(sent(&one) + sent(&two), 10);
    drop((a, b));
}

/// How many of the e-mails beginning `about` the log says were sent.
fn sent_count(lines: &Lines, about: &str) -> usize {
    lines
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.starts_with(&format!("e-mail sent mail={about}")))
        .count()
}

/// One who said they come to a club's evening and has a confirmed address is e-mailed half an
/// hour before it, in their language, with the time and the server's link.
#[cfg_attr(
    not(smtp_tests),
    ignore = "needs Debian's aiosmtpd (python3-aiosmtpd; .ci/run installs it)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evening_is_an_e_mail_half_an_hour_before() {
    use qiguo_server::protocol::clubs::ClubSpec;
    use qiguo_server::protocol::evenings::{EveningPlay, EveningSpec, Seating};
    let dir = TempDir::new("mail-evening");
    let maildir = dir.path().join("mail");
    let relay = Relay::start(&maildir);
    // 2026-12-01 12:00 UTC.
    let t0 = 1_796_126_400_000;
    let (clock, now) = hand_clock(t0);
    let lines = Lines::default();
    let server = mailing_server_at(&sqlite(&dir), relay.port, &lines, Some(clock)).await;
    let url = server.url();
    let (mut bo, _, _) = bo_confirmed(&url, server.addr, &maildir).await;
    let (mut ann, _) = newcomer(&url, "Ann").await;
    ann.ask(Ask::ClubCreate {
        spec: ClubSpec {
            name: "Evening Hall".into(),
            description: String::new(),
            open: true,
        },
    })
    .await
    .unwrap();
    let Answer::Evening(evening) = ann
        .ask(Ask::EveningCreate {
            spec: EveningSpec {
                club: "Evening Hall".into(),
                at_ms: t0 + 3_600_000,
                play: EveningPlay {
                    preset: qiguo_rules::Preset::Classic,
                    pace: qiguo_server::QuickPace::Calm,
                    level: qiguo_rules::Level::Easy,
                    seating: Seating::ByRating,
                    rated: false,
                },
            },
        })
        .await
        .unwrap()
    else {
        panic!("not an evening");
    };
    bo.ask(Ask::ClubJoin {
        name: "Evening Hall".into(),
    })
    .await
    .unwrap();
    bo.ask(Ask::EveningCome {
        evening: evening.id.clone(),
        coming: true,
    })
    .await
    .unwrap();
    let before = received(&maildir).len();
    *now.lock().unwrap() = t0 + 31 * 60_000;
    let mail = wait_for_mails(&maildir, before + 1).await.remove(before);
    assert_eq!(mail.header("To"), Some(bo_address()));
    assert_eq!(
        mail.header("Subject").as_deref(),
        Some("Evening Hall spelar 2026-12-01 13:00 (UTC)"),
        "{mail:?}"
    );
    assert!(mail.body.starts_with("Hej Bo,"), "{}", mail.body);
    assert!(
        mail.body.contains("Den börjar 2026-12-01 13:00 (UTC)"),
        "{}",
        mail.body
    );
    assert!(mail.header("List-Unsubscribe").is_some(), "{mail:?}");
}
