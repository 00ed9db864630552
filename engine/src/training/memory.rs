//! Whether a training job fits in its GPUs' memory: what one GPU holds of the model's weights,
//! gradients and optimizer states under its tensor and pipeline parallelism and its ZeRO/FSDP
//! sharding, and of the activations under its recompute mode, against the GPU's memory.
//!
//! - Model states, mixed-precision Adam: 2 bytes per parameter of 16-bit weights, 2 of 16-bit
//!   gradients and K = 12 of optimizer state (32-bit master weights, momentum and variance);
//!   ZeRO stage 1 shards the optimizer states over the data-parallel ranks, stage 2 the
//!   gradients too, stage 3 (FSDP full sharding) the weights too [Rajbhandari et al., "ZeRO",
//!   arXiv:1910.02054, §5; Figure 1: 7.5B parameters on 64 ranks take 120, 31.4, 16.6 and 1.9 GB].
//!   FSDP's hybrid sharding shards within a node.
//! - Activations, 16-bit, per transformer layer and micro-batch of b sequences of s tokens,
//!   hidden size h, with tensor parallelism t and sequence parallelism: 34·s·b·h/t stored when
//!   the attention scores are not (FlashAttention never holds them; it is what selective
//!   recomputation stores without it), 2·s·b·h/t with full recomputation (each layer's input
//!   only). The first pipeline stage of a 1F1B schedule holds p micro-batches of L/p layers: L
//!   layers' worth whatever p [Korthikanti et al., "Reducing Activation Recomputation in Large
//!   Transformer Models", arXiv:2205.05198, §4, Table 2; Dao et al., "FlashAttention",
//!   arXiv:2205.14135].
//!
//! Assumptions it rests on: attention through FlashAttention (without it, storing the scores
//! adds 5·a·s/h per layer, more than the rest at long sequences); sequence parallelism with
//! tensor parallelism (Megatron-LM's default); the embedding and output layers left out (a few
//! percent for large models); and 90 % of the GPU's memory usable, the rest for the framework's
//! workspace, the CUDA context and fragmentation (an estimate).

use crate::catalog::Gpu;
use crate::figure::Figure;
pub use crate::report::memory::{Degrees, MemoryFit};
use crate::spec::{Parallelism, Recompute, Sharding, Training};
use crate::units::{Bytes, GB};

impl Degrees {
    /// `t` with these degrees and this recomputation.
    pub fn apply_to(self, t: &mut Training) {
        let p = &mut t.parallelism;
        (p.tp, p.pp, p.dp) = (self.tp, self.pp, self.dp);
        t.recompute = self.recompute;
    }
}

/// Bytes per parameter of the weights, the gradients and the optimizer states (mixed-precision
/// Adam) [arXiv:1910.02054 §3.1].
const WEIGHT_BYTES: f64 = 2.0;
const GRADIENT_BYTES: f64 = 2.0;
const OPTIMIZER_BYTES: f64 = 12.0;
/// Share of a GPU's memory a training job can fill (an estimate: the rest goes to the
/// framework's workspace, the CUDA context and fragmentation).
pub const USABLE_SHARE: f64 = 0.9;

const ZERO: &str = "Rajbhandari et al., ZeRO, arXiv:1910.02054 §5";
const ACTIVATIONS: &str =
    "Korthikanti et al., arXiv:2205.05198 §4, Table 2; Dao et al., FlashAttention, arXiv:2205.14135";
const BOTH: &str = "Rajbhandari et al., ZeRO, arXiv:1910.02054 §5; Korthikanti et al., arXiv:2205.05198 §4, Table 2; Dao et al., FlashAttention, arXiv:2205.14135";

/// Parameters one GPU holds: (dense, expert), with the data-parallel ranks each is sharded
/// over. A mixture of experts spreads its experts over `ep` ranks of the data-parallel group.
fn shards(w: &Training, p: &Parallelism) -> [(f64, f64); 2] {
    let m = &w.model;
    let model_parallel = f64::from(p.tp) * f64::from(p.pp);
    let (dense, experts) = if m.is_moe() && m.experts_per_token < m.experts {
        // parameters = dense + E, active = dense + E·k/experts.
        let share = f64::from(m.experts_per_token) / f64::from(m.experts);
        let experts = ((m.parameters - m.active()) / (1.0 - share)).clamp(0.0, m.parameters);
        (m.parameters - experts, experts)
    } else {
        (m.parameters, 0.0)
    };
    let ep = f64::from(p.ep.max(1));
    [
        (dense / model_parallel, f64::from(p.dp)),
        (experts / (model_parallel * ep), f64::from(p.dp) / ep),
    ]
}

/// (weights, gradients, optimizer states) of `params` parameters sharded over `ranks` data-
/// parallel ranks under `sharding` (`node` ranks for FSDP's hybrid sharding).
fn states(params: f64, ranks: f64, sharding: Sharding, node: f64) -> [f64; 3] {
    let r = ranks.max(1.0);
    let (w, g, o) = match sharding {
        Sharding::None => (1.0, 1.0, 1.0),
        Sharding::Zero1 => (1.0, 1.0, r),
        Sharding::Zero2 => (1.0, r, r),
        Sharding::Zero3 => (r, r, r),
        Sharding::FsdpHybrid => {
            let n = node.min(r).max(1.0);
            (n, n, n)
        }
    };
    [
        WEIGHT_BYTES * params / w,
        GRADIENT_BYTES * params / g,
        OPTIMIZER_BYTES * params / o,
    ]
}

