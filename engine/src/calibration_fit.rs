//! The calibration fitted to what the built fabric measured. From a fabric's nccl-tests
//! baselines, the transport's bandwidth efficiency and the network-hop latency of each NCCL
//! protocol band the runs cover (Simple's, LL128's, LL's: the messages NCCL sends with each,
//! as its tuner chooses by its own model, [`crate::tuning`]) that bring the engine's own
//! predictions of those runs ([`crate::baseline::check_assuming`]) closest to what was
//! measured, with the fit's error on the points it used and on points it held out. A protocol
//! no run shows keeps its latency in proportion to Simple's, as NCCL's constants have it.
//!
//! Per locality tier: runs on one node measure NVLink's and NVLS's values (`node.rs`); runs
//! across nodes within one leaf the transport's; runs across the spines beside runs within one
//! leaf (and across the core beside runs within one pod) what crossing that tier costs
//! (`tiers.rs`), each run's tier from its nodes and the fabric's plan. The network's values need
//! runs across nodes. The fit is refused, with the reason, where the data cannot determine a
//! value: one message size cannot tell latency from bandwidth; messages all large enough to hide
//! the latency leave it at its default (said so), and messages all too small to show the
//! bandwidth leave nothing to fit.
//!
//! The error of a point is the relative error of the predicted bus bandwidth against the
//! measured one; the fit minimises the sum of squared logarithms of predicted ÷ measured, so
//! that a message of 8 B and one of 8 GB weigh alike (as simllm calibrates and inference-sim's
//! `blis calibrate` reports: MAPE, bias and the worst point).

use crate::baseline::{check_assuming, BaselineCheck, Stated};
use crate::collective::{Algorithm, Protocol};
use crate::nccl_tests::Run;
use crate::spec::{Calibration, DesignSpec, Fitted};
use crate::technology::Transport;
use crate::units::GigabytesPerSecond;
use crate::units::Micros;
use serde::{Deserialize, Serialize};

/// One stored baseline of the fabric: the run and what its person said about it.
#[derive(Debug, Clone, Copy)]
pub struct Baseline<'a> {
    pub run: &'a Run,
    pub stated: Stated,
    pub algorithm: Option<Algorithm>,
}

/// The fitted calibration of one fabric and how well it predicts the measurements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Fit {
    pub fabric: String,
    /// The calibration field of the fabric's transport (`roce_efficiency`).
    pub efficiency_field: String,
    pub efficiency_before: f64,
    pub efficiency: f64,
    /// Why the measurements only bound the efficiency from below, where they do: above the
    /// fitted value something else (NVLink inside the node) bounds every run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub efficiency_only_at_least: Option<String>,
    /// Simple's network-hop latency, µs, before and fitted (LL's and LL128's scale with it);
    /// `None` where the data cannot determine it, with the reason.
    pub network_hop_latency_before_us: Micros,
    pub network_hop_latency_us: Option<Micros>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_not_fitted: Option<String>,
    /// LL128's and LL's network-hop latencies, µs, before and fitted on the messages NCCL sends
    /// with each; `None` where no run shows that protocol's latency (it scales as Simple's).
    #[serde(default)]
    pub ll128_network_hop_latency_before_us: Micros,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ll128_network_hop_latency_us: Option<Micros>,
    #[serde(default)]
    pub ll_network_hop_latency_before_us: Micros,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ll_network_hop_latency_us: Option<Micros>,
    /// The locality tiers the runs cross (the spines, the core), as fitted.
    #[serde(default)]
    pub tiers: Vec<TierFit>,
    /// Within one node (NVLink, NVLS), as fitted to the runs on one node.
    #[serde(default)]
    pub node: NodeFit,
    /// Message sizes of runs across nodes that the fit used.
    pub points: usize,
    /// The error of the fitted model on the points it used.
    pub quality: Quality,
    /// Fitted on part of the points, its error on the rest; `None` where too few remain.
    pub held_out: Option<HeldOut>,
    /// With several rank counts, the reverse: fitted without the smallest, its error on it
    /// (a fit on few ranks can miss many, and the other way round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_out_smallest: Option<HeldOut>,
}

