use super::*;
use crate::examples;

fn design(json: &str) -> (DesignSpec, Report) {
    let spec = DesignSpec::from_json(json).unwrap();
    let report = crate::evaluate(&spec).unwrap();
    (spec, report)
}

/// At the default rate, the 16,384 GPUs of Llama 3's pre-training are interrupted 419 times in
/// 54 days: about 7.8 a day, one every 3.1 hours.
#[test]
fn llama_3_s_cluster_is_interrupted_as_often_as_its_report_counts() {
    let c = crate::spec::Calibration::default();
    let per_day = c.interruptions_per_1000_gpu_days / 1000.0 * 16_384.0;
    assert!((per_day - 419.0 / 54.0).abs() < 0.01, "{per_day}");
}

/// Young's interval is √(2·δ·M) for the design's own checkpoint write time δ (its storage
/// workload's) and its job's mean time between interruptions M.
#[test]
fn young_s_interval_is_the_root_of_twice_the_design_s_write_time_by_its_mtbi() {
    let (spec, report) = design(examples::SEVENTY_B_TRAINING);
    let g = &goodput(&spec, &report)[0];
    let c = g
        .checkpoint
        .as_ref()
        .expect("the example checkpoints to its storage");
    let WorkloadReport::Storage(s) = &report.workloads[1] else {
        panic!("the example's second workload is its storage");
    };
    let delta = s.checkpoint_write_time.value.seconds();
    let m = g.mean_time_between.value.seconds();
    assert_eq!(c.write_time.seconds(), delta);
    assert!((c.young.value.seconds() - (2.0 * delta * m).sqrt()).abs() < 1e-9);
    assert!((m - 86_400.0 / (0.474e-3 * 128.0)).abs() < 1e-6, "{m}");
}

/// Daly's interval is Young's less about δ when δ is small against M, and goodput is highest
/// there: a shorter or longer interval keeps less of the time useful.
#[test]
fn goodput_is_highest_at_daly_s_interval() {
    let (write, m, r) = (
        Seconds::new(60.0),
        Seconds::new(10_800.0),
        Seconds::new(600.0),
    );
    let tau = daly(write, m);
    assert!(
        (tau.seconds() - (young(write, m).seconds() - write.seconds())).abs()
            < 0.05 * young(write, m).seconds()
    );
    let best = goodput_at(write, tau, r, m).fraction();
    for k in [0.5, 0.8, 1.25, 2.0] {
        assert!(
            goodput_at(write, Seconds::new(tau.seconds() * k), r, m).fraction() < best,
            "{k}"
        );
    }
}

/// Faster checkpoint writes buy goodput: each doubling of the write bandwidth keeps more of
/// the job's time useful.
#[test]
fn goodput_rises_with_the_checkpoint_write_bandwidth() {
    let (spec, report) = design(examples::SUPERPOD_4SU);
    let g = &goodput(&spec, &report)[0];
    let points = &g.checkpoint.as_ref().unwrap().by_write_bandwidth;
    assert_eq!(points.len(), WRITE_BANDWIDTH_MULTIPLES.len());
    assert!(
        points
            .windows(2)
            .all(|w| w[1].goodput.fraction() > w[0].goodput.fraction()),
        "{points:?}"
    );
}

/// What goodput costs in GPU time: the share of the day a job does not train, on every GPU of
/// it. The SuperPOD's job loses a day's work of a few of its GPUs at the design's interval, and
/// less with a faster checkpoint.
#[test]
fn the_gpu_hours_lost_a_day_are_the_share_not_trained_on_every_gpu_for_24_hours() {
    let (spec, report) = design(examples::SUPERPOD_4SU);
    let g = &goodput(&spec, &report)[0];
    let c = g.checkpoint.as_ref().unwrap();
    let expected = (1.0 - c.goodput.value.fraction()) * g.gpus as f64 * 24.0;
    assert!((c.lost_gpu_hours_per_day - expected).abs() < 1e-9);
    assert!(c.lost_gpu_hours_per_day > 0.0);
    for p in &c.by_write_bandwidth {
        let expected = (1.0 - p.goodput.fraction()) * g.gpus as f64 * 24.0;
        assert!((p.lost_gpu_hours_per_day - expected).abs() < 1e-9, "{p:?}");
    }
    assert!(c
        .by_write_bandwidth
        .windows(2)
        .all(|w| w[1].lost_gpu_hours_per_day < w[0].lost_gpu_hours_per_day));
}

/// A rate that is not positive, or a restart time that is negative or not a number, is refused,
/// naming the field.
#[test]
fn a_negative_or_missing_rate_is_refused_naming_the_field() {
    for (field, value) in [
        ("interruptions_per_1000_gpu_days", -1.0),
        ("interruptions_per_1000_gpu_days", f64::NAN),
        ("interruptions_per_1000_gpu_days", 0.0),
        ("restart_minutes", -5.0),
    ] {
        let mut spec = DesignSpec::from_json(examples::SEVENTY_B_TRAINING).unwrap();
        let f = crate::spec::CALIBRATION_FIELDS
            .iter()
            .find(|f| f.field == field)
            .unwrap();
        (f.set)(&mut spec.calibration, value);
        let errors = spec.validate().unwrap_err();
        assert!(
            errors
                .0
                .iter()
                .any(|e| e.path == format!("calibration.{field}")),
            "{field} = {value}: {errors:?}"
        );
    }
}
