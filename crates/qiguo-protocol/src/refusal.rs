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
    /// The server pushes no notifications (it was started without `--push`).
    #[error("this server sends no notifications to devices")]
    NoPush,
    /// A device's subscription the server does not take: its endpoint is not an https address
    /// of a push service it posts to, or its keys are not a P-256 key and a 16-byte secret.
    #[error("this device's subscription is not one this server can send to")]
    BadSubscription,
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
    /// A table with too few or too many seats for people.
    #[error("a table has {min} to {max} seats for people, not {people}")]
    TablePeople {
        /// The seats asked for.
        people: u32,
        /// The fewest.
        min: u32,
        /// The most.
        max: u32,
    },
    /// A table's wait to fill out of bounds.
    #[error("a table waits {min} to {max} minutes to fill, not {minutes}")]
    TableWait {
        /// The wait asked for.
        minutes: u32,
        /// The shortest.
        min: u32,
        /// The longest.
        max: u32,
    },
    /// A rating range whose lowest end is above its highest.
    #[error("a rating range from {min} to {max} takes nobody")]
    RatingRange {
        /// The lowest end given.
        min: i64,
        /// The highest end given.
        max: i64,
    },
    /// A table's computers must search (not play at random).
    #[error("a table's computers play at Easy, Medium or Hard")]
    TableLevel,
    /// No open table has this id (it started, closed, or never was).
    #[error("no such open table")]
    NoTable,
    /// Every seat of the table for people is taken.
    #[error("that table is full")]
    TableFull,
    /// The player's rating is outside the table's range.
    #[error("that table takes players rated {min} to {max}; your rating is {rating}")]
    OutsideRatingRange {
        /// The lowest it takes.
        min: i64,
        /// The highest it takes.
        max: i64,
        /// The player's.
        rating: i64,
    },
    /// The player sits at as many open tables as the server allows.
    #[error("you sit at {max} open tables already: leave one first")]
    TooManyTables {
        /// The most.
        max: u32,
    },
    /// The player left rated games lately (a computer replaced them, absent): their next quick
    /// game waits, longer the more they left.
    #[error("you left rated games lately: you may play now again in {seconds} s")]
    LeftLately {
        /// When they may, in seconds from now.
        seconds: u32,
    },
    /// Another player has this name (as names are compared: see [`crate::model::fold_name`]).
    #[error("the name {name} is taken: choose another")]
    NameTaken {
        /// The name asked for.
        name: String,
    },
    /// A player cannot block or report themselves.
    #[error("you cannot block or report yourself")]
    Yourself,
    /// Someone at the table and the player keep apart (one blocked the other).
    #[error("you cannot sit at that table")]
    TableBlocked,
    /// The server's operator barred the player from play.
    #[error("the server's operator barred this player from play")]
    Barred,
    /// No player of this name plays on the server.
    #[error("nobody called {name} plays here")]
    NoPlayerNamed {
        /// The name asked about.
        name: String,
    },
    /// The player plays as many quick games as the server allows one player at once.
    #[error("you play {max} quick games already: finish one before beginning another")]
    TooManyQuickGames {
        /// The most quick games a player may play at once.
        max: u32,
    },
    /// The player asked for as many reviews as the server lets one player wait for at once.
    #[error("you wait for {max} reviews already: ask again when one is ready")]
    TooManyReviewsAsked {
        /// The most reviews a player may wait for at once.
        max: u32,
    },
    /// No puzzle of that name on this server.
    #[error("there is no puzzle {id} on this server")]
    NoSuchPuzzle {
        /// The name asked for.
        id: String,
    },
    /// The server has no puzzles yet (none of its reviewed games had one).
    #[error("this server has no puzzles yet")]
    NoPuzzles,
    /// A club needs a name (nothing was left of it once trimmed).
    #[error("a club needs a name")]
    ClubNameEmpty,
    /// A club's name is too long.
    #[error("a club's name has at most {max} characters")]
    ClubNameTooLong {
        /// The most characters a club's name may have.
        max: u32,
    },
    /// A line of a club's news is empty.
    #[error("nothing to post")]
    ClubText,
    /// A club's description or a line of its news is too long.
    #[error("at most {max} characters")]
    ClubTextTooLong {
        /// The most characters.
        max: u32,
    },
    /// Another club has that name (as folded: the same letters in another case or look).
    #[error("there is already a club called {name}")]
    ClubNameTaken {
        /// The name of the club that has it.
        name: String,
    },
    /// No club of that name on this server.
    #[error("there is no club called {name} on this server")]
    NoSuchClub {
        /// The name asked for.
        name: String,
    },
    /// The asker is not a member of the club (nor asking to join).
    #[error("you are not a member of {name}")]
    NotInClub {
        /// The club's name.
        name: String,
    },
    /// Only the club's organisers (or its owner) may do that.
    #[error("only {name}'s organisers may do that")]
    NotClubOrganiser {
        /// The club's name.
        name: String,
    },
    /// Only the club's owner may do that (name or unname organisers, remove an organiser).
    #[error("only {name}'s owner may do that")]
    NotClubOwner {
        /// The club's name.
        name: String,
    },
    /// The player named is not a member of the club (nor asking to join).
    #[error("{player} is not in the club")]
    NoClubMember {
        /// The player's name as asked.
        player: String,
    },
    /// The owner stays in their club, and is not removed from it.
    #[error("a club's owner stays in it")]
    ClubOwnerStays,
    /// The club has as many members as a club may.
    #[error("the club is full ({max} members)")]
    ClubFull {
        /// The most members a club has.
        max: u32,
    },
    /// The club's owner or an organiser blocked the asker (or the asker blocked them).
    #[error("you cannot join this club")]
    ClubBlocked,
    /// The player owns as many clubs as one may.
    #[error("you own {max} clubs already")]
    TooManyClubs {
        /// The most clubs one player owns.
        max: u32,
    },
    /// An evening set at a time already past.
    #[error("that time has passed: an evening is set in the future")]
    EveningPast,
    /// An evening set too far ahead.
    #[error("an evening is set at most {days} days ahead")]
    EveningTooFar {
        /// The most days ahead.
        days: u32,
    },
    /// An evening plays at a live pace.
    #[error("an evening plays at a live pace (brisk or calm)")]
    EveningNotLive,
    /// No such evening (or not of a club of the asker's).
    #[error("there is no such evening")]
    NoSuchEvening,
    /// The evening is over (or called off): nobody is seated at it any more.
    #[error("that evening is over")]
    EveningOver,
    /// The club has as many evenings planned as a club may.
    #[error("the club has {max} evenings planned already")]
    TooManyEvenings {
        /// The most evenings planned at once.
        max: u32,
    },
    /// A tournament's name empty or too long.
    #[error("a tournament's name has 1 to {max} characters")]
    TournamentName {
        /// The most characters.
        max: u32,
    },
    /// Another tournament has that name (compared folded).
    #[error("another tournament has that name")]
    TournamentNameTaken,
    /// No such tournament (or a club's own, of a club not the asker's).
    #[error("there is no such tournament")]
    NoSuchTournament,
    /// A tournament set to start at a time already past.
    #[error("that time has passed: a tournament starts in the future")]
    TournamentPast,
    /// A tournament set to start too far ahead.
    #[error("a tournament starts at most {days} days ahead")]
    TournamentTooFar {
        /// The most days ahead.
        days: u32,
    },
    /// A Swiss plays by correspondence, an arena live.
    #[error("a Swiss plays by correspondence (daily or relaxed), an arena live (brisk or calm)")]
    TournamentPace,
    /// A Swiss of too few or too many rounds.
    #[error("a Swiss has 1 to {max} rounds")]
    TournamentRounds {
        /// The most rounds.
        max: u8,
    },
    /// An arena too short or too long.
    #[error("an arena lasts {min} to {max} minutes")]
    ArenaMinutes {
        /// The fewest minutes.
        min: u32,
        /// The most minutes.
        max: u32,
    },
    /// A tournament set to take too few or too many players.
    #[error("a tournament takes {min} to {max} players")]
    TournamentPlayers {
        /// The fewest.
        min: u32,
        /// The most.
        max: u32,
    },
    /// A public tournament is set by the server's operator; a player sets one for a club.
    #[error("public tournaments are set by the server's operator: give a club you organise")]
    TournamentByOperator,
    /// The tournament has as many players as it takes.
    #[error("the tournament is full ({most} players)")]
    TournamentFull {
        /// The most players it takes.
        most: u32,
    },
    /// The tournament is over (or, a Swiss, in its last round): nobody joins it any more.
    #[error("that tournament is over")]
    TournamentOver,
    /// The asker has not joined that tournament (or left it).
    #[error("you are not in that tournament")]
    NotInTournament,
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

