//! A fabric's fit over time: each baseline fitted on its own, oldest first, with the locality
//! tier its run crosses, and whether the newest departs from the ones before it of the same tier
//! by more than they spread among themselves, which is what a degraded cable or transceiver, a
//! changed NCCL version or new firmware looks like. (A run across the spines fitted alone folds
//! their cost into its efficiency, so it is compared with runs across them only.)

use super::{fit, Baseline};
use crate::spec::DesignSpec;
use crate::units::Micros;
use serde::{Deserialize, Serialize};

/// The most recent baselines read: each is fitted on its own.
pub const MOST_BASELINES: usize = 24;

/// Run-to-run spread of nccl-tests on a healthy fabric, as a share of the bus bandwidth, below
/// which two runs count as the same even when the earlier ones agree exactly (estimate: repeated
/// all_reduce_perf runs differ by a few percent).
pub const NOISE: f64 = 0.03;

/// One baseline fitted on its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DriftPoint {
    /// Its place among the baselines given, from 0.
    pub index: usize,
    /// Where its run stands, its nodes placed together ([`TIER_WORDS`]): 0 on one node, 1
    /// within one leaf, 2 across the spines, 3 across the core as well.
    #[serde(default)]
    pub tier: usize,
    /// Its fitted efficiency; `None` where it fits nothing on its own, with the reason.
    pub efficiency: Option<f64>,
    /// Its fitted network-hop latency of each protocol band it shows (Simple, LL128, LL), µs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_hop_latency_us: Option<Micros>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ll128_network_hop_latency_us: Option<Micros>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ll_network_hop_latency_us: Option<Micros>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_fitted: Option<String>,
}

/// What a run crossing each number of upper tiers crosses, in words.
pub const TIER_WORDS: [&str; 4] = [
    "on one node",
    "within one leaf",
    "across the spines",
    "across the core",
];

/// The newest baseline against the ones before it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Departure {
    pub latest: f64,
    /// Mean and sample standard deviation of the earlier baselines' efficiencies.
    pub earlier_mean: f64,
    pub earlier_spread: f64,
    pub message: String,
}

/// The fit over time of a fabric's baselines (oldest first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Drift {
    pub points: Vec<DriftPoint>,
    /// Set when the newest departs from the earlier ones by more than their spread (at least
    /// [`NOISE`] of their mean); needs two earlier baselines that fit.
    pub departure: Option<Departure>,
}

/// Each of the last [`MOST_BASELINES`] of `baselines` (oldest first) fitted on its own to
/// fabric `fabric` of `spec`, and whether the newest departs from the others.
pub fn drift(spec: &DesignSpec, fabric: &str, baselines: &[Baseline]) -> Drift {
    let from = baselines.len().saturating_sub(MOST_BASELINES);
    let points: Vec<DriftPoint> = baselines[from..]
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let alone = fit(spec, fabric, std::slice::from_ref(b));
            let tier = crate::baseline::check_assuming(spec, fabric, b.run, b.stated, b.algorithm)
                .map_or(1, |c| match c.nodes {
                    0 | 1 => 0,
                    n => 1 + crate::baseline::tiers_crossed(spec, fabric, n),
                });
            DriftPoint {
                index: from + i,
                tier,
                efficiency: alone.as_ref().ok().map(|f| f.efficiency),
                network_hop_latency_us: alone.as_ref().ok().and_then(|f| f.network_hop_latency_us),
                ll128_network_hop_latency_us: alone
                    .as_ref()
                    .ok()
                    .and_then(|f| f.ll128_network_hop_latency_us),
                ll_network_hop_latency_us: alone
                    .as_ref()
                    .ok()
                    .and_then(|f| f.ll_network_hop_latency_us),
                not_fitted: alone.err(),
            }
        })
        .collect();
    let departure = points.split_last().and_then(|(last, earlier)| {
        let latest = last.efficiency?;
        let earlier: Vec<f64> = earlier
            .iter()
            .filter(|p| p.tier == last.tier)
            .filter_map(|p| p.efficiency)
            .collect();
        if earlier.len() < 2 {
            return None;
        }
        let n = earlier.len() as f64;
        let mean = earlier.iter().sum::<f64>() / n;
        let spread = (earlier.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        ((latest - mean).abs() > spread.max(NOISE * mean)).then(|| Departure {
            latest,
            earlier_mean: mean,
            earlier_spread: spread,
            message: format!(
                "The newest baseline fits an efficiency of {latest:.3} against {mean:.3} ± {spread:.3} for the {} before it {}: the fabric {} since. A degraded cable or transceiver, a changed NCCL version or new firmware looks like this: run it again, and read the link counters of the rails it ran on.",
                earlier.len(),
                TIER_WORDS[last.tier.min(3)],
                if latest < mean { "slowed down" } else { "sped up" }
            ),
        })
    });
    Drift { points, departure }
}