impl Fit {
    /// A protocol's network-hop latency once applied, µs: its own fitted value, else its value
    /// `before` scaled as Simple's was; `None` where no latency was fitted.
    pub fn protocol_latency_us(&self, before: Micros, own: Option<Micros>) -> Option<Micros> {
        let simple = self.network_hop_latency_us?.micros();
        let simple_before = self.network_hop_latency_before_us.micros().max(1e-12);
        Some(own.unwrap_or(Micros::new(before.micros() * simple / simple_before)))
    }

    /// `calibration` with the values of `fitted` (this fit's [`Fit::provenance`]) in place: the
    /// transport's efficiency and, where the fit determined it, every protocol's network-hop
    /// latency scaled as Simple's was.
    pub fn applied_to(&self, calibration: &Calibration, fitted: Fitted) -> Calibration {
        let mut c = calibration.clone();
        if let Some(f) = crate::spec::CALIBRATION_FIELDS
            .iter()
            .find(|f| f.field == self.efficiency_field)
        {
            (f.set)(&mut c, fitted.efficiency);
        }
        if let Some(us) = fitted.network_hop_latency_us {
            let scale = us.micros() / c.network_hop_latency_us.micros().max(1e-12);
            c.network_hop_latency_us = us;
            c.ll_network_hop_latency_us = fitted
                .ll_network_hop_latency_us
                .unwrap_or_else(|| hundredths(c.ll_network_hop_latency_us * scale));
            c.ll128_network_hop_latency_us = fitted
                .ll128_network_hop_latency_us
                .unwrap_or_else(|| hundredths(c.ll128_network_hop_latency_us * scale));
        }
        tiers::apply(&mut c, &self.tiers);
        node::apply(&mut c, &self.node);
        c.fitted = Some(fitted);
        c
    }

    /// Where a calibration with this fit in place comes from: `baselines` of the design, fitted
    /// `on` a day.
    pub fn provenance(&self, baselines: Vec<u32>, on: &str) -> Fitted {
        Fitted {
            fabric: self.fabric.clone(),
            baselines,
            on: on.to_string(),
            efficiency_field: self.efficiency_field.clone(),
            // As a person writes them: the fit's error is far above the digits dropped.
            efficiency: to_thousandths(self.efficiency),
            network_hop_latency_us: self.network_hop_latency_us.map(hundredths),
            ll128_network_hop_latency_us: self.ll128_network_hop_latency_us.map(hundredths),
            ll_network_hop_latency_us: self.ll_network_hop_latency_us.map(hundredths),
            worst_error_percent: Some(
                (std::iter::once(&self.quality)
                    .chain(self.held_out.iter().map(|h| &h.quality))
                    .chain(self.held_out_smallest.iter().map(|h| &h.quality))
                    .map(|q| q.worst.error_percent.abs())
                    .fold(0.0, f64::max)
                    * 10.0)
                    .ceil()
                    / 10.0,
            ),
        }
    }
}

/// `v` to three decimals.
fn to_thousandths(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// `v` to two decimals.
fn to_hundredths(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// A latency as a person writes it: to the hundredth of a microsecond.
fn hundredths(us: Micros) -> Micros {
    Micros::new(to_hundredths(us.micros()))
}

/// Errors of predicted against measured bus bandwidth, in percent of the measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Quality {
    /// Mean absolute percentage error.
    pub mape_percent: f64,
    /// Mean signed error: positive when the model predicts more than was measured.
    pub bias_percent: f64,
    pub worst: WorstPoint,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WorstPoint {
    pub bytes: u64,
    pub ranks: u32,
    pub error_percent: f64,
}

/// The fit's error on points it did not use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HeldOut {
    /// What was held out: "the largest rank count, 128" or "every other message size".
    pub held_out: String,
    pub quality: Quality,
}

/// A measured message size of a run across nodes.
#[derive(Debug, Clone, Copy)]
struct Point {
    baseline: usize,
    bytes: u64,
    ranks: u32,
    measured: f64,
    /// The protocol band NCCL sends it in, and its algorithm and protocol.
    band: usize,
    choice: Option<(Algorithm, Protocol)>,
    /// The upper tiers its run crosses: 0 within a leaf, 1 the spines, 2 the core as well.
    tier: usize,
    /// Its run is on one node: NVLink (or NVLS) only.
    in_node: bool,
}

/// The protocol bands, in the order a band without a latency of its own follows the first that
/// has one.
const BANDS: [Protocol; 3] = [Protocol::Simple, Protocol::Ll128, Protocol::Ll];

/// The calibration values the fit varies: the efficiency, and a scale on each protocol band's
/// network-hop latency ([`BANDS`] order).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Values {
    efficiency: f64,
    scales: [f64; 3],
    /// The locality tiers' values, in [`Calibration::tiers`]'s order.
    tiers: [f64; 4],
    /// Within the node ([`node`]): the scale-up efficiency, a scale on the scale-up hop
    /// latencies, NVLS's efficiency and a scale on its latency.
    node: [f64; 4],
}

