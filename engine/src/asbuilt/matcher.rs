//! The observed links held against the cabling plan, cable by cable.
//!
//! A link whose two ends are the two ends of one planned cable is that cable, as planned or, when
//! it came up at fewer lanes or a lower rate than planned, degraded. A link with an end on a
//! planned port but the other end elsewhere is a swapped cable: both ends are named, the planned
//! and the found. A planned cable with no link on either end is missing; a link on no planned
//! port is extra.
//!
//! Over 400 lines because it is one algorithm: the table of planned ends and the matching that
//! probes it are read together.

use super::result::{AsBuiltCheck, CableCheck, Miscabled, Status, Summary};
use super::{port_key, FastMap, FastSet, ObservedLink};
use crate::handoff::{
    links_per_cage, nic_number, planned_only, role_of, speed_gbps, LabelledCable, PlannedFabric,
};
use crate::report::{FabricReport, Report};
use crate::technology::Transport;
use crate::units::GigabitsPerSecond;
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::BTreeMap;
use std::hash::BuildHasher;

/// One cable as the matcher reads it, its names borrowed from the plan.
type Row<'a> = LabelledCable<'a>;

/// A fabric's cables in sheet order, and its switches.
struct Sheet<'a> {
    fabric: &'a FabricReport,
    switches: Vec<&'a str>,
    rows: Vec<Row<'a>>,
}

fn rail(f: &FabricReport, a_device: &str, a_port: &str, z_device: &str) -> Option<u32> {
    let name = &f.name;
    if !f.plan.layout.by_rail() {
        return None;
    }
    if let Some(r) = nic_number(name, a_port) {
        return Some(r);
    }
    let per_rail = (f.plan.leaves / f.ports_per_node.max(1)).max(1);
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
    if plain_p {
        return Cow::Borrowed(port);
    }
    let lower = !port
        .bytes()
        .any(|b| b.is_ascii_uppercase() || b.is_ascii_whitespace());
    // In a name without capitals the prefixes `port_key` reads compare as written.
    let numbered = || {
        port.starts_with(|c: char| c.is_ascii_digit())
            || ["ethernet", "swp", "eth", "port", "p"].iter().any(|p| {
                port.strip_prefix(p)
                    .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
            })
    };
    if lower && !numbered() {
        Cow::Borrowed(port)
    } else {
        Cow::Owned(port_key(port, links_per_cage()))
    }
}

/// Checks `links` against the plan of `report`'s fabric named `fabric`, or of every fabric.
pub fn check(report: &Report, fabric: Option<&str>, links: &[ObservedLink]) -> AsBuiltCheck {
    let (fabrics, _) = planned_only(report, fabric);
    let fabrics: Vec<&PlannedFabric> = fabrics.iter().collect();
    matched(&sheets(&fabrics), links, hash)
}

/// Checks `links` against the cables of `fabrics`.
pub fn check_fabrics<'a>(
    fabrics: &[&'a PlannedFabric<'a>],
    links: &'a [ObservedLink],
) -> AsBuiltCheck {
    matched(&sheets(fabrics), links, hash)
}

/// The sheets of planned fabrics, borrowing their names.
fn sheets<'a>(fabrics: &[&'a PlannedFabric<'a>]) -> Vec<Sheet<'a>> {
    fabrics
        .iter()
        .map(|f| Sheet {
            fabric: f.fabric,
            switches: f.switches(),
            rows: f.cables().collect(),
        })
        .collect()
}

/// A planned cable end: fabric, cable and side (0 for A, 1 for Z).
type End = (usize, usize, usize);

