/// A design's public id: 120 random bits, written as 24 lowercase base32 characters
/// (RFC 4648 alphabet). Unguessable, and safe in a URL path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DesignId(String);

const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
const RANDOM_BYTES: usize = 15;
const LENGTH: usize = RANDOM_BYTES * 8 / 5;

impl DesignId {
    pub fn random() -> DesignId {
        let mut bytes = [0u8; RANDOM_BYTES];
        // The operating system's generator; failing it is not recoverable for a server.
        getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
        DesignId(base32(&bytes))
    }

    /// An id as it appears in a link, or `None` if it cannot be one of ours.
    pub fn parse(text: &str) -> Option<DesignId> {
        (text.len() == LENGTH && is_base32(text)).then(|| DesignId(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether every character of `text` is in the lowercase base32 alphabet.
pub(super) fn is_base32(text: &str) -> bool {
    text.bytes().all(|b| ALPHABET.contains(&b))
}

/// RFC 4648 base32 of a whole number of 5-byte groups, lowercase, no padding needed.
pub(super) fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 8 / 5);
    for group in bytes.chunks(5) {
        let mut buffer = [0u8; 5];
        buffer[..group.len()].copy_from_slice(group);
        let bits = buffer
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        for i in (0..8).rev() {
            out.push(ALPHABET[((bits >> (i * 5)) & 31) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_id_has_120_bits_in_24_characters_and_parses_back() {
        let id = DesignId::random();
        assert_eq!(id.as_str().len(), 24);
        assert_eq!(DesignId::parse(id.as_str()), Some(id));
    }

    #[test]
    fn two_random_ids_differ() {
        assert_ne!(DesignId::random(), DesignId::random());
    }

    #[test]
    fn base32_matches_rfc_4648() {
        // RFC 4648 test vector "fooba" -> "MZXW6YTB".
        assert_eq!(base32(b"fooba"), "mzxw6ytb");
    }

    #[test]
    fn text_that_is_not_an_id_is_refused() {
        assert_eq!(DesignId::parse("../../etc/passwd"), None);
        assert_eq!(DesignId::parse("ABCDEFGHIJKLMNOPQRSTUVWX"), None);
        assert_eq!(DesignId::parse(""), None);
    }
}
