//! Design search: the cheapest fabrics that meet the workloads' targets, as a Pareto frontier
//! of network cost, network power, worst training slowdown and worst added latency per token.
//!
//! A [`SearchRequest`] names a base design, [`Targets`] per workload, [`Constraints`] (budget,
//! power, allowed technologies, switches and families, tiers, growth) and the [`Freedoms`] the
//! search may vary (technology, port speed, switch model, topology, oversubscription, NICs per
//! node, how workloads share fabrics). Every combination is a candidate with a numeric id.
//!
//! Strategy and guarantee:
//! - Choices no constraint allows are removed before any candidate is formed.
//! - A candidate whose cost or power floor (one leaf switch per radix of endpoints on every
//!   fabric) already breaks a budget is pruned without evaluation; the floor never exceeds the
//!   true figure, so no feasible candidate is lost.
//! - Every other candidate is evaluated and checked. Its figures are assembled from its
//!   fabrics, each evaluated by [`crate::evaluate`] once per option and NIC count, alone with
//!   the workloads it carries, and cached: no figure the search reads crosses fabrics, so the
//!   assembled figures equal a full evaluation of the candidate's design to the bit (a property
//!   test checks every candidate of random small spaces against a full evaluation).
//! - A candidate that meets every check not reading cost or power is then laid on its floor
//!   from those fabrics, as [`crate::evaluate`] lays it: its cost and power become the network
//!   as placed (each cable at its routed, orderable length with the medium that length needs),
//!   the budget checks read them, and the frontier is decided on them, so every feasible
//!   candidate is compared as it would be built ([`Record::placed`]). A candidate that breaks a
//!   check on its workloads keeps its fabrics' bills, each tier's cables at its nominal run.
//! - When the space holds at most `max_candidates` candidates (100,000 by default) every one
//!   is visited and the frontier is exact: each frontier point meets every check and no
//!   feasible candidate of the space is at least as good on every objective and better on one.
//! - Beyond that, `max_candidates` distinct candidates are visited, drawn from a quasi-random
//!   sequence spread evenly over every freedom at once: the arrangements, the NIC counts and
//!   each fabric's options (the R_D sequence, seeded by the request's `seed`). The frontier is
//!   then exact for the visited candidates only, and [`SearchResult::exhaustive`] is false. A
//!   space too large to count is counted saturating and said to be.
//! - Each list of the request is taken in one order (sorted, without repeats), so the same
//!   lists in another order span the same space, with the same ids and the same frontier.
//!
//! Every visited candidate keeps a compact [`Record`]: `Dominated { by }` names a feasible
//! candidate that beats it (which may itself have been beaten later: follow `by` to the
//! frontier), `Infeasible` the check it breaks worst. [`Search::reason`] says it in a sentence,
//! [`Search::explain`] gives a candidate's binding check and what the next cheaper candidate
//! breaks, and when nothing is feasible [`SearchResult::no_design`] names the checks nobody
//! meets and the closest candidate.
//!
//! Run it at once with [`search`], or in slices (the browser shows progress between them; a
//! slice of a few thousand candidates takes well under 250 ms once each fabric option has
//! been evaluated):
//!
//! ```
//! use engine::search::{Search, SearchRequest};
//! let base = engine::DesignSpec::from_json(engine::examples::SEVENTY_B_INFERENCE_25G).unwrap();
//! let mut request = SearchRequest::new(base);
//! request.freedoms.technologies = engine::Technology::ALL.to_vec();
//! request.targets.every_workload.max_added_latency_ms = Some(engine::Millis::new(50.0));
//! let mut search = Search::new(request).unwrap();
//! while !search.step(2).done {}
//! let result = search.result();
//! assert!(!result.frontier.is_empty());
//! ```

mod arrange;
mod checks;
mod explain;
mod frontier;
mod parts;
mod record;
mod request;
mod sample;
mod space;

pub use checks::{Breach, Check, Measure};
pub use explain::{
    breach, describe_choice, Candidate, Explanation, Measured, NextCheaper, NoDesign,
};
pub use frontier::{Progress, Search, Work};
pub use record::{Record, Status};
pub use request::{
    default_max_candidates, Arrangement, Constraints, Freedoms, Limits, SearchRequest, Targets,
    WorkloadLimits, MAX_CANDIDATES, MAX_VALUES_PER_FREEDOM,
};
pub use space::{Choice, FabricChoice};

