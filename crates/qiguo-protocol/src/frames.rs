//! What a client and the server say to each other over a WebSocket: JSON text frames, one
//! message each, typed here and versioned by [`PROTOCOL_VERSION`]. `docs/protocol.md` describes
//! the same for people.
//!
//! A client sends [`ClientFrame`]s, each a request numbered by the client; the server answers
//! every request exactly once, in order, with a [`ServerFrame::Reply`] or a
//! [`ServerFrame::Refused`] carrying that number, and between them sends
//! [`ServerFrame::Event`]s about the games the client follows. The first request must be
//! [`Ask::Hello`]: a client of another version is refused with a message saying both versions,
//! and the connection closed.

use qiguo_rules::{Kingdom, Record};
use serde::{Deserialize, Serialize};

use crate::clubs::{ClubAction, ClubListed, ClubNews, ClubSpec, ClubView};
use crate::evenings::{EveningId, EveningSpec, EveningView};
use crate::lobby::{LobbyView, TableId, TableSpec, TableView};
use crate::model::{
    GameId, MadeBy, NewGame, Pace, PlayerId, QuickPace, RatingFamily, RatingShown, SeatPlan,
};
use crate::refusal::Refusal;
use crate::tournaments::{StandingsNews, TournamentListed, TournamentSpec, TournamentView};

/// The version of these messages. A client speaking another is refused at [`Ask::Hello`].
///
/// 14: a player's turns told again when they sign in ([`Event::YourTurn`]'s `again`), each
/// turn named by its `ply` (the moves played) so that a client tells it once.
/// 13: tournaments ([`Ask::TournamentCreate`] and the other `tournament` requests,
/// [`Event::TournamentSeated`], [`Event::Standings`]).
/// 12: club evenings ([`Ask::EveningCreate`] and the other `evening` requests,
/// [`Event::EveningSeated`]); a club's own tables (a table spec's `club`), shown with its coming
/// evenings in its view.
/// 11: clubs ([`Ask::ClubCreate`] and the other `club` requests, [`Event::ClubNews`]).
/// 10: puzzles from the server's reviewed games ([`Ask::Puzzle`], [`Ask::PuzzleTried`]).
/// 9: reviews of finished games ([`Ask::Review`], [`Event::ReviewReady`]).
/// 8: notifications pushed to devices ([`Ask::Push`], [`Ask::Subscribe`], [`Ask::Unsubscribe`]).
/// 7: ratings (a seat's `rating`, [`Ask::Ratings`]), the lobby and public tables. 6: quick play ([`Ask::Quick`]).
/// 5: e-mail (a hello's `language`, signing in by a link's one-time token, [`Ask::Mail`]).
/// 4: table talk, holidays (a seat's `away_until`). 3: refusals are codes with parameters ([`Refusal`]) beside the English `why`; events of
/// unknown types are ignored. 2: presence events. 1: the first.
pub const PROTOCOL_VERSION: u32 = 14;

/// The port a server listens on unless told otherwise (the year of the 1206 text, plus 6000).
pub const DEFAULT_PORT: u16 = 7206;

/// The largest frame the server reads from a client, in bytes; a larger one closes the
/// connection.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The longest move text the server reads, in bytes (the longest move is 8).
pub const MAX_MOVE_BYTES: usize = 16;

/// A request from a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientFrame {
    /// The client's number for it, echoed in the answer.
    pub req: u64,
    /// What is asked.
    pub ask: Ask,
}

/// Who a client is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "as", rename_all = "snake_case", deny_unknown_fields)]
pub enum Identity {
    /// A player known to the server, by id and secret key.
    Player {
        /// The id.
        id: PlayerId,
        /// The key.
        key: String,
    },
    /// A new player of this name: the server makes an id and key and answers with both.
    New {
        /// The name.
        name: String,
    },
    /// A player signing in on a new device with the one-time token of a link the server
    /// e-mailed them (valid for a day): the server answers with their id and a new key for
    /// this device.
    Link {
        /// The token, as the link carries it.
        token: String,
    },
}

