//! The browser test's parts: the server serving the bundle, Chromium driven over the DevTools
//! protocol, and the game's command line.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use futures_util::{SinkExt, StreamExt};
use qiguo_testkit::TempDir;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// The name of the region of the page's document that holds the game's windows as they read
/// (`reader-windows` in English).
pub const WINDOWS_REGION: &str = "The game's windows, as they read";

/// The longest the test waits for what it expects of the page (a board drawn, a title, a
/// notification): time enough for a machine busy with a build beside the test; a wait returns
/// as soon as its thing is there.
pub const PATIENCE: Duration = Duration::from_secs(120);
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The bundle the tests were built against.
pub fn bundle() -> PathBuf {
    match option_env!("QIGUO_WEB_BUNDLE") {
        Some(dir) => PathBuf::from(dir),
        None => panic!("the browser test runs only when built with QIGUO_WEB_BUNDLE"),
    }
}

/// Where the screenshots are kept for people to look at.
pub fn shots_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows where it is");
    // target/release/deps/browser-… → target/browser-shots
    let target = exe.ancestors().nth(3).unwrap_or(Path::new("."));
    let dir = target.join("browser-shots");
    std::fs::create_dir_all(&dir).expect("the screenshots' folder");
    dir
}

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `qiguo-server --web BUNDLE` on loopback, with a database of its own.
pub struct Served {
    /// A turn among the tests' pages (see [`TESTS_AT_ONCE`]); held as long as the server.
    _turn: Turn,
    server: Killed,
    dir: TempDir,
    /// Its log, line by line.
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// `http://127.0.0.1:PORT`.
    pub http: String,
    /// `ws://127.0.0.1:PORT`.
    pub ws: String,
}

/// How many tests' pages are open at once. The pages draw through Chromium's software
/// renderer, which takes every core the machine has while a page draws: when every page drew
/// all the time, two tests at once on two cores made each frame take twice as long and a step
/// that waits for frames ran out of patience, and the tests took turns. Now a page draws only
/// when something changes, a frame without a GPU has a quarter of a phone's pixels and cheaper
/// shadows, and much of a test is a page starting, a server answering, or a wait: two tests
/// share the machine (docs/performance.md).
const TESTS_AT_ONCE: usize = 2;

/// The tests whose pages are open now.
static OPEN: (std::sync::Mutex<usize>, std::sync::Condvar) =
    (std::sync::Mutex::new(0), std::sync::Condvar::new());

/// A test's turn to open pages, until dropped.
struct Turn;

impl Turn {
    fn take() -> Turn {
        let (open, freed) = &OPEN;
        // A test that failed still lets the next one have its turn.
        let mut open = open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while *open >= TESTS_AT_ONCE {
            open = freed
                .wait(open)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *open += 1;
        Turn
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let (open, freed) = &OPEN;
        let mut open = open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *open -= 1;
        freed.notify_one();
    }
}

impl Served {
    /// Starts the server beside the game's binary, serving the page from `bundle` — once fewer
    /// than [`TESTS_AT_ONCE`] tests have pages open.
    pub fn start(bundle: &Path) -> Served {
        let turn = Turn::take();
        let dir = TempDir::new("qiguo-browser");
        let server = Path::new(env!("CARGO_BIN_EXE_qiguo")).with_file_name("qiguo-server");
        let db = format!("sqlite://{}", dir.path().join("server.sqlite").display());
        let mut child = Command::new(&server)
            .args(["--port", "0", "--db", &db, "--web"])
            .arg(bundle)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", server.display()));
        // The URL from the line saying where it listens; the rest of its log is kept (read as
        // it comes, so that it never blocks on a full pipe).
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = log.clone();
        let ws = qiguo_testkit::wait_for_line(
            child.stdout.take().expect("its output"),
            PATIENCE,
            "the server saying where it listens",
            qiguo_testkit::listening_url,
            move |line| kept.lock().unwrap().push(line.to_owned()),
        );
        let http = ws.replacen("ws://", "http://", 1);
        Served {
            _turn: turn,
            server: Killed(child),
            dir,
            log,
            http,
            ws,
        }
    }

    /// Stops the server: its address refuses connections from now on (the page's network is
    /// gone, as far as the page can tell).
    pub fn stop(&mut self) {
        let _ = self.server.0.kill();
        let _ = self.server.0.wait();
    }

    /// The last `n` lines of the server's log (to tell what it did when a test fails).
    pub fn last_log(&self, n: usize) -> String {
        let log = self.log.lock().unwrap();
        log[log.len().saturating_sub(n)..].join("\n")
    }

    /// How many lines of the server's log hold every one of `parts`.
    pub fn logged(&self, parts: &[&str]) -> usize {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|line| parts.iter().all(|p| line.contains(p)))
            .count()
    }

    /// The server's database.
    pub fn db(&self) -> String {
        format!(
            "sqlite://{}",
            self.dir.path().join("server.sqlite").display()
        )
    }

    /// A data directory of one command-line player.
    pub fn player_dir(&self, name: &str) -> PathBuf {
        let dir = self.dir.path().join(name);
        std::fs::create_dir_all(&dir).expect("a player's folder");
        dir
    }
}

