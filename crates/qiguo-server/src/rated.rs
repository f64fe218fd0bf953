//! What a rated game tells the ratings, worked out from the game alone (pure): each side's place
//! and the part of the game its person played, and the computers' fixed ratings.
//!
//! **Places.** The winner first (every seat holding a winning kingdom: allies who win together
//! share the first place); then the seats still in the game at its end, sharing the next place;
//! then the seats that fell, in the reverse order they fell (the last to fall ahead), a seat
//! falling when its last kingdom fell (beaten, forfeited or conceded). Seats that tie share a
//! place, and the place after them is skipped (1, 2, 2, 4).
//!
//! **Parts.** A person who took a kingdom over from a computer mid-game is rated for the share
//! of that seat's turns (moves and passes) made from when they took it: a weight on the update
//! ([`qiguo_rating::Placed::weight`]). A person who played the seat from the start has weight 1.
//! A person a computer replaced (absent past the grace) is a side of their own, weighed by the
//! turns they held the seat for, and placed as though the seat fell when they left.
//!
//! **Computers** are sides too, at a fixed rating per level that no game changes: they anchor the
//! scale. A seat nobody held (an open seat never taken) is no side.

use qiguo_protocol::{PlayerId, RatingShown, SeatPlan};
use qiguo_rating::{PROVISIONAL_ABOVE, Rating};
use qiguo_rules::{Level, Standing};

use crate::model::StoredGame;

/// Who played a side.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Who {
    /// A person: their rating moves.
    Person(PlayerId),
    /// A computer of this level: its rating is fixed.
    Computer(Level),
}

/// One side of a finished rated game.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Side {
    /// The seat.
    pub(crate) seat: u8,
    /// Who played it.
    pub(crate) who: Who,
    /// Its place, from 1.
    pub(crate) place: u8,
    /// The share of the seat's turns its person played, 0 to 1.
    pub(crate) weight: f64,
}

/// The fixed rating of a computer of `level`. Steps of 11 points of the mean (660 shown) between
/// levels, from the node-limited matches in `docs/computer-players.md` read through the rating's
/// own model (the chance of finishing first among seven is a side's strength over the sum of
/// all seven, each `exp(mu / c)`): Medium won 47% of its games against six Easy computers, which
/// puts it about 12 above them, and Hard 50–71% against six Medium, 12 to 19 above; rounded down
/// to one step, since the samples are small. Medium sits where a new person starts.
pub(crate) fn computer_rating(level: Level) -> Rating {
    let mu = match level {
        Level::Random => 3.0,
        Level::Easy => 14.0,
        Level::Medium => 25.0,
        Level::Hard => 36.0,
    };
    Rating {
        mu,
        // Certain enough never to read as provisional; small, since no game changes it.
        sigma: PROVISIONAL_ABOVE / 2.0,
    }
}

/// A person's rating as shown: `None` means no rated game yet (a new person's rating).
pub(crate) fn shown(rating: Option<(Rating, u32)>) -> RatingShown {
    shown_left(rating, 0)
}

/// [`shown`], with the rated games they left.
pub(crate) fn shown_left(rating: Option<(Rating, u32)>, left: u32) -> RatingShown {
    let (rating, games) = rating.unwrap_or((Rating::default(), 0));
    RatingShown {
        points: rating.shown(),
        provisional: rating.provisional(),
        games,
        left,
    }
}

/// A computer's fixed rating as shown.
pub(crate) fn shown_computer(level: Level) -> RatingShown {
    RatingShown {
        points: computer_rating(level).shown(),
        provisional: false,
        games: 0,
        left: 0,
    }
}

