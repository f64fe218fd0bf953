//! The server's identity to push services (VAPID, RFC 8292): a P-256 key pair whose public half
//! devices subscribe with, and a short-lived token (a JWT signed with ES256) naming the push
//! service's origin, a time it runs out and how to reach the operator, sent with every message.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};

/// How long a token works: twelve hours (RFC 8292 allows at most a day).
pub(super) const TOKEN_SECONDS: i64 = 12 * 3600;

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

/// The length of an uncompressed P-256 point, as devices give their keys.
const PUBLIC_KEY_BYTES: usize = 65;

/// A P-256 public key from its uncompressed bytes (as devices and tokens give them).
pub(super) fn public_key(bytes: &[u8]) -> Option<PublicKey> {
    if bytes.len() != PUBLIC_KEY_BYTES || bytes[0] != 4 {
        return None;
    }
    PublicKey::from_sec1_bytes(bytes).ok()
}

/// A public key's uncompressed bytes.
fn public_bytes(key: &PublicKey) -> Vec<u8> {
    key.to_encoded_point(false).as_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use p256::ecdsa::VerifyingKey;
    use p256::ecdsa::signature::Verifier;

    use super::*;

    /// The token's parts: the signed text, the claims as JSON, the signature, the key named.
    fn parts(header: &str) -> (String, serde_json::Value, Signature, String) {
        let rest = header.strip_prefix("vapid t=").unwrap();
        let (token, key) = rest.split_once(", k=").unwrap();
        let (signed, signature) = token.rsplit_once('.').unwrap();
        let claims = signed.split_once('.').unwrap().1;
        let claims = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).unwrap()).unwrap();
        let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
        (signed.to_owned(), claims, signature, key.to_owned())
    }

    #[test]
    fn tokens_are_signed_by_the_key_they_name() {
        let key = VapidKey::generate().unwrap();
        let header = key.authorization(
            "https://push.example.net",
            1_800_000_000,
            "mailto:ops@example.org",
        );
        let (signed, claims, signature, named) = parts(&header);
        assert_eq!(
            claims,
            serde_json::json!({
                "aud": "https://push.example.net",
                "exp": 1_800_000_000,
                "sub": "mailto:ops@example.org",
            })
        );
        assert_eq!(named, key.public_text());
        let point = public_key(&URL_SAFE_NO_PAD.decode(&named).unwrap()).unwrap();
        let verifying = VerifyingKey::from(point);
        assert!(verifying.verify(signed.as_bytes(), &signature).is_ok());
        let other = VapidKey::generate().unwrap();
        let other = public_key(&URL_SAFE_NO_PAD.decode(other.public_text()).unwrap()).unwrap();
        assert!(
            VerifyingKey::from(other)
                .verify(signed.as_bytes(), &signature)
                .is_err(),
            "another key does not verify it"
        );
        // The public key is an uncompressed P-256 point: 65 bytes, 87 characters.
        assert_eq!(key.public_text().len(), 87);
        // Kept and read back, the key is the same key.
        let again = VapidKey::from_secret_text(&key.secret_text()).unwrap();
        assert_eq!(again.public_text(), key.public_text());
        assert!(!format!("{key:?}").contains(&key.secret_text()));
        assert!(VapidKey::from_secret(&[0; 32]).is_none());
        // A device's key is a point of P-256, uncompressed.
        let bytes = URL_SAFE_NO_PAD.decode(key.public_text()).unwrap();
        assert!(public_key(&bytes[..64]).is_none());
        let mut off_curve = bytes.clone();
        off_curve[64] ^= 1;
        assert!(public_key(&off_curve).is_none());
    }
}
