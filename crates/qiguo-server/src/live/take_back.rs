//! Taking moves back: a player asks to take back the moves from a ply on, the other people
//! holding seats answer, and once all agree the game goes back to that ply.

use qiguo_protocol::{Event, PlayerId, Refusal, TakeBackView};

use super::{LiveGame, SeatsPresent};

impl LiveGame {
    /// `player` asks to take back the moves from `ply` on: the take-back asked (the asker
    /// agrees).
    pub(crate) fn ask_take_back(&mut self, player: &PlayerId, ply: u32) -> Result<Event, Refusal> {
        let by = *self.seats_of(player).first().ok_or(Refusal::NoGame)?;
        if self.finished {
            return Err(Refusal::GameOver);
        }
        let has = self.game.len() as u32;
        let mover_of = |n: u32| {
            let r = self.game.reports().nth(n as usize)?;
            Some(self.game.position_at(n as usize).player_of(r.mover))
        };
        if ply >= has
            || mover_of(ply)
                .is_none_or(|m| self.seats[usize::from(m)].holder.as_ref() != Some(player))
        {
            return Err(Refusal::TakeBackOwnOnly);
        }
        if self.take_back.is_some() {
            return Err(Refusal::TakeBackPending);
        }
        let take_back = TakeBackView {
            by,
            ply,
            agreed: vec![by],
        };
        self.take_back = Some(take_back.clone());
        Ok(Event::TakeBackAsked {
            game: self.id.clone(),
            take_back,
        })
    }

    /// `player` agrees to the take-back asked, or refuses it (`Some` event: refused, dropped).
    pub(crate) fn answer_take_back(
        &mut self,
        player: &PlayerId,
        agree: bool,
    ) -> Result<Option<Event>, Refusal> {
        let seats = self.seats_of(player);
        if seats.is_empty() {
            return Err(Refusal::NoGame);
        }
        let Some(take_back) = self.take_back.as_mut() else {
            return Err(Refusal::NoTakeBack);
        };
        if !agree {
            self.take_back = None;
            return Ok(Some(Event::TakeBackRefused {
                game: self.id.clone(),
            }));
        }
        for seat in seats {
            if !take_back.agreed.contains(&seat) {
                take_back.agreed.push(seat);
            }
        }
        Ok(None)
    }

    /// The take-back every person agreed to, to be stored: the first move taken back and the
    /// moves the game has; `None` while someone has not agreed (or none is asked).
    pub(crate) fn take_back_agreed(&self) -> Option<(u32, u32)> {
        let take_back = self.take_back.as_ref()?;
        let waiting = self
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| s.holder.is_some() && !take_back.agreed.contains(&(i as u8)));
        (!waiting).then_some((take_back.ply, self.game.len() as u32))
    }

    /// Takes back the moves from `ply` on (stored) at `now_ms`: the event to tell.
    pub(crate) fn take_back_to(&mut self, ply: u32, now_ms: i64, present: SeatsPresent) -> Event {
        self.take_back = None;
        while self.game.len() > ply as usize {
            self.game.undo();
        }
        self.stand_ins.retain(|&n| n < ply);
        self.away = self.count_away();
        self.moved_ms = now_ms;
        Event::TakenBack {
            game: self.id.clone(),
            ply,
            since_ms: self.moved_ms,
            deadline_ms: self.deadline(present),
        }
    }
}
