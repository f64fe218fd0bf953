//! The page in a real browser: Debian's Chromium, headless (WebGL2 through its software
//! renderer), driven over the DevTools protocol (keys, clicks, screenshots) against a
//! `qiguo-server` on loopback serving the bundle `tools/build-web` made. The page loads and
//! draws the board (a screenshot checked for the board's and the armies' colours, kept in
//! `$CARGO_TARGET_DIR/browser-shots/` to be looked at); a lesson's first step is played with
//! the keyboard's move box; six Medium computers are chosen on the welcome card and the first
//! answers Qin's typed move from the page's search worker; a game created through `qiguo online` with an open seat is joined
//! through its `/join/CODE` link by a first-time visitor who types their name, and a move typed
//! in the page's move box is read back through `qiguo online show`; with the page in a
//! background tab (no frames drawn), the host's moves bring the guest's turn round, and the
//! page notifies them; an e-mail's sign-in link (`/join/CODE#signin=TOKEN`) opened in a browser
//! that has never seen the player's key signs them in there, and opened again (used) in
//! another says so and lets the visitor join under a name. As an app: the page installable, a
//! message pushed to its service worker shown as a notification, the page started again with its
//! server gone (the whole font and the sounds too), and a new version waiting for the player's
//! word before the page reloads whole on it.
//!
//! It needs the bundle (`QIGUO_WEB_BUNDLE` naming its directory when the tests are built) and
//! `chromium` on the PATH; without them it is built ignored, never passed. `.ci/run` provides
//! both.

mod page;

use std::time::Duration;

use page::{Browser, PATIENCE, Served, bundle, qiguo_online, shots_dir};
use qiguo_rules::{Game, Rules, Seats};

