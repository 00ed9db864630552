use super::FigureRow;
use crate::form::training_report;
use engine::{Figure, Report, Seconds};
use leptos::prelude::*;

/// The communication of a data-parallel training job, per step, and the fabric that carries
/// it, as the engine computed them.
#[component]
pub fn TrainingResults(report: Report) -> AnyView {
    let Some(job) = training_report(&report).cloned() else {
        return view! { <p>"This design has no training workload."</p> }.into_any();
    };
    let fabric = report.fabrics.first().cloned();
    let network_note = match &fabric {
        Some(f) if job.nodes > 1 => format!(
            "The ring spans {} nodes: every step's gradients cross the {} fabric ({} per GPU).",
            job.nodes,
            f.technology.label(),
            f.port_rate
        ),
        _ => "All GPUs sit in one node: the AllReduce runs over NVLink and the network is not on the critical path."
            .to_string(),
    };
    let data_parallel = job.collectives.first().cloned();
    let allreduce_time = Figure::new(
        data_parallel
            .as_ref()
            .map(|c| c.time)
            .unwrap_or(Seconds(0.0)),
        format!(
            "{} algorithm: 2(n−1)/n × S over min(NVLink, node network), plus NCCL-like latency",
            data_parallel
                .as_ref()
                .map(|c| c.algorithm.label())
                .unwrap_or("no")
        ),
        "DOMAIN.md A1-A3; NCCL tuning.cc",
    );
    let network_per_node = Figure::new(
        job.network_bytes_per_node_per_step,
        "the share of the ring's bytes that leaves each node: (k−1)/(n−1) of its hops",
        "DOMAIN.md A3",
    );
    let sizing = fabric.map(|f| {
        view! {
            <table class="results">
                <caption>{format!("{} fabric, {}", f.technology.label(), f.plan.layout.label())}</caption>
                <tbody>
                    <tr><th scope="row">"Switches"</th><td class="figure" id="switches">{f.plan.switches()}</td><td class="work">{f.plan.reason.clone()}</td></tr>
                    <tr><th scope="row">"Cables"</th><td class="figure" id="cables">{f.plan.node_leaf_links + f.plan.leaf_spine_links + f.plan.spine_core_links}</td><td class="work">"node-leaf, leaf-spine and spine-core links"</td></tr>
                    <tr><th scope="row">"Network cost per GPU"</th><td class="figure" id="cost-per-gpu">{format!("${:.0}", report.totals.cost_per_gpu_usd)}</td><td class="work">"switches, cables and optics; catalog estimates"</td></tr>
                </tbody>
            </table>
        }
    });
    view! {
        <table class="results">
            <caption>"Gradient AllReduce, once per training step"</caption>
            <tbody>
                <FigureRow label="Gradients per GPU (model size on the wire)" figure=job.gradient_bytes_per_gpu id="gradient-bytes"/>
                <FigureRow label="Data each GPU sends per step" figure=job.bytes_per_gpu_per_step id="bytes-per-step"/>
                <FigureRow label="Data each node sends into the network" figure=network_per_node id="network-bytes"/>
                <FigureRow label="AllReduce time per step" figure=allreduce_time id="allreduce-time"/>
            </tbody>
        </table>
        <p class="note" id="network-note">{network_note}</p>
        {sizing}
    }
    .into_any()
}
