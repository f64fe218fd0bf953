//! Who the server lets in, and how much each may ask: every limit that keeps one client (or one
//! address) from starving the others, in one [`Limits`] the operator sets (`--max-connections`
//! and friends), and the bookkeeping that holds them ([`Admission`]).
//!
//! - Connections: in all, per address, and per signed-in player. Each is counted by a slot the
//!   connection holds until its session ends ([`Slot`]), not only until the upgrade.
//! - Rates, per address: new players, new games and invitation codes looked up, each a
//!   token bucket (`governor`'s GCRA) that refills over a minute.
//! - An address is the client's IP, IPv6 grouped by its /64 (one household or one machine has
//!   a whole /64); behind a proxy the operator names, the client's own address from its
//!   `X-Forwarded-For`, and from nowhere else (anyone can write the header).
//!
//! - Time: a deadline on every step before a client is signed in (TLS handshake, each HTTP
//!   request's headers, the hello), and pings for a signed-in session that falls silent.
//!
//! The games a player may have in progress are counted by the hub, from the database.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::protocol::Refusal;
use crate::store::PlayerId;

/// The limits a server keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections served at once, in all.
    pub connections: usize,
    /// Connections served at once from one address (IPv6: one /64).
    pub per_address: usize,
    /// Connections one signed-in player may have open at once.
    pub per_player: usize,
    /// Unfinished games one player may hold a seat in.
    pub games_per_player: u32,
    /// New players one address may make a minute.
    pub new_players_per_minute: u32,
    /// New games one address may create a minute.
    pub new_games_per_minute: u32,
    /// Invitation codes one address may look up a minute (to join or to watch).
    pub codes_per_minute: u32,
    /// Lines of table talk one player may write a minute.
    pub talk_per_minute: u32,
    /// Proxies whose `X-Forwarded-For` names the client (nobody else's is believed).
    pub trusted_proxies: Vec<IpAddr>,
    /// How long a client has for each step before it is signed in: the TLS handshake, an
    /// HTTP request's headers (the first, or the next on a kept connection) and the hello.
    pub hello_within: Duration,
    /// How long a signed-in session may be silent before it is pinged; one silent for twice
    /// as long is closed.
    pub ping_after: Duration,
}

impl Default for Limits {
    /// Room for a public server on a small machine: 4,096 connections, 32 from one address (a
    /// school or a family behind one router), 8 for one player (a window, a page, a phone…),
    /// 100 games in progress a player, and per address and minute 10 new players, 30 new games
    /// and 60 invitation codes, 12 lines of table talk a player and minute; 10 seconds for each step before signing in, a ping after 30
    /// silent seconds and the session closed after 60.
    fn default() -> Limits {
        Limits {
            connections: 4096,
            per_address: 32,
            per_player: 8,
            games_per_player: 100,
            new_players_per_minute: 10,
            new_games_per_minute: 30,
            codes_per_minute: 60,
            talk_per_minute: 12,
            trusted_proxies: Vec::new(),
            hello_within: Duration::from_secs(10),
            ping_after: Duration::from_secs(30),
        }
    }
}

/// The address a client is counted and limited by: an IPv4 address as it is (also written
/// as an IPv4-mapped IPv6 address), an IPv6 address by its first 64 bits.
pub fn address_group(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The client's address: the TCP peer's, unless the peer is a proxy in `trusted`; then the
/// last address in its `X-Forwarded-For` that is not itself a trusted proxy (each proxy adds
/// the address it was reached from at the end, so earlier ones are the client's to write).
/// `None` when a trusted proxy sent no address it can be believed on.
pub fn client_address(
    peer: IpAddr,
    forwarded_for: Option<&str>,
    trusted: &[IpAddr],
) -> Option<IpAddr> {
    if !trusted.contains(&peer) {
        return Some(peer);
    }
    let forwarded = forwarded_for?;
    for hop in forwarded.rsplit(',') {
        let ip: IpAddr = hop.trim().parse().ok()?;
        if !trusted.contains(&ip) {
            return Some(ip);
        }
    }
    None
}

/// What a limit refused, for the log, the metrics and the client's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Connections in all.
    Connections,
    /// Connections from the address.
    PerAddress,
    /// A trusted proxy named no client.
    NoClientAddress,
}