/// A value the fit varies beside the efficiency and the bands' latency scales, in the
/// coordinates Levenberg-Marquardt moves: a locality tier's ([`Values::tiers`]), or one within
/// the node ([`Values::node`]), a latency scale by its logarithm.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Param {
    Tier(usize),
    Node(usize),
}

impl Param {
    fn get(self, v: &Values) -> f64 {
        match self {
            Param::Tier(i) => v.tiers[i],
            Param::Node(i) if node::is_scale(i) => v.node[i].ln(),
            Param::Node(i) => v.node[i],
        }
    }

    fn set(self, v: &mut Values, x: f64) {
        match self {
            Param::Tier(i) => v.tiers[i] = x,
            Param::Node(i) if node::is_scale(i) => v.node[i] = x.exp(),
            Param::Node(i) => v.node[i] = x,
        }
    }

    fn bounded(self, x: f64) -> f64 {
        match self {
            Param::Tier(i) => tiers::bounded(i, x),
            Param::Node(i) if node::is_scale(i) => x.clamp(-LN_16, LN_16),
            Param::Node(_) => x.clamp(0.01, 1.0),
        }
    }

    /// Whether it is a share, stepped down at its top of 1.
    fn is_share(self) -> bool {
        match self {
            Param::Tier(i) => tiers::is_share(i),
            Param::Node(i) => !node::is_scale(i),
        }
    }
}

impl Values {
    /// Every band's latency scaled by `scale`.
    fn scaled(self, scale: f64) -> Values {
        Values {
            scales: [scale; 3],
            ..self
        }
    }

    /// Band `band`'s latency scaled by `scale`.
    fn with_scale(mut self, band: usize, scale: f64) -> Values {
        self.scales[band] = scale;
        self
    }
}

/// A change of a prediction smaller than this share says the data does not see a value.
const UNSEEN: f64 = 0.02;

