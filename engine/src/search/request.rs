//! What a design search is asked: the design to start from, the targets its workloads must
//! meet, the constraints on the fabric, and the choices the search may vary.
//!
//! Over 400 lines because each field of the request sits beside the rule that checks it.

use crate::catalog::{switch, SwitchFamily};
use crate::error::{FieldError, SpecErrors};
use crate::rules::MAX_NODES;
use crate::spec::{DesignSpec, Isolation, Topology, Workload};
use crate::technology::Technology;
use crate::units::Millis;
use crate::units::{Usd, Watts};
use serde::{Deserialize, Serialize};

/// Largest number of values one freedom may list: keeps the space a person can reason about.
pub const MAX_VALUES_PER_FREEDOM: usize = 32;

/// A design search: the cheapest fabrics for `base` that meet `targets` within `constraints`,
/// varying what `freedoms` allows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// Read as a spec on its own is, older versions upgraded.
    #[cfg_attr(feature = "schema", schemars(with = "crate::rules::AnySpecVersion"))]
    pub base: DesignSpec,
    #[serde(default)]
    pub targets: Targets,
    #[serde(default)]
    pub constraints: Constraints,
    #[serde(default)]
    pub freedoms: Freedoms,
    /// Candidates evaluated at most; beyond it the search samples the space (see the module
    /// documentation for what is then guaranteed).
    #[serde(default = "default_max_candidates")]
    pub max_candidates: u64,
    /// Where a sampled search starts its quasi-random sequence: another seed draws another
    /// sample of the same space.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seed: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Most candidates one search may visit: a record of each is kept for explanations.
pub const MAX_CANDIDATES: u64 = 10_000_000;

pub fn default_max_candidates() -> u64 {
    100_000
}

/// Limits for one workload; a limit that does not apply to the workload's kind is ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Training: largest step-time slowdown against an ideal network, in percent (5 means the
    /// step may take at most 1.05 × its ideal time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_slowdown_percent: Option<f64>,
    /// Inference: largest network-added latency per generated token, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_added_latency_ms: Option<Millis>,
    /// Storage: a checkpoint must be written within its budget.
    #[serde(default)]
    pub checkpoint_within_budget: bool,
    /// Storage: smallest read headroom (available ÷ provisioned read bandwidth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_read_headroom: Option<f64>,
    /// Training: smallest goodput, the percent of time the job trains, at the checkpoint
    /// interval of the storage workload it checkpoints to, interrupted at the calibration's rate
    /// ([`crate::goodput`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_goodput_percent: Option<f64>,
}

/// Limits for a workload named in the base design; they replace `every_workload`'s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WorkloadLimits {
    pub workload: String,
    #[serde(default)]
    pub limits: Limits,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Targets {
    #[serde(default)]
    pub every_workload: Limits,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workloads: Vec<WorkloadLimits>,
}

impl Targets {
    /// The limits that hold for workload `name`.
    pub fn for_workload(&self, name: &str) -> (&Limits, Option<usize>) {
        match self.workloads.iter().position(|w| w.workload == name) {
            Some(i) => (&self.workloads[i].limits, Some(i)),
            None => (&self.every_workload, None),
        }
    }
}

/// What every candidate must respect, whatever its workloads do.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Constraints {
    /// Network cost of the whole design (every fabric), USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cost_usd: Option<Usd>,
    /// Network power of the whole design, W.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_power_w: Option<Watts>,
    /// Only these technologies (all when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub technologies: Vec<Technology>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_technologies: Vec<Technology>,
    /// Only these switch models, catalog keys (all when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_switches: Vec<String>,
    /// Only switches of these families (all when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<SwitchFamily>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded_families: Vec<SwitchFamily>,
    /// Most switch tiers any fabric may have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tiers: Option<u32>,
    /// Most GPUs the worst single failure (a NIC port, a leaf, a spine, a core switch, a rail)
    /// may cut off from a fabric ([`crate::failures::failures`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_gpus_cut_off_by_one_failure: Option<u64>,
    /// Most GPUs the tenants' isolation may strand: GPUs of the whole scalable units a tenant
    /// holds but was not given ([`crate::tenancy`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_stranded_gpus: Option<u64>,
    /// Nodes every fabric must grow to without re-cabling; replaces the base design's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth_target_nodes: Option<u32>,
}

impl Constraints {
    pub fn allows_technology(&self, t: Technology) -> bool {
        (self.technologies.is_empty() || self.technologies.contains(&t))
            && !self.excluded_technologies.contains(&t)
    }

    pub fn allows_switch(&self, key: &str) -> bool {
        let Some(sw) = switch(key) else {
            return false;
        };
        (self.switches.is_empty() || self.switches.iter().any(|s| s == key))
            && !self.excluded_switches.iter().any(|s| s == key)
            && (self.families.is_empty() || self.families.contains(&sw.family))
            && !self.excluded_families.contains(&sw.family)
    }
}

/// How the workloads are spread over fabrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Arrangement {
    /// The base design's fabrics and workload mapping.
    AsDesigned,
    /// One fabric carries every workload (the base's compute fabric, else its first).
    Shared,
    /// Separate compute (training), inference (inference and retrieval) and storage fabrics.
    Separate,
}

