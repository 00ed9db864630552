//! Spreadsheets of a revision, as CSV: the bill of materials (one row per item per fabric), the
//! cabling sheet (one row per cable, both ends named for labelling) and, for a design grown in
//! phases, the move list (one row per cable each step adds, removes or re-terminates).

use crate::resources::respond::{attachment, file_stem, html, streamed, Answer, Chunks, PageError};
use crate::resources::revisions::stored_revision;
use crate::work::evaluations::Evaluations;
use app::costs::COMPUTES;
use app::pages::document::message;
use app::store::Store;
use axum::extract::{Path, State};
use axum::handler::Handler;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use engine::{DesignSpec, PlacedReport, Report};
use std::ops::ControlFlow;
use std::sync::Arc;

const CSV: &str = "text/csv; charset=utf-8";

/// What a sheet's handler reads: the designs, and each revision's evaluation, kept.
#[derive(Clone)]
struct Sheets {
    store: Store,
    evaluations: Evaluations,
}

pub fn routes(store: Store, evaluations: Evaluations) -> Router {
    Router::new()
        .route("/d/{id}/r/{n}/bom.csv", get(bom_csv.layer(COMPUTES)))
        .route(
            "/d/{id}/r/{n}/cabling.csv",
            get(cabling_csv.layer(COMPUTES)),
        )
        .route("/d/{id}/r/{n}/moves.csv", get(moves_csv.layer(COMPUTES)))
        .with_state(Sheets { store, evaluations })
}

/// Most rows of a cabling sheet. A sheet is written as it is sent, so its rows cost the server
/// time, not memory: a million cables (about 200 MB of CSV, about a second of writing) are
/// those of some 250,000 GPUs on three fabrics.
pub const MAX_SHEET_ROWS: u64 = 1_000_000;

/// Most cables of a design whose hand-off files are written: as many as the cabling sheet has
/// rows. The bundle is made one at a time and kept as its zip; while it is made, the largest
/// file is written a piece at a time and the plan names each cable in a few dozen bytes, so a
/// million cables take about 330 MB (BENCHMARKS.md) and some 45 MB of zip.
pub const MAX_HANDOFF_CABLES: u64 = MAX_SHEET_ROWS;

/// Most rows of a move list: it is drawn up whole in memory before it is sent, each row named
/// in full.
pub const MAX_MOVE_ROWS: usize = 250_000;

/// A text cell: kept as text where a spreadsheet would run it as a formula.
fn cell(text: &str) -> std::borrow::Cow<'_, str> {
    engine::handoff::spreadsheet_text(text)
}

/// Dollars with cents, as a bare number a spreadsheet sums.
fn money(value: engine::Usd) -> String {
    format!("{:.2}", value.dollars())
}

fn write(rows: impl IntoIterator<Item = Vec<String>>) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.write_record(&row)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The bill of materials of every fabric of `report`.
pub fn bom(report: &Report) -> Result<String, csv::Error> {
    let header = [
        "fabric",
        "item",
        "model",
        "quantity",
        "unit_price_usd",
        "total_usd",
        "unit_power_w",
        "total_power_w",
        "basis",
        "source",
    ]
    .map(String::from)
    .to_vec();
    let rows = report.fabrics.iter().flat_map(|fabric| {
        fabric.bom.iter().map(|line| {
            vec![
                cell(&fabric.name).into_owned(),
                cell(&line.item).into_owned(),
                cell(&line.description).into_owned(),
                line.quantity.to_string(),
                money(line.unit_price_usd),
                money(line.total_usd),
                format!("{:.1}", line.unit_power_w.watts()),
                format!("{:.1}", line.total_power_w.watts()),
                line.basis().label().to_string(),
                cell(&line.source_text()).into_owned(),
            ]
        })
    });
    write(std::iter::once(header).chain(rows))
}

