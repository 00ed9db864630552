//! Starting points the planner offers: the first design, new workloads and fabrics with
//! sensible values, model and node presets from the catalog, and the hybrid layout.

use engine::catalog::{model_preset, node_preset, ModelPreset};
use engine::{
    default_checkpoint_bytes, default_overlap, default_read_headroom, CableRuns, Checkpoint,
    Compute, DesignSpec, Fabric, Inference, Model, Oversubscription, Parallelism, Precision, Rag,
    Recompute, Role, Sharding, Storage, Technology, Topology, Training, Workload,
};
use engine::{Bytes, GigabytesPerSecond, Millis, Minutes, PerSecond, Seconds};

/// The design the planner opens with: the seed article's 70B training cluster, as in
/// `examples/seventy-b-training.json` (a test keeps them equal). Built in code so that the
/// browser bundle needs no spec parser.
pub fn first_design() -> DesignSpec {
    let mut spec = blank_design();
    spec.title = "Llama 3 70B training on 16 DGX H100".into();
    spec.fabrics = vec![
        fabric(Role::Compute, Technology::IbNdr, "compute"),
        Fabric {
            ports_per_node: Some(2),
            extra_endpoints: 8,
            ..fabric(Role::Storage, Technology::IbNdr, "storage")
        },
    ];
    spec.workloads = vec![
        Workload::Training(Training {
            name: "Llama 3 70B pre-training".into(),
            fabric: "compute".into(),
            model: llama_70b(),
            parallelism: Parallelism {
                dp: 16,
                tp: 8,
                pp: 1,
                ep: 1,
                sharding: Sharding::Zero1,
            },
            global_batch: 512,
            micro_batch: 1,
            compute: Compute::Mfu(0.4),
            overlap: 0.5,
            recompute: Recompute::None,
            first_node: None,
        }),
        Workload::Storage(Storage {
            name: "Training data and checkpoints".into(),
            fabric: "storage".into(),
            samples_per_step: 512.0,
            sample_bytes: Bytes::new(32768.0),
            steps_per_s: PerSecond::new(0.05),
            read_headroom: 2.5,
            checkpoint: hourly_70b_checkpoint(),
            system_read_gbytes_per_s: None,
            system_write_gbytes_per_s: Some(GigabytesPerSecond::new(62.0)),
        }),
    ];
    spec
}

/// A 70B model's checkpoint every hour, to be written within two minutes.
fn hourly_70b_checkpoint() -> Checkpoint {
    Checkpoint {
        size_gb: None,
        parameters: Some(70e9),
        bytes_per_parameter: default_checkpoint_bytes(),
        interval_minutes: Minutes::new(60.0),
        write_budget_s: Seconds::new(120.0),
    }
}

/// A design with one compute fabric and no workloads.
pub fn blank_design() -> DesignSpec {
    DesignSpec {
        schema_version: engine::SPEC_VERSION,
        title: "New design".into(),
        cluster: engine::Cluster {
            node_preset: Some("dgx-h100".into()),
            gpu: "h100-sxm".into(),
            gpus_per_node: 8,
            scale_up_gbytes_per_s: None,
            nics_per_node: 8,
            nodes: 16,
            growth_target_nodes: None,
        },
        workloads: Vec::new(),
        fabrics: vec![fabric(Role::Compute, Technology::IbNdr, "compute")],
        calibration: Default::default(),
        overrides: Vec::new(),
        floor: Default::default(),
        growth: None,
        tenants: Vec::new(),
    }
}

pub fn model_from(preset: &ModelPreset) -> Model {
    Model {
        preset: Some(preset.key.to_string()),
        parameters: preset.parameters,
        active_parameters: (preset.active_parameters != preset.parameters)
            .then_some(preset.active_parameters),
        layers: preset.layers,
        hidden: preset.hidden,
        sequence_length: preset.sequence_length,
        precision: Precision::Bf16,
        experts: preset.experts,
        experts_per_token: preset.experts_per_token,
    }
}

/// Applies model preset `key` to `model`, keeping its precision.
pub fn apply_model_preset(model: &mut Model, key: &str) {
    if let Some(preset) = model_preset(key) {
        let precision = model.precision;
        *model = model_from(preset);
        model.precision = precision;
    } else {
        model.preset = None;
    }
}

/// Applies node preset `key` to the cluster.
pub fn apply_node_preset(spec: &mut DesignSpec, key: &str) {
    match node_preset(key) {
        Some(n) => {
            let c = &mut spec.cluster;
            c.node_preset = Some(n.key.to_string());
            c.gpu = n.gpu.to_string();
            c.gpus_per_node = n.gpus_per_node;
            c.nics_per_node = n.nics_per_node;
            c.scale_up_gbytes_per_s = None;
        }
        None => spec.cluster.node_preset = None,
    }
}

fn llama_70b() -> Model {
    model_preset("llama3-70b").map(model_from).unwrap_or(Model {
        preset: None,
        parameters: 70e9,
        active_parameters: None,
        layers: 80,
        hidden: 8192,
        sequence_length: 8192,
        precision: Precision::Bf16,
        experts: 0,
        experts_per_token: 0,
    })
}

