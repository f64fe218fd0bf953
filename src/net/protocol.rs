//! What the host and the players' machines say to each other. The host alone holds the game:
//! a player's machine asks to join (or rejoin) with the seats it wants and asks for moves; the
//! host answers with the whole game record, then sends every move it applies. Every request is
//! checked by the host against the rules engine; what does not fit is refused with a reason.
//!
//! The messages travel as bevy_replicon messages over renet (UDP, netcode). Strings are bounded
//! by the host before use; moves travel as move text (`a13b15`), parsed and checked by the
//! rules engine on arrival.

use bevy::prelude::*;
use qiguo_rules::{Kingdom, Level};
use serde::{Deserialize, Serialize};

/// The version of these messages: a machine speaking another is refused when it joins.
pub const PROTOCOL_VERSION: u32 = 2;

/// netcode's protocol id, the same for every version of the game: a machine of another
/// version connects, and is then refused with a message (replicon's protocol check, which
/// includes [`PROTOCOL_VERSION`]) rather than left waiting.
pub const NETCODE_PROTOCOL_ID: u64 = 0x5147_4F00_0000_0001;

/// The port a host listens on unless told otherwise (the year of the 1206 text, plus 6000).
pub const DEFAULT_PORT: u16 = 7206;

/// Longest player name the host keeps, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// Longest seat token the host reads, in bytes.
pub const MAX_TOKEN_BYTES: usize = 64;

/// Longest move text the host reads, in bytes (the longest real move is 8).
pub const MAX_MOVE_BYTES: usize = 16;

/// A player's machine asks to join the game, or to rejoin it with the token it was given.
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Join {
    /// The player's name.
    pub name: String,
    /// The kingdoms asked for (free person seats); ignored on a rejoin with a valid token.
    pub seats: Vec<Kingdom>,
    /// The token of an earlier join, to take back the same seats.
    pub token: Option<String>,
}

/// A player's machine asks for a move of a kingdom it holds.
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The number of moves played before this one (a request for an older position is
    /// refused: the game moved on).
    pub ply: u32,
    /// The move, in move text.
    pub mv: String,
}

/// A player's machine asks the host to take back moves, back to before its last move; the
/// host's player decides (a host without a window refuses).
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct TakeBack {
    /// The number of moves the game had when asked (a request for another moment is refused).
    pub ply: u32,
}

/// The host lets a machine in: its seats, the token that takes them back, and the game so far.
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Welcome {
    /// The token to rejoin with.
    pub token: String,
    /// The kingdoms this machine holds.
    pub seats: Vec<Kingdom>,
    /// The game record so far, as saved games write it (JSON).
    pub record: String,
}

/// The host refuses a request; `fatal` when the machine cannot take part at all.
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Why, in English (the host's log says the same).
    pub reason: String,
    /// Whether the machine is not in the game (a join refused).
    pub fatal: bool,
}

impl Refused {
    /// A refusal for one machine, as the host sends it.
    pub fn to(
        client: bevy_replicon::prelude::ClientId,
        reason: impl Into<String>,
        fatal: bool,
    ) -> bevy_replicon::prelude::ToClients<Refused> {
        bevy_replicon::prelude::ToClients {
            targets: bevy_replicon::prelude::SendTargets::Single(client),
            message: Refused {
                reason: reason.into(),
                fatal,
            },
        }
    }
}

/// The host applied a move: every machine plays it too.
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The number of moves played before it.
    pub ply: u32,
    /// The move, in move text.
    pub mv: String,
}

/// The game again, as a whole: after moves were taken back (or played again) on the host.
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Resync {
    /// The game record, as saved games write it (JSON).
    pub record: String,
    /// Why, in English (shown to the players).
    pub reason: String,
}

/// Who holds a seat, as the host sees it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Hand {
    /// A person seat no one has taken: free to join.
    Open,
    /// A person at the host's own screen.
    AtHost,
    /// A person on another machine, connected or gone (the seat waits for them).
    Remote {
        /// Whether their machine is connected now.
        connected: bool,
    },
    /// The computer, at this level; `standing_in` when it plays for a person on another
    /// machine who has gone.
    Computer {
        /// The level (written by its name: `easy`, `medium`, `hard`).
        level: Level,
        /// Whether it plays for someone who has gone (and gets the seat back on return).
        standing_in: bool,
    },
}

/// One player of the game, as the host sees it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct TableSeat {
    /// The player's name.
    pub name: String,
    /// The kingdoms the player holds.
    pub kingdoms: Vec<Kingdom>,
    /// Who plays them.
    pub hand: Hand,
}

/// The host's table: every player and who holds the seat. Sent to every machine when it
/// connects (so that it can choose free seats) and whenever a seat changes hands.
#[derive(Message, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default)]
pub struct Table {
    /// The players, by player number.
    pub seats: Vec<TableSeat>,
}

impl Table {
    /// The kingdoms free to join.
    pub fn open_kingdoms(&self) -> Vec<Kingdom> {
        self.seats
            .iter()
            .filter(|s| s.hand == Hand::Open)
            .flat_map(|s| s.kingdoms.iter().copied())
            .collect()
    }
}

/// A player's name as the host keeps it: trimmed, control characters dropped, at most
/// [`MAX_NAME_CHARS`]; `None` if nothing is left.
pub fn clean_name(name: &str) -> Option<String> {
    let cleaned: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS * 4)
        .collect::<String>()
        .trim()
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    (!cleaned.is_empty()).then_some(cleaned)
}

/// A fresh seat token: 128 bits from the operating system's random source, in hex.
pub fn new_token() -> String {
    use rand::TryRng;
    use rand::rngs::SysRng;
    let mut bytes = [0u8; 16];
    // The system's random source fails only where there is none (an unusual sandbox); the
    // clock then stands in, so that hosting still works, with a weaker token.
    if SysRng.try_fill_bytes(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = nanos.to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_bounded_and_cleaned() {
        assert_eq!(clean_name("  Anna  ").as_deref(), Some("Anna"));
        assert_eq!(clean_name("趙雲\u{7}\n").as_deref(), Some("趙雲"));
        assert_eq!(clean_name("   "), None);
        assert_eq!(clean_name(&"x".repeat(10_000)).unwrap().chars().count(), 40);
    }

    #[test]
    fn tokens_are_long_and_differ() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
