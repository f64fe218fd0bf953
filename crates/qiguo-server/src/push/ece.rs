//! Encrypted content for Web Push: the `aes128gcm` content coding (RFC 8188) and the keys Web
//! Push derives for it from an ECDH exchange with the device and its authentication secret
//! (RFC 8291).
//!
//! The server encrypts each message to one device in a single record with a fresh key pair and
//! salt ([`encrypt_push`]). The decrypting halves ([`decrypt`], [`decrypt_push`]) read any
//! number of records and their padding, as a browser does; the tests' push service uses them.

use aes_gcm::aead::AeadInPlace;
use aes_gcm::{Aes128Gcm, KeyInit, Nonce};
use hkdf::Hkdf;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// The record size the server writes: RFC 8291's (and the push services') 4,096 bytes.
pub const RECORD_SIZE: u32 = 4096;

/// The header of a Web Push message: salt, record size, the key id's length and the sender's
/// public key (65 bytes).
pub const PUSH_HEADER_BYTES: usize = 16 + 4 + 1 + 65;

/// The longest message [`encrypt_push`] takes: one record of [`RECORD_SIZE`] less its
/// delimiter and tag, and the header (the push services take at most 4,096 bytes in all).
pub const MAX_PUSH_PLAINTEXT: usize = RECORD_SIZE as usize - PUSH_HEADER_BYTES - 1 - 16;

/// The length of an uncompressed P-256 point, as devices give their keys.
pub const PUBLIC_KEY_BYTES: usize = 65;

/// Why a message could not be encrypted or decrypted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EceError {
    /// The message is longer than one record holds.
    #[error("the message is {0} bytes; at most {MAX_PUSH_PLAINTEXT} fit")]
    TooLong(usize),
    /// A key is not a point of P-256, or of the wrong length.
    #[error("not a P-256 public key")]
    BadKey,
    /// The header is cut short or names an impossible record size.
    #[error("the header is not one of aes128gcm")]
    BadHeader,
    /// A record did not decrypt: a wrong key, or altered bytes.
    #[error("a record did not decrypt")]
    Unauthentic,
    /// A record's padding or delimiter is not as RFC 8188 writes them.
    #[error("a record's padding is wrong")]
    BadPadding,
}

/// The content-encryption key and nonce base of `ikm` with `salt` (RFC 8188, section 2.2-2.3).
fn content_keys(ikm: &[u8], salt: &[u8]) -> ([u8; 16], [u8; 12]) {
    let hk = Hkdf::<Sha256>::new(Some(salt), ikm);
    let mut cek = [0; 16];
    let mut nonce = [0; 12];
    // Lengths of 16 and 12 are always within HKDF-SHA-256's limit.
    let _ = hk.expand(b"Content-Encoding: aes128gcm\0", &mut cek);
    let _ = hk.expand(b"Content-Encoding: nonce\0", &mut nonce);
    (cek, nonce)
}

/// The nonce of record `seq`: the base with the sequence number XORed into its last bytes.
fn record_nonce(base: &[u8; 12], seq: u64) -> [u8; 12] {
    let mut nonce = *base;
    for (n, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
        *n ^= s;
    }
    nonce
}

/// `plaintext` in the `aes128gcm` coding as one record of at most `record_size` bytes, with
/// `keyid` in the header, under the input keying material `ikm` and `salt`.
pub fn encrypt(
    ikm: &[u8],
    salt: &[u8; 16],
    keyid: &[u8],
    plaintext: &[u8],
    record_size: u32,
) -> Result<Vec<u8>, EceError> {
    let room = (record_size as usize).saturating_sub(17);
    if plaintext.len() > room || keyid.len() > 255 {
        return Err(EceError::TooLong(plaintext.len()));
    }
    let (cek, nonce) = content_keys(ikm, salt);
    let mut record = Vec::with_capacity(plaintext.len() + 17);
    record.extend_from_slice(plaintext);
    // The last record's delimiter, and no padding.
    record.push(2);
    Aes128Gcm::new(&cek.into())
        .encrypt_in_place(Nonce::from_slice(&nonce), b"", &mut record)
        .map_err(|_| EceError::TooLong(plaintext.len()))?;
    let mut out = Vec::with_capacity(21 + keyid.len() + record.len());
    out.extend_from_slice(salt);
    out.extend_from_slice(&record_size.to_be_bytes());
    out.push(keyid.len() as u8);
    out.extend_from_slice(keyid);
    out.extend_from_slice(&record);
    Ok(out)
}

