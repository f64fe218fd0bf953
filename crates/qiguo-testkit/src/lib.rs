//! Helpers shared by the tests of the Qiguo workspace (a dev-dependency only). No dependencies
//! of its own, so that it adds no features to the crates the game and its tests share.

#![deny(missing_docs)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// A crowded `classic` midgame in 7K FEN, 70 plies into a game with all seven kingdoms in and 16
/// pieces captured, Qin to move: the benchmarks', perft goldens' and search tests' busy position.
pub const CROWDED_MIDGAME: &str = "2dNdSdB1dRdSdNpG1pS1pQpR1pN1gN/3dNdS1dSdN4pSpC1pS3/4dA1dA5pApW4gN/4dH3pN9gS/11dG4gAgS1/12pNpH2gWgCgQ/wN11bN3gAgSgR/wWwN12oG3gS/wR1wA6wH8gN/wQdW15bN1/2wS10gN5/wS7gG9bS/wN3wB4rW6bAbSbB/2wN1wGdQ5oW4bWbC1/6rGoN1bG6bAbQbR/15oH1bNbS/4rArCrA5bH1oA3bN/3rNrS1rSrN3oNoSoC5/2rNrSrRrQrBrSrN2oSoRoQoBoSoN2 w";

/// A directory of its own for one test, empty when made and removed (with everything in it)
/// when dropped. Named after the test, the process and a counter, so that tests running at
/// once, in one process or several, never share one.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// A fresh, empty directory for the test called `name`.
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("qiguo-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", path.display()));
        TempDir { path }
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its path, keeping the directory after the test (for a directory handed to something
    /// that outlives this value).
    pub fn keep(self) -> PathBuf {
        let path = self.path.clone();
        std::mem::forget(self);
        path
    }

    /// A path inside it.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The directory of the package whose test is running: `CARGO_MANIFEST_DIR` as `cargo test`
/// sets it when it runs the test, else `compiled` (the same variable as the test was compiled
/// with, `env!("CARGO_MANIFEST_DIR")`). The running value comes first because two checkouts
/// sharing one target directory may share one test binary, compiled in the other checkout.
pub fn package_dir(compiled: &str) -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(compiled))
}

/// `text`'s bytes with `edits` made, for fuzzing a reader from valid input: each edit is a
/// place (taken modulo the length), an operation (flip a byte by xor, insert one, or remove
/// one; by the operation's value modulo 3) and a byte.
pub fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, op, byte) in edits {
        let at = if bytes.is_empty() {
            0
        } else {
            at % bytes.len()
        };
        match op % 3 {
            0 if !bytes.is_empty() => bytes[at] ^= byte.max(1),
            1 => bytes.insert(at, byte),
            _ if !bytes.is_empty() => {
                bytes.remove(at);
            }
            _ => bytes.push(byte),
        }
    }
    bytes
}

/// Where a server's log line says it listens: `listening url=ws://HOST:PORT protocol=N` in
/// text, `"message":"listening","url":"ws://HOST:PORT"` in JSON.
pub fn listening_url(line: &str) -> Option<String> {
    if !line.contains("listening") {
        return None;
    }
    let at = line.find("ws://").or_else(|| line.find("wss://"))?;
    let url = &line[at..];
    let end = url.find([' ', '"']).unwrap_or(url.len());
    Some(url[..end].to_owned())
}

