//! The e-mails themselves: plain text in the player's language, a greeting, what happened, a
//! link to the game, and at the foot how to get no more — as a link and as the headers of
//! RFC 8058 (`List-Unsubscribe`, `List-Unsubscribe-Post`), with which a mail program offers
//! one click.

use lettre::Message;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MessageBuilder};
use qiguo_protocol::calendar::{DAY_MS, date_text, day_of};

use super::texts::MailLanguage;

/// An e-mail to write: to whom, in which language, and its links.
#[derive(Clone, Debug)]
pub struct Letter {
    /// The player's address.
    pub to: Mailbox,
    /// Their language.
    pub language: MailLanguage,
    /// Their name.
    pub name: String,
    /// The server's public address, as the e-mails name it.
    pub server: String,
    /// The one-click unsubscribe link (none for a confirmation, which subscribes to nothing).
    pub unsubscribe: Option<String>,
}

/// A game, as an e-mail tells of it.
#[derive(Clone, Debug)]
pub struct GameNote {
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// The kingdom concerned (the one to move, or for an end the reader's first).
    pub kingdom: String,
    /// Moves played.
    pub moves: u32,
    /// When the turn runs out, ms since 1970.
    pub deadline_ms: Option<i64>,
    /// The link that opens it, signing the reader in.
    pub link: String,
}

/// A moment as the e-mails write it: `2026-12-03 14:05` (UTC).
pub fn moment_text(ms: i64) -> String {
    let minutes = (ms - day_of(ms) * DAY_MS) / 60_000;
    format!(
        "{} {:02}:{:02}",
        date_text(day_of(ms)),
        minutes / 60,
        minutes % 60
    )
}

impl Letter {
    fn t(&self, id: &str, args: &[(&str, String)]) -> String {
        self.language.text(id, args)
    }

    /// The body around `main`: greeting, sign-off, and the foot.
    fn body(&self, main: &str) -> String {
        let mut body = format!(
            "{}\n\n{}\n\n{}\n",
            self.t("mail-greeting", &[("name", self.name.clone())]),
            main.trim_end(),
            self.t("mail-sign-off", &[("server", self.server.clone())]),
        );
        if let Some(unsubscribe) = &self.unsubscribe {
            body.push_str("\n-- \n");
            body.push_str(&self.t(
                "mail-footer",
                &[
                    ("server", self.server.clone()),
                    ("unsubscribe", unsubscribe.clone()),
                ],
            ));
            body.push('\n');
        }
        body
    }

    fn players(&self, game: &GameNote) -> String {
        game.players.join(", ")
    }

    fn deadline(game: &GameNote) -> String {
        game.deadline_ms.map(moment_text).unwrap_or_default()
    }

    /// The link to confirm the address, valid for `days`.
    pub fn confirm(&self, link: &str, days: u32) -> (String, String) {
        let main = self.t(
            "mail-confirm-body",
            &[
                ("server", self.server.clone()),
                ("name", self.name.clone()),
                ("link", link.to_owned()),
                ("days", days.to_string()),
            ],
        );
        (self.t("mail-confirm-subject", &[]), self.body(&main))
    }

    /// *Your move* (`reminder`: a day is left).
    pub fn turn(&self, game: &GameNote, reminder: bool) -> (String, String) {
        let (subject, body) = if reminder {
            ("mail-reminder-subject", "mail-reminder-body")
        } else {
            ("mail-turn-subject", "mail-turn-body")
        };
        let args = [
            ("kingdom", game.kingdom.clone()),
            ("players", self.players(game)),
            ("moves", game.moves.to_string()),
            ("deadline", Letter::deadline(game)),
            ("link", game.link.clone()),
        ];
        (self.t(subject, &args), self.body(&self.t(body, &args)))
    }

    /// The end of a game: `result` as worded ([`Letter::result`]), `yours` the reader's
    /// kingdoms.
    pub fn end(&self, game: &GameNote, result: &str, yours: &str) -> (String, String) {
        let args = [
            ("players", self.players(game)),
            ("moves", game.moves.to_string()),
            ("result", result.to_owned()),
            ("yours", yours.to_owned()),
            ("link", game.link.clone()),
        ];
        (
            self.t("mail-end-subject", &args),
            self.body(&self.t("mail-end-body", &args)),
        )
    }

