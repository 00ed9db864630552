//! Hash maps seeded at random per map.

/// The maps of the as-built check and the hand-off files hash with foldhash rather than SipHash,
/// which costs more than the matching itself; seeded at random per map, so that a dump crafted
/// to collide cannot slow the check down.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
pub(crate) type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;
