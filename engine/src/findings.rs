//! Warnings and recommendations, each raised by a named rule.

use crate::allocation::{self, Allocation};
use crate::report::{FabricReport, Finding, Severity, TrainingReport, WorkloadReport};
use crate::spec::{DesignSpec, Role, Storage, Training, Workload};
use crate::worked::Count;

// The thresholds at which a rule warns. None decides a target's pass or fail (a workload's own
// targets do); each is where a design review would want the figure looked at, set on the
// cautious side.

/// Share of a tier's capacity ECMP's flow collisions may cost before it is worth a warning: a
/// twentieth, beyond the rounding of the other figures.
const ECMP_LOSS_WORTH_A_WARNING: f64 = 0.05;
/// Headroom of a tier, %, under which a degraded link or a burst shows as slower jobs: one link
/// of five lost leaves a tier at 80 % of its capacity.
const LOW_HEADROOM_PERCENT: f64 = 20.0;
/// Step time against an ideal network beyond which the network is on the critical path: a
/// quarter more time per step.
const NETWORK_BOUND_SLOWDOWN: f64 = 1.25;
/// Share of a retrieval's latency budget the network may take before it leaves too little for
/// the search and the model: half.
const RAG_NETWORK_SHARE: f64 = 0.5;
/// Utilisation of a vector database's port above which queueing grows fast: a single-server
/// queue waits ρ ÷ (1 − ρ) service times, 2.3 at 70 % and 9 at 90 % [Kleinrock, Queueing
/// Systems vol. 1, 1975, §3.2 (M/M/1)].
const VECTOR_DB_PORT_UTILISATION: f64 = 0.7;

fn finding(severity: Severity, rule: &'static str, subject: &str, message: String) -> Finding {
    Finding {
        severity,
        rule: rule.into(),
        subject: subject.to_string(),
        message,
    }
}

/// A training job whose GPUs cannot hold what it needs: the job would not start.
fn memory(spec: &DesignSpec, t: &Training, r: &TrainingReport) -> Option<Finding> {
    let m = r.memory.as_ref().filter(|m| !m.fits)?;
    let gpu = crate::catalog::gpu(&spec.cluster.gpu).map_or("GPU", |g| g.name);
    let p = &t.parallelism;
    let recompute = |d: &crate::report::memory::Degrees| {
        if d.recompute != t.recompute {
            " and full activation recomputation (a third more compute)"
        } else {
            ""
        }
    };
    let remedy = match m.fits_with {
        Some(d) if d.tp == p.tp && d.pp == p.pp => {
            "It fits with full activation recomputation (a third more compute).".to_string()
        }
        Some(d) if d.tp == p.tp => format!(
            "It fits with pipeline parallelism {} (data parallel {}){}.",
            d.pp,
            d.dp,
            recompute(&d)
        ),
        Some(d) => format!(
            "It fits with tensor parallelism {} (data parallel {}){}.",
            d.tp,
            d.dp,
            recompute(&d)
        ),
        None => "No pipeline depth, tensor width or recomputation on these GPUs makes it fit: shard the optimizer states and gradients (ZeRO/FSDP), shorten the micro-batch, or use GPUs with more memory.".into(),
    };
    Some(finding(
        Severity::Critical,
        "memory-fit",
        &t.name,
        format!(
            "Each GPU needs {} (weights {}, gradients {}, optimizer states {}, activations {}) but a {gpu} holds {} usable: the job does not fit at tp {}, pp {}, dp {}. {remedy}",
            m.total.value,
            m.weights.value,
            m.gradients.value,
            m.optimizer_states.value,
            m.activations.value,
            m.usable.value,
            p.tp,
            p.pp,
            p.dp,
        ),
    ))
}

