//! The fixed guidance of each transport: the lossless-Ethernet checklist and its InfiniBand
//! equivalent, the NCCL settings that matter, the link counters to alert on, and the switch
//! configuration that applies them.

use super::{setting, Setting, Snippet};
use crate::spec::Fabric;
use crate::technology::{Technology, Transport};

const CUMULUS: &str = "NVIDIA Cumulus \"roce lossless\" defaults";

pub(super) fn roce_checklist() -> Vec<Setting> {
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

pub(super) fn infiniband_checklist(sharp: bool) -> Vec<Setting> {
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

pub(super) fn nccl_settings(fabric: &Fabric) -> Vec<Setting> {
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

pub(super) fn link_counters(technology: Technology) -> Vec<Setting> {
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

pub(super) fn snippets(fabric: &Fabric) -> Vec<Snippet> {
    match fabric.technology.transport() {
        Transport::Roce => vec![
            Snippet {
                platform: "NVIDIA Cumulus Linux (NVUE)".into(),
                text: "nv set qos roce mode lossless\n\
                       nv set qos roce cable-length 5   # the longest cable on the switch, m\n\
                       nv set interface swp1-64 link mtu 9216\n\
                       nv set interface swp1-64 qos pfc-watchdog state enable\n\
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
