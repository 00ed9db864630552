//! Every rule a spec must satisfy before it can be evaluated, and the reading of a spec that
//! applies them ([`read`]: from JSON, upgrading older schema versions such as [`v1`]). Each
//! error names its field path and the reason; nothing is corrected silently. Above the spec's
//! types and the catalog, links and allocation the rules consult.

use crate::catalog::{gpu, switch, SwitchFamily};
use crate::error::FieldError;
use crate::spec::{names, Compute, DesignSpec, Fabric, Workload, SPEC_VERSION};

mod floor;
mod growth;
mod read;
mod tenants;
mod v1;
mod workloads;

pub use growth::MAX_PHASES;
#[cfg(feature = "schema")]
pub use read::AnySpecVersion;
pub use tenants::MAX_TENANTS;
pub use v1::{SpecV1, TrainingV1};

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_PARAMETERS: f64 = 1e14;
pub const MAX_NODES: u32 = 250_000;
pub const MAX_GPUS_PER_NODE: u32 = 576;
pub const MAX_PORTS_PER_NODE: u32 = 64;
pub const MAX_CABLE_RUN_M: f64 = 2000.0;
/// Fabrics in one design: compute, storage, inference and management of several pods fit
/// well within it.
pub const MAX_FABRICS: usize = 16;
/// Workloads in one design. Every what-if study re-evaluates the design per workload, so the
/// cap bounds the work one request can ask for.
pub const MAX_WORKLOADS: usize = 64;
/// Price and power overrides: one per BOM item of every fabric is far below it.
pub const MAX_OVERRIDES: usize = 512;
/// Endpoints (nodes × ports per node, plus extra endpoints) of one fabric: a million ports,
/// five times the 200,000-GPU clusters built today with one NIC per GPU.
pub const MAX_FABRIC_ENDPOINTS: u64 = 1_000_000;

/// A field path, written out only when an error needs it (validation runs on every
/// evaluation, and a valid spec should cost no allocations).
#[derive(Clone, Copy)]
struct At<'a>(&'a str, &'a str);

impl At<'_> {
    fn path(self) -> String {
        match (self.0.is_empty(), self.1.is_empty()) {
            (true, _) => self.1.to_string(),
            (_, true) => self.0.to_string(),
            _ => format!("{}.{}", self.0, self.1),
        }
    }
}

/// "fabrics[2]": entry `index` of list `list` as a field path. Validation writes one for each
/// entry of every spec it checks, valid or not, so without the formatting machinery.
fn entry(list: &str, index: usize) -> String {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = index;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut path = String::with_capacity(list.len() + 2 + digits.len() - start);
    path.push_str(list);
    path.push('[');
    path.extend(digits[start..].iter().map(|&d| char::from(d)));
    path.push(']');
    path
}

/// Anything that names a field: a lazy [`At`], or a path already written out.
trait FieldPath: Copy {
    fn path(self) -> String;
}

impl FieldPath for At<'_> {
    fn path(self) -> String {
        At::path(self)
    }
}

impl FieldPath for &str {
    fn path(self) -> String {
        self.to_string()
    }
}

impl FieldPath for &String {
    fn path(self) -> String {
        self.clone()
    }
}

/// Collects errors at field paths.
struct Checker {
    errors: Vec<FieldError>,
}

impl Checker {
    fn fail(&mut self, at: impl FieldPath, reason: impl Into<String>) {
        self.errors.push(FieldError::new(at.path(), reason));
    }

    /// A finite number in `[min, max]`, or `(min, max]` when `exclusive_min`.
    fn number(
        &mut self,
        path: impl FieldPath,
        value: f64,
        min: f64,
        exclusive_min: bool,
        max: f64,
        unit: &str,
    ) {
        if !value.is_finite() {
            self.fail(path, "must be a finite number");
        } else if exclusive_min && value <= min {
            self.fail(path, format!("must be greater than {min}{unit}"));
        } else if !exclusive_min && value < min {
            self.fail(path, format!("must be at least {min}{unit}"));
        } else if value > max {
            self.fail(path, format!("must be at most {max}{unit}"));
        }
    }

    fn positive(&mut self, path: impl FieldPath, value: f64, max: f64, unit: &str) {
        self.number(path, value, 0.0, true, max, unit);
    }

