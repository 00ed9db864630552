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

use crate::cabling::{cabling, links, Cable, End, Link, Names};
use crate::catalog::SwitchOs;
use crate::fast_hash::FastSet;
use crate::report::{FabricReport, Report};
use crate::spec::{DesignSpec, Role};
use crate::technology::Transport;
use crate::units::push_decimal;

pub use text::{comment, csv_row, hostlist, spreadsheet_text, yaml_string};

/// A cable of the sheet with its label.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledCable {
    /// `C00001` onwards across every fabric, as the cabling sheet numbers its rows
    /// ([`label_digits`] digits).
    pub label: String,
    pub cable: Cable,
}

/// One fabric with its cables.
#[derive(Debug, Clone)]
pub struct PlannedFabric<'a> {
    pub fabric: &'a FabricReport,
    pub cables: Vec<LabelledCable>,
    /// The nodes' adapters on this fabric, rail 1 first, where the node type names them: the
    /// files name a host's port as the host does. Empty until the bundle sets them.
    pub adapters: &'static [crate::catalog::Adapter],
    /// Switch names in sheet order, found once: every file needs them.
    switch_names: Vec<String>,
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
        self.switch_names.iter().map(String::as_str).collect()
    }

    /// Hosts (nodes and extra endpoints) in sheet order.
    pub fn hosts(&self) -> Vec<&str> {
        let mut seen = FastSet::default();
        self.cables
            .iter()
            .filter(|c| c.cable.tier == "node-leaf")
            .map(|c| c.cable.a_device.as_str())
            .filter(|d| seen.insert(*d))
            .collect()
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

/// The switches among `devices` (both ends of each cable), each once, in sheet order.
fn switch_names<'a>(name: &str, devices: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = FastSet::default();
    let mut out: Vec<&str> = devices
        .filter(|d| role_of(name, d).is_some() && seen.insert(*d))
        .collect();
    // Numbers are zero-padded, so names sort in sheet order within a tier.
    out.sort_by(|a, b| (tier_rank(name, a), a).cmp(&(tier_rank(name, b), b)));
    out
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

fn tier_rank(fabric: &str, device: &str) -> u8 {
    match role_of(fabric, device) {
        Some("leaf") => 0,
        Some("spine") => 1,
        Some("core") => 2,
        _ => 3,
    }
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
    planned_up_to(report, None)
}

/// As [`planned`], stopping after the fabric named `last` (the fabrics after it do not change
/// its labels, so they need no cabling).
pub fn planned_up_to<'r>(
    report: &'r Report,
    last: Option<&str>,
) -> (Vec<PlannedFabric<'r>>, Vec<String>) {
    let mut fabrics = Vec::new();
    let mut skipped = Vec::new();
    let mut next = 1usize;
    let digits = label_digits(report);
    for fabric in &report.fabrics {
        let done = last == Some(fabric.name.as_str());
        match cabling(fabric) {
            Ok(sheet) => {
                let cables: Vec<LabelledCable> = sheet
                    .into_iter()
                    .map(|cable| {
                        let mut label = String::with_capacity(1 + digits);
                        push_label(&mut label, next, digits);
                        next += 1;
                        LabelledCable { label, cable }
                    })
                    .collect();
                let ends = cables
                    .iter()
                    .flat_map(|c| [c.cable.a_device.as_str(), c.cable.z_device.as_str()]);
                let switch_names = switch_names(&fabric.name, ends)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                fabrics.push(PlannedFabric {
                    fabric,
                    cables,
                    adapters: &[],
                    switch_names,
                });
            }
            Err(e) => skipped.push(e.0),
        }
        if done {
            break;
        }
    }
    (fabrics, skipped)
}

/// The cables of a sheet with their names and labels written one after another into one text,
/// rather than allocated one by one as [`planned`] does: for the as-built check, which only
/// looks them up.
pub(crate) struct WrittenSheet<'r> {
    pub text: String,
    pub fabrics: Vec<WrittenFabric<'r>>,
}

