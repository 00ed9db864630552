use super::FigureRow;
use engine::DataParallelReport;
use leptos::prelude::*;

/// The communication of a data-parallel training job, per step, as the engine computed it.
#[component]
pub fn TrainingResults(report: DataParallelReport) -> AnyView {
    let network_note = if report.crosses_network {
        format!(
            "The ring spans {} nodes, so every step's gradients cross the network at {} per GPU.",
            report.nodes, report.link_rate
        )
    } else {
        "All GPUs sit in one node: the AllReduce runs over NVLink and the network is not on the critical path."
            .to_string()
    };
    view! {
        <table class="results">
            <caption>"Ring AllReduce of the gradients, once per training step"</caption>
            <tbody>
                <FigureRow label="Gradients per GPU (model size on the wire)" figure=report.gradient_bytes id="gradient-bytes"/>
                <FigureRow label="Data each GPU sends per step" figure=report.bytes_per_gpu_per_step id="bytes-per-step"/>
                <FigureRow label="Bandwidth time per step" figure=report.bandwidth_time id="bandwidth-time"/>
                <FigureRow label="Latency time per step" figure=report.latency_time id="latency-time"/>
                <FigureRow label="AllReduce time per step" figure=report.allreduce_time id="allreduce-time"/>
            </tbody>
        </table>
        <p class="note" id="network-note">{network_note}</p>
    }
    .into_any()
}