impl Limit {
    /// Its short name, for the metrics.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Connections => "connections",
            Limit::PerAddress => "per_address",
            Limit::NoClientAddress => "no_client_address",
        }
    }

    /// The reason given with an HTTP 503 before the upgrade.
    pub fn reason(self) -> &'static str {
        match self {
            Limit::Connections => "the server is full: try again in a minute",
            Limit::PerAddress => "too many connections from your address: close one first",
            Limit::NoClientAddress => "the proxy did not say who the client is",
        }
    }
}

/// Counts held by live slots, per key; a key's entry goes with its last slot.
struct Counts<K> {
    held: Mutex<HashMap<K, usize>>,
}

impl<K: Eq + Hash + Clone + Send + Sync + 'static> Counts<K> {
    fn new() -> Arc<Counts<K>> {
        Arc::new(Counts {
            held: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, usize>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One more for `key`, unless it has `max` already.
    fn take(self: &Arc<Self>, key: K, max: usize) -> Option<Slot> {
        let mut held = self.lock();
        let count = held.entry(key.clone()).or_insert(0);
        if *count >= max {
            if *count == 0 {
                held.remove(&key);
            }
            return None;
        }
        *count += 1;
        drop(held);
        let counts = self.clone();
        Some(Slot {
            release: Some(Box::new(move || {
                let mut held = counts.lock();
                if let Some(count) = held.get_mut(&key) {
                    *count -= 1;
                    if *count == 0 {
                        held.remove(&key);
                    }
                }
            })),
        })
    }

    fn len(&self) -> usize {
        self.lock().len()
    }
}

/// A place among the connections counted for an address or a player, given back when dropped.
pub struct Slot {
    release: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Slot")
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            release();
        }
    }
}

type Bucket<K = IpAddr> = RateLimiter<K, HashMapStateStore<K>, DefaultClock>;

fn bucket<K: Eq + Hash + Clone>(per_minute: u32) -> Bucket<K> {
    let n = NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
    RateLimiter::hashmap(Quota::per_minute(n))
}

/// A kind of request limited per address and minute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rated {
    /// A hello as a new player.
    NewPlayer,
    /// A new game.
    NewGame,
    /// A join or watch by invitation code.
    Code,
}

impl std::fmt::Debug for Admission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Admission")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// The server's limits and what holds them.
pub struct Admission {
    limits: Limits,
    addresses: Arc<Counts<IpAddr>>,
    players: Arc<Counts<PlayerId>>,
    new_players: Bucket,
    new_games: Bucket,
    codes: Bucket,
    talk: Bucket<PlayerId>,
    clock: DefaultClock,
}

