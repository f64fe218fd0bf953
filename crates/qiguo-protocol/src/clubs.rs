//! Clubs: people who play together again. A club has a name (unique on a server as folded, as
//! players' names are: [`crate::model::fold_name`]), a description, and is open (anyone joins)
//! or by request (an organiser lets each in). Its owner names organisers; organisers let people
//! in, remove members and post the club's news, which members who want it are told of. What a
//! client sees of a club is a [`ClubView`]; the clubs it can find, [`ClubListed`].

use serde::{Deserialize, Serialize};

use crate::evenings::EveningView;
use crate::lobby::TableView;
use crate::model::{GameId, PlayerId, RatingShown, cleaned};
use crate::refusal::Refusal;

/// The most characters of a club's name.
pub const MAX_CLUB_NAME_CHARS: usize = 40;
/// The most characters of a club's description.
pub const MAX_CLUB_DESCRIPTION_CHARS: usize = 500;
/// The most characters of a line of a club's news.
pub const MAX_CLUB_NEWS_CHARS: usize = 1000;
/// The most members a club has (those asking to join not counted).
pub const MAX_CLUB_MEMBERS: u32 = 2000;
/// The most clubs one player owns.
pub const MAX_CLUBS_OWNED: u32 = 5;
/// The most lines of news a club posts in a day (its members are told of each).
pub const MAX_CLUB_NEWS_A_DAY: u32 = 20;
/// The lines of news a club's view carries, the newest first.
pub const CLUB_NEWS_SHOWN: usize = 10;
/// The most clubs a list of clubs carries.
pub const CLUBS_LISTED: usize = 50;

/// A new club, as its owner asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubSpec {
    /// Its name, unique on the server as folded.
    pub name: String,
    /// What it is, for those who find it (may be empty).
    #[serde(default)]
    pub description: String,
    /// Anyone may join (`true`), or an organiser lets each in.
    pub open: bool,
}

impl ClubSpec {
    /// The spec as the server keeps it: the name cleaned as a player's name is (within
    /// [`MAX_CLUB_NAME_CHARS`]), the description cleaned and within
    /// [`MAX_CLUB_DESCRIPTION_CHARS`], or why not.
    pub fn cleaned(&self) -> Result<ClubSpec, Refusal> {
        let name = clean_club_name(&self.name)?;
        let description = if self.description.trim().is_empty() {
            String::new()
        } else {
            cleaned(
                &self.description,
                MAX_CLUB_DESCRIPTION_CHARS,
                Refusal::ClubText,
                |max| Refusal::ClubTextTooLong { max },
            )?
        };
        Ok(ClubSpec {
            name,
            description,
            open: self.open,
        })
    }
}

/// A club's name as the server keeps it and looks it up: trimmed, without control, format or
/// separator characters, not empty, at most [`MAX_CLUB_NAME_CHARS`] characters.
pub fn clean_club_name(name: &str) -> Result<String, Refusal> {
    cleaned(name, MAX_CLUB_NAME_CHARS, Refusal::ClubNameEmpty, |max| {
        Refusal::ClubNameTooLong { max }
    })
}

/// A line of a club's news as the server keeps it (within [`MAX_CLUB_NEWS_CHARS`]).
pub fn clean_club_news(text: &str) -> Result<String, Refusal> {
    cleaned(text, MAX_CLUB_NEWS_CHARS, Refusal::ClubText, |max| {
        Refusal::ClubTextTooLong { max }
    })
}

/// A player's place in a club.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClubRole {
    /// Made the club; names organisers; cannot leave it (nor be removed).
    Owner,
    /// Lets people in, removes members, posts news.
    Organiser,
    /// Belongs to it.
    Member,
    /// Asked to join a club by request; not a member until an organiser lets them in.
    Asking,
}

impl ClubRole {
    /// As the database keeps it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClubRole::Owner => "owner",
            ClubRole::Organiser => "organiser",
            ClubRole::Member => "member",
            ClubRole::Asking => "asking",
        }
    }

    /// From the database's word.
    pub fn from_word(word: &str) -> Option<ClubRole> {
        [
            ClubRole::Owner,
            ClubRole::Organiser,
            ClubRole::Member,
            ClubRole::Asking,
        ]
        .into_iter()
        .find(|r| r.as_str() == word)
    }

    /// Whether the role runs the club (lets people in, removes members, posts news).
    pub fn organises(self) -> bool {
        matches!(self, ClubRole::Owner | ClubRole::Organiser)
    }

    /// Whether the role is a member's (not one still asking).
    pub fn belongs(self) -> bool {
        self != ClubRole::Asking
    }
}

