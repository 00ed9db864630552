//! How sure each time figure is: an interval from the published measurements the engine is
//! held to ([`crate::validation`]), by message-size band. For every nccl-tests run across nodes
//! held to a tolerance, measured time ÷ predicted time is predicted ÷ measured bus bandwidth;
//! a band's interval spans the least and the most of its runs, widened to at least the
//! geometric-mean error of every run across nodes (a band of two runs does not make the engine
//! surer than its record), and a band no published run covers takes the widest of the others.
//!
//! Once a fabric's calibration is fitted to its own baselines, its workloads' intervals come from
//! the fit instead: ± its worst error on the points it used or held out.
//!
//! A workload's interval comes from the band of the message that dominates its network time
//! (the collective across nodes that takes longest; a service's per-token AllReduce); only the
//! network's part of the time moves: a training step by its exposed communication, a service's
//! communication per token whole.

pub use crate::report::intervals::TimeInterval;
use crate::report::{Report, WorkloadReport};
use crate::units::{Bytes, Seconds};
use crate::validation::ValidationRow;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

impl TimeInterval {
    /// "−6 % / +9 %".
    pub fn percent(&self) -> String {
        percent(self.value, self.low, self.high)
    }

    /// The interval of another of the workload's times, `whole`, of which `network` is the
    /// network's part (the whole of a communication time; a step's exposed communication).
    pub fn around(&self, whole: Seconds, network: Seconds) -> (Seconds, Seconds) {
        (
            Seconds::new(whole.seconds() + network.seconds() * (self.network_low - 1.0)),
            Seconds::new(whole.seconds() + network.seconds() * (self.network_high - 1.0)),
        )
    }

    /// "−6 % / +9 %" of a communication time of the workload that moves messages of `bytes`:
    /// its own band's interval, or the fit's.
    pub fn percent_for_message(&self, time: Seconds, bytes: Bytes) -> String {
        let (low, high) = if self.fitted {
            (self.network_low, self.network_high)
        } else {
            let band = band_of(bytes);
            (band.low, band.high)
        };
        percent(
            time,
            Seconds::new(time.seconds() * low),
            Seconds::new(time.seconds() * high),
        )
    }

    /// [`TimeInterval::around`] as "−6 % / +9 %" of `whole`.
    pub fn percent_around(&self, whole: Seconds, network: Seconds) -> String {
        let (low, high) = self.around(whole, network);
        percent(whole, low, high)
    }
}

const MIB: f64 = (1u64 << 20) as f64;

/// A message-size band and how far measurements in it strayed from the prediction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Band {
    /// "1 MiB to 64 MiB".
    pub label: String,
    /// Messages from `from_bytes` up to (not including) `to_bytes`.
    pub from_bytes: Bytes,
    pub to_bytes: Bytes,
    /// Least and most measured ÷ predicted time.
    pub low: f64,
    pub high: f64,
    /// Published runs in the band (0: the widest interval of the other bands).
    pub points: u32,
}

/// The bands' edges: latency-bound small messages, the middle where the protocols change,
/// bandwidth-bound large messages.
const EDGES: [(&str, Bytes, Bytes); 3] = [
    ("under 1 MiB", Bytes::new(0.0), Bytes::new(MIB)),
    ("1 MiB to 64 MiB", Bytes::new(MIB), Bytes::new(64.0 * MIB)),
    (
        "64 MiB and more",
        Bytes::new(64.0 * MIB),
        Bytes::new(f64::INFINITY),
    ),
];

