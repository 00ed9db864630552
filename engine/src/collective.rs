//! Alpha-beta cost models of collectives [Thakur, Rabenseifner & Gropp, IJHPCA 2005; nccl-tests doc/PERFORMANCE.md; NCCL src/graph/tuning.cc; NCCL src/graph/topo.h].
//!
//! Bandwidths are per rank and already calibrated (achievable, not line rate). A rate of
//! infinity models an ideal network, which is how "slowdown against an ideal fabric" is computed.

use crate::units::{ByteRate, Bytes, Micros, Seconds};

/// NCCL-like latencies of one collective, in microseconds [NCCL src/graph/tuning.cc].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Latencies {
    pub base_us: Micros,
    /// Per step over the scale-up domain (NVLink).
    pub scale_up_hop_us: Micros,
    /// Per step over the network.
    pub network_hop_us: Micros,
}

impl Latencies {
    pub const NONE: Latencies = Latencies {
        base_us: Micros::new(0.0),
        scale_up_hop_us: Micros::new(0.0),
        network_hop_us: Micros::new(0.0),
    };
}

/// What crossing the fabric's upper tiers costs a group whose nodes span leaves or pods, as
/// the calibration's locality tiers give it: a share of the network rate and latency added to
/// each network hop, of every protocol. NCCL's own model knows neither.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossing {
    pub share: f64,
    pub hop_extra_us: Micros,
}

impl Crossing {
    /// Within one leaf, or a tier at its neutral values.
    pub const NONE: Crossing = Crossing {
        share: 1.0,
        hop_extra_us: Micros::new(0.0),
    };
}

/// Multi-node large-message rings pay 1.4x latency on compute capability >= 8.0
/// ("plateau effect of ring") [NCCL src/graph/tuning.cc].
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
    /// What crossing the upper tiers costs it: already in `node_network` and `latencies`, and
    /// added to each protocol's network hop.
    pub crossing: Crossing,
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
    /// `steps_per_rank` = nsteps / (n − 1) (2 for AllReduce) [NCCL src/graph/tuning.cc]. Only the Simple
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
        us.to_seconds()
    }

    /// Bus bandwidth of a ring through every rank: inside a node it runs at the scale-up rate,
    /// between nodes all the node's network share carries it: min(B_nvl, B_node) [Thakur, Rabenseifner & Gropp, IJHPCA 2005; NCCL src/graph/topo.h].
    pub(crate) fn ring_bus_bandwidth(&self) -> ByteRate {
        if !self.crosses_network() {
            return self.scale_up;
        }
        if self.ranks_per_node() == 1 {
            return self.node_network;
        }
        if self.scale_up.bytes_per_second() < self.node_network.bytes_per_second() {
            self.scale_up
        } else {
            self.node_network
        }
    }
}

/// Which model gave a collective's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// NCCL's protocols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    Ll,
    Ll128,
    #[default]
    Simple,
}

impl Protocol {
    pub fn label(self) -> &'static str {
        match self {
            Protocol::Ll => "LL",
            Protocol::Ll128 => "LL128",
            Protocol::Simple => "Simple",
        }
    }
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
        bytes_per_rank: Bytes::new(0.0),
        network_bytes_per_node: Bytes::new(0.0),
        bandwidth_time: Seconds::new(0.0),
        latency_time: Seconds::new(0.0),
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

/// NCCL's tree efficiency on bus bandwidth [NCCL src/graph/tuning.cc: Tree busBw × 0.92].
const TREE_EFFICIENCY: f64 = 0.92;

/// Tree AllReduce between nodes (reduce up, broadcast down): algorithm bandwidth is half the
/// bus bandwidth, latency grows with log2(k) rather than k:
/// base + 2·((ppn − 1)·intra + log2(k)·inter) [NCCL src/graph/tuning.cc]. Two single-rank
/// nodes are one edge of the tree: the reduction crosses it one way and the broadcast the other,
/// each at the full rate [nccl-tests #232: 41.5 GB/s busbw over one 400G NIC; #196]. With several
/// GPUs per node the intra-node chains are kept at NCCL's model (no published sweep to check a
/// faster one against).
pub fn tree_allreduce(group: &Group, message: Bytes) -> Cost {
    let g = f64::from(group.ranks_per_node());
    let k = f64::from(group.nodes.max(1));
    let duplex = if group.nodes == 2 && group.ranks == 2 {
        2.0
    } else {
        1.0
    };
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
            Bytes::new(0.0)
        },
        bandwidth_time: message / (bus * 0.5),
        latency_time: latency_us.to_seconds(),
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
    // Only (k−1)/(n−1) of a ring's hops leave a node [Thakur, Rabenseifner & Gropp, IJHPCA 2005; NCCL src/graph/topo.h]; each node sends its ranks'
    // share of those.
    let network_bytes_per_node = if group.nodes > 1 {
        bytes_per_rank * (f64::from(group.ranks_per_node()) * (k - 1.0) / (n - 1.0)).max(0.0)
    } else {
        Bytes::new(0.0)
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

/// Hierarchical AllReduce [Thakur, Rabenseifner & Gropp, IJHPCA 2005; NCCL src/graph/topo.h]: ReduceScatter inside the node, 2(k−1)/k·S/g per GPU
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
        latency_time: latency_us.to_seconds(),
    }
}

/// All-to-all where every rank sends `per_rank_send` bytes spread evenly over all ranks
/// [Thakur, Rabenseifner & Gropp, IJHPCA 2005; nccl-tests doc/PERFORMANCE.md]. Inside a node the bytes go over the scale-up links; the rest through the
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
        latency_time: (l.base_us + hops).to_seconds(),
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
        latency_time: (latencies.base_us + latencies.network_hop_us).to_seconds(),
    }
}

#[cfg(test)]
mod tests;
