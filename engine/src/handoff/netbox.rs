//! NetBox bulk imports: device types in the devicetype-library YAML format (several documents in
//! one file, as the device type import takes them), then CSV files for devices, interfaces and
//! cables with the column names of NetBox's CSV import forms (netbox-community/netbox
//! netbox/dcim/forms/bulk_import.py, choices in netbox/dcim/choices.py).
//!
//! Import in this order, each file into its own import page: sites, manufacturers, device roles,
//! device types, racks, devices, interfaces, cables (each names objects of the files before it).
//! Interfaces keep the sheet's port names; cables carry the sheet's labels. Where the design's floor places every
//! fabric, devices stand in their racks at their rack units and each cable has its own routed,
//! orderable length and medium (`crate::floor::placements`); otherwise devices have no rack and
//! cables the run and medium their tier was given.

use super::text::{csv_row, hand_on, push_csv_row, yaml_string as q, Pieces};
use super::{role_of, PlannedFabric};
use crate::catalog::{node_preset, switch, ReachClass};
use crate::fast_hash::{FastMap, FastSet};
use crate::floor::Placements;
use crate::technology::Transport;
use std::collections::BTreeSet;
use std::fmt::Write;

pub const SITE_COLUMNS: [&str; 3] = ["name", "slug", "status"];
pub const MANUFACTURER_COLUMNS: [&str; 2] = ["name", "slug"];
pub const ROLE_COLUMNS: [&str; 3] = ["name", "slug", "color"];
pub const RACK_COLUMNS: [&str; 5] = ["site", "name", "status", "width", "u_height"];
pub const DEVICE_COLUMNS: [&str; 9] = [
    "name",
    "role",
    "manufacturer",
    "device_type",
    "site",
    "status",
    "rack",
    "position",
    "face",
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

/// A NetBox slug of `text`: lower-case letters, digits, `-` and `_` (its SlugField), every other
/// run of characters one `-`, at most 100 characters; `fallback` when nothing is left.
fn slug(text: &str, fallback: &str) -> String {
    let mut out = String::new();
    for c in text.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(100);
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        fallback.to_string()
    } else {
        out.to_string()
    }
}