use crate::error::SpecErrors;
use serde::{Deserialize, Serialize};

/// What a finished (or interrupted) search found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SearchResult {
    /// Candidates the freedoms span, counted saturating.
    pub space: u64,
    /// Whether `space` is the exact count (false: more than 18,446,744,073,709,551,615).
    #[serde(default = "yes")]
    pub space_counted: bool,
    pub visited: u64,
    pub evaluated: u64,
    pub feasible: u64,
    /// Every candidate of the space was visited: the frontier is exact.
    pub exhaustive: bool,
    /// The checks, in the order breaches and measurements refer to.
    pub checks: Vec<Check>,
    /// Feasible candidates no other beats on every objective (cost and power as placed on the
    /// floor), cheapest first.
    pub frontier: Vec<Candidate>,
    /// Set when no visited candidate is feasible.
    pub no_design: Option<NoDesign>,
    /// What the cheapest candidate's checked answers rest on, where an assumption moves one:
    /// the overlap of gradient traffic with the backward pass and the transports' efficiencies,
    /// each with the verdict at its published low; and each check it meets at the engine's
    /// prediction but not across the time's interval from the published measurements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rests_on: Option<String>,
    /// The answer in a sentence or two.
    pub summary: String,
}

fn yes() -> bool {
    true
}

impl Search {
    /// The frontier's candidates with their networks as placed, cheapest first.
    fn frontier_candidates(&self) -> Vec<Candidate> {
        self.frontier()
            .into_iter()
            .filter_map(|r| self.candidate(r))
            .collect()
    }

    /// What the answers of candidate `id` that a check reads rest on: each assumption that
    /// would move one at its published low, with the check's verdict then, and each check it
    /// meets only within the margin of its time's interval.
    fn rests_on(&self, id: u64) -> Option<String> {
        let spec = self.spec(id)?;
        let report =
            crate::evaluate::evaluate_unplaced(&spec, crate::links::Conditions::NORMAL).ok()?;
        let sentences: Vec<String> = crate::sensitivity::moved(&spec, &report)
            .iter()
            .filter_map(|m| {
                let read: Vec<&Check> = self
                    .checks
                    .iter()
                    .filter(|c| c.measure.workload() == Some(m.workload))
                    .collect();
                let slowdown_target = read
                    .iter()
                    .find(|c| matches!(c.measure, Measure::Slowdown(_)))
                    .map(|c| c.limit);
                (!read.is_empty())
                    .then(|| m.sentence(spec.workloads[m.workload].name(), slowdown_target))
            })
            .collect();
        let sentences: Vec<String> = sentences
            .into_iter()
            .chain(self.within_margin(&spec, &report))
            .collect();
        (!sentences.is_empty()).then(|| sentences.join(" "))
    }

    /// The workload checks `report` of `spec` meets at the engine's prediction but not across
    /// the time's interval from the published measurements ([`crate::uncertainty`]), each in a
    /// sentence.
    fn within_margin(
        &self,
        spec: &crate::spec::DesignSpec,
        report: &crate::report::Report,
    ) -> Vec<String> {
        use crate::report::WorkloadReport;
        let intervals = crate::uncertainty::intervals(spec, report);
        self.checks
            .iter()
            .filter_map(|c| {
                let i = c.measure.workload()?;
                let value = checks::value(c.measure, spec, report);
                let name = spec.workloads.get(i)?.name();
                let interval = intervals.iter().find(|x| x.workload == name)?;
                let top = match (c.measure, report.workloads.get(i)?) {
                    (Measure::Slowdown(_), WorkloadReport::Training(t))
                        if t.ideal_step_time.value.seconds() > 0.0 =>
                    {
                        (interval.high.seconds() / t.ideal_step_time.value.seconds() - 1.0) * 100.0
                    }
                    (Measure::AddedLatency(_), WorkloadReport::Inference(r)) => {
                        (r.network_added_per_token.value.seconds() + interval.high.seconds() - interval.value.seconds())
                            * 1e3
                    }
                    _ => return None,
                };
                (c.met(value) && !c.met(top)).then(|| {
                    format!(
                        "Within the margin: {} holds at the prediction ({} {}) but not across its interval (from {}), up to {} {}.",
                        c.describe(),
                        crate::units::rounded(value),
                        c.unit,
                        interval.band,
                        crate::units::rounded(top),
                        c.unit
                    )
                })
            })
            .collect()
    }

