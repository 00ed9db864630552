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

    /// Every link of `run`, in order.
    #[inline(always)]
    fn run(&mut self, run: Run) {
        for i in 0..run.count {
            self.link(run.link(i));
        }
    }

    /// Every link of `rails`, in order.
    #[inline(always)]
    fn rails(&mut self, rails: Rails) {
        for i in 0..rails.count {
            self.link(rails.link(i));
        }
    }
}

/// The links of a node's NICs, from its first, each to the leaf of its rail on one port: NIC i
/// to leaf `first + i × stride` of `leaves` (first, stride).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rails {
    pub node: u32,
    pub count: u32,
    pub leaves: (u32, u32),
    pub port: u32,
}

impl Rails {
    /// Link `i`: from NIC `i`.
    #[inline(always)]
    pub fn link(&self, i: u32) -> Link {
        Link {
            tier: "node-leaf",
            level: 0,
            a: End::Node {
                node: self.node,
                nic: i,
            },
            z: End::Switch {
                role: Role::Leaf,
                index: self.leaves.0 + i * self.leaves.1,
                port: self.port,
            },
        }
    }
}

/// Links from consecutive ports of one switch to consecutive switches of the tier above, each
/// on the same port: how a leaf's uplinks reach the spines and a spine's the cores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Run {
    pub tier: &'static str,
    pub level: usize,
    /// The switch below: its role, number and first port.
    pub from: (Role, u32, u32),
    /// The first switch above: its role, number and port.
    pub to: (Role, u32, u32),
    pub count: u32,
}

