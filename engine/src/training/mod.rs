//! Multi-node training: what each step sends, over which links, and how much of it the step
//! waits for [arXiv:1909.08053; arXiv:1910.02054; arXiv:2001.08361].

use crate::catalog::Gpu;
use crate::collective::{all_to_all, send_recv, Algorithm, Cost};
use crate::figure::Figure;
use crate::links::Links;
use crate::report::{CollectiveReport, TrainingReport};
use crate::spec::{Compute, Recompute, Sharding, Training};
use crate::tuning::{tuned_allreduce, tuned_reduce_scatter};
use crate::units::{Bytes, Seconds, Slowdown};

pub mod memory;
mod worked;

/// The collectives of one step, per GPU.
#[derive(Debug, Clone, Copy)]
struct StepTraffic {
    data_parallel: Cost,
    tensor_parallel: Cost,
    pipeline: Cost,
    expert_parallel: Cost,
}

impl StepTraffic {
    fn network_bytes_per_node(&self) -> Bytes {
        self.data_parallel.network_bytes_per_node
            + self.tensor_parallel.network_bytes_per_node
            + self.pipeline.network_bytes_per_node
            + self.expert_parallel.network_bytes_per_node
    }

    /// Communication the step waits for: data-parallel traffic hides behind up to `hideable`
    /// of the compute ([`hideable`]); tensor, pipeline and expert traffic sit on the critical
    /// path.
    fn exposed(&self, hideable: Seconds) -> Seconds {
        let dp = self.data_parallel.time();
        let hidden = dp.min(hideable);
        (dp - hidden)
            + self.tensor_parallel.time()
            + self.pipeline.time()
            + self.expert_parallel.time()
    }

    fn total(&self) -> Seconds {
        self.data_parallel.time()
            + self.tensor_parallel.time()
            + self.pipeline.time()
            + self.expert_parallel.time()
    }
}

/// Where the ranks sit. Tensor parallelism innermost (inside the node while it fits), then data
/// parallelism, then pipeline stages across nodes (the Megatron-LM placement [arXiv:2104.04473]).
struct Placement {
    gpus_per_node: u32,
    /// Ranks of one tensor-parallel group inside one node.
    tp_per_node: u32,
    /// Ranks of one data-parallel group inside one node.
    dp_per_node: u32,
    /// Pipeline neighbours sit in different nodes.
    pp_crosses_nodes: bool,
}

impl Placement {
    fn new(w: &Training, gpus_per_node: u32) -> Placement {
        let p = &w.parallelism;
        let g = gpus_per_node.max(1);
        let tp_per_node = p.tp.min(g);
        let dp_per_node = (g / tp_per_node).clamp(1, p.dp.max(1));
        Placement {
            gpus_per_node: g,
            tp_per_node,
            dp_per_node,
            pp_crosses_nodes: u64::from(p.tp) * u64::from(p.dp) >= u64::from(g),
        }
    }

    /// Groups of `per_node` ranks that share a node's network.
    fn concurrent(&self, per_node: u32) -> u32 {
        (self.gpus_per_node / per_node.max(1)).max(1)
    }
}

/// Microbatches each pipeline runs per step.
/// The backward pass's share of a step's compute: 4 of the 6 FLOPs per parameter and token
/// [Kaplan et al., arXiv:2001.08361].
const BACKWARD_SHARE: f64 = 2.0 / 3.0;

/// Compute time behind which the data-parallel gradient traffic can hide: `overlap` of the
/// backward pass of the last micro-batch only. Frameworks reduce gradient buckets as the
/// backward pass produces them [Li et al., "PyTorch Distributed", VLDB 2020], but with gradient
/// accumulation only the last micro-batch's backward pass reduces (PyTorch DDP `no_sync`;
/// Megatron-LM `--overlap-grad-reduce`): m micro-batches per replica leave 1/m of the backward
/// pass to hide behind.
fn hideable(w: &Training, core: Seconds) -> Seconds {
    core * (w.overlap * BACKWARD_SHARE / microbatches(w))
}

fn microbatches(w: &Training) -> f64 {
    let per_pass = f64::from(w.parallelism.dp.max(1)) * f64::from(w.micro_batch.max(1));
    (f64::from(w.global_batch) / per_pass).max(1.0)
}

/// Bytes of one micro-batch's activations at a layer boundary: b·s·h × bytes [arXiv:1909.08053].
fn activation_bytes(w: &Training) -> Bytes {
    let m = &w.model;
    Bytes::new(
        f64::from(w.micro_batch)
            * f64::from(m.sequence_length)
            * f64::from(m.hidden)
            * m.precision.bytes_per_element(),
    )
}

