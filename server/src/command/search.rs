//! Design search from the command line (`fabric-planner search REQUEST.json`) and the JSON API
//! (`POST /api/search`): the engine's search, run to the end, its result as JSON.
//!
//! A request names a base design, targets, constraints and freedoms
//! (`engine::search::SearchRequest`). A bare design spec is searched with the question most
//! architects bring: every compared technology and every switch model, training within 5 % of
//! an ideal network, at most 50 ms added per token, checkpoints within their budget.

use app::search::form::default_limits;
use engine::search::{Search, SearchRequest, SearchResult};
use engine::{DesignSpec, SpecErrors};

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

/// `fabric-planner search`: prints the result as JSON (or its summary); the exit code.
pub fn run(args: &crate::command::cli::SearchArgs) -> i32 {
    let text = match std::fs::read_to_string(&args.request) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: reading {}: {error}", args.request.display());
            return 1;
        }
    };
    let searched = request(&text).and_then(|request| {
        let mut search = Search::new(request)?;
        let work = search.work();
        search.run();
        Ok((search.result(), work))
    });
    match searched {
        Ok((result, work)) if args.summary => {
            println!("{}", result.summary);
            println!(
                "At most {} fabric evaluations for {} candidates.",
                engine::thousands(work.evaluations as f64),
                engine::thousands(work.candidates as f64)
            );
            for c in &result.frontier {
                let fabrics: Vec<String> = c
                    .choice
                    .fabrics
                    .iter()
                    .map(|f| {
                        format!(
                            "{} on {}, {}:1",
                            f.technology.label(),
                            f.switch,
                            f.leaf_oversubscription
                        )
                    })
                    .collect();
                println!(
                    "  {:>12}  {:>10}  slowdown {:>6.1} %  {} NICs per node: {}",
                    app::money::usd(c.network().0),
                    app::money::watts(c.network().1),
                    c.record.slowdown_percent,
                    c.choice.nics_per_node,
                    fabrics.join("; ")
                );
            }
            0
        }
        Ok((result, _)) => match serde_json::to_string_pretty(&result) {
            Ok(json) => {
                println!("{json}");
                0
            }
            Err(error) => {
                eprintln!("error: writing the result: {error}");
                1
            }
        },
        Err(errors) => {
            for error in errors.iter() {
                eprintln!("{error}");
            }
            crate::command::evaluate::INVALID_SPEC
        }
    }
}
