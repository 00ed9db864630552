//! Graphviz DOT of a fabric, in the convention the NVIDIA Cable Validation Tool, PTM and Air
//! read: an undirected `graph`, a node statement per device with `function` and `role`
//! (`leaf|spine|super_spine`; `os="cumulus"` on Ethernet switches), and one edge per cable
//! between ports, `"leaf":"swp1" -- "host":"eth1"` [CumulusNetworks/docs nvidia-air-v2
//! Custom-Topology.md; graphviz.org/docs/attr-types/portPos]. Edges carry the sheet's label.

use super::{cvt, role_of, PlannedFabric};
use crate::technology::Transport;
use std::fmt::Write;

/// A DOT quoted ID: `"` and `\` escaped, line breaks dropped.
pub fn id(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn graph(f: &PlannedFabric) -> String {
    let name = &f.fabric.name;
    let ethernet = f.transport() != Transport::InfiniBand;
    // Ethernet ports as the switches name them (CVT and Air match them); InfiniBand as on the sheet.
    let port = |d: &str, p: &str| {
        if ethernet && role_of(name, d).is_some() {
            cvt::port(f, d, p)
        } else {
            p.to_string()
        }
    };
    let mut out = format!("graph {} {{\n", id(name));
    for s in f.switches() {
        let role = match role_of(name, s) {
            Some("core") => "super_spine",
            Some(r) => r,
            None => "leaf",
        };
        let os = if ethernet { " os=\"cumulus\"" } else { "" };
        let _ = writeln!(
            out,
            "  {} [function={} role={}{os}]",
            id(s),
            id(role),
            id(role)
        );
    }
    for h in f.hosts() {
        let _ = writeln!(out, "  {} [function=\"server\"]", id(h));
    }
    for lc in &f.cables {
        let c = &lc.cable;
        let _ = writeln!(
            out,
            "  {}:{} -- {}:{} [label={}]",
            id(&c.a_device),
            id(&port(&c.a_device, &c.a_port)),
            id(&c.z_device),
            id(&port(&c.z_device, &c.z_port)),
            id(&lc.label)
        );
    }
    out.push_str("}\n");
    out
}
