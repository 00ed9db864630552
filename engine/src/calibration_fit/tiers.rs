//! The fit's locality tiers: what crossing the spines, and then the core, costs a run across
//! nodes ([`Calibration::spine_efficiency_share`] and the rest), fitted where the baselines have
//! runs across a tier beside runs within the tier below it, which alone tell the tier's cost
//! from the transport's own efficiency and latency. A run's tier comes from its nodes and the
//! fabric's plan (nodes per leaf, per pod), its nodes placed together.

use super::{Model, Point, Values, UNSEEN};
use crate::spec::Calibration;
use crate::units::Micros;
use serde::{Deserialize, Serialize};

/// One locality tier as fitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TierFit {
    /// `spines` or `core`.
    pub tier: String,
    /// Measured sizes of runs across it.
    pub points: usize,
    /// The design's values before the fit.
    pub efficiency_share_before: f64,
    pub hop_extra_latency_before_us: Micros,
    /// The share of the rate kept across it, and the latency each network hop adds there, µs;
    /// `None` where the data cannot determine it (`not_fitted` says why).
    pub efficiency_share: Option<f64>,
    pub hop_extra_latency_us: Option<Micros>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_fitted: Option<String>,
}

const NAMES: [&str; 2] = ["spines", "core"];

/// The tier (1 the spines, 2 the core) of value `value` of [`Values::tiers`].
fn tier_of(value: usize) -> usize {
    value / 2 + 1
}

/// Whether `value` of [`Values::tiers`] is a share (else a latency).
pub(super) fn is_share(value: usize) -> bool {
    value.is_multiple_of(2)
}

/// Whether `points` have runs across the tier of `value` and runs within the tier just below.
pub(super) fn determined(points: &[Point], value: usize) -> bool {
    let tier = tier_of(value);
    points.iter().any(|p| p.tier == tier) && points.iter().any(|p| p.tier + 1 == tier)
}

/// Which of the tiers' values the measurements determine: a tier with runs across it and
/// within the tier below, its share where halving a tenth of it moves the largest message
/// across it, its latency where adding a network hop's moves the smallest.
pub(super) fn free(model: &Model, points: &[Point], start: Values) -> [bool; 4] {
    let hop = model.spec.calibration.network_hop_latency_us.micros();
    std::array::from_fn(|value| {
        let across = points.iter().filter(|p| p.tier == tier_of(value));
        let probe = if is_share(value) {
            across.max_by_key(|p| p.bytes)
        } else {
            across.min_by_key(|p| p.bytes)
        };
        let (Some(&p), true) = (probe, determined(points, value)) else {
            return false;
        };
        let mut changed = start;
        if is_share(value) {
            changed.tiers[value] *= 0.9;
            model.moved(start, changed, p) >= UNSEEN * 0.9
        } else {
            changed.tiers[value] += hop;
            model.moved(start, changed, p) >= UNSEEN
        }
    })
}

/// Each tier's value within its range: a share from a twentieth to 1, a latency up to 1 ms.
pub(super) fn bounded(value: usize, x: f64) -> f64 {
    if is_share(value) {
        x.clamp(0.05, 1.0)
    } else {
        x.clamp(0.0, 1000.0)
    }
}

/// How far each tier's value is from neutral, for the fit's weak pull towards it: a share's
/// logarithm, a latency in network hops of 17 µs.
pub(super) fn pulls(v: Values) -> impl Iterator<Item = f64> {
    v.tiers.into_iter().enumerate().map(|(i, t)| {
        if is_share(i) {
            t.max(1e-9).ln()
        } else {
            t / 17.0
        }
    })
}

/// The tiers the runs cross, as fitted to `best`, each with why a value is not fitted.
pub(super) fn fitted(model: &Model, points: &[Point], best: Values) -> Vec<TierFit> {
    (1..=2)
        .filter(|&tier| tier == 1 || points.iter().any(|p| p.tier == tier))
        .map(|tier| {
            let (s, l) = (2 * (tier - 1), 2 * (tier - 1) + 1);
            let across = points.iter().filter(|p| p.tier == tier).count();
            let name = NAMES[tier - 1];
            let below = if tier == 1 { "one leaf" } else { "one pod" };
            let not_fitted = if across == 0 {
                Some(format!("no run spans more than {below}: the {name}' cost is not measured, and stays neutral"))
            } else if !determined(points, s) {
                Some(format!("every run across nodes spans more than {below}: the {name}' cost cannot be told from the fabric's own efficiency and latency; add a run within {below}"))
            } else if !(model.tiers[s] && model.tiers[l]) {
                Some(format!(
                    "the runs across the {name} show {}",
                    match (model.tiers[s], model.tiers[l]) {
                        (false, false) => "neither its bandwidth nor its latency",
                        (true, _) => "no latency: their smallest message is too large",
                        (_, true) => "no bandwidth: their largest message is latency-bound",
                    }
                ))
            } else {
                None
            };
            let before = model.spec.calibration.tiers();
            TierFit {
                tier: name.to_string(),
                points: across,
                efficiency_share_before: before[s],
                hop_extra_latency_before_us: Micros::new(before[l]),
                efficiency_share: model.tiers[s].then_some(best.tiers[s]),
                hop_extra_latency_us: model.tiers[l].then_some(Micros::new(best.tiers[l])),
                not_fitted,
            }
        })
        .collect()
}

/// `c` with the values of the tiers `fitted` determined in place, as a person writes them.
pub(super) fn apply(c: &mut Calibration, fitted: &[TierFit]) {
    for t in fitted {
        let (share, extra) = match t.tier.as_str() {
            "spines" => (
                &mut c.spine_efficiency_share,
                &mut c.spine_hop_extra_latency_us,
            ),
            _ => (
                &mut c.core_efficiency_share,
                &mut c.core_hop_extra_latency_us,
            ),
        };
        if let Some(v) = t.efficiency_share {
            *share = super::to_thousandths(v);
        }
        if let Some(us) = t.hop_extra_latency_us {
            *extra = super::hundredths(us);
        }
    }
}
