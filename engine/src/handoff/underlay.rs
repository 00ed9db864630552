//! The routed underlay of an Ethernet fabric, one plan whatever the switches' configuration
//! format: eBGP on every fabric link [RFC 7938], each leaf its own private 4-byte AS, the spines
//! one AS and the cores another, so that any size keeps every leaf its own AS [RFC 6996], and
//! one loopback per switch from 10.255.0.0 (cores, then spines, then leaves).

/// The AS of every core switch.
pub const CORE_AS: u64 = 4_200_000_000;
/// The AS of every spine switch.
pub const SPINE_AS: u64 = 4_200_000_001;

/// The AS of the `i`-th leaf, from 0.
pub fn leaf_as(i: usize) -> u64 {
    4_200_001_000 + i as u64 + 1
}

/// The loopback pool: 10.255.0.0 with a prefix that holds `switches` addresses and room for two
/// more, at most a /24's worth of prefix bits taken.
pub fn loopback_pool(switches: usize) -> String {
    format!("10.255.0.0/{}", prefix_for(switches as u64 + 2).min(24))
}

/// The loopback of the `k`-th switch from 0 in the order cores, spines, leaves: the pool's
/// address `k + 1`.
pub fn loopback(k: usize) -> String {
    let host = k as u64 + 1;
    format!("10.255.{}.{}", (host >> 8) & 0xff, host & 0xff)
}

/// The smallest prefix holding `addresses` addresses.
pub fn prefix_for(addresses: u64) -> u32 {
    let bits = 64 - addresses.max(2).saturating_sub(1).leading_zeros();
    32u32.saturating_sub(bits).max(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopbacks_count_from_the_pool_s_first_address_and_cross_octets() {
        assert_eq!(loopback(0), "10.255.0.1");
        assert_eq!(loopback(254), "10.255.0.255");
        assert_eq!(loopback(255), "10.255.1.0");
        assert_eq!(loopback_pool(10), "10.255.0.0/24");
        assert_eq!(loopback_pool(300), "10.255.0.0/23");
        assert_eq!(prefix_for(2), 31);
        assert_eq!(prefix_for(256), 24);
    }

    #[test]
    fn every_leaf_has_its_own_as_apart_from_the_spines_and_cores() {
        assert_ne!(leaf_as(0), leaf_as(1));
        assert!(leaf_as(0) > SPINE_AS && SPINE_AS > CORE_AS);
        assert!(leaf_as(100_000) < u64::from(u32::MAX));
    }
}
