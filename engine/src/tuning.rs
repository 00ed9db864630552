//! The choice NCCL's tuner makes for every collective: for each algorithm (ring, tree, NVLink
//! SHARP, in-network reduction) and protocol (LL, LL128, Simple), a latency term plus the message
//! over a bandwidth scaled by the protocol's efficiency; the smallest time wins (NCCL
//! src/graph/tuning.cc, `ncclTopoTuneModel` and `ncclTopoGetAlgoTime`). The constants are the
//! design's calibration, so the user sees and can edit them.
//!
//! NCCL chooses by its own model: where the design's calibration says the hardware costs
//! something else (a fabric's calibration fitted to what it measured), the choice is still
//! NCCL's, made with NCCL's constants (the calibration's defaults), and the chosen algorithm and
//! protocol then take the time the calibration gives them ([`NcclModel`]). So a fitted LL128
//! latency moves the time of the messages NCCL sends with LL128, not which messages those are.
//!
//! Why protocols matter: LL moves 8-byte lines with a flag in every one, so it has the lowest
//! latency and a quarter of the bandwidth; LL128 keeps 120 of every 128 bytes; Simple has the full
//! bandwidth but needs a memory fence per step. Small messages (tensor-parallel decode) are
//! latency-bound and go LL; gradients go Simple.

use crate::collective::{
    hierarchical_allreduce, ring_with, tree_allreduce, Algorithm, Cost, Group, Latencies, Protocol,
};
use crate::units::{ByteRate, Bytes, Micros};

/// One low-latency protocol: its latencies and the share of the Simple bandwidth it keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProtocolModel {
    pub protocol: Protocol,
    pub bandwidth_share: f64,
    pub latencies: Latencies,
}

/// NVLink SHARP inside a node: the NVSwitch reduces, so each GPU sends and receives the message
/// once; `rate` is the algorithm bandwidth per GPU.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nvls {
    pub rate: ByteRate,
    pub latency_us: Micros,
}

/// In-network reduction between nodes (SHARP, NCCL CollNet Direct): reduce-scatter inside the
/// node, each GPU's NIC sends its shard to the switch once and receives the reduced shard once,
/// all-gather inside the node, pipelined.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InNetwork {
    /// Share of the NICs' achievable rate the switch aggregation sustains.
    pub efficiency: f64,
    pub latency_us: Micros,
}

/// What the tuner may choose from for one group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// LL and LL128; `None` where they are not offered.
    pub ll: Option<ProtocolModel>,
    pub ll128: Option<ProtocolModel>,
    pub nvls: Option<Nvls>,
    pub in_network: Option<InNetwork>,
    /// Restrict the choice to one algorithm, as `NCCL_ALGO` does (nccl-tests runs with
    /// `NCCL_ALGO=Ring` to measure the network).
    pub only: Option<Algorithm>,
    /// What NCCL's tuner believes the protocols cost, where the calibration differs from it;
    /// `None`: the calibration is NCCL's own model, and the choice and the time agree.
    pub nccl: Option<NcclModel>,
}

/// The latencies, bandwidth shares and bandwidths NCCL's tuner chooses by (its constants in
/// tuning.cc, and the links' rates at the default efficiencies: NCCL does not know what a fabric
/// measured).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NcclModel {
    /// Simple's latencies.
    pub simple: Latencies,
    pub ll: Option<ProtocolModel>,
    pub ll128: Option<ProtocolModel>,
    /// NVLS as NCCL's constants have it (its tuning.cc bandwidth and latency), where the
    /// calibration allows it.
    pub nvls: Option<Nvls>,
    /// NCCL's network and scale-up rates over the calibration's.
    pub network_scale: f64,
    pub scale_up_scale: f64,
}

impl Tuning {
    /// Simple protocol only, ring, tree and hierarchical: the closed forms of the alpha-beta model.
    pub const SIMPLE: Tuning = Tuning {
        ll: None,
        ll128: None,
        nvls: None,
        in_network: None,
        only: None,
        nccl: None,
    };

    /// The same choice restricted to `algorithm` (`None`: every algorithm).
    pub fn only(self, algorithm: Option<Algorithm>) -> Tuning {
        Tuning {
            only: algorithm,
            ..self
        }
    }

    fn allows(&self, algorithm: Algorithm) -> bool {
        self.only.is_none_or(|only| only == algorithm)
    }

    fn protocols(&self) -> impl Iterator<Item = ProtocolModel> {
        [self.ll128, self.ll].into_iter().flatten()
    }

