//! `fabric-planner evaluate SPEC.json`: the engine on the command line, without a server.

use crate::cli::EvaluateArgs;
use std::io::Read;

/// Exit status for a spec the engine refuses.
pub const INVALID_SPEC: i32 = 2;

/// Runs the command; returns the process exit code.
pub fn run(args: &EvaluateArgs) -> i32 {
    let text = if args.spec.as_os_str() == "-" {
        let mut text = String::new();
        if let Err(error) = std::io::stdin().read_to_string(&mut text) {
            eprintln!("error: reading standard input: {error}");
            return 1;
        }
        text
    } else {
        match std::fs::read_to_string(&args.spec) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("error: reading {}: {error}", args.spec.display());
                return 1;
            }
        }
    };
    let report = engine::DesignSpec::from_json(&text).and_then(|spec| engine::evaluate(&spec));
    match report {
        Ok(report) if args.summary => {
            let job = &report.training;
            println!("nodes: {}", job.nodes);
            println!("gradients: {}", job.gradient_bytes.value);
            println!(
                "sent per GPU per step: {}",
                job.bytes_per_gpu_per_step.value
            );
            println!("AllReduce time per step: {}", job.allreduce_time.value);
            0
        }
        Ok(report) => match serde_json::to_string_pretty(&report) {
            Ok(json) => {
                println!("{json}");
                0
            }
            Err(error) => {
                eprintln!("error: writing the report: {error}");
                1
            }
        },
        Err(errors) => {
            for error in errors.iter() {
                eprintln!("{error}");
            }
            INVALID_SPEC
        }
    }
}
