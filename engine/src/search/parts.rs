//! A candidate's figures assembled from its fabrics. Each fabric is evaluated once per option
//! and NIC count, alone with the workloads it carries, and cached: a candidate's cost and power
//! are the sums of its fabrics' (added in the same order as [`crate::evaluate`] adds them, so
//! the totals are the same to the bit), its worst slowdown and latency the largest of theirs,
//! and each workload's figures come from the one fabric that carries it. Nothing else the
//! checks read crosses fabrics, so a candidate costs a few look-ups instead of an evaluation.
//! The floor does cross them (the fabrics' switches share the network racks): a candidate worth
//! laying is laid from its fabrics as sized here, at the nodes the whole design's workloads
//! give each ([`Parts::placed`]).

use super::checks::{self, Check, Measure};
use super::space::Space;
use crate::evaluate::evaluate_unplaced;
use crate::floor::FloorInputs;
use crate::links::Conditions;
use crate::report::{FabricReport, Totals};
use crate::units::{Usd, Watts};
use std::collections::{BTreeMap, HashMap};

/// What one fabric, with one option and NIC count, contributes.
#[derive(Debug, Clone)]
pub(crate) struct Part {
    cost: f64,
    power: f64,
    tiers: u32,
    /// GPUs the fabric's worst single failure cuts off, where a check asks.
    failure_gpus: u64,
    /// Nodes of one scalable unit: the nodes one leaf serves (all of them on one switch).
    unit_nodes: u32,
    slowdown: Option<f64>,
    latency: Option<f64>,
    /// (check index, value) for the checks on the workloads this fabric carries.
    values: Vec<(usize, f64)>,
    /// The fabric as sized, to lay a candidate's floor with: kept for the first
    /// [`KEPT_FABRICS`] parts, sized again when needed beyond them.
    fabric: Option<Box<FabricReport>>,
}

/// Fabrics as sized that one search keeps (a few kilobytes each, against a part's few hundred
/// bytes): enough for every part of a typical search, and a bound on the memory of the largest
/// a server allows.
pub(super) const KEPT_FABRICS: usize = 4096;

/// A candidate's figures: totals, performance objectives and the value of every check.
#[derive(Debug, Clone, Default)]
pub(crate) struct Figures {
    pub cost: f64,
    pub power: f64,
    /// Worst training slowdown, percent, and worst added latency per token, ms.
    pub slowdown_percent: f64,
    pub added_latency_ms: f64,
    pub values: Vec<f64>,
    /// Whether `cost` and `power` are the network as placed ([`Parts::placed`]), not the
    /// fabrics' bills.
    pub placed: bool,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Parts {
    cache: BTreeMap<(usize, usize, usize, usize), Result<Part, String>>,
    /// The GPUs a block's tenants strand in units of a size, or why they cannot be placed.
    tenants: BTreeMap<(usize, u32), Result<u64, String>>,
    options: Vec<usize>,
    /// Parts that keep their fabric as sized.
    pub(super) kept: usize,
    /// The floor's cables and optics (cost, power) of each distinct floor laid, by block, NIC
    /// count and what the floor reads of each fabric.
    floors: HashMap<(usize, usize, Vec<FloorInputs>), (Usd, Watts)>,
}

/// Distinct floors one search keeps (under a kilobyte each, some 11 MB at most): beyond them a
/// floor is laid again each time it is needed. A search of 100,000 candidates on 64 nodes lays
/// 162.
const KEPT_FLOORS: usize = 16_384;

impl Parts {
    /// The figures of the candidate at (`block`, `nics`, `options`), or why it cannot be
    /// built. `figures.values` is refilled, one per check.
    pub fn figures(
        &mut self,
        space: &Space,
        checks: &[Check],
        block: usize,
        nics: usize,
        options: &[usize],
        figures: &mut Figures,
    ) -> Result<(), String> {
        let (mut cost, mut power, mut tiers, mut failure_gpus) = (0.0, 0.0, 0u32, 0u64);
        let template = &space.blocks[block].template;
        // The fabric whose scalable units the tenants are placed in, as the evaluation picks it.
        let unit_fabric = crate::tenancy::unit_fabric(template.fabrics.iter().map(|f| f.role));
        let mut unit_nodes = template.cluster.nodes;
        let (mut slowdown, mut latency): (Option<f64>, Option<f64>) = (None, None);
        figures.values.clear();
        figures
            .values
            .extend(checks.iter().map(|c| missing(c.measure)));
        for (fabric, &option) in options.iter().enumerate() {
            let key = (block, fabric, nics, option);
            let kept = &mut self.kept;
            let part = self.cache.entry(key).or_insert_with(|| {
                let mut made = part(space, checks, key);
                if let Ok(p) = &mut made {
                    if *kept < KEPT_FABRICS && p.fabric.is_some() {
                        *kept += 1;
                    } else {
                        p.fabric = None;
                    }
                }
                made
            });
            let part = part.as_ref().map_err(|e| e.clone())?;
            if fabric == unit_fabric {
                unit_nodes = part.unit_nodes;
            }
            cost += part.cost;
            power += part.power;
            tiers = tiers.max(part.tiers);
            failure_gpus = failure_gpus.max(part.failure_gpus);
            slowdown = larger(slowdown, part.slowdown);
            latency = larger(latency, part.latency);
            for &(i, v) in &part.values {
                figures.values[i] = v;
            }
        }
        let stranded = if template.tenants.is_empty() {
            0
        } else {
            self.tenants
                .entry((block, unit_nodes))
                .or_insert_with(|| {
                    crate::tenancy::place(template, unit_nodes)
                        .map(|placed| checks::stranded_gpus(template, &placed))
                        .map_err(|e| {
                            let first = e
                                .first()
                                .map_or_else(String::new, |f| format!("{}: {}", f.path, f.reason));
                            format!("the tenants cannot be placed: {first}")
                        })
                })
                .clone()?
        };
        for (c, v) in checks.iter().zip(figures.values.iter_mut()) {
            match c.measure {
                Measure::StrandedGpus => *v = stranded as f64,
                Measure::Cost => *v = cost,
                Measure::Power => *v = power,
                Measure::Tiers => *v = f64::from(tiers),
                Measure::FailureGpus => *v = failure_gpus as f64,
                _ => {}
            }
        }
        figures.cost = cost;
        figures.power = power;
        figures.slowdown_percent = slowdown.map_or(0.0, |r| ((r - 1.0) * 100.0).max(0.0));
        figures.added_latency_ms = latency.map_or(0.0, |s| s * 1e3);
        Ok(())
    }

