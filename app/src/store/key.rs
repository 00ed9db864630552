//! The secret that lets a browser change a design. Only its SHA-256 is stored: a leaked
//! database does not let anyone edit. The key has 160 random bits, so a plain hash (no salt or
//! stretching) is as strong as the key itself.

use sha2::{Digest, Sha256};

/// An edit key: 160 random bits as 32 lowercase base32 characters.
#[derive(Clone, PartialEq, Eq)]
pub struct EditKey(String);

const RANDOM_BYTES: usize = 20;
const LENGTH: usize = RANDOM_BYTES * 8 / 5;

impl EditKey {
    pub fn random() -> EditKey {
        let mut bytes = [0u8; RANDOM_BYTES];
        getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
        EditKey(super::id::base32(&bytes))
    }

    /// A key as it appears in an edit link or cookie, or `None` if it cannot be one of ours.
    pub fn parse(text: &str) -> Option<EditKey> {
        (text.len() == LENGTH && super::id::is_base32(text)).then(|| EditKey(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the store keeps: the SHA-256 of the key, in hex.
    pub fn hash(&self) -> String {
        Sha256::digest(self.0.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// Never printed in logs by accident.
impl std::fmt::Debug for EditKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EditKey(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_has_160_bits_in_32_characters_and_parses_back() {
        let key = EditKey::random();
        assert_eq!(key.as_str().len(), 32);
        assert_eq!(EditKey::parse(key.as_str()), Some(key));
    }

    #[test]
    fn the_stored_hash_is_sha256_of_the_key() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1, applied to a key-shaped text.
        let key = EditKey("abc".into());
        assert_eq!(
            key.hash(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn the_key_never_appears_in_debug_output() {
        let key = EditKey::random();
        assert!(!format!("{key:?}").contains(key.as_str()));
    }

    #[test]
    fn text_that_is_not_a_key_is_refused() {
        assert_eq!(EditKey::parse("short"), None);
        assert_eq!(EditKey::parse(&"A".repeat(32)), None);
        assert_eq!(EditKey::parse("' OR 1=1 --aaaaaaaaaaaaaaaaaaaaa"), None);
    }
}
