//! Sizing a fat tree: how many leaf, spine and core switches, and how many links between them
//! [Al-Fares, Loukissas & Vahdat, SIGCOMM 2008; RA-11333-001; seed C4].

use crate::spec::Topology;
use crate::units::thousands;
use serde::{Deserialize, Serialize};

/// What the sizing needs to know about a fabric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Demand {
    /// Ports to attach now: attached nodes × ports per node + extra endpoints.
    pub endpoints: u32,
    /// Ports to attach at the planned maximum size: spines are provisioned for it.
    pub growth_endpoints: u32,
    /// Ports per node (rails, for a rail-optimized fabric).
    pub ports_per_node: u32,
    /// Switch ports at the fabric's speed.
    pub radix: u32,
    pub leaf_oversubscription: f64,
    pub spine_oversubscription: f64,
    pub topology: Topology,
}

/// The layout the sizing chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    SingleSwitch,
    TwoTier,
    RailOptimized,
    ThreeTier,
    /// Three tiers wired by rail: the leaves of one rail of each scalable unit form pods under
    /// their own spines (a spine group per rail), and every spine reaches the core
    /// [RA-11333-001, 16 SU and larger].
    RailOptimizedThreeTier,
}

impl Layout {
    pub fn label(self) -> &'static str {
        match self {
            Layout::SingleSwitch => "single switch",
            Layout::TwoTier => "2-tier leaf-spine",
            Layout::RailOptimized => "rail-optimized 2-tier",
            Layout::ThreeTier => "3-tier fat tree",
            Layout::RailOptimizedThreeTier => "rail-optimized 3-tier",
        }
    }

    /// Whether each leaf serves one rail: NIC r of every node of a scalable unit goes to the
    /// unit's leaf of rail r.
    pub fn by_rail(self) -> bool {
        matches!(self, Layout::RailOptimized | Layout::RailOptimizedThreeTier)
    }

    /// Whether the leaves are grouped in pods under their own spines, with a core above.
    pub fn has_pods(self) -> bool {
        matches!(self, Layout::ThreeTier | Layout::RailOptimizedThreeTier)
    }
}

/// A sized fabric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Plan {
    pub layout: Layout,
    pub tiers: u32,
    /// Why this layout (shown to the user).
    pub reason: String,
    pub radix: u32,
    pub leaves: u32,
    pub spines: u32,
    pub cores: u32,
    /// Per leaf: ports towards the nodes and towards the spines.
    pub leaf_downlinks: u32,
    pub leaf_uplinks: u32,
    /// Leaves in one pod of a 3-tier fabric.
    pub leaves_per_pod: u32,
    pub pods: u32,
    pub node_leaf_links: u32,
    pub leaf_spine_links: u32,
    pub spine_core_links: u32,
    /// Endpoints this fabric reaches without adding spines or cores.
    pub capacity_endpoints: u32,
    /// Endpoints the layout reaches at most (with every spine it can take).
    pub layout_max_endpoints: u64,
    /// The user asked for 2 tiers but they cannot reach every endpoint.
    pub two_tier_exceeded: bool,
    /// Endpoints beyond what even 3 tiers of this switch reach.
    pub beyond_three_tiers: bool,
}

impl Plan {
    /// Endpoints two tiers of this plan's switches hold, its leaves split as they are: radix ×
    /// downlinks per leaf.
    pub fn two_tier_endpoints(&self) -> u64 {
        u64::from(self.radix) * u64::from(self.leaf_downlinks)
    }

    pub fn switches(&self) -> u32 {
        self.leaves + self.spines + self.cores
    }

    pub fn ports_total(&self) -> u64 {
        u64::from(self.switches()) * u64::from(self.radix)
    }

    /// Node ports cabled on the fullest leaf.
    pub fn leaf_ports_in_use(&self) -> u32 {
        self.node_leaf_links
            .div_ceil(self.leaves.max(1))
            .min(self.leaf_downlinks)
    }

    /// Switch ports with a cable in them (a switch-to-switch link uses two).
    pub fn ports_used(&self) -> u64 {
        u64::from(self.node_leaf_links)
            + 2 * u64::from(self.leaf_spine_links)
            + 2 * u64::from(self.spine_core_links)
    }
}

