//! What one rack's loss takes away, read off the floor as placed: the nodes standing in it, the
//! switches in it, and on each fabric the nodes elsewhere cut off from it (every link of theirs
//! ends on a switch in that rack) or left with fewer links (some of them do, as one rail of a
//! rail-optimised node); and the training jobs and services that lose nodes, by where each runs
//! ([`crate::allocation`]). A rack is what a power or cooling fault, or a mis-step in it, takes
//! down at once.

use crate::allocation::Allocation;
use crate::cabling::Cable;
use crate::floor::FloorReport;
use crate::report::{Finding, Severity};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One rack lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RackLoss {
    pub rack: String,
    /// Nodes standing in the rack.
    pub nodes: u32,
    pub gpus: u64,
    /// What each fabric with a switch or a node in the rack loses.
    pub fabrics: Vec<FabricLoss>,
    /// Each workload that loses nodes (standing in the rack, or cut off from the fabric it runs
    /// on), with how many.
    pub workloads: Vec<(String, u32)>,
}

/// What one fabric loses with a rack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FabricLoss {
    pub fabric: String,
    /// Its switches standing in the rack.
    pub switches: u32,
    /// Nodes outside the rack with every link to this fabric ending in it.
    pub cut_off: u32,
    /// Nodes outside the rack with some, not all, of their links to this fabric ending in it.
    pub fewer_links: u32,
    /// Nodes on the fabric.
    pub of_nodes: u32,
}

/// A node's links to one fabric: how many, and how many end in each rack.
type NodeLinks<'s> = (u32, BTreeMap<&'s str, u32>);

/// The number of node `label` ("node-017" is 17).
fn node_number(label: &str) -> Option<u32> {
    label.strip_prefix("node-")?.parse().ok()
}

/// Every rack's loss on `floor` with cabling `sheet`, the ones that take most nodes away first
/// (standing in it or cut off from a fabric), then by name. Racks whose loss takes nothing are
/// left out.
pub fn rack_losses(
    floor: &FloorReport,
    sheet: &[Cable],
    allocations: &[Allocation],
    gpus_per_node: u32,
) -> Vec<RackLoss> {
    let mut links: BTreeMap<&str, BTreeMap<u32, NodeLinks>> = BTreeMap::new();
    for c in sheet.iter().filter(|c| c.tier == "node-leaf") {
        let (Some(node), Some(rack)) = (node_number(&c.a_device), c.z_rack.as_deref()) else {
            continue;
        };
        let entry = links
            .entry(c.fabric.as_str())
            .or_default()
            .entry(node)
            .or_default();
        entry.0 += 1;
        *entry.1.entry(rack).or_default() += 1;
    }
    let mut out: Vec<RackLoss> = floor
        .racks
        .iter()
        .filter_map(|rack| {
            let standing: Vec<u32> = rack
                .devices
                .iter()
                .filter(|d| d.role == "node")
                .filter_map(|d| node_number(&d.label))
                .collect();
            // Nodes cut off, per fabric.
            let mut cut: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
            let mut fabrics = Vec::new();
            for (fabric, nodes) in &links {
                let prefix = format!("{fabric}-");
                let switches = rack
                    .devices
                    .iter()
                    .filter(|d| d.role != "node" && d.label.starts_with(&prefix))
                    .count() as u32;
                let (mut cut_off, mut fewer_links) = (0, 0);
                for (node, (all, by_rack)) in nodes {
                    if standing.contains(node) {
                        continue;
                    }
                    match by_rack.get(rack.name.as_str()) {
                        Some(here) if here == all => {
                            cut_off += 1;
                            cut.entry(fabric).or_default().push(*node);
                        }
                        Some(_) => fewer_links += 1,
                        None => {}
                    }
                }
                if switches + cut_off + fewer_links > 0 {
                    fabrics.push(FabricLoss {
                        fabric: fabric.to_string(),
                        switches,
                        cut_off,
                        fewer_links,
                        of_nodes: nodes.len() as u32,
                    });
                }
            }
            if standing.is_empty() && fabrics.is_empty() {
                return None;
            }
            // A workload loses the nodes of its own standing in the rack, and those cut off
            // from the fabric it runs on.
            let workloads = allocations
                .iter()
                .filter_map(|a| {
                    let on_fabric = cut.get(a.fabric.as_str()).map_or(&[][..], Vec::as_slice);
                    let hit = standing
                        .iter()
                        .chain(on_fabric)
                        .filter(|n| a.holds(**n))
                        .count() as u32;
                    (hit > 0).then(|| (a.workload.clone(), hit))
                })
                .collect();
            Some(RackLoss {
                rack: rack.name.clone(),
                nodes: standing.len() as u32,
                gpus: standing.len() as u64 * u64::from(gpus_per_node),
                fabrics,
                workloads,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        affected(b)
            .cmp(&affected(a))
            .then_with(|| a.rack.cmp(&b.rack))
    });
    out
}

/// Nodes a rack's loss takes away: standing in it, or cut off from a fabric.
fn affected(loss: &RackLoss) -> u32 {
    loss.nodes + loss.fabrics.iter().map(|f| f.cut_off).max().unwrap_or(0)
}

/// A finding for each fabric that one rack's loss cuts off from more than half of its nodes:
/// its leaves stand together, where spreading them over racks would keep most nodes on it.
pub fn findings(losses: &[RackLoss]) -> Vec<Finding> {
    losses
        .iter()
        .flat_map(|loss| {
            loss.fabrics
                .iter()
                .filter(|f| f.of_nodes > 0 && f.cut_off * 2 > f.of_nodes)
                .map(move |f| Finding {
                    severity: Severity::Warning,
                    rule: "rack-cuts-off-fabric".into(),
                    subject: f.fabric.clone(),
                    message: format!(
                        "Losing rack {} cuts {} of the {} nodes of fabric {} off from it: every link of theirs ends on its switches there. Leaves spread over racks on separate feeds would keep most nodes on it.",
                        loss.rack, f.cut_off, f.of_nodes, f.fabric
                    ),
                })
        })
        .collect()
}

#[cfg(test)]
mod tests;