/// (manufacturer, model, slug, rack units) of a catalog name such as
/// "NVIDIA Spectrum-4 SN5600 (64×800G OSFP)".
fn device_type(name: &str, units: f64) -> (String, String, String, f64) {
    let short = name.split(" (").next().unwrap_or(name).trim();
    let (manufacturer, model) = short.split_once(' ').unwrap_or(("Generic", short));
    let slug = slug(&format!("{manufacturer}-{model}"), "device");
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

/// The device types of the hosts: a node as tall as the floor stands it (`node_units`: a DGX
/// H100 takes 8 U), an extra endpoint (a storage server, the subnet manager) 1 U. NetBox refuses
/// a rack position for a 0 U type [netbox/dcim/models/devices.py, `Device.clean`].
fn hosts(preset: Option<&str>, node_units: u32) -> Hosts {
    let node = preset
        .and_then(node_preset)
        .map(|p| device_type(p.name, f64::from(node_units)))
        .unwrap_or_else(|| device_type("Generic GPU node", f64::from(node_units)));
    Hosts {
        node,
        endpoint: device_type("Generic fabric endpoint", 1.0),
    }
}

/// The site the design's devices and racks stand in, named as the design.
pub fn sites(title: &str) -> String {
    let mut out = csv_row(&SITE_COLUMNS);
    push_csv_row(&mut out, &[&site(title), &slug(title, "design"), "planned"]);
    out
}

/// Every manufacturer the device types name, each once.
pub fn manufacturers(fabrics: &[PlannedFabric], preset: Option<&str>, node_units: u32) -> String {
    let mut out = csv_row(&MANUFACTURER_COLUMNS);
    let mut seen = BTreeSet::new();
    for (manufacturer, ..) in types(fabrics, preset, node_units) {
        if seen.insert(manufacturer.clone()) {
            let slug = slug(&manufacturer, "manufacturer");
            push_csv_row(&mut out, &[manufacturer.as_str(), &slug]);
        }
    }
    out
}

/// The device roles devices.csv names, with a colour each (six hex digits, as NetBox's
/// ColorField takes it).
pub const ROLES: [(&str, &str); 5] = [
    ("Leaf switch", "2196f3"),
    ("Spine switch", "3f51b5"),
    ("Core switch", "673ab7"),
    ("GPU node", "4caf50"),
    ("Fabric endpoint", "9e9e9e"),
];

/// The device roles, every one devices.csv may name.
pub fn device_roles() -> String {
    let mut out = csv_row(&ROLE_COLUMNS);
    for (name, color) in ROLES {
        push_csv_row(&mut out, &[name, &slug(name, "role"), color]);
    }
    out
}

/// Every device type of the bundle: the fabrics' switches, then the hosts'.
fn types(
    fabrics: &[PlannedFabric],
    preset: Option<&str>,
    node_units: u32,
) -> Vec<(String, String, String, f64)> {
    let h = hosts(preset, node_units);
    let mut types: Vec<(String, String, String, f64)> = fabrics.iter().map(switch_type).collect();
    types.push(h.node);
    types.push(h.endpoint);
    types
}

fn is_endpoint(f: &PlannedFabric, device: &str) -> bool {
    device
        .strip_prefix(f.fabric.name.as_str())
        .is_some_and(|r| r.starts_with("-endpoint-"))
}

/// Device types, one YAML document each.
pub fn device_types(fabrics: &[PlannedFabric], preset: Option<&str>, node_units: u32) -> String {
    let mut seen = BTreeSet::new();
    let mut out = String::new();
    for (manufacturer, model, slug, units) in types(fabrics, preset, node_units) {
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
    let at = match role_of(&f.fabric.name, device) {
        Some("leaf") => 0,
        Some("spine") => 1,
        Some("core") => 2,
        _ if is_endpoint(f, device) => 4,
        _ => 3,
    };
    ROLES[at].0
}

/// Racks: every rack of the floor that holds a device of the bundle, 19-inch, as tall as the
/// design's racks; none without a floor.
pub fn racks(floor: Option<&Placements>, rack_units: u32, title: &str) -> String {
    let site = site(title);
    let names: BTreeSet<&str> = floor
        .into_iter()
        .flat_map(|floor| {
            floor
                .cables
                .iter()
                .flat_map(|c| [floor.rack(c.a_rack), floor.rack(c.z_rack)])
        })
        .flatten()
        .collect();
    let mut out = csv_row(&RACK_COLUMNS);
    let units = rack_units.to_string();
    for name in names {
        push_csv_row(&mut out, &[&site, name, "planned", "19", &units]);
    }
    out
}

/// (rack, lowest rack unit) of every device the floor places: `floor` lists where each cable
/// of `fabrics` lies, in their order.
fn positions<'a>(
    fabrics: &'a [PlannedFabric],
    floor: Option<&'a Placements>,
) -> FastMap<&'a str, (&'a str, String)> {
    let mut at = FastMap::default();
    let Some(floor) = floor else {
        return at;
    };
    let cables = fabrics.iter().flat_map(|f| f.cables());
    for (c, placed) in cables.zip(&floor.cables) {
        for (device, rack, u) in [
            (c.a_device, placed.a_rack, placed.a_u),
            (c.z_device, placed.z_rack, placed.z_u),
        ] {
            if let (Some(rack), Some(u)) = (floor.rack(rack), u) {
                at.entry(device).or_insert_with(|| (rack, u.to_string()));
            }
        }
    }
    at
}

