//! The tenants sharing the fabric: where each runs, the partition it is given, how much the
//! others' traffic slows it, and what its isolation costs.

use super::blocks::{findings_block, heading, note, table};
use super::Block;
use crate::money::usd;
use engine::tenancy::{Contended, Interference, Partition};
use engine::Report;
use engine::Transport;

const PLACEMENT: &str = "Each tenant is placed in the fewest scalable units of the compute fabric (the nodes one leaf serves, one leaf per rail in a rail-optimized fabric): pinned tenants first, then those that take whole units, largest first, then the others in the unit they fill best. A tenant under one leaf sends nothing to the spines and meets no other tenant's traffic.";

const INTERFERENCE: &str = "Tenants meet on the uplinks of the leaves they share. On each leaf, p ports sending across share its m uplinks (each gets min(1, m ÷ p) of its rate) and, where flows are hashed (ECMP), collide as balls in bins; a collective runs at its slowest leaf. On a three-tier fabric a tenant spanning pods meets the others spanning pods on its pods' spine-to-core uplinks alike, and runs at the slower tier. Alone: only the tenant's ports send. Worst: every crossing workload on its leaves sends at once. Expected: the others send for the share of their time their network is busy. Every port of a crossing workload is taken to send across at once.";

/// "R01-01", "R01-01 to R01-04 (4)".
fn racks(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [first, .., last] => format!("{first} to {last} ({})", names.len()),
    }
}

/// "step time 40.4 s → 41.0 s → 42.3 s".
fn times(w: &Contended) -> String {
    if w.alone == w.worst {
        format!("“{}”: {} {}, unchanged", w.workload, w.measure, w.alone)
    } else {
        format!(
            "“{}”: {} {} alone, {} expected, {} worst",
            w.workload, w.measure, w.alone, w.expected, w.worst
        )
    }
}

/// A figure of a fabric of its own, "–" for a tenant that has none.
fn own_fabric(c: &engine::tenancy::IsolationCost, figure: String) -> String {
    if c.isolation == engine::Isolation::Fabric {
        figure
    } else {
        "–".into()
    }
}

/// A tenant's partition on the design's fabrics: its key where one is InfiniBand, its VRF and
/// VLAN where one is Ethernet; `(infiniband, ethernet)` says which the design has.
fn partition(p: Option<&Partition>, (infiniband, ethernet): (bool, bool)) -> String {
    let mut parts = Vec::new();
    match p {
        Some(p) => {
            if infiniband {
                parts.push(format!("P_Key {}", p.pkey_hex()));
            }
            if ethernet {
                parts.push(format!(
                    "VRF {} (L3 VNI {}, RT {}); VLAN {} (L2 VNI {})",
                    p.vrf, p.l3_vni, p.route_target, p.vlan, p.l2_vni
                ));
            }
        }
        None => parts.push(if infiniband {
            "default (P_Key 0x7fff)".to_string()
        } else {
            "default VRF".to_string()
        }),
    }
    parts.join("; ")
}

/// The tenants section of `report` placed on `floor`, with each tenant's `interference`; nothing
/// for a design of one tenant.
pub fn tenant_blocks(
    spec: &engine::DesignSpec,
    report: &Report,
    interference: &[Interference],
    floor: &engine::floor::FloorReport,
) -> Vec<Block> {
    if report.tenants.is_empty() {
        return Vec::new();
    }
    let mut blocks = vec![heading(1, "tenants", "Tenants"), note(PLACEMENT)];
    let transports = (
        report
            .fabrics
            .iter()
            .any(|f| f.technology.transport() == Transport::InfiniBand),
        report
            .fabrics
            .iter()
            .any(|f| f.technology.transport() != Transport::InfiniBand),
    );
    let workloads = |tenant: &str| {
        spec.tenants
            .iter()
            .find(|t| t.name == tenant)
            .map(|t| t.workloads.join(", "))
            .filter(|w| !w.is_empty())
            .unwrap_or_else(|| "none yet".into())
    };
    let mut placed = table(
        "Where each tenant runs",
        &[
            ("Tenant", false),
            ("Isolation", false),
            ("Nodes", false),
            ("Scalable units", false),
            ("Racks", false),
            ("Stranded nodes", true),
            ("Partition", false),
            ("Workloads", false),
        ],
        report
            .tenants
            .iter()
            .map(|t| {
                let pinned = if t.pinned { ", pinned" } else { "" };
                vec![
                    t.tenant.clone(),
                    t.isolation.label().to_string(),
                    t.range(),
                    format!("{}{pinned}", t.unit_range()),
                    racks(&t.racks(floor)),
                    t.stranded_nodes.to_string(),
                    partition(t.partition.as_ref(), transports),
                    workloads(&t.tenant),
                ]
            })
            .collect(),
    );
    placed.id = Some("tenant-placement".into());
    blocks.push(Block::Table(placed));
    blocks.push(Block::Chart {
        id: "tenants-floor".into(),
        caption: "The floor, each rack of nodes coloured by the tenant that holds most of them"
            .into(),
        svg: engine::tenancy::floor_plan_by_tenant(floor, &report.tenants),
    });
    if !interference.is_empty() {
        blocks.push(note(INTERFERENCE));
        let mut t = table(
            "Interference on shared uplinks",
            &[
                ("Tenant", false),
                ("Fabric", false),
                ("Leaves (shared); pods", false),
                ("Share of spine ports; of core", true),
                ("Uplinks carry: alone / expected / worst", false),
                ("Workloads", false),
            ],
            interference
                .iter()
                .map(|i| {
                    let carried = if i.crosses_leaves {
                        format!(
                            "{} / {} / {}",
                            i.alone.value, i.expected.value, i.worst.value
                        )
                    } else {
                        "stays under its leaves".to_string()
                    };
                    vec![
                        i.tenant.clone(),
                        i.fabric.clone(),
                        if i.pods > 0 {
                            format!(
                                "{} ({}); pods {} ({})",
                                i.leaves, i.shared_leaves, i.pods, i.shared_pods
                            )
                        } else {
                            format!("{} ({})", i.leaves, i.shared_leaves)
                        },
                        if i.pods > 0 {
                            format!("{}; core {}", i.spine_share, i.core_share)
                        } else {
                            i.spine_share.to_string()
                        },
                        carried,
                        i.workloads.iter().map(times).collect::<Vec<_>>().join("; "),
                    ]
                })
                .collect(),
        );
        t.id = Some("tenant-interference".into());
        blocks.push(Block::Table(t));
        let found = engine::tenancy::findings(interference);
        if !found.is_empty() {
            blocks.push(findings_block(&found));
        }
    }
    let mut cost = table(
        "What each tenant's isolation costs against sharing everything",
        &[
            ("Tenant", false),
            ("Isolation", false),
            ("Stranded GPUs", true),
            ("Idle leaf ports", true),
            ("Switches (ports) a fabric of its own adds", true),
            ("Their cost", true),
        ],
        report
            .isolation_costs
            .iter()
            .map(|c| {
                vec![
                    c.tenant.clone(),
                    c.isolation.label().to_string(),
                    c.stranded_gpus.to_string(),
                    c.stranded_ports.to_string(),
                    own_fabric(c, format!("{} ({})", c.extra_switches, c.extra_ports)),
                    own_fabric(c, usd(c.extra_switch_cost)),
                ]
            })
            .collect(),
    );
    cost.id = Some("tenant-isolation-cost".into());
    blocks.push(Block::Table(cost));
    let own: Vec<String> = report
        .isolation_costs
        .iter()
        .filter(|c| c.extra_switches > 0)
        .map(|c| {
            format!(
                "{} ({}, {})",
                c.tenant,
                crate::words::counted(c.extra_switches, "switch", "switches"),
                usd(c.extra_switch_cost)
            )
        })
        .collect();
    if !own.is_empty() {
        blocks.push(note(format!(
            "The bill of materials is the shared fabric's: the fabrics of their own of {} are not in it.",
            own.join(", ")
        )));
    }
    blocks
}

