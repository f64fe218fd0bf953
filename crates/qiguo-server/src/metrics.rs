//! What a running server counts, for the operator's Prometheus (`--metrics ADDR`, the text
//! format at `/metrics`): connections and sessions open, moves stored and how long storing
//! took, refusals by their code, connections turned away by the limit, e-mails and notifications by outcome,
//! searches waiting, games and players held.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::protocol::Refusal;

/// The upper bounds of the store-time histogram's buckets, in seconds.
const BUCKETS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0];

/// The server's counts.
#[derive(Debug, Default)]
pub(crate) struct Metrics {
    sessions: AtomicI64,
    moves: AtomicU64,
    talk: AtomicU64,
    /// Moves stored within each bucket's bound (not cumulative), and above the last.
    store_buckets: [AtomicU64; BUCKETS.len() + 1],
    store_micros: AtomicU64,
    refusals: Mutex<BTreeMap<&'static str, u64>>,
    turned_away: Mutex<BTreeMap<&'static str, u64>>,
    mail: Mutex<BTreeMap<&'static str, u64>>,
    push: Mutex<BTreeMap<&'static str, u64>>,
    reviews: Mutex<BTreeMap<&'static str, u64>>,
}

impl Metrics {
    /// A session signed in (`true`) or ended (`false`).
    pub(crate) fn session(&self, open: bool) {
        self.sessions
            .fetch_add(if open { 1 } else { -1 }, Ordering::Relaxed);
    }

