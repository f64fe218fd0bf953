//! The page in a real browser: Debian's Chromium, headless (WebGL2 through its software
//! renderer), driven over WebDriver (`chromium-driver`, through fantoccini) against a
//! `qiguo-server` on loopback serving the bundle `tools/build-web` made. The page loads and
//! draws the board (a screenshot checked for the board's and the armies' colours, kept in
//! `$CARGO_TARGET_DIR/browser-shots/` to be looked at); a lesson's first step is played with
//! the keyboard's move box; a game created through `qiguo online` with an open seat is joined
//! through its `/join/CODE` link by a first-time visitor who types their name, and a move typed
//! in the page's move box is read back through `qiguo online show`.
//!
//! It needs the bundle (`QIGUO_WEB_BUNDLE` naming its directory when the tests are built) and
//! `chromium` and `chromedriver` on the PATH; without them it is built ignored, never passed.
//! `.ci/run` provides all three.

mod page;

use std::time::Duration;

use page::{Browser, Served, qiguo_online, shots_dir};

/// The whole visit: the board drawn, a lesson's first step, a game joined by link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(browser_tests),
    ignore = "needs the web bundle (QIGUO_WEB_BUNDLE, from tools/build-web) and chromium-driver"
)]
async fn the_page_draws_the_board_teaches_and_joins_a_game_by_link() {
    let server = Served::start();
    let browser = Browser::open().await;

    // The board, drawn.
    browser.visit(&format!("{}/", server.http)).await;
    let drawn_ms = browser.wait_for_board().await;
    let shot = browser.screenshot("page").await;
    page::assert_board_and_armies(&shot);
    eprintln!("the board was drawn {drawn_ms} ms after the page opened");

    // A lesson from the welcome card: its first step played in the move box.
    browser.click_welcome_learn().await;
    browser
        .wait_for_title("The General", Duration::from_secs(20))
        .await;
    browser.type_move("c10g14").await;
    browser.wait_for_title("2/2", Duration::from_secs(20)).await;
    browser.screenshot("lesson").await;

    // A game with an open seat, created by another player through `qiguo online`.
    let host = server.player_dir("host");
    let created = qiguo_online(
        &server.ws,
        &host,
        "Host",
        &["create", "--seating", "two", "--seats", "open,me"],
    );
    let created: serde_json::Value = serde_json::from_str(&created)
        .unwrap_or_else(|e| panic!("qiguo online create said {created:?}: {e}"));
    let code = created["code"].as_str().expect("a code").to_owned();
    let id = created["game"].as_str().expect("a game id").to_owned();

    // The link, opened by a first-time visitor: a name, then the open seat.
    browser.visit(&format!("{}/join/{code}", server.http)).await;
    browser.wait_for_board().await;
    browser.type_text("Guest\n").await;
    browser
        .wait_for_title("your move", Duration::from_secs(30))
        .await;
    browser.screenshot("joined").await;
    browser.type_move("h3h4").await;
    let record = page::poll(Duration::from_secs(20), || {
        let shown = qiguo_online(&server.ws, &host, "Host", &["show", &id]);
        shown.contains("h3h4").then_some(shown)
    });
    assert!(
        record.contains("Guest"),
        "the guest took the seat: {record}"
    );
    eprintln!("screenshots in {}", shots_dir().display());
    browser.close().await;
}