/// Activation bytes one GPU holds (the first pipeline stage's), by recompute mode.
fn activations(w: &Training, tp: u32, recompute: Recompute) -> f64 {
    let m = &w.model;
    let (s, b, h) = (
        f64::from(m.sequence_length),
        f64::from(w.micro_batch),
        f64::from(m.hidden),
    );
    let per_layer = match recompute {
        Recompute::None | Recompute::Selective => 34.0 * s * b * h,
        Recompute::Full => 2.0 * s * b * h,
    } / f64::from(tp.max(1));
    per_layer * f64::from(m.layers)
}

/// (weights, gradients, optimizer states, activations) per GPU under `p` and `recompute`.
fn held(w: &Training, p: &Parallelism, recompute: Recompute, gpus_per_node: u32) -> [f64; 4] {
    let node = f64::from(gpus_per_node) / (f64::from(p.tp) * f64::from(p.pp)).max(1.0);
    let mut out = [0.0; 4];
    for (params, ranks) in shards(w, p) {
        let [wt, g, o] = states(params, ranks, p.sharding, node.max(1.0));
        out[0] += wt;
        out[1] += g;
        out[2] += o;
    }
    out[3] = activations(w, p.tp, recompute);
    out
}

fn fits(held: [f64; 4], usable: f64) -> bool {
    held.iter().sum::<f64>() <= usable
}

/// Other degrees on the same GPUs and global batch that fit: the smallest pipeline depth above
/// today's (dividing the layers), else the smallest tensor width up to the node's GPUs; each
/// with today's recomputation first, then with full recomputation.
fn fits_with(w: &Training, gpus_per_node: u32, usable: f64) -> Option<Degrees> {
    let p = &w.parallelism;
    let gpus = p.gpus();
    let try_degrees = |tp: u32, pp: u32, recompute: Recompute| -> Option<Degrees> {
        let per_replica = u64::from(tp) * u64::from(pp);
        if per_replica == 0 || !gpus.is_multiple_of(per_replica) {
            return None;
        }
        let dp = u32::try_from(gpus / per_replica).ok()?;
        let batch = u64::from(dp) * u64::from(w.micro_batch);
        if dp == 0
            || batch == 0
            || !u64::from(w.global_batch).is_multiple_of(batch)
            || !dp.is_multiple_of(p.ep.max(1))
        {
            return None;
        }
        let degrees = Parallelism { dp, tp, pp, ..*p };
        fits(held(w, &degrees, recompute, gpus_per_node), usable).then_some(Degrees {
            tp,
            pp,
            dp,
            recompute,
        })
    };
    let layers = w.model.layers;
    let deeper = |recompute| {
        (p.pp + 1..=layers)
            .filter(|pp| layers.is_multiple_of(*pp))
            .find_map(|pp| try_degrees(p.tp, pp, recompute))
    };
    let wider = |recompute| {
        (p.tp + 1..=gpus_per_node.max(p.tp))
            .filter(|tp| gpus_per_node.is_multiple_of(*tp))
            .find_map(|tp| try_degrees(tp, p.pp, recompute))
    };
    deeper(w.recompute)
        .or_else(|| wider(w.recompute))
        .or_else(|| {
            (w.recompute != Recompute::Full)
                .then(|| {
                    try_degrees(p.tp, p.pp, Recompute::Full)
                        .or_else(|| deeper(Recompute::Full))
                        .or_else(|| wider(Recompute::Full))
                })
                .flatten()
        })
}

/// What one GPU of `w` holds against the memory of `gpu`, on nodes of `gpus_per_node` GPUs.
pub fn memory_fit(w: &Training, gpu: &Gpu, gpus_per_node: u32) -> MemoryFit {
    let p = &w.parallelism;
    let [weights, gradients, optimizer, activations] = held(w, p, w.recompute, gpus_per_node);
    let total = weights + gradients + optimizer + activations;
    let usable = gpu.hbm_gb * GB * USABLE_SHARE;
    let fits = total <= usable.gigabytes();
    MemoryFit {
        weights: Figure::new(
            Bytes::new(weights),
            "2 bytes × N/(tp·pp) parameters per GPU, ÷ dp where ZeRO-3/FSDP shards the weights",
            ZERO,
        ),
        gradients: Figure::new(
            Bytes::new(gradients),
            "2 bytes × N/(tp·pp) parameters per GPU, ÷ dp where ZeRO-2 or -3 shards the gradients",
            ZERO,
        ),
        optimizer_states: Figure::new(
            Bytes::new(optimizer),
            "12 bytes (fp32 master weights, momentum, variance) × N/(tp·pp) per GPU, ÷ dp where ZeRO shards them",
            ZERO,
        ),
        activations: Figure::new(
            Bytes::new(activations),
            match w.recompute {
                Recompute::None | Recompute::Selective => "L × 34·s·b·h/tp (sequence parallelism; attention scores not stored, as FlashAttention)",
                Recompute::Full => "L × 2·s·b·h/tp (full recomputation: each layer's input)",
            },
            ACTIVATIONS,
        ),
        total: Figure::new(
            Bytes::new(total),
            "weights + gradients + optimizer states + activations",
            BOTH,
        ),
        usable: Figure::new(
            Bytes::new(usable.gigabytes()),
            "90 % of the GPU's memory (the rest: the framework's workspace, CUDA context, fragmentation; an estimate)",
            gpu.provenance.source,
        ),
        fits,
        fits_with: if fits {
            None
        } else {
            fits_with(w, gpus_per_node, usable.gigabytes())
        },
    }
}
