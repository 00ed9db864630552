//! The choices the wizard's select boxes offer, from the engine's catalog and enums.

use engine::catalog::{SwitchFamily, GPUS, MODEL_PRESETS, NODE_PRESETS, SWITCHES};
use engine::{Placement, Precision, Recompute, Role, Sharding, SwitchRacks, Technology, Topology};

/// A select box's choices: each key as the spec writes it, and the words the form shows.
pub type Options = Vec<(String, String)>;

fn fixed(items: Vec<(&str, &str)>) -> Options {
    items
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

pub const CUSTOM: &str = "custom";

pub fn node_presets() -> Options {
    let mut items: Vec<(String, String)> = NODE_PRESETS
        .iter()
        .map(|n| (n.key.to_string(), n.name.to_string()))
        .collect();
    items.push((CUSTOM.into(), "Custom node".into()));
    items
}

pub fn gpus() -> Options {
    GPUS.iter()
        .map(|g| (g.key.to_string(), g.name.to_string()))
        .collect()
}

pub fn model_presets() -> Options {
    let mut items: Vec<(String, String)> = MODEL_PRESETS
        .iter()
        .map(|m| (m.key.to_string(), m.name.to_string()))
        .collect();
    items.push((CUSTOM.into(), "Custom model".into()));
    items
}

pub fn precisions() -> Options {
    Precision::ALL
        .into_iter()
        .map(|p| {
            (
                p.key().to_string(),
                format!("{} ({} B per value)", p.label(), p.bytes_per_element()),
            )
        })
        .collect()
}

pub fn technologies() -> Options {
    Technology::ALL
        .into_iter()
        .map(|t| (t.key().to_string(), t.label().to_string()))
        .collect()
}

pub fn roles() -> Options {
    fixed(vec![
        ("compute", "Compute (GPU to GPU)"),
        ("inference", "Inference serving"),
        ("storage", "Storage"),
        ("front_end", "Front-end"),
    ])
}

pub fn role_key(role: Role) -> &'static str {
    match role {
        Role::Compute => "compute",
        Role::Inference => "inference",
        Role::Storage => "storage",
        Role::FrontEnd => "front_end",
    }
}

pub fn role_from(key: &str) -> Option<Role> {
    [
        Role::Compute,
        Role::Inference,
        Role::Storage,
        Role::FrontEnd,
    ]
    .into_iter()
    .find(|r| role_key(*r) == key)
}

pub fn topologies() -> Options {
    fixed(vec![
        ("auto", "Automatic (2 tiers while they suffice)"),
        ("two_tier", "2-tier leaf-spine"),
        ("three_tier", "3-tier fat tree"),
        ("rail_optimized", "Rail-optimized"),
    ])
}

pub fn topology_key(t: Topology) -> &'static str {
    match t {
        Topology::Auto => "auto",
        Topology::TwoTier => "two_tier",
        Topology::ThreeTier => "three_tier",
        Topology::RailOptimized => "rail_optimized",
    }
}

pub fn topology_from(key: &str) -> Option<Topology> {
    [
        Topology::Auto,
        Topology::TwoTier,
        Topology::ThreeTier,
        Topology::RailOptimized,
    ]
    .into_iter()
    .find(|t| topology_key(*t) == key)
}

pub fn shardings() -> Options {
    fixed(vec![
        ("none", "None (DDP: AllReduce of the gradients)"),
        ("zero1", "ZeRO-1"),
        ("zero2", "ZeRO-2"),
        ("zero3", "ZeRO-3 / FSDP full shard"),
        ("fsdp_hybrid", "FSDP hybrid shard"),
    ])
}

pub fn recomputations() -> Options {
    fixed(vec![
        ("none", "None: every activation is stored"),
        ("selective", "Selective: the attention core only"),
        ("full", "Full: every layer, with its TP collectives again"),
    ])
}

pub fn recompute_from(key: &str) -> Option<Recompute> {
    [Recompute::None, Recompute::Selective, Recompute::Full]
        .into_iter()
        .find(|r| r.label() == key)
}

pub fn sharding_key(s: Sharding) -> &'static str {
    match s {
        Sharding::None => "none",
        Sharding::Zero1 => "zero1",
        Sharding::Zero2 => "zero2",
        Sharding::Zero3 => "zero3",
        Sharding::FsdpHybrid => "fsdp_hybrid",
    }
}

pub fn sharding_from(key: &str) -> Option<Sharding> {
    [
        Sharding::None,
        Sharding::Zero1,
        Sharding::Zero2,
        Sharding::Zero3,
        Sharding::FsdpHybrid,
    ]
    .into_iter()
    .find(|s| sharding_key(*s) == key)
}

/// The planner's choice of switch, then every switch of the family that can carry
/// `technology`. The empty key leaves the choice to the planner.
pub fn switches_for(technology: Technology) -> Vec<(String, String)> {
    let family = if technology.is_ethernet() {
        SwitchFamily::Ethernet
    } else {
        SwitchFamily::InfiniBand
    };
    std::iter::once((String::new(), LEAST_COST_SWITCH.to_string()))
        .chain(
            SWITCHES
                .iter()
                .filter(|s| s.family == family)
                .map(|s| (s.key.to_string(), s.name.to_string())),
        )
        .collect()
}

/// The switch option that leaves the choice to the planner.
pub const LEAST_COST_SWITCH: &str = "Least cost for this fabric (the planner chooses)";

pub fn feeds() -> Options {
    fixed(vec![
        ("dual", "A and B feeds, each carrying the rack (N+N)"),
        ("single", "Single"),
    ])
}

pub fn coolings() -> Options {
    fixed(vec![
        ("air", "Room air"),
        ("direct_liquid", "Direct liquid cooling"),
    ])
}

pub fn switch_racks() -> Options {
    [SwitchRacks::Spread, SwitchRacks::Packed]
        .iter()
        .map(|s| (switch_racks_key(*s).to_string(), s.label().to_string()))
        .collect()
}

pub fn switch_racks_key(s: SwitchRacks) -> &'static str {
    match s {
        SwitchRacks::Spread => "spread",
        SwitchRacks::Packed => "packed",
    }
}

const PLACEMENTS: [(Placement, &str); 4] = [
    (Placement::TopOfRack, "top_of_rack"),
    (Placement::MiddleOfRow, "middle_of_row"),
    (Placement::EndOfRow, "end_of_row"),
    (Placement::NetworkRow, "network_row"),
];

pub fn placements() -> Options {
    PLACEMENTS
        .iter()
        .map(|(p, key)| (key.to_string(), p.label().to_string()))
        .collect()
}

pub fn placement_key(p: Placement) -> String {
    PLACEMENTS
        .iter()
        .find(|(q, _)| *q == p)
        .map_or_else(String::new, |(_, key)| key.to_string())
}

pub fn placement_from(key: &str) -> Option<Placement> {
    PLACEMENTS.iter().find(|(_, k)| *k == key).map(|(p, _)| *p)
}

/// A workload's kind (`Workload::kind`) in the form's words.
pub fn kind_label(kind: &str) -> &'static str {
    match kind {
        "training" => "Training",
        "inference" => "Inference",
        "rag" => "RAG",
        _ => "Storage",
    }
}
