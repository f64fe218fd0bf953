//! One online game as a running server holds it, with no database, no clock and no network:
//! the game itself (the rules engine's [`Game`], the one copy of its moves and overdue passes),
//! its seats and pace, who made which move, the take-back being asked. It checks moves, applies
//! them once stored, says when the turn is due and what is to be told; the hub stores and tells.
//!
//! The time is given to it (`now_ms`), and so is who is present ([`SeatsPresent`]): the same game
//! answers the same way in a test as on a server.

use qiguo_protocol::{
    Event, GameId, MadeBy, Pace, PlayerId, QuickPace, RatingFamily, Refusal, SeatPlan, TakeBackView,
};
use qiguo_rating::Rating;
use qiguo_rules::{Game, Level, Move, PlayerInfo, Position, Record};

use crate::model::{Leaver, MailKind, MailNote, StoredGame, StoredSeat};
use crate::rated;

mod clock;
mod take_back;
mod views;

pub(crate) use qiguo_protocol::calendar::DAY_MS;

/// The level a stand-in plays at.
pub(crate) const STAND_IN_LEVEL: Level = Level::Medium;

/// A correspondence game rests (is adjourned) once every person's seat has been stood in for,
/// or passed, on this many of its turns in a row, and nobody holding a seat has it open.
pub(crate) const ADJOURN_AFTER_ROUNDS: u32 = 3;

/// Whether the player of each seat counts as present (has the game open, here or on another
/// server lately), by player number; seats beyond it are absent. Computers' seats are present
/// whatever it says.
pub(crate) type SeatsPresent<'a> = &'a [bool];

/// Who makes a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mover<'a> {
    /// A player, through a client.
    Player(&'a PlayerId),
    /// The server's computer for a computer's seat.
    Computer,
    /// The server's stand-in for an absent player.
    StandIn,
    /// Nobody: the move is overdue and the kingdom passes.
    Overdue,
}

impl Mover<'_> {
    /// How the move is kept.
    pub(crate) fn made_by(self) -> MadeBy {
        match self {
            Mover::Player(_) | Mover::Computer => MadeBy::Seat,
            Mover::StandIn => MadeBy::StandIn,
            Mover::Overdue => MadeBy::OverduePass,
        }
    }
}

/// What is due on a game's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// A search at this level, for a computer's seat or a stand-in.
    Search(Level, Mover<'static>),
    /// The overdue kingdom passes (a correspondence game whose overdue turns pass).
    Pass,
}

/// A move checked against the game, ready to be stored and then applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Checked {
    /// Its number.
    pub ply: u32,
    /// The move.
    pub mv: Move,
    /// The player number that makes it.
    pub seat: u8,
    /// How it is kept.
    pub by: MadeBy,
    /// The move ends the game (it is stored finished with it).
    pub ends: bool,
    /// After the move, how long after it the server is to act by itself when nobody is
    /// there ([`LiveGame::due_in`]), kept with the game for a server that does not hold it.
    pub due_in: Option<i64>,
    /// The e-mails the move makes due, in a correspondence game: *your move* (and its reminder
    /// a day before the turn runs out) to the person to move next, or the end to every person
    /// seated. Their time is the move's; the hub sets when each is sent.
    pub mail: Vec<MailNote>,
}

/// One game held by a server.
#[derive(Clone, Debug)]
pub(crate) struct LiveGame {
    /// The id.
    pub id: GameId,
    /// The invitation code.
    pub code: String,
    game: Game,
    players: Vec<PlayerInfo>,
    seats: Vec<StoredSeat>,
    pace: Pace,
    moved_ms: i64,
    finished: bool,
    stand_ins: Vec<u32>,
    take_back: Option<TakeBackView>,
    /// For each player number, how many of its last turns in a row were not its own: a
    /// stand-in's moves or overdue passes (counted once when the game is read, then kept up
    /// move by move, so that no deadline reads the moves again).
    away: Vec<u32>,
    /// Its quick pace, for a quick game.
    quick: Option<QuickPace>,
    /// The people a computer replaced in it.
    leavers: Vec<Leaver>,
    /// For each player number, since when its person has been missing their turns (the first
    /// deadline they missed, ms since 1970; `None` while they play): a quick game replaces them
    /// once this is [`REPLACED_AFTER_MS`] old.
    missing_since: Vec<Option<i64>>,
}

/// How long a person of a live quick game may be missing their turns before a computer takes
/// their kingdom over for good (and offers it to the next newcomer): a minute. In a quick game by
/// correspondence, the turn's deadline is the grace.
pub(crate) const REPLACED_AFTER_MS: i64 = 60_000;

impl From<StoredGame> for LiveGame {
    fn from(stored: StoredGame) -> LiveGame {
        let mut game = LiveGame::from_parts(stored);
        game.away = game.count_away();
        // Missing their turns when the game is read: counted from then.
        game.missing_since = game
            .away
            .iter()
            .map(|&n| (n > 0).then_some(game.moved_ms))
            .collect();
        game
    }
}

