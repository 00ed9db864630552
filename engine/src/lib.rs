//! The Fabric Planner sizing engine.
//!
//! Pure and deterministic: no I/O, no clock, no randomness. The same [`DesignSpec`] gives the
//! same [`Report`] on the server, in the browser (compiled to wasm32) and on the command line.
//! It sizes each fabric (switches, ports, cables, optics, cost, power), times each workload's
//! communication (training steps, tokens of tensor-parallel inference, retrieval, storage and
//! checkpoints), compares the bandwidth each tier needs with what it has, and raises findings.
//! [`search`] finds the cheapest fabrics that meet the workloads' targets, as a Pareto frontier.
//!
//! ```
//! let spec = engine::DesignSpec::from_json(engine::examples::SEVENTY_B_TRAINING).unwrap();
//! let report = engine::evaluate(&spec).unwrap();
//! assert!(report.headline.switches > 0);
//! ```

pub mod allocation;
pub mod asbuilt;
mod assumptions;
pub mod baseline;
pub mod bill_diff;
mod bom;
pub mod cabling;
pub mod calibration_fit;
pub mod catalog;
mod collective;
pub mod ecmp;
mod error;
mod evaluate;
pub mod examples;
pub mod failures;
mod fast_hash;
mod figure;
mod findings;
pub mod floor;
pub mod goodput;
pub mod handoff;
mod headroom;
mod inference;
pub mod interference;
mod life;
mod links;
pub mod nccl_tests;
pub mod operations;
mod pasted;
pub mod phases;
pub mod ports;
mod precision;
mod rag;
mod report;
mod rules;
pub mod search;
pub mod sensitivity;
mod sizing;
pub mod sources;
mod spec;
mod storage;
pub mod studies;
pub mod switch_choice;
mod technology;
pub mod tenancy;
mod topology;
mod training;
pub mod tuning;
pub mod uncertainty;
mod units;
pub mod validation;
pub mod whatif;
mod worked;

pub use assumptions::{assumptions, Assumption};
pub use collective::{
    all_to_all, allreduce, hierarchical_allreduce, ring_allreduce, ring_reduce_scatter, Algorithm,
    Cost, Crossing, Group, Latencies, Protocol,
};
pub use error::{FieldError, SpecErrors};
pub use evaluate::{
    evaluate, evaluate_reusing, evaluate_sharing, evaluate_unplaced, evaluate_with,
    evaluate_workloads,
};
pub use floor::{LastFloor, SharedFloors};
pub use headroom::{Binding, Tightest};
pub use life::{evaluate_placed, evaluate_placed_keeping, evaluate_placed_sharing, PlacedReport};
pub use links::Conditions;
pub use precision::Precision;
pub use report::*;
#[cfg(feature = "schema")]
pub use rules::AnySpecVersion;
pub use rules::{
    SpecV1, TrainingV1, MAX_FABRICS, MAX_FABRIC_ENDPOINTS, MAX_GPUS_PER_NODE, MAX_NODES,
    MAX_OVERRIDES, MAX_PARAMETERS, MAX_PHASES, MAX_TENANTS, MAX_TITLE_CHARS, MAX_WORKLOADS,
};
pub use spec::*;
pub use technology::{Technology, Transport};
pub use topology::{Layout, Plan};
pub use training::memory::{memory_fit, Degrees, MemoryFit};
pub use tuning::{tuned_allreduce, tuned_reduce_scatter, Tuning};
pub use units::{
    grouped, rounded, thousands, BitRate, ByteRate, Bytes, GigabitsPerSecond, Gigabytes,
    GigabytesPerSecond, Kilowatts, Metres, Micros, Millis, Minutes, PerSecond, Ratio, Seconds,
    Share, Slowdown, Teraflops, Usd, Watts, GB, GIB,
};