/// Fits the calibration of fabric `fabric` of `spec` to its `baselines`.
pub fn fit(spec: &DesignSpec, fabric: &str, baselines: &[Baseline]) -> Result<Fit, String> {
    // The switches chosen once: each prediction below would choose them again.
    let spec = &*crate::switch_choice::with_switches_chosen(spec);
    let on = spec
        .fabrics
        .iter()
        .find(|f| f.name == fabric)
        .ok_or_else(|| format!("the design has no fabric named {fabric:?}"))?;
    let transport = on.technology.transport();
    let (field, before) = efficiency(&spec.calibration, transport);
    let (points, checks) = points(spec, fabric, baselines)?;
    // What the network's values are fitted and judged on: the runs across nodes.
    let network: Vec<Point> = points.iter().filter(|p| !p.in_node).copied().collect();
    let mut sizes: Vec<u64> = network.iter().map(|p| p.bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    if sizes.len() < 2 {
        return Err(format!(
            "the baselines across nodes measure one message size ({} B): one size cannot tell the latency from the bandwidth; add runs over a range of sizes (nccl-tests -b 8 -e 8G -f 2)",
            sizes.first().copied().unwrap_or(0)
        ));
    }
    let node_before = node::before(spec);
    let start = Values {
        efficiency: before,
        scales: [1.0; 3],
        tiers: spec.calibration.tiers(),
        node: node_before,
    };
    let mut model = Model {
        spec,
        fabric,
        checks,
        transport,
        seen: [false; 3],
        tiers: [false; 4],
        node: [false; 4],
        node_before,
    };
    // The bandwidth must show in the largest message: else nothing here can be fitted.
    let largest = *network.iter().max_by_key(|p| p.bytes).expect("two sizes");
    let less_efficient = Values {
        efficiency: before * 0.9,
        ..start
    };
    if model.moved(start, less_efficient, largest) < UNSEEN * 0.9 {
        return Err(format!(
            "every measured message is too small for the bandwidth to show (the largest, {} B, is latency-bound): add larger messages",
            largest.bytes
        ));
    }
    // A band's latency is fitted where doubling it moves the smallest message NCCL sends in it.
    let smallest_of = |band: usize| {
        network
            .iter()
            .filter(|p| p.band == band)
            .min_by_key(|p| p.bytes)
            .copied()
    };
    let seen: [bool; 3] = std::array::from_fn(|band| {
        smallest_of(band)
            .is_some_and(|p| model.moved(start, start.with_scale(band, 2.0), p) >= UNSEEN)
    });
    model.seen = seen;
    model.tiers = tiers::free(&model, &network, start);
    model.node = node::free(&model, &points, start);
    let latency_seen = seen.contains(&true);
    let best = model.minimise(&points);
    let higher = Values {
        efficiency: (best.efficiency * 1.05).min(1.0),
        ..best
    };
    // At line rate there is nothing above to bound.
    let bounded = best.efficiency < 0.99
        && higher.efficiency > best.efficiency
        && model.moved(best, higher, largest) < UNSEEN / 4.0;
    let quality = quality(&points, &model.predict(best, &points));
    let held_out = held_out(&model, &points, &sizes, Extreme::Largest);
    let held_out_smallest = held_out_smallest(&model, &points);
    let c = &spec.calibration;
    let smallest = *network.iter().min_by_key(|p| p.bytes).expect("two sizes");
    Ok(Fit {
        fabric: fabric.to_string(),
        efficiency_field: field.to_string(),
        efficiency_before: before,
        efficiency: best.efficiency,
        efficiency_only_at_least: bounded.then(|| {
            format!(
                "a higher efficiency changes no prediction: the runs across these nodes are bound inside the node (NVLink) at {:.3} and above, so the efficiency is at least that and the fit keeps the value nearest the design's",
                best.efficiency
            )
        }),
        network_hop_latency_before_us: c.network_hop_latency_us,
        network_hop_latency_us: latency_seen
            .then_some(c.network_hop_latency_us * best.scales[0]),
        latency_not_fitted: (!latency_seen).then(|| {
            format!(
                "every measured message is large enough to hide the latency (doubling it moves the prediction of the smallest, {} B, by under {:.0} %): the default stays",
                smallest.bytes,
                UNSEEN * 100.0
            )
        }),
        ll128_network_hop_latency_before_us: c.ll128_network_hop_latency_us,
        ll128_network_hop_latency_us: seen[1]
            .then_some(c.ll128_network_hop_latency_us * best.scales[1]),
        ll_network_hop_latency_before_us: c.ll_network_hop_latency_us,
        ll_network_hop_latency_us: seen[2].then_some(c.ll_network_hop_latency_us * best.scales[2]),
        tiers: tiers::fitted(&model, &network, best),
        node: node::fitted(&model, &points, best),
        points: points.len(),
        quality,
        held_out,
        held_out_smallest,
    })
}

/// The calibration field of `transport`'s efficiency and its value.
fn efficiency(c: &Calibration, transport: Transport) -> (&'static str, f64) {
    match transport {
        Transport::InfiniBand => ("infiniband_efficiency", c.infiniband_efficiency),
        Transport::Roce => ("roce_efficiency", c.roce_efficiency),
        Transport::Tcp => ("tcp_efficiency", c.tcp_efficiency),
    }
}

/// Every measured size of the baselines that cross nodes and that the design predicts, and each
/// baseline's check.
fn points(
    spec: &DesignSpec,
    fabric: &str,
    baselines: &[Baseline],
) -> Result<(Vec<Point>, Vec<BaselineCheck>), String> {
    let mut out = Vec::new();
    let mut checks = Vec::with_capacity(baselines.len());
    for (i, b) in baselines.iter().enumerate() {
        let check = check_assuming(spec, fabric, b.run, b.stated, b.algorithm)
            .map_err(|e| format!("baseline {}: {e}", i + 1))?;
        checks.push(check);
        let check = &checks[i];
        for size in &check.sizes {
            if size.predicted_busbw_gbytes_per_s.is_some()
                && size.measured_busbw_gbytes_per_s > GigabytesPerSecond::new(0.0)
            {
                out.push(Point {
                    baseline: i,
                    bytes: size.bytes,
                    ranks: check.ranks,
                    measured: size.measured_busbw_gbytes_per_s.gigabytes_per_second(),
                    band: BANDS
                        .iter()
                        .position(|p| Some(*p) == size.choice.map(|c| c.1))
                        .unwrap_or(0),
                    choice: size.choice,
                    tier: crate::baseline::tiers_crossed(spec, fabric, check.nodes),
                    in_node: check.nodes < 2,
                });
            }
        }
    }
    if out.iter().all(|p| p.in_node) {
        return Err(
            "no baseline of this fabric crosses nodes with a collective the design predicts (AllReduce, AllGather, ReduceScatter): the fit needs runs across nodes (runs on one node give NVLink's values beside them)".into(),
        );
    }
    Ok((out, checks))
}

struct Model<'a> {
    spec: &'a DesignSpec,
    fabric: &'a str,
    /// Each baseline's check with the design's calibration: its ranks, nodes and algorithm.
    checks: Vec<BaselineCheck>,
    transport: Transport,
    /// The protocol bands whose latency the measurements show.
    seen: [bool; 3],
    /// The locality tiers' values the measurements determine ([`Values::tiers`]).
    tiers: [bool; 4],
    /// The node's values the measurements determine ([`Values::node`]), and the design's.
    node: [bool; 4],
    node_before: [f64; 4],
}

