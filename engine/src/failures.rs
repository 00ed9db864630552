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

use crate::cabling::{links, End, Link};
use crate::fast_hash::FastMap;
use crate::floor::{node_number, FloorReport, Site};
use crate::report::{Finding, Report, Severity};
use crate::spec::DesignSpec;
use serde::{Deserialize, Serialize};

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

/// The most cables a design's rack and row losses are worked out for where a page asks for
/// them: the 100,000-GPU design of the benchmarks has about 362,000, and its losses take about
/// as long as laying its floor (BENCHMARKS.md, failure domains).
pub const MAX_CABLES: u64 = 1_000_000;

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

/// Fabric `fabric`'s tally among those of one place, `of_place`, begun if it is not there.
fn tally(of_place: &mut Vec<(usize, Tally)>, fabric: usize) -> &mut Tally {
    let at = match of_place.iter().position(|(f, _)| *f == fabric) {
        Some(at) => at,
        None => {
            of_place.push((fabric, Tally::default()));
            of_place.len() - 1
        }
    };
    &mut of_place[at].1
}

/// What one rack's loss does to one fabric, gathered node by node.
#[derive(Default)]
struct Tally {
    switches: u32,
    cut_off: Vec<u32>,
    fewer_links: u32,
}

/// Every rack's loss on `floor`, where `spec` evaluated as `report` is laid, and every row's
/// (its power distribution or cooling, say: what every rack of the row takes at once, `rack`
/// naming the row, "row 1"), the ones that take most nodes away first (standing in it or cut
/// off from a fabric), then by name. Places whose loss takes nothing are left out. One walk of
/// the links (no cabling sheet laid out) and, for racks and rows each, one pass over the racks'
/// devices.
pub fn rack_and_row_losses(
    spec: &DesignSpec,
    report: &Report,
    floor: &FloorReport,
) -> (Vec<RackLoss>, Vec<RackLoss>) {
    let mut links = node_leaf_links(spec, report);
    // Each node's links together, as the walk gives them node by node.
    if !links.is_sorted_by_key(|l| (l.0, l.1)) {
        links.sort_by_key(|l| (l.0, l.1));
    }
    let losses =
        |place: &dyn Fn(&crate::floor::Rack) -> String| losses(spec, report, floor, &links, place);
    (
        losses(&|rack| rack.name.clone()),
        losses(&|rack| format!("row {}", rack.row)),
    )
}

/// Each link from a node to a leaf of `report`'s fabrics on `spec`'s floor, by fabric and node:
/// the fabric (its index in the report), the node (from 1) and the rack the leaf stands in (its
/// index on the floor): the ends the cabling sheet gives its node-leaf rows, without naming or
/// routing them. A fabric whose switches cannot take its cables has none.
fn node_leaf_links(spec: &DesignSpec, report: &Report) -> Vec<(usize, u32, u32)> {
    let site = Site::new(spec, report);
    let node_leaf: u32 = report.fabrics.iter().map(|f| f.plan.node_leaf_links).sum();
    let mut out = Vec::with_capacity(node_leaf as usize);
    for (fi, fabric) in report.fabrics.iter().enumerate() {
        // A fabric that does not fit has no cabling sheet, and no links to lose.
        let _ = links(fabric, &mut |link: Link| {
            if let (End::Node { node, .. }, End::Switch { .. }) = (link.a, link.z) {
                if link.tier == "node-leaf" {
                    out.push((fi, node + 1, site.spot(fi, link.z, None).rack));
                }
            }
        });
    }
    out
}

