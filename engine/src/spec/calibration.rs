use crate::technology::Transport;
use crate::units::{Micros, Minutes};
use crate::units::{Usd, Watts};
use borsh::{BorshDeserialize, BorshSerialize};
use serde::{Deserialize, Serialize};

/// Achievable fractions of line rate and NCCL-like latencies. Visible inputs with defaults from
/// published measurements, overridable per design. Setting every efficiency to 1 and every
/// latency to 0 gives the ideal (closed-form) model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Calibration {
    /// InfiniBand NDR/XDR: ConnectX-7 reaches 46-49 of 50 GB/s per NIC in NCCL rings
    /// [nccl-tests #290, #267; stas00/ml-engineering] → 0.95.
    pub infiniband_efficiency: f64,
    /// RoCE v2 with PFC and ECN configured: NVIDIA gives the same per-NIC rate as InfiniBand
    /// [nccl-tests #290]; taken a little below it.
    pub roce_efficiency: f64,
    /// TCP without RDMA: gradients are packed into TCP segments and copied through the kernel
    /// (seed C3); NCCL's socket transport reaches at most about 60 % of wire speed
    /// [NVIDIA/nccl #209].
    pub tcp_efficiency: f64,
    /// Fraction of the GPU's line-rate scale-up bandwidth a ring achieves; the GPU catalog's
    /// effective figure when absent (H100: 370 of 450 GB/s).
    pub scale_up_efficiency: Option<f64>,
    /// Per-step latency of a network hop in a ring, µs: NCCL NET ring 14 µs + 3 × 1 µs per-step
    /// overhead (Simple protocol, Intel hosts) [NCCL src/graph/tuning.cc].
    pub network_hop_latency_us: Micros,
    /// Extra per-hop latency of the kernel TCP stack, µs (estimate).
    pub tcp_extra_latency_us: Micros,
    /// Per-step latency of an NVLink hop, µs [NCCL tuning.cc: 3.4].
    pub scale_up_hop_latency_us: Micros,
    /// Base latency of a collective, µs [NCCL tuning.cc: 8.4 for Simple].
    pub collective_base_latency_us: Micros,
    /// LL protocol (8-byte lines, each with a flag): base latency, per NVLink step and per
    /// network step, µs [NCCL tuning.cc ring LL: 6.6, 0.6, 2.7 + 1 µs per-step overhead].
    pub ll_base_latency_us: Micros,
    pub ll_scale_up_hop_latency_us: Micros,
    pub ll_network_hop_latency_us: Micros,
    /// Share of the Simple bandwidth LL keeps [NCCL tuning.cc: ring LL busBw × 1/4].
    pub ll_bandwidth_share: f64,
    /// LL128 protocol (120 payload bytes in every 128): base, NVLink step and network step
    /// latency, µs [NCCL tuning.cc ring LL128: 14, 1.9, 4.0 + 1 µs per-step overhead].
    pub ll128_base_latency_us: Micros,
    pub ll128_scale_up_hop_latency_us: Micros,
    pub ll128_network_hop_latency_us: Micros,
    /// Share of the Simple bandwidth LL128 keeps [NCCL tuning.cc: 0.85 on Hopper, 0.92 before].
    pub ll128_bandwidth_share: f64,
    /// Let AllReduces inside a node use NVLink SHARP where the GPU's NVSwitch has it (NCCL does by
    /// default, NCCL_NVLS_ENABLE=1).
    pub nvls: bool,
    /// NVLS algorithm bandwidth per GPU as a share of the scale-up line rate: 8 H100 reach
    /// algbw ≈ 274 of 450 GB/s (busbw ≈ 480) [nccl-tests #290, #347; NVIDIA/nccl #1455].
    pub nvls_efficiency: f64,
    /// NVLS latency, µs [NCCL tuning.cc: NVLS over NVLink 25].
    pub nvls_latency_us: Micros,
    /// Let AllReduces between nodes reduce in the switches (SHARP through NCCL's CollNet plugin)
    /// where the switch supports it. Off by default: it needs the SHARP aggregation manager and
    /// the NCCL SHARP plugin deployed.
    pub in_network_reduction: bool,
    /// Share of the NICs' achievable rate an in-network reduction sustains (estimate).
    pub in_network_efficiency: f64,
    /// In-network reduction latency, µs [NCCL tuning.cc: CollNet Direct over the network 31].
    pub in_network_latency_us: Micros,
    /// Queue pairs per connection on Ethernet fabrics (NCCL_IB_QPS_PER_CONNECTION, default 1):
    /// each is a flow that ECMP hashes onto its own path [Gangidi et al., SIGCOMM 2024].
    pub qps_per_connection: u32,
    /// How an Ethernet fabric spreads flows over the leaf uplinks (InfiniBand uses adaptive
    /// routing).
    pub ethernet_load_balancing: LoadBalancing,
    /// Share of the fabric's achievable rate a collective keeps once its nodes span leaves (it
    /// crosses the spines), and the latency each network hop adds there, µs. Neutral (1 and 0)
    /// unless fitted to baselines spanning leaves beside baselines within one
    /// (`crate::calibration_fit`): the leaf uplinks' oversubscription and ECMP collisions are
    /// modelled apart.
    pub spine_efficiency_share: f64,
    pub spine_hop_extra_latency_us: Micros,
    /// The same again once its nodes span pods (it crosses the core of a three-tier fabric).
    pub core_efficiency_share: f64,
    pub core_hop_extra_latency_us: Micros,
    /// Unexpected training-job interruptions per 1,000 GPU-days, all causes: 419 in 54 days on
    /// 16,384 H100 GPUs [Llama 3, arXiv:2407.21783 §3.3.4] → 0.474.
    pub interruptions_per_1000_gpu_days: f64,
    /// Minutes from an interruption to training again: detecting it, rescheduling, loading the
    /// last checkpoint (estimate, on the long side).
    pub restart_minutes: Minutes,
    /// Where a fitted calibration came from: absent for the defaults or values typed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fitted: Option<Fitted>,
}

