//! Alpha-beta cost models of collectives [DOMAIN.md A1-A3].
//!
//! Bandwidths are per rank and already calibrated (achievable, not line rate). A rate of
//! infinity models an ideal network, which is how "slowdown against an ideal fabric" is computed.

use crate::tuning::Protocol;
use crate::units::{ByteRate, Bytes, Seconds};

/// NCCL-like latencies of one collective, in microseconds [NCCL src/graph/tuning.cc].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Latencies {
    pub base_us: f64,
    /// Per step over the scale-up domain (NVLink).
    pub scale_up_hop_us: f64,
    /// Per step over the network.
    pub network_hop_us: f64,
}

impl Latencies {
    pub const NONE: Latencies = Latencies {
        base_us: 0.0,
        scale_up_hop_us: 0.0,
        network_hop_us: 0.0,
    };
}

/// Multi-node large-message rings pay 1.4x latency on compute capability >= 8.0
/// ("plateau effect of ring") [NCCL tuning.cc; DOMAIN.md A2].
pub const RING_PLATEAU_FACTOR: f64 = 1.4;

/// The ranks of one collective and what they can use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Group {
    pub ranks: u32,
    /// Nodes the ranks span (ranks are spread evenly).
    pub nodes: u32,
    /// Scale-up bandwidth per rank inside a node.
    pub scale_up: ByteRate,
    /// Network bandwidth each node gives this group (all its ranks together).
    pub node_network: ByteRate,
    pub latencies: Latencies,
}

impl Group {
    pub fn ranks_per_node(&self) -> u32 {
        self.ranks
            .checked_div(self.nodes.max(1))
            .unwrap_or(0)
            .max(1)
    }

    pub(crate) fn crosses_network(&self) -> bool {
        self.nodes > 1
    }

    /// NCCL's ring latency: base + (nsteps − nInter)·intra + nInter·inter, with
    /// `steps_per_rank` = nsteps / (n − 1) (2 for AllReduce) [DOMAIN.md A2]. Only the Simple
    /// protocol pays the multi-node plateau factor.
    fn ring_latency(&self, steps_per_rank: f64, plateau: bool) -> Seconds {
        let n = f64::from(self.ranks);
        let k = f64::from(self.nodes.max(1));
        let steps = steps_per_rank * (n - 1.0);
        let inter = steps_per_rank * (k - 1.0);
        let l = &self.latencies;
        let mut us =
            l.base_us + (steps - inter).max(0.0) * l.scale_up_hop_us + inter * l.network_hop_us;
        if plateau && self.crosses_network() {
            us *= RING_PLATEAU_FACTOR;
        }
        Seconds::from_micros(us)
    }

    /// Bus bandwidth of a ring through every rank: inside a node it runs at the scale-up rate,
    /// between nodes all the node's network share carries it: min(B_nvl, B_node) [DOMAIN.md A3].
    pub(crate) fn ring_bus_bandwidth(&self) -> ByteRate {
        if !self.crosses_network() {
            return self.scale_up;
        }
        if self.ranks_per_node() == 1 {
            return self.node_network;
        }
        if self.scale_up.0 < self.node_network.0 {
            self.scale_up
        } else {
            self.node_network
        }
    }
}

/// Which model gave a collective's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    Ring,
    /// NCCL's double binary tree between nodes, chains inside them.
    Tree,
    /// Reduce-scatter inside the node, AllReduce of the shard between nodes, all-gather.
    Hierarchical,
    AllToAll,
    SendRecv,
    #[default]
    None,
    /// NVLink SHARP: the NVSwitch reduces, each GPU sends and receives the message once.
    Nvls,
    /// In-network reduction in the fabric's switches (InfiniBand SHARP, NCCL CollNet).
    InNetwork,
}

impl Algorithm {
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::Tree => "tree",
            Algorithm::Hierarchical => "hierarchical (NVLink + network)",
            Algorithm::AllToAll => "all-to-all",
            Algorithm::SendRecv => "send/receive",
            Algorithm::None => "none",
            Algorithm::Nvls => "NVLink SHARP (NVLS)",
            Algorithm::InNetwork => "in-network reduction (SHARP)",
        }
    }
}

/// Time and volume of one collective.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    pub algorithm: Algorithm,
    pub protocol: Protocol,
    /// Bytes each rank sends.
    pub bytes_per_rank: Bytes,
    /// Bytes each node sends into the network.
    pub network_bytes_per_node: Bytes,
    pub bandwidth_time: Seconds,
    pub latency_time: Seconds,
}

impl Cost {
    pub const ZERO: Cost = Cost {
        algorithm: Algorithm::None,
        protocol: Protocol::Simple,
        bytes_per_rank: Bytes(0.0),
        network_bytes_per_node: Bytes(0.0),
        bandwidth_time: Seconds(0.0),
        latency_time: Seconds(0.0),
    };

