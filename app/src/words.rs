//! Counts as a reader reads them: in thousands ("12,500"), and in words, singular for one
//! ("1 port", "8 ports").

/// `n` in thousands: "12,500".
pub fn number(n: impl Into<u64>) -> String {
    engine::thousands(n.into() as f64)
}

/// `n` followed by `one` or `many`.
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", number(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::{counted, number};

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1u32, "port", "ports"), "1 port");
        assert_eq!(counted(0u32, "port", "ports"), "0 ports");
        assert_eq!(counted(8u32, "rack", "racks"), "8 racks");
    }

    #[test]
    fn counts_from_a_thousand_are_grouped_in_thousands() {
        assert_eq!(number(999u32), "999");
        assert_eq!(number(12_500u32), "12,500");
        assert_eq!(counted(100_000u64, "GPU", "GPUs"), "100,000 GPUs");
    }
}