impl Refusal {
    /// Its code, as on the wire (`not_your_turn`): what the server's metrics count it by,
    /// without writing the refusal out.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::HelloFirst => "hello_first",
            Refusal::AlreadySignedIn => "already_signed_in",
            Refusal::Version { .. } => "version",
            Refusal::BadFrame { .. } => "bad_frame",
            Refusal::WrongKey => "wrong_key",
            Refusal::NameEmpty => "name_empty",
            Refusal::NameTooLong { .. } => "name_too_long",
            Refusal::NameCharacters => "name_characters",
            Refusal::Wait { .. } => "wait",
            Refusal::NoPerson => "no_person",
            Refusal::Days { .. } => "days",
            Refusal::SeatPlans { .. } => "seat_plans",
            Refusal::BadStart { .. } => "bad_start",
            Refusal::NoGame => "no_game",
            Refusal::NoCode => "no_code",
            Refusal::NoSuchSeat { .. } => "no_such_seat",
            Refusal::SeatNotOpen { .. } => "seat_not_open",
            Refusal::SeatTaken { .. } => "seat_taken",
            Refusal::InvitationExpired => "invitation_expired",
            Refusal::GameOver => "game_over",
            Refusal::NotAMove { .. } => "not_a_move",
            Refusal::IllegalMove { .. } => "illegal_move",
            Refusal::MovedOn { .. } => "moved_on",
            Refusal::NotYourTurn { .. } => "not_your_turn",
            Refusal::TakeBackOwnOnly => "take_back_own_only",
            Refusal::TakeBackPending => "take_back_pending",
            Refusal::NoTakeBack => "no_take_back",
            Refusal::NotOver => "not_over",
            Refusal::TalkEmpty => "talk_empty",
            Refusal::TalkTooLong { .. } => "talk_too_long",
            Refusal::NobodyToMute { .. } => "nobody_to_mute",
            Refusal::TalkBarred => "talk_barred",
            Refusal::BadDate { .. } => "bad_date",
            Refusal::HolidayDays { .. } => "holiday_days",
            Refusal::NoMail => "no_mail",
            Refusal::BadAddress { .. } => "bad_address",
            Refusal::NoPush => "no_push",
            Refusal::BadSubscription => "bad_subscription",
            Refusal::LinkExpired => "link_expired",
            Refusal::TooManyConnections { .. } => "too_many_connections",
            Refusal::TooManyGames { .. } => "too_many_games",
            Refusal::TooManyQuickGames { .. } => "too_many_quick_games",
            Refusal::TooManyReviewsAsked { .. } => "too_many_reviews_asked",
            Refusal::NoSuchPuzzle { .. } => "no_such_puzzle",
            Refusal::NoPuzzles => "no_puzzles",
            Refusal::ClubNameEmpty => "club_name_empty",
            Refusal::ClubNameTooLong { .. } => "club_name_too_long",
            Refusal::ClubText => "club_text",
            Refusal::ClubTextTooLong { .. } => "club_text_too_long",
            Refusal::ClubNameTaken { .. } => "club_name_taken",
            Refusal::NoSuchClub { .. } => "no_such_club",
            Refusal::NotInClub { .. } => "not_in_club",
            Refusal::NotClubOrganiser { .. } => "not_club_organiser",
            Refusal::NotClubOwner { .. } => "not_club_owner",
            Refusal::NoClubMember { .. } => "no_club_member",
            Refusal::ClubOwnerStays => "club_owner_stays",
            Refusal::ClubFull { .. } => "club_full",
            Refusal::ClubBlocked => "club_blocked",
            Refusal::TooManyClubs { .. } => "too_many_clubs",
            Refusal::EveningPast => "evening_past",
            Refusal::EveningTooFar { .. } => "evening_too_far",
            Refusal::EveningNotLive => "evening_not_live",
            Refusal::NoSuchEvening => "no_such_evening",
            Refusal::EveningOver => "evening_over",
            Refusal::TooManyEvenings { .. } => "too_many_evenings",
            Refusal::TournamentName { .. } => "tournament_name",
            Refusal::TournamentNameTaken => "tournament_name_taken",
            Refusal::NoSuchTournament => "no_such_tournament",
            Refusal::TournamentPast => "tournament_past",
            Refusal::TournamentTooFar { .. } => "tournament_too_far",
            Refusal::TournamentPace => "tournament_pace",
            Refusal::TournamentRounds { .. } => "tournament_rounds",
            Refusal::ArenaMinutes { .. } => "arena_minutes",
            Refusal::TournamentPlayers { .. } => "tournament_players",
            Refusal::TournamentByOperator => "tournament_by_operator",
            Refusal::TournamentFull { .. } => "tournament_full",
            Refusal::TournamentOver => "tournament_over",
            Refusal::NotInTournament => "not_in_tournament",
            Refusal::NoPlayerNamed { .. } => "no_player_named",
            Refusal::Yourself => "yourself",
            Refusal::NameTaken { .. } => "name_taken",
            Refusal::TableBlocked => "table_blocked",
            Refusal::Barred => "barred",
            Refusal::LeftLately { .. } => "left_lately",
            Refusal::TablePeople { .. } => "table_people",
            Refusal::TableWait { .. } => "table_wait",
            Refusal::RatingRange { .. } => "rating_range",
            Refusal::TableLevel => "table_level",
            Refusal::NoTable => "no_table",
            Refusal::TableFull => "table_full",
            Refusal::OutsideRatingRange { .. } => "outside_rating_range",
            Refusal::TooManyTables { .. } => "too_many_tables",
            Refusal::SlowDown { .. } => "slow_down",
            Refusal::TryAgain => "try_again",
            Refusal::ShuttingDown => "shutting_down",
            Refusal::Unknown => "unknown",
        }
    }
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

    #[test]
    fn each_code_is_the_one_on_the_wire() {
        for refusal in [
            Refusal::HelloFirst,
            Refusal::AlreadySignedIn,
            Refusal::Version {
                server: 1,
                client: 1,
            },
            Refusal::BadFrame { why: String::new() },
            Refusal::WrongKey,
            Refusal::NameEmpty,
            Refusal::NameTooLong { max: 1 },
            Refusal::NameCharacters,
            Refusal::Wait {
                seconds: 1,
                min: 1,
                max: 1,
            },
            Refusal::NoPerson,
            Refusal::Days {
                days: 1,
                min: 1,
                max: 1,
            },
            Refusal::SeatPlans {
                plans: 1,
                players: 1,
            },
            Refusal::BadStart { why: String::new() },
            Refusal::NoGame,
            Refusal::NoCode,
            Refusal::NoSuchSeat {
                kingdom: Kingdom::Qin,
            },
            Refusal::SeatNotOpen {
                kingdom: Kingdom::Qin,
            },
            Refusal::SeatTaken { seat: 1 },
            Refusal::InvitationExpired,
            Refusal::GameOver,
            Refusal::NotAMove { why: String::new() },
            Refusal::IllegalMove {
                mv: String::new(),
                why: String::new(),
            },
            Refusal::MovedOn { has: 1, ply: 1 },
            Refusal::NotYourTurn {
                kingdom: Kingdom::Qin,
            },
            Refusal::TakeBackOwnOnly,
            Refusal::TakeBackPending,
            Refusal::NoTakeBack,
            Refusal::NotOver,
            Refusal::TalkEmpty,
            Refusal::TalkTooLong { max: 1 },
            Refusal::NobodyToMute { seat: 1 },
            Refusal::TalkBarred,
            Refusal::BadDate {
                date: String::new(),
            },
            Refusal::HolidayDays {
                year: 1,
                asked: 1,
                left: 1,
            },
            Refusal::NoMail,
            Refusal::BadAddress {
                address: String::new(),
            },
            Refusal::NoPush,
            Refusal::BadSubscription,
            Refusal::LinkExpired,
            Refusal::TooManyConnections { max: 1 },
            Refusal::TooManyGames { max: 1 },
            Refusal::TooManyQuickGames { max: 1 },
            Refusal::TooManyReviewsAsked { max: 1 },
            Refusal::NoSuchPuzzle {
                id: "0123456789ab".into(),
            },
            Refusal::NoPuzzles,
            Refusal::ClubNameEmpty,
            Refusal::ClubNameTooLong { max: 40 },
            Refusal::ClubText,
            Refusal::ClubTextTooLong { max: 500 },
            Refusal::ClubNameTaken {
                name: "Jade Hall".into(),
            },
            Refusal::NoSuchClub {
                name: "Jade Hall".into(),
            },
            Refusal::NotInClub {
                name: "Jade Hall".into(),
            },
            Refusal::NotClubOrganiser {
                name: "Jade Hall".into(),
            },
            Refusal::NotClubOwner {
                name: "Jade Hall".into(),
            },
            Refusal::NoClubMember {
                player: "Ann".into(),
            },
            Refusal::ClubOwnerStays,
            Refusal::ClubFull { max: 2000 },
            Refusal::ClubBlocked,
            Refusal::TooManyClubs { max: 5 },
            Refusal::EveningPast,
            Refusal::EveningTooFar { days: 180 },
            Refusal::EveningNotLive,
            Refusal::NoSuchEvening,
            Refusal::EveningOver,
            Refusal::TooManyEvenings { max: 20 },
            Refusal::TournamentName { max: 40 },
            Refusal::TournamentNameTaken,
            Refusal::NoSuchTournament,
            Refusal::TournamentPast,
            Refusal::TournamentTooFar { days: 180 },
            Refusal::TournamentPace,
            Refusal::TournamentRounds { max: 15 },
            Refusal::ArenaMinutes { min: 15, max: 720 },
            Refusal::TournamentPlayers { min: 2, max: 1000 },
            Refusal::TournamentByOperator,
            Refusal::TournamentFull { most: 49 },
            Refusal::TournamentOver,
            Refusal::NotInTournament,
            Refusal::NoPlayerNamed { name: "Ann".into() },
            Refusal::Yourself,
            Refusal::NameTaken { name: "Ann".into() },
            Refusal::TableBlocked,
            Refusal::Barred,
            Refusal::LeftLately { seconds: 300 },
            Refusal::TablePeople {
                people: 1,
                min: 2,
                max: 7,
            },
            Refusal::TableWait {
                minutes: 0,
                min: 1,
                max: 2,
            },
            Refusal::RatingRange { min: 2, max: 1 },
            Refusal::TableLevel,
            Refusal::NoTable,
            Refusal::TableFull,
            Refusal::OutsideRatingRange {
                min: 1,
                max: 2,
                rating: 3,
            },
            Refusal::TooManyTables { max: 3 },
            Refusal::SlowDown { seconds: 1 },
            Refusal::TryAgain,
            Refusal::ShuttingDown,
        ] {
            let wire = serde_json::to_value(&refusal).unwrap();
            assert_eq!(wire["code"], refusal.code(), "{refusal:?}");
        }
        assert_eq!(Refusal::Unknown.code(), "unknown");
    }
}