/// The losses of the places `place` puts each rack in (the rack itself, or its row); `links`
/// are [`node_leaf_links`], each node's together.
fn losses(
    spec: &DesignSpec,
    report: &Report,
    floor: &FloorReport,
    links: &[(usize, u32, u32)],
    place: &dyn Fn(&crate::floor::Rack) -> String,
) -> Vec<RackLoss> {
    let (allocations, gpus_per_node) = (&report.allocations, spec.cluster.gpus_per_node);
    // Each place once, numbered in the floor's order, and the place of each rack.
    let mut names: Vec<String> = Vec::new();
    let mut numbered: FastMap<String, usize> = FastMap::default();
    let place_of: Vec<usize> = floor
        .racks
        .iter()
        .map(|r| {
            let name = place(r);
            *numbered.entry(name).or_insert_with_key(|name| {
                names.push(name.clone());
                names.len() - 1
            })
        })
        .collect();
    // The fabrics with links, by name: a switch is its fabric's when its label starts with the
    // fabric's name and a dash.
    let fabrics = report.fabrics.len();
    let mut by_name: Vec<usize> = (0..fabrics)
        .filter(|f| links.iter().any(|l| l.0 == *f))
        .collect();
    by_name.sort_by(|a, b| report.fabrics[*a].name.cmp(&report.fabrics[*b].name));
    // Where each node stands (by node from 1), and the nodes and each fabric's switches of
    // each place.
    let mut stands: Vec<Option<usize>> = vec![None; spec.cluster.nodes as usize + 1];
    let mut standing: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
    let mut tallies: Vec<Vec<(usize, Tally)>> = Vec::new();
    tallies.resize_with(names.len(), Vec::new);
    for (rack, &here) in floor.racks.iter().zip(&place_of) {
        for d in &rack.devices {
            if d.role == "node" {
                if let Some(n) = node_number(&d.label) {
                    if let Some(stand) = stands.get_mut(n as usize) {
                        *stand = Some(here);
                    }
                    standing[here].push(n);
                }
            } else if let Some(&fabric) = by_name.iter().find(|f| {
                d.label
                    .strip_prefix(report.fabrics[**f].name.as_str())
                    .is_some_and(|rest| rest.starts_with('-'))
            }) {
                tally(&mut tallies[here], fabric).switches += 1;
            }
        }
    }
    // Each node's links to each fabric, with how many end in each place: the node is cut off
    // by a place it does not stand in when every link of its ends there, and left with fewer
    // links by each place where some do.
    let mut of_nodes = vec![0u32; fabrics];
    let mut ends: Vec<(usize, u32)> = Vec::new();
    for node_links in links.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let (fabric, node) = (node_links[0].0, node_links[0].1);
        ends.clear();
        for &(_, _, rack) in node_links {
            let Some(&place) = place_of.get(rack as usize) else {
                continue;
            };
            match ends.iter_mut().find(|(p, _)| *p == place) {
                Some((_, n)) => *n += 1,
                None => ends.push((place, 1)),
            }
        }
        let all: u32 = ends.iter().map(|(_, n)| n).sum();
        if all > 0 {
            of_nodes[fabric] += 1;
        }
        let stands_in = stands.get(node as usize).copied().flatten();
        for &(place, here) in &ends {
            if stands_in == Some(place) {
                continue;
            }
            let t = tally(&mut tallies[place], fabric);
            if here == all {
                t.cut_off.push(node);
            } else {
                t.fewer_links += 1;
            }
        }
    }
    let mut out: Vec<RackLoss> = names
        .iter()
        .enumerate()
        .filter_map(|(at, name)| {
            let standing = standing[at].as_slice();
            let fabrics: Vec<(&str, &Tally, u32)> = by_name
                .iter()
                .filter_map(|&f| {
                    let (_, tally) = tallies[at].iter().find(|(of, _)| *of == f)?;
                    Some((report.fabrics[f].name.as_str(), tally, of_nodes[f]))
                })
                .collect();
            if standing.is_empty() && fabrics.is_empty() {
                return None;
            }
            // A workload loses the nodes of its own standing in the place, and those cut off
            // from the fabric it runs on.
            let workloads = allocations
                .iter()
                .filter_map(|a| {
                    let on_fabric = fabrics
                        .iter()
                        .find(|(f, _, _)| *f == a.fabric)
                        .map_or(&[][..], |(_, t, _)| t.cut_off.as_slice());
                    let hit = standing
                        .iter()
                        .chain(on_fabric)
                        .filter(|n| a.holds(**n))
                        .count() as u32;
                    (hit > 0).then(|| (a.workload.clone(), hit))
                })
                .collect();
            Some(RackLoss {
                rack: name.clone(),
                nodes: standing.len() as u32,
                gpus: standing.len() as u64 * u64::from(gpus_per_node),
                fabrics: fabrics
                    .iter()
                    .map(|(f, t, of_nodes)| FabricLoss {
                        fabric: f.to_string(),
                        switches: t.switches,
                        cut_off: t.cut_off.len() as u32,
                        fewer_links: t.fewer_links,
                        of_nodes: *of_nodes,
                    })
                    .collect(),
                workloads,
            })
        })
        .collect();
    // Places that take as much stay in the floor's order (row 12 before row 108; a stable
    // sort), not their names'.
    out.sort_by_key(|loss| std::cmp::Reverse(affected(loss)));
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
