//! Running the fabric (seed C5, C13-C15): the lossless-Ethernet checklist for RoCE fabrics and
//! its InfiniBand equivalent, configuration snippets, the NCCL settings that matter, and a
//! monitoring plan in three layers (link health, traffic visibility, application correlation)
//! with the per-port utilisation the design's workloads should produce.

use crate::report::{FabricReport, Figure, Report, WorkloadReport};
use crate::spec::{DesignSpec, Fabric};
use crate::technology::{Technology, Transport};
use crate::units::{ByteRate, Bytes, Ratio};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// MTU of the switch ports of a RoCE fabric, bytes: jumbo frames carry RoCE's 4096-byte path
/// MTU with headers to spare.
pub const SWITCH_MTU_BYTES: f64 = 9216.0;

/// One setting: what to set, to what, why, and where the value comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct Snippet {
    pub platform: Cow<'static, str>,
    pub text: String,
}

/// PFC headroom of one cable run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headroom {
    pub tier: Cow<'static, str>,
    pub length_m: f64,
    pub bytes: Figure<Bytes>,
}

/// What a workload should put on each port of the fabric, so that hot spots stand out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedUtilisation {
    pub workload: String,
    /// Average over a training step (or a storage read cycle), per port, of the line rate.
    pub average: Figure<Ratio>,
    /// While the collective runs, of the line rate.
    pub during_bursts: Ratio,
}

/// The operating guidance for one fabric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    let network = f64::from(ports_per_node) * port_rate.to_byte_rate().0 * efficiency;
    let (value, limit) = if scale_up.0 <= network {
        (scale_up.0, "the GPUs' scale-up links")
    } else {
        (network, "the NICs")
    };
    Figure::new(
        ByteRate(value),
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
        Bytes(bytes),
        format!(
            "(301 + 2.16 × {cable_m} m) × {speed} Gb/s + 2.72 × {mtu_bytes} B MTU (speed at least 40 Gb/s)"
        ),
        "Linux mlx5e driver, en/port_buffer.c calculate_xoff (NVIDIA ConnectX)",
    )
}

const CUMULUS: &str = "NVIDIA Cumulus \"roce lossless\" defaults";

fn roce_checklist() -> Vec<Setting> {
    vec![
        setting(
            "Trust",
            "L3 DSCP on every switch port",
            "RoCE v2 is routed UDP (port 4791): the DSCP mark survives every L3 hop, a VLAN PCP does not",
            CUMULUS,
        ),
        setting(
            "RoCE traffic class",
            "switch priority 3 → TC3 (weighted round robin 50 %); NICs mark DSCP 26",
            "keeps RoCE apart from everything else so that only it is lossless",
            "NVIDIA Cumulus Linux RoCE defaults; DSCP 26 is the ConnectX convention for priority 3: check the NIC",
        ),
        setting(
            "PFC",
            "on priority 3 only, on every switch and NIC port in the path",
            "RoCE recovers from loss by go-back-N: one dropped packet stalls a whole collective",
            CUMULUS,
        ),
        setting(
            "CNP",
            "switch priority 6 → TC6, strict priority; NICs mark DSCP 48",
            "congestion notifications must reach the sender before the queue overflows",
            CUMULUS,
        ),
        setting(
            "ECN",
            "on TC3, marking from 150 KB (min) to 1,500 KB (max)",
            "marks early so that DCQCN slows senders before PFC has to pause them",
            "NVIDIA Cumulus / Onyx `show roce`: min 150 KB, max 1,500 KB",
        ),
        setting(
            "Congestion control",
            "DCQCN on the NICs (ConnectX default)",
            "rate-limits senders on ECN marks; large operators have replaced it with receiver-driven admission in the collective library",
            "Zhu et al., DCQCN, SIGCOMM 2015; Gangidi et al., RDMA over Ethernet at Meta Scale, SIGCOMM 2024",
        ),
        setting(
            "PFC watchdog",
            "on every lossless queue: detection 200 ms, restoration 200 ms",
            "a queue paused for too long (a stuck NIC, a PFC storm) is dropped instead of spreading the pause through the fabric",
            "SONiC pfcwd defaults",
        ),
        setting(
            "MTU",
            "9216 B on switch ports; RoCE path MTU 4096 B on the NICs",
            "RoCE's largest path MTU is 4096 B; jumbo switch MTU leaves room for the headers",
            "RoCE v2 (IBTA annex A17) path MTU sizes",
        ),
    ]
}