impl LiveGame {
    fn from_parts(stored: StoredGame) -> LiveGame {
        LiveGame {
            id: stored.id,
            code: stored.code,
            game: stored.game,
            players: stored.record.players,
            seats: stored.seats,
            pace: stored.pace,
            moved_ms: stored.moved_ms,
            finished: stored.finished,
            stand_ins: stored.stand_ins,
            take_back: stored.take_back,
            away: Vec::new(),
            quick: stored.quick,
            leavers: stored.leavers,
            missing_since: Vec::new(),
        }
    }

    /// Each player number's turns in a row not its own, counted from every move.
    fn count_away(&self) -> Vec<u32> {
        let mut away = vec![0; self.seats.len()];
        for (n, report) in self.game.reports().enumerate() {
            let seat = self.game.start_position().player_of(report.mover);
            count_turn(&mut away, seat, self.made_by(n));
        }
        away
    }

    /// How move `n` was made: by its seat, a stand-in, or an overdue pass.
    fn made_by(&self, n: usize) -> MadeBy {
        if self.stand_ins.contains(&(n as u32)) {
            MadeBy::StandIn
        } else if self.game.overdue_passes().contains(&n) {
            MadeBy::OverduePass
        } else {
            MadeBy::Seat
        }
    }
}

impl LiveGame {
    /// The game.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// Its record: start, players and every move (overdue passes marked).
    pub(crate) fn record(&self) -> Record {
        Record::from_game(&self.game, self.players.clone())
    }

    /// Its seats, by player number.
    pub(crate) fn seats(&self) -> &[StoredSeat] {
        &self.seats
    }

    /// When the turn began (the last move, or the creation), ms since 1970.
    pub(crate) fn moved_ms(&self) -> i64 {
        self.moved_ms
    }

    /// Whether the game takes no more moves.
    pub(crate) fn is_over(&self) -> bool {
        self.finished || self.game.position().is_over()
    }

    /// The take-back being asked.
    pub(crate) fn take_back(&self) -> Option<&TakeBackView> {
        self.take_back.as_ref()
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    /// The player number to move.
    pub(crate) fn seat_to_move(&self) -> u8 {
        let pos = self.position();
        pos.player_of(pos.to_move())
    }

    /// The holder of the seat to move, if a person holds it.
    pub(crate) fn holder_to_move(&self) -> Option<&PlayerId> {
        self.seats
            .get(usize::from(self.seat_to_move()))?
            .holder
            .as_ref()
    }

    /// The player numbers `player` holds.
    pub(crate) fn seats_of(&self, player: &PlayerId) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .filter(|&i| self.seats[usize::from(i)].holder.as_ref() == Some(player))
            .collect()
    }

    /// Checks `mv` as move `ply`, made by `mover` at `now_ms`; nothing changes.
    pub(crate) fn check(
        &self,
        mover: Mover,
        ply: u32,
        mv: Move,
        now_ms: i64,
    ) -> Result<Checked, Refusal> {
        if let Mover::Player(player) = mover
            && self.seats_of(player).is_empty()
        {
            return Err(Refusal::NoGame);
        }
        if self.is_over() {
            return Err(Refusal::GameOver);
        }
        let has = self.game.len() as u32;
        if ply != has {
            return Err(Refusal::MovedOn { has, ply });
        }
        let seat = self.seat_to_move();
        let pos = self.position();
        if let Mover::Player(player) = mover
            && self.seats[usize::from(seat)].holder.as_ref() != Some(player)
        {
            return Err(Refusal::NotYourTurn {
                kingdom: pos.to_move(),
            });
        }
        let by = mover.made_by();
        if by == MadeBy::OverduePass {
            // Passing is allowed whatever the kingdom could do: only a finished game refuses.
            if !mv.is_pass() {
                return Err(Refusal::IllegalMove {
                    mv: mv.to_string(),
                    why: "an overdue turn passes".into(),
                });
            }
        } else {
            pos.check(mv).map_err(|e| Refusal::IllegalMove {
                mv: mv.to_string(),
                why: e.to_string(),
            })?;
        }
        let mut after = pos.clone();
        after.make(mv);
        let ends = after.is_over();
        let mut away = self.away.clone();
        count_turn(&mut away, seat, by);
        let next = after.player_of(after.to_move());
        let due_in = (!ends)
            .then(|| self.due_in_state(next, &away, now_ms))
            .flatten();
        let mail = self.mail_notes(ply + 1, ends, next, due_in, now_ms);
        Ok(Checked {
            ply,
            mv,
            seat,
            by,
            ends,
            due_in,
            mail,
        })
    }

