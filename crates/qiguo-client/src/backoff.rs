//! When to connect again after a lost connection: soon at first, then less and less often, up
//! to a ceiling, each wait drawn at random from its upper half. Without the randomness every
//! page and window that lost a restarting server would come back in the same instant (and
//! again at each doubling); without the growth a server that is down for an hour would be
//! asked every few seconds by every client. A successful sign-in starts the sequence again.

use std::time::Duration;

/// The reconnection policy's state.
#[derive(Clone, Debug)]
pub struct Backoff {
    /// Failed tries since the last sign-in.
    tries: u32,
    /// The random draws' state (xorshift64*, never zero).
    state: u64,
}

impl Backoff {
    /// The first wait's ceiling.
    pub const FIRST: Duration = Duration::from_secs(1);
    /// The longest wait's ceiling.
    pub const CEILING: Duration = Duration::from_secs(30);

    /// A policy whose draws come from `seed` (any number; a test's fixed one, or
    /// [`Backoff::seeded_now`]).
    pub fn new(seed: u64) -> Backoff {
        Backoff {
            tries: 0,
            // SplitMix64's finaliser: neighbouring seeds give unrelated draws.
            state: mix(seed) | 1,
        }
    }

    /// A policy seeded from what differs between clients: the clock (to the nanosecond on the
    /// desktop), and in a page the browser's random numbers.
    pub fn seeded_now() -> Backoff {
        Backoff::new(seed())
    }

    /// How long to wait before the next try: between half and all of `FIRST × 2^tries`, the
    /// ceiling at most [`Backoff::CEILING`].
    pub fn next_wait(&mut self) -> Duration {
        let ceiling = Backoff::FIRST
            .saturating_mul(1 << self.tries.min(16))
            .min(Backoff::CEILING);
        self.tries = self.tries.saturating_add(1);
        let half = ceiling / 2;
        let spread = (ceiling - half).as_millis() as u64;
        half + Duration::from_millis(self.draw() % (spread + 1))
    }

    /// Signed in: the next loss waits [`Backoff::FIRST`] at most again.
    pub fn reset(&mut self) {
        self.tries = 0;
    }

    fn draw(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(not(target_arch = "wasm32"))]
fn seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // The standard library's hasher keys are random per process.
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(nanos);
    hasher.finish()
}

#[cfg(target_arch = "wasm32")]
fn seed() -> u64 {
    let high = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    let low = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    (high << 32) ^ low ^ js_sys::Date::now() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_ceiling_each_in_its_upper_half() {
        let mut backoff = Backoff::new(7);
        let ceilings = [1, 2, 4, 8, 16, 30, 30, 30, 30];
        for (i, ceiling) in ceilings.iter().enumerate() {
            let ceiling = Duration::from_secs(*ceiling);
            let wait = backoff.next_wait();
            assert!(
                wait >= ceiling / 2 && wait <= ceiling,
                "try {i}: {wait:?} for a ceiling of {ceiling:?}"
            );
        }
        // Many losses later the ceiling holds (no overflow).
        for _ in 0..100 {
            assert!(backoff.next_wait() <= Backoff::CEILING);
        }
        backoff.reset();
        assert!(backoff.next_wait() <= Backoff::FIRST);
    }

    #[test]
    fn clients_that_lost_the_same_server_come_back_at_different_times() {
        // Twenty clients seeded one apart (the worst case: neighbouring clocks) spread their
        // third try over its whole window of 2 to 4 s.
        let waits: Vec<Duration> = (0..20u64)
            .map(|seed| {
                let mut backoff = Backoff::new(seed);
                backoff.next_wait();
                backoff.next_wait();
                backoff.next_wait()
            })
            .collect();
        let first = *waits.iter().min().unwrap();
        let last = *waits.iter().max().unwrap();
        assert!(last - first > Duration::from_millis(1000), "{waits:?}");
        let mut distinct = waits.clone();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() >= 18, "{waits:?}");
        // Seeded from the clock, two policies differ too.
        let a: Vec<_> = {
            let mut b = Backoff::seeded_now();
            (0..6).map(|_| b.next_wait()).collect()
        };
        let b: Vec<_> = {
            let mut b = Backoff::seeded_now();
            (0..6).map(|_| b.next_wait()).collect()
        };
        assert_ne!(a, b);
    }
}