impl Model<'_> {
    /// The design's calibration with `v` in place.
    fn calibration(&self, v: Values) -> Calibration {
        let mut c = self.spec.calibration.clone();
        match self.transport {
            Transport::InfiniBand => c.infiniband_efficiency = v.efficiency,
            Transport::Roce => c.roce_efficiency = v.efficiency,
            Transport::Tcp => c.tcp_efficiency = v.efficiency,
        }
        c.network_hop_latency_us *= v.scales[0];
        c.ll128_network_hop_latency_us *= v.scales[1];
        c.ll_network_hop_latency_us *= v.scales[2];
        let [spine_share, spine_us, core_share, core_us] = v.tiers;
        c.spine_efficiency_share = spine_share;
        c.spine_hop_extra_latency_us = Micros::new(spine_us);
        c.core_efficiency_share = core_share;
        c.core_hop_extra_latency_us = Micros::new(core_us);
        node::set(&mut c, v.node, self.node_before);
        c
    }

    /// The predicted bus bandwidth of each of `points` with `v`, GB/s.
    fn predict(&self, v: Values, points: &[Point]) -> Vec<f64> {
        let spec = DesignSpec {
            calibration: self.calibration(v),
            ..self.spec.clone()
        };
        // Each baseline's run of points (they keep the baselines' order) predicted together; a
        // point the model misses reads as NaN.
        points
            .chunk_by(|a, b| a.baseline == b.baseline)
            .flat_map(|run| {
                let predicted = crate::baseline::predicted_busbw(
                    &spec,
                    self.fabric,
                    &self.checks[run[0].baseline],
                    run.iter().map(|p| (p.bytes, p.choice)),
                );
                predicted.into_iter().map(|p| p.unwrap_or(f64::NAN))
            })
            .collect()
    }

    /// ln(predicted ÷ measured) of each of `points`, and a pull towards the design's values far
    /// too weak to move a fit the data determines: where the measurements cannot tell two
    /// values apart (a run bound by NVLink at any efficiency above some value), the fit keeps
    /// the one nearest the design's. A point the model misses counts as far off.
    fn residuals(&self, v: Values, points: &[Point]) -> Vec<f64> {
        let start = efficiency(&self.spec.calibration, self.transport).1;
        let pull = PULL.sqrt();
        self.predict(v, points)
            .iter()
            .zip(points)
            .map(|(p, m)| (p / m.measured).ln())
            .map(|r| if r.is_finite() { r } else { MISSED })
            .chain(std::iter::once(pull * (v.efficiency / start).ln()))
            .chain(v.scales.iter().map(|s| pull * s.ln()))
            .chain(tiers::pulls(v).map(|t| pull * t))
            .chain(node::pulls(v, self.node_before).map(|t| pull * t))
            .collect()
    }

    /// How much `b` moves the prediction of point `p` from what `a` predicts, as a share of it.
    fn moved(&self, a: Values, b: Values, p: Point) -> f64 {
        let (x, y) = (self.predict(a, &[p])[0], self.predict(b, &[p])[0]);
        ((x - y) / x).abs()
    }

    /// Σ of the squared [`Model::residuals`].
    fn loss(&self, v: Values, points: &[Point]) -> f64 {
        self.residuals(v, points).iter().map(|r| r * r).sum()
    }

    /// The values that minimise the loss on `points`: the best of a coarse grid of the
    /// efficiency and one scale on every latency, then Levenberg-Marquardt on the efficiency and
    /// each band's latency scale (on a logarithmic axis). A band's latency is its own where the
    /// measurements show it and `points` has messages in it; every other band's follows the
    /// first band that has one (Simple's, else LL128's), or stays at its default where none has.
    fn minimise(&self, points: &[Point]) -> Values {
        let free: Vec<usize> = (0..3)
            .filter(|&band| self.seen[band] && points.iter().any(|p| p.band == band))
            .collect();
        let lead = free.first().copied();
        let tied = |mut v: Values| {
            if let Some(lead) = lead {
                let scale = v.scales[lead];
                for (band, s) in v.scales.iter_mut().enumerate() {
                    if !free.contains(&band) {
                        *s = scale;
                    }
                }
            }
            v
        };
        let scales: &[f64] = if lead.is_some() {
            &[0.25, 0.5, 1.0, 2.0, 4.0, 8.0]
        } else {
            &[1.0]
        };
        let mut best = Values {
            efficiency: 0.5,
            scales: [1.0; 3],
            tiers: self.spec.calibration.tiers(),
            node: self.node_before,
        };
        let mut lowest = f64::INFINITY;
        for e in (1..=10).map(|i| f64::from(i) * 0.1) {
            for &s in scales {
                let v = Values {
                    efficiency: e,
                    ..best
                }
                .scaled(s);
                let loss = self.loss(v, points);
                if loss < lowest {
                    (best, lowest) = (v, loss);
                }
            }
        }
        // A tier's values are free where this part of the points still has runs within the
        // tier below beside runs across it.
        let in_node = points.iter().any(|p| p.in_node);
        let extras: Vec<Param> = (0..4)
            .filter(|&t| self.tiers[t] && tiers::determined(points, t))
            .map(Param::Tier)
            .chain((0..4).filter(|&i| in_node && self.node[i]).map(Param::Node))
            .collect();
        self.refine(best, points, &free, &extras, &tied)
    }

    /// Levenberg-Marquardt from `start`: x is the efficiency, the logarithm of each `free`
    /// band's latency scale and each free locality tier's and the node's value (`extras`), the Jacobian of the residuals by forward differences, each step
    /// the solution of (JᵀJ + λ·diag JᵀJ) δ = −Jᵀr, kept where it lowers the loss.
    fn refine(
        &self,
        start: Values,
        points: &[Point],
        free: &[usize],
        extras: &[Param],
        tied: &dyn Fn(Values) -> Values,
    ) -> Values {
        let bands = 1 + free.len();
        let values = |x: &[f64]| {
            let mut v = start;
            v.efficiency = x[0];
            for (j, &band) in free.iter().enumerate() {
                v.scales[band] = x[1 + j].exp();
            }
            for (j, &param) in extras.iter().enumerate() {
                param.set(&mut v, x[bands + j]);
            }
            tied(v)
        };
        // Within an efficiency's range, a latency from a sixteenth to sixteen times, and each
        // tier's value within its own.
        let bounded = |x: &mut [f64]| {
            x[0] = x[0].clamp(0.01, 1.0);
            for ln in &mut x[1..bands] {
                *ln = ln.clamp(-LN_16, LN_16);
            }
            for (value, &param) in x[bands..].iter_mut().zip(extras) {
                *value = param.bounded(*value);
            }
        };
        let mut x: Vec<f64> = std::iter::once(start.efficiency)
            .chain(free.iter().map(|&band| start.scales[band].ln()))
            .chain(extras.iter().map(|param| param.get(&start)))
            .collect();
        let k = x.len();
        let mut r = self.residuals(values(&x), points);
        let mut cost: f64 = r.iter().map(|e| e * e).sum();
        let mut lambda = 1e-3;
        for _ in 0..LM_STEPS {
            let columns: Vec<Vec<f64>> = (0..k)
                .map(|j| {
                    let mut y = x.clone();
                    // A step down at a share's top, so that the difference is one.
                    let share = j == 0 || j >= bands && extras[j - bands].is_share();
                    let at_top = share && x[j] >= 1.0;
                    let h = if at_top { -STEP } else { STEP };
                    y[j] += h;
                    let moved = self.residuals(values(&y), points);
                    moved.iter().zip(&r).map(|(a, b)| (a - b) / h).collect()
                })
                .collect();
            let jtj: Vec<Vec<f64>> = (0..k)
                .map(|a| {
                    (0..k)
                        .map(|b| columns[a].iter().zip(&columns[b]).map(|(p, q)| p * q).sum())
                        .collect()
                })
                .collect();
            let jtr: Vec<f64> = columns
                .iter()
                .map(|c| c.iter().zip(&r).map(|(p, q)| p * q).sum())
                .collect();
            let improved = loop {
                let mut a = jtj.clone();
                for (i, row) in a.iter_mut().enumerate() {
                    row[i] += lambda * (jtj[i][i] + 1e-12);
                }
                let Some(delta) = solve(a, jtr.iter().map(|v| -v).collect()) else {
                    break None;
                };
                let mut y: Vec<f64> = x.iter().zip(&delta).map(|(p, d)| p + d).collect();
                bounded(&mut y);
                let ry = self.residuals(values(&y), points);
                let cy: f64 = ry.iter().map(|e| e * e).sum();
                if cy < cost {
                    lambda = (lambda / 3.0).max(1e-12);
                    break Some((y, ry, cy));
                }
                lambda *= 4.0;
                if lambda > 1e12 {
                    break None;
                }
            };
            let Some((y, ry, cy)) = improved else {
                break;
            };
            let settled = cost - cy <= 1e-12 * cost.max(1e-300);
            (x, r, cost) = (y, ry, cy);
            if settled {
                break;
            }
        }
        values(&x)
    }
}