/// A fabric of a [`WrittenSheet`].
pub(crate) struct WrittenFabric<'r> {
    pub fabric: &'r FabricReport,
    pub cables: Vec<WrittenCable>,
    /// Where in the text the name of each switch is, in sheet order (as
    /// [`PlannedFabric::switches`]).
    pub switches: Vec<(usize, usize)>,
}

/// A cable of a [`WrittenSheet`].
pub(crate) struct WrittenCable {
    pub tier: &'static str,
    /// Where in the text its A device, A port, Z device, Z port and label start, and where
    /// the label ends.
    pub at: [usize; 6],
}

/// The sheet of `report`'s fabric named `only` (or of every fabric), labelled as
/// [`planned_up_to`] labels it: the fabrics before it are only counted.
pub(crate) fn written<'r>(report: &'r Report, only: Option<&str>) -> WrittenSheet<'r> {
    let mut text = String::new();
    let mut fabrics = Vec::new();
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
        let names = Names::of(fabric);
        let plan = &fabric.plan;
        let count = (u64::from(plan.node_leaf_links)
            + u64::from(plan.leaf_spine_links)
            + u64::from(plan.spine_core_links))
        .min(1 << 22) as usize;
        text.reserve(count * (4 * fabric.name.len() + 48));
        let start = text.len();
        let mut cables = Vec::with_capacity(count);
        // The first place each switch is named, by tier and number: numbers are zero-padded,
        // so that order is the sheet's order of names, found without sorting or hashing them.
        let mut first: [Vec<Option<(usize, usize)>>; 3] = Default::default();
        let walked = links(fabric, &mut |link: Link| {
            let mut at = [text.len(); 6];
            names.push_device(&mut text, link.a);
            at[1] = text.len();
            names.push_port(&mut text, link.a);
            at[2] = text.len();
            names.push_device(&mut text, link.z);
            at[3] = text.len();
            names.push_port(&mut text, link.z);
            at[4] = text.len();
            push_label(&mut text, next + cables.len(), digits);
            at[5] = text.len();
            for (end, name) in [(link.a, (at[0], at[1])), (link.z, (at[2], at[3]))] {
                if let End::Switch { role, index, .. } = end {
                    let tier = &mut first[role as usize];
                    let index = index as usize;
                    if tier.len() <= index {
                        tier.resize(index + 1, None);
                    }
                    tier[index].get_or_insert(name);
                }
            }
            cables.push(WrittenCable {
                tier: link.tier,
                at,
            });
        });
        match walked {
            Ok(()) => {
                next += cables.len();
                let switches = first.into_iter().flatten().flatten().collect();
                fabrics.push(WrittenFabric {
                    fabric,
                    cables,
                    switches,
                });
            }
            // A fabric whose switches cannot take its cables has no sheet.
            Err(_) => text.truncate(start),
        }
        if only.is_some() {
            break;
        }
    }
    WrittenSheet { text, fabrics }
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

/// Every file of the hand-off bundle: (file name, content), in a fixed order, the README
/// first.
pub fn bundle(spec: &DesignSpec, report: &Report) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let readme = write_bundle(spec, report, |name, text| files.push((name, text)));
    files.insert(0, ("README.txt".into(), readme));
    files
}

