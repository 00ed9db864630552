//! `fabric-planner fit SPEC.json --fabric F RUN.txt…`: the calibration of fabric F fitted to
//! nccl-tests outputs measured on it ([`engine::calibration_fit`]), without a server.

use crate::command::cli::FitArgs;
use crate::command::evaluate::INVALID_SPEC;
use engine::Micros;

/// Runs the command; returns the process exit code: 1 for a file that cannot be read,
/// [`INVALID_SPEC`] for a spec or an output the engine refuses, or a fit the runs cannot
/// determine (with the reason on stderr).
pub fn run(args: &FitArgs) -> i32 {
    let spec = match crate::command::evaluate::evaluated(&args.spec) {
        Ok((spec, _)) => spec,
        Err(code) => return code,
    };
    let mut runs = Vec::with_capacity(args.runs.len());
    for path in &args.runs {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("error: reading {}: {error}", path.display());
                return 1;
            }
        };
        match engine::nccl_tests::parse(&bytes) {
            Ok(run) => runs.push(run),
            Err(error) => {
                eprintln!("{}: {error}", path.display());
                return INVALID_SPEC;
            }
        }
    }
    let baselines: Vec<engine::calibration_fit::Baseline> = runs
        .iter()
        .map(|run| engine::calibration_fit::Baseline {
            run,
            stated: Default::default(),
            algorithm: None,
        })
        .collect();
    let fit = match engine::calibration_fit::fit(&spec, &args.fabric, &baselines) {
        Ok(fit) => fit,
        Err(why) => {
            eprintln!("no fit: {why}");
            return INVALID_SPEC;
        }
    };
    if args.summary {
        print!("{}", summary(&fit));
        return 0;
    }
    match serde_json::to_string_pretty(&fit) {
        Ok(json) => {
            println!("{json}");
            0
        }
        Err(error) => {
            eprintln!("error: writing the fit: {error}");
            1
        }
    }
}

/// The fit in lines: each value before and after, and its error on the points used and held out.
fn summary(fit: &engine::calibration_fit::Fit) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} {:.3} (was {:.3})",
        fit.fabric, fit.efficiency_field, fit.efficiency, fit.efficiency_before
    );
    if let Some(why) = &fit.efficiency_only_at_least {
        let _ = writeln!(out, "  {why}");
    }
    match (fit.network_hop_latency_us, &fit.latency_not_fitted) {
        (Some(us), _) => {
            let _ = writeln!(
                out,
                "network_hop_latency_us {:.1} (was {:.1})",
                us.micros(),
                fit.network_hop_latency_before_us.micros()
            );
        }
        (None, Some(why)) => {
            let _ = writeln!(out, "network_hop_latency_us not fitted: {why}");
        }
        (None, None) => {}
    }
    for (field, before, own) in [
        (
            "ll128_network_hop_latency_us",
            fit.ll128_network_hop_latency_before_us,
            fit.ll128_network_hop_latency_us,
        ),
        (
            "ll_network_hop_latency_us",
            fit.ll_network_hop_latency_before_us,
            fit.ll_network_hop_latency_us,
        ),
    ] {
        if let Some(us) = fit.protocol_latency_us(before, own) {
            let how = if own.is_some() {
                ""
            } else {
                ", scaled as Simple's"
            };
            let (us, before) = (us.micros(), before.micros());
            let _ = writeln!(out, "{field} {us:.1} (was {before:.1}){how}");
        }
    }
    let n = &fit.node;
    for (field, before, value) in [
        (
            "scale_up_efficiency",
            n.scale_up_efficiency_before,
            n.scale_up_efficiency,
        ),
        (
            "scale_up_hop_latency_us",
            n.scale_up_hop_latency_before_us.micros(),
            n.scale_up_hop_latency_us.map(Micros::micros),
        ),
        (
            "nvls_efficiency",
            n.nvls_efficiency_before,
            n.nvls_efficiency,
        ),
        (
            "nvls_latency_us",
            n.nvls_latency_before_us.micros(),
            n.nvls_latency_us.map(Micros::micros),
        ),
    ] {
        if let Some(v) = value {
            let _ = writeln!(out, "{field} {v:.3} (was {before:.3})");
        }
    }
    if let (Some(why), true) = (&n.not_fitted, n.points > 0) {
        let _ = writeln!(out, "within one node: {why}");
    }
    for t in &fit.tiers {
        let value = |v: Option<f64>, digits: usize| {
            v.map_or_else(
                || format!("not fitted: {}", t.not_fitted.as_deref().unwrap_or("")),
                |v| format!("{v:.digits$}"),
            )
        };
        let _ = writeln!(
            out,
            "across the {}: share of the rate {}, extra hop latency µs {}",
            t.tier,
            value(t.efficiency_share, 3),
            value(t.hop_extra_latency_us.map(Micros::micros), 1)
        );
    }
    let q = &fit.quality;
    let _ = writeln!(
        out,
        "on the {} points used: MAPE {:.1} %, bias {:+.1} %, worst {:+.1} % at {} B on {} ranks",
        fit.points,
        q.mape_percent,
        q.bias_percent,
        q.worst.error_percent,
        q.worst.bytes,
        q.worst.ranks
    );
    for h in fit.held_out.iter().chain(&fit.held_out_smallest) {
        let _ = writeln!(
            out,
            "fitted without {}: MAPE {:.1} %, bias {:+.1} % on it",
            h.held_out, h.quality.mape_percent, h.quality.bias_percent
        );
    }
    out
}
