use crate::technology::Transport;
use serde::{Deserialize, Serialize};

/// Achievable fractions of line rate and NCCL-like latencies. Visible inputs with defaults from
/// published measurements, overridable per design. Setting every efficiency to 1 and every
/// latency to 0 gives the ideal (closed-form) model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Calibration {
    /// InfiniBand NDR/XDR: ConnectX-7 reaches 46-49 of 50 GB/s per NIC in NCCL rings
    /// [nccl-tests #290, #267; DOMAIN.md B2] → 0.95.
    pub infiniband_efficiency: f64,
    /// RoCE v2 with PFC and ECN configured: no published NCCL figure in the reference; assumed a
    /// little below InfiniBand (estimate).
    pub roce_efficiency: f64,
    /// TCP without RDMA: gradients are packed into TCP segments and copied through the kernel
    /// (seed C3); NCCL's socket transport reaches well under line rate (estimate).
    pub tcp_efficiency: f64,
    /// Fraction of the GPU's line-rate scale-up bandwidth a ring achieves; the GPU catalog's
    /// effective figure when absent (H100: 370 of 450 GB/s).
    pub scale_up_efficiency: Option<f64>,
    /// Per-step latency of a network hop in a ring, µs: NCCL NET ring 14 µs + 3 × 1 µs per-step
    /// overhead (Simple protocol, Intel hosts) [NCCL tuning.cc; DOMAIN.md A2].
    pub network_hop_latency_us: f64,
    /// Extra per-hop latency of the kernel TCP stack, µs (estimate).
    pub tcp_extra_latency_us: f64,
    /// Per-step latency of an NVLink hop, µs [NCCL tuning.cc: 3.4].
    pub scale_up_hop_latency_us: f64,
    /// Base latency of a collective, µs [NCCL tuning.cc: 8.4 for Simple].
    pub collective_base_latency_us: f64,
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration {
            infiniband_efficiency: 0.95,
            roce_efficiency: 0.90,
            tcp_efficiency: 0.60,
            scale_up_efficiency: None,
            network_hop_latency_us: 17.0,
            tcp_extra_latency_us: 30.0,
            scale_up_hop_latency_us: 3.4,
            collective_base_latency_us: 8.4,
        }
    }
}

impl Calibration {
    /// Line rate, no latency: the closed forms of DOMAIN.md A1.
    pub fn ideal() -> Calibration {
        Calibration {
            infiniband_efficiency: 1.0,
            roce_efficiency: 1.0,
            tcp_efficiency: 1.0,
            scale_up_efficiency: Some(1.0),
            network_hop_latency_us: 0.0,
            tcp_extra_latency_us: 0.0,
            scale_up_hop_latency_us: 0.0,
            collective_base_latency_us: 0.0,
        }
    }

    pub fn efficiency(&self, transport: Transport) -> f64 {
        match transport {
            Transport::InfiniBand => self.infiniband_efficiency,
            Transport::Roce => self.roce_efficiency,
            Transport::Tcp => self.tcp_efficiency,
        }
    }

    pub fn hop_latency_us(&self, transport: Transport) -> f64 {
        match transport {
            Transport::Tcp => self.network_hop_latency_us + self.tcp_extra_latency_us,
            _ => self.network_hop_latency_us,
        }
    }
}

/// A price or power figure of the design's own, replacing the catalog's estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogOverride {
    /// The BOM item key (`switch:qm9700`, `optic:multimode:400:host`, ...).
    pub item: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_price_usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<f64>,
}
