//! Notifications pushed to players' devices: the devices a player's pages subscribed, and the
//! notifications of the outbox, written on the e-mails' occasions (a move writes both kinds
//! with itself) and decided, like an e-mail, when they go: *your move* only if the turn is
//! still theirs and they have no connection open on any server, the reminder a day before the
//! turn runs out as it stands then, the end with the result. Each goes to every device of the
//! player, encrypted to that device ([`crate::push`]); a device its push service no longer
//! knows is forgotten.

use std::sync::Arc;

use super::core::Core;
use super::mail::{NotNow, game_note, result_of, timing_backoff_ms, turn_stands};
use crate::log::{Log, escaped, note};
use crate::mail::MAX_ATTEMPTS;
use crate::mail::compose::{Notice, notice};
use crate::mail::texts::MailLanguage;
use crate::metrics::Metrics;
use crate::protocol::{Answer, PushView, Refusal};
use crate::push::{Delivery, Pusher, Subscription, Urgency};
use crate::store::mail::{MailKind, Outcome, Outgoing};
use crate::store::{PlayerId, Store, StoreError};

/// What to do with a notification of the outbox.
enum Decided {
    /// Push it: the message, how urgent, and its topic (the game's, so that a newer one
    /// replaces an older one a push service still holds).
    Push(String, Urgency, String),
    /// Nothing to push: no longer true.
    Drop(&'static str),
    /// Not now: look again then (ms since 1970).
    Later(i64),
}

/// The push slice: the devices players' pages subscribed, and the notifications of the outbox
/// decided and pushed.
pub(crate) struct Push {
    /// The games held, which the notifications tell of, and the players' connections.
    core: Arc<Core>,
    store: Store,
    metrics: Arc<Metrics>,
    log: Log,
    /// The keys and the settings, if this server pushes.
    pusher: Option<Pusher>,
}

impl Push {
    /// Notifications pushed with `pusher` (none: this server pushes none), kept in `store`,
    /// telling of the games `core` holds.
    pub(super) fn new(
        core: Arc<Core>,
        store: Store,
        metrics: Arc<Metrics>,
        log: Log,
        pusher: Option<Pusher>,
    ) -> Push {
        Push {
            core,
            store,
            metrics,
            log,
            pusher,
        }
    }

    /// The keys and settings, if this server pushes.
    pub(super) fn pusher(&self) -> Option<&Pusher> {
        self.pusher.as_ref()
    }

    /// The player's notified devices as the client sees them.
    pub(crate) async fn push_view(&self, player: &PlayerId) -> Result<PushView, Refusal> {
        let Some(pusher) = &self.pusher else {
            return Ok(PushView::default());
        };
        Ok(PushView {
            offered: true,
            key: Some(pusher.public_key()),
            devices: self.store.devices(player).await?,
        })
    }

    /// `player`'s page gives its device's subscription.
    pub(crate) async fn subscribe(
        &self,
        player: &PlayerId,
        device: Subscription,
    ) -> Result<Answer, Refusal> {
        let Some(pusher) = &self.pusher else {
            return Err(Refusal::NoPush);
        };
        if let Err(why) = pusher.config().check(&device) {
            note!(
                self.log,
                INFO,
                "device subscription refused",
                player = player.0,
                why = why
            );
            return Err(Refusal::BadSubscription);
        }
        let devices = self.store.subscribe(player, &device).await?;
        note!(
            self.log,
            INFO,
            "device subscribed",
            player = player.0,
            service = service_of(&device.endpoint),
            devices = devices
        );
        Ok(Answer::Push(self.push_view(player).await?))
    }

    /// `player`'s page stops its device's notifications.
    pub(crate) async fn unsubscribe(
        &self,
        player: &PlayerId,
        endpoint: &str,
    ) -> Result<Answer, Refusal> {
        if self.pusher.is_none() {
            return Err(Refusal::NoPush);
        }
        let devices = self.store.unsubscribe_device(player, endpoint).await?;
        note!(
            self.log,
            INFO,
            "device unsubscribed",
            player = player.0,
            devices = devices
        );
        Ok(Answer::Push(self.push_view(player).await?))
    }

