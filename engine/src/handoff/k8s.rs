//! Kubernetes node labels for topology-aware scheduling, as NVIDIA Topograph writes them, and the
//! Kueue objects that schedule by them.
//!
//! - Topograph 1.x (current): `fabric.topograph.run/tier-N`, tier 0 the switch a node hangs off
//!   (its scalable unit in a rail-optimized fabric), numbers increasing outwards, only the tiers
//!   the fabric has [docs.nvidia.com/topograph, reference/node-labels-and-annotations, v1.0.0].
//! - Topograph 0.x, for clusters that run it: `network.topology.nvidia.com/leaf`, `/spine`,
//!   `/core` [NVIDIA/topograph docs/engines/k8s.md before 1.0].
//! - Beside them every node carries `fabric-planner/fabric: <fabric>`, which the Kueue
//!   `ResourceFlavor` selects the fabric's nodes by; the flavor names the Kueue `Topology`
//!   (`spec.topologyName`), whose levels run from coarse to fine and end with
//!   `kubernetes.io/hostname` [kueue.sigs.k8s.io/docs/concepts/topology_aware_scheduling].
//!
//! Values are label values: at most 63 characters of `[A-Za-z0-9._-]`, starting and ending with
//! an alphanumeric [k8s.io/apimachinery pkg/util/validation].

use super::slurm::{blocks, upper, Block};
use super::text::{push_yaml_string, yaml_string as q};
use super::PlannedFabric;

/// Topograph 1.x's fabric tier labels, tier 0 nearest the node.
pub const TIERS: [&str; 3] = [
    "fabric.topograph.run/tier-0",
    "fabric.topograph.run/tier-1",
    "fabric.topograph.run/tier-2",
];
/// Topograph 0.x's, in the same order.
pub const TIERS_0X: [&str; 3] = [
    "network.topology.nvidia.com/leaf",
    "network.topology.nvidia.com/spine",
    "network.topology.nvidia.com/core",
];
/// The label naming a node's fabric.
pub const FABRIC: &str = "fabric-planner/fabric";
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

/// The switches above each block, tier by tier from the block itself: the block, then the
/// spines of a 2-tier fabric or the pod and the core of a 3-tier one.
fn chains(f: &PlannedFabric) -> Vec<(Block, Vec<String>)> {
    let blocks = blocks(f);
    let upper = upper(f, &blocks);
    blocks
        .into_iter()
        .map(|b| {
            let mut chain = vec![b.name.clone()];
            let mut below = b.name.clone();
            while let Some((name, _)) = upper.iter().find(|(_, under)| under.contains(&below)) {
                chain.push(name.clone());
                below = name.clone();
            }
            chain.truncate(TIERS.len());
            (b, chain)
        })
        .collect()
}

/// The tiers the fabric's nodes are labelled with (all nodes have the same number).
fn tiers(f: &PlannedFabric) -> usize {
    chains(f).first().map_or(1, |(_, chain)| chain.len())
}

/// One partial `Node` per node with its topology labels under `keys` (`kubectl apply
/// --server-side` or `kubectl label`), in sheet order.
fn labels(f: &PlannedFabric, keys: &[&str; 3], scheme: &str) -> String {
    let mut out = format!(
        "# Topology labels of the nodes of fabric {}, as {scheme} writes them: tier 0 the switch a \
         node hangs off, then the tiers above it.\n",
        f.fabric.name
    );
    let fabric = q(&label_value(&f.fabric.name));
    for (block, chain) in chains(f) {
        // The same labels for every node of the block: written once.
        let mut labels = format!("\n  labels:\n    {FABRIC}: {fabric}\n");
        for (key, switch) in keys.iter().zip(&chain) {
            labels.push_str(&format!("    {key}: {}\n", q(&label_value(switch))));
        }
        for node in &block.nodes {
            out.push_str("---\napiVersion: \"v1\"\nkind: \"Node\"\nmetadata:\n  name: ");
            push_yaml_string(&mut out, node);
            out.push_str(&labels);
        }
    }
    out
}

/// The nodes' labels in Topograph 1.x's scheme.
pub fn node_labels(f: &PlannedFabric) -> String {
    labels(f, &TIERS, "Topograph 1.x")
}

/// The nodes' labels in Topograph 0.x's scheme.
pub fn node_labels_0x(f: &PlannedFabric) -> String {
    labels(f, &TIERS_0X, "Topograph 0.x")
}

/// The Kueue `Topology` over the 1.x labels, coarse to fine, and the `ResourceFlavor` that
/// selects the fabric's nodes and refers to it.
pub fn kueue_topology(f: &PlannedFabric) -> String {
    let name = q(&object_name(&f.fabric.name));
    let mut out = format!(
        "apiVersion: \"kueue.x-k8s.io/v1beta2\"\nkind: \"Topology\"\nmetadata:\n  name: {name}\nspec:\n  levels:\n"
    );
    for key in TIERS[..tiers(f)].iter().rev().chain([&HOSTNAME]) {
        out.push_str(&format!("    - nodeLabel: {}\n", q(key)));
    }
    out.push_str(&format!(
        "---\napiVersion: \"kueue.x-k8s.io/v1beta2\"\nkind: \"ResourceFlavor\"\nmetadata:\n  name: {name}\nspec:\n  nodeLabels:\n    {FABRIC}: {}\n  topologyName: {name}\n",
        q(&label_value(&f.fabric.name))
    ));
    out
}
