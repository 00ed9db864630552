//! The bundle written: every file of the design's hand-off in a fixed order, handed on as it is
//! written, the largest a piece at a time.

use super::text::Pieces;
use super::{
    avd, cvt, dot, ibnet, k8s, label_digits, netbox, nvue, planned, readme, scheduling_fabric,
    slurm, tenants,
};
use crate::catalog::SwitchOs;
use crate::report::Report;
use crate::spec::DesignSpec;
use crate::technology::Transport;

/// Every file of the hand-off bundle: (file name, content), in a fixed order, the README
/// first.
pub fn bundle(spec: &DesignSpec, report: &Report) -> Vec<(String, String)> {
    let mut files = Collected(Vec::new());
    let readme = write_bundle(spec, report, &mut files);
    files.0.insert(0, ("README.txt".into(), readme));
    files.0
}

/// Where the files of the bundle go as they are written: each begun by its name, then its
/// text in pieces, so that a caller that compresses or sends them holds no file whole.
pub trait Files {
    /// Begins the file `name`; the file before it, if any, is complete.
    fn begin(&mut self, name: &str);
    /// Appends `text` to the file begun last.
    fn write(&mut self, text: &str);
}

/// Every file whole, in the order written.
struct Collected(Vec<(String, String)>);

impl Files for Collected {
    fn begin(&mut self, name: &str) {
        self.0.push((name.to_string(), String::new()));
    }

    fn write(&mut self, text: &str) {
        if let Some((_, file)) = self.0.last_mut() {
            file.push_str(text);
        }
    }
}

/// The bundle's files as they go out, and their names for the README.
struct Written<'f, F: Files> {
    files: &'f mut F,
    names: Vec<String>,
}

impl<F: Files> Written<'_, F> {
    /// A file written whole.
    fn file(&mut self, name: String, text: String) {
        self.piecewise(name, |pieces| pieces(&text));
    }

    /// A file written in pieces by `write`.
    fn piecewise(&mut self, name: String, write: impl FnOnce(&mut Pieces)) {
        self.files.begin(&name);
        self.names.push(name);
        let files = &mut *self.files;
        write(&mut |piece: &str| files.write(piece));
    }
}

/// The files of [`bundle`] but its README, handed to `files` as each is written; returns the
/// README, which lists them.
pub fn write_bundle(spec: &DesignSpec, report: &Report, files: &mut impl Files) -> String {
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
        placed.cables.len() == fabrics.iter().map(|f| f.cable_count()).sum::<usize>()
    });
    let mut out = Written {
        files,
        names: Vec::new(),
    };
    let preset = spec.cluster.node_preset.as_deref();
    let mut first_cable = 0;
    for f in &fabrics {
        let name = &f.fabric.name;
        let placed = floor.map(|floor| &floor.cables[first_cable..first_cable + f.cable_count()]);
        first_cable += f.cable_count();
        out.piecewise(format!("cvt/{name}-p2p.csv"), |p| cvt::p2p_csv(f, p));
        match f.transport() {
            Transport::InfiniBand => {
                let adapters = f.adapters;
                if !adapters.is_empty() {
                    out.file(
                        format!("cvt/{name}-hca-mapping.csv"),
                        cvt::hca_mapping(adapters),
                    );
                }
                out.piecewise(format!("infiniband/{name}-ibnetdiscover.net"), |p| {
                    ibnet::topology(f, adapters, p)
                });
                if report.tenants.iter().any(|t| t.partition.is_some()) {
                    out.file(format!("ufm/{name}-pkeys.json"), tenants::ufm_pkeys(report));
                    out.file(
                        format!("ufm/{name}-pkey-members.csv"),
                        tenants::ufm_members(report, f),
                    );
                }
            }
            Transport::Roce | Transport::Tcp => match f.os() {
                SwitchOs::Eos => {
                    out.file(
                        format!("avd/{name}.yml"),
                        avd::fabric_vars(spec, f, &report.tenants),
                    );
                    out.file(format!("avd/{name}-inventory.yml"), avd::inventory(f));
                }
                SwitchOs::CumulusLinux | SwitchOs::MlnxOs => {
                    nvue::switch_configs(spec, f, placed, &report.tenants, &mut |name, text| {
                        out.file(name, text)
                    });
                }
            },
        }
        out.piecewise(format!("graphviz/{name}.dot"), |p| dot::graph(f, p));
        if f.cable_count() > dot::SUMMARY_OVER_LINKS {
            out.file(format!("graphviz/{name}-summary.dot"), dot::summary(f));
        }
    }
    let node_units = crate::floor::node_rack_units(spec);
    out.file("netbox/sites.csv".into(), netbox::sites(&spec.title));
    out.file(
        "netbox/manufacturers.csv".into(),
        netbox::manufacturers(&fabrics, preset, node_units),
    );
    out.file("netbox/device-roles.csv".into(), netbox::device_roles());
    out.file(
        "netbox/device-types.yaml".into(),
        netbox::device_types(&fabrics, preset, node_units),
    );
    out.file(
        "netbox/racks.csv".into(),
        netbox::racks(floor, spec.floor.rack_units, &spec.title),
    );
    out.file(
        "netbox/devices.csv".into(),
        netbox::devices(&fabrics, floor, preset, node_units, &spec.title),
    );
    out.piecewise("netbox/interfaces.csv".into(), |p| {
        netbox::interfaces(&fabrics, p)
    });
    out.piecewise("netbox/cables.csv".into(), |p| {
        netbox::cables(&fabrics, floor, p)
    });
    if let Some(f) = scheduling_fabric(&fabrics) {
        out.file("slurm/topology.conf".into(), slurm::tree(f));
        out.file("slurm/topology-block.conf".into(), slurm::block(f));
        out.file("kubernetes/node-labels.yaml".into(), k8s::node_labels(f));
        out.file(
            "kubernetes/node-labels-topograph-0x.yaml".into(),
            k8s::node_labels_0x(f),
        );
        out.file(
            "kubernetes/kueue-topology.yaml".into(),
            k8s::kueue_topology(f),
        );
        if !report.tenants.is_empty() {
            out.file(
                "slurm/partitions.conf".into(),
                tenants::slurm_partitions(report, f),
            );
            out.file(
                "kubernetes/tenants.yaml".into(),
                tenants::kubernetes(report, f),
            );
        }
    }
    readme::readme(spec, &out.names, &skipped, label_digits(report))
}