impl Admission {
    /// Keeps `limits`.
    pub fn new(limits: Limits) -> Admission {
        Admission {
            new_players: bucket(limits.new_players_per_minute),
            new_games: bucket(limits.new_games_per_minute),
            codes: bucket(limits.codes_per_minute),
            talk: bucket(limits.talk_per_minute),
            addresses: Counts::new(),
            players: Counts::new(),
            clock: DefaultClock::default(),
            limits,
        }
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether connections from `peer` are counted when accepted (a trusted proxy's are
    /// counted by the client it names, once its request is read).
    pub fn counts_at_accept(&self, peer: IpAddr) -> bool {
        !self.limits.trusted_proxies.contains(&peer)
    }

    /// A place for one more connection from `client`'s address.
    pub fn address_slot(&self, client: IpAddr) -> Result<Slot, Limit> {
        self.addresses
            .take(address_group(client), self.limits.per_address)
            .ok_or(Limit::PerAddress)
    }

    /// A place for one more connection of `player`.
    pub fn player_slot(&self, player: &PlayerId) -> Result<Slot, Refusal> {
        self.players
            .take(player.clone(), self.limits.per_player)
            .ok_or(Refusal::TooManyConnections {
                max: self.limits.per_player as u32,
            })
    }

    /// Takes one request of `kind` from `client`'s address, or says when the next is taken.
    pub fn rate(&self, kind: Rated, client: IpAddr) -> Result<(), Refusal> {
        let bucket = match kind {
            Rated::NewPlayer => &self.new_players,
            Rated::NewGame => &self.new_games,
            Rated::Code => &self.codes,
        };
        bucket
            .check_key(&address_group(client))
            .map_err(|not_yet| self.slow_down(not_yet.wait_time_from(self.clock.now())))
    }

    /// Takes one line of table talk from `player`, or says when the next is taken.
    pub fn rate_talk(&self, player: &PlayerId) -> Result<(), Refusal> {
        self.talk
            .check_key(player)
            .map_err(|not_yet| self.slow_down(not_yet.wait_time_from(self.clock.now())))
    }

    fn slow_down(&self, wait: Duration) -> Refusal {
        Refusal::SlowDown {
            seconds: u32::try_from(wait.as_secs() + 1).unwrap_or(u32::MAX),
        }
    }

    /// Forgets the addresses whose buckets are full again, so that what the limits keep
    /// follows the clients of the last minute (called by the server now and then).
    pub fn forget_idle(&self) {
        for bucket in [&self.new_players, &self.new_games, &self.codes] {
            bucket.retain_recent();
            bucket.shrink_to_fit();
        }
        self.talk.retain_recent();
        self.talk.shrink_to_fit();
    }

    /// Addresses and players counted now (for the metrics and the tests).
    pub fn counted(&self) -> (usize, usize) {
        (self.addresses.len(), self.players.len())
    }
}

/// How often [`Admission::forget_idle`] runs.
pub const FORGET_EVERY: Duration = Duration::from_secs(60);

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ipv6_addresses_are_counted_by_their_64_bits() {
        assert_eq!(
            address_group(ip("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            address_group(ip("2001:db8:1:2:ffff:1:2:3")),
            ip("2001:db8:1:2::")
        );
        assert_ne!(address_group(ip("2001:db8:1:3::1")), ip("2001:db8:1:2::"));
        assert_eq!(address_group(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(address_group(ip("192.0.2.7")), ip("192.0.2.7"));
    }

    #[test]
    fn forwarded_for_is_believed_only_from_a_trusted_proxy() {
        let proxy = ip("10.0.0.1");
        let trusted = [proxy, ip("10.0.0.2")];
        // Anyone else's header is ignored.
        assert_eq!(
            client_address(ip("198.51.100.9"), Some("203.0.113.5"), &trusted),
            Some(ip("198.51.100.9"))
        );
        // The proxy's last hop that is not a proxy: what the client wrote before it is not.
        assert_eq!(
            client_address(proxy, Some("1.2.3.4, 203.0.113.5, 10.0.0.2"), &trusted),
            Some(ip("203.0.113.5"))
        );
        assert_eq!(client_address(proxy, None, &trusted), None);
        assert_eq!(client_address(proxy, Some("nonsense"), &trusted), None);
        assert_eq!(client_address(proxy, Some("10.0.0.2"), &trusted), None);
    }

    #[test]
    fn slots_count_until_dropped_per_address_and_per_player() {
        let admission = Admission::new(Limits {
            per_address: 2,
            per_player: 1,
            ..Limits::default()
        });
        let a = admission.address_slot(ip("192.0.2.1")).unwrap();
        let b = admission.address_slot(ip("192.0.2.1")).unwrap();
        assert_eq!(
            admission.address_slot(ip("192.0.2.1")).unwrap_err(),
            Limit::PerAddress
        );
        // Another address is counted apart; one in the same /64 with the first of its kind.
        let _c = admission.address_slot(ip("2001:db8::1")).unwrap();
        let _d = admission.address_slot(ip("2001:db8::2")).unwrap();
        assert!(admission.address_slot(ip("2001:db8::3")).is_err());
        drop(a);
        let _e = admission.address_slot(ip("192.0.2.1")).unwrap();
        drop(b);
        let ann = PlayerId("ann".into());
        let first = admission.player_slot(&ann).unwrap();
        assert_eq!(
            admission.player_slot(&ann).unwrap_err(),
            Refusal::TooManyConnections { max: 1 }
        );
        drop(first);
        let again = admission.player_slot(&ann).unwrap();
        assert_eq!(admission.counted(), (2, 1));
        drop(again);
        drop(_e);
        assert_eq!(
            admission.counted(),
            (1, 0),
            "entries go with their last slot"
        );
    }

    #[test]
    fn rates_refuse_with_the_time_to_wait_per_address() {
        let admission = Admission::new(Limits {
            new_games_per_minute: 3,
            ..Limits::default()
        });
        let here = ip("192.0.2.1");
        for _ in 0..3 {
            admission.rate(Rated::NewGame, here).unwrap();
        }
        match admission.rate(Rated::NewGame, here) {
            Err(Refusal::SlowDown { seconds }) => assert!((1..=21).contains(&seconds)),
            other => panic!("{other:?}"),
        }
        // Other kinds and other addresses have buckets of their own.
        admission.rate(Rated::Code, here).unwrap();
        admission.rate(Rated::NewGame, ip("192.0.2.2")).unwrap();
    }
}
