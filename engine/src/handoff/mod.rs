//! The hand-off bundle: the design written in the formats of the tools that build, document and
//! schedule the fabric (cable validation, switch configuration, inventory, workload managers,
//! drawings). Every file is a pure function of the design and its report, so the same revision
//! always gives byte-identical files; the server zips them.
//!
//! Names follow the cabling sheet: devices keep their sheet names, switch port `pN` is port N of
//! the switch (InfiniBand port N, Cumulus `swpCsS`, EOS `EthernetC/L` for cage C and lane L of a
//! split cage), and every cable carries the sheet's label (`C00001` onwards, in sheet order,
//! with a sixth digit and more on a sheet of 100,000 cables or more: [`label_digits`]).

pub mod avd;
mod bundle;
pub mod cvt;
pub mod dot;
pub mod ibnet;
pub mod k8s;
pub mod netbox;
pub mod nvue;
pub mod overlay;
mod readme;
pub mod slurm;
pub mod tenants;
mod text;
pub mod underlay;

use crate::cabling::{links, DoesNotFit, End, Link, Names};
use crate::catalog::SwitchOs;
use crate::fast_hash::FastSet;
use crate::report::{FabricReport, Report};
use crate::spec::Role;
use crate::technology::Transport;
use crate::units::push_decimal;

pub use bundle::{bundle, write_bundle, Files};
pub use text::{comment, csv_row, hostlist, spreadsheet_text, whole, yaml_string, Pieces};

/// A cable of the sheet with its label, its names borrowed from its fabric's plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelledCable<'p> {
    /// `C00001` onwards across every fabric, as the cabling sheet numbers its rows
    /// ([`label_digits`] digits).
    pub label: &'p str,
    /// `node-leaf`, `leaf-spine` or `spine-core`.
    pub tier: &'static str,
    pub a_device: &'p str,
    pub a_port: &'p str,
    pub z_device: &'p str,
    pub z_port: &'p str,
}

/// One fabric with its cables: their names and labels written one after another into one
/// text, a few dozen bytes a cable, rather than allocated name by name, since a bundle holds
/// every cable of the design while its files are written.
#[derive(Debug, Clone)]
pub struct PlannedFabric<'a> {
    pub fabric: &'a FabricReport,
    /// The nodes' adapters on this fabric, rail 1 first, where the node type names them: the
    /// files name a host's port as the host does. Empty until the bundle sets them.
    pub adapters: &'static [crate::catalog::Adapter],
    text: String,
    rows: Vec<WrittenCable>,
    /// Where in the text each switch is first named, in sheet order.
    switch_names: Vec<(u32, u32)>,
}

/// A cable of a [`PlannedFabric`]: its tier, and where in the fabric's text its A device, A
/// port, Z device, Z port and label start, and where the label ends.
#[derive(Debug, Clone, Copy)]
struct WrittenCable {
    tier: &'static str,
    at: [u32; 6],
}