    /// The model of `protocol`: `None` for Simple (the group's own bandwidth and latencies).
    fn model_of(&self, protocol: Protocol) -> Option<ProtocolModel> {
        match protocol {
            Protocol::Ll => self.ll,
            Protocol::Ll128 => self.ll128,
            Protocol::Simple => None,
        }
    }

    /// The choice NCCL makes for `group`: with its own model where the calibration differs.
    fn choose(
        &self,
        group: &Group,
        message: Bytes,
        fastest: fn(&Group, &Tuning, Bytes) -> Cost,
    ) -> Option<(Algorithm, Protocol)> {
        let nccl = self.nccl?;
        let believed = Tuning {
            ll: nccl.ll,
            ll128: nccl.ll128,
            nvls: nccl.nvls,
            nccl: None,
            ..*self
        };
        let chosen = fastest(
            &Group {
                latencies: nccl.simple,
                node_network: group.node_network * nccl.network_scale
                    / group.crossing.share.max(1e-9),
                crossing: crate::collective::Crossing::NONE,
                scale_up: group.scale_up * nccl.scale_up_scale,
                ..*group
            },
            &believed,
            message,
        );
        Some((chosen.algorithm, chosen.protocol))
    }
}

/// `group` as a protocol sees it: its latencies, and its bandwidth scaled by the protocol's share.
fn under(group: &Group, p: &ProtocolModel) -> Group {
    Group {
        scale_up: group.scale_up * p.bandwidth_share,
        node_network: group.node_network * p.bandwidth_share,
        latencies: Latencies {
            network_hop_us: p.latencies.network_hop_us + group.crossing.hop_extra_us,
            ..p.latencies
        },
        ..*group
    }
}

/// A protocol keeping `share` of the bandwidth takes at least the Simple bandwidth time ÷ share;
/// when that is no faster than the best so far it cannot win, and is not worked out.
fn may_win(best: &Option<Cost>, simple: &Cost, p: &ProtocolModel) -> bool {
    best.is_none_or(|b| simple.bandwidth_time.seconds() / p.bandwidth_share < b.time().seconds())
}

fn keep_faster(best: &mut Option<Cost>, candidate: Cost) {
    if best.is_none_or(|b| candidate.time() < b.time()) {
        *best = Some(candidate);
    }
}

/// AllReduce of `message` bytes: the algorithm and protocol NCCL chooses among those `tuning`
/// allows ([`fastest_allreduce`] by NCCL's model), at the time the calibration gives it.
pub fn tuned_allreduce(group: &Group, tuning: &Tuning, message: Bytes) -> Cost {
    match tuning.choose(group, message, fastest_allreduce) {
        Some((algorithm, protocol)) => allreduce_as(group, tuning, message, algorithm, protocol),
        None => fastest_allreduce(group, tuning, message),
    }
}

/// AllReduce of `message` bytes with `algorithm` and `protocol`.
pub(crate) fn allreduce_as(
    group: &Group,
    tuning: &Tuning,
    message: Bytes,
    algorithm: Algorithm,
    protocol: Protocol,
) -> Cost {
    if group.ranks <= 1 {
        return Cost::ZERO;
    }
    let under_protocol = tuning
        .model_of(protocol)
        .map_or(*group, |p| under(group, &p));
    let ring = || crate::collective::ring_allreduce(group, message);
    match algorithm {
        Algorithm::Ring => ring_with(&under_protocol, message, 2.0, Algorithm::Ring, protocol),
        Algorithm::Tree => Cost {
            protocol,
            ..tree_allreduce(&under_protocol, message)
        },
        Algorithm::Hierarchical => hierarchical_allreduce(group, message),
        Algorithm::Nvls => tuning
            .nvls
            .map_or_else(ring, |nvls| nvls_allreduce(&nvls, message)),
        Algorithm::InNetwork => tuning
            .in_network
            .map_or_else(ring, |sharp| in_network_allreduce(group, &sharp, message)),
        // Not an AllReduce's: never chosen for one.
        Algorithm::AllToAll | Algorithm::SendRecv | Algorithm::None => ring(),
    }
}

