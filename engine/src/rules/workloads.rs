//! Rules of the workloads: each names a fabric of the design, its model and parallelism fit
//! the cluster, and every size, rate and target is within what the engine models.

use super::*;

pub(super) fn workload(check: &mut Checker, spec: &DesignSpec, i: usize, w: &Workload) {
    let at = entry("workloads", i);
    check.name(At(&at, "name"), w.name());
    if spec.fabric(w.fabric()).is_none() {
        check.fail(
            At(&at, "fabric"),
            format!("no fabric is named {:?}", w.fabric()),
        );
    }
    let gpus = spec.cluster.gpus();
    let first_node = match w {
        Workload::Training(t) => t.first_node,
        Workload::Inference(i) => i.first_node,
        _ => None,
    };
    if let Some(n) = first_node {
        if n == 0 || n > spec.cluster.nodes {
            check.fail(
                At(&at, "first_node"),
                format!("must be a node of the cluster, 1 to {}", spec.cluster.nodes),
            );
        }
    }
    match w {
        Workload::Training(t) => {
            model(check, &at, &t.model);
            let p = &t.parallelism;
            let parallelism = [at.as_str(), ".parallelism"].concat();
            for (field, degree) in [("dp", p.dp), ("tp", p.tp), ("pp", p.pp), ("ep", p.ep)] {
                check.count(At(&parallelism, field), degree, 1, 1_000_000);
            }
            let used = p.gpus();
            if used > gpus {
                check.fail(
                    At(&at, "parallelism"),
                    format!("tp x pp x dp = {used} but the cluster has {gpus} GPUs"),
                );
            }
            if p.ep > 1 {
                if !t.model.is_moe() {
                    check.fail(
                        At(&at, "parallelism.ep"),
                        "expert parallelism needs a mixture-of-experts model",
                    );
                } else if p.ep > p.dp || p.dp % p.ep != 0 {
                    check.fail(
                        At(&at, "parallelism.ep"),
                        format!("must divide dp = {}", p.dp),
                    );
                }
            }
            if t.model.layers < p.pp {
                check.fail(
                    At(&at, "parallelism.pp"),
                    format!("{} pipeline stages for {} layers", p.pp, t.model.layers),
                );
            }
            check.count(At(&at, "micro_batch"), t.micro_batch, 1, 1_000_000);
            check.count(At(&at, "global_batch"), t.global_batch, 1, 100_000_000);
            let per_step = u64::from(p.dp.max(1)) * u64::from(t.micro_batch.max(1));
            if t.global_batch > 0 && u64::from(t.global_batch) % per_step != 0 {
                check.fail(
                    At(&at, "global_batch"),
                    format!(
                        "{} is not a multiple of dp × micro batch = {per_step}",
                        t.global_batch
                    ),
                );
            }
            match t.compute {
                Compute::Mfu(mfu) => check.number(At(&at, "compute.mfu"), mfu, 0.0, true, 1.0, ""),
                Compute::StepSeconds(s) => {
                    check.number(At(&at, "compute.step_seconds"), s, 0.0, false, 1e6, " s")
                }
            }
            check.number(At(&at, "overlap"), t.overlap, 0.0, false, 1.0, "");
        }
        Workload::Inference(inf) => {
            model(check, &at, &inf.model);
            let nodes = spec
                .fabric(&inf.fabric)
                .and_then(|f| f.attached_nodes)
                .unwrap_or(spec.cluster.nodes);
            if inf.tp_nodes == 0 {
                check.fail(At(&at, "tp_nodes"), "must be at least 1");
            } else if inf.tp_nodes > nodes {
                check.fail(
                    At(&at, "tp_nodes"),
                    format!("{} nodes but the fabric reaches {nodes}", inf.tp_nodes),
                );
            }
            if let Some(replicas) = inf.replicas {
                let needed = u64::from(replicas) * u64::from(inf.tp_nodes);
                if replicas == 0 {
                    check.fail(At(&at, "replicas"), "must be at least 1");
                } else if inf.tp_nodes > 0 && needed > u64::from(nodes) {
                    let reach = if nodes == spec.cluster.nodes {
                        format!("the cluster has {nodes}")
                    } else {
                        format!("fabric {:?} reaches {nodes}", inf.fabric)
                    };
                    check.fail(
                        At(&at, "replicas"),
                        format!(
                            "{replicas} replicas × {} nodes each need {needed} nodes but {reach}",
                            inf.tp_nodes
                        ),
                    );
                }
            }
            check.count(At(&at, "decode_tokens"), inf.decode_tokens, 1, 10_000_000);
            check.count(
                At(&at, "prefill_tokens"),
                inf.prefill_tokens,
                0,
                100_000_000,
            );
            check.positive(
                At(&at, "target_inter_token_ms"),
                inf.target_inter_token_ms.millis(),
                1e6,
                " ms",
            );
        }
        Workload::Rag(r) => {
            check.positive(
                At(&at, "queries_per_s"),
                r.queries_per_s.per_second(),
                1e9,
                "",
            );
            check.count(At(&at, "embedding_dim"), r.embedding_dim, 1, 1_000_000);
            check.count(At(&at, "top_k"), r.top_k, 1, 100_000);
            check.number(
                At(&at, "chunk_bytes"),
                r.chunk_bytes.bytes(),
                0.0,
                false,
                1e9,
                " B",
            );
            check.positive(
                At(&at, "latency_budget_ms"),
                r.latency_budget_ms.millis(),
                1e6,
                " ms",
            );
        }
        Workload::Storage(s) => {
            check.positive(At(&at, "samples_per_step"), s.samples_per_step, 1e12, "");
            check.positive(At(&at, "sample_bytes"), s.sample_bytes.bytes(), 1e12, " B");
            check.positive(At(&at, "steps_per_s"), s.steps_per_s.per_second(), 1e6, "");
            check.number(
                At(&at, "read_headroom"),
                s.read_headroom,
                1.0,
                false,
                10.0,
                "x",
            );
            let c = &s.checkpoint;
            match (c.size_gb, c.parameters) {
                (None, None) => check.fail(
                    At(&at, "checkpoint"),
                    "needs size_gb, or parameters to derive it from",
                ),
                (Some(size), _) => {
                    check.positive(At(&at, "checkpoint.size_gb"), size.gigabytes(), 1e9, " GB")
                }
                (None, Some(params)) => {
                    check.positive(At(&at, "checkpoint.parameters"), params, MAX_PARAMETERS, "")
                }
            }
            check.positive(
                At(&at, "checkpoint.bytes_per_parameter"),
                c.bytes_per_parameter,
                64.0,
                " B",
            );
            check.positive(
                At(&at, "checkpoint.interval_minutes"),
                c.interval_minutes.minutes(),
                1e6,
                " min",
            );
            check.positive(
                At(&at, "checkpoint.write_budget_s"),
                c.write_budget_s.seconds(),
                1e7,
                " s",
            );
            if let Some(rate) = s.system_read_gbytes_per_s {
                check.positive(
                    At(&at, "system_read_gbytes_per_s"),
                    rate.gigabytes_per_second(),
                    1e7,
                    " GB/s",
                );
            }
            if let Some(rate) = s.system_write_gbytes_per_s {
                check.positive(
                    At(&at, "system_write_gbytes_per_s"),
                    rate.gigabytes_per_second(),
                    1e7,
                    " GB/s",
                );
            }
        }
    }
}

/// The model of the workload at `at` (`workloads[0]`).
fn model(check: &mut Checker, at: &str, m: &crate::spec::Model) {
    check.positive(At(at, "model.parameters"), m.parameters, MAX_PARAMETERS, "");
    if let Some(active) = m.active_parameters {
        check.positive(
            At(at, "model.active_parameters"),
            active,
            MAX_PARAMETERS,
            "",
        );
        if active.is_finite() && m.parameters.is_finite() && active > m.parameters {
            check.fail(
                At(at, "model.active_parameters"),
                "must not exceed the parameter count",
            );
        }
    }
    check.count(At(at, "model.layers"), m.layers, 1, 10_000);
    check.count(At(at, "model.hidden"), m.hidden, 1, 1_000_000);
    check.count(
        At(at, "model.sequence_length"),
        m.sequence_length,
        1,
        100_000_000,
    );
    if m.experts_per_token > m.experts {
        check.fail(
            At(at, "model.experts_per_token"),
            format!("more than the {} experts", m.experts),
        );
    }
}
