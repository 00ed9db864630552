//! The search itself: candidates are visited in id order (or a quasi-random sample of them), each is
//! bounded, evaluated and checked, and the Pareto frontier is kept up to date as it goes, so
//! the search can run in slices.

use super::checks::{self, Breach, Check};
use super::parts::{Figures, Parts};
use super::record::{Record, Status};
use super::request::SearchRequest;
use super::space::Space;
use crate::error::{FieldError, SpecErrors};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// How far a search has come.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Progress {
    pub visited: u64,
    /// Candidates the search will visit in all.
    pub planned: u64,
    /// Candidates the freedoms span, counted saturating.
    pub space: u64,
    /// Whether `space` is the exact count (false: more than 18,446,744,073,709,551,615).
    #[serde(default = "yes")]
    pub space_counted: bool,
    pub feasible: u64,
    pub frontier: usize,
    pub done: bool,
}

fn yes() -> bool {
    true
}

/// The most a search can cost, known before it starts ([`Search::work`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// Candidates it will visit.
    pub candidates: u64,
    /// Fabric evaluations it may need: each fabric's option and NIC count is evaluated once,
    /// and only for the candidates visited (one per fabric each, at most). Each takes about as
    /// long as sizing a design (tens of microseconds) and is kept for the rest of the search
    /// (about 200 bytes).
    pub evaluations: u64,
}

/// A design search that runs in slices: [`Search::new`], then [`Search::step`] until done,
/// then [`Search::result`].
#[derive(Debug, Clone)]
pub struct Search {
    pub(crate) request: SearchRequest,
    pub(crate) checks: Vec<Check>,
    pub(crate) space: Space,
    /// Distinct candidates to visit, and visited so far.
    planned: u64,
    visited: u64,
    /// Draws allowed, and the next draw: a sample skips a draw that repeats a candidate.
    draws: u64,
    next: u64,
    /// Candidates a sample has visited, by fingerprint.
    seen: HashSet<u64, BuildHasherDefault<Fingerprint>>,
    pub(crate) records: Vec<Record>,
    /// Indices into `records` of the current frontier.
    frontier: Vec<usize>,
    feasible: u64,
    /// Whether any evaluated candidate met each check.
    pub(crate) met_by_any: Vec<bool>,
    /// The infeasible candidate with the smallest total relative breach, and that total.
    pub(crate) closest: Option<(f64, usize)>,
    parts: Parts,
    figures: Figures,
}

/// Hashes a candidate's fingerprint (its number, or a hash of it) by one multiplication by
/// 2⁶⁴ ÷ φ, which spreads distinct numbers over the high bits the table reads too.
#[derive(Default)]
struct Fingerprint(u64);