    /// The e-mails a move of a correspondence game makes due at `now_ms`, the game then having
    /// `moves` moves: the end to every person seated, or the turn of the person holding
    /// `next`'s seat, with a reminder a day before it runs out (`due_in` after the move) when
    /// the turn is longer than a day.
    fn mail_notes(
        &self,
        moves: u32,
        ends: bool,
        next: u8,
        due_in: Option<i64>,
        now_ms: i64,
    ) -> Vec<MailNote> {
        if !matches!(self.pace, Pace::Correspondence { .. }) {
            return Vec::new();
        }
        let note = |kind, player: &PlayerId, not_before_ms| MailNote {
            kind,
            player: player.clone(),
            ply: moves,
            not_before_ms,
        };
        if ends {
            let mut people: Vec<&PlayerId> = self
                .seats
                .iter()
                .filter(|s| !matches!(s.plan, SeatPlan::Computer(_)))
                .filter_map(|s| s.holder.as_ref())
                .collect();
            people.sort();
            people.dedup();
            return people
                .into_iter()
                .map(|p| note(MailKind::End, p, now_ms))
                .collect();
        }
        let Some(seat) = self.seats.get(usize::from(next)) else {
            return Vec::new();
        };
        let (Some(holder), false) = (&seat.holder, matches!(seat.plan, SeatPlan::Computer(_)))
        else {
            return Vec::new();
        };
        let mut notes = vec![note(MailKind::Turn, holder, now_ms)];
        if let Some(due_in) = due_in
            && due_in > DAY_MS
        {
            notes.push(note(MailKind::Reminder, holder, now_ms + due_in - DAY_MS));
        }
        notes
    }

    /// Applies a move checked by [`LiveGame::check`] (and stored) at `now_ms`. A take-back
    /// being asked is dropped (its event is returned first).
    pub(crate) fn apply(
        &mut self,
        checked: Checked,
        now_ms: i64,
        present: SeatsPresent,
    ) -> Vec<Event> {
        let Checked { ply, mv, by, .. } = checked;
        debug_assert_eq!(
            ply as usize,
            self.game.len(),
            "a move checked for this turn"
        );
        let played = match by {
            MadeBy::OverduePass => self.game.pass_overdue().map(|_| ()),
            _ => self.game.play(mv).map(|_| ()),
        };
        debug_assert!(played.is_ok(), "a checked move plays");
        if by == MadeBy::StandIn {
            self.stand_ins.push(ply);
        }
        count_turn(&mut self.away, checked.seat, by);
        if let Some(missing) = self.missing_since.get_mut(usize::from(checked.seat)) {
            *missing = match by {
                MadeBy::Seat => None,
                _ => Some(missing.unwrap_or(now_ms)),
            };
        }
        self.moved_ms = now_ms;
        let mut events = Vec::new();
        if self.take_back.take().is_some() {
            events.push(Event::TakeBackRefused {
                game: self.id.clone(),
            });
        }
        if self.position().is_over() {
            self.finished = true;
        }
        events.push(Event::Moved {
            game: self.id.clone(),
            ply,
            mv: mv.to_string(),
            by,
            since_ms: self.moved_ms,
            deadline_ms: self.deadline(present),
        });
        events
    }

    /// Takes when each seat's player was last seen (by any server, from the database).
    pub(crate) fn set_seen(&mut self, seen: &[Option<i64>]) {
        for (seat, &seen) in self.seats.iter_mut().zip(seen) {
            seat.seen_ms = seen;
        }
    }

    /// Seats `player`, called `name`, in `seat` (taken in the database): the event to tell.
    pub(crate) fn seat(
        &mut self,
        seat: u8,
        player: &PlayerId,
        name: &str,
        rating: Option<(Rating, u32)>,
    ) -> Event {
        if let Some(s) = self.seats.get_mut(usize::from(seat)) {
            s.holder = Some(player.clone());
            s.name = Some(name.to_owned());
            s.rating = rating;
        }
        Event::Seated {
            game: self.id.clone(),
            seat,
            name: name.to_owned(),
            rating: Some(rated::shown(rating)),
        }
    }

    /// `player`'s rating in the game's pace family is now `rating` (a game of theirs was
    /// rated): the seats they hold show it from now on.
    pub(crate) fn set_rating(&mut self, player: &PlayerId, rating: (Rating, u32)) {
        for seat in &mut self.seats {
            if seat.holder.as_ref() == Some(player) {
                seat.rating = Some(rating);
            }
        }
    }

    /// Its quick pace, for a quick game.
    pub(crate) fn quick(&self) -> Option<QuickPace> {
        self.quick
    }

    /// The game's pace family (ratings are kept per family).
    pub(crate) fn family(&self) -> RatingFamily {
        RatingFamily::of(&self.pace)
    }

    /// `player`, named `name`, takes over the computer's seat `seat` (quick play): the seat is
    /// theirs as if they had joined it, from its next turn on.
    pub(crate) fn take_over(
        &mut self,
        seat: u8,
        player: &PlayerId,
        name: &str,
        rating: Option<(Rating, u32)>,
        ply: u32,
    ) -> Event {
        if let Some(s) = self.seats.get_mut(usize::from(seat)) {
            s.plan = SeatPlan::Open;
            s.taken_ply = Some(ply);
        }
        self.seat(seat, player, name, rating)
    }

