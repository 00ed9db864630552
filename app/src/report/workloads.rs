//! The workloads as every view shows them: one heading and one list of figures per workload,
//! which the dashboard draws with its "How" details and the report as tables. A figure's label
//! and its key (the dashboard's element id) live here and nowhere else.

use super::blocks::{chart, heading, paragraph, slug, table};
use super::Block;
use crate::charts::studies::Chart;
use engine::uncertainty::TimeInterval;
use engine::{Figure, Report, Seconds, TrainingReport, WorkloadReport};
use std::fmt::Display;

/// One figure of a workload, as shown: a key for its element id, what it means, and the
/// figure with its value already formatted with its unit.
pub struct Shown {
    pub key: &'static str,
    pub label: &'static str,
    pub figure: Figure<String>,
    /// How sure a time is ("−6 % / +9 %"): the workload's interval on the network's part.
    pub interval: Option<String>,
}

fn shown<T: Display>(key: &'static str, label: &'static str, f: &Figure<T>) -> Shown {
    Shown {
        key,
        label,
        figure: Figure {
            value: f.value.to_string(),
            formula: f.formula.clone(),
            source: f.source.clone(),
            worked: f.worked.clone(),
        },
        interval: None,
    }
}

/// How the inter-token verdict is named, wherever it shows.
pub const INTER_TOKEN_LABEL: &str = "Communication per token against the target";

/// The verdict of an inference workload's communication per token against its target
/// inter-token latency, as a figure.
pub fn inter_token_figure(i: &engine::InferenceReport) -> Figure<engine::TargetVerdict> {
    Figure::new(
        i.inter_token_verdict(),
        "communication per generated token against the target inter-token latency: every AllReduce of a token is on its critical path",
        "the design's target; Megatron-LM arXiv:1909.08053 (2 AllReduces per layer)",
    )
}

/// The heading of a workload: what it is, where it runs and at what scale.
pub fn workload_heading(w: &WorkloadReport) -> String {
    match w {
        WorkloadReport::Training(t) => format!(
            "{} (training on {}, {} over {})",
            t.name,
            t.fabric,
            crate::words::counted(t.gpus, "GPU", "GPUs"),
            crate::words::counted(t.nodes, "node", "nodes")
        ),
        WorkloadReport::Inference(i) => format!(
            "{} (inference on {}: {} tensor parallel over {} each, {} tokens in flight)",
            i.name,
            i.fabric,
            crate::words::counted(i.replicas, "replica", "replicas"),
            crate::words::counted(i.tp_nodes, "node", "nodes"),
            crate::words::number(i.tokens_in_flight)
        ),
        WorkloadReport::Rag(r) => format!("{} (RAG on {})", r.name, r.fabric),
        WorkloadReport::Storage(s) => format!("{} (storage on {})", s.name, s.fabric),
    }
}

/// What a workload's figures are about, as their table's caption says after its name.
fn figures_topic(w: &WorkloadReport) -> &'static str {
    match w {
        WorkloadReport::Training(_) => "step time",
        WorkloadReport::Inference(_) => "latency",
        WorkloadReport::Rag(_) => "retrieval",
        WorkloadReport::Storage(_) => "reads and checkpoints",
    }
}