    /// The network of the candidate at (`block`, `nics`, `options`), whose fabrics' bills add
    /// up to `figures`, as placed on its floor: (cost, power) as [`crate::evaluate`] reports
    /// them in [`crate::Report::placed`], laid from the fabrics as sized for
    /// [`Parts::figures`]. `None` when a fabric has no sizing to lay.
    pub fn placed(
        &mut self,
        space: &Space,
        block: usize,
        nics: usize,
        options: &[usize],
        figures: &Figures,
    ) -> Option<(f64, f64)> {
        let template = &space.blocks.get(block)?.template;
        // The fabrics as sized: kept by their parts, or sized again.
        let mut again = Vec::new();
        for (fabric, &option) in options.iter().enumerate() {
            let key = (block, fabric, nics, option);
            if self.cache.get(&key)?.as_ref().ok()?.fabric.is_none() {
                again.push((fabric, sized_alone(space, key)?));
            }
        }
        let mut sized: Vec<&FabricReport> = Vec::with_capacity(options.len());
        for (fabric, &option) in options.iter().enumerate() {
            let part = self
                .cache
                .get(&(block, fabric, nics, option))?
                .as_ref()
                .ok()?;
            sized.push(match &part.fabric {
                Some(kept) => kept,
                None => &again.iter().find(|(f, _)| *f == fabric)?.1,
            });
        }
        let spec_of = || {
            space.spec_on(block, nics, options, |f| {
                sized.get(f).map(|r| r.switch.as_str())
            })
        };
        // Each fabric was sized alone; one that attaches fewer nodes than the cluster starts
        // where the whole design's workloads put it.
        let mut spec = None;
        let mut first_nodes: Vec<u32> = sized.iter().map(|f| f.first_node).collect();
        if sized
            .iter()
            .any(|f| f.attached_nodes < template.cluster.nodes)
        {
            let whole = spec_of()?;
            let plans: Vec<_> = sized.iter().map(|f| f.plan.clone()).collect();
            let (_, allocations) = crate::evaluate::allocate(&whole, &plans).ok()?;
            for (first, f) in first_nodes.iter_mut().zip(&sized) {
                *first = crate::evaluate::first_node(&whole, f, &allocations);
            }
            spec = Some(whole);
        }
        // Candidates that differ in what the floor does not read (a spine oversubscription
        // on a fabric of two tiers) lay the same floor: laid once.
        let key = (
            block,
            nics,
            sized
                .iter()
                .zip(&first_nodes)
                .map(|(f, &first)| FloorInputs::of(f, first))
                .collect::<Option<Vec<_>>>()?,
        );
        let cabling = match self.floors.get(&key) {
            Some(&cabling) => cabling,
            None => {
                let spec = match spec {
                    Some(spec) => spec,
                    None => spec_of()?,
                };
                let fabrics: Vec<FabricReport> = sized
                    .iter()
                    .zip(&first_nodes)
                    .map(|(f, &first_node)| FabricReport {
                        first_node,
                        ..FabricReport::clone(f)
                    })
                    .collect();
                let cabling = crate::floor::floor_cabling(&spec, &fabrics);
                if self.floors.len() < KEPT_FLOORS {
                    self.floors.insert(key, cabling);
                }
                cabling
            }
        };
        let totals = Totals::new(
            Usd::new(figures.cost),
            Watts::new(figures.power),
            template.cluster.gpus(),
        );
        let placed = crate::floor::network_with(
            sized.iter().copied(),
            &totals,
            cabling,
            template.cluster.gpus(),
        );
        Some((placed.cost_usd.dollars(), placed.power_w.watts()))
    }

