//! Kubernetes node labels for topology-aware scheduling, one label per tier with the keys NVIDIA
//! Topograph v0.1 writes (`network.topology.nvidia.com/block`, `/spine`, `/datacenter`)
//! [NVIDIA/topograph docs/engines/k8s.md], and the Kueue `Topology` that orders them from coarse
//! to fine, ending with `kubernetes.io/hostname` [kueue.sigs.k8s.io/docs/concepts/topology].
//!
//! Values are label values: at most 63 characters of `[A-Za-z0-9._-]`, starting and ending with
//! an alphanumeric [k8s.io/apimachinery pkg/util/validation].

use super::slurm::{blocks, upper};
use super::text::{push_yaml_string, yaml_string as q};
use super::PlannedFabric;
use crate::spec::DesignSpec;

pub const BLOCK: &str = "network.topology.nvidia.com/block";
pub const SPINE: &str = "network.topology.nvidia.com/spine";
pub const DATACENTER: &str = "network.topology.nvidia.com/datacenter";
pub const HOSTNAME: &str = "kubernetes.io/hostname";

/// `s` as a label value: other characters become `-`, cut to 63, trimmed to alphanumerics.
pub fn label_value(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .take(63)
        .collect();
    mapped
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string()
}

/// `s` as a DNS-1123 subdomain (an object name): lower case, `[a-z0-9.-]`.
fn object_name(s: &str) -> String {
    let v = label_value(&s.to_ascii_lowercase()).replace('_', "-");
    if v.is_empty() {
        "fabric".into()
    } else {
        v
    }
}

/// One partial `Node` per node with its topology labels (`kubectl apply --server-side` or
/// `kubectl label`), in sheet order.
pub fn node_labels(spec: &DesignSpec, f: &PlannedFabric) -> String {
    let blocks = blocks(f);
    let upper = upper(f, &blocks);
    let datacenter = label_value(&spec.title);
    let datacenter = if datacenter.is_empty() {
        label_value(&f.fabric.name)
    } else {
        datacenter
    };
    let mut out = format!(
        "# Topology labels of the nodes of fabric {}: block, spine, datacenter (coarsest).\n",
        f.fabric.name
    );
    let datacenter = q(&datacenter);
    for b in &blocks {
        // The switch above the block: its pod in 3 tiers, the spines in 2, itself alone.
        let spine = upper
            .iter()
            .find(|(_, below)| below.contains(&b.name))
            .map_or(b.name.as_str(), |(n, _)| n.as_str());
        // The same labels for every node of the block: written once.
        let labels = format!(
            "\n  labels:\n    {BLOCK}: {}\n    {SPINE}: {}\n    {DATACENTER}: {datacenter}\n",
            q(&label_value(&b.name)),
            q(&label_value(spine)),
        );
        for node in &b.nodes {
            out.push_str("---\napiVersion: \"v1\"\nkind: \"Node\"\nmetadata:\n  name: ");
            push_yaml_string(&mut out, node);
            out.push_str(&labels);
        }
    }
    out
}

/// The Kueue `Topology` over those labels.
pub fn kueue_topology(f: &PlannedFabric) -> String {
    format!(
        "apiVersion: \"kueue.x-k8s.io/v1beta2\"\nkind: \"Topology\"\nmetadata:\n  name: {}\nspec:\n  levels:\n    - nodeLabel: {}\n    - nodeLabel: {}\n    - nodeLabel: {}\n    - nodeLabel: {}\n",
        q(&object_name(&f.fabric.name)),
        q(DATACENTER),
        q(SPINE),
        q(BLOCK),
        q(HOSTNAME)
    )
}