/// What changes in the bill to order from one design to another: a row per item of each fabric
/// that differs, the dearest first.
pub fn bill_difference(diff: &engine::bill_diff::BillDiff) -> Result<String, csv::Error> {
    let header = [
        "fabric",
        "item",
        "model",
        "change",
        "quantity_before",
        "quantity_after",
        "cost_delta_usd",
        "power_delta_w",
    ]
    .map(String::from)
    .to_vec();
    let rows = diff.items.iter().map(|i| {
        vec![
            cell(&i.fabric).into_owned(),
            cell(&i.item).into_owned(),
            cell(&i.description).into_owned(),
            i.change.label().to_string(),
            i.quantity_before.to_string(),
            i.quantity_after.to_string(),
            money(i.cost_delta),
            format!("{:.1}", i.power_delta.watts()),
        ]
    });
    write(std::iter::once(header).chain(rows))
}

/// Why `report` has no cabling sheet, if it has none: more rows than a sheet holds, or a fabric
/// whose switches cannot take its cables. Asked before a sheet is begun, from the sized
/// fabrics, so that a sheet too large to write costs nothing.
pub fn no_cabling_sheet(report: &Report) -> Option<String> {
    let cables = report.cable_count();
    if cables > MAX_SHEET_ROWS {
        return Some(format!(
            "This design has {} cables; a cabling sheet holds at most {} rows. \
             Its bill of materials counts every cable by tier and reach.",
            app::words::number(cables),
            app::words::number(MAX_SHEET_ROWS)
        ));
    }
    engine::floor::cabling_fits(report)
        .err()
        .map(|e| e.to_string())
}

