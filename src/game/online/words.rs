//! What the server says, in the player's language: its refusals are codes with parameters
//! (the protocol's `Refusal`), each worded here from the interface's messages; a code this
//! version does not know shows the server's own English words.

use qiguo_protocol::Refusal;
use qiguo_protocol::client::ClientError;

use crate::i18n::Tr;
use crate::tr;

/// What quick play gave: a new game's kingdom, or a kingdom taken over and how it stood.
pub(crate) fn seated_words(
    tr: Tr,
    kingdom: qiguo_rules::Kingdom,
    took_over: Option<&qiguo_protocol::TakenOver>,
) -> String {
    match took_over {
        None => tr!(tr, "online-quick-new", kingdom = tr.kingdom(kingdom)),
        Some(t) => tr!(
            tr,
            "online-quick-took-over",
            kingdom = tr.kingdom(kingdom),
            moves = t.moves,
            captures = t.captures,
            losses = t.losses,
            to_move = tr.kingdom(t.to_move)
        ),
    }
}

/// A refusal in words; `why` is the server's English, for a code unknown here.
pub(crate) fn refusal_words(tr: Tr, refusal: &Refusal, why: &str) -> String {
    match refusal {
        Refusal::HelloFirst => tr.text("server-refusal-hello-first"),
        Refusal::AlreadySignedIn => tr.text("server-refusal-already-signed-in"),
        Refusal::Version { server, client } => {
            tr!(
                tr,
                "server-refusal-version",
                server = *server,
                client = *client
            )
        }
        Refusal::BadFrame { why } => tr!(tr, "server-refusal-bad-frame", why = why.clone()),
        Refusal::WrongKey => tr.text("server-refusal-wrong-key"),
        Refusal::NameEmpty => tr.text("server-refusal-name-empty"),
        Refusal::NameTooLong { max } => tr!(tr, "server-refusal-name-too-long", max = *max),
        Refusal::NameCharacters => tr.text("server-refusal-name-characters"),
        Refusal::Wait { seconds, min, max } => {
            tr!(
                tr,
                "server-refusal-wait",
                seconds = *seconds,
                min = *min,
                max = *max
            )
        }
        Refusal::NoPerson => tr.text("server-refusal-no-person"),
        Refusal::Days { days, min, max } => {
            tr!(
                tr,
                "server-refusal-days",
                days = *days,
                min = *min,
                max = *max
            )
        }
        Refusal::SeatPlans { plans, players } => {
            tr!(
                tr,
                "server-refusal-seat-plans",
                plans = *plans,
                players = *players
            )
        }
        Refusal::BadStart { why } => tr!(tr, "server-refusal-bad-start", why = why.clone()),
        Refusal::NoGame => tr.text("server-refusal-no-game"),
        Refusal::NoCode => tr.text("server-refusal-no-code"),
        Refusal::NoSuchSeat { kingdom } => {
            tr!(
                tr,
                "server-refusal-no-such-seat",
                kingdom = tr.kingdom(*kingdom)
            )
        }
        Refusal::SeatNotOpen { kingdom } => {
            tr!(
                tr,
                "server-refusal-seat-not-open",
                kingdom = tr.kingdom(*kingdom)
            )
        }
        Refusal::SeatTaken { .. } => tr.text("server-refusal-seat-taken"),
        Refusal::InvitationExpired => tr.text("server-refusal-invitation-expired"),
        Refusal::GameOver => tr.text("server-refusal-game-over"),
        Refusal::NotAMove { why } => tr!(tr, "server-refusal-not-a-move", why = why.clone()),
        Refusal::IllegalMove { mv, .. } => tr!(tr, "server-refusal-illegal-move", mv = mv.clone()),
        Refusal::MovedOn { has, .. } => tr!(tr, "server-refusal-moved-on", has = *has),
        Refusal::NotYourTurn { kingdom } => {
            tr!(
                tr,
                "server-refusal-not-your-turn",
                kingdom = tr.kingdom(*kingdom)
            )
        }
        Refusal::TakeBackOwnOnly => tr.text("server-refusal-take-back-own-only"),
        Refusal::TakeBackPending => tr.text("server-refusal-take-back-pending"),
        Refusal::NoTakeBack => tr.text("server-refusal-no-take-back"),
        Refusal::TooManyConnections { max } => {
            tr!(tr, "server-refusal-too-many-connections", max = *max)
        }
        Refusal::TooManyGames { max } => tr!(tr, "server-refusal-too-many-games", max = *max),
        Refusal::TooManyQuickGames { max } => {
            tr!(tr, "server-refusal-too-many-quick-games", max = *max)
        }
        Refusal::TooManyReviewsAsked { max } => {
            tr!(tr, "server-refusal-too-many-reviews-asked", max = *max)
        }
        Refusal::NoSuchPuzzle { id } => tr!(tr, "server-refusal-no-such-puzzle", id = id.clone()),
        Refusal::NoPuzzles => tr.text("server-refusal-no-puzzles"),
        Refusal::ClubNameEmpty => tr.text("server-refusal-club-name-empty"),
        Refusal::ClubNameTooLong { max } => {
            tr!(tr, "server-refusal-club-name-too-long", max = *max)
        }
        Refusal::ClubText => tr.text("server-refusal-club-text"),
        Refusal::ClubTextTooLong { max } => {
            tr!(tr, "server-refusal-club-text-too-long", max = *max)
        }
        Refusal::ClubNameTaken { name } => {
            tr!(tr, "server-refusal-club-name-taken", name = name.clone())
        }
        Refusal::NoSuchClub { name } => tr!(tr, "server-refusal-no-such-club", name = name.clone()),
        Refusal::NotInClub { name } => tr!(tr, "server-refusal-not-in-club", name = name.clone()),
        Refusal::NotClubOrganiser { name } => {
            tr!(tr, "server-refusal-not-club-organiser", name = name.clone())
        }
        Refusal::NotClubOwner { name } => {
            tr!(tr, "server-refusal-not-club-owner", name = name.clone())
        }
        Refusal::NoClubMember { player } => {
            tr!(tr, "server-refusal-no-club-member", player = player.clone())
        }
        Refusal::ClubOwnerStays => tr.text("server-refusal-club-owner-stays"),
        Refusal::ClubFull { max } => tr!(tr, "server-refusal-club-full", max = *max),
        Refusal::ClubBlocked => tr.text("server-refusal-club-blocked"),
        Refusal::TooManyClubs { max } => tr!(tr, "server-refusal-too-many-clubs", max = *max),
        Refusal::EveningPast => tr!(tr, "server-refusal-evening-past"),
        Refusal::EveningTooFar { days } => {
            tr!(tr, "server-refusal-evening-too-far", days = *days)
        }
        Refusal::EveningNotLive => tr!(tr, "server-refusal-evening-not-live"),
        Refusal::NoSuchEvening => tr!(tr, "server-refusal-no-such-evening"),
        Refusal::EveningOver => tr!(tr, "server-refusal-evening-over"),
        Refusal::TooManyEvenings { max } => {
            tr!(tr, "server-refusal-too-many-evenings", max = *max)
        }
        Refusal::TournamentName { max } => tr!(tr, "server-refusal-tournament-name", max = *max),
        Refusal::TournamentNameTaken => tr.text("server-refusal-tournament-name-taken"),
        Refusal::NoSuchTournament => tr.text("server-refusal-no-such-tournament"),
        Refusal::TournamentPast => tr.text("server-refusal-tournament-past"),
        Refusal::TournamentTooFar { days } => {
            tr!(tr, "server-refusal-tournament-too-far", days = *days)
        }
        Refusal::TournamentPace => tr.text("server-refusal-tournament-pace"),
        Refusal::TournamentRounds { max } => {
            tr!(
                tr,
                "server-refusal-tournament-rounds",
                max = u32::from(*max)
            )
        }
        Refusal::ArenaMinutes { min, max } => {
            tr!(tr, "server-refusal-arena-minutes", min = *min, max = *max)
        }
        Refusal::TournamentPlayers { min, max } => {
            tr!(
                tr,
                "server-refusal-tournament-players",
                min = *min,
                max = *max
            )
        }
        Refusal::TournamentByOperator => tr.text("server-refusal-tournament-by-operator"),
        Refusal::TournamentFull { most } => {
            tr!(tr, "server-refusal-tournament-full", most = *most)
        }
        Refusal::TournamentOver => tr.text("server-refusal-tournament-over"),
        Refusal::NotInTournament => tr.text("server-refusal-not-in-tournament"),
        Refusal::LeftLately { seconds } => {
            tr!(
                tr,
                "server-refusal-left-lately",
                minutes = seconds.div_ceil(60)
            )
        }
        Refusal::NameTaken { name } => {
            tr!(tr, "server-refusal-name-taken", name = name.clone())
        }
        Refusal::Yourself => tr.text("server-refusal-yourself"),
        Refusal::TableBlocked => tr.text("server-refusal-table-blocked"),
        Refusal::Barred => tr.text("server-refusal-barred"),
        Refusal::NoPlayerNamed { name } => {
            tr!(tr, "server-refusal-no-player-named", name = name.clone())
        }
        Refusal::TablePeople { people, min, max } => tr!(
            tr,
            "server-refusal-table-people",
            people = *people,
            min = *min,
            max = *max
        ),
        Refusal::TableWait { minutes, min, max } => tr!(
            tr,
            "server-refusal-table-wait",
            minutes = *minutes,
            min = *min,
            max = *max
        ),
        Refusal::RatingRange { min, max } => {
            tr!(tr, "server-refusal-rating-range", min = *min, max = *max)
        }
        Refusal::TableLevel => tr.text("server-refusal-table-level"),
        Refusal::NoTable => tr.text("server-refusal-no-table"),
        Refusal::TableFull => tr.text("server-refusal-table-full"),
        Refusal::OutsideRatingRange { min, max, rating } => tr!(
            tr,
            "server-refusal-outside-rating-range",
            min = *min,
            max = *max,
            rating = *rating
        ),
        Refusal::TooManyTables { max } => {
            tr!(tr, "server-refusal-too-many-tables", max = *max)
        }
        Refusal::BadDate { date } => tr!(tr, "server-refusal-bad-date", date = date.clone()),
        Refusal::HolidayDays { year, asked, left } => tr!(
            tr,
            "server-refusal-holiday-days",
            year = *year,
            asked = *asked,
            left = *left
        ),
        Refusal::NotOver => tr.text("server-refusal-not-over"),
        Refusal::TalkEmpty => tr.text("server-refusal-talk-empty"),
        Refusal::TalkTooLong { max } => tr!(tr, "server-refusal-talk-too-long", max = *max),
        Refusal::NobodyToMute { .. } => tr.text("server-refusal-nobody-to-mute"),
        Refusal::TalkBarred => tr.text("server-refusal-talk-barred"),
        Refusal::NoMail => tr.text("server-refusal-no-mail"),
        Refusal::BadAddress { address } => {
            tr!(tr, "server-refusal-bad-address", address = address.clone())
        }
        Refusal::NoPush => tr.text("server-refusal-no-push"),
        Refusal::BadSubscription => tr.text("server-refusal-bad-subscription"),
        Refusal::LinkExpired => tr.text("server-refusal-link-expired"),
        Refusal::SlowDown { seconds } => tr!(tr, "server-refusal-slow-down", seconds = *seconds),
        Refusal::TryAgain => tr.text("server-refusal-try-again"),
        Refusal::ShuttingDown => tr.text("server-refusal-shutting-down"),
        Refusal::Unknown => why.to_owned(),
    }
}