/// The planned ends by their key (device, reduced port). The table holds only a 32-bit hash of
/// each key and the end's number, 8 bytes a slot rather than the 64 of a map keyed by the
/// names, so that building and probing it, which is mostly waiting on memory, stays in cache;
/// an end found by its hash is then checked against its names. An end whose hash another end
/// already has (about one in a plan of a hundred thousand ends) is kept by its names instead.
struct Ends<'s, 'a> {
    sheets: &'s [Sheet<'a>],
    hash: fn(&Key) -> u32,
    /// Where each fabric's cables start in the numbering of all cables.
    starts: Vec<usize>,
    by_hash: FastMap<u32, u32>,
    by_name: FastMap<Key<'a>, End>,
}

impl<'s, 'a> Ends<'s, 'a> {
    fn new(
        sheets: &'s [Sheet<'a>],
        key: impl Fn(&'a str, &'a str) -> Key<'a>,
        hash: fn(&Key) -> u32,
    ) -> Self {
        let mut starts = Vec::with_capacity(sheets.len());
        let mut cables = 0;
        for f in sheets {
            starts.push(cables);
            cables += f.rows.len();
        }
        let mut ends = Ends {
            sheets,
            hash,
            starts,
            by_hash: FastMap::default(),
            by_name: FastMap::default(),
        };
        ends.by_hash.reserve(2 * cables);
        for (fi, f) in sheets.iter().enumerate() {
            for (ci, c) in f.rows.iter().enumerate() {
                for (side, (device, port)) in [(c.a_device, c.a_port), (c.z_device, c.z_port)]
                    .into_iter()
                    .enumerate()
                {
                    let k = key(device, port);
                    let number = (2 * (ends.starts[fi] + ci) + side) as u32;
                    // As a map by name would: an end listed twice is found where it was last.
                    match ends.by_hash.entry((ends.hash)(&k)) {
                        Entry::Vacant(v) => {
                            v.insert(number);
                        }
                        Entry::Occupied(mut o) => {
                            if Self::key_of(sheets, &ends.starts, *o.get(), &key) == k {
                                o.insert(number);
                            } else {
                                ends.by_name.insert(k, (fi, ci, side));
                            }
                        }
                    }
                }
            }
        }
        ends
    }

    /// The end numbered `number` (twice the cable's place among all cables, plus its side).
    fn end(starts: &[usize], number: u32) -> End {
        let cable = number as usize / 2;
        let fi = starts.partition_point(|s| *s <= cable) - 1;
        (fi, cable - starts[fi], number as usize % 2)
    }

    fn key_of(
        sheets: &[Sheet<'a>],
        starts: &[usize],
        number: u32,
        key: impl Fn(&'a str, &'a str) -> Key<'a>,
    ) -> Key<'a> {
        let (fi, ci, side) = Self::end(starts, number);
        let c = &sheets[fi].rows[ci];
        if side == 0 {
            key(c.a_device, c.a_port)
        } else {
            key(c.z_device, c.z_port)
        }
    }

    fn get(&self, k: &Key<'a>, key: impl Fn(&'a str, &'a str) -> Key<'a>) -> Option<End> {
        if let Some(number) = self.by_hash.get(&(self.hash)(k)) {
            if Self::key_of(self.sheets, &self.starts, *number, key) == *k {
                return Some(Self::end(&self.starts, *number));
            }
        }
        if self.by_name.is_empty() {
            return None;
        }
        self.by_name.get(k).copied()
    }
}

fn hash(k: &Key) -> u32 {
    // A fixed seed is safe here: keys are the plan's own names, and an end whose hash another
    // already has is kept in `by_name`, whose seed is random.
    let h = foldhash::fast::FixedState::default().hash_one(k);
    (h ^ (h >> 32)) as u32
}