/// AllReduce of `message` bytes: the fastest algorithm and protocol `tuning` allows
/// (ties keep the earlier: ring, then tree, hierarchical, Simple before LL128 and LL).
fn fastest_allreduce(group: &Group, tuning: &Tuning, message: Bytes) -> Cost {
    if group.ranks <= 1 {
        return Cost::ZERO;
    }
    let mut best: Option<Cost> = None;
    let multi_node = group.crosses_network();
    if tuning.allows(Algorithm::Ring) {
        let simple = ring_with(group, message, 2.0, Algorithm::Ring, Default::default());
        keep_faster(&mut best, simple);
        for p in tuning.protocols() {
            if may_win(&best, &simple, &p) {
                let g = under(group, &p);
                keep_faster(
                    &mut best,
                    ring_with(&g, message, 2.0, Algorithm::Ring, p.protocol),
                );
            }
        }
    }
    if multi_node && tuning.allows(Algorithm::Tree) {
        let simple = tree_allreduce(group, message);
        keep_faster(&mut best, simple);
        for p in tuning.protocols() {
            if may_win(&best, &simple, &p) {
                let mut cost = tree_allreduce(&under(group, &p), message);
                cost.protocol = p.protocol;
                keep_faster(&mut best, cost);
            }
        }
    }
    if multi_node && group.ranks_per_node() > 1 && tuning.allows(Algorithm::Hierarchical) {
        keep_faster(&mut best, hierarchical_allreduce(group, message));
    }
    if let Some(nvls) = tuning.nvls.filter(|_| !multi_node) {
        if tuning.allows(Algorithm::Nvls) {
            keep_faster(&mut best, nvls_allreduce(&nvls, message));
        }
    }
    if let Some(sharp) = tuning.in_network.filter(|_| multi_node) {
        if tuning.allows(Algorithm::InNetwork) {
            keep_faster(&mut best, in_network_allreduce(group, &sharp, message));
        }
    }
    // An algorithm the group cannot run (NVLS across nodes) falls back to the ring.
    best.unwrap_or_else(|| crate::collective::ring_allreduce(group, message))
}

/// ReduceScatter or AllGather of a `message`-byte buffer: a ring, in the protocol NCCL chooses
/// ([`fastest_reduce_scatter`] by NCCL's model), at the time the calibration gives it.
pub fn tuned_reduce_scatter(group: &Group, tuning: &Tuning, message: Bytes) -> Cost {
    match tuning.choose(group, message, fastest_reduce_scatter) {
        Some((_, protocol)) => reduce_scatter_as(group, tuning, message, protocol),
        None => fastest_reduce_scatter(group, tuning, message),
    }
}

/// ReduceScatter or AllGather of a `message`-byte buffer: a ring in `protocol`.
pub(crate) fn reduce_scatter_as(
    group: &Group,
    tuning: &Tuning,
    message: Bytes,
    protocol: Protocol,
) -> Cost {
    if group.ranks <= 1 {
        return Cost::ZERO;
    }
    let g = tuning
        .model_of(protocol)
        .map_or(*group, |p| under(group, &p));
    ring_with(&g, message, 1.0, Algorithm::Ring, protocol)
}

/// ReduceScatter or AllGather of a `message`-byte buffer: a ring, in the fastest protocol.
fn fastest_reduce_scatter(group: &Group, tuning: &Tuning, message: Bytes) -> Cost {
    if group.ranks <= 1 {
        return Cost::ZERO;
    }
    let simple = ring_with(group, message, 1.0, Algorithm::Ring, Default::default());
    let mut best = Some(simple);
    for p in tuning.protocols() {
        if may_win(&best, &simple, &p) {
            let cost = ring_with(&under(group, &p), message, 1.0, Algorithm::Ring, p.protocol);
            keep_faster(&mut best, cost);
        }
    }
    best.unwrap_or(simple)
}

/// NVLS AllReduce inside one node: S over the per-GPU NVLS rate, plus NVLS latency [NCCL
/// tuning.cc: NVLS latency is the NVLink hardware latency, 25 µs].
pub fn nvls_allreduce(nvls: &Nvls, message: Bytes) -> Cost {
    Cost {
        algorithm: Algorithm::Nvls,
        protocol: Default::default(),
        bytes_per_rank: message,
        network_bytes_per_node: Bytes::new(0.0),
        bandwidth_time: message / nvls.rate,
        latency_time: nvls.latency_us.to_seconds(),
    }
}