/// The whole visit: the board drawn, a lesson's first step, a game joined by link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium"
)]
async fn the_page_draws_the_board_teaches_and_joins_a_game_by_link() {
    let server = Served::start(&bundle());
    let mut browser = Browser::open().await;

    // The board, drawn.
    browser.visit(&format!("{}/", server.http)).await;
    let drawn_ms = browser.wait_for_board().await;
    let shot = browser.screenshot("page").await;
    page::assert_board_and_armies(&shot);
    eprintln!("the board was drawn {drawn_ms} ms after the page opened");

    // A lesson from the welcome card: its first step played in the move box.
    browser.click_welcome_learn().await;
    browser.wait_for_title("The General", PATIENCE).await;
    browser.type_move("c10g14").await;
    browser.screenshot("lesson-typed").await;
    browser.wait_for_title("2/2", PATIENCE).await;
    browser.screenshot("lesson").await;

    // Six Medium computers from the welcome card (back through the toolbar): Qin's move typed,
    // and the first computer's answer comes from the page's search worker.
    browser.click_toolbar_welcome().await;
    browser.play_against_medium_computers().await;
    let start = Game::start(Rules::default(), Seats::default());
    let qin = start.position().legal_moves()[0].to_string();
    browser.type_move(&qin).await;
    browser.wait_for_title("move 3", PATIENCE).await;
    assert!(
        browser.computers_searched_ms().await.is_some(),
        "the page counted its computers' search"
    );
    browser.screenshot("computers").await;

    // A game with an open seat, created by another player through `qiguo online`.
    let host = server.player_dir("host");
    let created = qiguo_online(
        &server.ws,
        &host,
        "Host",
        // Qin, who moves first, is the open seat; no stand-in plays it while the test runs
        // (ten minutes, the longest wait a live game has).
        &[
            "create",
            "--seats",
            "open,me,me,me,me,me,me",
            "--wait",
            "600",
        ],
    );
    let created: serde_json::Value = serde_json::from_str(&created)
        .unwrap_or_else(|e| panic!("qiguo online create said {created:?}: {e}"));
    let code = created["code"].as_str().expect("a code").to_owned();
    let id = created["game"].as_str().expect("a game id").to_owned();

    // The link, opened by a first-time visitor: a name, then the open seat.
    browser.record_notifications().await;
    browser.record_console().await;
    // The link's every frame in the page's log (by kind), to tell where a turn went if one is
    // lost.
    browser
        .visit(&format!(
            "{}/join/{code}?log=qiguo_client=debug",
            server.http
        ))
        .await;
    browser.wait_for_board().await;
    // The name field has the keyboard once the Online window is drawn.
    browser.wait_frames(10).await;
    browser.screenshot("invited").await;
    browser.type_text("Guest\n").await;
    browser.wait_for_title("Your move", PATIENCE).await;
    browser.screenshot("joined").await;
    browser.type_move("a13c12").await;
    browser.screenshot("moved").await;
    let record = page::poll(PATIENCE, || {
        let shown = qiguo_online(&server.ws, &host, "Host", &["show", &id]);
        shown.contains("a13c12").then_some(shown)
    });
    assert!(
        record.contains("Guest"),
        "the guest took the seat: {record}"
    );

    // The guest looks at another tab (theirs draws no frames now) while the host plays the
    // other six kingdoms: the guest's turn is told by a notification all the same.
    let hidden = browser.hide_behind_another_tab().await;
    assert_eq!(hidden, "hidden", "the page is in a background tab");
    let mut game = Game::start(Rules::default(), Seats::default());
    game.play(qiguo_rules::notation::parse_move("a13c12").unwrap())
        .unwrap();
    for _ in 0..6 {
        let mv = game.position().legal_moves()[0];
        qiguo_online(&server.ws, &host, "Host", &["move", &id, &mv.to_string()]);
        game.play(mv).unwrap();
    }
    let start = std::time::Instant::now();
    let notified = loop {
        let notified = browser.notified().await;
        if !notified.is_empty() || start.elapsed() > PATIENCE {
            break notified;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    if notified.is_empty() {
        // What the page and the server said meanwhile, to tell where the turn was lost; CI
        // shows a failure's first forty lines or so, so the telling lines come first: the
        // page's about its link and notifications (without the style arguments), the page's
        // state, then the server's last lines.
        let telling = [
            "notification",
            "connection",
            "signed in",
            "your move",
            "link",
            "panic",
            "error",
        ];
        let page_lines: Vec<String> = browser
            .console("")
            .await
            .into_iter()
            .filter(|line| !line.contains("/.cargo/registry/") || line.contains("panic"))
            .filter(|line| telling.iter().any(|t| line.to_lowercase().contains(t)))
            .map(|line| line.split(" color:").next().unwrap_or("").replace("%c", ""))
            .collect();
        let last = &page_lines[page_lines.len().saturating_sub(40)..];
        let worker = browser
            .eval_promise(
                "navigator.serviceWorker.getRegistration().then(r => 'service worker: ' + \
                 (r && r.active ? r.active.state : 'none active') + ', installing: ' + \
                 !!(r && r.installing))",
            )
            .await;
        println!(
            "the page's last lines on its link and notifications:\n{}\nthe page: {} | {worker}\nthe server's log:\n{}",
            last.join("\n"),
            browser
                .eval("document.title + ' | ' + document.visibilityState")
                .await,
            server.last_log(30),
        );
    }
    assert_eq!(
        notified,
        [(
            "Your move in Qiguo".to_owned(),
            "Qin to move, in the game of Guest, Host, Host, Host, Host, Host, Host.".to_owned()
        )],
        "one notification, while the tab was in the background"
    );
    browser.close().await;

    // The link of an e-mail to the host, opened in a browser that has never seen the host's
    // key: the page trades its one-time token for a key of its own, and the address bar
    // loses the token.
    let keys = std::fs::read_to_string(host.join("online-keys.json")).expect("the host's keys");
    let keys: serde_json::Value = serde_json::from_str(&keys).expect("a key ring");
    let host_id = keys["servers"][&server.ws]["player"]
        .as_str()
        .expect("the host's id")
        .to_owned();
    let store = qiguo_server::Store::open(&server.db())
        .await
        .expect("the server's database");
    let token = store
        .make_token(
            &qiguo_protocol::PlayerId(host_id.clone()),
            qiguo_server::store::mail::Purpose::SignIn,
            None,
            Some(&qiguo_protocol::GameId(id.clone())),
            qiguo_server::store::mail::SIGNIN_MS,
        )
        .await
        .expect("a sign-in token");
    store.close().await;
    let mut phone = Browser::open().await;
    phone
        .visit(&format!("{}/join/{code}#signin={token}", server.http))
        .await;
    phone.wait_for_board().await;
    let ring = phone.key_ring_with(&host_id).await;
    assert!(ring.contains(&host_id), "{ring}");
    assert_eq!(
        phone.eval("location.hash").await,
        "",
        "the token left the address"
    );
    phone.wait_frames(10).await;
    phone.screenshot("signed-in-by-link").await;
    phone.close().await;

    // The same link again, now used, in a browser that knows nobody: the page says so in its
    // own words and asks for a name (never a hello without one); the visitor who gives one is
    // signed in under it.
    let mut late = Browser::open().await;
    late.visit(&format!("{}/join/{code}#signin={token}", server.http))
        .await;
    late.wait_for_board().await;
    late.wait_frames(10).await;
    late.screenshot("link-used").await;
    late.type_text("Late\n").await;
    let ring = late.key_ring_with("\"Late\"").await;
    assert!(
        ring.contains("\"Late\""),
        "signed in under the name given: {ring}"
    );
    assert!(!ring.contains(&host_id), "{ring}");
    late.wait_frames(10).await;
    late.screenshot("link-used-joined").await;
    late.close().await;
    eprintln!("screenshots in {}", shots_dir().display());
}

/// Play now from the page's first screen: a first-time visitor types a name on the welcome card
/// and plays at once against six Easy computers (brisk), as Qin; a second visitor, on a phone's
/// screen, does the same and takes a computer's kingdom over in the first one's game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium"
)]
async fn the_page_plays_now_from_its_first_screen() {
    use qiguo_server::QuickPace;

    let server = Served::start(&bundle());
    let mut browser = Browser::open().await;
    browser.visit(&format!("{}/", server.http)).await;
    browser.wait_for_board().await;
    browser.wait_frames(10).await;
    browser.screenshot("welcome-play-now").await;
    // Without a name the card says so and stays.
    browser.click_welcome_play_now().await;
    browser.wait_frames(4).await;
    browser.screenshot("welcome-play-now-no-name").await;
    browser.click_welcome_name().await;
    browser.type_text("Pia").await;
    browser.click_welcome_play_now().await;
    browser.wait_for_title("Your move", PATIENCE).await;
    browser.wait_frames(10).await;
    browser.screenshot("played-now").await;

    // A second visitor, on a phone's screen: a computer's kingdom of Pia's game, taken over.
    let mut phone = Browser::open_sized(390, 844).await;
    phone.visit(&format!("{}/", server.http)).await;
    phone.wait_for_board().await;
    phone.wait_frames(10).await;
    phone.screenshot("welcome-play-now-phone").await;
    let store = qiguo_server::Store::open(&server.db())
        .await
        .expect("the server's database");
    let games = store.quick_games(QuickPace::Brisk, 10).await.unwrap();
    assert_eq!(games.len(), 1, "Pia's game");
    // On a phone's screen the card's buttons are a finger's height: its name field and
    // Play now stand where the phone test taps them.
    phone.click_at(160, 238).await;
    phone.type_text("Rui").await;
    phone.click_at(185, 153).await;
    // The server is another process: its database is read until Rui is seated.
    let start = std::time::Instant::now();
    let seated = loop {
        let names: Vec<Option<String>> = store
            .load_game(&games[0])
            .await
            .unwrap()
            .seats
            .iter()
            .map(|s| s.name.clone())
            .collect();
        if names.contains(&Some("Rui".into())) {
            break names;
        }
        assert!(start.elapsed() < PATIENCE, "Rui never seated: {names:?}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert_eq!(seated[0].as_deref(), Some("Pia"), "{seated:?}");
    phone.wait_frames(20).await;
    phone.screenshot("taken-over-phone").await;
    browser.wait_frames(20).await;
    browser.screenshot("taken-over-seen").await;

    // Pia comes back to the page: known to its server, she is signed in at once and the page
    // opens on the lobby, where her game is listed to watch (two people play it).
    browser.visit(&format!("{}/", server.http)).await;
    browser.wait_for_board().await;
    page::poll(PATIENCE, || {
        (server.logged(&["signed in", "name=Pia"]) >= 2).then_some(())
    });
    browser.wait_frames(20).await;
    browser.screenshot("page-lobby").await;
    phone.visit(&format!("{}/", server.http)).await;
    phone.wait_for_board().await;
    phone.wait_frames(20).await;
    phone.screenshot("page-lobby-phone").await;
    store.close().await;
    phone.close().await;
    browser.close().await;
}

/// The page as an installed app: installable (a manifest, icons, a service worker), showing a
/// notification pushed to the device through its service worker (delivered as a push service
/// would, with the message the server sends), and starting again without a network from what
/// its service worker kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium"
)]
async fn the_page_installs_shows_pushed_notifications_and_starts_offline() {
    let mut server = Served::start(&bundle());
    let mut browser = Browser::open().await;
    browser.allow_notifications(&server.http).await;
    browser.visit(&format!("{}/", server.http)).await;
    browser.wait_for_board().await;
    browser.wait_for_service_worker().await;
    // The whole cut of the Chinese font and the five sounds came beside the wasm.
    browser.wait_for_body_data("wholeFont", "ready").await;
    browser.wait_for_body_data("sounds", "5").await;
    let (errors, manifest_errors) = browser.installability().await;
    assert!(errors.is_empty(), "not installable: {errors:?}");
    assert!(
        manifest_errors.is_empty(),
        "the manifest: {manifest_errors:?}"
    );

    // A message as the server pushes it (docs/protocol.md), delivered to the service worker.
    let message = serde_json::json!({
        "title": "Your move as Chu in Qiguo",
        "body": "The game of Ann, Bo, after move 8.",
        "url": "/join/ABCD-EFGH",
        "tag": "qiguo-g1",
        "game": "g1",
        "kind": "push-turn",
    });
    let shown = browser
        .push_and_wait_for_notifications(&server.http, &message.to_string())
        .await;
    assert_eq!(
        shown,
        [(
            "Your move as Chu in Qiguo".to_owned(),
            "The game of Ann, Bo, after move 8.".to_owned(),
            "/join/ABCD-EFGH".to_owned()
        )]
    );

    // The network gone (the server stopped): the page starts again from what it kept.
    server.stop();
    browser
        .eval("document.body.removeAttribute('data-board-drawn-ms')")
        .await;
    browser.reload().await;
    let drawn_ms = browser.wait_for_board().await;
    let shot = browser.screenshot("page-offline").await;
    page::assert_board_and_armies(&shot);
    eprintln!("offline, the board was drawn {drawn_ms} ms after the page opened");
    browser.wait_for_body_data("wholeFont", "ready").await;
    browser.wait_for_body_data("sounds", "5").await;
    browser.close().await;
}

