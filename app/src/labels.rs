//! The form's own words for every field: the wizard's labels, and how a message about a field
//! names it. Field paths (`workloads[0].parallelism.dp`) stay in the JSON.

use engine::{Calibration, CalibrationSource, DesignSpec, Isolation};

/// A field's label, by its path without the list index (`parallelism.dp` for any workload).
static LABELS: &[(&str, &str)] = &[
    ("title", "Design title"),
    // The search's form: what a search request's fields are called there.
    ("constraints.max_cost_usd", "Network budget, USD"),
    ("constraints.max_power_w", "Network power"),
    ("constraints.max_tiers", "Most switch tiers"),
    (
        "constraints.growth_target_nodes",
        "Grow to, nodes, without re-cabling",
    ),
    (
        "freedoms.leaf_oversubscription",
        "Leaf oversubscriptions to try",
    ),
    ("freedoms.nics_per_node", "NICs per node to try"),
    ("cluster.node_preset", "Node type"),
    ("cluster.gpu", "GPU"),
    ("cluster.gpus_per_node", "GPUs per node"),
    ("cluster.nics_per_node", "Compute NICs per node"),
    ("cluster.nodes", "Nodes"),
    ("cluster.growth_target_nodes", "Grow to (nodes)"),
    ("cluster.scale_up_gbytes_per_s", "Scale-up bandwidth"),
    ("name", "Name"),
    ("fabric", "Carried by fabric"),
    ("model", "Model"),
    ("model.preset", "Model"),
    ("model.precision", "Precision"),
    ("model.parameters", "Parameters"),
    ("model.active_parameters", "Active parameters"),
    ("model.layers", "Layers"),
    ("model.hidden", "Hidden size"),
    ("model.sequence_length", "Sequence length"),
    ("model.experts", "Experts"),
    ("model.experts_per_token", "Experts per token"),
    ("parallelism", "Parallelism (DP × TP × PP)"),
    ("parallelism.dp", "Data parallel (DP)"),
    ("parallelism.tp", "Tensor parallel (TP)"),
    ("parallelism.pp", "Pipeline parallel (PP)"),
    ("parallelism.ep", "Expert parallel (EP)"),
    ("parallelism.sharding", "Sharding"),
    ("global_batch", "Global batch"),
    ("micro_batch", "Micro-batch"),
    ("compute", "Compute"),
    ("compute.mfu", "Model FLOPs utilisation"),
    ("overlap", "Compute/communication overlap"),
    ("recompute", "Activation recomputation"),
    ("tp_nodes", "Nodes per tensor-parallel group"),
    ("replicas", "Replicas"),
    ("first_node", "Runs from node"),
    ("decode_tokens", "Tokens in flight per decode step"),
    ("prefill_tokens", "Prefill tokens per forward pass"),
    ("target_inter_token_ms", "Target inter-token latency"),
    ("queries_per_s", "Queries"),
    ("embedding_dim", "Embedding dimension"),
    ("embedding_precision", "Embedding precision"),
    ("top_k", "Chunks per query (top-k)"),
    ("chunk_bytes", "Chunk size"),
    ("latency_budget_ms", "Retrieval latency budget"),
    ("samples_per_step", "Samples per step"),
    ("sample_bytes", "Sample size"),
    ("steps_per_s", "Steps"),
    ("read_headroom", "Read headroom"),
    ("checkpoint", "Checkpoint"),
    ("checkpoint.size_gb", "Checkpoint size"),
    ("checkpoint.parameters", "Checkpoint of a model of"),
    (
        "checkpoint.bytes_per_parameter",
        "Checkpoint bytes per parameter",
    ),
    ("checkpoint.interval_minutes", "Checkpoint every"),
    ("checkpoint.write_budget_s", "Write budget"),
    ("system_read_gbytes_per_s", "Storage system read"),
    ("system_write_gbytes_per_s", "Storage system write"),
    ("role", "Role"),
    ("technology", "Technology"),
    ("switch", "Switch"),
    ("topology", "Topology"),
    ("port_gbps", "Port speed"),
    ("oversubscription", "Oversubscription"),
    ("oversubscription.leaf", "Leaf oversubscription"),
    ("oversubscription.spine", "Spine oversubscription"),
    ("attached_nodes", "Nodes attached"),
    ("ports_per_node", "Ports per node"),
    ("extra_endpoints", "Other endpoints"),
    ("cable_runs.node_leaf_m", "Node to leaf"),
    ("cable_runs.leaf_spine_m", "Leaf to spine"),
    ("cable_runs.spine_core_m", "Spine to core"),
    ("floor.nodes_per_rack", "GPU nodes per rack"),
    ("floor.racks_per_row", "Compute racks per row"),
    ("floor.rows", "Rows of compute racks"),
    ("floor.node_power_kw", "Power of one node"),
    ("floor.node_rack_units", "Height of one node"),
    ("floor.leaves", "Leaves"),
    ("floor.spines", "Spines and cores"),
    ("floor.switch_racks", "Network racks"),
    ("floor.rack_power_kw", "Power one rack may draw"),
    ("floor.rack_units", "Rack height"),
    ("floor.feeds", "Feeds"),
    ("floor.cooling", "Cooling"),
    ("floor.air_limit_kw", "Air cooling limit per rack"),
    ("floor.pue", "Power usage effectiveness"),
    ("floor.row_pitch_m", "Row pitch"),
    ("floor.rack_width_m", "Rack width"),
    ("floor.tray_height_m", "Tray above the racks"),
    ("floor.slack_percent", "Slack on every cable"),
    ("calibration.source", "Calibration from"),
    ("calibration.scale_up_efficiency", "Scale-up efficiency"),
    ("calibration.ll_base_latency_us", "LL protocol base latency"),
    (
        "calibration.ll_scale_up_hop_latency_us",
        "LL protocol NVLink hop latency",
    ),
    (
        "calibration.ll_network_hop_latency_us",
        "LL protocol network hop latency",
    ),
    (
        "calibration.ll_bandwidth_share",
        "LL protocol share of the bandwidth",
    ),
    (
        "calibration.ll128_base_latency_us",
        "LL128 protocol base latency",
    ),
    (
        "calibration.ll128_scale_up_hop_latency_us",
        "LL128 protocol NVLink hop latency",
    ),
    (
        "calibration.ll128_network_hop_latency_us",
        "LL128 protocol network hop latency",
    ),
    (
        "calibration.ll128_bandwidth_share",
        "LL128 protocol share of the bandwidth",
    ),
    ("calibration.nvls", "NVLink SHARP (NVLS)"),
    ("calibration.nvls_efficiency", "NVLS efficiency"),
    ("calibration.nvls_latency_us", "NVLS latency"),
    (
        "calibration.in_network_reduction",
        "In-network reduction (SHARP)",
    ),
    (
        "calibration.in_network_efficiency",
        "In-network reduction efficiency",
    ),
    (
        "calibration.in_network_latency_us",
        "In-network reduction latency",
    ),
    (
        "calibration.qps_per_connection",
        "Queue pairs per connection",
    ),
    (
        "calibration.ethernet_load_balancing",
        "Ethernet load balancing",
    ),
    ("growth.policy", "How the fabric grows"),
    ("unit_price_usd", "Your unit price"),
    ("power_w", "Your power per unit"),
];

