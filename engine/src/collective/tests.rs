//! The closed forms of the alpha-beta model and NCCL's latency terms.

use super::*;
use crate::units::BitRate;
use crate::units::Micros;

fn nic(gbps: f64) -> ByteRate {
    BitRate::gbps(gbps).to_byte_rate()
}

/// 16 nodes × 8 H100 at line rate: NVLink 450 GB/s per GPU, `nics` NICs of `gbps` per node.
fn sixteen_nodes(nics: f64, gbps: f64, ranks_per_node: u32) -> Group {
    Group {
        ranks: 16 * ranks_per_node,
        nodes: 16,
        scale_up: ByteRate::gigabytes_per_second(450.0),
        node_network: nic(gbps) * nics,
        latencies: Latencies::NONE,
        crossing: Crossing::NONE,
    }
}

// Closed forms of the sizing-engine issue: 1 GiB over 128 GPUs, one NIC per GPU, a flat ring
// in which every hop is a network hop: 2·127/128·2^30 B / 50 GB/s = 42.61 ms.
#[test]
fn a_flat_ring_allreduce_of_one_gib_over_128_gpus_takes_42_61_ms_at_400g_and_170_46_at_100g() {
    for (gbps, ms) in [(400.0, 42.61), (100.0, 170.46)] {
        let flat = Group {
            ranks: 128,
            nodes: 128,
            scale_up: nic(gbps),
            node_network: nic(gbps),
            latencies: Latencies::NONE,
            crossing: Crossing::NONE,
        };
        let cost = ring_allreduce(&flat, Bytes::gibibytes(1.0));
        assert!(
            (cost.time().as_millis() - ms).abs() < 0.005,
            "{gbps}G: {:?}",
            cost
        );
    }
}

// The same AllReduce with all 8 NICs of a node in the ring: bus bandwidth = min(NVLink,
// 8 × NIC) = 400 GB/s at 400G, 100 GB/s at 100G: 5.33 / 21.31 ms.
#[test]
fn a_ring_over_all_eight_nics_of_each_node_takes_5_33_ms_at_400g_and_21_31_at_100g() {
    for (gbps, ms) in [(400.0, 5.33), (100.0, 21.31)] {
        let cost = allreduce(&sixteen_nodes(8.0, gbps, 8), Bytes::gibibytes(1.0));
        assert_eq!(cost.algorithm, Algorithm::Ring);
        assert!(
            (cost.time().as_millis() - ms).abs() < 0.005,
            "{gbps}G: {:?}",
            cost
        );
    }
}

#[test]
fn ring_latency_follows_nccl_tuning() {
    let mut group = sixteen_nodes(8.0, 400.0, 8);
    group.latencies = Latencies {
        base_us: Micros::new(8.4),
        scale_up_hop_us: Micros::new(3.4),
        network_hop_us: Micros::new(17.0),
    };
    // 8.4 + (254 − 30)·3.4 + 30·17 = 1280 µs, times the 1.4 plateau factor.
    let cost = ring_allreduce(&group, Bytes::gibibytes(1.0));
    assert!((cost.latency_time.as_micros() - 1280.0 * 1.4).abs() < 1e-6);
}

#[test]
fn small_messages_over_few_slow_nodes_go_hierarchical() {
    // 4 nodes × 8 GPUs, one 25G port per node: reducing inside the node first sends
    // 2·3/4·S per node instead of the ring's 2·31/32·S.
    let group = Group {
        ranks: 32,
        nodes: 4,
        scale_up: ByteRate::gigabytes_per_second(370.0),
        node_network: nic(25.0),
        latencies: Latencies::NONE,
        crossing: Crossing::NONE,
    };
    let cost = allreduce(&group, Bytes::new(4.0e6));
    assert_eq!(cost.algorithm, Algorithm::Hierarchical);
    assert_eq!(cost.network_bytes_per_node, Bytes::new(6.0e6));
}

#[test]
fn an_infinitely_fast_network_leaves_only_the_nvlink_time() {
    let mut group = sixteen_nodes(8.0, 400.0, 8);
    group.node_network = ByteRate::new(f64::INFINITY);
    let cost = allreduce(&group, Bytes::gibibytes(1.0));
    // Reduce-scatter and all-gather inside the node: 2·7/8·S over NVLink, nothing else.
    let nvlink_only = 2.0 * 7.0 / 8.0 * 1.073741824 / 450.0;
    assert_eq!(cost.algorithm, Algorithm::Hierarchical);
    assert!((cost.time().seconds() - nvlink_only).abs() < 1e-12);
}

#[test]
fn a_small_allreduce_over_many_nodes_takes_the_tree_for_its_log_latency() {
    let group = Group {
        ranks: 256,
        nodes: 256,
        scale_up: nic(400.0),
        node_network: nic(400.0),
        latencies: Latencies {
            base_us: Micros::new(8.4),
            scale_up_hop_us: Micros::new(3.4),
            network_hop_us: Micros::new(17.0),
        },
        crossing: Crossing::NONE,
    };
    let cost = allreduce(&group, Bytes::new(64.0 * 1024.0));
    assert_eq!(cost.algorithm, Algorithm::Tree);
    // 8.4 + 2·8·17 µs of latency instead of the ring's 1.4 × (8.4 + 510·17).
    assert!((cost.latency_time.as_micros() - (8.4 + 2.0 * 8.0 * 17.0)).abs() < 1e-9);
}

#[test]
fn large_messages_stay_on_the_ring() {
    let cost = allreduce(&sixteen_nodes(1.0, 400.0, 1), Bytes::gibibytes(1.0));
    assert_eq!(cost.algorithm, Algorithm::Ring);
}

#[test]
fn a_single_rank_moves_nothing() {
    let mut group = sixteen_nodes(8.0, 400.0, 8);
    group.ranks = 1;
    group.nodes = 1;
    assert_eq!(allreduce(&group, Bytes::new(1e9)).time(), Seconds::new(0.0));
    assert_eq!(
        all_to_all(&group, Bytes::new(1e9)).time(),
        Seconds::new(0.0)
    );
}
