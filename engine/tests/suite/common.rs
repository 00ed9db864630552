//! Spec builders shared by the engine's integration tests.
#![allow(dead_code)]

use engine::*;

pub fn llama_70b() -> Model {
    Model {
        preset: Some("llama3-70b".into()),
        parameters: 70e9,
        active_parameters: None,
        layers: 80,
        hidden: 8192,
        sequence_length: 8192,
        precision: Precision::Bf16,
        experts: 0,
        experts_per_token: 0,
    }
}

pub fn fabric(name: &str, role: Role, technology: Technology) -> Fabric {
    Fabric {
        name: name.into(),
        role,
        technology,
        port_gbps: None,
        switch: None,
        topology: Topology::Auto,
        oversubscription: Oversubscription::default(),
        attached_nodes: None,
        ports_per_node: None,
        extra_endpoints: 0,
        cable_runs: CableRuns::default(),
    }
}

pub fn dgx_h100(nodes: u32) -> Cluster {
    Cluster {
        node_preset: Some("dgx-h100".into()),
        gpu: "h100-sxm".into(),
        gpus_per_node: 8,
        scale_up_gbytes_per_s: None,
        nics_per_node: 8,
        nodes,
        growth_target_nodes: None,
    }
}

pub fn design(cluster: Cluster, workloads: Vec<Workload>, fabrics: Vec<Fabric>) -> DesignSpec {
    DesignSpec {
        schema_version: SPEC_VERSION,
        title: "test design".into(),
        cluster,
        workloads,
        fabrics,
        calibration: Calibration::default(),
        overrides: Vec::new(),
        floor: Default::default(),
        growth: None,
        tenants: Vec::new(),
    }
}

pub fn training(model: Model, dp: u32, tp: u32, pp: u32, compute: Compute) -> Training {
    Training {
        name: "training".into(),
        fabric: "compute".into(),
        model,
        parallelism: Parallelism {
            dp,
            tp,
            pp,
            ep: 1,
            sharding: Sharding::None,
        },
        global_batch: dp * 4,
        micro_batch: 1,
        compute,
        overlap: 0.5,
        recompute: Recompute::None,
        first_node: None,
    }
}

pub fn tp_inference(tp_nodes: u32, decode_tokens: u32) -> Inference {
    Inference {
        name: "serving".into(),
        fabric: "inference".into(),
        model: llama_70b(),
        tp_nodes,
        decode_tokens,
        prefill_tokens: 0,
        target_inter_token_ms: Millis::new(100.0),
        replicas: None,
        first_node: None,
    }
}

pub fn training_report(report: &Report) -> &TrainingReport {
    report
        .workloads
        .iter()
        .find_map(|w| match w {
            WorkloadReport::Training(t) => Some(t),
            _ => None,
        })
        .expect("a training workload")
}

pub fn inference_report(report: &Report) -> &InferenceReport {
    report
        .workloads
        .iter()
        .find_map(|w| match w {
            WorkloadReport::Inference(i) => Some(i),
            _ => None,
        })
        .expect("an inference workload")
}
