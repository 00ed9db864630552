//! `fabric-planner search REQUEST.json`: the engine's design search run to the end without a
//! server ([`crate::work::search`]), its result as JSON.

use crate::work::search::request;
use engine::search::Search;

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
                // The choice as the search page says it: switches by their product names.
                println!(
                    "  {:>12}  {:>10}  slowdown {:>6.1} %  {}",
                    app::money::usd(c.network().0),
                    app::money::watts(c.network().1),
                    c.record.slowdown_percent,
                    engine::search::describe_choice(&c.choice)
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