    /// Pushes the notification of `out` to each of its player's devices, or says why not.
    pub(super) async fn push_one(&self, pusher: &Pusher, out: &Outgoing) {
        let about = format!(
            "{} to player {}{}",
            out.kind.code(),
            out.player.0,
            out.game
                .as_ref()
                .map(|g| format!(" (game {})", g.0))
                .unwrap_or_default()
        );
        let timing = &pusher.config().timing;
        let now = self.store.now();
        let tries = out.attempts + 1;
        let decided = match self.decide(out).await {
            Ok(decided) => decided,
            Err(why) => {
                note!(
                    self.log,
                    WARN,
                    "notification not written",
                    notification = about,
                    why = why
                );
                let again = now + timing_backoff_ms(timing, tries);
                let why = why.to_string();
                let _ = self.store.mail_later(out, again, tries, Some(&why)).await;
                return;
            }
        };
        let (message, urgency, topic) = match decided {
            Decided::Drop(why) => {
                note!(
                    self.log,
                    INFO,
                    "notification not pushed",
                    notification = about,
                    why = why
                );
                self.metrics.push("dropped");
                self.noted(
                    &about,
                    self.store
                        .mail_done(out, Outcome::Dropped, out.attempts, Some(why))
                        .await,
                );
                return;
            }
            Decided::Later(at) => {
                self.noted(
                    &about,
                    self.store.mail_later(out, at, out.attempts, None).await,
                );
                return;
            }
            Decided::Push(message, urgency, topic) => (message, urgency, topic),
        };
        let devices = match self.store.subscriptions(&out.player).await {
            Ok(devices) => devices,
            Err(e) => {
                let again = now + timing_backoff_ms(timing, tries);
                self.noted(
                    &about,
                    self.store
                        .mail_later(out, again, tries, Some(&e.to_string()))
                        .await,
                );
                return;
            }
        };
        let (mut taken, mut later, mut refused) = (0u32, None, None);
        for device in &devices {
            let service = service_of(&device.endpoint);
            match pusher
                .send(
                    device,
                    message.as_bytes(),
                    urgency,
                    Some(&topic),
                    now / 1000,
                )
                .await
            {
                Delivery::Taken => {
                    taken += 1;
                    if let Err(e) = self.store.push_taken(&device.endpoint).await {
                        note!(
                            self.log,
                            WARN,
                            "delivery not noted",
                            notification = about,
                            why = e
                        );
                    }
                }
                Delivery::Gone => {
                    note!(
                        self.log,
                        INFO,
                        "device gone from its push service: forgotten",
                        notification = about,
                        service = service
                    );
                    if let Err(e) = self.store.push_gone(&device.endpoint).await {
                        note!(
                            self.log,
                            WARN,
                            "device not forgotten",
                            notification = about,
                            why = e
                        );
                    }
                }
                Delivery::Later(why) => {
                    note!(
                        self.log,
                        WARN,
                        "notification not taken",
                        notification = about,
                        service = service,
                        attempt = tries,
                        why = escaped(&why)
                    );
                    later = Some(why);
                }
                Delivery::Refused(why) => {
                    note!(
                        self.log,
                        WARN,
                        "notification refused",
                        notification = about,
                        service = service,
                        why = escaped(&why)
                    );
                    refused = Some(why);
                }
            }
        }
        // A message some device's service could not take now goes again later, to every device:
        // its topic and its tag make the one a device already has give way to the new one.
        let noted = match (later, taken, refused) {
            (Some(why), _, _) if tries < MAX_ATTEMPTS => {
                self.metrics.push("retried");
                let again = now + timing_backoff_ms(timing, tries);
                self.store.mail_later(out, again, tries, Some(&why)).await
            }
            (_, 1.., _) => {
                note!(
                    self.log,
                    INFO,
                    "notification pushed",
                    notification = about,
                    devices = taken
                );
                self.metrics.push("sent");
                self.store.mail_done(out, Outcome::Sent, tries, None).await
            }
            (Some(why), 0, _) | (None, 0, Some(why)) => {
                self.metrics.push("given_up");
                self.store
                    .mail_done(out, Outcome::GivenUp, tries, Some(&why))
                    .await
            }
            (None, 0, None) => {
                self.metrics.push("dropped");
                self.store
                    .mail_done(out, Outcome::Dropped, tries, Some("no device"))
                    .await
            }
        };
        self.noted(&about, noted);
    }

