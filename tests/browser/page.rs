//! The browser test's parts: the server serving the bundle, the WebDriver session on Chromium,
//! and the game's command line.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use qiguo_testkit::TempDir;

/// The bundle the tests were built against.
fn bundle() -> PathBuf {
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

/// A port free on loopback now.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// `qiguo-server --web BUNDLE` on loopback, with a database of its own.
pub struct Served {
    _server: Killed,
    dir: TempDir,
    /// `http://127.0.0.1:PORT`.
    pub http: String,
    /// `ws://127.0.0.1:PORT`.
    pub ws: String,
}

impl Served {
    pub fn start() -> Served {
        let dir = TempDir::new("qiguo-browser");
        let server = Path::new(env!("CARGO_BIN_EXE_qiguo")).with_file_name("qiguo-server");
        let db = format!("sqlite://{}", dir.path().join("server.sqlite").display());
        let mut child = Command::new(&server)
            .args(["--port", "0", "--db", &db, "--web"])
            .arg(bundle())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", server.display()));
        let stdout = child.stdout.take().expect("its output");
        let mut lines = BufReader::new(stdout).lines();
        let ws = loop {
            let line = lines
                .next()
                .expect("the server says where it listens")
                .expect("its output is text");
            if let Some(at) = line.find("listening on ") {
                let url = line[at + "listening on ".len()..]
                    .split_whitespace()
                    .next()
                    .expect("a URL")
                    .to_owned();
                break url;
            }
        };
        // The rest of its log is read (and dropped) so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let http = ws.replacen("ws://", "http://", 1);
        Served {
            _server: Killed(child),
            dir,
            http,
            ws,
        }
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

/// Chromium under chromedriver, one session.
pub struct Browser {
    client: Client,
    _driver: Killed,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a 1280×720 page.
    pub async fn open() -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Killed(driver);
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".to_owned(),
            serde_json::json!({
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--window-size=1280,900",
                    "--enable-unsafe-swiftshader",
                    "--use-angle=swiftshader",
                    "--lang=en-US",
                ],
                "prefs": { "intl.accept_languages": "en-US,en" },
            }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        let client = loop {
            let connected = ClientBuilder::new(HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&url)
                .await;
            match connected {
                Ok(client) => break client,
                Err(e) if start.elapsed() < Duration::from_secs(20) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("chromedriver at {url}: {e}"),
            }
        };
        Browser {
            client,
            _driver: driver,
        }
    }

    pub async fn visit(&self, url: &str) {
        self.client.goto(url).await.expect("the page opens");
    }

    /// Waits for the page to say it drew the board; the milliseconds it took since it opened.
    pub async fn wait_for_board(&self) -> u64 {
        let start = Instant::now();
        loop {
            let drawn = self
                .client
                .execute("return document.body.dataset.boardDrawnMs || null", vec![])
                .await
                .expect("the page runs a script");
            if let Some(ms) = drawn.as_str().and_then(|s| s.parse().ok()) {
                return ms;
            }
            assert!(
                start.elapsed() < Duration::from_secs(90),
                "the board was not drawn within 90 s; the page says: {:?}",
                self.text_of("loading").await
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    async fn text_of(&self, id: &str) -> serde_json::Value {
        let script = format!("return document.getElementById('{id}')?.textContent ?? null");
        self.client
            .execute(&script, vec![])
            .await
            .unwrap_or_default()
    }

    /// The page's title.
    pub async fn title(&self) -> String {
        self.client.title().await.expect("the page has a title")
    }

    /// Waits until the page's title contains `part`.
    pub async fn wait_for_title(&self, part: &str, within: Duration) {
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
    pub async fn screenshot(&self, name: &str) -> image::RgbaImage {
        let png = self.client.screenshot().await.expect("a screenshot");
        std::fs::write(shots_dir().join(format!("{name}.png")), &png).expect("kept");
        image::load_from_memory(&png).expect("a PNG").into_rgba8()
    }

    /// Clicks the welcome card's first choice (*Learn the pieces*): the card sits in the
    /// middle of the page, its first choice 110 px above the middle.
    pub async fn click_welcome_learn(&self) {
        let size = self
            .client
            .execute("return [window.innerWidth, window.innerHeight]", vec![])
            .await
            .expect("the page's size");
        let (w, h) = (
            size[0].as_i64().unwrap_or(1280),
            size[1].as_i64().unwrap_or(720),
        );
        self.click_at(w / 2 - 10, h / 2 - 110).await;
    }

    /// A click at a point of the page, held as a person's is (the page draws a frame in
    /// between).
    pub async fn click_at(&self, x: i64, y: i64) {
        let mouse = MouseActions::new("mouse".to_owned())
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(50)),
                x: x as f64,
                y: y as f64,
            })
            .then(PointerAction::Down {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Pause {
                duration: Duration::from_millis(300),
            })
            .then(PointerAction::Up {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            });
        self.client
            .perform_actions(mouse)
            .await
            .expect("the click is made");
    }

    /// Types `text` into whatever has the page's keyboard (the game's canvas), a key at a time
    /// with a frame's pause between, `\n` as Enter.
    pub async fn type_text(&self, text: &str) {
        let canvas = self
            .client
            .find(fantoccini::Locator::Id("qiguo"))
            .await
            .expect("the canvas");
        for c in text.chars() {
            let key = if c == '\n' {
                char::from(Key::Enter).to_string()
            } else {
                c.to_string()
            };
            canvas.send_keys(&key).await.expect("a key is typed");
            tokio::time::sleep(Duration::from_millis(120)).await;
        }
    }

    /// Opens the move box (`/`), types the move and Enter, as a player does.
    pub async fn type_move(&self, mv: &str) {
        self.type_text("/").await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        self.type_text(&format!("{mv}\n")).await;
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// The screenshot shows the board (its wood) and the armies (several kingdoms' colours).
pub fn assert_board_and_armies(shot: &image::RgbaImage) {
    let near = |p: &image::Rgba<u8>, c: [u8; 3], by: i32| {
        (0..3).all(|i| (i32::from(p[i]) - i32::from(c[i])).abs() <= by)
    };
    let count = |c: [u8; 3], by: i32| shot.pixels().filter(|p| near(p, c, by)).count();
    let total = (shot.width() * shot.height()) as usize;
    let wood = count([205, 160, 105], 40);
    assert!(
        wood > total / 20,
        "the board's wood: {wood} of {total} pixels"
    );
    // Kingdoms' stones: blue (Qi), green (Wei), purple (Zhao), red (Chu).
    let armies = [[60, 90, 200], [40, 140, 70], [130, 60, 170], [190, 40, 40]]
        .iter()
        .filter(|c| count(**c, 45) > 30)
        .count();
    assert!(armies >= 3, "the armies' colours: {armies} of 4 found");
}