/// Gradient bytes one rank holds: its share of the model. Expert weights are spread over the
/// expert-parallel ranks; dense weights over tensor and pipeline ranks only (an approximation
/// that treats every non-active parameter as an expert weight).
fn gradient_bytes_per_rank(w: &Training) -> Bytes {
    let m = &w.model;
    let p = &w.parallelism;
    let experts_only = (m.parameters - m.active()).max(0.0);
    let per_rank = (m.active() + experts_only / f64::from(p.ep.max(1)))
        / (f64::from(p.tp.max(1)) * f64::from(p.pp.max(1)));
    Bytes::new(per_rank * m.precision.bytes_per_element())
}

fn step_traffic(w: &Training, links: &Links) -> StepTraffic {
    let p = &w.parallelism;
    let place = Placement::new(w, links.gpus_per_node);
    let m = &w.model;
    let layers_per_stage = f64::from(m.layers) / f64::from(p.pp.max(1));
    let micro = microbatches(w);

    let gradients = gradient_bytes_per_rank(w);
    let dp_group = links.group(p.dp, place.dp_per_node, place.concurrent(place.dp_per_node));
    let data_parallel = match p.sharding {
        Sharding::None | Sharding::Zero1 | Sharding::Zero2 => {
            tuned_allreduce(&dp_group, &links.tuning, gradients)
        }
        // ReduceScatter of the gradients plus an AllGather of the parameters in the forward
        // and again in the backward pass: 1.5× the traffic of DDP [arXiv:1910.02054; arXiv:2304.11277].
        Sharding::Zero3 => tuned_reduce_scatter(&dp_group, &links.tuning, gradients).repeated(3.0),
        // Full sharding inside the node, AllReduce of the node's shard between nodes.
        Sharding::FsdpHybrid => {
            let inside = links.group(place.dp_per_node, place.dp_per_node, 1);
            let inside = tuned_reduce_scatter(&inside, &links.tuning, gradients).repeated(3.0);
            let across_ranks = (p.dp / place.dp_per_node).max(1);
            let across = links.group(across_ranks, 1, place.gpus_per_node);
            let across = tuned_allreduce(
                &across,
                &links.tuning,
                gradients / f64::from(place.dp_per_node),
            );
            sum(inside, across)
        }
    };

    // Megatron tensor parallelism: 2 AllReduces forward and 2 backward per layer and micro-batch,
    // and the 2 forward ones again when full recomputation reruns the forward pass.
    let tensor_parallel = if p.tp > 1 {
        let tp_group = links.group(p.tp, place.tp_per_node, place.concurrent(place.tp_per_node));
        tuned_allreduce(&tp_group, &links.tuning, activation_bytes(w))
            .repeated(tp_allreduces_per_layer(w.recompute) * layers_per_stage * micro)
    } else {
        Cost::ZERO
    };

    // Each micro-batch's activations go forward and their gradients back at a stage boundary,
    // split over the tensor-parallel ranks (scatter/gather).
    let pipeline = if p.pp > 1 {
        let message = activation_bytes(w) / f64::from(p.tp.max(1));
        let rate = if place.pp_crosses_nodes {
            links.node / f64::from(place.gpus_per_node)
        } else {
            links.scale_up
        };
        let mut cost = send_recv(message, rate, &links.latencies).repeated(2.0 * micro);
        if !place.pp_crosses_nodes {
            cost.network_bytes_per_node = Bytes::new(0.0);
        }
        cost
    } else {
        Cost::ZERO
    };

    // Mixture of experts: dispatch and combine All-to-All forward, and their mirror backward,
    // per MoE layer and micro-batch; tokens × top-k × h bytes each [DeepEP README].
    let expert_parallel = if p.ep > 1 && m.is_moe() {
        let tokens =
            f64::from(w.micro_batch) * f64::from(m.sequence_length) / f64::from(p.tp.max(1));
        let send = Bytes::new(
            tokens
                * f64::from(m.experts_per_token)
                * f64::from(m.hidden)
                * m.precision.bytes_per_element(),
        );
        let ep_per_node = p.ep.min(place.dp_per_node);
        let mut group = links.group(p.ep, ep_per_node, place.concurrent(ep_per_node));
        // All-to-all spreads traffic over every peer: what leaves the leaf meets its
        // oversubscription.
        group.node_network *= links.uniform_traffic_share;
        all_to_all(&group, send).repeated(4.0 * layers_per_stage * micro)
    } else {
        Cost::ZERO
    };

    StepTraffic {
        data_parallel,
        tensor_parallel,
        pipeline,
        expert_parallel,
    }
}

