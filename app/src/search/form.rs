//! The question of the search page, as its form sends it in the address: targets, a budget
//! and the other constraints, the technologies to try, whether every switch model may be
//! tried, and the other choices the search may vary. Read field by field; a value that is not
//! a number is refused with the field's label.

use engine::search::{Arrangement, Limits, SearchRequest};
use engine::Millis;
use engine::{DesignSpec, Isolation, Technology};
use std::collections::HashMap;

/// Largest step-time slowdown asked by default, percent.
pub const DEFAULT_SLOWDOWN_PERCENT: f64 = 5.0;
/// Largest added latency per token asked by default, ms.
pub const DEFAULT_ADDED_LATENCY_MS: f64 = 50.0;
/// Candidates one search from the page may visit: about a third of a second of one core.
pub const MAX_CANDIDATES: u64 = 100_000;

/// The targets of the question most architects bring: training within 5 % of an ideal
/// network, at most 50 ms added per token, checkpoints within their budget.
pub fn default_limits() -> Limits {
    Limits {
        max_slowdown_percent: Some(DEFAULT_SLOWDOWN_PERCENT),
        max_added_latency_ms: Some(Millis::new(DEFAULT_ADDED_LATENCY_MS)),
        checkpoint_within_budget: true,
        min_read_headroom: None,
        min_goodput_percent: None,
    }
}

/// The form as sent: text as typed, so that it is shown back as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchForm {
    pub slowdown_percent: String,
    pub added_latency_ms: String,
    pub budget_usd: String,
    pub power_kw: String,
    pub technologies: Vec<Technology>,
    pub every_switch: bool,
    /// Smallest storage read headroom (available ÷ provisioned), empty for none.
    pub read_headroom: String,
    /// Most switch tiers any fabric may have, empty for any.
    pub max_tiers: String,
    /// Most GPUs the worst single failure may cut off, empty for any.
    pub failure_gpus: String,
    /// Smallest goodput of every training job, percent, empty for none.
    pub goodput_percent: String,
    /// Nodes every fabric must grow to without re-cabling, empty for the design's own.
    pub growth_nodes: String,
    /// Leaf oversubscriptions to try, as a list (`1, 2, 3`); empty keeps each fabric's.
    pub leaf_oversubscription: String,
    /// NICs per node on the compute fabric to try, as a list; empty keeps the design's.
    pub nics_per_node: String,
    /// How the workloads may be spread over fabrics.
    pub arrangements: Vec<Arrangement>,
    /// Isolation levels every tenant may take in turn; empty keeps each tenant's own.
    pub tenant_isolation: Vec<Isolation>,
    /// Most GPUs the tenants' isolation may strand, empty for any.
    pub stranded_gpus: String,
    /// The frontier candidate to explain.
    pub candidate: Option<u64>,
    /// The form was submitted: run the search.
    pub run: bool,
}

impl Default for SearchForm {
    fn default() -> Self {
        SearchForm {
            slowdown_percent: DEFAULT_SLOWDOWN_PERCENT.to_string(),
            added_latency_ms: DEFAULT_ADDED_LATENCY_MS.to_string(),
            budget_usd: String::new(),
            power_kw: String::new(),
            // In the catalog's order, as a submitted form reads them.
            technologies: Technology::ALL
                .into_iter()
                .filter(|t| engine::studies::COMPARED.contains(t))
                .collect(),
            every_switch: true,
            read_headroom: String::new(),
            max_tiers: String::new(),
            failure_gpus: String::new(),
            goodput_percent: String::new(),
            growth_nodes: String::new(),
            leaf_oversubscription: String::new(),
            nics_per_node: String::new(),
            arrangements: vec![Arrangement::AsDesigned],
            tenant_isolation: Vec::new(),
            stranded_gpus: String::new(),
            candidate: None,
            run: false,
        }
    }
}

/// Each way of spreading the workloads over fabrics: its field and its label in the form.
pub const ARRANGEMENTS: [(Arrangement, &str, &str); 3] = [
    (
        Arrangement::AsDesigned,
        "fabrics-as-designed",
        "As designed",
    ),
    (
        Arrangement::Shared,
        "fabrics-shared",
        "One fabric for every workload",
    ),
    (
        Arrangement::Separate,
        "fabrics-separate",
        "Separate compute, inference and storage fabrics",
    ),
];

