//! The page in a browser, measured (`cargo bench --bench page`): the bundle's size on disk and
//! as served, the time from opening the page to the first drawn board in headless Chromium
//! (cold, three fresh profiles, and once from the browser's cache), the search worker's answers
//! (its start, the six Medium searches of a round and Hard's depth in its move time, against
//! the same searches natively on one and on two cores), and a round of six Medium computers
//! played in the page's game. Figures and machine in `docs/performance.md`.
//!
//! `cargo bench --bench page -- phone` measures the start as a phone sees it instead: a
//! 390 × 844 screen, the DevTools protocol's CPU four times slower and a fast 4G connection
//! (9 Mbit/s down, 1.5 up, 60 ms), three cold loads: what was transferred, and when the board was
//! drawn.
//!
//! `cargo bench --bench page -- lighthouse [RUNS]` has Lighthouse (npm's `lighthouse`, pinned at
//! [`LIGHTHOUSE`], installed under the target directory with `npm` if missing) audit the page as
//! a phone, as an outside auditor sees it, RUNS times (1 unless told), each in a fresh profile:
//! each run's four scores, blocking time and time to interactive, their medians, the machine's
//! benchmark index as Lighthouse measured it (what its four-times-slower phone is four times
//! slower than), and for the last run every audit that failed and the longest tasks. Build the
//! bundle with `tools/build-web --release` to audit what players are served.
//!
//! `cargo bench --bench page -- frame` counts what the page's frames ask of WebGL2 (every draw
//! call and triangle, and the programs linked), frame by frame, from the welcome card through a
//! round of six Medium computers to the person's turn with the round's arrows on the board.
//!
//! `cargo bench --bench page -- search` measures the worker's search by the position: Hard at
//! [`SPEED_NODES`] positions from the four points of the game, in three rounds (the browser
//! compiles new wasm code again once it runs hot, so the first round is slower), positions a
//! second in the worker and natively on one core.
//!
//! `cargo bench --bench page -- memory [MINUTES]` plays a long game in the page and samples its
//! memory every 30 s for MINUTES minutes (60 unless told): *Play against the computer*, then
//! Qin given to a computer too (its *Played by* in the Kingdoms panel), seven computers playing; the wasm memory's size (`window.qiguoMemory`), the JavaScript heap in use
//! (`performance.memory`) and the moves played (the page's title).
//!
//! Needs the bundle (`QIGUO_WEB_BUNDLE`, or `$CARGO_TARGET_DIR/qiguo-web` where
//! `tools/build-web` puts it) and `chromium`; without them it says so and fails.

#[allow(dead_code)]
#[path = "../tests/browser/page.rs"]
mod page;

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{OPENING_PLIES, medium_move, mid_game};
use page::{Browser, Served};
use qiguo_ai::job::{SearchDone, SearchJob};
use qiguo_ai::{Engine, Level, TableSize};
use qiguo_rules::{Game, PlayerInfo, Record, Rules, Seats};
use serde_json::Value;

/// Fresh browsers the page is opened in, cold.
const COLD_LOADS: usize = 3;

/// The Lighthouse the page is audited with (the same version each time, so that scores compare).
const LIGHTHOUSE: &str = "12.2.3";

/// The worker's transposition table (`crates/qiguo-worker`'s, and the desktop game's).
const TABLE: TableSize = TableSize::entries_log2(17);

