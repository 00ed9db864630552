//! The cabling sheet of a sized fabric: one row per cable with both ends (device and port), the
//! cable or optic, its reach class and the tier, named so that an installer can label them.
//!
//! Ports are assigned the way the sizing counted them [topology.rs; Al-Fares, Loukissas & Vahdat, SIGCOMM 2008; RA-11333-001]:
//! - node to leaf: rail-optimised, NIC r of node n goes to the leaf of rail r that serves n
//!   (a leaf of each rail per block of `leaf_downlinks` nodes, as a DGX SuperPOD scalable unit
//!   has [RA-11333-001]); otherwise the node ports fill the leaves in order. Endpoints beyond the
//!   nodes (UFM, storage heads) take the free leaf ports that are left.
//! - leaf to spine: each leaf spreads its uplinks round-robin over the spines (of its pod, in a
//!   3-tier fabric, where each aggregation switch links once to each of its pod's leaves).
//! - spine to core: each spine spreads its uplinks round-robin over the cores.

use crate::catalog::ReachClass;
use crate::report::FabricReport;
use crate::units::push_decimal;
mod walk;

use serde::{Deserialize, Serialize};
pub(crate) use walk::{leaf_position, links, End, Link, Rails, Role, Run, Visit};

/// One cable. The rack, U and route fields are filled by the floor's sheet
/// (`crate::floor::cabling`); the fabric's own sheet leaves them empty.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Cable {
    pub fabric: String,
    /// `node-leaf`, `leaf-spine` or `spine-core`.
    pub tier: &'static str,
    pub a_device: String,
    pub a_port: String,
    pub z_device: String,
    pub z_port: String,
    pub reach: Option<ReachClass>,
    /// The cable run the design gives this tier, metres; on the floor's sheet, the orderable
    /// length of this cable.
    pub length_m: Option<crate::units::Metres>,
    /// The rack and lowest rack unit of the device at each end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_rack: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_u: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z_rack: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z_u: Option<u32>,
    /// The routed length before rounding up to an orderable length, metres.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route_m: Option<crate::units::Metres>,
    /// The cable or optic to order, with its transceivers at each end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medium: Option<String>,
}

impl Cable {
    /// The cable or optic, as the bill of materials names it.
    pub fn media(&self, speed_gbps: f64) -> String {
        media(self.reach, speed_gbps)
    }
}

/// A cable or optic of `reach` at `speed_gbps`, as the bill of materials names it.
pub fn media(reach: Option<ReachClass>, speed_gbps: f64) -> String {
    match reach {
        Some(reach) => format!("{}G {}", speed_gbps.round(), reach.label()),
        None => "no cable reaches this run".into(),
    }
}

/// Why a fabric has no cabling sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoesNotFit(pub String);

impl std::fmt::Display for DoesNotFit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `n + 1`, zero-padded to `width` digits: written by hand, since the floor names every
/// device on every evaluation.
pub(crate) fn push_numbered(out: &mut String, width: usize, n: u32) {
    push_decimal(out, u64::from(n) + 1, width);
}

/// Names of a fabric's devices: switches carry the fabric's name so that the sheets of several
/// fabrics never share a label.
pub(crate) struct Names<'a> {
    pub fabric: &'a str,
    pub nodes: usize,
    pub switches: usize,
}