/// Splits `workloads[2].parallelism.dp` into the list, the index and the rest.
fn in_list(path: &str) -> Option<(&str, usize, &str)> {
    let (list, rest) = path.split_once('[')?;
    let (index, rest) = rest.split_once(']')?;
    let index = index.parse().ok()?;
    Some((list, index, rest.strip_prefix('.').unwrap_or(rest)))
}

/// The label of the field at `path`, whatever list entry it is in.
pub fn label(path: &str) -> String {
    let key = in_list(path).map_or(path, |(_, _, rest)| rest);
    if let Some(field) = key.strip_prefix("calibration.") {
        if let Some(f) = engine::CALIBRATION_FIELDS.iter().find(|f| f.field == field) {
            return f.label.to_string();
        }
    }
    match LABELS.iter().find(|(k, _)| *k == key) {
        Some((_, label)) => (*label).to_string(),
        // A field the form does not show: its last word, in words.
        None => {
            let last = key.rsplit('.').next().unwrap_or(key);
            let words = last.trim_end_matches(|c: char| c == ']' || c.is_ascii_digit());
            let words = words.replace('_', " ");
            let mut chars = words.chars();
            match chars.next() {
                // Keys are ASCII: ASCII case keeps Unicode's case tables out of the bundle.
                Some(first) => format!("{}{}", first.to_ascii_uppercase(), chars.as_str()),
                None => "The design".to_string(),
            }
        }
    }
}

