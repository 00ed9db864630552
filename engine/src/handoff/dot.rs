//! Graphviz DOT of a fabric, in the convention the NVIDIA Cable Validation Tool, PTM and Air
//! read: an undirected `graph`, a node statement per device with `function` and `role`
//! (`leaf|spine|super_spine`; on Ethernet switches their `os`, `cumulus` or `eos`), and one edge per cable
//! between ports, `"leaf":"swp1" -- "host":"eth1"` [CumulusNetworks/docs nvidia-air-v2
//! Custom-Topology.md; graphviz.org/docs/attr-types/portPos]. Edges carry the sheet's label.

use super::text::{hand_on, Pieces};
use super::{cvt, role_of, PlannedFabric};
use crate::technology::Transport;
use std::fmt::Write;

/// A DOT quoted ID: `"` and `\` escaped, line breaks dropped.
pub fn id(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_id(&mut out, s);
    out
}

/// [`id`], appended to `out`.
fn push_id(out: &mut String, s: &str) {
    out.push('"');
    // Device names and ports need no escapes: copied whole.
    if !s.bytes().any(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r')) {
        out.push_str(s);
        out.push('"');
        return;
    }
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
}

pub fn graph(f: &PlannedFabric, pieces: &mut Pieces) {
    let name = &f.fabric.name;
    let ethernet = f.transport() != Transport::InfiniBand;
    let ports = cvt::Ports::of(f);
    let os = f.os().dot_name();
    let mut out = String::new();
    out.push_str("graph ");
    push_id(&mut out, name);
    out.push_str(" {\n");
    for s in f.switches() {
        let role = match role_of(name, s) {
            Some("core") => "super_spine",
            Some(r) => r,
            None => "leaf",
        };
        let _ = write!(out, "  {} [function={} role={}", id(s), id(role), id(role));
        if ethernet {
            let _ = write!(out, " os={}", id(os));
        }
        out.push_str("]\n");
    }
    for h in f.hosts() {
        out.push_str("  ");
        push_id(&mut out, h);
        out.push_str(" [function=\"server\"]\n");
    }
    // Ethernet ports as the switches name them (CVT and Air match them); InfiniBand as on the sheet.
    let mut port = String::new();
    let mut end = |out: &mut String, d: &str, p: &str| {
        push_id(out, d);
        out.push(':');
        if ethernet && ports.switch(d) {
            port.clear();
            ports.push(&mut port, d, p);
            push_id(out, &port);
        } else {
            push_id(out, p);
        }
    };
    for c in f.cables() {
        hand_on(&mut out, pieces, false);
        out.push_str("  ");
        end(&mut out, c.a_device, c.a_port);
        out.push_str(" -- ");
        end(&mut out, c.z_device, c.z_port);
        out.push_str(" [label=");
        push_id(&mut out, c.label);
        out.push_str("]\n");
    }
    out.push_str("}\n");
    hand_on(&mut out, pieces, true);
}

/// Fabrics with more links than this also get a summary graph: `dot` lays out a 64-SU fabric's
/// full graph (49,152 links) in minutes, and no reader can follow it.
pub const SUMMARY_OVER_LINKS: usize = 1_000;

/// The fabric by groups, for a reader: one node per block of nodes (a scalable unit of a
/// rail-optimized fabric, else a leaf), per spine group (a pod's spines, or all of a 2-tier
/// fabric's) and for the cores, each labelled with what it holds, and one edge per pair of groups
/// labelled with its number of links (Slurm's topology groups the same way, `slurm::blocks`).
pub fn summary(f: &PlannedFabric) -> String {
    use std::collections::BTreeMap;
    let name = &f.fabric.name;
    let blocks = super::slurm::blocks(f);
    let upper = super::slurm::upper(f, &blocks);
    // The group of every switch: a leaf's block, a spine's group above the leaves it serves, the
    // core group of the cores.
    let mut group: BTreeMap<&str, String> = BTreeMap::new();
    for b in &blocks {
        for leaf in &b.leaves {
            group.insert(leaf.as_str(), b.name.clone());
        }
    }
    let above = |block: &str| -> String {
        upper
            .iter()
            .find(|(_, under)| under.iter().any(|u| u == block))
            .map_or_else(|| format!("{name}-spines"), |(n, _)| n.clone())
    };
    let mut links: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut members: BTreeMap<String, (usize, &'static str)> = BTreeMap::new();
    for c in f.cables() {
        match c.tier {
            "leaf-spine" => {
                let block = group.get(c.a_device).cloned().unwrap_or_default();
                let spines = above(&block);
                group.entry(c.z_device).or_insert(spines.clone());
                *links.entry((block, spines)).or_default() += 1;
            }
            "spine-core" => {
                let pod = group.get(c.a_device).cloned().unwrap_or_default();
                let core = format!("{name}-core");
                group.entry(c.z_device).or_insert(core.clone());
                *links.entry((pod, core)).or_default() += 1;
            }
            _ => {}
        }
    }
    for (device, g) in &group {
        let kind = role_of(name, device).unwrap_or("leaf");
        let entry = members.entry(g.clone()).or_insert((0, kind));
        entry.0 += 1;
    }
    let mut out = String::from("graph ");
    push_id(&mut out, &format!("{name}-summary"));
    out.push_str(" {\n");
    for b in &blocks {
        let leaves = b.leaves.len();
        let _ = writeln!(
            out,
            "  {} [label={}]",
            id(&b.name),
            id(&format!(
                "{}: {} nodes, {leaves} {}",
                b.name,
                b.nodes.len(),
                if leaves == 1 { "leaf" } else { "leaves" }
            ))
        );
    }
    for (g, (count, kind)) in members.iter().filter(|(_, (_, k))| *k != "leaf") {
        let plural = if *kind == "spine" { "spines" } else { "cores" };
        let _ = writeln!(
            out,
            "  {} [label={}]",
            id(g),
            id(&format!("{g}: {count} {plural}"))
        );
    }
    for ((a, z), n) in &links {
        let _ = writeln!(
            out,
            "  {} -- {} [label={}]",
            id(a),
            id(z),
            id(&format!("{n} links"))
        );
    }
    out.push_str("}\n");
    out
}
