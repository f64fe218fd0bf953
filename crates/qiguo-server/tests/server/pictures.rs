//! A game's pictures by its links: the card a link shows (PNG, 1200×630) named in the page's
//! Open Graph tags at `/watch/CODE` and `/join/CODE`, and a finished game's moves as an
//! animated GIF — on loopback, with their cache policies and their refusals.

use std::net::{IpAddr, Ipv4Addr};

use crate::common::*;
use crate::page::get;
use qiguo_rules::{Kingdom, Move};
use qiguo_server::Pace;
use qiguo_server::Store;
use qiguo_server::page::Page;
use qiguo_server::protocol::Ask;
use qiguo_server::server::{ServerConfig, serve_store};
use qiguo_testkit::TempDir;

const INDEX: &str = "<!doctype html><html><head><title>Qiguo</title></head><body></body></html>";

/// A PNG's width and height.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    (reader.info().width, reader.info().height)
}

/// A GIF's size and the number of its frames.
fn gif_frames(bytes: &[u8]) -> ((u16, u16), usize) {
    let mut decoder = gif::DecodeOptions::new().read_info(bytes).expect("a GIF");
    let size = (decoder.width(), decoder.height());
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    (size, frames)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_link_shows_its_board_and_a_finished_game_its_moves() {
    let dir = TempDir::new("qiguo-pictures");
    let web = dir.path().join("web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), INDEX).unwrap();
    let db = sqlite(&dir);
    let mut config = ServerConfig::new(&db);
    config.bind = IpAddr::V4(Ipv4Addr::LOCALHOST);
    config.port = 0;
    config.web = Some(Page::at(&web).unwrap());
    let lines = Lines::default();
    let store = Store::open(&db).await.unwrap();
    let running = serve_store(&config, store, None, lines.log())
        .await
        .unwrap();
    let (addr, url) = (running.addr, running.url());

    // Ann's endgame, Bo at Chu's open seat.
    let (mut ann, _) = newcomer(&url, "Ann").await;
    let (bo, _) = newcomer(&url, "Bo").await;
    let (id, code) = create(&mut ann, endgame(Pace::Live { wait_seconds: 600 })).await;
    let mut bo = join(bo, &code, Kingdom::Chu).await;

    // The game's link: the page, with the tags that name its card and say where it stands.
    let page = get(addr, &format!("/watch/{code}"), &[]).await;
    assert_eq!(page.status, 200);
    let html = String::from_utf8(page.body.clone()).unwrap();
    let card_url = format!("http://{addr}/games/{code}/card.png");
    for tag in [
        format!("<meta property=\"og:image\" content=\"{card_url}\">"),
        "<meta property=\"og:image:width\" content=\"1200\">".to_owned(),
        "<meta name=\"twitter:card\" content=\"summary_large_image\">".to_owned(),
        "Chu · Bo to move".to_owned(),
    ] {
        assert!(html.contains(&tag), "{tag} not in {html}");
    }
    assert!(html.ends_with("</head><body></body></html>"), "{html}");
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    // The invitation's link says the same; a code that names no game, nothing.
    let join_page = get(addr, &format!("/join/{code}"), &[]).await;
    assert!(String::from_utf8_lossy(&join_page.body).contains(&card_url));
    let unknown = get(addr, "/watch/NO-SUCH-GAME", &[]).await;
    assert_eq!(
        (unknown.status, unknown.body.as_slice()),
        (200, INDEX.as_bytes())
    );

    // The card while the game goes on: kept a minute.
    let card = get(addr, &format!("/games/{code}/card.png"), &[]).await;
    assert_eq!(card.status, 200);
    assert_eq!(card.header("content-type"), Some("image/png"));
    assert_eq!(card.header("cache-control"), Some("public, max-age=60"));
    assert_eq!(png_size(&card.body), (1200, 630));
    // Its moves only once it is over.
    let early = get(addr, &format!("/games/{code}/moves.gif"), &[]).await;
    assert_eq!(early.status, 409);
    assert!(String::from_utf8_lossy(&early.body).contains("not over"));
    assert_eq!(
        get(addr, "/games/NO-SUCH-GAME/card.png", &[]).await.status,
        404
    );
    assert_eq!(
        get(addr, "/games/NO-SUCH-GAME/moves.gif", &[]).await.status,
        404
    );

    // Bo moves, Ann (Qin) answers with a computer's first move, Bo concedes: Qin wins.
    bo.play(|moves| moves[0]).await;
    let opened = ann.ask(Ask::Open { game: id }).await.unwrap();
    let mut ann_table = Table::new(ann, opened);
    ann_table.catch_up(1, PATIENCE, "Bo's move").await;
    ann_table.play(|moves| moves[0]).await;
    bo.catch_up(2, PATIENCE, "Qin's answer").await;
    bo.play(|_| Move::CONCEDE).await;
    assert!(bo.game.position().is_over());

    let gif = get(addr, &format!("/games/{code}/moves.gif"), &[]).await;
    assert_eq!(gif.status, 200);
    assert_eq!(gif.header("content-type"), Some("image/gif"));
    assert_eq!(gif.header("cache-control"), Some("public, max-age=86400"));
    assert!(gif.header("content-disposition").unwrap().contains(".gif"));
    // The start, two moves and the concession (Chu's army leaves): four frames.
    assert_eq!(gif_frames(&gif.body), ((608, 608), 4));
    let done = get(addr, &format!("/games/{code}/card.png"), &[]).await;
    assert_eq!(done.header("cache-control"), Some("public, max-age=86400"));
    assert_ne!(done.body, card.body, "the card shows the game's end");
    let after = String::from_utf8(get(addr, &format!("/watch/{code}"), &[]).await.body).unwrap();
    assert!(after.contains("Qin · Ann won"), "{after}");
}