impl PlannedFabric<'_> {
    pub fn transport(&self) -> Transport {
        self.fabric.technology.transport()
    }

    /// Links that share one switch cage: port `pN` sits in cage `(N-1)/links + 1`.
    pub fn links_per_cage(&self) -> u32 {
        links_per_cage(self.fabric)
    }

    pub fn speed_gbps(&self) -> f64 {
        speed_gbps(self.fabric)
    }

    /// The operating system of the fabric's switches.
    pub fn os(&self) -> SwitchOs {
        os_of(self.fabric)
    }

    /// Switches of the fabric in sheet order: leaves, spines, cores.
    pub fn switches(&self) -> Vec<&str> {
        self.switch_names
            .iter()
            .map(|&(s, e)| self.at(s, e))
            .collect()
    }

    /// Hosts (nodes and extra endpoints) in sheet order.
    pub fn hosts(&self) -> Vec<&str> {
        let mut seen = FastSet::default();
        self.cables()
            .filter(|c| c.tier == "node-leaf")
            .map(|c| c.a_device)
            .filter(|d| seen.insert(*d))
            .collect()
    }

    /// The medium and run the design gives the cables of `tier` (the whole tier at its nominal
    /// run): what they are ordered as where the floor does not place them.
    pub fn tier_media(&self, tier: &str) -> Option<&crate::report::CableCount> {
        self.fabric.cables.iter().find(|c| c.tier == tier)
    }

    /// How many cables the fabric has.
    pub fn cable_count(&self) -> usize {
        self.rows.len()
    }

    /// Every cable in sheet order.
    pub fn cables(&self) -> impl ExactSizeIterator<Item = LabelledCable<'_>> + Clone + '_ {
        self.rows.iter().map(|row| self.labelled(row))
    }

    /// The `i`-th cable of the fabric, from 0.
    pub fn cable(&self, i: usize) -> Option<LabelledCable<'_>> {
        self.rows.get(i).map(|row| self.labelled(row))
    }

    fn labelled(&self, row: &WrittenCable) -> LabelledCable<'_> {
        let at = row.at;
        LabelledCable {
            label: self.at(at[4], at[5]),
            tier: row.tier,
            a_device: self.at(at[0], at[1]),
            a_port: self.at(at[1], at[2]),
            z_device: self.at(at[2], at[3]),
            z_port: self.at(at[3], at[4]),
        }
    }

    fn at(&self, start: u32, end: u32) -> &str {
        self.text
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }
}

/// Links that share one switch cage of `fabric` (see [`PlannedFabric::links_per_cage`]).
pub(crate) fn links_per_cage(fabric: &FabricReport) -> u32 {
    crate::catalog::switch(&fabric.switch).map_or(1, |s| s.links_per_cage(speed_gbps(fabric)))
}

/// The operating system of `fabric`'s switches: the catalog's, else NVIDIA's for its transport.
pub(crate) fn os_of(fabric: &FabricReport) -> SwitchOs {
    match crate::catalog::switch(&fabric.switch) {
        Some(s) => s.os,
        None if fabric.technology.transport() == Transport::InfiniBand => SwitchOs::MlnxOs,
        None => SwitchOs::CumulusLinux,
    }
}

pub(crate) fn speed_gbps(fabric: &FabricReport) -> f64 {
    fabric.port_rate.bits_per_second() / 1e9
}

/// Digits of every cable's label on the sheet of `report` and in its hand-off files: five, or
/// as many as its last cable's number takes, so that every label has as many digits and the
/// labels sort in the sheet's order.
pub fn label_digits(report: &Report) -> usize {
    (report.cable_count().max(1).ilog10() as usize + 1).max(5)
}

/// Appends the label of the `n`-th cable of the sheet, from 1, in `digits` digits: `C00001`.
pub fn push_label(out: &mut String, n: usize, digits: usize) {
    out.push('C');
    push_decimal(out, n as u64, digits);
}

/// `leaf`, `spine` or `core` for a switch of `fabric`, named as the sheet names them.
pub fn role_of(fabric: &str, device: &str) -> Option<&'static str> {
    let rest = device.strip_prefix(fabric)?.strip_prefix('-')?;
    ["leaf", "spine", "core"]
        .into_iter()
        .find(|role| rest.strip_prefix(role).is_some_and(|r| r.starts_with('-')))
}

/// The number N of a switch port `pN` of the sheet.
pub fn port_number(port: &str) -> Option<u32> {
    port.strip_prefix('p')?.parse().ok()
}

/// The rail of a node port `<fabric>-nicR` of the sheet.
pub fn nic_number(fabric: &str, port: &str) -> Option<u32> {
    port.strip_prefix(fabric)?
        .strip_prefix("-nic")?
        .parse()
        .ok()
}

