//! The Fabric Planner sizing engine.
//!
//! Pure and deterministic: no I/O, no clock, no randomness. The same [`DesignSpec`] gives the
//! same [`Report`] on the server, in the browser (compiled to wasm32) and on the command line.
//!
//! ```
//! let spec = engine::DesignSpec::default();
//! let report = engine::evaluate(&spec).unwrap();
//! assert!(report.training.bytes_per_gpu_per_step.value.as_gigabytes() > 270.0);
//! ```

mod collective;
mod error;
mod evaluate;
mod precision;
mod report;
mod spec;
mod units;

pub use collective::{nccl_latency, ring_allreduce, CollectiveCost};
pub use error::{FieldError, SpecErrors};
pub use evaluate::evaluate;
pub use precision::Precision;
pub use report::{DataParallelReport, Figure, Report};
pub use spec::{
    DataParallelTraining, DesignSpec, MAX_GPUS, MAX_GPUS_PER_NODE, MAX_LINK_GBPS, MAX_PARAMETERS,
    MAX_TITLE_CHARS, SPEC_VERSION,
};
pub use units::{BitRate, ByteRate, Bytes, Seconds, GB, GIB};

/// Version of this engine, stored with every saved revision so that a report computed by an
/// older engine can be recognised.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