    /// The people whose seat the last move put out of the game (its last kingdom beaten,
    /// forfeited or conceded), whether the game goes on or not.
    pub(crate) fn put_out(&self) -> Vec<PlayerId> {
        let Some(report) = self.game.reports().last() else {
            return Vec::new();
        };
        let Some(fallen) = &report.fallen else {
            return Vec::new();
        };
        let seating = self.game.start_position().seats();
        let Some(seat) = seating.player(fallen.kingdom) else {
            return Vec::new();
        };
        let position = self.game.position();
        let standing = qiguo_rules::Kingdom::ALL
            .into_iter()
            .filter(|&k| seating.player(k) == Some(seat))
            .any(|k| position.standing(k) == qiguo_rules::Standing::InGame);
        if standing {
            return Vec::new();
        }
        self.seats
            .get(usize::from(seat))
            .and_then(|s| s.holder.clone())
            .into_iter()
            .collect()
    }

    /// A computer of the game's quick pace takes seat `seat` over from its person, absent past
    /// the grace, at the current move: the seat is a computer's from now on (offered to the
    /// next newcomer), the person a leaver (rated for the part they played, placed where they
    /// left). The event that tells the followers.
    pub(crate) fn replace_absent(&mut self, seat: u8) -> Option<Event> {
        let level = self.quick?.level();
        self.replace_leaver(seat, level)
    }

    /// A computer of `level` takes seat `seat` over from its person, who leaves it (absent past
    /// a quick game's grace, or gone from a tournament), at the current move: the person a
    /// leaver (rated for the part they played, placed where they left). The event that tells
    /// the followers; `None` when nobody held the seat.
    pub(crate) fn replace_leaver(&mut self, seat: u8, level: qiguo_rules::Level) -> Option<Event> {
        let ply = self.game.len() as u32;
        let s = self.seats.get_mut(usize::from(seat))?;
        let player = s.holder.take()?;
        let name = s.name.take().unwrap_or_default();
        self.leavers.push(Leaver {
            seat,
            player,
            from_ply: s.taken_ply.take().unwrap_or(0),
            left_ply: ply,
        });
        s.plan = SeatPlan::Computer(level);
        s.rating = None;
        s.left = 0;
        if let Some(missing) = self.missing_since.get_mut(usize::from(seat)) {
            *missing = None;
        }
        Some(Event::Replaced {
            game: self.id.clone(),
            seat,
            level,
            name,
        })
    }

    /// Whether the person of the seat to move, whose stand-in is due, is to be replaced instead
    /// (a quick game): by correspondence at once (the turn's deadline is the grace), live once
    /// they have been missing their turns for [`REPLACED_AFTER_MS`]. The seat, the person, and
    /// the move they held it from.
    pub(crate) fn replaceable(&self, now_ms: i64) -> Option<(u8, PlayerId, u32)> {
        self.quick?;
        let seat = self.seat_to_move();
        let s = self.seats.get(usize::from(seat))?;
        let player = s.holder.clone()?;
        let replace = match self.pace {
            Pace::Correspondence { .. } => true,
            Pace::Live { .. } => self
                .missing_since
                .get(usize::from(seat))
                .copied()
                .flatten()
                .is_some_and(|since| now_ms - since >= REPLACED_AFTER_MS),
        };
        replace.then_some((seat, player, s.taken_ply.unwrap_or(0)))
    }

    /// Takes the game as the database has it now (changed by another server): the events
    /// that tell its followers what changed.
    pub(crate) fn replace(
        &mut self,
        stored: StoredGame,
        present: SeatsPresent,
        now_ms: i64,
    ) -> Vec<Event> {
        let old = std::mem::replace(self, LiveGame::from(stored));
        let id = self.id.clone();
        let mut events = Vec::new();
        // Holidays begun, changed or ended.
        for seat in 0..self.seats.len() as u8 {
            let until = self.away_until(seat, now_ms);
            if until != old.away_until(seat, now_ms) {
                events.push(Event::Away {
                    game: id.clone(),
                    seat,
                    until,
                    deadline_ms: self.deadline(present),
                });
            }
        }
        // The take-back, as the database keeps it for every server.
        match (&old.take_back, &self.take_back) {
            (_, Some(now)) if old.take_back.as_ref() != Some(now) => {
                events.push(Event::TakeBackAsked {
                    game: id.clone(),
                    take_back: now.clone(),
                });
            }
            (Some(_), None) if old.game.len() == self.game.len() => {
                events.push(Event::TakeBackRefused { game: id.clone() });
            }
            _ => {}
        }
        for (seat, (a, b)) in old.seats.iter().zip(&self.seats).enumerate() {
            // A person replaced on another server.
            if let (Some(_), None, SeatPlan::Computer(level)) = (&a.holder, &b.holder, b.plan) {
                events.push(Event::Replaced {
                    game: id.clone(),
                    seat: seat as u8,
                    level,
                    name: a.name.clone().unwrap_or_default(),
                });
            }
            if a.holder != b.holder
                && let Some(name) = &b.name
            {
                events.push(Event::Seated {
                    game: id.clone(),
                    seat: seat as u8,
                    name: name.clone(),
                    rating: Some(rated::shown(b.rating)),
                });
            }
        }
        let (was, is): (Vec<Move>, Vec<Move>) =
            (old.game.moves().collect(), self.game.moves().collect());
        let common = was.len().min(is.len());
        if was[..common] != is[..common] {
            events.push(Event::Stale { game: id });
        } else if is.len() < was.len() {
            // Taken back through another server.
            self.take_back = None;
            events.push(Event::TakenBack {
                game: id,
                ply: is.len() as u32,
                since_ms: self.moved_ms,
                deadline_ms: self.deadline(present),
            });
        } else {
            let deadline_ms = self.deadline(present);
            for (ply, mv) in is.iter().enumerate().skip(was.len()) {
                events.push(Event::Moved {
                    game: id.clone(),
                    ply: ply as u32,
                    mv: mv.to_string(),
                    by: self.made_by(ply),
                    since_ms: self.moved_ms,
                    deadline_ms,
                });
            }
        }
        events
    }
}

