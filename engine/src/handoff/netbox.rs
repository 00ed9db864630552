//! NetBox bulk imports: device types in the devicetype-library YAML format (several documents in
//! one file, as the device type import takes them), then CSV files for devices, interfaces and
//! cables with the column names of NetBox's CSV import forms (netbox-community/netbox
//! netbox/dcim/forms/bulk_import.py, choices in netbox/dcim/choices.py).
//!
//! Import in this order, after creating the site (named as the design) and the device roles
//! named in devices.csv. Interfaces keep the sheet's port names; cables carry the sheet's labels.

use super::text::{csv_row, push_csv_row, yaml_string as q};
use super::{role_of, PlannedFabric};
use crate::asbuilt::FastSet;
use crate::catalog::{node_preset, switch, ReachClass};
use crate::technology::Transport;
use std::collections::BTreeSet;
use std::fmt::Write;

pub const DEVICE_COLUMNS: [&str; 6] = [
    "name",
    "role",
    "manufacturer",
    "device_type",
    "site",
    "status",
];
pub const INTERFACE_COLUMNS: [&str; 5] = ["device", "name", "label", "type", "speed"];
pub const CABLE_COLUMNS: [&str; 12] = [
    "side_a_device",
    "side_a_type",
    "side_a_name",
    "side_b_device",
    "side_b_type",
    "side_b_name",
    "type",
    "status",
    "label",
    "length",
    "length_unit",
    "description",
];

/// Site name: NetBox keeps at most 100 characters.
pub fn site(title: &str) -> String {
    title
        .chars()
        .filter(|c| !c.is_control())
        .take(100)
        .collect()
}

/// (manufacturer, model, slug, rack units) of a catalog name such as
/// "NVIDIA Spectrum-4 SN5600 (64×800G OSFP)".
fn device_type(name: &str, units: f64) -> (String, String, String, f64) {
    let short = name.split(" (").next().unwrap_or(name).trim();
    let (manufacturer, model) = short.split_once(' ').unwrap_or(("Generic", short));
    let slug: String = format!("{manufacturer}-{model}")
        .to_ascii_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    (manufacturer.to_string(), model.to_string(), slug, units)
}

fn switch_type(f: &PlannedFabric) -> (String, String, String, f64) {
    match switch(&f.fabric.switch) {
        Some(s) => device_type(s.name, f64::from(s.rack_units)),
        None => device_type(&format!("Generic {}", f.fabric.switch_name), 1.0),
    }
}

struct Hosts {
    node: (String, String, String, f64),
    endpoint: (String, String, String, f64),
}

fn hosts(preset: Option<&str>) -> Hosts {
    // The design gives no node height: 0 U is NetBox's "not racked by height".
    let node = preset
        .and_then(node_preset)
        .map(|p| device_type(p.name, 0.0))
        .unwrap_or_else(|| device_type("Generic GPU node", 0.0));
    Hosts {
        node,
        endpoint: device_type("Generic fabric endpoint", 0.0),
    }
}

fn is_endpoint(f: &PlannedFabric, device: &str) -> bool {
    device
        .strip_prefix(f.fabric.name.as_str())
        .is_some_and(|r| r.starts_with("-endpoint-"))
}

/// Device types, one YAML document each.
pub fn device_types(fabrics: &[PlannedFabric], preset: Option<&str>) -> String {
    let h = hosts(preset);
    let mut types: Vec<(String, String, String, f64)> = fabrics.iter().map(switch_type).collect();
    types.push(h.node);
    types.push(h.endpoint);
    let mut seen = BTreeSet::new();
    let mut out = String::new();
    for (manufacturer, model, slug, units) in types {
        if !seen.insert(slug.clone()) {
            continue;
        }
        let _ = write!(
            out,
            "---\nmanufacturer: {}\nmodel: {}\nslug: {}\nu_height: {units}\nis_full_depth: true\n",
            q(&manufacturer),
            q(&model),
            q(&slug)
        );
    }
    out
}

fn role(f: &PlannedFabric, device: &str) -> &'static str {
    match role_of(&f.fabric.name, device) {
        Some("leaf") => "Leaf switch",
        Some("spine") => "Spine switch",
        Some("core") => "Core switch",
        _ if is_endpoint(f, device) => "Fabric endpoint",
        _ => "GPU node",
    }
}

