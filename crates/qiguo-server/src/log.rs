//! The server's log: one line per event through `tracing` (target `qiguo_server`), at a level
//! saying how much it matters. Whoever runs the server installs the subscriber: the standalone
//! binary writes text or JSON lines to standard output, the window sends them to its own log.
//!
//! A [`Log`] may also be tapped: every line is then handed to a function as well, which is how
//! the tests read what a server of theirs said without a process-wide subscriber.

use std::fmt;
use std::sync::Arc;

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

    /// Writes a line at `level`.
    pub fn line(&self, level: Level, line: &str) {
        match level {
            Level::ERROR => tracing::error!(target: "qiguo_server", "{line}"),
            Level::WARN => tracing::warn!(target: "qiguo_server", "{line}"),
            Level::INFO => tracing::info!(target: "qiguo_server", "{line}"),
            Level::DEBUG => tracing::debug!(target: "qiguo_server", "{line}"),
            Level::TRACE => tracing::trace!(target: "qiguo_server", "{line}"),
        }
        if let Some(tap) = &self.tap {
            tap(level, line);
        }
    }

    /// Something happened as it should: a player came, a move was made.
    pub fn info(&self, line: &str) {
        self.line(Level::INFO, line);
    }

    /// Something went wrong that the server works around: a database hiccup, a lost listener.
    pub fn warn(&self, line: &str) {
        self.line(Level::WARN, line);
    }

    /// Something the server could not do: a game it could not load, a search that failed.
    pub fn error(&self, line: &str) {
        self.line(Level::ERROR, line);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn a_tapped_log_hands_every_line_with_its_level() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = seen.clone();
        let log = Log::tapped(move |level, line| kept.lock().unwrap().push((level, line.into())));
        log.info("game 1 created");
        log.warn("presence not noted");
        log.error("game 2 not loaded");
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
