//! Alpha-beta cost models of collectives [DOMAIN.md A1, A2].

use crate::units::{ByteRate, Bytes, Seconds};

/// NCCL's latency constants for the Simple protocol, in microseconds
/// [NCCL src/graph/tuning.cc, HEAD 5067397; DOMAIN.md A2].
pub mod nccl_latency {
    /// Base latency of a ring collective.
    pub const RING_BASE_US: f64 = 8.4;
    /// Per-step latency of a hop over NVLink.
    pub const NVLINK_RING_US: f64 = 3.4;
    /// Per-step latency of a hop over the network, plus the per-step network overhead of
    /// 1 µs (Intel hosts) times 3 for the Simple protocol.
    pub const NET_RING_US: f64 = 14.0 + 3.0;
    /// Multi-node large-message rings pay 1.4x latency on compute capability >= 8.0
    /// ("plateau effect of ring").
    pub const RING_PLATEAU_FACTOR: f64 = 1.4;
}

/// Time and volume of one collective.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollectiveCost {
    /// Bytes each rank sends on the wire.
    pub wire_bytes_per_rank: Bytes,
    /// The bandwidth term: wire bytes over the per-rank link rate.
    pub bandwidth_time: Seconds,
    /// The latency term (alpha), NCCL-like.
    pub latency_time: Seconds,
}

impl CollectiveCost {
    pub fn total(&self) -> Seconds {
        self.bandwidth_time + self.latency_time
    }
}

/// Ring AllReduce of `message` over `ranks` ranks spread over `nodes` nodes, each rank with
/// `link` of bandwidth: 2(n−1)/n·S/B plus NCCL's ring latency
/// `base + (nsteps − nInter)·intraLat + nInter·interLat`, nsteps = 2(n−1), nInter = 2(k−1).
pub fn ring_allreduce(ranks: u32, nodes: u32, message: Bytes, link: ByteRate) -> CollectiveCost {
    use nccl_latency::*;
    if ranks <= 1 {
        return CollectiveCost {
            wire_bytes_per_rank: Bytes(0.0),
            bandwidth_time: Seconds(0.0),
            latency_time: Seconds(0.0),
        };
    }
    let n = f64::from(ranks);
    let wire_bytes_per_rank = message * (2.0 * (n - 1.0) / n);
    let steps = 2.0 * (n - 1.0);
    let inter_node_steps = 2.0 * (f64::from(nodes.max(1)) - 1.0);
    let mut latency_us =
        RING_BASE_US + (steps - inter_node_steps) * NVLINK_RING_US + inter_node_steps * NET_RING_US;
    if nodes > 1 {
        latency_us *= RING_PLATEAU_FACTOR;
    }
    CollectiveCost {
        wire_bytes_per_rank,
        bandwidth_time: wire_bytes_per_rank / link,
        latency_time: Seconds::from_micros(latency_us),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::BitRate;

    // Closed forms from the sizing-engine issue: 1 GiB over 128 GPUs (16 nodes x 8), one NIC
    // per GPU, flat ring: 2·127/128·2^30 B / (400 Gb/s / 8) = 42.61 ms.
    #[test]
    fn ring_allreduce_of_one_gib_over_128_gpus_at_400g_takes_42_61_ms_of_bandwidth_time() {
        let cost = ring_allreduce(
            128,
            16,
            Bytes::gibibytes(1.0),
            BitRate::gbps(400.0).to_byte_rate(),
        );
        assert!(
            (cost.bandwidth_time.as_millis() - 42.61).abs() < 0.005,
            "{:?}",
            cost
        );
    }

    #[test]
    fn ring_allreduce_of_one_gib_over_128_gpus_at_100g_takes_170_46_ms_of_bandwidth_time() {
        let cost = ring_allreduce(
            128,
            16,
            Bytes::gibibytes(1.0),
            BitRate::gbps(100.0).to_byte_rate(),
        );
        assert!(
            (cost.bandwidth_time.as_millis() - 170.46).abs() < 0.005,
            "{:?}",
            cost
        );
    }

    #[test]
    fn ring_latency_follows_nccl_tuning_for_sixteen_nodes() {
        // 8.4 + (254 − 30)·3.4 + 30·17 = 1280 µs, times the 1.4 plateau factor.
        let cost = ring_allreduce(
            128,
            16,
            Bytes::gibibytes(1.0),
            ByteRate::gigabytes_per_second(50.0),
        );
        assert!((cost.latency_time.as_micros() - 1280.0 * 1.4).abs() < 1e-6);
    }

    #[test]
    fn a_single_rank_moves_nothing() {
        let cost = ring_allreduce(
            1,
            1,
            Bytes::gigabytes(1.0),
            ByteRate::gigabytes_per_second(1.0),
        );
        assert_eq!(cost.total(), Seconds(0.0));
    }
}