    fn count(&mut self, path: impl FieldPath, value: u32, min: u32, max: u32) {
        if value < min {
            self.fail(path, format!("must be at least {min}"));
        } else if value > max {
            self.fail(path, format!("must be at most {max}"));
        }
    }

    /// A list of at most `max` entries.
    fn at_most(&mut self, path: &str, len: usize, max: usize, what: &str) {
        if len > max {
            self.fail(
                path,
                format!("holds {len} {what}; at most {max} are allowed"),
            );
        }
    }

    /// A title or a workload's name: one line of visible text ([`names`]).
    fn name(&mut self, path: impl FieldPath, value: &str) {
        if let Some(why) = name_error(value) {
            self.fail(path, why);
        }
    }
}

/// Why `value` cannot be a title or a workload's name: one line of visible text
/// ([`names`]) of at most [`MAX_TITLE_CHARS`] characters.
pub(crate) fn name_error(value: &str) -> Option<String> {
    if names::is_blank(value) {
        Some("must not be empty".into())
    } else if let Some(why) = names::text_error(value) {
        Some(why.into())
    } else if value.trim().chars().count() > MAX_TITLE_CHARS {
        Some(format!("must be at most {MAX_TITLE_CHARS} characters"))
    } else {
        None
    }
}

pub(crate) fn errors(spec: &DesignSpec) -> Vec<FieldError> {
    let mut check = Checker { errors: Vec::new() };
    if spec.schema_version != SPEC_VERSION {
        check.fail(
            "schema_version",
            format!("must be {} once read", SPEC_VERSION),
        );
    }
    check.name("title", &spec.title);
    cluster(&mut check, spec);
    check.at_most("fabrics", spec.fabrics.len(), MAX_FABRICS, "fabrics");
    check.at_most(
        "workloads",
        spec.workloads.len(),
        MAX_WORKLOADS,
        "workloads",
    );
    check.at_most(
        "overrides",
        spec.overrides.len(),
        MAX_OVERRIDES,
        "overrides",
    );
    if !check.errors.is_empty() && spec.fabrics.len() + spec.workloads.len() > 1000 {
        // Far too many entries: say so once rather than validate each of them.
        return check.errors;
    }
    for (i, fabric) in spec.fabrics.iter().enumerate() {
        self::fabric(&mut check, spec, i, fabric);
    }
    for (i, workload) in spec.workloads.iter().enumerate() {
        workloads::workload(&mut check, spec, i, workload);
    }
    calibration(&mut check, spec);
    floor::floor(&mut check, spec);
    growth::growth(&mut check, spec);
    tenants::tenants(&mut check, spec);
    for (i, o) in spec.overrides.iter().enumerate() {
        let at = entry("overrides", i);
        if names::is_blank(&o.item) {
            check.fail(At(&at, "item"), "must name a BOM item");
        } else if let Some(why) = names::text_error(&o.item) {
            check.fail(At(&at, "item"), why);
        }
        if let Some(price) = o.unit_price_usd {
            check.number(
                At(&at, "unit_price_usd"),
                price.dollars(),
                0.0,
                false,
                1e9,
                " USD",
            );
        }
        if let Some(power) = o.power_w {
            check.number(At(&at, "power_w"), power.watts(), 0.0, false, 1e6, " W");
        }
    }
    check.errors
}

fn cluster(check: &mut Checker, spec: &DesignSpec) {
    let c = &spec.cluster;
    if gpu(&c.gpu).is_none() {
        check.fail(
            "cluster.gpu",
            format!("{:?} is not a GPU in the catalog", c.gpu),
        );
    }
    check.count(
        "cluster.gpus_per_node",
        c.gpus_per_node,
        1,
        MAX_GPUS_PER_NODE,
    );
    check.count(
        "cluster.nics_per_node",
        c.nics_per_node,
        1,
        MAX_PORTS_PER_NODE,
    );
    check.count("cluster.nodes", c.nodes, 1, MAX_NODES);
    if let Some(bw) = c.scale_up_gbytes_per_s {
        check.positive(
            "cluster.scale_up_gbytes_per_s",
            bw.gigabytes_per_second(),
            100_000.0,
            " GB/s",
        );
    }
    if let Some(target) = c.growth_target_nodes {
        if target < c.nodes {
            check.fail(
                "cluster.growth_target_nodes",
                format!(
                    "must be at least the {} nodes the cluster already has",
                    c.nodes
                ),
            );
        } else if target > MAX_NODES {
            check.fail(
                "cluster.growth_target_nodes",
                format!("must be at most {MAX_NODES}"),
            );
        }
    }
}

