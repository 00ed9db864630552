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
    let sheet = match crate::resources::exports::move_sheet(&spec, &report) {
        Ok(sheet) => sheet,
        Err(reason) => {
            eprintln!("no move list: {reason}");
            return 2;
        }
    };
    let written = std::fs::File::create(&args.out).and_then(|file| {
        let mut out = std::io::BufWriter::new(file);
        crate::resources::exports::write_moves(&sheet, &mut out).map_err(std::io::Error::other)?;
        std::io::Write::flush(&mut out)
    });
    match written {
        Ok(()) => {
            println!(
                "{} cables written to {}",
                sheet.list.rows.len(),
                args.out.display()
            );
            0
        }
        Err(error) => {
            eprintln!("error: writing {}: {error}", args.out.display());
            1
        }
    }
}
