//! What a workload's traffic can use: the cluster's scale-up links and the fabric it is mapped
//! to, calibrated. Built once per fabric for each evaluation.

use crate::catalog::Gpu;
use crate::collective::Protocol;
use crate::collective::{Crossing, Group, Latencies};
use crate::spec::{Calibration, Cluster, Fabric, Role};
use crate::technology::Transport;
use crate::tuning::{InNetwork, NcclModel, Nvls, ProtocolModel, Tuning};
use crate::units::{BitRate, ByteRate};
use crate::units::{GigabytesPerSecond, Micros};

/// Conditions an evaluation runs under: normal, or a what-if.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditions {
    /// Fraction of its bandwidth the network delivers: 0.5 for one link degraded to half speed
    /// (a ring runs at its slowest link, seed C14), 1/3 for heavy congestion.
    pub network_share: f64,
    /// An infinitely fast network with no latency: the reference for "slowdown".
    pub ideal_network: bool,
    /// Share of the leaf uplinks' bandwidth a collective spanning leaves gets, in place of the
    /// design's own ECMP figure: what another tenant's traffic on the same leaves leaves it.
    pub crossing_share: Option<f64>,
}

impl Conditions {
    pub const NORMAL: Conditions = Conditions {
        network_share: 1.0,
        ideal_network: false,
        crossing_share: None,
    };
    pub const IDEAL: Conditions = Conditions {
        network_share: 1.0,
        ideal_network: true,
        crossing_share: None,
    };
}

/// The links one workload's traffic runs over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Links {
    pub gpus_per_node: u32,
    /// Nodes attached to the fabric.
    pub nodes: u32,
    /// Achievable scale-up bandwidth per GPU.
    pub scale_up: ByteRate,
    /// Achievable network bandwidth of one port.
    pub port: ByteRate,
    /// Achievable network bandwidth of one node (all its ports on this fabric).
    pub node: ByteRate,
    pub ports_per_node: u32,
    pub port_line_rate: BitRate,
    pub transport: Transport,
    pub latencies: Latencies,
    /// Fraction of a node's bandwidth left to uniformly spread traffic (all-to-all) once the
    /// share that leaves the leaf squeezes through oversubscribed uplinks: 1 / max(1, r × f),
    /// r the leaf oversubscription, f the share leaving the leaf.
    pub uniform_traffic_share: f64,
    /// The algorithms and protocols collectives on these links may choose from.
    pub tuning: Tuning,
    /// Nodes under one leaf, and the share of the leaf uplinks' bandwidth that flows get once
    /// hashed onto them (ECMP collisions): a group spanning more than one leaf runs at its
    /// slowest link, so its network rate takes that share.
    pub nodes_per_leaf: u32,
    pub multipath_share: f64,
    /// Nodes in one pod of a three-tier fabric (`u32::MAX` without pods), and what crossing the
    /// spines and the core costs a group, as the calibration's locality tiers give it.
    pub nodes_per_pod: u32,
    pub crossings: [Crossing; 2],
}