/// Each isolation level the tenants may take, and its field in the form
/// (`isolation-scalable_unit`).
pub fn isolation_fields() -> impl Iterator<Item = (Isolation, String)> {
    crate::labels::ISOLATIONS
        .into_iter()
        .map(|(level, value)| (level, format!("isolation-{value}")))
}

/// A technology's name in the form.
pub fn technology_field(t: Technology) -> String {
    format!(
        "tech-{}",
        serde_json::to_value(t)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    )
}

/// An optional whole number of at least 1 typed into the field labelled `label`.
fn optional_count(text: &str, label: &str, errors: &mut Vec<String>) -> Option<u32> {
    optional_whole(text, label, 1, errors)
}

/// A whole number of at least `least` typed into the field labelled `label`, or none.
fn optional_whole(text: &str, label: &str, least: u32, errors: &mut Vec<String>) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match text.parse::<u32>() {
        Ok(v) if v >= least => Some(v),
        _ => {
            errors.push(format!(
                "{label}: {text:?} is not a whole number of at least {least}"
            ));
            None
        }
    }
}

/// A list of values typed into the field labelled `label`, separated by commas or spaces;
/// every value that `read` refuses is named.
fn list<T>(
    text: &str,
    label: &str,
    errors: &mut Vec<String>,
    read: impl Fn(&str) -> Option<T>,
    what: &str,
) -> Vec<T> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|v| !v.is_empty())
        .filter_map(|v| {
            let value = read(v);
            if value.is_none() {
                errors.push(format!("{label}: {v:?} is not {what}"));
            }
            value
        })
        .collect()
}

/// An optional positive number typed into the field labelled `label`.
fn optional_number(text: &str, label: &str, errors: &mut Vec<String>) -> Option<f64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Some(v),
        _ => {
            errors.push(format!("{label}: {text:?} is not a number of at least 0"));
            None
        }
    }
}

/// The ways to spread the workloads the query asks for; none (an address from before the
/// form asked) keeps the design's own.
fn arrangements(query: &HashMap<String, String>) -> Vec<Arrangement> {
    let chosen: Vec<Arrangement> = ARRANGEMENTS
        .into_iter()
        .filter(|(_, field, _)| query.contains_key(*field))
        .map(|(a, _, _)| a)
        .collect();
    if chosen.is_empty() {
        vec![Arrangement::AsDesigned]
    } else {
        chosen
    }
}

impl SearchForm {
    /// Reads the address's query.
    pub fn from_query(query: &HashMap<String, String>) -> SearchForm {
        let text = |key: &str| query.get(key).cloned().unwrap_or_default();
        if !query.contains_key("run") {
            return SearchForm {
                candidate: query.get("candidate").and_then(|c| c.parse().ok()),
                ..SearchForm::default()
            };
        }
        SearchForm {
            slowdown_percent: text("slowdown"),
            added_latency_ms: text("latency"),
            budget_usd: text("budget"),
            power_kw: text("power"),
            technologies: Technology::ALL
                .into_iter()
                .filter(|t| query.contains_key(&technology_field(*t)))
                .collect(),
            every_switch: query.contains_key("every-switch"),
            read_headroom: text("read-headroom"),
            max_tiers: text("tiers"),
            failure_gpus: text("failure-gpus"),
            goodput_percent: text("goodput"),
            growth_nodes: text("growth"),
            leaf_oversubscription: text("leaf-oversubscription"),
            nics_per_node: text("nics"),
            arrangements: arrangements(query),
            tenant_isolation: isolation_fields()
                .filter(|(_, field)| query.contains_key(field))
                .map(|(level, _)| level)
                .collect(),
            stranded_gpus: text("stranded"),
            candidate: query.get("candidate").and_then(|c| c.parse().ok()),
            run: true,
        }
    }

