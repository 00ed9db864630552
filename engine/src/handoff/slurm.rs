//! Slurm `topology.conf`: the tree plugin (`SwitchName=… Nodes=…` for the switches nodes hang
//! off, `SwitchName=… Switches=…` above them) and the block plugin (`BlockName=… Nodes=…`,
//! `BlockSizes=…`) [slurm.schedmd.com/topology.conf.html; SchedMD/slurm doc/man/man5/topology.conf.5].
//!
//! In a rail-optimized fabric a node reaches one leaf per rail, all in its scalable unit, so the
//! unit is the switch Slurm sees (`<fabric>-suNN`, its rail leaves named in a comment). Elsewhere
//! a node hangs off the leaf of its first port. Above the blocks: the spines of a 2-tier fabric
//! (`<fabric>-spines`), the pods of a 3-tier one (`<fabric>-podNN`) under its cores.

use super::text::hostlist;
use super::PlannedFabric;
use crate::fast_hash::FastSet;
use crate::topology::Layout;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Slurm refuses longer switch names.
pub const MAX_SWITCH_NAME: usize = 64;

/// A group of nodes under one switch (or one scalable unit).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub name: String,
    /// The leaves the block's nodes reach.
    pub leaves: Vec<String>,
    pub nodes: Vec<String>,
}

fn trailing(s: &str) -> Option<u32> {
    s.rsplit('-').next()?.parse().ok()
}

/// The blocks of the fabric, in leaf order; extra endpoints (UFM, storage) are not nodes.
pub fn blocks(f: &PlannedFabric) -> Vec<Block> {
    let name = &f.fabric.name;
    let rails = f.fabric.plan.layout.by_rail();
    let per_rail = (f.fabric.plan.leaves / f.fabric.ports_per_node.max(1)).max(1);
    let mut groups: BTreeMap<u32, Block> = BTreeMap::new();
    let mut placed: FastSet<&str> = FastSet::default();
    let endpoint = format!("{name}-endpoint-");
    for c in f.cables().filter(|c| c.tier == "node-leaf") {
        if c.a_device.starts_with(&endpoint) {
            continue;
        }
        let Some(leaf) = trailing(c.z_device) else {
            continue;
        };
        let key = if rails {
            (leaf.saturating_sub(1)) % per_rail + 1
        } else {
            leaf
        };
        if rails || !placed.contains(c.a_device) {
            let entry = groups.entry(key).or_insert_with(|| Block {
                name: if rails {
                    format!("{name}-su{key:02}")
                } else {
                    c.z_device.to_string()
                },
                leaves: Vec::new(),
                nodes: Vec::new(),
            });
            if !entry.leaves.iter().any(|l| l == c.z_device) {
                entry.leaves.push(c.z_device.to_string());
            }
            if placed.insert(c.a_device) {
                entry.nodes.push(c.a_device.to_string());
            }
        }
    }
    groups.into_values().collect()
}

/// The switches above the blocks: (name, blocks under it); then the top, if any.
pub fn upper(f: &PlannedFabric, blocks: &[Block]) -> Vec<(String, Vec<String>)> {
    let name = &f.fabric.name;
    let plan = &f.fabric.plan;
    let names = |bs: &[&Block]| bs.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
    match plan.layout {
        Layout::SingleSwitch => Vec::new(),
        Layout::TwoTier | Layout::RailOptimized => {
            vec![(
                format!("{name}-spines"),
                names(&blocks.iter().collect::<Vec<_>>()),
            )]
        }
        // A block's first leaf is its own (or, by rail, its rail 1 leaf, numbered as the block):
        // its pod holds the block.
        Layout::ThreeTier | Layout::RailOptimizedThreeTier => {
            let per_pod = plan.leaves_per_pod.max(1);
            let mut pods: BTreeMap<u32, Vec<&Block>> = BTreeMap::new();
            for b in blocks {
                let leaf = b.leaves.first().and_then(|l| trailing(l)).unwrap_or(1);
                pods.entry((leaf - 1) / per_pod + 1).or_default().push(b);
            }
            let mut out: Vec<(String, Vec<String>)> = pods
                .iter()
                .map(|(p, bs)| (format!("{name}-pod{p:02}"), names(bs)))
                .collect();
            let pods = out.iter().map(|p| p.0.clone()).collect();
            out.push((format!("{name}-core"), pods));
            out
        }
    }
}

fn header(f: &PlannedFabric, plugin: &str) -> String {
    format!(
        "# Slurm topology.conf ({plugin} plugin) for fabric {} ({}).\n\
         # Node names are those of the cabling sheet: make them the NodeName of slurm.conf.\n",
        f.fabric.name,
        f.fabric.plan.layout.label()
    )
}

fn clip(name: &str) -> &str {
    match name.char_indices().nth(MAX_SWITCH_NAME) {
        Some((at, _)) => &name[..at],
        None => name,
    }
}

/// `TopologyPlugin=topology/tree`.
pub fn tree(f: &PlannedFabric) -> String {
    let blocks = blocks(f);
    let mut out = header(f, "tree");
    for b in &blocks {
        if b.leaves.len() > 1 || b.leaves.first() != Some(&b.name) {
            let _ = writeln!(out, "# {}: leaves {}", b.name, hostlist(&b.leaves));
        }
        let _ = writeln!(
            out,
            "SwitchName={} Nodes={}",
            clip(&b.name),
            hostlist(&b.nodes)
        );
    }
    for (name, below) in upper(f, &blocks) {
        let clipped: Vec<&str> = below.iter().map(|b| clip(b)).collect();
        let _ = writeln!(
            out,
            "SwitchName={} Switches={}",
            clip(&name),
            hostlist(&clipped)
        );
    }
    out
}

/// `TopologyPlugin=topology/block`: one block per scalable unit (or leaf); the base block size
/// is the smallest block (every block must hold it) and each larger size doubles it while the
/// fabric has that many blocks.
pub fn block(f: &PlannedFabric) -> String {
    let blocks = blocks(f);
    let mut out = header(f, "block");
    for b in &blocks {
        let _ = writeln!(
            out,
            "BlockName={} Nodes={}",
            clip(&b.name),
            hostlist(&b.nodes)
        );
    }
    if let Some(base) = blocks
        .iter()
        .map(|b| b.nodes.len())
        .filter(|n| *n > 0)
        .min()
    {
        let mut sizes = vec![base];
        let mut k = 2;
        while k <= blocks.len() {
            sizes.push(base * k);
            k *= 2;
        }
        let sizes: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(out, "BlockSizes={}", sizes.join(","));
    }
    out
}