/// GPUs the training jobs and inference services take between them, when that is more than
/// the cluster has (the planner places what does not fit past the last node), and the nodes two
/// workloads whose starts the design states both run on: the figures of each assume GPUs of
/// its own.
fn overbooked(spec: &DesignSpec, allocations: &[Option<Allocation>]) -> Vec<Finding> {
    let mut out = Vec::new();
    let gpus_per_node = u64::from(spec.cluster.gpus_per_node);
    let placed: Vec<&Allocation> = allocations.iter().flatten().collect();
    let booked: u64 = placed.iter().map(|a| a.gpus).sum();
    let have = spec.cluster.gpus();
    if !allocation::beyond(allocations, spec.cluster.nodes).is_empty() && placed.len() > 1 {
        let parts: Vec<String> = placed
            .iter()
            .map(|a| {
                let takes = if a.replicas > 0 {
                    format!(
                        "{} × {} = {}",
                        a.replicas,
                        Count((a.gpus / u64::from(a.replicas)) as f64),
                        Count(a.gpus as f64)
                    )
                } else {
                    Count(a.gpus as f64).to_string()
                };
                format!("{} takes {takes} on {}", a.workload, a.range())
            })
            .collect();
        let last = placed.iter().map(|a| a.last_node()).max().unwrap_or(0);
        let missing = last.saturating_sub(spec.cluster.nodes);
        out.push(finding(
            Severity::Warning,
            "gpus-overbooked",
            &spec.title,
            format!(
                "The workloads book {} GPUs on a cluster of {}: {}. Nodes {}–{last} are past the cluster's last: add {} nodes, or give a workload fewer GPUs.",
                Count(booked as f64),
                Count(have as f64),
                parts.join("; "),
                spec.cluster.nodes + 1,
                Count(f64::from(missing)),
            ),
        ));
    }
    for (a, b, first, last) in allocation::shared(allocations) {
        let nodes = last - first + 1;
        out.push(finding(
            Severity::Warning,
            "gpus-overbooked",
            &spec.title,
            format!(
                "{} ({}) and {} ({}) both run on nodes {first}–{last}: {} GPUs counted twice, whose figures each assume GPUs of their own. Start one after the other.",
                a.workload,
                a.range(),
                b.workload,
                b.range(),
                Count((u64::from(nodes) * gpus_per_node) as f64),
            ),
        ));
    }
    out
}