    /// An evening of club `club` the reader comes to begins at `at_ms`; `link` opens the game.
    pub fn evening(&self, club: &str, at_ms: i64, link: &str) -> (String, String) {
        let args = [
            ("club", club.to_owned()),
            ("time", moment_text(at_ms)),
            ("link", link.to_owned()),
        ];
        (
            self.t("mail-evening-subject", &args),
            self.body(&self.t("mail-evening-body", &args)),
        )
    }

    /// A game's review is ready: its link shows the report, the mistakes marked.
    pub fn review(&self, game: &GameNote) -> (String, String) {
        let args = [
            ("players", self.players(game)),
            ("moves", game.moves.to_string()),
            ("link", game.link.clone()),
        ];
        (
            self.t("mail-review-subject", &args),
            self.body(&self.t("mail-review-body", &args)),
        )
    }

    /// A game's result: who won and how (`victory` as the rules name it), or nobody.
    pub fn result(&self, winner: Option<&str>, victory: Option<&str>) -> String {
        result(self.language, winner, victory)
    }

    /// The daily digest of the games waiting for the reader.
    pub fn digest(&self, games: &[GameNote]) -> (String, String) {
        let mut main = self.t("mail-digest-body", &[]);
        main.push('\n');
        for game in games {
            main.push_str("\n- ");
            main.push_str(&self.t(
                "mail-digest-line",
                &[
                    ("kingdom", game.kingdom.clone()),
                    ("players", self.players(game)),
                    ("deadline", Letter::deadline(game)),
                    ("link", game.link.clone()),
                ],
            ));
        }
        (
            self.t("mail-digest-subject", &[("count", games.len().to_string())]),
            self.body(&main),
        )
    }

    /// The e-mail of `subject` and `body`, from `from`.
    pub fn message(
        &self,
        from: &Mailbox,
        subject: String,
        body: String,
    ) -> Result<Message, lettre::error::Error> {
        let mut builder: MessageBuilder = Message::builder()
            .from(from.clone())
            .to(self.to.clone())
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            // Written by the server, not a person: no automatic replies to it.
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Auto-Submitted"),
                "auto-generated".into(),
            ));
        if let Some(unsubscribe) = &self.unsubscribe {
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{unsubscribe}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".into(),
                ));
        }
        builder.body(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(language: MailLanguage) -> Letter {
        Letter {
            to: "Ann <ann@example.org>".parse().unwrap(),
            language,
            name: "Ann".into(),
            server: "https://qiguo.example".into(),
            unsubscribe: Some("https://qiguo.example/mail/unsubscribe/T0K".into()),
        }
    }

    fn game() -> GameNote {
        GameNote {
            players: vec!["Ann".into(), "Bo".into()],
            kingdom: "Qin".into(),
            moves: 12,
            deadline_ms: Some(1_796_306_700_000),
            link: "https://qiguo.example/join/ABCD#signin=S1".into(),
        }
    }

    #[test]
    fn a_turn_e_mail_says_whose_move_links_the_game_and_offers_one_click_unsubscribe() {
        let letter = letter(MailLanguage::English);
        let (subject, body) = letter.turn(&game(), false);
        assert_eq!(subject, "Your move as Qin in Qiguo");
        assert!(
            body.starts_with("Hello Ann,\n\nIt is your move as Qin in the game of Ann, Bo."),
            "{body}"
        );
        assert!(
            body.contains("runs out on 2026-12-03 14:05 (UTC)"),
            "{body}"
        );
        assert!(body.contains("https://qiguo.example/join/ABCD#signin=S1"));
        assert!(body.contains("https://qiguo.example/mail/unsubscribe/T0K"));
        let from: Mailbox = "Qiguo <games@qiguo.example>".parse().unwrap();
        let text =
            String::from_utf8(letter.message(&from, subject, body).unwrap().formatted()).unwrap();
        assert!(
            text.contains("List-Unsubscribe: <https://qiguo.example/mail/unsubscribe/T0K>\r\n"),
            "{text}"
        );
        assert!(
            text.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"),
            "{text}"
        );
        assert!(
            text.contains("Auto-Submitted: auto-generated\r\n"),
            "{text}"
        );
    }

    #[test]
    fn a_review_is_told_in_every_language_with_its_link() {
        let (subject, body) = letter(MailLanguage::English).review(&game());
        assert_eq!(subject, "Your Qiguo game has been reviewed");
        assert!(
            body.contains("Every move of the game of Ann, Bo (12 moves) has been searched"),
            "{body}"
        );
        assert!(body.contains("See the review: https://qiguo.example/join/ABCD#signin=S1"));
        assert!(body.contains("https://qiguo.example/mail/unsubscribe/T0K"));
        for (language, title) in [
            (MailLanguage::Swedish, "Ditt Qiguo-parti är genomgånget"),
            (MailLanguage::Chinese, "您的七國象棋對局已覆盤"),
        ] {
            let (subject, body) = letter(language).review(&game());
            assert_eq!(subject, title);
            assert!(
                body.contains("Ann, Bo") && body.contains("#signin=S1"),
                "{body}"
            );
            let (pushed, line) = notice(language, &game(), Notice::Review);
            assert_eq!(pushed, title);
            assert!(line.contains("Ann, Bo"), "{line}");
        }
        let (_, line) = notice(MailLanguage::English, &game(), Notice::Review);
        assert_eq!(
            line,
            "The game of Ann, Bo: every move searched, your mistakes marked."
        );
    }

    #[test]
    fn a_confirmation_offers_no_unsubscribe_and_other_languages_read() {
        let mut letter = letter(MailLanguage::Chinese);
        letter.unsubscribe = None;
        let (subject, body) = letter.confirm("https://qiguo.example/mail/confirm/C", 3);
        assert_eq!(subject, "確認您在七國象棋的電子郵件地址");
        assert!(
            body.contains("https://qiguo.example/mail/confirm/C") && body.contains("3 天"),
            "{body}"
        );
        let from: Mailbox = "games@qiguo.example".parse().unwrap();
        let text =
            String::from_utf8(letter.message(&from, subject, body).unwrap().formatted()).unwrap();
        assert!(!text.contains("List-Unsubscribe"), "{text}");
        let swedish = self::letter(MailLanguage::Swedish);
        assert_eq!(
            swedish.result(Some("Chu"), Some("generals")),
            "Chu tog två generaler"
        );
        let (subject, body) = swedish.digest(&[game(), game()]);
        assert_eq!(subject, "2 partier väntar på ditt drag i Qiguo");
        assert_eq!(
            body.matches("- Qin i partiet mellan Ann, Bo").count(),
            2,
            "{body}"
        );
    }
}

