//! Tensor-parallel inference across nodes: two AllReduces of the activations per layer for every
//! forward pass [arXiv:1909.08053; seed C9].

use crate::collective::Cost;
use crate::figure::{Figure, TargetVerdict};
use crate::links::Links;
use crate::report::{Choice, InferenceReport};
use crate::spec::Inference;
use crate::tuning::tuned_allreduce;
use crate::units::{Bytes, Seconds};
use crate::worked::Count;

/// The communication of one forward pass over `tokens` tokens in flight.
fn forward_pass(w: &Inference, links: &Links, tokens: u32) -> Cost {
    let m = &w.model;
    let message =
        Bytes::new(f64::from(tokens) * f64::from(m.hidden) * m.precision.bytes_per_element());
    let g = links.gpus_per_node.max(1);
    let group = links.group(w.tp_nodes.max(1) * g, g, 1);
    // After the attention output projection and after the MLP down projection.
    tuned_allreduce(&group, &links.tuning, message).repeated(2.0 * f64::from(m.layers))
}

/// `w` on `links` with `replicas` tensor-parallel groups (as [`crate::allocation`] placed them).
pub fn inference(w: &Inference, links: &Links, ideal: &Links, replicas: u32) -> InferenceReport {
    let m = &w.model;
    let layers = f64::from(m.layers.max(1));
    let decode = forward_pass(w, links, w.decode_tokens);
    let per_layer = decode.time() / layers;
    let on_ideal = forward_pass(w, ideal, w.decode_tokens).time();
    let network_added = decode.time() - on_ideal;
    let (prefill, prefill_collective) = if w.prefill_tokens > 0 {
        let cost = forward_pass(w, links, w.prefill_tokens);
        (cost.time(), choice(&cost))
    } else {
        (Seconds::new(0.0), Choice::default())
    };
    let decode_collective = choice(&decode);
    let target = w.target_inter_token_ms.to_seconds();
    let verdict = TargetVerdict::new(decode.time(), target);
    let bytes_per_element = m.precision.bytes_per_element();
    InferenceReport {
        name: w.name.clone(),
        fabric: w.fabric.clone(),
        tp_nodes: w.tp_nodes,
        tp_ranks: w.tp_nodes * links.gpus_per_node,
        crosses_network: w.tp_nodes > 1,
        tokens_in_flight: w.decode_tokens,
        allreduce_bytes: Figure::new(
            Bytes::new(f64::from(w.decode_tokens) * f64::from(m.hidden) * m.precision.bytes_per_element()),
            "tokens in flight × hidden size × bytes per element",
            "Megatron-LM arXiv:1909.08053",
        )
        .worked(format_args!(
            "{} tokens × {} hidden × {bytes_per_element} B",
            Count(f64::from(w.decode_tokens)),
            Count(f64::from(m.hidden)),
        )),
        per_layer_time: Figure::new(
            per_layer,
            "2 AllReduces per layer (after attention and after the MLP), each the fastest algorithm and protocol NCCL's model allows",
            "Megatron-LM arXiv:1909.08053; NCCL src/graph/tuning.cc",
        )
        .worked_with(|| {
            format!(
                "2 AllReduces ({}) × {}",
                decode_collective.label(),
                per_layer / 2.0
            )
        }),
        communication_per_token: Figure::new(
            decode.time(),
            "layers × per-layer AllReduce time, for every generated token; all of it must fit in the target inter-token latency",
            "Megatron-LM arXiv:1909.08053 (2 AllReduces per layer); NCCL src/graph/tuning.cc",
        )
        .worked(format_args!("{} layers × {per_layer}", m.layers)),
        network_added_per_token: Figure::new(
            network_added,
            "communication per token minus the same on an infinitely fast network: the network's share of it",
            "Megatron-LM arXiv:1909.08053 (2 AllReduces per layer); NCCL src/graph/tuning.cc",
        )
        .worked(format_args!("{} − {on_ideal}", decode.time())),
        prefill_communication: Figure::new(
            prefill,
            "the same AllReduces over the prefill tokens of one forward pass",
            "Megatron-LM arXiv:1909.08053",
        ),
        network_bytes_per_node_per_token: decode.network_bytes_per_node,
        target_inter_token: target,
        meets_target: verdict.meets,
        decode_collective,
        prefill_collective,
        replicas,
    }
}

fn choice(cost: &Cost) -> Choice {
    Choice {
        algorithm: cost.algorithm,
        protocol: cost.protocol,
    }
}
