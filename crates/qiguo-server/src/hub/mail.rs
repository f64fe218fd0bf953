//! E-mail to players who are away. A player gives an address, confirmed through a link sent to
//! it; the moves of correspondence games write their e-mails into the outbox with themselves
//! ([`crate::live::Checked::mail`]); and every server sends what is due there, each e-mail
//! decided when it goes: *your move* only if the turn is still theirs and they have no
//! connection open on any server (or folded into their daily digest), the reminder a day before
//! the turn runs out as it stands then (a holiday moves it), the end with the result. Every
//! game link carries a one-time token that signs the player in on the device that opens it.

mod links;

use std::sync::Arc;
use std::time::Duration;

use lettre::Message;
use lettre::message::Mailbox;
use qiguo_protocol::calendar::DAY_MS;
use qiguo_rules::Kingdom;

use super::core::Core;
use super::shown_name;
use crate::live::LiveGame;
use crate::log::{Log, escaped, note};
use crate::mail::compose::{GameNote, Letter};
use crate::mail::texts::MailLanguage;
use crate::mail::{MAX_ATTEMPTS, MailConfig, Relay, SendError};
use crate::metrics::Metrics;
use crate::protocol::{Answer, MailView, Refusal};
use crate::store::mail::{
    CONFIRM_DAYS, MAX_ADDRESS_BYTES, MailKind, Outcome, Outgoing, Purpose, SIGNIN_MS,
    UNSUBSCRIBE_MS,
};
use crate::store::{GameId, PlayerId, Store, StoreError};
pub use links::{LinkAction, LinkPage};

/// How many e-mails a server claims from the outbox at a time.
pub(super) const CLAIM_AT_ONCE: u32 = 16;

/// How long a reminder or digest waits while its player is connected (they see their games).
const WHILE_CONNECTED_MS: i64 = 10 * 60 * 1000;

/// How often the tokens out of date and the e-mails long done are forgotten.
pub(super) const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// A server's e-mail: what it was told, and its relay.
#[derive(Debug)]
pub struct Mailing {
    config: MailConfig,
    relay: Relay,
}

impl Mailing {
    /// The e-mail of `config`; refused if its relay cannot be set up.
    pub(crate) fn new(config: MailConfig) -> Result<Mailing, crate::mail::RelayError> {
        let relay = Relay::new(&config)?;
        Ok(Mailing { config, relay })
    }

    /// What it was told.
    pub(crate) fn config(&self) -> &MailConfig {
        &self.config
    }
}