fn infiniband_checklist(sharp: bool) -> Vec<Setting> {
    let mut list = vec![
        setting(
            "Subnet manager",
            "UFM or OpenSM, a master and a standby on different hosts",
            "InfiniBand forwards only what the subnet manager has programmed: without it no path comes up",
            "NVIDIA UFM / OpenSM documentation",
        ),
        setting(
            "Routing",
            "adaptive routing on (Quantum switches), fat-tree (up/down) routing engine",
            "spreads flows over the spines; recommended under heavy load, static routing under light load",
            "DeepEP README (deepseek-ai/DeepEP)",
        ),
        setting(
            "Congestion control",
            "InfiniBand credit-based flow control is lossless by design; no PFC or ECN to configure",
            "link-level credits mean a switch never sends what the next hop cannot buffer",
            "InfiniBand Architecture Specification",
        ),
    ];
    if sharp {
        list.push(setting(
            "SHARP",
            "enable in-network reductions (SHARP aggregation manager; NCCL CollNet / SHARP plugin)",
            "the switches reduce AllReduce data in the network, so each NIC sends the gradients once",
            "NVIDIA Quantum-2 QM9700 datasheet (SHARPv3); NCCL CollNet / nccl-rdma-sharp-plugins",
        ));
    }
    list
}

fn nccl_settings(fabric: &Fabric) -> Vec<Setting> {
    let mut list = vec![setting(
        "NCCL_IB_HCA",
        "the compute NICs only, one per rail (for example mlx5_0,mlx5_1,…)",
        "keeps collectives off the storage and front-end NICs",
        "NCCL environment variables documentation",
    )];
    match fabric.technology.transport() {
        Transport::Roce => {
            list.push(setting(
                "NCCL_IB_GID_INDEX",
                "3",
                "the RoCE v2 (UDP/IP) GID; index 0 or 1 would be RoCE v1 or IPv6 link-local",
                "NCCL environment variables documentation (NCCL_IB_GID_INDEX)",
            ));
            list.push(setting(
                "NCCL_IB_TC",
                "106 (DSCP 26 × 4 + ECN capable)",
                "puts NCCL's traffic in the lossless class the switches expect",
                "NCCL environment variables documentation",
            ));
            list.push(setting(
                "NCCL_IB_QPS_PER_CONNECTION",
                "4",
                "more queue pairs give ECMP more flows to spread over the spines",
                "Gangidi et al., RDMA over Ethernet for Distributed AI Training at Meta Scale, SIGCOMM 2024 (enhanced ECMP)",
            ));
        }
        Transport::InfiniBand => list.push(setting(
            "NCCL_IB_QPS_PER_CONNECTION",
            "1 (default); raise only if adaptive routing is off",
            "adaptive routing already spreads one queue pair's packets",
            "NCCL environment variables documentation",
        )),
        Transport::Tcp => {
            list.clear();
            list.push(setting(
                "NCCL_SOCKET_IFNAME",
                "the fabric's interface",
                "without RDMA NCCL uses sockets; name the right interface so it does not pick a management port",
                "NCCL environment variables documentation",
            ));
        }
    }
    list
}

fn link_counters(technology: Technology) -> Vec<Setting> {
    const PMA: &str = "InfiniBand PMA counters (NVIDIA UFM supported port counters)";
    const ETH: &str = "IEEE 802.3 / 802.1Qbb interface counters";
    if technology.transport() == Transport::InfiniBand {
        vec![
            setting(
                "SymbolErrorCounter",
                "alert on any increase",
                "bit errors on the wire: a dirty connector or a failing cable",
                PMA,
            ),
            setting(
                "LinkErrorRecoveryCounter, LinkDownedCounter",
                "alert on any increase",
                "a flapping link retrains and stalls every ring through it",
                PMA,
            ),
            setting(
                "PortRcvErrors, PortRcvRemotePhysicalErrors",
                "alert on any increase",
                "corrupted packets, dropped and resent",
                PMA,
            ),
            setting(
                "PortXmitDiscards",
                "alert on any increase",
                "packets dropped for lack of credits or a dead path",
                PMA,
            ),
            setting(
                "PortXmitWait",
                "trend; compare ports of the same tier",
                "time a port had data but no credits: congestion",
                PMA,
            ),
            setting(
                "PortXmitData, PortRcvData",
                "rate per port, every 10 s or faster",
                "utilisation, against the expectation below",
                PMA,
            ),
        ]
    } else {
        let mut list = vec![
            setting(
                "FCS / CRC errors, symbol errors",
                "alert on any increase",
                "a degraded optic or cable: the ring runs at its slowest link",
                ETH,
            ),
            setting(
                "Link flaps, effective speed",
                "alert on any change",
                "a port that retrained to a lower speed halves its ring",
                ETH,
            ),
            setting(
                "Drops and discards per queue",
                "alert on any increase in the RoCE queue",
                "a lossless queue should never drop",
                ETH,
            ),
            setting(
                "Transmit and receive bytes per port",
                "rate per port, every 10 s or faster",
                "utilisation, against the expectation below",
                ETH,
            ),
        ];
        if technology.needs_lossless_ethernet() {
            list.push(setting(
                "PFC pause frames sent and received, priority 3",
                "trend; alert on a port that pauses far more than its peers",
                "pauses spreading backwards mark a congested or stuck receiver",
                ETH,
            ));
            list.push(setting(
                "ECN-marked packets, CNPs",
                "trend per port",
                "congestion the senders are being told to back off from",
                CUMULUS,
            ));
            list.push(setting(
                "PFC watchdog events",
                "alert on any",
                "a queue was stuck long enough to be dropped",
                "SONiC pfcwd",
            ));
        }
        list
    }
}

