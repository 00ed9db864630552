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
use crate::units::GigabytesPerSecond;
use serde::{Deserialize, Serialize};

/// One message size: what was measured and what the design predicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SizeCheck {
    pub bytes: u64,
    /// The better of out-of-place and in-place, GB/s.
    pub measured_algbw_gbytes_per_s: GigabytesPerSecond,
    pub measured_busbw_gbytes_per_s: GigabytesPerSecond,
    /// `None` for collectives the design does not model on this fabric.
    pub predicted_busbw_gbytes_per_s: Option<GigabytesPerSecond>,
    /// The algorithm and protocol the prediction assumes ("ring / Simple").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_with: Option<String>,
    /// The algorithm and protocol of that prediction, NCCL's choice: what a fit by protocol
    /// band reads, and keeps (the choice is NCCL's, whatever the calibration).
    #[serde(skip)]
    pub choice: Option<(Algorithm, crate::collective::Protocol)>,
}

impl SizeCheck {
    /// Measured ÷ predicted bus bandwidth.
    pub fn ratio(&self) -> Option<f64> {
        self.predicted_busbw_gbytes_per_s
            .filter(|p| *p > GigabytesPerSecond::new(0.0))
            .map(|p| self.measured_busbw_gbytes_per_s / p)
    }
}

/// A run checked against the design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    if m.algbw_gbytes_per_s.gigabytes_per_second() <= 0.0 {
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
    let spec = &*crate::switch_choice::with_switches_chosen(spec);
    let (on, links) = links_on(spec, fabric)?;
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
    let (group, tuning) = predicting(spec, on, &links, ranks, nodes, algorithm);
    let predicted = |bytes: u64| predict(&group, &tuning, collective, ranks, bytes, None);
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
                predicted_busbw_gbytes_per_s: prediction.map(|p| GigabytesPerSecond::new(p.0)),
                choice: prediction.map(|p| (p.1.algorithm, p.1.protocol)),
                predicted_with: prediction.map(|p| choice_label(p.1.algorithm, p.1.protocol)),
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

/// The all_reduce_perf run on `nodes` nodes (every GPU of each a rank) over `sizes` that
/// measures exactly what `spec` predicts on its fabric `fabric`: the fabric as if built with
/// `spec`'s calibration (a fit's test data, and its benchmark's).
pub fn predicted_run(
    spec: &DesignSpec,
    fabric: &str,
    nodes: u32,
    sizes: &[u64],
) -> Result<Run, CheckError> {
    let ranks = nodes * spec.cluster.gpus_per_node.max(1);
    let blank = Run::all_reduce_measured(ranks, nodes, sizes.iter().map(|&b| (b, 1.0)));
    let check = check_assuming(spec, fabric, &blank, Stated::default(), None)?;
    Ok(Run::all_reduce_measured(
        ranks,
        nodes,
        check.sizes.iter().map(|s| {
            let predicted = s.predicted_busbw_gbytes_per_s;
            (
                s.bytes,
                predicted.map_or(0.0, GigabytesPerSecond::gigabytes_per_second),
            )
        }),
    ))
}

/// `spec`'s fabric named `fabric` and its links, calibrated.
fn links_on<'s>(
    spec: &'s DesignSpec,
    fabric: &str,
) -> Result<(&'s crate::spec::Fabric, Links), CheckError> {
    let on = spec
        .fabrics
        .iter()
        .find(|f| f.name == fabric)
        .ok_or_else(|| CheckError::NoSuchFabric(fabric.to_string()))?;
    let gpu = gpu(&spec.cluster.gpu).ok_or_else(|| {
        CheckError::Design(format!("GPU {:?} is not in the catalog", spec.cluster.gpu))
    })?;
    // Sized on its plan, as the design's own evaluation is: a run whose nodes span leaves
    // crosses the spines, with their share of the leaf uplinks and the locality tiers' costs.
    let plan = crate::catalog::switch(on.switch_key())
        .and_then(|s| crate::sizing::size_fabric(spec, on, s).ok());
    let links = match &plan {
        Some(plan) => crate::evaluate::links_on_plan(spec, gpu, on, plan, Conditions::NORMAL),
        None => Links::new(
            &spec.cluster,
            gpu,
            on,
            &spec.calibration,
            Conditions::NORMAL,
        ),
    };
    Ok((on, links))
}

