//! Tournaments' tables and points, worked out from numbers alone (pure, no database).
//!
//! **Swiss tables** ([`swiss_tables`]): the players in order of standing are seated at the
//! fewest tables of seven, as even as their count allows ([`table_sizes`]: nobody sits a round
//! out, computers hold the kingdoms nobody takes), the leaders at the first table. Each table
//! starts with the best placed player not yet seated; each further seat goes to the one, among
//! the next [`LOOK_AHEAD`] by standing, who has met those already at the table least often
//! (ties to the better placed). Standing decides the tables; repeats are avoided within a
//! window narrow enough that a table still holds players of like score.
//!
//! **Arena tables** ([`arena_tables`]): of the people waiting, the longest waiting first, whole
//! tables of seven as soon as seven wait; once one has waited [`ARENA_WAIT_SECONDS`], everyone
//! waiting, at tables as even as the count allows. Within the people seated at once, those of
//! like points sit together.
//!
//! **Points by place** ([`place_points`]): two halves for each other seat a person finished ahead
//! of, one for each they tied with.

use std::collections::HashMap;
use std::hash::Hash;

use qiguo_protocol::evenings::table_sizes;
use qiguo_protocol::tournaments::ARENA_WAIT_SECONDS;

/// How many players below the next by standing are looked at for a seat: in a field of 343
/// over seven rounds of random places, six let 1.2 % of meetings repeat an earlier one, nine
/// 1.0 %, thirteen 0.7 % (the test below); a window of thirteen still seats players of like
/// score together (see `docs/performance.md`).
pub const LOOK_AHEAD: usize = 13;

/// The tables of a Swiss round for `order` (the players by standing, the leader first), given
/// how often each pair met before (`met`, either order): each table its players in seat order.
pub fn swiss_tables<P: Clone + Eq + Hash + Ord>(
    order: &[P],
    met: &HashMap<(P, P), u32>,
) -> Vec<Vec<P>> {
    let meetings = |a: &P, b: &P| met.get(&pair(a, b)).copied().unwrap_or(0);
    let mut left: std::collections::VecDeque<P> = order.iter().cloned().collect();
    let mut tables = Vec::new();
    for size in table_sizes(order.len()) {
        let Some(first) = left.pop_front() else {
            break;
        };
        let mut table = vec![first];
        while table.len() < size {
            let window = left.len().min(LOOK_AHEAD + 1);
            let best = (0..window).min_by_key(|&i| {
                let repeats: u32 = table.iter().map(|s| meetings(s, &left[i])).sum();
                (repeats, i)
            });
            let Some(player) = best.and_then(|i| left.remove(i)) else {
                break;
            };
            table.push(player);
        }
        tables.push(table);
    }
    tables
}

/// The pairs key of `met` for `a` and `b`: the lower first.
pub fn pair<P: Clone + Ord>(a: &P, b: &P) -> (P, P) {
    if a < b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    }
}

/// One person waiting for an arena's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting<P> {
    /// Who.
    pub player: P,
    /// Since when, ms since 1970.
    pub since_ms: i64,
    /// Their points so far (halves).
    pub points: u32,
}

/// The tables to seat now in an arena at `now`, of the people `waiting`: each table its players.
pub fn arena_tables<P: Clone>(waiting: &[Waiting<P>], now: i64) -> Vec<Vec<P>> {
    let mut waiting: Vec<&Waiting<P>> = waiting.iter().collect();
    waiting.sort_by_key(|w| w.since_ms);
    let Some(oldest) = waiting.first() else {
        return Vec::new();
    };
    let long = now - oldest.since_ms >= i64::from(ARENA_WAIT_SECONDS) * 1000;
    let seated = if long {
        waiting.len()
    } else {
        waiting.len() / 7 * 7
    };
    let mut now_seated: Vec<&Waiting<P>> = waiting.into_iter().take(seated).collect();
    // Like points together (a stable sort: the longer waiting first among equals).
    now_seated.sort_by_key(|w| std::cmp::Reverse(w.points));
    let mut people = now_seated.into_iter().map(|w| w.player.clone());
    table_sizes(seated)
        .into_iter()
        .map(|size| people.by_ref().take(size).collect())
        .collect()
}

