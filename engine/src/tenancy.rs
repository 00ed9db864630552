//! Tenants on one fabric: where each lands, what partition it is given and what its isolation
//! costs (how much another tenant's traffic slows it is the `interference` module, which
//! evaluates the design again and so sits above the evaluation this placement is part of).
//!
//! The unit of placement is the scalable unit of the design's compute fabric: the nodes one
//! leaf serves (one leaf per rail in a rail-optimized fabric), numbered from 1 in node order.
//! A tenant whose collectives stay under one leaf sends nothing to the spines; one that spans
//! units shares the uplinks of every leaf it has with the tenants on it. So the planner places
//! each tenant in the fewest units, in one when it fits: pinned tenants first (where the
//! design says), then those that take whole units, largest first, then the others, largest
//! first, each in the unit it fills best [a best-fit bin packing; CASSINI, NSDI 2024, for why
//! placement decides contention].

mod cost;
mod floor_plan;
mod partition;

pub use crate::report::tenants::{Contended, Interference};
pub use cost::{isolation_cost, isolation_total, IsolationCost, IsolationTotal};
pub use floor_plan::{floor_plan_by_tenant, TENANT_COLOURS};
pub use partition::{Partition, FIRST_PKEY};

use crate::allocation::NodeRun;
use crate::error::FieldError;
pub use crate::report::tenants::TenantPlacement;
use crate::spec::{DesignSpec, Role};

impl TenantPlacement {
    /// The nodes it is placed on.
    pub fn run(&self) -> NodeRun {
        NodeRun {
            first: self.first_node,
            nodes: self.nodes,
        }
    }

    /// Last node, from 1.
    pub fn last_node(&self) -> u32 {
        self.run().last()
    }

    /// Whether node `n` (from 1) is one of its nodes.
    pub fn holds(&self, n: u32) -> bool {
        self.run().holds(n)
    }

    /// "nodes 1–32", "node 5".
    pub fn range(&self) -> String {
        self.run().words()
    }

    /// The racks of `floor` that hold any of its nodes, in the floor's order.
    pub fn racks<'f>(&self, floor: &'f crate::floor::FloorReport) -> Vec<&'f str> {
        floor
            .racks
            .iter()
            .filter(|r| {
                !r.network
                    && r.devices
                        .iter()
                        .filter_map(crate::floor::Device::node_number)
                        .any(|n| self.holds(n))
            })
            .map(|r| r.name.as_str())
            .collect()
    }

    /// "unit 2", "units 1–3".
    pub fn unit_range(&self) -> String {
        if self.units == 1 {
            format!("unit {}", self.first_unit)
        } else {
            format!(
                "units {}–{}",
                self.first_unit,
                self.first_unit + self.units - 1
            )
        }
    }
}

/// Which of `roles` (the design's fabrics, in order) the tenants' scalable units are counted
/// on: the first compute fabric, else the first.
pub fn unit_fabric(mut roles: impl Iterator<Item = Role>) -> usize {
    roles.position(|r| r == Role::Compute).unwrap_or(0)
}

/// Nodes of one scalable unit of a fabric sized as `plan` with `ports_per_node` ports per
/// node, in a cluster of `cluster_nodes`: the nodes one leaf serves; every node on one switch.
pub fn nodes_per_unit(
    plan: &crate::topology::Plan,
    ports_per_node: u32,
    cluster_nodes: u32,
) -> u32 {
    if plan.leaves > 1 {
        crate::headroom::nodes_per_leaf(plan, ports_per_node).min(cluster_nodes)
    } else {
        cluster_nodes.max(1)
    }
}

/// The scalable units tenants are placed in ([`unit_fabric`], [`nodes_per_unit`]), from the
/// fabrics' `plans` in the design's order.
pub fn unit_nodes(spec: &DesignSpec, plans: &[crate::topology::Plan]) -> u32 {
    let i = unit_fabric(spec.fabrics.iter().map(|f| f.role));
    match (spec.fabrics.get(i), plans.get(i)) {
        (Some(f), Some(plan)) => nodes_per_unit(
            plan,
            crate::links::ports_per_node(&spec.cluster, f),
            spec.cluster.nodes,
        ),
        _ => spec.cluster.nodes.max(1),
    }
}

/// Findings of the tenants' interference: a service that meets its target alone but not when
/// the tenants it shares leaves with send at once.
pub fn findings(interference: &[Interference]) -> Vec<crate::report::Finding> {
    use crate::report::{Finding, Severity};
    interference
        .iter()
        .flat_map(|i| {
            i.workloads
                .iter()
                .filter(|w| w.met_only_alone())
                .map(move |w| {
                    // Where it meets the others: its pods' core uplinks, else its leaves'.
                    let (whom, fix) = if i.core_binds {
                        (
                            format!("on the core uplinks of its {} shared pods", i.shared_pods),
                            "give it nodes in fewer pods (pin it to units of one pod), or a \
                             fabric of its own",
                        )
                    } else {
                        (
                            format!("on its {} shared leaves", i.shared_leaves),
                            "isolate it per scalable unit, so no leaf it uses carries another \
                             tenant's traffic, or give it nodes under fewer leaves",
                        )
                    };
                    Finding {
                        severity: Severity::Warning,
                        rule: "tenant-contention".into(),
                        subject: format!("{} / {}", i.tenant, w.workload),
                        message: format!(
                            "{} of tenant {} meets its {} target alone ({}) but not when the \
                             tenants {whom} of fabric {} send at once ({}): {fix}",
                            w.workload,
                            i.tenant,
                            w.target.map_or(String::new(), |t| t.to_string()),
                            w.alone,
                            i.fabric,
                            w.worst,
                        ),
                    }
                })
        })
        .collect()
}