/// What a client asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Ask {
    /// The first request: the client's protocol version and who it is.
    Hello {
        /// [`PROTOCOL_VERSION`] of the client.
        version: u32,
        /// Who it is.
        identity: Identity,
        /// The language the player reads (`en`, `sv`, `zh`), for what the server writes to
        /// them while away (e-mail); kept until a hello says another.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        language: Option<String>,
    },
    /// Create a game (answered with [`Answer::Created`]); the creator takes its
    /// [`SeatPlan::Creator`] seats.
    Create {
        /// The game.
        game: NewGame,
    },
    /// Take the open seat of `kingdom` in the game with invitation code `code`, and follow the
    /// game (answered with [`Answer::Game`]). Asked again for a seat already held, it opens it.
    Join {
        /// The invitation code, as typed.
        code: String,
        /// A kingdom of the seat (its player number's).
        kingdom: Kingdom,
    },
    /// Follow a game in which the client holds a seat (answered with [`Answer::Game`]).
    Open {
        /// The game.
        game: GameId,
    },
    /// Follow a game read-only (answered with [`Answer::Game`]).
    Watch {
        /// Its invitation code.
        code: String,
    },
    /// Stop following a game (answered with [`Answer::Done`]).
    Close {
        /// The game.
        game: GameId,
    },
    /// The client's games in progress (answered with [`Answer::Games`]).
    Games {},
    /// The client's finished games, the newest first, [`FINISHED_PER_PAGE`] a page from page
    /// `page` (from 0); answered with [`Answer::Finished`].
    Finished {
        /// The page.
        page: u32,
    },
    /// Offer the players of a finished game a rematch: a new game with the same start, seats
    /// and pace, each person seated where they were (answered with [`Answer::Created`]; the
    /// others get [`Event::Rematch`]).
    Rematch {
        /// The finished game, one the client held a seat in.
        game: GameId,
    },
    /// Play now: a seat at once in a game of `pace` (answered with [`Answer::Seated`]), which
    /// the client then follows. A kingdom a computer holds in a quick game of that pace under
    /// way, taken over at its next turn; else a new game against computers.
    Quick {
        /// The pace.
        pace: QuickPace,
    },
    /// The lobby (answered with [`Answer::Lobby`]); with `follow`, [`Event::Lobby`] brings it
    /// again whenever it changes, until asked with `follow: false` or the connection ends.
    Lobby {
        /// Keep sending it as it changes.
        follow: bool,
    },
    /// Create a public table and sit at it (answered with [`Answer::Table`]); it is listed in
    /// the lobby until it fills and starts its game ([`Event::TableStarted`]) or its time runs
    /// out ([`TableSpec::unfilled`](crate::lobby::TableSpec)).
    CreateTable {
        /// The table.
        table: TableSpec,
        /// A club's own table (its name; the client a member): shown in the club's view, not
        /// the lobby, and only its members sit at it (version 12).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        club: Option<String>,
    },
    /// Sit at an open table (answered with [`Answer::Table`]); the one who fills it starts its
    /// game.
    JoinTable {
        /// The table.
        table: TableId,
    },
    /// Get up from a table not started yet (answered with [`Answer::Done`]); a table nobody sits
    /// at any more closes.
    LeaveTable {
        /// The table.
        table: TableId,
    },
    /// The review of a finished game (answered with [`Answer::Review`]): asked for if it was
    /// not, and first in line; when it must wait, the client is told once it is ready
    /// ([`Event::ReviewReady`]).
    Review {
        /// The game.
        game: GameId,
    },
    /// A puzzle mined from the server's reviewed games (answered with [`Answer::Puzzle`]).
    Puzzle {
        /// Which.
        which: PuzzleWanted,
    },
    /// The client's first try at a puzzle (answered with [`Answer::PuzzleRated`]): the
    /// player's puzzle rating and the puzzle's move by it, once a player and puzzle (a puzzle
    /// tried before is answered with both unchanged).
    PuzzleTried {
        /// The puzzle's name.
        id: String,
        /// Whether the first move was its solution (a hint or the solution asked for before a
        /// move is a miss).
        solved: bool,
    },
    /// A new club, owned by the client (answered with [`Answer::Club`]).
    ClubCreate {
        /// Its name, description and whether it is open.
        spec: ClubSpec,
    },
    /// Joins an open club, or asks to join one by request (answered with [`Answer::Club`]).
    ClubJoin {
        /// The club's name (compared as names are).
        name: String,
    },
    /// Leaves a club, or takes back a request to join it (answered with [`Answer::Clubs`]).
    ClubLeave {
        /// The club's name.
        name: String,
    },
    /// A club as it stands (answered with [`Answer::Club`]).
    Club {
        /// The club's name.
        name: String,
    },
    /// The client's clubs, then the biggest others (or those whose names hold `search`)
    /// (answered with [`Answer::Clubs`]).
    Clubs {
        /// Part of a club's name to look for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        search: Option<String>,
    },
    /// An organiser lets one who asks in, removes a member, or the owner names or unnames an
    /// organiser (answered with [`Answer::Club`]).
    ClubMember {
        /// The club's name.
        name: String,
        /// The player's public name.
        player: String,
        /// What to do.
        action: ClubAction,
    },
    /// An organiser posts a line of the club's news: members who want it are told
    /// ([`Event::ClubNews`], and their devices) (answered with [`Answer::Club`]).
    ClubPost {
        /// The club's name.
        name: String,
        /// The words.
        text: String,
    },
    /// Whether the client is told of a club's news (answered with [`Answer::Club`]).
    ClubNewsWanted {
        /// The club's name.
        name: String,
        /// Told, or not.
        wanted: bool,
    },
    /// Sets an evening of a club (an organiser; answered with [`Answer::Evening`]).
    EveningCreate {
        /// The club, the time and what it plays.
        spec: EveningSpec,
    },
    /// Says the client comes to an evening, or no longer (a member; answered with
    /// [`Answer::Evening`]). Coming once it has begun seats the client at once, in a computer's
    /// kingdom of one of its games.
    EveningCome {
        /// The evening.
        evening: EveningId,
        /// Comes, or not.
        coming: bool,
    },
    /// Calls an evening off before it begins (an organiser; answered with [`Answer::Evening`]).
    EveningCancel {
        /// The evening.
        evening: EveningId,
    },
    /// The evenings to come and under way of a club, or of all the client's clubs (answered
    /// with [`Answer::Evenings`]).
    Evenings {
        /// The club's name; `None`: every club of the client's.
        #[serde(default)]
        club: Option<String>,
    },
    /// Sets a tournament: a club's own (an organiser of `spec.club`); a public one is the
    /// operator's (answered with [`Answer::Tournament`]).
    TournamentCreate {
        /// What it is.
        spec: TournamentSpec,
    },
    /// Joins a tournament (answered with [`Answer::Tournament`]); a club's own takes its
    /// members only.
    TournamentJoin {
        /// Its name.
        name: String,
    },
    /// Leaves a tournament: before it starts, not entered; after, seated no more, a computer
    /// taking the client's kingdom in its game under way (answered with [`Answer::Tournament`]).
    TournamentLeave {
        /// Its name.
        name: String,
    },
    /// A tournament: its standings, the client's games in it, its winners (answered with
    /// [`Answer::Tournament`]).
    Tournament {
        /// Its name.
        name: String,
    },
    /// The tournaments to come, under way and lately over: public ones and those of the
    /// client's clubs, or one club's (answered with [`Answer::Tournaments`]).
    Tournaments {
        /// A club's name; `None`: public ones and the client's clubs'.
        #[serde(default)]
        club: Option<String>,
    },
    /// The leaderboard of a pace family and one player's rating and history in it (answered
    /// with [`Answer::Ratings`]): the player named `of`, or the client when `None`.
    Ratings {
        /// Live or correspondence.
        family: RatingFamily,
        /// A player's public name (compared as names are), or `None` for the client's own.
        #[serde(default)]
        of: Option<String>,
    },
    /// Block the player called `name`, or no more (`block: false`): quick play and tables never
    /// seat the two together, and their table talk is hidden from the client (answered with
    /// [`Answer::Done`]).
    Block {
        /// Their public name.
        name: String,
        /// Block (`true`) or unblock.
        block: bool,
    },
    /// Report the player called `name` to the server's operator, with a reason and the game it
    /// is about, if any (answered with [`Answer::Done`]). At most [`crate::MAX_TALK_CHARS`]
    /// characters of reason, cleaned as table talk; a few a minute.
    Report {
        /// Their public name.
        name: String,
        /// The game it is about.
        #[serde(default)]
        game: Option<GameId>,
        /// Why.
        reason: String,
    },
    /// A move for a kingdom the client holds (answered with [`Answer::Moved`] once it is
    /// stored; every follower, the client included, also gets [`Event::Moved`]).
    Move {
        /// The game.
        game: GameId,
        /// How many moves the game has before this one (a move for another moment is refused).
        ply: u32,
        /// The move, in move text (`f3a8`, `--`, `concede`).
        mv: String,
    },
    /// Ask the other people in the game to take back the moves from number `ply` (from 0) on
    /// (answered with [`Answer::Done`]; the followers get [`Event::TakeBackAsked`]).
    TakeBack {
        /// The game.
        game: GameId,
        /// The first move to take back: one of the asker's own moves.
        ply: u32,
    },
    /// Agree to, or refuse, the take-back asked in `game` (answered with [`Answer::Done`]).
    AnswerTakeBack {
        /// The game.
        game: GameId,
        /// Whether this player agrees.
        agree: bool,
    },
    /// Write `text` to everyone at the table of a game in which the client holds a seat
    /// (answered with [`Answer::Said`]; the followers get [`Event::Said`]). At most
    /// [`crate::model::MAX_TALK_CHARS`] characters, cleaned as names are; a few a minute.
    Say {
        /// The game.
        game: GameId,
        /// What to say.
        text: String,
    },
    /// The table talk of a game the client holds a seat in or follows (answered with
    /// [`Answer::Talk`]): the last [`TALK_LINES_READ`] lines before line `before` (all, when
    /// `None`), without those hidden by the operator or written by a player the client muted.
    Talk {
        /// The game.
        game: GameId,
        /// Read lines numbered below this one (to page back).
        before: Option<u32>,
    },
    /// Go on holiday until `until` (a date `YYYY-MM-DD`, UTC, inclusive), from today; change
    /// the last day of the holiday one is on; or (`None`) come back today. Answered with
    /// [`Answer::Holidays`]; the followers of each of the player's games get [`Event::Away`].
    /// While away, the player's correspondence clocks stop.
    Away {
        /// The last day away, or `None` to be back.
        until: Option<String>,
    },
    /// The player's holidays (answered with [`Answer::Holidays`]).
    Holidays {},
    /// The player's e-mail as the server has it, and whether it sends any (answered with
    /// [`Answer::Mail`]).
    Mail {},
    /// Gives the server an e-mail address (a link to confirm it is sent there; nothing else is
    /// sent before), changes whether it sends one daily digest instead of an e-mail a turn, or
    /// (`address: None`) removes the address. Answered with [`Answer::Mail`]. Refused
    /// `no_mail` by a server that sends no e-mail.
    SetMail {
        /// The address, or `None` to remove it.
        address: Option<String>,
        /// One e-mail a day listing the games waiting for the player, rather than one a turn.
        #[serde(default)]
        digest: bool,
    },
    /// Whether the server pushes notifications to devices, the key a page subscribes with, and
    /// how many of the player's devices it notifies (answered with [`Answer::Push`]).
    Push {},
    /// Notify this device (a page's push subscription, as the browser gives it) on the
    /// occasions the server e-mails: *your move* while the player has no connection, the
    /// reminder a day before the turn runs out, the end. Answered with [`Answer::Push`];
    /// refused `no_push` by a server that pushes nothing, `bad_subscription` for an endpoint
    /// that is not an https address of a push service it posts to.
    Subscribe {
        /// The push service's URL for the device.
        endpoint: String,
        /// The device's P-256 public key, base64url.
        p256dh: String,
        /// The device's authentication secret, base64url.
        auth: String,
    },
    /// Notify the device of `endpoint` no more (answered with [`Answer::Push`]).
    Unsubscribe {
        /// Its endpoint, as subscribed.
        endpoint: String,
    },
    /// Mute (or unmute) the player holding `seat` of `game`, for the client only: their lines
    /// are no longer sent to it, in any game (answered with [`Answer::Done`]).
    Mute {
        /// A game the client holds a seat in or follows.
        game: GameId,
        /// The seat of the player to mute.
        seat: u8,
        /// Mute (`true`) or unmute.
        mute: bool,
    },
}

