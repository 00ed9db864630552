/// A node type: how many GPUs of which model, and how many NICs for the GPU (compute) fabric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodePreset {
    pub key: &'static str,
    pub name: &'static str,
    pub gpu: &'static str,
    pub gpus_per_node: u32,
    /// Compute-fabric NICs (rails) per node.
    pub nics_per_node: u32,
    pub source: &'static str,
}

pub const NODE_PRESETS: &[NodePreset] = &[
    NodePreset {
        key: "dgx-h100",
        name: "NVIDIA DGX H100 (8× H100, 8× ConnectX-7 NDR)",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        nics_per_node: 8,
        source: "DGX SuperPOD H100 RA-11333-001",
    },
    NodePreset {
        key: "dgx-h200",
        name: "NVIDIA DGX H200 (8× H200, 8× ConnectX-7 NDR)",
        gpu: "h200-sxm",
        gpus_per_node: 8,
        nics_per_node: 8,
        source: "NVIDIA DGX H200 datasheet via stas00/ml-engineering; ConnectX-7 NDR",
    },
    NodePreset {
        key: "dgx-b200",
        name: "NVIDIA DGX B200 (8× B200, 8× 400G)",
        gpu: "b200",
        gpus_per_node: 8,
        nics_per_node: 8,
        source: "DGX SuperPOD B200 reference architecture",
    },
    NodePreset {
        key: "hgx-h100-4nic",
        name: "HGX H100 server (8× H100, 4 NICs)",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        nics_per_node: 4,
        source: "common OEM configuration",
    },
    NodePreset {
        key: "hgx-a100",
        name: "HGX A100 server (8× A100, 4× 200G)",
        gpu: "a100-sxm",
        gpus_per_node: 8,
        nics_per_node: 4,
        source: "common OEM configuration",
    },
    NodePreset {
        key: "mi300x-8",
        name: "AMD MI300X platform (8× MI300X, 8 NICs)",
        gpu: "mi300x",
        gpus_per_node: 8,
        nics_per_node: 8,
        source: "AMD MI300X platform via stas00/ml-engineering compute/accelerator",
    },
    NodePreset {
        key: "l40s-4",
        name: "PCIe inference server (4× L40S, 1 NIC)",
        gpu: "l40s",
        gpus_per_node: 4,
        nics_per_node: 1,
        source: "common OEM configuration",
    },
];

pub fn node_preset(key: &str) -> Option<&'static NodePreset> {
    NODE_PRESETS.iter().find(|n| n.key == key)
}
