//! The links of a sized fabric, by number, in the order of the cabling sheet. Ports are
//! assigned the way the sizing counted them (see the module above).

use super::DoesNotFit;
use crate::report::FabricReport;
use crate::topology::Layout;

/// A tier of switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Leaf,
    Spine,
    Core,
}

impl Role {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Role::Leaf => "leaf",
            Role::Spine => "spine",
            Role::Core => "core",
        }
    }
}

/// One end of a link, by number (0-based): the sheet names them, the floor places them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    Node {
        node: u32,
        nic: u32,
    },
    /// An endpoint beyond the nodes (UFM, a storage server).
    Endpoint(u32),
    Switch {
        role: Role,
        index: u32,
        port: u32,
    },
}

/// One link of a fabric, in the order of the cabling sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    pub tier: &'static str,
    /// 0 node-leaf, 1 leaf-spine, 2 spine-core.
    pub level: usize,
    pub a: End,
    pub z: End,
}

/// What is done with each link of a walk: any `FnMut(Link)`, or a visitor whose `link` is
/// inlined into every loop of the walk.
pub(crate) trait Visit {
    fn link(&mut self, link: Link);
}

impl<F: FnMut(Link)> Visit for F {
    #[inline(always)]
    fn link(&mut self, link: Link) {
        self(link)
    }
}

/// Where leaf `index` of `fabric` stands: (its block of nodes, its rail) on a rail-optimised
/// fabric, whose leaves are numbered rail by rail (the leaf of rail r for block b is
/// r × leaves per rail + b), else (its number, 0). A leaf keeps its position as the fabric
/// grows, though its number may change.
pub(crate) fn leaf_position(fabric: &FabricReport, index: u32) -> (u32, u32) {
    if fabric.plan.layout.by_rail() {
        let per_rail = leaves_per_rail(fabric);
        (index % per_rail, index / per_rail)
    } else {
        (index, 0)
    }
}

/// The leaves of each rail of a rail-optimised fabric.
fn leaves_per_rail(fabric: &FabricReport) -> u32 {
    (fabric.plan.leaves / fabric.ports_per_node.max(1)).max(1)
}