fn main() {
    let bundle = std::env::var_os("QIGUO_WEB_BUNDLE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR").map(|t| PathBuf::from(t).join("qiguo-web"))
        })
        .unwrap_or_else(|| PathBuf::from("target/qiguo-web"));
    if !bundle.join("index.html").is_file() {
        eprintln!(
            "no bundle in {}: run tools/build-web (or name one in QIGUO_WEB_BUNDLE)",
            bundle.display()
        );
        std::process::exit(2);
    }
    sizes(&bundle);
    if std::env::args().any(|a| a == "lighthouse") {
        let runs = std::env::args()
            .skip(1)
            .find_map(|a| a.parse().ok())
            .unwrap_or(1);
        lighthouse(&bundle, runs);
        return;
    }
    if std::env::args().any(|a| a == "memory") {
        let minutes = std::env::args()
            .skip(1)
            .find_map(|a| a.parse().ok())
            .unwrap_or(60);
        runtime().block_on(memory_in_the_page(&bundle, minutes));
        return;
    }
    if std::env::args().any(|a| a == "frame") {
        runtime().block_on(frames_in_webgl(&bundle));
        return;
    }
    if std::env::args().any(|a| a == "search") {
        runtime().block_on(search_speed(&bundle));
        return;
    }
    if std::env::args().any(|a| a == "phone") {
        runtime().block_on(as_a_phone(&bundle));
        return;
    }

    // The searches natively first: the browser's software renderer would take a core.
    let game = mid_game();
    let round = round_jobs(&game);
    let hard = hard_jobs(&game);
    println!("natively, after {OPENING_PLIES} moves (classic):");
    let medium_ms: f64 = round
        .iter()
        .map(|job| job.run(&mut Engine::new(TABLE)).elapsed_us as f64 / 1000.0)
        .sum();
    println!("  six Medium searches of a round: {medium_ms:.0} ms in all (one core)");
    for threads in [1, 2] {
        for job in &hard {
            let mut engine = Engine::new(TABLE);
            engine.set_threads(threads);
            let done = job.run(&mut engine);
            println!(
                "  Hard on {threads} core(s), {:>2} moves in: depth {}, {} nodes in {:.0} ms",
                job.record.moves.len(),
                done.depth,
                done.nodes,
                done.elapsed_us as f64 / 1000.0
            );
        }
    }

    runtime().block_on(in_the_browser(&bundle, &round, &hard));
}