/// A calibration fitted to nccl-tests baselines measured on the built fabric
/// (`crate::calibration_fit`), and the transport's values the fit gave, so that one changed by
/// hand afterwards shows as such (the locality tiers' and the node's fitted values are the
/// calibration's own, kept once).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct Fitted {
    /// The fabric the baselines were measured on.
    pub fabric: String,
    /// The design's baselines the fit read, by number.
    pub baselines: Vec<u32>,
    /// When it was fitted: YYYY-MM-DD.
    pub on: String,
    /// The calibration field fitted (`infiniband_efficiency`) and its fitted value.
    pub efficiency_field: String,
    pub efficiency: f64,
    /// Simple's network-hop latency as fitted, µs; absent where the data could not determine it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_hop_latency_us: Option<Micros>,
    /// LL128's and LL's network-hop latencies, µs, where the baselines had messages NCCL sends
    /// with them to fit on; absent, each scales as Simple's did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ll128_network_hop_latency_us: Option<Micros>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ll_network_hop_latency_us: Option<Micros>,
    /// The fit's worst error, percent of the measured bus bandwidth, on the points it used or
    /// held out, whichever is larger: the interval of this fabric's times
    /// ([`crate::uncertainty`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worst_error_percent: Option<f64>,
}

impl Fitted {
    /// Where the values came from, in words: "fitted on 2026-12-06 to baselines #1, #2 of
    /// fabric compute".
    pub fn summary(&self) -> String {
        format!(
            "fitted on {} to baselines {} of fabric {}",
            self.on,
            numbered(&self.baselines),
            self.fabric
        )
    }
}

/// Baseline numbers as a list: "#1, #2".
pub fn numbered(baselines: &[u32]) -> String {
    let numbers: Vec<String> = baselines.iter().map(|n| format!("#{n}")).collect();
    numbers.join(", ")
}

/// Where a design's calibration comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CalibrationSource<'a> {
    /// Every value the engine's default, each with its public source.
    Defaults,
    /// Values the user typed in.
    TypedIn,
    /// Fitted to baselines, and unchanged since.
    Fitted(&'a Fitted),
    /// Fitted to baselines, then changed by hand.
    FittedThenChanged(&'a Fitted),
}

impl Calibration {
    /// The locality tiers' values: the spines' share and extra hop latency, then the core's.
    pub fn tiers(&self) -> [f64; 4] {
        [
            self.spine_efficiency_share,
            self.spine_hop_extra_latency_us.micros(),
            self.core_efficiency_share,
            self.core_hop_extra_latency_us.micros(),
        ]
    }

    /// Where these values come from.
    pub fn source(&self) -> CalibrationSource<'_> {
        let Some(fitted) = &self.fitted else {
            let defaults = Calibration::default();
            return if *self == defaults {
                CalibrationSource::Defaults
            } else {
                CalibrationSource::TypedIn
            };
        };
        let efficiency = super::CALIBRATION_FIELDS
            .iter()
            .find(|f| f.field == fitted.efficiency_field)
            .map(|f| (f.get)(self));
        let kept = |fitted: Option<Micros>, now: Micros| {
            fitted.is_none_or(|us| (us.micros() - now.micros()).abs() < 1e-9)
        };
        let same = efficiency.is_some_and(|e| (e - fitted.efficiency).abs() < 1e-9)
            && kept(fitted.network_hop_latency_us, self.network_hop_latency_us)
            && kept(
                fitted.ll128_network_hop_latency_us,
                self.ll128_network_hop_latency_us,
            )
            && kept(
                fitted.ll_network_hop_latency_us,
                self.ll_network_hop_latency_us,
            );
        if same {
            CalibrationSource::Fitted(fitted)
        } else {
            CalibrationSource::FittedThenChanged(fitted)
        }
    }
}

