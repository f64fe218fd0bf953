//! Notifications pushed to devices (Web Push) through a push service of the test's own on
//! loopback, which checks each request as the browsers' services do — the VAPID token signed by
//! the key the device subscribed with, for its own origin, running out within a day — and
//! decrypts the message with the device's own key and secret. A player away is sent *your move*
//! on every device; a device whose service says it is gone is forgotten; one whose service is
//! down for a moment gets it on the next try; a player connected is sent nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use p256::SecretKey;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;

use crate::common::*;
use qiguo_client::{Client, Trust};
use qiguo_server::mail::MailTiming;
use qiguo_server::protocol::{Answer, Ask, Identity, PushView, Refusal};
use qiguo_server::push::{PushConfig, VapidKey};
use qiguo_server::server::{Running, ServerConfig};
use qiguo_testkit::TempDir;

/// What a push service reads from a VAPID token.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Claims {
    /// The push service's origin it is for.
    aud: String,
    /// When it runs out, in seconds since 1970.
    exp: i64,
    /// How to reach the operator (`mailto:` or `https:`).
    sub: String,
    /// The server's public key (base64url), as the header named it.
    key: String,
}

/// Reads and checks an `Authorization: vapid t=…, k=…` header as a push service does: the
/// token signed by the key it names, for the algorithm ES256. What it claims is returned for
/// the test to judge (its audience and time).
fn verify(authorization: &str) -> Result<Claims, String> {
    let rest = authorization
        .strip_prefix("vapid ")
        .ok_or("not the vapid scheme")?;
    let mut token = None;
    let mut key = None;
    for part in rest.split(',') {
        let part = part.trim();
        if let Some(t) = part.strip_prefix("t=") {
            token = Some(t);
        } else if let Some(k) = part.strip_prefix("k=") {
            key = Some(k);
        }
    }
    let (token, key) = (token.ok_or("no token")?, key.ok_or("no key")?);
    let point = URL_SAFE_NO_PAD
        .decode(key)
        .map_err(|_| "the key is not base64url")?;
    let verifying = VerifyingKey::from_sec1_bytes(&point).map_err(|_| "not a P-256 key")?;
    let (signed, signature) = token.rsplit_once('.').ok_or("no signature")?;
    let (header, claims) = signed.split_once('.').ok_or("no claims")?;
    let header: serde_json::Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(header)
            .map_err(|_| "the header is not base64url")?,
    )
    .map_err(|_| "the header is not JSON")?;
    if header["alg"] != "ES256" {
        return Err("not ES256".into());
    }
    let signature = URL_SAFE_NO_PAD
        .decode(signature)
        .map_err(|_| "the signature is not base64url")?;
    let signature = Signature::from_slice(&signature).map_err(|_| "not a P-256 signature")?;
    verifying
        .verify(signed.as_bytes(), &signature)
        .map_err(|_| "the signature does not verify")?;
    let claims: serde_json::Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(claims)
            .map_err(|_| "the claims are not base64url")?,
    )
    .map_err(|_| "the claims are not JSON")?;
    Ok(Claims {
        aud: claims["aud"].as_str().ok_or("no aud")?.to_owned(),
        exp: claims["exp"].as_i64().ok_or("no exp")?,
        sub: claims["sub"].as_str().ok_or("no sub")?.to_owned(),
        key: key.to_owned(),
    })
}