/// The runtime the browser is driven from (two threads: the machine's two cores).
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// The bundle's files: raw, and the brotli and gzip copies the server sends.
fn sizes(bundle: &std::path::Path) {
    let size = |path: PathBuf| std::fs::metadata(path).map_or(0, |m| m.len());
    let mut names: Vec<String> = std::fs::read_dir(bundle)
        .expect("the bundle's folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| !n.ends_with(".br") && !n.ends_with(".gz"))
        .collect();
    names.sort();
    println!("the bundle ({}):", bundle.display());
    let (mut raw, mut br, mut gz) = (0, 0, 0);
    for name in &names {
        let r = size(bundle.join(name));
        let b = size(bundle.join(format!("{name}.br")));
        let g = size(bundle.join(format!("{name}.gz")));
        println!("  {name:<40} {:>10} {:>10} br {:>10} gz", r, b, g);
        raw += r;
        // A file without a compressed copy goes out as it is.
        br += if b > 0 { b } else { r };
        gz += if g > 0 { g } else { r };
    }
    let mb = |b: u64| b as f64 / 1e6;
    println!(
        "  in all: {:.2} MB, {:.2} MB as brotli, {:.2} MB as gzip",
        mb(raw),
        mb(br),
        mb(gz)
    );
}

/// A search job for the side to move in `game`.
fn job(game: &Game, level: Level, id: u64) -> SearchJob {
    SearchJob {
        id,
        record: Record::from_game(game, PlayerInfo::defaults(7)),
        level,
        movetime_ms: None,
        nodes: None,
        seed: game.len() as u64,
    }
}

/// Hard's searches at four points of the game: its start, and a third, two thirds and all of
/// the way to `game`.
fn hard_jobs(game: &Game) -> Vec<SearchJob> {
    let moves: Vec<_> = game.moves().collect();
    [0, OPENING_PLIES / 3, 2 * OPENING_PLIES / 3, moves.len()]
        .into_iter()
        .enumerate()
        .map(|(n, plies)| {
            let mut at = Game::new(game.start_position().clone());
            for &mv in &moves[..plies] {
                at.play(mv).expect("the game's own moves");
            }
            job(&at, Level::Hard, 100 + n as u64)
        })
        .collect()
}

/// The positions each of Hard's searches visits in `-- search`.
const SPEED_NODES: u64 = 100_000;

/// Hard's searches at [`SPEED_NODES`] positions, natively and in the worker: positions a second,
/// round by round.
async fn search_speed(bundle: &std::path::Path) {
    let mut jobs = hard_jobs(&mid_game());
    for job in &mut jobs {
        job.nodes = Some(SPEED_NODES);
    }
    let speed = |done: &[SearchDone]| {
        let nodes: u64 = done.iter().map(|d| d.nodes).sum();
        let us: u64 = done.iter().map(|d| d.elapsed_us).sum();
        (nodes, nodes as f64 / (us as f64 / 1e6))
    };
    println!("Hard at {SPEED_NODES} positions from 0, 28, 56 and 86 moves into a game:");
    for round in 1..=3 {
        let done: Vec<SearchDone> = jobs
            .iter()
            .map(|j| j.run(&mut Engine::new(TABLE)))
            .collect();
        let (nodes, per_second) = speed(&done);
        println!(
            "  natively, one core, round {round}: {nodes} positions, {per_second:.0} a second"
        );
    }
    let server = Served::start(bundle);
    let mut browser = Browser::open().await;
    browser.visit(&format!("{}/", server.http)).await;
    browser.wait_for_board().await;
    let texts: Vec<String> = jobs.iter().map(SearchJob::to_json).collect();
    let script = format!(
        "(async (jobs) => {{
            const worker = new Worker('/worker.js', {{ type: 'module' }});
            const rounds = [];
            for (let round = 0; round < 3; round++) {{
                const answers = [];
                for (const job of jobs) {{
                    answers.push(await new Promise((done) => {{
                        worker.onmessage = (e) => done(e.data);
                        worker.postMessage(job);
                    }}));
                }}
                rounds.push(answers);
            }}
            worker.terminate();
            return rounds;
        }})({})",
        serde_json::to_string(&texts).expect("JSON")
    );
    let rounds = browser.eval_promise(&script).await;
    for (round, answers) in rounds.as_array().expect("the rounds").iter().enumerate() {
        let done: Vec<SearchDone> = answers
            .as_array()
            .expect("the answers")
            .iter()
            .map(|a| {
                SearchDone::from_json(a.as_str().unwrap_or_default())
                    .expect("the worker answers a SearchDone")
            })
            .collect();
        let (nodes, per_second) = speed(&done);
        println!(
            "  in the worker, round {}: {nodes} positions, {per_second:.0} a second",
            round + 1
        );
    }
    browser.close().await;
}

/// The six Medium searches of a round after Qin's move in `game`.
fn round_jobs(game: &Game) -> Vec<SearchJob> {
    let mut game = game.clone();
    game.play(medium_move(&game)).expect("Qin's move");
    (0..6)
        .map(|n| {
            let job = job(&game, Level::Medium, n + 1);
            game.play(medium_move(&game)).expect("the computer's move");
            job
        })
        .collect()
}

async fn in_the_browser(bundle: &std::path::Path, round: &[SearchJob], hard: &[SearchJob]) {
    let server = Served::start(bundle);
    let page = format!("{}/", server.http);

    println!("the page in headless Chromium (SwiftShader), served on loopback:");
    let mut drawn = Vec::new();
    for n in 0..COLD_LOADS {
        let mut browser = Browser::open().await;
        browser.visit(&page).await;
        drawn.push(browser.wait_for_board().await);
        let sent = loaded(&mut browser).await;
        if n == 0 {
            report_transfer(&sent);
            // Again, from the browser's cache.
            browser.visit("about:blank").await;
            browser.visit(&page).await;
            let warm = browser.wait_for_board().await;
            println!("  the board drawn again from the browser's cache: {warm} ms");
            worker(&mut browser, round, hard).await;
        }
        browser.close().await;
    }
    println!(
        "  the board drawn after opening the page, cold: {} ms",
        listed(&drawn)
    );

    let mut browser = Browser::open().await;
    played_round(&mut browser, &page).await;
    browser.close().await;
}

