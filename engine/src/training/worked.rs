//! A training step's formulas worked with the design's values, for the report's "how".

use super::{gradient_bytes_per_rank, microbatches, recompute_factor, StepTraffic};
use crate::catalog::Gpu;
use crate::collective::{Algorithm, Cost};
use crate::spec::{Compute, Sharding, Training};
use crate::units::Seconds;
use crate::worked::{Count, FlopRate};

/// "(70.0 billion + 0 ÷ ep 1) parameters ÷ (tp 8 × pp 1) × 2 B".
pub fn gradient_bytes(w: &Training) -> String {
    let m = &w.model;
    let p = &w.parallelism;
    let experts_only = (m.parameters - m.active()).max(0.0);
    let held = if experts_only > 0.0 {
        format!(
            "({} + {} ÷ ep {}) parameters",
            Count(m.active()),
            Count(experts_only),
            p.ep
        )
    } else {
        format!("{} parameters", Count(m.active()))
    };
    format!(
        "{held} ÷ (tp {} × pp {}) × {} B",
        p.tp,
        p.pp,
        m.precision.bytes_per_element()
    )
}

/// "2 × (64 − 1)/64 × 17.5 GB (ring)": the ring's factor spelled out, any other algorithm's
/// as the multiple of the gradients it sends.
pub fn data_parallel_bytes(w: &Training, data_parallel: &Cost) -> String {
    let gradients = gradient_bytes_per_rank(w);
    let dp = w.parallelism.dp;
    let label = data_parallel.algorithm.label();
    let passes = match w.parallelism.sharding {
        Sharding::None | Sharding::Zero1 | Sharding::Zero2 => Some(2),
        Sharding::Zero3 => Some(3),
        Sharding::FsdpHybrid => None,
    };
    match passes {
        Some(passes) if data_parallel.algorithm == Algorithm::Ring => {
            format!("{passes} × ({dp} − 1)/{dp} × {gradients} ({label})")
        }
        _ if data_parallel.algorithm == Algorithm::None || gradients.bytes() <= 0.0 => {
            format!("no data-parallel exchange (dp {dp}): 0 × {gradients}")
        }
        _ => format!(
            "{:.3} × {gradients} ({label})",
            data_parallel.bytes_per_rank.bytes() / gradients.bytes()
        ),
    }
}

/// Compute of one step, then the pipeline bubble on top of it.
pub fn compute(w: &Training, gpu: &Gpu, core: Seconds) -> String {
    let p = &w.parallelism;
    let work = match w.compute {
        Compute::StepSeconds(_) => format!("{core} per step as given"),
        Compute::Mfu(mfu) => {
            let gpus = p.gpus();
            let tokens = f64::from(w.global_batch) * f64::from(w.model.sequence_length);
            let factor = recompute_factor(w);
            let recompute = if factor == 1.0 {
                String::new()
            } else {
                format!(" × {factor:.3} recomputation")
            };
            format!(
                "6 × {} parameters × {} tokens{recompute} ÷ ({} GPUs × {} × MFU {mfu})",
                Count(w.model.active()),
                Count(tokens),
                Count(gpus as f64),
                FlopRate(gpu.dense_tflops(w.model.precision).flops_per_second()),
            )
        }
    };
    if p.pp > 1 {
        format!(
            "{work} = {core}; {core} × (1 + ({} − 1)/{} microbatches)",
            p.pp,
            Count(microbatches(w))
        )
    } else {
        work
    }
}

/// The step's collectives that take any time, named and added.
pub fn communication(traffic: &StepTraffic) -> String {
    sum(&[
        ("data parallel", traffic.data_parallel.time()),
        ("tensor parallel", traffic.tensor_parallel.time()),
        ("pipeline", traffic.pipeline.time()),
        ("expert parallel", traffic.expert_parallel.time()),
    ])
}

/// Data-parallel time less what hides behind `overlap` of the last micro-batch's backward pass
/// (`window`, of `m` micro-batches), plus the rest.
pub fn exposed(traffic: &StepTraffic, overlap: f64, m: f64, window: Seconds) -> String {
    let dp = traffic.data_parallel.time();
    let hidden = format!(
        "data parallel ({dp} − min({dp}, {overlap} × 2/3 × compute ÷ {} = {window}))",
        super::super::worked::Count(m)
    );
    let rest = sum(&[
        ("tensor parallel", traffic.tensor_parallel.time()),
        ("pipeline", traffic.pipeline.time()),
        ("expert parallel", traffic.expert_parallel.time()),
    ]);
    if rest.starts_with("no ") {
        hidden
    } else {
        format!("{hidden} + {rest}")
    }
}

fn sum(terms: &[(&str, Seconds)]) -> String {
    let shown: Vec<String> = terms
        .iter()
        .filter(|(_, t)| t.seconds() != 0.0)
        .map(|(name, t)| format!("{name} {t}"))
        .collect();
    if shown.is_empty() {
        "no collectives: 0 s".into()
    } else {
        shown.join(" + ")
    }
}