/// The bands `rows` give (see the module's notes).
pub fn bands_from(rows: &[ValidationRow]) -> Vec<Band> {
    let accuracy = crate::validation::accuracy(rows);
    let floor = 1.0 + accuracy.geometric_mean_error.max(0.0);
    let held = || {
        rows.iter()
            .filter(|r| r.across_nodes && r.tolerance.is_some() && r.ratio > 0.0)
    };
    let mut bands: Vec<Band> = EDGES
        .iter()
        .map(|&(label, from, to)| {
            let ratios: Vec<f64> = held()
                .filter(|r| r.busbw_message_bytes.is_some_and(|b| b >= from && b < to))
                .map(|r| r.ratio)
                .collect();
            Band {
                label: label.to_string(),
                from_bytes: from,
                to_bytes: to,
                low: ratios.iter().copied().fold(1.0 / floor, f64::min),
                high: ratios.iter().copied().fold(floor, f64::max),
                points: ratios.len() as u32,
            }
        })
        .collect();
    let (widest_low, widest_high) = bands
        .iter()
        .filter(|b| b.points > 0)
        .fold((1.0 / floor, floor), |(l, h), b| {
            (l.min(b.low), h.max(b.high))
        });
    for b in bands.iter_mut().filter(|b| b.points == 0) {
        (b.low, b.high) = (widest_low, widest_high);
    }
    bands
}

/// The bands of the engine's validation table, worked out once.
pub fn bands() -> &'static [Band] {
    static BANDS: OnceLock<Vec<Band>> = OnceLock::new();
    BANDS.get_or_init(|| bands_from(&crate::validation::validation_rows()))
}

/// "−6 % / +9 %": `low` and `high` against `value`.
fn percent(value: Seconds, low: Seconds, high: Seconds) -> String {
    let v = value.seconds().max(f64::MIN_POSITIVE);
    format!(
        "−{:.0} % / +{:.0} %",
        (1.0 - low.seconds() / v) * 100.0,
        (high.seconds() / v - 1.0) * 100.0
    )
}

/// The band of a message of `bytes`.
pub fn band_of(bytes: Bytes) -> &'static Band {
    let all = bands();
    all.iter()
        .find(|b| bytes >= b.from_bytes && bytes < b.to_bytes)
        .unwrap_or(&all[all.len() - 1])
}