/// Every figure of a workload, in reading order; its times with their `interval` where the
/// workload has one.
pub fn workload_figures(w: &WorkloadReport, interval: Option<&TimeInterval>) -> Vec<Shown> {
    // A time of which `network` is the network's part, with its interval.
    let timed = |key, label, f: &Figure<Seconds>, network: Seconds| Shown {
        interval: interval.map(|i| i.percent_around(f.value, network)),
        ..shown(key, label, f)
    };
    match w {
        WorkloadReport::Training(t) => {
            let exposed = t.exposed_communication.value;
            let mut figures = vec![
                timed("step-time", "Step time", &t.step_time, exposed),
                shown("compute-time", "Compute per step", &t.compute_time),
                timed(
                    "communication-time",
                    "Communication per step",
                    &t.communication_time,
                    t.communication_time.value,
                ),
                timed(
                    "exposed-communication",
                    "Exposed communication",
                    &t.exposed_communication,
                    exposed,
                ),
                shown(
                    "ideal-step-time",
                    "Step on an ideal network",
                    &t.ideal_step_time,
                ),
            ];
            if let Some(s) = &t.slowdown {
                figures.push(shown("slowdown", "Slowdown from the network", s));
            }
            figures.push(shown(
                "gradient-bytes",
                "Gradients per GPU",
                &t.gradient_bytes_per_gpu,
            ));
            figures.push(shown(
                "bytes-per-step",
                "Data-parallel bytes each GPU sends per step",
                &t.bytes_per_gpu_per_step,
            ));
            if let Some(m) = &t.memory {
                figures.extend([
                    shown("memory-total", "Memory per GPU", &m.total),
                    shown("memory-usable", "Memory a GPU offers", &m.usable),
                    shown("memory-weights", "Weights per GPU", &m.weights),
                    shown("memory-gradients", "Gradients held per GPU", &m.gradients),
                    shown(
                        "memory-optimizer",
                        "Optimizer states per GPU",
                        &m.optimizer_states,
                    ),
                    shown("memory-activations", "Activations per GPU", &m.activations),
                ]);
            }
            figures
        }
        WorkloadReport::Inference(i) => vec![
            shown("allreduce-bytes", "AllReduce message", &i.allreduce_bytes),
            timed(
                "per-layer-time",
                "Communication per layer",
                &i.per_layer_time,
                i.per_layer_time.value,
            ),
            timed(
                "per-token-time",
                "Communication per token",
                &i.communication_per_token,
                i.communication_per_token.value,
            ),
            // What the network adds moves by all of the communication's error.
            timed(
                "added-per-token",
                "Added by the network per token",
                &i.network_added_per_token,
                i.communication_per_token.value,
            ),
            shown(
                "prefill-time",
                "Communication per prefill pass",
                &i.prefill_communication,
            ),
            shown("target-itl", INTER_TOKEN_LABEL, &inter_token_figure(i)),
        ],
        WorkloadReport::Rag(r) => vec![
            shown("rag-bytes", "Bytes per query", &r.bytes_per_query),
            shown("rag-bandwidth", "Bandwidth", &r.bandwidth),
            shown(
                "rag-time",
                "Network time per query",
                &r.network_time_per_query,
            ),
            shown(
                "rag-share",
                "Share of the latency budget",
                &r.share_of_budget,
            ),
            shown(
                "rag-utilisation",
                "Vector database port utilisation",
                &r.vector_db_port_utilisation,
            ),
        ],
        WorkloadReport::Storage(s) => vec![
            shown("read-needed", "Read rate needed", &s.read_needed),
            shown(
                "read-provisioned",
                "Read rate provisioned",
                &s.read_provisioned,
            ),
            shown("read-available", "Read rate available", &s.read_available),
            shown("read-headroom", "Read headroom", &s.read_headroom),
            shown("checkpoint-size", "Checkpoint size", &s.checkpoint_size),
            shown(
                "checkpoint-time",
                "Checkpoint write time",
                &s.checkpoint_write_time,
            ),
            shown(
                "checkpoint-overhead",
                "Time spent checkpointing",
                &s.checkpoint_overhead,
            ),
        ],
    }
}

/// A figure as a row: label, value, formula, source.
fn figure_row(s: &Shown) -> Vec<String> {
    let f = &s.figure;
    let formula = match &f.worked {
        Some(worked) => format!("{}: {worked}", f.formula),
        None => f.formula.to_string(),
    };
    vec![
        s.label.to_string(),
        match &s.interval {
            Some(i) => format!("{} ({i})", f.value),
            None => f.value.clone(),
        },
        formula,
        f.source.to_string(),
    ]
}

/// The collectives of one training step, each time with its `interval` where the job has one.
pub fn collectives_table(t: &TrainingReport, interval: Option<&TimeInterval>) -> Block {
    let rows = t
        .collectives
        .iter()
        .filter(|c| c.time.seconds() > 0.0 || c.bytes_per_gpu.bytes() > 0.0)
        .map(|c| {
            vec![
                c.what.to_string(),
                c.label(),
                c.bytes_per_gpu.to_string(),
                c.network_bytes_per_node.to_string(),
                // The bands are of runs across nodes: a collective inside the node has none.
                match interval
                    .filter(|_| c.time.seconds() > 0.0 && c.network_bytes_per_node.bytes() > 0.0)
                {
                    Some(i) => format!(
                        "{} ({})",
                        c.time,
                        i.percent_for_message(c.time, c.bytes_per_gpu)
                    ),
                    None => c.time.to_string(),
                },
            ]
        })
        .collect();
    Block::Table(table(
        format!("{}: collectives per step", t.name),
        &[
            ("What", false),
            ("Algorithm", false),
            ("Per GPU", true),
            ("Into the network per node", true),
            ("Time", true),
        ],
        rows,
    ))
}