/// Reads a child process's output on a thread of its own and waits, at most `patience`, for the
/// first line `find` accepts: what it found. Every line (that one too) is handed to `each` as
/// it comes, and the output is read to its end, so that the child never blocks on a full pipe.
///
/// # Panics
///
/// When the output ends, or `patience` passes, without such a line; `what` names the wait.
pub fn wait_for_line<T: Send + 'static>(
    output: impl std::io::Read + Send + 'static,
    patience: std::time::Duration,
    what: &str,
    find: impl Fn(&str) -> Option<T> + Send + 'static,
    mut each: impl FnMut(&str) + Send + 'static,
) -> T {
    use std::io::BufRead;
    let (found_tx, found_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut found_tx = Some(found_tx);
        for line in std::io::BufReader::new(output)
            .lines()
            .map_while(Result::ok)
        {
            each(&line);
            if let Some(found) = found_tx.as_ref().and_then(|_| find(&line)) {
                let _ = found_tx.take().map(|tx| tx.send(found));
            }
        }
    });
    match found_rx.recv_timeout(patience) {
        Ok(found) => found,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: not within {} s", patience.as_secs())
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            panic!("{what}: the output ended first")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dir_is_fresh_and_removed_when_dropped() {
        let a = TempDir::new("testkit");
        let b = TempDir::new("testkit");
        assert_ne!(a.path(), b.path());
        std::fs::write(a.join("file"), "x").unwrap();
        let kept = a.path().to_owned();
        drop(a);
        assert!(!kept.exists());
        assert!(b.path().is_dir());
    }

    #[test]
    fn a_listening_line_gives_its_url() {
        assert_eq!(
            listening_url("INFO listening url=ws://127.0.0.1:4000 protocol=6").as_deref(),
            Some("ws://127.0.0.1:4000")
        );
        assert_eq!(
            listening_url(r#"{"message":"listening","url":"wss://h:1"}"#).as_deref(),
            Some("wss://h:1")
        );
        assert_eq!(listening_url("url=ws://127.0.0.1:4000"), None);
        assert_eq!(listening_url("listening on nothing"), None);
    }

    #[test]
    fn a_line_is_waited_for_and_every_line_seen() {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let keep = seen.clone();
        let text = "starting\nlistening url=ws://127.0.0.1:9 protocol=6\nafter\n";
        let url = wait_for_line(
            std::io::Cursor::new(text),
            std::time::Duration::from_secs(90),
            "the test's server",
            listening_url,
            move |line| keep.lock().unwrap().push(line.to_owned()),
        );
        assert_eq!(url, "ws://127.0.0.1:9");
        // The reader goes on to the end: wait for its last line.
        while seen.lock().unwrap().len() < 3 {
            std::thread::yield_now();
        }
        assert_eq!(seen.lock().unwrap()[2], "after");
    }

    #[test]
    #[should_panic(expected = "the output ended first")]
    fn output_that_ends_without_the_line_fails_at_once() {
        wait_for_line(
            std::io::Cursor::new("starting\n"),
            std::time::Duration::from_secs(90),
            "the test's server",
            listening_url,
            |_| {},
        );
    }

    #[test]
    #[should_panic(expected = "not within 0 s")]
    fn output_that_stays_silent_fails_after_patience() {
        let (reader, _writer) = std::io::pipe().unwrap();
        wait_for_line(
            reader,
            std::time::Duration::from_millis(50),
            "the test's server",
            listening_url,
            |_| {},
        );
    }
}

/// A virtual X display (Xvfb, 1280×720) for the window's tests and benches, stopped when
/// dropped.
#[derive(Debug)]
pub struct Xvfb {
    child: Child,
    /// The display's name, for `DISPLAY` (`:N`).
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb on a display it picks itself (no two runs race for one).
    pub fn start() -> Xvfb {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x720x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb must be installed for the window tests (apt-get install xvfb)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("Xvfb's output"))
            .read_line(&mut line)
            .expect("Xvfb reports its display");
        let number = line.trim();
        assert!(!number.is_empty(), "Xvfb did not start");
        Xvfb {
            display: format!(":{number}"),
            child,
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Mesa's software Vulkan driver (lavapipe)'s description, if installed: what
/// `VK_ICD_FILENAMES` names for the window to draw without a GPU.
pub fn lavapipe_icd() -> Option<PathBuf> {
    std::fs::read_dir("/usr/share/vulkan/icd.d")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("lvp_icd"))
        })
}
