//! The observed links held against the cabling plan, cable by cable.
//!
//! A link whose two ends are the two ends of one planned cable is that cable, as planned or, when
//! it came up at fewer lanes or a lower rate than planned, degraded. A link with an end on a
//! planned port but the other end elsewhere is a swapped cable: both ends are named, the planned
//! and the found. A planned cable with no link on either end is missing; a link on no planned
//! port is extra.

use super::result::{AsBuiltCheck, CableCheck, Miscabled, Status, Summary};
use super::{port_key, FastMap, FastSet, ObservedLink};
use crate::handoff::{nic_number, planned_up_to, role_of, PlannedFabric};
use crate::report::Report;
use crate::technology::Transport;
use crate::topology::Layout;
use std::borrow::Cow;
use std::collections::BTreeMap;

fn rail(f: &PlannedFabric, a_device: &str, a_port: &str, z_device: &str) -> Option<u32> {
    let name = &f.fabric.name;
    if f.fabric.plan.layout != Layout::RailOptimized {
        return None;
    }
    if let Some(r) = nic_number(name, a_port) {
        return Some(r);
    }
    let per_rail = (f.fabric.plan.leaves / f.fabric.ports_per_node.max(1)).max(1);
    [a_device, z_device]
        .into_iter()
        .filter(|d| role_of(name, d) == Some("leaf"))
        .find_map(|d| d.rsplit('-').next()?.parse::<u32>().ok())
        .map(|n| (n.saturating_sub(1)) / per_rail + 1)
}

/// (device, port as `port_key` reduces it), borrowing where the name is already reduced.
type Key<'a> = (&'a str, Cow<'a, str>);

/// `port_key` without allocating for the names the plan and most tools already write reduced
/// (`p12`, `compute-nic1`).
fn reduced(port: &str, links_per_cage: impl FnOnce() -> u32) -> Cow<'_, str> {
    let plain_p = port.strip_prefix('p').is_some_and(|n| {
        !n.is_empty()
            && n.len() < 10
            && !n.starts_with('0')
            && n.bytes().all(|b| b.is_ascii_digit())
    });
    let numbered = port.starts_with(|c: char| c.is_ascii_digit())
        || ["ethernet", "swp", "eth", "port", "p"].iter().any(|p| {
            port.len() >= p.len()
                && port[..p.len()].eq_ignore_ascii_case(p)
                && port[p.len()..].starts_with(|c: char| c.is_ascii_digit())
        });
    let lower = !port
        .bytes()
        .any(|b| b.is_ascii_uppercase() || b.is_ascii_whitespace());
    if plain_p || (lower && !numbered) {
        Cow::Borrowed(port)
    } else {
        Cow::Owned(port_key(port, links_per_cage()))
    }
}

/// Checks `links` against the plan of `report`'s fabric named `fabric`, or of every fabric.
pub fn check(report: &Report, fabric: Option<&str>, links: &[ObservedLink]) -> AsBuiltCheck {
    let (fabrics, _) = planned_up_to(report, fabric);
    let fabrics: Vec<&PlannedFabric> = fabrics
        .iter()
        .filter(|f| fabric.is_none_or(|n| n == f.fabric.name))
        .collect();
    check_fabrics(&fabrics, links)
}