/// Down and up ports of a switch of `radix` ports at `oversubscription` (down : up).
fn split(radix: u32, oversubscription: f64) -> (u32, u32) {
    let r = oversubscription.max(1.0);
    let down = ((f64::from(radix) * r / (r + 1.0)).floor() as u32)
        .clamp(1, radix.saturating_sub(1).max(1));
    (down, radix - down)
}

/// Uplinks per leaf (at least `needed`, at most `most`) and the fewest spines whose ports take
/// every uplink of `leaves` leaves. The spines divide `most` and each leaf's uplinks, so that
/// every leaf spreads its uplinks evenly over them (a spine with fewer links to one leaf than
/// to another would be a bottleneck) and a fabric that grows to full leaves keeps its spines.
fn uplinks_and_spines(leaves: u32, needed: u32, most: u32, radix: u32) -> (u32, u32) {
    let most = most.max(1);
    let needed = needed.clamp(1, most);
    (1..=most)
        .filter(|spines| most.is_multiple_of(*spines))
        .find_map(|spines| {
            let up = needed.div_ceil(spines) * spines;
            let fits = u64::from(leaves) * u64::from(up) <= u64::from(spines) * u64::from(radix);
            fits.then_some((up, spines))
        })
        .unwrap_or((most, most))
}

pub fn size(d: &Demand) -> Plan {
    let k = d.radix.max(2);
    let (down, up) = split(k, d.leaf_oversubscription);
    let two_tier_max = u64::from(k) * u64::from(down);
    let needs_three = u64::from(d.growth_endpoints.max(d.endpoints)) > two_tier_max;
    let mut plan = match d.topology {
        Topology::Auto if d.growth_endpoints.max(d.endpoints) <= k => single_switch(d, k),
        Topology::Auto if !needs_three => two_tier(d, k, down, up, false),
        Topology::TwoTier | Topology::RailOptimized if !needs_three => {
            two_tier(d, k, down, up, d.topology == Topology::RailOptimized)
        }
        Topology::RailOptimized => rail_three_tier(d, k, down, up),
        _ => three_tier(d, k, down, up),
    };
    plan.layout_max_endpoints = match plan.layout {
        Layout::SingleSwitch => u64::from(k),
        Layout::TwoTier | Layout::RailOptimized => two_tier_max,
        Layout::ThreeTier | Layout::RailOptimizedThreeTier => {
            let (agg_down, _) = split(k, d.spine_oversubscription);
            u64::from(k) * u64::from(agg_down) * u64::from(down)
        }
    };
    // A rail-optimised fabric grows to three tiers by rail, as the reference architecture does.
    plan.two_tier_exceeded = d.topology == Topology::TwoTier && needs_three;
    plan.beyond_three_tiers = u64::from(d.endpoints) > plan.layout_max_endpoints;
    plan
}

/// A plan's reason, written only where the evaluation explains itself
/// ([`crate::figure::explaining`]).
fn explained(reason: impl FnOnce() -> String) -> String {
    if crate::figure::explaining() {
        reason()
    } else {
        String::new()
    }
}

fn single_switch(d: &Demand, k: u32) -> Plan {
    Plan {
        layout: Layout::SingleSwitch,
        tiers: 1,
        reason: explained(|| format!("{} endpoints fit on one {k}-port switch", d.endpoints)),
        radix: k,
        leaves: 1,
        spines: 0,
        cores: 0,
        leaf_downlinks: k,
        leaf_uplinks: 0,
        leaves_per_pod: 1,
        pods: 1,
        node_leaf_links: d.endpoints,
        leaf_spine_links: 0,
        spine_core_links: 0,
        capacity_endpoints: k,
        layout_max_endpoints: u64::from(k),
        two_tier_exceeded: false,
        beyond_three_tiers: false,
    }
}