fn snippets(fabric: &Fabric) -> Vec<Snippet> {
    match fabric.technology.transport() {
        Transport::Roce => vec![
            Snippet {
                platform: "NVIDIA Cumulus Linux (NVUE)".into(),
                text: "nv set qos roce mode lossless\n\
                       nv set qos roce congestion-control congestion-mode ecn\n\
                       nv set interface swp1-64 mtu 9216\n\
                       nv config apply"
                    .into(),
            },
            Snippet {
                platform: "SONiC".into(),
                text: "# config_db.json: PFC on priority 3 for every port\n\
                       \"PORT_QOS_MAP\": { \"Ethernet0\": { \"pfc_enable\": \"3\", \"dscp_to_tc_map\": \"AZURE\" } }\n\
                       # ECN on the lossless queue: 150 KB to 1,500 KB\n\
                       config ecn -profile AZURE_LOSSLESS -gmin 153600 -gmax 1536000\n\
                       # PFC watchdog on every lossless queue\n\
                       pfcwd start_default\n\
                       config interface mtu Ethernet0 9216"
                    .into(),
            },
        ],
        Transport::InfiniBand => vec![Snippet {
            platform: "OpenSM (opensm.conf)".into(),
            text: "routing_engine ar_updn\n\
                   sm_priority 15   # 14 on the standby\n\
                   # UFM: Settings > Adaptive Routing enabled; SHARP aggregation manager on"
                .into(),
        }],
        Transport::Tcp => Vec::new(),
    }
}