/// The choices the search may vary. An empty list keeps the base design's value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Freedoms {
    /// Only these fabrics of the base design vary, by name; every fabric when empty. The
    /// others keep their technology, switch, topology and oversubscription.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fabrics: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub technologies: Vec<Technology>,
    /// Port speeds, Gb/s; each technology takes those up to its line rate. Empty: its line rate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub port_speeds_gbps: Vec<f64>,
    /// Try every catalog switch that can carry the technology, not only the base's or default.
    #[serde(default)]
    pub switch_models: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topologies: Vec<Topology>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaf_oversubscription: Vec<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spine_oversubscription: Vec<f64>,
    /// NICs per node on the compute fabric: the number of rails.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nics_per_node: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrangements: Vec<Arrangement>,
    /// Isolation levels every tenant of the base design takes in turn (each candidate gives all
    /// its tenants one level); empty keeps each tenant's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tenant_isolation: Vec<Isolation>,
}

/// A request without its base design, read after the base has been read on its own.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct Rest {
    #[serde(default)]
    targets: Targets,
    #[serde(default)]
    constraints: Constraints,
    #[serde(default)]
    freedoms: Freedoms,
    #[serde(default = "default_max_candidates")]
    max_candidates: u64,
    #[serde(default)]
    seed: u64,
}

impl SearchRequest {
    /// Reads a request from JSON text: the base design as [`DesignSpec::from_value`] reads a
    /// saved design (older schema versions upgraded), every error with its field path, and
    /// the whole request validated.
    pub fn from_json(text: &str) -> Result<SearchRequest, SpecErrors> {
        let mut value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| SpecErrors::single("", format!("not valid JSON: {e}")))?;
        let Some(object) = value.as_object_mut() else {
            return Err(SpecErrors::single("", "must be a JSON object"));
        };
        let base = object
            .remove("base")
            .ok_or_else(|| SpecErrors::single("base", "is missing"))?;
        let base = DesignSpec::from_value(base).map_err(|e| {
            SpecErrors(
                e.0.into_iter()
                    .map(|e| FieldError::new(join("base", &e.path), e.reason))
                    .collect(),
            )
        })?;
        let rest: Rest = crate::spec::deserialize(value)?;
        let request = SearchRequest {
            base,
            targets: rest.targets,
            constraints: rest.constraints,
            freedoms: rest.freedoms,
            max_candidates: rest.max_candidates,
            seed: rest.seed,
        };
        request.validate()?;
        Ok(request)
    }

    /// A request that varies nothing: the base design checked against `targets`.
    pub fn new(base: DesignSpec) -> Self {
        SearchRequest {
            base,
            targets: Targets::default(),
            constraints: Constraints::default(),
            freedoms: Freedoms::default(),
            max_candidates: default_max_candidates(),
            seed: 0,
        }
    }

    /// Every error in the request, each with its field path.
    pub fn validate(&self) -> Result<(), SpecErrors> {
        let mut errors: Vec<FieldError> = match self.base.validate() {
            Ok(()) => Vec::new(),
            Err(e) => {
                e.0.into_iter()
                    .map(|e| FieldError::new(join("base", &e.path), e.reason))
                    .collect()
            }
        };
        if self.base.fabrics.is_empty() {
            errors.push(FieldError::new(
                "base.fabrics",
                "the design has no fabric to search over",
            ));
        }
        limits(
            &mut errors,
            "targets.every_workload",
            &self.targets.every_workload,
        );
        for (i, w) in self.targets.workloads.iter().enumerate() {
            let at = format!("targets.workloads[{i}]");
            if !self.base.workloads.iter().any(|b| b.name() == w.workload) {
                errors.push(FieldError::new(
                    format!("{at}.workload"),
                    format!("{:?} is not a workload of the design", w.workload),
                ));
            }
            limits(&mut errors, &format!("{at}.limits"), &w.limits);
        }
        // Goodput is set by the checkpoint's write time: a design with no storage workload to
        // checkpoint to has none to hold.
        if !self
            .base
            .workloads
            .iter()
            .any(|w| matches!(w, Workload::Storage(_)))
        {
            let asked = std::iter::once((
                "targets.every_workload".to_string(),
                &self.targets.every_workload,
            ))
            .chain(
                self.targets
                    .workloads
                    .iter()
                    .enumerate()
                    .map(|(i, w)| (format!("targets.workloads[{i}].limits"), &w.limits)),
            );
            for (at, l) in asked {
                if l.min_goodput_percent.is_some() {
                    errors.push(FieldError::new(
                        format!("{at}.min_goodput_percent"),
                        "the design has no storage workload for its training jobs to checkpoint to, so no goodput to hold",
                    ));
                }
            }
        }
        let c = &self.constraints;
        positive(
            &mut errors,
            "constraints.max_cost_usd",
            c.max_cost_usd.map(|v| v.dollars()),
        );
        positive(
            &mut errors,
            "constraints.max_power_w",
            c.max_power_w.map(|v| v.watts()),
        );
        for (field, keys) in [
            ("switches", &c.switches),
            ("excluded_switches", &c.excluded_switches),
        ] {
            for (i, key) in keys.iter().enumerate() {
                if switch(key).is_none() {
                    errors.push(FieldError::new(
                        format!("constraints.{field}[{i}]"),
                        format!("{key:?} is not a switch in the catalog"),
                    ));
                }
            }
        }
        if c.max_tiers == Some(0) {
            errors.push(FieldError::new(
                "constraints.max_tiers",
                "must be at least 1",
            ));
        }
        if let Some(g) = c.growth_target_nodes {
            if g < self.base.cluster.nodes || g > MAX_NODES {
                errors.push(FieldError::new(
                    "constraints.growth_target_nodes",
                    format!(
                        "must be between the {} nodes of the cluster and {MAX_NODES}",
                        self.base.cluster.nodes
                    ),
                ));
            }
        }
        freedoms(&mut errors, &self.freedoms);
        if !self.freedoms.tenant_isolation.is_empty() && self.base.tenants.is_empty() {
            errors.push(FieldError::new(
                "freedoms.tenant_isolation",
                "the design has no tenant to isolate",
            ));
        }
        for (i, name) in self.freedoms.fabrics.iter().enumerate() {
            if self.base.fabric(name).is_none() {
                errors.push(FieldError::new(
                    format!("freedoms.fabrics[{i}]"),
                    format!("{name:?} is not a fabric of the design"),
                ));
            }
        }
        if !(1..=MAX_CANDIDATES).contains(&self.max_candidates) {
            errors.push(FieldError::new(
                "max_candidates",
                format!("must be between 1 and {MAX_CANDIDATES}"),
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(SpecErrors(errors))
        }
    }
}

fn join(prefix: &str, path: &str) -> String {
    if path.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}.{path}")
    }
}