/// A section of the workloads that are (or are not) storage workloads, each in full, or
/// `empty` when there are none.
fn section(blocks: &mut Vec<Block>, report: &Report, storage: bool, empty: &str) {
    let chosen: Vec<_> = report
        .workloads
        .iter()
        .filter(|w| matches!(w, WorkloadReport::Storage(_)) == storage)
        .collect();
    if chosen.is_empty() {
        blocks.push(paragraph(empty));
    }
    for w in chosen {
        let interval = report.uncertainty.iter().find(|i| i.workload == w.name());
        workload(blocks, w, interval);
    }
}

/// The training, inference and RAG workloads.
pub(super) fn workloads(blocks: &mut Vec<Block>, report: &Report) {
    blocks.push(heading(1, "workloads", "Workload results"));
    section(
        blocks,
        report,
        false,
        "The design has no training, inference or RAG workload.",
    );
}

/// One workload: its heading, its figures with formula and source, and for training its
/// collectives.
pub(super) fn workload(
    blocks: &mut Vec<Block>,
    w: &WorkloadReport,
    interval: Option<&TimeInterval>,
) {
    blocks.push(heading(2, slug("workload", w.name()), workload_heading(w)));
    blocks.push(Block::Table(table(
        format!("{}: {}", w.name(), figures_topic(w)),
        &[
            ("Figure", false),
            ("Value", true),
            ("Formula", false),
            ("Source", false),
        ],
        workload_figures(w, interval)
            .iter()
            .map(figure_row)
            .collect(),
    )));
    if let WorkloadReport::Training(t) = w {
        blocks.push(collectives_table(t, interval));
    }
}

/// The storage workloads, and the checkpoint charts among the what-ifs.
pub(super) fn storage(blocks: &mut Vec<Block>, report: &Report, whatifs: Vec<Chart>) {
    blocks.push(heading(1, "storage", "Storage and checkpoints"));
    section(
        blocks,
        report,
        true,
        "The design has no storage workload: training-data reads and checkpoints are not sized.",
    );
    for c in whatifs
        .into_iter()
        .filter(|c| c.id.starts_with("chart-checkpoints"))
    {
        blocks.push(chart(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each time the network moves reads with its interval beside it; the compute does not.
    #[test]
    fn each_communication_and_step_time_carries_its_interval() {
        let spec = engine::DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
        let report = engine::evaluate(&spec).unwrap();
        let interval = &engine::uncertainty::intervals(&spec, &report)[0];
        let figures = workload_figures(&report.workloads[0], Some(interval));
        let of = |key: &str| figures.iter().find(|s| s.key == key).unwrap();
        assert_eq!(
            of("step-time").interval.as_deref(),
            Some(interval.percent().as_str())
        );
        let communication = of("communication-time").interval.clone().unwrap();
        assert!(communication.starts_with('−') && communication.contains("% / +"));
        assert_eq!(of("compute-time").interval, None);
        let row = figure_row(of("step-time"));
        assert_eq!(
            row[1],
            format!("{} ({})", interval.value, interval.percent())
        );
        assert!(workload_figures(&report.workloads[0], None)
            .iter()
            .all(|s| s.interval.is_none()));
        // Each collective's time with the band of its own message.
        let WorkloadReport::Training(t) = &report.workloads[0] else {
            panic!("a training job")
        };
        let Block::Table(table) = collectives_table(t, Some(interval)) else {
            panic!("a table")
        };
        // Each row of a collective across nodes; one inside the node has no band of its own.
        let shown = t
            .collectives
            .iter()
            .filter(|c| c.time.seconds() > 0.0 || c.bytes_per_gpu.bytes() > 0.0);
        for (row, c) in table.rows.iter().zip(shown) {
            if c.network_bytes_per_node.bytes() == 0.0 {
                assert_eq!(row[4], c.time.to_string());
                continue;
            }
            let band = engine::uncertainty::band_of(c.bytes_per_gpu);
            let expected = format!(
                "{} (−{:.0} % / +{:.0} %)",
                c.time,
                (1.0 - band.low) * 100.0,
                (band.high - 1.0) * 100.0
            );
            assert_eq!(row[4], expected);
        }
    }
}