/// A new version of the page, served while a page is open, waits in its service worker until
/// the player takes it up from the page's prompt; then the page reloads whole on the new
/// version, whose cache replaces the old one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium"
)]
async fn a_new_version_waits_for_the_player() {
    // A copy of the bundle, so that this test can put a new version in its place.
    let copy = qiguo_testkit::TempDir::new("qiguo-bundle");
    for entry in std::fs::read_dir(bundle()).expect("the bundle") {
        let path = entry.expect("a file").path();
        if path.is_file() {
            std::fs::copy(&path, copy.path().join(path.file_name().unwrap())).expect("copied");
        }
    }
    let server = Served::start(copy.path());
    let mut browser = Browser::open().await;
    browser.visit(&format!("{}/", server.http)).await;
    browser.wait_for_board().await;
    browser.wait_for_service_worker().await;
    let first = browser
        .eval_promise("caches.keys().then(k => k.join(' '))")
        .await;
    assert!(
        first.as_str().is_some_and(|k| k.starts_with("qiguo-")),
        "{first}"
    );

    // The new version: another service worker (its precompressed copies gone, so that the
    // server sends the new text).
    let sw = copy.path().join("sw.js");
    let text = std::fs::read_to_string(&sw).expect("sw.js");
    let old_version = text
        .lines()
        .find_map(|l| l.strip_prefix("const VERSION = \""))
        .and_then(|l| l.strip_suffix("\";"))
        .expect("its version")
        .to_owned();
    let new_version = "0123456789abcdef";
    std::fs::write(&sw, text.replace(&old_version, new_version)).expect("the new version");
    for compressed in ["sw.js.br", "sw.js.gz"] {
        let _ = std::fs::remove_file(copy.path().join(compressed));
    }
    browser
        .eval_promise(
            "navigator.serviceWorker.getRegistration().then(r => r.update()).then(() => true)",
        )
        .await;
    browser.wait_for_update_offer().await;
    browser.screenshot("update-offered").await;
    // Still the old version until the player says so.
    let still = browser
        .eval_promise("caches.keys().then(k => k.join(' '))")
        .await;
    assert!(
        still.as_str().is_some_and(|k| k.contains(&old_version)),
        "{still}"
    );
    browser
        .eval("document.body.removeAttribute('data-board-drawn-ms'); document.getElementById('update-now').click(); true")
        .await;
    browser.wait_for_board().await;
    browser.wait_for_service_worker().await;
    let now = browser
        .eval_promise("caches.keys().then(k => k.join(' '))")
        .await;
    assert_eq!(now.as_str(), Some(format!("qiguo-{new_version}").as_str()));
    browser.close().await;
}

