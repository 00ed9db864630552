use crate::spec::{DesignSpec, Role};

/// A node type: how many GPUs of which model, and how many NICs for the GPU (compute) fabric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodePreset {
    pub key: &'static str,
    pub name: &'static str,
    pub gpu: &'static str,
    pub gpus_per_node: u32,
    /// Compute-fabric NICs (rails) per node.
    pub nics_per_node: u32,
    /// The compute adapters by the names the host gives them, rail 1 first; empty where the
    /// node's documentation does not say.
    pub adapters: &'static [Adapter],
    /// Its power supplies, where its documentation gives them.
    pub power_supplies: Option<PowerSupplies>,
    pub source: &'static str,
}

/// A node's power supplies: how many it has, how many keep it at full performance, and how
/// many keep it running at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PowerSupplies {
    pub fitted: u32,
    pub full_performance: u32,
    pub running: u32,
    pub source: &'static str,
}

const DGX_H100_SUPPLIES: PowerSupplies = PowerSupplies {
    fitted: 6,
    full_performance: 4,
    running: 3,
    source: "NVIDIA DGX H100/H200 User Guide: six power supplies, 4+2; it runs, at reduced performance, on 3",
};

/// A compute adapter of a node, as the host names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adapter {
    /// The RDMA device (`ibv_devices`; the second word of its node description in
    /// `ibnetdiscover`, as a DGX sets it): `mlx5_0`.
    pub rdma: &'static str,
    /// The network interface in InfiniBand mode: `ibp24s0`.
    pub infiniband: &'static str,
    /// The network interface in Ethernet mode: `enp24s0np0`.
    pub ethernet: &'static str,
}

/// A DGX H100's (and H200's) eight compute ConnectX-7 adapters, rail 1 first: the RDMA devices
/// mlx5_0, 3, 4, 5, 6, 9, 10 and 11 (the others are its storage and in-band adapters) [NVIDIA
/// DGX H100/H200 User Guide, "Network Ports"], at PCI buses 0x18, 0x40, 0x4f, 0x5e, 0x9a, 0xc0,
/// 0xce and 0xdc in the same order [DGX BasePOD deployment guide, SR-IOV: `mlxconfig -d
/// <bus>:00.0` for the compute buses], their interfaces named from the bus by systemd's
/// predictable scheme [systemd.net-naming-scheme(7): `ibp<bus>s0`, `enp<bus>s0np0`].
const DGX_H100_ADAPTERS: &[Adapter] = &[
    Adapter {
        rdma: "mlx5_0",
        infiniband: "ibp24s0",
        ethernet: "enp24s0np0",
    },
    Adapter {
        rdma: "mlx5_3",
        infiniband: "ibp64s0",
        ethernet: "enp64s0np0",
    },
    Adapter {
        rdma: "mlx5_4",
        infiniband: "ibp79s0",
        ethernet: "enp79s0np0",
    },
    Adapter {
        rdma: "mlx5_5",
        infiniband: "ibp94s0",
        ethernet: "enp94s0np0",
    },
    Adapter {
        rdma: "mlx5_6",
        infiniband: "ibp154s0",
        ethernet: "enp154s0np0",
    },
    Adapter {
        rdma: "mlx5_9",
        infiniband: "ibp192s0",
        ethernet: "enp192s0np0",
    },
    Adapter {
        rdma: "mlx5_10",
        infiniband: "ibp206s0",
        ethernet: "enp206s0np0",
    },
    Adapter {
        rdma: "mlx5_11",
        infiniband: "ibp220s0",
        ethernet: "enp220s0np0",
    },
];

/// The adapters of the nodes on fabric `fabric` of `spec`: the node preset's compute adapters
/// on the compute fabric; none known elsewhere.
pub fn adapters_of(spec: &DesignSpec, fabric: &str) -> &'static [Adapter] {
    let compute = spec.fabric(fabric).is_some_and(|f| f.role == Role::Compute);
    match spec.cluster.node_preset.as_deref().and_then(node_preset) {
        Some(preset) if compute => preset.adapters,
        _ => &[],
    }
}

/// The rail of a host port named `port` as the host names it (an RDMA device or an interface
/// of `adapters`), from 1.
pub fn rail_of(adapters: &[Adapter], port: &str) -> Option<u32> {
    adapters
        .iter()
        .position(|a| a.rdma == port || a.infiniband == port || a.ethernet == port)
        .map(|i| i as u32 + 1)
}

pub static NODE_PRESETS: &[NodePreset] = &[
    NodePreset {
        key: "dgx-h100",
        name: "NVIDIA DGX H100 (8× H100, 8× ConnectX-7 NDR)",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        nics_per_node: 8,
        adapters: DGX_H100_ADAPTERS,
        power_supplies: Some(DGX_H100_SUPPLIES),
        source: "DGX SuperPOD H100 RA-11333-001",
    },
    NodePreset {
        key: "dgx-h200",
        name: "NVIDIA DGX H200 (8× H200, 8× ConnectX-7 NDR)",
        gpu: "h200-sxm",
        gpus_per_node: 8,
        nics_per_node: 8,
        adapters: DGX_H100_ADAPTERS,
        power_supplies: Some(DGX_H100_SUPPLIES),
        source: "NVIDIA DGX H200 datasheet via stas00/ml-engineering; ConnectX-7 NDR",
    },
    NodePreset {
        key: "dgx-b200",
        name: "NVIDIA DGX B200 (8× B200, 8× 400G)",
        gpu: "b200",
        gpus_per_node: 8,
        nics_per_node: 8,
        adapters: &[],
        power_supplies: Some(PowerSupplies {
            fitted: 6,
            full_performance: 5,
            running: 5,
            source: "NVIDIA DGX B200 User Guide: six power supplies, 5+1",
        }),
        source: "DGX SuperPOD B200 reference architecture",
    },
    NodePreset {
        key: "hgx-h100-4nic",
        name: "HGX H100 server (8× H100, 4 NICs)",
        gpu: "h100-sxm",
        gpus_per_node: 8,
        nics_per_node: 4,
        adapters: &[],
        power_supplies: None,
        source: "common OEM configuration",
    },
    NodePreset {
        key: "hgx-a100",
        name: "HGX A100 server (8× A100, 4× 200G)",
        gpu: "a100-sxm",
        gpus_per_node: 8,
        nics_per_node: 4,
        adapters: &[],
        power_supplies: None,
        source: "common OEM configuration",
    },
    NodePreset {
        key: "mi300x-8",
        name: "AMD MI300X platform (8× MI300X, 8 NICs)",
        gpu: "mi300x",
        gpus_per_node: 8,
        nics_per_node: 8,
        adapters: &[],
        power_supplies: None,
        source: "AMD MI300X platform via stas00/ml-engineering compute/accelerator",
    },
    NodePreset {
        key: "l40s-4",
        name: "PCIe inference server (4× L40S, 1 NIC)",
        gpu: "l40s",
        gpus_per_node: 4,
        nics_per_node: 1,
        adapters: &[],
        power_supplies: None,
        source: "common OEM configuration",
    },
];

pub fn node_preset(key: &str) -> Option<&'static NodePreset> {
    NODE_PRESETS.iter().find(|n| n.key == key)
}
