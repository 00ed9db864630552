use crate::words::counted;
use engine::{DesignSpec, Workload};
use leptos::prelude::*;

/// What a design holds, in words: cluster, workloads with their fabrics, fabrics.
pub fn design_summary(spec: &DesignSpec) -> AnyView {
    let c = &spec.cluster;
    let gpu = engine::catalog::gpu(&c.gpu).map_or(c.gpu.as_str(), |g| g.name);
    let cluster = format!(
        "{} × {} ({gpu}), {} per node",
        counted(c.nodes, "node", "nodes"),
        counted(c.gpus_per_node, "GPU", "GPUs"),
        counted(c.nics_per_node, "compute NIC", "compute NICs"),
    );
    let workloads = spec
        .workloads
        .iter()
        .map(|w| {
            let kind = workload_kind(w);
            view! { <li>{format!("{} ({kind}) on {}", w.name(), w.fabric())}</li> }
        })
        .collect_view();
    let fabrics = spec
        .fabrics
        .iter()
        .map(|f| view! { <li>{format!("{}: {} ({})", f.name, f.technology.label(), f.role.label())}</li> })
        .collect_view();
    view! {
        <dl class="summary">
            <dt>"Cluster"</dt>
            <dd id="design-cluster">{cluster}</dd>
            <dt>"Workloads"</dt>
            <dd><ul>{workloads}</ul></dd>
            <dt>"Fabrics"</dt>
            <dd><ul>{fabrics}</ul></dd>
        </dl>
    }
    .into_any()
}

/// What kind of workload `w` is, in the words of the summaries.
pub fn workload_kind(w: &Workload) -> &'static str {
    match w {
        Workload::Training(_) => "training",
        Workload::Inference(_) => "inference",
        Workload::Rag(_) => "RAG",
        Workload::Storage(_) => "storage and checkpoints",
    }
}
