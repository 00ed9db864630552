//! Running the fabric (seed C5, C13-C15): the lossless-Ethernet checklist for RoCE fabrics and
//! its InfiniBand equivalent, configuration snippets, the NCCL settings that matter, and a
//! monitoring plan in three layers (link health, traffic visibility, application correlation)
//! with the per-port utilisation the design's workloads should produce.

use crate::figure::Figure;
use crate::report::{FabricReport, Report, WorkloadReport};
use crate::spec::{DesignSpec, Fabric};
use crate::technology::{Technology, Transport};
use crate::units::{ByteRate, Bytes, Share};
use guidance::{infiniband_checklist, link_counters, nccl_settings, roce_checklist, snippets};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

mod guidance;

/// MTU of the switch ports of a RoCE fabric, bytes: jumbo frames carry RoCE's 4096-byte path
/// MTU with headers to spare.
pub const SWITCH_MTU_BYTES: f64 = 9216.0;

/// One setting: what to set, to what, why, and where the value comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Setting {
    pub item: Cow<'static, str>,
    pub value: Cow<'static, str>,
    pub reason: Cow<'static, str>,
    pub source: Cow<'static, str>,
}

fn setting(
    item: impl Into<Cow<'static, str>>,
    value: impl Into<Cow<'static, str>>,
    reason: &'static str,
    source: &'static str,
) -> Setting {
    Setting {
        item: item.into(),
        value: value.into(),
        reason: reason.into(),
        source: source.into(),
    }
}

/// A configuration excerpt for one network operating system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Snippet {
    pub platform: Cow<'static, str>,
    pub text: String,
}

/// PFC headroom of one cable run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Headroom {
    pub tier: Cow<'static, str>,
    pub length_m: crate::units::Metres,
    pub bytes: Figure<Bytes>,
}

/// What a workload should put on each port of the fabric, so that hot spots stand out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExpectedUtilisation {
    pub workload: String,
    /// Average over a training step (or a storage read cycle), per port, of the line rate.
    pub average: Figure<Share>,
    /// While the collective runs, of the line rate.
    pub during_bursts: Share,
}

/// The operating guidance for one fabric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FabricOperations {
    pub fabric: String,
    pub technology: Technology,
    /// Lossless Ethernet for RoCE, subnet manager and routing for InfiniBand.
    pub checklist: Vec<Setting>,
    /// RoCE only: per port and lossless priority, for each cable run the fabric uses.
    pub pfc_headroom: Vec<Headroom>,
    pub snippets: Vec<Snippet>,
    pub nccl: Vec<Setting>,
    /// Link health: the counters to collect and alert on.
    pub link_counters: Vec<Setting>,
    /// Traffic visibility: the tool, and what the design's workloads should show.
    pub traffic_tool: Cow<'static, str>,
    pub expected_utilisation: Vec<ExpectedUtilisation>,
    /// Application correlation: what to record next to the training metrics.
    pub application: Vec<String>,
    /// What `all_reduce_perf` across every node of a compute fabric should show at 1 GiB and
    /// above: the baseline a measured run is judged against.
    pub expected_allreduce_busbw: Option<Figure<ByteRate>>,
}

/// Large-message bus bandwidth of a ring AllReduce across the nodes of a fabric:
/// min(achievable scale-up per GPU, ports per node × achievable port rate) [Thakur, Rabenseifner & Gropp, IJHPCA 2005; NCCL src/graph/topo.h,
/// derived from nccl-tests #290, #267, #212: 46-49 GB/s per NDR NIC, about 370 GB/s NVLink on H100].
pub fn expected_allreduce_busbw(
    scale_up: ByteRate,
    ports_per_node: u32,
    port_rate: crate::units::BitRate,
    efficiency: f64,
) -> Figure<ByteRate> {
    let network =
        f64::from(ports_per_node) * port_rate.to_byte_rate().bytes_per_second() * efficiency;
    let (value, limit) = if scale_up.bytes_per_second() <= network {
        (scale_up.bytes_per_second(), "the GPUs' scale-up links")
    } else {
        (network, "the NICs")
    };
    Figure::new(
        ByteRate::new(value),
        format!(
            "ring AllReduce (NCCL_ALGO=Ring, Simple protocol, messages of 1 GiB and more): min({scale_up} scale-up per GPU, {ports_per_node} ports × {port_rate} × {efficiency}): limited by {limit}"
        ),
        "nccl-tests #290, #267 (46-49 GB/s per NDR NIC), #212 (about 370 GB/s ring busbw over H100 NVLink)",
    )
}

/// Buffer a switch port must hold back, per lossless priority, for the bytes still arriving
/// after it sends a PFC pause: xoff = (301 + 2.16 × cable m) × speed Gb/s + 2.72 × MTU B,
/// speed at least 40 Gb/s [Linux mlx5e en/port_buffer.c calculate_xoff, NVIDIA ConnectX].
pub fn pfc_headroom(speed_gbps: f64, cable_m: f64, mtu_bytes: f64) -> Figure<Bytes> {
    let speed = speed_gbps.max(40.0);
    let bytes = (301.0 + 2.16 * cable_m.max(0.0)) * speed + 2.72 * mtu_bytes.max(0.0);
    Figure::new(
        Bytes::new(bytes),
        format!(
            "(301 + 2.16 × {cable_m} m) × {speed} Gb/s + 2.72 × {mtu_bytes} B MTU (speed at least 40 Gb/s)"
        ),
        "Linux mlx5e driver, the xoff calculation in en/port_buffer.c (NVIDIA ConnectX)",
    )
}