/// The SuperPOD example with its job on 5 nodes (no growth phases) and `tenants`: what the
/// tests of the tenants' presentation read.
#[cfg(test)]
fn five_node_job_with(tenants: serde_json::Value) -> engine::DesignSpec {
    let mut spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    spec.as_object_mut().unwrap().remove("growth");
    spec["workloads"][0]["parallelism"]["pp"] = 1.into();
    spec["workloads"][0]["parallelism"]["dp"] = 5.into();
    spec["workloads"][0]["global_batch"] = 20.into();
    spec["tenants"] = tenants;
    engine::DesignSpec::from_value(spec).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SuperPOD example shared by two teams, one on whole units: the section says where
    /// each runs, its partition, and what the whole units strand.
    #[test]
    fn the_section_places_each_tenant_with_its_partition_and_its_cost() {
        let spec = five_node_job_with(serde_json::json!([
            {"name": "research", "workloads": ["Llama 3.1 405B pre-training"], "isolation": "scalable_unit"},
            {"name": "guests", "nodes": 8, "isolation": "shared"}
        ]));
        let report = engine::evaluate(&spec).unwrap().over_its_life(&spec);
        let floor = engine::floor::plan(&spec, &report);
        let blocks = tenant_blocks(&spec, &report, &report.interference, &floor);
        let rows = |id: &str| {
            blocks
                .iter()
                .find_map(|b| match b {
                    Block::Table(t) if t.id.as_deref() == Some(id) => Some(t.rows.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| panic!("table {id}"))
        };
        let placed = rows("tenant-placement");
        // 5 nodes of 8 GPUs on whole units of 32: one unit, 27 nodes stranded.
        assert_eq!(
            placed[0][..6],
            [
                "research",
                "per scalable unit",
                "nodes 1–32",
                "unit 1",
                "R01-01 to R01-10 (8)",
                "27"
            ]
        );
        assert_eq!(
            placed[1][4], "R04-01 to R04-02 (2)",
            "the guests' two racks"
        );
        assert_eq!(
            placed[0][6], "P_Key 0x1001",
            "InfiniBand fabrics: a key, no VRF"
        );
        assert_eq!(placed[1][6], "default (P_Key 0x7fff)");
        // Best fit: the unit with the least room it fits in, the last one (31 nodes).
        assert_eq!(placed[1][2], "nodes 97–104");
        let cost = rows("tenant-isolation-cost");
        assert_eq!(cost[0][2], "216", "27 nodes × 8 GPUs");
        assert_eq!(cost[0][3], "216", "27 nodes × 8 leaf ports, one per rail");
        let svg = blocks
            .iter()
            .find_map(|b| match b {
                Block::Chart { id, svg, .. } if id == "tenants-floor" => Some(svg.clone()),
                _ => None,
            })
            .expect("the floor by tenant");
        // Four DGX to a rack: the guests' 8 nodes stand in two racks.
        assert!(
            svg.contains(": research (4 nodes)") && svg.contains(": guests (4 nodes)"),
            "each rack names its tenants"
        );
        let rag = engine::DesignSpec::from_json(engine::examples::RAG).unwrap();
        let rag_report = engine::evaluate(&rag).unwrap();
        let rag_floor = engine::floor::plan(&rag, &rag_report);
        assert!(tenant_blocks(&rag, &rag_report, &[], &rag_floor).is_empty());
    }
}