/// How many finished games one [`Ask::Finished`] page holds.
pub const FINISHED_PER_PAGE: u32 = 20;

/// The most lines of table talk one [`Ask::Talk`] reads.
pub const TALK_LINES_READ: u32 = 100;

/// A line of a game's table talk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TalkLine {
    /// Its number in the game's talk, from 0.
    pub n: u32,
    /// The player number of the seat its writer held.
    pub seat: u8,
    /// The writer's name.
    pub name: String,
    /// What they wrote.
    pub text: String,
    /// When, ms since 1970.
    pub said_ms: i64,
    /// Who wrote it: known to the server (to leave it out for those who muted them), never
    /// sent.
    #[serde(skip)]
    pub author: Option<PlayerId>,
}

/// A seat of a game as the clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    /// Who was to play it.
    pub plan: SeatPlan,
    /// The name of the player who holds it, once taken.
    pub name: Option<String>,
    /// Whether the asking client holds it.
    pub yours: bool,
    /// Whether its player has the game open now (for a computer's seat, always).
    pub present: bool,
    /// The last day of its player's holiday (`YYYY-MM-DD`, UTC), while they are away.
    #[serde(default)]
    pub away_until: Option<String>,
    /// The rating of its player (a person's in the game's pace family; a computer's fixed one
    /// for its level); `None` for a seat nobody holds yet.
    #[serde(default)]
    pub rating: Option<RatingShown>,
}