/// The test's push service takes a token signed by the key it names and nothing else: another
/// key named beside it, altered claims or another scheme are refused.
#[test]
fn the_push_service_takes_only_tokens_signed_by_the_key_they_name() {
    let key = VapidKey::generate().unwrap();
    let header = key.authorization(
        "https://push.example.net",
        1_800_000_000,
        "mailto:ops@example.org",
    );
    assert_eq!(
        verify(&header),
        Ok(Claims {
            aud: "https://push.example.net".into(),
            exp: 1_800_000_000,
            sub: "mailto:ops@example.org".into(),
            key: key.public_text(),
        })
    );
    let other = VapidKey::generate().unwrap();
    let swapped = header.replace(&key.public_text(), &other.public_text());
    assert!(verify(&swapped).is_err());
    let t = header
        .split("t=")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let parts: Vec<&str> = t.split('.').collect();
    let forged_claims = URL_SAFE_NO_PAD.encode(
        br#"{"aud":"https://push.example.net","exp":1900000000,"sub":"mailto:ops@example.org"}"#,
    );
    let forged = header.replace(parts[1], &forged_claims);
    assert!(verify(&forged).is_err());
    assert!(verify("Bearer abc").is_err());
}

/// A message as the test's push service received it.
#[derive(Clone, Debug)]
struct Received {
    /// The path it was posted to (which device).
    path: String,
    /// Its headers, by lower-case name.
    headers: HashMap<String, String>,
    /// What the VAPID token claims (checked: signed by the key it names).
    claims: Result<Claims, String>,
    /// The message, decrypted with the device's key, as JSON.
    message: Result<serde_json::Value, String>,
}

/// A device of the test: its key pair and authentication secret, and the path the push service
/// gives it.
struct Device {
    secret: SecretKey,
    auth: [u8; 16],
    path: String,
}

impl Device {
    fn new(seed: u8, path: &str) -> Device {
        Device {
            secret: SecretKey::from_slice(&[seed; 32]).unwrap(),
            auth: [seed.wrapping_add(1); 16],
            path: path.to_owned(),
        }
    }

    /// What its page gives the server.
    fn subscribe(&self, service: &PushService) -> Ask {
        Ask::Subscribe {
            endpoint: format!("{}{}", service.origin, self.path),
            p256dh: URL_SAFE_NO_PAD.encode(self.secret.public_key().to_encoded_point(false)),
            auth: URL_SAFE_NO_PAD.encode(self.auth),
        }
    }
}

/// A push service on a loopback port of its own: `/gone/…` answers 410 (a device unsubscribed
/// there), `/flaky/…` 503 the first time and 201 afterwards, anything else 201.
struct PushService {
    origin: String,
    received: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for PushService {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl PushService {
    /// Starts one that decrypts for `devices`.
    async fn start(devices: Vec<Device>) -> PushService {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let devices = Arc::new(devices);
        let flaky_seen = Arc::new(Mutex::new(false));
        let (kept, keys, flaky) = (received.clone(), devices.clone(), flaky_seen.clone());
        let task = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                let (kept, keys, flaky) = (kept.clone(), keys.clone(), flaky.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request| {
                        let (kept, keys, flaky) = (kept.clone(), keys.clone(), flaky.clone());
                        async move { take(request, &kept, &keys, &flaky).await }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tcp), service)
                        .await;
                });
            }
        });
        PushService {
            origin,
            received,
            task,
        }
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    fn to(&self, path: &str) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| r.path == path)
            .collect()
    }
}

async fn take(
    request: hyper::Request<hyper::body::Incoming>,
    kept: &Mutex<Vec<Received>>,
    devices: &[Device],
    flaky: &Mutex<bool>,
) -> Result<hyper::Response<Full<Bytes>>, std::convert::Infallible> {
    let path = request.uri().path().to_owned();
    let headers: HashMap<String, String> = request
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("?").to_owned()))
        .collect();
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let claims = headers
        .get("authorization")
        .ok_or_else(|| "no Authorization".to_owned())
        .and_then(|a| verify(a));
    let message = match devices.iter().find(|d| d.path == path) {
        None => Err("no such device".to_owned()),
        Some(device) => {
            web_push_native::decrypt(body.to_vec(), &device.secret, &device.auth.into())
                .map_err(|e| e.to_string())
                .and_then(|plain| serde_json::from_slice(&plain).map_err(|e| e.to_string()))
        }
    };
    kept.lock().unwrap().push(Received {
        path: path.clone(),
        headers,
        claims,
        message,
    });
    let status = if path.starts_with("/gone/") {
        410
    } else if path.starts_with("/flaky/") && !std::mem::replace(&mut *flaky.lock().unwrap(), true) {
        503
    } else {
        201
    };
    Ok(hyper::Response::builder()
        .status(status)
        .body(Full::new(Bytes::new()))
        .unwrap())
}