    pub fn time(&self) -> Seconds {
        self.bandwidth_time + self.latency_time
    }

    /// The same collective `times` times over.
    pub fn repeated(self, times: f64) -> Cost {
        Cost {
            bytes_per_rank: self.bytes_per_rank * times,
            network_bytes_per_node: self.network_bytes_per_node * times,
            bandwidth_time: self.bandwidth_time * times,
            latency_time: self.latency_time * times,
            ..self
        }
    }
}

/// AllReduce of `message` bytes: the fastest of ring, tree and hierarchical, as NCCL's tuner
/// picks the algorithm with the lowest predicted time [NCCL tuning.cc].
pub fn allreduce(group: &Group, message: Bytes) -> Cost {
    if group.ranks <= 1 {
        return Cost::ZERO;
    }
    let mut best = ring_allreduce(group, message);
    if group.crosses_network() {
        let tree = tree_allreduce(group, message);
        if tree.time() < best.time() {
            best = tree;
        }
        if group.ranks_per_node() > 1 {
            let hierarchical = hierarchical_allreduce(group, message);
            if hierarchical.time() < best.time() {
                best = hierarchical;
            }
        }
    }
    best
}

/// NCCL's tree efficiency on bus bandwidth [tuning.cc: Tree busBw × 0.92; DOMAIN.md A2].
const TREE_EFFICIENCY: f64 = 0.92;

/// Tree AllReduce between nodes (reduce up, broadcast down): algorithm bandwidth is half the
/// bus bandwidth, latency grows with log2(k) rather than k:
/// base + 2·((ppn − 1)·intra + log2(k)·inter) [NCCL tuning.cc; DOMAIN.md A2]. Two nodes are one
/// edge of the tree: the reduction crosses it one way and the broadcast the other, each at the
/// full rate, which is why two-node tree bus bandwidth exceeds the NICs' [nccl-tests #196, #232].
pub fn tree_allreduce(group: &Group, message: Bytes) -> Cost {
    let g = f64::from(group.ranks_per_node());
    let k = f64::from(group.nodes.max(1));
    let duplex = if group.nodes == 2 { 2.0 } else { 1.0 };
    let bus = group.ring_bus_bandwidth() * (TREE_EFFICIENCY * duplex);
    let l = &group.latencies;
    let latency_us =
        l.base_us + 2.0 * ((g - 1.0) * l.scale_up_hop_us + k.log2() * l.network_hop_us);
    Cost {
        algorithm: Algorithm::Tree,
        protocol: Protocol::Simple,
        bytes_per_rank: message * 2.0,
        // Every node sends the message up the tree and passes it down: 2·S.
        network_bytes_per_node: if group.crosses_network() {
            message * 2.0
        } else {
            Bytes(0.0)
        },
        bandwidth_time: message / (bus * 0.5),
        latency_time: Seconds::from_micros(latency_us),
    }
}

/// Ring AllReduce: 2(n−1)/n·S over the ring's bus bandwidth plus NCCL's ring latency.
pub fn ring_allreduce(group: &Group, message: Bytes) -> Cost {
    ring(group, message, 2.0, Algorithm::Ring)
}

/// Ring ReduceScatter or AllGather of a `message`-byte buffer: (n−1)/n·S.
pub fn ring_reduce_scatter(group: &Group, message: Bytes) -> Cost {
    ring(group, message, 1.0, Algorithm::Ring)
}

fn ring(group: &Group, message: Bytes, passes: f64, algorithm: Algorithm) -> Cost {
    ring_with(group, message, passes, algorithm, Protocol::Simple)
}

/// A ring of `passes` passes over the buffer, run with `protocol` (whose latencies and bandwidth
/// share the caller has put in `group`).
pub(crate) fn ring_with(
    group: &Group,
    message: Bytes,
    passes: f64,
    algorithm: Algorithm,
    protocol: Protocol,
) -> Cost {
    if group.ranks <= 1 {
        return Cost::ZERO;
    }
    let n = f64::from(group.ranks);
    let k = f64::from(group.nodes.max(1));
    let bytes_per_rank = message * (passes * (n - 1.0) / n);
    // Only (k−1)/(n−1) of a ring's hops leave a node [DOMAIN.md A3]; each node sends its ranks'
    // share of those.
    let network_bytes_per_node = if group.nodes > 1 {
        bytes_per_rank * (f64::from(group.ranks_per_node()) * (k - 1.0) / (n - 1.0)).max(0.0)
    } else {
        Bytes(0.0)
    };
    Cost {
        algorithm,
        protocol,
        bytes_per_rank,
        network_bytes_per_node,
        bandwidth_time: bytes_per_rank / group.ring_bus_bandwidth(),
        latency_time: group.ring_latency(passes, protocol == Protocol::Simple),
    }
}