/// Cold loads as a phone on a fast 4G connection: the transfer, and the board drawn.
async fn as_a_phone(bundle: &std::path::Path) {
    let server = Served::start(bundle);
    let page = format!("{}/", server.http);
    println!("the page as a phone (390 x 844, CPU 4x slower, 9 Mbit/s, 60 ms), cold:");
    // The progress bar, a third of the way, on the phone's connection (a picture to look at;
    // taken without the slower CPU, under which Chromium draws no picture while it compiles).
    let mut browser = Browser::open_sized(390, 844).await;
    browser.throttle(1.0, 9_000_000, 1_500_000, 60.0).await;
    browser.visit(&page).await;
    let start = Instant::now();
    while start.elapsed() < page::PATIENCE {
        let part = browser
            .eval("Number(document.getElementById('progress')?.value ?? 0)")
            .await;
        if part.as_f64().is_some_and(|p| (0.33..1.0).contains(&p)) {
            browser.screenshot("phone-loading").await;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    browser.close().await;
    let mut drawn = Vec::new();
    for n in 0..COLD_LOADS {
        let mut browser = Browser::open_sized(390, 844).await;
        browser.throttle(4.0, 9_000_000, 1_500_000, 60.0).await;
        browser.visit(&page).await;
        drawn.push(browser.wait_for_board().await);
        report_start(&mut browser).await;
        if n == 0 {
            report_transfer(&loaded(&mut browser).await);
        }
        browser.close().await;
    }
    println!(
        "  the board drawn after opening the page: {} ms",
        listed(&drawn)
    );
}

/// Counts WebGL2's draw calls, triangles and linked programs, and keeps each frame's (the work
/// done in one animation frame's callback, where the game draws), installed before the page's
/// own scripts run.
const COUNT_WEBGL: &str = r#"(() => {
  const gl = WebGL2RenderingContext.prototype;
  const c = (window.__webgl = { draws: 0, triangles: 0, programs: 0, frames: [] });
  const count = {
    drawArrays: (a) => [a[0], a[2], 1],
    drawElements: (a) => [a[0], a[1], 1],
    drawRangeElements: (a) => [a[0], a[3], 1],
    drawArraysInstanced: (a) => [a[0], a[2], a[3]],
    drawElementsInstanced: (a) => [a[0], a[1], a[4]],
  };
  for (const [name, shape] of Object.entries(count)) {
    const real = gl[name];
    gl[name] = function (...args) {
      const [mode, n, instances] = shape(args);
      c.draws += 1;
      if (mode === 4) c.triangles += Math.floor(n / 3) * instances;
      return real.apply(this, args);
    };
  }
  const link = gl.linkProgram;
  gl.linkProgram = function (program) {
    c.programs += 1;
    return link.call(this, program);
  };
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    raf((time) => {
      const [draws, triangles, programs] = [c.draws, c.triangles, c.programs];
      const out = callback(time);
      if (c.draws > draws) {
        c.frames.push([c.draws - draws, c.triangles - triangles, c.programs - programs]);
      }
      return out;
    });
})()"#;

/// The page's frames in WebGL2: the welcome card, a round of six Medium computers after Qin's
/// move, and Qin's turn with the round's arrows; draw calls, triangles and programs per frame.
async fn frames_in_webgl(bundle: &std::path::Path) {
    let server = Served::start(bundle);
    let mut browser = Browser::open().await;
    browser.before_each_page(COUNT_WEBGL).await;
    browser.visit(&format!("{}/", server.http)).await;
    browser.wait_for_board().await;
    browser.wait_for_rest(Duration::from_secs(2)).await;
    let frames = |all: &Value, from: usize| -> Vec<[u64; 3]> {
        all["frames"]
            .as_array()
            .into_iter()
            .flatten()
            .skip(from)
            .map(|f| [0, 1, 2].map(|i| f[i].as_u64().unwrap_or(0)))
            .collect()
    };
    let counted = browser.eval("window.__webgl").await;
    report_webgl("the start, the welcome card", &frames(&counted, 0));
    let seen = frames(&counted, 0).len();
    browser.play_against_medium_computers().await;
    browser
        .eval("document.getElementById('qiguo').focus()")
        .await;
    browser.press("F6", 117).await;
    let start = Game::start(Rules::default(), Seats::default());
    let qin = start.position().legal_moves()[0];
    browser
        .type_text(&format!(
            "{qin}
"
        ))
        .await;
    browser
        .wait_for_words_as_told("Your move, Qin: move 8.")
        .await;
    browser.wait_for_rest(Duration::from_secs(2)).await;
    let counted = browser.eval("window.__webgl").await;
    let round = frames(&counted, seen);
    report_webgl("a round of six computers to Qin's turn", &round);
    if let Some(last) = round.last() {
        println!(
            "  Qin's turn, the round's six arrows shown: {} draw calls, {} triangles",
            last[0], last[1]
        );
    }
    println!(
        "  programs linked in all: {}",
        counted["programs"].as_u64().unwrap_or(0)
    );
    browser.screenshot("webgl-frame").await;
    browser.close().await;
}

