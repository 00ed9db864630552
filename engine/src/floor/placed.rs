//! The network as placed: the fabrics' bills with the floor's cables and optics, each cable at
//! its routed length with the medium that length needs, in place of each tier's nominal run.

use super::{media, placement, routing};
use crate::report::{BomLine, FabricReport, Totals};
use crate::spec::DesignSpec;
use crate::units::{Usd, Watts};

/// Whether `line` is a cable or an optic: what the floor prices by each cable's routed length,
/// and each tier's nominal run prices otherwise.
pub(crate) fn is_cabling(line: &BomLine) -> bool {
    ["cable:", "optic:", "fibre:"]
        .iter()
        .any(|p| line.item.starts_with(p))
}

/// (cost, power) of the cables and optics at each tier's nominal run: the nominal `totals` of
/// `fabrics` without their other lines (switches), which are the same in either bill.
pub(super) fn nominal_cabling(fabrics: &[FabricReport], totals: &Totals) -> (Usd, Watts) {
    let (usd, w) = bill_totals(
        fabrics
            .iter()
            .flat_map(|f| &f.bom)
            .filter(|l| !is_cabling(l)),
    );
    (totals.cost_usd - usd, totals.power_w - w)
}

/// The formula of the network as placed, for cost or power.
pub(super) fn as_placed_formula(unit: &str) -> String {
    format!("the design's network {unit} − its cables and optics at each tier's run + the floor's cables and optics")
}

pub(super) const AS_PLACED_SOURCE: &str =
    "the fabrics' bills of materials; the floor's routed cables";

/// `totals` with the floor's cables and optics (`cabling`: cost, power) in place of the
/// nominal ones (`nominal`).
pub(super) fn as_placed(
    totals: &Totals,
    nominal: (Usd, Watts),
    cabling: (Usd, Watts),
    gpus: u64,
) -> Totals {
    Totals::new(
        totals.cost_usd - nominal.0 + cabling.0,
        totals.power_w - nominal.1 + cabling.1,
        gpus,
    )
}

/// The network of `spec`, whose fabrics are sized as `fabrics` and add up to `totals` (each
/// tier's cables at its nominal run), as placed on its floor: what [`crate::evaluate`] reports
/// as [`crate::Report::placed`]. Each fabric's bill becomes its bill as placed: its cables and
/// optics are the floor's, each cable at its routed, orderable length, in place of the nominal
/// ones, and its cost and power the sum of that bill. Places and routes as [`super::plan`]
/// does, without naming racks or listing what stands in them.
pub(crate) fn place_bills(
    spec: &DesignSpec,
    fabrics: &mut [FabricReport],
    totals: &Totals,
) -> Totals {
    let placed = placement::place(spec, fabrics);
    let router = routing::Router::new(&placed, &spec.floor);
    let tally = media::tally(spec, fabrics, &placed, &router, false);
    place_bills_on(
        fabrics,
        totals,
        &tally.bom,
        tally.bom_by_fabric,
        spec.cluster.gpus(),
    )
}

/// [`place_bills`] with the floor's cables and optics counted already: `bom` for the whole
/// floor, `by_fabric` each fabric's.
pub(super) fn place_bills_on(
    fabrics: &mut [FabricReport],
    totals: &Totals,
    bom: &[BomLine],
    by_fabric: Vec<Vec<BomLine>>,
    gpus: u64,
) -> Totals {
    let network = as_placed(
        totals,
        nominal_cabling(fabrics, totals),
        bill_totals(bom),
        gpus,
    );
    for (fabric, lines) in fabrics.iter_mut().zip(by_fabric) {
        fabric.bom.retain(|l| !is_cabling(l));
        fabric.bom.extend(lines);
        fabric.transceivers = fabric
            .bom
            .iter()
            .filter(|l| l.item.starts_with("optic:"))
            .map(|l| l.quantity)
            .sum();
        let (usd, w) = bill_totals(&fabric.bom);
        fabric.cost_usd = usd;
        fabric.power_w = w;
    }
    network
}

/// (cost, power) of `lines`.
pub(super) fn bill_totals<'a>(lines: impl IntoIterator<Item = &'a BomLine>) -> (Usd, Watts) {
    lines
        .into_iter()
        .fold((Usd::new(0.0), Watts::new(0.0)), |(usd, w), l| {
            (usd + l.total_usd, w + l.total_power_w)
        })
}