/// Counts a turn of `seat` in `away`: its own move starts the count again, a stand-in's or an
/// overdue pass adds one.
fn count_turn(away: &mut [u32], seat: u8, by: MadeBy) {
    if let Some(count) = away.get_mut(usize::from(seat)) {
        *count = if by == MadeBy::Seat { 0 } else { *count + 1 };
    }
}

#[cfg(test)]
mod tests {
    use qiguo_protocol::NewGame;
    use qiguo_rules::{Kingdom, Preset, Rules, Seats};

    use super::clock::clock_runs_out;
    use super::*;
    use qiguo_protocol::WhenOverdue;

    const ANN: &str = "ann";
    const BO: &str = "bo";

    fn player(id: &str) -> PlayerId {
        PlayerId(id.to_owned())
    }

    /// A game of seven as the store would give it: Ann holds Qin (seat 0), Bo Chu (seat 1),
    /// the rest are `others`; created at 1,000 ms.
    fn game(pace: Pace, others: SeatPlan) -> LiveGame {
        let start = Game::start(Rules::preset(Preset::Classic), Seats::seven());
        let mut plans = vec![others; 7];
        plans[0] = SeatPlan::Creator;
        plans[1] = SeatPlan::Open;
        let new = NewGame::build(&start, plans.clone(), pace, |i, _| format!("P{i}")).unwrap();
        let seats = plans
            .iter()
            .enumerate()
            .map(|(i, &plan)| StoredSeat {
                plan,
                holder: match i {
                    0 => Some(player(ANN)),
                    1 => Some(player(BO)),
                    _ => None,
                },
                name: None,
                seen_ms: None,
                holidays: Vec::new(),
                taken_ply: None,
                rating: None,
                left: 0,
            })
            .collect();
        LiveGame::from(StoredGame {
            id: GameId("g".into()),
            code: "CODE".into(),
            creator: player(ANN),
            game: new.start.replay().unwrap(),
            record: new.start,
            seats,
            pace,
            moved_ms: 1_000,
            finished: false,
            stand_ins: Vec::new(),
            take_back: None,
            quick: None,
            leavers: Vec::new(),
        })
    }

    const LIVE: Pace = Pace::Live { wait_seconds: 60 };
    const ALL_HERE: &[bool] = &[true; 7];
    const NOBODY: &[bool] = &[false; 7];
    const ANN_ONLY: &[bool] = &[true, false, false, false, false, false, false];
    const BO_ONLY: &[bool] = &[false, true, false, false, false, false, false];

    #[test]
    fn a_clock_stops_while_its_player_is_away() {
        const H: i64 = 3_600_000;
        // Nothing away: the clock runs out after its time.
        assert_eq!(clock_runs_out(0, 10 * H, &[]), 10 * H);
        // Away from hour 2 to hour 5: three hours more.
        assert_eq!(clock_runs_out(0, 10 * H, &[(2 * H, 5 * H)]), 13 * H);
        // Already away when the turn began: counted from the return.
        assert_eq!(clock_runs_out(4 * H, 10 * H, &[(2 * H, 5 * H)]), 15 * H);
        // A holiday over before the turn, or beginning after the clock ran out: no change.
        assert_eq!(clock_runs_out(6 * H, 10 * H, &[(2 * H, 5 * H)]), 16 * H);
        assert_eq!(clock_runs_out(0, 10 * H, &[(10 * H, 20 * H)]), 10 * H);
        // Two holidays, both within the time.
        assert_eq!(
            clock_runs_out(0, 10 * H, &[(H, 2 * H), (3 * H, 6 * H)]),
            14 * H
        );
    }