/// The sides of finished game `stored`, in seat order: each seat held by a person or planned
/// for a computer, with its place and weight. Empty while the game is not over.
pub(crate) fn sides(stored: &StoredGame) -> Vec<Side> {
    let game = &stored.game;
    let position = game.position();
    if !(stored.finished || position.is_over()) {
        return Vec::new();
    }
    let seating = game.start_position().seats();
    let seats = stored.seats.len();
    // Each seat's kingdoms in the game at the start, and when (after how many moves) the last of
    // them fell; its turns in all, and since it was taken.
    let mut standing = vec![0u32; seats];
    for kingdom in qiguo_rules::Kingdom::ALL {
        if let Some(seat) = seating.player(kingdom)
            && game.start_position().standing(kingdom) != Standing::Absent
            && let Some(n) = standing.get_mut(usize::from(seat))
        {
            *n += 1;
        }
    }
    let present = standing.clone();
    let mut fell_after: Vec<Option<usize>> = vec![None; seats];
    let mut turns = vec![0u32; seats];
    let mut turns_since = vec![0u32; seats];
    for (n, report) in game.reports().enumerate() {
        if let Some(seat) = seating.player(report.mover).map(usize::from)
            && seat < seats
        {
            turns[seat] += 1;
            if n as u64 >= u64::from(stored.seats[seat].taken_ply.unwrap_or(0)) {
                turns_since[seat] += 1;
            }
        }
        if let Some(fallen) = &report.fallen
            && let Some(seat) = seating.player(fallen.kingdom).map(usize::from)
            && seat < seats
        {
            standing[seat] = standing[seat].saturating_sub(1);
            if standing[seat] == 0 {
                fell_after[seat] = Some(n + 1);
            }
        }
    }
    let winner = game.outcome().map(|o| o.player);
    // Each side's standing at the end, to be ordered: the seats as they ended, then the people a
    // computer replaced, who rank as though their seat fell when they left.
    let mut sides: Vec<(Side, End)> = Vec::new();
    for seat in (0..seats).filter(|&s| present[s] > 0) {
        let stored_seat = &stored.seats[seat];
        let who = match (&stored_seat.holder, stored_seat.plan) {
            (Some(player), _) => Who::Person(player.clone()),
            (None, SeatPlan::Computer(level)) => Who::Computer(level),
            (None, _) => continue,
        };
        let weight = match (&who, turns[seat]) {
            (Who::Person(_), all) if all > 0 => f64::from(turns_since[seat]) / f64::from(all),
            _ => 1.0,
        };
        let end = match fell_after[seat] {
            _ if winner == Some(seat as u8) => End::Won,
            None => End::Stood,
            Some(after) => End::Fell(std::cmp::Reverse(after)),
        };
        let side = Side {
            seat: seat as u8,
            who,
            place: 0,
            weight,
        };
        sides.push((side, end));
    }
    for leaver in &stored.leavers {
        let seat = usize::from(leaver.seat);
        if seat >= seats || present[seat] == 0 {
            continue;
        }
        let held = leaver.from_ply as usize..leaver.left_ply as usize;
        let played = game
            .reports()
            .enumerate()
            .filter(|(n, r)| seating.player(r.mover) == Some(leaver.seat) && held.contains(n))
            .count();
        let weight = match turns[seat] {
            0 => 1.0,
            all => played as f64 / f64::from(all),
        };
        // Placed where they left (or where the seat fell, had it fallen first).
        let left = leaver.left_ply as usize;
        let end = End::Fell(std::cmp::Reverse(match fell_after[seat] {
            Some(after) if after <= left => after,
            _ => left,
        }));
        let side = Side {
            seat: leaver.seat,
            who: Who::Person(leaver.player.clone()),
            place: 0,
            weight,
        };
        sides.push((side, end));
    }
    let ends: Vec<End> = sides.iter().map(|(_, end)| *end).collect();
    let mut sides: Vec<Side> = sides
        .into_iter()
        .map(|(mut side, end)| {
            side.place = (ends.iter().filter(|&&other| other < end).count() + 1) as u8;
            side
        })
        .collect();
    // A person on two sides (who left a seat and took one again): their best place only.
    let mut seen = Vec::new();
    sides.sort_by_key(|s| s.place);
    sides.retain(|side| match &side.who {
        Who::Person(p) if seen.contains(p) => false,
        Who::Person(p) => {
            seen.push(p.clone());
            true
        }
        Who::Computer(_) => true,
    });
    sides.sort_by_key(|s| s.seat);
    sides
}