impl Run {
    /// Link `i` of the run.
    #[inline(always)]
    pub fn link(&self, i: u32) -> Link {
        Link {
            tier: self.tier,
            level: self.level,
            a: End::Switch {
                role: self.from.0,
                index: self.from.1,
                port: self.from.2 + i,
            },
            z: End::Switch {
                role: self.to.0,
                index: self.to.1 + i,
                port: self.to.2,
            },
        }
    }
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
    let leaves_per_rail = leaves_per_rail(fabric);
    // Nodes by their number in the cluster, from 0: the fabric's are the `nodes` from its first.
    let first = fabric.first_node.max(1) - 1;
    let nodes = first..first.saturating_add(nodes);
    // Counters stepped along instead of divisions per link (this walk runs on every floor plan).
    if plan.layout.by_rail() {
        // NIC r of node n goes to leaf r × leaves per rail + n ÷ down, port n mod down: a node's
        // rails in one run.
        let (mut block, mut slot) = (0u32, 0u32);
        for n in nodes {
            // The rails up to the first whose leaf the fabric lacks.
            let mut fit = 0;
            while let Some(taken) = (fit < rails)
                .then(|| used.get_mut((fit * leaves_per_rail + block) as usize))
                .flatten()
            {
                *taken = (*taken).max(slot + 1);
                fit += 1;
            }
            visit.rails(Rails {
                node: n,
                count: fit,
                leaves: (block, leaves_per_rail),
                port: slot,
            });
            if fit < rails {
                return Err(no_leaf(fabric, n));
            }
            slot += 1;
            if slot == down {
                slot = 0;
                block += 1;
            }
        }
    } else {
        // The node ports fill the leaves in order.
        let (mut next_leaf, mut next_port) = (0u32, 0u32);
        for n in nodes {
            for r in 0..rails {
                let Some(taken) = used.get_mut(next_leaf as usize) else {
                    return Err(no_leaf(fabric, n));
                };
                *taken = (*taken).max(next_port + 1);
                visit.link(Link {
                    tier: "node-leaf",
                    level: 0,
                    a: End::Node { node: n, nic: r },
                    z: switch(Role::Leaf, next_leaf, next_port),
                });
                next_port += 1;
                if next_port == down {
                    next_port = 0;
                    next_leaf += 1;
                }
            }
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

    // Leaf to spine: each leaf's uplinks in runs, each run to consecutive spines on one port.
    let up = plan.leaf_uplinks;
    if plan.spines > 0 && up > 0 {
        let mut leaf_run = |l: u32, j: u32, count: u32, (spine, port): (u32, u32)| {
            let run = Run {
                tier: "leaf-spine",
                level: 1,
                from: (Role::Leaf, l, down + j),
                to: (Role::Spine, spine, port),
                count,
            };
            let fit = if port < k {
                count.min(plan.spines.saturating_sub(spine))
            } else {
                0
            };
            visit_fitting(visit, run, fit, || {
                format!(
                    "fabric {}: the spines have too few ports for leaf {}",
                    fabric.name,
                    l + 1
                )
            })
        };
        match plan.layout {
            Layout::RailOptimizedThreeTier => {
                // The pods of each rail in turn, each of `pod_spines` spines that every leaf of
                // the pod reaches `up / pod_spines` times: uplink j goes to spine j mod pod
                // spines of the leaf's pod, port (its place in the pod) × links per spine + j ÷
                // pod spines.
                let per_pod = plan.leaves_per_pod.max(1);
                let pod_spines = (plan.spines / plan.pods.max(1)).max(1);
                let pods_per_rail = (plan.pods / rails).max(1);
                let links_per_spine = (up / pod_spines).max(1);
                for l in 0..plan.leaves {
                    let (rail, block) = (l / leaves_per_rail, l % leaves_per_rail);
                    let first_spine = (rail * pods_per_rail + block / per_pod) * pod_spines;
                    let first_port = (block % per_pod) * links_per_spine;
                    for (round, j) in (0..up).step_by(pod_spines as usize).enumerate() {
                        let count = pod_spines.min(up - j);
                        leaf_run(l, j, count, (first_spine, first_port + round as u32))?;
                    }
                }
            }
            Layout::ThreeTier => {
                // Every leaf of pod p reaches each of its `up` spines once, on the port of its
                // place in the pod.
                let per_pod = plan.leaves_per_pod.max(1);
                for l in 0..plan.leaves {
                    leaf_run(l, 0, up, ((l / per_pod) * up, l % per_pod))?;
                }
            }
            _ => {
                // 2-tier: uplink j goes to spine j mod spines, port l × per spine + j ÷ spines.
                let per_spine = (up / plan.spines).max(1);
                for l in 0..plan.leaves {
                    for (round, j) in (0..up).step_by(plan.spines as usize).enumerate() {
                        let count = plan.spines.min(up - j);
                        leaf_run(l, j, count, (0, l * per_spine + round as u32))?;
                    }
                }
            }
        }
    }

    // Spine to core.
    if plan.cores > 0 && plan.spines > 0 {
        let spine_up = plan.spine_core_links / plan.spines;
        let spine_down = k.saturating_sub(spine_up);
        // Uplink g = s × spine_up + u goes to core g mod cores, port g ÷ cores: a spine's
        // uplinks reach consecutive cores on one port, until the cores wrap round.
        let (mut core, mut core_port) = (0u32, 0u32);
        for s in 0..plan.spines {
            let mut u = 0;
            while u < spine_up {
                let count = (spine_up - u).min(plan.cores - core);
                let run = Run {
                    tier: "spine-core",
                    level: 2,
                    from: (Role::Spine, s, spine_down + u),
                    to: (Role::Core, core, core_port),
                    count,
                };
                let fit = if core_port < k {
                    count.min(k.saturating_sub(spine_down + u))
                } else {
                    0
                };
                visit_fitting(visit, run, fit, || {
                    format!(
                        "fabric {}: the cores have too few ports for spine {}",
                        fabric.name,
                        s + 1
                    )
                })?;
                u += count;
                core += count;
                if core == plan.cores {
                    core = 0;
                    core_port += 1;
                }
            }
        }
    }
    Ok(())
}

/// Visits the first `fit` links of `run`, those the switches have ports for, as a walk one link
/// at a time would before it stopped; `Err` of what `lacking` says when that is not all of them.
#[inline(always)]
fn visit_fitting(
    visit: &mut impl Visit,
    run: Run,
    fit: u32,
    lacking: impl FnOnce() -> String,
) -> Result<(), DoesNotFit> {
    let fit = fit.min(run.count);
    visit.run(Run { count: fit, ..run });
    if fit < run.count {
        return Err(DoesNotFit(lacking()));
    }
    Ok(())
}

/// The error of node `n` (from 0) finding no leaf.
#[cold]
fn no_leaf(fabric: &FabricReport, n: u32) -> DoesNotFit {
    DoesNotFit(format!(
        "fabric {}: node {} has no leaf",
        fabric.name,
        n + 1
    ))
}
