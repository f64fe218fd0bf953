//! The server's identity to push services (VAPID, RFC 8292): a P-256 key pair whose public half
//! devices subscribe with, and a short-lived token (a JWT signed with ES256) naming the push
//! service's origin, a time it runs out and how to reach the operator, sent with every message.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::SecretKey;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};

use super::ece::{public_bytes, public_key};

/// How long a token works: twelve hours (RFC 8292 allows at most a day).
pub const TOKEN_SECONDS: i64 = 12 * 3600;

/// The server's VAPID key pair.
#[derive(Clone)]
pub struct VapidKey {
    secret: SecretKey,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret half.
        write!(f, "VapidKey({})", self.public_text())
    }
}

/// What a push service reads from a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claims {
    /// The push service's origin it is for.
    pub aud: String,
    /// When it runs out, in seconds since 1970.
    pub exp: i64,
    /// How to reach the operator (`mailto:` or `https:`).
    pub sub: String,
    /// The server's public key (base64url), as the header named it.
    pub key: String,
}

impl VapidKey {
    /// The key whose secret scalar is `bytes` (32, big-endian); `None` if they are no key.
    pub fn from_secret(bytes: &[u8]) -> Option<VapidKey> {
        SecretKey::from_slice(bytes)
            .ok()
            .map(|secret| VapidKey { secret })
    }

    /// A new key from the system's random source.
    pub fn generate() -> Result<VapidKey, crate::secret::NoRandomness> {
        loop {
            // All but about one in 2^32 of 256-bit strings are below the group's order.
            if let Some(key) = VapidKey::from_secret(&crate::secret::random_bytes::<32>()?) {
                return Ok(key);
            }
        }
    }

    /// The secret key itself (also the one-time key of a message, [`super::ece::encrypt_push`]).
    pub(crate) fn secret(&self) -> &SecretKey {
        &self.secret
    }

    /// The secret half as kept (base64url of the scalar).
    pub fn secret_text(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.secret.to_bytes())
    }

    /// The key as kept by [`VapidKey::secret_text`].
    pub fn from_secret_text(text: &str) -> Option<VapidKey> {
        VapidKey::from_secret(&URL_SAFE_NO_PAD.decode(text.trim()).ok()?)
    }

    /// The public half, base64url of the uncompressed point: what a page subscribes with
    /// (`applicationServerKey`) and every token names.
    pub fn public_text(&self) -> String {
        URL_SAFE_NO_PAD.encode(public_bytes(&self.secret.public_key()))
    }

    /// The `Authorization` header of a message to a push service at `origin`
    /// (`https://host[:port]`), running out at `exp` (seconds since 1970), with the operator's
    /// `contact`.
    pub fn authorization(&self, origin: &str, exp: i64, contact: &str) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({ "aud": origin, "exp": exp, "sub": contact });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let signature: Signature = SigningKey::from(&self.secret).sign(signed.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(signature.to_bytes());
        format!("vapid t={signed}.{signature}, k={}", self.public_text())
    }
}

/// Reads and checks an `Authorization: vapid t=…, k=…` header as a push service does: the
/// token signed by the key it names, for the algorithm ES256. What it claims is returned for
/// the caller to judge (its audience and time).
pub fn verify(authorization: &str) -> Result<Claims, String> {
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
    let verifying = VerifyingKey::from(public_key(&point).map_err(|e| e.to_string())?);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_signed_by_the_key_they_name() {
        let key = VapidKey::generate().unwrap();
        let header = key.authorization(
            "https://push.example.net",
            1_800_000_000,
            "mailto:ops@example.org",
        );
        let claims = verify(&header).unwrap();
        assert_eq!(
            claims,
            Claims {
                aud: "https://push.example.net".into(),
                exp: 1_800_000_000,
                sub: "mailto:ops@example.org".into(),
                key: key.public_text(),
            }
        );
        // The public key is an uncompressed P-256 point: 65 bytes, 87 characters.
        assert_eq!(key.public_text().len(), 87);
        // Kept and read back, the key is the same key.
        let again = VapidKey::from_secret_text(&key.secret_text()).unwrap();
        assert_eq!(again.public_text(), key.public_text());
        assert!(!format!("{key:?}").contains(&key.secret_text()));
        // Another key named beside the token, or altered claims, do not verify.
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
        assert!(VapidKey::from_secret(&[0; 32]).is_none());
    }
}