pub fn findings(
    spec: &DesignSpec,
    fabrics: &[FabricReport],
    workloads: &[WorkloadReport],
    allocations: &[Option<Allocation>],
) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(overbooked(spec, allocations));
    if spec.cluster.nodes == 1 {
        out.push(finding(
            Severity::Info,
            "single-node",
            &spec.title,
            "All GPUs sit in one node: GPU traffic stays on the scale-up domain, the network is not on the critical path and no GPU fabric is sized.".into(),
        ));
    }
    for f in fabrics {
        if f.technology.needs_lossless_ethernet() {
            out.push(finding(
                Severity::Warning,
                "roce-lossless",
                &f.name,
                format!(
                    "RoCE needs lossless Ethernet: PFC on the RoCE priority and ECN on every switch in the path ({} here), CNP in strict priority.",
                    f.plan.switches()
                ),
            ));
        }
        let lost =
            1.0 - crate::ecmp::usable_share(f.technology.transport(), &spec.calibration, &f.plan);
        if lost > ECMP_LOSS_WORTH_A_WARNING && crate::ecmp::applies(f.role) {
            let (flows, uplinks, qps) = crate::ecmp::flows(&spec.calibration, &f.plan);
            out.push(finding(
                Severity::Warning,
                "ecmp-collisions",
                &f.name,
                format!(
                    "ECMP hashes {:.0} flows onto {:.0} uplinks per leaf: hash collisions leave about {:.0} % of the leaf-spine bandwidth unused, and a collective crossing the spine runs at its slowest link. Raise NCCL_IB_QPS_PER_CONNECTION (4 queue pairs recover all but {:.0} %) with the switches hashing on the queue pair, turn on adaptive routing or packet spraying where the switches have it, or keep rings on their rails (rail-optimized).",
                    flows,
                    uplinks,
                    lost * 100.0,
                    (1.0 - crate::ecmp::delivered_share(flows * 4.0 / qps, uplinks)) * 100.0,
                ),
            ));
        }
        if f.plan.two_tier_exceeded {
            out.push(finding(
                Severity::Critical,
                "two-tier-exceeded",
                &f.name,
                format!(
                    "{} endpoints do not fit in 2 tiers of {}-port switches (at most {}): the fabric was sized as 3 tiers.",
                    f.endpoints, f.plan.radix, f.plan.two_tier_endpoints()
                ),
            ));
        }
        if f.plan.tiers == 3 && f.role == Role::Compute {
            out.push(finding(
                Severity::Info,
                "three-tier",
                &f.name,
                format!(
                    "{}: two tiers of these switches hold {} nodes of {} ports each.",
                    f.plan.reason,
                    f.plan.two_tier_endpoints() / u64::from(f.ports_per_node.max(1)),
                    f.ports_per_node.max(1)
                ),
            ));
        }
        if let Some(target) = spec.cluster.growth_target_nodes {
            if f.role == Role::Compute && target > f.max_nodes {
                out.push(finding(
                    Severity::Warning,
                    "growth-target",
                    &f.name,
                    format!("Growing to {target} nodes needs more spine or core switches: this fabric holds {} nodes.", f.max_nodes),
                ));
            }
        }
        for t in &f.tiers {
            match t.headroom_percent {
                Some(h) if h < 0.0 => out.push(finding(
                    Severity::Critical,
                    "headroom-negative",
                    &f.name,
                    format!(
                        "The {} tier needs {} but has {}: communication cannot hide behind compute and the workloads slow down.",
                        t.tier, t.required, t.available
                    ),
                )),
                Some(h) if h < LOW_HEADROOM_PERCENT => out.push(finding(
                    Severity::Warning,
                    "headroom-low",
                    &f.name,
                    format!("The {} tier has {h:.0} % headroom: a degraded link or a burst will show as slower jobs.", t.tier),
                )),
                _ => {}
            }
        }
        if f.oversubscription > 1.0 && f.role == Role::Compute {
            out.push(finding(
                Severity::Warning,
                "oversubscribed-training",
                &f.name,
                format!("Leaves are {:.1}:1 oversubscribed on a GPU fabric: collectives that cross the spine slow down when they contend.", f.oversubscription),
            ));
        }
    }
    for (spec_w, w) in spec.workloads.iter().zip(workloads) {
        let fabric = spec.fabric(spec_w.fabric());
        match (spec_w, w) {
            (Workload::Storage(s), WorkloadReport::Storage(r)) => {
                if fabric.is_some_and(|f| f.role == Role::Compute) {
                    out.push(finding(
                        Severity::Recommendation,
                        "storage-shares-gpu-fabric",
                        &s.name,
                        "Storage traffic shares the GPU fabric: give it a fabric of its own on dedicated interfaces, NVMe-oF preferred.".into(),
                    ));
                }
                out.extend(batch_mismatch(spec, s));
                if r.read_headroom.value.get() < 1.0 {
                    out.push(finding(
                        Severity::Critical,
                        "storage-starved",
                        &s.name,
                        format!(
                            "Training data needs {} (with {}× headroom) but the storage path gives {}: the GPUs will wait for data.",
                            r.read_provisioned.value, s.read_headroom, r.read_available.value
                        ),
                    ));
                }
                if !r.within_budget {
                    out.push(finding(
                        Severity::Warning,
                        "checkpoint-budget",
                        &s.name,
                        format!(
                            "A {} checkpoint takes {} to write, over the {} budget.",
                            r.checkpoint_size.value, r.checkpoint_write_time.value, r.write_budget
                        ),
                    ));
                }
            }
            (Workload::Inference(i), WorkloadReport::Inference(r)) => {
                if i.tp_nodes == 1 {
                    out.push(finding(
                        Severity::Info,
                        "single-node-inference",
                        &i.name,
                        "The model is served inside one node: its tensor parallelism needs no GPU fabric.".into(),
                    ));
                } else {
                    let verdict = r.inter_token_verdict();
                    if !verdict.meets {
                        out.push(finding(
                            Severity::Critical,
                            "inter-token-latency",
                            &i.name,
                            format!(
                                "Communication per token is {} with tensor parallelism over {} nodes, over the {} target inter-token latency: every token waits for it before the next one starts.",
                                verdict.value, i.tp_nodes, verdict.target
                            ),
                        ));
                    }
                }
                if let Some(f) = fabric {
                    if !f.technology.has_rdma() && i.tp_nodes > 1 {
                        out.push(finding(
                            Severity::Warning,
                            "tcp-tensor-parallel",
                            &i.name,
                            format!(
                                "{} without RDMA carries tensor-parallel activations through the kernel: {} per token over {} layers.",
                                f.technology.label(), r.communication_per_token.value, i.model.layers
                            ),
                        ));
                    }
                }
            }
            (Workload::Training(t), WorkloadReport::Training(r)) => {
                out.extend(partial_cluster(spec, t, r));
                out.extend(memory(spec, t, r));
                if r.tensor_parallel_crosses_nodes {
                    out.push(finding(
                        Severity::Warning,
                        "tensor-parallel-across-nodes",
                        &t.name,
                        format!(
                            "Tensor parallelism of {} exceeds the {} GPUs of a node: its AllReduces cross the network every layer.",
                            t.parallelism.tp, spec.cluster.gpus_per_node
                        ),
                    ));
                }
                if let Some(slowdown) = &r.slowdown {
                    if slowdown.value.factor() > NETWORK_BOUND_SLOWDOWN {
                        out.push(finding(
                            Severity::Warning,
                            "network-bound-training",
                            &t.name,
                            format!(
                                "Steps take {} against {} on an ideal network, {} longer: the network is on the critical path.",
                                r.step_time.value, r.ideal_step_time.value, slowdown.value
                            ),
                        ));
                    }
                }
                if let Some(f) = fabric {
                    if !f.technology.has_rdma() {
                        out.push(finding(
                            Severity::Warning,
                            "tcp-training",
                            &t.name,
                            "Training over TCP: without RDMA the gradients are copied through the kernel; RoCE or InfiniBand reach far closer to line rate.".into(),
                        ));
                    }
                }
            }
            (Workload::Rag(q), WorkloadReport::Rag(r)) => {
                if r.share_of_budget.value.fraction() > RAG_NETWORK_SHARE {
                    out.push(finding(
                        Severity::Warning,
                        "rag-latency-budget",
                        &q.name,
                        format!(
                            "The network takes {} of the {} ms retrieval budget.",
                            r.network_time_per_query.value,
                            q.latency_budget_ms.millis()
                        ),
                    ));
                }
                if r.vector_db_port_utilisation.value.fraction() > VECTOR_DB_PORT_UTILISATION {
                    out.push(finding(
                        Severity::Warning,
                        "rag-port-utilisation",
                        &q.name,
                        format!(
                            "The vector database's port runs at {:.0} %: add ports or replicas, and give retrieval traffic its own QoS class.",
                            r.vector_db_port_utilisation.value.fraction() * 100.0
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|f| std::cmp::Reverse(f.severity));
    out
}

/// A training job on part of the cluster: not wrong (the rest may serve or train something
/// else), but a reader of its figures should know they are for a partition.
fn partial_cluster(spec: &DesignSpec, t: &Training, r: &TrainingReport) -> Option<Finding> {
    let gpus = spec.cluster.gpus();
    if r.gpus >= gpus {
        return None;
    }
    let p = &t.parallelism;
    Some(finding(
        Severity::Info,
        "training-partial-cluster",
        &t.name,
        format!(
            "Uses {} of the cluster's {} GPUs ({} of {} nodes): data parallel {} × tensor parallel {} × pipeline parallel {}. Its figures are for that partition; the other GPUs are left to other work.",
            Count(r.gpus as f64),
            Count(gpus as f64),
            Count(f64::from(r.nodes)),
            Count(f64::from(spec.cluster.nodes)),
            p.dp,
            p.tp,
            p.pp,
        ),
    ))
}

/// Storage sized for a batch no training job on the cluster takes: its read rate, and so the
/// storage fabric's demand, is for another workload.
fn batch_mismatch(spec: &DesignSpec, s: &Storage) -> Option<Finding> {
    let trainings: Vec<&Training> = spec
        .workloads
        .iter()
        .filter_map(|w| match w {
            Workload::Training(t) => Some(t),
            _ => None,
        })
        .collect();
    // Sample counts are whole numbers; half a sample of difference is rounding in the form.
    let matches = |t: &&Training| (f64::from(t.global_batch) - s.samples_per_step).abs() < 0.5;
    if trainings.is_empty() || trainings.iter().any(matches) {
        return None;
    }
    let batches: Vec<String> = trainings
        .iter()
        .map(|t| {
            format!(
                "training '{}' takes a global batch of {}",
                t.name,
                Count(f64::from(t.global_batch))
            )
        })
        .collect();
    Some(finding(
        Severity::Warning,
        "storage-batch-mismatch",
        &s.name,
        format!(
            "Reads {} samples per step while {}: the read rate needed is sized for a batch no training job on the cluster takes.",
            Count(s.samples_per_step),
            batches.join(" and "),
        ),
    ))
}