    fn noted(&self, about: &str, noted: Result<(), crate::store::StoreError>) {
        if let Err(e) = noted {
            // The claim runs out and the notification is looked at again.
            note!(
                self.log,
                WARN,
                "notification outcome not noted",
                notification = about,
                why = e
            );
        }
    }

    /// The notification of `out` as things stand now, or why not or not yet.
    async fn decide(&self, out: &Outgoing) -> Result<Decided, StoreError> {
        let player = &out.player;
        let (_, language, online_ms) = self.store.player_mail_facts(player).await?;
        let language = MailLanguage::from_code(language.as_deref());
        let now = self.store.now();
        let connected = self.core.connected(player, online_ms, now);
        if out.kind == MailKind::PushClubNews {
            return self.club_news(out, language, connected).await;
        }
        if out.kind == MailKind::PushEvening {
            let evening =
                match super::evenings::reminder_stands(&self.store, out.about.as_ref(), player)
                    .await?
                {
                    Ok(evening) => evening,
                    Err(why) => return Ok(Decided::Drop(why)),
                };
            let args = [
                ("club", evening.club.clone()),
                ("time", crate::mail::compose::moment_text(evening.at_ms)),
            ];
            let message = serde_json::json!({
                "title": language.text("push-evening-title", &args),
                "body": language.text("push-evening-body", &args),
                "url": "/",
                "tag": format!("qiguo-evening-{}", evening.id.0),
                "kind": out.kind.code(),
            })
            .to_string();
            let topic = topic_of(&evening.id.0);
            return Ok(Decided::Push(message, Urgency::High, topic));
        }
        let Some(id) = &out.game else {
            return Ok(Decided::Drop("no game"));
        };
        let Some((game, live)) = game_note(&self.core, id, player, language).await? else {
            return Ok(Decided::Drop("no such game"));
        };
        let result;
        let (what, urgency) = match out.kind {
            MailKind::PushEnd => {
                if !live.is_over() {
                    return Ok(Decided::Drop("the game is not over"));
                }
                result = result_of(&live, player, language, &self.core.present(&live));
                (Notice::End(&result), Urgency::Normal)
            }
            MailKind::PushReview => (Notice::Review, Urgency::Normal),
            MailKind::PushTurn | MailKind::PushReminder => {
                let reminder = out.kind == MailKind::PushReminder;
                match turn_stands(&live, &game, player, out.ply, reminder, connected, now) {
                    Err(NotNow::Drop(why)) => return Ok(Decided::Drop(why)),
                    Err(NotNow::Later(at, _)) => return Ok(Decided::Later(at)),
                    Ok(()) if reminder => (Notice::Reminder, Urgency::High),
                    Ok(()) => (Notice::Turn, Urgency::High),
                }
            }
            _ => return Ok(Decided::Drop("not a notification")),
        };
        let (title, body) = notice(language, &game, what);
        // What the page's service worker shows: no key and no sign-in token, only the game's
        // own link (the device's page signs in with the key it keeps).
        let message = serde_json::json!({
            "title": title,
            "body": body,
            "url": format!("/join/{}", live.code),
            "tag": format!("qiguo-{}", id.0),
            "game": id.0,
            "kind": out.kind.code(),
        })
        .to_string();
        let topic: String =
            id.0.chars()
                .filter(char::is_ascii_alphanumeric)
                .take(32)
                .collect();
        Ok(Decided::Push(message, urgency, topic))
    }
}

impl Push {
    /// The notification of a line of a club's news: not to a player connected (they were told
    /// at once), nor to one who left the club or no longer wants its news.
    async fn club_news(
        &self,
        out: &Outgoing,
        language: MailLanguage,
        connected: bool,
    ) -> Result<Decided, StoreError> {
        let Some(id) = &out.about else {
            return Ok(Decided::Drop("no news"));
        };
        let Some((news, wanted)) = self.store.club_news_line(id, &out.player).await? else {
            return Ok(Decided::Drop("no such news"));
        };
        if !wanted {
            return Ok(Decided::Drop("news not wanted"));
        }
        if connected {
            return Ok(Decided::Drop("told while connected"));
        }
        let args = [
            ("club", news.club.clone()),
            ("by", news.by.clone()),
            ("text", news.text.clone()),
        ];
        let message = serde_json::json!({
            "title": language.text("push-club-news-title", &args),
            "body": language.text("push-club-news-body", &args),
            "url": "/",
            "tag": format!("qiguo-club-{}", topic_of(&news.club)),
            "kind": out.kind.code(),
        })
        .to_string();
        // One topic a club: a newer line replaces an older one a push service still holds.
        Ok(Decided::Push(
            message,
            Urgency::Normal,
            topic_of(&news.club),
        ))
    }
}

/// A push topic (at most 32 URL-safe characters) made of `text`'s letters and digits, with a
/// short hash of the whole so that names differing elsewhere stay apart.
fn topic_of(text: &str) -> String {
    // FNV-1a: the same on every server and in every release.
    let hash = text.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let hash = format!("{hash:08x}");
    let letters: String = text
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(32 - hash.len())
        .collect();
    format!("{letters}{hash}")
}

/// The push service of an endpoint, for the log (its host: the rest of it names the device).
fn service_of(endpoint: &str) -> String {
    endpoint
        .parse::<http::Uri>()
        .ok()
        .and_then(|uri| uri.host().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::testing::Bench;
    use crate::mail::MailTiming;
    use crate::push::{PUSH_SERVICES, PushConfig};

    fn device(endpoint: &str) -> Subscription {
        Subscription {
            endpoint: endpoint.into(),
            p256dh: crate::push::VapidKey::from_secret(&[5; 32])
                .unwrap()
                .public_text(),
            auth: "AQEBAQEBAQEBAQEBAQEBAQ".into(),
        }
    }

    async fn push(bench: &Bench, pushing: bool) -> Push {
        let pusher = if pushing {
            let config = PushConfig {
                contact: "mailto:ops@example.org".into(),
                services: PUSH_SERVICES.iter().map(|s| (*s).to_owned()).collect(),
                plain_http_loopback: false,
                timing: MailTiming::default(),
            };
            Some(Pusher::new(config, bench.store.push_key().await.unwrap()).unwrap())
        } else {
            None
        };
        Push::new(
            bench.core.clone(),
            bench.store.clone(),
            bench.metrics.clone(),
            bench.log.clone(),
            pusher,
        )
    }

    #[tokio::test]
    async fn a_device_is_subscribed_to_a_known_service_and_unsubscribed() {
        let bench = Bench::new("push-slice").await;
        let ann = bench.player("Ann").await;
        let none = push(&bench, false).await;
        assert_eq!(none.push_view(&ann).await, Ok(PushView::default()));
        let phone = device("https://fcm.googleapis.com/fcm/send/abc:def");
        assert_eq!(
            none.subscribe(&ann, phone.clone()).await,
            Err(Refusal::NoPush)
        );
        let push = push(&bench, true).await;
        let Answer::Push(view) = push.subscribe(&ann, phone).await.unwrap() else {
            panic!("not the devices");
        };
        assert!(view.offered && view.key.is_some());
        assert_eq!(view.devices, 1);
        assert_eq!(
            push.subscribe(&ann, device("https://example.org/push"))
                .await,
            Err(Refusal::BadSubscription),
            "only a known push service is posted to"
        );
        let Answer::Push(view) = push
            .unsubscribe(&ann, "https://fcm.googleapis.com/fcm/send/abc:def")
            .await
            .unwrap()
        else {
            panic!("not the devices");
        };
        assert_eq!(view.devices, 0);
    }
}
