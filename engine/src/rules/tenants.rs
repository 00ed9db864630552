//! Rules of the tenants: each named as its hand-off files need, running workloads the design
//! has (each in one tenant at most), given at least the nodes they take, and together no more
//! nodes than the cluster has. Where a tenant lands (whole scalable units, a pinned unit) is
//! checked once the fabric is sized ([`crate::tenancy::place`]).

use super::{entry, At, Checker};
use crate::spec::DesignSpec;

/// Tenants in one design: a cluster rented out per node group rarely has more than a few dozen;
/// every tenant is re-evaluated for its interference, so the cap bounds one request's work.
pub const MAX_TENANTS: usize = 64;

pub(super) fn tenants(check: &mut Checker, spec: &DesignSpec) {
    let tenants = &spec.tenants;
    check.at_most("tenants", tenants.len(), MAX_TENANTS, "tenants");
    if tenants.len() > MAX_TENANTS {
        return;
    }
    let mut given = 0u64;
    for (i, t) in tenants.iter().enumerate() {
        let at = entry("tenants", i);
        if let Some(why) = crate::spec::names::tenant_name_error(&t.name) {
            check.fail(At(&at, "name"), why);
        } else if tenants[..i].iter().any(|o| o.name == t.name) {
            check.fail(At(&at, "name"), "names another tenant too");
        }
        check.at_most(
            &[at.as_str(), ".workloads"].concat(),
            t.workloads.len(),
            super::MAX_WORKLOADS,
            "workloads",
        );
        let mut needed = 0u64;
        let mut takes_the_rest = None;
        for (j, name) in t.workloads.iter().enumerate() {
            let path = format!("{at}.workloads[{j}]");
            let Some(index) = spec.workloads.iter().position(|w| w.name() == name) else {
                check.fail(&path, "names no workload of the design");
                continue;
            };
            if t.workloads[..j].contains(name) {
                check.fail(&path, "is listed twice");
            } else if let Some(other) = tenants[..i].iter().find(|o| o.workloads.contains(name)) {
                check.fail(
                    &path,
                    format!(
                        "runs in tenant {} already: a workload belongs to one tenant",
                        other.name
                    ),
                );
            }
            match crate::allocation::nodes_asked(spec, index) {
                Some(n) => needed += u64::from(n),
                None if spec.workloads[index].takes_nodes() => takes_the_rest = Some(name),
                None => {}
            }
        }
        let nodes = At(&at, "nodes");
        match t.nodes {
            Some(0) => check.fail(nodes, "must be at least 1"),
            Some(n) if u64::from(n) < needed => check.fail(
                nodes,
                format!("is {n}, but its workloads take {needed} nodes"),
            ),
            Some(n) if n > spec.cluster.nodes => check.fail(
                nodes,
                format!("is {n}, more than the cluster's {} nodes", spec.cluster.nodes),
            ),
            Some(n) => given += u64::from(n),
            None if takes_the_rest.is_some() => check.fail(
                nodes,
                format!(
                    "must be given: service {} states no replicas, so it takes the nodes its tenant has",
                    takes_the_rest.map_or("", |s| s.as_str())
                ),
            ),
            None if needed == 0 => check.fail(
                nodes,
                "must be given: the tenant runs no training job or service that takes nodes",
            ),
            None => given += needed,
        }
        if t.first_unit == Some(0) {
            check.fail(
                At(&at, "first_unit"),
                "must be at least 1: units are numbered from 1",
            );
        }
    }
    if given > u64::from(spec.cluster.nodes) {
        check.fail(
            "tenants",
            format!(
                "are given {given} nodes together, more than the cluster's {}",
                spec.cluster.nodes
            ),
        );
    }
}