/// Writes one row per cable of every fabric of `report`, placed on the floor of `spec`, to
/// `out` as it goes: both ends with rack and rack unit, the routed and orderable length and
/// the medium, and for a design grown in phases the phase that first lays it. A design
/// [`no_cabling_sheet`] refuses gets the header alone.
pub fn write_cabling(
    spec: &DesignSpec,
    report: &Report,
    out: impl std::io::Write,
) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    let phases = engine::phases::phases(spec, report).and_then(Result::ok);
    let mut header = vec![
        "cable",
        "fabric",
        "tier",
        "a_rack",
        "a_u",
        "a_device",
        "a_port",
        "z_rack",
        "z_u",
        "z_device",
        "z_port",
        "cable_or_optic",
        "reach_class",
        "route_m",
        "length_m",
    ];
    if phases.is_some() {
        header.push("phase");
    }
    writer.write_record(&header)?;
    let speeds: std::collections::HashMap<&str, f64> = report
        .fabrics
        .iter()
        .map(|f| (f.name.as_str(), f.port_rate.bits_per_second() / 1e9))
        .collect();
    // The first error (the client has gone) stops the writing and the sheet.
    let mut written: csv::Result<()> = Ok(());
    let mut number = 0u32;
    let digits = engine::handoff::label_digits(report);
    // Numbers are written through one buffer: a row allocates nothing of its own.
    let mut scratch = String::new();
    let _ = engine::floor::cabling_each(spec, report, |cable| {
        number += 1;
        let speed = speeds.get(cable.fabric.as_str()).copied().unwrap_or(0.0);
        let phase = phases
            .as_ref()
            .map(|plan| &plan.phases[engine::phases::cable_phase(plan, report, &cable)].label);
        written = cabling_row(
            &mut writer,
            &mut scratch,
            (number, digits),
            &cable,
            speed,
            phase,
        );
        if written.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    written?;
    writer.flush()?;
    Ok(())
}

/// One row of the cabling sheet: cable `number`, its fabric and tier, each end's rack, rack unit,
/// device and port, the medium, its reach, the routed and orderable length, and the phase.
fn cabling_row(
    w: &mut csv::Writer<impl std::io::Write>,
    scratch: &mut String,
    (number, digits): (u32, usize),
    cable: &engine::cabling::Cable,
    speed: f64,
    phase: Option<&String>,
) -> csv::Result<()> {
    scratch.clear();
    engine::handoff::push_label(scratch, number as usize, digits);
    w.write_field(&scratch)?;
    let mut number_field = |w: &mut csv::Writer<_>, n: &dyn std::fmt::Display| {
        use std::fmt::Write;
        scratch.clear();
        let _ = write!(scratch, "{n}");
        w.write_field(&scratch)
    };
    w.write_field(cell(&cable.fabric).as_ref())?;
    w.write_field(cable.tier)?;
    for (rack, u, device, port) in [
        (&cable.a_rack, cable.a_u, &cable.a_device, &cable.a_port),
        (&cable.z_rack, cable.z_u, &cable.z_device, &cable.z_port),
    ] {
        w.write_field(cell(rack.as_deref().unwrap_or_default()).as_ref())?;
        match u {
            Some(u) => number_field(w, &u)?,
            None => w.write_field("")?,
        }
        w.write_field(cell(device).as_ref())?;
        w.write_field(cell(port).as_ref())?;
    }
    match &cable.medium {
        Some(medium) => w.write_field(medium)?,
        None => w.write_field(cable.media(speed))?,
    }
    w.write_field(cable.reach.map(|r| r.key()).unwrap_or("none"))?;
    for m in [cable.route_m, cable.length_m] {
        match m {
            Some(m) => number_field(w, &m.metres())?,
            None => w.write_field("")?,
        }
    }
    if let Some(label) = phase {
        w.write_field(cell(label).as_ref())?;
    }
    w.write_record(None::<&[u8]>)
}

/// The move list of a design grown in phases, ready to be written: every cable each step
/// between its phases adds, removes or re-terminates, and the phases' labels.
pub struct MoveSheet {
    labels: Vec<String>,
    pub list: engine::phases::MoveList,
}

/// The move list between the growth phases of `spec` (evaluated as `report`); `Err` says why
/// there is none: a design built in one step, a list over the rows a sheet holds, or a step
/// that is not listed cable by cable.
pub fn move_sheet(spec: &DesignSpec, report: &Report) -> Result<MoveSheet, String> {
    let (Some(growth), Some(list)) = (
        spec.growth.as_ref(),
        engine::phases::move_list(spec, report, MAX_MOVE_ROWS),
    ) else {
        return Err("This design lists no growth phases: it is built in one step, and its cabling sheet lists every cable.".into());
    };
    let list = list?;
    let labels: Vec<String> = growth.phases.iter().map(|p| p.label.clone()).collect();
    if let Some((phase, why)) = list.not_listed.first() {
        return Err(format!(
            "The step to {} is not listed cable by cable: {why}.",
            labels.get(*phase).map_or("", String::as_str)
        ));
    }
    Ok(MoveSheet { labels, list })
}

/// Writes the move list to `out` as it goes, one row per cable each step adds, removes or
/// re-terminates: the end that stays (device, port, rack), the switch before and after with its
/// rack and the orderable length a cable to it needs, and whether a re-terminated cable is too
/// short for its new run.
pub fn write_moves(sheet: &MoveSheet, out: impl std::io::Write) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "step",
        "fabric",
        "tier",
        "action",
        "rack",
        "device",
        "port",
        "from_rack",
        "from_device",
        "from_length_m",
        "to_rack",
        "to_device",
        "to_length_m",
        "longer_cable",
    ])?;
    let label = |phase: usize| sheet.labels.get(phase).map_or("", String::as_str);
    for row in &sheet.list.rows {
        let step = format!(
            "{} → {}",
            label(row.phase.saturating_sub(1)),
            label(row.phase)
        );
        w.write_field(cell(&step).as_ref())?;
        w.write_field(cell(&row.fabric).as_ref())?;
        w.write_field(row.tier)?;
        w.write_field(row.action.label())?;
        w.write_field(cell(row.rack.as_deref().unwrap_or_default()).as_ref())?;
        w.write_field(cell(&row.device).as_ref())?;
        w.write_field(cell(&row.port).as_ref())?;
        for end in [&row.from, &row.to] {
            match end {
                Some(e) => {
                    w.write_field(cell(e.rack.as_deref().unwrap_or_default()).as_ref())?;
                    w.write_field(cell(&e.device).as_ref())?;
                    match e.length_m {
                        Some(m) => w.write_field(format!("{}", m.metres()))?,
                        None => w.write_field("")?,
                    }
                }
                None => {
                    for _ in 0..3 {
                        w.write_field("")?;
                    }
                }
            }
        }
        w.write_field(if row.needs_longer_cable() { "yes" } else { "" })?;
        w.write_record(None::<&[u8]>)?;
    }
    w.flush()?;
    Ok(())
}

