//! A measured nccl-tests run held against what the design predicts for the same collective,
//! ranks and message sizes: the baseline an operator keeps, so that a slow step later can be
//! told apart from a GPU problem (seed C17-C19).
//!
//! The prediction is the engine's own cost model of the collective [Thakur, Rabenseifner & Gropp, IJHPCA 2005; nccl-tests doc/PERFORMANCE.md; NCCL src/graph/tuning.cc; NCCL src/graph/topo.h] on the
//! fabric the run crossed, turned into nccl-tests' bus bandwidth: busbw = S × f(n) ÷ t, with
//! f(n) = 2(n−1)/n for AllReduce and (n−1)/n for AllGather and ReduceScatter [nccl-tests
//! doc/PERFORMANCE.md].

use crate::catalog::gpu;
use crate::collective::{Algorithm, Cost};
use crate::links::{Conditions, Links};
use crate::nccl_tests::{verdict, Collective, Run, Verdict};
use crate::report::choice_label;
use crate::spec::DesignSpec;
use crate::tuning::{tuned_allreduce, tuned_reduce_scatter};
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// One message size: what was measured and what the design predicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SizeCheck {
    pub bytes: u64,
    /// The better of out-of-place and in-place, GB/s.
    pub measured_algbw_gbytes_per_s: f64,
    pub measured_busbw_gbytes_per_s: f64,
    /// `None` for collectives the design does not model on this fabric.
    pub predicted_busbw_gbytes_per_s: Option<f64>,
    /// The algorithm and protocol the prediction assumes ("ring / Simple").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_with: Option<String>,
}

impl SizeCheck {
    /// Measured ÷ predicted bus bandwidth.
    pub fn ratio(&self) -> Option<f64> {
        self.predicted_busbw_gbytes_per_s
            .filter(|p| *p > 0.0)
            .map(|p| self.measured_busbw_gbytes_per_s / p)
    }
}

/// A run checked against the design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineCheck {
    pub fabric: String,
    pub collective: Collective,
    pub ranks: u32,
    pub nodes: u32,
    /// What was assumed because the output did not say (the tool, the ranks).
    pub assumptions: Vec<String>,
    /// The algorithm the run was forced to (NCCL_ALGO), so that a run measured with NVLS, SHARP
    /// or the ring is compared with the same algorithm; `None`: NCCL's own choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed_algorithm: Option<Algorithm>,
    pub sizes: Vec<SizeCheck>,
    /// Judged at 1 GiB (or the largest message below it): `None` when the design has no
    /// prediction for this collective.
    pub verdict: Option<Verdict>,
}

/// What the person adding a run says about it where its output does not: many launchers print
/// only a few `#  Rank` lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stated {
    pub ranks: Option<u32>,
    pub nodes: Option<u32>,
}

/// Why a run cannot be checked against a design.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    #[error("the design has no fabric named {0:?}")]
    NoSuchFabric(String),
    /// The design cannot be evaluated (for example its GPU is not in the catalog).
    #[error("the design cannot be evaluated: {0}")]
    Design(String),
    /// More ranks than GPUs attached to the fabric.
    #[error("the run has {ranks} ranks but only {gpus} GPUs are attached to the fabric")]
    TooManyRanks { ranks: u32, gpus: u64 },
    /// More nodes than are attached to the fabric.
    #[error("the run is on {nodes} nodes but only {attached} are attached to the fabric")]
    TooManyNodes { nodes: u32, attached: u32 },
    /// Ranks that cannot be spread over the nodes: fewer ranks than nodes, or more on a node
    /// than it has GPUs.
    #[error("{ranks} ranks do not fit on {nodes} nodes of {gpus_per_node} GPUs (at least one rank and at most {gpus_per_node} per node)")]
    RanksDoNotFitNodes {
        ranks: u32,
        nodes: u32,
        gpus_per_node: u32,
    },
}

/// Checks `run` against the prediction of `spec` on its fabric named `fabric`, with the algorithm
/// and protocol NCCL's tuner would choose.
pub fn check(
    spec: &DesignSpec,
    fabric: &str,
    run: &Run,
    stated: Stated,
) -> Result<BaselineCheck, CheckError> {
    check_assuming(spec, fabric, run, stated, None)
}

