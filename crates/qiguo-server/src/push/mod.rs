//! Notifications pushed to players' devices through their browsers' push services (Web Push:
//! RFC 8030 for the request, RFC 8291 for its encryption, RFC 8292 for the server's identity).
//!
//! A page that the player lets notify subscribes with the server's public VAPID key and gives the
//! server its subscription: the push service's endpoint, the device's P-256 key and its
//! authentication secret ([`Subscription`], kept per device with the player). On the occasions
//! the server e-mails (*your move* while the player has no connection, the reminder a day before
//! the turn runs out, the end), it posts a message to each of the player's devices, encrypted to
//! that device: the push service sees neither the text nor the link. A device the push service no
//! longer knows (404, 410) is forgotten.
//!
//! The server only posts to the push services it knows ([`PUSH_SERVICES`], or the operator's
//! list), over https: a subscription cannot make the server send requests anywhere else.
//!
//! The encryption (RFC 8291 on RFC 8188's `aes128gcm`) is `web-push-native`'s, on the same
//! RustCrypto crates as the rest of the server; the VAPID token ([`vapid`]) is signed here with
//! `p256`'s ECDSA (the crate's own VAPID would bring a second JWT stack). The RFCs' test vectors
//! check both below.

mod vapid;

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use crate::mail::MailTiming;
pub use vapid::VapidKey;

/// The header of a Web Push message: salt, record size, the key id's length and the sender's
/// public key (65 bytes).
const PUSH_HEADER_BYTES: usize = 16 + 4 + 1 + 65;

/// The most bytes a push service takes in a message's body.
const MAX_PUSH_BODY: usize = 4096;

/// The longest message the server sends: one record (the message, its delimiter and the
/// 16-byte tag) after the header, within [`MAX_PUSH_BODY`].
pub const MAX_PUSH_PLAINTEXT: usize = MAX_PUSH_BODY - PUSH_HEADER_BYTES - 1 - 16;

/// The push services of the browsers players use, by the host names of their endpoints (a
/// subscription's endpoint must be one of these or under one): Chrome's and Edge's on Android
/// and the desktop (Firebase Cloud Messaging), Firefox's, Safari's, and Windows'.
pub const PUSH_SERVICES: &[&str] = &[
    "fcm.googleapis.com",
    "push.services.mozilla.com",
    "push.apple.com",
    "notify.windows.com",
];

/// The longest endpoint taken, in bytes (the services' are about 200).
pub const MAX_ENDPOINT_BYTES: usize = 1024;

/// How many devices a player may have subscribed; a further one replaces the one subscribed
/// longest ago.
pub const DEVICES_A_PLAYER: u32 = 10;

/// How long a push request may take, from connecting to the answer.
pub const SEND_WITHIN: Duration = Duration::from_secs(15);

/// How long a push service keeps a message for a device that is off: a day (a turn's
/// notification older than that is stale; the reminder and the e-mail say it again).
pub const TTL_SECONDS: u32 = 24 * 3600;

/// What a server that pushes was told.
#[derive(Clone, Debug)]
pub struct PushConfig {
    /// How the push services reach the operator: `mailto:ADDRESS` or an `https://` page,
    /// sent in every request's token.
    pub contact: String,
    /// The push services posted to, by host name ([`PUSH_SERVICES`] unless told others).
    pub services: Vec<String>,
    /// Posts to `http://` endpoints on this machine too (the tests' push service only).
    pub plain_http_loopback: bool,
    /// How often the outbox is read, and how patiently a message is tried again (the
    /// e-mail's timing, when the server sends e-mail too).
    pub timing: MailTiming,
}

/// Why a contact was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--push {0}: write how push services reach the operator, mailto:ADDRESS or https://PAGE")]
pub struct ContactError(pub String);

/// A contact as taken: `mailto:` an address, or an `https://` page.
pub fn contact(given: &str) -> Result<String, ContactError> {
    let text = given.trim();
    let fine = match (text.strip_prefix("mailto:"), text.strip_prefix("https://")) {
        (Some(address), _) => crate::hub::mail::checked_address(address).is_ok(),
        (_, Some(page)) => !page.is_empty() && !page.contains(char::is_whitespace),
        _ => false,
    };
    if fine {
        Ok(text.to_owned())
    } else {
        Err(ContactError(given.to_owned()))
    }
}

/// A device's subscription, as a page gives it and the server keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscription {
    /// The push service's URL for the device.
    pub endpoint: String,
    /// The device's P-256 public key, base64url (65 bytes).
    pub p256dh: String,
    /// The device's authentication secret, base64url (16 bytes).
    pub auth: String,
}