/// The pull towards the design's values ([`Model::residuals`]), the residual of a point the
/// model misses, and Levenberg-Marquardt's bounds, step and most iterations.
const PULL: f64 = 1e-9;
const MISSED: f64 = 10.0;
const LN_16: f64 = 2.772_588_722_239_781;
const STEP: f64 = 1e-6;
const LM_STEPS: usize = 40;

/// `a` x = `b` by Gaussian elimination with partial pivoting; `None` when `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            let (above, below) = a.split_at_mut(row);
            for (t, p) in below[0][col..].iter_mut().zip(&above[col][col..]) {
                *t -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let known: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - known) / a[row][row];
    }
    Some(x)
}

fn quality(points: &[Point], predicted: &[f64]) -> Quality {
    let errors: Vec<(Point, f64)> = points
        .iter()
        .zip(predicted)
        .map(|(p, q)| (*p, (q - p.measured) / p.measured * 100.0))
        .collect();
    let n = errors.len().max(1) as f64;
    let worst = errors
        .iter()
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
        .map(|(p, e)| WorstPoint {
            bytes: p.bytes,
            ranks: p.ranks,
            error_percent: *e,
        })
        .unwrap_or(WorstPoint {
            bytes: 0,
            ranks: 0,
            error_percent: 0.0,
        });
    Quality {
        mape_percent: errors.iter().map(|(_, e)| e.abs()).sum::<f64>() / n,
        bias_percent: errors.iter().map(|(_, e)| e).sum::<f64>() / n,
        worst,
    }
}

