//! `fabric-planner evaluate SPEC.json`: the engine on the command line, without a server.

use crate::command::cli::EvaluateArgs;
use std::io::Read;

/// Exit status for a spec the engine refuses.
pub const INVALID_SPEC: i32 = 2;

/// The design spec at `path` (`-` for standard input), evaluated. What went wrong is printed on
/// stderr and the error is the exit code: 1 for a file that cannot be read, [`INVALID_SPEC`]
/// for a spec the engine refuses (every error with its field path).
pub fn evaluated(path: &std::path::Path) -> Result<(engine::DesignSpec, engine::Report), i32> {
    evaluated_by(path, engine::evaluate)
}

/// [`evaluated`] by `evaluate`.
fn evaluated_by<R>(
    path: &std::path::Path,
    evaluate: impl FnOnce(&engine::DesignSpec) -> Result<R, engine::SpecErrors>,
) -> Result<(engine::DesignSpec, R), i32> {
    let mut text = String::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map(drop)
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    if let Err(error) = read {
        let what = if path.as_os_str() == "-" {
            "standard input".to_string()
        } else {
            path.display().to_string()
        };
        eprintln!("error: reading {what}: {error}");
        return Err(1);
    }
    engine::DesignSpec::from_json(&text)
        .and_then(|spec| evaluate(&spec).map(|report| (spec, report)))
        .map_err(|errors| {
            for error in errors.iter() {
                eprintln!("{error}");
            }
            INVALID_SPEC
        })
}

/// Runs the command; returns the process exit code.
pub fn run(args: &EvaluateArgs) -> i32 {
    // The floor laid once, for the bill as placed and the plan.
    let placed = match evaluated_by(&args.spec, engine::evaluate_placed) {
        Ok((spec, placed)) => placed.over_its_life(&spec),
        Err(code) => return code,
    };
    if args.summary {
        print!("{}", summary(&placed.report));
        return 0;
    }
    match serde_json::to_string_pretty(&placed) {
        Ok(json) => {
            println!("{json}");
            0
        }
        Err(error) => {
            eprintln!("error: writing the report: {error}");
            1
        }
    }
}

/// A few lines an architect reads first: per fabric, per workload, and the findings.
pub fn summary(report: &engine::Report) -> String {
    use engine::WorkloadReport;
    use std::fmt::Write;
    let mut out = String::new();
    let c = &report.cluster;
    let _ = writeln!(
        out,
        "cluster: {} nodes × {} {} = {} GPUs",
        c.nodes, c.gpus_per_node, c.gpu, c.gpus
    );
    for f in &report.fabrics {
        let _ = writeln!(
            out,
            "fabric {} ({}, {}): {} — {} leaf, {} spine, {} core switches; {} cables; ${:.0}, {:.1} kW",
            f.name,
            f.role.label(),
            f.technology.label(),
            f.plan.layout.label(),
            f.plan.leaves,
            f.plan.spines,
            f.plan.cores,
            f.plan.node_leaf_links + f.plan.leaf_spine_links + f.plan.spine_core_links,
            f.cost_usd.dollars(),
            f.power_w.to_kilowatts().kilowatts()
        );
    }
    for w in &report.workloads {
        let line = match w {
            WorkloadReport::Training(t) => format!(
                "training {}: step {} (compute {}, exposed communication {}){}",
                t.name,
                t.step_time.value,
                t.compute_time.value,
                t.exposed_communication.value,
                t.slowdown
                    .as_ref()
                    .map(|s| format!(", slowdown {}", s.value))
                    .unwrap_or_default()
            ),
            WorkloadReport::Inference(i) => format!(
                "inference {}: {} per layer, {} per token (target {})",
                i.name,
                i.per_layer_time.value,
                i.communication_per_token.value,
                i.target_inter_token
            ),
            WorkloadReport::Rag(r) => format!(
                "rag {}: {}, {} of the latency budget",
                r.name, r.bandwidth.value, r.share_of_budget.value
            ),
            WorkloadReport::Storage(s) => format!(
                "storage {}: read {} of {} available; checkpoint {} written in {}",
                s.name,
                s.read_provisioned.value,
                s.read_available.value,
                s.checkpoint_size.value,
                s.checkpoint_write_time.value
            ),
        };
        let _ = writeln!(out, "{line}");
    }
    for f in &report.findings {
        let _ = writeln!(out, "[{}] {}: {}", f.severity.label(), f.subject, f.message);
    }
    if let Some(f) = report.failures.first() {
        let _ = writeln!(
            out,
            "worst single failure: a {} of fabric {} ({} alike) cuts {} nodes off and leaves {} on fewer links",
            f.element.label(),
            f.fabric,
            f.alike,
            f.nodes_cut_off,
            f.nodes_degraded
        );
    }
    for p in report.phases.iter().flat_map(|plan| &plan.phases) {
        let cables = match &p.moves_not_counted {
            Some(why) => format!("cables not counted ({why})"),
            None => format!(
                "cables {} added, {} removed, {} moved",
                p.added(),
                p.removed(),
                p.re_terminated()
            ),
        };
        let _ = writeln!(
            out,
            "phase {}: {} GPUs, network ${:.0} (${:.0} bought, ${:.0} on unused ports), racks kept for later {}, {cables}",
            p.label,
            p.gpus,
            p.network_cost.dollars(),
            p.bought.cost_delta.dollars(),
            p.stranded_capital.value.dollars(),
            p.racks_reserved,
        );
    }
    let _ = writeln!(
        out,
        "total as placed: ${:.0} (${:.0} per GPU), {:.1} kW",
        report.network().cost_usd.dollars(),
        report.network().cost_per_gpu_usd.dollars(),
        report.network().power_w.to_kilowatts().kilowatts()
    );
    out
}
