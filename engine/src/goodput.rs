//! What interruptions cost a training job over time: how often it is interrupted (its GPUs ×
//! the interruption rate per GPU-day), the checkpoint interval that keeps most of its time
//! useful given the design's own checkpoint write time, and its goodput, the share of time it
//! trains, at the design's interval and at the best one; and how goodput moves with the
//! checkpoint's write bandwidth, which is what turns storage bandwidth into money.
//!
//! With δ the time to write a checkpoint (training waits for it), M the mean time between
//! interruptions, R the restart time and τ the interval between checkpoints: each interval
//! spends δ writing, and each interruption loses on average half an interval of work and the
//! restart, so goodput ≈ 1 − δ/τ − (τ/2 + R)/M; Young's interval τ = √(2δM) maximises it
//! (Young, CACM 1974), Daly's refines it when δ is not small against M (Daly, FGCS 2006).

use crate::figure::Figure;
pub use crate::report::goodput::{BandwidthPoint, Checkpointing, Goodput};
use crate::report::{Report, WorkloadReport};
use crate::spec::{DesignSpec, Workload};
use crate::units::{Seconds, Share};

const SECONDS_PER_DAY: f64 = 86_400.0;

const YOUNG: &str =
    "Young, A first order approximation to the optimum checkpoint interval, CACM 1974";
const DALY: &str =
    "Daly, A higher order estimate of the optimum checkpoint interval for restart dumps, FGCS 2006";
const GOODPUT: &str = "1 − δ/τ − (τ/2 + R)/M: time writing checkpoints, and per interruption half an interval of work lost and the restart (Young, CACM 1974)";

/// Checkpoint write bandwidths the study compares, as multiples of the design's.
pub const WRITE_BANDWIDTH_MULTIPLES: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// Young's interval √(2δM).
pub fn young(write: Seconds, mtbi: Seconds) -> Seconds {
    Seconds::new((2.0 * write.seconds() * mtbi.seconds()).sqrt())
}

/// Daly's interval: √(2δM)·(1 + ⅓√(δ/2M) + (δ/2M)/9) − δ while δ < 2M, else M.
pub fn daly(write: Seconds, mtbi: Seconds) -> Seconds {
    let (d, m) = (write.seconds(), mtbi.seconds());
    if d >= 2.0 * m {
        return mtbi;
    }
    let x = d / (2.0 * m);
    Seconds::new((2.0 * d * m).sqrt() * (1.0 + x.sqrt() / 3.0 + x / 9.0) - d)
}

/// The share of time spent training with write time δ, interval τ, restart R and mean time
/// between interruptions M, in 0..1.
pub fn goodput_at(write: Seconds, interval: Seconds, restart: Seconds, mtbi: Seconds) -> Share {
    if interval.seconds() <= 0.0 || mtbi.seconds() <= 0.0 {
        return Share::new(0.0);
    }
    let lost = write.seconds() / interval.seconds()
        + (interval.seconds() / 2.0 + restart.seconds()) / mtbi.seconds();
    Share::new((1.0 - lost).clamp(0.0, 1.0))
}

/// Interruptions a day of a job on `gpus` GPUs at the calibration's rate.
fn interruptions_per_day(c: &crate::spec::Calibration, gpus: u64) -> f64 {
    c.interruptions_per_1000_gpu_days / 1000.0 * gpus as f64
}

/// M, the mean time between interruptions of a job on `gpus` GPUs at the calibration's rate.
pub(crate) fn mean_time_between(c: &crate::spec::Calibration, gpus: u64) -> Seconds {
    let per_day = interruptions_per_day(c, gpus);
    if per_day > 0.0 {
        Seconds::new(SECONDS_PER_DAY / per_day)
    } else {
        Seconds::new(f64::INFINITY)
    }
}

/// Goodput at the interval storage workload `s` checkpoints at, with its write time `write`,
/// for a job whose mean time between interruptions is `mtbi`.
pub(crate) fn goodput_checkpointing_to(
    c: &crate::spec::Calibration,
    s: &crate::spec::Storage,
    write: Seconds,
    mtbi: Seconds,
) -> Share {
    let interval = s.checkpoint.interval_minutes.to_seconds();
    goodput_at(write, interval, c.restart_minutes.to_seconds(), mtbi)
}

