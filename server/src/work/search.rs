//! A design search run to the end, for the command line (`fabric-planner search`) and the JSON
//! API (`POST /api/search`).
//!
//! A request names a base design, targets, constraints and freedoms
//! (`engine::search::SearchRequest`). A bare design spec is searched with the question most
//! architects bring: every compared technology and every switch model, training within 5 % of
//! an ideal network, at most 50 ms added per token, checkpoints within their budget.

use app::search::form::default_limits;
use engine::search::{Search, SearchRequest, SearchResult};
use engine::{DesignSpec, SpecErrors};

/// Candidates visited between two looks at the cancel flag: a millisecond of work at 64 nodes,
/// a tenth of a second at 100,000 GPUs, where each candidate laid on its floor takes some
/// milliseconds.
pub const SLICE: u64 = 256;

/// The request in `text`: a search request, or a design spec to search with the default
/// question.
pub fn request(text: &str) -> Result<SearchRequest, SpecErrors> {
    let is_request = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .is_some_and(|v| v.get("base").is_some());
    if is_request {
        return SearchRequest::from_json(text);
    }
    let mut request = SearchRequest::new(DesignSpec::from_json(text)?);
    request.freedoms.technologies = engine::studies::COMPARED.to_vec();
    request.freedoms.switch_models = true;
    request.targets.every_workload = default_limits();
    Ok(request)
}

/// `request`'s search, refused when it may make more fabric evaluations than a search on the
/// server makes (`app::search::MAX_EVALUATIONS`), run in slices of `slice` candidates until it
/// ends (its result) or `stop` says to stop (`None`).
pub fn run_until(
    request: SearchRequest,
    slice: u64,
    stop: impl Fn() -> bool,
) -> Result<Option<SearchResult>, SpecErrors> {
    let mut search = Search::new(request)?;
    search.within(app::search::MAX_EVALUATIONS)?;
    loop {
        if stop() {
            return Ok(None);
        }
        if search.step(slice).done {
            return Ok(Some(search.result()));
        }
    }
}