impl Names<'_> {
    pub(crate) fn node(&self, n: u32) -> String {
        let mut out = String::with_capacity(5 + self.nodes);
        self.push_device(&mut out, End::Node { node: n, nic: 0 });
        out
    }

    pub(crate) fn switch(&self, role: &str, n: u32) -> String {
        let mut out = String::with_capacity(self.fabric.len() + role.len() + 2 + self.switches);
        self.push_switch(&mut out, role, n);
        out
    }

    fn push_switch(&self, out: &mut String, role: &str, n: u32) {
        out.push_str(self.fabric);
        out.push('-');
        out.push_str(role);
        out.push('-');
        push_numbered(out, self.switches, n);
    }

    /// Appends the name of the device at `end` to `out`.
    pub(crate) fn push_device(&self, out: &mut String, end: End) {
        match end {
            End::Node { node, .. } => {
                out.push_str("node-");
                push_numbered(out, self.nodes, node);
            }
            End::Endpoint(e) => {
                out.push_str(self.fabric);
                out.push_str("-endpoint-");
                push_numbered(out, 2, e);
            }
            End::Switch { role, index, .. } => self.push_switch(out, role.label(), index),
        }
    }

    /// Appends the name of the port at `end` to `out`.
    pub(crate) fn push_port(&self, out: &mut String, end: End) {
        match end {
            End::Node { nic, .. } => {
                out.push_str(self.fabric);
                out.push_str("-nic");
                push_numbered(out, 0, nic);
            }
            End::Endpoint(_) => out.push_str("p1"),
            End::Switch { port, .. } => {
                out.push('p');
                push_numbered(out, 0, port);
            }
        }
    }

    /// The device and port labels of `end`.
    pub(crate) fn end(&self, end: End) -> (String, String) {
        let mut device = String::with_capacity(self.fabric.len() + 16);
        self.push_device(&mut device, end);
        let mut port = String::with_capacity(self.fabric.len() + 6);
        self.push_port(&mut port, end);
        (device, port)
    }
}

impl<'a> Names<'a> {
    /// The names of the sheet of `fabric`.
    pub(crate) fn of(fabric: &'a FabricReport) -> Self {
        let plan = &fabric.plan;
        Names {
            fabric: &fabric.name,
            nodes: digits(fabric.node_span()),
            switches: digits(plan.leaves.max(plan.spines).max(plan.cores)),
        }
    }
}

pub(crate) fn digits(n: u32) -> usize {
    n.max(1).to_string().len().max(2)
}

