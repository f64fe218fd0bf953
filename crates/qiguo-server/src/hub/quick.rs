//! Quick play ("Play now"): a person asks for a pace and is seated at once — in a quick game of
//! that pace under way, taking over a computer's kingdom, or else in a new game against
//! computers, which the people who ask after them take over in turn.
//!
//! Which game and which kingdom is the policy written in `docs/online.md`: among the youngest
//! quick games of the pace, first those where a person is waiting for company (present, and no
//! other person yet), then the fewest moves played; in the game, a computer's kingdom still in
//! the game and in the best standing (most pieces left, then fewest lost), never the one whose
//! move it is (a computer is searching for it, on this server or another). The seat is taken in
//! the database only if a computer
//! still holds it, so that two newcomers, on one server or two, never get the same kingdom.

use std::sync::Arc;

use qiguo_protocol::{QuickPace, RatingFamily, TakenOver};
use qiguo_rules::{Game, Kingdom, Level, PlayerInfo, Position, Record, Rules, Standing};
use tokio::sync::broadcast;

use super::conduct::kept_apart_in;
use super::core::Core;
use super::{Shared, shown_name};
use crate::live::{DAY_MS, LiveGame, SeatsPresent};
use crate::log::{Log, escaped, note};
use crate::protocol::{Event, GameView, NewGame, Refusal};
use crate::rated;
use crate::store::{GameId, PlayerId, SeatPlan, Store, StoreError};

/// The quick games a person may play at once.
pub(crate) const QUICK_GAMES_AT_ONCE: u32 = 3;

/// How many of the youngest quick games of a pace are looked at for a newcomer.
const LOOKED_AT: u32 = 24;

/// How long a person who left rated games lately waits before their next quick game, after
/// the last they left, by how many they left in the last day: the first is forgiven, then 5
/// minutes, 15, and an hour from the fourth on.
pub(crate) fn leaver_wait_ms(left_in_a_day: u32) -> i64 {
    const MINUTE: i64 = 60_000;
    match left_in_a_day {
        0 | 1 => 0,
        2 => 5 * MINUTE,
        3 => 15 * MINUTE,
        _ => 60 * MINUTE,
    }
}

/// Ratings closer than this (shown points) count as alike when a newcomer is seated.
const RATING_BAND: i64 = 200;

/// A computer's kingdom a newcomer could take over, and how good an offer it is.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Offer {
    seat: u8,
    level: Level,
    kingdom: Kingdom,
    /// Whether a person is waiting for company: present, and alone among computers.
    company: bool,
    /// How far the people's ratings in the game are from the newcomer's, in bands of
    /// [`RATING_BAND`] points (0: within one band, or nobody to compare with).
    distance: u32,
    moves: u32,
    army: usize,
    lost: u32,
}

impl Offer {
    /// The better offer sorts first: company, ratings near the newcomer's, a younger game, then
    /// the kingdom's standing.
    fn rank(&self) -> (bool, u32, u32, std::cmp::Reverse<usize>, u32, u8) {
        (
            !self.company,
            self.distance,
            self.moves,
            std::cmp::Reverse(self.army),
            self.lost,
            self.seat,
        )
    }
}