fn fabric(check: &mut Checker, spec: &DesignSpec, i: usize, f: &Fabric) {
    let at = entry("fabrics", i);
    if let Some(why) = names::fabric_name_error(&f.name) {
        check.fail(At(&at, "name"), why);
    }
    if spec.fabrics[..i].iter().any(|other| other.name == f.name) {
        check.fail(
            At(&at, "name"),
            format!("{:?} names another fabric too", f.name),
        );
    }
    if let Some(speed) = f.port_gbps {
        check.positive(At(&at, "port_gbps"), speed.gbps(), 3200.0, " Gb/s");
    }
    match switch(f.switch_key()) {
        None => check.fail(
            At(&at, "switch"),
            format!("{:?} is not a switch in the catalog", f.switch_key()),
        ),
        Some(sw) => {
            let family_fits = match sw.family {
                SwitchFamily::InfiniBand => !f.technology.is_ethernet(),
                SwitchFamily::Ethernet => f.technology.is_ethernet(),
            };
            if !family_fits {
                check.fail(
                    At(&at, "switch"),
                    format!("{} cannot carry {}", sw.name, f.technology.label()),
                );
            } else if f.port_gbps().is_finite() && sw.port_mode_for(f.port_gbps()).is_none() {
                check.fail(
                    At(&at, "port_gbps"),
                    format!(
                        "{} has no ports of {} Gb/s or faster",
                        sw.name,
                        f.port_gbps()
                    ),
                );
            }
        }
    }
    check.number(
        At(&at, "oversubscription.leaf"),
        f.oversubscription.leaf,
        1.0,
        false,
        16.0,
        ":1",
    );
    check.number(
        At(&at, "oversubscription.spine"),
        f.oversubscription.spine,
        1.0,
        false,
        16.0,
        ":1",
    );
    if let Some(nodes) = f.attached_nodes {
        if nodes > spec.cluster.nodes {
            check.fail(
                At(&at, "attached_nodes"),
                format!("{nodes} nodes but the cluster has {}", spec.cluster.nodes),
            );
        }
    }
    if let Some(ports) = f.ports_per_node {
        check.count(At(&at, "ports_per_node"), ports, 1, MAX_PORTS_PER_NODE);
    }
    check.count(At(&at, "extra_endpoints"), f.extra_endpoints, 0, 100_000);
    let nodes = f.attached_nodes.unwrap_or(spec.cluster.nodes);
    let ports = crate::links::ports_per_node(&spec.cluster, f);
    let endpoints = u64::from(nodes) * u64::from(ports) + u64::from(f.extra_endpoints);
    if endpoints > MAX_FABRIC_ENDPOINTS {
        check.fail(
            At(&at, "ports_per_node"),
            format!(
                "{nodes} nodes × {ports} ports make {endpoints} endpoints; one fabric holds at most {MAX_FABRIC_ENDPOINTS}"
            ),
        );
    }
    let runs = &f.cable_runs;
    let cable_runs = [at.as_str(), ".cable_runs"].concat();
    for (field, metres) in [
        ("node_leaf_m", runs.node_leaf_m),
        ("leaf_spine_m", runs.leaf_spine_m),
        ("spine_core_m", runs.spine_core_m),
    ] {
        check.positive(
            At(&cable_runs, field),
            metres.metres(),
            MAX_CABLE_RUN_M,
            " m",
        );
    }
}