/// What a tenant asks: its nodes and how it must be placed.
struct Ask {
    index: usize,
    nodes: u32,
    used: u32,
    whole_units: bool,
    first_unit: Option<u32>,
}

/// The units' free space: each unit fills from its first node, so what is free is a run at its
/// end (`used[u]` nodes taken of `size(u)`).
struct Units {
    per_unit: u32,
    cluster: u32,
    used: Vec<u32>,
}

impl Units {
    fn count(&self) -> u32 {
        self.used.len() as u32
    }

    /// Nodes of unit `u` (from 0): the last may be short.
    fn size(&self, u: u32) -> u32 {
        self.per_unit
            .min(self.cluster.saturating_sub(u * self.per_unit))
    }

    fn free(&self, u: u32) -> u32 {
        self.size(u) - self.used[u as usize]
    }

    fn empty(&self, u: u32) -> bool {
        self.used[u as usize] == 0
    }

    /// Units `first..first + n` exist and are empty.
    fn empty_run(&self, first: u32, n: u32) -> bool {
        first.saturating_add(n) <= self.count() && (first..first + n).all(|u| self.empty(u))
    }

    /// Takes `nodes` nodes from unit `first`'s free run onwards; the first node (from 1).
    fn take(&mut self, first: u32, nodes: u32) -> u32 {
        let start = first * self.per_unit + self.used[first as usize] + 1;
        let mut left = nodes;
        let mut u = first;
        while left > 0 && u < self.count() {
            let n = left.min(self.free(u));
            self.used[u as usize] += n;
            left -= n;
            u += 1;
        }
        start
    }

    /// Units (from 0) a node range touches.
    fn touched(&self, first_node: u32, nodes: u32) -> (u32, u32) {
        let first = (first_node - 1) / self.per_unit;
        let last = (first_node + nodes.max(1) - 2) / self.per_unit;
        (first, last - first + 1)
    }
}

