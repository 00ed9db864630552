//! The design search's pages (server only): the question as a form, the frontier as a chart
//! and a table, and a candidate opened in the planner.

pub mod form;
pub mod page;

pub use form::SearchForm;
pub use page::{
    outcome_html, progress_line, search_page, streamed_page, Outcome, Searched, Streamed,
};

use crate::charts::search::Point;
use engine::search::{Progress, Search, SearchRequest};
use engine::{DesignSpec, Workload};

/// Fabric evaluations one search on the server may make at most ([`Search::within`]): each is
/// kept for the rest of the search (about 250 bytes), so this bounds a search's memory to some
/// 60 MB beside its candidates' records, and its time to a few seconds.
pub const MAX_EVALUATIONS: u64 = 250_000;

/// A search under way, with what its page needs besides the result: the searched design as
/// a point of the chart, and the candidate to explain.
pub struct Running {
    search: Search,
    base: Point,
    per_token: bool,
    target: Option<f64>,
    candidate: Option<u64>,
}

impl Running {
    /// Evaluates the searched design and prepares the search of `request`; a request the
    /// engine refuses is refused here, in the form's words, before any candidate is visited.
    pub fn start(request: SearchRequest, candidate: Option<u64>) -> Result<Running, Vec<String>> {
        let base_spec = request.base.clone();
        let words = |e: engine::SpecErrors| -> Vec<String> {
            e.0.iter()
                .map(|e| crate::labels::describe(&base_spec, e))
                .collect()
        };
        let base_report = engine::evaluate(&request.base).map_err(words)?;
        let per_token = !request
            .base
            .workloads
            .iter()
            .any(|w| matches!(w, Workload::Training(_)));
        let h = &base_report.headline;
        let base = Point {
            cost_usd: base_report.network().cost_usd,
            performance: if per_token {
                h.worst_added_latency_per_token
                    .map_or(0.0, |s| s.seconds() * 1e3)
            } else {
                h.worst_training_slowdown.map_or(0.0, |s| s.percent())
            },
        };
        // Every workload's limit, on the chart's axis; a workload's own may differ.
        let limits = &request.targets.every_workload;
        let target = if per_token {
            limits.max_added_latency_ms.map(engine::Millis::millis)
        } else {
            limits.max_slowdown_percent
        };
        let search = Search::new(request).map_err(words)?;
        search.within(MAX_EVALUATIONS).map_err(words)?;
        Ok(Running {
            search,
            base,
            per_token,
            target,
            candidate,
        })
    }

    /// Visits up to `budget` more candidates.
    pub fn step(&mut self, budget: u64) -> Progress {
        self.search.step(budget)
    }

    /// Runs the search to its end: the outcome, with the candidate explained, and that
    /// candidate's design.
    pub fn finish(mut self) -> (Outcome, Option<DesignSpec>) {
        self.search.run();
        let explanation = self.candidate.and_then(|id| self.search.explain(id));
        let spec = self.candidate.and_then(|id| self.search.spec(id));
        (
            Outcome {
                result: self.search.result(),
                explanation,
                base: self.base,
                per_token: self.per_token,
                target: self.target,
            },
            spec,
        )
    }
}