fn two_tier(d: &Demand, k: u32, down: u32, up: u32, rails: bool) -> Plan {
    // Rail-optimized: NIC i of every node goes to a leaf of rail i, so each rail has its own
    // leaves; endpoints outside the rails (UFM, storage) fill spare leaf ports.
    let leaves_for = |endpoints: u32| {
        if rails {
            let rails = d.ports_per_node.max(1);
            rails * endpoints.div_ceil(rails).div_ceil(down)
        } else {
            endpoints.div_ceil(down)
        }
        .max(1)
    };
    let leaves = leaves_for(d.endpoints);
    let growth = d.growth_endpoints.max(d.endpoints);
    let growth_leaves = leaves_for(growth).min(k);
    // Uplinks for the ports in use, now or at the growth target, at the stated oversubscription:
    // 16 nodes on a 64-port leaf need 16 uplinks at 1:1, not 32 for ports nobody cables.
    let in_use = growth.div_ceil(leaves).min(down);
    let up = if in_use == down {
        up
    } else {
        ((f64::from(in_use) / d.leaf_oversubscription.max(1.0)).ceil() as u32).clamp(1, up)
    };
    let (up, spines) = uplinks_and_spines(growth_leaves, up, (k - down).max(1), k);
    // Leaves the spines can take: each spine gives every leaf up/spines ports.
    let per_spine_per_leaf = (up / spines).max(1);
    let max_leaves = (k / per_spine_per_leaf).min(k);
    let layout = if rails {
        Layout::RailOptimized
    } else {
        Layout::TwoTier
    };
    let reason = explained(|| {
        if rails {
            format!(
            "each of the {} rails has its own leaves; {} endpoints fit in 2 tiers of {k}-port switches (up to {} endpoints)",
            d.ports_per_node.max(1),
            thousands(f64::from(d.endpoints)),
            thousands((u64::from(k) * u64::from(down)) as f64)
        )
        } else {
            format!(
            "{} endpoints fit in 2 tiers of {k}-port switches (up to {} with {down} ports down per leaf)",
            thousands(f64::from(d.endpoints)),
            thousands((u64::from(k) * u64::from(down)) as f64),
        )
        }
    });
    Plan {
        layout,
        tiers: 2,
        reason,
        radix: k,
        leaves,
        spines,
        cores: 0,
        leaf_downlinks: down,
        leaf_uplinks: up,
        leaves_per_pod: leaves,
        pods: 1,
        node_leaf_links: d.endpoints,
        leaf_spine_links: leaves * up,
        spine_core_links: 0,
        capacity_endpoints: max_leaves * down,
        layout_max_endpoints: 0,
        two_tier_exceeded: false,
        beyond_three_tiers: false,
    }
}

fn three_tier(d: &Demand, k: u32, down: u32, up: u32) -> Plan {
    // A pod is a 2-tier block: `up` aggregation switches, each linking once to each of the
    // pod's leaves; aggregation switches split their ports between leaves and cores.
    let (agg_down, agg_up) = split(k, d.spine_oversubscription);
    let leaves_per_pod = agg_down;
    let aggs_per_pod = up;
    let leaves = d.endpoints.div_ceil(down).max(1);
    // The pods of the size the fabric grows to, each with its aggregation switches: bought with
    // the first phase, as the cores are, so that growing adds leaves and their cables only.
    let growth_pods = d
        .growth_endpoints
        .max(d.endpoints)
        .div_ceil(down)
        .div_ceil(leaves_per_pod)
        .clamp(1, k);
    let pods = leaves.div_ceil(leaves_per_pod).max(growth_pods);
    let cores_needed = (u64::from(growth_pods) * u64::from(aggs_per_pod) * u64::from(agg_up))
        .div_ceil(u64::from(k));
    let cores = cores_needed.min(u64::from(u32::MAX)) as u32;
    let spines = pods * aggs_per_pod;
    Plan {
        layout: Layout::ThreeTier,
        tiers: 3,
        reason: explained(|| {
            format!(
            "{} endpoints exceed 2 tiers of {k}-port switches ({}): {pods} pods of {leaves_per_pod} leaves under a core tier",
            thousands(f64::from(d.growth_endpoints.max(d.endpoints))),
            thousands((u64::from(k) * u64::from(down)) as f64)
        )
        }),
        radix: k,
        leaves,
        spines,
        cores,
        leaf_downlinks: down,
        leaf_uplinks: up,
        leaves_per_pod,
        pods,
        node_leaf_links: d.endpoints,
        leaf_spine_links: leaves * up,
        spine_core_links: spines * agg_up,
        capacity_endpoints: pods_the_cores_take(cores, k, aggs_per_pod * agg_up)
            .saturating_mul(leaves_per_pod)
            .saturating_mul(down),
        layout_max_endpoints: 0,
        two_tier_exceeded: false,
        beyond_three_tiers: false,
    }
}