/// Why a subscription is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SubscriptionError {
    /// The endpoint is no URL, too long, or not https.
    #[error("the endpoint is not an https address")]
    NotHttps,
    /// The endpoint is on a host that is not a known push service.
    #[error("the endpoint is not at a push service this server posts to")]
    UnknownService,
    /// The keys are not a P-256 point and a 16-byte secret.
    #[error("the keys are not a P-256 public key and a 16-byte secret")]
    BadKeys,
}

/// Why a message was not encrypted to a device.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncryptError {
    /// The message is longer than a push service takes.
    #[error("the message is {0} bytes; at most {MAX_PUSH_PLAINTEXT} fit")]
    TooLong(usize),
    /// The device's keys are not a P-256 public key and a 16-byte secret.
    #[error("the device's keys are not a P-256 public key and a 16-byte secret")]
    BadKeys,
    /// The encryption itself failed.
    #[error("not encrypted: {0}")]
    Failed(String),
}

impl PushConfig {
    /// `subscription` checked: an `https` endpoint at one of the push services, and keys of
    /// the right kind and length.
    pub fn check(&self, subscription: &Subscription) -> Result<(), SubscriptionError> {
        let endpoint = &subscription.endpoint;
        if endpoint.len() > MAX_ENDPOINT_BYTES || endpoint.chars().any(char::is_control) {
            return Err(SubscriptionError::NotHttps);
        }
        let uri: http::Uri = endpoint.parse().map_err(|_| SubscriptionError::NotHttps)?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(SubscriptionError::NotHttps);
        };
        if authority.as_str().contains('@') {
            return Err(SubscriptionError::NotHttps);
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        let loopback = host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
        match scheme {
            "https" => {}
            "http" if self.plain_http_loopback && loopback => {}
            _ => return Err(SubscriptionError::NotHttps),
        }
        let host = host.to_ascii_lowercase();
        let known = self.services.iter().any(|service| {
            let service = service.to_ascii_lowercase();
            host == service
                || host
                    .strip_suffix(&service)
                    .is_some_and(|head| head.ends_with('.'))
        });
        if !known {
            return Err(SubscriptionError::UnknownService);
        }
        let key = URL_SAFE_NO_PAD
            .decode(subscription.p256dh.trim_end_matches('='))
            .map_err(|_| SubscriptionError::BadKeys)?;
        let auth = URL_SAFE_NO_PAD
            .decode(subscription.auth.trim_end_matches('='))
            .map_err(|_| SubscriptionError::BadKeys)?;
        if vapid::public_key(&key).is_none() || auth.len() != 16 {
            return Err(SubscriptionError::BadKeys);
        }
        Ok(())
    }
}

/// What became of a message posted to a device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// The push service took it.
    Taken,
    /// The push service knows the device no more (404, 410): forget the subscription.
    Gone,
    /// Not now (no connection, a timeout, 429, 5xx): try again later.
    Later(String),
    /// Refused for good (400, 403, 413…): give the message up.
    Refused(String),
}

/// How urgent a message is to the push service (RFC 8030, section 5.3): a phone saving its
/// battery wakes for `high` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// *Your move*, the reminder.
    High,
    /// The end of a game.
    Normal,
}

/// Posts messages to push services as the server.
pub struct Pusher {
    config: PushConfig,
    key: VapidKey,
    tls: tokio_rustls::TlsConnector,
}