/// The header of an `aes128gcm` body: its salt, record size and key id, and the records.
fn header(body: &[u8]) -> Result<(&[u8], u32, &[u8], &[u8]), EceError> {
    if body.len() < 21 {
        return Err(EceError::BadHeader);
    }
    let salt = &body[..16];
    let rs = u32::from_be_bytes([body[16], body[17], body[18], body[19]]);
    let idlen = usize::from(body[20]);
    if rs < 18 || body.len() < 21 + idlen {
        return Err(EceError::BadHeader);
    }
    Ok((salt, rs, &body[21..21 + idlen], &body[21 + idlen..]))
}

/// Decrypts an `aes128gcm` body whose input keying material `ikm_for` gives for its key id:
/// every record, their padding taken off.
pub fn decrypt(body: &[u8], ikm_for: impl FnOnce(&[u8]) -> Vec<u8>) -> Result<Vec<u8>, EceError> {
    let (salt, rs, keyid, records) = header(body)?;
    let (cek, base) = content_keys(&ikm_for(keyid), salt);
    let cipher = Aes128Gcm::new(&cek.into());
    let mut out = Vec::new();
    let chunks: Vec<&[u8]> = records.chunks(rs as usize).collect();
    if chunks.is_empty() {
        return Err(EceError::BadHeader);
    }
    for (seq, chunk) in chunks.iter().enumerate() {
        let last = seq + 1 == chunks.len();
        if chunk.len() < 17 {
            return Err(EceError::Unauthentic);
        }
        let mut record = chunk.to_vec();
        let nonce = record_nonce(&base, seq as u64);
        cipher
            .decrypt_in_place(Nonce::from_slice(&nonce), b"", &mut record)
            .map_err(|_| EceError::Unauthentic)?;
        let end = record
            .iter()
            .rposition(|&b| b != 0)
            .ok_or(EceError::BadPadding)?;
        match (record[end], last) {
            (2, true) | (1, false) => out.extend_from_slice(&record[..end]),
            _ => return Err(EceError::BadPadding),
        }
    }
    Ok(out)
}

/// The input keying material of a Web Push message (RFC 8291, section 3.4): from the ECDH
/// secret, the device's authentication secret and both public keys.
fn push_ikm(
    ecdh_secret: &[u8],
    auth: &[u8],
    ua_public: &[u8],
    as_public: &[u8],
) -> Result<[u8; 32], EceError> {
    let hk = Hkdf::<Sha256>::new(Some(auth), ecdh_secret);
    let mut info = Vec::with_capacity(14 + 2 * PUBLIC_KEY_BYTES);
    info.extend_from_slice(b"WebPush: info\0");
    info.extend_from_slice(ua_public);
    info.extend_from_slice(as_public);
    let mut ikm = [0; 32];
    hk.expand(&info, &mut ikm).map_err(|_| EceError::BadKey)?;
    Ok(ikm)
}

/// A P-256 public key from its uncompressed bytes.
pub fn public_key(bytes: &[u8]) -> Result<PublicKey, EceError> {
    if bytes.len() != PUBLIC_KEY_BYTES || bytes[0] != 4 {
        return Err(EceError::BadKey);
    }
    PublicKey::from_sec1_bytes(bytes).map_err(|_| EceError::BadKey)
}

/// A public key's uncompressed bytes.
pub fn public_bytes(key: &PublicKey) -> Vec<u8> {
    key.to_encoded_point(false).as_bytes().to_vec()
}

/// `plaintext` encrypted for the device whose key is `ua_public` (65 bytes) and authentication
/// secret `auth`, with the sender's one-time key `as_secret` and `salt` (both fresh for every
/// message, [`super::fresh`]): the body of the push request.
pub fn encrypt_push(
    plaintext: &[u8],
    ua_public: &[u8],
    auth: &[u8],
    as_secret: &SecretKey,
    salt: &[u8; 16],
) -> Result<Vec<u8>, EceError> {
    if plaintext.len() > MAX_PUSH_PLAINTEXT {
        return Err(EceError::TooLong(plaintext.len()));
    }
    let device = public_key(ua_public)?;
    let shared = p256::ecdh::diffie_hellman(as_secret.to_nonzero_scalar(), device.as_affine());
    let as_public = public_bytes(&as_secret.public_key());
    let ikm = push_ikm(shared.raw_secret_bytes(), auth, ua_public, &as_public)?;
    encrypt(&ikm, salt, &as_public, plaintext, RECORD_SIZE)
}