/// The best kingdom of `game` for a newcomer, if any: a computer's seat of one kingdom still in
/// the game, not the one to move (a computer searches for it now, here or on another server), in
/// the best standing.
/// `present` says which seats' people have the game open; `newcomer` is the newcomer's rating
/// (shown points) in the pace's family.
fn best_offer(game: &LiveGame, present: SeatsPresent, newcomer: i64) -> Option<Offer> {
    if game.is_over() {
        return None;
    }
    let position = game.game().position();
    let seating = game.game().start_position().seats();
    let people: Vec<u8> = (0..game.seats().len() as u8)
        .filter(|&i| {
            let seat = &game.seats()[usize::from(i)];
            seat.holder.is_some() && !matches!(seat.plan, SeatPlan::Computer(_))
        })
        .collect();
    let distance = match people.len() {
        0 => 0,
        n => {
            let sum: i64 = people
                .iter()
                .map(|&i| rated::shown(game.seats()[usize::from(i)].rating).points)
                .sum();
            ((sum / n as i64 - newcomer).abs() / RATING_BAND) as u32
        }
    };
    let company = people.len() == 1
        && present
            .get(usize::from(people[0]))
            .copied()
            .unwrap_or(false);
    game.seats()
        .iter()
        .enumerate()
        .filter_map(|(i, seat)| {
            let SeatPlan::Computer(level) = seat.plan else {
                return None;
            };
            let i = i as u8;
            if seat.holder.is_some() || game.seat_to_move() == i {
                return None;
            }
            // One kingdom a seat in quick play; a seat of several is not offered.
            let mut kingdoms = Kingdom::ALL
                .into_iter()
                .filter(|&k| seating.player(k) == Some(i));
            let kingdom = kingdoms.next()?;
            if kingdoms.next().is_some() || position.standing(kingdom) != Standing::InGame {
                return None;
            }
            Some(Offer {
                seat: i,
                level,
                kingdom,
                company,
                distance,
                moves: game.game().len() as u32,
                army: position.army_size(kingdom),
                lost: position.losses(kingdom),
            })
        })
        .min_by_key(Offer::rank)
}

/// A new quick game of `pace`: the classic rules, seven kingdoms, the asker as Qin (who moves
/// first, so that they play at once) and the pace's computers in the other six.
fn new_quick_game(pace: QuickPace) -> NewGame {
    let level = pace.level();
    let mut players = PlayerInfo::defaults(7);
    for player in players.iter_mut().skip(1) {
        player.computer = Some(level);
    }
    let start = Game::new(Position::start(Rules::default()));
    let mut seats = vec![SeatPlan::Creator];
    seats.extend([SeatPlan::Computer(level); 6]);
    NewGame {
        start: Record::from_game(&start, players),
        seats,
        pace: pace.pace(),
    }
}

/// What came of trying to take a kingdom of a game over.
enum Taken {
    /// The seat.
    Seat(Box<QuickSeat>),
    /// Another newcomer took the kingdom first: the game may have another.
    Lost,
    /// The game has no kingdom to give.
    NoneLeft,
}

/// A seat given by quick play: the kingdom, what was taken over, the game and its events.
pub(crate) struct QuickSeat {
    pub(crate) kingdom: Kingdom,
    pub(crate) took_over: Option<TakenOver>,
    pub(crate) view: GameView,
    pub(crate) events: broadcast::Receiver<Event>,
}

/// The quick play slice.
pub(crate) struct Quick {
    /// The games held, where newcomers take kingdoms over.
    core: Arc<Core>,
    store: Store,
    log: Log,
}

impl Quick {
    /// Quick play on the games of `store`, held by `core`.
    pub(super) fn new(core: Arc<Core>, store: Store, log: Log) -> Quick {
        Quick { core, store, log }
    }

    /// Seats `player` at once in a quick game of `pace` (see the module's policy), and has them
    /// follow it.
    pub(crate) async fn quick(
        &self,
        player: &PlayerId,
        pace: QuickPace,
    ) -> Result<QuickSeat, Refusal> {
        if self.store.quick_games_of(player).await? >= QUICK_GAMES_AT_ONCE {
            return Err(Refusal::TooManyQuickGames {
                max: QUICK_GAMES_AT_ONCE,
            });
        }
        self.core.room_for_a_game(player).await?;
        let now = self.store.now();
        let (left, last) = self.store.leaves_since(player, now - DAY_MS).await?;
        let until = last.unwrap_or(now) + leaver_wait_ms(left);
        if until > now {
            return Err(Refusal::LeftLately {
                seconds: u32::try_from((until - now + 999) / 1000).unwrap_or(u32::MAX),
            });
        }
        let games = self.store.quick_games(pace, LOOKED_AT).await?;
        match self.take_over_in(player, games, pace.pace()).await? {
            Some(seat) => Ok(seat),
            None => self.new_quick(player, pace).await,
        }
    }