fn positive(errors: &mut Vec<FieldError>, path: &str, value: Option<f64>) {
    if let Some(v) = value {
        if !(v.is_finite() && v > 0.0) {
            errors.push(FieldError::new(path, format!("must be above 0, not {v}")));
        }
    }
}

fn limits(errors: &mut Vec<FieldError>, at: &str, l: &Limits) {
    if let Some(v) = l.max_slowdown_percent {
        if !(v.is_finite() && v >= 0.0) {
            errors.push(FieldError::new(
                format!("{at}.max_slowdown_percent"),
                format!("must be 0 or more, not {v}"),
            ));
        }
    }
    positive(
        errors,
        &format!("{at}.max_added_latency_ms"),
        l.max_added_latency_ms.map(Millis::millis),
    );
    positive(
        errors,
        &format!("{at}.min_read_headroom"),
        l.min_read_headroom,
    );
    if let Some(v) = l.min_goodput_percent {
        if !(v.is_finite() && v > 0.0 && v <= 100.0) {
            errors.push(FieldError::new(
                format!("{at}.min_goodput_percent"),
                format!("must be a percentage above 0 and at most 100, not {v}"),
            ));
        }
    }
}

fn freedoms(errors: &mut Vec<FieldError>, f: &Freedoms) {
    let lengths = [
        ("technologies", f.technologies.len()),
        ("port_speeds_gbps", f.port_speeds_gbps.len()),
        ("topologies", f.topologies.len()),
        ("leaf_oversubscription", f.leaf_oversubscription.len()),
        ("spine_oversubscription", f.spine_oversubscription.len()),
        ("nics_per_node", f.nics_per_node.len()),
        ("arrangements", f.arrangements.len()),
    ];
    for (field, len) in lengths {
        if len > MAX_VALUES_PER_FREEDOM {
            errors.push(FieldError::new(
                format!("freedoms.{field}"),
                format!("lists {len} values; at most {MAX_VALUES_PER_FREEDOM}"),
            ));
        }
    }
    for (i, &s) in f.port_speeds_gbps.iter().enumerate() {
        if !(s.is_finite() && s > 0.0 && s <= 3200.0) {
            errors.push(FieldError::new(
                format!("freedoms.port_speeds_gbps[{i}]"),
                format!("must be above 0 and at most 3200 Gb/s, not {s}"),
            ));
        }
    }
    for (field, values) in [
        ("leaf_oversubscription", &f.leaf_oversubscription),
        ("spine_oversubscription", &f.spine_oversubscription),
    ] {
        for (i, &v) in values.iter().enumerate() {
            if !(v.is_finite() && (1.0..=16.0).contains(&v)) {
                errors.push(FieldError::new(
                    format!("freedoms.{field}[{i}]"),
                    format!("must be between 1 and 16, not {v}"),
                ));
            }
        }
    }
    for (i, &n) in f.nics_per_node.iter().enumerate() {
        if !(1..=crate::rules::MAX_PORTS_PER_NODE).contains(&n) {
            errors.push(FieldError::new(
                format!("freedoms.nics_per_node[{i}]"),
                format!(
                    "must be between 1 and {}, not {n}",
                    crate::rules::MAX_PORTS_PER_NODE
                ),
            ));
        }
    }
}