/// A player's holidays, as the server counts them: days away stop their correspondence clocks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Holidays {
    /// The last day of the holiday they are on (`YYYY-MM-DD`, UTC, inclusive), if any.
    pub away_until: Option<String>,
    /// The days of holiday each calendar year gives (the server's setting).
    pub allowance: u32,
    /// This year (UTC).
    pub year: i32,
    /// The days of this year's allowance taken, today's holiday to its end included.
    pub used: u32,
}

/// A player's e-mail, as the server has it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailView {
    /// Whether the server sends e-mail at all.
    pub offered: bool,
    /// The address given, if any.
    pub address: Option<String>,
    /// Whether it was confirmed through the link sent to it (nothing else is sent before).
    pub confirmed: bool,
    /// One e-mail a day rather than one a turn.
    pub digest: bool,
}

/// Notifications to a player's devices, as the server has them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushView {
    /// Whether the server pushes notifications at all.
    pub offered: bool,
    /// The server's public key (VAPID, base64url), which a page subscribes with.
    pub key: Option<String>,
    /// How many of the player's devices it notifies.
    pub devices: u32,
}

/// A game as the clients see it: its record so far and its seats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameView {
    /// The id.
    pub id: GameId,
    /// The invitation code (to pass on to friends, or to watchers).
    pub code: String,
    /// The record: the start and every move so far.
    pub record: Record,
    /// Which moves (by number) a stand-in computer made for an absent player (the overdue
    /// passes are in the record's `overdue`).
    pub stand_ins: Vec<u32>,
    /// Its seats, by player number.
    pub seats: Vec<SeatView>,
    /// Its pace.
    pub pace: Pace,
    /// When the turn began (the last move, or the game's creation), ms since 1970.
    pub since_ms: i64,
    /// When a stand-in plays (or the kingdom passes) if the player to move does not, ms since
    /// 1970; `None` when a computer or nobody is to move.
    pub deadline_ms: Option<i64>,
    /// Whether the game is over.
    pub finished: bool,
    /// The take-back being asked, if any.
    pub take_back: Option<TakeBackView>,
}