pub(crate) fn csv_response(result: Result<String, csv::Error>, file: String) -> Response {
    match result {
        Ok(text) => attachment(CSV, text, &file),
        Err(e) => {
            tracing::error!(error = %e, "writing a CSV failed");
            html(&message(
                500,
                "Export failed",
                "The sheet could not be written.".into(),
            ))
        }
    }
}

/// The sheet of revision `n` of design `id`, as `<title>-r<n>.<kind>.csv`: `prepare` takes the
/// revision's spec and today's evaluation of it (the one its page and report show, kept) and
/// says why there is no sheet or hands what `write` writes as it is sent. Both are CPU work, on
/// the blocking pool; a sheet refused is a 422 page, a sheet begun is written whole.
async fn sheet<T: Send + 'static>(
    sheets: &Sheets,
    (id, n): (&str, &str),
    kind: &str,
    prepare: impl FnOnce(DesignSpec, Arc<PlacedReport>) -> Result<T, String> + Send + 'static,
    write: impl FnOnce(&T, &mut Chunks) -> csv::Result<()> + Send + 'static,
) -> Answer {
    let (design_id, stored) = stored_revision(&sheets.store, id, n).await?;
    let file = format!(
        "{}-r{}.{kind}.csv",
        file_stem(&stored.spec.title),
        stored.number
    );
    let spec = stored.spec;
    let placed = sheets
        .evaluations
        .of(&design_id, stored.number, spec.clone())
        .await
        .map_err(PageError::Page)?;
    let prepared = app::compute::run(move || {
        let placed = placed.map_err(|why| why.to_string())?;
        prepare(spec, placed)
    });
    Ok(match prepared.await {
        Ok(Ok(ready)) => attachment(
            CSV,
            streamed(move |out| write(&ready, out).map_err(std::io::Error::other)),
            &file,
        ),
        Ok(Err(reason)) => html(&message(422, "No sheet", reason)),
        Err(_) => csv_response(
            Err(csv::Error::from(std::io::Error::other("panicked"))),
            file,
        ),
    })
}

async fn bom_csv(State(sheets): State<Sheets>, Path((id, n)): Path<(String, String)>) -> Answer {
    let write = |placed: &Arc<PlacedReport>, out: &mut Chunks| -> csv::Result<()> {
        Ok(std::io::Write::write_all(
            out,
            bom(&placed.report)?.as_bytes(),
        )?)
    };
    sheet(&sheets, (&id, &n), "bom", |_, placed| Ok(placed), write).await
}

/// The cabling sheet, which runs to a few hundred thousand rows, is never held whole.
async fn cabling_csv(
    State(sheets): State<Sheets>,
    Path((id, n)): Path<(String, String)>,
) -> Answer {
    let prepare = |spec, placed: Arc<PlacedReport>| match no_cabling_sheet(&placed.report) {
        Some(reason) => Err(reason),
        None => Ok((spec, placed)),
    };
    let write = |(spec, placed): &(DesignSpec, Arc<PlacedReport>), out: &mut Chunks| {
        write_cabling(spec, &placed.report, out)
    };
    sheet(&sheets, (&id, &n), "cabling", prepare, write).await
}

async fn moves_csv(State(sheets): State<Sheets>, Path((id, n)): Path<(String, String)>) -> Answer {
    let prepare = |spec, placed: Arc<PlacedReport>| move_sheet(&spec, &placed.report);
    sheet(&sheets, (&id, &n), "moves", prepare, |list, out| {
        write_moves(list, out)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn text_a_spreadsheet_would_run_as_a_formula_is_kept_as_text() {
        assert_eq!(
            cell("=HYPERLINK(\"http://x\")"),
            "'=HYPERLINK(\"http://x\")"
        );
        assert_eq!(cell("+1"), "'+1");
        assert_eq!(cell("-2"), "'-2");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("compute-leaf-01"), "compute-leaf-01");
    }
}
