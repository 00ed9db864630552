//! Why the answer is the answer: which target binds a chosen candidate, what the next cheaper
//! candidate breaks, and, when nothing is feasible, which target nobody meets and which
//! candidate comes closest.

use super::checks::{self, Breach};
use super::frontier::Search;
use super::record::{Record, Status};
use super::space::Choice;
use crate::units::rounded as round;
use crate::units::{Usd, Watts};
use serde::{Deserialize, Serialize};

/// One check measured on one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Measured {
    /// Index into the search's checks.
    pub check: usize,
    #[serde(with = "super::record::number_or_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub value: f64,
    pub limit: f64,
    /// Relative margin: positive when met, negative when broken.
    #[serde(with = "super::record::number_or_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub slack: f64,
}

/// A candidate with its choices, as the result shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Candidate {
    pub record: Record,
    pub choice: Choice,
    /// Its network as placed on the base design's floor ([`crate::Report::placed`]): the
    /// record's cost and power where the search laid its floor ([`Record::placed`]).
    #[serde(default)]
    pub placed: Option<crate::report::Totals>,
}

impl Candidate {
    /// What its network costs and draws: as placed, or from the fabrics' bills when it could
    /// not be placed.
    pub fn network(&self) -> (Usd, Watts) {
        self.placed.as_ref().map_or(
            (
                Usd::new(self.record.cost_usd),
                Watts::new(self.record.power_w),
            ),
            |p| (p.cost_usd, p.power_w),
        )
    }

    /// Which figures [`Candidate::network`] gives, for a sentence that states them.
    pub fn network_note(&self) -> &'static str {
        if self.placed.is_some() {
            " as placed on the floor"
        } else {
            ""
        }
    }
}

/// The cheaper neighbour of an explained candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NextCheaper {
    pub candidate: Candidate,
    /// The checks it breaks, worst first; empty when it is feasible (then it lost on power or
    /// performance instead).
    pub breaks: Vec<Measured>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Explanation {
    pub candidate: Candidate,
    /// Every check, in the search's order.
    pub measured: Vec<Measured>,
    /// The check with the least slack: the one that would break first.
    pub binding: Option<Measured>,
    /// The most expensive evaluated candidate that costs less.
    pub next_cheaper: Option<NextCheaper>,
    pub summary: String,
}

/// No candidate meets every check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NoDesign {
    /// Checks no evaluated candidate meets.
    pub unmet_by_all: Vec<usize>,
    /// The candidate whose breaches add up to the least (in fractions of each limit).
    pub closest: Option<Candidate>,
    pub closest_breaks: Vec<Measured>,
    pub summary: String,
}