/// Checks `links` against the cables of `fabrics`, finding planned ends by `hash`.
fn matched<'a>(
    fabrics: &[Sheet<'a>],
    links: &'a [ObservedLink],
    hash: fn(&Key) -> u32,
) -> AsBuiltCheck {
    let mut cage: FastMap<&str, u32> = FastMap::default();
    for f in fabrics {
        let links = links_per_cage(f.fabric);
        for s in &f.switches {
            cage.insert(s, links);
        }
    }
    let key = |device: &'a str, port: &'a str| -> Key<'a> {
        (
            device,
            reduced(port, || cage.get(device).copied().unwrap_or(1)),
        )
    };
    let ends = Ends::new(fabrics, key, hash);
    // The link found for each cable, by fabric and cable: dense, as most cables are found.
    let mut exact: Vec<Vec<Option<&ObservedLink>>> =
        fabrics.iter().map(|f| vec![None; f.rows.len()]).collect();
    // The planned end opposite `e`, reduced as `key` reduces names.
    let opposite = |e: &End| -> Key<'a> {
        let c = &fabrics[e.0].rows[e.1];
        if e.2 == 0 {
            key(c.z_device, c.z_port)
        } else {
            key(c.a_device, c.a_port)
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
        let ea = ends.get(&a, key);
        if let Some(x) = &ea {
            if opposite(x) == b {
                // Seen from both ends, the same cable: once is enough.
                exact[x.0][x.1].get_or_insert(l);
                continue;
            }
        }
        let eb = ends.get(&b, key);
        // A link listed from both ends (LLDP on both devices) counts once.
        let pair = if a <= b { (a, b) } else { (b, a) };
        if !seen.insert(pair) {
            continue;
        }
        match (ea, eb) {
            (None, None) => extra.push(l.clone()),
            (ea, eb) => {
                let label_of = |e: Option<End>| e.map(|e| fabrics[e.0].rows[e.1].label.to_string());
                for (end, here, there, other) in [
                    (ea, (&l.device, &l.port), (&l.peer_device, &l.peer_port), eb),
                    (eb, (&l.peer_device, &l.peer_port), (&l.device, &l.port), ea),
                ] {
                    let Some((fi, ci, side)) = end else { continue };
                    let c = &fabrics[fi].rows[ci];
                    let (pd, pp) = if side == 0 {
                        (c.z_device, c.z_port)
                    } else {
                        (c.a_device, c.a_port)
                    };
                    let end = Miscabled {
                        device: here.0.clone(),
                        port: here.1.clone(),
                        planned_peer_device: pd.to_string(),
                        planned_peer_port: pp.to_string(),
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
        let planned_width = (f.fabric.technology.transport() == Transport::InfiniBand).then_some(4);
        let planned_gbps = speed_gbps(f.fabric);
        for s in &f.switches {
            switch_index.insert(s, by_switch.len());
            by_switch.push(Summary {
                name: s.to_string(),
                ..Summary::default()
            });
        }
        for (ci, c) in f.rows.iter().enumerate() {
            let status = if let Some(l) = exact[fi][ci] {
                if let Some(also) = wrong.remove(&(fi, ci)) {
                    doubled.extend(also.into_iter().map(|(_, li)| li));
                }
                let narrow = matches!((planned_width, l.width), (Some(p), Some(w)) if w < p);
                let slow = l.speed_gbps.is_some_and(|s| s.gbps() < planned_gbps - 1e-6);
                if narrow || slow {
                    Status::Degraded {
                        planned_width,
                        planned_gbps,
                        found_width: l.width,
                        found_gbps: l.speed_gbps.map(GigabitsPerSecond::gbps),
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
            let rail = rail(f.fabric, c.a_device, c.a_port, c.z_device);
            total.count(&status);
            for d in [c.a_device, c.z_device] {
                if let Some(s) = switch_index.get(d).map(|i| &mut by_switch[*i]) {
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
                as_planned.push(c.label.to_string());
                continue;
            }
            findings.push(CableCheck {
                label: c.label.to_string(),
                fabric: f.fabric.name.clone(),
                tier: c.tier.to_string(),
                a_device: c.a_device.to_string(),
                a_port: c.a_port.to_string(),
                z_device: c.z_device.to_string(),
                z_port: c.z_port.to_string(),
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

#[cfg(test)]
mod tests;