/// Which rank count a held-out test leaves out.
#[derive(Clone, Copy)]
enum Extreme {
    Largest,
    Smallest,
}

/// With several rank counts, the fit without the smallest tested on it.
fn held_out_smallest(model: &Model, points: &[Point]) -> Option<HeldOut> {
    let least = points.iter().map(|p| p.ranks).min()?;
    if points.iter().all(|p| p.ranks == least) {
        return None;
    }
    held_out(model, points, &[], Extreme::Smallest)
}

/// Fitted on part of `points`, the error on the rest: the `extreme` rank count held out where
/// the baselines have several (can the fit extrapolate to more ranks, or to fewer?), else every
/// other message size.
fn held_out(model: &Model, points: &[Point], sizes: &[u64], extreme: Extreme) -> Option<HeldOut> {
    let ranks = match extreme {
        Extreme::Largest => points.iter().map(|p| p.ranks).max()?,
        Extreme::Smallest => points.iter().map(|p| p.ranks).min()?,
    };
    let several_ranks = points.iter().any(|p| p.ranks != ranks);
    let odd: Vec<u64> = sizes.iter().skip(1).step_by(2).copied().collect();
    let label = match (several_ranks, extreme) {
        (true, Extreme::Largest) => format!("the largest rank count, {ranks}"),
        (true, Extreme::Smallest) => format!("the smallest rank count, {ranks}"),
        (false, _) => "every other message size".to_string(),
    };
    let test = |p: &Point| {
        if several_ranks {
            p.ranks == ranks
        } else {
            odd.contains(&p.bytes)
        }
    };
    let (kept, held): (Vec<Point>, Vec<Point>) = points.iter().partition(|p| !test(p));
    let mut kept_sizes: Vec<u64> = kept.iter().map(|p| p.bytes).collect();
    kept_sizes.sort_unstable();
    kept_sizes.dedup();
    if held.is_empty() || kept_sizes.len() < 2 {
        return None;
    }
    let v = model.minimise(&kept);
    Some(HeldOut {
        held_out: label,
        quality: quality(&held, &model.predict(v, &held)),
    })
}