    /// The result so far (final once [`Progress::done`]).
    pub fn result(&self) -> SearchResult {
        let progress = self.progress();
        let frontier = self.frontier_candidates();
        let rests_on = frontier.first().and_then(|c| self.rests_on(c.record.id));
        SearchResult {
            space: progress.space,
            space_counted: progress.space_counted,
            visited: progress.visited,
            evaluated: self
                .records()
                .iter()
                .filter(|r| !matches!(r.status, Status::Pruned { .. }))
                .count() as u64,
            feasible: progress.feasible,
            exhaustive: self.exhaustive() && progress.done,
            checks: self.checks().to_vec(),
            frontier,
            no_design: self.no_design(),
            rests_on,
            summary: String::new(),
        }
        .summarised()
    }
}

use crate::units::thousands;

impl SearchResult {
    /// The frontier with candidates of the same figures (cost, power, slowdown and latency)
    /// taken together: the first of each, cheapest first, with the ids of the others, which
    /// differ only in choices that change none of them (the oversubscription of a fabric on
    /// one switch, say).
    pub fn distinct_frontier(&self) -> Vec<(&Candidate, Vec<u64>)> {
        let mut distinct: Vec<(&Candidate, Vec<u64>)> = Vec::new();
        for c in &self.frontier {
            match distinct
                .iter_mut()
                .find(|(first, _)| first.record.same_figures(&c.record))
            {
                Some((_, same)) => same.push(c.record.id),
                None => distinct.push((c, Vec::new())),
            }
        }
        distinct
    }

    fn summarised(mut self) -> SearchResult {
        let mut text = match (self.frontier.first(), &self.no_design) {
            (Some(cheapest), _) => format!(
                "{} of {} candidates meet every check; {} on the frontier{}. The cheapest is \
                 candidate {} ({}) at {} USD and {} W{}.",
                thousands(self.feasible as f64),
                thousands(self.visited as f64),
                self.frontier.len(),
                match self.distinct_frontier().len() {
                    n if n < self.frontier.len() => format!(", {n} with distinct figures"),
                    _ => String::new(),
                },
                cheapest.record.id,
                describe_choice(&cheapest.choice),
                crate::units::rounded(cheapest.network().0.dollars()),
                crate::units::rounded(cheapest.network().1.watts()),
                cheapest.network_note()
            ),
            (None, Some(none)) => none.summary.clone(),
            (None, None) => "No candidate has been visited yet.".to_string(),
        };
        if let Some(rests_on) = &self.rests_on {
            text += " ";
            text += rests_on;
        }
        if !self.exhaustive {
            let space = if self.space_counted {
                format!(
                    "the {} candidates ({} of the space)",
                    thousands(self.space as f64),
                    share(self.visited, self.space)
                )
            } else {
                "more than 18,446,744,073,709,551,615 candidates (too many to count)".to_string()
            };
            text += &format!(
                " Only {} of {space} were visited, a quasi-random sample spread evenly over \
                 every freedom: a cheaper design may exist among the rest.",
                thousands(self.visited as f64),
            );
        }
        self.summary = text;
        self
    }
}

/// `part` of `whole` as a percentage with two significant figures: "0.54 %", "10 %".
fn share(part: u64, whole: u64) -> String {
    let percent = part as f64 / whole.max(1) as f64 * 100.0;
    let decimals = if percent >= 10.0 || percent <= 0.0 {
        0
    } else {
        (1 - percent.log10().floor() as i32).clamp(1, 12) as usize
    };
    format!("{percent:.decimals$} %")
}

/// Runs the whole search for `request`.
pub fn search(request: SearchRequest) -> Result<SearchResult, SpecErrors> {
    let mut s = Search::new(request)?;
    s.run();
    Ok(s.result())
}