/// A take-back being asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeBackView {
    /// The player number that asked.
    pub by: u8,
    /// The first move to be taken back.
    pub ply: u32,
    /// The player numbers that have agreed so far.
    pub agreed: Vec<u8>,
}

/// One of a client's games, for its list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The id.
    pub id: GameId,
    /// The players' names (or the plan, for seats not taken), by player number.
    pub players: Vec<String>,
    /// The player numbers the client holds.
    pub yours: Vec<u8>,
    /// The kingdom to move, `None` once the game is over.
    pub to_move: Option<Kingdom>,
    /// Whether one of the client's kingdoms is to move.
    pub your_turn: bool,
    /// How many moves have been made.
    pub moves: u32,
    /// When the turn began, ms since 1970.
    pub since_ms: i64,
    /// When the turn is overdue, ms since 1970 (see [`GameView::deadline_ms`]).
    pub deadline_ms: Option<i64>,
    /// Whether the game is over.
    pub finished: bool,
    /// Once it is over, the winning kingdom (none when nobody won).
    #[serde(default)]
    pub winner: Option<Kingdom>,
    /// Once it is over, how it was won: `generals`, `kingdoms`, `captures`, `last_kingdom`,
    /// `early_end` or `most_captures`.
    #[serde(default)]
    pub victory: Option<String>,
}

/// A kingdom taken over from a computer in a quick game under way, as it stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakenOver {
    /// Moves played in the game so far.
    pub moves: u32,
    /// The pieces the kingdom has taken.
    pub captures: u32,
    /// The pieces it has lost.
    pub losses: u32,
    /// The kingdom whose turn it is.
    pub to_move: Kingdom,
}

/// How many places one [`Answer::Ratings`] leaderboard lists, and how many of a player's
/// rated games their history holds.
pub const RATINGS_LISTED: usize = 50;

/// One place of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingRow {
    /// The place, from 1.
    pub place: u32,
    /// The player's public name.
    pub name: String,
    /// Their rating.
    pub rating: RatingShown,
}

/// What one rated game did to a player's rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingChange {
    /// The game.
    pub game: GameId,
    /// When it was rated (it had just ended), in milliseconds since 1970.
    pub at_ms: i64,
    /// The player's place in it, from 1.
    pub place: u8,
    /// How many sides (people and computers) were placed.
    pub sides: u8,
    /// The share of the kingdom's turns the player played, in percent (100 unless they took it
    /// over mid-game).
    pub share: u8,
    /// The shown rating after the game.
    pub points: i64,
    /// How much it moved.
    pub change: i64,
}

/// A player's rating in a pace family and the games that made it, the newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingHistory {
    /// The player's public name.
    pub name: String,
    /// Their rating now (a new player's until a rated game ends).
    pub rating: RatingShown,
    /// The last [`RATINGS_LISTED`] rated games, the newest first.
    pub changes: Vec<RatingChange>,
}

/// Which puzzle a client asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PuzzleWanted {
    /// The day's: the same for every player on a day (UTC).
    Daily,
    /// The one the player has not tried rated nearest the player's puzzle rating.
    Next,
    /// The puzzle of this name (twelve lowercase hexadecimal digits).
    Named {
        /// Its name.
        id: String,
    },
}

/// The longest puzzle name the server reads.
pub const MAX_PUZZLE_ID_BYTES: usize = 32;