impl Search {
    /// Every check measured on candidate `id`, or `None` when the engine cannot evaluate it.
    pub fn measure(&self, id: u64) -> Option<Vec<Measured>> {
        let spec = self.space.spec(id)?;
        let report = crate::evaluate(&spec).ok()?;
        Some(
            self.checks
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let value = checks::value(c.measure, &spec, &report);
                    Measured {
                        check: i,
                        value,
                        limit: c.limit,
                        slack: c.slack(value),
                    }
                })
                .collect(),
        )
    }

    pub(crate) fn candidate(&self, record: &Record) -> Option<Candidate> {
        let placed = match record.status {
            // Laid by the search already: its record holds the network as placed.
            _ if record.placed => Some(crate::report::Totals::new(
                Usd::new(record.cost_usd),
                Watts::new(record.power_w),
                self.request.base.cluster.gpus(),
            )),
            Status::Frontier | Status::Dominated { .. } | Status::Infeasible { .. } => self
                .space
                .spec(record.id)
                .and_then(|spec| crate::evaluate(&spec).ok())
                .and_then(|report| report.placed),
            Status::Pruned { .. } | Status::Invalid { .. } => None,
        };
        Some(Candidate {
            record: record.clone(),
            choice: self.space.choice(record.id)?,
            placed,
        })
    }

    /// Why candidate `id` is where it is: its binding check and what the next cheaper
    /// evaluated candidate breaks.
    pub fn explain(&self, id: u64) -> Option<Explanation> {
        let record = self.record(id)?;
        let measured = self.measure(id)?;
        let binding = measured
            .iter()
            .copied()
            .min_by(|a, b| a.slack.total_cmp(&b.slack));
        let next_cheaper = self
            .records
            .iter()
            .filter(|r| r.cost_usd.is_finite() && r.cost_usd < record.cost_usd)
            .max_by(|a, b| a.cost_usd.total_cmp(&b.cost_usd).then(b.id.cmp(&a.id)))
            .and_then(|r| {
                let mut breaks: Vec<Measured> = self
                    .measure(r.id)?
                    .into_iter()
                    .filter(|m| m.slack < 0.0 && !self.checks[m.check].met(m.value))
                    .collect();
                breaks.sort_by(|a, b| a.slack.total_cmp(&b.slack));
                Some(NextCheaper {
                    candidate: self.candidate(r)?,
                    breaks,
                })
            });
        let candidate = self.candidate(record)?;
        let summary = self.summary(&candidate, binding, next_cheaper.as_ref());
        Some(Explanation {
            candidate,
            measured,
            binding,
            next_cheaper,
            summary,
        })
    }

    fn summary(
        &self,
        candidate: &Candidate,
        binding: Option<Measured>,
        next: Option<&NextCheaper>,
    ) -> String {
        let (cost, power) = candidate.network();
        let mut text = format!(
            "Candidate {} costs {} USD and draws {} W{}.",
            candidate.record.id,
            round(cost.dollars()),
            round(power.watts()),
            candidate.network_note()
        );
        if candidate.placed.is_some() && !candidate.record.placed {
            text += &format!(
                " It breaks a check on its workloads, so the search kept its fabrics' bills, at \
                 each tier's nominal run: {} USD.",
                round(candidate.record.cost_usd)
            );
        }
        if let Some(b) = binding {
            let c = &self.checks[b.check];
            text += &format!(
                " The binding check is {}: {} {} against a limit of {} {}.",
                c.label,
                round(b.value),
                c.unit,
                round(b.limit),
                c.unit
            );
        }
        match next {
            None => text += " No evaluated candidate costs less.",
            Some(n) if n.breaks.is_empty() => {
                text += &format!(
                    " Candidate {} costs less ({} USD{}) and meets every check, but draws \
                     more power or performs worse.",
                    n.candidate.record.id,
                    round(n.candidate.record.cost_usd),
                    n.candidate.record.cost_basis()
                )
            }
            Some(n) => {
                let b = n.breaks[0];
                let c = &self.checks[b.check];
                text += &format!(
                    " The next cheaper candidate, {} at {} USD{}, breaks {} ({} {}).",
                    n.candidate.record.id,
                    round(n.candidate.record.cost_usd),
                    n.candidate.record.cost_basis(),
                    c.describe(),
                    round(b.value),
                    c.unit
                );
            }
        }
        text
    }

    /// When no visited candidate is feasible: what nobody meets and the closest candidate.
    /// `None` while some candidate is feasible.
    pub fn no_design(&self) -> Option<NoDesign> {
        if self.records.iter().any(Record::feasible) {
            return None;
        }
        let unmet_by_all: Vec<usize> = (0..self.checks.len())
            .filter(|&i| !self.met_by_any[i])
            .collect();
        // Every candidate may have been pruned by a budget: the first of them then stands in.
        let closest_record = self.closest.map(|(_, i)| &self.records[i]).or_else(|| {
            self.records
                .iter()
                .find(|r| matches!(r.status, Status::Pruned { .. }))
        });
        let closest = closest_record.and_then(|r| self.candidate(r));
        let mut closest_breaks: Vec<Measured> = closest_record
            .and_then(|r| self.measure(r.id))
            .unwrap_or_default()
            .into_iter()
            .filter(|m| !self.checks[m.check].met(m.value))
            .collect();
        closest_breaks.sort_by(|a, b| a.slack.total_cmp(&b.slack));
        let unmet: Vec<String> = unmet_by_all
            .iter()
            .map(|&i| self.checks[i].describe())
            .collect();
        let mut summary = if unmet.is_empty() {
            "No design meets every check at once, though each is met by some candidate.".to_string()
        } else {
            format!("No design meets {}.", unmet.join("; nor "))
        };
        match (&closest, closest_breaks.first()) {
            (Some(c), Some(b)) => {
                let check = &self.checks[b.check];
                summary += &format!(
                    " The closest is candidate {} ({}), at {} {} for {}.",
                    c.record.id,
                    describe_choice(&c.choice),
                    round(b.value),
                    check.unit,
                    check.describe()
                );
            }
            _ => {
                let reason = self.records.iter().find_map(|r| match &r.status {
                    Status::Invalid { reason } => Some(reason.as_str()),
                    _ => None,
                });
                summary += &match reason {
                    Some(reason) => format!(" No candidate could be built: {reason}"),
                    None => " No candidate could be evaluated.".to_string(),
                };
            }
        }
        Some(NoDesign {
            unmet_by_all,
            closest,
            closest_breaks,
            summary,
        })
    }
}