/// A Web Push body decrypted by the device that holds `ua_secret` and `auth`.
pub fn decrypt_push(body: &[u8], ua_secret: &SecretKey, auth: &[u8]) -> Result<Vec<u8>, EceError> {
    let (_, _, keyid, _) = header(body)?;
    let sender = public_key(keyid)?;
    let shared = p256::ecdh::diffie_hellman(ua_secret.to_nonzero_scalar(), sender.as_affine());
    let ua_public = public_bytes(&ua_secret.public_key());
    let ikm = push_ikm(shared.raw_secret_bytes(), auth, &ua_public, keyid)?;
    decrypt(body, |_| ikm.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    fn b64(text: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(text).expect("base64url")
    }

    fn salt(text: &str) -> [u8; 16] {
        b64(text).try_into().expect("16 bytes")
    }

    /// RFC 8188, section 3.1: one record, no key id.
    #[test]
    fn rfc_8188_one_record() {
        let ikm = b64("yqdlZ-tYemfogSmv7Ws5PQ");
        let body = b64("I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg");
        let (cek, nonce) = content_keys(&ikm, &salt("I1BsxtFttlv3u_Oo94xnmw"));
        assert_eq!(cek.to_vec(), b64("_wniytB-ofscZDh4tbSjHw"));
        assert_eq!(nonce.to_vec(), b64("Bcs8gkIRKLI8GeI8"));
        let made = encrypt(
            &ikm,
            &salt("I1BsxtFttlv3u_Oo94xnmw"),
            b"",
            b"I am the walrus",
            4096,
        )
        .unwrap();
        assert_eq!(made, body);
        assert_eq!(decrypt(&body, |_| ikm.clone()).unwrap(), b"I am the walrus");
    }

    /// RFC 8188, section 3.2: two records of 25 bytes, padding, and the key id "a1".
    #[test]
    fn rfc_8188_two_records_and_a_key_id() {
        let body = b64(
            "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA",
        );
        let mut asked = Vec::new();
        let plain = decrypt(&body, |id| {
            asked = id.to_vec();
            b64("BO3ZVPxUlnLORbVGMpbT1Q")
        })
        .unwrap();
        assert_eq!(asked, b"a1");
        assert_eq!(plain, b"I am the walrus");
        // A flipped bit anywhere in a record, or the wrong key, does not decrypt.
        let mut altered = body.clone();
        let last = altered.len() - 1;
        altered[last] ^= 1;
        assert_eq!(
            decrypt(&altered, |_| b64("BO3ZVPxUlnLORbVGMpbT1Q")),
            Err(EceError::Unauthentic)
        );
        assert_eq!(
            decrypt(&body, |_| b64("yqdlZ-tYemfogSmv7Ws5PQ")),
            Err(EceError::Unauthentic)
        );
        assert_eq!(
            decrypt(&body[..20], |_| Vec::new()),
            Err(EceError::BadHeader)
        );
    }

    /// RFC 8291, section 5 and appendix A: the whole message, byte for byte.
    #[test]
    fn rfc_8291_message() {
        let as_secret =
            SecretKey::from_slice(&b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")).unwrap();
        assert_eq!(
            public_bytes(&as_secret.public_key()),
            b64(
                "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
            )
        );
        let ua_secret =
            SecretKey::from_slice(&b64("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")).unwrap();
        let ua_public = b64(
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        );
        assert_eq!(public_bytes(&ua_secret.public_key()), ua_public);
        let auth = b64("BTBZMqHH6r4Tts7J_aSIgg");
        let plain = b"When I grow up, I want to be a watermelon";
        let body = encrypt_push(
            plain,
            &ua_public,
            &auth,
            &as_secret,
            &salt("DGv6ra1nlYgDCS1FRnbzlw"),
        )
        .unwrap();
        assert_eq!(
            body,
            b64(
                "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
            )
        );
        assert_eq!(decrypt_push(&body, &ua_secret, &auth).unwrap(), plain);
        // Another device's secret, or another authentication secret, reads nothing.
        assert_eq!(
            decrypt_push(&body, &as_secret, &auth),
            Err(EceError::Unauthentic)
        );
        assert_eq!(
            decrypt_push(&body, &ua_secret, &[0; 16]),
            Err(EceError::Unauthentic)
        );
    }

    #[test]
    fn too_long_messages_and_bad_keys_are_refused() {
        let secret = SecretKey::from_slice(&[7; 32]).unwrap();
        let device = public_bytes(&SecretKey::from_slice(&[9; 32]).unwrap().public_key());
        let long = vec![b'x'; MAX_PUSH_PLAINTEXT + 1];
        assert_eq!(
            encrypt_push(&long, &device, &[1; 16], &secret, &[0; 16]),
            Err(EceError::TooLong(long.len()))
        );
        let most = encrypt_push(&long[1..], &device, &[1; 16], &secret, &[0; 16]).unwrap();
        assert_eq!(most.len(), RECORD_SIZE as usize);
        assert_eq!(
            encrypt_push(b"hi", &device[..64], &[1; 16], &secret, &[0; 16]),
            Err(EceError::BadKey)
        );
        let mut off_curve = device.clone();
        off_curve[64] ^= 1;
        assert_eq!(
            encrypt_push(b"hi", &off_curve, &[1; 16], &secret, &[0; 16]),
            Err(EceError::BadKey)
        );
    }
}