/// Where Qin's *Played by* list is in the Kingdoms panel of a 1280 × 720 page.
const QIN_PLAYED_BY: (i64, i64) = (1010, 170);
/// How far below it *Medium* is in the list it opens (seen in `memory-played-by.png`: Person,
/// Easy, Medium and Hard 22 px apart under the box).
const MEDIUM_BELOW: i64 = 69;

/// The page's memory through a long game of seven computers, sampled every 30 s.
async fn memory_in_the_page(bundle: &std::path::Path, minutes: u64) {
    let server = Served::start(bundle);
    let mut browser = Browser::open().await;
    browser.visit(&format!("{}/", server.http)).await;
    browser.wait_for_board().await;
    browser.play_against_medium_computers().await;
    // Qin's *Played by* in the Kingdoms panel, and Medium in its list.
    browser.click_at(QIN_PLAYED_BY.0, QIN_PLAYED_BY.1).await;
    browser.wait_frames(2).await;
    browser.wait_until_settled().await;
    browser.screenshot("memory-played-by").await;
    browser
        .click_at(QIN_PLAYED_BY.0, QIN_PLAYED_BY.1 + MEDIUM_BELOW)
        .await;
    // Seven computers play from here: the board does not settle again, and the title moves on
    // from Qin's turn.
    let waiting = browser.title().await;
    let start = Instant::now();
    while browser.title().await == waiting {
        assert!(
            start.elapsed() < page::PATIENCE,
            "Qin's computer never moved: the title says {waiting:?}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    browser.screenshot("memory-seven-computers").await;
    println!("the page (1280 x 720, SwiftShader), seven Medium computers, for {minutes} minutes:");
    println!("  minute  wasm memory  JS heap used  title");
    let start = Instant::now();
    let mut samples = Vec::new();
    while start.elapsed() < Duration::from_secs(minutes * 60) {
        tokio::time::sleep(Duration::from_secs(30)).await;
        let read = browser
            .eval(
                "[window.qiguoMemory ? window.qiguoMemory.buffer.byteLength : 0,                   performance.memory ? performance.memory.usedJSHeapSize : 0, document.title]",
            )
            .await;
        let wasm = read[0].as_f64().unwrap_or(0.0) / 1048576.0;
        let heap = read[1].as_f64().unwrap_or(0.0) / 1048576.0;
        let minute = start.elapsed().as_secs_f64() / 60.0;
        let title = read[2].as_str().unwrap_or("").to_owned();
        println!("  {minute:>6.1}  {wasm:>7.1} MiB  {heap:>8.1} MiB  {title}");
        samples.push((minute, wasm, heap));
    }
    let at_five = samples.iter().find(|s| s.0 >= 5.0).or(samples.first());
    if let (Some(five), Some(end)) = (at_five, samples.last()) {
        println!(
            "after {:.1} min: wasm {:.1} MiB, JS heap {:.1} MiB; after {:.1} min: wasm {:.1} MiB ({:+.1}), JS heap {:.1} MiB ({:+.1})",
            five.0,
            five.1,
            five.2,
            end.0,
            end.1,
            end.1 - five.1,
            end.2,
            end.2 - five.2
        );
    }
    browser.screenshot("memory-end").await;
    browser.close().await;
}

/// One stretch's frames: draw calls and triangles per frame, and programs linked in them.
fn report_webgl(what: &str, frames: &[[u64; 3]]) {
    let n = frames.len().max(1) as f64;
    let mean = |i: usize| frames.iter().map(|f| f[i] as f64).sum::<f64>() / n;
    let max = |i: usize| frames.iter().map(|f| f[i]).max().unwrap_or(0);
    println!(
        "{what}: {} frames; draw calls mean {:.1}, max {}; triangles mean {:.0}, max {}; programs linked {}",
        frames.len(),
        mean(0),
        max(0),
        mean(1),
        max(1),
        frames.iter().map(|f| f[2]).sum::<u64>()
    );
}

/// Where one start went: the game's wasm received, its `main` entered (compiled and
/// instantiated), and the start of each frame before the board was drawn, in milliseconds since
/// the page opened.
async fn report_start(browser: &mut Browser) {
    let marks = browser
        .eval(
            "[performance.getEntriesByType('resource')\
              .filter(e => /qiguo-.*\\.wasm$/.test(e.name)).map(e => Math.round(e.responseEnd))[0],\
             document.body.dataset.runMs, document.body.dataset.framesMs,\
             document.body.dataset.boardDrawnMs]",
        )
        .await;
    println!(
        "  wasm received {} ms, main entered {} ms, frames began {} ms, board drawn {} ms",
        marks[0], marks[1], marks[2], marks[3]
    );
}

/// The page's files loaded so far: name, bytes transferred, bytes decoded.
async fn loaded(browser: &mut Browser) -> Value {
    browser
        .eval(
            "performance.getEntriesByType('navigation')\
             .concat(performance.getEntriesByType('resource'))\
             .map(e => [e.name.split('/').pop() || '/', e.transferSize, e.decodedBodySize])",
        )
        .await
}

/// Milliseconds, listed.
fn listed(ms: &[u64]) -> String {
    ms.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// What the page's own load transferred, file by file (the worker's files come when the first
/// search starts, and are counted in the bundle's sizes).
fn report_transfer(sent: &Value) {
    let mut total = 0.0;
    for entry in sent.as_array().into_iter().flatten() {
        let name = entry[0].as_str().unwrap_or("?");
        let bytes = entry[1].as_f64().unwrap_or(0.0);
        let body = entry[2].as_f64().unwrap_or(0.0);
        total += bytes;
        println!("  loaded {name:<40} {bytes:>10.0} transferred {body:>10.0} decoded");
    }
    println!("  the page's load transferred {:.2} MB in all", total / 1e6);
}

/// The search worker, as the game starts it: its first answer (the worker's wasm loaded and
/// started), the six Medium searches of a round, and Hard in its move time.
async fn worker(browser: &mut Browser, round: &[SearchJob], hard: &[SearchJob]) {
    let mut warm_up = round[0].clone();
    warm_up.level = Level::Random;
    warm_up.id = 99;
    let mut jobs = vec![warm_up];
    jobs.extend(round.iter().cloned());
    jobs.extend(hard.iter().cloned());
    let jobs: Vec<String> = jobs.iter().map(SearchJob::to_json).collect();
    let script = format!(
        "(async (jobs) => {{
            const started = performance.now();
            const worker = new Worker('/worker.js', {{ type: 'module' }});
            const answers = [];
            for (const job of jobs) {{
                const asked = performance.now();
                const answer = await new Promise((done) => {{
                    worker.onmessage = (e) => done(e.data);
                    worker.postMessage(job);
                }});
                answers.push([performance.now() - asked, answer]);
            }}
            worker.terminate();
            return [performance.now() - started, answers];
        }})({})",
        serde_json::to_string(&jobs).expect("JSON")
    );
    let found = browser.eval_promise(&script).await;
    let answers = found[1].as_array().expect("the answers");
    let answer = |i: usize| {
        let ms = answers[i][0].as_f64().unwrap_or(0.0);
        let done = SearchDone::from_json(answers[i][1].as_str().unwrap_or_default())
            .expect("the worker answers a SearchDone");
        assert!(done.error.is_none(), "the worker failed: {:?}", done.error);
        (ms, done)
    };
    println!(
        "  the worker's first answer (its wasm loaded and started): {:.0} ms",
        answer(0).0
    );
    let (mut asked, mut searched) = (0.0, 0.0);
    for i in 1..=round.len() {
        let (ms, done) = answer(i);
        asked += ms;
        searched += done.elapsed_us as f64 / 1000.0;
    }
    println!(
        "  six Medium searches of a round in the worker: {asked:.0} ms asked to answered \
         ({searched:.0} ms searching)"
    );
    for (n, job) in hard.iter().enumerate() {
        let (ms, done) = answer(round.len() + 1 + n);
        println!(
            "  Hard in the worker, {:>2} moves in: depth {}, {} nodes in {:.0} ms \
             ({ms:.0} ms asked to answered)",
            job.record.moves.len(),
            done.depth,
            done.nodes,
            done.elapsed_us as f64 / 1000.0
        );
    }
}