impl Hasher for Fingerprint {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64`s are written (below); any other key still hashes, byte by byte.
        for &b in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Why a visited candidate has no figures.
enum Visit {
    Pruned(Breach),
    Invalid(String),
}

impl Search {
    /// Validates the request and lays out its candidate space.
    pub fn new(request: SearchRequest) -> Result<Search, SpecErrors> {
        request.validate()?;
        let space = Space::new(&request);
        if space.size == 0 {
            return Err(SpecErrors(vec![FieldError::new(
                "constraints",
                "no candidate is left: every technology, switch or port speed the freedoms \
                 offer is excluded, or no allowed switch has ports that fast",
            )]));
        }
        let planned = space.size.min(request.max_candidates);
        // A sample repeats some candidates, more the closer it comes to the space's size:
        // four draws per candidate to visit bound the search's time either way.
        let draws = if space.sampled {
            planned.saturating_mul(4)
        } else {
            planned
        };
        let checks = checks::checks(&request);
        let met_by_any = vec![false; checks.len()];
        Ok(Search {
            request,
            checks,
            space,
            planned,
            visited: 0,
            draws,
            next: 0,
            seen: HashSet::default(),
            records: Vec::with_capacity(planned.min(1 << 20) as usize),
            frontier: Vec::new(),
            feasible: 0,
            met_by_any,
            closest: None,
            parts: Parts::default(),
            figures: Figures::default(),
        })
    }

    pub fn progress(&self) -> Progress {
        Progress {
            visited: self.visited,
            planned: self.planned,
            space: self.space.size,
            space_counted: self.space.counted,
            feasible: self.feasible,
            frontier: self.frontier.len(),
            done: self.visited >= self.planned || self.next >= self.draws,
        }
    }

    /// The most this search can cost ([`Work`]), to refuse one too large before it starts.
    pub fn work(&self) -> Work {
        let options: u64 = self
            .space
            .blocks
            .iter()
            .map(|b| {
                let per_nics = b
                    .options
                    .iter()
                    .fold(0u64, |n, o| n.saturating_add(o.len() as u64));
                per_nics.saturating_mul(b.nics.len() as u64)
            })
            .fold(0u64, u64::saturating_add);
        let fabrics = self
            .space
            .blocks
            .iter()
            .map(|b| b.options.len() as u64)
            .max()
            .unwrap_or(0);
        Work {
            candidates: self.planned,
            evaluations: options.min(self.planned.saturating_mul(fabrics)),
        }
    }

    /// Refuses this search when it may need more than `most` fabric evaluations ([`Work`]),
    /// saying how many and what to narrow.
    pub fn within(&self, most: u64) -> Result<(), SpecErrors> {
        let work = self.work();
        if work.evaluations <= most {
            return Ok(());
        }
        Err(SpecErrors(vec![FieldError::new(
            "freedoms",
            format!(
                "span up to {} fabric evaluations for {} candidates; at most {} are made for \
                 one search: offer fewer values (oversubscriptions, NIC counts, technologies, \
                 port speeds or switch models), or lower max_candidates",
                crate::units::thousands(work.evaluations as f64),
                crate::units::thousands(work.candidates as f64),
                crate::units::thousands(most as f64),
            ),
        )]))
    }

    /// Visits up to `budget` more candidates.
    pub fn step(&mut self, budget: u64) -> Progress {
        let end = self.visited.saturating_add(budget).min(self.planned);
        while self.visited < end && self.next < self.draws {
            let id = self.next;
            self.next += 1;
            if self.space.sampled && !self.first_draw_of(id) {
                continue;
            }
            self.visit(id);
            self.visited += 1;
        }
        self.progress()
    }

    /// Whether draw `id` picks a candidate no earlier draw picked.
    fn first_draw_of(&mut self, id: u64) -> bool {
        let mut options = self.parts.take_options();
        let picked = self.space.indices(id, &mut options);
        // Its number in order names it; a space too large to count is told apart by a hash.
        let fingerprint = picked
            .and_then(|(block, nics)| self.space.ordinal(block, nics, &options))
            .unwrap_or_else(|| {
                let mut hasher = std::hash::DefaultHasher::new();
                (picked, &options).hash(&mut hasher);
                hasher.finish()
            });
        self.parts.give_options(options);
        self.seen.insert(fingerprint)
    }

    /// Runs the search to its end.
    pub fn run(&mut self) -> Progress {
        self.step(u64::MAX)
    }

    fn visit(&mut self, id: u64) {
        let mut options = self.parts.take_options();
        let outcome = self.figures_of(id, &mut options);
        self.parts.give_options(options);
        let f = match outcome {
            Ok(()) => std::mem::take(&mut self.figures),
            Err(Visit::Pruned(breach)) => {
                self.records.push(Record {
                    id,
                    cost_usd: f64::NAN,
                    power_w: f64::NAN,
                    slowdown_percent: f64::NAN,
                    added_latency_ms: f64::NAN,
                    placed: false,
                    status: Status::Pruned { breach },
                });
                return;
            }
            Err(Visit::Invalid(reason)) => return self.push_invalid(id, reason),
        };
        let mut worst: Option<Breach> = None;
        let mut worst_slack = f64::INFINITY;
        let mut total = 0.0;
        for (i, (check, &value)) in self.checks.iter().zip(&f.values).enumerate() {
            if check.met(value) {
                self.met_by_any[i] = true;
                continue;
            }
            let slack = check.slack(value);
            total -= slack.max(-1e12);
            if worst.is_none() || slack < worst_slack {
                worst_slack = slack;
                worst = Some(Breach {
                    check: i,
                    value,
                    limit: check.limit,
                });
            }
        }
        let index = self.records.len();
        let mut record = Record {
            id,
            cost_usd: f.cost,
            power_w: f.power,
            slowdown_percent: f.slowdown_percent,
            added_latency_ms: f.added_latency_ms,
            placed: f.placed,
            status: Status::Frontier,
        };
        // Hand the buffer back for the next candidate.
        self.figures = f;
        if let Some(breach) = worst {
            record.status = Status::Infeasible { breach };
            if self.closest.is_none_or(|(t, _)| total < t) {
                self.closest = Some((total, index));
            }
            self.records.push(record);
            return;
        }
        self.feasible += 1;
        if let Some(&by) = self
            .frontier
            .iter()
            .find(|&&f| self.records[f].dominates(&record))
        {
            record.status = Status::Dominated {
                by: self.records[by].id,
            };
            self.records.push(record);
            return;
        }
        // The newcomer may push points off the frontier; dominance is transitive, so a point
        // beaten by one that left the frontier is beaten by one still on it.
        let records = &mut self.records;
        self.frontier.retain(|&f| {
            let beaten = record.dominates(&records[f]);
            if beaten {
                records[f].status = Status::Dominated { by: id };
            }
            !beaten
        });
        self.records.push(record);
        self.frontier.push(index);
    }

    /// Candidate `id`'s figures, assembled from its fabrics' cached parts, unless a floor
    /// already breaks a budget or the engine cannot build it.
    fn figures_of(&mut self, id: u64, options: &mut Vec<usize>) -> Result<(), Visit> {
        let (block, nics) = self
            .space
            .indices(id, options)
            .ok_or_else(|| Visit::Invalid("not in the space".into()))?;
        if let Some(breach) = self.floor_breach(block, nics, options) {
            return Err(Visit::Pruned(breach));
        }
        self.parts
            .figures(
                &self.space,
                &self.checks,
                block,
                nics,
                options,
                &mut self.figures,
            )
            .map_err(Visit::Invalid)?;
        // Laying the floor is the dearest step: only a candidate that nothing but its
        // network's cost or power can still rule out is laid, and then checked and compared
        // as placed.
        let f = &mut self.figures;
        f.placed = false;
        let workloads_met = self
            .checks
            .iter()
            .zip(&f.values)
            .all(|(c, &v)| c.measure.reads_cost_or_power() || c.met(v));
        if !workloads_met {
            return Ok(());
        }
        if let Some((cost, power)) = self.parts.placed(&self.space, block, nics, options, f) {
            for (c, v) in self.checks.iter().zip(f.values.iter_mut()) {
                match c.measure {
                    checks::Measure::Cost => *v = cost,
                    checks::Measure::Power => *v = power,
                    _ => {}
                }
            }
            (f.cost, f.power, f.placed) = (cost, power, true);
        }
        Ok(())
    }

    fn push_invalid(&mut self, id: u64, reason: String) {
        self.records.push(Record {
            id,
            cost_usd: f64::NAN,
            power_w: f64::NAN,
            slowdown_percent: f64::NAN,
            added_latency_ms: f64::NAN,
            placed: false,
            status: Status::Invalid { reason },
        });
    }

    /// A cost or power constraint that even the floor under the candidate breaks.
    fn floor_breach(&self, block: usize, nics: usize, options: &[usize]) -> Option<Breach> {
        let (cost, power) = self.space.floor(block, nics, options)?;
        self.checks.iter().enumerate().find_map(|(i, c)| {
            let value = match c.measure {
                checks::Measure::Cost => cost,
                checks::Measure::Power => power,
                _ => return None,
            };
            (!c.met(value)).then_some(Breach {
                check: i,
                value,
                limit: c.limit,
            })
        })
    }

    /// Every visited candidate, in visiting order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The record of candidate `id`, if it was visited.
    pub fn record(&self, id: u64) -> Option<&Record> {
        // Ids are visited in increasing order, in a sample as in order.
        self.records
            .binary_search_by_key(&id, |r| r.id)
            .ok()
            .map(|i| &self.records[i])
    }

    /// The frontier so far, cheapest first.
    pub fn frontier(&self) -> Vec<&Record> {
        let mut points: Vec<&Record> = self.frontier.iter().map(|&i| &self.records[i]).collect();
        points.sort_by(|a, b| a.cost_usd.total_cmp(&b.cost_usd).then(a.id.cmp(&b.id)));
        points
    }

    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    pub fn request(&self) -> &SearchRequest {
        &self.request
    }

    /// Whether every candidate of the space is (or will be) visited.
    pub fn exhaustive(&self) -> bool {
        !self.space.sampled
    }

    /// What candidate `id` chose.
    pub fn choice(&self, id: u64) -> Option<super::space::Choice> {
        self.space.choice(id)
    }

    /// The design candidate `id` stands for, to open, save or evaluate.
    pub fn spec(&self, id: u64) -> Option<crate::spec::DesignSpec> {
        self.space.spec(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Technology;

    /// A candidate's number in order is what its indices decode from: a sample's fingerprint
    /// of a candidate names that candidate alone.
    #[test]
    fn a_candidates_ordinal_is_its_number_in_order() {
        let base = crate::DesignSpec::from_json(crate::examples::HYBRID).unwrap();
        let mut request = SearchRequest::new(base);
        request.freedoms.technologies = vec![Technology::IbNdr, Technology::Roce400];
        request.freedoms.nics_per_node = vec![2, 4, 8];
        request.freedoms.leaf_oversubscription = vec![1.0, 2.0];
        let search = Search::new(request).unwrap();
        assert!(!search.space.sampled && search.space.size > 24);
        let mut options = Vec::new();
        for id in 0..search.space.size {
            let (block, nics) = search.space.indices(id, &mut options).unwrap();
            assert_eq!(search.space.ordinal(block, nics, &options), Some(id));
        }
    }

    /// A search that keeps no fabric as sized lays each candidate's floor from fabrics sized
    /// again, and finds the same figures for every candidate.
    #[test]
    fn fabrics_sized_again_lay_the_same_floors_as_fabrics_kept() {
        let base = crate::DesignSpec::from_json(crate::examples::HYBRID).unwrap();
        let mut request = SearchRequest::new(base);
        request.freedoms.technologies = vec![Technology::IbNdr, Technology::Roce400];
        request.freedoms.nics_per_node = vec![4, 8];
        let mut kept = Search::new(request.clone()).unwrap();
        kept.run();
        let mut again = Search::new(request).unwrap();
        again.parts.kept = super::super::parts::KEPT_FABRICS;
        again.run();
        assert!(kept.records().iter().any(|r| r.placed));
        assert_eq!(kept.records(), again.records());
    }
}
