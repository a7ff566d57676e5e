//! The textual form of a principal: `base32(crc32_be(bytes) ++ bytes)`, lowercase, no padding,
//! in dash-separated groups of 5 (e.g. `aaaaa-aa` for the management canister).
//!
//! The `candid` crate's `Principal::to_text` writes the same, but only for at most 29 bytes
//! (it refuses longer ones); a heap's principal blob can be any length, so the heap renderer
//! and the script engine use this one, checked against `candid`'s up to 29 bytes.

/// The textual form of the principal with raw bytes `bytes`.
pub fn principal_text(bytes: &[u8]) -> String {
    let crc = crc32fast::hash(bytes);
    let mut data = Vec::with_capacity(bytes.len() + 4);
    data.extend_from_slice(&crc.to_be_bytes());
    data.extend_from_slice(bytes);
    let enc = base32::encode(base32::Alphabet::Rfc4648 { padding: false }, &data).to_lowercase();
    let mut out = String::with_capacity(enc.len() + enc.len() / 5);
    for (i, c) in enc.chars().enumerate() {
        if i > 0 && i % 5 == 0 {
            out.push('-');
        }
        out.push(c);
    }
    out
}

/// The raw bytes of the principal whose textual form is `text`, when `text` is exactly
/// that form (the canonical groups, lowercase, a matching checksum); `None` otherwise.
pub fn principal_from_text(text: &str) -> Option<Vec<u8>> {
    if text.len() > 255
        || !text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return None;
    }
    let compact: String = text
        .chars()
        .filter(|c| *c != '-')
        .collect::<String>()
        .to_uppercase();
    let data = base32::decode(base32::Alphabet::Rfc4648 { padding: false }, &compact)?;
    let bytes = data.get(4..)?.to_vec();
    (principal_text(&bytes) == text).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::{principal_from_text, principal_text};

    #[test]
    fn texts_read_back_to_their_principals() {
        let mut rng = fastrand::Rng::with_seed(7);
        for len in 0..=33usize {
            let bytes: Vec<u8> = (0..len).map(|_| rng.u8(..)).collect();
            let text = principal_text(&bytes);
            assert_eq!(principal_from_text(&text), Some(bytes), "{text}");
            assert_eq!(principal_from_text(&text.to_uppercase()), None);
            assert_eq!(principal_from_text(&text.replace('-', "")), None);
        }
        assert_eq!(principal_from_text("aaaaa-aa"), Some(Vec::new()));
        // A wrong checksum, an empty text, other characters.
        assert_eq!(principal_from_text("aaaaa-ab"), None);
        assert_eq!(principal_from_text(""), None);
        assert_eq!(principal_from_text("2vxsx-fae/"), None);
    }

    #[test]
    fn known_principals() {
        assert_eq!(principal_text(&[]), "aaaaa-aa");
        assert_eq!(principal_text(&[4]), "2vxsx-fae");
        assert_eq!(
            principal_text(&[0, 0, 0, 0, 0, 0, 0, 1, 1, 1]),
            "rrkah-fqaaa-aaaaa-aaaaq-cai"
        );
    }

    #[test]
    fn the_same_text_as_candid_up_to_29_bytes() {
        let mut rng = fastrand::Rng::with_seed(29);
        for len in 0..=29usize {
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..len).map(|_| rng.u8(..)).collect();
                let candid = candid::Principal::try_from_slice(&bytes).expect("at most 29 bytes");
                assert_eq!(principal_text(&bytes), candid.to_text(), "{bytes:?}");
            }
        }
    }
}