/// The first fabric of `role`, or the first fabric at all.
fn fabric_for(spec: &DesignSpec, role: Role) -> String {
    spec.fabrics
        .iter()
        .find(|f| f.role == role)
        .or(spec.fabrics.first())
        .map(|f| f.name.clone())
        .unwrap_or_default()
}

/// A new workload of `kind`, fitted to the cluster and mapped to a fabric of its kind.
pub fn workload(spec: &DesignSpec, kind: &str) -> Workload {
    let nodes = spec.cluster.nodes.max(1);
    let gpn = spec.cluster.gpus_per_node.max(1);
    match kind {
        "inference" => Workload::Inference(Inference {
            name: "Tensor-parallel serving".into(),
            fabric: fabric_for(spec, Role::Inference),
            model: llama_70b(),
            tp_nodes: nodes.min(2),
            decode_tokens: 64,
            prefill_tokens: 2048,
            target_inter_token_ms: Millis::new(50.0),
            replicas: None,
            first_node: None,
        }),
        "rag" => Workload::Rag(Rag {
            name: "Retrieval".into(),
            fabric: fabric_for(spec, Role::FrontEnd),
            queries_per_s: PerSecond::new(200.0),
            embedding_dim: 1024,
            embedding_precision: Precision::Fp32,
            top_k: 8,
            chunk_bytes: Bytes::new(2048.0),
            latency_budget_ms: Millis::new(50.0),
        }),
        "storage" => Workload::Storage(Storage {
            name: "Training data and checkpoints".into(),
            fabric: fabric_for(spec, Role::Storage),
            samples_per_step: 512.0,
            sample_bytes: Bytes::new(65536.0),
            steps_per_s: PerSecond::new(0.1),
            read_headroom: default_read_headroom(),
            checkpoint: hourly_70b_checkpoint(),
            system_read_gbytes_per_s: None,
            system_write_gbytes_per_s: None,
        }),
        _ => {
            let tp = gpn.min(8);
            let dp = (nodes * gpn / tp).max(1);
            Workload::Training(Training {
                name: "Training".into(),
                fabric: fabric_for(spec, Role::Compute),
                model: llama_70b(),
                parallelism: Parallelism {
                    dp,
                    tp,
                    pp: 1,
                    ep: 1,
                    sharding: Sharding::Zero1,
                },
                global_batch: dp * 4,
                micro_batch: 1,
                compute: Compute::Mfu(0.4),
                overlap: default_overlap(),
                recompute: Recompute::None,
                first_node: None,
            })
        }
    }
}

pub fn fabric(role: Role, technology: Technology, name: &str) -> Fabric {
    Fabric {
        name: name.to_string(),
        role,
        technology,
        port_gbps: None,
        switch: None,
        topology: if role == Role::Compute {
            Topology::RailOptimized
        } else {
            Topology::Auto
        },
        oversubscription: Oversubscription::default(),
        attached_nodes: None,
        ports_per_node: None,
        extra_endpoints: 0,
        cable_runs: CableRuns::default(),
    }
}

/// A fabric name not yet used in `spec`.
pub fn unused_fabric_name(spec: &DesignSpec, base: &str) -> String {
    (1..)
        .map(|i| {
            if i == 1 {
                base.to_string()
            } else {
                format!("{base}-{i}")
            }
        })
        .find(|name| spec.fabric(name).is_none())
        .unwrap_or_else(|| base.to_string())
}

/// The seed article's hybrid: InfiniBand for the training cluster, 100GbE for inference and
/// storage (seed C7). Replaces the fabrics and maps every workload to the one of its kind.
pub fn apply_hybrid(spec: &mut DesignSpec) {
    spec.fabrics = vec![
        fabric(Role::Compute, Technology::IbNdr, "training"),
        fabric(Role::Inference, Technology::Roce100, "inference"),
        Fabric {
            ports_per_node: Some(2),
            ..fabric(Role::Storage, Technology::Roce100, "storage")
        },
    ];
    for w in &mut spec.workloads {
        let target = match w {
            Workload::Training(_) => "training",
            Workload::Inference(_) | Workload::Rag(_) => "inference",
            Workload::Storage(_) => "storage",
        };
        match w {
            Workload::Training(t) => t.fabric = target.into(),
            Workload::Inference(i) => i.fabric = target.into(),
            Workload::Rag(r) => r.fabric = target.into(),
            Workload::Storage(s) => s.fabric = target.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_design_is_the_seventy_b_training_example() {
        let example = DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
        assert_eq!(first_design(), example);
    }

    #[test]
    fn the_first_design_and_every_new_workload_evaluate() {
        let mut spec = first_design();
        for kind in ["training", "inference", "rag", "storage"] {
            let w = workload(&spec, kind);
            spec.workloads.push(w);
        }
        engine::evaluate(&spec).unwrap();
    }

    #[test]
    fn the_hybrid_layout_maps_every_workload_to_a_fabric_of_its_kind() {
        let mut spec = first_design();
        let w = workload(&spec, "inference");
        spec.workloads.push(w);
        apply_hybrid(&mut spec);
        let report = engine::evaluate(&spec).unwrap();
        assert_eq!(report.fabrics.len(), 3);
        assert_eq!(spec.workloads[0].fabric(), "training");
        assert_eq!(spec.workloads[2].fabric(), "inference");
    }
}