/// Where a side stood at the end, the best first: the winner, those standing, then those who
/// fell (or left), the last to fall ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum End {
    Won,
    Stood,
    Fell(std::cmp::Reverse<usize>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::StoredSeat;
    use qiguo_protocol::{GameId, Pace};
    use qiguo_rules::{Game, Kingdom, Move, PlayerInfo, Position, Record, Rules};

    /// A seven-seat game: seats `people` held by persons `p0`, `p1`, …, the others Easy
    /// computers; `taken[i]` the move a seat was taken over at.
    fn stored(game: Game, people: &[u8], taken: &[(u8, u32)]) -> StoredGame {
        let record = Record::from_game(&game, PlayerInfo::defaults(7));
        let seats = (0..7u8)
            .map(|i| {
                let person = people.contains(&i);
                StoredSeat {
                    plan: if person {
                        SeatPlan::Open
                    } else {
                        SeatPlan::Computer(Level::Easy)
                    },
                    holder: person.then(|| PlayerId(format!("p{i}"))),
                    name: person.then(|| format!("P{i}")),
                    seen_ms: None,
                    holidays: Vec::new(),
                    taken_ply: taken.iter().find(|(s, _)| *s == i).map(|(_, p)| *p),
                    rating: None,
                    left: 0,
                }
            })
            .collect();
        StoredGame {
            id: GameId("g".into()),
            code: "CODE".into(),
            creator: PlayerId("p0".into()),
            finished: game.position().is_over(),
            record,
            game,
            seats,
            pace: Pace::Live { wait_seconds: 30 },
            moved_ms: 0,
            stand_ins: Vec::new(),
            take_back: None,
            quick: None,
            leavers: Vec::new(),
        }
    }

    /// A game in which the kingdoms concede in turn order, Qin first, until one is left.
    fn conceded_in_turn() -> Game {
        let mut game = Game::new(Position::start(Rules::default()));
        while !game.position().is_over() {
            game.play(Move::CONCEDE).unwrap();
        }
        game
    }

    #[test]
    fn the_winner_first_then_the_fallen_in_reverse_order() {
        let game = conceded_in_turn();
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winner, Kingdom::Yan, "the last left");
        let sides = sides(&stored(game, &[0, 6], &[]));
        assert_eq!(sides.len(), 7);
        let places: Vec<u8> = sides.iter().map(|s| s.place).collect();
        // Qin fell first (7th), Chu next (6th), …, Zhao last (2nd), Yan won.
        assert_eq!(places, [7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(sides[0].who, Who::Person(PlayerId("p0".into())));
        assert_eq!(sides[1].who, Who::Computer(Level::Easy));
        assert!(sides.iter().all(|s| s.weight == 1.0));
    }

    #[test]
    fn a_game_not_over_has_no_sides() {
        let game = Game::new(Position::start(Rules::default()));
        assert!(sides(&stored(game, &[0], &[])).is_empty());
    }

    #[test]
    fn kingdoms_still_standing_share_the_place_after_the_winner() {
        // Qin and Chu concede; the others then end the game early by agreement: the most
        // captures win (none were made: the tie is broken as for victors).
        let mut game = Game::new(Position::start(Rules::default()));
        game.play(Move::CONCEDE).unwrap();
        game.play(Move::CONCEDE).unwrap();
        game.end_early();
        let winner = game.outcome().expect("ended").player;
        let sides = sides(&stored(game, &[0, 1, 2], &[]));
        for side in &sides {
            let expected = match side.seat {
                0 => 7,
                1 => 6,
                s if s == winner => 1,
                _ => 2,
            };
            assert_eq!(side.place, expected, "{sides:?}");
        }
    }

    #[test]
    fn a_person_who_took_over_is_weighed_by_the_turns_they_played() {
        // A round of passes, then the concessions: Chu's seat was taken after the round (at
        // move 7), so of its two turns (a pass, its concession) its person played one.
        let mut game = Game::new(Position::start(Rules::default()));
        for _ in 0..7 {
            game.pass_overdue().unwrap();
        }
        while !game.position().is_over() {
            game.play(Move::CONCEDE).unwrap();
        }
        let sides = sides(&stored(game, &[0, 1], &[(1, 7)]));
        assert_eq!(sides[0].weight, 1.0);
        assert!((sides[1].weight - 0.5).abs() < 1e-12, "{:?}", sides[1]);
    }

    #[test]
    fn an_open_seat_never_taken_is_no_side_and_computers_are_fixed_per_level() {
        let game = conceded_in_turn();
        let mut stored = stored(game, &[0], &[]);
        stored.seats[3].plan = SeatPlan::Open;
        let sides = sides(&stored);
        assert_eq!(sides.len(), 6);
        assert!(sides.iter().all(|s| s.seat != 3));
        let (easy, medium, hard) = (
            computer_rating(Level::Easy),
            computer_rating(Level::Medium),
            computer_rating(Level::Hard),
        );
        assert!(easy.mu < medium.mu && medium.mu < hard.mu);
        assert_eq!(
            medium.mu,
            qiguo_rating::MU,
            "Medium is where a new person starts"
        );
        assert!(!easy.provisional() && !shown_computer(Level::Hard).provisional);
        assert_eq!(shown(None).points, 1500);
        assert!(shown(None).provisional);
    }

    #[test]
    fn a_person_replaced_is_placed_where_they_left_for_the_turns_they_held() {
        // A round of passes, then every kingdom concedes in turn. Chu's person was replaced at
        // move 8 (their second turn), before the computer that took over conceded: of Chu's two
        // turns they played one.
        let mut game = Game::new(Position::start(Rules::default()));
        for _ in 0..7 {
            game.pass_overdue().unwrap();
        }
        while !game.position().is_over() {
            game.play(Move::CONCEDE).unwrap();
        }
        let mut stored = stored(game, &[0], &[]);
        stored.leavers.push(crate::model::Leaver {
            seat: 1,
            player: PlayerId("p1".into()),
            from_ply: 0,
            left_ply: 8,
        });
        let sides = sides(&stored);
        assert_eq!(sides.len(), 8, "seven seats and the leaver: {sides:?}");
        let leaver = sides
            .iter()
            .find(|s| s.who == Who::Person(PlayerId("p1".into())))
            .unwrap();
        assert!((leaver.weight - 0.5).abs() < 1e-12, "{leaver:?}");
        // Qin fell after move 8 too (its concession was move 7): the leaver shares its place,
        // behind the computer that took Chu over and conceded later.
        assert_eq!(leaver.place, 7);
        let chu = sides
            .iter()
            .find(|s| s.seat == 1 && s.who == Who::Computer(Level::Easy))
            .unwrap();
        assert_eq!(chu.place, 6);
        assert_eq!(sides.iter().find(|s| s.seat == 0).unwrap().place, 7);
        assert_eq!(sides.iter().find(|s| s.seat == 6).unwrap().place, 1);
    }
}
