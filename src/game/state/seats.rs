//! Who decides each seat's moves: this machine, or a server. The online code writes
//! [`SeatAuthority`] whenever an online game is put on the board or left, or its seats change;
//! the rules system and the systems around the turn read it and know nothing of networking.

use bevy::prelude::*;

/// Whose moves a seat takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatHolder {
    /// This machine: a person at this screen, or a computer it runs.
    Here,
    /// Another machine.
    Remote,
}

/// Who decides the game and each of its seats. Written only by the online code; read by the
/// rules system ([`super::TurnGate`]), the computer players, the camera and the cues.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatAuthority {
    /// `None` on a game at this screen only. On a game this machine follows from a server, by
    /// player number, the seats it holds; a player not listed is held elsewhere.
    followed: Option<Vec<SeatHolder>>,
}

impl SeatAuthority {
    /// A game at this screen only: every seat here.
    pub fn local() -> SeatAuthority {
        SeatAuthority::default()
    }

    /// This machine follows a server; `seats` says, by player number, which seats it holds.
    pub fn guest(seats: Vec<SeatHolder>) -> SeatAuthority {
        SeatAuthority {
            followed: Some(seats),
        }
    }

    /// Who holds `player`'s seat.
    pub fn holder(&self, player: u8) -> SeatHolder {
        match &self.followed {
            None => SeatHolder::Here,
            Some(seats) => seats
                .get(usize::from(player))
                .copied()
                .unwrap_or(SeatHolder::Remote),
        }
    }

    /// Whether this machine plays `kingdom` in a game it follows from a server (`pos` its
    /// position): it holds the kingdom's seat, and is not only watching. False at one screen.
    pub fn plays_online(&self, pos: &qiguo_rules::Position, kingdom: qiguo_rules::Kingdom) -> bool {
        self.follows_server()
            && pos
                .seats()
                .player(kingdom)
                .is_some_and(|player| self.plays_here(player))
    }

    /// Whether `player`'s moves are chosen on this machine (by a person at this screen, or by
    /// one of its computers).
    pub fn plays_here(&self, player: u8) -> bool {
        self.holder(player) == SeatHolder::Here
    }

    /// Whether this machine follows a server: the server makes every move, seat change,
    /// take-back and new game (this machine's people's moves are requests to it, and come back
    /// as remote moves), and a new or loaded game here would leave the others behind.
    pub fn follows_server(&self) -> bool {
        self.followed.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_game_plays_every_seat_here() {
        let seats = SeatAuthority::local();
        assert!((0..7).all(|p| seats.plays_here(p)));
        assert!(!seats.follows_server());
    }

    #[test]
    fn a_guest_plays_only_its_own_seats_and_follows_the_server() {
        let seats = SeatAuthority::guest(vec![SeatHolder::Remote, SeatHolder::Here]);
        assert!(!seats.plays_here(0) && seats.plays_here(1));
        assert!(
            !seats.plays_here(6),
            "seats beyond the list are held elsewhere"
        );
        assert!(seats.follows_server());
    }
}