/// Every cable of `fabric`, or why its switches cannot take them (a fabric beyond what its
/// layout reaches, which the findings already report).
pub fn cabling(fabric: &FabricReport) -> Result<Vec<Cable>, DoesNotFit> {
    let plan = &fabric.plan;
    let names = Names::of(fabric);
    let tier_media = |tier: &str| {
        fabric
            .cables
            .iter()
            .find(|c| c.tier == tier)
            .map(|c| (c.reach, c.length_m))
    };
    let mut sheet = Vec::with_capacity(
        (u64::from(plan.node_leaf_links)
            + u64::from(plan.leaf_spine_links)
            + u64::from(plan.spine_core_links))
        .min(1 << 22) as usize,
    );
    links(fabric, &mut |link: Link| {
        let media = tier_media(link.tier);
        let (a_device, a_port) = names.end(link.a);
        let (z_device, z_port) = names.end(link.z);
        sheet.push(Cable {
            fabric: fabric.name.clone(),
            tier: link.tier,
            a_device,
            a_port,
            z_device,
            z_port,
            reach: media.map(|m| m.0),
            length_m: media.map(|m| m.1),
            ..Cable::default()
        });
    })?;
    Ok(sheet)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::DesignSpec;
    use crate::topology::Layout;
    use std::collections::{HashMap, HashSet};

    fn fabrics(example: &str) -> Vec<FabricReport> {
        let spec = DesignSpec::from_json(example).unwrap();
        crate::evaluate(&spec).unwrap().fabrics
    }

    #[test]
    fn a_walk_visits_every_link_before_the_first_a_spine_lacks_a_port_for_then_says_which_leaf() {
        let fabric = fabrics(crate::examples::SEVENTY_B_TRAINING).remove(0);
        let mut all = Vec::new();
        links(&fabric, &mut |l: Link| all.push(l)).unwrap();
        let spine_port = |l: &Link| match l.z {
            End::Switch {
                role: Role::Spine,
                port,
                ..
            } => Some(port),
            _ => None,
        };
        // Spines one port short of the highest port the walk gives them.
        let highest = all.iter().filter_map(spine_port).max().unwrap();
        let mut short = fabric.clone();
        short.plan.radix = highest;
        let first_lacking = all
            .iter()
            .position(|l| spine_port(l) == Some(highest))
            .unwrap();
        let mut visited = Vec::new();
        let err = links(&short, &mut |l: Link| visited.push(l)).unwrap_err();
        assert_eq!(visited, all[..first_lacking]);
        let End::Switch { index: leaf, .. } = all[first_lacking].a else {
            panic!("a leaf-spine link starts at a leaf");
        };
        assert!(
            err.0.ends_with(&format!(
                "the spines have too few ports for leaf {}",
                leaf + 1
            )),
            "{}",
            err.0
        );
    }

    /// Every (device, port) appears at most once across both ends of every cable.
    fn ports_used_once(sheet: &[Cable]) {
        let mut seen = HashSet::new();
        for c in sheet {
            for end in [(&c.a_device, &c.a_port), (&c.z_device, &c.z_port)] {
                assert!(seen.insert(end), "port {end:?} used twice");
            }
        }
    }

    #[test]
    fn a_four_su_superpod_has_one_row_per_cable_and_every_port_used_once() {
        for fabric in fabrics(crate::examples::SUPERPOD_4SU) {
            let sheet = cabling(&fabric).unwrap();
            assert_eq!(
                sheet.len() as u64,
                fabric.cable_count(),
                "fabric {}",
                fabric.name
            );
            ports_used_once(&sheet);
            let port_limit = fabric.plan.radix;
            for c in sheet
                .iter()
                .filter(|c| c.z_device.contains("-leaf-") || c.z_device.contains("-spine-"))
            {
                let n: u32 = c.z_port[1..].parse().unwrap();
                assert!(n >= 1 && n <= port_limit, "{c:?}");
            }
        }
    }

    #[test]
    fn in_a_rail_optimized_fabric_nic_r_of_every_node_lands_on_a_leaf_of_rail_r() {
        let compute = fabrics(crate::examples::SUPERPOD_4SU)
            .into_iter()
            .find(|f| f.plan.layout == Layout::RailOptimized)
            .expect("the SuperPOD compute fabric is rail-optimized");
        let sheet = cabling(&compute).unwrap();
        let leaves_per_rail = compute.plan.leaves / compute.ports_per_node;
        // 4 SUs of 32 nodes (one slot holds UFM): 4 leaves per rail, one per SU.
        assert_eq!(leaves_per_rail, 4);
        for c in sheet
            .iter()
            .filter(|c| c.tier == "node-leaf" && c.a_device.starts_with("node-"))
        {
            let nic: u32 = c.a_port.rsplit("nic").next().unwrap().parse().unwrap();
            let leaf: u32 = c.z_device.rsplit('-').next().unwrap().parse().unwrap();
            assert_eq!((leaf - 1) / leaves_per_rail, nic - 1, "{c:?}");
        }
        let first = &sheet[0];
        assert_eq!(
            (first.a_device.as_str(), first.z_port.as_str()),
            ("node-001", "p1")
        );
    }

    /// The 16-SU SuperPOD: 511 DGX and UFM on a rail-optimised fabric.
    fn superpod_16_su() -> FabricReport {
        let mut spec: serde_json::Value =
            serde_json::from_str(crate::examples::SUPERPOD_4SU).unwrap();
        spec["cluster"]["nodes"] = 511.into();
        spec.as_object_mut().unwrap().remove("growth");
        let spec = DesignSpec::from_value(spec).unwrap();
        crate::evaluate(&spec).unwrap().fabrics.remove(0)
    }

    /// As the reference architecture wires 16 SU and more: NIC r of every node on its unit's
    /// leaf of rail r, each rail's leaves under spines of their own (every leaf of a pod to every
    /// spine of it, equally often), and every spine up to the cores.
    #[test]
    fn a_rail_optimised_three_tier_fabric_keeps_each_rail_under_its_own_spines() {
        let compute = superpod_16_su();
        assert_eq!(compute.plan.layout, Layout::RailOptimizedThreeTier);
        let sheet = cabling(&compute).unwrap();
        assert_eq!(sheet.len() as u64, compute.cable_count());
        ports_used_once(&sheet);
        let number = |d: &str| -> u32 { d.rsplit('-').next().unwrap().parse().unwrap() };
        let leaves_per_rail = compute.plan.leaves / compute.ports_per_node;
        assert_eq!(leaves_per_rail, 16);
        for c in sheet
            .iter()
            .filter(|c| c.tier == "node-leaf" && c.a_device.starts_with("node-"))
        {
            let nic: u32 = c.a_port.rsplit("nic").next().unwrap().parse().unwrap();
            assert_eq!(
                (number(&c.z_device) - 1) / leaves_per_rail,
                nic - 1,
                "{c:?}"
            );
        }
        let pod_spines = compute.plan.spines / compute.plan.pods;
        let pods_per_rail = compute.plan.pods / compute.ports_per_node;
        let mut links: HashMap<(u32, u32), u32> = HashMap::new();
        for c in sheet.iter().filter(|c| c.tier == "leaf-spine") {
            let (leaf, spine) = (number(&c.a_device) - 1, number(&c.z_device) - 1);
            let rail_of_spine = spine / pod_spines / pods_per_rail;
            assert_eq!(leaf / leaves_per_rail, rail_of_spine, "{c:?}");
            *links.entry((leaf, spine)).or_default() += 1;
        }
        let each = compute.plan.leaf_uplinks / pod_spines;
        assert_eq!(each, 2);
        assert!(links.values().all(|n| *n == each));
        assert_eq!(
            links.len() as u32,
            compute.plan.leaves * pod_spines,
            "every leaf reaches every spine of its pod"
        );
        let cores: HashSet<&str> = sheet
            .iter()
            .filter(|c| c.tier == "spine-core")
            .map(|c| c.z_device.as_str())
            .collect();
        assert_eq!(cores.len(), 64, "every core is cabled");
    }

    #[test]
    fn every_example_design_has_a_sheet_of_its_cable_count_with_unique_ports() {
        for (name, example) in crate::examples::ALL {
            for fabric in fabrics(example) {
                let sheet = cabling(&fabric).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(
                    sheet.len() as u64,
                    fabric.cable_count(),
                    "{name}: {}",
                    fabric.name
                );
                ports_used_once(&sheet);
            }
        }
    }

    #[test]
    fn a_three_tier_fabric_cables_leaves_to_their_pods_spines_and_spines_to_every_core() {
        let mut spec: serde_json::Value =
            serde_json::from_str(crate::examples::SUPERPOD_4SU).unwrap();
        spec["fabrics"][0]["topology"] = "three_tier".into();
        let spec = DesignSpec::from_value(spec).unwrap();
        let report = crate::evaluate(&spec).unwrap();
        let compute = &report.fabrics[0];
        assert_eq!(compute.plan.layout, Layout::ThreeTier);
        assert!(compute.plan.cores > 0);
        let sheet = cabling(compute).unwrap();
        assert_eq!(sheet.len() as u64, compute.cable_count());
        ports_used_once(&sheet);
        let per_pod = compute.plan.leaves_per_pod;
        let up = compute.plan.leaf_uplinks;
        for c in sheet.iter().filter(|c| c.tier == "leaf-spine") {
            let leaf: u32 = c.a_device.rsplit('-').next().unwrap().parse().unwrap();
            let spine: u32 = c.z_device.rsplit('-').next().unwrap().parse().unwrap();
            assert_eq!(
                (leaf - 1) / per_pod,
                (spine - 1) / up,
                "a leaf links only to its pod: {c:?}"
            );
        }
        let cores: HashSet<&str> = sheet
            .iter()
            .filter(|c| c.tier == "spine-core")
            .map(|c| c.z_device.as_str())
            .collect();
        assert_eq!(
            cores.len() as u32,
            compute.plan.cores,
            "every core is cabled"
        );
    }
}