/// The contact the test servers give push services.
const CONTACT: &str = "mailto:ops@qiguo.test";

/// A server on a loopback port bound once here, pushing to services on 127.0.0.1 over plain
/// http (the tests' only), the outbox read every 100 ms and a failed message tried again after
/// a second.
async fn pushing_server(db: &str, lines: &Lines) -> Running {
    pushing_server_on(db, None, lines).await
}

/// [`pushing_server`] on `clock`, if given.
async fn pushing_server_on(
    db: &str,
    clock: Option<qiguo_server::store::Clock>,
    lines: &Lines,
) -> Running {
    let mut config = ServerConfig::new(db);
    config.listener = Some(loopback_listener());
    config.limits = roomy();
    config.push = Some(PushConfig {
        contact: CONTACT.into(),
        services: vec!["127.0.0.1".into()],
        plain_http_loopback: true,
        timing: MailTiming {
            every: Duration::from_millis(100),
            retry_after: Duration::from_secs(1),
            turn_after: Duration::ZERO,
        },
    });
    serve_on(&config, clock, lines).await
}

async fn push_of(client: &mut Client) -> PushView {
    match client.ask(Ask::Push {}).await.unwrap() {
        Answer::Push(view) => view,
        other => panic!("{other:?}"),
    }
}

async fn asked(client: &mut Client, ask: Ask) -> Result<PushView, Refusal> {
    match client.ask(ask).await {
        Ok(Answer::Push(view)) => Ok(view),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.refusal().cloned().expect("a refusal")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_is_notified_on_every_device() {
    let dir = TempDir::new("push");
    notified(&sqlite(&dir), "Ann").await;
}

#[cfg_attr(
    not(postgres_tests),
    ignore = "needs PostgreSQL (QIGUO_POSTGRES_URL; .ci/run provides it)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_is_notified_on_every_device_on_postgresql() {
    notified(&postgres(), "Ann").await;
}

/// [`a_player_away_is_notified_on_every_device`] on the database `db`.
async fn notified(db: &str, ann_name: &str) {
    let phone = Device::new(3, "/device/phone");
    let tablet = Device::new(5, "/flaky/tablet");
    let old = Device::new(7, "/gone/old-laptop");
    let service = PushService::start(vec![
        Device::new(3, "/device/phone"),
        Device::new(5, "/flaky/tablet"),
        Device::new(7, "/gone/old-laptop"),
    ])
    .await;
    let lines = Lines::default();
    let server = pushing_server(db, &lines).await;
    let url = server.url();
    let (mut bo, me) = qiguo_client::connect_in(
        &url,
        Identity::New { name: "Bo".into() },
        Some("sv"),
        &Trust::default(),
    )
    .await
    .unwrap();
    let view = push_of(&mut bo).await;
    assert!(view.offered);
    assert_eq!(view.devices, 0);
    let key = view.key.expect("the server's public key");
    assert_eq!(URL_SAFE_NO_PAD.decode(&key).unwrap().len(), 65);
    // Endpoints elsewhere than a push service the server posts to, or keys of the wrong kind,
    // are refused and kept nowhere.
    let mut elsewhere = phone.subscribe(&service);
    if let Ask::Subscribe { endpoint, .. } = &mut elsewhere {
        *endpoint = "http://10.1.2.3/device/phone".into();
    }
    assert_eq!(
        asked(&mut bo, elsewhere).await,
        Err(Refusal::BadSubscription)
    );
    let mut bad_keys = phone.subscribe(&service);
    if let Ask::Subscribe { auth, .. } = &mut bad_keys {
        *auth = "c2hvcnQ".into();
    }
    assert_eq!(
        asked(&mut bo, bad_keys).await,
        Err(Refusal::BadSubscription)
    );
    for (n, device) in [&phone, &tablet, &old].into_iter().enumerate() {
        let view = asked(&mut bo, device.subscribe(&service)).await.unwrap();
        assert_eq!(view.devices, n as u32 + 1);
    }
    // Subscribing again changes nothing.
    assert_eq!(
        asked(&mut bo, phone.subscribe(&service))
            .await
            .unwrap()
            .devices,
        3
    );
    let (ann_client, _) = newcomer(&url, ann_name).await;
    let (mut ann, code) = game_of(ann_client, &mut bo).await;
    // Bo is connected when his turn begins: nothing is pushed.
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    eventually("the notification decided", || {
        lines.contains("notification not pushed") && lines.contains("told on their connection")
    })
    .await;
    assert!(service.received().is_empty());
    // He plays and leaves; the computers play; Ann moves: Bo, away, is notified.
    drop(bo);
    bo_plays(&url, &me, &code).await;
    ann.wait_turn().await;
    ann.play(|m| m[0]).await;
    eventually("the phone and the tablet notified", || {
        !service.to("/device/phone").is_empty()
            && service
                .to("/flaky/tablet")
                .iter()
                .any(|r| r.message.is_ok())
            && service.to("/flaky/tablet").len() >= 2
    })
    .await;
    logged(&lines, "notification pushed").await;
    let got = service.to("/device/phone").remove(0);
    let message = got.message.clone().expect("decrypted with the phone's key");
    assert_eq!(message["title"], "Ditt drag som Chu i Qiguo", "{message}");
    assert!(
        message["body"]
            .as_str()
            .unwrap()
            .starts_with("Partiet mellan Ann, Bo, efter drag"),
        "{message}"
    );
    assert_eq!(message["url"], format!("/join/{code}"));
    assert_eq!(message["tag"], format!("qiguo-{}", ann.id.0));
    // No key and no sign-in token travel.
    let text = message.to_string();
    assert!(!text.contains("signin") && !text.contains(me.key.as_deref().unwrap()));
    let claims = got.claims.clone().expect("a VAPID token that verifies");
    assert_eq!(claims.key, key, "signed with the key Bo subscribed with");
    assert_eq!(claims.aud, service.origin);
    assert_eq!(claims.sub, CONTACT);
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert!(
        claims.exp > now_s && claims.exp <= now_s + 24 * 3600,
        "{claims:?}"
    );
    assert_eq!(got.headers["content-encoding"], "aes128gcm");
    assert_eq!(got.headers["urgency"], "high");
    assert_eq!(got.headers["ttl"], "86400");
    assert_eq!(
        got.headers["topic"],
        ann.id.0.chars().take(32).collect::<String>()
    );
    // The old laptop's service said it is gone: forgotten, and tried no more.
    assert_eq!(service.to("/gone/old-laptop").len(), 1);
    assert!(lines.contains("device gone from its push service: forgotten"));
    let mut bo = returning(&url, &me).await;
    assert_eq!(push_of(&mut bo).await.devices, 2);
    // The tablet's service was down at first: the message went again, and arrived.
    let tablet_got = service.to("/flaky/tablet");
    assert!(tablet_got.iter().all(|r| r.message.is_ok()));
    // One occasion, one message a device a try: at most two tries.
    assert!(service.to("/device/phone").len() <= 2);
    // Bo stops the phone's notifications; another player cannot stop his tablet's.
    let (mut cy, _) = newcomer(&url, &format!("Cy of {ann_name}")).await;
    let tablet_endpoint = format!("{}{}", service.origin, tablet.path);
    assert_eq!(
        asked(
            &mut cy,
            Ask::Unsubscribe {
                endpoint: tablet_endpoint
            }
        )
        .await
        .unwrap()
        .devices,
        0
    );
    assert_eq!(push_of(&mut bo).await.devices, 2);
    let view = asked(
        &mut bo,
        Ask::Unsubscribe {
            endpoint: format!("{}{}", service.origin, phone.path),
        },
    )
    .await
    .unwrap();
    assert_eq!(view.devices, 1);
    drop(old);
}

async fn logged(lines: &Lines, part: &str) {
    eventually(&format!("logged: {part}"), || lines.contains(part)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_push_offers_none() {
    let dir = TempDir::new("push-none");
    let lines = Lines::default();
    let server = start(&sqlite(&dir), None, &lines).await;
    let (mut ann, _) = newcomer(&server.url(), "Ann").await;
    assert_eq!(push_of(&mut ann).await, PushView::default());
    let device = Device::new(9, "/device/x");
    let service = PushService::start(Vec::new()).await;
    assert_eq!(
        asked(&mut ann, device.subscribe(&service)).await,
        Err(Refusal::NoPush)
    );
}

/// A club's news reaches the devices of a member away who wants it, in their language, and no
/// one else's: not the device of a member connected (told at once), nor of one who asked for no
/// news, nor the poster's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn club_news_reaches_a_member_away_on_their_device() {
    use qiguo_server::protocol::clubs::{ClubSpec, ClubView};
    let dir = TempDir::new("push-club");
    let service = PushService::start(vec![
        Device::new(11, "/device/ann"),
        Device::new(13, "/device/bo"),
        Device::new(15, "/device/cy"),
        Device::new(17, "/device/dee"),
    ])
    .await;
    let lines = Lines::default();
    let server = pushing_server(&sqlite(&dir), &lines).await;
    let url = server.url();
    let club = "Tuesday Seven";
    let view = |answer: Answer| match answer {
        Answer::Club(view) => *view,
        other => panic!("{other:?}"),
    };
    let (mut ann, _) = newcomer(&url, "Ann").await;
    ann.ask(Ask::ClubCreate {
        spec: ClubSpec {
            name: club.into(),
            description: String::new(),
            open: true,
        },
    })
    .await
    .unwrap();
    let (mut bo, _) = qiguo_client::connect_in(
        &url,
        Identity::New { name: "Bo".into() },
        Some("sv"),
        &Trust::default(),
    )
    .await
    .unwrap();
    let (mut cy, _) = newcomer(&url, "Cy").await;
    let (mut dee, _) = newcomer(&url, "Dee").await;
    for (client, seed, path) in [
        (&mut ann, 11, "/device/ann"),
        (&mut bo, 13, "/device/bo"),
        (&mut cy, 15, "/device/cy"),
        (&mut dee, 17, "/device/dee"),
    ] {
        // Ann owns it already: her asking to join changes nothing.
        client
            .ask(Ask::ClubJoin { name: club.into() })
            .await
            .unwrap();
        asked(client, Device::new(seed, path).subscribe(&service))
            .await
            .unwrap();
    }
    let cy_view: ClubView = view(
        cy.ask(Ask::ClubNewsWanted {
            name: club.into(),
            wanted: false,
        })
        .await
        .unwrap(),
    );
    assert!(!cy_view.news_wanted);
    drop(bo);
    // Ann's view of the club says when the server knows Bo is gone.
    let mut away = false;
    for _ in 0..600 {
        let shown = view(ann.ask(Ask::Club { name: club.into() }).await.unwrap());
        if shown.members.iter().any(|m| m.name == "Bo" && !m.online) {
            away = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(away, "Bo's going was noticed within 30 s");
    ann.ask(Ask::ClubPost {
        name: club.into(),
        text: "Tonight at eight, tables of seven".into(),
    })
    .await
    .unwrap();
    eventually("Bo's device notified", || {
        !service.to("/device/bo").is_empty()
    })
    .await;
    logged(&lines, "told while connected").await;
    let got = service.to("/device/bo").remove(0);
    let message = got.message.expect("decrypted with Bo's key");
    assert_eq!(message["title"], "Tuesday Seven: nyheter", "{message}");
    assert_eq!(message["body"], "Tonight at eight, tables of seven (Ann)");
    assert_eq!(message["kind"], "push-club-news");
    assert_eq!(got.headers["urgency"], "normal");
    let topic = &got.headers["topic"];
    assert!(
        topic.starts_with("TuesdaySeven") && topic.len() <= 32,
        "{topic}"
    );
    assert!(got.claims.is_ok());
    // Dee was connected (told at once), Cy wants no news, Ann posted it.
    for other in ["/device/ann", "/device/cy", "/device/dee"] {
        assert!(service.to(other).is_empty(), "{other} was sent the news");
    }
    drop((cy, dee));
}

/// Those who said they come to a club's evening are reminded on their devices half an hour
/// before it, in their language; one who said they come and then not is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evening_is_a_reminder_on_the_devices_of_those_who_come() {
    use qiguo_server::protocol::clubs::ClubSpec;
    use qiguo_server::protocol::evenings::{EveningPlay, EveningSpec, Seating};
    const START: i64 = 1_796_126_400_000; // 2026-12-01 12:00 UTC
    let dir = TempDir::new("push-evening");
    let service = PushService::start(vec![
        Device::new(21, "/device/bo"),
        Device::new(23, "/device/cy"),
    ])
    .await;
    let lines = Lines::default();
    let (clock, now) = hand_clock(START);
    let server = pushing_server_on(&sqlite(&dir), Some(clock), &lines).await;
    let url = server.url();
    let hall = "Evening Hall";
    let (mut ann, _) = newcomer(&url, "Ann").await;
    ann.ask(Ask::ClubCreate {
        spec: ClubSpec {
            name: hall.into(),
            description: String::new(),
            open: true,
        },
    })
    .await
    .unwrap();
    let Answer::Evening(evening) = ann
        .ask(Ask::EveningCreate {
            spec: EveningSpec {
                club: hall.into(),
                at_ms: START + 3_600_000,
                play: EveningPlay {
                    preset: qiguo_rules::Preset::Classic,
                    pace: qiguo_server::QuickPace::Brisk,
                    level: qiguo_rules::Level::Easy,
                    seating: Seating::AtRandom,
                    rated: false,
                },
            },
        })
        .await
        .unwrap()
    else {
        panic!("not an evening");
    };
    let (mut bo, _) = qiguo_client::connect_in(
        &url,
        Identity::New { name: "Bo".into() },
        Some("sv"),
        &Trust::default(),
    )
    .await
    .unwrap();
    let (mut cy, _) = newcomer(&url, "Cy").await;
    for (client, seed, path, coming) in [
        (&mut bo, 21, "/device/bo", vec![true]),
        (&mut cy, 23, "/device/cy", vec![true, false]),
    ] {
        client
            .ask(Ask::ClubJoin { name: hall.into() })
            .await
            .unwrap();
        asked(client, Device::new(seed, path).subscribe(&service))
            .await
            .unwrap();
        for coming in coming {
            client
                .ask(Ask::EveningCome {
                    evening: evening.id.clone(),
                    coming,
                })
                .await
                .unwrap();
        }
    }
    *now.lock().unwrap() = START + 31 * 60_000;
    eventually("Bo reminded", || !service.to("/device/bo").is_empty()).await;
    logged(&lines, "they no longer come").await;
    let got = service.to("/device/bo").remove(0);
    let message = got.message.expect("decrypted with Bo's key");
    assert_eq!(message["title"], "Evening Hall spelar snart", "{message}");
    assert_eq!(
        message["body"],
        "Kvällen börjar 2026-12-01 13:00 (UTC): var ansluten för att få en plats."
    );
    assert_eq!(message["kind"], "push-evening");
    assert_eq!(got.headers["urgency"], "high");
    assert!(service.to("/device/cy").is_empty(), "Cy no longer comes");
    drop((ann, bo, cy));
}
