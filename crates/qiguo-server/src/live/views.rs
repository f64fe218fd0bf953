//! What the clients see of a game held: the game as a player (or a watcher) sees it, its line
//! in a player's list of games, the event telling the player to move, and the new game a
//! rematch asks for.

use qiguo_protocol::{
    Event, GameSummary, GameView, NewGame, PlayerId, Refusal, SeatPlan, SeatView,
};
use qiguo_rules::{Game, Record};

use super::{LiveGame, SeatsPresent};
use crate::model::StoredSeat;
use crate::rated;

impl LiveGame {
    /// The event telling the player to move that the game waits for them, with that player.
    pub(crate) fn your_turn(&self) -> Option<(PlayerId, Event)> {
        if self.is_over() {
            return None;
        }
        let holder = self.holder_to_move()?.clone();
        Some((
            holder,
            Event::YourTurn {
                game: self.id.clone(),
                kingdom: self.position().to_move(),
                ply: self.game.len() as u32,
                again: false,
            },
        ))
    }

    /// The game as `player` sees it (`None`: a watcher).
    pub(crate) fn view(
        &self,
        player: Option<&PlayerId>,
        present: SeatsPresent,
        now_ms: i64,
    ) -> GameView {
        GameView {
            id: self.id.clone(),
            code: self.code.clone(),
            record: self.record(),
            stand_ins: self.stand_ins.clone(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, seat)| SeatView {
                    plan: seat.plan,
                    name: seat.name.clone(),
                    yours: player.is_some() && seat.holder.as_ref() == player,
                    present: self.present(i as u8, present),
                    away_until: self.away_until(i as u8, now_ms),
                    rating: match (&seat.holder, seat.plan) {
                        (Some(_), _) => Some(rated::shown_left(seat.rating, seat.left)),
                        (None, SeatPlan::Computer(level)) => Some(rated::shown_computer(level)),
                        (None, _) => None,
                    },
                })
                .collect(),
            pace: self.pace,
            since_ms: self.moved_ms,
            deadline_ms: self.deadline(present),
            finished: self.is_over(),
            take_back: self.take_back.clone(),
        }
    }

    /// The game in `player`'s list of games.
    pub(crate) fn summary(&self, player: &PlayerId, present: SeatsPresent) -> GameSummary {
        let yours = self.seats_of(player);
        let over = self.is_over();
        let outcome = self.game.outcome().filter(|_| over);
        GameSummary {
            winner: outcome.map(|o| o.winner),
            victory: outcome.map(|o| o.victory.name().to_owned()),
            id: self.id.clone(),
            players: self.seats.iter().map(StoredSeat::label).collect(),
            to_move: (!over).then(|| self.position().to_move()),
            your_turn: !over && yours.contains(&self.seat_to_move()),
            moves: self.game.len() as u32,
            since_ms: self.moved_ms,
            deadline_ms: self.deadline(present),
            finished: over,
            yours,
        }
    }
}

impl LiveGame {
    /// The new game a rematch of this one asked by `player` is: the same start (rules, seats,
    /// position, names), pace and seat plans, `player`'s seats theirs, the other people's open
    /// (the server seats them). Refused unless the game is over and `player` held a seat.
    pub(crate) fn rematch(&self, player: &PlayerId) -> Result<NewGame, Refusal> {
        if self.seats_of(player).is_empty() {
            return Err(Refusal::NoGame);
        }
        if !self.is_over() {
            return Err(Refusal::NotOver);
        }
        let start = Record::from_game(
            &Game::new(self.game.start_position().clone()),
            self.players.clone(),
        );
        let seats = self
            .seats
            .iter()
            .map(|seat| match seat.plan {
                SeatPlan::Computer(level) => SeatPlan::Computer(level),
                _ if seat.holder.as_ref() == Some(player) => SeatPlan::Creator,
                _ => SeatPlan::Open,
            })
            .collect();
        Ok(NewGame {
            start,
            seats,
            pace: self.pace,
        })
    }
}
