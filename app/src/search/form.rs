//! The question of the search page, as its form sends it in the address: targets, a budget,
//! the technologies to try and whether every switch model may be tried. Read field by field;
//! a value that is not a number is refused with the field's label.

use engine::search::{Limits, SearchRequest};
use engine::{DesignSpec, Technology};
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
        max_added_latency_ms: Some(DEFAULT_ADDED_LATENCY_MS),
        checkpoint_within_budget: true,
        min_read_headroom: None,
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
            candidate: None,
            run: false,
        }
    }
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
        ];
        pairs.extend(
            self.technologies
                .iter()
                .map(|t| (technology_field(*t), "on".to_string())),
        );
        if self.every_switch {
            pairs.push(("every-switch".into(), "on".into()));
        }
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
            max_added_latency_ms: latency,
            checkpoint_within_budget: true,
            min_read_headroom: None,
        };
        request.constraints.max_cost_usd = budget;
        request.constraints.max_power_w = power.map(|kw| kw * 1e3);
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
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_submitted_form_reads_back_from_its_own_query() {
        let form = SearchForm {
            budget_usd: "2 000 000".into(),
            run: true,
            ..SearchForm::default()
        };
        let parsed: HashMap<String, String> = form
            .query()
            .split('&')
            .filter_map(|p| p.split_once('='))
            .map(|(k, v)| (k.to_string(), v.replace("%20", " ")))
            .collect();
        assert_eq!(SearchForm::from_query(&parsed), form);
    }

    #[test]
    fn text_where_a_number_belongs_is_refused_by_its_label() {
        let form = SearchForm::from_query(&query(&[
            ("run", "1"),
            ("slowdown", "five"),
            ("tech-ib_ndr", "on"),
        ]));
        let errors = form.request(crate::templates::first_design()).unwrap_err();
        assert_eq!(
            errors,
            vec!["Largest training slowdown: \"five\" is not a number of at least 0"]
        );
    }

    #[test]
    fn no_technology_is_refused() {
        let form = SearchForm::from_query(&query(&[("run", "1")]));
        let errors = form.request(crate::templates::first_design()).unwrap_err();
        assert_eq!(errors, vec!["Technologies: choose at least one"]);
    }
}