/// How the switches spread flows over equal-cost uplinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadBalancing {
    /// Static hashing of each flow's 5-tuple onto one uplink: flows can collide.
    #[default]
    Ecmp,
    /// The switch picks the least loaded uplink per packet or flowlet (InfiniBand adaptive
    /// routing, Spectrum-X).
    Adaptive,
    /// Packets of a flow sprayed over every uplink, reordered at the receiver.
    PacketSpraying,
}

impl LoadBalancing {
    pub fn label(self) -> &'static str {
        match self {
            LoadBalancing::Ecmp => "ECMP hashing",
            LoadBalancing::Adaptive => "adaptive routing",
            LoadBalancing::PacketSpraying => "packet spraying",
        }
    }
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration {
            infiniband_efficiency: 0.95,
            roce_efficiency: 0.90,
            tcp_efficiency: 0.60,
            interruptions_per_1000_gpu_days: 0.474,
            restart_minutes: Minutes::new(30.0),
            scale_up_efficiency: None,
            network_hop_latency_us: Micros::new(17.0),
            tcp_extra_latency_us: Micros::new(30.0),
            scale_up_hop_latency_us: Micros::new(3.4),
            collective_base_latency_us: Micros::new(8.4),
            ll_base_latency_us: Micros::new(6.6),
            ll_scale_up_hop_latency_us: Micros::new(0.6),
            ll_network_hop_latency_us: Micros::new(3.7),
            ll_bandwidth_share: 0.25,
            ll128_base_latency_us: Micros::new(14.0),
            ll128_scale_up_hop_latency_us: Micros::new(1.9),
            ll128_network_hop_latency_us: Micros::new(5.0),
            ll128_bandwidth_share: 0.85,
            nvls: true,
            nvls_efficiency: 0.61,
            nvls_latency_us: Micros::new(25.0),
            in_network_reduction: false,
            in_network_efficiency: 0.9,
            in_network_latency_us: Micros::new(31.0),
            qps_per_connection: 1,
            ethernet_load_balancing: LoadBalancing::Ecmp,
            spine_efficiency_share: 1.0,
            spine_hop_extra_latency_us: Micros::new(0.0),
            core_efficiency_share: 1.0,
            core_hop_extra_latency_us: Micros::new(0.0),
            fitted: None,
        }
    }
}

impl Calibration {
    /// Line rate, no latency, rings and trees only: the closed forms of the alpha-beta model [Thakur, Rabenseifner & Gropp, IJHPCA 2005].
    pub fn ideal() -> Calibration {
        Calibration {
            nvls: false,
            in_network_reduction: false,
            ethernet_load_balancing: LoadBalancing::PacketSpraying,
            infiniband_efficiency: 1.0,
            roce_efficiency: 1.0,
            tcp_efficiency: 1.0,
            scale_up_efficiency: Some(1.0),
            network_hop_latency_us: Micros::new(0.0),
            tcp_extra_latency_us: Micros::new(0.0),
            scale_up_hop_latency_us: Micros::new(0.0),
            collective_base_latency_us: Micros::new(0.0),
            ..Calibration::default()
        }
    }

    pub fn efficiency(&self, transport: Transport) -> f64 {
        match transport {
            Transport::InfiniBand => self.infiniband_efficiency,
            Transport::Roce => self.roce_efficiency,
            Transport::Tcp => self.tcp_efficiency,
        }
    }

    pub fn hop_latency_us(&self, transport: Transport) -> Micros {
        match transport {
            Transport::Tcp => self.network_hop_latency_us + self.tcp_extra_latency_us,
            _ => self.network_hop_latency_us,
        }
    }
}

/// A price or power figure of the design's own, replacing the catalog's estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(BorshSerialize, BorshDeserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogOverride {
    /// The BOM item key (`switch:qm9700`, `optic:multimode:400:host`, ...).
    pub item: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_price_usd: Option<Usd>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<Watts>,
}