/// The upper tiers a run over `nodes` nodes of `fabric` crosses, its nodes placed together: 0
/// within one leaf, 1 across the spines, 2 across the core as well.
pub(crate) fn tiers_crossed(spec: &DesignSpec, fabric: &str, nodes: u32) -> usize {
    links_on(spec, fabric).map_or(0, |(_, l)| {
        usize::from(nodes > l.nodes_per_leaf) + usize::from(nodes > l.nodes_per_pod)
    })
}

/// The group a run of `ranks` on `nodes` forms on fabric `on` (its `links`) and the choices its
/// collectives have, forced to `algorithm` where the run was.
fn predicting(
    spec: &DesignSpec,
    on: &crate::spec::Fabric,
    links: &Links,
    ranks: u32,
    nodes: u32,
    algorithm: Option<Algorithm>,
) -> (crate::collective::Group, crate::tuning::Tuning) {
    let group = links.group(ranks, ranks.div_ceil(nodes.max(1)), 1);
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
    (group, tuning.only(algorithm))
}

/// The bus bandwidth predicted for `collective` of `bytes` over `ranks` ranks, GB/s, with the
/// cost behind it, with NCCL's choice or the `chosen` algorithm and protocol; `None` for a
/// collective the design does not model.
fn predict(
    group: &crate::collective::Group,
    tuning: &crate::tuning::Tuning,
    collective: Collective,
    ranks: u32,
    bytes: u64,
    chosen: Option<(Algorithm, crate::collective::Protocol)>,
) -> Option<(f64, Cost)> {
    use crate::tuning::{allreduce_as, reduce_scatter_as};
    let n = f64::from(ranks.max(1));
    let size = Bytes::new(bytes as f64);
    // busbw = algbw × f(n) [nccl-tests doc/PERFORMANCE.md].
    let factor = match collective {
        Collective::AllReduce => 2.0 * (n - 1.0) / n,
        Collective::AllGather | Collective::ReduceScatter => (n - 1.0) / n,
        _ => return None,
    };
    let cost = match (collective, chosen) {
        (Collective::AllReduce, None) => tuned_allreduce(group, tuning, size),
        (Collective::AllReduce, Some((algorithm, protocol))) => {
            allreduce_as(group, tuning, size, algorithm, protocol)
        }
        (_, None) => tuned_reduce_scatter(group, tuning, size),
        (_, Some((_, protocol))) => reduce_scatter_as(group, tuning, size, protocol),
    };
    let seconds = cost.time().seconds();
    (seconds > 0.0 && seconds.is_finite()).then(|| (size.bytes() * factor / seconds / 1e9, cost))
}

/// The bus bandwidth `spec` (its calibration) predicts for each of `sizes` of the run `check`
/// checked on fabric `fabric`, each with the algorithm and protocol NCCL chose for it, GB/s:
/// [`check_assuming`]'s prediction without its words or a choice made again, for a fit that
/// asks for it many times.
pub(crate) fn predicted_busbw(
    spec: &DesignSpec,
    fabric: &str,
    check: &BaselineCheck,
    sizes: impl Iterator<Item = (u64, Option<(Algorithm, crate::collective::Protocol)>)>,
) -> Vec<Option<f64>> {
    let setup = links_on(spec, fabric).ok().map(|(on, links)| {
        predicting(
            spec,
            on,
            &links,
            check.ranks,
            check.nodes,
            check.assumed_algorithm,
        )
    });
    sizes
        .map(|(bytes, chosen)| {
            let (group, tuning) = setup.as_ref()?;
            predict(group, tuning, check.collective, check.ranks, bytes, chosen).map(|p| p.0)
        })
        .collect()
}

#[cfg(test)]
mod tests;