/// Ranks from the run's bandwidth columns when it lists a single rank line: busbw ÷ algbw is
/// 2(n−1)/n for AllReduce and (n−1)/n for AllGather and ReduceScatter [nccl-tests
/// doc/PERFORMANCE.md], so n = 2 ÷ (2 − ratio) or 1 ÷ (1 − ratio).
fn ranks_from_bandwidths(run: &Run, collective: Collective) -> Option<(u32, f64)> {
    let row = run.at_least(1 << 30)?;
    let m = row.out_of_place;
    if m.algbw_gbytes_per_s <= 0.0 {
        return None;
    }
    let ratio = m.busbw_gbytes_per_s / m.algbw_gbytes_per_s;
    let ceiling = match collective {
        Collective::AllReduce => 2.0,
        Collective::AllGather | Collective::ReduceScatter => 1.0,
        _ => return None,
    };
    let n = ceiling / (ceiling - ratio);
    (1.5..1e7).contains(&n).then(|| (n.round() as u32, ratio))
}

/// [`check`] for a run forced to `algorithm` (as `NCCL_ALGO=Ring`, `NVLS` or `CollNet` force it):
/// the prediction uses that algorithm, in the fastest protocol. An algorithm the group cannot
/// run (NVLS across nodes, SHARP on a switch without it) is predicted as the ring.
pub fn check_assuming(
    spec: &DesignSpec,
    fabric: &str,
    run: &Run,
    stated: Stated,
    algorithm: Option<Algorithm>,
) -> Result<BaselineCheck, CheckError> {
    let on = spec
        .fabrics
        .iter()
        .find(|f| f.name == fabric)
        .ok_or_else(|| CheckError::NoSuchFabric(fabric.to_string()))?;
    let gpu = gpu(&spec.cluster.gpu).ok_or_else(|| {
        CheckError::Design(format!("GPU {:?} is not in the catalog", spec.cluster.gpu))
    })?;
    let links = Links::new(
        &spec.cluster,
        gpu,
        on,
        &spec.calibration,
        Conditions::NORMAL,
    );
    let gpus_per_node = spec.cluster.gpus_per_node.max(1);
    let attached_gpus = u64::from(links.nodes) * u64::from(gpus_per_node);
    let mut assumptions = Vec::new();
    let collective = run.collective.unwrap_or_else(|| {
        assumptions.push("the output names no tool: read as all_reduce_perf".to_string());
        Collective::AllReduce
    });
    let ranks = match (stated.ranks, run.ranks) {
        (Some(stated), Some(listed)) if stated != listed => {
            assumptions.push(format!(
                "the output lists {listed} rank line{}; read as the stated {stated} ranks",
                if listed == 1 { "" } else { "s" }
            ));
            stated
        }
        (Some(stated), _) => stated,
        (None, Some(listed)) if listed > 1 => listed,
        (None, listed) => match ranks_from_bandwidths(run, collective) {
            Some((n, ratio)) if listed != Some(n) => {
                let lines = match listed {
                    Some(1) => "one rank line",
                    _ => "no rank lines",
                };
                assumptions.push(format!(
                    "the output lists {lines}, but its bus bandwidth is {ratio:.2}× its algorithm bandwidth: read as {n} ranks (state the ranks if that is wrong)"
                ));
                n
            }
            _ => match listed {
                Some(n) => n,
                None => {
                    let ranks = u32::try_from(attached_gpus).unwrap_or(u32::MAX);
                    assumptions.push(format!(
                        "the output lists no ranks: read as every GPU on the fabric ({ranks})"
                    ));
                    ranks
                }
            },
        },
    };
    if u64::from(ranks) > attached_gpus {
        return Err(CheckError::TooManyRanks {
            ranks,
            gpus: attached_gpus,
        });
    }
    let nodes = match (stated.nodes, run.nodes) {
        (Some(stated), _) => stated,
        (None, Some(hosts)) if u64::from(hosts) * u64::from(gpus_per_node) >= u64::from(ranks) => {
            hosts
        }
        _ => {
            let packed = ranks.div_ceil(gpus_per_node);
            if packed > 1 {
                assumptions.push(format!(
                    "the output does not say how many nodes: read as {packed} nodes of {gpus_per_node} GPUs"
                ));
            }
            packed
        }
    };
    if nodes > links.nodes {
        return Err(CheckError::TooManyNodes {
            nodes,
            attached: links.nodes,
        });
    }
    let ranks_per_node = ranks.div_ceil(nodes.max(1));
    if nodes == 0 || ranks < nodes || ranks_per_node > gpus_per_node {
        return Err(CheckError::RanksDoNotFitNodes {
            ranks,
            nodes,
            gpus_per_node,
        });
    }
    let group = links.group(ranks, ranks_per_node, 1);
    let mut tuning = links.tuning;
    if algorithm == Some(Algorithm::InNetwork) && tuning.in_network.is_none() {
        // A run made with SHARP on a design that has not enabled it: predict SHARP as the
        // calibration describes it, where the switch supports it.
        let c = &spec.calibration;
        let sharp = crate::catalog::switch(on.switch_key()).is_some_and(|s| s.sharp);
        tuning.in_network = sharp.then_some(crate::tuning::InNetwork {
            efficiency: c.in_network_efficiency,
            latency_us: c.in_network_latency_us,
        });
    }
    let tuning = tuning.only(algorithm);
    let n = f64::from(ranks.max(1));
    let predicted = |bytes: u64| -> Option<(f64, String)> {
        let size = Bytes(bytes as f64);
        let (cost, factor): (Cost, f64) = match collective {
            Collective::AllReduce => (tuned_allreduce(&group, &tuning, size), 2.0 * (n - 1.0) / n),
            Collective::AllGather | Collective::ReduceScatter => {
                (tuned_reduce_scatter(&group, &tuning, size), (n - 1.0) / n)
            }
            _ => return None,
        };
        let seconds = cost.time().0;
        (seconds > 0.0 && seconds.is_finite()).then(|| {
            (
                size.0 * factor / seconds / 1e9,
                choice_label(cost.algorithm, cost.protocol),
            )
        })
    };
    let sizes: Vec<SizeCheck> = run
        .rows
        .iter()
        .map(|row| {
            let best = row
                .in_place
                .filter(|p| p.busbw_gbytes_per_s > row.out_of_place.busbw_gbytes_per_s)
                .unwrap_or(row.out_of_place);
            let prediction = predicted(row.bytes);
            SizeCheck {
                bytes: row.bytes,
                measured_algbw_gbytes_per_s: best.algbw_gbytes_per_s,
                measured_busbw_gbytes_per_s: best.busbw_gbytes_per_s,
                predicted_busbw_gbytes_per_s: prediction.as_ref().map(|p| p.0),
                predicted_with: prediction.map(|p| p.1),
            }
        })
        .collect();
    let verdict = run
        .at_least(1 << 30)
        .and_then(|row| predicted(row.bytes))
        .and_then(|(expected, _)| verdict(run, expected));
    Ok(BaselineCheck {
        fabric: fabric.to_string(),
        collective,
        ranks,
        nodes: group.nodes,
        assumptions,
        assumed_algorithm: algorithm,
        sizes,
        verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nccl_tests::parse;

    /// 16 DGX H100 nodes with 8 × 400G NDR each (the reference training design).
    fn reference() -> DesignSpec {
        DesignSpec::from_json(crate::examples::SEVENTY_B_TRAINING).unwrap()
    }

    fn compute_fabric(spec: &DesignSpec) -> String {
        spec.fabrics[0].name.clone()
    }

    fn all_reduce_run(ranks: u32, busbw_at_1_gib: f64) -> String {
        let mut text = String::from("# Collective test starting: all_reduce_perf\n");
        for rank in 0..ranks {
            text.push_str(&format!(
                "#  Rank {rank:2} Group  0 Pid 1 on node{:02} device {} [0x18] NVIDIA H100 80GB HBM3\n",
                rank / 8,
                rank % 8
            ));
        }
        // algbw = busbw ÷ (2(n−1)/n); time = size ÷ algbw.
        let factor = 2.0 * f64::from(ranks - 1) / f64::from(ranks);
        for (size, busbw) in [
            (16u64 << 20, busbw_at_1_gib * 0.6),
            (1 << 30, busbw_at_1_gib),
        ] {
            let algbw = busbw / factor;
            let time_us = size as f64 / (algbw * 1e9) * 1e6;
            text.push_str(&format!(
                "{size:>12} {:>12} float sum -1 {time_us:.1} {algbw:.2} {busbw:.2} 0 {time_us:.1} {algbw:.2} {busbw:.2} 0\n",
                size / 4
            ));
        }
        text
    }

    #[test]
    fn a_large_all_reduce_across_nodes_is_predicted_at_the_nic_limited_bus_bandwidth() {
        // The large-message limit is min(NVLink per GPU, the node's NICs) = 370 GB/s here; at
        // 1 GiB the latency of 128 ranks still costs about a tenth of it, at 16 MiB far more.
        let spec = reference();
        let run = parse(all_reduce_run(128, 300.0).as_bytes()).unwrap();
        let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
        assert_eq!(check.ranks, 128);
        assert_eq!(check.nodes, 16);
        let at_1_gib = check.sizes.iter().find(|s| s.bytes == 1 << 30).unwrap();
        let predicted = at_1_gib.predicted_busbw_gbytes_per_s.unwrap();
        let peak = spec_peak(&spec);
        assert!(
            predicted < peak && predicted > 0.8 * peak,
            "{predicted} GB/s against a {peak} GB/s peak"
        );
        let at_16_mib = check.sizes.iter().find(|s| s.bytes == 16 << 20).unwrap();
        assert!(
            at_16_mib.predicted_busbw_gbytes_per_s.unwrap() < predicted,
            "smaller messages pay more latency"
        );
    }

    fn spec_peak(spec: &DesignSpec) -> f64 {
        let report = crate::evaluate(spec).unwrap();
        crate::operations::operations(spec, &report)[0]
            .expected_allreduce_busbw
            .as_ref()
            .unwrap()
            .value
            .0
            / 1e9
    }

    #[test]
    fn a_healthy_run_passes_and_a_run_at_two_thirds_is_flagged() {
        let spec = reference();
        let fabric = compute_fabric(&spec);
        let peak = spec_peak(&spec);
        let healthy = parse(all_reduce_run(128, peak * 0.97).as_bytes()).unwrap();
        let verdict = check(&spec, &fabric, &healthy, Stated::default())
            .unwrap()
            .verdict
            .unwrap();
        assert!(verdict.healthy, "{}", verdict.message);
        // One link at two thirds of its speed: the ring runs at its slowest link (seed C14).
        let degraded = parse(all_reduce_run(128, peak * 0.66).as_bytes()).unwrap();
        let verdict = check(&spec, &fabric, &degraded, Stated::default())
            .unwrap()
            .verdict
            .unwrap();
        assert!(!verdict.healthy);
        assert!(
            verdict.message.starts_with("at 1 GiB, measured"),
            "{}",
            verdict.message
        );
        assert!(
            verdict.message.contains("degraded link"),
            "{}",
            verdict.message
        );
    }

    #[test]
    fn output_without_header_is_read_as_all_reduce_on_every_gpu_and_says_so() {
        let spec = reference();
        let text = all_reduce_run(128, 300.0);
        let rows: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        let run = parse(rows.as_bytes()).unwrap();
        let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
        assert_eq!(check.collective, Collective::AllReduce);
        assert_eq!(check.ranks, 128);
        // The tool, the ranks (from the bandwidth columns) and the nodes are each assumed.
        assert_eq!(check.assumptions.len(), 3, "{:?}", check.assumptions);
        assert!(
            check.assumptions[1].contains("no rank lines"),
            "{:?}",
            check.assumptions
        );
    }

    #[test]
    fn a_run_on_more_ranks_than_the_fabric_has_gpus_or_an_unknown_fabric_is_refused() {
        let spec = reference();
        let run = parse(all_reduce_run(136, 300.0).as_bytes()).unwrap();
        assert_eq!(
            check(&spec, &compute_fabric(&spec), &run, Stated::default()),
            Err(CheckError::TooManyRanks {
                ranks: 136,
                gpus: 128
            })
        );
        assert!(matches!(
            check(&spec, "no such fabric", &run, Stated::default()),
            Err(CheckError::NoSuchFabric(_))
        ));
    }

    #[test]
    fn a_single_node_run_is_predicted_with_nvls_unless_it_was_forced_to_the_ring() {
        let mut spec = reference();
        spec.fabrics[0].attached_nodes = Some(1);
        let run = parse(all_reduce_run(8, 470.0).as_bytes()).unwrap();
        let fabric = compute_fabric(&spec);
        let default = check(&spec, &fabric, &run, Stated::default()).unwrap();
        let at_1_gib = default.sizes.iter().find(|s| s.bytes == 1 << 30).unwrap();
        assert!(at_1_gib
            .predicted_with
            .as_deref()
            .unwrap()
            .starts_with("NVLink SHARP"));
        assert!(default.verdict.unwrap().healthy);
        let ring = check_assuming(
            &spec,
            &fabric,
            &run,
            Stated::default(),
            Some(Algorithm::Ring),
        )
        .unwrap();
        assert_eq!(ring.assumed_algorithm, Some(Algorithm::Ring));
        let at_1_gib = ring.sizes.iter().find(|s| s.bytes == 1 << 30).unwrap();
        assert!(at_1_gib
            .predicted_with
            .as_deref()
            .unwrap()
            .starts_with("ring"));
        assert!(at_1_gib.predicted_busbw_gbytes_per_s.unwrap() < 375.0);
    }

    #[test]
    fn a_run_made_with_sharp_is_predicted_with_in_network_reduction() {
        let spec = reference();
        let run = parse(all_reduce_run(128, 300.0).as_bytes()).unwrap();
        let fabric = compute_fabric(&spec);
        let sharp = check_assuming(
            &spec,
            &fabric,
            &run,
            Stated::default(),
            Some(Algorithm::InNetwork),
        )
        .unwrap();
        let ring = check_assuming(
            &spec,
            &fabric,
            &run,
            Stated::default(),
            Some(Algorithm::Ring),
        )
        .unwrap();
        let at = |c: &BaselineCheck| {
            c.sizes
                .iter()
                .find(|s| s.bytes == 1 << 30)
                .unwrap()
                .predicted_busbw_gbytes_per_s
                .unwrap()
        };
        assert!(
            at(&sharp) > at(&ring) * 1.1,
            "{} vs {}",
            at(&sharp),
            at(&ring)
        );
    }

    #[test]
    fn collectives_the_design_does_not_model_are_shown_as_measured_without_a_verdict() {
        let spec = reference();
        let text = all_reduce_run(16, 40.0).replace("all_reduce_perf", "alltoall_perf");
        let run = parse(text.as_bytes()).unwrap();
        let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
        assert_eq!(check.collective, Collective::AllToAll);
        assert!(check
            .sizes
            .iter()
            .all(|s| s.predicted_busbw_gbytes_per_s.is_none()));
        assert!(check.verdict.is_none());
    }

    /// The output of `ranks` ranks in which the launcher printed only the first rank line.
    fn one_rank_line(ranks: u32, busbw: f64) -> String {
        let full = all_reduce_run(ranks, busbw);
        let mut seen = false;
        full.lines()
            .filter(|l| {
                let rank_line = l.starts_with("#  Rank");
                let keep = !rank_line || !seen;
                seen |= rank_line;
                keep
            })
            .map(|l| format!("{l}\n"))
            .collect()
    }

    #[test]
    fn a_log_with_one_rank_line_is_judged_with_the_stated_ranks_and_nodes() {
        let spec = reference();
        let run = parse(one_rank_line(128, 300.0).as_bytes()).unwrap();
        assert_eq!(run.ranks, Some(1));
        let stated = Stated {
            ranks: Some(128),
            nodes: Some(16),
        };
        let check = check(&spec, &compute_fabric(&spec), &run, stated).unwrap();
        assert_eq!((check.ranks, check.nodes), (128, 16));
        assert!(check.verdict.is_some(), "a verdict against the design");
        assert!(check
            .sizes
            .iter()
            .all(|s| s.predicted_busbw_gbytes_per_s.is_some()));
        assert!(
            check.assumptions[0].contains("read as the stated 128 ranks"),
            "{:?}",
            check.assumptions
        );
    }

    #[test]
    fn without_a_statement_the_ranks_come_from_the_bus_to_algorithm_bandwidth_ratio() {
        // 2(n−1)/n = busbw ÷ algbw, printed to two decimals: 64 ranks read back as 64.
        let spec = reference();
        let run = parse(one_rank_line(64, 300.0).as_bytes()).unwrap();
        let check = check(&spec, &compute_fabric(&spec), &run, Stated::default()).unwrap();
        assert_eq!(check.ranks, 64);
        assert_eq!(check.nodes, 8);
        assert!(check.verdict.is_some());
        assert!(
            check
                .assumptions
                .iter()
                .any(|a| a.contains("read as 64 ranks")),
            "{:?}",
            check.assumptions
        );
    }

    #[test]
    fn nodes_come_from_the_hosts_the_rank_lines_name() {
        let run = parse(all_reduce_run(16, 300.0).as_bytes()).unwrap();
        assert_eq!((run.ranks, run.nodes), (Some(16), Some(2)));
    }

    #[test]
    fn stated_nodes_the_fabric_does_not_have_or_cannot_hold_the_ranks_are_refused() {
        let spec = reference();
        let run = parse(one_rank_line(128, 300.0).as_bytes()).unwrap();
        let too_many = Stated {
            ranks: Some(128),
            nodes: Some(40),
        };
        assert_eq!(
            check(&spec, &compute_fabric(&spec), &run, too_many).unwrap_err(),
            CheckError::TooManyNodes {
                nodes: 40,
                attached: 16
            }
        );
        let crowded = Stated {
            ranks: Some(128),
            nodes: Some(8),
        };
        assert!(matches!(
            check(&spec, &compute_fabric(&spec), &run, crowded),
            Err(CheckError::RanksDoNotFitNodes { .. })
        ));
    }
}
