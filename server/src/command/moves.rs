//! `fabric-planner moves`: the move list between a design's growth phases, written to a file,
//! without a server.

/// `fabric-planner moves SPEC.json --out moves.csv`: the same spreadsheet as the revision's
/// `moves.csv`, every cable each step between the phases adds, removes or re-terminates.
/// Returns the process exit code (2 for a spec the engine refuses or a design without phases).
pub fn run(args: &super::cli::MovesArgs) -> i32 {
    let (spec, report) = match super::evaluate::evaluated(&args.spec) {
        Ok(evaluated) => evaluated,
        Err(code) => return code,
    };
    let csv = match crate::resources::exports::moves(&spec, &report) {
        Ok(Ok(csv)) => csv,
        Ok(Err(error)) => {
            eprintln!("error: writing the move list: {error}");
            return 1;
        }
        Err(reason) => {
            eprintln!("no move list: {reason}");
            return 2;
        }
    };
    let rows = csv.lines().count().saturating_sub(1);
    match std::fs::write(&args.out, csv) {
        Ok(()) => {
            println!("{rows} cables written to {}", args.out.display());
            0
        }
        Err(error) => {
            eprintln!("error: writing {}: {error}", args.out.display());
            1
        }
    }
}
