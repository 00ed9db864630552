//! `fabric-planner handoff`: a design's hand-off bundle written to a file, without a server.

/// `fabric-planner handoff SPEC.json --out bundle.zip`: the same zip as the design page's
/// download, without a server. Returns the process exit code (2 for a spec the engine refuses).
pub fn run(args: &super::cli::HandoffArgs) -> i32 {
    let (spec, report) = match super::evaluate::evaluated(&args.spec) {
        Ok(evaluated) => evaluated,
        Err(code) => return code,
    };
    let written = crate::resources::handoff::zipped_bundle(&spec, &report)
        .map_err(|e| e.to_string())
        .and_then(|zipped| {
            std::fs::write(&args.out, zipped.zip)
                .map(|()| zipped.files.len())
                .map_err(|e| e.to_string())
        });
    match written {
        Ok(count) => {
            println!("{count} files written to {}", args.out.display());
            0
        }
        Err(error) => {
            eprintln!("error: writing {}: {error}", args.out.display());
            1
        }
    }
}