    /// The query that asks this question again (without the candidate).
    pub fn query(&self) -> String {
        let mut pairs = vec![
            ("run".to_string(), "1".to_string()),
            ("slowdown".to_string(), self.slowdown_percent.clone()),
            ("latency".to_string(), self.added_latency_ms.clone()),
            ("budget".to_string(), self.budget_usd.clone()),
            ("power".to_string(), self.power_kw.clone()),
            ("read-headroom".to_string(), self.read_headroom.clone()),
            ("tiers".to_string(), self.max_tiers.clone()),
            ("failure-gpus".to_string(), self.failure_gpus.clone()),
            ("goodput".to_string(), self.goodput_percent.clone()),
            ("growth".to_string(), self.growth_nodes.clone()),
            (
                "leaf-oversubscription".to_string(),
                self.leaf_oversubscription.clone(),
            ),
            ("nics".to_string(), self.nics_per_node.clone()),
            ("stranded".to_string(), self.stranded_gpus.clone()),
        ];
        pairs.extend(
            self.technologies
                .iter()
                .map(|t| (technology_field(*t), "on".to_string())),
        );
        if self.every_switch {
            pairs.push(("every-switch".into(), "on".into()));
        }
        pairs.extend(
            ARRANGEMENTS
                .iter()
                .filter(|(a, _, _)| self.arrangements.contains(a))
                .map(|(_, field, _)| (field.to_string(), "on".to_string())),
        );
        pairs.extend(
            isolation_fields()
                .filter(|(level, _)| self.tenant_isolation.contains(level))
                .map(|(_, field)| (field, "on".to_string())),
        );
        pairs
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The search request for `base`, or every field's error.
    pub fn request(&self, base: DesignSpec) -> Result<SearchRequest, Vec<String>> {
        let mut errors = Vec::new();
        let slowdown = optional_number(
            &self.slowdown_percent,
            "Largest training slowdown",
            &mut errors,
        );
        let latency = optional_number(
            &self.added_latency_ms,
            "Largest added latency per token",
            &mut errors,
        );
        let budget = optional_number(&self.budget_usd, "Network budget", &mut errors);
        let power = optional_number(&self.power_kw, "Network power", &mut errors);
        let read_headroom = optional_number(
            &self.read_headroom,
            "Smallest storage read headroom",
            &mut errors,
        );
        let max_tiers = optional_count(&self.max_tiers, "Most switch tiers", &mut errors);
        let failure_gpus = optional_whole(
            &self.failure_gpus,
            "Most GPUs one failure may cut off",
            0,
            &mut errors,
        );
        let goodput = optional_number(
            &self.goodput_percent,
            "Smallest training goodput",
            &mut errors,
        );
        let growth = optional_count(&self.growth_nodes, "Grow to, nodes", &mut errors);
        let stranded = optional_whole(
            &self.stranded_gpus,
            "Most GPUs the tenants' isolation may strand",
            0,
            &mut errors,
        );
        let leaf = list(
            &self.leaf_oversubscription,
            "Leaf oversubscriptions to try",
            &mut errors,
            |v| v.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 1.0),
            "a ratio of at least 1",
        );
        let nics = list(
            &self.nics_per_node,
            "NICs per node to try",
            &mut errors,
            |v| v.parse::<u32>().ok().filter(|n| *n >= 1),
            "a whole number of at least 1",
        );
        if self.technologies.is_empty() {
            errors.push("Technologies: choose at least one".into());
        }

        if !errors.is_empty() {
            return Err(errors);
        }
        let mut request = SearchRequest::new(base);
        request.max_candidates = MAX_CANDIDATES;
        request.freedoms.technologies = self.technologies.clone();
        request.freedoms.switch_models = self.every_switch;
        request.targets.every_workload = Limits {
            max_slowdown_percent: slowdown,
            max_added_latency_ms: latency.map(Millis::new),
            checkpoint_within_budget: true,
            min_read_headroom: read_headroom,
            min_goodput_percent: goodput,
        };
        request.freedoms.leaf_oversubscription = leaf;
        request.freedoms.nics_per_node = nics;
        request.freedoms.arrangements = self.arrangements.clone();
        request.freedoms.tenant_isolation = self.tenant_isolation.clone();
        request.constraints.max_stranded_gpus = stranded.map(u64::from);
        request.constraints.max_tiers = max_tiers;
        request.constraints.max_gpus_cut_off_by_one_failure = failure_gpus.map(u64::from);
        request.constraints.growth_target_nodes = growth;
        request.constraints.max_cost_usd = budget.map(engine::Usd::new);
        request.constraints.max_power_w = power.map(|kw| engine::Kilowatts::new(kw).to_watts());
        Ok(request)
    }
}

/// Percent-encodes a query value.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests;