    #[test]
    fn no_stand_in_plays_for_a_player_on_holiday() {
        let pace = Pace::Correspondence {
            days: 2,
            overdue: WhenOverdue::StandIn,
        };
        let mut g = game(pace, SeatPlan::Computer(Level::Random));
        let ann = player(ANN);
        // Ann (to move) is away for days 1 to 4 after the turn began at 1,000 ms.
        let (gone, back) = (DAY_MS, 5 * DAY_MS);
        g.seats[0].holidays = vec![(gone, back)];
        assert_eq!(g.deadline(NOBODY), Some(1_000 + 2 * DAY_MS + 4 * DAY_MS));
        assert_eq!(g.due_in(), Some(6 * DAY_MS));
        assert_eq!(g.due(5 * DAY_MS, NOBODY), None, "away, then back");
        assert!(g.due(6 * DAY_MS + 1_000, NOBODY).is_some());
        // Seen by the others while it lasts, with its last day.
        assert_eq!(g.away_until(0, 2 * DAY_MS).as_deref(), Some("1970-01-05"));
        assert_eq!(g.away_until(0, back), None);
        assert_eq!(
            g.view(None, NOBODY, 2 * DAY_MS).seats[0]
                .away_until
                .as_deref(),
            Some("1970-01-05")
        );
        // A game read again with the holiday ended early says so, with the new deadline.
        let mut stored_again = g.clone();
        stored_again.seats[0].holidays = vec![(gone, 2 * DAY_MS)];
        assert_eq!(stored_again.deadline(NOBODY), Some(1_000 + 3 * DAY_MS));
        // A move made during Bo's holiday starts his clock when he is back.
        g.seats[1].holidays = vec![(0, 3 * DAY_MS)];
        let mv = first_move(&g);
        let checked = g.check(Mover::Player(&ann), 0, mv, DAY_MS).unwrap();
        assert_eq!(checked.due_in, Some(2 * DAY_MS + 2 * DAY_MS));
        // It makes Bo's e-mail due, and its reminder a day before his turn runs out.
        let note = |kind, not_before_ms| MailNote {
            kind,
            player: player(BO),
            ply: 1,
            not_before_ms,
        };
        assert_eq!(
            checked.mail,
            vec![
                note(MailKind::Turn, DAY_MS),
                note(MailKind::Reminder, DAY_MS + 3 * DAY_MS)
            ]
        );
        // Live games know no holidays, and write no e-mail.
        let mut live = game(LIVE, SeatPlan::Computer(Level::Random));
        live.seats[0].holidays = vec![(gone, back)];
        assert_eq!(live.deadline(BO_ONLY), Some(1_000 + 60_000));
        let mv = first_move(&live);
        assert!(
            live.check(Mover::Player(&ann), 0, mv, 0)
                .unwrap()
                .mail
                .is_empty()
        );
    }

    fn first_move(g: &LiveGame) -> Move {
        g.game().position().legal_moves()[0]
    }

    #[test]
    fn moves_are_checked_for_the_turn_the_seat_and_the_rules() {
        let mut g = game(LIVE, SeatPlan::Computer(Level::Random));
        let (ann, bo, cy) = (player(ANN), player(BO), player("cy"));
        let mv = first_move(&g);
        assert_eq!(g.check(Mover::Player(&cy), 0, mv, 0), Err(Refusal::NoGame));
        assert_eq!(
            g.check(Mover::Player(&bo), 0, mv, 0),
            Err(Refusal::NotYourTurn {
                kingdom: Kingdom::Qin
            })
        );
        assert_eq!(
            g.check(Mover::Player(&ann), 1, mv, 0),
            Err(Refusal::MovedOn { has: 0, ply: 1 })
        );
        assert!(matches!(
            g.check(Mover::Player(&ann), 0, Move::PASS, 0),
            Err(Refusal::IllegalMove { .. })
        ));
        assert!(matches!(
            g.check(Mover::Overdue, 0, mv, 0),
            Err(Refusal::IllegalMove { .. })
        ));
        let checked = g.check(Mover::Player(&ann), 0, mv, 0).unwrap();
        assert_eq!((checked.seat, checked.by), (0, MadeBy::Seat));
        // Nothing changed until it is applied; then Chu (Bo, absent) is to move.
        assert_eq!(g.game().len(), 0);
        let events = g.apply(checked, 5_000, ANN_ONLY);
        assert_eq!(
            events,
            vec![Event::Moved {
                game: g.id.clone(),
                ply: 0,
                mv: mv.to_string(),
                by: MadeBy::Seat,
                since_ms: 5_000,
                deadline_ms: Some(65_000),
            }]
        );
        assert_eq!(g.record().moves, vec![mv.to_string()]);
        assert_eq!(g.your_turn().map(|(p, _)| p), Some(bo.clone()));
        assert_eq!(g.seat_to_move(), 1);
    }