/// `qiguo online --server WS --name NAME ARGS…` as the player whose data is in `dir`: its
/// output.
pub fn qiguo_online(ws: &str, dir: &Path, name: &str, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_qiguo"))
        .args(["online", "--server", ws, "--name", name])
        .args(args)
        .env("QIGUO_DATA_DIR", dir)
        .output()
        .expect("qiguo runs");
    assert!(
        out.status.success(),
        "qiguo online {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("text")
}

/// Calls `f` until it gives something, for at most `within`.
pub fn poll<T>(within: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(found) = f() {
            return found;
        }
        assert!(start.elapsed() < within, "not within {within:?}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Headless Chromium, driven over the DevTools protocol: one page, its viewport 1280×720.
pub struct Browser {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    /// The events the browser sent while a command waited for its answer, oldest first.
    events: Vec<Value>,
    _chromium: Killed,
    _profile: TempDir,
}

impl Browser {
    /// Starts Chromium (headless, WebGL2 through SwiftShader) with a fresh profile, and
    /// attaches to a new page.
    pub async fn open() -> Browser {
        Browser::open_sized(1280, 720).await
    }

    /// [`Browser::open`] with a page of `width` × `height` CSS pixels (a phone's: 390 × 844).
    pub async fn open_sized(width: u32, height: u32) -> Browser {
        Browser::launch(width, height, None).await
    }

    /// A phone (or tablet) held upright: a page of `width` × `height` CSS pixels drawn at
    /// `ratio` device pixels to the CSS pixel (a real ratio, as a phone's screen has, not the
    /// DevTools protocol's emulated one, which Bevy does not follow: bevy #24325), touch
    /// events, and Android's Chrome's name.
    pub async fn open_phone(width: u32, height: u32, ratio: f64) -> Browser {
        Browser::launch(width, height, Some(ratio)).await
    }

    async fn launch(width: u32, height: u32, phone_ratio: Option<f64>) -> Browser {
        let profile = TempDir::new("qiguo-chromium");
        let mut chromium = Command::new("chromium");
        chromium
            .args([
                "--headless=new",
                "--no-sandbox",
                "--no-first-run",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
                "--enable-unsafe-swiftshader",
                "--use-angle=swiftshader",
                "--lang=en-US",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()));
        if let Some(ratio) = phone_ratio {
            chromium
                .arg(format!("--force-device-scale-factor={ratio}"))
                .arg("--touch-events=enabled");
        }
        let mut chromium = chromium
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = chromium.stderr.take().expect("its messages");
        let mut lines = BufReader::new(stderr).lines();
        let url = loop {
            let line = lines
                .next()
                .expect("chromium says where its DevTools listen")
                .expect("text");
            if let Some(at) = line.find("ws://") {
                break line[at..].trim().to_owned();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        let (socket, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("the DevTools socket");
        let mut browser = Browser {
            socket,
            session: String::new(),
            next_id: 1,
            events: Vec::new(),
            _chromium: Killed(chromium),
            _profile: profile,
        };
        let target = browser
            .call("Target.createTarget", json!({ "url": "about:blank" }))
            .await;
        let target = target["targetId"].as_str().expect("a page").to_owned();
        let attached = browser
            .call(
                "Target.attachToTarget",
                json!({ "targetId": target, "flatten": true }),
            )
            .await;
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_owned();
        browser.call("Page.enable", json!({})).await;
        browser
            .call(
                "Emulation.setDeviceMetricsOverride",
                json!({
                    "width": width,
                    "height": height,
                    // 0: the screen's own ratio (forced above for a phone).
                    "deviceScaleFactor": if phone_ratio.is_some() { 0 } else { 1 },
                    "mobile": width < 600 || phone_ratio.is_some(),
                }),
            )
            .await;
        if phone_ratio.is_some() {
            browser
                .call(
                    "Emulation.setTouchEmulationEnabled",
                    json!({ "enabled": true, "maxTouchPoints": 5 }),
                )
                .await;
            browser
                .call(
                    "Emulation.setUserAgentOverride",
                    json!({
                        "userAgent": "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 \
                                      (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36",
                        "platform": "Android",
                    }),
                )
                .await;
        }
        browser
    }

    /// The page as a screen reader reads it: Chromium's accessibility tree, each node that is
    /// not ignored as its role and its name. With `windows`, only what stands in the
    /// document's copy of the game's windows (the region named [`WINDOWS_REGION`]); without,
    /// everything else (what is said, the field, the status, the moves): a window's text may
    /// hold the same words as what is said, and a test waiting for the one must not take the
    /// other.
    #[allow(dead_code)]
    pub async fn accessibility_tree(&mut self, windows: bool) -> Vec<(String, String)> {
        self.call("Accessibility.enable", json!({})).await;
        let tree = self.call("Accessibility.getFullAXTree", json!({})).await;
        let nodes = tree["nodes"].as_array().cloned().unwrap_or_default();
        let text =
            |node: &Value, field: &str| node[field]["value"].as_str().unwrap_or("").to_owned();
        let parents: std::collections::HashMap<String, String> = nodes
            .iter()
            .filter_map(|node| {
                Some((
                    node["nodeId"].as_str()?.to_owned(),
                    node["parentId"].as_str()?.to_owned(),
                ))
            })
            .collect();
        let region: Option<String> = nodes
            .iter()
            .find(|node| text(node, "role") == "region" && text(node, "name") == WINDOWS_REGION)
            .and_then(|node| node["nodeId"].as_str().map(str::to_owned));
        let within = |id: &str| {
            let mut at = Some(id.to_owned());
            while let Some(id) = at {
                if Some(&id) == region.as_ref() {
                    return true;
                }
                at = parents.get(&id).cloned();
            }
            false
        };
        nodes
            .iter()
            .filter(|node| node["ignored"] != json!(true))
            .filter(|node| within(node["nodeId"].as_str().unwrap_or_default()) == windows)
            .map(|node| (text(node, "role"), text(node, "name")))
            .collect()
    }

    /// A key pressed and let go that types nothing (F6, Escape, Tab), with the code a
    /// keyboard sends for it.
    #[allow(dead_code)]
    pub async fn press(&mut self, key: &str, virtual_code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key,
                        "windowsVirtualKeyCode": virtual_code }),
            )
            .await;
        }
    }

    /// Waits until the accessibility tree, outside the game's windows, has a node whose name
    /// contains `words`: that tree.
    #[allow(dead_code)]
    pub async fn wait_for_words(&mut self, words: &str) -> Vec<(String, String)> {
        self.wait_for_words_in(words, false).await
    }

    /// Waits until the document's copy of the game's windows has a node whose name contains
    /// `words`: that part of the tree.
    #[allow(dead_code)]
    pub async fn wait_for_window_words(&mut self, words: &str) -> Vec<(String, String)> {
        self.wait_for_words_in(words, true).await
    }

    /// [`Browser::wait_for_words`] while the page keeps telling something new (a round of
    /// computers' moves told one by one): the patience counts from the tree's last change, so
    /// slow frames (two software-rendered pages on two busy cores) are waited for and a page
    /// that stops is not; at most four times [`PATIENCE`] in all.
    #[allow(dead_code)]
    pub async fn wait_for_words_as_told(&mut self, words: &str) -> Vec<(String, String)> {
        let start = Instant::now();
        let mut told = Vec::new();
        let mut since = Instant::now();
        loop {
            let tree = self.accessibility_tree(false).await;
            if tree.iter().any(|(_, name)| name.contains(words)) {
                return tree;
            }
            if tree != told {
                (told, since) = (tree, Instant::now());
            }
            if since.elapsed() >= PATIENCE || start.elapsed() >= 4 * PATIENCE {
                self.no_words(words, &told).await;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    async fn wait_for_words_in(&mut self, words: &str, windows: bool) -> Vec<(String, String)> {
        let start = Instant::now();
        loop {
            let tree = self.accessibility_tree(windows).await;
            if tree.iter().any(|(_, name)| name.contains(words)) {
                return tree;
            }
            if start.elapsed() >= PATIENCE {
                self.no_words(words, &tree).await;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// Fails: no node said `words` (`tree` is what the page had), with what the page logged
    /// last where it was recorded ([`Browser::record_console`]).
    async fn no_words(&mut self, words: &str, tree: &[(String, String)]) -> ! {
        panic!(
            "no node said {words:?} in time: {tree:?}\nthe page's last log lines:\n{}",
            self.last_logged(60).await
        );
    }

    /// The last `lines` the page logged since [`Browser::record_console`], a line each.
    pub async fn last_logged(&mut self, lines: usize) -> String {
        let logged = self.console("").await;
        logged[logged.len().saturating_sub(lines)..].join("\n")
    }

    /// A phone's screen of `width` × `height` CSS pixels from now on: as its keyboard rising
    /// leaves it (the page's viewport says `interactive-widget=resizes-content`, so a phone
    /// shrinks the page rather than covering it), and as it falling gives it back.
    #[allow(dead_code)]
    pub async fn phone_screen(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 0, "mobile": true }),
        )
        .await;
    }

    /// Fingers on the page: a touch event (`touchStart`, `touchMove`, `touchEnd`) with the
    /// fingers down at these CSS pixels.
    pub async fn touch(&mut self, kind: &str, fingers: &[(f64, f64)]) {
        self.call("Input.dispatchTouchEvent", touch_event(kind, fingers))
            .await;
    }

    /// A key pressed and let go `times` over, every event sent before any is answered: as a
    /// quick player's presses reach a page whose frames are slow, several within one frame.
    #[allow(dead_code)]
    pub async fn press_quickly(&mut self, key: &str, virtual_code: u32, times: usize) {
        let mut sent = Vec::new();
        for _ in 0..times {
            for kind in ["rawKeyDown", "keyUp"] {
                let event = json!({ "type": kind, "key": key, "code": key,
                                    "windowsVirtualKeyCode": virtual_code });
                sent.push(self.send("Input.dispatchKeyEvent", event).await);
            }
        }
        for id in sent {
            self.answer(id, "Input.dispatchKeyEvent").await;
        }
    }

    /// A finger's tap: down and up at once (a person's tap lasts about a tenth of a second; a
    /// software renderer's frame of a phone's screen lasts longer, so the finger is not left
    /// down across frames, where it would be a long press).
    pub async fn tap(&mut self, x: f64, y: f64) {
        // Both sent before either is answered, so that both reach the page before its next
        // frame (a software renderer's frame of a phone's screen lasts more than a second).
        let first = self
            .send(
                "Input.dispatchTouchEvent",
                touch_event("touchStart", &[(x, y)]),
            )
            .await;
        let second = self
            .send("Input.dispatchTouchEvent", touch_event("touchEnd", &[]))
            .await;
        self.answer(first, "touchStart").await;
        self.answer(second, "touchEnd").await;
        self.wait_frames(3).await;
    }

    /// Presses the button of the game's windows that says `label` as a keyboard's player does:
    /// Tab until the document says that button was reached (each widget reached is said there;
    /// its last line read), then Enter. At most 40 widgets are passed over. (Not a tap: a tap's
    /// touches sent here may be read a frame apart, and while the page's worker reviews a game
    /// beside a software-rendered phone's screen a frame can outlast what egui takes for a
    /// click; the board's own taps are read across slow frames, and the phone's test taps the
    /// welcome card's buttons.)
    #[allow(dead_code)]
    pub async fn press_button(&mut self, label: &str) {
        let said = format!("{label}, button");
        let last_said =
            "(document.getElementById('readerSaid')?.lastElementChild?.textContent) || ''";
        let mut heard = Vec::new();
        self.eval(
            "(document.activeElement === document.body || !document.activeElement) \
             && document.getElementById('qiguo').focus()",
        )
        .await;
        for _ in 0..40 {
            self.press("Tab", 9).await;
            self.wait_frames(2).await;
            let last = self.eval(last_said).await;
            let last = last.as_str().unwrap_or_default().to_owned();
            if last.starts_with(&said) {
                self.press("Enter", 13).await;
                self.wait_frames(2).await;
                return;
            }
            heard.push(last);
        }
        panic!(
            "Tab never reached {said:?}; said: {heard:?}\nthe page's last log lines:\n{}",
            self.last_logged(40).await
        );
    }

    /// A finger resting on (`x`, `y`) until frames have seen it rest longer than a long press
    /// (550 ms), then lifted.
    pub async fn long_press(&mut self, x: f64, y: f64) {
        self.touch("touchStart", &[(x, y)]).await;
        tokio::time::sleep(Duration::from_millis(700)).await;
        // Frames drawn after the rest: one of them reads the finger as a long press.
        self.wait_frames(2).await;
        self.touch("touchEnd", &[]).await;
        self.wait_frames(3).await;
    }

    /// Two fingers about `centre`, their distance going from `from` to `to` CSS pixels along
    /// the horizontal in `steps` moves, a frame each.
    pub async fn pinch(&mut self, centre: (f64, f64), from: f64, to: f64, steps: u32) {
        let (x, y) = centre;
        let at = |d: f64| [(x - d / 2.0, y), (x + d / 2.0, y)];
        // The second finger lands as a person's does, a moment after the first (not a slow
        // frame later, when the first would already rest as a long press).
        let first = self
            .send(
                "Input.dispatchTouchEvent",
                touch_event("touchStart", &at(from)[..1]),
            )
            .await;
        let second = self
            .send(
                "Input.dispatchTouchEvent",
                touch_event("touchStart", &at(from)),
            )
            .await;
        self.answer(first, "touchStart").await;
        self.answer(second, "touchStart").await;
        self.wait_frames(1).await;
        for step in 1..=steps {
            let d = from + (to - from) * f64::from(step) / f64::from(steps);
            self.touch("touchMove", &at(d)).await;
            self.wait_frames(1).await;
        }
        self.touch("touchEnd", &at(to)[..1]).await;
        self.wait_frames(1).await;
        self.touch("touchEnd", &[]).await;
        self.wait_frames(3).await;
    }

    /// From now on, the page's console is kept (read with [`Browser::console`]).
    pub async fn record_console(&mut self) {
        self.call("Runtime.enable", json!({})).await;
    }

    /// The lines the page wrote to its console since [`Browser::record_console`] that contain
    /// `part`.
    pub async fn console(&mut self, part: &str) -> Vec<String> {
        // A command's round trip brings in the events sent before its answer.
        self.eval("0").await;
        self.events
            .iter()
            .filter(|e| e["method"] == "Runtime.consoleAPICalled")
            .map(|e| {
                e["params"]["args"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|a| a["value"].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|line| line.contains(part))
            .collect()
    }

    /// Where the page draws `point` now, in CSS pixels (asked through `<body data-locate>`);
    /// `None` where it is out of the picture.
    /// The board settled first: a camera still turning, or a notice about to go and let the
    /// board grow, would draw the point elsewhere by the time a tap arrives. And asked again
    /// until two answers agree: the frame that answers may be the one in which a panel changed
    /// (a line of news come or gone), whose board is framed anew only in the next.
    pub async fn locate(&mut self, point: &str) -> Option<(f64, f64)> {
        let start = Instant::now();
        let mut before = self.locate_once(point).await;
        loop {
            let now = self.locate_once(point).await;
            let agree = match (before, now) {
                (Some(a), Some(b)) => (a.0 - b.0).abs() < 1.0 && (a.1 - b.1).abs() < 1.0,
                (None, None) => true,
                _ => false,
            };
            if agree {
                return now;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{point} kept moving: at {before:?}, then {now:?}"
            );
            before = now;
        }
    }

    /// Where the page's frame after this one draws `point` (see [`Browser::locate`]).
    async fn locate_once(&mut self, point: &str) -> Option<(f64, f64)> {
        self.wait_until_settled().await;
        self.eval(&format!(
            "delete document.body.dataset.located; document.body.dataset.locate = '{point}'"
        ))
        .await;
        let start = Instant::now();
        loop {
            let answer = self.eval("document.body.dataset.located || null").await;
            if let Some(answer) = answer.as_str() {
                let parts: Vec<&str> = answer.split(' ').collect();
                assert_eq!(parts[0], point, "{answer}");
                return match parts[1..] {
                    [x, y] => Some((x.parse().unwrap(), y.parse().unwrap())),
                    _ => None,
                };
            }
            assert!(start.elapsed() < PATIENCE, "the page never located {point}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Text as a phone's keyboard gives it (no key events, the text inserted where the focus
    /// is), then Enter if `enter`.
    pub async fn insert_text(&mut self, text: &str, enter: bool) {
        self.call("Input.insertText", json!({ "text": text })).await;
        self.wait_frames(3).await;
        if enter {
            for kind in ["keyDown", "keyUp"] {
                let mut event = json!({
                    "type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                });
                if kind == "keyDown" {
                    event["text"] = json!("\r");
                }
                self.call("Input.dispatchKeyEvent", event).await;
                self.wait_frames(2).await;
            }
        }
    }

    /// Sends a command (to the page once attached) and waits for its result; events on the
    /// way are passed over.
    async fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params).await;
        self.answer(id, method).await
    }

    /// Sends a command without waiting: its id, for [`Browser::answer`].
    async fn send(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .await
            .expect("a command is sent");
        id
    }

    /// Waits for the answer to command `id` (sent in order: answers to earlier ones first).
    async fn answer(&mut self, id: u64, method: &str) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let frame = tokio::time::timeout(left, self.socket.next())
                .await
                .unwrap_or_else(|_| panic!("{method}: no answer within {PATIENCE:?}"))
                .expect("the socket is open")
                .expect("a frame");
            let Message::Text(text) = frame else {
                continue;
            };
            let answer: Value = serde_json::from_str(&text).expect("JSON");
            if answer["id"].as_u64() != Some(id) {
                if answer.get("method").is_some() {
                    self.events.push(answer);
                }
                continue;
            }
            if let Some(error) = answer.get("error") {
                panic!("{method}: {error}");
            }
            return answer["result"].clone();
        }
    }

    /// Evaluates `expression` in the page: its value.
    pub async fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({ "expression": expression, "returnByValue": true }),
            )
            .await;
        result["result"]["value"].clone()
    }

    /// Sends a command to the browser itself (not to the page).
    async fn call_browser(&mut self, method: &str, params: Value) -> Value {
        let session = std::mem::take(&mut self.session);
        let result = self.call(method, params).await;
        self.session = session;
        result
    }

    /// From now on the notifications the page asks for, by itself or through its service
    /// worker's registration, are recorded in `window.notified` ([title, body] pairs) instead
    /// of shown, and those its service worker shows of itself (a push) allowed, as by a browser
    /// whose player allowed them: headless Chromium has no one to ask. What the page asks is
    /// the game's to answer for; whether headless Chromium then lists a notification shown
    /// through the registration is not (a stressed run found the page asking and none listed).
    pub async fn record_notifications(&mut self) {
        self.call_browser(
            "Browser.grantPermissions",
            json!({ "permissions": ["notifications"] }),
        )
        .await;
        let script = "window.notified = []; \
            window.Notification = class { \
              constructor(title, options) { window.notified.push([title, options && options.body]); } \
              static get permission() { return 'granted'; } \
              static requestPermission() { return Promise.resolve('granted'); } }; \
            if (window.ServiceWorkerRegistration) { \
              ServiceWorkerRegistration.prototype.showNotification = function (title, options) { \
                window.notified.push([title, options && options.body]); \
                return Promise.resolve(); }; }";
        self.before_each_page(script).await;
    }

    /// The notifications the page asked for so far (see [`Browser::record_notifications`]),
    /// and those its service worker shows of itself.
    pub async fn notified(&mut self) -> Vec<(String, String)> {
        let shown = self.eval("JSON.stringify(window.notified || [])").await;
        let mut all: Vec<(String, String)> =
            serde_json::from_str(shown.as_str().unwrap_or("[]")).unwrap_or_default();
        let by_worker = self
            .eval_promise(
                "navigator.serviceWorker ? navigator.serviceWorker.getRegistration().then(r => \
                 r ? r.getNotifications() : []).then(all => \
                 JSON.stringify(all.map(n => [n.title, n.body]))) : '[]'",
            )
            .await;
        all.extend(
            serde_json::from_str::<Vec<(String, String)>>(by_worker.as_str().unwrap_or("[]"))
                .unwrap_or_default(),
        );
        all
    }

    /// Puts another tab in front, so that the page is hidden (and, as browsers do with
    /// background tabs, draws no frames); its page's visibility as the page sees it.
    pub async fn hide_behind_another_tab(&mut self) -> String {
        let other = self
            .call_browser("Target.createTarget", json!({ "url": "about:blank" }))
            .await;
        self.call_browser(
            "Target.activateTarget",
            json!({ "targetId": other["targetId"] }),
        )
        .await;
        // The page is told a moment later: wait for it rather than for a length of time.
        let start = Instant::now();
        loop {
            let shown = self.eval("document.visibilityState").await;
            let shown = shown.as_str().unwrap_or_default().to_owned();
            if shown == "hidden" || start.elapsed() > PATIENCE {
                return shown;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Lets the page at `origin` notify, as a player who said yes (headless Chromium has no one
    /// to ask).
    pub async fn allow_notifications(&mut self, origin: &str) {
        self.call_browser(
            "Browser.grantPermissions",
            json!({ "origin": origin, "permissions": ["notifications"] }),
        )
        .await;
    }

    /// Waits until `expression` is `true` in the page (looked at every 100 ms), within
    /// [`PATIENCE`]; panics saying `what`.
    pub async fn wait_until(&mut self, expression: &str, what: &str) {
        let start = Instant::now();
        while self.eval(expression).await != json!(true) {
            assert!(
                start.elapsed() < PATIENCE,
                "{what}: not within {PATIENCE:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until the page's service worker is active and controls the page.
    pub async fn wait_for_service_worker(&mut self) {
        self.wait_until(
            "!!(navigator.serviceWorker && navigator.serviceWorker.controller)",
            "a service worker controlling the page",
        )
        .await;
    }

    /// Waits until the page offers a new version (its prompt shown).
    pub async fn wait_for_update_offer(&mut self) {
        self.wait_until(
            "document.getElementById('update')?.classList.contains('shown') ?? false",
            "a new version offered",
        )
        .await;
    }

    /// What keeps the page from being installed, as Chromium judges it (nothing: installable),
    /// and the errors of its manifest.
    pub async fn installability(&mut self) -> (Vec<Value>, Vec<Value>) {
        let errors = self.call("Page.getInstallabilityErrors", json!({})).await;
        let manifest = self.call("Page.getAppManifest", json!({})).await;
        (
            errors["installabilityErrors"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
            manifest["errors"].as_array().cloned().unwrap_or_default(),
        )
    }

    /// Delivers `data` to the service worker of `origin` as a push service would (a message
    /// pushed to this device while the page may be closed).
    pub async fn deliver_push(&mut self, origin: &str, data: &str) {
        self.call("ServiceWorker.enable", json!({})).await;
        let start = Instant::now();
        let registration = loop {
            let found = self.events.iter().rev().find_map(|event| {
                (event["method"] == "ServiceWorker.workerRegistrationUpdated")
                    .then(|| event["params"]["registrations"].as_array().cloned())
                    .flatten()
                    .and_then(|all| {
                        all.into_iter().find(|r| {
                            r["scopeURL"]
                                .as_str()
                                .is_some_and(|s| s.starts_with(origin))
                                && r["isDeleted"] != json!(true)
                        })
                    })
            });
            if let Some(found) = found {
                break found["registrationId"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
            }
            assert!(
                start.elapsed() < PATIENCE,
                "no service worker registration reported within {PATIENCE:?}"
            );
            // Events come while a command waits: ask something small.
            self.eval("1").await;
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        self.call(
            "ServiceWorker.deliverPushMessage",
            json!({ "origin": origin, "registrationId": registration, "data": data }),
        )
        .await;
    }

    /// The notifications the page's service worker shows now: (title, body, the URL a click
    /// opens).
    pub async fn service_worker_notifications(&mut self) -> Vec<(String, String, String)> {
        let shown = self
            .eval_promise(
                "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(all => \
                 JSON.stringify(all.map(n => [n.title, n.body, (n.data && n.data.url) || ''])))",
            )
            .await;
        serde_json::from_str(shown.as_str().unwrap_or("[]")).unwrap_or_default()
    }

    /// Delivers `data` to the service worker of `origin` ([`Browser::deliver_push`]) and waits
    /// until it shows a notification: those it shows then. About one delivery in ten through the
    /// DevTools protocol showed nothing on this machine (2026-11-27, not yet understood): a
    /// delivery that shows nothing within 20 s is made again, at most three times in all, and
    /// said on the test's output.
    pub async fn push_and_wait_for_notifications(
        &mut self,
        origin: &str,
        data: &str,
    ) -> Vec<(String, String, String)> {
        for delivery in 1..=3 {
            self.deliver_push(origin, data).await;
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                let shown = self.service_worker_notifications().await;
                if !shown.is_empty() {
                    if delivery > 1 {
                        eprintln!("the pushed message was shown after delivery {delivery}");
                    }
                    return shown;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        panic!("the service worker showed no notification after three deliveries");
    }

    /// Waits until the page's `<body data-…>` (`key` in the dataset's camel case) says `value`.
    pub async fn wait_for_body_data(&mut self, key: &str, value: &str) {
        self.wait_until(
            &format!("document.body?.dataset.{key} === {}", json!(value)),
            &format!("the page's data-{key} saying {value}"),
        )
        .await;
    }

    /// Slows the page as the DevTools protocol does to stand for a phone: its CPU `cpu` times
    /// slower, its connection `down` and `up` bits a second with `latency_ms` each way (the page
    /// bench's phone, `benches/page.rs`).
    #[allow(dead_code)]
    pub async fn throttle(&mut self, cpu: f64, down: u64, up: u64, latency_ms: f64) {
        self.call("Emulation.setCPUThrottlingRate", json!({ "rate": cpu }))
            .await;
        self.call("Network.enable", json!({})).await;
        self.call(
            "Network.emulateNetworkConditions",
            json!({
                "offline": false,
                "latency": latency_ms,
                "downloadThroughput": down as f64 / 8.0,
                "uploadThroughput": up as f64 / 8.0,
            }),
        )
        .await;
    }

    /// Reloads the page.
    pub async fn reload(&mut self) {
        self.call("Page.reload", json!({})).await;
    }

    /// Evaluates `expression` in the page and waits for the promise it gives: its value.
    pub async fn eval_promise(&mut self, expression: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
            )
            .await;
        if let Some(thrown) = result.get("exceptionDetails") {
            panic!("the page threw: {thrown}");
        }
        result["result"]["value"].clone()
    }

    /// Runs `script` in every page this browser opens from now on, before the page's own.
    pub async fn before_each_page(&mut self, script: &str) {
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": script }),
        )
        .await;
    }

    /// Waits until the page has drawn `frames` more frames (the game reads its input once a
    /// frame; a software renderer's frames are slow and uneven).
    pub async fn wait_frames(&mut self, frames: u32) {
        let script = format!(
            "new Promise(done => {{ let left = {frames}; \
               const next = () => (--left <= 0 ? done(true) : requestAnimationFrame(next)); \
               requestAnimationFrame(next); }})"
        );
        self.eval_promise(&script).await;
    }

    /// Waits until the board and the stones wear their whole textures, drawn off the frame in
    /// the page's own tasks (`<body data-textures-whole-ms>`), at most [`PATIENCE`]; when they
    /// were, in milliseconds since the page opened.
    pub async fn wait_for_whole_textures(&mut self) -> u64 {
        let worn = self.noted_on_body("texturesWholeMs").await;
        worn.unwrap_or_else(|| panic!("the whole textures were not worn within {PATIENCE:?}"))
    }

    /// The frames the page has drawn (`<body data-frames>`'s first number).
    pub async fn frames_drawn(&mut self) -> u64 {
        let noted = self.eval("document.body.dataset.frames || '0'").await;
        noted
            .as_str()
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }

    /// Whether the page's last frame asked for the next one or for one later (`<body
    /// data-frames>`'s last two numbers): something on it still moves (the camera, a stone) or
    /// waits on time (a notice that goes and lets the board grow, a computer's pause), however
    /// slow its frames.
    pub async fn unsettled(&mut self) -> bool {
        let noted = self.eval("document.body.dataset.frames || ''").await;
        noted
            .as_str()
            .is_some_and(|s| s.split(' ').skip(4).any(|flag| flag == "1"))
    }

    /// Waits until the page has settled (its last frame asked for no other), at most
    /// [`PATIENCE`].
    pub async fn wait_until_settled(&mut self) {
        let start = Instant::now();
        while self.unsettled().await {
            assert!(
                start.elapsed() < PATIENCE,
                "the page had not settled after {PATIENCE:?}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Waits until the page has drawn no frame for `quiet` and has settled (its last frame
    /// asked for no other: it rests, however slow its frames), at most [`PATIENCE`]; the frames
    /// drawn then.
    pub async fn wait_for_rest(&mut self, quiet: Duration) -> u64 {
        let start = Instant::now();
        let mut drawn = self.frames_drawn().await;
        let mut since = Instant::now();
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let now = self.frames_drawn().await;
            if now != drawn {
                (drawn, since) = (now, Instant::now());
            } else if since.elapsed() >= quiet && !self.unsettled().await {
                return drawn;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the page still drew frames after {PATIENCE:?} ({drawn} drawn)"
            );
        }
    }

    pub async fn visit(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url })).await;
    }

    /// Waits for the page to say it drew the board; the milliseconds it took since it opened.
    pub async fn wait_for_board(&mut self) -> u64 {
        if let Some(ms) = self.noted_on_body("boardDrawnMs").await {
            return ms;
        }
        let notice = self
            .eval("document.getElementById('loading')?.textContent ?? null")
            .await;
        panic!("the board was not drawn within {PATIENCE:?}; the page says {notice}");
    }

    /// A time the page notes on its body once something has happened (`<body data-…-ms>`,
    /// `key` as the dataset names it: `boardDrawnMs`), in milliseconds since it opened; none
    /// if it has not within [`PATIENCE`].
    async fn noted_on_body(&mut self, key: &str) -> Option<u64> {
        let start = Instant::now();
        let script = format!("document.body && document.body.dataset.{key} || null");
        loop {
            let noted = self.eval(&script).await;
            if let Some(ms) = noted.as_str().and_then(|s| s.parse().ok()) {
                return Some(ms);
            }
            if start.elapsed() > PATIENCE {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// The page's key ring as kept in its storage, once it holds `part` (or as it is after
    /// [`PATIENCE`]).
    pub async fn key_ring_with(&mut self, part: &str) -> String {
        let start = Instant::now();
        loop {
            let ring = self
                .eval(
                    "Object.keys(localStorage).filter(k => k.endsWith('online-keys.json'))\
                     .map(k => localStorage.getItem(k)).join('')",
                )
                .await;
            let ring = ring.as_str().unwrap_or("").to_owned();
            if ring.contains(part) || start.elapsed() > PATIENCE {
                return ring;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// The page's title.
    pub async fn title(&mut self) -> String {
        self.eval("document.title")
            .await
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Waits until the page's title contains `part`.
    pub async fn wait_for_title(&mut self, part: &str, within: Duration) {
        let start = Instant::now();
        loop {
            let title = self.title().await;
            if title.contains(part) {
                return;
            }
            assert!(
                start.elapsed() < within,
                "the title never said {part:?}; it says {title:?}"
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// A screenshot of the page, kept as `NAME.png` in the screenshots' folder.
    pub async fn screenshot(&mut self, name: &str) -> image::RgbaImage {
        let shot = self
            .call("Page.captureScreenshot", json!({ "format": "png" }))
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("the picture"))
            .expect("base64");
        std::fs::write(shots_dir().join(format!("{name}.png")), &png).expect("kept");
        image::load_from_memory(&png).expect("a PNG").into_rgba8()
    }

    /// Clicks the welcome card's *Play now, with people* (its first choice in a page a server
    /// served): the card sits in the middle of the page, that choice 177 px above the middle.
    pub async fn click_welcome_play_now(&mut self) {
        self.click_at(640 - 10, 360 - 177).await;
    }

    /// Clicks the welcome card's name field (for *Play now*), 108 px above the middle.
    pub async fn click_welcome_name(&mut self) {
        self.click_at(640 - 35, 360 - 108).await;
    }

    /// Clicks the welcome card's *Learn the pieces*, 45 px above the middle.
    pub async fn click_welcome_learn(&mut self) {
        self.click_at(640 - 10, 360 - 45).await;
    }

    /// Clicks the welcome card's *Medium* (the computers' level), 86 px below the middle.
    pub async fn click_welcome_medium(&mut self) {
        self.click_at(640 - 39, 360 + 86).await;
    }

    /// Clicks the welcome card's *Play against the computer*, 31 px below the middle.
    pub async fn click_welcome_computers(&mut self) {
        self.click_at(640 - 10, 360 + 31).await;
    }

    /// On the welcome card: *Play against the computer* at Medium, until the game is on the
    /// board with Qin, the person, to move.
    pub async fn play_against_medium_computers(&mut self) {
        self.click_welcome_medium().await;
        self.click_welcome_computers().await;
        self.wait_for_title("Qin to move · move 1", PATIENCE).await;
    }

    /// The milliseconds the page's computers have searched in all, as the page counts them
    /// (`<body data-computers-searched-ms>`; none before their first search).
    pub async fn computers_searched_ms(&mut self) -> Option<u64> {
        let searched = self
            .eval("document.body.dataset.computersSearchedMs || null")
            .await;
        searched.as_str().and_then(|ms| ms.parse().ok())
    }

    /// Clicks the toolbar's *Welcome* (the card comes back), at the bottom right.
    pub async fn click_toolbar_welcome(&mut self) {
        self.click_at(960, 696).await;
    }

    /// A click at a point of the page as the game sees a person's: the pointer comes over the
    /// point and stays a couple of frames (so the interface knows what is under it), then the
    /// button goes down and up within one frame (a software renderer's frame can be longer than
    /// the longest press the interface still takes for a click).
    pub async fn click_at(&mut self, x: i64, y: i64) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseMoved", "x": x, "y": y }),
        )
        .await;
        self.wait_frames(2).await;
        for kind in ["mousePressed", "mouseReleased"] {
            let event = json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 });
            self.call("Input.dispatchMouseEvent", event).await;
        }
        self.wait_frames(2).await;
    }

    /// Types `text` on the page's keyboard (the game's canvas has it), a key at a time with two
    /// frames between, `\n` as Enter.
    pub async fn type_text(&mut self, text: &str) {
        // The keyboard goes to the canvas, unless the game has given it to the text field it
        // keeps for egui's text boxes.
        self.eval(
            "(document.activeElement === document.body || !document.activeElement) \
             && document.getElementById('qiguo').focus()",
        )
        .await;
        for c in text.chars() {
            let (key, code, text, vk) = match c {
                '\n' => ("Enter".to_owned(), "Enter".to_owned(), "\r".to_owned(), 13),
                '/' => ("/".to_owned(), "Slash".to_owned(), "/".to_owned(), 191),
                c if c.is_ascii_digit() => {
                    (c.to_string(), format!("Digit{c}"), c.to_string(), c as u32)
                }
                c => (
                    c.to_string(),
                    format!("Key{}", c.to_ascii_uppercase()),
                    c.to_string(),
                    c.to_ascii_uppercase() as u32,
                ),
            };
            // Down and up, then two frames: the first reads both (a quick typist's key), the
            // second is drawn after it.
            for kind in ["keyDown", "keyUp"] {
                let mut event = json!({
                    "type": kind,
                    "key": key,
                    "code": code,
                    "windowsVirtualKeyCode": vk,
                });
                if kind == "keyDown" {
                    event["text"] = json!(text);
                }
                self.call("Input.dispatchKeyEvent", event).await;
            }
            self.wait_frames(2).await;
        }
    }

    /// Opens the move box (`/`), types the move and Enter, as a player does: after the box
    /// has opened (a few of the software renderer's slow frames), as a person sees it first.
    pub async fn type_move(&mut self, mv: &str) {
        self.type_text("/").await;
        self.wait_frames(10).await;
        self.type_text(&format!("{mv}\n")).await;
    }

    pub async fn close(mut self) {
        let _ = self.call("Browser.close", json!({})).await;
    }
}

/// The DevTools protocol's touch event of `kind` (`touchStart`, `touchMove`, `touchEnd`) with
/// the fingers down at these CSS pixels.
fn touch_event(kind: &str, fingers: &[(f64, f64)]) -> Value {
    let points: Vec<Value> = fingers
        .iter()
        .enumerate()
        .map(|(id, &(x, y))| json!({ "x": x, "y": y, "id": id, "radiusX": 12, "radiusY": 12 }))
        .collect();
    json!({ "type": kind, "touchPoints": points })
}

/// The screenshot shows the board (its wood) and the armies (several kingdoms' colours), told
/// apart by hue, as the lighting shades every colour.
pub fn assert_board_and_armies(shot: &image::RgbaImage) {
    let count = |is: &dyn Fn(i32, i32, i32) -> bool| {
        shot.pixels()
            .filter(|p| is(i32::from(p[0]), i32::from(p[1]), i32::from(p[2])))
            .count()
    };
    let total = (shot.width() * shot.height()) as usize;
    // The board's wood: warm, red over green over blue, neither dark nor pale.
    let wood =
        count(&|r, g, b| (100..=220).contains(&r) && r > g + 12 && g > b + 20 && r < b + 110);
    assert!(
        wood > total / 10,
        "the board's wood: {wood} of {total} pixels"
    );
    // The kingdoms' stones: blue (Qi), green (Wei), purple (Zhao), red (Chu), orange (Han).
    let hues: [(&str, &dyn Fn(i32, i32, i32) -> bool); 5] = [
        ("blue", &|r, g, b| b > r + 45 && b > g + 30),
        ("green", &|r, g, b| g > r + 25 && g > b + 25),
        ("purple", &|r, g, b| r > g + 20 && b > g + 20),
        ("red", &|r, g, b| r > g + 80 && r > b + 80),
        ("orange", &|r, g, b| r > b + 120 && g > b + 50 && r > g + 30),
    ];
    let seen: Vec<&str> = hues
        .iter()
        .filter(|(_, is)| count(*is) > 200)
        .map(|(name, _)| *name)
        .collect();
    assert!(seen.len() >= 3, "the armies' colours: only {seen:?}");
}