/// The page as a phone's game: held upright at a phone's pixel ratio, with touch events and
/// Android's Chrome's name. The board is drawn; a name is typed after a tap on its field and
/// the player plays now; a stone is tapped and moved by taps, reaching the server; a pinch
/// zooms; a sheet is opened and closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium"
)]
async fn the_page_is_a_phones_game() {
    use qiguo_server::QuickPace;

    let server = Served::start(&bundle());
    let mut phone = Browser::open_phone(390, 844, 3.0).await;
    phone.record_console().await;
    // Taps and the turn's steps logged (read out if the test fails).
    phone
        .visit(&format!("{}/?log=qiguo=debug", server.http))
        .await;
    phone.wait_for_board().await;
    phone.wait_frames(10).await;
    // Drawn at two device pixels to the CSS pixel, not the screen's three; at one where the
    // browser draws without a GPU, as here (Chromium's SwiftShader).
    let canvas = phone
        .eval("(() => { const c = document.getElementById('qiguo'); return [c.width, c.height, c.clientWidth, c.clientHeight]; })()")
        .await;
    let software = phone
        .eval("document.documentElement.dataset.softwareRenderer || null")
        .await;
    let capped = phone
        .eval("document.documentElement.dataset.pixelRatioCapped || null")
        .await;
    assert_eq!(capped, serde_json::json!("3"), "the screen's own ratio");
    let ratio = match software.as_str() {
        Some(name) => {
            assert!(
                name.contains("SwiftShader"),
                "the renderer Chromium was asked for: {name}"
            );
            1
        }
        None => 2,
    };
    assert_eq!(
        canvas,
        serde_json::json!([390 * ratio, 844 * ratio, 390, 844]),
        "the canvas (the renderer: {software})"
    );
    phone.screenshot("phone-welcome").await;

    // The name typed as a phone's keyboard types, after a tap on its field; Play now.
    phone.tap(160.0, 238.0).await;
    phone.insert_text("Tam", false).await;
    phone.wait_frames(5).await;
    phone.screenshot("phone-name-typed").await;
    // The keyboard up, over the lower 400 pixels: the welcome card, taller than what is left,
    // scrolls, and the name field being typed in is in sight above the keyboard.
    phone.phone_screen(390, 444).await;
    phone.wait_frames(8).await;
    let (_, y) = phone
        .locate("focus")
        .await
        .expect("the name field in sight with the keyboard up");
    assert!(y < 444.0, "the name field at {y:.0}, under the keyboard");
    phone.screenshot("phone-keyboard-up").await;
    phone.phone_screen(390, 844).await;
    phone.wait_frames(8).await;
    phone.tap(185.0, 153.0).await;
    phone.wait_for_title("Your move", PATIENCE).await;
    phone.wait_frames(10).await;
    let store = qiguo_server::Store::open(&server.db())
        .await
        .expect("the server's database");
    let games = store.quick_games(QuickPace::Brisk, 10).await.unwrap();
    assert_eq!(games.len(), 1, "Tam's game");
    let seated = store.load_game(&games[0]).await.unwrap();
    assert_eq!(seated.seats[0].name.as_deref(), Some("Tam"));
    phone.screenshot("phone-playing").await;

    // A stone tapped, and a tap a little off its destination: the nearest legal one is taken.
    let game = Game::start(Rules::default(), Seats::default());
    let mv = game
        .position()
        .legal_moves()
        .into_iter()
        .find(|m| {
            m.to()
                .is_some_and(|t| game.position().piece_at(t).is_none())
        })
        .expect("a quiet move");
    let (from, to) = (mv.from().unwrap().to_string(), mv.to().unwrap().to_string());
    let (fx, fy) = phone.locate(&from).await.expect("the stone in view");
    phone.tap(fx, fy).await;
    phone.wait_frames(5).await;
    phone.screenshot("phone-selected").await;
    let (tx, ty) = phone.locate(&to).await.expect("its destination in view");
    phone.tap(tx + 4.0, ty - 3.0).await;
    let start = std::time::Instant::now();
    loop {
        let moves: Vec<String> = store
            .load_game(&games[0])
            .await
            .unwrap()
            .game
            .moves()
            .map(|m| m.to_string())
            .collect();
        if let Some(first) = moves.first() {
            assert_eq!(first, &mv.to_string(), "Tam's move");
            break;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "Tam's move {mv} never reached the server (tapped {from} at {fx:.0},{fy:.0} and {to} \
             at {tx:.0},{ty:.0}); the page's last log lines:\n{}",
            phone.last_logged(40).await
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // The six computers answer (on the server), and the board turns back to Qin for Tam's next
    // move: only then is the camera left to the fingers (a turn coming round turns it).
    let start = std::time::Instant::now();
    while store
        .load_game(&games[0])
        .await
        .unwrap()
        .game
        .moves()
        .count()
        < 7
    {
        assert!(
            start.elapsed() < PATIENCE,
            "the computers never answered Tam's move"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    phone.wait_for_title("Your move", PATIENCE).await;
    phone.wait_frames(10).await;
    phone.screenshot("phone-moved").await;
    // A pinch spreading two fingers brings the board nearer: two points further apart.
    let apart = |a: (f64, f64), b: (f64, f64)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let (a, b) = (
        phone.locate("f7").await.unwrap(),
        phone.locate("n7").await.unwrap(),
    );
    let before = apart(a, b);
    // About the board's middle (the Emperor's point).
    let middle = phone
        .locate("j10")
        .await
        .expect("the board's middle in view");
    phone.pinch(middle, 40.0, 120.0, 8).await;
    // A few frames: the camera eases to its new distance by time, and a software frame of a
    // phone's screen takes seconds on a busy machine.
    phone.wait_frames(6).await;
    let (a, b) = (
        phone.locate("f7").await.unwrap(),
        phone.locate("n7").await.unwrap(),
    );
    let after = apart(a, b);
    assert!(
        after > before * 1.3,
        "the pinch zoomed from {before:.0} to {after:.0} px apart: {:?}",
        phone.console("touch").await
    );
    phone.screenshot("phone-pinched").await;

    // A long press on a stone shows its card (where the finger was) until the next touch.
    let changed = |a: &image::RgbaImage, b: &image::RgbaImage| {
        // The share of the screen's pixels, between the turn strip and the sheet bar, that
        // differ clearly between two pictures.
        let (w, h) = (a.width(), a.height());
        let band = (h * 15 / 100..h * 80 / 100).flat_map(|y| (0..w).map(move |x| (x, y)));
        let (mut differ, mut all) = (0u32, 0u32);
        for (x, y) in band {
            let (p, q) = (a.get_pixel(x, y), b.get_pixel(x, y));
            if (0..3).any(|c| p[c].abs_diff(q[c]) > 40) {
                differ += 1;
            }
            all += 1;
        }
        f64::from(differ) / f64::from(all)
    };
    let other = game
        .position()
        .legal_moves()
        .into_iter()
        .filter_map(|m| m.from())
        .find(|f| Some(*f) != mv.from())
        .expect("another of Qin's stones")
        .to_string();
    let (hx, hy) = phone.locate(&other).await.expect("the stone in view");
    let unheld = phone.screenshot("phone-before-hold").await;
    phone.long_press(hx, hy).await;
    let held = phone.screenshot("phone-held").await;
    // The next touch on the status line (a tap on an empty point would reframe the board).
    phone.tap(300.0, 720.0).await;
    phone.wait_frames(3).await;
    let let_go = phone.screenshot("phone-after-hold").await;
    let (shown, gone) = (changed(&unheld, &held), changed(&unheld, &let_go));
    assert!(
        shown > 0.08 && gone < shown / 2.0,
        "a long press on {other} at {hx:.0},{hy:.0} shows its card ({:.0} % of the screen \
         changed) and the next touch takes it away ({:.0} % changed): {:?}",
        shown * 100.0,
        gone * 100.0,
        phone.console("touch").await
    );

    // The board has the screen; the moves are a sheet, opened from the bar at the bottom
    // (Kingdoms, Talk, Moves, Menu: Moves the third) and closed again.
    let darkness = |shot: &image::RgbaImage| {
        // The mean brightness of the screen's middle band, where a sheet stands when open.
        let (w, h) = (shot.width(), shot.height());
        let band: Vec<u32> = (h * 45 / 100..h * 60 / 100)
            .flat_map(|y| (w / 10..w * 9 / 10).map(move |x| (x, y)))
            .map(|(x, y)| {
                let p = shot.get_pixel(x, y);
                (u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) / 3
            })
            .collect();
        band.iter().sum::<u32>() / band.len() as u32
    };
    let closed = darkness(&phone.screenshot("phone-sheet-closed").await);
    phone.tap(238.0, 810.0).await;
    phone.wait_frames(4).await;
    let open = darkness(&phone.screenshot("phone-sheet-moves").await);
    phone.tap(238.0, 810.0).await;
    phone.wait_frames(4).await;
    let closed_again = darkness(&phone.screenshot("phone-sheet-closed-again").await);
    assert!(
        open + 15 < closed && open + 15 < closed_again,
        "the sheet's panel darkens the screen's middle while open: {closed} → {open} → {closed_again}"
    );

    // The day's puzzle by its link, on the phone: its card along the bottom.
    phone.visit(&format!("{}/?puzzle=daily", server.http)).await;
    phone.wait_for_board().await;
    phone.wait_for_title("The day's puzzle", PATIENCE).await;
    phone.wait_frames(5).await;
    phone.screenshot("phone-puzzle").await;

    store.close().await;
    phone.close().await;
}

/// The game told to a screen reader: the page's document beside the canvas, read through
/// Chromium's accessibility tree while a game against six Easy computers is played from its
/// field by the keyboard: the canvas is an image with its description, the field is named,
/// the round's seven moves are said in words and in order, then the player's turn; a command
/// typed in the field is answered; Qin concedes by keyboard (the game's window reached by Tab,
/// each button said) and the computers, let finish by keyboard, play on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium"
)]
async fn the_game_is_told_to_a_screen_reader() {
    let server = Served::start(&bundle());
    let mut browser = Browser::open().await;
    browser.record_console().await;
    // The turn's steps logged (read out if the test fails).
    browser
        .visit(&format!("{}/?log=qiguo=debug", server.http))
        .await;
    browser.wait_for_board().await;
    // Four Tabs pressed quickly on the welcome card, faster than its frames: each moves the
    // focus a step, each step said (egui alone moves it once a frame).
    browser
        .eval("document.getElementById('qiguo').focus()")
        .await;
    browser.press_quickly("Tab", 9, 4).await;
    let tree = browser.wait_for_words("Calm, button").await;
    for step in [
        "Play now, with people, button",
        "Your name, field",
        "Brisk, button",
    ] {
        assert!(
            tree.iter().any(|(_, name)| name.starts_with(step)),
            "{step}: {tree:?}"
        );
    }
    browser.click_welcome_computers().await;
    browser
        .wait_for_title("Qin to move · move 1", PATIENCE)
        .await;
    let tree = browser.wait_for_words("Your move, Qin: move 1.").await;
    assert!(
        tree.iter()
            .any(|(role, name)| role == "image" && name.starts_with("The board of Qiguo")),
        "the canvas as an image: {tree:?}"
    );
    assert!(
        tree.iter().any(
            |(role, name)| role == "textbox" && name == "A move or a command (help lists them)"
        ),
        "the field: {tree:?}"
    );

    // F6 takes the keyboard from the board to the document's field; Qin's move typed there,
    // the six computers answer.
    browser
        .eval("document.getElementById('qiguo').focus()")
        .await;
    browser.press("F6", 117).await;
    let focused = browser.eval("document.activeElement.id").await;
    assert_eq!(focused.as_str(), Some("readerField"));
    let start = Game::start(Rules::default(), Seats::default());
    let qin = start.position().legal_moves()[0];
    browser.type_text(&format!("{qin}\n")).await;
    // Each of the six computers' moves takes several of the page's frames, and a software
    // renderer's frames are slow: the wait lasts as long as the round is being told.
    let tree = browser
        .wait_for_words_as_told("Your move, Qin: move 8.")
        .await;
    let said: Vec<&str> = tree
        .iter()
        .filter(|(role, _)| role == "StaticText")
        .map(|(_, name)| name.as_str())
        .filter(|name| name.contains(" from "))
        .collect();
    // The live region says the round; the list of moves holds it again.
    let movers = ["Qin", "Chu", "Han", "Qi", "Wei", "Zhao", "Yan"];
    assert!(said.len() >= 7, "{said:?}");
    for (line, mover) in said.iter().zip(movers) {
        assert!(
            line.starts_with(&format!("{mover}'s ")),
            "{mover}: {said:?}"
        );
    }
    let (from, to) = (qin.from().unwrap(), qin.to().unwrap());
    assert!(
        said[0].contains(&format!("from {from} to {to}")),
        "{said:?}"
    );
    eprintln!("the round as said: {said:#?}");

    // The whole textures were drawn off the frame, in the page's own tasks, and worn once done
    // (the game woken for them, not asking frames meanwhile).
    let worn = browser.wait_for_whole_textures().await;
    let drawn_at = browser.wait_for_board().await;
    eprintln!("the board drawn at {drawn_at} ms, its whole textures worn at {worn} ms");

    // Waiting for Qin, the board rests: the page draws no frame at all (`frames::AT_REST`).
    let rested = browser.wait_for_rest(Duration::from_secs(4)).await;
    tokio::time::sleep(Duration::from_secs(12)).await;
    let drawn = browser.frames_drawn().await - rested;
    assert_eq!(drawn, 0, "frames drawn in 12 s at rest");

    // A command, answered in words.
    browser.type_text("where chu\n").await;
    browser.screenshot("reader-field").await;
    let tree = browser.wait_for_words(" pieces: ").await;
    assert!(
        tree.iter()
            .any(|(_, name)| name.starts_with("Chu has ") && name.contains(" pieces: ")),
        "{tree:?}"
    );
    // Escape gives the keyboard back to the board.
    browser.press("Escape", 27).await;
    let focused = browser.eval("document.activeElement.id").await;
    assert_eq!(focused.as_str(), Some("qiguo"));

    // A window of text (the rules, F1) is said as it opens and read line by line under its
    // title in the document; closed (F1 again), it leaves the document.
    browser.press("F1", 112).await;
    browser.wait_for_words("Window: Rules").await;
    let tree = browser
        .wait_for_window_words("There is no check: nothing forces you")
        .await;
    assert!(
        tree.iter()
            .any(|(role, name)| role == "heading" && name == "Rules"),
        "the rules' title: {tree:?}"
    );
    assert!(
        tree.iter().any(|(role, name)| role == "StaticText"
            && name == "There is no check: nothing forces you to protect an attacked General."),
        "a line of the rules: {tree:?}"
    );
    browser.press("F1", 112).await;
    let titles = "Array.from(document.querySelectorAll('#readerWindows h2'))\
        .map(h => h.textContent).join('|')";
    let start = std::time::Instant::now();
    loop {
        let shown = browser.eval(titles).await;
        let shown = shown.as_str().unwrap_or_default();
        if !shown.split('|').any(|t| t == "Rules") {
            // The other windows stay: the kingdoms' table is read there too.
            assert!(shown.split('|').any(|t| t == "Kingdoms"), "{shown}");
            break;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the rules still in the document after {PATIENCE:?}: {shown}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }

    // To the end of Qin's game by keyboard: `concede` typed in the field says what the game's
    // window asks; from the board, Tab reaches its first button (said as it is reached) and
    // Enter presses it: Qin's concession is said. With no person left, the offer is said, and
    // Tab and Enter let the computers finish at the instant pace: they play on, each move
    // said. (The whole game to its end is played by keyboard headless, `tests/game/telling.rs`;
    // in this page the computers' rest of a game takes longer than a test should.)
    browser.press("F6", 117).await;
    browser.type_text("concede\n").await;
    browser.wait_for_words("Concede Qin? ").await;
    browser.press("Escape", 27).await;
    browser.press("Tab", 9).await;
    browser.wait_for_words("Concede Qin, button").await;
    browser.press("Enter", 13).await;
    browser.wait_for_words("Qin concedes").await;
    browser
        .wait_for_words("No person is left in the game")
        .await;
    browser.press("Tab", 9).await;
    browser
        .wait_for_words("Let the computers finish (instant), button")
        .await;
    let listed = "document.querySelectorAll('#readerMoves li').length";
    let before = browser.eval(listed).await.as_u64().unwrap_or(0);
    browser.press("Enter", 13).await;
    let start = std::time::Instant::now();
    loop {
        let now = browser.eval(listed).await.as_u64().unwrap_or(0);
        if now >= before + 6 {
            break;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the computers played {} moves in {PATIENCE:?} after the offer",
            now.saturating_sub(before)
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    browser.screenshot("reader-end").await;

    // A puzzle's link: the question said, a wrong move answered at once (and taken back) with
    // the solver's first rating, then the one move found, all by the keyboard.
    let puzzle = &qiguo::puzzles::built_in()[0];
    browser
        .visit(&format!("{}/?puzzle={}", server.http, puzzle.id()))
        .await;
    browser.wait_for_board().await;
    browser.wait_for_title("Puzzle", PATIENCE).await;
    browser
        .wait_for_words_as_told("One move alone wins here")
        .await;
    let wrong = qiguo::puzzles::game_of(puzzle)
        .unwrap()
        .position()
        .legal_moves()
        .into_iter()
        .find(|&m| m != puzzle.solution && m.from().is_some())
        .unwrap();
    browser.type_move(&wrong.to_string()).await;
    browser
        .wait_for_words_as_told("Your puzzle rating: 1500 → ")
        .await;
    browser.type_move(&puzzle.solution.to_string()).await;
    browser
        .wait_for_words_as_told(&format!("Right: {} is the one move", puzzle.solution))
        .await;
    browser.screenshot("reader-puzzle").await;
    browser.close().await;
}

/// *Learn from your mistakes* on a phone's page, by touch, by keyboard and told to a reader:
/// the end of a game of one person (Qin) against six Easy computers, kept in the page's
/// autosave, is resumed; Qin's swordsman, the one stone between Qin's General and Chu's
/// chancellor, is moved away by two taps and the computer takes the General. The game over,
/// the page reviews it (its search worker), the report (opened from the keyboard, as the offer
/// to resume and the practice are) charts the blunder and offers it again; the position before
/// it is asked, the blunder tapped again is missed (said with its chance, taken back) and a
/// better move typed in the reader's field is found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium"
)]
async fn a_blunder_on_a_phone_is_reviewed_and_asked_again() {
    use qiguo_rules::{Level, PlayerInfo, Position, Preset, Record, notation::parse_move};

    // Qin's General at a1 behind its swordsman at a3; Chu's chancellor at a5, its General far
    // away at s19. Chu (a computer) has just moved its General; Qin to move.
    let text = format!("18rQ/{}rR18/19/wS18/19/wQ18 r", "19/".repeat(13));
    let start = Position::from_fen(&text, Rules::preset(Preset::Classic)).unwrap();
    let mut game = Game::new(start);
    let chu_general = "s19".parse().unwrap();
    let chu = game
        .position()
        .legal_moves()
        .into_iter()
        .find(|m| m.from() == Some(chu_general))
        .expect("a move of Chu's General");
    game.play(chu).unwrap();
    let blunder = parse_move("a3b3").unwrap();
    let taken = parse_move("a5a1").unwrap();
    let mut lost = game.clone();
    lost.play(blunder).unwrap();
    lost.play(taken).unwrap();
    assert!(
        lost.outcome().is_some(),
        "the blunder loses the game at once"
    );
    // The better move: the one the review finds best (the page searches the same way).
    let review = qiguo_ai::review::review(&lost, qiguo_ai::review::REVIEW_NODES);
    let better = review.moves[1].best;
    assert_ne!(better, blunder);
    let players = (0..7)
        .map(|i| PlayerInfo {
            name: format!("Player {}", i + 1),
            computer: (i > 0).then_some(Level::Easy),
        })
        .collect();
    let autosave = Record::from_game(&game, players).to_json();
    let settings = qiguo::settings::Settings {
        welcomed: true,
        ..Default::default()
    };
    let settings = serde_json::to_string(&settings).unwrap();
    // Kept as the page keeps them (a time, a line, the text), before the page's first load.
    let keep = |key: &str, text: &str| {
        format!(
            "try {{ if (!localStorage.getItem({key:?})) localStorage.setItem({key:?}, \
             Date.now() + '\\n' + {text}); }} catch (e) {{}}",
            text = serde_json::to_string(text).unwrap()
        )
    };

    let server = Served::start(&bundle());
    let mut phone = Browser::open_phone(390, 844, 3.0).await;
    phone.record_console().await;
    phone
        .before_each_page(&format!(
            "{}\n{}",
            keep("/qiguo/data/autosave.json", &autosave),
            keep("/qiguo/config/settings.json", &settings)
        ))
        .await;
    phone
        .visit(&format!("{}/?log=qiguo=debug", server.http))
        .await;
    phone.wait_for_board().await;
    phone.wait_for_window_words("Welcome back").await;
    phone.press_button("Resume").await;
    phone.wait_for_title("Qin to move", PATIENCE).await;

    // The blunder, by two taps.
    let (fx, fy) = phone.locate("a3").await.expect("the swordsman in view");
    phone.tap(fx, fy).await;
    phone.wait_frames(3).await;
    let (tx, ty) = phone.locate("b3").await.expect("its destination in view");
    phone.tap(tx, ty).await;
    phone.wait_for_window_words("Game over").await;
    phone.screenshot("phone-mistake-game-over").await;
    phone.press_button("Game report").await;
    // Reviewed in the page's worker: the chart, the blunder in the list, and the offer.
    let tree = phone.wait_for_window_words(" · Qin: Blunder").await;
    assert!(
        tree.iter()
            .any(|(_, name)| name.starts_with("Learn from your mistakes (1)")),
        "the offer: {tree:?}"
    );
    phone.wait_frames(5).await;
    phone.screenshot("phone-mistake-report").await;
    phone.press_button("Learn from your mistakes (1)").await;
    phone
        .wait_for_words_as_told("Qin to move. You played a3b3 (Blunder): find a better move.")
        .await;
    phone
        .wait_for_title("Learn from your mistakes", PATIENCE)
        .await;
    phone.wait_frames(5).await;
    phone.screenshot("phone-mistake-asked").await;

    // The blunder again, by touch: missed, said with its chance, taken back.
    let (fx, fy) = phone.locate("a3").await.expect("the swordsman in view");
    phone.tap(fx, fy).await;
    phone.wait_frames(3).await;
    let (tx, ty) = phone.locate("b3").await.expect("its destination in view");
    phone.tap(tx, ty).await;
    phone.wait_for_words_as_told("a3b3 keeps ").await;
    phone.wait_frames(5).await;
    phone.screenshot("phone-mistake-missed").await;

    // The better move, typed in the reader's field.
    phone.eval("document.getElementById('qiguo').focus()").await;
    phone.press("F6", 117).await;
    phone.type_text(&format!("{better}\n")).await;
    phone
        .wait_for_words_as_told(&format!("Found: {better} is the engine's best move"))
        .await;
    phone.press("Escape", 27).await;
    phone.wait_frames(5).await;
    phone.screenshot("phone-mistake-found").await;
    phone.close().await;
}