/// The files of [`bundle`] but its README, handed to `out` one at a time as each is written,
/// so that a caller that compresses or sends them need not hold them all at once; returns the
/// README, which lists them.
pub fn write_bundle(
    spec: &DesignSpec,
    report: &Report,
    mut out: impl FnMut(String, String),
) -> String {
    let (mut fabrics, skipped) = planned(report);
    for f in &mut fabrics {
        f.adapters = crate::catalog::adapters_of(spec, &f.fabric.name);
    }
    // The floor's sheet walks the same links in the same order; it has a cable for every
    // planned one only when every fabric fits its switches. Where each lies is kept apart from
    // the names the planned fabrics hold already: a large design's sheet twice over would take
    // a kilobyte of memory a cable.
    let placed = crate::floor::placements(spec, report).ok();
    let floor = placed.as_ref().filter(|placed| {
        placed.cables.len() == fabrics.iter().map(|f| f.cables.len()).sum::<usize>()
    });
    let mut names: Vec<String> = Vec::new();
    let mut files = |name: String, text: String| {
        names.push(name.clone());
        out(name, text);
    };
    let preset = spec.cluster.node_preset.as_deref();
    let mut first_cable = 0;
    for f in &fabrics {
        let name = &f.fabric.name;
        let placed = floor.map(|floor| &floor.cables[first_cable..first_cable + f.cables.len()]);
        first_cable += f.cables.len();
        files(format!("cvt/{name}-p2p.csv"), cvt::p2p_csv(f));
        match f.transport() {
            Transport::InfiniBand => {
                let adapters = f.adapters;
                if !adapters.is_empty() {
                    files(
                        format!("cvt/{name}-hca-mapping.csv"),
                        cvt::hca_mapping(adapters),
                    );
                }
                files(
                    format!("infiniband/{name}-ibnetdiscover.net"),
                    ibnet::topology(f, adapters),
                );
                if report.tenants.iter().any(|t| t.partition.is_some()) {
                    files(format!("ufm/{name}-pkeys.json"), tenants::ufm_pkeys(report));
                    files(
                        format!("ufm/{name}-pkey-members.csv"),
                        tenants::ufm_members(report, f),
                    );
                }
            }
            Transport::Roce | Transport::Tcp => match f.os() {
                SwitchOs::Eos => {
                    files(
                        format!("avd/{name}.yml"),
                        avd::fabric_vars(spec, f, &report.tenants),
                    );
                    files(format!("avd/{name}-inventory.yml"), avd::inventory(f));
                }
                SwitchOs::CumulusLinux | SwitchOs::MlnxOs => {
                    nvue::switch_configs(spec, f, placed, &report.tenants, &mut files);
                }
            },
        }
        files(format!("graphviz/{name}.dot"), dot::graph(f));
        if f.cables.len() > dot::SUMMARY_OVER_LINKS {
            files(format!("graphviz/{name}-summary.dot"), dot::summary(f));
        }
    }
    let node_units = crate::floor::node_rack_units(spec);
    files("netbox/sites.csv".into(), netbox::sites(&spec.title));
    files(
        "netbox/manufacturers.csv".into(),
        netbox::manufacturers(&fabrics, preset, node_units),
    );
    files("netbox/device-roles.csv".into(), netbox::device_roles());
    files(
        "netbox/device-types.yaml".into(),
        netbox::device_types(&fabrics, preset, node_units),
    );
    files(
        "netbox/racks.csv".into(),
        netbox::racks(floor, spec.floor.rack_units, &spec.title),
    );
    files(
        "netbox/devices.csv".into(),
        netbox::devices(&fabrics, floor, preset, node_units, &spec.title),
    );
    files("netbox/interfaces.csv".into(), netbox::interfaces(&fabrics));
    files("netbox/cables.csv".into(), netbox::cables(&fabrics, floor));
    if let Some(f) = scheduling_fabric(&fabrics) {
        files("slurm/topology.conf".into(), slurm::tree(f));
        files("slurm/topology-block.conf".into(), slurm::block(f));
        files("kubernetes/node-labels.yaml".into(), k8s::node_labels(f));
        files(
            "kubernetes/node-labels-topograph-0x.yaml".into(),
            k8s::node_labels_0x(f),
        );
        files(
            "kubernetes/kueue-topology.yaml".into(),
            k8s::kueue_topology(f),
        );
        if !report.tenants.is_empty() {
            files(
                "slurm/partitions.conf".into(),
                tenants::slurm_partitions(report, f),
            );
            files(
                "kubernetes/tenants.yaml".into(),
                tenants::kubernetes(report, f),
            );
        }
    }
    readme::readme(spec, &names, &skipped, label_digits(report))
}