/// The published RoCE sweep ([`crate::validation::ROCE_TREE_SWEEP`]) as a fabric's baseline,
/// its calibration fitted on every other size and tested on the rest: two nodes of one H100 and
/// one 400G RoCE port each.
pub fn sweep_fitted_on_half() -> Result<Fit, String> {
    let mut value: serde_json::Value =
        serde_json::from_str(crate::examples::SEVENTY_B_TRAINING).map_err(|e| e.to_string())?;
    value["cluster"] = serde_json::json!({
        "gpu": "h100-sxm", "gpus_per_node": 1, "nics_per_node": 1, "nodes": 2
    });
    value["workloads"] = serde_json::json!([]);
    let mut compute = value["fabrics"][0].clone();
    compute["technology"] = "roce400".into();
    compute["topology"] = "auto".into();
    if let Some(f) = compute.as_object_mut() {
        f.remove("ports_per_node");
        f.remove("switch");
    }
    value["fabrics"] = serde_json::json!([compute]);
    let spec = crate::spec::DesignSpec::from_value(value).map_err(|e| format!("{e:?}"))?;
    let run = crate::nccl_tests::Run::all_reduce_measured(
        2,
        2,
        crate::validation::ROCE_TREE_SWEEP
            .iter()
            .map(|&(mib, busbw)| ((mib * 1048576.0) as u64, busbw)),
    );
    let baseline = Baseline {
        run: &run,
        stated: Default::default(),
        algorithm: Some(Algorithm::Tree),
    };
    fit(&spec, "compute", &[baseline])
}

/// What fitting does for the engine's accuracy, as the README's validation section says it
/// after the table: [`sweep_fitted_on_half`]'s error on the sizes it held out.
pub fn fitted_accuracy_markdown() -> String {
    match sweep_fitted_on_half().ok().and_then(|f| f.held_out) {
        Some(held) => format!(
            "Fitted by protocol band to every other size of the two-node RoCE sweep (nccl-tests #232), the calibration predicts the other sizes with a mean error of {:.1} % (worst {:+.1} %).\n",
            held.quality.mape_percent, held.quality.worst.error_percent
        ),
        None => String::new(),
    }
}

mod drift;
mod node;
mod tiers;
pub use drift::{drift, Departure, Drift, DriftPoint, MOST_BASELINES, NOISE, TIER_WORDS};
pub use node::NodeFit;
pub use tiers::TierFit;

#[cfg(test)]
mod tests;