/// Hierarchical AllReduce [DOMAIN.md A3]: ReduceScatter inside the node, 2(k−1)/k·S/g per GPU
/// between nodes (all of a node's network share in parallel), AllGather inside the node; the
/// phases serialised.
pub fn hierarchical_allreduce(group: &Group, message: Bytes) -> Cost {
    let g = f64::from(group.ranks_per_node());
    let k = f64::from(group.nodes.max(1));
    let intra_bytes = message * (2.0 * (g - 1.0) / g);
    let network_bytes_per_node = message * (2.0 * (k - 1.0) / k);
    let intra = intra_bytes / group.scale_up;
    let inter = network_bytes_per_node / group.node_network;
    let l = &group.latencies;
    let latency_us =
        l.base_us + 2.0 * (g - 1.0) * l.scale_up_hop_us + 2.0 * (k - 1.0) * l.network_hop_us;
    Cost {
        algorithm: Algorithm::Hierarchical,
        protocol: Protocol::Simple,
        bytes_per_rank: intra_bytes + network_bytes_per_node / g,
        network_bytes_per_node,
        bandwidth_time: intra + inter,
        latency_time: Seconds::from_micros(latency_us),
    }
}

/// All-to-all where every rank sends `per_rank_send` bytes spread evenly over all ranks
/// [DOMAIN.md A1]. Inside a node the bytes go over the scale-up links; the rest through the
/// node's network share, which all-to-all cannot aggregate beyond each GPU's own NIC [nccl-tests
/// #290]. Peers are reached in parallel (GPU-initiated RDMA, as DeepEP does): two network hops
/// of latency rather than n − 1.
pub fn all_to_all(group: &Group, per_rank_send: Bytes) -> Cost {
    if group.ranks <= 1 {
        return Cost::ZERO;
    }
    let n = f64::from(group.ranks);
    let g = f64::from(group.ranks_per_node());
    let bytes_per_rank = per_rank_send * ((n - 1.0) / n);
    let intra = per_rank_send * ((g - 1.0) / n);
    let inter_per_rank = per_rank_send * ((n - g) / n);
    let network_bytes_per_node = inter_per_rank * g;
    let intra_time = intra / group.scale_up;
    let inter_time = network_bytes_per_node / group.node_network;
    let l = &group.latencies;
    let hops = if group.crosses_network() {
        2.0 * l.network_hop_us
    } else {
        2.0 * l.scale_up_hop_us
    };
    Cost {
        algorithm: Algorithm::AllToAll,
        protocol: Protocol::Simple,
        bytes_per_rank,
        network_bytes_per_node,
        bandwidth_time: if intra_time > inter_time {
            intra_time
        } else {
            inter_time
        },
        latency_time: Seconds::from_micros(l.base_us + hops),
    }
}

/// One rank sends `message` to a rank on another node over `rate`.
pub fn send_recv(message: Bytes, rate: ByteRate, latencies: &Latencies) -> Cost {
    Cost {
        algorithm: Algorithm::SendRecv,
        protocol: Protocol::Simple,
        bytes_per_rank: message,
        network_bytes_per_node: message,
        bandwidth_time: message / rate,
        latency_time: Seconds::from_micros(latencies.base_us + latencies.network_hop_us),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::BitRate;

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
            base_us: 8.4,
            scale_up_hop_us: 3.4,
            network_hop_us: 17.0,
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
        };
        let cost = allreduce(&group, Bytes(4.0e6));
        assert_eq!(cost.algorithm, Algorithm::Hierarchical);
        assert_eq!(cost.network_bytes_per_node, Bytes(6.0e6));
    }

    #[test]
    fn an_infinitely_fast_network_leaves_only_the_nvlink_time() {
        let mut group = sixteen_nodes(8.0, 400.0, 8);
        group.node_network = ByteRate(f64::INFINITY);
        let cost = allreduce(&group, Bytes::gibibytes(1.0));
        // Reduce-scatter and all-gather inside the node: 2·7/8·S over NVLink, nothing else.
        let nvlink_only = 2.0 * 7.0 / 8.0 * 1.073741824 / 450.0;
        assert_eq!(cost.algorithm, Algorithm::Hierarchical);
        assert!((cost.time().0 - nvlink_only).abs() < 1e-12);
    }

    #[test]
    fn a_small_allreduce_over_many_nodes_takes_the_tree_for_its_log_latency() {
        let group = Group {
            ranks: 256,
            nodes: 256,
            scale_up: nic(400.0),
            node_network: nic(400.0),
            latencies: Latencies {
                base_us: 8.4,
                scale_up_hop_us: 3.4,
                network_hop_us: 17.0,
            },
        };
        let cost = allreduce(&group, Bytes(64.0 * 1024.0));
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
        assert_eq!(allreduce(&group, Bytes(1e9)).time(), Seconds(0.0));
        assert_eq!(all_to_all(&group, Bytes(1e9)).time(), Seconds(0.0));
    }
}
