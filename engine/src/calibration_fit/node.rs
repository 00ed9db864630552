//! The fit within one node: NVLink's achievable share of its line rate and its hop latency
//! (every protocol's, in proportion), and NVLS's efficiency and latency where NCCL reduces in the
//! NVSwitch, fitted to the baselines run on one node. A run on one node crosses no network, so
//! these are the only values it measures; runs across nodes carry them too (their hops inside
//! each node), weakly.

use super::{Model, Point, Values, UNSEEN};
use crate::spec::{Calibration, DesignSpec};
use crate::units::Micros;
use serde::{Deserialize, Serialize};

/// Within one node, as fitted.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NodeFit {
    /// Measured sizes of runs on one node.
    pub points: usize,
    /// The design's values and the fitted ones; `None` where the data does not show a value.
    pub scale_up_efficiency_before: f64,
    pub scale_up_efficiency: Option<f64>,
    /// NVLink's hop latency of the Simple protocol, µs (LL's and LL128's scale with it).
    pub scale_up_hop_latency_before_us: Micros,
    pub scale_up_hop_latency_us: Option<Micros>,
    pub nvls_efficiency_before: f64,
    pub nvls_efficiency: Option<f64>,
    pub nvls_latency_before_us: Micros,
    pub nvls_latency_us: Option<Micros>,
    /// Why a value is not fitted, where one is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_fitted: Option<String>,
}

/// Whether value `i` of [`Values::node`] is a latency scale (else an efficiency).
pub(super) fn is_scale(i: usize) -> bool {
    i % 2 == 1
}

/// The design's values within the node: its scale-up efficiency (the GPU catalog's achievable
/// share where the design sets none), NVLS's efficiency, and the two latency scales at 1.
pub(super) fn before(spec: &DesignSpec) -> [f64; 4] {
    let c = &spec.calibration;
    let catalog = crate::catalog::gpu(&spec.cluster.gpu).map_or(1.0, |g| {
        g.scale_up_effective_gbytes_per_s / g.scale_up_gbytes_per_s
    });
    [
        c.scale_up_efficiency.unwrap_or(catalog),
        1.0,
        c.nvls_efficiency,
        1.0,
    ]
}

/// `c` with the node's values `v` in place, where they differ from the design's (`before`):
/// the scale-up latency scale reaches every protocol's NVLink hop.
pub(super) fn set(c: &mut Calibration, v: [f64; 4], before: [f64; 4]) {
    if v[0] != before[0] {
        c.scale_up_efficiency = Some(v[0]);
    }
    c.scale_up_hop_latency_us *= v[1];
    c.ll_scale_up_hop_latency_us *= v[1];
    c.ll128_scale_up_hop_latency_us *= v[1];
    c.nvls_efficiency = v[2];
    c.nvls_latency_us *= v[3];
}

/// How far each value is from the design's, for the fit's weak pull towards it.
pub(super) fn pulls(v: Values, before: [f64; 4]) -> impl Iterator<Item = f64> {
    (0..4).map(move |i| {
        if is_scale(i) {
            v.node[i].max(1e-12).ln()
        } else {
            (v.node[i] / before[i].max(1e-12)).max(1e-12).ln()
        }
    })
}

/// Which values within the node the runs on one node show: an efficiency where a tenth less
/// moves one of their predictions by the share the fit needs, a latency where doubling it does.
pub(super) fn free(model: &Model, points: &[Point], start: Values) -> [bool; 4] {
    let in_node: Vec<Point> = points.iter().filter(|p| p.in_node).copied().collect();
    if in_node.is_empty() {
        return [false; 4];
    }
    let at_start = model.predict(start, &in_node);
    std::array::from_fn(|i| {
        let mut changed = start;
        if is_scale(i) {
            changed.node[i] *= 2.0;
        } else {
            changed.node[i] *= 0.9;
        }
        let threshold = if is_scale(i) { UNSEEN } else { UNSEEN * 0.9 };
        model
            .predict(changed, &in_node)
            .iter()
            .zip(&at_start)
            .any(|(y, x)| ((x - y) / x).abs() >= threshold)
    })
}

/// The values within the node as fitted to `best`.
pub(super) fn fitted(model: &Model, points: &[Point], best: Values) -> NodeFit {
    let c = &model.spec.calibration;
    let before = model.node_before;
    let runs = points.iter().filter(|p| p.in_node).count();
    let free = |i: usize| model.node[i];
    let shown: Vec<&str> = [
        "NVLink's bandwidth",
        "NVLink's latency",
        "NVLS's bandwidth",
        "NVLS's latency",
    ]
    .into_iter()
    .enumerate()
    .filter(|&(i, _)| !free(i))
    .map(|(_, name)| name)
    .collect();
    NodeFit {
        points: runs,
        scale_up_efficiency_before: before[0],
        scale_up_efficiency: free(0).then_some(best.node[0]),
        scale_up_hop_latency_before_us: c.scale_up_hop_latency_us,
        scale_up_hop_latency_us: free(1).then_some(c.scale_up_hop_latency_us * best.node[1]),
        nvls_efficiency_before: before[2],
        nvls_efficiency: free(2).then_some(best.node[2]),
        nvls_latency_before_us: c.nvls_latency_us,
        nvls_latency_us: free(3).then_some(c.nvls_latency_us * best.node[3]),
        not_fitted: if runs == 0 {
            Some("no run is on one node: NVLink's and NVLS's values are not measured (nccl-tests on one node's GPUs measures them)".into())
        } else if shown.is_empty() {
            None
        } else {
            Some(format!(
                "the runs on one node do not show {} (NCCL uses what it chooses for each size)",
                shown.join(", ")
            ))
        },
    }
}

/// `c` with the values within the node that `fitted` determined in place, as a person writes
/// them: NVLink's latency reaching LL's and LL128's NVLink hops in proportion.
pub(super) fn apply(c: &mut Calibration, fitted: &NodeFit) {
    use super::{hundredths, to_thousandths};
    if let Some(e) = fitted.scale_up_efficiency {
        c.scale_up_efficiency = Some(to_thousandths(e));
    }
    if let Some(us) = fitted.scale_up_hop_latency_us {
        let scale = us.micros() / c.scale_up_hop_latency_us.micros().max(1e-12);
        c.scale_up_hop_latency_us = hundredths(us);
        c.ll_scale_up_hop_latency_us = hundredths(c.ll_scale_up_hop_latency_us * scale);
        c.ll128_scale_up_hop_latency_us = hundredths(c.ll128_scale_up_hop_latency_us * scale);
    }
    if let Some(e) = fitted.nvls_efficiency {
        c.nvls_efficiency = to_thousandths(e);
    }
    if let Some(us) = fitted.nvls_latency_us {
        c.nvls_latency_us = hundredths(us);
    }
}
