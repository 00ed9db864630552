use crate::components::FigureRow;
use engine::{Figure, InferenceReport, WorkloadReport};
use leptos::prelude::*;

/// How the inter-token verdict is named, wherever it shows.
pub const INTER_TOKEN_LABEL: &str = "Communication per token against the target";

/// The verdict of an inference workload's communication per token against its target
/// inter-token latency, as a figure.
pub fn inter_token_figure(i: &InferenceReport) -> Figure<engine::TargetVerdict> {
    Figure::new(
        i.inter_token_verdict(),
        "communication per generated token against the target inter-token latency: every AllReduce of a token is on its critical path",
        "the design's target; Megatron-LM arXiv:1909.08053 (2 AllReduces per layer)",
    )
}

/// The heading of an inference workload: what serves it, and how.
pub fn inference_heading(i: &InferenceReport) -> String {
    format!(
        "{} (inference on {}: {} replica{} tensor parallel over {} node{} each, {} tokens in flight)",
        i.name,
        i.fabric,
        i.replicas,
        if i.replicas == 1 { "" } else { "s" },
        i.tp_nodes,
        if i.tp_nodes == 1 { "" } else { "s" },
        i.tokens_in_flight
    )
}

/// Every figure of one workload with its formula and source ("show your work").
#[component]
pub fn WorkloadDetail(report: WorkloadReport, index: usize) -> AnyView {
    let id = format!("workload-report-{index}");
    match report {
        WorkloadReport::Training(t) => {
            let collectives = t
                .collectives
                .iter()
                .filter(|c| c.time.0 > 0.0 || c.bytes_per_gpu.0 > 0.0)
                .map(|c| {
                    view! {
                        <tr>
                            <th scope="row">{c.what.to_string()}</th>
                            <td>{c.label()}</td>
                            <td class="num">{c.bytes_per_gpu.to_string()}</td>
                            <td class="num">{c.network_bytes_per_node.to_string()}</td>
                            <td class="num">{c.time.to_string()}</td>
                        </tr>
                    }
                })
                .collect_view();
            let slowdown = t.slowdown.clone();
            view! {
                <article class="workload-report" id=id>
                    <h3>{format!("{} (training on {}, {} GPUs over {} nodes)", t.name, t.fabric, t.gpus, t.nodes)}</h3>
                    <table class="results">
                        <tbody>
                            <FigureRow label="Step time" figure=t.step_time id=format!("w{index}-step-time")/>
                            <FigureRow label="Compute per step" figure=t.compute_time id=format!("w{index}-compute-time")/>
                            <FigureRow label="Communication per step" figure=t.communication_time id=format!("w{index}-communication-time")/>
                            <FigureRow label="Exposed communication" figure=t.exposed_communication id=format!("w{index}-exposed-communication")/>
                            <FigureRow label="Step on an ideal network" figure=t.ideal_step_time id=format!("w{index}-ideal-step-time")/>
                            {slowdown.map(|s| view! { <FigureRow label="Slowdown from the network" figure=s id=format!("w{index}-slowdown")/> })}
                            <FigureRow label="Gradients per GPU" figure=t.gradient_bytes_per_gpu id=format!("w{index}-gradient-bytes")/>
                            <FigureRow label="Data-parallel bytes each GPU sends per step" figure=t.bytes_per_gpu_per_step id=format!("w{index}-bytes-per-step")/>
                        </tbody>
                    </table>
                    <table class="collectives">
                        <caption>"Collectives per step"</caption>
                        <thead><tr><th scope="col">"What"</th><th scope="col">"Algorithm"</th><th scope="col" class="num">"Per GPU"</th><th scope="col" class="num">"Into the network per node"</th><th scope="col" class="num">"Time"</th></tr></thead>
                        <tbody>{collectives}</tbody>
                    </table>
                </article>
            }
            .into_any()
        }
        WorkloadReport::Inference(i) => {
            let target = inter_token_figure(&i);
            let over = !i.inter_token_verdict().meets;
            view! {
                <article class="workload-report" id=id class:over-target=over>
                    <h3>{inference_heading(&i)}</h3>
                    <table class="results">
                        <tbody>
                            <FigureRow label="AllReduce message" figure=i.allreduce_bytes id=format!("w{index}-allreduce-bytes")/>
                            <FigureRow label="Communication per layer" figure=i.per_layer_time id=format!("w{index}-per-layer-time")/>
                            <FigureRow label="Communication per token" figure=i.communication_per_token id=format!("w{index}-per-token-time")/>
                            <FigureRow label="Added by the network per token" figure=i.network_added_per_token id=format!("w{index}-added-per-token")/>
                            <FigureRow label="Communication per prefill pass" figure=i.prefill_communication id=format!("w{index}-prefill-time")/>
                            <FigureRow label=INTER_TOKEN_LABEL figure=target id=format!("w{index}-target-itl")/>
                        </tbody>
                    </table>
                </article>
            }
            .into_any()
        }
        WorkloadReport::Rag(r) => view! {
            <article class="workload-report" id=id>
                <h3>{format!("{} (RAG on {})", r.name, r.fabric)}</h3>
                <table class="results">
                    <tbody>
                        <FigureRow label="Bytes per query" figure=r.bytes_per_query id=format!("w{index}-rag-bytes")/>
                        <FigureRow label="Bandwidth" figure=r.bandwidth id=format!("w{index}-rag-bandwidth")/>
                        <FigureRow label="Network time per query" figure=r.network_time_per_query id=format!("w{index}-rag-time")/>
                        <FigureRow label="Share of the latency budget" figure=r.share_of_budget id=format!("w{index}-rag-share")/>
                        <FigureRow label="Vector database port utilisation" figure=r.vector_db_port_utilisation id=format!("w{index}-rag-utilisation")/>
                    </tbody>
                </table>
            </article>
        }
        .into_any(),
        WorkloadReport::Storage(s) => view! {
            <article class="workload-report" id=id>
                <h3>{format!("{} (storage on {})", s.name, s.fabric)}</h3>
                <table class="results">
                    <tbody>
                        <FigureRow label="Read rate needed" figure=s.read_needed id=format!("w{index}-read-needed")/>
                        <FigureRow label="Read rate provisioned" figure=s.read_provisioned id=format!("w{index}-read-provisioned")/>
                        <FigureRow label="Read rate available" figure=s.read_available id=format!("w{index}-read-available")/>
                        <FigureRow label="Read headroom" figure=s.read_headroom id=format!("w{index}-read-headroom")/>
                        <FigureRow label="Checkpoint size" figure=s.checkpoint_size id=format!("w{index}-checkpoint-size")/>
                        <FigureRow label="Checkpoint write time" figure=s.checkpoint_write_time id=format!("w{index}-checkpoint-time")/>
                        <FigureRow label="Time spent checkpointing" figure=s.checkpoint_overhead id=format!("w{index}-checkpoint-overhead")/>
                    </tbody>
                </table>
            </article>
        }
        .into_any(),
    }
}
