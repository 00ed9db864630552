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

/// Calls `visit` with every link of `fabric`, in sheet order, without naming anything (the
/// floor counts tens of thousands of links on every evaluation).
pub(crate) fn links(fabric: &FabricReport, mut visit: impl FnMut(Link)) -> Result<(), DoesNotFit> {
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
    for n in 0..nodes {
        for r in 0..rails {
            let (leaf, leaf_port) = node_leaf(fabric, n, r);
            let Some(taken) = used.get_mut(leaf as usize) else {
                return Err(DoesNotFit(format!(
                    "fabric {}: node {} has no leaf",
                    fabric.name,
                    n + 1
                )));
            };
            *taken = (*taken).max(leaf_port + 1);
            visit(Link {
                tier: "node-leaf",
                level: 0,
                a: End::Node { node: n, nic: r },
                z: switch(Role::Leaf, leaf, leaf_port),
            });
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
        visit(Link {
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
        for l in 0..plan.leaves {
            for j in 0..up {
                let (spine, spine_port) = if plan.layout == Layout::ThreeTier {
                    let pod = l / plan.leaves_per_pod.max(1);
                    (pod * up + j, l % plan.leaves_per_pod.max(1))
                } else {
                    let per_spine = (up / plan.spines).max(1);
                    (j % plan.spines, l * per_spine + j / plan.spines)
                };
                if spine >= plan.spines || spine_port >= k {
                    return Err(DoesNotFit(format!(
                        "fabric {}: the spines have too few ports for leaf {}",
                        fabric.name,
                        l + 1
                    )));
                }
                visit(Link {
                    tier: "leaf-spine",
                    level: 1,
                    a: switch(Role::Leaf, l, down + j),
                    z: switch(Role::Spine, spine, spine_port),
                });
            }
        }
    }

    // Spine to core.
    if plan.cores > 0 && plan.spines > 0 {
        let spine_up = plan.spine_core_links / plan.spines;
        let spine_down = k.saturating_sub(spine_up);
        for s in 0..plan.spines {
            for u in 0..spine_up {
                let g = s * spine_up + u;
                let (core, core_port) = (g % plan.cores, g / plan.cores);
                if core_port >= k || spine_down + u >= k {
                    return Err(DoesNotFit(format!(
                        "fabric {}: the cores have too few ports for spine {}",
                        fabric.name,
                        s + 1
                    )));
                }
                visit(Link {
                    tier: "spine-core",
                    level: 2,
                    a: switch(Role::Spine, s, spine_down + u),
                    z: switch(Role::Core, core, core_port),
                });
            }
        }
    }
    Ok(())
}

/// The leaf and leaf port of NIC `r` of node `n`: rail-optimised, NIC r goes to the leaf of
/// rail r that serves n; otherwise the node ports fill the leaves in order.
fn node_leaf(fabric: &FabricReport, n: u32, r: u32) -> (u32, u32) {
    let plan = &fabric.plan;
    let rails = fabric.ports_per_node.max(1);
    let down = plan.leaf_downlinks.max(1);
    if plan.layout == Layout::RailOptimized {
        let leaves_per_rail = (plan.leaves / rails).max(1);
        (r * leaves_per_rail + n / down, n % down)
    } else {
        let e = n * rails + r;
        (e / down, e % down)
    }
}
