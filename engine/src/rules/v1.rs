//! Schema version 1: a single data-parallel training job. Read and upgraded, never written.

use crate::catalog::MODEL_PRESETS;
use crate::error::{FieldError, SpecErrors};
use crate::precision::Precision;
use crate::spec::{
    Cluster, Compute, DesignSpec, Fabric, Model, Parallelism, Role, Sharding, Training, Workload,
    SPEC_VERSION,
};
use crate::technology::Technology;
use crate::units::GigabitsPerSecond;
use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SpecV1 {
    pub schema_version: u32,
    pub title: String,
    pub training: TrainingV1,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TrainingV1 {
    pub parameters: f64,
    pub precision: Precision,
    pub gpus: u32,
    pub gpus_per_node: u32,
    pub link_gbps: f64,
}

/// Ranges of version 1, kept so that a version-1 document is judged by its own fields.
pub const MAX_V1_GPUS: u32 = 1_000_000;
pub const MAX_V1_LINK_GBPS: f64 = 3200.0;

impl SpecV1 {
    /// Every error in the version-1 fields, at their version-1 paths (`training.gpus`).
    pub fn validate(&self) -> Result<(), SpecErrors> {
        let mut errors = Vec::new();
        if let Some(why) = super::name_error(&self.title) {
            errors.push(FieldError::new("title", why));
        }
        let job = &self.training;
        positive(
            &mut errors,
            "training.parameters",
            job.parameters,
            super::MAX_PARAMETERS,
            "",
        );
        positive(
            &mut errors,
            "training.link_gbps",
            job.link_gbps,
            MAX_V1_LINK_GBPS,
            " Gb/s",
        );
        if job.gpus == 0 {
            errors.push(FieldError::new("training.gpus", "must be at least 1"));
        } else if job.gpus > MAX_V1_GPUS {
            errors.push(FieldError::new(
                "training.gpus",
                format!("must be at most {MAX_V1_GPUS}"),
            ));
        }
        if job.gpus_per_node == 0 {
            errors.push(FieldError::new(
                "training.gpus_per_node",
                "must be at least 1",
            ));
        } else if job.gpus_per_node > super::MAX_GPUS_PER_NODE {
            errors.push(FieldError::new(
                "training.gpus_per_node",
                format!("must be at most {}", super::MAX_GPUS_PER_NODE),
            ));
        } else if job.gpus > 0 && !job.gpus.is_multiple_of(job.gpus_per_node) {
            errors.push(FieldError::new(
                "training.gpus",
                format!(
                    "{} GPUs do not fill whole nodes of {} GPUs",
                    job.gpus, job.gpus_per_node
                ),
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(SpecErrors(errors))
        }
    }

    /// The same job in today's schema. Version 1 stored no GPU, model shape, fabric technology or
    /// compute: the upgrade assumes H100 nodes with one NIC per GPU, the layer count and hidden
    /// size of the model preset nearest in size, an InfiniBand fabric at the stored link speed
    /// (RoCE when the speed is not an InfiniBand one), and reports communication only.
    pub fn upgrade(self) -> DesignSpec {
        let job = self.training;
        let nearest = MODEL_PRESETS
            .iter()
            .filter(|m| m.experts == 0)
            .min_by(|a, b| {
                let distance = |p: f64| (p.max(1.0).ln() - job.parameters.max(1.0).ln()).abs();
                distance(a.parameters).total_cmp(&distance(b.parameters))
            });
        let (layers, hidden, sequence_length) = nearest
            .map(|m| (m.layers, m.hidden, m.sequence_length))
            .unwrap_or((80, 8192, 8192));
        let technology = match job.link_gbps {
            400.0 => Technology::IbNdr,
            800.0 => Technology::IbXdr,
            25.0 => Technology::Tcp25,
            s if s <= 100.0 => Technology::Roce100,
            s if s <= 200.0 => Technology::Roce200,
            s if s <= 400.0 => Technology::Roce400,
            _ => Technology::Roce800,
        };
        let nodes = job.gpus.checked_div(job.gpus_per_node).unwrap_or(0);
        DesignSpec {
            schema_version: SPEC_VERSION,
            title: self.title,
            cluster: Cluster {
                node_preset: None,
                gpu: "h100-sxm".to_string(),
                gpus_per_node: job.gpus_per_node,
                scale_up_gbytes_per_s: None,
                nics_per_node: job.gpus_per_node,
                nodes,
                growth_target_nodes: None,
            },
            workloads: vec![Workload::Training(Training {
                name: "Data-parallel training".to_string(),
                fabric: "compute".to_string(),
                model: Model {
                    preset: None,
                    parameters: job.parameters,
                    active_parameters: None,
                    layers,
                    hidden,
                    sequence_length,
                    precision: job.precision,
                    experts: 0,
                    experts_per_token: 0,
                },
                parallelism: Parallelism {
                    dp: job.gpus,
                    tp: 1,
                    pp: 1,
                    ep: 1,
                    sharding: Sharding::None,
                },
                global_batch: job.gpus,
                micro_batch: 1,
                compute: Compute::StepSeconds(0.0),
                overlap: 0.0,
                recompute: Default::default(),
                first_node: None,
            })],
            fabrics: vec![Fabric {
                name: "compute".to_string(),
                role: Role::Compute,
                technology,
                port_gbps: (job.link_gbps != technology.port_gbps())
                    .then_some(GigabitsPerSecond::new(job.link_gbps)),
                switch: None,
                topology: Default::default(),
                oversubscription: Default::default(),
                attached_nodes: None,
                ports_per_node: None,
                extra_endpoints: 0,
                cable_runs: Default::default(),
            }],
            calibration: Default::default(),
            overrides: Vec::new(),
            floor: Default::default(),
            growth: None,
            tenants: Vec::new(),
        }
    }
}

fn positive(errors: &mut Vec<FieldError>, path: &str, value: f64, max: f64, unit: &str) {
    if !value.is_finite() {
        errors.push(FieldError::new(path, "must be a finite number"));
    } else if value <= 0.0 {
        errors.push(FieldError::new(
            path,
            format!("must be greater than 0{unit}"),
        ));
    } else if value > max {
        errors.push(FieldError::new(
            path,
            format!("must be at most {max}{unit}"),
        ));
    }
}
