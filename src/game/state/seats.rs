//! Who decides each seat's moves: this machine, or a server. The online code writes
//! [`SeatAuthority`] whenever an online game is put on the board or left, or its seats change;
//! the rules system and the systems around the turn read it and know nothing of networking.

use bevy::prelude::*;

/// Where the game as a whole is decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameAuthority {
    /// On this machine, a game at this screen only.
    #[default]
    Local,
    /// On a server this machine follows: every move, seat change, take-back and new game is
    /// the server's, and this machine's people ask the server for their moves.
    Guest,
}

/// Whose moves a seat takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatHolder {
    /// This machine: a person at this screen, or a computer it runs.
    Here,
    /// Another machine.
    Remote,
}

/// Who decides the game and each of its seats. Written only by the online code; read by the
/// rules system ([`super::turn_refusal`]), the computer players, the camera and the cues.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatAuthority {
    game: GameAuthority,
    /// By player number; a player not listed is held here on this machine's own game, and
    /// elsewhere on a game this machine follows.
    seats: Vec<SeatHolder>,
}

impl SeatAuthority {
    /// A game at this screen only: every seat here.
    pub fn local() -> SeatAuthority {
        SeatAuthority::default()
    }

    /// This machine follows a server; `seats` says, by player number, which seats it holds.
    pub fn guest(seats: Vec<SeatHolder>) -> SeatAuthority {
        SeatAuthority {
            game: GameAuthority::Guest,
            seats,
        }
    }

    /// Where the game is decided.
    pub fn game(&self) -> GameAuthority {
        self.game
    }

    /// Who holds `player`'s seat.
    pub fn holder(&self, player: u8) -> SeatHolder {
        self.seats
            .get(usize::from(player))
            .copied()
            .unwrap_or(match self.game {
                GameAuthority::Guest => SeatHolder::Remote,
                GameAuthority::Local => SeatHolder::Here,
            })
    }

    /// Whether `player`'s moves are chosen on this machine (by a person at this screen, or by
    /// one of its computers).
    pub fn plays_here(&self, player: u8) -> bool {
        self.holder(player) == SeatHolder::Here
    }

    /// Whether moves for `player` arrive from elsewhere: on a game this machine follows, every
    /// move does (the server makes them all, this machine's people's included).
    pub fn takes_remote_moves(&self, _player: u8) -> bool {
        self.game == GameAuthority::Guest
    }

    /// Whether this machine follows a server (its people's moves are requests to it).
    pub fn follows_host(&self) -> bool {
        self.game == GameAuthority::Guest
    }

    /// Whether other machines take part: a new game or a loaded one would leave them behind.
    pub fn is_shared(&self) -> bool {
        self.game != GameAuthority::Local
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_game_plays_every_seat_here_and_takes_no_remote_moves() {
        let seats = SeatAuthority::local();
        assert!((0..7).all(|p| seats.plays_here(p) && !seats.takes_remote_moves(p)));
        assert!(!seats.is_shared() && !seats.follows_host());
    }

    #[test]
    fn a_guest_plays_only_its_own_seats_and_takes_every_move_from_the_host() {
        let seats = SeatAuthority::guest(vec![SeatHolder::Remote, SeatHolder::Here]);
        assert!(!seats.plays_here(0) && seats.plays_here(1));
        assert!(!seats.plays_here(6), "seats beyond the list are the host's");
        assert!((0..7).all(|p| seats.takes_remote_moves(p)));
        assert!(seats.is_shared() && seats.follows_host());
    }
}
