//! Why the server refused a request: a code with its parameters, which each client words in
//! its player's language. On the wire a refusal is an object tagged by `code`, such as
//! `{"code": "not_your_turn", "kingdom": "han"}`; the frame carries the English words beside
//! it (`why`), for logs, scripts and a client that does not know the code.

use qiguo_rules::Kingdom;
use serde::{Deserialize, Serialize};

/// A request refused, and nothing changed. Its `Display` is the English wording.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Refusal {
    /// The first request must be a hello.
    #[error("say hello first")]
    HelloFirst,
    /// A second hello on one connection.
    #[error("already signed in")]
    AlreadySignedIn,
    /// The client speaks another version of the protocol.
    #[error(
        "this server speaks protocol version {server} and the client {client}: use the same version of Qiguo"
    )]
    Version {
        /// The server's version.
        server: u32,
        /// The client's.
        client: u64,
    },
    /// A frame that is not a request of this protocol.
    #[error("not a request: {why}")]
    BadFrame {
        /// What was wrong with it, in English.
        why: String,
    },
    /// No player with that id, or not their key.
    #[error("unknown player or wrong key")]
    WrongKey,
    /// A player's name is empty (after trimming).
    #[error("a player needs a name")]
    NameEmpty,
    /// A player's name is too long.
    #[error("a name has at most {max} characters")]
    NameTooLong {
        /// The most characters a name may have.
        max: u32,
    },
    /// A name in a new game's record holding characters a name may not have (control, format
    /// or separator characters; see [`crate::model::unfit_in_name`]).
    #[error("a name may not hold control, format or separator characters")]
    NameCharacters,
    /// A live game's wait out of bounds.
    #[error("a live game waits {min} to {max} seconds for a player, not {seconds}")]
    Wait {
        /// The seconds asked for.
        seconds: u32,
        /// The fewest allowed.
        min: u32,
        /// The most allowed.
        max: u32,
    },
    /// A new game where every seat is a computer's.
    #[error("a game needs at least one seat for a person")]
    NoPerson,
    /// A correspondence pace out of bounds.
    #[error("a correspondence game has {min} to {max} days per move, not {days}")]
    Days {
        /// The days asked for.
        days: u8,
        /// The fewest allowed.
        min: u8,
        /// The most allowed.
        max: u8,
    },
    /// Not one seat plan per player.
    #[error("{plans} seat plans for {players} players")]
    SeatPlans {
        /// Plans given.
        plans: u32,
        /// Players in the game.
        players: u32,
    },
    /// A new game's start that cannot be played.
    #[error("not a game's start: {why}")]
    BadStart {
        /// Why, in English.
        why: String,
    },
    /// No such game among the player's (or no such game at all).
    #[error("no such game of yours")]
    NoGame,
    /// No game has this invitation code.
    #[error("no game has this invitation code")]
    NoCode,
    /// The kingdom has no player in the game.
    #[error("{kingdom} has no player in this game")]
    NoSuchSeat {
        /// The kingdom asked for.
        kingdom: Kingdom,
    },
    /// The seat is not open to whoever has the code.
    #[error("the seat of {kingdom} is not open")]
    SeatNotOpen {
        /// The kingdom of the seat.
        kingdom: Kingdom,
    },
    /// The seat was taken by someone else meanwhile.
    #[error("seat {seat} cannot be taken")]
    SeatTaken {
        /// The player number.
        seat: u8,
    },
    /// The game is over and its invitation with it.
    #[error("the game is over: its invitation has expired")]
    InvitationExpired,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Text that is not a move.
    #[error("that is not a move: {why}")]
    NotAMove {
        /// Why, in English.
        why: String,
    },
    /// A move the rules do not allow now.
    #[error("{mv} cannot be played: {why}")]
    IllegalMove {
        /// The move.
        mv: String,
        /// Why, in English.
        why: String,
    },
    /// The game moved on: the move was meant for another ply.
    #[error("the game has {has} moves, not {ply}: it moved on")]
    MovedOn {
        /// Moves the game has.
        has: u32,
        /// The ply the move was meant for.
        ply: u32,
    },
    /// Another kingdom is to move.
    #[error("it is {kingdom}'s turn, not one of your kingdoms'")]
    NotYourTurn {
        /// The kingdom to move.
        kingdom: Kingdom,
    },
    /// Only one of the asker's own moves can be taken back.
    #[error("only one of your own moves can be taken back")]
    TakeBackOwnOnly,
    /// A take-back is already being asked.
    #[error("a take-back is already being asked")]
    TakeBackPending,
    /// No take-back is being asked.
    #[error("no take-back is being asked")]
    NoTakeBack,
    /// A rematch asked of a game not over yet.
    #[error("the game is not over yet: a rematch follows a finished game")]
    NotOver,
    /// A line of table talk with nothing to say (after trimming).
    #[error("there is nothing to say")]
    TalkEmpty,
    /// A line of table talk too long.
    #[error("a line of table talk has at most {max} characters")]
    TalkTooLong {
        /// The most characters a line may have.
        max: u32,
    },
    /// Muting the player of a seat that has none but a computer, or the asker.
    #[error("seat {seat} has no other player to mute")]
    NobodyToMute {
        /// The player number.
        seat: u8,
    },
    /// The server's operator barred the player from table talk.
    #[error("the server's operator has barred you from table talk")]
    TalkBarred,
    /// A holiday's last day that is not a date, or is already past.
    #[error("{date} is not a day to come: write it YYYY-MM-DD, today or later")]
    BadDate {
        /// The date as given.
        date: String,
    },
    /// A holiday longer than the days left of a year's allowance.
    #[error("that holiday takes {asked} days of {year}, and {left} are left")]
    HolidayDays {
        /// The year.
        year: i32,
        /// The days of that year it takes.
        asked: u32,
        /// The days of that year's allowance not taken by other holidays.
        left: u32,
    },
    /// The server sends no e-mail (it was started without a mail relay).
    #[error("this server sends no e-mail")]
    NoMail,
    /// Not an e-mail address the server can write to.
    #[error("{address} is not an e-mail address")]
    BadAddress {
        /// The address as given (cut to 320 characters).
        address: String,
    },
    /// A sign-in link's token that is unknown, used already, or more than a day old.
    #[error("this sign-in link has been used or is out of date: open the game from a newer e-mail")]
    LinkExpired,
    /// The player has as many connections open to the server as it allows one player.
    #[error("you have {max} connections open to this server already: close one first")]
    TooManyConnections {
        /// The most a player may have open at once.
        max: u32,
    },
    /// The player has as many games in progress as the server allows one player.
    #[error("you have {max} games in progress: finish one before beginning another")]
    TooManyGames {
        /// The most a player may have in progress at once.
        max: u32,
    },
    /// Too many requests of this kind came lately: new players, new games or invitation codes
    /// from the client's address, lines of table talk from the player, or links to confirm an
    /// e-mail address sent to the player or to that address.
    #[error("too many requests of this kind lately: try again in {seconds} s")]
    SlowDown {
        /// When the next one will be taken, in seconds from now.
        seconds: u32,
    },
    /// The server could not do it now (its database failed); nothing changed.
    #[error("the server could not do it; try again")]
    TryAgain,
    /// The server is shutting down; connect again later.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// A refusal of a later version that this client does not know: the frame's English
    /// words say why.
    #[serde(other)]
    #[error("refused")]
    Unknown,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_are_codes_with_their_parameters() {
        let turn = Refusal::NotYourTurn {
            kingdom: Kingdom::Han,
        };
        let text = serde_json::to_string(&turn).unwrap();
        assert_eq!(text, r#"{"code":"not_your_turn","kingdom":"han"}"#);
        assert_eq!(serde_json::from_str::<Refusal>(&text).unwrap(), turn);
        assert_eq!(
            turn.to_string(),
            "it is Han's turn, not one of your kingdoms'"
        );
        let moved = r#"{"code":"moved_on","has":9,"ply":8}"#;
        assert_eq!(
            serde_json::from_str::<Refusal>(moved).unwrap(),
            Refusal::MovedOn { has: 9, ply: 8 }
        );
    }

    #[test]
    fn a_later_code_reads_as_unknown() {
        let later = r#"{"code":"on_holiday","until":"2027-01-02"}"#;
        assert_eq!(
            serde_json::from_str::<Refusal>(later).unwrap(),
            Refusal::Unknown
        );
    }
}
