//! The physical side of a node type: height, maximum power, how many stand in a reference rack,
//! and whether its network cages are twin-port.

use super::{gpu, Provenance};
use crate::spec::Cluster;
use crate::units::Kilowatts;

/// Height, power and reference rack density of a GPU node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chassis {
    pub rack_units: u32,
    pub power_kw: Kilowatts,
    /// Nodes per compute rack in the reference architecture.
    pub nodes_per_rack: u32,
    /// Compute-fabric links per network cage at the node: 2 where the node has twin-port OSFP
    /// cages (a DGX H100 has four for its eight NDR NICs), 1 for single-port NICs.
    pub links_per_cage: u32,
    pub source: Provenance,
}

const DGX_H100: Provenance = Provenance {
    source: "NVIDIA DGX H100/H200 User Guide, Introduction (8U, 10.2 kW max, 4 twin-port OSFP cages for 8 ConnectX-7); DGX SuperPOD H100 reference architecture RA-11333-001 (4 DGX per rack)",
    estimate: false,
};
const DGX_B200: Provenance = Provenance {
    source: "NVIDIA DGX B200 User Guide, Introduction (10U, 14.3 kW max); DGX SuperPOD B200 reference architecture (2 DGX per rack)",
    estimate: false,
};
const SCALED: Provenance = Provenance {
    source: "estimate: GPU TDP × GPUs per node × 1.82, the ratio of a DGX H100's 10.2 kW to its 8 × 700 W GPUs; set floor.node_power_kw and floor.node_rack_units from the vendor's datasheet",
    estimate: true,
};

/// The chassis of `cluster`'s nodes: the preset's published figures, else an estimate scaled
/// from the GPU's TDP.
pub fn chassis(cluster: &Cluster) -> Chassis {
    match cluster.node_preset.as_deref() {
        Some("dgx-h100") | Some("dgx-h200") => Chassis {
            rack_units: 8,
            power_kw: Kilowatts::new(10.2),
            nodes_per_rack: 4,
            links_per_cage: 2,
            source: DGX_H100,
        },
        Some("dgx-b200") => Chassis {
            rack_units: 10,
            power_kw: Kilowatts::new(14.3),
            nodes_per_rack: 2,
            links_per_cage: 2,
            source: DGX_B200,
        },
        _ => {
            let tdp_w = gpu(&cluster.gpu).map_or(700.0, |g| g.tdp_w.watts());
            let power_kw = f64::from(cluster.gpus_per_node) * tdp_w * (10.2 / 5.6) / 1000.0;
            let rack_units = if cluster.gpus_per_node >= 8 { 8 } else { 4 };
            // As many as stay under 40 kW, the reference H100 rack's load, and at least one.
            let nodes_per_rack = ((40.0 / power_kw.max(0.1)).floor() as u32).clamp(1, 8);
            Chassis {
                rack_units,
                power_kw: Kilowatts::new(power_kw),
                nodes_per_rack,
                links_per_cage: 1,
                source: SCALED,
            }
        }
    }
}