/// Each training job's step time and each service's communication per token of `spec`, evaluated
/// as `report`, with its interval.
pub fn intervals(spec: &crate::spec::DesignSpec, report: &Report) -> Vec<TimeInterval> {
    let fitted = spec
        .calibration
        .fitted
        .as_ref()
        .and_then(|f| Some((f, f.worst_error_percent? / 100.0)));
    report
        .workloads
        .iter()
        .filter_map(|w| {
            let (measure, value, network, message, fabric) = match w {
                WorkloadReport::Training(t) => {
                    // The longest collective that crosses the network (the bands are of runs
                    // across nodes), else the longest.
                    let longest = |network: bool| {
                        t.collectives
                            .iter()
                            .filter(|c| !network || c.network_bytes_per_node.bytes() > 0.0)
                            .max_by(|a, b| a.time.seconds().total_cmp(&b.time.seconds()))
                    };
                    let dominant = longest(true).or_else(|| longest(false))?;
                    (
                        "step time",
                        t.step_time.value,
                        t.exposed_communication.value,
                        dominant.bytes_per_gpu,
                        &t.fabric,
                    )
                }
                WorkloadReport::Inference(i) => (
                    "communication per token",
                    i.communication_per_token.value,
                    i.communication_per_token.value,
                    i.allreduce_bytes.value,
                    &i.fabric,
                ),
                _ => return None,
            };
            let (low, high, band, points) = match fitted {
                Some((f, worst)) if f.fabric == *fabric => (
                    (1.0 - worst).max(0.0),
                    1.0 + worst,
                    format!(
                        "its fabric's calibration, {}: its worst error, {} %",
                        f.summary(),
                        f.worst_error_percent.unwrap_or(0.0)
                    ),
                    f.baselines.len() as u32,
                ),
                _ => {
                    let b = band_of(message);
                    let runs = match b.points {
                        0 => "no published run: the widest of the other bands".to_string(),
                        1 => "1 published run".to_string(),
                        n => format!("{n} published runs"),
                    };
                    (
                        b.low,
                        b.high,
                        format!("message band {} ({runs})", b.label),
                        b.points,
                    )
                }
            };
            let mut interval = TimeInterval {
                workload: w.name().to_string(),
                measure: measure.to_string(),
                value,
                low: value,
                high: value,
                message,
                band,
                points,
                network_low: low,
                network_high: high,
                fitted: fitted.is_some_and(|(f, _)| f.fabric == *fabric),
            };
            (interval.low, interval.high) = interval.around(value, network);
            Some(interval)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bands as the validation table gives them today: the two-node RoCE sweep (2 to
    /// 32 MiB) in the middle band, the 8 GiB runs across nodes in the large one, and no run under
    /// 1 MiB, which takes the widest interval.
    #[test]
    fn each_band_spans_its_runs_and_at_least_the_engines_record() {
        let b = bands();
        assert_eq!(b.iter().map(|b| b.points).collect::<Vec<_>>(), [0, 5, 2]);
        let gme = 1.0
            + crate::validation::accuracy(&crate::validation::validation_rows())
                .geometric_mean_error;
        // Middle: measured time 0.93 to 1.12 of the prediction (the sweep's ratios).
        assert!(
            (b[1].low - 0.93).abs() < 0.01 && (b[1].high - 1.12).abs() < 0.01,
            "{:?}",
            b[1]
        );
        // Large: both runs within 1 %, widened to the engine's record.
        assert!((b[2].high - gme).abs() < 1e-12 && (b[2].low - 1.0 / gme).abs() < 1e-12);
        assert_eq!((b[0].low, b[0].high), (b[1].low, b[1].high));
    }

    /// A training step moves by its exposed communication only; a service's communication per
    /// token whole.
    #[test]
    fn only_the_networks_part_of_a_time_moves() {
        let spec = crate::DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
        let report = crate::evaluate(&spec).unwrap();
        let i = &intervals(&spec, &report)[0];
        let crate::report::WorkloadReport::Training(t) = &report.workloads[0] else {
            panic!("a training job")
        };
        let band = band_of(i.message);
        let exposed = t.exposed_communication.value.seconds();
        assert!((i.high.seconds() - i.value.seconds() - exposed * (band.high - 1.0)).abs() < 1e-12);
        assert!(i.low <= i.value && i.value <= i.high);
        // The communication time, all network, moves by the band's whole share; compute does not.
        let c = t.communication_time.value;
        let (low, high) = i.around(c, c);
        assert!(
            (high.seconds() / c.seconds() - band.high).abs() < 1e-12
                && (low.seconds() / c.seconds() - band.low).abs() < 1e-12
        );
        assert_eq!(
            i.around(t.compute_time.value, Seconds::new(0.0)).1,
            t.compute_time.value
        );
        let spec = crate::DesignSpec::from_json(crate::examples::SEVENTY_B_INFERENCE_25G).unwrap();
        let report = crate::evaluate(&spec).unwrap();
        let i = intervals(&spec, &report).into_iter().next().unwrap();
        let label = &band_of(i.message).label;
        assert!(
            i.band.starts_with(&format!("message band {label} (")),
            "{}",
            i.band
        );
        assert!((i.high.seconds() / i.value.seconds() - band_of(i.message).high).abs() < 1e-9);
    }

    /// A fabric fitted to its own baselines: its workloads' times move by ± the fit's worst
    /// error, not by the published runs' band.
    #[test]
    fn a_fitted_fabric_s_times_move_by_its_own_worst_error() {
        let mut spec = crate::DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap();
        spec.calibration.fitted = Some(crate::spec::Fitted {
            fabric: "compute".into(),
            baselines: vec![1, 2],
            on: "2026-12-06".into(),
            efficiency_field: "infiniband_efficiency".into(),
            efficiency: spec.calibration.infiniband_efficiency,
            network_hop_latency_us: None,
            ll128_network_hop_latency_us: None,
            ll_network_hop_latency_us: None,
            worst_error_percent: Some(2.5),
        });
        let report = crate::evaluate(&spec).unwrap();
        let i = &intervals(&spec, &report)[0];
        let crate::report::WorkloadReport::Training(t) = &report.workloads[0] else {
            panic!("a training job")
        };
        let exposed = t.exposed_communication.value.seconds();
        assert!((i.high.seconds() - i.value.seconds() - exposed * 0.025).abs() < 1e-12);
        assert!((i.value.seconds() - i.low.seconds() - exposed * 0.025).abs() < 1e-12);
        assert_eq!(
            i.band,
            "its fabric's calibration, fitted on 2026-12-06 to baselines #1, #2 of fabric compute: its worst error, 2.5 %"
        );
    }
}