/// The tuner's choices for a fabric: LL and LL128 with the calibration's latencies (the network
/// hop pays the transport's extra latency as Simple does), NVLS where the GPU has it, in-network
/// reduction where the calibration enables it and the fabric's switch supports it; and NCCL's
/// own model to choose by where the calibration's protocol figures differ from it.
fn tuning(
    gpu: &Gpu,
    scale_up_line: GigabytesPerSecond,
    fabric: &Fabric,
    calibration: &Calibration,
    network_extra_us: Micros,
    ideal_network: bool,
) -> Tuning {
    let network = |hop: Micros| {
        if ideal_network {
            Micros::new(0.0)
        } else {
            hop + network_extra_us
        }
    };
    let c = calibration;
    let sharp = crate::catalog::switch(fabric.switch_key()).is_some_and(|s| s.sharp);
    let (ll, ll128) = protocols(c, network);
    let nccl = Calibration::default();
    // NCCL's rates are the links' at the default efficiencies.
    let transport = fabric.technology.transport();
    let network_scale = nccl.efficiency(transport) / c.efficiency(transport).max(1e-9);
    let scale_up_scale = c.scale_up_efficiency.map_or(1.0, |e| {
        gpu.scale_up_effective_gbytes_per_s / gpu.scale_up_gbytes_per_s / e.max(1e-9)
    });
    let (nccl_ll, nccl_ll128) = protocols(&nccl, network);
    let nccl_simple = Latencies {
        base_us: nccl.collective_base_latency_us,
        scale_up_hop_us: nccl.scale_up_hop_latency_us,
        network_hop_us: network(nccl.network_hop_latency_us),
    };
    let simple = Latencies {
        base_us: c.collective_base_latency_us,
        scale_up_hop_us: c.scale_up_hop_latency_us,
        network_hop_us: network(c.network_hop_latency_us),
    };
    let nvls = |c: &Calibration| {
        (c.nvls && gpu.nvlink_sharp).then(|| Nvls {
            rate: (scale_up_line * c.nvls_efficiency).to_byte_rate(),
            latency_us: c.nvls_latency_us,
        })
    };
    // NCCL's NVLS is its constants' wherever the design lets NCCL use it.
    let nccl_nvls = nvls(&Calibration {
        nvls: c.nvls,
        ..nccl.clone()
    });
    let calibrated_nvls = nvls(c);
    Tuning {
        ll: Some(ll),
        ll128: Some(ll128),
        nvls: calibrated_nvls,
        in_network: (c.in_network_reduction && sharp).then_some(InNetwork {
            efficiency: c.in_network_efficiency,
            latency_us: if ideal_network {
                Micros::new(0.0)
            } else {
                c.in_network_latency_us
            },
        }),
        only: None,
        nccl: ((ll, ll128, simple) != (nccl_ll, nccl_ll128, nccl_simple)
            || calibrated_nvls != nccl_nvls
            || (network_scale, scale_up_scale) != (1.0, 1.0))
            .then_some(NcclModel {
                simple: nccl_simple,
                ll: Some(nccl_ll),
                ll128: Some(nccl_ll128),
                nvls: nccl_nvls,
                network_scale,
                scale_up_scale,
            }),
    }
}

/// LL and LL128 as calibration `c` gives them, their network hop as `network` counts it.
fn protocols(
    c: &Calibration,
    network: impl Fn(Micros) -> Micros,
) -> (ProtocolModel, ProtocolModel) {
    (
        ProtocolModel {
            protocol: Protocol::Ll,
            bandwidth_share: c.ll_bandwidth_share,
            latencies: Latencies {
                base_us: c.ll_base_latency_us,
                scale_up_hop_us: c.ll_scale_up_hop_latency_us,
                network_hop_us: network(c.ll_network_hop_latency_us),
            },
        },
        ProtocolModel {
            protocol: Protocol::Ll128,
            bandwidth_share: c.ll128_bandwidth_share,
            latencies: Latencies {
                base_us: c.ll128_base_latency_us,
                scale_up_hop_us: c.ll128_scale_up_hop_latency_us,
                network_hop_us: network(c.ll128_network_hop_latency_us),
            },
        },
    )
}