    /// Seats `player` in the best computer's kingdom (see the module's policy) of one of
    /// `games` (of `pace`), and has them follow it; `None` when none has one to give.
    pub(super) async fn take_over_in(
        &self,
        player: &PlayerId,
        games: Vec<GameId>,
        pace: qiguo_protocol::Pace,
    ) -> Result<Option<QuickSeat>, Refusal> {
        let family = RatingFamily::of(&pace);
        let newcomer = rated::shown(self.core.rating_held(player, family).await?).points;
        let apart = self.store.kept_apart(player).await?;
        let mut offers = Vec::new();
        for id in games {
            let Ok(live) = self.core.live(&id).await else {
                continue;
            };
            let g = live.lock().await;
            if !g.game.seats_of(player).is_empty() || kept_apart_in(&g.game, &apart) {
                continue;
            }
            if let Some(offer) = best_offer(&g.game, &self.core.present(&g.game), newcomer) {
                offers.push((offer, id.clone(), live.clone()));
            }
        }
        offers.sort_by_key(|(offer, ..)| offer.rank());
        for (_, id, live) in offers {
            // Another newcomer (on this server or another) may take the kingdom first: the game
            // is read again and its next kingdom tried, so that nobody gets a new game while a
            // kingdom waited. At most once per seat.
            for _ in 0..7 {
                match self.take_over(player, &id, &live, newcomer).await? {
                    Taken::Seat(seat) => return Ok(Some(*seat)),
                    Taken::Lost => continue,
                    Taken::NoneLeft => break,
                }
            }
        }
        Ok(None)
    }

    /// Takes over the best kingdom of game `id` for `player`, as it stands now (the game may
    /// have moved on since it was looked at).
    async fn take_over(
        &self,
        player: &PlayerId,
        id: &GameId,
        live: &Shared,
        newcomer: i64,
    ) -> Result<Taken, Refusal> {
        let mut g = live.lock().await;
        let Some(offer) = best_offer(&g.game, &self.core.present(&g.game), newcomer) else {
            return Ok(Taken::NoneLeft);
        };
        let ply = g.game.game().len() as u32;
        let plan = SeatPlan::Computer(offer.level);
        let name = match self
            .store
            .take_over(id, offer.seat, plan, player, ply)
            .await
        {
            Ok(name) => shown_name(&name),
            Err(StoreError::Refused(Refusal::SeatTaken { .. })) => {
                // Another server's newcomer took it: read the game again.
                drop(g);
                self.core.refresh(id).await;
                return Ok(Taken::Lost);
            }
            Err(e) => return Err(e.into()),
        };
        let position = g.game.game().position();
        let took_over = TakenOver {
            moves: ply,
            captures: position.captures(offer.kingdom),
            losses: position.losses(offer.kingdom),
            to_move: position.to_move(),
        };
        let rating = self.core.rating_held(player, g.game.family()).await?;
        let seated = g.game.take_over(offer.seat, player, &name, rating, ply);
        g.tell(seated);
        note!(
            self.log,
            INFO,
            "kingdom taken over",
            game = id.0,
            seat = offer.seat,
            ply = ply,
            by = player.0,
            name = escaped(&name)
        );
        self.core.follow(id, player, true);
        self.core.touch_lobby();
        let view = g
            .game
            .view(Some(player), &self.core.present(&g.game), self.store.now());
        let events = g.subscribe();
        drop(g);
        self.core.wake(id);
        Ok(Taken::Seat(Box::new(QuickSeat {
            kingdom: offer.kingdom,
            took_over: Some(took_over),
            view,
            events,
        })))
    }