    /// A move stored, which took `took` from asking the database to its commit.
    pub(crate) fn stored(&self, took: Duration) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        let seconds = took.as_secs_f64();
        let bucket = BUCKETS
            .iter()
            .position(|&bound| seconds <= bound)
            .unwrap_or(BUCKETS.len());
        self.store_buckets[bucket].fetch_add(1, Ordering::Relaxed);
        self.store_micros.fetch_add(
            u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// A line of table talk stored.
    pub(crate) fn talk(&self) {
        self.talk.fetch_add(1, Ordering::Relaxed);
    }

    /// A request refused.
    pub(crate) fn refused(&self, refusal: &Refusal) {
        *lock(&self.refusals).entry(refusal.code()).or_insert(0) += 1;
    }

    /// A connection turned away before the upgrade, for `limit` (a short name).
    pub(crate) fn turned_away(&self, limit: &'static str) {
        *lock(&self.turned_away).entry(limit).or_insert(0) += 1;
    }

    /// An e-mail of the outbox sent, retried, dropped or given up (`outcome`).
    pub(crate) fn mail(&self, outcome: &'static str) {
        *lock(&self.mail).entry(outcome).or_insert(0) += 1;
    }

    /// A notification of the outbox pushed, retried, dropped or given up (`outcome`).
    pub(crate) fn push(&self, outcome: &'static str) {
        *lock(&self.push).entry(outcome).or_insert(0) += 1;
    }

    /// A review job ended here: `kept`, `failed` (the game could not be reviewed), `lost` (its
    /// claim ran out and another took it) or `given_back` (the server shut down).
    pub(crate) fn review(&self, outcome: &'static str) {
        *lock(&self.reviews).entry(outcome).or_insert(0) += 1;
    }

    /// The counts in Prometheus's text format, with the gauges read now.
    pub(crate) fn render(
        &self,
        connections: usize,
        searches_waiting: usize,
        games_held: usize,
        players_held: usize,
    ) -> String {
        let mut out = String::new();
        let mut gauge = |name: &str, help: &str, value: i64| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}"
            );
        };
        gauge(
            "qiguo_connections",
            "Connections open (each counted until its session ends).",
            connections as i64,
        );
        gauge(
            "qiguo_sessions",
            "Signed-in sessions open.",
            self.sessions.load(Ordering::Relaxed),
        );
        gauge(
            "qiguo_searches_waiting",
            "Computers' searches waiting for a thread.",
            searches_waiting as i64,
        );
        gauge(
            "qiguo_games_held",
            "Games held in memory.",
            games_held as i64,
        );
        gauge(
            "qiguo_players_held",
            "Players' own channels held in memory.",
            players_held as i64,
        );
        let _ = writeln!(
            out,
            "# HELP qiguo_moves_total Moves stored.\n# TYPE qiguo_moves_total counter\nqiguo_moves_total {}",
            self.moves.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP qiguo_talk_lines_total Lines of table talk stored.\n# TYPE qiguo_talk_lines_total counter\nqiguo_talk_lines_total {}",
            self.talk.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP qiguo_refusals_total Requests refused, by code.\n# TYPE qiguo_refusals_total counter"
        );
        for (code, n) in lock(&self.refusals).iter() {
            let _ = writeln!(out, "qiguo_refusals_total{{code=\"{code}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP qiguo_turned_away_total Connections turned away before the upgrade, by limit.\n# TYPE qiguo_turned_away_total counter"
        );
        for (limit, n) in lock(&self.turned_away).iter() {
            let _ = writeln!(out, "qiguo_turned_away_total{{limit=\"{limit}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP qiguo_mail_total E-mails of the outbox looked at, by outcome (sent, retried, dropped, given_up).\n# TYPE qiguo_mail_total counter"
        );
        for (outcome, n) in lock(&self.mail).iter() {
            let _ = writeln!(out, "qiguo_mail_total{{outcome=\"{outcome}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP qiguo_push_total Notifications to devices of the outbox looked at, by outcome (sent, retried, dropped, given_up).\n# TYPE qiguo_push_total counter"
        );
        for (outcome, n) in lock(&self.push).iter() {
            let _ = writeln!(out, "qiguo_push_total{{outcome=\"{outcome}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP qiguo_reviews_total Review jobs this server ended, by outcome (kept, failed, lost, given_back).\n# TYPE qiguo_reviews_total counter"
        );
        for (outcome, n) in lock(&self.reviews).iter() {
            let _ = writeln!(out, "qiguo_reviews_total{{outcome=\"{outcome}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP qiguo_move_store_seconds Time from asking the database to store a move to its commit.\n# TYPE qiguo_move_store_seconds histogram"
        );
        let mut cumulative = 0;
        for (i, bound) in BUCKETS.iter().enumerate() {
            cumulative += self.store_buckets[i].load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "qiguo_move_store_seconds_bucket{{le=\"{bound}\"}} {cumulative}"
            );
        }
        cumulative += self.store_buckets[BUCKETS.len()].load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "qiguo_move_store_seconds_bucket{{le=\"+Inf\"}} {cumulative}\nqiguo_move_store_seconds_sum {}\nqiguo_move_store_seconds_count {cumulative}",
            self.store_micros.load(Ordering::Relaxed) as f64 / 1e6
        );
        out
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_read_in_prometheus_text() {
        let metrics = Metrics::default();
        metrics.session(true);
        metrics.stored(Duration::from_micros(1500));
        metrics.stored(Duration::from_millis(30));
        metrics.stored(Duration::from_secs(3));
        metrics.refused(&Refusal::SlowDown { seconds: 3 });
        metrics.refused(&Refusal::SlowDown { seconds: 5 });
        metrics.refused(&Refusal::NoCode);
        metrics.turned_away("per_address");
        metrics.mail("sent");
        metrics.mail("sent");
        metrics.mail("retried");
        metrics.review("kept");
        let text = metrics.render(1, 2, 5, 4);
        for line in [
            "qiguo_connections 1",
            "qiguo_sessions 1",
            "qiguo_searches_waiting 2",
            "qiguo_games_held 5",
            "qiguo_players_held 4",
            "qiguo_moves_total 3",
            "qiguo_refusals_total{code=\"slow_down\"} 2",
            "qiguo_refusals_total{code=\"no_code\"} 1",
            "qiguo_turned_away_total{limit=\"per_address\"} 1",
            "qiguo_mail_total{outcome=\"sent\"} 2",
            "qiguo_mail_total{outcome=\"retried\"} 1",
            "qiguo_reviews_total{outcome=\"kept\"} 1",
            "qiguo_move_store_seconds_bucket{le=\"0.001\"} 0",
            "qiguo_move_store_seconds_bucket{le=\"0.002\"} 1",
            "qiguo_move_store_seconds_bucket{le=\"0.05\"} 2",
            "qiguo_move_store_seconds_bucket{le=\"1\"} 2",
            "qiguo_move_store_seconds_bucket{le=\"+Inf\"} 3",
            "qiguo_move_store_seconds_count 3",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
        metrics.session(false);
        assert!(metrics.render(0, 0, 0, 0).contains("qiguo_sessions 0\n"));
    }
}
