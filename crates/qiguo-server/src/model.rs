//! What the server keeps of a game, plainly: the game as stored (its record, seats and pace)
//! and the e-mails a move asks for. Data without I/O, shared by each game's pure core
//! ([`crate::live`]), which reads and makes them, and the store, which reads and writes them.

use qiguo_protocol::{GameId, Pace, PlayerId, QuickPace, SeatPlan, TakeBackView};
use qiguo_rules::{Game, Record};

/// A seat of a stored game.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSeat {
    /// Who was to play it.
    pub plan: SeatPlan,
    /// The player who holds it, once taken.
    pub holder: Option<PlayerId>,
    /// The holder's name.
    pub name: Option<String>,
    /// When the holder last had the game open, in milliseconds since 1970.
    pub seen_ms: Option<i64>,
    /// The holder's holidays that end on the day the turn began or later, as moments (ms
    /// since 1970, the first in, the second out), in order; read for correspondence games.
    pub holidays: Vec<(i64, i64)>,
    /// For a seat a person took over from a computer mid-game, the number of moves the game had
    /// then.
    pub taken_ply: Option<u32>,
    /// The holder's rating in the game's pace family and their rated games there, once they
    /// have one (`None`: a new player's rating, or nobody holds the seat).
    pub rating: Option<(qiguo_rating::Rating, u32)>,
    /// The rated games the holder left (a computer replaced them, absent past the grace).
    pub left: u32,
}

impl StoredSeat {
    /// The seat as players see it named: its holder, else its computer, else "open".
    pub fn label(&self) -> String {
        match (&self.name, self.plan) {
            (Some(name), _) => name.clone(),
            (None, SeatPlan::Computer(level)) => format!("computer ({level})"),
            (None, _) => "open".to_owned(),
        }
    }
}

/// A person a computer replaced in a quick game, absent past its grace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaver {
    /// The seat.
    pub seat: u8,
    /// The person.
    pub player: PlayerId,
    /// The move from which they held it.
    pub from_ply: u32,
    /// The move at which they were replaced.
    pub left_ply: u32,
}

/// A game as stored: its record (moves included), replayed and checked, its seats and pace.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The id.
    pub id: GameId,
    /// The invitation code.
    pub code: String,
    /// Who created it.
    pub creator: PlayerId,
    /// The record: start and every move stored.
    pub record: Record,
    /// The game, replayed from the record.
    pub game: Game,
    /// Its seats, by player number.
    pub seats: Vec<StoredSeat>,
    /// Its pace.
    pub pace: Pace,
    /// When the last move was made (or the game created), in milliseconds since 1970.
    pub moved_ms: i64,
    /// Whether the game is over (it takes no more moves).
    pub finished: bool,
    /// Which moves (by number) a stand-in computer made.
    pub stand_ins: Vec<u32>,
    /// The take-back being asked, if any.
    pub take_back: Option<TakeBackView>,
    /// Its quick pace, for a quick game.
    pub quick: Option<QuickPace>,
    /// The people a computer replaced in it, in the order they left.
    pub leavers: Vec<Leaver>,
}

/// A kind of e-mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MailKind {
    /// The link confirming an address.
    Confirm,
    /// A correspondence turn of the player's began.
    Turn,
    /// A day is left before the player's turn runs out.
    Reminder,
    /// A game of the player's ended.
    End,
    /// The day's games waiting for the player.
    Digest,
    /// A notification pushed to the player's devices: a turn of theirs began.
    PushTurn,
    /// A notification: a day is left for their turn.
    PushReminder,
    /// A notification: a game of theirs ended.
    PushEnd,
    /// A game of the player's (or one they asked for) has been reviewed.
    Review,
    /// A notification: a game's review is ready.
    PushReview,
    /// A notification: a club of the player's posted news (the row's `game_id` holds the news
    /// line's id).
    PushClubNews,
    /// An evening the player said they come to begins soon (the row's `game_id` holds the
    /// evening's id).
    Evening,
    /// A notification: an evening the player comes to begins soon.
    PushEvening,
}

impl MailKind {
    /// Its name in the outbox (and the log).
    pub fn code(self) -> &'static str {
        match self {
            MailKind::Confirm => "confirm",
            MailKind::Turn => "turn",
            MailKind::Reminder => "reminder",
            MailKind::End => "end",
            MailKind::Digest => "digest",
            MailKind::PushTurn => "push-turn",
            MailKind::PushReminder => "push-reminder",
            MailKind::PushEnd => "push-end",
            MailKind::Review => "review",
            MailKind::PushReview => "push-review",
            MailKind::PushClubNews => "push-club-news",
            MailKind::Evening => "evening",
            MailKind::PushEvening => "push-evening",
        }
    }

    /// Whether it is pushed to devices rather than e-mailed.
    pub fn pushed(self) -> bool {
        matches!(
            self,
            MailKind::PushTurn
                | MailKind::PushReminder
                | MailKind::PushEnd
                | MailKind::PushReview
                | MailKind::PushClubNews
                | MailKind::PushEvening
        )
    }

    /// The notification pushed on the occasion of this e-mail, if one is.
    pub fn push(self) -> Option<MailKind> {
        match self {
            MailKind::Turn => Some(MailKind::PushTurn),
            MailKind::Reminder => Some(MailKind::PushReminder),
            MailKind::End => Some(MailKind::PushEnd),
            MailKind::Review => Some(MailKind::PushReview),
            MailKind::Evening => Some(MailKind::PushEvening),
            _ => None,
        }
    }

    pub(crate) fn from_code(code: &str) -> Option<MailKind> {
        [
            MailKind::Confirm,
            MailKind::Turn,
            MailKind::Reminder,
            MailKind::End,
            MailKind::Digest,
            MailKind::PushTurn,
            MailKind::PushReminder,
            MailKind::PushEnd,
            MailKind::Review,
            MailKind::PushReview,
            MailKind::PushClubNews,
            MailKind::Evening,
            MailKind::PushEvening,
        ]
        .into_iter()
        .find(|k| k.code() == code)
    }
}

/// An e-mail a move writes into the outbox with itself (kept only for players with a
/// confirmed address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailNote {
    /// Which.
    pub kind: MailKind,
    /// To whom.
    pub player: PlayerId,
    /// The move number it is about (the turn's, or the game's last).
    pub ply: u32,
    /// Not before then, ms since 1970.
    pub not_before_ms: i64,
}
