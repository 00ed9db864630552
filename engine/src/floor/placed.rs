//! The network as placed: the fabrics' bills with the floor's cables and optics, each cable at
//! its routed length with the medium that length needs, in place of each tier's nominal run.

use super::{media, placement, routing};
use crate::report::{BomLine, FabricReport, Totals};
use crate::spec::DesignSpec;
use crate::units::{Usd, Watts};

/// (cost, power) of the cables and optics in the fabrics' bills of materials.
pub(super) fn nominal_cabling(fabrics: &[FabricReport]) -> (Usd, Watts) {
    bill_totals(
        fabrics
            .iter()
            .flat_map(|f| &f.bom)
            .filter(|l| l.item.starts_with("cable:") || l.item.starts_with("optic:")),
    )
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

/// The network of `spec`, whose fabrics are sized as `fabrics` and add up to `totals`, as
/// placed on its floor: what [`crate::evaluate`] reports as [`crate::Report::placed`]. Places and
/// routes as [`super::plan`] does, without naming racks or listing what stands in them.
pub(crate) fn placed_totals(
    spec: &DesignSpec,
    fabrics: &[FabricReport],
    totals: &Totals,
) -> Totals {
    let placed = placement::place(spec, fabrics);
    let router = routing::Router::new(&placed, &spec.floor);
    let tally = media::tally(spec, fabrics, &placed, &router, false);
    as_placed(
        totals,
        nominal_cabling(fabrics),
        bill_totals(&tally.bom),
        spec.cluster.gpus(),
    )
}

/// (cost, power) of `lines`.
pub(super) fn bill_totals<'a>(lines: impl IntoIterator<Item = &'a BomLine>) -> (Usd, Watts) {
    lines
        .into_iter()
        .fold((Usd(0.0), Watts(0.0)), |(usd, w), l| {
            (usd + l.total_usd, w + l.total_power_w)
        })
}