/// What to do with an e-mail of the outbox.
enum Written {
    /// Send it.
    Send(Box<Message>),
    /// Nothing to send: no longer true or wanted.
    Drop(&'static str),
    /// Not now: look again then (ms since 1970), and why, if the log is to say so.
    Later(i64, Option<&'static str>),
}

/// An address as given, checked: trimmed, at most [`MAX_ADDRESS_BYTES`], `local@domain` with
/// nothing else (no name, no spaces or controls).
pub fn checked_address(given: &str) -> Result<String, Refusal> {
    let address = given.trim();
    let bad = || Refusal::BadAddress {
        address: given.chars().take(320).collect(),
    };
    if address.len() > MAX_ADDRESS_BYTES
        || address
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>')
    {
        return Err(bad());
    }
    let parsed: lettre::Address = address.parse().map_err(|_| bad())?;
    if !parsed.domain().contains('.') && parsed.domain() != "localhost" {
        return Err(bad());
    }
    Ok(address.to_owned())
}

/// The e-mail slice: players' addresses, and the e-mails of the outbox written and sent.
pub(crate) struct Mail {
    /// The games held, which the e-mails tell of, and the players' connections.
    core: Arc<Core>,
    store: Store,
    metrics: Arc<Metrics>,
    log: Log,
    /// The relay, if this server sends e-mail.
    mailing: Option<Mailing>,
}

impl Mail {
    /// E-mail through `mailing` (none: this server sends none), kept in `store`, telling of
    /// the games `core` holds.
    pub(super) fn new(
        core: Arc<Core>,
        store: Store,
        metrics: Arc<Metrics>,
        log: Log,
        mailing: Option<Mailing>,
    ) -> Mail {
        Mail {
            core,
            store,
            metrics,
            log,
            mailing,
        }
    }

    /// The relay, if this server sends e-mail.
    pub(super) fn mailing(&self) -> Option<&Mailing> {
        self.mailing.as_ref()
    }

    /// Whether this server sends e-mail.
    pub(crate) fn offered(&self) -> bool {
        self.mailing.is_some()
    }

    /// `player`'s e-mail as the client sees it.
    pub(crate) async fn mail_view(&self, player: &PlayerId) -> Result<MailView, Refusal> {
        let Some(_) = &self.mailing else {
            return Ok(MailView::default());
        };
        let address = self.store.mail_of(player).await?;
        Ok(MailView {
            offered: true,
            confirmed: address.as_ref().is_some_and(|a| a.confirmed),
            digest: address.as_ref().is_some_and(|a| a.digest),
            address: address.map(|a| a.address),
        })
    }

    /// `player` gives an address (or `None`: removes theirs), with one digest a day or not.
    pub(crate) async fn set_mail(
        &self,
        player: &PlayerId,
        address: Option<&str>,
        digest: bool,
    ) -> Result<Answer, Refusal> {
        if self.mailing.is_none() {
            return Err(Refusal::NoMail);
        }
        match address {
            None => {
                self.store.remove_address(player).await?;
                note!(self.log, INFO, "e-mail address removed", player = player.0);
            }
            Some(given) => {
                let address = checked_address(given)?;
                let queued = self.store.give_address(player, &address, digest).await?;
                note!(
                    self.log,
                    INFO,
                    "e-mail address given",
                    player = player.0,
                    confirmation_queued = queued
                );
            }
        }
        Ok(Answer::Mail(self.mail_view(player).await?))
    }

    pub(super) async fn send_one(&self, mailing: &Mailing, mail: &Outgoing) {
        let about = format!(
            "e-mail {} to player {}{}",
            mail.kind.code(),
            mail.player.0,
            mail.game
                .as_ref()
                .map(|g| format!(" (game {})", g.0))
                .unwrap_or_default()
        );
        let now = self.store.now();
        let tries = mail.attempts + 1;
        let noted = match self.write(mailing, mail).await {
            Err(e) => {
                note!(self.log, WARN, "e-mail not written", mail = about, why = e);
                let again = now + backoff_ms(mailing, tries);
                self.store
                    .mail_later(mail, again, tries, Some(&e.to_string()))
                    .await
            }
            Ok(Written::Drop(why)) => {
                note!(self.log, INFO, "e-mail not sent", mail = about, why = why);
                self.metrics.mail("dropped");
                self.store
                    .mail_done(mail, Outcome::Dropped, mail.attempts, Some(why))
                    .await
            }
            Ok(Written::Later(at, why)) => {
                if let Some(why) = why {
                    note!(
                        self.log,
                        INFO,
                        "e-mail due later",
                        mail = about,
                        at = crate::mail::compose::moment_text(at),
                        why = why
                    );
                }
                self.store.mail_later(mail, at, mail.attempts, None).await
            }
            Ok(Written::Send(message)) => match mailing.relay.send(*message).await {
                Ok(()) => {
                    note!(self.log, INFO, "e-mail sent", mail = about);
                    self.metrics.mail("sent");
                    if mail.kind == MailKind::Digest
                        && let Err(e) = self.store.digest_sent(&mail.player).await
                    {
                        note!(
                            self.log,
                            WARN,
                            "e-mail not noted as sent",
                            mail = about,
                            why = e
                        );
                    }
                    self.store.mail_done(mail, Outcome::Sent, tries, None).await
                }
                Err(SendError::Transient(why)) if tries < MAX_ATTEMPTS => {
                    let wait = backoff_ms(mailing, tries);
                    note!(
                        self.log,
                        WARN,
                        "e-mail not sent",
                        mail = about,
                        attempt = tries,
                        why = escaped(&why),
                        again_in_s = wait / 1000
                    );
                    self.metrics.mail("retried");
                    self.store
                        .mail_later(mail, now + wait, tries, Some(&why))
                        .await
                }
                Err(SendError::Transient(why) | SendError::Permanent(why)) => {
                    note!(
                        self.log,
                        WARN,
                        "e-mail given up",
                        mail = about,
                        tries = tries,
                        why = escaped(&why)
                    );
                    self.metrics.mail("given_up");
                    self.store
                        .mail_done(mail, Outcome::GivenUp, tries, Some(&why))
                        .await
                }
            },
        };
        if let Err(e) = noted {
            // The claim runs out and the e-mail is looked at again.
            note!(
                self.log,
                WARN,
                "e-mail outcome not noted",
                mail = about,
                why = e
            );
        }
    }

    /// Writes the e-mail of `mail` as things stand now, or says why not or not yet.
    async fn write(&self, mailing: &Mailing, mail: &Outgoing) -> Result<Written, StoreError> {
        let player = &mail.player;
        let Some(address) = self.store.mail_of(player).await? else {
            return Ok(Written::Drop("no address"));
        };
        let (name, language, online_ms) = self.store.player_mail_facts(player).await?;
        let now = self.store.now();
        let config = &mailing.config;
        let Ok(to) = address.address.parse::<lettre::Address>() else {
            return Ok(Written::Drop("the address cannot be written to"));
        };
        let mut letter = Letter {
            to: Mailbox::new(None, to),
            language: MailLanguage::from_code(language.as_deref()),
            name: shown_name(&name),
            server: config.public_url.clone(),
            unsubscribe: None,
        };
        if mail.kind == MailKind::Confirm {
            if mail.address.as_deref() != Some(address.address.as_str()) || address.confirmed {
                return Ok(Written::Drop("the address changed, or is confirmed"));
            }
            let token = self
                .store
                .make_token(
                    player,
                    Purpose::Confirm,
                    Some(&address.address),
                    None,
                    i64::from(CONFIRM_DAYS) * DAY_MS,
                )
                .await?;
            let link = format!("{}/mail/confirm/{token}", config.public_url);
            let (subject, body) = letter.confirm(&link, CONFIRM_DAYS);
            return self.message(mailing, &letter, subject, body);
        }
        if !address.confirmed {
            return Ok(Written::Drop("the address is not confirmed"));
        }
        // From here on the e-mail is decided first, and its tokens (the unsubscribe link's,
        // each game link's) are made only for one that goes: a player who is told on their
        // connection, or whose mail waits, collects none.
        let connected = self.core.connected(player, online_ms, now);
        if mail.kind == MailKind::Digest {
            if connected {
                return Ok(Written::Later(now + WHILE_CONNECTED_MS, None));
            }
            let mut waiting = Vec::new();
            let games = self.core.games(player).await?;
            for summary in games {
                if summary.your_turn
                    && let Some((game, live)) =
                        game_note(&self.core, &summary.id, player, letter.language).await?
                {
                    waiting.push((game, summary.id, live.code.clone()));
                }
            }
            if waiting.is_empty() {
                return Ok(Written::Drop("no game waits"));
            }
            self.unsubscribe_link(mailing, &mut letter, player, &address.address)
                .await?;
            let mut notes = Vec::with_capacity(waiting.len());
            for (mut note, id, code) in waiting {
                self.sign_in_link(mailing, &mut note, player, &id, &code)
                    .await?;
                notes.push(note);
            }
            let (subject, body) = letter.digest(&notes);
            return self.message(mailing, &letter, subject, body);
        }
        if mail.kind == MailKind::Evening {
            let evening =
                match super::evenings::reminder_stands(&self.store, mail.about.as_ref(), player)
                    .await?
                {
                    Ok(evening) => evening,
                    Err(why) => return Ok(Written::Drop(why)),
                };
            self.unsubscribe_link(mailing, &mut letter, player, &address.address)
                .await?;
            let (subject, body) = letter.evening(&evening.club, evening.at_ms, &config.public_url);
            return self.message(mailing, &letter, subject, body);
        }
        let Some(id) = &mail.game else {
            return Ok(Written::Drop("no game"));
        };
        let Some((mut game, live)) = game_note(&self.core, id, player, letter.language).await?
        else {
            return Ok(Written::Drop("no such game"));
        };
        if mail.kind == MailKind::Review {
            self.unsubscribe_link(mailing, &mut letter, player, &address.address)
                .await?;
            self.sign_in_link(mailing, &mut game, player, id, &live.code)
                .await?;
            let (subject, body) = letter.review(&game);
            return self.message(mailing, &letter, subject, body);
        }
        if mail.kind == MailKind::End {
            if !live.is_over() {
                return Ok(Written::Drop("the game is not over"));
            }
            let presence = self.core.present(&live);
            let summary = live.summary(player, &presence);
            let result = result_of(&live, player, letter.language, &presence);
            let yours = kingdoms_of(&live, &summary.yours)
                .into_iter()
                .map(|k| letter.language.kingdom(k))
                .collect::<Vec<_>>()
                .join(", ");
            self.unsubscribe_link(mailing, &mut letter, player, &address.address)
                .await?;
            self.sign_in_link(mailing, &mut game, player, id, &live.code)
                .await?;
            let (subject, body) = letter.end(&game, &result, &yours);
            return self.message(mailing, &letter, subject, body);
        }
        // Your move, or its reminder: only while the turn is still the player's.
        let reminder = mail.kind == MailKind::Reminder;
        match turn_stands(&live, &game, player, mail.ply, reminder, connected, now) {
            Err(NotNow::Drop(why)) => return Ok(Written::Drop(why)),
            Err(NotNow::Later(at, why)) => return Ok(Written::Later(at, why)),
            Ok(()) => {}
        }
        if !reminder && address.digest {
            let at = address
                .digest_sent_ms
                .map_or(now, |sent| (sent + DAY_MS).max(now));
            self.store.queue_digest(player, at).await?;
            return Ok(Written::Drop("folded into the digest"));
        }
        self.unsubscribe_link(mailing, &mut letter, player, &address.address)
            .await?;
        self.sign_in_link(mailing, &mut game, player, id, &live.code)
            .await?;
        let (subject, body) = letter.turn(&game, reminder);
        self.message(mailing, &letter, subject, body)
    }

    /// Makes the one-click unsubscribe link of an e-mail to `player` at `address` that goes
    /// (its token good for a year).
    async fn unsubscribe_link(
        &self,
        mailing: &Mailing,
        letter: &mut Letter,
        player: &PlayerId,
        address: &str,
    ) -> Result<(), StoreError> {
        let token = self
            .store
            .make_token(
                player,
                Purpose::Unsubscribe,
                Some(address),
                None,
                UNSUBSCRIBE_MS,
            )
            .await?;
        letter.unsubscribe = Some(format!(
            "{}/mail/unsubscribe/{token}",
            mailing.config.public_url
        ));
        Ok(())
    }

    /// Makes the link of `note` (game `id`, invitation `code`) in an e-mail that goes, signing
    /// `player` in on the device that opens it (one time, for a day).
    async fn sign_in_link(
        &self,
        mailing: &Mailing,
        note: &mut GameNote,
        player: &PlayerId,
        id: &GameId,
        code: &str,
    ) -> Result<(), StoreError> {
        let token = self
            .store
            .make_token(player, Purpose::SignIn, None, Some(id), SIGNIN_MS)
            .await?;
        note.link = format!("{}/join/{code}#signin={token}", mailing.config.public_url);
        Ok(())
    }

    fn message(
        &self,
        mailing: &Mailing,
        letter: &Letter,
        subject: String,
        body: String,
    ) -> Result<Written, StoreError> {
        match letter.message(&mailing.config.from, subject, body) {
            Ok(message) => Ok(Written::Send(Box::new(message))),
            Err(why) => {
                note!(self.log, WARN, "an e-mail could not be written", why = why);
                Ok(Written::Drop("it could not be written"))
            }
        }
    }
}

/// A game as an e-mail to `player` tells of it (its link not yet made), and the game;
/// `None` if there is no such game or they hold no seat in it.
pub(super) async fn game_note(
    core: &Core,
    id: &GameId,
    player: &PlayerId,
    language: MailLanguage,
) -> Result<Option<(GameNote, LiveGame)>, StoreError> {
    let live = match core.live(id).await {
        Ok(live) => live,
        Err(_) => return Ok(None),
    };
    let game = live.lock().await.game.clone();
    if game.seats_of(player).is_empty() {
        return Ok(None);
    }
    let summary = game.summary(player, &core.present(&game));
    let kingdom = summary
        .to_move
        .filter(|_| summary.your_turn)
        .or_else(|| kingdoms_of(&game, &summary.yours).first().copied())
        .map(|k| language.kingdom(k))
        .unwrap_or_default();
    // The people at the table, by name (the computers' seats go without saying).
    let players = game
        .seats()
        .iter()
        .filter(|s| s.holder.is_some() && !matches!(s.plan, crate::store::SeatPlan::Computer(_)))
        .filter_map(|s| s.name.clone())
        .collect();
    let note = GameNote {
        players,
        kingdom,
        moves: summary.moves,
        deadline_ms: summary.deadline_ms,
        // Made by [`Mail::sign_in_link`] once the e-mail is sure to go.
        link: String::new(),
    };
    Ok(Some((note, game)))
}

/// Why a turn's e-mail or notification does not go now.
pub(super) enum NotNow {
    /// Not at all: no longer true or wanted (why).
    Drop(&'static str),
    /// Not yet: look again then (ms since 1970), and why, if the log is to say so.
    Later(i64, Option<&'static str>),
}

/// Whether *your move* (or, `reminder`, the reminder a day before the turn runs out) for the turn
/// of move `ply` still stands for `player` at `now`, in `live` as `game` tells it: the turn still
/// theirs and, for the reminder, its day come and not gone; nothing while they are `connected`
/// (they are told there), the reminder waiting for them to leave. The e-mails and the
/// notifications decide alike.
pub(super) fn turn_stands(
    live: &LiveGame,
    game: &GameNote,
    player: &PlayerId,
    ply: i64,
    reminder: bool,
    connected: bool,
    now: i64,
) -> Result<(), NotNow> {
    if live.is_over() || i64::from(game.moves) != ply || live.holder_to_move() != Some(player) {
        return Err(NotNow::Drop("the turn was played"));
    }
    if !reminder {
        return if connected {
            Err(NotNow::Drop("told on their connection"))
        } else {
            Ok(())
        };
    }
    let Some(deadline) = game.deadline_ms else {
        return Err(NotNow::Drop("the turn has no deadline now"));
    };
    if deadline - DAY_MS > now + 60_000 {
        return Err(NotNow::Later(
            deadline - DAY_MS,
            Some("the turn runs out later now (a holiday)"),
        ));
    }
    if deadline <= now {
        return Err(NotNow::Drop("the turn ran out"));
    }
    if connected {
        return Err(NotNow::Later(now + WHILE_CONNECTED_MS, None));
    }
    Ok(())
}

/// How long to wait after the `tries`-th failed try, in ms.
fn backoff_ms(mailing: &Mailing, tries: u32) -> i64 {
    timing_backoff_ms(&mailing.config.timing, tries)
}

/// How long to wait after the `tries`-th failed try with `timing`, in ms.
pub(super) fn timing_backoff_ms(timing: &crate::mail::MailTiming, tries: u32) -> i64 {
    i64::try_from(timing.backoff(tries).as_millis()).unwrap_or(i64::MAX)
}

/// The result of the finished game `live`, worded in `language` for `player`.
pub(super) fn result_of(
    live: &LiveGame,
    player: &PlayerId,
    language: MailLanguage,
    presence: &[bool],
) -> String {
    let summary = live.summary(player, presence);
    let winner = summary.winner.map(|k| language.kingdom(k));
    crate::mail::compose::result(language, winner.as_deref(), summary.victory.as_deref())
}

/// The kingdoms of `seats` (player numbers) in `game`.
pub(super) fn kingdoms_of(game: &LiveGame, seats: &[u8]) -> Vec<Kingdom> {
    let start = game.game().start_position().seats();
    Kingdom::ALL
        .into_iter()
        .filter(|&k| start.player(k).is_some_and(|seat| seats.contains(&seat)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked() {
        assert_eq!(
            checked_address(" ann@example.org ").unwrap(),
            "ann@example.org"
        );
        assert_eq!(checked_address("bo@localhost").unwrap(), "bo@localhost");
        for bad in [
            "",
            "ann",
            "ann@",
            "@example.org",
            "Ann <ann@example.org>",
            "ann@example.org\r\nBcc: x@y.z",
            "ann @example.org",
            "ann@example",
        ] {
            assert!(
                matches!(checked_address(bad), Err(Refusal::BadAddress { .. })),
                "{bad:?}"
            );
        }
        let long = format!("{}@example.org", "a".repeat(250));
        assert!(checked_address(&long).is_err());
    }

    #[tokio::test]
    async fn without_a_relay_no_address_is_taken() {
        let bench = crate::hub::testing::Bench::new("mail-slice").await;
        let mail = Mail::new(
            bench.core.clone(),
            bench.store.clone(),
            bench.metrics.clone(),
            bench.log.clone(),
            None,
        );
        let ann = bench.player("Ann").await;
        assert!(!mail.offered());
        assert_eq!(mail.mail_view(&ann).await, Ok(MailView::default()));
        assert_eq!(
            mail.set_mail(&ann, Some("ann@example.org"), false).await,
            Err(Refusal::NoMail)
        );
        let page = mail.link_page(LinkAction::Confirm, "token", true).await;
        assert!(!page.ok, "no link works on a server that sends no e-mail");
        assert_eq!(
            bench.store.mail_of(&ann).await.unwrap(),
            None,
            "nothing kept"
        );
    }
}