/// A member of a club (or one asking to join), as a club's view shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubMember {
    /// The player.
    pub player: PlayerId,
    /// Their public name.
    pub name: String,
    /// Their place in the club.
    pub role: ClubRole,
    /// Their rating in live games of seven (none before a first rated game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingShown>,
    /// Connected to the server now.
    pub online: bool,
    /// A game they play now (seated, unfinished, moved in lately), to watch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playing: Option<GameId>,
    /// That game's code, to watch it by (version 12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch: Option<String>,
}

/// A line of a club's news.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubNews {
    /// The club's name.
    pub club: String,
    /// Who posted it (an organiser's name).
    pub by: String,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
    /// The words.
    pub text: String,
}

/// A club as a client sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubView {
    /// Its name.
    pub name: String,
    /// What it is.
    pub description: String,
    /// Anyone may join, or by request.
    pub open: bool,
    /// The asker's place in it (none: not a member, nor asking).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<ClubRole>,
    /// How many members it has.
    pub member_count: u32,
    /// Its members, the owner and organisers first, then by rating; those asking to join are
    /// listed to organisers only. Empty for one who is not a member of a club by request.
    pub members: Vec<ClubMember>,
    /// Its latest news, the newest first (members only), at most [`CLUB_NEWS_SHOWN`].
    pub news: Vec<ClubNews>,
    /// Whether the asker is told of its news (members only).
    #[serde(default)]
    pub news_wanted: bool,
    /// Its own open tables, to sit at (members only).
    #[serde(default)]
    pub tables: Vec<TableView>,
    /// Its evenings to come and under way, the soonest first (members only).
    #[serde(default)]
    pub evenings: Vec<EveningView>,
}

/// A club as a list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubListed {
    /// Its name.
    pub name: String,
    /// What it is.
    pub description: String,
    /// Anyone may join, or by request.
    pub open: bool,
    /// How many members it has.
    pub member_count: u32,
    /// The asker's place in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<ClubRole>,
}

/// What an organiser (or the owner) does to a member or to one asking ([`crate::Ask::ClubMember`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClubAction {
    /// Lets one who asks in (an organiser).
    Accept,
    /// Removes a member, or turns away one who asks (an organiser; not the owner, and an
    /// organiser only by the owner).
    Remove,
    /// Makes a member an organiser (the owner).
    Organiser,
    /// Makes an organiser a member again (the owner).
    Member,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clubs_name_and_words_are_cleaned_and_bounded() {
        let spec = ClubSpec {
            name: "  The\u{202E} Jade Hall ".into(),
            description: "Tuesdays\u{0007} at eight".into(),
            open: true,
        };
        let clean = spec.cleaned().unwrap();
        assert_eq!(clean.name, "The Jade Hall");
        assert_eq!(clean.description, "Tuesdays at eight");
        let long = ClubSpec {
            name: "x".repeat(MAX_CLUB_NAME_CHARS + 1),
            description: String::new(),
            open: false,
        };
        assert_eq!(
            long.cleaned(),
            Err(Refusal::ClubNameTooLong {
                max: MAX_CLUB_NAME_CHARS as u32
            })
        );
        assert_eq!(clean_club_name(" \u{200B} "), Err(Refusal::ClubNameEmpty));
        assert_eq!(clean_club_news("  "), Err(Refusal::ClubText));
        assert!(clean_club_news(&"字".repeat(MAX_CLUB_NEWS_CHARS)).is_ok());
    }

    #[test]
    fn roles_read_back_and_say_what_they_may_do() {
        for role in [
            ClubRole::Owner,
            ClubRole::Organiser,
            ClubRole::Member,
            ClubRole::Asking,
        ] {
            assert_eq!(ClubRole::from_word(role.as_str()), Some(role));
            assert_eq!(
                serde_json::to_value(role).unwrap(),
                serde_json::json!(role.as_str())
            );
        }
        assert!(ClubRole::Organiser.organises() && !ClubRole::Member.organises());
        assert!(ClubRole::Member.belongs() && !ClubRole::Asking.belongs());
    }
}