/// The points (in halves) of each of `places` — one per side, each with its seat, places from
/// 1 — against the other seats: two for each seat it finished ahead of, one for each it tied
/// with. A seat with more than one side (a person who left, and who played on in it) is
/// compared by its best place, how the seat itself finished.
pub fn place_points(places: &[(u8, u8)]) -> Vec<u32> {
    let mut best: HashMap<u8, u8> = HashMap::new();
    for &(seat, place) in places {
        let b = best.entry(seat).or_insert(place);
        *b = (*b).min(place);
    }
    places
        .iter()
        .map(|&(seat, place)| {
            best.iter()
                .filter(|&(&other, _)| other != seat)
                .map(|(_, &theirs)| match place.cmp(&theirs) {
                    std::cmp::Ordering::Less => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 0,
                })
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift for random places, the same each run.
    struct Draw(u64);

    impl Draw {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn the_leaders_sit_at_the_first_table_and_nobody_sits_out() {
        let order: Vec<u32> = (0..20).collect();
        let tables = swiss_tables(&order, &HashMap::new());
        assert_eq!(
            tables,
            vec![
                (0..7).collect::<Vec<_>>(),
                (7..14).collect(),
                (14..20).collect()
            ]
        );
    }

    #[test]
    fn those_who_met_are_kept_apart_where_the_standings_allow() {
        let order: Vec<u32> = (0..14).collect();
        let mut met = HashMap::new();
        // 0 met 1 to 6 already: 7 and beyond come first.
        for b in 1..7 {
            met.insert(pair(&0, &b), 1);
        }
        let tables = swiss_tables(&order, &met);
        assert_eq!(tables[0][0], 0);
        assert!(tables[0].contains(&7), "{tables:?}");
        let all: Vec<u32> = {
            let mut all: Vec<u32> = tables.concat();
            all.sort();
            all
        };
        assert_eq!(all, order, "each seated once");
    }

    /// 343 players, seven rounds of random places: every round seats everyone once at 49
    /// tables, and few pairs meet twice.
    #[test]
    fn a_swiss_of_343_seats_everyone_and_repeats_little() {
        let n = 343u32;
        let mut points = vec![0u32; n as usize];
        let mut met: HashMap<(u32, u32), u32> = HashMap::new();
        let mut draw = Draw(0x5eed);
        let mut meetings = 0;
        let mut repeats = 0;
        for _ in 0..7 {
            let mut order: Vec<u32> = (0..n).collect();
            order.sort_by_key(|&p| (std::cmp::Reverse(points[p as usize]), p));
            let tables = swiss_tables(&order, &met);
            assert_eq!(tables.len(), 49);
            assert!(tables.iter().all(|t| t.len() == 7));
            let mut seen: Vec<u32> = tables.concat();
            seen.sort();
            assert_eq!(seen, (0..n).collect::<Vec<_>>());
            for table in &tables {
                for (i, a) in table.iter().enumerate() {
                    for b in &table[i + 1..] {
                        let count = met.entry(pair(a, b)).or_default();
                        meetings += 1;
                        repeats += u32::from(*count > 0);
                        *count += 1;
                    }
                }
                let mut seats = table.clone();
                for i in (1..seats.len()).rev() {
                    let j = (draw.next() % (i as u64 + 1)) as usize;
                    seats.swap(i, j);
                }
                for (place, &p) in seats.iter().enumerate() {
                    points[p as usize] += 2 * (6 - place as u32);
                }
            }
        }
        assert_eq!(meetings, 7 * 49 * 21);
        println!("{repeats} of {meetings} meetings repeat");
        assert!(
            repeats * 100 <= meetings,
            "{repeats} of {meetings} meetings repeat"
        );
    }

    #[test]
    fn an_arena_seats_seven_at_once_and_one_after_the_wait() {
        let at = |player: u32, since_ms: i64, points: u32| Waiting {
            player,
            since_ms,
            points,
        };
        let now = 1_000_000;
        let six: Vec<_> = (0..6).map(|p| at(p, now - 5_000, 0)).collect();
        assert!(arena_tables(&six, now).is_empty(), "six wait for a seventh");
        let mut nine = six.clone();
        nine.extend((6..9).map(|p| at(p, now - 1_000, p)));
        let tables = arena_tables(&nine, now);
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].len(), 7, "the seven waiting longest");
        assert!(!tables[0].contains(&7) && !tables[0].contains(&8));
        let lone = [at(5, now - 20_000, 0)];
        assert_eq!(
            arena_tables(&lone, now),
            vec![vec![5]],
            "alone after the wait"
        );
        let mut eight: Vec<_> = (0..8).map(|p| at(p, now - 25_000, p)).collect();
        eight[0].since_ms = now - 30_000;
        let tables = arena_tables(&eight, now);
        assert_eq!(
            tables.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![4, 4],
            "everyone, as even as can be"
        );
        assert_eq!(tables[0], vec![7, 6, 5, 4], "the higher points together");
    }

    #[test]
    fn points_by_place_count_the_seats_beaten() {
        // Seven seats: a winner, two tied second, the rest in order.
        let places = [(0, 1), (1, 2), (2, 2), (3, 4), (4, 5), (5, 6), (6, 7)];
        assert_eq!(place_points(&places), vec![12, 9, 9, 6, 4, 2, 0]);
        assert_eq!(
            place_points(&places).iter().sum::<u32>(),
            42,
            "a full table's points always sum to 42 halves"
        );
        // Seat 3's person left (placed 6th as it stood), and the computer after them finished
        // 4th: the others are compared with the seat's 4th.
        let with_leaver = [
            (0, 1),
            (1, 2),
            (2, 2),
            (3, 4),
            (3, 6),
            (4, 5),
            (5, 7),
            (6, 8),
        ];
        let points = place_points(&with_leaver);
        assert_eq!(points[4], 4, "the leaver: ahead of two seats");
        assert_eq!(points[5], 4, "seat 4: behind seat 3's finish");
    }
}