fn calibration(check: &mut Checker, spec: &DesignSpec) {
    let c = &spec.calibration;
    for (field, value) in [
        ("infiniband_efficiency", c.infiniband_efficiency),
        ("roce_efficiency", c.roce_efficiency),
        ("tcp_efficiency", c.tcp_efficiency),
        ("ll_bandwidth_share", c.ll_bandwidth_share),
        ("ll128_bandwidth_share", c.ll128_bandwidth_share),
        ("nvls_efficiency", c.nvls_efficiency),
        ("in_network_efficiency", c.in_network_efficiency),
        ("spine_efficiency_share", c.spine_efficiency_share),
        ("core_efficiency_share", c.core_efficiency_share),
    ] {
        check.number(At("calibration", field), value, 0.0, true, 1.0, "");
    }
    if let Some(e) = c.scale_up_efficiency {
        check.number("calibration.scale_up_efficiency", e, 0.0, true, 1.0, "");
    }
    for (field, value) in [
        ("network_hop_latency_us", c.network_hop_latency_us),
        ("tcp_extra_latency_us", c.tcp_extra_latency_us),
        ("scale_up_hop_latency_us", c.scale_up_hop_latency_us),
        ("collective_base_latency_us", c.collective_base_latency_us),
        ("ll_base_latency_us", c.ll_base_latency_us),
        ("ll_scale_up_hop_latency_us", c.ll_scale_up_hop_latency_us),
        ("ll_network_hop_latency_us", c.ll_network_hop_latency_us),
        ("ll128_base_latency_us", c.ll128_base_latency_us),
        (
            "ll128_scale_up_hop_latency_us",
            c.ll128_scale_up_hop_latency_us,
        ),
        (
            "ll128_network_hop_latency_us",
            c.ll128_network_hop_latency_us,
        ),
        ("nvls_latency_us", c.nvls_latency_us),
        ("in_network_latency_us", c.in_network_latency_us),
        ("spine_hop_extra_latency_us", c.spine_hop_extra_latency_us),
        ("core_hop_extra_latency_us", c.core_hop_extra_latency_us),
    ] {
        check.number(
            At("calibration", field),
            value.micros(),
            0.0,
            false,
            1e6,
            " µs",
        );
    }
    // Greater than 0: the mean time between interruptions is finite.
    check.number(
        "calibration.interruptions_per_1000_gpu_days",
        c.interruptions_per_1000_gpu_days,
        0.0,
        true,
        1e6,
        " per 1,000 GPU-days",
    );
    check.number(
        "calibration.restart_minutes",
        c.restart_minutes.minutes(),
        0.0,
        false,
        1e6,
        " minutes",
    );
    if !(1..=128).contains(&c.qps_per_connection) {
        check.fail(
            "calibration.qps_per_connection",
            "must be between 1 and 128".to_string(),
        );
    }
    if let Some(f) = &c.fitted {
        if !spec.fabrics.iter().any(|x| x.name == f.fabric) {
            check.fail(
                "calibration.fitted.fabric",
                format!("the design has no fabric named {:?}", f.fabric),
            );
        }
        if f.baselines.is_empty() || f.baselines.len() > 1000 || f.baselines.contains(&0) {
            check.fail(
                "calibration.fitted.baselines",
                "must list between 1 and 1,000 baseline numbers, each from 1",
            );
        }
        if f.on.len() != 10 || !growth::is_date(&f.on) {
            check.fail("calibration.fitted.on", "must be a date written YYYY-MM-DD");
        }
        if !matches!(
            f.efficiency_field.as_str(),
            "infiniband_efficiency" | "roce_efficiency" | "tcp_efficiency"
        ) {
            check.fail(
                "calibration.fitted.efficiency_field",
                "must be infiniband_efficiency, roce_efficiency or tcp_efficiency",
            );
        }
        check.number(
            "calibration.fitted.efficiency",
            f.efficiency,
            0.0,
            true,
            1.0,
            "",
        );
        if let Some(worst) = f.worst_error_percent {
            check.number(
                "calibration.fitted.worst_error_percent",
                worst,
                0.0,
                false,
                99.0,
                " %",
            );
        }
        for (field, us) in [
            ("network_hop_latency_us", f.network_hop_latency_us),
            (
                "ll128_network_hop_latency_us",
                f.ll128_network_hop_latency_us,
            ),
            ("ll_network_hop_latency_us", f.ll_network_hop_latency_us),
        ] {
            if let Some(us) = us {
                check.number(
                    &format!("calibration.fitted.{field}"),
                    us.micros(),
                    0.0,
                    false,
                    1e6,
                    " µs",
                );
            }
        }
    }
}