fn expected_utilisation(
    spec: &DesignSpec,
    fabric: &Fabric,
    fabric_report: &FabricReport,
    report: &Report,
) -> Vec<ExpectedUtilisation> {
    let port = fabric_report.port_rate.to_byte_rate().bytes_per_second();
    let ports = f64::from(fabric_report.ports_per_node.max(1));
    let nodes = f64::from(fabric_report.attached_nodes.max(1));
    // A healthy port runs at the achievable fraction of line rate while a large collective is
    // in flight (the calibration).
    let burst = Share::new(spec.calibration.efficiency(fabric.technology.transport()));
    report
        .workloads
        .iter()
        .filter_map(|w| match w {
            WorkloadReport::Training(t)
                if t.fabric == fabric.name && t.step_time.value.seconds() > 0.0 =>
            {
                let share = t.network_bytes_per_node_per_step.bytes()
                    / ports
                    / t.step_time.value.seconds()
                    / port;
                Some(ExpectedUtilisation {
                    workload: t.name.clone(),
                    average: Figure::new(
                        Share::new(share),
                        "network bytes per node per step ÷ ports per node ÷ step time ÷ port rate",
                        "engine: training report",
                    ),
                    during_bursts: burst,
                })
            }
            WorkloadReport::Storage(s) if s.fabric == fabric.name => {
                let share = s.read_needed.value.bytes_per_second() / (nodes * ports) / port;
                Some(ExpectedUtilisation {
                    workload: s.name.clone(),
                    average: Figure::new(
                        Share::new(share),
                        "read rate needed ÷ (nodes × ports per node) ÷ port rate",
                        "engine: storage report",
                    ),
                    during_bursts: burst,
                })
            }
            _ => None,
        })
        .collect()
}

fn application(fabric: &Fabric, report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report
        .workloads
        .iter()
        .filter_map(|w| match w {
            WorkloadReport::Training(t) if t.fabric == fabric.name => Some(format!(
                "{}: record communication time per step next to the loss; the design predicts {} of communication and {} per step, so a step that grows towards {} points at the network before the GPUs",
                t.name,
                t.communication_time.value,
                t.step_time.value,
                crate::units::Seconds::new(t.step_time.value.seconds() + t.communication_time.value.seconds())
            )),
            WorkloadReport::Inference(i) if i.fabric == fabric.name => Some(format!(
                "{}: record inter-token latency percentiles; the network's share is predicted at {} per token",
                i.name, i.network_added_per_token.value
            )),
            _ => None,
        })
        .collect();
    out.push("Keep an nccl-tests baseline (all_reduce_perf up to 8 GiB) from acceptance, and rerun it after every change and whenever steps slow down".into());
    out
}

/// The operating guidance for every fabric of the design.
pub fn operations(spec: &DesignSpec, report: &Report) -> Vec<FabricOperations> {
    let spec = &*crate::switch_choice::with_switches_chosen(spec);
    spec.fabrics
        .iter()
        .map(|fabric| {
            let technology = fabric.technology;
            let sharp = crate::catalog::switch(fabric.switch_key()).is_some_and(|s| s.sharp);
            let checklist = match technology.transport() {
                Transport::Roce => roce_checklist(),
                Transport::InfiniBand => infiniband_checklist(sharp),
                Transport::Tcp => Vec::new(),
            };
            let sized = report.fabrics.iter().find(|f| f.name == fabric.name);
            let tiers = sized.map_or(1, |f| f.plan.tiers);
            let runs = &fabric.cable_runs;
            let pfc_headroom = if technology.needs_lossless_ethernet() {
                [
                    ("node-leaf", runs.node_leaf_m, 1),
                    ("leaf-spine", runs.leaf_spine_m, 2),
                    ("spine-core", runs.spine_core_m, 3),
                ]
                .into_iter()
                .filter(|(_, _, tier)| *tier <= tiers)
                .map(|(tier, length_m, _)| Headroom {
                    tier: tier.into(),
                    length_m,
                    bytes: pfc_headroom(fabric.port_gbps(), length_m.metres(), SWITCH_MTU_BYTES),
                })
                .collect()
            } else {
                Vec::new()
            };
            FabricOperations {
                fabric: fabric.name.clone(),
                technology,
                checklist,
                pfc_headroom,
                snippets: snippets(fabric),
                nccl: nccl_settings(fabric),
                link_counters: link_counters(technology),
                traffic_tool: match technology.transport() {
                    Transport::InfiniBand => "NVIDIA UFM: per-port telemetry and congestion maps",
                    _ => "sFlow or IPFIX from every switch, per-port counters by gNMI or SNMP",
                }
                .into(),
                expected_utilisation: sized
                    .map(|f| expected_utilisation(spec, fabric, f, report))
                    .unwrap_or_default(),
                application: application(fabric, report),
                expected_allreduce_busbw: sized
                    .filter(|f| f.role == crate::spec::Role::Compute && f.attached_nodes > 1)
                    .map(|f| {
                        expected_allreduce_busbw(
                            report.cluster.scale_up,
                            f.ports_per_node,
                            f.port_rate,
                            spec.calibration.efficiency(technology.transport()),
                        )
                    }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