/// Three tiers by rail [RA-11333-001, 16 SU and larger]: each rail's leaves, one per scalable
/// unit, fill pods of at most as many leaves as a spine has ports down; a pod's spines are the
/// fewest that divide a leaf's uplinks evenly and take every one of them, so each leaf links
/// to each spine of its pod the same number of times; every spine spreads its uplinks over the
/// cores. The 16-SU SuperPOD: 8 rails of 16 leaves, each rail one pod of 16 spines (2 links from
/// each leaf to each), 64 cores.
fn rail_three_tier(d: &Demand, k: u32, down: u32, up: u32) -> Plan {
    let (agg_down, agg_up) = split(k, d.spine_oversubscription);
    let rails = d.ports_per_node.max(1);
    let per_rail = |endpoints: u32| endpoints.div_ceil(rails).div_ceil(down).max(1);
    let leaves_per_rail = per_rail(d.endpoints);
    // Pods for the size the fabric grows to, each rail's numbered from the rail's first: a leaf
    // keeps its pod and its spines as the fabric grows, and the spines of the final size are
    // bought with the first phase (sized for today's leaves alone, each rail's pods would be
    // numbered anew at each size and most leaf-spine cables would move).
    let growth_per_rail = per_rail(d.growth_endpoints.max(d.endpoints));
    let pods_per_rail = growth_per_rail.div_ceil(agg_down);
    let leaves_per_pod = growth_per_rail.div_ceil(pods_per_rail);
    // Spines per pod: a leaf's `up` links, `up / s` to each.
    let spines_per_pod = (1..=up)
        .filter(|s| up.is_multiple_of(*s))
        .find(|s| u64::from(leaves_per_pod) * u64::from(up / s) <= u64::from(agg_down))
        .unwrap_or(up);
    let pods = rails * pods_per_rail;
    let spines = pods * spines_per_pod;
    let cores = (u64::from(spines) * u64::from(agg_up))
        .div_ceil(u64::from(k))
        .min(u64::from(u32::MAX)) as u32;
    let leaves = rails * leaves_per_rail;
    // Endpoints the cores take without more of them: pods whose spines' uplinks they hold, each
    // of as many leaves as its spines' ports down take.
    let pods_by_cores = pods_the_cores_take(cores, k, spines_per_pod * agg_up);
    let leaves_a_pod_takes = (agg_down * spines_per_pod / up.max(1)).min(agg_down);
    Plan {
        layout: Layout::RailOptimizedThreeTier,
        tiers: 3,
        reason: explained(|| {
            format!(
            "{} endpoints exceed 2 tiers of {k}-port switches ({}): each of the {rails} rails has its own leaves, in {pods_per_rail} {} of up to {leaves_per_pod} leaves per rail under {spines_per_pod} spines, with a core tier above",
            thousands(f64::from(d.growth_endpoints.max(d.endpoints))),
            thousands((u64::from(k) * u64::from(down)) as f64),
            if pods_per_rail == 1 { "pod" } else { "pods" }
        )
        }),
        radix: k,
        leaves,
        spines,
        cores,
        leaf_downlinks: down,
        leaf_uplinks: up,
        leaves_per_pod,
        pods,
        node_leaf_links: d.endpoints,
        leaf_spine_links: leaves * up,
        spine_core_links: spines * agg_up,
        capacity_endpoints: pods_by_cores
            .saturating_mul(leaves_a_pod_takes)
            .saturating_mul(down),
        layout_max_endpoints: 0,
        two_tier_exceeded: false,
        beyond_three_tiers: false,
    }
}

/// Pods whose spines' uplinks (`pod_uplinks` each pod) `cores` switches of `k` ports take, at
/// most `k`.
fn pods_the_cores_take(cores: u32, k: u32, pod_uplinks: u32) -> u32 {
    if pod_uplinks == 0 {
        return k;
    }
    (u64::from(cores) * u64::from(k) / u64::from(pod_uplinks)).min(u64::from(k)) as u32
}

#[cfg(test)]
mod tests;