/// Places `spec`'s tenants in scalable units of `per_unit` nodes (see the module's notes). An
/// error names the tenant's field when it cannot be placed: a pinned unit that does not exist
/// or is taken, whole units the cluster no longer has, a fabric of one unit asked for more.
pub fn place(spec: &DesignSpec, per_unit: u32) -> Result<Vec<TenantPlacement>, Vec<FieldError>> {
    let per_unit = per_unit.clamp(1, spec.cluster.nodes.max(1));
    let mut units = Units {
        per_unit,
        cluster: spec.cluster.nodes,
        used: vec![0; spec.cluster.nodes.div_ceil(per_unit) as usize],
    };
    let asks: Vec<Ask> = spec
        .tenants
        .iter()
        .enumerate()
        .map(|(index, t)| {
            let used: u32 = t
                .workloads
                .iter()
                .filter_map(|name| spec.workloads.iter().position(|w| w.name() == name))
                .filter_map(|i| crate::allocation::nodes_asked(spec, i))
                .sum();
            let whole_units = t.isolation.whole_units();
            let given = t.nodes.unwrap_or(used);
            Ask {
                index,
                nodes: if whole_units {
                    given.div_ceil(per_unit) * per_unit
                } else {
                    given
                },
                used,
                whole_units,
                first_unit: t.first_unit,
            }
        })
        .collect();
    // The order to place them in, picked one at a time (at most MAX_TENANTS): no sort, whose
    // code the browser's bundle would carry.
    let rank = |a: &Ask| {
        (
            a.first_unit.is_none(),
            !a.whole_units,
            std::cmp::Reverse(a.nodes),
            a.index,
        )
    };
    let mut left: Vec<&Ask> = asks.iter().collect();
    let order = std::iter::from_fn(|| {
        let next = (0..left.len()).min_by_key(|&i| rank(left[i]))?;
        Some(left.swap_remove(next))
    });
    let mut errors = Vec::new();
    let mut placed: Vec<Option<TenantPlacement>> = vec![None; asks.len()];
    for ask in order {
        let tenant = &spec.tenants[ask.index];
        let at = format!("tenants[{}]", ask.index);
        let span = ask.nodes.div_ceil(per_unit);
        let start = match ask.first_unit {
            Some(pin) => {
                let u = pin.saturating_sub(1);
                let fits = if ask.nodes >= per_unit || ask.whole_units {
                    units.empty_run(u, span)
                } else {
                    u < units.count() && units.free(u) >= ask.nodes
                };
                if !fits {
                    errors.push(FieldError::new(
                        format!("{at}.first_unit"),
                        pinned_why(&units, &placed, pin, span),
                    ));
                    continue;
                }
                Some(u)
            }
            None if ask.whole_units => (0..units.count()).find(|&u| units.empty_run(u, span)),
            // Whole units where it fills them, else the unit its nodes fill best, else the
            // first free run across a unit's end.
            None => {
                let whole = (ask.nodes >= per_unit)
                    .then(|| (0..units.count()).find(|&u| units.empty_run(u, span)))
                    .flatten();
                let best = || {
                    (0..units.count())
                        .filter(|&u| units.free(u) >= ask.nodes)
                        .min_by_key(|&u| (units.free(u), u))
                };
                let across = || {
                    (0..units.count()).find(|&u| {
                        let after: u32 = (u + 1..units.count())
                            .take_while(|&v| units.empty(v))
                            .map(|v| units.size(v))
                            .sum();
                        units.free(u) > 0 && units.free(u) + after >= ask.nodes
                    })
                };
                whole.or_else(best).or_else(across)
            }
        };
        let Some(start) = start else {
            errors.push(FieldError::new(
                if tenant.nodes.is_some() {
                    format!("{at}.nodes")
                } else {
                    format!("{at}.isolation")
                },
                no_room_why(spec, &units, ask, span),
            ));
            continue;
        };
        let first_node = units.take(start, ask.nodes);
        let nodes = ask.nodes.min(spec.cluster.nodes + 1 - first_node);
        let (first_unit, touched) = units.touched(first_node, nodes);
        let given = tenant.nodes.unwrap_or(ask.used);
        placed[ask.index] = Some(TenantPlacement {
            tenant: tenant.name.clone(),
            isolation: tenant.isolation,
            first_node,
            nodes,
            nodes_used: ask.used,
            first_unit: first_unit + 1,
            units: touched,
            stranded_nodes: nodes.saturating_sub(given),
            pinned: ask.first_unit.is_some(),
            partition: tenant
                .isolation
                .partitioned()
                .then(|| Partition::of(ask.index, &tenant.name)),
        });
    }
    if errors.is_empty() {
        Ok(placed.into_iter().flatten().collect())
    } else {
        Err(errors)
    }
}

/// Why a pinned tenant cannot start in unit `pin`.
fn pinned_why(units: &Units, placed: &[Option<TenantPlacement>], pin: u32, span: u32) -> String {
    let last = pin.saturating_add(span.max(1) - 1);
    if last > units.count() {
        return format!(
            "unit {pin} onwards has too few units: the cluster has {} scalable units of {} nodes",
            units.count(),
            units.per_unit
        );
    }
    let holder = placed.iter().flatten().find(|p| {
        let p_last = p.first_unit + p.units - 1;
        p.first_unit <= last && pin <= p_last
    });
    match holder {
        Some(p) => format!(
            "units {pin}–{last} meet tenant {}'s {}: two tenants cannot be pinned to the same nodes",
            p.tenant,
            p.unit_range()
        ),
        None => format!("unit {pin} has too few free nodes"),
    }
}

/// Why a tenant found no room.
fn no_room_why(spec: &DesignSpec, units: &Units, ask: &Ask, span: u32) -> String {
    if units.count() == 1 && ask.whole_units {
        return format!(
            "the cluster is one scalable unit ({} nodes under one leaf): it cannot give a tenant \
             units of its own while other tenants share it",
            units.per_unit
        );
    }
    let free: u32 = (0..units.count()).map(|u| units.free(u)).sum();
    let empty = (0..units.count()).filter(|&u| units.empty(u)).count();
    if ask.whole_units {
        format!(
            "needs {span} whole scalable units of {} nodes; {empty} are left whole once the \
             tenants placed before it have theirs",
            units.per_unit
        )
    } else {
        format!(
            "needs {} nodes in one run; {} of the cluster's {} nodes are left, in pieces, \
             once the tenants placed before it have theirs",
            crate::units::thousands(f64::from(ask.nodes)),
            crate::units::thousands(f64::from(free)),
            crate::units::thousands(f64::from(spec.cluster.nodes))
        )
    }
}

/// The windows the tenants' workloads are placed in ([`crate::allocation::allocate_within`]).
pub fn windows(spec: &DesignSpec, placed: &[TenantPlacement]) -> Vec<crate::allocation::Window> {
    placed
        .iter()
        .filter_map(|p| {
            let tenant = spec.tenants.iter().find(|t| t.name == p.tenant)?;
            Some(crate::allocation::Window {
                first_node: p.first_node,
                nodes: p.nodes,
                workloads: tenant
                    .workloads
                    .iter()
                    .filter_map(|name| spec.workloads.iter().position(|w| w.name() == name))
                    .collect(),
            })
        })
        .collect()
}