/// The notice of a request the server did not answer as asked: what it said, in words.
pub(crate) fn server_says(tr: Tr, failure: &ClientError) -> crate::game::state::Notice {
    let why = failure_words(tr, failure);
    crate::game::state::Notice::error(tr!(tr, "online-server-says", why = why))
}

/// Why a request failed, in words: a refusal worded from its code, a lost connection as the
/// client says it.
pub(crate) fn failure_words(tr: Tr, failure: &ClientError) -> String {
    match failure {
        ClientError::Refused { refusal, why } => refusal_words(tr, refusal, why),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use qiguo_rules::Kingdom;

    use super::*;
    use crate::i18n::Language;

    #[test]
    fn refusals_are_worded_in_each_language() {
        let turn = Refusal::NotYourTurn {
            kingdom: Kingdom::Han,
        };
        let en = refusal_words(Tr::new(Language::English), &turn, "");
        assert_eq!(en, "It is Han's turn, not one of your kingdoms'.");
        let sv = refusal_words(Tr::new(Language::Swedish), &turn, "");
        assert!(sv.contains("Han") && sv.starts_with("Det är"), "{sv}");
        let zh = refusal_words(Tr::new(Language::Chinese), &turn, "");
        assert!(zh.contains('韓') && zh.contains("輪到"), "{zh}");
        let days = Refusal::Days {
            days: 20,
            min: 1,
            max: 14,
        };
        assert!(refusal_words(Tr::new(Language::Swedish), &days, "").contains("14"));
        // A later server's code: its own English words.
        let later = refusal_words(Tr::new(Language::Chinese), &Refusal::Unknown, "on holiday");
        assert_eq!(later, "on holiday");
    }
}