/// A puzzle, as the server sends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleView {
    /// The puzzle: its position, its one move, its theme, and its rating now (moved by every
    /// player's first try).
    pub puzzle: qiguo_ai::puzzles::Puzzle,
    /// The game it comes from.
    pub game: GameId,
    /// It is the day's puzzle.
    pub daily: bool,
    /// The player's puzzle rating, as shown (1500 before a first try).
    pub solver: i64,
    /// The player tried it before (a try changes no rating).
    pub tried: bool,
    /// Players who tried it, and of them who solved it.
    pub tries: u32,
    /// Of those, solved.
    pub solved: u32,
}

/// What a first try did ([`Ask::PuzzleTried`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRated {
    /// The puzzle's name.
    pub id: String,
    /// The player's puzzle rating before, as shown.
    pub before: i64,
    /// And after (the same where the puzzle was tried before).
    pub after: i64,
    /// The puzzle's rating now, as shown.
    pub puzzle: i64,
    /// This try counted (the player's first at it).
    pub counted: bool,
}

/// Where a finished game's review stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewView {
    /// The game.
    pub game: GameId,
    /// Where its review stands.
    pub status: ReviewStatus,
}

/// Where a review stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
pub enum ReviewStatus {
    /// Waiting for a reviewer, or under way: [`Event::ReviewReady`] follows.
    Waiting,
    /// Done.
    Done {
        /// The review: each move's chances, the engine's best move and the mistakes.
        review: Box<qiguo_ai::review::GameReview>,
    },
    /// Given up: the game could not be reviewed (why, for the player, in English).
    Failed {
        /// Why.
        why: String,
    },
}

/// The server's answer to a request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Answer {
    /// Signed in.
    Welcome {
        /// The server's [`PROTOCOL_VERSION`].
        version: u32,
        /// The player's id.
        player: PlayerId,
        /// The player's name.
        name: String,
        /// For a new player, the secret key to keep (it is never sent again).
        key: Option<String>,
    },
    /// A game was created.
    Created {
        /// Its id.
        game: GameId,
        /// Its invitation code.
        code: String,
    },
    /// A game now followed, as it stands.
    Game(Box<GameView>),
    /// A seat given by quick play, in the game now followed.
    Seated {
        /// The kingdom the client plays.
        kingdom: Kingdom,
        /// What the client took over from a computer in a game under way; `None` in a new
        /// game.
        took_over: Option<TakenOver>,
        /// The game, as it stands.
        game: Box<GameView>,
    },
    /// The lobby.
    Lobby(Box<LobbyView>),
    /// A table the client sits at, as it stands (its `game` once it started).
    Table(Box<TableView>),
    /// A pace family's leaderboard and a player's rating in it.
    Ratings {
        /// The family.
        family: RatingFamily,
        /// The best established ratings, then the provisional ones, each by rating, at most
        /// [`RATINGS_LISTED`].
        board: Vec<RatingRow>,
        /// The player asked about.
        player: RatingHistory,
    },
    /// The client's games: those waiting for its move first, then the others by the time of
    /// their last move, the newest first.
    Games {
        /// The games.
        games: Vec<GameSummary>,
    },
    /// A page of the client's finished games, the newest first.
    Finished {
        /// The games.
        games: Vec<GameSummary>,
        /// The page (from 0).
        page: u32,
        /// Whether an older page follows.
        more: bool,
    },
    /// A move was stored: it is move number `ply`.
    Moved {
        /// Its number (from 0).
        ply: u32,
    },
    /// The player's holidays.
    Holidays(Holidays),
    /// The player's e-mail ([`Ask::Mail`], [`Ask::SetMail`]).
    Mail(MailView),
    /// The player's notified devices ([`Ask::Push`], [`Ask::Subscribe`], [`Ask::Unsubscribe`]).
    Push(PushView),
    /// Where a finished game's review stands ([`Ask::Review`]).
    Review(Box<ReviewView>),
    /// A puzzle ([`Ask::Puzzle`]).
    Puzzle(Box<PuzzleView>),
    /// What a first try at a puzzle did ([`Ask::PuzzleTried`]).
    PuzzleRated(PuzzleRated),
    /// A club ([`Ask::ClubCreate`], [`Ask::ClubJoin`], [`Ask::Club`], [`Ask::ClubMember`],
    /// [`Ask::ClubPost`], [`Ask::ClubNewsWanted`]).
    Club(Box<ClubView>),
    /// Clubs: the client's, then others ([`Ask::Clubs`], [`Ask::ClubLeave`]).
    Clubs {
        /// The clubs, at most [`crate::clubs::CLUBS_LISTED`].
        clubs: Vec<ClubListed>,
    },
    /// An evening ([`Ask::EveningCreate`], [`Ask::EveningCome`], [`Ask::EveningCancel`]).
    Evening(Box<EveningView>),
    /// Evenings, the soonest first ([`Ask::Evenings`]), at most
    /// [`crate::evenings::EVENINGS_LISTED`].
    Evenings {
        /// The evenings.
        evenings: Vec<EveningView>,
    },
    /// A tournament ([`Ask::TournamentCreate`], [`Ask::TournamentJoin`],
    /// [`Ask::TournamentLeave`], [`Ask::Tournament`]).
    Tournament(Box<TournamentView>),
    /// Tournaments, under way first, then to come, then over ([`Ask::Tournaments`]), at most
    /// [`crate::tournaments::TOURNAMENTS_LISTED`].
    Tournaments {
        /// The tournaments.
        tournaments: Vec<TournamentListed>,
    },
    /// A line of table talk was stored: it is line number `n`.
    Said {
        /// Its number (from 0).
        n: u32,
    },
    /// Table talk, oldest first.
    Talk {
        /// The game.
        game: GameId,
        /// The lines.
        lines: Vec<TalkLine>,
        /// The seats of the game whose players the client muted.
        muted: Vec<u8>,
    },
    /// Done.
    Done,
}

