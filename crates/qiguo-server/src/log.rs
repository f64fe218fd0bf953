//! The server's log: one line per event through `tracing` (target `qiguo_server`), at a level
//! saying how much it matters, written only through [`note!`] (a fixed message and its fields,
//! never text built beforehand). Whoever runs the server installs the subscriber: the standalone
//! binary writes text or JSON lines to standard output, the window sends them to its own log.
//!
//! A [`Log`] may also be tapped: every line is then handed to a function as well, which is how
//! the tests read what a server of theirs said without a process-wide subscriber.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::protocol::model::unfit_in_name;

pub use tracing::Level;

/// Where a server's lines go: always to `tracing`, and to the tap if there is one.
#[derive(Clone, Default)]
pub struct Log {
    tap: Option<Arc<dyn Fn(Level, &str) + Send + Sync>>,
}

impl fmt::Debug for Log {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Log")
            .field("tapped", &self.tap.is_some())
            .finish()
    }
}

impl Log {
    /// Lines to `tracing` only.
    pub fn tracing() -> Log {
        Log::default()
    }

    /// Lines to `tracing` and to `tap`.
    pub fn tapped(tap: impl Fn(Level, &str) + Send + Sync + 'static) -> Log {
        Log {
            tap: Some(Arc::new(tap)),
        }
    }

    /// Whether the lines also go to a tap (then [`note!`] writes the tap's text).
    pub(crate) fn is_tapped(&self) -> bool {
        self.tap.is_some()
    }

    /// Hands a line to the tap alone (its `tracing` event was written by [`note!`]).
    pub(crate) fn to_tap(&self, level: Level, line: &str) {
        if let Some(tap) = &self.tap {
            tap(level, line);
        }
    }
}

/// Writes an event to a [`Log`]: a fixed message and its fields, each field a `tracing` field
/// of its own (`--log-format json` gives each its key, beside the span's: the connection's peer
/// and player, the game), written with `Display`; a tap reads the message followed by
/// ` key=value` for each field. Every value is evaluated once.
///
/// ```text
/// note!(log, INFO, "moved", game = id.0, ply = ply + 1, by = who);
/// ```
macro_rules! note {
    ($log:expr, $level:ident, $message:literal $(, $key:ident = $value:expr)* $(,)?) => {{
        let log: &$crate::log::Log = &$log;
        #[allow(unused_parens)]
        let ($($key,)*) = ($(&$value,)*);
        ::tracing::event!(
            target: "qiguo_server",
            ::tracing::Level::$level,
            $($key = %$key,)*
            $message
        );
        if log.is_tapped() {
            log.to_tap(
                ::tracing::Level::$level,
                &format!(concat!($message $(, " ", stringify!($key), "={}")*), $($key),*),
            );
        }
    }};
}
pub(crate) use note;

/// The most characters of a client's text a log line keeps.
pub const CLIENT_TEXT_KEPT: usize = 120;

/// Text a client sent, as a log line may hold it: control, format and separator characters
/// (and backslashes) escaped, so that no client can start a line of its own, hide text or turn
/// it around; cut at [`CLIENT_TEXT_KEPT`] characters.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(CLIENT_TEXT_KEPT + 8));
    for (n, c) in text.chars().enumerate() {
        if n == CLIENT_TEXT_KEPT {
            out.push('…');
            break;
        }
        if c == '\\' || unfit_in_name(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// How long [`Repeats`] writes lines one by one before it counts them.
pub const REPEATS_EVERY: Duration = Duration::from_secs(60);

/// Lines of one kind that may come in floods (refusals, connections turned away): the first
/// few of every [`REPEATS_EVERY`] are written, the rest counted and written as one line.
#[derive(Debug)]
pub struct Repeats {
    what: &'static str,
    since: Instant,
    written: u32,
    counted: u64,
    each: u32,
}

impl Repeats {
    /// Lines of `what` (plural words: "refusals"), five written a minute.
    pub fn new(what: &'static str) -> Repeats {
        Repeats::writing(what, 5)
    }

    /// Lines of `what`, `each` written a minute.
    pub fn writing(what: &'static str, each: u32) -> Repeats {
        Repeats {
            what,
            since: Instant::now(),
            written: 0,
            counted: 0,
            each,
        }
    }

    /// One more line: whether to write it (`true`), or it is counted.
    pub fn admit(&mut self, log: &Log) -> bool {
        if self.since.elapsed() >= REPEATS_EVERY {
            self.flush(log);
            self.since = Instant::now();
            self.written = 0;
        }
        if self.written < self.each {
            self.written += 1;
            true
        } else {
            self.counted += 1;
            false
        }
    }

    /// Writes how many were counted and not written, if any.
    pub fn flush(&mut self, log: &Log) {
        if self.counted > 0 {
            note!(
                log,
                INFO,
                "more lines not written one by one",
                count = self.counted,
                what = self.what
            );
            self.counted = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn client_text_is_escaped_and_cut() {
        assert_eq!(escaped("Ann"), "Ann");
        assert_eq!(
            escaped("x\n2026-11-26 INFO forged\u{202E}"),
            "x\\n2026-11-26 INFO forged\\u{202e}"
        );
        assert_eq!(escaped("a\\b\u{1b}[31m"), "a\\\\b\\u{1b}[31m");
        let long = escaped(&"名".repeat(500));
        assert_eq!(long.chars().count(), CLIENT_TEXT_KEPT + 1);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn repeated_lines_are_counted_beyond_the_first_few() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = seen.clone();
        let log = Log::tapped(move |_, line| kept.lock().unwrap().push(line.to_owned()));
        let mut refusals = Repeats::writing("refusals", 3);
        for n in 0..1000 {
            if refusals.admit(&log) {
                note!(log, INFO, "refused", n = n);
            }
        }
        refusals.flush(&log);
        refusals.flush(&log);
        assert_eq!(
            *seen.lock().unwrap(),
            vec![
                "refused n=0",
                "refused n=1",
                "refused n=2",
                "more lines not written one by one count=997 what=refusals"
            ]
        );
    }

    #[test]
    fn a_tapped_log_hands_every_line_with_its_level() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = seen.clone();
        let log = Log::tapped(move |level, line| kept.lock().unwrap().push((level, line.into())));
        note!(log, INFO, "game 1 created");
        note!(log, WARN, "presence not noted");
        note!(log, ERROR, "game 2 not loaded");
        assert_eq!(
            *seen.lock().unwrap(),
            vec![
                (Level::INFO, "game 1 created".to_owned()),
                (Level::WARN, "presence not noted".to_owned()),
                (Level::ERROR, "game 2 not loaded".to_owned()),
            ]
        );
    }
}
