//! Counts in words, singular for one: "1 port", "8 ports".

/// `n` followed by `one` or `many`.
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1u32, "port", "ports"), "1 port");
        assert_eq!(counted(0u32, "port", "ports"), "0 ports");
        assert_eq!(counted(8u32, "rack", "racks"), "8 racks");
    }
}
