//! The example specs shipped in `examples/`, embedded so that tests, benchmarks and the app can
//! use them.

pub const SEVENTY_B_TRAINING: &str = include_str!("../../examples/seventy-b-training.json");
pub const SEVENTY_B_INFERENCE_25G: &str =
    include_str!("../../examples/seventy-b-inference-25g.json");
pub const SEVENTY_B_INFERENCE_400G: &str =
    include_str!("../../examples/seventy-b-inference-400g.json");
pub const RAG: &str = include_str!("../../examples/rag.json");
pub const SUPERPOD_4SU: &str = include_str!("../../examples/superpod-4su.json");
pub const HYBRID: &str = include_str!("../../examples/hybrid.json");

/// Every example, with its file name.
pub const ALL: [(&str, &str); 6] = [
    ("seventy-b-training.json", SEVENTY_B_TRAINING),
    ("seventy-b-inference-25g.json", SEVENTY_B_INFERENCE_25G),
    ("seventy-b-inference-400g.json", SEVENTY_B_INFERENCE_400G),
    ("rag.json", RAG),
    ("superpod-4su.json", SUPERPOD_4SU),
    ("hybrid.json", HYBRID),
];