/// A round of six Medium computers in the page's game: *Play against the computer* at Medium
/// from the welcome card, Qin's move typed in the move box, and the page's own count of the
/// time its computers searched (`<body data-computers-searched-ms>`).
async fn played_round(browser: &mut Browser, page: &str) {
    browser.visit(page).await;
    browser.wait_for_board().await;
    browser.wait_frames(5).await;
    browser.play_against_medium_computers().await;
    let start = Game::start(Rules::default(), Seats::default());
    let mv = medium_move(&start).to_string();
    browser.type_move(&mv).await;
    let asked = Instant::now();
    browser
        .wait_for_title("move 8", Duration::from_secs(300))
        .await;
    let searched = browser.computers_searched_ms().await;
    println!(
        "  a round of six Medium computers in the game (from the start, at the calm pace): \
         {:.1} s from Qin's move ({mv}), {} ms of it searching",
        asked.elapsed().as_secs_f64(),
        searched.map_or("?".to_owned(), |ms| ms.to_string())
    );
    browser.screenshot("round").await;
}

/// Lighthouse's audits of the page as a phone (its default: a mid-range phone's screen, its CPU
/// four times slower and a slow 4G connection, simulated), `runs` times, each in a fresh profile.
fn lighthouse(bundle: &std::path::Path, runs: usize) {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    let home = target.join("lighthouse");
    let tool = home.join("node_modules/.bin/lighthouse");
    let installed = std::fs::read_to_string(home.join("node_modules/lighthouse/package.json"))
        .ok()
        .and_then(|json| serde_json::from_str::<Value>(&json).ok())
        .is_some_and(|json| json["version"] == LIGHTHOUSE);
    if !installed {
        std::fs::create_dir_all(&home).expect("a directory for Lighthouse");
        let status = std::process::Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&home)
            .arg(format!("lighthouse@{LIGHTHOUSE}"))
            .status()
            .expect("npm (apt-get install npm) installs Lighthouse");
        assert!(
            status.success(),
            "npm could not install Lighthouse {LIGHTHOUSE}"
        );
    }
    let server = Served::start(bundle);
    let chromium = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            std::process::Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect("chromium (apt-get install chromium)");
    let mut reports = Vec::new();
    for run in 1..=runs.max(1) {
        let report = home.join(format!("report-{run}.json"));
        let status = std::process::Command::new(&tool)
            .arg(format!("{}/", server.http))
            .args([
                "--quiet",
                "--output=json",
                "--only-categories=performance,accessibility,best-practices,seo",
                // The page's GPU is Chromium's software one here, as in the browser tests.
                "--chrome-flags=--headless=new --no-sandbox --enable-unsafe-swiftshader \
                 --use-angle=swiftshader",
            ])
            .arg(format!("--output-path={}", report.display()))
            .env("CHROME_PATH", which(chromium))
            .status()
            .expect("Lighthouse runs");
        assert!(status.success(), "Lighthouse failed");
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("Lighthouse's report"))
                .expect("Lighthouse's report is JSON");
        if run == 1 {
            println!(
                "Lighthouse {} on {} as a phone ({}), its CPU {}x slower:",
                json["lighthouseVersion"].as_str().unwrap_or("?"),
                json["requestedUrl"].as_str().unwrap_or("?"),
                json["environment"]["hostUserAgent"].as_str().unwrap_or("?"),
                json["configSettings"]["throttling"]["cpuSlowdownMultiplier"]
                    .as_f64()
                    .unwrap_or(f64::NAN)
            );
        }
        let score = |category: &str| {
            json["categories"][category]["score"]
                .as_f64()
                .map_or("-".to_owned(), |s| format!("{:.0}", s * 100.0))
        };
        let ms = |audit: &str| json["audits"][audit]["numericValue"].as_f64();
        println!(
            "  run {run}: performance {}, accessibility {}, best practices {}, SEO {}; \
             blocking {:.1} s, interactive {:.1} s, first paint {:.1} s; benchmark index {:.0}",
            score("performance"),
            score("accessibility"),
            score("best-practices"),
            score("seo"),
            ms("total-blocking-time").unwrap_or(f64::NAN) / 1000.0,
            ms("interactive").unwrap_or(f64::NAN) / 1000.0,
            ms("first-contentful-paint").unwrap_or(f64::NAN) / 1000.0,
            json["environment"]["benchmarkIndex"]
                .as_f64()
                .unwrap_or(f64::NAN)
        );
        reports.push((report, json));
    }
    let median = |audit: &str| {
        let mut values: Vec<f64> = reports
            .iter()
            .filter_map(|(_, json)| json["audits"][audit]["numericValue"].as_f64())
            .collect();
        values.sort_by(f64::total_cmp);
        match values.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => values[n / 2],
            n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
        }
    };
    println!(
        "  median of {} run(s): blocking {:.1} s, interactive {:.1} s",
        reports.len(),
        median("total-blocking-time") / 1000.0,
        median("interactive") / 1000.0
    );
    let (report, json) = reports.last().expect("at least one run");
    for audit in [
        "largest-contentful-paint",
        "speed-index",
        "cumulative-layout-shift",
    ] {
        println!(
            "  {audit}: {}",
            json["audits"][audit]["displayValue"]
                .as_str()
                .unwrap_or("-")
        );
    }
    let failed: Vec<String> = json["audits"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, audit)| {
            audit["score"].as_f64().is_some_and(|s| s < 0.9)
                && audit["scoreDisplayMode"] == "binary"
                || audit["scoreDisplayMode"] == "numeric"
                    && audit["score"].as_f64().is_some_and(|s| s < 0.5)
        })
        .map(|(id, audit)| format!("{id}: {}", audit["title"].as_str().unwrap_or("")))
        .collect();
    println!("  audits failed: {}", failed.len());
    for line in failed {
        println!("    {line}");
    }
    // Where the blocking time comes from: the main thread's long tasks (their start and length
    // as Lighthouse gives them, its phone's slower CPU counted) and its work by kind.
    let tasks = json["audits"]["long-tasks"]["details"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    println!("  long tasks: {}", tasks.len());
    for task in tasks.iter().take(12) {
        println!(
            "    at {:>6.0} ms, {:>5.0} ms: {}",
            task["startTime"].as_f64().unwrap_or(f64::NAN),
            task["duration"].as_f64().unwrap_or(f64::NAN),
            task["url"].as_str().unwrap_or("?")
        );
    }
    let work = json["audits"]["mainthread-work-breakdown"]["details"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let work: Vec<String> = work
        .iter()
        .map(|kind| {
            format!(
                "{} {:.0} ms",
                kind["groupLabel"].as_str().unwrap_or("?"),
                kind["duration"].as_f64().unwrap_or(f64::NAN)
            )
        })
        .collect();
    println!("  main-thread work: {}", work.join(", "));
    println!("  the last report: {}", report.display());
}

/// The path of a program found on `PATH`.
fn which(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}
