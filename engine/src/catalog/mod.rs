//! The catalog: GPUs, node types, switches, cables and optics, model shapes. Every figure carries
//! its source; prices and power that no public source confirms are marked as estimates and can
//! be overridden per design (`DesignSpec::overrides`).

mod chassis;
mod gpus;
mod media;
mod models;
mod nodes;
mod switches;

pub use chassis::{chassis, Chassis};
pub use gpus::{gpu, Gpu, GPUS, NVLINK_SHARP_SOURCE};
pub use media::{media_for, Media, ReachClass, SWITCH_END_W};
pub use models::{model_preset, ModelPreset, MODEL_PRESETS};
pub use nodes::{
    adapters_of, node_preset, rail_of, Adapter, NodePreset, PowerSupplies, NODE_PRESETS,
};
pub use switches::{switch, Switch, SwitchFamily, SwitchOs, SWITCHES};

/// Where a catalog figure comes from, and whether it is only an estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Provenance {
    pub source: &'static str,
    /// No public source confirms the figure: the user should check it with their vendor.
    pub estimate: bool,
}

pub const ESTIMATE: Provenance = Provenance {
    source: "estimate: no public list price or power figure was found; override it in the design",
    estimate: true,
};