/// Checks `links` against the cables of `fabrics`.
pub fn check_fabrics<'a>(
    fabrics: &[&'a PlannedFabric<'a>],
    links: &'a [ObservedLink],
) -> AsBuiltCheck {
    let mut cage: FastMap<&str, u32> = FastMap::default();
    for f in fabrics {
        let links = f.links_per_cage();
        for s in f.switches() {
            cage.insert(s, links);
        }
    }
    let key = |device: &'a str, port: &'a str| -> Key<'a> {
        (
            device,
            reduced(port, || cage.get(device).copied().unwrap_or(1)),
        )
    };
    // Planned ends: (device, port) → (fabric, cable, end).
    let mut ends: FastMap<Key, (usize, usize, usize)> = FastMap::default();
    ends.reserve(fabrics.iter().map(|f| 2 * f.cables.len()).sum());
    for (fi, f) in fabrics.iter().enumerate() {
        for (ci, c) in f.cables.iter().enumerate() {
            ends.insert(key(&c.cable.a_device, &c.cable.a_port), (fi, ci, 0));
            ends.insert(key(&c.cable.z_device, &c.cable.z_port), (fi, ci, 1));
        }
    }
    // The link found for each cable, by fabric and cable: dense, as most cables are found.
    let mut exact: Vec<Vec<Option<&ObservedLink>>> =
        fabrics.iter().map(|f| vec![None; f.cables.len()]).collect();
    // The planned end opposite `e`, reduced as `key` reduces names.
    let opposite = |e: &(usize, usize, usize)| -> Key<'a> {
        let c = &fabrics[e.0].cables[e.1].cable;
        if e.2 == 0 {
            key(&c.z_device, &c.z_port)
        } else {
            key(&c.a_device, &c.a_port)
        }
    };
    // With the index of the observed link, so that a link on a port whose planned cable is
    // also seen (two neighbours on one port) is kept, as extra.
    let mut wrong: FastMap<(usize, usize), Vec<(Miscabled, usize)>> = FastMap::default();
    let mut extra = Vec::new();
    let mut seen: FastSet<(Key, Key)> = FastSet::default();
    for (li, l) in links.iter().enumerate() {
        let a = key(&l.device, &l.port);
        let b = key(&l.peer_device, &l.peer_port);
        // Most links are as planned: one lookup, then the cable's other end compared in place.
        let ea = ends.get(&a);
        if let Some(x) = ea {
            if opposite(x) == b {
                // Seen from both ends, the same cable: once is enough.
                exact[x.0][x.1].get_or_insert(l);
                continue;
            }
        }
        let eb = ends.get(&b);
        // A link listed from both ends (LLDP on both devices) counts once.
        let pair = if a <= b { (a, b) } else { (b, a) };
        if !seen.insert(pair) {
            continue;
        }
        match (ea, eb) {
            (None, None) => extra.push(l.clone()),
            (ea, eb) => {
                let label_of = |e: Option<&(usize, usize, usize)>| {
                    e.map(|e| fabrics[e.0].cables[e.1].label.clone())
                };
                for (end, here, there, other) in [
                    (ea, (&l.device, &l.port), (&l.peer_device, &l.peer_port), eb),
                    (eb, (&l.peer_device, &l.peer_port), (&l.device, &l.port), ea),
                ] {
                    let Some(&(fi, ci, side)) = end else { continue };
                    let c = &fabrics[fi].cables[ci].cable;
                    let (pd, pp) = if side == 0 {
                        (&c.z_device, &c.z_port)
                    } else {
                        (&c.a_device, &c.a_port)
                    };
                    let end = Miscabled {
                        device: here.0.clone(),
                        port: here.1.clone(),
                        planned_peer_device: pd.clone(),
                        planned_peer_port: pp.clone(),
                        found_peer_device: there.0.clone(),
                        found_peer_port: there.1.clone(),
                        found_peer_cable: label_of(other),
                    };
                    wrong.entry((fi, ci)).or_default().push((end, li));
                }
            }
        }
    }
    let mut as_planned = Vec::new();
    let mut findings = Vec::new();
    let mut doubled: Vec<usize> = Vec::new();
    let mut total = Summary {
        name: "total".into(),
        ..Summary::default()
    };
    // Switch summaries in sheet order, found by name.
    let mut by_switch: Vec<Summary> = Vec::new();
    let mut switch_index: FastMap<&str, usize> = FastMap::default();
    let mut by_rail: BTreeMap<u32, Summary> = BTreeMap::new();
    for (fi, f) in fabrics.iter().enumerate() {
        let planned_width = (f.transport() == Transport::InfiniBand).then_some(4);
        let planned_gbps = f.speed_gbps();
        for s in f.switches() {
            switch_index.insert(s, by_switch.len());
            by_switch.push(Summary {
                name: s.to_string(),
                ..Summary::default()
            });
        }
        for (ci, lc) in f.cables.iter().enumerate() {
            let c = &lc.cable;
            let status = if let Some(l) = exact[fi][ci] {
                if let Some(also) = wrong.remove(&(fi, ci)) {
                    doubled.extend(also.into_iter().map(|(_, li)| li));
                }
                let narrow = matches!((planned_width, l.width), (Some(p), Some(w)) if w < p);
                let slow = l.speed_gbps.is_some_and(|s| s < planned_gbps - 1e-6);
                if narrow || slow {
                    Status::Degraded {
                        planned_width,
                        planned_gbps,
                        found_width: l.width,
                        found_gbps: l.speed_gbps,
                        found_rate: l.rate.clone(),
                    }
                } else {
                    Status::AsPlanned
                }
            } else if let Some(found) = wrong.remove(&(fi, ci)) {
                let mut ends: Vec<Miscabled> = found.into_iter().map(|(e, _)| e).collect();
                ends.sort_by(|x, y| (&x.device, &x.port).cmp(&(&y.device, &y.port)));
                Status::Swapped { ends }
            } else {
                Status::Missing
            };
            let rail = rail(f, &c.a_device, &c.a_port, &c.z_device);
            total.count(&status);
            for d in [&c.a_device, &c.z_device] {
                if let Some(s) = switch_index.get(d.as_str()).map(|i| &mut by_switch[*i]) {
                    s.count(&status);
                }
            }
            if let Some(r) = rail {
                by_rail
                    .entry(r)
                    .or_insert_with(|| Summary {
                        name: format!("{} rail {r}", f.fabric.name),
                        ..Summary::default()
                    })
                    .count(&status);
            }
            if status == Status::AsPlanned {
                as_planned.push(lc.label.clone());
                continue;
            }
            findings.push(CableCheck {
                label: lc.label.clone(),
                fabric: c.fabric.clone(),
                tier: c.tier.to_string(),
                a_device: c.a_device.clone(),
                a_port: c.a_port.clone(),
                z_device: c.z_device.clone(),
                z_port: c.z_port.clone(),
                rail,
                status,
            });
        }
    }
    doubled.sort_unstable();
    doubled.dedup();
    extra.extend(doubled.into_iter().map(|li| links[li].clone()));
    total.extra = extra.len() as u32;
    for l in &extra {
        for d in [&l.device, &l.peer_device] {
            if let Some(s) = switch_index.get(d.as_str()).map(|i| &mut by_switch[*i]) {
                s.extra += 1;
            }
        }
    }
    AsBuiltCheck {
        as_planned,
        findings,
        extra,
        total,
        by_switch,
        by_rail: by_rail.into_values().collect(),
    }
}