    /// A new quick game of `pace` with `player` as Qin.
    async fn new_quick(&self, player: &PlayerId, pace: QuickPace) -> Result<QuickSeat, Refusal> {
        let created = self
            .store
            .create_quick_game(player, &new_quick_game(pace), pace)
            .await?;
        let stored = self.store.load_game(&created.id).await?;
        let live = self.core.insert(stored, 0);
        note!(
            self.log,
            INFO,
            "quick game created",
            game = created.id.0,
            pace = pace.name(),
            by = player.0
        );
        self.core.follow(&created.id, player, true);
        self.core.touch_lobby();
        let mut g = live.lock().await;
        let view = g
            .game
            .view(Some(player), &self.core.present(&g.game), self.store.now());
        let events = g.subscribe();
        drop(g);
        self.core.wake(&created.id);
        Ok(QuickSeat {
            kingdom: Kingdom::Qin,
            took_over: None,
            view,
            events,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::Mover;
    use crate::model::StoredSeat;
    use crate::store::StoredGame;

    fn quick_game(pace: QuickPace, creator: &str) -> LiveGame {
        LiveGame::from(stored_quick_game(pace, creator))
    }

    fn stored_quick_game(pace: QuickPace, creator: &str) -> StoredGame {
        let new = new_quick_game(pace);
        let record = new.start.clone();
        StoredGame {
            id: GameId("g".into()),
            code: "CODE".into(),
            creator: PlayerId(creator.into()),
            game: record.replay().unwrap(),
            record,
            seats: new
                .seats
                .iter()
                .map(|&plan| StoredSeat {
                    plan,
                    holder: (plan == SeatPlan::Creator).then(|| PlayerId(creator.into())),
                    name: (plan == SeatPlan::Creator).then(|| creator.to_owned()),
                    seen_ms: None,
                    holidays: Vec::new(),
                    taken_ply: None,
                    rating: None,
                    left: 0,
                })
                .collect(),
            pace: new.pace,
            moved_ms: 0,
            finished: false,
            stand_ins: Vec::new(),
            take_back: None,
            quick: None,
            leavers: Vec::new(),
        }
    }

    #[test]
    fn a_new_quick_game_seats_the_asker_as_qin_against_the_paces_computers() {
        for pace in QuickPace::ALL {
            let new = new_quick_game(pace);
            assert_eq!(new.check(), Ok(()), "{pace:?}");
            assert_eq!(new.seats[0], SeatPlan::Creator);
            assert!(new.seats[1..] == [SeatPlan::Computer(pace.level()); 6]);
            assert_eq!(new.pace, pace.pace());
        }
    }

    #[test]
    fn the_offer_is_a_computers_kingdom_and_company_is_seen() {
        let game = quick_game(QuickPace::Brisk, "ann");
        // Ann alone, present: she waits for company. Chu (seat 1) is the first in standing
        // order among equals (all whole armies, nothing lost).
        let offer = best_offer(
            &game,
            &[true, false, false, false, false, false, false],
            1500,
        )
        .expect("six computers' kingdoms");
        assert!(offer.company);
        assert_eq!((offer.seat, offer.kingdom), (1, Kingdom::Chu));
        assert_eq!(offer.level, QuickPace::Brisk.level());
        assert_eq!(offer.moves, 0);
        // Not present: no company to offer.
        let offer = best_offer(&game, &[false; 7], 1500).unwrap();
        assert!(!offer.company);
        // Qin's seat is a person's, never offered; at ply 0 Qin moves, so no computer's
        // kingdom is to move.
        assert_eq!(best_offer(&game, &[false; 7], 1500).unwrap().seat, 1);
    }

    #[test]
    fn the_computers_kingdom_to_move_is_not_offered() {
        let mut game = quick_game(QuickPace::Calm, "ann");
        // Qin moves: Chu (seat 1) to move, a computer searching for it here or on another
        // server: Han, the next in standing order, is offered.
        let mv = game.game().position().legal_moves()[0];
        let checked = game
            .check(Mover::Player(&PlayerId("ann".into())), 0, mv, 0)
            .unwrap();
        game.apply(checked, 0, &[true; 7]);
        assert_eq!(game.seat_to_move(), 1);
        assert_eq!(best_offer(&game, &[true; 7], 1500).unwrap().seat, 2);
    }

    #[test]
    fn a_taken_kingdom_is_a_persons_and_the_next_offer_moves_on() {
        let mut game = quick_game(QuickPace::Daily, "ann");
        let event = game.take_over(1, &PlayerId("bo".into()), "Bo", None, 0);
        assert!(matches!(event, Event::Seated { seat: 1, .. }));
        assert_eq!(game.seats()[1].plan, SeatPlan::Open);
        assert_eq!(game.seats_of(&PlayerId("bo".into())), vec![1]);
        let offer = best_offer(
            &game,
            &[true, true, false, false, false, false, false],
            1500,
        )
        .unwrap();
        assert_eq!(offer.seat, 2);
        // Two people now: nobody waits alone for company.
        assert!(!offer.company);
    }

    #[test]
    fn a_finished_game_offers_nothing() {
        let mut stored = stored_quick_game(QuickPace::Relaxed, "ann");
        stored.finished = true;
        assert_eq!(best_offer(&LiveGame::from(stored), &[false; 7], 1500), None);
    }

    #[test]
    fn leavers_wait_longer_step_by_step() {
        let waits: Vec<i64> = (0..6).map(leaver_wait_ms).collect();
        assert_eq!(waits[..2], [0, 0], "the first leave is forgiven");
        assert!(waits.windows(2).all(|w| w[0] <= w[1]), "{waits:?}");
        assert_eq!(waits[2], 5 * 60_000);
        assert_eq!(waits[4], waits[5], "an hour at most");
    }

    #[test]
    fn offers_rank_company_then_ratings_then_youth_then_standing() {
        let offer = |company, distance, moves, army, lost, seat| Offer {
            seat,
            level: Level::Easy,
            kingdom: Kingdom::Chu,
            company,
            distance,
            moves,
            army,
            lost,
        };
        let mut offers = [
            offer(false, 0, 0, 17, 0, 1),
            offer(true, 0, 40, 10, 7, 3),
            offer(false, 0, 0, 17, 0, 2),
            offer(false, 0, 0, 12, 5, 4),
            offer(true, 0, 12, 9, 8, 5),
            offer(true, 2, 0, 17, 0, 6),
            offer(false, 1, 0, 17, 0, 7),
        ];
        offers.sort_by_key(Offer::rank);
        let seats: Vec<u8> = offers.iter().map(|o| o.seat).collect();
        assert_eq!(seats, vec![5, 3, 6, 1, 2, 4, 7]);
    }

    #[test]
    fn the_distance_is_between_the_newcomer_and_the_peoples_mean_rating() {
        let mut stored = stored_quick_game(QuickPace::Brisk, "ann");
        // Ann at 1800 shown (mu 30), well established.
        stored.seats[0].rating = Some((
            qiguo_rating::Rating {
                mu: 30.0,
                sigma: 2.0,
            },
            20,
        ));
        let game = LiveGame::from(stored);
        let present = [true, false, false, false, false, false, false];
        assert_eq!(best_offer(&game, &present, 1800).unwrap().distance, 0);
        assert_eq!(best_offer(&game, &present, 1650).unwrap().distance, 0);
        assert_eq!(best_offer(&game, &present, 1500).unwrap().distance, 1);
        assert_eq!(best_offer(&game, &present, 1000).unwrap().distance, 4);
        // A game of computers only has nobody to compare with.
        let mut alone = stored_quick_game(QuickPace::Brisk, "ann");
        alone.seats[0].holder = None;
        alone.seats[0].plan = SeatPlan::Computer(Level::Easy);
        let game = LiveGame::from(alone);
        assert_eq!(best_offer(&game, &[false; 7], 900).unwrap().distance, 0);
    }

    #[tokio::test]
    async fn a_newcomer_is_seated_in_a_new_game_then_the_next_takes_a_kingdom_over() {
        let bench = crate::hub::testing::Bench::new("quick-slice").await;
        let quick = Quick::new(bench.core.clone(), bench.store.clone(), bench.log.clone());
        let ann = bench.player("Ann").await;
        let bob = bench.player("Bob").await;
        let first = quick.quick(&ann, QuickPace::Daily).await.unwrap();
        assert_eq!((first.kingdom, first.took_over), (Kingdom::Qin, None));
        let second = quick.quick(&bob, QuickPace::Daily).await.unwrap();
        assert_eq!(
            second.view.id, first.view.id,
            "the game under way is offered first"
        );
        assert_ne!(second.kingdom, Kingdom::Qin);
        assert!(second.took_over.is_some());
        bench.store.block(&ann, &bob, true).await.unwrap();
        let cy = bench.player("Cy").await;
        let third = quick.quick(&cy, QuickPace::Brisk).await.unwrap();
        assert_ne!(third.view.id, first.view.id, "another pace, another game");
        let fourth = quick.quick(&bob, QuickPace::Brisk).await.unwrap();
        assert_eq!(fourth.view.id, third.view.id);
    }
}
