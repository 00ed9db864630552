//! What one rack's loss takes away, read off the floor as placed: the nodes standing in it, the
//! switches in it, and on each fabric the nodes elsewhere cut off from it (every link of theirs
//! ends on a switch in that rack) or left with fewer links (some of them do, as one rail of a
//! rail-optimised node); and the training jobs and services that lose nodes, by where each runs
//! ([`crate::allocation`]). A rack is what a power or cooling fault, or a mis-step in it, takes
//! down at once.

mod domains;

pub use domains::{
    failures, findings as domain_findings, worst_cut_off, Element, Failure, WorkloadAfter,
};

use crate::allocation::Allocation;
use crate::cabling::Cable;
use crate::floor::{node_number, FloorReport};
use crate::report::{Finding, Severity};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One rack lost (or one row, all its racks at once).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RackLoss {
    /// The rack's name, or the row's ("row 2").
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

/// The most cables a design's rack losses are worked out for where a page asks for them: the
/// floor's whole cabling sheet is laid out to find them (a 2,048-node, 8-rail design in three
/// tiers has about 50,000).
pub const MAX_CABLES: u64 = 100_000;

/// Cables of `report`'s fabrics, from their plans (no sheet laid out).
pub fn cables(report: &crate::report::Report) -> u64 {
    report
        .fabrics
        .iter()
        .map(|f| {
            u64::from(f.plan.node_leaf_links)
                + u64::from(f.plan.leaf_spine_links)
                + u64::from(f.plan.spine_core_links)
        })
        .sum()
}

/// A node's links to one fabric: how many, and how many end in each rack.
type NodeLinks<'s> = (u32, BTreeMap<&'s str, u32>);

/// What one rack's loss does to one fabric, gathered node by node.
#[derive(Default)]
struct Tally {
    switches: u32,
    cut_off: Vec<u32>,
    fewer_links: u32,
}

/// Every rack's loss on `floor` with cabling `sheet`, the ones that take most nodes away first
/// (standing in it or cut off from a fabric), then by name. Racks whose loss takes nothing are
/// left out. One pass over the cables and one over the racks' devices.
pub fn rack_losses(
    floor: &FloorReport,
    sheet: &[Cable],
    allocations: &[Allocation],
    gpus_per_node: u32,
) -> Vec<RackLoss> {
    losses(floor, sheet, allocations, gpus_per_node, |rack| {
        rack.name.clone()
    })
}

/// Every row's loss (its power distribution or cooling, say), as [`rack_losses`]: what every
/// rack of the row takes at once. `rack` of each loss names the row, "row 1".
pub fn row_losses(
    floor: &FloorReport,
    sheet: &[Cable],
    allocations: &[Allocation],
    gpus_per_node: u32,
) -> Vec<RackLoss> {
    losses(floor, sheet, allocations, gpus_per_node, |rack| {
        format!("row {}", rack.row)
    })
}

/// The losses of the places `place` puts each rack in (the rack itself, or its row).
fn losses(
    floor: &FloorReport,
    sheet: &[Cable],
    allocations: &[Allocation],
    gpus_per_node: u32,
    place: impl Fn(&crate::floor::Rack) -> String,
) -> Vec<RackLoss> {
    // The place of each rack, by the rack's name as the sheet gives it.
    let places: BTreeMap<&str, String> = floor
        .racks
        .iter()
        .map(|r| (r.name.as_str(), place(r)))
        .collect();
    let place_of = |rack: &str| places.get(rack).map(String::as_str);
    // Per fabric, per node: its links to the fabric, and how many end in each rack.
    let mut links: BTreeMap<&str, BTreeMap<u32, NodeLinks>> = BTreeMap::new();
    for c in sheet.iter().filter(|c| c.tier == "node-leaf") {
        let (Some(node), Some(rack)) = (
            node_number(&c.a_device),
            c.z_rack.as_deref().and_then(place_of),
        ) else {
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
    // Where each node stands, and the nodes and switches of each rack.
    let mut stands: BTreeMap<u32, &str> = BTreeMap::new();
    let mut standing: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    let mut tallies: BTreeMap<(&str, &str), Tally> = BTreeMap::new();
    for rack in &floor.racks {
        let Some(here) = place_of(&rack.name) else {
            continue;
        };
        for d in &rack.devices {
            if d.role == "node" {
                if let Some(n) = node_number(&d.label) {
                    stands.insert(n, here);
                    standing.entry(here).or_default().push(n);
                }
            } else if let Some(fabric) = links.keys().find(|f| {
                d.label
                    .strip_prefix(**f)
                    .is_some_and(|rest| rest.starts_with('-'))
            }) {
                tallies.entry((here, fabric)).or_default().switches += 1;
            }
        }
    }
    // Each node outside a rack is cut off by it when every link of its ends there, and left
    // with fewer links by each rack where some do.
    for (fabric, nodes) in &links {
        for (node, (all, by_rack)) in nodes {
            for (rack, here) in by_rack {
                if stands.get(node) == Some(rack) {
                    continue;
                }
                let tally = tallies.entry((rack, fabric)).or_default();
                if here == all {
                    tally.cut_off.push(*node);
                } else {
                    tally.fewer_links += 1;
                }
            }
        }
    }
    // Each place once, in the floor's order.
    let mut seen = std::collections::BTreeSet::new();
    let order: Vec<&str> = floor
        .racks
        .iter()
        .filter_map(|r| place_of(&r.name))
        .filter(|p| seen.insert(*p))
        .collect();
    let mut out: Vec<RackLoss> = order
        .into_iter()
        .filter_map(|name| {
            let standing = standing.get(name).map_or(&[][..], Vec::as_slice);
            let fabrics: Vec<(&str, &Tally)> = tallies
                .range((name, "")..)
                .take_while(|((r, _), _)| *r == name)
                .map(|((_, f), t)| (*f, t))
                .collect();
            if standing.is_empty() && fabrics.is_empty() {
                return None;
            }
            // A workload loses the nodes of its own standing in the rack, and those cut off
            // from the fabric it runs on.
            let workloads = allocations
                .iter()
                .filter_map(|a| {
                    let on_fabric = fabrics
                        .iter()
                        .find(|(f, _)| *f == a.fabric)
                        .map_or(&[][..], |(_, t)| t.cut_off.as_slice());
                    let hit = standing
                        .iter()
                        .chain(on_fabric)
                        .filter(|n| a.holds(**n))
                        .count() as u32;
                    (hit > 0).then(|| (a.workload.clone(), hit))
                })
                .collect();
            Some(RackLoss {
                rack: name.to_string(),
                nodes: standing.len() as u32,
                gpus: standing.len() as u64 * u64::from(gpus_per_node),
                fabrics: fabrics
                    .iter()
                    .map(|(f, t)| FabricLoss {
                        fabric: f.to_string(),
                        switches: t.switches,
                        cut_off: t.cut_off.len() as u32,
                        fewer_links: t.fewer_links,
                        of_nodes: links.get(f).map_or(0, |n| n.len() as u32),
                    })
                    .collect(),
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