    #[test]
    fn what_is_due_follows_the_seat_the_clock_and_who_is_present() {
        let mut g = game(LIVE, SeatPlan::Computer(Level::Easy));
        // Ann to move, present: nothing due, no deadline; absent (Bo there): a stand-in after
        // the wait.
        assert_eq!(g.deadline(ALL_HERE), None);
        assert_eq!(g.due(1_000_000, ALL_HERE), None);
        assert_eq!(g.deadline(BO_ONLY), Some(61_000));
        assert_eq!(g.due(60_999, BO_ONLY), None);
        assert_eq!(
            g.due(61_000, BO_ONLY),
            Some(Due::Search(STAND_IN_LEVEL, Mover::StandIn))
        );
        // A stand-in moves for Ann; Bo's move; then a computer's turn is due at once.
        let mv = first_move(&g);
        let checked = g.check(Mover::StandIn, 0, mv, 0).unwrap();
        g.apply(checked, 61_000, BO_ONLY);
        let mv = first_move(&g);
        let checked = g.check(Mover::Player(&player(BO)), 1, mv, 0).unwrap();
        g.apply(checked, 62_000, BO_ONLY);
        assert_eq!(g.deadline(BO_ONLY), None);
        assert_eq!(
            g.due(62_000, BO_ONLY),
            Some(Due::Search(Level::Easy, Mover::Computer))
        );
        assert_eq!(g.view(None, BO_ONLY, 0).stand_ins, vec![0]);
        // Round to Ann again (the computers move): stood in for last time, she is at once.
        while g.seat_to_move() != 0 {
            let mv = first_move(&g);
            let ply = g.game().len() as u32;
            let checked = g.check(Mover::Computer, ply, mv, 0).unwrap();
            g.apply(checked, 70_000, BO_ONLY);
        }
        assert_eq!(g.deadline(BO_ONLY), Some(70_000));
    }

    #[test]
    fn a_live_game_nobody_attends_rests_until_someone_returns() {
        let mut g = game(LIVE, SeatPlan::Computer(Level::Random));
        // Nobody holding a seat is there: neither stand-ins nor computers play, for hours.
        assert!(g.adjourned(NOBODY));
        assert_eq!(g.deadline(NOBODY), None);
        assert_eq!(g.due(10 * DAY_MS, NOBODY), None);
        // Ann moves and leaves: the computers do not answer nobody.
        let mv = first_move(&g);
        let checked = g.check(Mover::Player(&player(ANN)), 0, mv, 0).unwrap();
        g.apply(checked, 2_000, NOBODY);
        let mv = first_move(&g);
        let checked = g.check(Mover::StandIn, 1, mv, 0).unwrap();
        g.apply(checked, 3_000, ANN_ONLY);
        assert_eq!(g.due(4_000, NOBODY), None);
        // Bo comes back: the computer of Qi plays at once.
        assert!(!g.adjourned(BO_ONLY));
        assert_eq!(
            g.due(4_000, BO_ONLY),
            Some(Due::Search(Level::Random, Mover::Computer))
        );
    }

    #[test]
    fn a_correspondence_game_rests_after_rounds_of_stand_ins_only() {
        let pace = Pace::Correspondence {
            days: 1,
            overdue: WhenOverdue::StandIn,
        };
        let mut g = game(pace, SeatPlan::Computer(Level::Random));
        let mut now = 1_000;
        // Nobody comes: each person's turn is stood in for when a day is over, the computers
        // move at once; until the game rests.
        while !g.adjourned(NOBODY) {
            let ply = g.game().len() as u32;
            assert!(ply < 100, "the game rests in time");
            if g.due(now, NOBODY).is_none() {
                now = g.deadline(NOBODY).unwrap();
            }
            let Some(Due::Search(_, mover)) = g.due(now, NOBODY) else {
                panic!("a search is due")
            };
            let mv = first_move(&g);
            let checked = g.check(mover, ply, mv, now).unwrap();
            g.apply(checked, now, NOBODY);
        }
        // It rests right after Bo's third stand-in (the second seat of the third round).
        assert_eq!(g.game().len() as u32, 7 * (ADJOURN_AFTER_ROUNDS - 1) + 2);
        // Three rounds of stand-ins for Ann and Bo: the game rests, and no deadline comes.
        assert!(g.adjourned(NOBODY));
        assert_eq!(g.deadline(NOBODY), None);
        assert_eq!(g.due(now + 100 * DAY_MS, NOBODY), None);
        // Ann opens it: it goes on (her turn, overdue long ago, is stood in for at once).
        assert!(!g.adjourned(ANN_ONLY));
        assert!(g.due(now + 100 * DAY_MS, ANN_ONLY).is_some());
        // Read again from the moves, the game counts the same.
        let again = LiveGame::from(StoredGame {
            id: g.id.clone(),
            code: g.code.clone(),
            creator: player(ANN),
            record: g.record(),
            game: g.game().clone(),
            seats: g.seats.clone(),
            pace,
            moved_ms: now,
            finished: false,
            stand_ins: g.stand_ins.clone(),
            take_back: None,
            quick: None,
            leavers: Vec::new(),
        });
        assert_eq!(again.away, g.away);
        assert!(again.adjourned(NOBODY));
    }