/// What a notification pushed to a player's devices tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice<'a> {
    /// *Your move*.
    Turn,
    /// A day is left for the move.
    Reminder,
    /// The game ended: its result as worded ([`Letter::result`]).
    End(&'a str),
    /// The game's review is ready.
    Review,
}

/// The title and the one line of a notification about `game` in `language`: the titles are the
/// e-mails' subjects.
pub fn notice(language: MailLanguage, game: &GameNote, what: Notice<'_>) -> (String, String) {
    let args = [
        ("kingdom", game.kingdom.clone()),
        ("players", game.players.join(", ")),
        ("moves", game.moves.to_string()),
        (
            "deadline",
            game.deadline_ms.map(moment_text).unwrap_or_default(),
        ),
        (
            "result",
            match what {
                Notice::End(result) => result.to_owned(),
                _ => String::new(),
            },
        ),
    ];
    let (title, line) = match what {
        Notice::Turn => ("mail-turn-subject", "push-turn-body"),
        Notice::Reminder => ("mail-reminder-subject", "push-reminder-body"),
        Notice::End(_) => ("mail-end-subject", "push-end-body"),
        Notice::Review => ("mail-review-subject", "push-review-body"),
    };
    (language.text(title, &args), language.text(line, &args))
}

/// A game's result in `language`: the winning kingdom and how (or that nobody won).
pub fn result(language: MailLanguage, winner: Option<&str>, victory: Option<&str>) -> String {
    match winner {
        Some(kingdom) => {
            let how = language.text("victory", &[("victory", victory.unwrap_or("").to_owned())]);
            language.text(
                "mail-end-won",
                &[("kingdom", kingdom.to_owned()), ("victory", how)],
            )
        }
        None => language.text("mail-end-nobody", &[]),
    }
}