/// Devices: every switch and host once, even when a host is on several fabrics; in its rack at
/// its lowest rack unit, front-mounted, where the floor places it.
pub fn devices(
    fabrics: &[PlannedFabric],
    floor: Option<&Placements>,
    preset: Option<&str>,
    node_units: u32,
    title: &str,
) -> String {
    let site = site(title);
    let h = hosts(preset, node_units);
    let at = positions(fabrics, floor);
    let mut out = csv_row(&DEVICE_COLUMNS);
    let mut seen = FastSet::default();
    let row = |out: &mut String, name: &str, role: &str, t: &(String, String, String, f64)| {
        let (rack, position, face) = match at.get(name) {
            Some((rack, u)) => (*rack, u.as_str(), "front"),
            None => ("", "", ""),
        };
        push_csv_row(
            out,
            &[
                name, role, &t.0, &t.1, &site, "planned", rack, position, face,
            ],
        );
    };
    for f in fabrics {
        let sw = switch_type(f);
        for s in f.switches() {
            row(&mut out, s, role(f, s), &sw);
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
            row(&mut out, host, role(f, host), t);
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
pub fn interfaces(fabrics: &[PlannedFabric], pieces: &mut Pieces) {
    let mut out = csv_row(&INTERFACE_COLUMNS);
    for f in fabrics {
        let kind = interface_type(f.transport(), f.speed_gbps());
        let speed = format!("{}", (f.speed_gbps() * 1e6).round() as u64);
        let ports = super::cvt::Ports::of(f);
        let mut label = String::new();
        for c in f.cables() {
            hand_on(&mut out, pieces, false);
            for (d, p) in [(c.a_device, c.a_port), (c.z_device, c.z_port)] {
                label.clear();
                ports.push(&mut label, d, p);
                push_csv_row(&mut out, &[d, p, &label, kind, &speed]);
            }
        }
    }
    hand_on(&mut out, pieces, true);
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

/// Cables: one row per cable, labelled as on the sheet; each with its length and medium on the
/// floor (`floor`, where each cable of `fabrics` lies, in their order), else its tier's.
pub fn cables(fabrics: &[PlannedFabric], floor: Option<&Placements>, pieces: &mut Pieces) {
    let mut out = csv_row(&CABLE_COLUMNS);
    let mut on_floor = floor
        .map(|f| f.cables.as_slice())
        .unwrap_or_default()
        .iter();
    let mut length = String::new();
    let mut description = String::new();
    for f in fabrics {
        let speed = f.speed_gbps();
        // Without a floor, media and length are the same for every cable of a tier.
        let (mut tier, mut tier_reach) = ("", None);
        for planned in f.cables() {
            hand_on(&mut out, pieces, false);
            let reach = match on_floor.next() {
                Some(placed) => {
                    length.clear();
                    description.clear();
                    if let Some(m) = placed.length_m {
                        let _ = write!(length, "{}", m.metres());
                    }
                    let medium = placed.medium(speed, planned.a_device, planned.z_device);
                    let _ = write!(description, "{} {medium}", f.fabric.name);
                    placed.reach
                }
                None if tier != planned.tier => {
                    tier = planned.tier;
                    length.clear();
                    description.clear();
                    let media = f.tier_media(tier);
                    if let Some(m) = media {
                        let _ = write!(length, "{}", m.length_m.metres());
                    }
                    tier_reach = media.map(|m| m.reach);
                    let _ = write!(
                        description,
                        "{} {}",
                        f.fabric.name,
                        crate::cabling::media(tier_reach, speed)
                    );
                    tier_reach
                }
                None => tier_reach,
            };
            let unit = if length.is_empty() { "" } else { "m" };
            push_csv_row(
                &mut out,
                &[
                    planned.a_device,
                    "dcim.interface",
                    planned.a_port,
                    planned.z_device,
                    "dcim.interface",
                    planned.z_port,
                    cable_type(reach),
                    "planned",
                    planned.label,
                    &length,
                    unit,
                    &description,
                ],
            );
        }
    }
    hand_on(&mut out, pieces, true);
}