/// Tensor-parallel AllReduces per layer and micro-batch: 2 forward + 2 backward, plus the 2
/// forward ones again under full recomputation [Megatron-LM arXiv:1909.08053; Korthikanti et
/// al., arXiv:2205.05198].
pub fn tp_allreduces_per_layer(recompute: Recompute) -> f64 {
    match recompute {
        Recompute::Full => 6.0,
        Recompute::None | Recompute::Selective => 4.0,
    }
}

/// Compute a step takes over one without recomputation. Full: the forward pass (a third of
/// forward + backward) runs twice: 8·N instead of 6·N FLOPs per token [Narayanan et al.,
/// arXiv:2104.04473, eq. 3: 96 instead of 72 B·s·l·h²]. Selective: only the attention core,
/// 4·b·s²·h per layer, over the 72·b·s·h²·(1 + s/6h) of a layer's training step:
/// (s/18h) / (1 + s/6h) [Korthikanti et al., arXiv:2205.05198 §5].
pub fn recompute_factor(w: &Training) -> f64 {
    match w.recompute {
        Recompute::None => 1.0,
        Recompute::Full => 4.0 / 3.0,
        Recompute::Selective => {
            let s = f64::from(w.model.sequence_length);
            let h = f64::from(w.model.hidden.max(1));
            1.0 + (s / (18.0 * h)) / (1.0 + s / (6.0 * h))
        }
    }
}

fn sum(a: Cost, b: Cost) -> Cost {
    Cost {
        algorithm: Algorithm::Hierarchical,
        protocol: b.protocol,
        bytes_per_rank: a.bytes_per_rank + b.bytes_per_rank,
        network_bytes_per_node: a.network_bytes_per_node + b.network_bytes_per_node,
        bandwidth_time: a.bandwidth_time + b.bandwidth_time,
        latency_time: a.latency_time + b.latency_time,
    }
}

/// Compute seconds per step, before any pipeline bubble: 6·N_active FLOPs per token
/// [arXiv:2001.08361] over the GPUs at their dense rate times the MFU.
fn compute_time(w: &Training, gpu: &Gpu) -> Seconds {
    match w.compute {
        Compute::StepSeconds(s) => Seconds::new(s),
        Compute::Mfu(mfu) => {
            let p = &w.parallelism;
            let gpus = f64::from(p.dp) * f64::from(p.tp) * f64::from(p.pp);
            let tokens = f64::from(w.global_batch) * f64::from(w.model.sequence_length);
            let flops_per_gpu = 6.0 * w.model.active() * tokens / gpus.max(1.0);
            let rate = gpu.dense_tflops(w.model.precision).flops_per_second() * mfu;
            if rate > 0.0 {
                Seconds::new(flops_per_gpu * recompute_factor(w) / rate)
            } else {
                Seconds::new(f64::INFINITY)
            }
        }
    }
}

fn collective_report(
    cost: &Cost,
    what: impl Into<std::borrow::Cow<'static, str>>,
) -> CollectiveReport {
    CollectiveReport {
        what: what.into(),
        algorithm: cost.algorithm,
        protocol: cost.protocol,
        bytes_per_gpu: cost.bytes_per_rank,
        network_bytes_per_node: cost.network_bytes_per_node,
        time: cost.time(),
    }
}