    /// Scratch space for decoding candidate ids.
    pub fn take_options(&mut self) -> Vec<usize> {
        std::mem::take(&mut self.options)
    }

    pub fn give_options(&mut self, options: Vec<usize>) {
        self.options = options;
    }
}

fn larger(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// A check's value when its workload reports nothing for it (as [`checks::value`] reads a
/// report that lacks the figure).
fn missing(measure: Measure) -> f64 {
    match measure {
        Measure::ReadHeadroom(_) => f64::INFINITY,
        _ => 0.0,
    }
}

/// Fabric `key` of a candidate sized alone, as [`part`] sizes it.
fn sized_alone(
    space: &Space,
    (block, fabric, nics, option): (usize, usize, usize, usize),
) -> Option<FabricReport> {
    let spec = space.part_spec(block, fabric, nics, option)?;
    let report = evaluate_unplaced(&spec, Conditions::NORMAL).ok()?;
    report.fabrics.into_iter().next()
}

fn part(
    space: &Space,
    checks: &[Check],
    (block, fabric, nics, option): (usize, usize, usize, usize),
) -> Result<Part, String> {
    let spec = space
        .part_spec(block, fabric, nics, option)
        .ok_or_else(|| "not in the space".to_string())?;
    let name = spec.fabrics[0].name.clone();
    let report = evaluate_unplaced(&spec, Conditions::NORMAL).map_err(|e| {
        let reason = e.0.first().map_or_else(String::new, |f| f.reason.clone());
        format!("fabric {name:?}: {reason}")
    })?;
    let template = &space.blocks[block].template;
    // Workload i of the design is workload `local` of this fabric's design.
    let local = |i: usize| {
        let w = template.workloads.get(i)?;
        if w.fabric() != name {
            return None;
        }
        Some(
            template.workloads[..i]
                .iter()
                .filter(|w| w.fabric() == name)
                .count(),
        )
    };
    let values = checks
        .iter()
        .enumerate()
        .filter_map(|(c, check)| {
            let i = check.measure.workload()?;
            let l = local(i)?;
            Some((c, checks::value(check.measure.on(l), &spec, &report)))
        })
        .collect();
    let h = &report.headline;
    Ok(Part {
        cost: report.totals.cost_usd.dollars(),
        power: report.totals.power_w.watts(),
        tiers: report
            .fabrics
            .iter()
            .map(|f| f.plan.tiers)
            .max()
            .unwrap_or(0),
        unit_nodes: report.fabrics.first().map_or(spec.cluster.nodes, |f| {
            crate::tenancy::nodes_per_unit(&f.plan, f.ports_per_node, spec.cluster.nodes)
        }),
        failure_gpus: if checks.iter().any(|c| c.measure == Measure::FailureGpus) {
            crate::failures::worst_cut_off(&spec, &report)
        } else {
            0
        },
        slowdown: h.worst_training_slowdown.map(|r| r.factor()),
        latency: h.worst_added_latency_per_token.map(|s| s.seconds()),
        values,
        fabric: report.fabrics.into_iter().next().map(Box::new),
    })
}
