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

pub fn graph(f: &PlannedFabric) -> String {
    let name = &f.fabric.name;
    let ethernet = f.transport() != Transport::InfiniBand;
    let ports = cvt::Ports::of(f);
    let mut out = String::with_capacity(64 * (f.cables.len() + 1));
    out.push_str("graph ");
    push_id(&mut out, name);
    out.push_str(" {\n");
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
    for lc in &f.cables {
        let c = &lc.cable;
        out.push_str("  ");
        end(&mut out, &c.a_device, &c.a_port);
        out.push_str(" -- ");
        end(&mut out, &c.z_device, &c.z_port);
        out.push_str(" [label=");
        push_id(&mut out, &lc.label);
        out.push_str("]\n");
    }
    out.push_str("}\n");
    out
}