impl Search {
    /// Why candidate `id` is where it is, in one sentence, or `None` if it was not visited.
    pub fn reason(&self, id: u64) -> Option<String> {
        let record = self.record(id)?;
        let broken = |b: &Breach| {
            let c = &self.checks[b.check];
            format!("{} {}, against {}", round(b.value), c.unit, c.describe())
        };
        Some(match &record.status {
            Status::Frontier => format!(
                "meets every check and no candidate beats it on cost, power and performance at \
                 once ({} USD, {} W{})",
                round(record.cost_usd),
                round(record.power_w),
                record.cost_basis()
            ),
            Status::Dominated { by } => {
                let other = self.record(*by)?;
                format!(
                    "meets every check, but candidate {by} is as good or better on everything \
                     ({} USD against {}, {} W against {}{})",
                    round(other.cost_usd),
                    round(record.cost_usd),
                    round(other.power_w),
                    round(record.power_w),
                    record.cost_basis()
                )
            }
            Status::Infeasible { breach } => format!("breaks a check: {}", broken(breach)),
            Status::Pruned { breach } => format!(
                "not evaluated: even its fewest switches come to {}",
                broken(breach)
            ),
            Status::Invalid { reason } => format!("cannot be built: {reason}"),
        })
    }
}

/// A choice in a few words: "compute: RoCE v2 400GbE at 400 Gb/s on NVIDIA Spectrum-4 SN5600,
/// leaf 1:1; 8 NICs per node". Switches are named as the catalog names them, without the
/// details in brackets.
pub fn describe_choice(choice: &Choice) -> String {
    let fabrics: Vec<String> = choice
        .fabrics
        .iter()
        .map(|f| {
            format!(
                "{}: {} at {} Gb/s on {}, leaf {}:1",
                f.fabric,
                f.technology.label(),
                round(f.port_gbps.gbps()),
                crate::catalog::switch(&f.switch).map_or(f.switch.as_str(), |s| s.short_name()),
                round(f.leaf_oversubscription)
            )
        })
        .collect();
    let nics = match choice.nics_per_node {
        1 => "1 NIC per node".to_string(),
        n => format!("{n} NICs per node"),
    };
    let tenants = choice.tenant_isolation.map_or(String::new(), |l| {
        format!("; tenants' isolation: {}", l.label())
    });
    format!("{}; {nics}{tenants}", fabrics.join("; "))
}

/// The breach of a record, if it has one.
pub fn breach(record: &Record) -> Option<Breach> {
    match record.status {
        Status::Infeasible { breach } | Status::Pruned { breach } => Some(breach),
        _ => None,
    }
}