/// Every fabric whose switches take its cables, with the sheet's labels; the others with the
/// reason they have no sheet.
pub fn planned(report: &Report) -> (Vec<PlannedFabric<'_>>, Vec<String>) {
    planned_only(report, None)
}

/// As [`planned`], of the fabric named `only` (or of every fabric), labelled as the whole
/// sheet labels it: the fabrics before it are only counted.
pub(crate) fn planned_only<'r>(
    report: &'r Report,
    only: Option<&str>,
) -> (Vec<PlannedFabric<'r>>, Vec<String>) {
    let mut fabrics = Vec::new();
    let mut skipped = Vec::new();
    let mut next = 1usize;
    let digits = label_digits(report);
    for fabric in &report.fabrics {
        if only.is_some_and(|n| n != fabric.name) {
            let mut count = 0;
            if links(fabric, &mut |_: Link| count += 1).is_ok() {
                next += count;
            }
            continue;
        }
        match planned_fabric(fabric, next, digits) {
            Ok(planned) => {
                next += planned.cable_count();
                fabrics.push(planned);
            }
            Err(e) => skipped.push(e.0),
        }
        if only.is_some() {
            break;
        }
    }
    (fabrics, skipped)
}

/// The cables of `fabric` named and labelled from label number `first`.
fn planned_fabric(
    fabric: &FabricReport,
    first: usize,
    digits: usize,
) -> Result<PlannedFabric<'_>, DoesNotFit> {
    let names = Names::of(fabric);
    let plan = &fabric.plan;
    let count = (u64::from(plan.node_leaf_links)
        + u64::from(plan.leaf_spine_links)
        + u64::from(plan.spine_core_links))
    .min(1 << 22) as usize;
    let mut text = String::with_capacity(count * (2 * fabric.name.len() + 40));
    let mut rows = Vec::with_capacity(count);
    // The first place each switch is named, by tier and number: numbers are zero-padded, so
    // that order is the sheet's order of names, found without sorting or hashing them.
    let mut first_named: [Vec<Option<(u32, u32)>>; 3] = Default::default();
    let mut too_long = false;
    links(fabric, &mut |link: Link| {
        let mut at = [0usize; 6];
        at[0] = text.len();
        names.push_device(&mut text, link.a);
        at[1] = text.len();
        names.push_port(&mut text, link.a);
        at[2] = text.len();
        names.push_device(&mut text, link.z);
        at[3] = text.len();
        names.push_port(&mut text, link.z);
        at[4] = text.len();
        push_label(&mut text, first + rows.len(), digits);
        at[5] = text.len();
        // A fabric's names stay far below 4 GiB (a few million cables of a few dozen bytes),
        // so every offset fits 32 bits once the last does.
        if u32::try_from(text.len()).is_err() {
            too_long = true;
            return;
        }
        let at = at.map(|i| i as u32);
        for (end, name) in [(link.a, (at[0], at[1])), (link.z, (at[2], at[3]))] {
            if let End::Switch { role, index, .. } = end {
                let tier = &mut first_named[role as usize];
                let index = index as usize;
                if tier.len() <= index {
                    tier.resize(index + 1, None);
                }
                tier[index].get_or_insert(name);
            }
        }
        rows.push(WrittenCable {
            tier: link.tier,
            at,
        });
    })?;
    if too_long {
        return Err(DoesNotFit(format!(
            "fabric {}: too many cables to name",
            fabric.name
        )));
    }
    Ok(PlannedFabric {
        fabric,
        adapters: &[],
        text,
        rows,
        switch_names: first_named.into_iter().flatten().flatten().collect(),
    })
}

/// The fabric the workload managers schedule by: the compute fabric, else the first one.
pub fn scheduling_fabric<'p, 'a>(
    fabrics: &'p [PlannedFabric<'a>],
) -> Option<&'p PlannedFabric<'a>> {
    fabrics
        .iter()
        .find(|f| f.fabric.role == Role::Compute)
        .or_else(|| fabrics.first())
}