/// The index (among the design's workloads) of the storage workload whose checkpoint training
/// job `t` writes: the one sized for its model's parameters, else the design's first.
pub(crate) fn storage_index(spec: &DesignSpec, t: &crate::spec::Training) -> Option<usize> {
    let storage = || {
        spec.workloads
            .iter()
            .enumerate()
            .filter_map(|(i, w)| match w {
                Workload::Storage(s) => Some((i, s)),
                _ => None,
            })
    };
    storage()
        .find(|(_, s)| s.checkpoint.parameters == Some(t.model.parameters))
        .or_else(|| storage().next())
        .map(|(i, _)| i)
}

/// The storage workload whose checkpoint training job `t` writes ([`storage_index`]), with its
/// report.
fn storage_of<'s>(
    spec: &'s DesignSpec,
    report: &'s Report,
    t: &crate::spec::Training,
) -> Option<(&'s crate::spec::Storage, &'s crate::report::StorageReport)> {
    let i = storage_index(spec, t)?;
    match (&spec.workloads[i], report.workloads.get(i)?) {
        (Workload::Storage(s), WorkloadReport::Storage(r)) => Some((s, r)),
        _ => None,
    }
}

/// Every training job's interruptions and goodput in `spec` evaluated as `report`.
pub fn goodput(spec: &DesignSpec, report: &Report) -> Vec<Goodput> {
    let c = &spec.calibration;
    let restart = c.restart_minutes.to_seconds();
    spec.workloads
        .iter()
        .zip(&report.workloads)
        .filter_map(|(w, r)| match (w, r) {
            (Workload::Training(t), WorkloadReport::Training(r)) => Some((t, r)),
            _ => None,
        })
        .map(|(t, r)| {
            let per_day = interruptions_per_day(c, r.gpus);
            let m = mean_time_between(c, r.gpus);
            let mean_time_between = Figure::new(
                m,
                "M = 1 day ÷ (GPUs × interruptions per GPU-day)",
                "Llama 3, arXiv:2407.21783 §3.3.4 (the default rate)",
            )
            .worked(format_args!(
                "1 day ÷ ({} GPUs × {} per 1,000 GPU-days) = {m}",
                r.gpus, c.interruptions_per_1000_gpu_days
            ));
            let checkpoint = storage_of(spec, report, t).map(|(s, sr)| {
                checkpointing(s, sr.checkpoint_write_time.value, restart, m, r.gpus)
            });
            Goodput {
                workload: t.name.clone(),
                gpus: r.gpus,
                interruptions_per_day: per_day,
                mean_time_between,
                restart,
                checkpoint,
            }
        })
        .collect()
}

/// The GPU-hours a day a job on `gpus` GPUs does not train at `goodput`: (1 − goodput) ×
/// GPUs × 24 h.
pub fn lost_gpu_hours_per_day(gpus: u64, goodput: Share) -> f64 {
    (1.0 - goodput.fraction()) * gpus as f64 * 24.0
}

fn checkpointing(
    storage: &crate::spec::Storage,
    write: Seconds,
    restart: Seconds,
    m: Seconds,
    gpus: u64,
) -> Checkpointing {
    let young_interval = young(write, m);
    let daly_interval = daly(write, m);
    let interval = storage.checkpoint.interval_minutes.to_seconds();
    let goodput = goodput_at(write, interval, restart, m);
    let best = goodput_at(write, daly_interval, restart, m);
    Checkpointing {
        storage: storage.name.clone(),
        write_time: write,
        young: Figure::new(young_interval, "τ = √(2δM)", YOUNG)
            .worked(format_args!("√(2 × {write} × {m}) = {young_interval}")),
        daly: Figure::new(
            daly_interval,
            "τ = √(2δM)·(1 + ⅓√(δ/2M) + (δ/2M)/9) − δ",
            DALY,
        ),
        interval,
        goodput: Figure::new(goodput, GOODPUT, YOUNG).worked(format_args!(
            "1 − {write}/{interval} − ({interval}/2 + {restart})/{m} = {goodput}"
        )),
        best_goodput: Figure::new(best, GOODPUT, DALY),
        lost_gpu_hours_per_day: lost_gpu_hours_per_day(gpus, goodput),
        by_write_bandwidth: WRITE_BANDWIDTH_MULTIPLES
            .iter()
            .map(|&k| {
                let d = Seconds::new(write.seconds() / k);
                let tau = daly(d, m);
                let goodput = goodput_at(d, tau, restart, m);
                BandwidthPoint {
                    multiple: k,
                    write_time: d,
                    interval: tau,
                    goodput,
                    lost_gpu_hours_per_day: lost_gpu_hours_per_day(gpus, goodput),
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