/// Calls `visit` with every link of `fabric`, in sheet order, without naming anything (the
/// floor counts tens of thousands of links on every evaluation). Inlined, so that each caller's
/// visit is specialised to the kind of link each loop makes.
#[inline(always)]
pub(crate) fn links(fabric: &FabricReport, visit: &mut impl Visit) -> Result<(), DoesNotFit> {
    let plan = &fabric.plan;
    let k = plan.radix;
    let rails = fabric.ports_per_node.max(1);
    let nodes = fabric.attached_nodes;
    let node_ports = nodes.saturating_mul(rails);
    let extras = fabric.endpoints.saturating_sub(node_ports);
    if plan.beyond_three_tiers
        || u64::from(plan.node_leaf_links) > u64::from(plan.leaves) * u64::from(plan.leaf_downlinks)
    {
        return Err(DoesNotFit(format!(
            "{} endpoints do not fit the {} leaves of fabric {}",
            plan.node_leaf_links, plan.leaves, fabric.name
        )));
    }
    let switch = |role, index, port| End::Switch { role, index, port };

    // Node to leaf. `used[l]` counts the downlink ports taken on leaf l.
    let down = plan.leaf_downlinks.max(1);
    let mut used = vec![0u32; plan.leaves as usize];
    // Counters stepped along instead of divisions per link (this walk runs on every floor plan):
    // rail-optimised, NIC r of node n goes to leaf r × leaves per rail + n ÷ down, port n mod
    // down; otherwise the node ports fill the leaves in order.
    let rail_optimized = plan.layout.by_rail();
    let leaves_per_rail = leaves_per_rail(fabric);
    let (mut block, mut slot) = (0u32, 0u32);
    let (mut next_leaf, mut next_port) = (0u32, 0u32);
    // Nodes by their number in the cluster, from 0: the fabric's are the `nodes` from its first.
    let first = fabric.first_node.max(1) - 1;
    for n in first..first.saturating_add(nodes) {
        for r in 0..rails {
            let (leaf, leaf_port) = if rail_optimized {
                (r * leaves_per_rail + block, slot)
            } else {
                let at = (next_leaf, next_port);
                next_port += 1;
                if next_port == down {
                    next_port = 0;
                    next_leaf += 1;
                }
                at
            };
            let Some(taken) = used.get_mut(leaf as usize) else {
                return Err(DoesNotFit(format!(
                    "fabric {}: node {} has no leaf",
                    fabric.name,
                    n + 1
                )));
            };
            *taken = (*taken).max(leaf_port + 1);
            visit.link(Link {
                tier: "node-leaf",
                level: 0,
                a: End::Node { node: n, nic: r },
                z: switch(Role::Leaf, leaf, leaf_port),
            });
        }
        slot += 1;
        if slot == down {
            slot = 0;
            block += 1;
        }
    }
    let mut leaf = 0usize;
    for e in 0..extras {
        while leaf < used.len() && used[leaf] >= down {
            leaf += 1;
        }
        let Some(taken) = used.get_mut(leaf) else {
            return Err(DoesNotFit(format!(
                "fabric {}: no free leaf port for endpoint {}",
                fabric.name,
                e + 1
            )));
        };
        visit.link(Link {
            tier: "node-leaf",
            level: 0,
            a: End::Endpoint(e),
            z: switch(Role::Leaf, leaf as u32, *taken),
        });
        *taken += 1;
    }

    // Leaf to spine.
    let up = plan.leaf_uplinks;
    if plan.spines > 0 && up > 0 {
        let three_tier = plan.layout == Layout::ThreeTier;
        let by_rail = plan.layout == Layout::RailOptimizedThreeTier;
        let per_pod = plan.leaves_per_pod.max(1);
        let per_spine = (up / plan.spines).max(1);
        // By rail: the pods of each rail in turn, each of `pod_spines` spines that every leaf of
        // the pod reaches `up / pod_spines` times.
        let pod_spines = (plan.spines / plan.pods.max(1)).max(1);
        let pods_per_rail = (plan.pods / rails).max(1);
        let links_per_spine = (up / pod_spines).max(1);
        let (mut pod, mut in_pod) = (0u32, 0u32);
        for l in 0..plan.leaves {
            // 2-tier: uplink j goes to spine j mod spines, port l × per spine + j ÷ spines.
            let (mut round_robin, mut round) = (0u32, 0u32);
            // By rail: uplink j goes to spine j mod pod spines of the leaf's pod, port
            // (its place in the pod) × links per spine + j ÷ pod spines.
            let (rail, block) = (l / leaves_per_rail, l % leaves_per_rail);
            let first_spine = (rail * pods_per_rail + block / per_pod) * pod_spines;
            let first_port = (block % per_pod) * links_per_spine;
            for j in 0..up {
                let (spine, spine_port) = if by_rail {
                    let at = (first_spine + round_robin, first_port + round);
                    round_robin += 1;
                    if round_robin == pod_spines {
                        round_robin = 0;
                        round += 1;
                    }
                    at
                } else if three_tier {
                    (pod * up + j, in_pod)
                } else {
                    let at = (round_robin, l * per_spine + round);
                    round_robin += 1;
                    if round_robin == plan.spines {
                        round_robin = 0;
                        round += 1;
                    }
                    at
                };
                if spine >= plan.spines || spine_port >= k {
                    return Err(DoesNotFit(format!(
                        "fabric {}: the spines have too few ports for leaf {}",
                        fabric.name,
                        l + 1
                    )));
                }
                visit.link(Link {
                    tier: "leaf-spine",
                    level: 1,
                    a: switch(Role::Leaf, l, down + j),
                    z: switch(Role::Spine, spine, spine_port),
                });
            }
            in_pod += 1;
            if in_pod == per_pod {
                in_pod = 0;
                pod += 1;
            }
        }
    }

    // Spine to core.
    if plan.cores > 0 && plan.spines > 0 {
        let spine_up = plan.spine_core_links / plan.spines;
        let spine_down = k.saturating_sub(spine_up);
        // Uplink g = s × spine_up + u goes to core g mod cores, port g ÷ cores.
        let (mut core, mut core_port) = (0u32, 0u32);
        for s in 0..plan.spines {
            for u in 0..spine_up {
                if core_port >= k || spine_down + u >= k {
                    return Err(DoesNotFit(format!(
                        "fabric {}: the cores have too few ports for spine {}",
                        fabric.name,
                        s + 1
                    )));
                }
                visit.link(Link {
                    tier: "spine-core",
                    level: 2,
                    a: switch(Role::Spine, s, spine_down + u),
                    z: switch(Role::Core, core, core_port),
                });
                core += 1;
                if core == plan.cores {
                    core = 0;
                    core_port += 1;
                }
            }
        }
    }
    Ok(())
}