/// Something that happened in a game the client follows, or to the client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// The lobby changed (to a client following it).
    Lobby(Box<LobbyView>),
    /// A club the client belongs to posted news (to members who want it).
    ClubNews(ClubNews),
    /// An evening the client comes to began, and seated the client: its game, to open and play.
    EveningSeated {
        /// The evening.
        evening: EveningId,
        /// The club's name.
        club: String,
        /// The client's game.
        game: GameId,
    },
    /// A tournament the client plays in seated them at a table (a Swiss's round began, or an
    /// arena found them a table): its game, to open and play.
    TournamentSeated {
        /// The tournament's name.
        tournament: String,
        /// The round (an arena: the client's game's number in it).
        round: u32,
        /// The client's game.
        game: GameId,
    },
    /// A tournament's standings changed (to its players).
    Standings(StandingsNews),
    /// A table the client sits at filled (or its time ran out, computers taking the empty
    /// seats): its game started, with the client seated; open it to play.
    TableStarted {
        /// The table.
        table: TableId,
        /// The game.
        game: GameId,
    },
    /// A table the client sat at closed unfilled.
    TableClosed {
        /// The table.
        table: TableId,
    },
    /// A move was made.
    Moved {
        /// The game.
        game: GameId,
        /// Its number (from 0).
        ply: u32,
        /// The move, in move text.
        mv: String,
        /// Who made it (an overdue pass is replayed with [`qiguo_rules::Game::pass_overdue`]).
        by: MadeBy,
        /// When the next turn began, ms since 1970.
        since_ms: i64,
        /// When the next turn is overdue (see [`GameView::deadline_ms`]).
        deadline_ms: Option<i64>,
    },
    /// A seat was taken.
    Seated {
        /// The game.
        game: GameId,
        /// The player number.
        seat: u8,
        /// The player's name.
        name: String,
        /// Their rating in the game's pace family.
        #[serde(default)]
        rating: Option<RatingShown>,
    },
    /// A computer took a person's seat over (quick play: absent past the grace); the kingdom
    /// is offered to the next person who plays now at the game's pace.
    Replaced {
        /// The game.
        game: GameId,
        /// The player number.
        seat: u8,
        /// The computer's level.
        level: qiguo_rules::Level,
        /// The name of the person replaced.
        name: String,
    },
    /// A seat's player came (opened the game on this server, where nobody had it open for
    /// them) or went (closed it, or lost the connection, where it was open last).
    Presence {
        /// The game.
        game: GameId,
        /// The player number.
        seat: u8,
        /// Whether its player has the game open now.
        present: bool,
    },
    /// Someone asks to take back moves.
    TakeBackAsked {
        /// The game.
        game: GameId,
        /// The take-back.
        take_back: TakeBackView,
    },
    /// The take-back was refused (or overtaken by a move) and nothing changed.
    TakeBackRefused {
        /// The game.
        game: GameId,
    },
    /// Every other person agreed: the moves from `ply` on are gone.
    TakenBack {
        /// The game.
        game: GameId,
        /// How many moves the game has now.
        ply: u32,
        /// When the turn began, ms since 1970.
        since_ms: i64,
        /// When it is overdue.
        deadline_ms: Option<i64>,
    },
    /// The game changed in a way the client should read afresh (it fell behind the events):
    /// open it again.
    Stale {
        /// The game.
        game: GameId,
    },
    /// A seat's player went on holiday until `until`, changed its end, or (`None`) came back.
    Away {
        /// The game.
        game: GameId,
        /// The player number.
        seat: u8,
        /// The last day away (`YYYY-MM-DD`), or `None`.
        until: Option<String>,
        /// When the turn is overdue now (see [`GameView::deadline_ms`]).
        deadline_ms: Option<i64>,
    },
    /// A line of table talk was written.
    Said {
        /// The game.
        game: GameId,
        /// The line.
        line: TalkLine,
    },
    /// Someone at the table of a finished game of the client's offers a rematch: a new game
    /// with the same start, seats and pace, where the client already holds their seat.
    Rematch {
        /// The finished game.
        game: GameId,
        /// The new one.
        rematch: GameId,
        /// Who offers it.
        by: String,
    },
    /// Another of the client's games waits for the client's move: told when the move before
    /// it is made, and again when the client signs in (`again`), so that a turn told while a
    /// connection was down is not lost. A client tells the player of each turn (`game`, `ply`)
    /// once.
    YourTurn {
        /// The game.
        game: GameId,
        /// The kingdom to move.
        kingdom: Kingdom,
        /// The moves played before this turn: the turn's name within its game.
        #[serde(default)]
        ply: u32,
        /// Told again at sign-in: the turn began before this connection did.
        #[serde(default)]
        again: bool,
    },
    /// The player's e-mail changed elsewhere (confirmed through its link, unsubscribed).
    Mail(MailView),
    /// The review of a finished game is ready: to its people, and to whoever asked for it.
    ReviewReady {
        /// The game.
        game: GameId,
    },
    /// An event of a later version that this client does not know: ignored. Never sent.
    #[serde(other)]
    Unknown,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerFrame {
    /// The answer to request `req`.
    Reply {
        /// The request's number.
        req: u64,
        /// The answer.
        answer: Answer,
    },
    /// Request `req` was refused, and nothing changed.
    Refused {
        /// The request's number (0 for a frame that could not be read).
        req: u64,
        /// Why, as a code with its parameters, for the client to word.
        refusal: Refusal,
        /// Why, in English.
        why: String,
        /// Whether the server closes the connection after this.
        closing: bool,
    },
    /// Something happened.
    Event {
        /// What.
        event: Event,
    },
}