/// Devices: every switch and host once, even when a host is on several fabrics.
pub fn devices(fabrics: &[PlannedFabric], preset: Option<&str>, title: &str) -> String {
    let site = site(title);
    let h = hosts(preset);
    let mut out = csv_row(&DEVICE_COLUMNS);
    let mut seen = FastSet::default();
    for f in fabrics {
        let sw = switch_type(f);
        for s in f.switches() {
            push_csv_row(&mut out, &[s, role(f, s), &sw.0, &sw.1, &site, "planned"]);
        }
        for host in f.hosts() {
            if !seen.insert(host) {
                continue;
            }
            let t = if is_endpoint(f, host) {
                &h.endpoint
            } else {
                &h.node
            };
            push_csv_row(
                &mut out,
                &[host, role(f, host), &t.0, &t.1, &site, "planned"],
            );
        }
    }
    out
}

/// NetBox's interface type for a port of `gbps` on a fabric of `transport`.
pub fn interface_type(transport: Transport, gbps: f64) -> &'static str {
    match (transport, gbps.round() as u64) {
        (Transport::InfiniBand, g) if g >= 800 => "infiniband-xdr",
        (Transport::InfiniBand, g) if g >= 400 => "infiniband-ndr",
        (Transport::InfiniBand, _) => "infiniband-hdr",
        (_, g) if g >= 800 => "800gbase-x-osfp",
        (_, g) if g >= 400 => "400gbase-x-osfp",
        (_, g) if g >= 200 => "200gbase-x-qsfp56",
        (_, g) if g >= 100 => "100gbase-x-qsfp28",
        (_, g) if g >= 50 => "50gbase-x-sfp56",
        (_, g) if g >= 25 => "25gbase-x-sfp28",
        _ => "10gbase-x-sfpp",
    }
}

/// Interfaces: both ends of every cable, named as on the sheet; speed in kb/s.
pub fn interfaces(fabrics: &[PlannedFabric]) -> String {
    let mut out = csv_row(&INTERFACE_COLUMNS);
    out.reserve(fabrics.iter().map(|f| 2 * 64 * f.cables.len()).sum());
    for f in fabrics {
        let kind = interface_type(f.transport(), f.speed_gbps());
        let speed = format!("{}", (f.speed_gbps() * 1e6).round() as u64);
        let ports = super::cvt::Ports::of(f);
        let mut label = String::new();
        for lc in &f.cables {
            let c = &lc.cable;
            for (d, p) in [(&c.a_device, &c.a_port), (&c.z_device, &c.z_port)] {
                label.clear();
                ports.push(&mut label, d, p);
                push_csv_row(&mut out, &[d.as_str(), p, &label, kind, &speed]);
            }
        }
    }
    out
}

/// NetBox's cable type for a reach class.
pub fn cable_type(reach: Option<ReachClass>) -> &'static str {
    match reach {
        Some(ReachClass::Dac) => "dac-passive",
        Some(ReachClass::Acc) => "dac-active",
        Some(ReachClass::Multimode) => "mmf-om4",
        Some(ReachClass::SingleMode) | Some(ReachClass::LongReach) => "smf-os2",
        None => "",
    }
}

/// Cables: one row per cable, labelled as on the sheet.
pub fn cables(fabrics: &[PlannedFabric]) -> String {
    let mut out = csv_row(&CABLE_COLUMNS);
    out.reserve(fabrics.iter().map(|f| 160 * f.cables.len()).sum());
    for f in fabrics {
        let speed = f.speed_gbps();
        // Media and length are the same for every cable of a tier.
        let mut tier: Option<(&str, String, String)> = None;
        for lc in &f.cables {
            let c = &lc.cable;
            if tier.as_ref().is_none_or(|t| t.0 != c.tier) {
                tier = Some((
                    c.tier,
                    c.length_m.map(|m| format!("{m}")).unwrap_or_default(),
                    format!("{} {}", f.fabric.name, c.media(speed)),
                ));
            }
            let Some((_, length, description)) = &tier else {
                continue;
            };
            let unit = if length.is_empty() { "" } else { "m" };
            push_csv_row(
                &mut out,
                &[
                    c.a_device.as_str(),
                    "dcim.interface",
                    &c.a_port,
                    &c.z_device,
                    "dcim.interface",
                    &c.z_port,
                    cable_type(c.reach),
                    "planned",
                    &lc.label,
                    length,
                    unit,
                    description,
                ],
            );
        }
    }
    out
}