/// In-network AllReduce: the node's NICs send the message once and receive it once (instead of a
/// ring's 2(k−1)/k), the NVLink reduce-scatter and all-gather overlapping with it.
pub fn in_network_allreduce(group: &Group, sharp: &InNetwork, message: Bytes) -> Cost {
    let g = f64::from(group.ranks_per_node());
    let intra_bytes = message * (2.0 * (g - 1.0) / g);
    let intra = intra_bytes / group.scale_up;
    let inter = message / (group.node_network * sharp.efficiency);
    let l = &group.latencies;
    let intra_hops = if g > 1.0 { 2.0 } else { 0.0 };
    Cost {
        algorithm: Algorithm::InNetwork,
        protocol: Default::default(),
        bytes_per_rank: intra_bytes + message / g,
        network_bytes_per_node: message,
        bandwidth_time: if intra > inter { intra } else { inter },
        latency_time: (l.base_us + intra_hops * l.scale_up_hop_us + sharp.latency_us).to_seconds(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::BitRate;

    const NCCL_SIMPLE: Latencies = Latencies {
        base_us: Micros::new(8.4),
        scale_up_hop_us: Micros::new(3.4),
        network_hop_us: Micros::new(17.0),
    };

    /// NCCL tuning.cc's LL and LL128 on Hopper: ring LL base 6.6 µs, NVLink 0.6, network 2.7 + 1
    /// µs per step, a quarter of the bandwidth; LL128 14 µs, 1.9, 4.0 + 1, 0.85 of it.
    fn hopper() -> Tuning {
        Tuning {
            ll: Some(ProtocolModel {
                protocol: Protocol::Ll,
                bandwidth_share: 0.25,
                latencies: Latencies {
                    base_us: Micros::new(6.6),
                    scale_up_hop_us: Micros::new(0.6),
                    network_hop_us: Micros::new(3.7),
                },
            }),
            ll128: Some(ProtocolModel {
                protocol: Protocol::Ll128,
                bandwidth_share: 0.85,
                latencies: Latencies {
                    base_us: Micros::new(14.0),
                    scale_up_hop_us: Micros::new(1.9),
                    network_hop_us: Micros::new(5.0),
                },
            }),
            nvls: Some(Nvls {
                rate: ByteRate::gigabytes_per_second(274.5),
                latency_us: Micros::new(25.0),
            }),
            in_network: None,
            only: None,
            nccl: None,
        }
    }

    fn dgx_h100_nodes(nodes: u32) -> Group {
        Group {
            ranks: 8 * nodes,
            nodes,
            scale_up: ByteRate::gigabytes_per_second(370.0),
            node_network: BitRate::gbps(400.0).to_byte_rate() * (8.0 * 0.95),
            latencies: NCCL_SIMPLE,
            crossing: crate::collective::Crossing::NONE,
        }
    }

    /// Across the spines, the tier's extra latency reaches every protocol's network hop and its
    /// share the rate, while NCCL chooses as if neither were there: a message NCCL sends with LL
    /// within one leaf still goes LL across the spines, and takes longer by the extra latency
    /// of each of its network steps.
    #[test]
    fn across_the_spines_every_protocol_pays_the_tier_s_latency() {
        let within = dgx_h100_nodes(4);
        let crossing = crate::collective::Crossing {
            share: 0.5,
            hop_extra_us: Micros::new(10.0),
        };
        let across = Group {
            node_network: within.node_network * crossing.share,
            latencies: Latencies {
                network_hop_us: within.latencies.network_hop_us + crossing.hop_extra_us,
                ..within.latencies
            },
            crossing,
            ..within
        };
        let tuning = Tuning {
            nccl: Some(NcclModel {
                simple: NCCL_SIMPLE,
                ll: hopper().ll,
                ll128: hopper().ll128,
                nvls: hopper().nvls,
                network_scale: 1.0,
                scale_up_scale: 1.0,
            }),
            ..hopper()
        };
        let message = Bytes::new(16.0 * 1024.0);
        let (near, far) = (
            tuned_allreduce(&within, &tuning, message),
            tuned_allreduce(&across, &tuning, message),
        );
        assert_eq!((near.protocol, far.protocol), (Protocol::Ll, Protocol::Ll));
        assert_eq!(near.algorithm, far.algorithm);
        let extra = far.latency_time.seconds() - near.latency_time.seconds();
        assert!(extra > 0.0, "{near:?} {far:?}");
        // A whole number of network steps, each 10 µs longer.
        let steps = extra / 10e-6;
        assert!(
            (steps - steps.round()).abs() < 1e-6 && steps >= 1.0,
            "{steps}"
        );
    }

    #[test]
    fn a_16_kib_tensor_parallel_allreduce_over_four_nodes_runs_ring_ll() {
        let cost = tuned_allreduce(&dgx_h100_nodes(4), &hopper(), Bytes::new(16.0 * 1024.0));
        assert_eq!(cost.protocol, Protocol::Ll, "{cost:?}");
        let simple = tuned_allreduce(
            &dgx_h100_nodes(4),
            &Tuning::SIMPLE,
            Bytes::new(16.0 * 1024.0),
        );
        assert!(cost.time().seconds() < simple.time().seconds() / 3.0);
    }

    /// NCCL chooses by its own constants: where the hardware's LL128 is three times slower
    /// than NCCL believes, the messages NCCL sends with LL128 still go LL128, and take longer.
    #[test]
    fn a_slower_ll128_than_nccls_model_slows_its_messages_without_changing_the_choice() {
        let group = dgx_h100_nodes(4);
        let ll128 = (10..=30)
            .map(|p| Bytes::new(f64::from(1u32 << p)))
            .find(|&m| tuned_allreduce(&group, &hopper(), m).protocol == Protocol::Ll128)
            .expect("a message NCCL sends with LL128");
        let believed = hopper();
        let mut slower = hopper();
        if let Some(p) = slower.ll128.as_mut() {
            p.latencies.network_hop_us *= 3.0;
            p.latencies.base_us *= 3.0;
        }
        slower.nccl = Some(NcclModel {
            simple: group.latencies,
            ll: believed.ll,
            ll128: believed.ll128,
            nvls: believed.nvls,
            network_scale: 1.0,
            scale_up_scale: 1.0,
        });
        let before = tuned_allreduce(&group, &believed, ll128);
        let after = tuned_allreduce(&group, &slower, ll128);
        assert_eq!(after.protocol, Protocol::Ll128, "{after:?}");
        assert!(after.time() > before.time());
        // Chosen by the slower figures instead, the message would leave LL128.
        let by_the_slower = Tuning {
            nccl: None,
            ..slower
        };
        assert_ne!(
            tuned_allreduce(&group, &by_the_slower, ll128).protocol,
            Protocol::Ll128
        );
    }

    #[test]
    fn a_1_gib_gradient_allreduce_over_16_nodes_stays_on_the_simple_protocol() {
        let cost = tuned_allreduce(&dgx_h100_nodes(16), &hopper(), Bytes::gibibytes(1.0));
        assert_eq!(cost.protocol, Protocol::Simple);
        let closed = crate::collective::allreduce(&dgx_h100_nodes(16), Bytes::gibibytes(1.0));
        assert_eq!(cost, closed);
    }

    #[test]
    fn inside_one_h100_node_large_allreduces_take_nvls_and_small_ones_ll() {
        let node = dgx_h100_nodes(1);
        let large = tuned_allreduce(&node, &hopper(), Bytes::gibibytes(8.0));
        assert_eq!(large.algorithm, Algorithm::Nvls);
        let small = tuned_allreduce(&node, &hopper(), Bytes::new(8.0 * 1024.0));
        assert_eq!(
            (small.algorithm, small.protocol),
            (Algorithm::Ring, Protocol::Ll)
        );
        // Forcing the ring, as NCCL_ALGO=Ring does, gives the ring back.
        let ring = tuned_allreduce(
            &node,
            &hopper().only(Some(Algorithm::Ring)),
            Bytes::gibibytes(8.0),
        );
        assert_eq!(ring.algorithm, Algorithm::Ring);
    }

    #[test]
    fn in_network_reduction_halves_what_each_node_sends_for_large_messages() {
        let mut tuning = hopper();
        tuning.in_network = Some(InNetwork {
            efficiency: 1.0,
            latency_us: Micros::new(31.0),
        });
        let group = dgx_h100_nodes(16);
        let cost = tuned_allreduce(&group, &tuning, Bytes::gibibytes(1.0));
        assert_eq!(cost.algorithm, Algorithm::InNetwork);
        assert_eq!(cost.network_bytes_per_node, Bytes::gibibytes(1.0));
    }

    #[test]
    fn with_only_the_simple_protocol_the_tuner_agrees_with_the_closed_forms() {
        for nodes in [1, 2, 16] {
            for bytes in [1e3, 1e6, 1e9] {
                let group = dgx_h100_nodes(nodes);
                let tuned = tuned_allreduce(&group, &Tuning::SIMPLE, Bytes::new(bytes));
                let closed = crate::collective::allreduce(&group, Bytes::new(bytes));
                assert_eq!(tuned, closed, "{nodes} nodes, {bytes} B");
            }
        }
    }
}