impl std::fmt::Debug for Pusher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pusher")
            .field("config", &self.config)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl Pusher {
    /// A pusher with `config`, signing as `key`.
    pub fn new(config: PushConfig, key: VapidKey) -> Result<Pusher, rustls::Error> {
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
        Ok(Pusher {
            config,
            key,
            tls: tokio_rustls::TlsConnector::from(Arc::new(tls)),
        })
    }

    /// What it was told.
    pub fn config(&self) -> &PushConfig {
        &self.config
    }

    /// The server's public key, base64url: what pages subscribe with.
    pub fn public_key(&self) -> String {
        self.key.public_text()
    }

    /// Posts `message` (at most [`MAX_PUSH_PLAINTEXT`] bytes) to the device of
    /// `subscription`, encrypted to it; `topic` (at most 32 base64url characters) lets the push
    /// service replace a message of the same topic it still holds.
    pub async fn send(
        &self,
        subscription: &Subscription,
        message: &[u8],
        urgency: Urgency,
        topic: Option<&str>,
        now_s: i64,
    ) -> Delivery {
        if self.config.check(subscription).is_err() {
            return Delivery::Refused("the subscription is no longer one this server takes".into());
        }
        let body = match self.encrypted(subscription, message) {
            Ok(body) => body,
            Err(why) => return Delivery::Refused(why.to_string()),
        };
        match tokio::time::timeout(
            SEND_WITHIN,
            self.post(subscription, body, urgency, topic, now_s),
        )
        .await
        {
            Ok(delivery) => delivery,
            Err(_) => Delivery::Later(format!("no answer within {} s", SEND_WITHIN.as_secs())),
        }
    }

    /// `message` encrypted to the device of `subscription` (RFC 8291's `aes128gcm`, one record,
    /// a fresh key pair and salt for every message: `web-push-native`).
    fn encrypted(
        &self,
        subscription: &Subscription,
        message: &[u8],
    ) -> Result<Vec<u8>, EncryptError> {
        if message.len() > MAX_PUSH_PLAINTEXT {
            return Err(EncryptError::TooLong(message.len()));
        }
        let decode = |text: &str| URL_SAFE_NO_PAD.decode(text.trim_end_matches('='));
        let (Ok(device), Ok(auth)) = (decode(&subscription.p256dh), decode(&subscription.auth))
        else {
            return Err(EncryptError::BadKeys);
        };
        let device = vapid::public_key(&device).ok_or(EncryptError::BadKeys)?;
        let auth: [u8; 16] = auth.try_into().map_err(|_| EncryptError::BadKeys)?;
        web_push_native::encrypt(message.to_vec(), &device, &auth.into())
            .map_err(|e| EncryptError::Failed(e.to_string()))
    }

    async fn post(
        &self,
        subscription: &Subscription,
        body: Vec<u8>,
        urgency: Urgency,
        topic: Option<&str>,
        now_s: i64,
    ) -> Delivery {
        let Ok(uri) = subscription.endpoint.parse::<http::Uri>() else {
            return Delivery::Refused("the endpoint is no URL".into());
        };
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority().cloned()) else {
            return Delivery::Refused("the endpoint is no URL".into());
        };
        let https = scheme == "https";
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
        let origin = format!("{scheme}://{authority}");
        let token_ends = now_s + vapid::TOKEN_SECONDS;
        let mut request = http::Request::post(
            uri.path_and_query()
                .map_or("/".to_owned(), |p| p.as_str().to_owned()),
        )
        .header(http::header::HOST, authority.as_str())
        .header("TTL", TTL_SECONDS)
        .header(http::header::CONTENT_ENCODING, "aes128gcm")
        .header(http::header::CONTENT_TYPE, "application/octet-stream")
        .header(http::header::CONTENT_LENGTH, body.len())
        .header(
            http::header::AUTHORIZATION,
            self.key
                .authorization(&origin, token_ends, &self.config.contact),
        )
        .header(
            "Urgency",
            match urgency {
                Urgency::High => "high",
                Urgency::Normal => "normal",
            },
        );
        if let Some(topic) = topic {
            request = request.header("Topic", topic);
        }
        let Ok(request) = request.body(Full::new(Bytes::from(body))) else {
            return Delivery::Refused("the request could not be written".into());
        };
        let tcp = match TcpStream::connect((host.as_str(), port)).await {
            Ok(tcp) => tcp,
            Err(e) => return Delivery::Later(format!("no connection to {authority}: {e}")),
        };
        let _ = tcp.set_nodelay(true);
        let answer = if https {
            let Ok(name) = rustls::pki_types::ServerName::try_from(host.clone()) else {
                return Delivery::Refused(format!("{host} is no server name"));
            };
            match self.tls.connect(name, tcp).await {
                Ok(tls) => exchange(tls, request).await,
                Err(e) => return Delivery::Later(format!("TLS with {authority}: {e}")),
            }
        } else {
            exchange(tcp, request).await
        };
        match answer {
            Err(why) => Delivery::Later(format!("{authority}: {why}")),
            Ok((status, said)) => match status.as_u16() {
                200..=299 => Delivery::Taken,
                404 | 410 => Delivery::Gone,
                429 | 500..=599 => Delivery::Later(format!("{status} {said}")),
                _ => Delivery::Refused(format!("{status} {said}")),
            },
        }
    }
}