fn expected_utilisation(
    spec: &DesignSpec,
    fabric: &Fabric,
    fabric_report: &FabricReport,
    report: &Report,
) -> Vec<ExpectedUtilisation> {
    let port = fabric_report.port_rate.to_byte_rate().0;
    let ports = f64::from(fabric_report.ports_per_node.max(1));
    let nodes = f64::from(fabric_report.attached_nodes.max(1));
    // A healthy port runs at the achievable fraction of line rate while a large collective is
    // in flight (the calibration).
    let burst = Ratio(spec.calibration.efficiency(fabric.technology.transport()));
    report
        .workloads
        .iter()
        .filter_map(|w| match w {
            WorkloadReport::Training(t) if t.fabric == fabric.name && t.step_time.value.0 > 0.0 => {
                let share =
                    t.network_bytes_per_node_per_step.0 / ports / t.step_time.value.0 / port;
                Some(ExpectedUtilisation {
                    workload: t.name.clone(),
                    average: Figure::new(
                        Ratio(share),
                        "network bytes per node per step ÷ ports per node ÷ step time ÷ port rate",
                        "engine: training report",
                    ),
                    during_bursts: burst,
                })
            }
            WorkloadReport::Storage(s) if s.fabric == fabric.name => {
                let share = s.read_needed.value.0 / (nodes * ports) / port;
                Some(ExpectedUtilisation {
                    workload: s.name.clone(),
                    average: Figure::new(
                        Ratio(share),
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
                crate::units::Seconds(t.step_time.value.0 + t.communication_time.value.0)
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
                    bytes: pfc_headroom(fabric.port_gbps(), length_m, SWITCH_MTU_BYTES),
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
mod tests {
    use super::*;

    #[test]
    fn pfc_headroom_of_400g_over_10_m_with_jumbo_frames_is_154_kb() {
        // (301 + 2.16 × 10) × 400 + 2.72 × 9216 = 129,040 + 25,067.52
        let h = pfc_headroom(400.0, 10.0, 9216.0);
        assert!((h.value.0 - 154_107.52).abs() < 1e-6, "{}", h.value.0);
        assert!(h.formula.contains("2.16 × 10 m"));
        assert!(h.source.contains("port_buffer.c"));
    }

    #[test]
    fn pfc_headroom_grows_with_cable_and_counts_slow_links_at_40g() {
        // 100G over 3 m: (301 + 6.48) × 100 + 25,067.52 = 55,815.52
        assert!((pfc_headroom(100.0, 3.0, 9216.0).value.0 - 55_815.52).abs() < 1e-6);
        // 25G is counted at 40G: (301 + 4.32) × 40 + 25,067.52 = 37,280.32
        assert!((pfc_headroom(25.0, 2.0, 9216.0).value.0 - 37_280.32).abs() < 1e-6);
        assert!(
            pfc_headroom(400.0, 100.0, 9216.0).value.0 > pfc_headroom(400.0, 10.0, 9216.0).value.0
        );
    }

    fn guidance(example: &str) -> (DesignSpec, Vec<FabricOperations>) {
        let spec = DesignSpec::from_json(example).unwrap();
        let report = crate::evaluate(&spec).unwrap();
        let ops = operations(&spec, &report);
        (spec, ops)
    }

    #[test]
    fn a_roce_fabric_gets_the_lossless_checklist_headroom_snippets_and_nccl_settings() {
        let (_, ops) = guidance(crate::examples::SEVENTY_B_INFERENCE_400G);
        let roce = ops
            .iter()
            .find(|o| o.technology.needs_lossless_ethernet())
            .expect("a RoCE fabric");
        let items: Vec<&str> = roce.checklist.iter().map(|s| s.item.as_ref()).collect();
        for item in [
            "Trust",
            "PFC",
            "CNP",
            "ECN",
            "Congestion control",
            "PFC watchdog",
            "MTU",
        ] {
            assert!(items.contains(&item), "{item} in {items:?}");
        }
        assert!(!roce.pfc_headroom.is_empty());
        let platforms: Vec<&str> = roce.snippets.iter().map(|s| s.platform.as_ref()).collect();
        assert!(platforms.iter().any(|p| p.contains("NVUE")));
        assert!(platforms.iter().any(|p| p.contains("SONiC")));
        let gid = roce
            .nccl
            .iter()
            .find(|s| s.item == "NCCL_IB_GID_INDEX")
            .unwrap();
        assert_eq!(gid.value, "3");
        assert!(roce
            .link_counters
            .iter()
            .any(|c| c.item.contains("PFC pause")));
    }

    #[test]
    fn an_infiniband_fabric_gets_its_subnet_manager_routing_and_sharp() {
        let (_, ops) = guidance(crate::examples::SEVENTY_B_TRAINING);
        let compute = &ops[0];
        assert_eq!(compute.technology, Technology::IbNdr);
        let items: Vec<&str> = compute.checklist.iter().map(|s| s.item.as_ref()).collect();
        assert!(items.contains(&"Subnet manager"));
        assert!(items.contains(&"Routing"));
        assert!(
            items.contains(&"SHARP"),
            "the QM9700 supports SHARP: {items:?}"
        );
        assert!(compute.pfc_headroom.is_empty());
        assert!(compute
            .link_counters
            .iter()
            .any(|c| c.item == "SymbolErrorCounter"));
        assert!(compute.traffic_tool.contains("UFM"));
        // The training workload's expected utilisation: a share of the line rate.
        let u = &compute.expected_utilisation[0];
        assert!(
            u.average.value.0 > 0.0 && u.average.value.0 <= 1.0,
            "{}",
            u.average.value.0
        );
        assert!(compute.application[0].contains("communication time per step"));
        // DGX H100 on NDR: min(370 GB/s NVLink, 8 × 50 GB/s × 0.95 = 380 GB/s) = 370 GB/s.
        let busbw = compute.expected_allreduce_busbw.as_ref().unwrap();
        assert!((busbw.value.as_gigabytes_per_second() - 370.0).abs() < 1e-9);
        assert!(busbw.formula.contains("scale-up links"));
        // The storage fabric carries no collectives.
        assert!(ops[1].expected_allreduce_busbw.is_none());
    }

    #[test]
    fn four_nics_per_node_make_the_network_the_allreduce_limit() {
        // 4 × 400 Gb/s × 0.95 = 190 GB/s, under the 370 GB/s of NVLink.
        let f = expected_allreduce_busbw(
            ByteRate::gigabytes_per_second(370.0),
            4,
            crate::units::BitRate::gbps(400.0),
            0.95,
        );
        assert!((f.value.as_gigabytes_per_second() - 190.0).abs() < 1e-9);
        assert!(f.formula.contains("limited by the NICs"));
    }

    #[test]
    fn a_tcp_fabric_has_no_lossless_settings() {
        let (_, ops) = guidance(crate::examples::SEVENTY_B_INFERENCE_25G);
        let tcp = &ops[0];
        assert!(tcp.checklist.is_empty());
        assert!(tcp.pfc_headroom.is_empty());
        assert!(tcp.snippets.is_empty());
        assert_eq!(tcp.nccl[0].item, "NCCL_SOCKET_IFNAME");
        assert!(!tcp.link_counters.iter().any(|c| c.item.contains("PFC")));
    }
}