impl Links {
    pub fn new(
        cluster: &Cluster,
        gpu: &Gpu,
        fabric: &Fabric,
        calibration: &Calibration,
        conditions: Conditions,
    ) -> Links {
        let transport = fabric.technology.transport();
        let ports_per_node = ports_per_node(cluster, fabric);
        let line = BitRate::gbps(fabric.port_gbps());
        let scale_up_line = cluster
            .scale_up_gbytes_per_s
            .unwrap_or(gpu.scale_up_gbytes_per_s);
        let scale_up_efficiency = calibration
            .scale_up_efficiency
            .unwrap_or(gpu.scale_up_effective_gbytes_per_s / gpu.scale_up_gbytes_per_s);
        let port = if conditions.ideal_network {
            ByteRate::new(f64::INFINITY)
        } else {
            line.to_byte_rate() * (calibration.efficiency(transport) * conditions.network_share)
        };
        let network_hop_us = if conditions.ideal_network {
            Micros::new(0.0)
        } else {
            calibration.hop_latency_us(transport)
        };
        let network_extra_us =
            calibration.hop_latency_us(transport) - calibration.network_hop_latency_us;
        let tuning = tuning(
            gpu,
            scale_up_line,
            fabric,
            calibration,
            network_extra_us,
            conditions.ideal_network,
        );
        Links {
            gpus_per_node: cluster.gpus_per_node,
            nodes: fabric.attached_nodes.unwrap_or(cluster.nodes),
            scale_up: (scale_up_line * scale_up_efficiency).to_byte_rate(),
            port,
            node: port * f64::from(ports_per_node),
            ports_per_node,
            port_line_rate: line,
            transport,
            latencies: Latencies {
                base_us: calibration.collective_base_latency_us,
                scale_up_hop_us: calibration.scale_up_hop_latency_us,
                network_hop_us,
            },
            uniform_traffic_share: 1.0,
            tuning,
            nodes_per_leaf: u32::MAX,
            multipath_share: 1.0,
            nodes_per_pod: u32::MAX,
            crossings: if conditions.ideal_network {
                [Crossing::NONE; 2]
            } else {
                [
                    Crossing {
                        share: calibration.spine_efficiency_share,
                        hop_extra_us: calibration.spine_hop_extra_latency_us,
                    },
                    Crossing {
                        share: calibration.core_efficiency_share,
                        hop_extra_us: calibration.core_hop_extra_latency_us,
                    },
                ]
            },
        }
    }

    /// These links on a fabric sized as `plan`, of which `nodes` are attached, `ports_per_node`
    /// each, where flows crossing the leaf uplinks get `multipath_share` of them.
    pub fn on_plan(
        mut self,
        plan: &crate::topology::Plan,
        oversubscription: f64,
        nodes: u32,
        ports_per_node: u32,
        multipath_share: f64,
    ) -> Links {
        let leaving_leaf = crate::headroom::share_leaving_leaf(plan, nodes, ports_per_node);
        self.uniform_traffic_share = 1.0 / (oversubscription * leaving_leaf).max(1.0);
        self.nodes_per_leaf = crate::headroom::nodes_per_leaf(plan, ports_per_node);
        self.nodes_per_pod = crate::headroom::nodes_per_pod(plan, ports_per_node);
        self.multipath_share = multipath_share.clamp(0.0, 1.0);
        self
    }

    /// What crossing the upper tiers costs a group spanning `nodes` nodes (placed together):
    /// the spines' beyond one leaf, the core's as well beyond one pod.
    pub fn crossing(&self, nodes: u32) -> Crossing {
        let crossed =
            usize::from(nodes > self.nodes_per_leaf) + usize::from(nodes > self.nodes_per_pod);
        self.crossings[..crossed]
            .iter()
            .fold(Crossing::NONE, |all, tier| Crossing {
                share: all.share * tier.share,
                hop_extra_us: all.hop_extra_us + tier.hop_extra_us,
            })
    }

    /// A collective group of `ranks` ranks, `ranks_per_node` of them in each node, sharing the
    /// node's network with `concurrent_groups` groups like it.
    pub fn group(&self, ranks: u32, ranks_per_node: u32, concurrent_groups: u32) -> Group {
        let ranks_per_node = ranks_per_node.clamp(1, ranks.max(1));
        let nodes = ranks.div_ceil(ranks_per_node).max(1);
        let mut node_network = self.node / f64::from(concurrent_groups.max(1));
        if nodes > self.nodes_per_leaf {
            node_network *= self.multipath_share;
        }
        let crossing = self.crossing(nodes);
        Group {
            ranks,
            nodes,
            scale_up: self.scale_up,
            node_network: node_network * crossing.share,
            latencies: Latencies {
                network_hop_us: self.latencies.network_hop_us + crossing.hop_extra_us,
                ..self.latencies
            },
            crossing,
        }
    }
}

/// Ports each attached node has on `fabric`.
pub fn ports_per_node(cluster: &Cluster, fabric: &Fabric) -> u32 {
    fabric.ports_per_node.unwrap_or(match fabric.role {
        Role::Compute => cluster.nics_per_node,
        _ => 1,
    })
}