/// Names the field at `path` as the form shows it: the workload or fabric it belongs to, then
/// its label ("Workload “Llama 3 70B pre-training” · Data parallel (DP)").
pub fn field_name(spec: &DesignSpec, path: &str) -> String {
    if path.is_empty() {
        return "The design".to_string();
    }
    let Some((list, index, rest)) = in_list(path) else {
        return label(path);
    };
    let entry = match list {
        "workloads" => spec
            .workloads
            .get(index)
            .map(|w| format!("Workload “{}”", w.name())),
        "fabrics" => spec
            .fabrics
            .get(index)
            .map(|f| format!("Fabric “{}”", f.name)),
        "growth.phases" => spec
            .growth
            .as_ref()
            .and_then(|g| g.phases.get(index))
            .map(|p| format!("Phase “{}”", p.label)),
        "tenants" => spec
            .tenants
            .get(index)
            .map(|t| format!("Tenant “{}”", t.name)),
        _ => None,
    }
    .unwrap_or_else(|| {
        // A list the form asks for as one field (the search's choices to try): that field.
        if let Some((_, words)) = LABELS.iter().find(|(k, _)| *k == list) {
            return (*words).to_string();
        }
        let kind = match list {
            "workloads" => "Workload",
            "fabrics" => "Fabric",
            "overrides" => "Quote",
            "growth.phases" => "Phase",
            other => other.trim_end_matches('s'),
        };
        format!("{kind} {}", index + 1)
    });
    if rest.is_empty() {
        entry
    } else {
        format!("{entry} · {}", label(path))
    }
}

/// A message about a field, in the form's words.
pub fn describe(spec: &DesignSpec, error: &engine::FieldError) -> String {
    format!("{}: {}", field_name(spec, &error.path), error.reason)
}

/// Isolation levels as the forms name them: the spec's own names.
pub const ISOLATIONS: [(Isolation, &str); 4] = [
    (Isolation::Shared, "shared"),
    (Isolation::Node, "node"),
    (Isolation::ScalableUnit, "scalable_unit"),
    (Isolation::Fabric, "fabric"),
];

/// Where a calibration comes from, in words: "the defaults, each from its published source".
pub fn calibration_source(c: &Calibration) -> String {
    match c.source() {
        CalibrationSource::Defaults => "the defaults, each from its published source".into(),
        CalibrationSource::TypedIn => "values typed in".into(),
        CalibrationSource::Fitted(f) => f.summary(),
        CalibrationSource::FittedThenChanged(f) => format!("{}, then changed by hand", f.summary()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_names_the_workload_and_the_label_never_the_path() {
        let spec = crate::templates::first_design();
        let error = engine::FieldError::new("workloads[0].parallelism.dp", "must be at least 1");
        assert_eq!(
            describe(&spec, &error),
            "Workload “Llama 3 70B pre-training” · Data parallel (DP): must be at least 1"
        );
        assert_eq!(field_name(&spec, "cluster.nodes"), "Nodes");
        assert_eq!(
            field_name(&spec, "fabrics[1].port_gbps"),
            "Fabric “storage” · Port speed"
        );
        assert_eq!(field_name(&spec, "workloads[7]"), "Workload 8");
        // The search's fields, as its form calls them.
        assert_eq!(
            field_name(&spec, "freedoms.leaf_oversubscription[0]"),
            "Leaf oversubscriptions to try"
        );
        assert_eq!(
            field_name(&spec, "constraints.max_cost_usd"),
            "Network budget, USD"
        );
        let mut grown = spec.clone();
        grown.growth = Some(engine::Growth {
            policy: engine::GrowthPolicy::AsNeeded,
            phases: vec![engine::Phase {
                label: "Year 1".into(),
                date: None,
                nodes: 8,
            }],
        });
        assert_eq!(
            field_name(&grown, "growth.phases[0].nodes"),
            "Phase “Year 1” · Nodes"
        );
    }

    #[test]
    fn every_path_the_engine_names_reads_as_words() {
        for path in [
            "floor.rack_width_m",
            "overrides[3].price_usd",
            "growth.phases[1].nodes",
            "growth.policy",
            "",
        ] {
            let name = field_name(&crate::templates::first_design(), path);
            assert!(!name.contains(['[', '.', '_']), "{path} → {name}");
        }
    }
}