impl ServerFrame {
    /// The refusal of request `req`, with its English words.
    pub fn refused(req: u64, refusal: Refusal, closing: bool) -> ServerFrame {
        ServerFrame::Refused {
            req,
            why: refusal.to_string(),
            refusal,
            closing,
        }
    }
}

/// A refusal in the shape protocol versions 1 and 2 read (no code, the English words only),
/// for telling a client of those versions why it cannot be served.
pub fn refused_in_old_shape(req: u64, why: &str, closing: bool) -> String {
    serde_json::json!({ "type": "refused", "req": req, "why": why, "closing": closing }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_as_written() {
        let frame = ClientFrame {
            req: 7,
            ask: Ask::Move {
                game: GameId("g".into()),
                ply: 3,
                mv: "f3a8".into(),
            },
        };
        let text = serde_json::to_string(&frame).unwrap();
        assert_eq!(
            text,
            r#"{"req":7,"ask":{"type":"move","game":"g","ply":3,"mv":"f3a8"}}"#
        );
        assert_eq!(serde_json::from_str::<ClientFrame>(&text).unwrap(), frame);
        let hello =
            r#"{"req":1,"ask":{"type":"hello","version":1,"identity":{"as":"new","name":"Ana"}}}"#;
        assert!(matches!(
            serde_json::from_str::<ClientFrame>(hello).unwrap().ask,
            Ask::Hello {
                version: 1,
                identity: Identity::New { .. },
                language: None,
            }
        ));
    }

    #[test]
    fn events_of_later_versions_are_ignored_and_refusals_carry_codes() {
        let later = r#"{"type":"event","event":{"type":"table_talk","game":"g","text":"hi"}}"#;
        assert_eq!(
            serde_json::from_str::<ServerFrame>(later).unwrap(),
            ServerFrame::Event {
                event: Event::Unknown
            }
        );
        let refused = ServerFrame::refused(4, Refusal::GameOver, false);
        let text = serde_json::to_string(&refused).unwrap();
        assert_eq!(
            text,
            r#"{"type":"refused","req":4,"refusal":{"code":"game_over"},"why":"the game is over","closing":false}"#
        );
        assert_eq!(serde_json::from_str::<ServerFrame>(&text).unwrap(), refused);
        // What a version 2 client reads: its own shape of a refusal.
        let old: serde_json::Value =
            serde_json::from_str(&refused_in_old_shape(1, "versions differ", true)).unwrap();
        assert_eq!(old["why"], "versions differ");
        assert!(old.get("refusal").is_none());
    }

    #[test]
    fn unknown_fields_are_refused() {
        let text = r#"{"req":1,"ask":{"type":"games","extra":true}}"#;
        assert!(serde_json::from_str::<ClientFrame>(text).is_err());
        assert!(serde_json::from_str::<ClientFrame>(r#"{"req":1}"#).is_err());
    }
}
