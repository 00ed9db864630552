//! The tenants, as the tools that enforce and schedule them read them:
//!
//! - Slurm: one partition per tenant over its nodes (`slurm/partitions.conf`, included from
//!   `slurm.conf`), so each tenant's jobs run only on its nodes
//!   [slurm.schedmd.com/slurm.conf.html, PARTITION CONFIGURATION].
//! - Kubernetes: a namespace per tenant and a `fabric-planner/tenant` label on each of its nodes,
//!   which the namespace's pods select (`nodeSelector`, or a scheduler policy that enforces it)
//!   [kubernetes.io, Namespaces; Assigning Pods to Nodes].
//! - UFM, on an InfiniBand fabric: each isolated tenant's partition key as UFM's REST API creates
//!   it (`POST /ufmRest/resources/pkeys/add`), and its members, host port by host port: once
//!   installed, each port's GUID (`ibstat`) is added to the key (`POST /ufmRest/resources/pkeys`)
//!   [NVIDIA UFM Enterprise REST API Guide, PKey GUIDs REST API]. A shared tenant stays in the
//!   default partition 0x7FFF.

use super::text::{csv_row, push_yaml_string};
use super::{hostlist, PlannedFabric};
use crate::cabling::Names;
use crate::report::Report;
use crate::tenancy::TenantPlacement;

/// The label naming a node's tenant.
pub const TENANT: &str = "fabric-planner/tenant";

/// The names of a tenant's nodes, as the scheduling fabric's sheet names them.
fn node_names(f: &PlannedFabric, t: &TenantPlacement) -> Vec<String> {
    let names = Names::of(f.fabric);
    (t.first_node..=t.last_node())
        .map(|n| names.node(n - 1))
        .collect()
}

/// `slurm/partitions.conf`: one partition per tenant.
pub fn slurm_partitions(report: &Report, f: &PlannedFabric) -> String {
    let mut out = String::from(
        "# One partition per tenant over the nodes it was given (Include this file from slurm.conf).\n",
    );
    for t in &report.tenants {
        out.push_str(&format!(
            "# {}: {}, isolation {}\nPartitionName={} Nodes={} State=UP\n",
            t.tenant,
            t.range(),
            t.isolation.label(),
            t.tenant,
            hostlist(&node_names(f, t)),
        ));
    }
    out
}

/// `kubernetes/tenants.yaml`: a namespace per tenant, and one partial `Node` per tenant node with
/// its tenant label (`kubectl apply --server-side -f`).
pub fn kubernetes(report: &Report, f: &PlannedFabric) -> String {
    let mut out =
        String::from("# A namespace per tenant, and the tenant label on each of its nodes.\n");
    for t in &report.tenants {
        out.push_str(&format!(
            "---\napiVersion: \"v1\"\nkind: \"Namespace\"\nmetadata:\n  name: \"{}\"\n  labels:\n    {TENANT}: \"{}\"\n",
            t.tenant, t.tenant
        ));
    }
    for t in &report.tenants {
        for node in node_names(f, t) {
            out.push_str("---\napiVersion: \"v1\"\nkind: \"Node\"\nmetadata:\n  name: ");
            push_yaml_string(&mut out, &node);
            out.push_str(&format!("\n  labels:\n    {TENANT}: \"{}\"\n", t.tenant));
        }
    }
    out
}

/// `ufm/<fabric>-pkeys.json`: the body of each isolated tenant's `pkeys/add` request, in a
/// JSON array.
pub fn ufm_pkeys(report: &Report) -> String {
    let bodies: Vec<serde_json::Value> = report
        .tenants
        .iter()
        .filter_map(|t| {
            let p = t.partition.as_ref()?;
            Some(serde_json::json!({
                "pkey": p.pkey_hex(),
                "partition_name": t.tenant,
                "index0": false,
                "ip_over_ib": true,
            }))
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&bodies).unwrap_or_default();
    out.push('\n');
    out
}

/// `ufm/<fabric>-pkey-members.csv`: every host port of each isolated tenant on fabric `f`,
/// with its key and full membership.
pub fn ufm_members(report: &Report, f: &PlannedFabric) -> String {
    let mut out = csv_row(&["pkey", "tenant", "host", "port", "membership"]);
    let names = Names::of(f.fabric);
    for t in &report.tenants {
        let Some(p) = &t.partition else {
            continue;
        };
        let key = p.pkey_hex();
        for n in t.first_node..=t.last_node() {
            let first = f.fabric.first_node.max(1);
            if n < first || n >= first + f.fabric.attached_nodes {
                continue;
            }
            let host = names.node(n - 1);
            for nic in 0..f.fabric.ports_per_node {
                let port = match f.adapters.get(nic as usize) {
                    Some(adapter) => adapter.rdma.to_string(),
                    None => format!("{}-nic{}", f.fabric.name, nic + 1),
                };
                out.push_str(&csv_row(&[key.as_str(), &t.tenant, &host, &port, "full"]));
            }
        }
    }
    out
}