    #[test]
    fn an_overdue_correspondence_turn_passes_when_the_game_says_so() {
        let pace = Pace::Correspondence {
            days: 2,
            overdue: WhenOverdue::Pass,
        };
        let mut g = game(pace, SeatPlan::Open);
        assert_eq!(g.deadline(ALL_HERE), Some(1_000 + 2 * DAY_MS));
        assert_eq!(g.due(2 * DAY_MS, ALL_HERE), None);
        assert_eq!(g.due(1_000 + 2 * DAY_MS, ALL_HERE), Some(Due::Pass));
        let checked = g.check(Mover::Overdue, 0, Move::PASS, 0).unwrap();
        assert_eq!(checked.by, MadeBy::OverduePass);
        g.apply(checked, 3 * DAY_MS, ALL_HERE);
        assert_eq!(g.record().overdue, vec![0]);
        assert_eq!(g.seat_to_move(), 1);
    }

    #[test]
    fn a_take_back_needs_every_person_and_undoes_the_moves() {
        let mut g = game(LIVE, SeatPlan::Computer(Level::Random));
        let (ann, bo) = (player(ANN), player(BO));
        for (ply, who) in [(0, Mover::Player(&ann)), (1, Mover::Player(&bo))] {
            let mv = first_move(&g);
            let checked = g.check(who, ply, mv, 2_000).unwrap();
            g.apply(checked, 2_000, ALL_HERE);
        }
        assert_eq!(g.ask_take_back(&bo, 0), Err(Refusal::TakeBackOwnOnly));
        assert_eq!(g.ask_take_back(&ann, 2), Err(Refusal::TakeBackOwnOnly));
        assert!(matches!(
            g.ask_take_back(&ann, 0),
            Ok(Event::TakeBackAsked { .. })
        ));
        assert_eq!(g.ask_take_back(&bo, 1), Err(Refusal::TakeBackPending));
        assert_eq!(g.take_back_agreed(), None, "Bo has not agreed");
        assert_eq!(g.answer_take_back(&bo, true), Ok(None));
        assert_eq!(g.take_back_agreed(), Some((0, 2)));
        let taken = g.take_back_to(0, 9_000, ALL_HERE);
        assert!(matches!(
            taken,
            Event::TakenBack {
                ply: 0,
                since_ms: 9_000,
                ..
            }
        ));
        assert_eq!(g.game().len(), 0);
        assert!(g.record().moves.is_empty());
        assert_eq!(g.take_back(), None);
        // Refused: dropped, and told.
        let mv = first_move(&g);
        let checked = g.check(Mover::Player(&ann), 0, mv, 0).unwrap();
        g.apply(checked, 10_000, ALL_HERE);
        g.ask_take_back(&ann, 0).unwrap();
        assert!(matches!(
            g.answer_take_back(&bo, false),
            Ok(Some(Event::TakeBackRefused { .. }))
        ));
        assert_eq!(g.answer_take_back(&bo, true), Err(Refusal::NoTakeBack));
    }

    #[test]
    fn a_game_read_again_tells_what_changed() {
        let mut g = game(LIVE, SeatPlan::Computer(Level::Random));
        let mut elsewhere = g.clone();
        for ply in 0..3 {
            // Moves another server stored: a person's, a stand-in's, a computer's.
            let mv = first_move(&elsewhere);
            let checked = Checked {
                ply,
                mv,
                seat: elsewhere.seat_to_move(),
                by: if ply == 1 {
                    MadeBy::StandIn
                } else {
                    MadeBy::Seat
                },
                ends: false,
                due_in: None,
                mail: Vec::new(),
            };
            elsewhere.apply(checked, 3_000, NOBODY);
        }
        let stored = StoredGame {
            id: elsewhere.id.clone(),
            code: elsewhere.code.clone(),
            creator: player(ANN),
            record: elsewhere.record(),
            game: elsewhere.game().clone(),
            seats: elsewhere.seats().to_vec(),
            pace: elsewhere.pace,
            moved_ms: elsewhere.moved_ms(),
            finished: false,
            stand_ins: vec![1],
            take_back: None,
            quick: None,
            leavers: Vec::new(),
        };
        let events = g.replace(stored.clone(), NOBODY, 0);
        let told: Vec<(u32, MadeBy)> = events
            .iter()
            .map(|e| match e {
                Event::Moved { ply, by, .. } => (*ply, *by),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            told,
            vec![(0, MadeBy::Seat), (1, MadeBy::StandIn), (2, MadeBy::Seat)]
        );
        assert_eq!(g.game().len(), 3);
        // Another history than the one held: read afresh.
        let mut other = game(LIVE, SeatPlan::Computer(Level::Random));
        let mv = other.game().position().legal_moves()[1];
        let checked = other.check(Mover::Player(&player(ANN)), 0, mv, 0).unwrap();
        other.apply(checked, 3_000, NOBODY);
        let events = other.replace(stored, NOBODY, 0);
        assert!(matches!(events[..], [Event::Stale { .. }]));
    }
}