/// One request over `stream` (HTTP/1.1): the answer's status and the start of its body.
async fn exchange<S>(
    stream: S,
    request: http::Request<Full<Bytes>>,
) -> Result<(http::StatusCode, String), hyper::Error>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    let driving = tokio::spawn(connection);
    let result = async {
        let response = sender.send_request(request).await?;
        let status = response.status();
        // What the service says, for the log: its first line, bounded.
        let body = http_body_util::Limited::new(response.into_body(), 4096)
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        let said: String = String::from_utf8_lossy(&body)
            .lines()
            .next()
            .unwrap_or_default()
            .chars()
            .filter(|c| !c.is_control())
            .take(200)
            .collect();
        Ok((status, said))
    }
    .await;
    driving.abort();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> PushConfig {
        PushConfig {
            contact: "mailto:ops@example.org".into(),
            services: PUSH_SERVICES.iter().map(|s| (*s).to_owned()).collect(),
            plain_http_loopback: false,
            timing: MailTiming::default(),
        }
    }

    fn device(endpoint: &str) -> Subscription {
        let key = VapidKey::from_secret(&[5; 32]).unwrap();
        Subscription {
            endpoint: endpoint.into(),
            p256dh: key.public_text(),
            auth: URL_SAFE_NO_PAD.encode([1u8; 16]),
        }
    }

    #[test]
    fn only_known_push_services_over_https_are_taken() {
        let config = config();
        for fine in [
            "https://fcm.googleapis.com/fcm/send/abc:def",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
            "https://web.push.apple.com/QGuQ",
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
        ] {
            assert_eq!(config.check(&device(fine)), Ok(()), "{fine}");
        }
        for (bad, why) in [
            (
                "http://fcm.googleapis.com/fcm/send/x",
                SubscriptionError::NotHttps,
            ),
            (
                "https://evil.example/fcm.googleapis.com",
                SubscriptionError::UnknownService,
            ),
            (
                "https://fcm.googleapis.com.evil.example/x",
                SubscriptionError::UnknownService,
            ),
            (
                "https://notfcm.googleapis.com/x",
                SubscriptionError::UnknownService,
            ),
            ("https://127.0.0.1/x", SubscriptionError::UnknownService),
            (
                "https://user@fcm.googleapis.com/x",
                SubscriptionError::NotHttps,
            ),
            ("ftp://fcm.googleapis.com/x", SubscriptionError::NotHttps),
            ("fcm.googleapis.com/x", SubscriptionError::NotHttps),
            ("http://127.0.0.1:9/x", SubscriptionError::NotHttps),
        ] {
            assert_eq!(config.check(&device(bad)), Err(why), "{bad}");
        }
        let long = format!(
            "https://fcm.googleapis.com/{}",
            "a".repeat(MAX_ENDPOINT_BYTES)
        );
        assert_eq!(
            config.check(&device(&long)),
            Err(SubscriptionError::NotHttps)
        );
        let mut bad_keys = device("https://fcm.googleapis.com/x");
        bad_keys.auth = URL_SAFE_NO_PAD.encode([1u8; 15]);
        assert_eq!(config.check(&bad_keys), Err(SubscriptionError::BadKeys));
        bad_keys.auth = "%%%".into();
        assert_eq!(config.check(&bad_keys), Err(SubscriptionError::BadKeys));
        let mut bad_point = device("https://fcm.googleapis.com/x");
        bad_point.p256dh = URL_SAFE_NO_PAD.encode([4u8; 65]);
        assert_eq!(config.check(&bad_point), Err(SubscriptionError::BadKeys));
        // The tests' own push service: plain http on loopback, when allowed and listed.
        let tests = PushConfig {
            services: vec!["127.0.0.1".into()],
            plain_http_loopback: true,
            ..config
        };
        assert_eq!(tests.check(&device("http://127.0.0.1:9/push/1")), Ok(()));
        assert_eq!(
            tests.check(&device("http://10.0.0.1/push/1")),
            Err(SubscriptionError::NotHttps)
        );
    }

    #[test]
    fn contacts_are_mailto_or_https() {
        assert_eq!(
            contact(" mailto:ops@example.org").unwrap(),
            "mailto:ops@example.org"
        );
        assert_eq!(
            contact("https://example.org/ops").unwrap(),
            "https://example.org/ops"
        );
        for bad in [
            "ops@example.org",
            "mailto:ops",
            "http://example.org",
            "https://",
            "",
        ] {
            assert!(contact(bad).is_err(), "{bad}");
        }
    }

    fn b64(text: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(text).expect("base64url")
    }

    fn salt(text: &str) -> [u8; 16] {
        b64(text).try_into().expect("16 bytes")
    }

    /// RFC 8188, section 3.1: one record, no key id, byte for byte.
    #[test]
    fn rfc_8188_one_record() {
        let ikm = b64("yqdlZ-tYemfogSmv7Ws5PQ");
        let body = b64("I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg");
        let records = std::iter::once(b"I am the walrus".to_vec());
        let made =
            ece_native::encrypt(&ikm, salt("I1BsxtFttlv3u_Oo94xnmw"), b"", records, 4096).unwrap();
        assert_eq!(made, body);
        assert_eq!(ece_native::decrypt(&ikm, body).unwrap(), b"I am the walrus");
    }

    /// RFC 8188, section 3.2: two records of 25 bytes, padding, and the key id "a1"; a flipped
    /// bit, or the wrong key, does not decrypt.
    #[test]
    fn rfc_8188_two_records_and_a_key_id() {
        let body = b64(
            "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA",
        );
        let key = b64("BO3ZVPxUlnLORbVGMpbT1Q");
        assert_eq!(&body[21..23], b"a1");
        assert_eq!(
            ece_native::decrypt(&key, body.clone()).unwrap(),
            b"I am the walrus"
        );
        let mut altered = body.clone();
        let last = altered.len() - 1;
        altered[last] ^= 1;
        assert!(ece_native::decrypt(&key, altered).is_err());
        assert!(ece_native::decrypt(b64("yqdlZ-tYemfogSmv7Ws5PQ"), body.clone()).is_err());
        assert!(ece_native::decrypt(&key, body[..20].to_vec()).is_err());
    }

    /// RFC 8291, section 5 and appendix A: the message the RFC sends reads as the RFC's text
    /// on its device, and on no other.
    #[test]
    fn rfc_8291_message() {
        let ua_secret =
            p256::SecretKey::from_slice(&b64("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"))
                .unwrap();
        let auth: [u8; 16] = b64("BTBZMqHH6r4Tts7J_aSIgg").try_into().unwrap();
        let body = b64(
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
        );
        assert_eq!(
            web_push_native::decrypt(body.clone(), &ua_secret, &auth.into()).unwrap(),
            b"When I grow up, I want to be a watermelon"
        );
        let other = p256::SecretKey::from_slice(&[9; 32]).unwrap();
        assert!(web_push_native::decrypt(body.clone(), &other, &auth.into()).is_err());
        assert!(web_push_native::decrypt(body, &ua_secret, &[0; 16].into()).is_err());
    }

    /// What the server sends reads on the device it was encrypted to; a message longer than a
    /// push service takes, or keys that are no device's, are refused before anything is sent.
    #[test]
    fn messages_are_encrypted_to_their_device_and_no_longer_than_a_push_service_takes() {
        let pusher = Pusher::new(config(), VapidKey::from_secret(&[3; 32]).unwrap()).unwrap();
        let ua_secret = p256::SecretKey::from_slice(&[5; 32]).unwrap();
        let phone = device("https://fcm.googleapis.com/fcm/send/abc:def");
        let most = vec![b'x'; MAX_PUSH_PLAINTEXT];
        let body = pusher.encrypted(&phone, &most).unwrap();
        assert_eq!(
            body.len(),
            MAX_PUSH_BODY,
            "the longest message fills a push body"
        );
        assert_eq!(
            web_push_native::decrypt(body, &ua_secret, &[1; 16].into()).unwrap(),
            most
        );
        let again = pusher.encrypted(&phone, b"hi").unwrap();
        assert_ne!(
            again[..16],
            pusher.encrypted(&phone, b"hi").unwrap()[..16],
            "a fresh salt each message"
        );
        let long = vec![b'x'; MAX_PUSH_PLAINTEXT + 1];
        assert_eq!(
            pusher.encrypted(&phone, &long),
            Err(EncryptError::TooLong(long.len()))
        );
        let short_key = Subscription {
            p256dh: URL_SAFE_NO_PAD.encode([4u8; 64]),
            ..phone.clone()
        };
        assert_eq!(
            pusher.encrypted(&short_key, b"hi"),
            Err(EncryptError::BadKeys)
        );
        let short_auth = Subscription {
            auth: URL_SAFE_NO_PAD.encode([1u8; 15]),
            ..phone
        };
        assert_eq!(
            pusher.encrypted(&short_auth, b"hi"),
            Err(EncryptError::BadKeys)
        );
    }
}
