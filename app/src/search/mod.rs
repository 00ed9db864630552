//! The design search's pages (server only): the question as a form, the frontier as a chart
//! and a table, and a candidate opened in the planner.

pub mod form;
pub mod page;

pub use form::SearchForm;
pub use page::{search_page, Outcome, Searched};

use crate::dashboard::search_chart::Point;
use engine::search::{Search, SearchRequest};
use engine::{DesignSpec, Workload};

/// Runs the search of `request` to the end: the outcome, with `candidate` explained, and that
/// candidate's design.
pub fn searched(
    request: SearchRequest,
    candidate: Option<u64>,
) -> Result<(Outcome, Option<DesignSpec>), Vec<String>> {
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
        cost_usd: base_report.totals.cost_usd,
        performance: if per_token {
            h.worst_added_latency_per_token.map_or(0.0, |s| s.0 * 1e3)
        } else {
            h.worst_training_slowdown
                .map_or(0.0, |r| (r.0 - 1.0) * 100.0)
        },
    };
    let mut search = Search::new(request).map_err(words)?;
    search.run();
    let explanation = candidate.and_then(|id| search.explain(id));
    let spec = candidate.and_then(|id| search.spec(id));
    Ok((
        Outcome {
            result: search.result(),
            explanation,
            base,
            per_token,
        },
        spec,
    ))
}