pub fn training(w: &Training, gpu: &Gpu, links: &Links, ideal: &Links) -> TrainingReport {
    let p = &w.parallelism;
    let traffic = step_traffic(w, links);
    let ideal_traffic = step_traffic(w, ideal);
    let core = compute_time(w, gpu);
    // The 1F1B pipeline bubble: (pp − 1) of every m + pp − 1 slots idle [Narayanan et al.].
    let bubble = core * ((f64::from(p.pp) - 1.0) / microbatches(w));
    let compute = core + bubble;
    let window = hideable(w, core);
    let exposed = traffic.exposed(window);
    let step = compute + exposed;
    let ideal_step = compute + ideal_traffic.exposed(window);
    let slowdown = (compute.seconds() > 0.0 && ideal_step.seconds() > 0.0).then(|| {
        Figure::new(
            Slowdown::new(step.seconds() / ideal_step.seconds()),
            "step time ÷ step time on an ideal network (infinitely fast, no latency) − 1: the time the network adds, in percent of the ideal step",
            "step = compute + exposed communication; Narayanan et al. arXiv:2104.04473",
        )
        .worked(format_args!("{step} ÷ {ideal_step} − 1"))
    });
    let ideal_exposed = ideal_step - compute;
    let place = Placement::new(w, links.gpus_per_node);
    let gpus = p.gpus();
    TrainingReport {
        name: w.name.clone(),
        fabric: w.fabric.clone(),
        gpus,
        nodes: gpus.div_ceil(u64::from(links.gpus_per_node.max(1))) as u32,
        tensor_parallel_crosses_nodes: p.tp > place.tp_per_node,
        gradient_bytes_per_gpu: Figure::new(
            gradient_bytes_per_rank(w),
            "S = parameters held per GPU × bytes per element = (N_active + N_experts/ep)/(tp·pp) × b",
            "ZeRO arXiv:1910.02054; Megatron-LM arXiv:1909.08053",
        )
        .worked_with(|| worked::gradient_bytes(w)),
        bytes_per_gpu_per_step: Figure::new(
            traffic.data_parallel.bytes_per_rank,
            "ring AllReduce: 2(n−1)/n × S per GPU, n = dp (about 2× the model size); ZeRO-3: 3(n−1)/n × S",
            "Patarasuk & Yuan, JPDC 2009 (ring AllReduce); ZeRO arXiv:1910.02054; PyTorch FSDP arXiv:2304.11277",
        )
        .worked_with(|| worked::data_parallel_bytes(w, &traffic.data_parallel)),
        network_bytes_per_node_per_step: traffic.network_bytes_per_node(),
        collectives: vec![
            collective_report(&traffic.data_parallel, "data-parallel gradient synchronisation"),
            collective_report(
                &traffic.tensor_parallel,
                match w.recompute {
                    Recompute::Full => "tensor-parallel AllReduces (6 per layer per micro-batch: full recomputation repeats the forward 2)",
                    _ => "tensor-parallel AllReduces (4 per layer per micro-batch)",
                },
            ),
            collective_report(&traffic.pipeline, "pipeline activations and gradients"),
            collective_report(&traffic.expert_parallel, "expert-parallel All-to-All (4 per MoE layer per micro-batch)"),
        ],
        compute_time: Figure::new(
            compute,
            match w.recompute {
                Recompute::None => "6 × N_active × tokens per step ÷ (GPUs × dense FLOP/s × MFU), plus the pipeline bubble (pp−1)/m",
                Recompute::Selective => "6 × N_active × tokens per step × (1 + (s/18h)/(1 + s/6h)) for selective recomputation ÷ (GPUs × dense FLOP/s × MFU), plus the pipeline bubble (pp−1)/m",
                Recompute::Full => "8 × N_active × tokens per step (full recomputation reruns the forward pass) ÷ (GPUs × dense FLOP/s × MFU), plus the pipeline bubble (pp−1)/m",
            },
            "Kaplan et al. arXiv:2001.08361; Narayanan et al. arXiv:2104.04473; Korthikanti et al. arXiv:2205.05198",
        )
        .worked_with(|| worked::compute(w, gpu, core)),
        communication_time: Figure::new(
            traffic.total(),
            "sum of the step's collectives, alpha-beta model with NCCL-like latencies",
            "Thakur, Rabenseifner & Gropp, IJHPCA 2005; NCCL src/graph/tuning.cc",
        )
        .worked_with(|| worked::communication(&traffic)),
        exposed_communication: Figure::new(
            exposed,
            "data-parallel time not hidden behind overlap × the last micro-batch's backward pass (2/3 × compute ÷ m micro-batches), plus tensor, pipeline and expert time",
            "Li et al., PyTorch Distributed, VLDB 2020 (gradient buckets reduced during the backward pass; with accumulation, the last micro-batch's); Narayanan et al. arXiv:2104.04473",
        )
        .worked_with(|| worked::exposed(&traffic, w.overlap, microbatches(w), window)),
        step_time: Figure::new(step, "compute + exposed communication", "Narayanan et al. arXiv:2104.04473 (communication overlapped with compute)")
            .worked(format_args!("{compute} + {exposed}")),
        ideal_step_time: Figure::new(ideal_step, "the same step on an infinitely fast network", "Narayanan et al. arXiv:2104.04473 (communication overlapped with compute)")
            .worked(format_args!("{compute} + {ideal_exposed}")),
        slowdown,
        memory: Some(Box::new(memory::memory_fit(w, gpu, links.gpus_per_node))),
    }
}
